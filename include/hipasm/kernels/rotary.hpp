// Rotary position embedding (RoPE) of bf16 queries and keys, in place or out of place, f32 math:
//   q, k: [tokens][heads][head_dim] bf16; positions: int64 [tokens];
//   cos_sin: [cache_rows][rot_dim] (cos in columns 0 .. rot_dim/2-1, sin in the rest; vLLM's
//   cos_sin_cache layout), f32 or bf16.
//   For each frequency i < rot_dim/2 with c = cos[pos][i], s = sin[pos][i], the pair (x1, x2) is
//     NeoX (rotate halves):     x1 = x[i],      x2 = x[i + rot_dim/2]
//     GPT-J (interleaved pairs): x1 = x[2i],     x2 = x[2i + 1]
//   out1 = x1 c - x2 s,  out2 = x2 c + x1 s  (f32, rounded to bf16 to nearest even, NaN kept).
//   Dims rot_dim .. head_dim-1 are copied (out of place; in place they are left alone).
//
// One workgroup per token. A lane rotates V pairs of one head (V = 8, 4 or 2, the largest that
// divides rot_dim/2: 16-, 8- or 4-byte loads): U = rot_dim / (2V) lanes per head, 64*waves/U
// heads per step, the lane's V cos and V sin loaded once for all its heads, before q (below), then
// all steps of q then k before any math (the token's bytes in flight at once). Heads past the
// last (a partial step) read zeros and store nothing (buffer range checks, no branch). The position is
// one scalar load; a position outside [0, cache_rows) reads cos = sin = 0 (the cache buffer's
// range check), so its rotated dims come out 0 (no fault). In place is out == in (a run-time
// compare: the copy of the unrotated dims is skipped).
//
// Device side:  constexpr hipasm::kernels::rotary_config cfg{.head_dim = 128, .rot_dim = 128,
//                   .heads_q = 32, .heads_k = 8, .neox = true, .cache_f32 = true};
//               HIPASM_ROTARY_KERNEL(rope_128, cfg)
// Host side:    hipasm::kernels::launch_rotary<cfg>(dev, module, "rope_128",
//                   {.q_out, .k_out, .q, .k, .positions, .cos_sin, .cache_rows, .tokens});
#pragma once
#include <cstdint>
#include <type_traits>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct rotary_config {
  int head_dim = 128;
  int rot_dim = 128;      // <= head_dim, a multiple of 4
  int heads_q = 32;       // query heads (>= 1)
  int heads_k = 8;        // key heads (>= 0; 0: k is not touched)
  bool neox = true;       // true: rotate halves (NeoX, LLaMA); false: interleaved pairs (GPT-J)
  bool cache_f32 = true;  // cos_sin cache element type: f32 or bf16
  int waves = 4;          // waves per workgroup (one token per workgroup), 1..16
};
// Pairs per lane (elements per 2-, 4- or 8-element access), lanes per head, heads per step.
constexpr int rotary_vec(int pairs_half) { return pairs_half % 8 == 0 ? 8 : pairs_half % 4 == 0 ? 4 : 2; }
constexpr int rotary_lane_pairs(const rotary_config& c) { return rotary_vec(c.rot_dim / 2); }
constexpr int rotary_lanes_per_head(const rotary_config& c) { return c.rot_dim / (2 * rotary_lane_pairs(c)); }
constexpr int rotary_heads_per_step(const rotary_config& c) { return 64 * c.waves / rotary_lanes_per_head(c); }
constexpr int rotary_steps(const rotary_config& c, int heads) {
  return (heads + rotary_heads_per_step(c) - 1) / rotary_heads_per_step(c);
}
template <rotary_config C>
using rotary_cache_elem = std::conditional_t<C.cache_f32, float, uint16_t>;

namespace detail {
template <rotary_config C>
constexpr void check_rotary_config() {
  static_assert(C.head_dim > 0 && C.head_dim % 8 == 0 && C.head_dim <= 1024,
                "hipasm rotary: head_dim must be a multiple of 8 in 8..1024 (16-byte aligned heads)");
  static_assert(C.rot_dim >= 4 && C.rot_dim % 4 == 0 && C.rot_dim <= C.head_dim,
                "hipasm rotary: rot_dim must be a multiple of 4 in 4..head_dim");
  static_assert(C.heads_q >= 1 && C.heads_k >= 0, "hipasm rotary: heads_q must be >= 1 and heads_k >= 0");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm rotary: waves must be 1..16");
  static_assert(rotary_lanes_per_head(C) <= 64 * C.waves,
                "hipasm rotary: a head needs more lanes than the workgroup has: use more waves");
  static_assert((rotary_steps(C, C.heads_q) + rotary_steps(C, C.heads_k)) * rotary_lane_pairs(C) <= 128,
                "hipasm rotary: a token's heads do not fit in registers (more than 128 VGPRs of q and k per "
                "lane): use more waves");
}
}  // namespace detail

