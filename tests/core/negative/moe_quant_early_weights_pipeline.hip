// EXPECT: moe_quant: early_weights with pipeline 2.*moe_quant_early_weights_pipeline.hip:8
// Stage 2's early weights split a two-deep K pipeline's first loads around the wait: with three
// K blocks in flight the option is a compile error at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage2{.waves = 4, .pipeline = 3, .early_weights = true};

HIPASM_MOE_QUANT_STAGE2_KERNEL(bad_stage2, stage2)
