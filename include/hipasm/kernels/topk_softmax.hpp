// MoE routing: softmax over each token's expert logits, then the top-k experts with their
// probabilities (optionally renormalized over the k), as aiter's topksoftmax asm kernels:
//   weights[t][i] = p(e_i), indices[t][i] = e_i, e_0..e_{k-1} the experts of the k largest
//   logits, in decreasing order, the lower expert index first on ties;
//   p(e) = exp(x_e - max) / sum_j exp(x_j - max)  (renormalize: p(e_i) / sum_i p(e_i)).
//
// One wave per token (C.waves tokens per workgroup); lane l holds experts V*l .. V*l+V-1
// (V = ceil(experts / 64), one 4V-byte buffer load); lanes past the last expert load zeros
// (range check) and are masked to -inf. Selection is on the logits (exact; ties by index),
// each round a wave max and a wave min of the index, and the chosen expert leaves the race.
// Edge values: a NaN logit is never selected (v_max ignores NaN) but makes the sum, so every
// weight of that token, NaN; -inf logits have probability 0.
//
// Device side:  constexpr hipasm::kernels::topk_softmax_config cfg{.experts = 128, .topk = 8};
//               HIPASM_TOPK_SOFTMAX_KERNEL(topk_128x8, cfg)
// Host side:    hipasm::kernels::launch_topk_softmax<cfg>(dev, module, "topk_128x8",
//                   {.weights, .indices, .logits, .tokens, .renormalize});
// logits: f32 [tokens][experts]; weights: f32 [tokens][topk]; indices: i32 [tokens][topk].
#pragma once
#include <cstdint>
#include <limits>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct topk_softmax_config {
  int experts = 0;  // 1..256
  int topk = 0;     // 1..min(experts, 64)
  int waves = 4;    // tokens (waves) per workgroup, 1..16
};
constexpr int topk_lane_experts(const topk_softmax_config& c) { return (c.experts + 63) / 64; }

