// Prefix scans over lanes: inclusive or exclusive sum / max / min of f32, i32 or u32, over a
// wave's active lanes (in lane order) or a workgroup's (in wave, then lane order).
//
//   auto s = wave_scan(J, reduce::sum, x);                         // s.value: x of lanes 0..l summed
//   auto e = wave_scan(J, reduce::max, x, {.exclusive = true});    // lanes 0..l-1 (lane 0: -inf)
//   auto w = workgroup_scan(J, reduce::sum, n, J.lds<uint32_t>(16, 16), 16, {.exclusive = true});
//   // w.value: the lane's start in the workgroup, w.total (SGPR): the workgroup's sum
//
// Cost (wave64, gfx942): wave_scan is the classic gfx9 scan, 6 DPP VALU ops: row_shr:1 (sum:
// with bound_ctrl, a row's first lane adding 0; max/min: after a v_mov, in place without it,
// so a lane whose source is outside its row keeps its value), row_shr:2, 4, 8 in place
// (Hillis-Steele within rows of 16), row_bcast:15 into rows 1 and 3, row_bcast:31 into rows 2
// and 3; exclusive: one v_mov_b32 wave_shr:1 more (max/min: over the identity). Each step
// reads the previous one's result: s_nop 1 between them (the hazard pass), which a register
// array of 3 or more values fills by interleaving their chains. The total is v_readlane 63.
// workgroup_scan: wave_scan, each wave's total written to scratch[wave] (ds_write_b32), one
// s_barrier, then lane j of every wave reads wave j - 1's total (identity for lane 0 and past
// the last wave), scans those over lanes 0..waves (4 or 5 DPP steps), and takes its wave's
// offset (v_readlane at the wave id) and the workgroup total (lane `waves`): ~20 VALU, one
// LDS round trip, one barrier (one wave: wave_scan's work alone).
//
// EXEC: as the reductions (lanes.hpp): the scan is over the ACTIVE lanes (inactive lanes count
// as the identity and their result is undefined) unless opts.all_lanes_active; the work runs
// with all lanes on (s_or_saveexec_b64) and EXEC is restored. workgroup_scan has an s_barrier:
// every wave must call it in wave-uniform control flow (a wave with no active lane still takes
// part, with an identity total); before reusing scratch, opts.barrier_before (or a barrier of
// the caller's) keeps a slow wave's reads of the previous scan from being overwritten.
#pragma once
#include "lanes.hpp"

namespace hipasm {

struct scan_opts {
  bool exclusive = false;         // each lane gets the lanes before it (the first: the identity)
  bool all_lanes_active = false;  // skip the identity fill of inactive lanes (see lanes.hpp)
  bool barrier_before = false;    // workgroup_scan: s_barrier before writing the scratch
  uint32_t block_x = 0, block_y = 0;  // workgroup_scan: a 2-D / 3-D workgroup's x / y sizes (see wave_id)
};

// A scan's per-lane result (VGPR) and the total over all lanes taking part (SGPR).
template <dtype T>
struct scan_result {
  gpr<T> value;
  gpr<T> total;
};

namespace detail {

// Inclusive scan of each element of x (n values) into r, over all 64 lanes (EXEC all on);
// lanes 0 .. lanes - 1 are exact (fewer lanes: fewer steps).
constexpr void inclusive_scan(hctx& c, reduce rk, dtype t, const reg_ref& x, const reg_ref& r, uint32_t n,
                              uint32_t lanes = 64) {
  const O op = reduce_valu(rk, t);
  if (rk == reduce::sum) {
    for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(x, i), elem(x, i)}, with_dpp(dpp::row_shr(1).bound_ctrl()));
  } else {
    for (uint32_t i = 0; i < n; ++i) c.e(O::v_mov_b32, {elem(r, i), elem(x, i)});
    for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(r, i), elem(r, i)}, with_dpp(dpp::row_shr(1)));
  }
  const dpp_ctrl rest[5] = {dpp::row_shr(2), dpp::row_shr(4), dpp::row_shr(8), dpp::row_bcast15().row_mask(0xa),
                            dpp::row_bcast31().row_mask(0xc)};
  const uint32_t reach[5] = {2, 4, 8, 16, 32};  // a step matters when lanes past this exist
  for (int k = 0; k < 5; ++k) {
    if (lanes <= reach[k]) break;
    for (uint32_t i = 0; i < n; ++i) c.e(op, {elem(r, i), elem(r, i), elem(r, i)}, with_dpp(rest[k]));
  }
}

