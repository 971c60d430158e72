// The softmax kernels' test configurations, shared by softmax.hip and test_softmax.cpp.
#pragma once
#include <hipasm/kernels/softmax.hpp>

namespace cfg {
using hipasm::kernels::softmax_config;
constexpr softmax_config sm_bf16_1000{.cols = 1000, .bf16 = true, .waves = 1};    // tail, 2 steps
constexpr softmax_config sm_f32_1000{.cols = 1000, .bf16 = false, .waves = 2};    // tail, 2 steps
constexpr softmax_config sm_bf16_8192{.cols = 8192, .bf16 = true, .waves = 4};    // 4 steps, no tail
constexpr softmax_config sm_f32_6{.cols = 6, .bf16 = false, .waves = 1};          // a short row
constexpr softmax_config sm_f32_32000{.cols = 32000, .bf16 = false, .waves = 16}; // vocabulary-sized
constexpr softmax_config lsm_f32_1000{.cols = 1000, .bf16 = false, .waves = 2, .log = true};  // log-softmax
constexpr softmax_config lsm_bf16_8192{.cols = 8192, .bf16 = true, .waves = 4, .log = true};
}  // namespace cfg
