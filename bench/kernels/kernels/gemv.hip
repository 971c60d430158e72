#include <hipasm/kernels/gemv.hpp>

#include "gemv_bench_configs.hpp"

HIPASM_GEMV_KERNELS(gemv_bf16, bench_cfg::gemv_bf16)  // gemv_bf16 (rows per wave) and gemv_bf16_ksplit
HIPASM_GEMV_KERNELS(gemv_f32, bench_cfg::gemv_f32)
