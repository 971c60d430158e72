// The GEMV benchmark's configurations, shared by the .hip and the program: bf16 A and x, f32 y;
// rows per wave for tall matrices, the waves splitting K for short ones (more waves in flight).
#pragma once
#include <hipasm/kernels/gemv.hpp>

namespace bench_cfg {
using hipasm::kernels::gemv_config;
constexpr gemv_config gemv_rows{.rows = 4, .waves = 4, .unroll = 2};
constexpr gemv_config gemv_ksplit{.rows = 4, .waves = 4, .unroll = 2, .k_split = true};
constexpr gemv_config gemv_f32{.a_f32 = true, .x_f32 = true, .rows = 4, .waves = 4, .unroll = 2};
}  // namespace bench_cfg
