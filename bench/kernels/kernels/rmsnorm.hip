#include <hipasm/kernels/rmsnorm.hpp>

#include "norm_bench_configs.hpp"

HIPASM_RMSNORM_KERNEL(rmsnorm_4096, bench_cfg::h4096)
HIPASM_RMSNORM_KERNEL(rmsnorm_4096_res, bench_cfg::h4096_res)
HIPASM_RMSNORM_KERNEL(rmsnorm_8192, bench_cfg::h8192)
HIPASM_RMSNORM_KERNEL(rmsnorm_8192_res, bench_cfg::h8192_res)
HIPASM_RMSNORM_KERNEL(rmsnorm_4096_f16, bench_cfg::h4096_f16)
