// Configurations of tests/kernels/kernels/mxfp4_quant.hip, shared with test_mxfp4_quant.cpp.
#pragma once
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace cfg {
using hipasm::kernels::mx_scale_rule;
using hipasm::kernels::mxfp4_quant_config;
// bf16: aiter's rule over a 7168 row (DeepSeek's hidden size), OCP's over a short row, one wave
// of one step (a workgroup of 2 KiB of input: rows end mid-workgroup)
inline constexpr mxfp4_quant_config mx_bf16_7168{.d = 7168};
inline constexpr mxfp4_quant_config mx_bf16_96_ocp{.d = 96, .rule = mx_scale_rule::ocp, .waves = 1, .steps = 1};
// f32: both rules, d = 160 (5 blocks) over 2 waves of 3 steps
inline constexpr mxfp4_quant_config mx_f32_160{.d = 160, .f32_in = true, .waves = 2, .steps = 3};
inline constexpr mxfp4_quant_config mx_f32_160_ocp{.d = 160, .f32_in = true, .rule = mx_scale_rule::ocp, .waves = 2, .steps = 3};
// aiter's RoundUp rule: bf16 224 (7 blocks) over 2 waves of 2 steps, f32 160
inline constexpr mxfp4_quant_config mx_bf16_224_up{.d = 224, .rule = mx_scale_rule::aiter_round_up, .waves = 2, .steps = 2};
inline constexpr mxfp4_quant_config mx_f32_160_up{.d = 160, .f32_in = true, .rule = mx_scale_rule::aiter_round_up, .waves = 2, .steps = 3};
}  // namespace cfg
