#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

HIPASM_MOE_STAGE2_KERNEL(moe_s2, cfg::gemm_g1u1)
HIPASM_MOE_STAGE2_KERNEL(moe_s2_g1u0, cfg::gemm_g1u0)
