// hipasm helpers: the kernel engineer's toolkit built on the core language (buffers, LDS
// views and layouts, lanes and reductions, math and conversions, waits and scheduling).
// One concept per header under helpers/; each is constexpr and usable inside a kernel body.
#pragma once
#include "builder.hpp"
#include "helpers/mem_offset.hpp"
#include "helpers/buffer.hpp"
#include "helpers/lds.hpp"
#include "helpers/tile_copy.hpp"
#include "helpers/interleave.hpp"
#include "helpers/loops.hpp"
#include "helpers/exec_mask.hpp"
#include "helpers/debug_log.hpp"
#include "helpers/dpp.hpp"
#include "helpers/lanes.hpp"
#include "helpers/scan.hpp"
#include "helpers/select.hpp"
#include "helpers/math.hpp"
#include "helpers/convert.hpp"
#include "helpers/arrival.hpp"
