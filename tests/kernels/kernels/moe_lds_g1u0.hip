#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

HIPASM_MOE_STAGE1_KERNEL(moe_s1_g1u0_lds, cfg::gemm_g1u0_lds)
HIPASM_MOE_STAGE2_KERNEL(moe_s2_g1u0_lds, cfg::gemm_g1u0_lds)
