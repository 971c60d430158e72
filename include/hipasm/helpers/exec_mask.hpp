// EXEC masks as values (pyhip's SetMask and ExecMask): a lane mask is a gpr<u64> SGPR pair
// that can be saved, combined with s_and_b64 & co., and applied to a stretch of code.
//
//   auto m = lane_mask(J, v < n);              // v_cmp into an SGPR pair (pyhip SetMask(sgprx2, cond))
//   auto saved = exec_mask(J);                 // s_mov_b64 saved, exec
//   with_exec_mask(J, m, [&] { ... });         // EXEC &= m for the body, skipped when empty,
//                                              // restored after (pyhip ExecMask(cond))
//   set_exec(J, saved);                        // s_mov_b64 exec, saved
//
// with_exec_mask is a per-lane region like If's then-branch: Break, Continue and Return
// inside it work (the lanes leaving are removed from its saved EXEC). set_exec is raw: inside
// structured per-lane code (If, per-lane loops) it may give back lanes they have parked, so
// use it only with masks taken at the same level.
#pragma once
#include <source_location>

#include "../builder.hpp"

namespace hipasm {

// The current EXEC (an SGPR pair).
constexpr gpr<u64> exec_mask(builder J, std::source_location l = std::source_location::current()) {
  builder& B = J;
  auto m = B.sgpr<u64>(l);
  B.s_mov_b64(m, exec, no_modifiers, l);
  return m;
}

// The lanes (of EXEC) where `c` holds, as a mask: a per-lane condition is a v_cmp, a
// wave-uniform one gives EXEC or 0. Never a lane outside EXEC (set_exec of it turns on no
// parked lane and no lane past the wave's end).
constexpr gpr<u64> lane_mask(builder J, const cond& c, std::source_location l = std::source_location::current()) {
  builder& B = J;
  const src_loc sl = to_src_loc(l);
  B.note_loc(sl);
  detail::lower L{B, sl};
  if (!c.scalar()) {
    // the comparison's own result (no copy: a copy out of VCC, which the vcc-compares step
    // gives a mask read only in its block, cannot be coalesced away); a mask the condition
    // already holds (`a < b && m`) is a value of its own ANDed with EXEC: it may have been
    // combined under a wider EXEC (outside the If this runs in)
    const bool is_existing = c.lane_mask && !c.negate;
    detail::reg_ref r = detail::emit_vector_cmp(L, c);
    if (!is_existing) return gpr<u64>(r);
    auto m = B.sgpr<u64>(l);
    L.e(target_op::s_and_b64, {m.to_operand(), detail::reg_op(r), detail::exec_op()});
    return m;
  }
  auto m = B.sgpr<u64>(l);
  const bool sense = detail::emit_scalar_cmp(L, c);
  L.e(target_op::s_cselect_b64, {m.to_operand(), sense ? detail::exec_op() : detail::imm_op(0, 2),
                                 sense ? detail::imm_op(0, 2) : detail::exec_op()});
  return m;
}

// EXEC = mask.
constexpr void set_exec(builder J, const gpr<u64>& mask, std::source_location l = std::source_location::current()) {
  builder& B = J;
  B.s_mov_b64(exec, mask, no_modifiers, l);
}

// Runs body with EXEC = EXEC & mask (skipped when no lane is left) and restores EXEC.
template <class F>
constexpr void with_exec_mask(builder J, const gpr<u64>& mask, F&& body,
                              std::source_location loc = std::source_location::current()) {
  builder& B = J;
  const src_loc l = to_src_loc(loc);
  B.note_loc(l);
  if (B.failed()) return;
  if (mask.cls != reg_class::sgpr || mask.dwords() != 2) {
    B.fail(l, "with_exec_mask: the mask must be one SGPR pair (gpr<u64> SGPR)");
    return;
  }
  detail::lower L{B, l};
  label join = B.make_label({}, loc);
  detail::reg_ref save = L.tmp(reg_class::sgpr, 2);
  L.e(target_op::s_and_saveexec_b64, {detail::reg_op(save), mask.to_operand()});
  B.emit_raw(target_op::s_cbranch_execz, {detail::label_op(join.id)}, l);
  B.div_stack_.push_back({save, mask.ref(), join.id});
  B.enter_region(true, detail::lane_region::kind::masked, l);
  const bool exec_may_be_empty = B.exec_may_be_empty_;
  B.exec_may_be_empty_ = false;  // (s_cbranch_execz above)
  body();
  B.leave_region();
  const bool lanes_left = B.div_stack_.back().lanes_left;
  B.div_stack_.pop_back();
  B.start_block();
  B.place(join, loc);
  L.e(target_op::s_mov_b64, {detail::exec_op(), detail::reg_op(save)});
  B.exec_may_be_empty_ = exec_may_be_empty || lanes_left;
}

}  // namespace hipasm
