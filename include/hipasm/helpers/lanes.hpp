// Lanes and waves: lane and wave ids, lane reads, wave / lane-group / workgroup reductions,
// transpose_per_lane.
//
//   auto lane = lane_id(J);                       // VGPR 0..63 (any workgroup shape)
//   auto w = wave_id(J);                          // SGPR: wave index in a 1-D workgroup
//   auto m = wave_reduce(J, reduce::max, x);      // SGPR: max over the active lanes
//   auto s = wave_allreduce(J, reduce::sum, x);   // VGPR: the sum in every lane
//   auto r = group_reduce(J, reduce::sum, x, 16); // VGPR: each row of 16 lanes gets its sum
//   auto c = xor_reduce(J, reduce::max, x, 0x30); // VGPR: max over lanes l, l^16, l^32, l^48
//   auto p = shuffle_xor(J, x, 4);                // VGPR: x of lane l ^ 4
//   shuffle_xor_into(J, kv[1], kv[0], 4);         // the same into a given register (no move)
//   auto q = shuffle_xor(J, y, 16, {.wait = false}); // ds_swizzle without its wait (batch them)
//   auto t = workgroup_reduce(J, reduce::sum, x, scratch, 4);  // SGPR, 4 waves, LDS scratch
//   auto both = wave_reduce(J, reduce::sum, pair); // a register array: one reduction per
//                                                   // element, their steps interleaved
//
// Cost (wave64, gfx942; a VALU op issues every 4 cycles, DPP rides on the op for free, a DPP
// source written by the previous VALU needs 2 wait states: s_nop 1, inserted by the hazard pass):
//  - wave_reduce: a prefix scan to lane 63 in 6 DPP ops (row_shr:1 or row_ror:1, row_shr:2, 4,
//    8, row_bcast:15, row_bcast:31), then v_readlane_b32 lane 63: 7 VALU. Each step reads the
//    previous one's result, and a DPP instruction waits 2 states after any VGPR it reads was
//    written (LLVM checks every VGPR use, not only the DPP source): 5 s_nop 1 for one value.
//    Reducing N values at once (a register array) interleaves their chains: s_nop 0 for
//    N = 2, none from N = 3. The other candidates cost more: a butterfly to every
//    lane needs ds_swizzle (LDS latency, ~64+ cycles) or ds_bpermute to cross 16/32 lanes;
//    pyhip's sequence is 6 DPP ops with s_nop 2 after each plus a ds_bpermute broadcast and an
//    lgkmcnt wait (and its bound_ctrl on max reads 0 from missing lanes: wrong for negative
//    inputs). v_permlane* does not exist on gfx942; gfx950's v_permlane16/32_swap would
//    take a butterfly to every lane in 10 VALU, more than the scan: the scan stays.
//  - group_reduce(width): butterfly, each lane ends with its group's value: quad_perm [1,0,3,2],
//    [2,3,0,1], row_half_mirror, row_mirror (after the earlier steps the mirror partner holds
//    the partner group's value), then ds_swizzle xor 16 for width 32; width 64 is wave_allreduce.
//    xor_reduce(lane_bits) is the same butterfly over any set of lane-index bits (ds_swizzle for
//    a bit DPP cannot reach, ds_bpermute for bit 5); shuffle_xor(v, mask) one exchange. Where
//    the target has the permlane swaps (gfx950), bits 4 and 5 take a copy, a swap and the op
//    (3 VALU, 2 wait states before the swap) instead of an LDS round trip (its latency).
//  - wave_allreduce: wave_reduce + v_mov_b32 from the SGPR.
//  - workgroup_reduce: wave_reduce, one ds_write_b32 per wave, s_barrier, every lane reads
//    all partials (ds_read_b128/b64/b32), combines them (v_max3/v_min3 where they pair up) and
//    v_readfirstlane_b32. Call it in wave-uniform control flow (every wave reaches the barrier);
//    before reusing `scratch` for another reduction, a barrier (or opts.barrier_before) keeps a
//    slow wave's reads of the previous one from being overwritten.
//
// EXEC: by default the reduction is over the ACTIVE lanes (inside a per-lane If, after per-lane
// Returns, a partial last wave): s_or_saveexec_b64 turns all lanes on, v_cndmask_b32 puts the
// identity (0, -inf, +inf, INT_MIN, ...) into the inactive ones, and EXEC is restored at the end
// (3 SALU + 1-2 VALU). reduce_opts{.all_lanes_active = true} skips that when the caller knows
// all 64 lanes are on (a full wave outside per-lane code).
#pragma once
#include "dpp.hpp"
#include "emit_ctx.hpp"

