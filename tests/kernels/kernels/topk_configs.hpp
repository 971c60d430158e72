// The topk_softmax kernels' test configurations, shared by topk_softmax.hip and its test.
#pragma once
#include <hipasm/kernels/topk_softmax.hpp>

namespace cfg {
using hipasm::kernels::topk_softmax_config;
constexpr topk_softmax_config tk_8x2{.experts = 8, .topk = 2, .waves = 4};      // 1 lane per token
constexpr topk_softmax_config tk_8x8{.experts = 8, .topk = 8, .waves = 1};      // 1 lane: all k in order
constexpr topk_softmax_config tk_8x2_l4{.experts = 8, .topk = 2, .waves = 4, .lanes = 4};
constexpr topk_softmax_config tk_7x3{.experts = 7, .topk = 3, .waves = 2};      // 1-expert chunks, padding
constexpr topk_softmax_config tk_30x5{.experts = 30, .topk = 5, .waves = 2};    // 2-expert chunks, masked tail
constexpr topk_softmax_config tk_64x8{.experts = 64, .topk = 8, .waves = 2};
constexpr topk_softmax_config tk_128x8{.experts = 128, .topk = 8, .waves = 4};  // 8 lanes, 16 each
constexpr topk_softmax_config tk_128x8_l16{.experts = 128, .topk = 8, .waves = 4, .lanes = 16};
constexpr topk_softmax_config tk_256x8{.experts = 256, .topk = 8, .waves = 4};
constexpr topk_softmax_config tk_256x8_l32{.experts = 256, .topk = 8, .waves = 2, .lanes = 32};
constexpr topk_softmax_config tk_160x6{.experts = 160, .topk = 6, .waves = 3};  // 3 chunks per lane, a tail
constexpr topk_softmax_config tk_160x6_l32{.experts = 160, .topk = 6, .waves = 3, .lanes = 32};
constexpr topk_softmax_config tk_1x1{.experts = 1, .topk = 1, .waves = 1};
constexpr topk_softmax_config tk_3x2{.experts = 3, .topk = 2, .waves = 1};
constexpr topk_softmax_config tk_512x32{.experts = 512, .topk = 32, .waves = 2};  // 32 per lane, lists of 32
constexpr topk_softmax_config tk_128x20_l32{.experts = 128, .topk = 20, .waves = 1, .lanes = 32};  // k > 16 lanes
}  // namespace cfg
