// hipasm: gfx942 kernels written as constexpr C++20 functions, compiled ahead of time.
// This umbrella header includes the whole library: the kernel language (registers,
// builder with every mnemonic, expressions, control flow, kernel arguments), the passes,
// the asm emitter and the HIP kernel wrapper, as far as they are present.
#pragma once
#include "builder.hpp"
#if __has_include("pipeline.hpp")
#include "pipeline.hpp"
#endif
#if __has_include("emit.hpp")
#include "emit.hpp"
#endif
#if __has_include("kernel.hpp")
#include "kernel.hpp"
#endif
#include "helpers.hpp"