namespace hipasm {

enum class reduce { sum, max, min };

struct reduce_opts {
  bool all_lanes_active = false;  // skip the identity fill of inactive lanes (see above)
  bool barrier_before = false;    // workgroup_reduce: s_barrier before writing the scratch
  uint32_t block_x = 0, block_y = 0;  // workgroup_reduce: the workgroup's x / y sizes when it
                                      // has more than one dimension (see wave_id)
};

namespace detail {

constexpr O reduce_valu(reduce r, dtype t) {
  if (t == dtype::f32) return r == reduce::sum ? detail::O::v_add_f32 : r == reduce::max ? detail::O::v_max_f32 : detail::O::v_min_f32;
  bool s = t == dtype::i32;
  if (r == reduce::sum) return detail::O::v_add_u32;
  if (r == reduce::max) return s ? detail::O::v_max_i32 : detail::O::v_max_u32;
  return s ? detail::O::v_min_i32 : detail::O::v_min_u32;
}
constexpr O reduce_valu3(reduce r, dtype t) {  // a op b op c; sum of f32 has none
  if (t == dtype::f32) return r == reduce::max ? detail::O::v_max3_f32 : r == reduce::min ? detail::O::v_min3_f32 : detail::O::v_add_f32;
  bool s = t == dtype::i32;
  if (r == reduce::sum) return detail::O::v_add3_u32;
  if (r == reduce::max) return s ? detail::O::v_max3_i32 : detail::O::v_max3_u32;
  return s ? detail::O::v_min3_i32 : detail::O::v_min3_u32;
}
constexpr uint32_t reduce_identity(reduce r, dtype t) {
  if (r == reduce::sum) return 0;
  if (t == dtype::f32) return r == reduce::max ? 0xff800000u : 0x7f800000u;
  if (t == dtype::i32) return r == reduce::max ? 0x80000000u : 0x7fffffffu;
  return r == reduce::max ? 0u : 0xffffffffu;
}
constexpr operand imm32(uint32_t v) {
  // small negatives as inline constants
  int32_t s = static_cast<int32_t>(v);
  return imm_op(s < 0 && s >= -16 ? static_cast<uint64_t>(static_cast<int64_t>(s)) : v);
}
constexpr operand elem(const reg_ref& r, uint32_t i) {
  operand o = reg_op(r);
  o.offset = static_cast<uint16_t>(r.off + i);
  o.dwords = 1;
  return o;
}
constexpr modifiers with_dpp(dpp_ctrl c) { return c; }
// The identity of r on t as a VALU source: an inline constant, else a VGPR holding it (VOP3
// forms such as v_cndmask_b32 with an SGPR mask take no literal).
constexpr operand identity_operand(hctx& c, reduce r, dtype t) {
  const operand ident = imm32(reduce_identity(r, t));
  if (lower::inline_const(ident, t == dtype::f32)) return ident;
  reg_ref iv = c.v();
  c.e(detail::O::v_mov_b32, {reg_op(iv), ident});
  return reg_op(iv);
}

// The lanes' inputs with inactive lanes set to the identity, under EXEC = all lanes. Returns
// the saved EXEC (or an empty ref when the caller vouched that all lanes are active, in which
// case the inputs are used as they are).
constexpr reg_ref enter_all_lanes(hctx& c, reduce r, dtype t, const reg_ref& in, uint32_t n, reg_ref& x,
                                  bool all_active) {
  if (all_active) {
    x = in;
    return {};
  }
  operand EXEC = special_op(special_reg::exec, 2);
  reg_ref save = c.s(2);
  c.e(detail::O::s_or_saveexec_b64, {reg_op(save), imm_op(static_cast<uint64_t>(-1))});
  x = c.v(static_cast<uint16_t>(n));
  const operand ident = identity_operand(c, r, t);
  for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_cndmask_b32, {elem(x, i), ident, elem(in, i), reg_op(save)});
  (void)EXEC;
  return save;
}
constexpr void leave_all_lanes(hctx& c, const reg_ref& save) {
  if (save.b) c.e(detail::O::s_mov_b64, {special_op(special_reg::exec, 2), reg_op(save)});
}

// Prefix scan of each element of x (n values) into r (Hillis-Steele within rows of 16, then
// across rows): lane 63 ends with the whole wave's value. Step 1 writes every lane: sum reads 0
// from a row's first lane (bound_ctrl), max/min read lane 15 of the same row (row_ror:1; a
// value counted twice changes neither). Later steps accumulate in place; a lane whose source is
// missing is not written (no bound_ctrl) and keeps its partial.
constexpr void scan_to_lane63(hctx& c, reduce rk, dtype t, const reg_ref& x, const reg_ref& r, uint32_t n) {
  const detail::O op = reduce_valu(rk, t);
  const dpp_ctrl first = rk == reduce::sum ? dpp::row_shr(1).bound_ctrl() : dpp::row_ror(1);
  for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(x, i), elem(x, i)}, with_dpp(first));
  const dpp_ctrl rest[5] = {dpp::row_shr(2), dpp::row_shr(4), dpp::row_shr(8), dpp::row_bcast15().row_mask(0xa),
                            dpp::row_bcast31().row_mask(0xc)};
  for (const dpp_ctrl& d : rest)
    for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(r, i), elem(r, i)}, with_dpp(d));
}

// lane l's address of lane l ^ mask, for ds_bpermute_b32 ((l ^ mask) * 4). Each step writes
// its own register: cse merges the chains of several shuffles in one block into one.
constexpr operand xor_lane_address(hctx& c, uint32_t mask) {
  reg_ref lo = c.v(), l = c.v(), x = c.v(), a = c.v();
  c.e(detail::O::v_mbcnt_lo_u32_b32, {reg_op(lo), imm_op(static_cast<uint64_t>(-1)), imm_op(0)});
  c.e(detail::O::v_mbcnt_hi_u32_b32, {reg_op(l), imm_op(static_cast<uint64_t>(-1)), reg_op(lo)});
  c.e(detail::O::v_xor_b32, {reg_op(x), imm_op(mask), reg_op(l)});
  c.e(detail::O::v_lshlrev_b32, {reg_op(a), imm_op(2), reg_op(x)});
  return reg_op(a);
}

