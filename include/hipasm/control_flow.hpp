// Structured control flow: If / Else / While / For / Break / Continue / Return.
//
//   J.If(i < n, [&] { ... }).Else([&] { ... });
//   J.While([&] { return i < n; }, [&] { ...; J.If(x == 0, [&] { J.Break(); }); });
//   J.For(i, 0, n, [&] { ... });                       // for (i = 0; i < n; ++i)
//   J.If(v < 0, [&] { J.Return(); });                  // these lanes stop here
//
// A condition on SGPRs/immediates (u32/i32) is wave-uniform: s_cmp sets SCC and
// s_cbranch_scc0/1 branches. A condition involving a VGPR (or f32) is per-lane: v_cmp writes a
// lane mask into an SGPR pair and EXEC is narrowed to the lanes that take the branch. A per-lane
// condition combined with && / || (helpers/select.hpp) arrives as that mask already
// (cond::lane_mask); its negation is EXEC & ~mask (s_andn2_b64: the active lanes outside it).
//
// What EXEC and the saved masks hold. Every lane the wave started with is at each point either
// active (in EXEC), returned (gone for good), or parked in exactly one mask that gives it back:
// - per-lane If: `save` = EXEC at the If (s_and_saveexec_b64), `mask` = the lanes taking the
//   then-branch. Then: EXEC = save & mask (s_cbranch_execz skips a branch no lane takes). Else:
//   EXEC = save & ~mask. Join: EXEC = save. The lanes of save outside EXEC are parked there.
// - loop: `save` = EXEC at the entry (per-lane loops always; uniform loops from their first
//   per-lane Break/Continue/Return on, set before the head), restored at the exit: it parks
//   the lanes that have left the loop (per-lane condition false, Break). A per-lane condition
//   drops lanes from EXEC at the head; the loop ends when EXEC is empty (a uniform loop with
//   per-lane exits leaves early then too, so its counter may stop short of the bound).
// - `cont_mask` (one per loop, zeroed at the top of each iteration) parks the lanes that
//   executed a per-lane Continue; the continue point does EXEC |= cont_mask.
// Break/Continue/Return under per-lane Ifs inside the loop: the lanes (EXEC) are removed from
// the save of every such If (they must not come back at its join or Else); Break leaves them
// parked in the loop's save, Continue adds them to cont_mask, Return also removes them from
// every enclosing If's and loop's save (so every later restore leaves them off); then EXEC = 0
// and a branch to the innermost If's join, where the remaining lanes of the If come back.
// Break/Continue/Return at the loop's own level (no per-lane If between, uniform Ifs do not
// count): all active lanes leave the iteration. Continue and Return branch to the continue
// point; Break branches to the exit when no lane is parked by Continue, else sets EXEC =
// cont_mask (those lanes still run the next iteration; the breaking ones stay in save) and
// goes to the continue point, or to the exit when cont_mask is empty.
// Return outside any loop and per-lane If is the end of the program (s_endpgm). Otherwise the
// outermost enclosing mask, patched last, holds exactly the wave's remaining lanes: when it
// becomes empty (SCC of its s_andn2_b64) the wave branches to the final s_endpgm.
//
// Hand-written flow may not cross a per-lane region's edge (then/else body, per-lane loop,
// uniform loop with per-lane Break/Continue): s_endpgm or s_setpc_b64 inside one, or a branch
// to a label outside it (or into one), would skip the EXEC restore, so it is an error at the
// instruction's line (use Return/Break/Continue).
//
// Instructions inside a branch whose lanes are all off still run if they are scalar
// (SALU/SMEM) and the branch was entered by fall-through (also after a Break/Continue/Return
// turned the last lanes of a branch off): keep scalar side effects out of per-lane branches,
// as on any SIMT machine. The builder enforces two of them: inside a per-lane If/Else body or a
// loop with a per-lane condition, writing an SGPR declared outside it (the lanes that skipped
// it would see the write) and s_barrier (a wave whose lanes all skip it would not reach it) are
// errors at their line, unless inside J.wave_uniform([&] { ... }). Registers the code declares
// inside, the flow's own masks and a For's init and step are not checked; uniform (SCC) Ifs and
// loops do not count.
#pragma once
#include <type_traits>

#include "builder.hpp"

