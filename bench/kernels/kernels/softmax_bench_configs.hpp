// The softmax benchmarks' configurations: attention-score rows (bf16) and a vocabulary (f32).
#pragma once
#include <hipasm/kernels/softmax.hpp>

namespace bench_cfg {
using hipasm::kernels::softmax_config;
constexpr softmax_config sm_bf16_4096{.cols = 4096, .bf16 = true, .waves = 4};
constexpr softmax_config sm_bf16_8192{.cols = 8192, .bf16 = true, .waves = 4};
constexpr softmax_config sm_f32_32000{.cols = 32000, .bf16 = false, .waves = 16};
}  // namespace bench_cfg
