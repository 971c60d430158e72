// EXPECT: moe_quant stage 1: early_weights is stage 2's.*moe_quant_stage1_early_weights.hip:8
// Early weights load stage 2's W2 before its wait for h; stage 1 waits for nothing: the option
// there is a compile error at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage1{.waves = 4, .k_split = 2, .early_weights = true};

HIPASM_MOE_QUANT_STAGE1_KERNEL(bad_stage1, stage1)
