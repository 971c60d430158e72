// HIPASM_KERNARG_PRELOAD (the kernels read their arguments from the preloaded SGPRs, as in the benchmarks)
#include <hipasm/kernels/softmax.hpp>

#include "softmax_configs.hpp"

HIPASM_SOFTMAX_KERNEL(sm_bf16_1000, cfg::sm_bf16_1000)
HIPASM_SOFTMAX_KERNEL(sm_f32_1000, cfg::sm_f32_1000)
HIPASM_SOFTMAX_KERNEL(sm_bf16_8192, cfg::sm_bf16_8192)
HIPASM_SOFTMAX_KERNEL(sm_f32_6, cfg::sm_f32_6)
HIPASM_SOFTMAX_KERNEL(sm_f32_32000, cfg::sm_f32_32000)
HIPASM_SOFTMAX_KERNEL(lsm_f32_1000, cfg::lsm_f32_1000)
HIPASM_SOFTMAX_KERNEL(lsm_bf16_8192, cfg::lsm_bf16_8192)
