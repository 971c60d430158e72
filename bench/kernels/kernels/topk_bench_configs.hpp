// The topk_softmax benchmarks' configurations: experts x top-k, lanes per token (0: automatic;
// latency: the fewest lanes giving each lane <= 8 experts).
#pragma once
#include <hipasm/kernels/topk_softmax.hpp>

namespace bench_cfg {
inline constexpr int topk_latency = -1;
template <int E, int K, int Lanes = 0>
inline constexpr hipasm::kernels::topk_softmax_config topk{
    .experts = E, .topk = K, .waves = 4,
    .lanes = Lanes == topk_latency
                 ? hipasm::kernels::topk_lanes_for(hipasm::kernels::topk_softmax_config{.experts = E, .topk = K}, 8, 32)
                 : Lanes};
}  // namespace bench_cfg
