// EXPECT: moe_quant fused: stage 1 and stage 2 share the workgroup size.*moe_quant_fused_workgroup_size.hip:10
// The quantized MoE's fused kernel runs both stages in one workgroup size: stage configurations
// of different waves * k_split are a compile error at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage1{.waves = 4, .k_split = 2};
constexpr hipasm::kernels::moe_quant_config stage2{.waves = 4, .k_split = 1};

// (the kernel:)
HIPASM_MOE_QUANT_FUSED_KERNEL(bad_fused, stage1, stage2)
