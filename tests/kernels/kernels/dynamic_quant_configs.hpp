// The dynamic_quant kernels' test configurations, shared by dynamic_quant.hip and test_dynamic_quant.cpp.
#pragma once
#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

namespace cfg {
using hipasm::kernels::quant_type;
using hipasm::kernels::dynamic_quant_config;
constexpr dynamic_quant_config dq_fp8_bf16_1004{.d = 1004, .type = quant_type::fp8, .f32_in = false, .waves = 1};  // tail: half a lane's bytes
constexpr dynamic_quant_config dq_i8_bf16_1004{.d = 1004, .type = quant_type::i8, .f32_in = false, .waves = 1};
constexpr dynamic_quant_config dq_fp8_f32_1000{.d = 1000, .type = quant_type::fp8, .f32_in = true, .waves = 2};    // tail, 2 steps
constexpr dynamic_quant_config dq_i8_f32_4096{.d = 4096, .type = quant_type::i8, .f32_in = true, .waves = 4};      // 4 steps
constexpr dynamic_quant_config dq_fp8_bf16_8192{.d = 8192, .type = quant_type::fp8, .f32_in = false, .waves = 4};  // 4 steps, no tail
constexpr dynamic_quant_config dq_i8_bf16_12{.d = 12, .type = quant_type::i8, .f32_in = false, .waves = 1};        // a short row
constexpr dynamic_quant_config dq_fp8_bf16_14336{.d = 14336, .type = quant_type::fp8, .f32_in = false, .waves = 8};  // 3.5 steps
// rmsnorm fused with the quantization (rmsnorm.hpp rmsnorm_quant)
using hipasm::kernels::norm_config;
constexpr norm_config rq_4096{.hidden = 4096, .residual = false, .waves = 4};
constexpr norm_config rq_1004_res{.hidden = 1004, .residual = true, .waves = 1};  // tail: half a lane's bytes
// the GEMM end to end: x [M][1024] and w [N][1024] quantized per row, then gemm_quant per_token
constexpr dynamic_quant_config dq_i8_bf16_1024{.d = 1024, .type = quant_type::i8, .f32_in = false, .waves = 2};
constexpr dynamic_quant_config dq_bf8_bf16_1004{.d = 1004, .type = quant_type::bf8, .f32_in = false, .waves = 1};  // e5m2fnuz
constexpr dynamic_quant_config dq_bf8_f32_4096{.d = 4096, .type = quant_type::bf8, .f32_in = true, .waves = 4};
constexpr dynamic_quant_config dq_fp8_bf16_1024{.d = 1024, .type = quant_type::fp8, .f32_in = false, .waves = 2};
constexpr hipasm::kernels::gemm_quant_config dq_gemm_i8{.type = quant_type::i8, .scale = hipasm::kernels::quant_scale::per_token,
                                               .bm = 64, .bn = 64, .wm = 2, .wn = 1};
constexpr hipasm::kernels::gemm_quant_config dq_gemm_fp8{.type = quant_type::fp8, .scale = hipasm::kernels::quant_scale::per_token,
                                                .bm = 64, .bn = 64, .wm = 2, .wn = 1};
// fp8 scales per 1x128 block (DeepSeek's activations): 7168 (3.5 steps; scales [d / 128][tokens]),
// f32 640 over 2 waves (a step of 4 blocks, the second half empty; [tokens][d / 128]), 384 in one
// wave (3 blocks of a step's 4)
constexpr dynamic_quant_config dqb_fp8_bf16_7168{.d = 7168, .type = quant_type::fp8, .waves = 4, .block = 128};
constexpr dynamic_quant_config dqb_fp8_f32_640_rm{.d = 640, .type = quant_type::fp8, .f32_in = true, .waves = 2, .block = 128,
                                                  .scales_row_major = true};
constexpr dynamic_quant_config dqb_fp8_bf16_384{.d = 384, .type = quant_type::fp8, .waves = 1, .block = 128};
// the block GEMM end to end: x quantized per 1x128 block (dqb_fp8_bf16_384), w per 128x128 block
// on the host, gemm_quant block128 (test_gemm_quant's fp8_block_small)
constexpr hipasm::kernels::gemm_quant_config dq_gemm_fp8_block{.type = quant_type::fp8,
                                                               .scale = hipasm::kernels::quant_scale::block128, .bm = 64,
                                                               .bn = 64, .wm = 2, .wn = 1, .dma = true, .stages = 3};
}  // namespace cfg
