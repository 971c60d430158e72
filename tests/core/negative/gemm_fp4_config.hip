// EXPECT: gemm_fp4_config.hip:9:1: error: static assertion failed.*gemm_fp4: a wave's accumulators, `stages` sets of fragments \(and a_lds's staging\) exceed 248 VGPRs
// ARCH: gfx950
// A gemm_fp4 configuration whose registers do not fit (include/hipasm/kernels/gemm_fp4.hpp
// gemm_fp4_config_error): a compile error naming the configuration's kernel line.
#include <hipasm/kernels/gemm_fp4.hpp>

constexpr hipasm::kernels::gemm_fp4_config cfg{.bm = 64, .bn = 256, .wm = 2, .wn = 2, .b_shuffled = true, .a_lds = true};

HIPASM_GEMM_FP4_KERNEL(too_big, cfg)