// v_permlane16_swap_b32 (m = 16) or v_permlane32_swap_b32 (m = 32): a swap of a and b trades
// a's odd rows of m lanes with b's even ones, so with a = b = x on entry, lane l of a holds
// x[l ^ m] where l & m is set and lane l of b where it is clear (both operands are written).
constexpr O permlane_swap_op(uint32_t m) {
  return feature_op(m == 16 ? "v_permlane16_swap_b32" : "v_permlane32_swap_b32");
}

// Butterfly over the lane-index bits in `bits` (each lane ends with the value of the lanes that
// differ from it only in those bits). Bits 0 and 1: quad_perm on the ALU op; bit 2 once bits
// 0-1 are done: row_half_mirror (lane i^7 then holds what i^4 holds); bit 3 once 0-2 are done:
// row_mirror; bits 4 and 5 where the target has the permlane swaps: a copy, the swap of the
// partial and the copy, and the op on both (3 VALU, no LDS); other bits below 32: ds_swizzle in
// bitmask mode (xor); bit 5: ds_bpermute.
constexpr void butterfly_bits(hctx& c, reduce rk, dtype t, const reg_ref& x, const reg_ref& r, uint32_t n, uint32_t bits) {
  const detail::O op = reduce_valu(rk, t);
  const bool swaps = features().has_permlane_swap;
  uint32_t done = 0;
  bool first = true;
  // (the ds_bpermute address first: its VALU work overlaps the earlier steps' LDS latency)
  operand bperm_addr = (bits & 32) && !swaps ? xor_lane_address(c, 32) : operand{};
  for (uint32_t b = 0; b < 6; ++b) {
    const uint32_t m = 1u << b;
    if (!(bits & m)) continue;
    dpp_ctrl d{};
    bool dpp_step = true;
    if (m == 1) d = dpp::quad_perm(1, 0, 3, 2);
    else if (m == 2) d = dpp::quad_perm(2, 3, 0, 1);
    else if (m == 4 && (done & 3) == 3) d = dpp::row_half_mirror();
    else if (m == 8 && (done & 7) == 7) d = dpp::row_mirror();
    else dpp_step = false;
    if (swaps && m >= 16) {
      // (each phase over all n elements: the swap's 2 wait states after the copy that feeds it
      // are filled by the other elements' copies)
      reg_ref cp = c.v(static_cast<uint16_t>(n));
      if (first)
        for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_mov_b32, {elem(r, i), elem(x, i)});
      for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_mov_b32, {elem(cp, i), elem(r, i)});
      for (uint32_t i = 0; i < n; ++i) c.e(permlane_swap_op(m), {elem(r, i), elem(cp, i)});
      for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(r, i), elem(cp, i)});
    } else if (dpp_step) {
      for (uint32_t i = 0; i < n; ++i) {
        operand src = first ? elem(x, i) : elem(r, i);
        c.e(op, {elem(r, i), src, src}, with_dpp(d.bound_ctrl()));
      }
    } else {
      reg_ref sw = c.v(static_cast<uint16_t>(n));
      if (m < 32) {
        modifiers mm;
        mm.offset = static_cast<int32_t>(0x1fu | m << 10);  // bitmask mode: and 0x1f, xor m
        for (uint32_t i = 0; i < n; ++i) c.e(detail::O::ds_swizzle_b32, {elem(sw, i), first ? elem(x, i) : elem(r, i)}, mm);
      } else {
        for (uint32_t i = 0; i < n; ++i)
          c.e(detail::O::ds_bpermute_b32, {elem(sw, i), bperm_addr, first ? elem(x, i) : elem(r, i)});
      }
      c.e(detail::O::s_waitcnt, {lgkmcnt(0).to_operand()});
      for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(sw, i), first ? elem(x, i) : elem(r, i)});
    }
    done |= m;
    first = false;
  }
  if (first)
    for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_mov_b32, {elem(r, i), elem(x, i)});
}

template <dtype T>
constexpr bool check_reduce_input(builder& b, src_loc l, const gpr<T>& v) {
  HIPASM_DTYPE_ASSERT(T == dtype::f32 || T == dtype::i32 || T == dtype::u32, T, "reductions take f32, i32 or u32 registers");
  if (b.err.failed) return false;
  if (v.cls != reg_class::vgpr) {
    b.fail(l, "a lane reduction takes a VGPR (an SGPR is already the same in every lane)");
    return false;
  }
  return true;
}

}  // namespace detail

