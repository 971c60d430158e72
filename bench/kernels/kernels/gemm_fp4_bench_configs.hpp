// The MXFP4 GEMM's benchmark configurations (kernels/gemm_fp4.hip, bench_gemm_fp4.cpp).
#pragma once
#include <hipasm/kernels/gemm_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace f4_bench {
using hipasm::kernels::gemm_fp4_config;
// B row-major (mxfp4_quant's layout): 32-row blocks, 32 or 64 columns a wave, K over 4 wave groups
inline constexpr gemm_fp4_config f4_32x64{.bm = 32, .bn = 64, .wm = 1, .wn = 2};
inline constexpr gemm_fp4_config f4_32x32_k4{.bm = 32, .bn = 32, .wm = 1, .wn = 1, .wk = 4};
inline constexpr gemm_fp4_config f4_64x128{.bm = 64, .bn = 128, .wm = 2, .wn = 2};
// B preshuffled (gemm_fp4_preshuffle_b)
inline constexpr gemm_fp4_config f4_32x64_bs{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x128_bs{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x256_bs{.bm = 32, .bn = 256, .wm = 1, .wn = 4, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x128_bs_k2{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .wk = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_32x64_bs_k4{.bm = 32, .bn = 64, .wm = 1, .wn = 1, .wk = 4, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_64x128_bs{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .b_shuffled = true};
inline constexpr gemm_fp4_config f4_128x128_bs{.bm = 128, .bn = 128, .wm = 2, .wn = 2, .b_shuffled = true};
// A through LDS as well
inline constexpr gemm_fp4_config f4_32x64_al_bs{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true};
inline constexpr gemm_fp4_config f4_32x128_al_bs{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true};
inline constexpr gemm_fp4_config f4_32x64_al_bs_k4{.bm = 32, .bn = 64, .wm = 1, .wn = 1, .wk = 4, .b_shuffled = true, .a_lds = true};
inline constexpr gemm_fp4_config f4_64x128_al_bs{.bm = 64, .bn = 128, .wm = 2, .wn = 2, .b_shuffled = true, .a_lds = true};
inline constexpr gemm_fp4_config f4_128x128_al_bs{.bm = 128, .bn = 128, .wm = 2, .wn = 2, .b_shuffled = true, .a_lds = true};
// one wave row of 4 waves of 64x32: each B fragment loaded once a workgroup (2 x 2 waves load
// each twice)
inline constexpr gemm_fp4_config f4_64x128_w4_al_bs{.bm = 64, .bn = 128, .wm = 1, .wn = 4, .b_shuffled = true, .a_lds = true};
// A and B through LDS, accumulators in AGPRs (ab_lds): 2 x 2 waves of 128x128 or 64x64
inline constexpr gemm_fp4_config f4_256x256_ab{.bm = 256, .bn = 256, .wm = 2, .wn = 2, .ab_lds = true};
inline constexpr gemm_fp4_config f4_128x128_ab{.bm = 128, .bn = 128, .wm = 2, .wn = 2, .ab_lds = true};
// the same 256x256 tile, 256 persistent workgroups (MI355X's CUs)
inline constexpr gemm_fp4_config f4_256x256_ab_p{.bm = 256, .bn = 256, .wm = 2, .wn = 2, .ab_lds = true, .groups = 256};
// A's scales a dword a step (no LDS windows)
inline constexpr gemm_fp4_config f4_32x64_al_nw{.bm = 32, .bn = 64, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true, .scale_windows = false};
inline constexpr gemm_fp4_config f4_32x128_al_nw{.bm = 32, .bn = 128, .wm = 1, .wn = 2, .b_shuffled = true, .a_lds = true, .scale_windows = false};
inline constexpr gemm_fp4_config f4_32x64_al_nw_k4{.bm = 32, .bn = 64, .wm = 1, .wn = 1, .wk = 4, .b_shuffled = true, .a_lds = true, .scale_windows = false};
// The flow's quantization of A (bf16 M x K -> MXFP4, aiter's scale rule) for the challenge's K:
// 4 waves, a group of 8 elements a lane (measured: within 0.05 us of 1 wave or 2 and 4 groups
// a lane on every challenge shape; a launch's fixed cost is most of its time there)
using hipasm::kernels::mxfp4_quant_config;
inline constexpr mxfp4_quant_config q512{.d = 512, .waves = 4, .steps = 1};
inline constexpr mxfp4_quant_config q1536{.d = 1536, .waves = 4, .steps = 1};
inline constexpr mxfp4_quant_config q2048{.d = 2048, .waves = 4, .steps = 1};
inline constexpr mxfp4_quant_config q7168{.d = 7168, .waves = 4, .steps = 1};
}  // namespace f4_bench