namespace hipasm {

namespace detail {

constexpr O scalar_cmp_op(cmpop o, bool sgn) {
  switch (o) {
    case cmpop::lt: return sgn ? O::s_cmp_lt_i32 : O::s_cmp_lt_u32;
    case cmpop::le: return sgn ? O::s_cmp_le_i32 : O::s_cmp_le_u32;
    case cmpop::gt: return sgn ? O::s_cmp_gt_i32 : O::s_cmp_gt_u32;
    case cmpop::ge: return sgn ? O::s_cmp_ge_i32 : O::s_cmp_ge_u32;
    case cmpop::eq: return O::s_cmp_eq_u32;
    case cmpop::ne: return O::s_cmp_lg_u32;
  }
  return O::s_cmp_eq_u32;
}
constexpr cmpop invert(cmpop o) {
  switch (o) {
    case cmpop::lt: return cmpop::ge;
    case cmpop::le: return cmpop::gt;
    case cmpop::gt: return cmpop::le;
    case cmpop::ge: return cmpop::lt;
    case cmpop::eq: return cmpop::ne;
    case cmpop::ne: return cmpop::eq;
  }
  return o;
}
constexpr O vector_cmp_op(cmpop o, dtype t, bool negate) {
  if (t == dtype::f32) {
    if (negate) {  // unordered complements: !(a < b) is true for NaN
      switch (o) {
        case cmpop::lt: return O::v_cmp_nlt_f32;
        case cmpop::le: return O::v_cmp_nle_f32;
        case cmpop::gt: return O::v_cmp_ngt_f32;
        case cmpop::ge: return O::v_cmp_nge_f32;
        case cmpop::eq: return O::v_cmp_neq_f32;
        case cmpop::ne: return O::v_cmp_eq_f32;
      }
    }
    switch (o) {
      case cmpop::lt: return O::v_cmp_lt_f32;
      case cmpop::le: return O::v_cmp_le_f32;
      case cmpop::gt: return O::v_cmp_gt_f32;
      case cmpop::ge: return O::v_cmp_ge_f32;
      case cmpop::eq: return O::v_cmp_eq_f32;
      case cmpop::ne: return O::v_cmp_neq_f32;
    }
  }
  if (negate) o = invert(o);
  bool s = t == dtype::i32;
  switch (o) {
    case cmpop::lt: return s ? O::v_cmp_lt_i32 : O::v_cmp_lt_u32;
    case cmpop::le: return s ? O::v_cmp_le_i32 : O::v_cmp_le_u32;
    case cmpop::gt: return s ? O::v_cmp_gt_i32 : O::v_cmp_gt_u32;
    case cmpop::ge: return s ? O::v_cmp_ge_i32 : O::v_cmp_ge_u32;
    case cmpop::eq: return s ? O::v_cmp_eq_i32 : O::v_cmp_eq_u32;
    case cmpop::ne: return s ? O::v_cmp_ne_i32 : O::v_cmp_ne_u32;
  }
  return O::v_cmp_eq_u32;
}

// The SALU instructions whose SCC result is (D != 0): bit operations, shifts, field extracts.
constexpr bool scc_is_result_nonzero(O op) {
  switch (op) {
    case O::s_and_b32: case O::s_or_b32: case O::s_xor_b32: case O::s_andn2_b32: case O::s_orn2_b32:
    case O::s_nand_b32: case O::s_nor_b32: case O::s_xnor_b32: case O::s_not_b32: case O::s_lshl_b32:
    case O::s_lshr_b32: case O::s_ashr_i32: case O::s_bfe_u32: case O::s_bfe_i32: case O::s_bcnt1_i32_b32:
      return true;
    default: return false;
  }
}
// Scalar condition: sets SCC = (a op b), negation folded into the branch sense.
// Returns true when SCC holds the condition's truth (false: SCC holds its negation).
constexpr bool emit_scalar_cmp(lower& L, const cond& c) {
  operand a = c.a.op, x = c.c.op;
  // x != 0 / x == 0 right after the SALU instruction that wrote x and set SCC = (x != 0)
  // (`(m & bit) != 0u`): that SCC is the test, no s_cmp.
  if ((c.op == cmpop::ne || c.op == cmpop::eq) && lower::is_imm(x) && x.value == 0 && a.k == operand::kind::vreg &&
      a.cls == reg_class::sgpr && a.dwords == 1 && L.b.cur_index() > 0) {
    const instr& last = L.b.fn.blocks[L.b.cur_block()].instrs.back();
    const operand& d = last.ops[0];
    if (scc_is_result_nonzero(static_cast<O>(last.op)) && last.num_operands > 0 && d.k == operand::kind::vreg &&
        d.value == a.value && d.offset == a.offset && d.dwords == 1)
      return (c.op == cmpop::ne) != c.negate;
  }
  if (lower::is_imm(a) && lower::is_imm(x)) a = L.smov(a);
  L.e(scalar_cmp_op(c.op, c.a.t == dtype::i32), {a, x});
  return !c.negate;
}
constexpr operand exec_op() { return special_op(special_reg::exec, 2); }
// Per-lane condition: a lane mask in a new SGPR pair (only lanes of EXEC).
constexpr reg_ref emit_vector_cmp(lower& L, const cond& c) {
  if (c.lane_mask) {  // combined conditions: the mask is there
    reg_ref k{&L.b, static_cast<uint32_t>(c.a.op.value), reg_class::sgpr, c.a.op.offset, 2};
    if (!c.negate) return k;
    // negated: the active lanes outside it (a bare NOT would also hold the inactive lanes,
    // parked ones and those past the wave's end, which a mask handed out as a value or
    // given to EXEC must not)
    reg_ref n = L.tmp(reg_class::sgpr, 2);
    L.e(O::s_andn2_b64, {reg_op(n), exec_op(), c.a.op});
    return n;
  }
  reg_ref m = L.tmp(reg_class::sgpr, 2);
  if (c.a.is_reg(reg_class::agpr) || c.c.is_reg(reg_class::agpr)) {
    L.b.fail(L.l, "an AGPR cannot be a comparison operand");
    return m;
  }
  L.valu3(vector_cmp_op(c.op, c.a.t, c.negate), reg_op(m), c.a.op, c.c.op, c.a.t == dtype::f32);
  return m;
}
}  // namespace detail

namespace detail {
// Counts an open scope while it lives (the flow's own writes to enclosing masks).
struct open_scope {
  uint32_t& n;
  constexpr explicit open_scope(uint32_t& c) : n(c) { ++n; }
  constexpr ~open_scope() { --n; }
  open_scope(const open_scope&) = delete;
};
}  // namespace detail

// ---- Jump on a condition ---------------------------------------------------------------------
constexpr void builder::Jump(label L, const cond& c, std::source_location loc) {
  src_loc l = to_src_loc(loc);
  note_loc(l);
  if (!c.scalar()) {
    fail(l, "Jump(label, condition) needs a wave-uniform condition (SGPRs, kernel arguments or constants, "
            "u32/i32); branch on lanes with If, or narrow EXEC and Jump(label, branch_if::execz)");
    return;
  }
  detail::lower L2{*this, l};
  const bool sense = detail::emit_scalar_cmp(L2, c);
  emit(sense ? O::s_cbranch_scc1 : O::s_cbranch_scc0, {L}, {}, loc);
}

// ---- If / Else -------------------------------------------------------------------------------
template <class F>
constexpr builder::if_result builder::If(const cond& c, F&& then_body, std::source_location loc) {
  src_loc l = to_src_loc(loc);
  note_loc(l);
  detail::lower L{*this, l};
  if_state st;
  label join = make_label({}, loc);
  st.join_label = join.id;
  st.exec_may_be_empty_before = exec_may_be_empty_;
  if (c.scalar()) {
    bool sense = detail::emit_scalar_cmp(L, c);
    emit_raw(sense ? O::s_cbranch_scc0 : O::s_cbranch_scc1, {detail::label_op(join.id)}, l);
    then_body();
    st.exec_may_be_empty_then = exec_may_be_empty_ = st.exec_may_be_empty_before || exec_may_be_empty_;
    st.then_end_block = cur_block();
    start_block();
    place(join, loc);
  } else {
    st.vector = true;
    st.mask = detail::emit_vector_cmp(L, c);
    st.save = L.tmp(reg_class::sgpr, 2);
    L.e(O::s_and_saveexec_b64, {detail::reg_op(st.save), detail::reg_op(st.mask)});
    emit_raw(O::s_cbranch_execz, {detail::label_op(join.id)}, l);
    div_stack_.push_back({st.save, st.mask, join.id});
    enter_region(true, detail::lane_region::kind::then_body, l);
    exec_may_be_empty_ = false;  // (s_cbranch_execz above)
    then_body();
    leave_region();
    detail::divergent_ctx dc = div_stack_.back();
    div_stack_.pop_back();
    resolve_skip(dc.skip_block, join.id, l);
    st.lanes_left = dc.lanes_left;
    st.then_end_block = cur_block();
    start_block();
    place(join, loc);
    L.e(O::s_mov_b64, {detail::exec_op(), detail::reg_op(st.save)});
    exec_may_be_empty_ = st.exec_may_be_empty_before || st.lanes_left;
  }
  st.join_block = cur_block();
  st.instrs_at_join = cur_index();
  st.blocks_at_join = static_cast<uint32_t>(fn.blocks.size());
  if (st.lanes_left) offer_skip(st);
  ifs_.push_back(st);
  return if_result{self(), static_cast<uint32_t>(ifs_.size() - 1)};
}

template <class F>
constexpr void builder::if_result::Else(F&& else_body, std::source_location loc) {
  builder& B = *b;
  src_loc l = to_src_loc(loc);
  B.note_loc(l);
  if (B.err.failed) return;
  if_state st = B.ifs_[id];
  if (st.has_else || B.cur_block() != st.join_block || B.cur_index() != st.instrs_at_join ||
      B.fn.blocks.size() != st.blocks_at_join) {
    B.fail(l, "Else must directly follow its If (nothing may be emitted in between)");
    return;
  }
  B.ifs_[id].has_else = true;
  detail::lower L{B, l};
  label end = B.make_label({}, loc);
  if (!st.vector) {
    // The then-branch jumps over the else-branch.
    instr br;
    br.op = static_cast<uint16_t>(O::s_branch);
    br.num_operands = 1;
    br.ops[0] = detail::label_op(end.id);
    br.loc = l;
    B.edit_instrs(st.then_end_block).push_back(br);
    B.exec_may_be_empty_ = st.exec_may_be_empty_before;
    else_body();
    B.exec_may_be_empty_ = B.exec_may_be_empty_ || st.exec_may_be_empty_then;
    B.start_block();
    B.place(end, loc);
  } else {
    if (st.skip_block >= 0) {
      // The then-join offered to skip: it is not the join any more (the else-branch follows).
      if (int32_t* owner = B.skip_owner(); owner && *owner == st.skip_block) *owner = -1;
      B.fn.blocks.pop_back();  // (the empty block started after the restore)
      B.cur_ = static_cast<uint32_t>(st.skip_block);
      B.block_has_label_ = true;
      st.skip_block = -1;
    }
    // Replace the restore by: EXEC = saved & ~mask (the lanes that did not take then).
    B.edit_instrs(B.cur_block()).pop_back();
    L.e(O::s_andn2_b64, {detail::exec_op(), detail::reg_op(st.save), detail::reg_op(st.mask)});
    B.emit_raw(O::s_cbranch_execz, {detail::label_op(end.id)}, l);
    B.div_stack_.push_back({st.save, st.mask, end.id});
    B.enter_region(true, detail::lane_region::kind::else_body, l);
    B.exec_may_be_empty_ = false;  // (s_cbranch_execz above)
    else_body();
    B.leave_region();
    detail::divergent_ctx dc = B.div_stack_.back();
    B.div_stack_.pop_back();
    B.resolve_skip(dc.skip_block, end.id, l);
    B.start_block();
    B.place(end, loc);
    L.e(O::s_mov_b64, {detail::exec_op(), detail::reg_op(st.save)});
    st.lanes_left = st.lanes_left || dc.lanes_left;
    B.exec_may_be_empty_ = st.exec_may_be_empty_before || st.lanes_left;
    st.has_else = true;
    if (st.lanes_left) B.offer_skip(st);
    B.ifs_[id] = st;
  }
}

template <class F, class G>
constexpr void builder::If(const cond& c, F&& then_body, G&& else_body, std::source_location l) {
  If(c, static_cast<F&&>(then_body), l).Else(static_cast<G&&>(else_body), l);
}

// ---- loops -------------------------------------------------------------------------------------
template <class C, class F>
constexpr void builder::While(C&& condition, F&& body, std::source_location loc) {
  For([] {}, static_cast<C&&>(condition), [] {}, static_cast<F&&>(body), loc);
}

template <class I, class C, class S, class F>
  requires std::is_invocable_v<I&> && std::is_invocable_v<C&> && std::is_invocable_v<S&>
constexpr void builder::For(I&& init, C&& condition, S&& step, F&& body, std::source_location loc) {
  static_assert(std::is_same_v<std::decay_t<decltype(condition())>, cond>,
                "the loop condition must be a lambda returning a comparison of registers, e.g. "
                "[&] { return i < n; }");
  src_loc l = to_src_loc(loc);
  note_loc(l);
  // The init and the step are the loop's own bookkeeping (a For's counter, declared before the
  // For): every lane in the loop agrees on it, so they are not checked as writes inside per-lane
  // code (after a per-lane loop, or one in a per-lane If, it holds what the last lanes left with).
  wave_uniform(init);
  detail::lower L{*this, l};
  detail::loop_ctx lp;
  lp.head = make_label({}, loc).id;
  lp.cont = make_label({}, loc).id;
  lp.exit = make_label({}, loc).id;
  lp.div_depth = static_cast<uint32_t>(div_stack_.size());
  lp.entry_block = cur_block();
  start_block();
  lp.region = enter_region(false, detail::lane_region::kind::loop, l);
  place(label{lp.head}, loc);
  cond c = condition();  // (its operands' expressions are evaluated at the head)
  regions_[lp.region].per_lane = !c.scalar();
  if (!c.scalar()) region_is_per_lane(lp.region);
  if (c.scalar()) {
    bool sense = detail::emit_scalar_cmp(L, c);
    emit_raw(sense ? O::s_cbranch_scc0 : O::s_cbranch_scc1, {detail::label_op(lp.exit)}, l);
  } else {
    lp.vector = true;
    lp.save = L.tmp(reg_class::sgpr, 2);
    // EXEC at loop entry, restored at the exit (appended to the block that enters the loop).
    instr sv;
    sv.op = static_cast<uint16_t>(O::s_mov_b64);
    sv.num_operands = 2;
    sv.ops[0] = detail::reg_op(lp.save);
    sv.ops[1] = detail::exec_op();
    sv.loc = l;
    edit_instrs(lp.entry_block).push_back(sv);
    detail::reg_ref m = detail::emit_vector_cmp(L, c);
    L.e(O::s_and_b64, {detail::exec_op(), detail::exec_op(), detail::reg_op(m)});
    emit_raw(O::s_cbranch_execz, {detail::label_op(lp.exit)}, l);
  }
  lp.body_block = cur_block();
  loops_.push_back(lp);
  // A uniform loop's first iteration starts with EXEC as at its entry, later ones with lanes
  // (the latch leaves when EXEC empties); a per-lane loop's body always has lanes.
  const bool exec_may_be_empty_at_entry = exec_may_be_empty_;
  const uint32_t returns_at_entry = returns_;
  if (lp.vector) exec_may_be_empty_ = false;
  body();
  lp = loops_.back();
  loops_.pop_back();
  resolve_skip(lp.skip_block, lp.cont, l);
  place(label{lp.cont}, loc);
  if (lp.cont_mask.b) L.e(O::s_or_b64, {detail::exec_op(), detail::exec_op(), detail::reg_op(lp.cont_mask)});
  wave_uniform(step);  // (see init)
  if (lp.lane_exit) emit_raw(O::s_cbranch_execz, {detail::label_op(lp.exit)}, l);
  emit_raw(O::s_branch, {detail::label_op(lp.head)}, l);
  regions_[lp.region].per_lane = lp.vector || lp.parks;
  leave_region();
  place(label{lp.exit}, loc);
  if (lp.save.b) L.e(O::s_mov_b64, {detail::exec_op(), detail::reg_op(lp.save)});
  // The exit gives back EXEC at the entry less the lanes that returned inside.
  exec_may_be_empty_ = exec_may_be_empty_at_entry || returns_ != returns_at_entry;
}

template <dtype T, class F>
constexpr void builder::For(gpr<T> i, const std::type_identity_t<val<T>>& begin,
                            const std::type_identity_t<val<T>>& end, F&& body, int step,
                            std::source_location l) {
  HIPASM_DTYPE_ASSERT(is_int32(T), T, "For(i, begin, end, body) needs a u32 or i32 counter");
  // local copies: lambdas must not capture reference parameters (bytecode interpreter)
  val<T> b0 = begin, e = end;
  int st = step;
  For([&] { i = b0; },
      [&] {
        if (st >= 0) return i < e;
        return i > e;
      },
      [&] { i += val<T>(st, l); }, static_cast<F&&>(body), l);
}

// ---- Break / Continue / Return ------------------------------------------------------------
// A uniform loop's EXEC at its entry, saved at its first per-lane exit (appended to the block
// that falls into its head, which has ended: no expression record or If points there) and
// restored at its exit; the loop then also leaves when EXEC empties (lane_exit).
constexpr void builder::loop_lane_save(detail::loop_ctx& lp, src_loc l) {
  if (lp.vector) return;
  lp.lane_exit = true;
  if (lp.save.b) return;
  lp.save = new_reg(reg_class::sgpr, 2, 2, l);
  instr& sv = edit_instrs(lp.entry_block).emplace_back();
  sv.op = static_cast<uint16_t>(O::s_mov_b64);
  sv.num_operands = 2;
  sv.ops[0] = detail::reg_op(lp.save);
  sv.ops[1] = detail::exec_op();
  sv.loc = l;
}

// Where lanes that stopped under per-lane control flow wait for the others: the join of the
// innermost per-lane If of the innermost loop, else that loop's continue point.
constexpr uint32_t builder::lane_exit_target() const {
  if (!div_stack_.empty() && (loops_.empty() || div_stack_.size() > loops_.back().div_depth))
    return div_stack_.back().join;
  return loops_.back().cont;
}

constexpr uint32_t builder::end_label() {
  if (end_label_ < 0) end_label_ = static_cast<int32_t>(make_label("hipasm_end").id);
  return static_cast<uint32_t>(end_label_);
}

// Leaves the innermost loop (the lanes executing it, under per-lane control flow).
constexpr void builder::Break(std::source_location loc) {
  src_loc l = to_src_loc(loc);
  note_loc(l);
  detail::open_scope whole_wave{wave_uniform_};  // (it writes the saved masks of the Ifs and loops it leaves)
  if (loops_.empty()) {
    fail(l, "Break outside a loop");
    return;
  }
  detail::loop_ctx& lp = loops_.back();
  detail::lower L{*this, l};
  if (div_stack_.size() == lp.div_depth) {
    if (!lp.cont_mask.b) {
      emit_raw(O::s_branch, {detail::label_op(lp.exit)}, l);  // every lane of the loop leaves
      return;
    }
    // Lanes parked by a per-lane Continue earlier in this iteration go on with the next one;
    // the active lanes stay parked in the loop's save until its exit.
    loop_lane_save(lp, l);
    L.e(O::s_mov_b64, {detail::exec_op(), detail::reg_op(lp.cont_mask)});
    emit_raw(O::s_cbranch_execz, {detail::label_op(lp.exit)}, l);
    emit_raw(O::s_branch, {detail::label_op(lp.cont)}, l);
    return;
  }
  for (uint32_t i = lp.div_depth; i < div_stack_.size(); ++i) {
    operand s = detail::reg_op(div_stack_[i].save);
    L.e(O::s_andn2_b64, {s, s, detail::exec_op()});
    div_stack_[i].lanes_left = true;
  }
  loop_lane_save(lp, l);
  lp.parks = true;
  L.e(O::s_mov_b64, {detail::exec_op(), detail::imm_op(0)});
  emit_raw(O::s_branch, {detail::label_op(div_stack_.back().join)}, l);
}

// Goes to the next iteration of the innermost loop.
constexpr void builder::Continue(std::source_location loc) {
  src_loc l = to_src_loc(loc);
  note_loc(l);
  detail::open_scope whole_wave{wave_uniform_};  // (it writes the saved masks of the Ifs and loops it leaves)
  if (loops_.empty()) {
    fail(l, "Continue outside a loop");
    return;
  }
  detail::loop_ctx& lp = loops_.back();
  detail::lower L{*this, l};
  if (div_stack_.size() == lp.div_depth) {
    emit_raw(O::s_branch, {detail::label_op(lp.cont)}, l);
    return;
  }
  if (!lp.cont_mask.b) {
    // Lanes that continue this iteration: cleared at the top of every iteration.
    lp.cont_mask = L.tmp(reg_class::sgpr, 2);
    instr z;
    z.op = static_cast<uint16_t>(O::s_mov_b64);
    z.num_operands = 2;
    z.ops[0] = detail::reg_op(lp.cont_mask);
    z.ops[1] = detail::imm_op(0);
    z.loc = l;
    // insert at the front, element by element (std::vector::insert trips clang's bytecode
    // interpreter: "memcpy between overlapping memory regions")
    auto& ins = edit_instrs(lp.body_block);
    ins.push_back(z);
    for (std::size_t i = ins.size() - 1; i > 0; --i) {
      instr t = ins[i - 1];  // through a local: element-to-element copies trip the same check
      ins[i] = t;
    }
    ins[0] = z;
    if (last_expr_.block == lp.body_block) last_expr_ = {};
    for (if_state& s : ifs_)
      if (s.join_block == lp.body_block) s.instrs_at_join += 1;
  }
  operand cm = detail::reg_op(lp.cont_mask);
  L.e(O::s_or_b64, {cm, cm, detail::exec_op()});
  for (uint32_t i = lp.div_depth; i < div_stack_.size(); ++i) {
    operand s = detail::reg_op(div_stack_[i].save);
    L.e(O::s_andn2_b64, {s, s, detail::exec_op()});
    div_stack_[i].lanes_left = true;
  }
  loop_lane_save(lp, l);
  lp.parks = true;
  L.e(O::s_mov_b64, {detail::exec_op(), detail::imm_op(0)});
  emit_raw(O::s_branch, {detail::label_op(div_stack_.back().join)}, l);
}

// The lanes executing it stop for the rest of the kernel (see the top of this file).
constexpr void builder::Return(std::source_location loc) {
  src_loc l = to_src_loc(loc);
  note_loc(l);
  detail::open_scope whole_wave{wave_uniform_};  // (it writes the saved masks of the Ifs and loops it leaves)
  if (err.failed) return;
  if (div_stack_.empty() && loops_.empty()) {
    emit_raw(O::s_endpgm, {}, l);  // every lane of the wave is active: the wave ends
    return;
  }
  detail::lower L{*this, l};
  ++returns_;
  for (detail::loop_ctx& lp : loops_) loop_lane_save(lp, l);
  // Remove the lanes from every mask that would give them back, the outermost last.
  const bool loop_outermost = !loops_.empty() && loops_[0].div_depth == 0;
  for (uint32_t i = static_cast<uint32_t>(div_stack_.size()); i-- > (loop_outermost ? 0u : 1u);) {
    operand s = detail::reg_op(div_stack_[i].save);
    L.e(O::s_andn2_b64, {s, s, detail::exec_op()});
  }
  for (detail::divergent_ctx& d : div_stack_) d.lanes_left = true;
  for (uint32_t i = static_cast<uint32_t>(loops_.size()); i-- > (loop_outermost ? 1u : 0u);) {
    operand s = detail::reg_op(loops_[i].save);
    L.e(O::s_andn2_b64, {s, s, detail::exec_op()});
  }
  operand outer = detail::reg_op(loop_outermost ? loops_[0].save : div_stack_[0].save);
  L.e(O::s_andn2_b64, {outer, outer, detail::exec_op()});
  // The outermost mask holds every lane the wave has left: none (SCC = 0) ends the wave.
  emit_raw(O::s_cbranch_scc0, {detail::label_op(end_label())}, l);
  L.e(O::s_mov_b64, {detail::exec_op(), detail::imm_op(0)});
  emit_raw(O::s_branch, {detail::label_op(lane_exit_target())}, l);
}

// ---- skipping code no lane runs (kernel_options::skip_idle_code) ---------------------------------
// A per-lane If whose branch removed lanes (Break/Continue/Return) may leave EXEC empty at its
// join; the code from there to where lanes come back (the enclosing per-lane If's join or the
// loop's continue point: lane_exit_target) then runs for no lane. The join is offered as a
// candidate to that point's owner (its restore ends its block); when the owner places its
// label, `s_cbranch_execz` to it is appended to the join's block if every instruction it would
// skip does nothing with EXEC empty (idle_without_lanes), and there is at least one. Scalar
// code (SALU, SMEM, barriers, messages, branches of nested flow) runs whatever EXEC is, so it
// keeps the fall-through; so do VALU instructions that write SGPRs, VCC, EXEC, SCC or M0
// (compares, readlane, carries) or ignore EXEC (writelane, permlane, MFMA).
namespace detail {
constexpr bool idle_without_lanes(const instr& in) {
  const isa::instr_desc& d = op_desc(static_cast<O>(in.op));
  if (in.op == static_cast<uint16_t>(O::s_waitcnt) || in.op == static_cast<uint16_t>(O::s_nop)) return true;
  constexpr uint64_t lane_masked = isa::f_valu | isa::f_vmem | isa::f_ds | isa::f_flat;
  constexpr uint64_t other = isa::f_salu | isa::f_smem | isa::f_side_effect | isa::f_barrier | isa::f_branch |
                             isa::f_terminator | isa::f_writes_exec | isa::f_writes_vcc | isa::f_writes_scc |
                             isa::f_writes_m0 | isa::f_cmpx | isa::f_mfma | isa::f_readlane | isa::f_permlane |
                             isa::f_needs_gds;
  if (!(d.flags & lane_masked) || (d.flags & other)) return false;
  if (in.mods.unpack().gds) return false;
  for (int i = 0; i < in.num_operands; ++i) {
    const auto r = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
    if (r == isa::operand_role::use) continue;
    const operand& o = in.ops[i];
    if (o.k == operand::kind::special || (o.is_reg() && o.cls == reg_class::sgpr)) return false;
  }
  return true;
}
}  // namespace detail

// The slot of the point where lanes stopped at this place come back (see lane_exit_target),
// or null at the top level.
constexpr int32_t* builder::skip_owner() {
  if (!div_stack_.empty() && (loops_.empty() || div_stack_.size() > loops_.back().div_depth))
    return &div_stack_.back().skip_block;
  if (!loops_.empty()) return &loops_.back().skip_block;
  return nullptr;
}

// Offers the If's join (the current block, ending with its EXEC restore) as a skip candidate.
constexpr void builder::offer_skip(if_state& st) {
  if (!options().skip_idle_code || err.failed) return;
  int32_t* owner = skip_owner();
  if (!owner) return;
  *owner = static_cast<int32_t>(cur_block());  // (an earlier candidate would skip this If's scalar code)
  st.skip_block = *owner;
  start_block();
  st.join_block = cur_block();
  st.instrs_at_join = cur_index();
  st.blocks_at_join = static_cast<uint32_t>(fn.blocks.size());
}

// At the owner's label: the candidate's s_cbranch_execz when the code it skips is idle.
constexpr void builder::resolve_skip(int32_t& slot, uint32_t target, src_loc l) {
  if (slot < 0) return;
  const uint32_t from = static_cast<uint32_t>(slot);
  slot = -1;
  bool any = false;
  for (uint32_t b = from + 1; b < fn.blocks.size(); ++b) {
    const vec<instr>& list = fn.blocks[b].instrs;
    const instr* const ins = list.data();
    for (std::size_t i = 0, n = list.size(); i < n; ++i) {
      if (!detail::idle_without_lanes(ins[i])) return;
      any = true;
    }
  }
  if (!any) return;
  instr& br = edit_instrs(from).emplace_back();
  br.op = static_cast<uint16_t>(O::s_cbranch_execz);
  br.num_operands = 1;
  br.ops[0] = detail::label_op(target);
  br.loc = l;
}

// ---- hand-written flow inside per-lane regions ------------------------------------------------
constexpr void builder::note_user_flow(target_op op, const instr& in, src_loc l) {
  if (op == O::s_call_b64 || op == O::s_swappc_b64) return;  // they come back
  detail::flow_check c;
  c.region = cur_region_;
  c.op = static_cast<uint16_t>(op);
  c.loc = l;
  for (uint32_t j = 0; j < in.num_operands; ++j)
    if (in.ops[j].k == operand::kind::label) c.label = static_cast<int32_t>(in.ops[j].value);
  if (c.label < 0 && cur_region_ == 0) return;  // s_endpgm / s_setpc_b64 at the top level
  if (c.label < 0) check_user_flow(c);          // already known to be per-lane: say so now
  flow_checks_.push_back(c);                    // uniform loops are known at their end
}

constexpr void builder::check_user_flow(const detail::flow_check& c) {
  std::string_view name = detail::op_desc(static_cast<target_op>(c.op)).name;
  if (c.label < 0) {
    if (!in_per_lane_region(c.region)) return;
    O op = static_cast<O>(c.op);
    if (op == O::s_endpgm || op == O::s_endpgm_saved || op == O::s_endpgm_ordered_ps_done)
      fail(c.loc, name, " inside a per-lane If/loop (EXEC holds only some of the wave's lanes) "
                  "would end the whole wave: use J.Return() to stop only these lanes");
    else
      fail(c.loc, name, " inside a per-lane If/loop (EXEC holds only some of the wave's lanes) "
                  "jumps out without restoring the others");
    return;
  }
  const detail::label_info& li = labels_[static_cast<uint32_t>(c.label)];
  if (li.block < 0) return;  // never placed: resolve_cfg reports it
  auto contains = [&](uint32_t outer, uint32_t r) {
    for (;; r = regions_[r].parent) {
      if (r == outer) return true;
      if (r == 0) return false;
    }
  };
  uint32_t common = c.region;
  while (!contains(common, li.region)) common = regions_[common].parent;
  bool leaves = false, enters = false;
  for (uint32_t r = c.region; r != common; r = regions_[r].parent) leaves |= regions_[r].per_lane;
  for (uint32_t r = li.region; r != common; r = regions_[r].parent) enters |= regions_[r].per_lane;
  if (leaves || enters)
    fail(c.loc, name, " to label '", li.name.empty() ? std::string_view("<unnamed>") : li.name, "' (made at ",
         li.loc, ") ", leaves ? "leaves" : "enters",
         " a per-lane If/loop without its EXEC save/restore: use Break/Continue/Return, or a label "
         "inside the same branch");
}

// ---- whole-wave effects inside per-lane regions (see builder::wave_uniform) ---------------------
// The outermost per-lane region around the current point that is deeper than `depth`: the If,
// Else or loop the lanes that skip it leave.
constexpr const detail::lane_region& builder::lane_region_below(uint32_t depth) const {
  uint32_t found = cur_region_;
  for (uint32_t r = cur_region_; r != 0; r = regions_[r].parent)
    if (regions_[r].lane_depth > depth && regions_[r].lane_depth > regions_[regions_[r].parent].lane_depth) found = r;
  return regions_[found];
}

namespace detail {
constexpr std::string_view region_name(lane_region::kind k) {
  switch (k) {
    case lane_region::kind::else_body: return "Else";
    case lane_region::kind::loop: return "loop";
    case lane_region::kind::masked: return "with_exec_mask";
    default: return "If";
  }
}
}  // namespace detail

// Called for each instruction emitted inside a per-lane region outside J.wave_uniform.
constexpr void builder::check_wave_scope(const instr& in, src_loc l) {
  if (in.op == static_cast<uint16_t>(O::s_barrier)) {
    const detail::lane_region& r = lane_region_below(0);
    fail(l, "s_barrier inside the per-lane ", detail::region_name(r.what), " at ", r.loc,
         ": a wave whose lanes all skip it does not reach the barrier (a hang, or a barrier paired with "
         "another one); move it out, or wrap it in J.wave_uniform([&] { ... }) if every wave reaches it");
    return;
  }
  const isa::instr_desc& d = detail::op_desc(static_cast<O>(in.op));
  const vreg_info* const vregs = fn.vregs.data();
  for (uint32_t j = 0; j < in.num_operands && j < d.num_operands; ++j) {
    const operand& o = in.ops[j];
    if (d.operands[j].role == isa::operand_role::use || o.k != operand::kind::vreg || o.cls != reg_class::sgpr)
      continue;
    if (vregs[o.value].lane_depth < lane_depth_) return wave_write_error(static_cast<uint32_t>(o.value), d.name, l);
  }
}

constexpr void builder::wave_write_error(uint32_t id, std::string_view what, src_loc l) {
  const vreg_info& v = fn.vregs[id];
  const detail::lane_region& r = lane_region_below(v.lane_depth);
  const std::string_view rn = detail::region_name(r.what);
  const std::string_view why =
      ": an SGPR holds one value for the whole wave and is written whatever EXEC holds, so the lanes that "
      "skipped it see the write too; declare the register inside, or wrap the write in "
      "J.wave_uniform([&] { ... }) if every lane is meant to see it";
  if (!v.name.empty())
    fail(l, what, " writes SGPR '", v.name, "' (declared at ", v.loc, ") inside the per-lane ", rn, " at ", r.loc,
         why);
  else
    fail(l, what, " writes the SGPR declared at ", v.loc, " inside the per-lane ", rn, " at ", r.loc, why);
}

}  // namespace hipasm
