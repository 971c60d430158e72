// MoE routing: softmax over each token's expert logits, then the top-k experts with their
// probabilities (optionally renormalized over the k), as aiter's topksoftmax asm kernels:
//   weights[t][i] = p(e_i), indices[t][i] = e_i, e_0..e_{k-1} the experts of the k largest
//   logits, in decreasing order, the lower expert index first on ties;
//   p(e) = exp(x_e - max) / sum_j exp(x_j - max)  (renormalize: p(e_i) / sum_i p(e_i)).
//
// Layout: a group of L lanes per token (L = 1..32, a power of two), each lane
// holding V experts in chunks of W (4 when the expert count allows: 16-byte loads); chunk j of
// lane g holds experts W*L*j + W*g .. +W-1, so a load instruction reads each token's row
// contiguously. Experts past the last are masked; tokens past the last read zeros and store
// nothing (buffer range checks).
//
// Selection on exact 64-bit keys: each expert's key is an f64 whose high dword is its logit's
// f32 bits (NaN replaced by 0xffefffff, below -inf; -0 by +0) and whose low dword breaks ties,
// ~e for a positive logit and e for a negative one (the f64 order is sign-magnitude like the
// f32's): v_max_f64 / v_min_f64 order (logit, lower index first) in one instruction, and no two
// keys are equal. Each lane sorts its keys (sorting networks, then top-P merges, P = k rounded
// up to a power of two), then log2(L) butterfly steps (quad_perm, row_half_mirror, row_mirror;
// for 32 lanes a last row_bcast:15 into the second row of 16) merge each lane's list with its
// partner's (fetched by two v_mov_b32_dpp per key): the top P of two sorted lists is
// max(A_i, B_{P-1-i}) (bitonic), sorted by log2(P) half-cleaner stages. No step waits on
// another round's reduction, unlike k rounds of max + arg-min (which need k reductions in a
// row and about 1.7x the instructions at 128 experts, top-8). Cost per merge of two top-8 lists: 16 DPP moves, 8 v_max_f64, 12 exchanges.
// Edge values: a NaN logit is selected only after every other (then by index) and makes every
// weight of its token NaN (the sum); -inf logits have probability 0.
// The softmax max is the group's max of the lanes' best logits (f32 DPP; 32 lanes: per row of
// 16, the rows' (max, sum) combined); output lane o (g mod 16, in the last row of 16) writes
// entries o, o+16, .. of the token's k (picked from the sorted list by constant lane masks).
//
// Device side:  constexpr hipasm::kernels::topk_softmax_config cfg{.experts = 128, .topk = 8};
//               HIPASM_TOPK_SOFTMAX_KERNEL(topk_128x8, cfg)
// Host side:    hipasm::kernels::launch_topk_softmax<cfg>(dev, module, "topk_128x8",
//                   {.weights, .indices, .logits, .tokens, .renormalize});
// Or both a throughput and a latency configuration, picked per launch by the token count:
//               HIPASM_TOPK_SOFTMAX_KERNELS(topk_128x8, cfg)   (topk_128x8 and topk_128x8_latency)
//               hipasm::kernels::launch_topk_softmax_auto<cfg>(dev, module, "topk_128x8", {...});
// logits: f32 [tokens][experts]; weights: f32 [tokens][topk]; indices: i32 [tokens][topk].
// The arguments are preloaded into SGPRs when the code object is built with KERNARG_PRELOAD
// (hipasm_add_code_object), else loaded.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <limits>

#include "../hipasm.hpp"

