#include <hipasm/kernels/layernorm.hpp>

#include "norm_bench_configs.hpp"

HIPASM_LAYERNORM_KERNEL(layernorm_4096, bench_cfg::h4096)
HIPASM_LAYERNORM_KERNEL(layernorm_4096_res, bench_cfg::h4096_res)
HIPASM_LAYERNORM_KERNEL(layernorm_8192, bench_cfg::h8192)
HIPASM_LAYERNORM_KERNEL(layernorm_8192_res, bench_cfg::h8192_res)
HIPASM_LAYERNORM_KERNEL(layernorm_4096_f16, bench_cfg::h4096_f16)
