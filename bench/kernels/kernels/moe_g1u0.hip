#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u0, moe_bench::g1u0, moe_bench::down_fused)
HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u0_long_k, moe_bench::g1u0, moe_bench::down_fused_long_k)
HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u0_mid_k, moe_bench::g1u0, moe_bench::down_fused_mid_k)
