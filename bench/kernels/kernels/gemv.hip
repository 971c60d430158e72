#include <hipasm/kernels/gemv.hpp>

#include "gemv_bench_configs.hpp"

HIPASM_GEMV_KERNEL(gemv_rows, bench_cfg::gemv_rows)
HIPASM_GEMV_KERNEL(gemv_ksplit, bench_cfg::gemv_ksplit)
HIPASM_GEMV_KERNEL(gemv_f32, bench_cfg::gemv_f32)