// ---- ids -------------------------------------------------------------------------------------
// This lane's index in its wave (0..63), for any workgroup shape: v_mbcnt_lo/hi of all ones.
constexpr gpr<dtype::u32> lane_id(builder J, std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  detail::reg_ref d = c.v();
  c.e(detail::O::v_mbcnt_lo_u32_b32, {detail::reg_op(d), detail::imm_op(static_cast<uint64_t>(-1)), detail::imm_op(0)});
  c.e(detail::O::v_mbcnt_hi_u32_b32, {detail::reg_op(d), detail::imm_op(static_cast<uint64_t>(-1)), detail::reg_op(d)});
  return c.result<dtype::u32>(d);
}
// How many active lanes (EXEC) are below this one: 0 in the first active lane, which
// v_readfirstlane_b32 reads (v_mbcnt_lo/hi of EXEC).
constexpr gpr<dtype::u32> lane_rank(builder J, std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  detail::reg_ref d = c.v();
  c.e(detail::O::v_mbcnt_lo_u32_b32, {detail::reg_op(d), detail::special_op(special_reg::exec_lo, 1), detail::imm_op(0)});
  c.e(detail::O::v_mbcnt_hi_u32_b32, {detail::reg_op(d), detail::special_op(special_reg::exec_hi, 1), detail::reg_op(d)});
  return c.result<dtype::u32>(d);
}
// The wave's index in its workgroup (SGPR): flattened thread id / 64 of the first active lane.
// block_x/block_y: the workgroup's x and y sizes when it has more than one dimension.
constexpr gpr<dtype::u32> wave_id(builder J, uint32_t block_x = 0, uint32_t block_y = 0,
                                  std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  gpr<dtype::u32> tx = J.thread_id_x(l);
  detail::reg_ref s = c.s();
  if (block_x == 0) {
    c.e(detail::O::v_readfirstlane_b32, {detail::reg_op(s), tx.to_operand()});
  } else {
    // flat = x + block_x * (y + block_y * z)
    gpr<dtype::u32> ty = J.thread_id_y(l);
    detail::reg_ref f = c.v();
    detail::lower L = c.L();
    if (block_y != 0) {
      gpr<dtype::u32> tz = J.thread_id_z(l);
      L.valu3(detail::O::v_mad_u32_u24, detail::reg_op(f), tz.to_operand(), detail::imm_op(block_y), ty.to_operand());
      L.valu3(detail::O::v_mad_u32_u24, detail::reg_op(f), detail::reg_op(f), detail::imm_op(block_x), tx.to_operand());
    } else {
      L.valu3(detail::O::v_mad_u32_u24, detail::reg_op(f), ty.to_operand(), detail::imm_op(block_x), tx.to_operand());
    }
    c.e(detail::O::v_readfirstlane_b32, {detail::reg_op(s), detail::reg_op(f)});
  }
  c.e(detail::O::s_lshr_b32, {detail::reg_op(s), detail::reg_op(s), detail::imm_op(6)});
  return c.result<dtype::u32>(s);
}

// ---- lane reads ------------------------------------------------------------------------------
// v in lane `lane` (an immediate 0..63 or an SGPR) as an SGPR (v_readlane_b32; EXEC ignored).
template <dtype T>
constexpr gpr<T> readlane(const gpr<T>& v, const val<dtype::u32>& lane, std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "readlane takes a 32-bit register");
  detail::hctx c(*v.b, to_src_loc(l));
  if (lane.x.is_reg(reg_class::vgpr)) {
    c.b.fail(c.l, "readlane: the lane must be an immediate or an SGPR (v_readlane_b32)");
    return gpr<T>(c.s());
  }
  if (lane.x.is_imm() && lane.x.op.value > 63) {
    c.b.fail(c.l, "readlane: lane ", static_cast<long long>(lane.x.op.value), " is not in 0..63");
    return gpr<T>(c.s());
  }
  detail::reg_ref s = c.s();
  c.e(detail::O::v_readlane_b32, {detail::reg_op(s), v.to_operand(), lane.x.op});
  return c.result<T>(s);
}
// v in the first active lane as an SGPR (v_readfirstlane_b32).
template <dtype T>
constexpr gpr<T> readfirstlane(const gpr<T>& v, std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "readfirstlane takes a 32-bit register");
  detail::hctx c(*v.b, to_src_loc(l));
  detail::reg_ref s = c.s();
  c.e(detail::O::v_readfirstlane_b32, {detail::reg_op(s), v.to_operand()});
  return c.result<T>(s);
}

// ---- reductions ------------------------------------------------------------------------------
// Each element of v (a VGPR or VGPR array) reduced over the wave's active lanes; the results
// in SGPRs (one per element), the same for every lane.
template <dtype T>
constexpr gpr<T> wave_reduce(builder J, reduce op, const gpr<T>& v, reduce_opts o = {},
                             std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref out = c.s(static_cast<uint16_t>(n));
  if (!detail::check_reduce_input(c.b, c.l, v)) return gpr<T>(out);
  detail::reg_ref x{}, r = c.v(static_cast<uint16_t>(n));
  detail::reg_ref save = detail::enter_all_lanes(c, op, T, v.ref(), n, x, o.all_lanes_active);
  detail::scan_to_lane63(c, op, T, x, r, n);
  for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_readlane_b32, {detail::elem(out, i), detail::elem(r, i), detail::imm_op(63)});
  detail::leave_all_lanes(c, save);
  return c.result<T>(out);
}

