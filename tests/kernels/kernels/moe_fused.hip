#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

// blocks looped over (max_workgroups 4): several waits a stage-2 workgroup
HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u1, cfg::gemm_g1u1, cfg::gemm_g1u1)
// weights through LDS, stage 2 with another configuration of the same workgroup size
HIPASM_MOE_FUSED_KERNEL(moe_fused_g1u0_lds, cfg::gemm_g1u0_lds, cfg::gemm_g1u1_lds)
