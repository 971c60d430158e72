// The act_and_mul kernels' test configurations, shared by act_and_mul.hip and test_act_and_mul.cpp.
#pragma once
#include <hipasm/kernels/act_and_mul.hpp>

namespace cfg {
using hipasm::kernels::act_and_mul_config;
using hipasm::kernels::activation;
constexpr act_and_mul_config aam_silu_1000{.d = 1000, .act = activation::silu, .waves = 1, .steps = 2};  // tail, 1 block
constexpr act_and_mul_config aam_gelu_3000{.d = 3000, .act = activation::gelu, .waves = 2, .steps = 1};  // 3 blocks, tail
constexpr act_and_mul_config aam_gelu_tanh_4096{.d = 4096, .act = activation::gelu_tanh, .waves = 4, .steps = 2};
constexpr act_and_mul_config aam_silu_6{.d = 6, .act = activation::silu, .waves = 1, .steps = 1};        // a short row
constexpr act_and_mul_config aam_silu_14336{.d = 14336, .act = activation::silu, .waves = 4, .steps = 2};  // 3.5 blocks
}  // namespace cfg
