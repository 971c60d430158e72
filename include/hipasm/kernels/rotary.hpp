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
// A workgroup rotates tokens_per_group consecutive tokens (a run-time argument; the launch picks
// 1 while the grid fits the GPU, more for many tokens), one at a time, the next token's loads
// issued before this one's wait (two tokens in flight a wave). A lane rotates V pairs of one
// head (V = 8, 4 or 2, the largest that divides rot_dim/2: 16-, 8- or 4-byte loads): U = rot_dim
// / (2V) lanes per head, 64*waves/U heads per step, the lane's V cos and V sin loaded once for
// all its heads, before q (below), then all steps of q then k before any math (the token's bytes
// in flight at once). q, k and the outputs are one buffer resource each, the token's row offset
// in soffset: lanes of a partial last step past the last head get an offset past the tensor
// (read zeros, store nothing: no branch). The position is one scalar load (the next token's
// prefetched); a position outside [0, cache_rows) reads cos = sin = 0 (the cache buffer is
// cache_rows records of a row each: the hardware checks the row index), so its rotated dims
// come out 0 (no fault). In place is out == in (a run-time compare: the copy of the unrotated
// dims goes out of range, no traffic).
//
// Device side:  constexpr hipasm::kernels::rotary_config cfg{.head_dim = 128, .rot_dim = 128,
//                   .heads_q = 32, .heads_k = 8, .neox = true, .cache_f32 = true};
//               HIPASM_ROTARY_KERNEL(rope_128, cfg)
// Host side:    hipasm::kernels::launch_rotary<cfg>(dev, module, "rope_128",
//                   {.q_out, .k_out, .q, .k, .positions, .cos_sin, .cache_rows, .tokens});
// The arguments are preloaded into SGPRs when the code object is built with KERNARG_PRELOAD
// (hipasm_add_code_object), else loaded.
#pragma once
#include <array>
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
  int waves = 4;          // waves per workgroup, 1..16
};
// Pairs per lane (elements per 2-, 4- or 8-element access), lanes per head, heads per step.
constexpr int rotary_vec(int pairs_half) { return pairs_half % 8 == 0 ? 8 : pairs_half % 4 == 0 ? 4 : 2; }
constexpr int rotary_lane_pairs(const rotary_config& c) { return rotary_vec(c.rot_dim / 2); }
constexpr int rotary_lanes_per_head(const rotary_config& c) { return c.rot_dim / (2 * rotary_lane_pairs(c)); }
constexpr int rotary_heads_per_step(const rotary_config& c) { return 64 * c.waves / rotary_lanes_per_head(c); }
constexpr int rotary_steps(const rotary_config& c, int heads) {
  return (heads + rotary_heads_per_step(c) - 1) / rotary_heads_per_step(c);
}
// One token a workgroup and more tokens than this: the first token's cos/sin row goes out
// before its q and k (see rotary()). The MI300X's CUs: up to it, each workgroup has a CU to itself.
inline constexpr uint32_t rotary_cs_first_tokens = 304;
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
  static_assert((rotary_steps(C, C.heads_q) + rotary_steps(C, C.heads_k)) * rotary_lane_pairs(C) <= 64,
                "hipasm rotary: a token's heads do not fit in registers (two tokens in flight: more than 2 x 64 "
                "VGPRs of q and k per lane): use more waves");
}
}  // namespace detail

