// EXPECT: moe_fp4_config.hip:10:1: error: static assertion failed.*moe_fp4: the k_split partial sums exceed 160 KiB of LDS
// ARCH: gfx950
// A moe_fp4 configuration whose stage-1 partial sums do not fit in LDS (include/hipasm/kernels/
// moe_fp4.hpp moe_fp4_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/moe_fp4.hpp>

// (7 parts past the first x 2 waves x 2 sums x 2 blocks x 16 registers x 64 lanes x 4 bytes = 224 KiB)
constexpr hipasm::kernels::moe_fp4_config cfg{.waves = 2, .k_split = 8, .blocks = 2};

HIPASM_MOE_FP4_STAGE1_KERNEL(too_big, cfg)
