// The topk_softmax benchmarks' configurations: experts x top-k, 4 waves, lanes automatic (with
// HIPASM_TOPK_SOFTMAX_KERNELS, also the latency configuration).
#pragma once
#include <hipasm/kernels/topk_softmax.hpp>

namespace bench_cfg {
template <int E, int K>
inline constexpr hipasm::kernels::topk_softmax_config topk{.experts = E, .topk = K, .waves = 4};
}  // namespace bench_cfg