// The inclusive scan r shifted up one lane (lane 0: the identity): the exclusive scan.
constexpr reg_ref exclusive_of(hctx& c, reduce rk, dtype t, const reg_ref& r, uint32_t n) {
  reg_ref e = c.v(static_cast<uint16_t>(n));
  if (rk == reduce::sum) {
    for (uint32_t i = 0; i < n; ++i) c.e(O::v_mov_b32, {elem(e, i), elem(r, i)}, with_dpp(dpp::wave_shr(1).bound_ctrl()));
    return e;
  }
  const operand ident = identity_operand(c, rk, t);
  for (uint32_t i = 0; i < n; ++i) c.e(O::v_mov_b32, {elem(e, i), ident});
  for (uint32_t i = 0; i < n; ++i) c.e(O::v_mov_b32, {elem(e, i), elem(r, i)}, with_dpp(dpp::wave_shr(1)));
  return e;
}

}  // namespace detail

// Each element of v (a VGPR or VGPR array) scanned over the wave's active lanes.
template <dtype T>
constexpr scan_result<T> wave_scan(builder J, reduce op, const gpr<T>& v, scan_opts o = {},
                                   std::source_location l = std::source_location::current()) {
  detail::hctx c(*J.self(), to_src_loc(l));
  const uint32_t n = v.size();
  detail::reg_ref r = c.v(static_cast<uint16_t>(n)), total = c.s(static_cast<uint16_t>(n));
  if (!detail::check_reduce_input(c.b, c.l, v)) return {gpr<T>(r), gpr<T>(total)};
  detail::reg_ref x{};
  detail::reg_ref save = detail::enter_all_lanes(c, op, T, v.ref(), n, x, o.all_lanes_active);
  detail::inclusive_scan(c, op, T, x, r, n);
  for (uint32_t i = 0; i < n; ++i) c.e(detail::O::v_readlane_b32, {detail::elem(total, i), detail::elem(r, i), detail::imm_op(63)});
  const detail::reg_ref out = o.exclusive ? detail::exclusive_of(c, op, T, r, n) : r;
  detail::leave_all_lanes(c, save);
  return {c.result<T>(out, false), gpr<T>(total)};
}

