// The GEMV benchmark's configurations, shared by the .hip and the program: bf16 A and x, f32 y,
// rows per wave for tall matrices and (its _ksplit twin) the waves splitting K for short ones.
#pragma once
#include <hipasm/kernels/gemv.hpp>

namespace bench_cfg {
using hipasm::kernels::gemv_config;
constexpr gemv_config gemv_bf16{.rows = 4, .waves = 4, .unroll = 2};
constexpr gemv_config gemv_f32{.a_f32 = true, .x_f32 = true, .rows = 4, .waves = 4, .unroll = 2};
}  // namespace bench_cfg
