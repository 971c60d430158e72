// HIPASM_KERNARG_PRELOAD (the kernels read their arguments from the preloaded SGPRs, as in the benchmarks)
#include <hipasm/kernels/gemv.hpp>

#include "gemv_configs.hpp"

HIPASM_GEMV_KERNEL(gemv_bf16, cfg::bf16)
HIPASM_GEMV_KERNEL(gemv_bf16_ksplit_bias, cfg::bf16_ksplit_bias)
HIPASM_GEMV_KERNEL(gemv_f32, cfg::f32)
HIPASM_GEMV_KERNEL(gemv_bf16_xf32_v4, cfg::bf16_xf32_v4)
HIPASM_GEMV_KERNEL(gemv_bf16_v2, cfg::bf16_v2)
HIPASM_GEMV_KERNEL(gemv_f32_xbf16, cfg::f32_xbf16)
HIPASM_GEMV_KERNELS(gemv_bf16_pair, cfg::bf16)  // gemv_bf16_pair and gemv_bf16_pair_ksplit (launch_gemv_auto)