// v (one VGPR) scanned over the workgroup's active lanes, wave by wave: `waves` waves of 64
// (1..16; a 2-D / 3-D workgroup gives its sizes in opts.block_x / block_y), through `scratch`
// (at least 4 * waves bytes of LDS). Every wave must call it (it has an s_barrier).
template <dtype T>
constexpr scan_result<T> workgroup_scan(builder J, reduce op, const gpr<T>& v, lds_ref scratch, int waves,
                                        scan_opts o = {}, std::source_location l = std::source_location::current()) {
  using detail::elem;
  using detail::imm_op;
  using detail::reg_op;
  detail::hctx c(*J.self(), to_src_loc(l));
  detail::reg_ref res = c.v(), total = c.s();
  if (!detail::check_reduce_input(c.b, c.l, v)) return {gpr<T>(res), gpr<T>(total)};
  if (v.size() != 1) {
    c.b.fail(c.l, "workgroup_scan takes one VGPR (scan the elements of an array one by one)");
    return {gpr<T>(res), gpr<T>(total)};
  }
  if (waves < 1 || waves > 16) {
    c.b.fail(c.l, "workgroup_scan: waves must be 1..16, got ", static_cast<long long>(waves));
    return {gpr<T>(res), gpr<T>(total)};
  }
  const uint32_t W = static_cast<uint32_t>(waves);
  if (scratch.bytes && scratch.bytes < 4u * W) {
    c.b.fail(c.l, "workgroup_scan: scratch holds ", static_cast<long long>(scratch.bytes), " bytes, needs ",
             static_cast<long long>(4u * W));
    return {gpr<T>(res), gpr<T>(total)};
  }
  // the wave's scan (all lanes on for the whole helper: the LDS exchange needs a lane even in a
  // wave with none active; inactive lanes count as the identity)
  detail::reg_ref x{};
  detail::reg_ref save = detail::enter_all_lanes(c, op, T, v.ref(), 1, x, o.all_lanes_active);
  const scan_result<T> ws = wave_scan(J, op, gpr<T>(x), {.exclusive = o.exclusive, .all_lanes_active = true}, l);
  const detail::reg_ref mine = ws.value.ref(), wt = ws.total.ref();
  if (W == 1) {  // one wave: its scan and total (no LDS, no barrier)
    detail::leave_all_lanes(c, save);
    return {c.result<T>(mine, false), ws.total};
  }
  if (o.barrier_before) c.e(detail::O::s_barrier, {});
  // the wave's total at scratch + 4 * wave
  gpr<dtype::u32> wid = wave_id(J, o.block_x, o.block_y, l);
  // (a scratch above 64 KiB, gfx950: its high part in the address registers, split_lds_offset)
  const detail::lds_offset_split at = detail::split_lds_offset(scratch.offset, 4u * W - 4u);
  detail::reg_ref sa = c.s(), va = c.v(), vd = c.v();
  c.e(detail::O::s_lshl_b32, {reg_op(sa), wid.to_operand(), imm_op(2)});
  if (at.hi) c.e(detail::O::s_add_u32, {reg_op(sa), reg_op(sa), imm_op(static_cast<uint32_t>(at.hi))});
  c.e(detail::O::v_mov_b32, {reg_op(va), reg_op(sa)});
  c.e(detail::O::v_mov_b32, {reg_op(vd), reg_op(wt)});
  modifiers at_scratch;
  at_scratch.offset = static_cast<int32_t>(at.lo);
  c.e(detail::O::ds_write_b32, {reg_op(va), reg_op(vd)}, at_scratch);
  c.e(detail::O::s_waitcnt, {lgkmcnt(0).to_operand()});
  c.e(detail::O::s_barrier, {});
  // lane j: wave j - 1's total (j = 1..W), else the identity; scanned over lanes 0..W, lane w
  // holds the waves before wave w, lane W all of them
  detail::reg_ref jm = c.v(), a = c.v(), p = c.v(), pm = c.v(), ps = c.v();
  detail::reg_ref in_range = c.s(2);
  const gpr<dtype::u32> ln = lane_id(J, l);
  c.e(detail::O::v_add_u32, {reg_op(jm), imm_op(static_cast<uint64_t>(-1)), ln.to_operand()});
  c.e(detail::O::v_min_u32, {reg_op(a), imm_op(W - 1), reg_op(jm)});
  c.e(detail::O::v_lshlrev_b32, {reg_op(a), imm_op(2), reg_op(a)});
  if (at.hi) c.e(detail::O::v_add_u32, {reg_op(a), imm_op(static_cast<uint32_t>(at.hi)), reg_op(a)});
  c.e(detail::O::ds_read_b32, {reg_op(p), reg_op(a)}, at_scratch);
  c.e(detail::O::v_cmp_gt_u32, {reg_op(in_range), imm_op(W), reg_op(jm)});
  const operand ident = detail::identity_operand(c, op, T);
  c.e(detail::O::s_waitcnt, {lgkmcnt(0).to_operand()});
  c.e(detail::O::v_cndmask_b32, {reg_op(pm), ident, reg_op(p), reg_op(in_range)});
  detail::inclusive_scan(c, op, T, pm, ps, 1, W + 1);
  const gpr<T> before = readlane(gpr<T>(ps), wid, l);
  c.e(detail::O::v_readlane_b32, {reg_op(total), reg_op(ps), imm_op(W)});
  c.e(detail::reduce_valu(op, T), {reg_op(res), before.to_operand(), reg_op(mine)});
  detail::leave_all_lanes(c, save);
  return {c.result<T>(res, false), gpr<T>(total)};
}

}  // namespace hipasm
