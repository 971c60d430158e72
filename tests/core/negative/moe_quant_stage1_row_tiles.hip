// EXPECT: moe_quant stage 1: row_tiles 1.*moe_quant_stage1_row_tiles.hip:8
// Stage 1's two weight operands are gate and up: row tiles (a stage-2 option) are a compile error
// at the user's kernel line.
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage1{.waves = 4, .k_split = 2, .row_tiles = 2};

HIPASM_MOE_QUANT_STAGE1_KERNEL(bad_stage1, stage1)