// The same, with the result in every lane of a VGPR (array).
template <dtype T>
constexpr gpr<T> wave_allreduce(builder J, reduce op, const gpr<T>& v, reduce_opts o = {},
                                std::source_location l = std::source_location::current()) {
  gpr<T> s = wave_reduce(J, op, v, o, l);
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref out = c.v(static_cast<uint16_t>(n));
  detail::reg_ref sr = s.ref();
  for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_mov_b32, {detail::elem(out, i), detail::elem(sr, i)});
  return c.result<T>(out);
}

// Each group of `width` consecutive lanes (2, 4, 8, 16, 32 or 64) reduced; every lane of a group
// gets its group's value (VGPR). Inactive lanes do not take part (see EXEC above).
template <dtype T>
constexpr gpr<T> group_reduce(builder J, reduce op, const gpr<T>& v, int width, reduce_opts o = {},
                              std::source_location l = std::source_location::current()) {
  if (width == 64) return wave_allreduce(J, op, v, o, l);
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref r = c.v(static_cast<uint16_t>(n));
  if (!detail::check_reduce_input(c.b, c.l, v)) return gpr<T>(r);
  if (width != 2 && width != 4 && width != 8 && width != 16 && width != 32) {
    c.b.fail(c.l, "group_reduce: width must be 2, 4, 8, 16, 32 or 64, got ", static_cast<long long>(width));
    return gpr<T>(r);
  }
  detail::reg_ref x{};
  detail::reg_ref save = detail::enter_all_lanes(c, op, T, v.ref(), n, x, o.all_lanes_active);
  detail::butterfly_bits(c, op, T, x, r, n, static_cast<uint32_t>(width - 1));
  detail::leave_all_lanes(c, save);
  return c.result<T>(r, !save.b);
}

// Each lane combined with the lanes whose index differs from its own only in the bits of
// `lane_bits` (0..63): 0x30 reduces lanes l, l^16, l^32, l^48 (a column of an MFMA 16x16
// output held by 4 lane groups), 0x0f is group_reduce(16). Result in every lane (VGPR).
template <dtype T>
constexpr gpr<T> xor_reduce(builder J, reduce op, const gpr<T>& v, uint32_t lane_bits, reduce_opts o = {},
                            std::source_location l = std::source_location::current()) {
  if (lane_bits == 63) return wave_allreduce(J, op, v, o, l);
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref r = c.v(static_cast<uint16_t>(n));
  if (!detail::check_reduce_input(c.b, c.l, v)) return gpr<T>(r);
  if (lane_bits > 63) {
    c.b.fail(c.l, "xor_reduce: lane_bits must be within 0..63, got ", static_cast<long long>(lane_bits));
    return gpr<T>(r);
  }
  detail::reg_ref x{};
  detail::reg_ref save = detail::enter_all_lanes(c, op, T, v.ref(), n, x, o.all_lanes_active);
  detail::butterfly_bits(c, op, T, x, r, n, lane_bits);
  detail::leave_all_lanes(c, save);
  return c.result<T>(r, !save.b);
}