template <topk_softmax_config C>
constexpr void topk_softmax(builder J, arg<float*> weights, arg<int*> indices, arg<const float*> logits,
                            arg<unsigned> tokens, arg<unsigned> renormalize) {
  static_assert(C.experts >= 1 && C.experts <= 256, "hipasm topk_softmax: experts must be 1..256");
  static_assert(C.topk >= 1 && C.topk <= C.experts && C.topk <= 64,
                "hipasm topk_softmax: topk must be 1..min(experts, 64)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm topk_softmax: waves must be 1..16");
  constexpr int V = topk_lane_experts(C);
  constexpr float ninf = -std::numeric_limits<float>::infinity();

  auto lane = lane_id(J);
  auto token = J.sgpr<dtype::u32>();
  token = J.workgroup_id_x() * static_cast<uint32_t>(C.waves) + wave_id(J);
  // a token past the end (the last workgroup's spare waves): no loads, no stores
  J.If(token < tokens, [&] {
    auto row = J.sgpr<dtype::u32>();
    row = token * static_cast<uint32_t>(C.experts * 4);
    buffer X = detail::row_buffer(J, logits, row, static_cast<uint32_t>(C.experts) * 4u);
    auto x = J.vgpr<dtype::f32>(V);
    auto voff = J.vgpr<dtype::u32>();
    voff = lane * static_cast<uint32_t>(4 * V);
    X.load(x, voff);
    auto first = J.vgpr<dtype::u32>();  // this lane's first expert
    first = lane * static_cast<uint32_t>(V);
    J.s_waitcnt(vmcnt(0));
    if constexpr (C.experts % (64 * V) != 0)
      for (int j = 0; j < V; ++j)
        x[j] = select(first < static_cast<uint32_t>(C.experts - j), x[j], ninf);

    auto m = J.vgpr<dtype::f32>();
    if constexpr (V == 1) m = x[0] + 0.0f;
    else if constexpr (V == 2) m = max(x[0], x[1]);
    else {
      m = max3(x[0], x[1], x[2]);
      if constexpr (V == 4) m = max(m, x[3]);
    }
    auto mx = wave_reduce(J, reduce::max, m, {.all_lanes_active = true});
    auto s = J.vgpr<dtype::f32>(), e = J.vgpr<dtype::f32>();
    for (int j = 0; j < V; ++j) {
      e = (x[j] - mx) * 1.44269504088896340736f;
      J.v_exp_f32(e, e);
      if (j == 0) s = e + 0.0f;
      else s = s + e;
    }
    auto total = wave_reduce(J, reduce::sum, s, {.all_lanes_active = true});
    auto inv = J.vgpr<dtype::f32>();
    inv = rcp(total);

    // k rounds: the largest remaining logit, its lowest expert index; lane i keeps round i's
    auto w = J.vgpr<dtype::f32>(), wsum = J.vgpr<dtype::f32>();
    auto idx = J.vgpr<dtype::u32>();
    idx = lane + 0u;
    w = 0.0f + 0.0f;
    wsum = 0.0f + 0.0f;
    auto cand = J.vgpr<dtype::u32>();
    auto lm = J.vgpr<dtype::f32>(), p = J.vgpr<dtype::f32>();
    for (int r = 0; r < C.topk; ++r) {
      if constexpr (V == 1) lm = x[0] + 0.0f;
      else if constexpr (V == 2) lm = max(x[0], x[1]);
      else {
        lm = max3(x[0], x[1], x[2]);
        if constexpr (V == 4) lm = max(lm, x[3]);
      }
      auto best = wave_reduce(J, reduce::max, lm, {.all_lanes_active = true});
      cand = 0xffffffffu + 0u;
      for (int j = V - 1; j >= 0; --j) cand = select(x[j] == best, first + static_cast<uint32_t>(j), cand);
      auto e_best = wave_reduce(J, reduce::min, cand, {.all_lanes_active = true});
      for (int j = 0; j < V; ++j) x[j] = select(first + static_cast<uint32_t>(j) == e_best, ninf, x[j]);
      p = (best - mx) * 1.44269504088896340736f;
      J.v_exp_f32(p, p);
      p = p * inv;
      wsum = wsum + p;
      w = select(lane == static_cast<uint32_t>(r), p, w);
      idx = select(lane == static_cast<uint32_t>(r), e_best, idx);
    }
    J.If(renormalize != 0u, [&] { w = w * rcp(wsum); });
    // lanes >= topk store out of range (dropped): the buffers are exactly this token's k entries
    auto orow = J.sgpr<dtype::u32>();
    orow = token * static_cast<uint32_t>(C.topk * 4);
    buffer W = detail::row_buffer(J, weights, orow, static_cast<uint32_t>(C.topk) * 4u);
    buffer I = detail::row_buffer(J, indices, orow, static_cast<uint32_t>(C.topk) * 4u);
    auto ooff = J.vgpr<dtype::u32>();
    ooff = lane << 2u;
    W.store(w, ooff);
    I.store(idx, ooff);
  });
}

}  // namespace hipasm::kernels

#define HIPASM_TOPK_SOFTMAX_KERNEL(NAME, CFG)                                                             \
  extern "C" __attribute__((global)) void NAME(float* weights, int* indices, const float* logits,        \
                                               unsigned tokens, unsigned renormalize) {                  \
    HIPASM_KERNEL_BODY((hipasm::kernels::topk_softmax<CFG>), weights, indices, logits, tokens, renormalize); \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/sim/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/sim/launcher.hpp>
namespace hipasm::kernels {
struct topk_softmax_args {
  uint64_t weights = 0, indices = 0, logits = 0;  // device addresses
  uint32_t tokens = 0;
  bool renormalize = false;
};
template <topk_softmax_config C>
rt::launch_report launch_topk_softmax(rt::device& dev, rt::module& m, std::string_view kernel,
                                      const topk_softmax_args& a, const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm topk_softmax launch: tokens must be >= 1");
  if (!a.weights || !a.indices || !a.logits)
    throw std::invalid_argument("hipasm topk_softmax launch: weights, indices or logits is null");
  if (static_cast<uint64_t>(a.tokens) * static_cast<uint64_t>(C.experts) * 4u >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm topk_softmax launch: the logits must be below 4 GiB, got " +
                                std::to_string(a.tokens) + " tokens");
  rt::kernel_args args;
  args.add(a.weights).add(a.indices).add(a.logits).add(a.tokens).add(static_cast<uint32_t>(a.renormalize));
  const uint32_t groups = (a.tokens + C.waves - 1) / C.waves;
  return dev.launch(m, kernel, {groups, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
