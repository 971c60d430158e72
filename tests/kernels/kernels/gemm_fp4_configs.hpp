// Configurations of tests/kernels/kernels/gemm_fp4.hip, shared with test_gemm_fp4.cpp.
#pragma once
#include <hipasm/kernels/gemm_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace fp4_configs {
using hipasm::kernels::gemm_fp4_config;
// one wave row of two waves (the default); 2 x 2 waves of 32x64 blocks (two MFMA columns a wave);
// K split over 3 wave groups (their sums through LDS), 2 x 1 waves
inline constexpr gemm_fp4_config f4_32x64{};
inline constexpr gemm_fp4_config f4_64x128{.bm = 64, .bn = 128, .wm = 2, .wn = 2};
inline constexpr gemm_fp4_config f4_64x32_k3{.bm = 64, .bn = 32, .wm = 2, .wn = 1, .wk = 3};
// B preshuffled (gemm_fp4_preshuffle_b), 4 register sets; and with 2 x 2 waves of 32x64 blocks
inline constexpr gemm_fp4_config f4_32x128_bs{.bm = 32, .bn = 128, .wm = 1, .wn = 4, .stages = 4, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_64x128_bs_k2{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .wk = 2, .b_shuffled = true};
// A through LDS: B row-major, 2 x 2 waves of 32x64 blocks, K over 2 groups; B preshuffled,
// 1 x 2 waves of 32x32 (A tile chunks 2 a lane)
inline constexpr gemm_fp4_config f4_64x128_al_k2{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .wk = 2, .a_lds = true};
inline constexpr gemm_fp4_config f4_32x64_al_bs{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true};
// A through LDS, B preshuffled, one row of 4 waves of 64x32 (the 64-row tile of bench_gemm_fp4)
inline constexpr gemm_fp4_config f4_64x128_w4_al_bs{.bm = 64, .bn = 128, .wm = 1, .wn = 4, .b_shuffled = true, .a_lds = true};
// A and B through LDS (ab_lds): 2 x 2 waves of 64x64 (its smallest tile) and of 128x128 (the
// large-M tile of bench_gemm_fp4)
inline constexpr gemm_fp4_config f4_128x128_ab{.bm = 128, .bn = 128, .wm = 2, .wn = 2, .ab_lds = true};
inline constexpr gemm_fp4_config f4_256x256_ab{.bm = 256, .bn = 256, .wm = 2, .wn = 2, .ab_lds = true};
// ab_lds with 2 persistent workgroups (groups: each walks its tiles)
inline constexpr gemm_fp4_config f4_128x128_ab_p{.bm = 128, .bn = 128, .wm = 2, .wn = 2, .ab_lds = true, .groups = 2};
// A through LDS, its scales a dword a step (no LDS windows)
inline constexpr gemm_fp4_config f4_32x64_al_nw{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true, .scale_windows = false};
// the end-to-end test's quantization: bf16 rows of 512 (aiter's rule, the default)
inline constexpr hipasm::kernels::mxfp4_quant_config quant_512{.d = 512, .waves = 2, .steps = 2};
}  // namespace fp4_configs
