// HIPASM_KERNARG_PRELOAD (the kernels read their arguments from the preloaded SGPRs, as in the benchmarks)
#include <hipasm/kernels/rotary.hpp>

#include "rotary_configs.hpp"

HIPASM_ROTARY_KERNEL(rope_neox_128, cfg::neox_128)
HIPASM_ROTARY_KERNEL(rope_gptj_64, cfg::gptj_64)
HIPASM_ROTARY_KERNEL(rope_neox_128_r64, cfg::neox_128_r64)
HIPASM_ROTARY_KERNEL(rope_gptj_128_r24, cfg::gptj_128_r24)
HIPASM_ROTARY_KERNEL(rope_neox_64_r32_bf16, cfg::neox_64_r32_bf16)
