// The topk_softmax kernels' test configurations, shared by topk_softmax.hip and its test.
#pragma once
#include <hipasm/kernels/topk_softmax.hpp>

namespace cfg {
using hipasm::kernels::topk_softmax_config;
constexpr topk_softmax_config tk_8x2{.experts = 8, .topk = 2, .waves = 4};      // lanes masked
constexpr topk_softmax_config tk_64x8{.experts = 64, .topk = 8, .waves = 2};
constexpr topk_softmax_config tk_128x8{.experts = 128, .topk = 8, .waves = 4};
constexpr topk_softmax_config tk_256x8{.experts = 256, .topk = 8, .waves = 4};
constexpr topk_softmax_config tk_160x6{.experts = 160, .topk = 6, .waves = 3};  // 3 per lane, tail
}  // namespace cfg
