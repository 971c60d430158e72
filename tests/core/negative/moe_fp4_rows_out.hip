// EXPECT: moe_fp4_rows_out.hip:10:1: error: static assertion failed.*moe_fp4: rows_out stores each row's sums once: k_split 1
// ARCH: gfx950
// A moe_fp4 stage 2 storing its rows (rows_out) with its K split over waves: each part would
// store its partial sums over the others' (include/hipasm/kernels/moe_fp4.hpp moe_fp4_config_error).
#include <hipasm/kernels/moe_fp4.hpp>

// (two parts of K, each its own sums)
constexpr hipasm::kernels::moe_fp4_config cfg{.waves = 1, .k_split = 2, .w_shuffled = true, .rows_out = true};

HIPASM_MOE_FP4_STAGE2_KERNEL(split_rows, cfg)
