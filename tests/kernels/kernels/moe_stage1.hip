#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

HIPASM_MOE_STAGE1_KERNEL(moe_s1_g1u1, cfg::gemm_g1u1)
