// EXPECT: moe_fp4_x_lds.hip:10:1: error: static assertion failed.*moe_fp4: x_lds takes x gathered, k_split 1 and waves >= 4 \* blocks
// ARCH: gfx950
// A moe_fp4 stage 1 sharing the token fragments through LDS with fewer waves than pieces (4 a
// block): include/hipasm/kernels/moe_fp4.hpp moe_fp4_config_error.
#include <hipasm/kernels/moe_fp4.hpp>

// (2 blocks: 8 pieces a step, 4 waves)
constexpr hipasm::kernels::moe_fp4_config cfg{.waves = 4, .blocks = 2, .w_shuffled = true, .x_gathered = true, .x_lds = true};

HIPASM_MOE_FP4_STAGE1_KERNEL(few_waves, cfg)
