#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u1, moe_bench::g1u1, moe_bench::down_g1u1)
