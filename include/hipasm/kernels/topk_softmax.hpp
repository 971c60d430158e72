// MoE routing: softmax over each token's expert logits, then the top-k experts with their
// probabilities (optionally renormalized over the k), as aiter's topksoftmax asm kernels:
//   weights[t][i] = p(e_i), indices[t][i] = e_i, e_0..e_{k-1} the experts of the k largest
//   logits, in decreasing order, the lower expert index first on ties;
//   p(e) = exp(x_e - max) / sum_j exp(x_j - max)  (renormalize: p(e_i) / sum_i p(e_i)).
//
// A group of L lanes per token (L a power of two, 2..64, so that each lane holds V <= 8
// experts: 128 experts -> 16 lanes, 4 tokens per wave); lane g of a group holds experts
// V*g .. V*g+V-1 (16-byte buffer loads); experts past the last are masked to -inf, tokens past
// the last read zeros and store nothing (buffer range checks). Selection is on the logits
// (exact; ties by index): each round a group max, a group min of the index, and the chosen
// expert leaves the race; the group's first lane stores the k weights and indices.
// Edge values: a NaN logit is never selected (v_max ignores NaN) but makes the sum, so every
// weight of that token, NaN; -inf logits have probability 0.
//
// Device side:  constexpr hipasm::kernels::topk_softmax_config cfg{.experts = 128, .topk = 8};
//               HIPASM_TOPK_SOFTMAX_KERNEL(topk_128x8, cfg)
// Host side:    hipasm::kernels::launch_topk_softmax<cfg>(dev, module, "topk_128x8",
//                   {.weights, .indices, .logits, .tokens, .renormalize});
// logits: f32 [tokens][experts]; weights: f32 [tokens][topk]; indices: i32 [tokens][topk].
#pragma once
#include <bit>
#include <cstdint>
#include <limits>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct topk_softmax_config {
  int experts = 0;  // 1..512
  int topk = 0;     // 1..experts
  int waves = 4;    // waves per workgroup, 1..16
};
// Lanes per token: a power of two 2..64 giving each lane at most 8 experts (two 16-byte loads).
constexpr int topk_lanes(const topk_softmax_config& c) {
  int l = 2;
  while (l < 64 && l * 8 < c.experts) l *= 2;
  return l;
}
constexpr int topk_lane_experts(const topk_softmax_config& c) { return (c.experts + topk_lanes(c) - 1) / topk_lanes(c); }
constexpr int topk_tokens_per_group(const topk_softmax_config& c) { return c.waves * (64 / topk_lanes(c)); }

