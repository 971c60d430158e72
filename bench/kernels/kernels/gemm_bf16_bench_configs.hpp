// bench_kernel_gemm_bf16's configurations: kernels/gemm_bf16.hip compiles them, bench_gemm_bf16.cpp
// launches them (one definition for both). The MI300X bench (gfx942) writes C in f32, as aiter's
// gfx942 bf16gemm_fp32bf16 kernels it is compared with; the MI355X one (gfx950) in bf16, as its
// tuning rows ask and aiter's gfx950 256x256 kernel (bf16 only) writes it.
#pragma once
#include <hipasm/kernels/gemm_bf16.hpp>

namespace gemm_bf16_bench {
using hipasm::kernels::gemm_bf16_config;
// Large shapes: 256x256x64. gfx942 (64 KiB of LDS): 8 waves, one LDS buffer (two tiles of loads
// in flight would take more VGPRs than a wave has at 2 a SIMD). gfx950 (160 KiB): 4 waves of
// 128x128 (one a SIMD: 512 registers, the accumulators in AGPRs), two LDS buffers, two tiles
// ahead. `big8` / `big4`: the other design on each target, for comparison.
inline constexpr bool two_big_buffers = hipasm::active_target::desc.lds_bytes >= 2 * 65536;
inline constexpr bool out16 = two_big_buffers;  // (the gfx950 bench)
// K a multiple of 64 (no column-tail masks: k_tail = false; another K takes the 128x128 tile).
inline constexpr gemm_bf16_config big8{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = out16, .ahead = 1,
                                       .lds_buffers = two_big_buffers ? 2u : 1u, .k_tail = false};
inline constexpr gemm_bf16_config big4{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .out_bf16 = out16, .ahead = 2,
                                       .lds_buffers = two_big_buffers ? 2u : 1u, .agpr_acc = true, .k_tail = false};
inline constexpr gemm_bf16_config big = two_big_buffers ? big4 : big8;
inline constexpr const char* big_name = two_big_buffers ? "gemm_bf16_256w4" : "gemm_bf16_256w8";
inline constexpr gemm_bf16_config big_k32{.bm = 256, .bn = 256, .bk = 32, .wm = 2, .wn = 4, .out_bf16 = out16};  // (two buffers, comparison)
inline constexpr gemm_bf16_config big_nn{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = out16, .ahead = 1, .lds_buffers = 1,
                                         .b_kn = true};  // B stored K x N: the transposing copy's cost
inline constexpr gemm_bf16_config mid{.out_bf16 = out16};  // 128x128x32, 4 waves, 2 buffers, 2 tiles ahead
inline constexpr gemm_bf16_config small{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = out16};
// (bf16 out: the parts add bf16 pairs, as aiter's split-K kernels, in one dispatch)
inline constexpr gemm_bf16_config small_k2{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = out16, .split_k = 2, .bf16_atomics = out16};
inline constexpr gemm_bf16_config small_k4{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = out16, .split_k = 4, .bf16_atomics = out16};
inline constexpr gemm_bf16_config small_k8{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = out16, .split_k = 8, .bf16_atomics = out16};
// M <= 32 with bf16 out (gfx950): 32x64 tiles, 2 waves, K split so that the workgroups fill at
// most one round of the CUs (one a CU, as aiter's 32x64 split-K kernels; a second round or two
// 64x64 workgroups a CU left HBM idle at the ends)
constexpr gemm_bf16_config skinny(uint32_t split_k) {
  return {.bm = 32, .bn = 64, .bk = 64, .wm = 1, .wn = 2, .out_bf16 = out16, .split_k = split_k, .bf16_atomics = out16};
}
inline constexpr gemm_bf16_config skinny_k2 = skinny(2), skinny_k3 = skinny(3), skinny_k4 = skinny(4),
                                  skinny_k6 = skinny(6), skinny_k8 = skinny(8);
inline constexpr gemm_bf16_config odd{.out_bf16 = out16, .odd_k = true, .ahead = 1};
// launch_gemm_bf16_balanced's rows left: 128x256x64, one LDS buffer, two tiles ahead (K as `big`)
inline constexpr gemm_bf16_config rest{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = out16, .lds_buffers = 1,
                                       .k_tail = false};
}  // namespace gemm_bf16_bench
