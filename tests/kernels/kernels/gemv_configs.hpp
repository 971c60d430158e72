// The GEMV kernel's test configurations, shared by gemv.hip and test_gemv.cpp: bf16 and f32 A
// and x, f32 and bf16 y, bias, each wave its own rows or the waves splitting K, 16-, 4- and
// 2-byte loads (K a multiple of 8, even, any).
#pragma once
#include <hipasm/kernels/gemv.hpp>

namespace cfg {
using hipasm::kernels::gemv_config;
constexpr gemv_config bf16{.rows = 4, .waves = 2, .unroll = 2};
constexpr gemv_config bf16_ksplit_bias{.y_bf16 = true, .bias = true, .rows = 3, .waves = 4, .unroll = 1, .k_split = true};
constexpr gemv_config f32{.a_f32 = true, .x_f32 = true, .bias = true, .rows = 2, .waves = 1, .unroll = 3};
constexpr gemv_config bf16_xf32_v4{.x_f32 = true, .rows = 5, .waves = 1, .unroll = 2, .vec_bytes = 4};
constexpr gemv_config bf16_v2{.rows = 2, .waves = 2, .unroll = 4, .vec_bytes = 2};
constexpr gemv_config f32_xbf16{.a_f32 = true, .rows = 4, .waves = 2, .unroll = 1};
}  // namespace cfg
