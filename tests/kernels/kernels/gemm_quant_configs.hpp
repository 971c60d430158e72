// The configurations of test_gemm_quant's kernels (gemm_quant.hip), shared with the host test.
#pragma once
#include <hipasm/kernels/gemm_quant.hpp>

namespace gq_configs {
using hipasm::kernels::gemm_quant_config;
using hipasm::kernels::quant_scale;
using hipasm::kernels::quant_type;
inline constexpr gemm_quant_config fp8_tensor{.type = quant_type::fp8, .scale = quant_scale::per_tensor};
inline constexpr gemm_quant_config fp8_token{.type = quant_type::fp8, .scale = quant_scale::per_token, .bk = 64};
inline constexpr gemm_quant_config fp8_block{.type = quant_type::fp8, .scale = quant_scale::block128, .bk = 64};
// 64x64 tiles (wm 2, wn 1), 3 stages: two workgroups share a 128-column B scale block
inline constexpr gemm_quant_config fp8_block_small{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                   .bn = 64, .wm = 2, .wn = 1, .dma = true, .stages = 3};
inline constexpr gemm_quant_config fp8_token_anyk{.type = quant_type::fp8, .scale = quant_scale::per_token, .bm = 64,
                                                  .bn = 64, .bk = 64, .wm = 2, .wn = 1, .any_k = true};
// bk 64: a scale block is two K tiles
inline constexpr gemm_quant_config fp8_block_bk64{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                  .bn = 128, .bk = 64, .wm = 1, .wn = 2, .dma = true};
inline constexpr gemm_quant_config fp8_block_anyk{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                  .bn = 64, .bk = 64, .wm = 2, .wn = 1, .any_k = true};
inline constexpr gemm_quant_config i8_token{.type = quant_type::i8, .scale = quant_scale::per_token};
inline constexpr gemm_quant_config i8_token_s3{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 64,
                                               .bn = 128, .bk = 64, .dma = true, .stages = 3};
inline constexpr gemm_quant_config i8_tensor_anyk{.type = quant_type::i8, .scale = quant_scale::per_tensor, .bm = 64,
                                                  .bn = 64, .bk = 32, .wm = 1, .wn = 2, .any_k = true};
// VGPR copies two tiles ahead (two staging sets), bk 128: one tile per scale block
inline constexpr gemm_quant_config i8_token_a2{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 64,
                                               .bn = 64, .wm = 2, .wn = 1, .ahead = 2};
inline constexpr gemm_quant_config fp8_block_a2{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                .bn = 64, .wm = 2, .wn = 1, .ahead = 2};
// one LDS buffer (stores between two barriers of the last slice), one and two tiles ahead
inline constexpr gemm_quant_config i8_token_single{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 64,
                                                   .bn = 64, .wm = 2, .wn = 1, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_block_single{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                    .bn = 64, .bk = 64, .wm = 2, .wn = 1, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_block_single128{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                       .bn = 64, .wm = 2, .wn = 1, .ahead = 2, .lds_buffers = 1};
// 4 waves of 64x64 (the bench's 128x128): two sets of block products do not fit, so block k's
// scaled adds run before the MFMAs of block k + 1's first slice
inline constexpr gemm_quant_config fp8_block_w64{.type = quant_type::fp8, .scale = quant_scale::block128, .lds_buffers = 1};
// 8 waves, one LDS buffer (one workgroup a CU): the wait for the next tile and its masks before
// the first barrier, the stores first after it. The bench's fp8 256x128 (block scales, one tile
// ahead) and per-token fp8 128x64 two tiles ahead.
inline constexpr gemm_quant_config fp8_block_w8{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 256,
                                                .wm = 4, .wn = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config fp8_token_w8{.type = quant_type::fp8, .scale = quant_scale::per_token, .bn = 64,
                                                .wm = 4, .wn = 2, .ahead = 2, .lds_buffers = 1};
// the bench's int8 tiles of 8 waves and one LDS buffer: 256x128 and 128x256 two tiles ahead, 256x256 (one
// tile ahead; the per-token scales loaded in the epilogue: 64 VGPRs of them do not fit beside
// 128 of accumulators)
inline constexpr gemm_quant_config i8_token_w8{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 256,
                                               .wm = 4, .wn = 2, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_w8_n256{.type = quant_type::i8, .scale = quant_scale::per_token, .bn = 256,
                                                    .wm = 2, .wn = 4, .ahead = 2, .lds_buffers = 1};
inline constexpr gemm_quant_config i8_token_w8_256{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 256,
                                                   .bn = 256, .wm = 2, .wn = 4, .lds_buffers = 1};
// the bench's int8 128x160: 4 waves of 32x160 (five B fragments a slice, a tile width not a power
// of two), two tiles ahead (18 staging loads a lane), one LDS buffer
inline constexpr gemm_quant_config i8_token_w160{.type = quant_type::i8, .scale = quant_scale::per_token, .bn = 160,
                                                 .wm = 4, .wn = 1, .ahead = 2, .lds_buffers = 1};
// int8 96x256 in 4 waves of 96x64 (accumulators in AGPRs: one wave a SIMD), one LDS buffer (the
// per-token scales through LDS, bm below the workgroup's threads), an odd number of 32-row blocks
inline constexpr gemm_quant_config i8_token_96_agpr{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 96,
                                                    .bn = 256, .wm = 1, .wn = 4, .lds_buffers = 1, .agpr_acc = true};
// gfx950 (160 KiB of LDS, the double-K fp8 MFMA): the MI355X bench's large fp8 tile, 4 waves of
// 128x128 (256 accumulators in AGPRs: one wave a SIMD), two LDS buffers (128 KiB: on gfx942 a
// compile error), the next tile's first reads among the last slice's MFMAs (READ_AHEAD), the
// copies in four parts (halves of A's and B's rows, each after its own wait: SPLIT4)
inline constexpr gemm_quant_config fp8_token_256_agpr{.type = quant_type::fp8, .scale = quant_scale::per_token, .bm = 256,
                                                      .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true};
inline constexpr gemm_quant_config fp8_tensor_256_agpr{.type = quant_type::fp8, .scale = quant_scale::per_tensor, .bm = 256,
                                                       .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true};
// the same persistent: 2 workgroups (each walking several tiles in the tests' grids)
inline constexpr gemm_quant_config fp8_token_256_persist{.type = quant_type::fp8, .scale = quant_scale::per_token, .bm = 256,
                                                         .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true, .groups = 2};
inline constexpr gemm_quant_config fp8_tensor_256_persist{.type = quant_type::fp8, .scale = quant_scale::per_tensor,
                                                          .bm = 256, .bn = 256, .wm = 2, .wn = 2, .agpr_acc = true,
                                                          .groups = 2};
// split K (gemm_quant_split.hip): each scale type, both MFMA types, one and two LDS buffers, a
// scale block of one and of two K tiles
inline constexpr gemm_quant_config i8_token_split{.type = quant_type::i8, .scale = quant_scale::per_token, .bm = 64,
                                                  .bn = 64, .wm = 2, .wn = 1, .ahead = 2, .split_k = true};
inline constexpr gemm_quant_config fp8_tensor_split{.type = quant_type::fp8, .scale = quant_scale::per_tensor, .bm = 64,
                                                    .bn = 64, .bk = 64, .wm = 2, .wn = 1, .lds_buffers = 1, .split_k = true};
inline constexpr gemm_quant_config fp8_block_split{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 64,
                                                   .bn = 64, .bk = 64, .wm = 2, .wn = 1, .ahead = 2, .split_k = true};
// (the bench's 32x128 tile: LDS reads two slices ahead)
inline constexpr gemm_quant_config fp8_block_split128{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 32,
                                                      .wm = 1, .wn = 4, .ahead = 2, .lds_ahead = 2, .split_k = true};
// (the bench's 32x64 tile: two waves)
inline constexpr gemm_quant_config fp8_block_split64{.type = quant_type::fp8, .scale = quant_scale::block128, .bm = 32,
                                                     .bn = 64, .wm = 1, .wn = 2, .ahead = 2, .lds_ahead = 2,
                                                     .split_k = true};
}  // namespace gq_configs