// Lane l gets v from lane l ^ mask (1..63): quad_perm / row_half_mirror / row_mirror DPP for
// masks 1-3, 7, 15 (one v_mov_b32_dpp), a pair of bank-masked row_shl/row_shr DPP moves for 4
// and 8 (the lanes of banks 0,2 / 0,1 read from above, the others from below: 2 VALU, no LDS),
// for 16 and 32 where the target has the permlane swaps two copies, a swap and a row-masked
// DPP move joining the halves (4 VALU, no LDS; with all lanes on, see below),
// ds_swizzle for other masks below 32, ds_bpermute above (each followed by an lgkmcnt(0) wait
// unless opts.wait is false: then several exchanges can be issued before one wait, which the
// caller places; the pipeline rejects a read of the result before it). A lane whose partner is
// inactive reads 0 (inside a per-lane If, after per-lane Returns, in a partial last wave).
// The permlane swaps: what a swap does with an inactive lane (write nothing, or 0 with
// bound_ctrl, as DPP does) is not in the instruction's documentation (LLVM's
// llvm.amdgcn.permlane16/32.swap), so the swap never sees one: s_or_saveexec turns all lanes on,
// v_cndmask_b32 gives the lanes that were off 0, the swap and the join run on all lanes and one
// v_mov_b32 under the caller's EXEC writes the result (2 SALU + 5 VALU).
// shuffle_opts{.all_lanes_active = true} skips that when the caller knows all 64 lanes are on.
struct shuffle_opts {
  bool wait = true;  // s_waitcnt lgkmcnt(0) after a ds_swizzle / ds_bpermute
  bool lds = false;  // ds_swizzle / ds_bpermute even where DPP reaches: no VALU slot (the LDS
                     // unit carries it, at LDS latency), to balance a VALU-bound loop
  bool all_lanes_active = false;  // the permlane swaps' form: all 64 lanes are known on
};
namespace detail {
// v of lane l ^ mask into the VGPR element D. False (after the error) when the arguments are bad.
constexpr bool shuffle_xor_to(hctx& c, const operand& D, const operand& v, reg_class vcls, uint32_t mask,
                              const shuffle_opts& o) {
  if (mask == 0 || mask > 63) {
    c.b.fail(c.l, "shuffle_xor: mask must be 1..63, got ", static_cast<long long>(mask));
    return false;
  }
  if (vcls != reg_class::vgpr) {
    c.b.fail(c.l, "shuffle_xor takes a VGPR");
    return false;
  }
  if (!o.lds && (mask <= 3 || mask == 7 || mask == 8 || mask == 15)) {
    // (xor 8 in a 16-lane row is its rotation by 8)
    dpp_ctrl k = mask == 1 ? dpp::quad_perm(1, 0, 3, 2) : mask == 2 ? dpp::quad_perm(2, 3, 0, 1)
               : mask == 3 ? dpp::quad_perm(3, 2, 1, 0) : mask == 7 ? dpp::row_half_mirror()
               : mask == 8 ? dpp::row_ror(8) : dpp::row_mirror();
    c.e(O::v_mov_b32, {D, v}, with_dpp(k.bound_ctrl()));
  } else if (!o.lds && mask == 4) {
    // banks are 4-lane groups of a row: bit 2 of the lane is bank bit 0. The first move writes
    // every lane (a masked first write would merge into the register's undefined old value,
    // keeping it live from the kernel's start), the second the upper banks (it reads v again: D
    // must not be v, see shuffle_xor_into).
    c.e(O::v_mov_b32, {D, v}, with_dpp(dpp::row_shl(4).bound_ctrl()));
    c.e(O::v_mov_b32, {D, v}, with_dpp(dpp::row_shr(4).bank_mask(0xa).bound_ctrl()));
  } else if (!o.lds && (mask == 16 || mask == 32) && features().has_permlane_swap) {
    // D keeps the rows whose lane has the mask bit set, the copy's other rows join it: row_mask
    // 0x5 (rows 0, 2) for 16, 0x3 (rows 0, 1) for 32; quad_perm [0,1,2,3] is the identity.
    const dpp_ctrl join = dpp::quad_perm(0, 1, 2, 3).row_mask(mask == 16 ? 0x5 : 0x3);
    reg_ref t = c.v();
    if (o.all_lanes_active) {
      c.e(O::v_mov_b32, {D, v});
      c.e(O::v_mov_b32, {reg_op(t), v});
      c.e(permlane_swap_op(mask), {D, reg_op(t)});
      c.e(O::v_mov_b32, {D, reg_op(t)}, with_dpp(join));
    } else {
      // (a and t are this sequence's own: writing their inactive lanes disturbs nothing)
      reg_ref save = c.s(2), a = c.v();
      c.e(O::s_or_saveexec_b64, {reg_op(save), imm_op(static_cast<uint64_t>(-1))});
      c.e(O::v_cndmask_b32, {reg_op(a), imm_op(0), v, reg_op(save)});
      c.e(O::v_mov_b32, {reg_op(t), reg_op(a)});
      c.e(permlane_swap_op(mask), {reg_op(a), reg_op(t)});
      c.e(O::v_mov_b32, {reg_op(a), reg_op(t)}, with_dpp(join));
      c.e(O::s_mov_b64, {special_op(special_reg::exec, 2), reg_op(save)});
      c.e(O::v_mov_b32, {D, reg_op(a)});
    }
  } else if (mask < 32) {
    modifiers mm;
    mm.offset = static_cast<int32_t>(0x1fu | mask << 10);
    c.e(O::ds_swizzle_b32, {D, v}, mm);
    if (o.wait) c.e(O::s_waitcnt, {lgkmcnt(0).to_operand()});
  } else {
    operand a = xor_lane_address(c, mask);
    c.e(O::ds_bpermute_b32, {D, a, v});
    if (o.wait) c.e(O::s_waitcnt, {lgkmcnt(0).to_operand()});
  }
  return true;
}
}  // namespace detail

template <dtype T>
constexpr gpr<T> shuffle_xor(builder J, const gpr<T>& v, uint32_t mask, shuffle_opts o = {},
                             std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "shuffle_xor takes a 32-bit register");
  detail::hctx c(*J.self(), to_src_loc(l));
  detail::reg_ref d = c.v();
  if (!detail::shuffle_xor_to(c, detail::reg_op(d), v.to_operand(), v.cls, mask, o)) return gpr<T>(d);
  return c.result<T>(d);
}
// The same into a given VGPR element `dst` (a slot of an aligned pair or array: a key-value
// exchange writes its partner's key and value where they belong, with no move). `dst` may be
// `v` itself (an in-place exchange); for mask 4 (two DPP moves, the second reading v)
// that goes through a temporary and one v_mov_b32. Returns dst.
template <dtype T>
constexpr gpr<T> shuffle_xor_into(builder J, const gpr<T>& dst, const gpr<T>& v, uint32_t mask, shuffle_opts o = {},
                                  std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "shuffle_xor_into takes 32-bit registers");
  detail::hctx c(*J.self(), to_src_loc(l));
  if (dst.cls != reg_class::vgpr || dst.size() != 1) {
    c.b.fail(c.l, "shuffle_xor_into: the destination must be one VGPR element");
    return dst;
  }
  const bool aliased = dst.id == v.id && dst.off == v.off;
  if (aliased && mask == 4 && !o.lds) {
    detail::reg_ref t = c.v();
    if (detail::shuffle_xor_to(c, detail::reg_op(t), v.to_operand(), v.cls, mask, o))
      c.e(detail::O::v_mov_b32, {dst.to_operand(), detail::reg_op(t)});
  } else {
    detail::shuffle_xor_to(c, dst.to_operand(), v.to_operand(), v.cls, mask, o);
  }
  c.b.last_expr_ = {};
  return dst;
}