namespace hipasm::kernels {

struct topk_softmax_config {
  int experts = 0;  // 1..512
  int topk = 0;     // 1..min(experts, 32)
  int waves = 4;    // waves per workgroup, 1..16
  int lanes = 0;    // lanes per token (1, 2, 4, 8, 16 or 32); 0: the fewest giving each lane <= 16 experts
};
// Experts per chunk (one load): 4, else 2, else 1, whichever divides the expert count.
constexpr int topk_chunk(const topk_softmax_config& c) { return c.experts % 4 == 0 ? 4 : c.experts % 2 == 0 ? 2 : 1; }
constexpr int topk_chunks(const topk_softmax_config& c, int lanes) {
  return (c.experts + topk_chunk(c) * lanes - 1) / (topk_chunk(c) * lanes);
}
// The fewest lanes (up to `most`) giving each lane at most `per_lane` experts.
constexpr int topk_lanes_for(const topk_softmax_config& c, int per_lane, int most) {
  int l = 1;
  while (l < most && topk_chunks(c, l) * topk_chunk(c) > per_lane) l *= 2;
  return l;
}
constexpr int topk_lanes(const topk_softmax_config& c) { return c.lanes ? c.lanes : topk_lanes_for(c, 16, 16); }
// The latency configuration of c: the fewest lanes (up to 32) giving each lane <= 4 experts, so a
// wave's work is shortest (1 to a few thousand tokens; more tokens per wave pay off once the
// workgroups outnumber the CUs; bench_kernel_topk_softmax compares the lane counts).
constexpr topk_softmax_config topk_latency_config(topk_softmax_config c) {
  c.lanes = topk_lanes_for(c, 4, 32);
  return c;
}
constexpr int topk_lane_experts(const topk_softmax_config& c) { return topk_chunks(c, topk_lanes(c)) * topk_chunk(c); }
constexpr int topk_tokens_per_group(const topk_softmax_config& c) { return c.waves * (64 / topk_lanes(c)); }

namespace detail {

// A sorted list entry: an f64 key register, or padding (known at compile time to be below
// every key: operations with it are not emitted). Assignment rebinds the handle (no copy).
struct topk_key {
  gpr<dtype::f64> r{};
  bool pad = true;
  constexpr topk_key() = default;
  constexpr topk_key(const topk_key& o) : r(o.r), pad(o.pad) {}
  constexpr topk_key& operator=(const topk_key& o) {
    r.rebind(o.r);
    pad = o.pad;
    return *this;
  }
};
constexpr int topk_max_list = 32;
struct topk_list {
  std::array<topk_key, topk_max_list> e{};
  int n = 0;
};

// a := max(a, b), b := min(a, b)
constexpr void topk_exchange(builder J, topk_key& a, topk_key& b) {
  if (b.pad) return;
  if (a.pad) {
    const topk_key t = a;
    a = b;
    b = t;
    return;
  }
  auto mx = J.vgpr<dtype::f64>(), mn = J.vgpr<dtype::f64>();
  J.v_max_f64(mx, a.r, b.r);
  J.v_min_f64(mn, a.r, b.r);
  a.r.rebind(mx);
  b.r.rebind(mn);
}
constexpr topk_key topk_max(builder J, const topk_key& a, const topk_key& b) {
  if (b.pad) return a;
  if (a.pad) return b;
  topk_key m;
  m.r.rebind(J.vgpr<dtype::f64>());
  m.pad = false;
  J.v_max_f64(m.r, a.r, b.r);
  return m;
}
// Sorts a bitonic list (descending) of power-of-two length by half-cleaner stages.
constexpr void topk_bitonic_clean(builder J, topk_list& l) {
  for (int d = l.n / 2; d >= 1; d /= 2)
    for (int i = 0; i < l.n; ++i)
      if (!(i & d)) topk_exchange(J, l.e[i], l.e[i + d]);
}
// Sorts l (length 1, 2, 4, 8 or more, a power of two) descending.
constexpr void topk_sort(builder J, topk_list& l) {
  constexpr int net4[5][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}};
  constexpr int net8[19][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}, {0, 1}, {2, 3},
                               {4, 5}, {6, 7}, {2, 4}, {3, 5}, {1, 4}, {3, 6}, {1, 2}, {3, 4}, {5, 6}};
  if (l.n == 2) topk_exchange(J, l.e[0], l.e[1]);
  else if (l.n == 4)
    for (const auto& c : net4) topk_exchange(J, l.e[c[0]], l.e[c[1]]);
  else if (l.n == 8)
    for (const auto& c : net8) topk_exchange(J, l.e[c[0]], l.e[c[1]]);
  else if (l.n > 8) {  // sort the halves, reverse the second (bitonic), clean
    topk_list a, b;
    a.n = b.n = l.n / 2;
    for (int i = 0; i < a.n; ++i) a.e[i] = l.e[i], b.e[i] = l.e[a.n + i];
    topk_sort(J, a);
    topk_sort(J, b);
    for (int i = 0; i < a.n; ++i) l.e[i] = a.e[i], l.e[a.n + i] = b.e[a.n - 1 - i];
    topk_bitonic_clean(J, l);
  }
}
// The top min(2n, cap) of two sorted lists of length n, sorted.
// (clean = false: left bitonic, for topk_pick_bitonic)
constexpr topk_list topk_merge(builder J, const topk_list& a, const topk_list& b, int cap, bool clean = true) {
  topk_list r;
  if (2 * a.n <= cap) {  // all of them: a then b reversed is bitonic
    r.n = 2 * a.n;
    for (int i = 0; i < a.n; ++i) r.e[i] = a.e[i], r.e[a.n + i] = b.e[a.n - 1 - i];
  } else {  // the larger half of that bitonic list, itself bitonic
    r.n = a.n;
    for (int i = 0; i < a.n; ++i) r.e[i] = topk_max(J, a.e[i], b.e[a.n - 1 - i]);
  }
  if (clean) topk_bitonic_clean(J, r);
  return r;
}
constexpr topk_key topk_min(builder J, const topk_key& a, const topk_key& b) {
  if (a.pad || b.pad) return a.pad ? a : b;
  topk_key m;
  m.r.rebind(J.vgpr<dtype::f64>());
  m.pad = false;
  J.v_min_f64(m.r, a.r, b.r);
  return m;
}
// mask ? b : a per lane (a pad side is never wanted: the other is taken)
constexpr topk_key topk_select(builder J, const topk_key& a, const topk_key& b, const gpr<dtype::u64>& mask) {
  if (a.pad || b.pad) return a.pad ? b : a;
  topk_key m;
  m.r.rebind(J.vgpr<dtype::f64>());
  m.pad = false;
  J.v_cndmask_b32(m.r.lo(), a.r.lo(), b.r.lo(), mask);
  J.v_cndmask_b32(m.r.hi(), a.r.hi(), b.r.hi(), mask);
  return m;
}
// Entry o of the sorted order of a bitonic list l (o < needed; bit b of o set in the lanes of
// obit[b]): each half-cleaner stage keeps only the half o falls in, so one path is computed
// instead of the whole sort and a select tree (8 entries: 28 instructions, not 24 + 14).
constexpr topk_key topk_pick_bitonic(builder J, topk_list l, const std::array<gpr<dtype::u64>, 4>& obit, int needed) {
  for (int d = l.n / 2; d >= 1; d /= 2)
    for (int i = 0; i < d; ++i) {
      const topk_key upper = topk_max(J, l.e[i], l.e[i + d]);
      if (d >= needed) l.e[i] = upper;  // every wanted entry is in the upper half
      else l.e[i] = topk_select(J, upper, topk_min(J, l.e[i], l.e[i + d]), obit[std::countr_zero(static_cast<unsigned>(d))]);
    }
  return l.e[0];
}
// Lane-constant SGPR mask: bit l set where pred(l).
template <class Pred>
constexpr gpr<dtype::u64> topk_lane_pattern(builder J, Pred pred) {
  uint32_t w[2] = {0, 0};
  for (int l = 0; l < 64; ++l)
    if (pred(l)) w[l / 32] |= 1u << (l % 32);
  auto m = J.sgpr<dtype::u32>(2);
  m[0] = w[0];
  m[1] = w[1];
  return m.template as<dtype::u64>();
}

}  // namespace detail

