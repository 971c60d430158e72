// The MXFP4 GEMM's benchmark configurations (kernels/gemm_fp4.hip, bench_gemm_fp4.cpp).
#pragma once
#include <hipasm/kernels/gemm_fp4.hpp>

namespace f4_bench {
using hipasm::kernels::gemm_fp4_config;
// small M: one 32-row MFMA block a wave, 32 or 64 columns a wave, K split over 2 or 4 wave groups
inline constexpr gemm_fp4_config f4_32x64{.bm = 32, .bn = 64, .wm = 1, .wn = 2};
inline constexpr gemm_fp4_config f4_32x128{.bm = 32, .bn = 128, .wm = 1, .wn = 4};
inline constexpr gemm_fp4_config f4_32x64_k2{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .wk = 2};
inline constexpr gemm_fp4_config f4_32x32_k4{.bm = 32, .bn = 32, .wm = 1, .wn = 1, .wk = 4};
// larger M: 2 x 2 waves of 32x64 or 64x64 blocks
inline constexpr gemm_fp4_config f4_64x128{.bm = 64, .bn = 128, .wm = 2, .wn = 2};
inline constexpr gemm_fp4_config f4_128x128{.bm = 128, .bn = 128, .wm = 2, .wn = 2};
inline constexpr gemm_fp4_config f4_256x256{.bm = 256, .bn = 256, .wm = 4, .wn = 4};
// deeper prefetch: 4 register sets (3 steps of loads in flight a wave)
inline constexpr gemm_fp4_config f4_32x64_s4{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .stages = 4};
inline constexpr gemm_fp4_config f4_32x32_k4_s4{.bm = 32, .bn = 32, .wm = 1, .wn = 1, .wk = 4, .stages = 4};
inline constexpr gemm_fp4_config f4_64x128_s3{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .stages = 3};
// B preshuffled (gemm_fp4_preshuffle_b)
inline constexpr gemm_fp4_config f4_32x64_bs{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x128_bs{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x256_bs{.bm = 32, .bn = 256, .wm = 1, .wn = 4, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x128_bs_k2{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .wk = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x64_bs_k4{.bm = 32, .bn = 64, .wm = 1, .wn = 1, .wk = 4, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_64x128_bs{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_64x256_bs{.bm = 64, .bn = 256, .wm = 2, .wn = 2, .b_shuffled = true};
}  // namespace f4_bench
