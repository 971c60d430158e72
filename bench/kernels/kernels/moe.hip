#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_STAGE1_KERNEL(moe_stage1_g1u1, moe_bench::g1u1)