template <topk_softmax_config C>
constexpr void topk_softmax(builder J, arg<float*> weights, arg<int*> indices, arg<const float*> logits,
                            arg<unsigned> tokens, arg<unsigned> renormalize) {
  static_assert(C.experts >= 1 && C.experts <= 512, "hipasm topk_softmax: experts must be 1..512");
  static_assert(C.topk >= 1 && C.topk <= C.experts, "hipasm topk_softmax: topk must be 1..experts");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm topk_softmax: waves must be 1..16");
  constexpr int L = topk_lanes(C), V = topk_lane_experts(C), K = C.topk;
  constexpr float ninf = -std::numeric_limits<float>::infinity();
  constexpr float log2e = 1.44269504088896340736f;

  // token of this lane and its place g in the token's group of L lanes
  auto t = J.thread_id_x();
  auto token = J.vgpr<dtype::u32>(), g = J.vgpr<dtype::u32>(), first = J.vgpr<dtype::u32>();
  token = J.workgroup_id_x() * static_cast<uint32_t>(topk_tokens_per_group(C)) + (t >> static_cast<uint32_t>(std::countr_zero(static_cast<unsigned>(L))));
  g = t & static_cast<uint32_t>(L - 1);
  first = g * static_cast<uint32_t>(V);
  // Tokens past the end (the last workgroup's spare lanes): the buffers end at the last
  // token, so their loads return 0 and their stores are dropped (no branch).
  auto in_bytes = J.sgpr<dtype::u32>(), out_bytes = J.sgpr<dtype::u32>();
  in_bytes = tokens * static_cast<uint32_t>(C.experts * 4);
  out_bytes = tokens * static_cast<uint32_t>(K * 4);
  buffer X = make_buffer(J, logits, in_bytes);
  auto x = J.vgpr<dtype::f32>(V);
  auto voff = J.vgpr<dtype::u32>();
  voff = token * static_cast<uint32_t>(C.experts * 4) + (first << 2u);
  for (int j = 0; j < V; j += 4) X.load(x.slice(j, V - j < 4 ? V - j : 4), voff + 4 * j);
  J.s_waitcnt(vmcnt(0));
  if constexpr (C.experts % L != 0)  // lanes whose last experts are past the token's
    for (int j = 0; j < V; ++j)
      if ((L - 1) * V + j >= C.experts) x[j] = select(first < static_cast<uint32_t>(C.experts - j), x[j], ninf);

  auto lane_max = [&](gpr<dtype::f32>& dst) {
    if constexpr (V == 1) dst = x[0] + 0.0f;
    else if constexpr (V == 2) dst = max(x[0], x[1]);
    else {
      dst = max3(x[0], x[1], x[2]);
      for (int j = 3; j + 1 < V; j += 2) dst = max3(dst, x[j], x[j + 1]);
      if (V > 3 && V % 2 == 0) dst = max(dst, x[V - 1]);
    }
  };
  auto m = J.vgpr<dtype::f32>();
  lane_max(m);
  auto mx = group_reduce(J, reduce::max, m, L, {.all_lanes_active = true});
  auto s = J.vgpr<dtype::f32>(), e = J.vgpr<dtype::f32>();
  for (int j = 0; j < V; ++j) {
    e = (x[j] - mx) * log2e;
    J.v_exp_f32(e, e);
    if (j == 0) s = e + 0.0f;
    else s = s + e;
  }
  auto total = group_reduce(J, reduce::sum, s, L, {.all_lanes_active = true});
  auto inv = J.vgpr<dtype::f32>();
  inv = rcp(total);

  // k rounds: the largest remaining logit and its lowest expert index, over the group
  auto w = J.vgpr<dtype::f32>(K), wsum = J.vgpr<dtype::f32>();
  auto idx = J.vgpr<dtype::u32>(K);
  auto cand = J.vgpr<dtype::u32>();
  auto lm = J.vgpr<dtype::f32>();
  for (int r = 0; r < K; ++r) {
    lane_max(lm);
    auto best = group_reduce(J, reduce::max, lm, L, {.all_lanes_active = true});
    cand = 0xffffffffu + 0u;
    for (int j = V - 1; j >= 0; --j) cand = select(x[j] == best, first + static_cast<uint32_t>(j), cand);
    idx[r] = group_reduce(J, reduce::min, cand, L, {.all_lanes_active = true});
    if (r + 1 < K)
      for (int j = 0; j < V; ++j) x[j] = select(first + static_cast<uint32_t>(j) == idx[r], ninf, x[j]);
    w[r] = (best - mx) * log2e;
    J.v_exp_f32(w[r], w[r]);
    w[r] = w[r] * inv;
    if (r == 0) wsum = w[0] + 0.0f;
    else wsum = wsum + w[r];
  }
  J.If(renormalize != 0u, [&] {
    auto rs = J.vgpr<dtype::f32>();
    rs = rcp(wsum);
    for (int r = 0; r < K; ++r) w[r] = w[r] * rs;
  });
  // the first lane of each group stores its token's k weights and indices
  J.If(g == 0u, [&] {
    buffer W = make_buffer(J, weights, out_bytes);
    buffer I = make_buffer(J, indices, out_bytes);
    auto ooff = J.vgpr<dtype::u32>();
    ooff = token * static_cast<uint32_t>(K * 4);
    for (int r = 0; r < K; r += 4) {
      const int n = K - r < 4 ? K - r : 4;
      W.store(w.slice(r, n), ooff + 4 * r);
      I.store(idx.slice(r, n), ooff + 4 * r);
    }
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
  const uint32_t per = static_cast<uint32_t>(topk_tokens_per_group(C));
  const uint32_t groups = (a.tokens + per - 1) / per;
  return dev.launch(m, kernel, {groups, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
