// EXPECT: moe fused: stage 1 and stage 2 share the workgroup size.*moe_fused_workgroup_size.hip:10
// The fused MoE kernel (include/hipasm/kernels/moe.hpp) runs both stages in one workgroup
// size: stage configurations of different waves * k_split are a compile error at the user's
// kernel line.
#include <hipasm/kernels/moe.hpp>

constexpr hipasm::kernels::moe_gemm_config stage1{.waves = 1, .k_split = 8};
constexpr hipasm::kernels::moe_gemm_config stage2{.waves = 2, .k_split = 2};

HIPASM_MOE_FUSED_KERNEL(bad_fused, stage1, stage2)
