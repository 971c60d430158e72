// The quantized MoE kernels' test configurations, shared by the moe_quant*.hip sources and
// test_moe_quant.cpp.
#pragma once
#include <hipasm/kernels/moe_quant.hpp>

namespace cfg {
using hipasm::kernels::moe_quant_config;
// stage 1: K over 2 waves, few workgroups (blocks looped over), weights through LDS; g1u0 over
// 1 wave, weights loaded straight into the MFMA layout, three K blocks in flight, GELU (erf)
constexpr moe_quant_config q_s1{.waves = 4, .k_split = 2, .gated = true, .max_workgroups = 3};
constexpr moe_quant_config q_s1_g1u0{.waves = 4, .k_split = 1, .gated = false, .act = hipasm::kernels::activation::gelu,
                                     .lds_weights = false, .pipeline = 3};
// stage 2: 2 column waves (64-column tail of dim 128 * odd), K over 2 waves
constexpr moe_quant_config q_s2{.waves = 2, .k_split = 2, .max_workgroups = 5};
// the fused kernel's stage 2 (stage 1's 8 waves): 4 column waves x 2, blocks looped over
constexpr moe_quant_config q_s2_8w{.waves = 4, .k_split = 2, .max_workgroups = 6};
// int8 (per token x per channel): stage 1 g1u1 (K over 2 waves) and g1u0, stage 2
using hipasm::kernels::quant_type;
constexpr moe_quant_config i8_s1{.type = quant_type::i8, .waves = 4, .k_split = 2, .gated = true, .max_workgroups = 3};
constexpr moe_quant_config i8_s1_g1u0{.type = quant_type::i8, .waves = 4, .gated = false,
                                      .act = hipasm::kernels::activation::gelu_tanh, .lds_weights = false, .pipeline = 3};
constexpr moe_quant_config i8_s2{.type = quant_type::i8, .waves = 2, .k_split = 2, .max_workgroups = 5};
// stage 2 with two 32-row tiles a wave (row_tiles 2): 256 rows of dim a workgroup (a 128-row tail
// at dim 384), fp8 and int8; the fused kernel's (stage 1's 8 waves)
constexpr moe_quant_config q_s2_rt2{.waves = 4, .max_workgroups = 5, .row_tiles = 2};
constexpr moe_quant_config i8_s2_rt2{.type = quant_type::i8, .waves = 4, .max_workgroups = 5, .row_tiles = 2};
constexpr moe_quant_config q_s2_8w_rt2{.waves = 4, .k_split = 2, .max_workgroups = 6, .row_tiles = 2};
// the fused kernel in 4-wave workgroups: stage 1 of the whole K a wave, stage 2 q_s2_rt2
constexpr moe_quant_config q_s1_w4{.waves = 4, .k_split = 1, .gated = true, .max_workgroups = 3};
// and int8 (stage 2 i8_s2_rt2)
constexpr moe_quant_config i8_s1_w4{.type = quant_type::i8, .waves = 4, .k_split = 1, .gated = true, .max_workgroups = 3};
// one pass (stage 1 and its down slice a workgroup): q_s1 and i8_s1 (8 waves), and g1u0 over 1
// wave with three tiles in flight
constexpr moe_quant_config q_op_g1u0{.waves = 4, .k_split = 1, .gated = false, .pipeline = 3};
}  // namespace cfg