template <topk_softmax_config C>
constexpr void topk_softmax_body(builder J, arg<float*> weights, arg<int*> indices, arg<const float*> logits,
                                 arg<unsigned> tokens, arg<unsigned> renormalize) {
  static_assert(C.experts >= 1 && C.experts <= 512, "hipasm topk_softmax: experts must be 1..512");
  static_assert(C.topk >= 1 && C.topk <= C.experts && C.topk <= detail::topk_max_list,
                "hipasm topk_softmax: topk must be 1..min(experts, 32)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm topk_softmax: waves must be 1..16");
  static_assert(C.lanes == 0 || C.lanes == 1 || C.lanes == 2 || C.lanes == 4 || C.lanes == 8 || C.lanes == 16 ||
                    C.lanes == 32,
                "hipasm topk_softmax: lanes must be 0 (automatic), 1, 2, 4, 8, 16 or 32");
  constexpr int E = C.experts, K = C.topk, L = topk_lanes(C), W = topk_chunk(C), NJ = topk_chunks(C, L);
  constexpr int V = NJ * W, P = static_cast<int>(std::bit_ceil(static_cast<unsigned>(K)));
  static_assert(V <= 32, "hipasm topk_softmax: more than 32 experts per lane; use more lanes per token");
  constexpr float log2e = 1.44269504088896340736f;
  constexpr uint32_t nan_key = 0xffefffffu;  // -DBL_MAX's high dword: below -inf's 0xff800000

  // token of this lane and its place g in the token's group of L lanes
  auto t = J.thread_id_x();
  auto token = J.vgpr<dtype::u32>(), g = J.vgpr<dtype::u32>();
  token = J.workgroup_id_x() * static_cast<uint32_t>(topk_tokens_per_group(C)) + (t >> static_cast<uint32_t>(std::countr_zero(static_cast<unsigned>(L))));
  g = t & static_cast<uint32_t>(L - 1);
  auto in_bytes = J.sgpr<dtype::u32>(), out_bytes = J.sgpr<dtype::u32>();
  in_bytes = tokens * static_cast<uint32_t>(E * 4);
  out_bytes = tokens * static_cast<uint32_t>(K * 4);
  buffer X = make_buffer(J, logits, in_bytes);
  auto x = J.vgpr<dtype::f32>(V);
  auto voff = J.vgpr<dtype::u32>();
  voff = token * static_cast<uint32_t>(E * 4) + g * static_cast<uint32_t>(W * 4);
  for (int j = 0; j < NJ; ++j) X.load(x.slice(j * W, W), voff + 4 * W * L * j);

  // Everything that does not need the logits goes before their wait (~650 cycles at 1 token).
  // chunk j is the token's in lanes g < valid_lanes(j) (all lanes when that is L)
  auto valid_lanes = [](int j) { return (E - W * L * j) / W < L ? (E - W * L * j) / W : L; };
  // With 32 lanes the second row of the group ends with the merged list (row_bcast:15 goes one
  // way): its LO = 16 lanes write the outputs. An output lane's index o = g mod LO.
  constexpr int LO = L < 16 ? L : 16;
  auto lanes_below = [&](int n) { return detail::topk_lane_pattern(J, [&](int l) { return (l & (L - 1)) < n; }); };
  auto out_lanes_below = [&](int n) {
    return detail::topk_lane_pattern(J, [&](int l) { return (l & (L - 1)) >= L - LO && (l & (LO - 1)) < n; });
  };
  auto nan_v = J.vgpr<dtype::u32>(), ninf = J.vgpr<dtype::u32>();
  nan_v = nan_key;
  if constexpr (E % (W * L) != 0) ninf = 0xff800000u;
  auto nb = J.vgpr<dtype::u32>();
  nb = ~(g * static_cast<uint32_t>(W));
  auto ne = J.vgpr<dtype::u32>(V);  // ~e of each slot (e = W*g + off: disjoint bits)
  for (int j = 0; j < NJ; ++j)
    for (int c = 0; c < W; ++c) ne[j * W + c] = nb ^ static_cast<uint32_t>(W * L * j + c);
  std::array<gpr<dtype::u64>, 32> valid{};
  for (int j = 0; j < NJ; ++j)
    if (valid_lanes(j) < L) valid[j].rebind(lanes_below(valid_lanes(j)));
  // output: output lane o takes entries q*LO + o (q < Q); o's bits as lane masks
  constexpr int Q = (K + LO - 1) / LO;
  std::array<gpr<dtype::u64>, 4> gbit{};
  for (int b = 0; (1 << b) < LO && (1 << b) < K; ++b)
    gbit[b].rebind(detail::topk_lane_pattern(J, [&](int l) { return ((l >> b) & 1) != 0; }));
  std::array<gpr<dtype::u64>, 32> store_mask{};
  for (int q = 0; q < Q; ++q)
    if (L > 1 && (K - q * LO < LO || L > LO)) store_mask[q].rebind(out_lanes_below(K - q * LO));
  buffer Wb = make_buffer(J, weights, out_bytes);
  buffer Ib = make_buffer(J, indices, out_bytes);
  auto ooff = J.vgpr<dtype::u32>();
  if constexpr (L == 1) ooff = token * static_cast<uint32_t>(K * 4);
  else ooff = token * static_cast<uint32_t>(K * 4) + ((g & static_cast<uint32_t>(LO - 1)) << 2u);

  // keys: high dword the canonical logit, low dword ~e (positive) or e (negative); built and
  // sorted a block at a time as their chunks arrive (the loads return in order), so that
  // little work is left after the last chunk when HBM streams the logits in
  detail::topk_list lane;
  lane.n = V;
  auto make_key = [&](int k) {
    const int j = k / W;
    auto y = J.vgpr<dtype::f32>();
    J.v_add_f32(y, 0.0f, x[k]);  // -0 -> +0 (so that they tie), NaN stays NaN
    auto ordered = lane_mask(J, y == y);  // (false for NaN)
    if (valid_lanes(j) < L) {
      J.s_and_b64(ordered, ordered, valid[j]);  // masked experts rank below every real one
      J.v_cndmask_b32(x[k], ninf.as<dtype::f32>(), x[k], valid[j]);  // and add nothing to the sum
    }
    auto key = J.vgpr<dtype::f64>();
    J.v_cndmask_b32(key.hi(), nan_v, y.as<dtype::u32>(), ordered);
    auto s = J.vgpr<dtype::u32>();
    J.v_ashrrev_i32(s, 31u, key.hi());
    J.v_xor_b32(key.lo(), s, ne[k]);
    lane.e[k].r.rebind(key);
    lane.e[k].pad = false;
  };

  // each lane's keys: blocks of min(P, V) sorted, then merged to the top P
  const int blk = static_cast<int>(std::bit_ceil(static_cast<unsigned>(V))) < P ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(V))) : P;
  std::array<detail::topk_list, detail::topk_max_list> blocks{};
  int nblocks = 0;
  for (int b0 = 0; b0 < V; b0 += blk) {
    const int b1 = b0 + blk < V ? b0 + blk : V;  // slots b0 .. b1-1
    J.wait_for(x.slice(b0, b1 - b0));
    for (int k = b0; k < b1; ++k) make_key(k);
    detail::topk_list& bl = blocks[nblocks++];
    bl.n = blk;
    for (int i = 0; i < blk && b0 + i < V; ++i) bl.e[i] = lane.e[b0 + i];
    detail::topk_sort(J, bl);
  }
  while (nblocks > 1) {
    int m = 0;
    for (int i = 0; i < nblocks; i += 2) {
      if (i + 1 < nblocks) blocks[m++] = detail::topk_merge(J, blocks[i], blocks[i + 1], P);
      else blocks[m++] = blocks[i];
    }
    nblocks = m;
  }
  detail::topk_list list = blocks[0];

  // the softmax's max: the group's max of the lanes' best logits (NaN keys are NaN as f32: ignored)
  auto best = J.vgpr<dtype::f32>();
  best = list.e[0].r.hi().as<dtype::f32>() + 0.0f;
  // (32 lanes: the max of each row of 16, at least -FLT_MAX so that a row of -inf sums to 0)
  auto mx = L > 1 ? group_reduce(J, reduce::max, best, LO, {.all_lanes_active = true}) : best;
  if constexpr (L > LO) mx = max(mx, -std::numeric_limits<float>::max());

  // butterfly across the group: merge with the partner lane's list
  // (the fifth, 32 lanes: row 1 and 3 take lane 15 of the row before; rows 0 and 2 merge junk)
  constexpr dpp_ctrl partner[5] = {dpp::quad_perm(1, 0, 3, 2), dpp::quad_perm(2, 3, 0, 1), dpp::row_half_mirror(),
                                   dpp::row_mirror(), dpp::row_bcast15()};
  // (one entry per output lane: the last merge stays bitonic and each lane picks its entry)
  const bool pick_late = L > 1 && Q == 1;
  for (int step = 0; (1 << step) < L; ++step) {
    detail::topk_list other;
    other.n = list.n;
    for (int i = 0; i < list.n; ++i) {
      if (list.e[i].pad) continue;
      auto o = J.vgpr<dtype::f64>();
      J.v_mov_b32(o.lo(), list.e[i].r.lo(), partner[step].bound_ctrl());
      J.v_mov_b32(o.hi(), list.e[i].r.hi(), partner[step].bound_ctrl());
      other.e[i].r.rebind(o);
      other.e[i].pad = false;
    }
    list = detail::topk_merge(J, list, other, P, !(pick_late && (2 << step) >= L));
  }

  // sum of exp(x - max) over the group (raw logits: a NaN makes it NaN)
  // (two at a time: v_pk_add_f32 x - max with max in both halves, v_pk_mul_f32 by log2(e))
  auto s = J.vgpr<dtype::f32>(), ex = J.vgpr<dtype::f32>();
  auto mx2 = J.vgpr<dtype::f32>(2), ex2 = J.vgpr<dtype::f32>(2);
  auto log2e2 = J.sgpr<dtype::u32>(2);
  if constexpr (V > 1) {
    J.v_mov_b32(mx2[0], mx);
    log2e2[0] = std::bit_cast<uint32_t>(log2e);
    log2e2[1] = std::bit_cast<uint32_t>(log2e);
  }
  for (int k = 0; k < V; ++k) {
    if (k + 1 < V && k % 2 == 0) {
      J.v_pk_add_f32(ex2, x.slice(k, 2), mx2, modifiers{.op_sel_hi = 0b01, .neg_lo = 0b10, .neg_hi = 0b10});
      J.v_pk_mul_f32(ex2, ex2, log2e2.as<dtype::f32>());
    }
    // (flush_denormals: the arguments are <= 0 and the sum >= 1, see softmax.hpp)
    if (k % 2 == 0 && k + 1 < V) ex = exp2(ex2[0], {.flush_denormals = true});
    else if (k % 2 == 1) ex = exp2(ex2[1], {.flush_denormals = true});
    else ex = exp(x[k] - mx, {.flush_denormals = true});
    if (k == 0) s = ex + 0.0f;
    else s = s + ex;
  }
  auto total = L > 1 ? group_reduce(J, reduce::sum, s, LO, {.all_lanes_active = true}) : s;
  if constexpr (L > LO) {  // rows 1 and 3 combine their row's (max, sum) with the row before's
    auto mo = dpp_value(mx, dpp::row_bcast15()), so = dpp_value(total, dpp::row_bcast15());
    auto m2 = J.vgpr<dtype::f32>(), f = J.vgpr<dtype::f32>();
    m2 = max(mx, mo);
    f = exp(mx - m2, {.flush_denormals = true});
    total = total * f;
    f = exp(mo - m2, {.flush_denormals = true});
    total = total + so * f;
    mx = m2 + 0.0f;
  }
  auto inv = J.vgpr<dtype::f32>();
  inv = rcp(total, {.flush_denormals = true});  // (total >= 1)

  // output lane o takes entries q*LO + o (q < Q) of the sorted list: a select tree on o's bits
  auto w = J.vgpr<dtype::f32>(Q);
  auto idx = J.vgpr<dtype::u32>(Q);
  for (int q = 0; q < Q; ++q) {
    std::array<gpr<dtype::f64>, 16> cand{};
    int n = 0;
    if (pick_late) cand[n++].rebind(detail::topk_pick_bitonic(J, list, gbit, K).r);
    else
      for (int c = 0; c < LO && q * LO + c < K; ++c) cand[n++].rebind(list.e[q * LO + c].r);
    for (int b = 0; n > 1; ++b) {
      int m = 0;
      for (int i = 0; i < n; i += 2) {
        if (i + 1 < n) {
          auto sel = J.vgpr<dtype::f64>();
          J.v_cndmask_b32(sel.lo(), cand[i].lo(), cand[i + 1].lo(), gbit[b]);
          J.v_cndmask_b32(sel.hi(), cand[i].hi(), cand[i + 1].hi(), gbit[b]);
          cand[m++].rebind(sel);
        } else {
          cand[m++].rebind(cand[i]);
        }
      }
      n = m;
    }
    auto hi = cand[0].hi(), sg = J.vgpr<dtype::u32>();
    J.v_ashrrev_i32(sg, 31u, hi);
    J.v_xnor_b32(idx[q], cand[0].lo(), sg);  // e = ~(lo ^ sign)
    w[q] = exp(hi.as<dtype::f32>() - mx, {.flush_denormals = true});
    w[q] = w[q] * inv;
  }
  J.If(renormalize != 0u, [&] {
    auto ws = J.vgpr<dtype::f32>();
    for (int q = 0; q < Q; ++q) {
      auto term = J.vgpr<dtype::f32>();
      if (store_mask[q].valid()) J.v_cndmask_b32(term, 0u, w[q], store_mask[q]);  // lanes past entry k-1: 0
      else term = w[q] + 0.0f;
      if (q == 0) ws = term + 0.0f;
      else ws = ws + term;
    }
    auto wt = L > 1 ? group_reduce(J, reduce::sum, ws, LO, {.all_lanes_active = true}) : ws;
    auto rs = J.vgpr<dtype::f32>();
    rs = rcp(wt, {.flush_denormals = true});  // (the top weight >= 1 / experts)
    for (int q = 0; q < Q; ++q) w[q] = w[q] * rs;
  });

  if constexpr (L == 1) {  // the lane holds its token's k entries in order
    for (int r = 0; r < K; r += 4) {
      const int n = K - r < 4 ? K - r : 4;
      Wb.store(w.slice(r, n), ooff + 4 * r);
      Ib.store(idx.slice(r, n), ooff + 4 * r);
    }
  } else {
    for (int q = 0; q < Q; ++q) {
      auto store = [&] {
        Wb.store(w[q], ooff + 4 * LO * q);
        Ib.store(idx[q], ooff + 4 * LO * q);
      };
      if (store_mask[q].valid()) with_exec_mask(J, store_mask[q], store);
      else store();
    }
  }
}

