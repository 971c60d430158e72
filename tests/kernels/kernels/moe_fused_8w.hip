#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

// the bench's g1u0 layout of work: stage 1 K over 8 waves, stage 2 4 column waves x 2
HIPASM_MOE_FUSED_KERNEL(moe_fused_8w, cfg::gemm_g1u0_8w, cfg::down_8w)
// and its long-K stage 2: 2 column waves x 4
HIPASM_MOE_FUSED_KERNEL(moe_fused_8w_long_k, cfg::gemm_g1u0_8w, cfg::down_8w_long_k)
// and its mid-K stage 2: 8 column waves, each the whole K
HIPASM_MOE_FUSED_KERNEL(moe_fused_8w_mid_k, cfg::gemm_g1u0_8w, cfg::down_8w_mid_k)
