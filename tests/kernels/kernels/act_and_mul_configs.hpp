// The act_and_mul kernels' test configurations, shared by act_and_mul.hip and test_act_and_mul.cpp.
#pragma once
#include <hipasm/kernels/act_and_mul.hpp>

namespace cfg {
using hipasm::kernels::act_and_mul_config;
using hipasm::kernels::activation;
// (the lane groups: 8 elements when d % 8 == 0, else 4 or 2)
constexpr act_and_mul_config aam_silu_1000{.d = 1000, .act = activation::silu, .waves = 1, .steps = 2};
constexpr act_and_mul_config aam_gelu_3002{.d = 3002, .act = activation::gelu, .waves = 2, .steps = 1};  // pairs
constexpr act_and_mul_config aam_gelu_tanh_1004{.d = 1004, .act = activation::gelu_tanh, .waves = 1, .steps = 3};  // 4s
constexpr act_and_mul_config aam_gelu_tanh_4096{.d = 4096, .act = activation::gelu_tanh, .waves = 4, .steps = 2};
constexpr act_and_mul_config aam_silu_6{.d = 6, .act = activation::silu, .waves = 1, .steps = 1};        // a short row, pairs
constexpr act_and_mul_config aam_silu_14336{.d = 14336, .act = activation::silu, .waves = 4, .steps = 2};  
}  // namespace cfg