// Each element of v reduced over the workgroup's active lanes (`waves` waves of 64; a 2-D or
// 3-D workgroup gives its sizes in opts.block_x / block_y), through `scratch` (at least 4 * waves * v.size() bytes of
// LDS, 16-byte aligned for the ds_read_b128). Result in SGPRs. Every wave must call it (it
// has an s_barrier).
template <dtype T>
constexpr gpr<T> workgroup_reduce(builder J, reduce op, const gpr<T>& v, lds_ref scratch, int waves,
                                  reduce_opts o = {}, std::source_location l = std::source_location::current()) {
  gpr<T> part = wave_reduce(J, op, v, o, l);
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref out = c.s(static_cast<uint16_t>(n));
  if (c.failed()) return gpr<T>(out);
  if (waves < 1 || waves > 16) {
    c.b.fail(c.l, "workgroup_reduce: waves must be 1..16, got ", static_cast<long long>(waves));
    return gpr<T>(out);
  }
  if (scratch.bytes && scratch.bytes < 4u * static_cast<uint32_t>(waves) * n) {
    c.b.fail(c.l, "workgroup_reduce: scratch holds ", static_cast<long long>(scratch.bytes), " bytes, needs ",
             static_cast<long long>(4u * static_cast<uint32_t>(waves) * n));
    return gpr<T>(out);
  }
  using detail::reg_op;
  using detail::imm_op;
  using detail::elem;
  if (o.barrier_before) c.e(detail::O::s_barrier, {});
  // partial i of wave w at scratch + 4 * (i * waves + w); a scratch above 64 KiB (gfx950) puts
  // its high part into the address registers (split_lds_offset), the rest in offset:
  const uint32_t span = 4u * static_cast<uint32_t>(waves) * n - 4u;
  const detail::lds_offset_split at = detail::split_lds_offset(scratch.offset, span);
  gpr<dtype::u32> wid = wave_id(J, o.block_x, o.block_y, l);
  detail::reg_ref sa = c.s(), va = c.v(), vd = c.v(static_cast<uint16_t>(n));
  c.e(detail::O::s_lshl_b32, {reg_op(sa), wid.to_operand(), imm_op(2)});
  if (at.hi) c.e(detail::O::s_add_u32, {reg_op(sa), reg_op(sa), imm_op(static_cast<uint32_t>(at.hi))});
  c.e(detail::O::v_mov_b32, {reg_op(va), reg_op(sa)});
  detail::reg_ref pr = part.ref();
  for (uint32_t i = 0; i < n; ++i) {
    c.e(detail::O::v_mov_b32, {elem(vd, i), elem(pr, i)});
    modifiers m;
    m.offset = static_cast<int32_t>(at.lo + 4 * i * static_cast<uint32_t>(waves));
    c.e(detail::O::ds_write_b32, {reg_op(va), elem(vd, i)}, m);
  }
  c.e(detail::O::s_waitcnt, {lgkmcnt(0).to_operand()});
  c.e(detail::O::s_barrier, {});
  const detail::O op2 = detail::reduce_valu(op, T), op3 = detail::reduce_valu3(op, T);
  const bool three = !(op == reduce::sum && T == dtype::f32);
  detail::reg_ref base = c.v();
  c.e(detail::O::v_mov_b32, {reg_op(base), imm_op(static_cast<uint32_t>(at.hi))});
  const uint32_t W = static_cast<uint32_t>(waves);
  detail::reg_ref parts = c.v(static_cast<uint16_t>(W * n));
  for (uint32_t i = 0; i < n; ++i) {
    // (element i's partials start at a 16-byte boundary only when waves is a multiple of 4)
    uint32_t w = 0;
    while (w < W) {
      uint32_t addr = at.lo + 4 * (i * W + w);  // (at.hi is a multiple of 32 KiB: same alignment)
      uint32_t k = (W - w >= 4 && addr % 16 == 0) ? 4 : (W - w >= 2 && addr % 8 == 0) ? 2 : 1;
      operand d = reg_op(parts);
      d.offset = static_cast<uint16_t>(i * W + w);
      d.dwords = static_cast<uint16_t>(k);
      modifiers m;
      m.offset = static_cast<int32_t>(addr);
      c.e(k == 4 ? detail::O::ds_read_b128 : k == 2 ? detail::O::ds_read_b64 : detail::O::ds_read_b32, {d, reg_op(base)}, m);
      w += k;
    }
  }
  c.e(detail::O::s_waitcnt, {lgkmcnt(0).to_operand()});
  detail::reg_ref acc = c.v(static_cast<uint16_t>(n));
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t w0 = i * W;
    operand a = elem(parts, w0);
    if (W == 1) {
      c.e(detail::O::v_readfirstlane_b32, {elem(out, i), a});
      continue;
    }
    uint32_t w = 1;
    operand cur = a;
    while (w < W) {
      if (three && W - w >= 2) {
        c.e(op3, {elem(acc, i), cur, elem(parts, w0 + w), elem(parts, w0 + w + 1)});
        w += 2;
      } else {
        c.e(op2, {elem(acc, i), cur, elem(parts, w0 + w)});
        w += 1;
      }
      cur = elem(acc, i);
    }
    c.e(detail::O::v_readfirstlane_b32, {elem(out, i), elem(acc, i)});
  }
  return c.result<T>(out);
}

