// The configurations of the quantized GEMM benchmarks' kernels (gemm_fp8.hip, gemm_i8.hip),
// shared with the host programs.
#pragma once
#include <hipasm/kernels/gemm_quant.hpp>

namespace gq_bench {
using hipasm::kernels::gemm_quant_config;
using hipasm::kernels::quant_scale;
using hipasm::kernels::quant_type;
// One LDS buffer (tile k + 1 stored between two barriers: 32 KiB, two workgroups a CU), two
// tiles ahead in VGPRs. fp8 128x128: 4 waves of 64x64, one tile ahead (the accumulators and one
// set of block products take 128 VGPRs: two tiles of staging do not fit), two workgroups a CU:
// a CU's waves read 64 KiB of LDS a K tile where 8 waves of 64x32 read 96 KiB (with the 32 KiB
// of stores more than the LDS ports move in the MFMAs' time); bench_kernel_gemm_fp8 4096^3
// 112.5 (8 waves, two tiles ahead) -> 106.6 us.
inline constexpr gemm_quant_config fp8_block_128x128{.type = quant_type::fp8, .scale = quant_scale::block128,
                                                     .lds_buffers = 1};
// 128x128 in 8 waves of 64x32, two LDS buffers, two tiles ahead: for grids of one round (one
// workgroup a CU), where 4 waves leave the MFMAs waiting on the barriers (pick_quant)
inline constexpr gemm_quant_config fp8_block_128x128_w64x32{.type = quant_type::fp8, .scale = quant_scale::block128, .wm = 2, .wn = 4,
                                                            .ahead = 2};
inline constexpr gemm_quant_config fp8_block_64x128{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64, .ahead = 2,
                                                    .lds_buffers = 1};
// 32x128: one wave a SIMD (LDS), the LDS reads two slices ahead
inline constexpr gemm_quant_config fp8_block_32x128{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 32,
                                                    .wm = 1, .wn = 4, .ahead = 2, .lds_ahead = 2};
// 32x64: two waves of 32x32 (split K: twice the tiles of 32x128 for the same splits)
inline constexpr gemm_quant_config fp8_block_32x64{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 32,
                                                   .bn = 64, .wm = 1, .wn = 2, .ahead = 2, .lds_ahead = 2};
// 32x32: one wave (split K on decode shapes: twice the workgroups of 32x64, each with half the
// tile's loads and half the partial sums to add)
inline constexpr gemm_quant_config fp8_block_32x32{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 32,
                                                   .bn = 32, .wm = 1, .wn = 1, .ahead = 2, .lds_ahead = 2};
// 64x64: four waves of 32x32 (split K where M is a few hundred: half the A and B loads a
// workgroup of 32x64's)
inline constexpr gemm_quant_config fp8_block_64x64{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                   .bn = 64, .wm = 2, .wn = 2, .ahead = 2, .lds_ahead = 2};
// 8 waves of 64x64, bk 64 (a scale block is two K tiles)
inline constexpr gemm_quant_config fp8_block_256x128{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 256,
                                                     .bk = 64, .wm = 4, .wn = 2};
// 8 waves of 64x64, bk 128, one LDS buffer (48 KiB: one workgroup a CU), one tile ahead (two
// do not fit: 212 VGPRs). It loads 48 KiB a CU and K tile where two 128x128 workgroups load
// 64 KiB: the L1 path bounds the 128x128 tile on 8192^3. Picked for large grids
// (bench_gemm_quant.hpp pick_quant).
inline constexpr gemm_quant_config fp8_block_256x128_1{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 256,
                                                       .wm = 4, .wn = 2, .lds_buffers = 1};
// fp8 with per-token and per-tensor scales (no aiter asm counterpart on gfx942: its fp8 asm
// GEMMs are block-scale): the int8 tiles' configurations
inline constexpr gemm_quant_config fp8_token_128x128{.type = quant_type::fp8, .scale = quant_scale::per_token, .ahead = 2,
                                                     .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_token_256x128_1{.type = quant_type::fp8, .scale = quant_scale::per_token, .bm = 256,
                                                       .wm = 4, .wn = 2, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_token_128x256_1{.type = quant_type::fp8, .scale = quant_scale::per_token, .bn = 256,
                                                       .wm = 2, .wn = 4, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_token_256x256_1{.type = quant_type::fp8, .scale = quant_scale::per_token, .bm = 256,
                                                       .bn = 256, .wm = 2, .wn = 4, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_tensor_256x128_1{.type = quant_type::fp8, .scale = quant_scale::per_tensor, .bm = 256,
                                                        .wm = 4, .wn = 2, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_tensor_128x256_1{.type = quant_type::fp8, .scale = quant_scale::per_tensor, .bn = 256,
                                                        .wm = 2, .wn = 4, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_tensor_256x256_1{.type = quant_type::fp8, .scale = quant_scale::per_tensor, .bm = 256,
                                                        .bn = 256, .wm = 2, .wn = 4, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_128x128{.type = quant_type::i8, .scale = quant_scale::per_token, .ahead = 2,
                                                    .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_64x128{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 64, .ahead = 2,
                                                   .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_32x128{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 32,
                                                   .wm = 1, .wn = 4, .ahead = 2, .lds_ahead = 2};
inline constexpr gemm_quant_config i8_token_256x128{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 256,
                                                    .bk = 64, .wm = 4, .wn = 2};
// 128x160: 4 waves of 32x160 (one A and five B fragments a slice), one tile ahead, one LDS buffer
// int8 8 waves, one LDS buffer (one workgroup a CU): 128x256 and 256x128 (waves of 64x64) two
// tiles ahead (128x256 first: it ran faster on 4096x1536x5120 and 8192^3); 256x256 (waves of 128x64, 64 KiB of LDS) one tile ahead (two
// do not fit the VGPRs). Picked for grids of one round and for full ones (pick_quant).
inline constexpr gemm_quant_config i8_token_128x256_1{.type = quant_type::i8, .scale = quant_scale::per_token, .bn = 256,
                                                      .wm = 2, .wn = 4, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_256x128_1{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 256,
                                                      .wm = 4, .wn = 2, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_256x256_1{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 256,
                                                      .bn = 256, .wm = 2, .wn = 4, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_128x160{.type = quant_type::i8, .scale = quant_scale::per_token, .bn = 160,
                                                    .wm = 4, .wn = 1, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_128x256{.type = quant_type::i8, .scale = quant_scale::per_token, .bn = 256,
                                                    .bk = 64, .wm = 2, .wn = 4};
// gfx950 (bench_kernel_gemm_fp8_mi355x): fp8 on the double-K MFMA (v_mfma_f32_32x32x64_f8f6f4),
// 160 KiB of LDS. Per-token and per-tensor: 256x256 tiles of 4 waves of 128x128 (256 accumulators
// in AGPRs, one wave a SIMD), two LDS buffers (128 KiB), one tile ahead (16 dwordx4 loads a lane).
inline constexpr gemm_quant_config fp8_token_256x256_agpr{.type = quant_type::fp8, .scale = quant_scale::per_token,
                                                          .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true};
inline constexpr gemm_quant_config fp8_tensor_256x256_agpr{.type = quant_type::fp8, .scale = quant_scale::per_tensor,
                                                           .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true};
// the same persistent: MI355X's 256 CUs' workgroups, each walking its tiles
inline constexpr gemm_quant_config fp8_token_256x256_persist{.type = quant_type::fp8, .scale = quant_scale::per_token,
                                                             .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true,
                                                             .groups = 256};
inline constexpr gemm_quant_config fp8_tensor_256x256_persist{.type = quant_type::fp8, .scale = quant_scale::per_tensor,
                                                              .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true,
                                                              .groups = 256};
// block scales: 8 waves of 32x64 (128x128, two LDS buffers; 64x64 a wave with fragments of the
// double-K MFMA pass block128's VGPR budget)
inline constexpr gemm_quant_config fp8_block_128x128_w8{.type = quant_type::fp8, .scale = quant_scale::block128,
                                                        .wm = 4, .wn = 2, .ahead = 2};
// The small tiles' split-K variants (f32 partial sums, launch_gemm_quant picks the split).
inline constexpr gemm_quant_config split(gemm_quant_config c) {
  c.split_k = true;
  return c;
}
inline constexpr gemm_quant_config fp8_block_64x128_split = split(fp8_block_64x128);
inline constexpr gemm_quant_config fp8_block_32x128_split = split(fp8_block_32x128);
inline constexpr gemm_quant_config fp8_block_32x64_split = split(fp8_block_32x64);
inline constexpr gemm_quant_config fp8_block_32x32_split = split(fp8_block_32x32);
inline constexpr gemm_quant_config fp8_block_64x64_split = split(fp8_block_64x64);
inline constexpr gemm_quant_config i8_token_64x128_split = split(i8_token_64x128);
inline constexpr gemm_quant_config i8_token_32x128_split = split(i8_token_32x128);
}  // namespace gq_bench