// The kernel: arguments preloaded when the code object is built with KERNARG_PRELOAD.
template <topk_softmax_config C>
inline constexpr auto topk_softmax =
    with_options<topk_softmax_body<C>, kernel_options{.kernarg_preload = arg_preload::fitting}>;

}  // namespace hipasm::kernels

#define HIPASM_TOPK_SOFTMAX_KERNEL(NAME, CFG)                                                             \
  extern "C" __attribute__((global)) void NAME(float* weights, int* indices, const float* logits,        \
                                               unsigned tokens, unsigned renormalize) {                  \
    HIPASM_KERNEL_BODY((hipasm::kernels::topk_softmax<CFG>), weights, indices, logits, tokens, renormalize); \
  }

// NAME with CFG and NAME_latency with topk_latency_config(CFG): launch_topk_softmax_auto picks one.
#define HIPASM_TOPK_SOFTMAX_KERNELS(NAME, CFG) \
  HIPASM_TOPK_SOFTMAX_KERNEL(NAME, CFG)        \
  HIPASM_TOPK_SOFTMAX_KERNEL(NAME##_latency, hipasm::kernels::topk_latency_config(CFG))

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
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
// The kernels of HIPASM_TOPK_SOFTMAX_KERNELS(kernel, C): the latency configuration while its
// workgroups fit on the device's CUs at once (one wave's latency is the time), else C.
template <topk_softmax_config C>
bool topk_softmax_uses_latency(uint32_t tokens, uint32_t cus = 304) {
  constexpr uint32_t per = static_cast<uint32_t>(topk_tokens_per_group(topk_latency_config(C)));
  return (tokens + per - 1) / per <= cus;
}
template <topk_softmax_config C>
rt::launch_report launch_topk_softmax_auto(rt::device& dev, rt::module& m, std::string_view kernel,
                                           const topk_softmax_args& a, const rt::launch_options& opts = {}) {
  if (topk_softmax_uses_latency<C>(a.tokens))
    return launch_topk_softmax<topk_latency_config(C)>(dev, m, std::string(kernel) + "_latency", a, opts);
  return launch_topk_softmax<C>(dev, m, kernel, a, opts);
}
}  // namespace hipasm::kernels
#endif