// ---- transpose_per_lane ----------------------------------------------------------------------
// Each lane holds a rows x cols row-major matrix of elem_bytes-byte elements (1, 2 or 4) packed
// in src's dwords; dst gets its transpose (cols x rows, row-major). 4-byte: moves; 2-byte: two
// v_perm_b32 per 2x2 block; 1-byte: eight v_perm_b32 per 4x4 block (two rounds of byte
// interleaves). src and dst must not overlap.
template <dtype T, dtype U>
constexpr void transpose_per_lane(builder J, int rows, int cols, int elem_bytes, const gpr<T>& src, const gpr<U>& dst,
                                  std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  using detail::elem;
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4) {
    c.b.fail(c.l, "transpose_per_lane: elem_bytes must be 1, 2 or 4");
    return;
  }
  const int per = 4 / elem_bytes;
  if (rows <= 0 || cols <= 0 || rows % per || cols % per) {
    c.b.fail(c.l, "transpose_per_lane: rows and cols must be positive multiples of ", static_cast<long long>(per));
    return;
  }
  const uint32_t need = static_cast<uint32_t>(rows * cols / per);
  if (src.dwords() < need || dst.dwords() < need || src.cls != reg_class::vgpr || dst.cls != reg_class::vgpr) {
    c.b.fail(c.l, "transpose_per_lane: src and dst must be VGPR arrays of at least ", static_cast<long long>(need), " dwords");
    return;
  }
  detail::reg_ref s = src.ref(), d = dst.ref();
  auto S = [&](int r, int cd) { return elem(s, static_cast<uint32_t>(r * (cols / per) + cd)); };
  auto D = [&](int r, int cd) { return elem(d, static_cast<uint32_t>(r * (rows / per) + cd)); };
  detail::lower L = c.L();
  if (elem_bytes == 4) {
    for (int r = 0; r < rows; ++r)
      for (int k = 0; k < cols; ++k) c.e(detail::O::v_mov_b32, {D(k, r), S(r, k)});
    return;
  }
  // v_perm_b32 d, a, b, sel: byte k of d is byte sel_k of {a:b} (b = bytes 0-3, a = 4-7); the
  // selectors in SGPRs (one constant-bus read; VOP3 takes no literal)
  operand sels[4] = {L.smov(detail::imm_op(0x05040100u)), L.smov(detail::imm_op(0x07060302u)), {}, {}};
  if (elem_bytes == 1) {
    sels[2] = L.smov(detail::imm_op(0x05010400u));
    sels[3] = L.smov(detail::imm_op(0x07030602u));
  }
  auto perm = [&](operand dd, operand a, operand bb, uint32_t sel) {
    operand so = sel == 0x05040100u ? sels[0] : sel == 0x07060302u ? sels[1] : sel == 0x05010400u ? sels[2] : sels[3];
    c.e(detail::O::v_perm_b32, {dd, a, bb, so});
  };
  if (elem_bytes == 2) {
    for (int r = 0; r < rows; r += 2)
      for (int k = 0; k < cols / 2; ++k) {
        operand a = S(r, k), bb = S(r + 1, k);  // a = [a0 a1], bb = [b0 b1] (low half first)
        perm(D(2 * k, r / 2), bb, a, 0x05040100u);      // [a0 b0]
        perm(D(2 * k + 1, r / 2), bb, a, 0x07060302u);  // [a1 b1]
      }
    return;
  }
  detail::reg_ref t = c.v(4);
  for (int r = 0; r < rows; r += 4)
    for (int k = 0; k < cols / 4; ++k) {
      operand x0 = S(r, k), x1 = S(r + 1, k), x2 = S(r + 2, k), x3 = S(r + 3, k);
      // round 1: interleave bytes of rows (0,1) and (2,3): [x0_0 x1_0 x0_1 x1_1], [.._2 .._3]
      perm(elem(t, 0), x1, x0, 0x05010400u);
      perm(elem(t, 1), x1, x0, 0x07030602u);
      perm(elem(t, 2), x3, x2, 0x05010400u);
      perm(elem(t, 3), x3, x2, 0x07030602u);
      // round 2: halves: column j = [x0_j x1_j x2_j x3_j]
      perm(D(4 * k + 0, r / 4), elem(t, 2), elem(t, 0), 0x05040100u);
      perm(D(4 * k + 1, r / 4), elem(t, 2), elem(t, 0), 0x07060302u);
      perm(D(4 * k + 2, r / 4), elem(t, 3), elem(t, 1), 0x05040100u);
      perm(D(4 * k + 3, r / 4), elem(t, 3), elem(t, 1), 0x07060302u);
    }
}

}  // namespace hipasm
