// EXPECT: gemm_fp4_ab_lds_config.hip:9:1: error: static assertion failed.*gemm_fp4: ab_lds takes wk = 1, two stages, B row-major \(no b_shuffled\) and no a_lds
// ARCH: gfx950
// An ab_lds configuration with a preshuffled B (include/hipasm/kernels/gemm_fp4.hpp
// gemm_fp4_config_error; ab_lds stages row-major A and B itself): a compile error naming the
// configuration's kernel line.
#include <hipasm/kernels/gemm_fp4.hpp>

constexpr hipasm::kernels::gemm_fp4_config cfg{.bm = 256, .bn = 256, .wm = 2, .wn = 2, .b_shuffled = true, .ab_lds = true};
HIPASM_GEMM_FP4_KERNEL(bad_ab_lds, cfg)