template <rotary_config C>
constexpr void rotary(builder J, arg<uint16_t*> q_out, arg<uint16_t*> k_out, arg<const uint16_t*> q,
                      arg<const uint16_t*> k, arg<const int64_t*> positions,
                      arg<const rotary_cache_elem<C>*> cos_sin, arg<unsigned> cache_rows) {
  detail::check_rotary_config<C>();
  constexpr int V = rotary_lane_pairs(C), U = rotary_lanes_per_head(C), S = rotary_heads_per_step(C);
  constexpr int SQ = rotary_steps(C, C.heads_q), SK = rotary_steps(C, C.heads_k), NS = SQ + SK;
  constexpr uint32_t head_bytes = static_cast<uint32_t>(C.head_dim) * 2u;
  constexpr uint32_t q_bytes = head_bytes * static_cast<uint32_t>(C.heads_q);
  constexpr uint32_t k_bytes = head_bytes * static_cast<uint32_t>(C.heads_k);
  constexpr uint32_t ce = C.cache_f32 ? 4u : 2u;                // cache element bytes
  constexpr uint32_t cache_row = static_cast<uint32_t>(C.rot_dim) * ce;
  constexpr uint32_t xb = 2u * V;                               // bytes of V bf16
  constexpr int XW = V / 2;                                     // dwords of V bf16
  constexpr int CW = C.cache_f32 ? V : V / 2;                   // dwords of V cache elements

  // this token's position: one scalar load (int64; a value outside [0, cache_rows) reads zeros)
  auto token = J.workgroup_id_x();
  auto pptr = J.sgpr<dtype::u64>();
  pptr = positions + (token << 3u);
  auto pos = J.sgpr<dtype::u32>(2);
  J.s_load_dwordx2(pos, pptr, 0);

  // lane -> (unit u of a head, head slot); lanes past the last whole slot take no head
  auto t = J.thread_id_x();
  auto u = J.vgpr<dtype::u32>(), slot = J.vgpr<dtype::u32>(), voff = J.vgpr<dtype::u32>();
  u = t % static_cast<uint32_t>(U);
  slot = t / static_cast<uint32_t>(U);
  // NeoX: x1 at dims u*V.., x2 at rot/2 + u*V..; GPT-J: the 2V dims from 2*u*V
  voff = slot * head_bytes + u * (C.neox ? xb : 2u * xb);
  if constexpr (S * U != 64 * C.waves) voff = select(slot < static_cast<uint32_t>(S), voff, 0x80000000u);

  auto trow = J.sgpr<dtype::u32>();
  trow = token * q_bytes;
  buffer Q = detail::row_buffer(J, q, trow, q_bytes);
  auto krow = J.sgpr<dtype::u32>();
  if constexpr (C.heads_k > 0) krow = token * k_bytes;

  // out of place: dims rot_dim .. head_dim-1 are copied (Vc elements per lane, Uc lanes per
  // head), their loads issued first: they need no position, so they fill its latency
  constexpr int RC = C.head_dim - C.rot_dim;
  constexpr int Vc = RC % 8 == 0 ? 8 : RC % 4 == 0 ? 4 : 2;
  constexpr int Uc = RC > 0 ? RC / Vc : 1;
  static_assert(Uc <= 64 * C.waves, "hipasm rotary: the unrotated dims need more lanes than the workgroup has");
  constexpr int Sc = 64 * C.waves / Uc;
  constexpr int SQc = (C.heads_q + Sc - 1) / Sc, SKc = (C.heads_k + Sc - 1) / Sc;
  auto y = J.vgpr<dtype::u32>(RC > 0 ? (Vc / 2) * (SQc + SKc) : 1);
  auto cof = J.vgpr<dtype::u32>();
  auto out_of_place = q_out.lo() != q.lo() || q_out.hi() != q.hi();
  if constexpr (RC > 0) {
    auto cslot = J.vgpr<dtype::u32>();
    cslot = t / static_cast<uint32_t>(Uc);
    cof = cslot * head_bytes + (t % static_cast<uint32_t>(Uc)) * (2u * Vc) + static_cast<uint32_t>(C.rot_dim) * 2u;
    if constexpr (Sc * Uc != 64 * C.waves) cof = select(cslot < static_cast<uint32_t>(Sc), cof, 0x80000000u);
    J.If(out_of_place, [&] {
      for (int s = 0; s < SQc; ++s) Q.load(y.slice((Vc / 2) * s, Vc / 2), cof + static_cast<int>(s * Sc * head_bytes));
      if constexpr (SKc > 0) {
        buffer KI = detail::row_buffer(J, k, krow, k_bytes);
        for (int s = 0; s < SKc; ++s)
          KI.load(y.slice((Vc / 2) * (SQc + s), Vc / 2), cof + static_cast<int>(s * Sc * head_bytes));
      }
    });
  }

  // cos and sin of this lane's V frequencies u*V .. u*V+V-1, loaded before q and k: issued
  // after them, the cache row (which waits for the position) queued behind every load the
  // other waves issued meanwhile, and each wave waited for it long after its own q and k had
  // arrived (4096 tokens: Llama-3 8B 71.6 -> 81.6% of the model's HBM bandwidth, GPT-J 84.6 ->
  // 88.1%; in place, 1-32 tokens pay the position's latency first, +0.1-0.3 us)
  J.s_waitcnt(lgkmcnt(0));
  auto prow = J.sgpr<dtype::u32>();
  // int64 position -> row, clamped to cache_rows (out of range: the whole row reads zeros)
  prow = select(pos[1] == 0u, pos[0], 0xffffffffu);
  prow = min(prow, cache_rows);
  auto cache_bytes = J.sgpr<dtype::u32>();
  cache_bytes = cache_rows * cache_row;
  buffer CS = make_buffer(J, cos_sin, cache_bytes);
  auto coff = J.vgpr<dtype::u32>();
  coff = u * (static_cast<uint32_t>(V) * ce) + prow * cache_row;
  auto cs = J.vgpr<dtype::u32>(2 * CW);
  for (int i = 0; i < CW; i += 4) {
    const int n = CW - i < 4 ? CW - i : 4;
    CS.load(cs.slice(i, n), coff + 4 * i);
    CS.load(cs.slice(CW + i, n), coff + static_cast<int>(cache_row / 2) + 4 * i);
  }
  auto x = J.vgpr<dtype::u32>(2 * XW * NS);  // step s: x1 in dwords [2 XW s, +XW), x2 after
  constexpr uint32_t x2_off = C.neox ? static_cast<uint32_t>(C.rot_dim) : xb;  // bytes from x1 to x2
  for (int s = 0; s < SQ; ++s) {
    Q.load(x.slice(2 * XW * s, XW), voff + static_cast<int>(s * S * head_bytes));
    Q.load(x.slice(2 * XW * s + XW, XW), voff + static_cast<int>(s * S * head_bytes + x2_off));
  }
  if constexpr (SK > 0) {
    buffer K = detail::row_buffer(J, k, krow, k_bytes);
    for (int s = 0; s < SK; ++s) {
      K.load(x.slice(2 * XW * (SQ + s), XW), voff + static_cast<int>(s * S * head_bytes));
      K.load(x.slice(2 * XW * (SQ + s) + XW, XW), voff + static_cast<int>(s * S * head_bytes + x2_off));
    }
  }

  J.s_waitcnt(vmcnt(0));
  // f32 caches are used in place (the loaded registers viewed as f32)
  auto c = C.cache_f32 ? cs.slice(0, V).template as<dtype::f32>() : J.vgpr<dtype::f32>(V);
  auto sn = C.cache_f32 ? cs.slice(CW, V).template as<dtype::f32>() : J.vgpr<dtype::f32>(V);
  if constexpr (!C.cache_f32)
    for (int j = 0; j < V; ++j) {
      c[j] = to_f32(cs[j / 2].template as<dtype::bf16x2>(), j % 2);
      sn[j] = to_f32(cs[CW + j / 2].template as<dtype::bf16x2>(), j % 2);
    }

  // rotate: element e of a step's 2V values is dword e/2, half e%2 of x1..x2 (contiguous)
  auto f = J.vgpr<dtype::f32>(2 * V);
  for (int s = 0; s < NS; ++s) {
    auto xs = x.slice(2 * XW * s, 2 * XW);
    for (int e = 0; e < 2 * V; ++e) f[e] = to_f32(xs[e / 2].template as<dtype::bf16x2>(), e % 2);
    auto o = J.vgpr<dtype::f32>(2 * V);
    for (int j = 0; j < V; ++j) {
      // NeoX: x1 = element j, x2 = element V + j; GPT-J: x1 = 2j, x2 = 2j + 1
      const int i1 = C.neox ? j : 2 * j, i2 = C.neox ? V + j : 2 * j + 1;
      o[i1] = f[i1] * c[j] - f[i2] * sn[j];
      o[i2] = f[i2] * c[j] + f[i1] * sn[j];
    }
    for (int d = 0; d < 2 * XW; ++d) xs[d] = cvt_bf16x2(o[2 * d], o[2 * d + 1]).template as<dtype::u32>();
  }
  buffer QO = detail::row_buffer(J, q_out, trow, q_bytes);
  for (int s = 0; s < SQ; ++s) {
    QO.store(x.slice(2 * XW * s, XW), voff + static_cast<int>(s * S * head_bytes));
    QO.store(x.slice(2 * XW * s + XW, XW), voff + static_cast<int>(s * S * head_bytes + x2_off));
  }
  if constexpr (SK > 0) {
    buffer KO = detail::row_buffer(J, k_out, krow, k_bytes);
    for (int s = 0; s < SK; ++s) {
      KO.store(x.slice(2 * XW * (SQ + s), XW), voff + static_cast<int>(s * S * head_bytes));
      KO.store(x.slice(2 * XW * (SQ + s) + XW, XW), voff + static_cast<int>(s * S * head_bytes + x2_off));
    }
  }

  // out of place: the unrotated dims' stores (their loads went out with the rotated ones)
  if constexpr (C.rot_dim < C.head_dim) {
    J.If(out_of_place, [&] {
      for (int s = 0; s < SQc; ++s) QO.store(y.slice((Vc / 2) * s, Vc / 2), cof + static_cast<int>(s * Sc * head_bytes));
      if constexpr (SKc > 0) {
        buffer KO = detail::row_buffer(J, k_out, krow, k_bytes);
        for (int s = 0; s < SKc; ++s)
          KO.store(y.slice((Vc / 2) * (SQc + s), Vc / 2), cof + static_cast<int>(s * Sc * head_bytes));
      }
    });
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr rotary_config).
#define HIPASM_ROTARY_KERNEL(NAME, CFG)                                                                   \
  extern "C" __attribute__((global)) void NAME(uint16_t* q_out, uint16_t* k_out, const uint16_t* q,       \
                                               const uint16_t* k, const int64_t* positions,               \
                                               const ::hipasm::kernels::rotary_cache_elem<CFG>* cos_sin,  \
                                               unsigned cache_rows) {                                     \
    HIPASM_KERNEL_BODY((hipasm::kernels::rotary<CFG>), q_out, k_out, q, k, positions, cos_sin, cache_rows); \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/sim/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/sim/launcher.hpp>
namespace hipasm::kernels {
struct rotary_args {
  uint64_t q_out = 0, k_out = 0, q = 0, k = 0;  // device addresses; out == in: in place
  uint64_t positions = 0, cos_sin = 0;
  uint32_t cache_rows = 0;  // rows of cos_sin (the largest position + 1)
  uint32_t tokens = 0;
};
template <rotary_config C>
rt::launch_report launch_rotary(rt::device& dev, rt::module& m, std::string_view kernel, const rotary_args& a,
                                const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm rotary launch: tokens must be >= 1");
  if (a.cache_rows == 0) throw std::invalid_argument("hipasm rotary launch: cache_rows must be >= 1");
  if (!a.q_out || !a.q || !a.positions || !a.cos_sin || (C.heads_k > 0 && (!a.k || !a.k_out)))
    throw std::invalid_argument("hipasm rotary launch: a tensor the configuration reads or writes is null");
  const uint64_t token_bytes = uint64_t(C.head_dim) * 2u * uint64_t(C.heads_q > C.heads_k ? C.heads_q : C.heads_k);
  if (uint64_t(a.tokens) * token_bytes >= (uint64_t{1} << 32) ||
      uint64_t(a.cache_rows) * uint64_t(C.rot_dim) * (C.cache_f32 ? 4u : 2u) >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm rotary launch: q, k and the cache must each be below 4 GiB (32-bit offsets), got " +
                                std::to_string(a.tokens) + " tokens and " + std::to_string(a.cache_rows) + " cache rows");
  rt::kernel_args args;
  args.add(a.q_out).add(a.k_out).add(a.q).add(a.k).add(a.positions).add(a.cos_sin).add(a.cache_rows);
  return dev.launch(m, kernel, {a.tokens, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