template <rotary_config C>
constexpr void rotary(builder J, arg<uint16_t*> q_out, arg<uint16_t*> k_out, arg<const uint16_t*> q,
                      arg<const uint16_t*> k, arg<const int64_t*> positions,
                      arg<const rotary_cache_elem<C>*> cos_sin, arg<unsigned> tokens_per_group,
                      arg<unsigned> tokens, arg<unsigned> cache_rows) {
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
  constexpr uint32_t idle = 0x80000000u;                        // a lane offset past every tensor (< 2 GiB)
  using dtype::u32;

  // this workgroup's tokens [t, end); the first one's position: one scalar load
  auto t = J.sgpr<u32>(), end = J.sgpr<u32>();
  t = J.workgroup_id_x() * tokens_per_group;
  end = min(t + tokens_per_group, tokens);
  auto pptr = J.sgpr<dtype::u64>();
  pptr = positions + (t << 3u);
  auto pos = J.sgpr<u32>(2);
  J.s_load_dwordx2(pos, pptr, 0);

  // lane -> (unit u of a head, head slot); lanes past the last whole slot take no head
  auto tid = J.thread_id_x();
  auto u = J.vgpr<u32>(), slot = J.vgpr<u32>(), voff = J.vgpr<u32>();
  u = tid % static_cast<uint32_t>(U);
  slot = tid / static_cast<uint32_t>(U);
  // NeoX: x1 at dims u*V.., x2 at rot/2 + u*V..; GPT-J: the 2V dims from 2*u*V
  voff = slot * head_bytes + u * (C.neox ? xb : 2u * xb);
  if constexpr (S * U != 64 * C.waves) voff = select(slot < static_cast<uint32_t>(S), voff, idle);

  // q, k (and the outputs) are one V# each over all tokens, a token's row at its byte offset in
  // soffset (the range check covers it): the lanes of a last step past the last head get an
  // offset past the tensor (no token's head is touched twice)
  auto tokens_bytes = [&](uint32_t row) {
    auto b = J.sgpr<u32>();
    b = tokens * row;
    return b;
  };
  const auto qn = tokens_bytes(q_bytes);
  buffer Q = make_buffer(J, q, qn), QO = make_buffer(J, q_out, qn);
  const auto kn = tokens_bytes(C.heads_k > 0 ? k_bytes : 0u);
  const buffer K = C.heads_k > 0 ? make_buffer(J, k, kn) : Q, KO = C.heads_k > 0 ? make_buffer(J, k_out, kn) : Q;
  // step s of `heads` heads, Sx heads a step: the lane's offset in a token's row (a register
  // for a partial last step: its lanes past the last head idle)
  auto last_step_off = [&](const gpr<u32>& base, const gpr<u32>& sl, int steps, int Sx, int heads) {
    auto o = J.vgpr<u32>();
    const int left = heads - (steps - 1) * Sx;
    if (steps > 0 && left < Sx)
      o = select(sl < static_cast<uint32_t>(left), base + static_cast<uint32_t>((steps - 1) * Sx) * head_bytes, idle);
    return o;
  };
  auto off_at = [&](const gpr<u32>& base, const gpr<u32>& last, int s, int steps, int Sx, int heads,
                    const gpr<u32>& row, uint32_t extra) -> mem_offset {
    if (s == steps - 1 && heads - s * Sx < Sx) return at(last) + row + static_cast<int>(extra);
    return at(base) + row + static_cast<int>(static_cast<uint32_t>(s * Sx) * head_bytes + extra);
  };
  auto vq_last = last_step_off(voff, slot, SQ, S, C.heads_q), vk_last = last_step_off(voff, slot, SK, S, C.heads_k);

  // out of place: dims rot_dim .. head_dim-1 are copied (Vc elements per lane, Uc lanes per
  // head), their loads issued before the cos/sin and q/k loads: they need no position
  constexpr int RC = C.head_dim - C.rot_dim;
  constexpr int Vc = RC % 8 == 0 ? 8 : RC % 4 == 0 ? 4 : 2;
  constexpr int Uc = RC > 0 ? RC / Vc : 1;
  static_assert(Uc <= 64 * C.waves, "hipasm rotary: the unrotated dims need more lanes than the workgroup has");
  constexpr int Sc = 64 * C.waves / Uc;
  constexpr int SQc = (C.heads_q + Sc - 1) / Sc, SKc = (C.heads_k + Sc - 1) / Sc;
  constexpr int YW = RC > 0 ? (Vc / 2) * (SQc + SKc) : 1;  // dwords of a token's copied dims
  constexpr int YL = RC > 0 ? SQc + SKc : 0;               // their loads
  auto cof = J.vgpr<u32>(), cslot = J.vgpr<u32>();
  auto out_of_place = q_out.lo() != q.lo() || q_out.hi() != q.hi();
  if constexpr (RC > 0) {
    cslot = tid / static_cast<uint32_t>(Uc);
    cof = cslot * head_bytes + (tid % static_cast<uint32_t>(Uc)) * (2u * Vc) + static_cast<uint32_t>(C.rot_dim) * 2u;
    if constexpr (Sc * Uc != 64 * C.waves) cof = select(cslot < static_cast<uint32_t>(Sc), cof, idle);
    // in place the copy is skipped by its range checks (no traffic), with no branch: every token
    // issues the same loads, so the waits below are constants
    cof = select(out_of_place, cof, idle);
  }
  auto cq_last = last_step_off(cof, cslot, RC > 0 ? SQc : 0, Sc, C.heads_q);
  auto ck_last = last_step_off(cof, cslot, RC > 0 ? SKc : 0, Sc, C.heads_k);

  // two tokens in flight per wave: buffer b's registers hold one token while the other's load
  // (buffer 1 is loaded only when there is a next token, and read only then: the loop breaks
  // between, on `t >= end` with t a copy of the `tn < end` that loaded it, which the
  // undefined-reads check does not relate: allow_undefined)
  std::array<gpr<u32>, 2> x{J.vgpr<u32>(2 * XW * NS), J.vgpr<u32>(2 * XW * NS).allow_undefined()};  // step s: x1 [2 XW s, +XW), x2 after
  std::array<gpr<u32>, 2> cs{J.vgpr<u32>(2 * CW), J.vgpr<u32>(2 * CW).allow_undefined()};
  std::array<gpr<u32>, 2> y{J.vgpr<u32>(YW), J.vgpr<u32>(YW).allow_undefined()};
  std::array<gpr<u32>, 2> tq{J.sgpr<u32>(), J.sgpr<u32>().allow_undefined()},
      tk{J.sgpr<u32>(), J.sgpr<u32>().allow_undefined()};
  constexpr uint32_t x2_off = C.neox ? static_cast<uint32_t>(C.rot_dim) : xb;  // bytes from x1 to x2
  constexpr int XL = 2 * NS + 2 * ((CW + 3) / 4);  // loads of a token's q, k and cos/sin

  // the cos/sin cache as cache_rows records of cache_row bytes (a structured V#): a row is read
  // by its index, which the hardware multiplies by the stride and checks against the rows (an
  // index past them reads zeros: no clamp, no row offset to compute)
  static_assert(cache_row < 16384, "hipasm rotary: a cos/sin cache row must be below 16 KiB (the V#'s stride field)");
  buffer CS = make_buffer(J, cos_sin, cache_rows, {.stride = cache_row});
  auto cs_lane = J.vgpr<u32>();  // this lane's bytes in a row
  cs_lane = u * (static_cast<uint32_t>(V) * ce);
  auto copy_off = [&](int s, int b) {
    return s < SQc ? off_at(cof, cq_last, s, SQc, Sc, C.heads_q, tq[b], 0)
                   : off_at(cof, ck_last, s - SQc, SKc, Sc, C.heads_k, tk[b], 0);
  };
  // x1 (h = 0) or x2 (h = 1) of step s (q steps, then k steps), i = 2 s + h: dwords [XW i, +XW)
  auto x_off = [&](int i, int b) {
    const int s = i / 2;
    const uint32_t h = static_cast<uint32_t>(i % 2) * x2_off;
    return s < SQ ? off_at(voff, vq_last, s, SQ, S, C.heads_q, tq[b], h)
                  : off_at(voff, vk_last, s - SQ, SK, S, C.heads_k, tk[b], h);
  };
  // token `tok`'s row offsets into buffer b, then its unrotated dims' loads (out of place)
  auto load_copy = [&](const gpr<u32>& tok, int b) {
    tq[b] = tok * q_bytes;
    if constexpr (C.heads_k > 0) tk[b] = tok * k_bytes;
    for (int s = 0; s < YL; ++s) (s < SQc ? Q : K).load(y[b].slice((Vc / 2) * s, Vc / 2), copy_off(s, b));
  };
  // the cos/sin row of the position in `pos` (its scalar load waited for) and the token's q and k
  // into buffer b
  auto load_x = [&](int b) {
    for (int i = 0; i < 2 * NS; ++i) (i < 2 * SQ ? Q : K).load(x[b].slice(XW * i, XW), x_off(i, b));
  };
  auto load_cs = [&](int b) {
    // int64 position -> the row's index (>= 2^32: ~0, past every row: the whole row reads zeros)
    auto prow = J.vgpr<u32>();
    prow = select(pos[1] == 0u, pos[0], 0xffffffffu);
    for (int i = 0; i < CW; i += 4) {
      const int n = CW - i < 4 ? CW - i : 4;
      CS.load_index(cs[b].slice(i, n), prow, cs_lane + 4 * i);
      CS.load_index(cs[b].slice(CW + i, n), prow, cs_lane + static_cast<int>(cache_row / 2) + 4 * i);
    }
  };
  // rotate buffer b's token (its loads waited for) and store it
  auto rotate_store = [&](int b) {
    // f32 caches are used in place (the loaded registers viewed as f32)
    auto c = C.cache_f32 ? cs[b].slice(0, V).template as<dtype::f32>() : J.vgpr<dtype::f32>(V);
    auto sn = C.cache_f32 ? cs[b].slice(CW, V).template as<dtype::f32>() : J.vgpr<dtype::f32>(V);
    if constexpr (!C.cache_f32)
      for (int j = 0; j < V; ++j) {
        c[j] = to_f32(cs[b][j / 2].template as<dtype::bf16x2>(), j % 2);
        sn[j] = to_f32(cs[b][CW + j / 2].template as<dtype::bf16x2>(), j % 2);
      }
    // element e of a step's 2V values is dword e/2, half e%2 of x1..x2 (contiguous)
    auto f = J.vgpr<dtype::f32>(2 * V);
    for (int s = 0; s < NS; ++s) {
      auto xs = x[b].slice(2 * XW * s, 2 * XW);
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
    for (int i = 0; i < 2 * NS; ++i) (i < 2 * SQ ? QO : KO).store(x[b].slice(XW * i, XW), x_off(i, b));
    // the unrotated dims' stores (in place: dropped)
    for (int s = 0; s < YL; ++s) (s < SQc ? QO : KO).store(y[b].slice((Vc / 2) * s, Vc / 2), copy_off(s, b));
  };
  // the position of token min(tok, tokens - 1) into `pos` (a clamped prefetch: always in bounds)
  auto load_pos = [&](const gpr<u32>& tok) {
    auto last = J.sgpr<u32>();
    last = tokens - 1u;
    pptr = positions + (min(tok, last) << 3u);
    J.s_load_dwordx2(pos, pptr, 0);
  };

  // The first token's loads; then, per token, the next one's loads go out (its position came
  // with the previous token's, mostly from the same scalar-cache line) before this one's wait,
  // so a wave has two tokens' bytes in flight and its position/cos-sin chain hides under the
  // other token's transfer. (With one token per workgroup, a cos/sin row loaded after q and k
  // queues behind the other waves' loads.)
  // The first token's q and k go out under its position's latency, its cos/sin row when the
  // position is there; except with one token a workgroup and several workgroups a CU, where that
  // row would queue behind every load the CU's other waves issued meanwhile, and out of place
  // with copied dims (their loads fill the latency already).
  load_copy(t, 0);
  if constexpr (RC == 0)
    J.If(tokens <= rotary_cs_first_tokens || tokens_per_group > 1u, [&] {
      load_x(0);
      J.s_waitcnt(lgkmcnt(0));
      load_cs(0);
    }, [&] {
      J.s_waitcnt(lgkmcnt(0));
      load_cs(0);
      load_x(0);
    });
  else {
    J.s_waitcnt(lgkmcnt(0));
    load_cs(0);
    load_x(0);
  }
  auto tn = J.sgpr<u32>();
  tn = t + 1u;
  load_pos(tn);
  auto half = [&](int b) {
    tn = t + 1u;
    J.If(
        tn < end,
        [&] {
          load_copy(tn, 1 - b);
          J.s_waitcnt(lgkmcnt(0));
          load_cs(1 - b);
          load_x(1 - b);
          auto after = J.sgpr<u32>();
          after = tn + 1u;
          load_pos(after);
          // vector memory completes in order: leave the next token's loads in flight
          J.s_waitcnt(vmcnt(static_cast<uint16_t>(XL + YL)));
        },
        [&] { J.s_waitcnt(vmcnt(0)); });
    rotate_store(b);
    t = tn + 0u;
  };
  J.While([&] { return t < end; }, [&] {
    half(0);
    J.If(t >= end, [&] { J.Break(); });
    half(1);
  });
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr rotary_config).
#define HIPASM_ROTARY_KERNEL(NAME, CFG)                                                                       \
  extern "C" __attribute__((global)) void NAME(uint16_t* q_out, uint16_t* k_out, const uint16_t* q,           \
                                               const uint16_t* k, const int64_t* positions,                   \
                                               const ::hipasm::kernels::rotary_cache_elem<CFG>* cos_sin,      \
                                               unsigned tokens_per_group, unsigned tokens, unsigned cache_rows) { \
    HIPASM_KERNEL_BODY((hipasm::kernels::detail::preloaded<hipasm::kernels::rotary<CFG>>), q_out, k_out, q, k,  \
                       positions, cos_sin, tokens_per_group, tokens, cache_rows);                             \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct rotary_args {
  uint64_t q_out = 0, k_out = 0, q = 0, k = 0;  // device addresses; out == in: in place
  uint64_t positions = 0, cos_sin = 0;
  uint32_t cache_rows = 0;  // rows of cos_sin (the largest position + 1)
  uint32_t tokens = 0;
  uint32_t tokens_per_group = 0;  // tokens a workgroup rotates; 0: rotary_tokens_per_group(tokens)
};
// Tokens per workgroup for a launch of `tokens`: one while the grid fits the GPU in about one
// round (latency: the first token's chain is all there is), else enough that it does, each
// wave then keeping two tokens in flight.
constexpr uint32_t rotary_tokens_per_group(uint32_t tokens) {
  constexpr uint32_t one_round = 304u * 8u;  // MI300X CUs x the workgroups a CU holds at once
  return tokens <= one_round ? 1u : (tokens + one_round - 1u) / one_round;
}
template <rotary_config C>
rt::launch_report launch_rotary(rt::device& dev, rt::module& m, std::string_view kernel, const rotary_args& a,
                                const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm rotary launch: tokens must be >= 1");
  if (a.cache_rows == 0) throw std::invalid_argument("hipasm rotary launch: cache_rows must be >= 1");
  if (!a.q_out || !a.q || !a.positions || !a.cos_sin || (C.heads_k > 0 && (!a.k || !a.k_out)))
    throw std::invalid_argument("hipasm rotary launch: a tensor the configuration reads or writes is null");
  // one V# per tensor with lane offsets up to 2^31 + its size: each below 2 GiB
  const uint64_t token_bytes = uint64_t(C.head_dim) * 2u * uint64_t(C.heads_q > C.heads_k ? C.heads_q : C.heads_k);
  if (uint64_t(a.tokens) * token_bytes > (uint64_t{1} << 31) ||
      uint64_t(a.cache_rows) * uint64_t(C.rot_dim) * (C.cache_f32 ? 4u : 2u) >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm rotary launch: q and k must each be at most 2 GiB and the cache below 4 GiB, got " +
                                std::to_string(a.tokens) + " tokens and " + std::to_string(a.cache_rows) + " cache rows");
  const uint32_t per = a.tokens_per_group ? a.tokens_per_group : rotary_tokens_per_group(a.tokens);
  rt::kernel_args args;
  args.add(a.q_out).add(a.k_out).add(a.q).add(a.k).add(a.positions).add(a.cos_sin).add(per).add(a.tokens).add(a.cache_rows);
  return dev.launch(m, kernel, {(a.tokens + per - 1) / per, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args,
                    opts);
}
}  // namespace hipasm::kernels
#endif
