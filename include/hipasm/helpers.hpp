// hipasm helpers: the kernel engineer's toolkit built on the core language (buffers, LDS
// views and layouts, lanes and reductions, math and conversions, waits and scheduling).
// One concept per header under helpers/; each is constexpr and usable inside a kernel body.
#pragma once
#include "builder.hpp"
#include "helpers/dpp.hpp"
#include "helpers/lanes.hpp"
#include "helpers/select.hpp"
#include "helpers/math.hpp"
#include "helpers/convert.hpp"
