// Defs that keep part of their destination and defs under a partial EXEC, at the IR level:
// which instructions and modifiers merge into the old value (DCE must keep that value, CSE
// must not reuse the result), which EXEC writes only remove lanes, and the liveness of a
// lane-masked def in a loop (a temporary stays inside the iteration; a value some lanes may
// read after an EXEC write that enables lanes stays live around the loop).
#include <catch2/catch.hpp>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
// t = 7 (v_mov), then v_mov t, tid with `mods`, then t is stored: whether DCE keeps
// the v_mov (full EXEC: the entry state; all 64 lanes only when the kernel declares full
// waves, builder::workgroup_size).
template <class F>
bool dce_keeps_old_value(F&& mods, bool full_waves = false) {
  kb k("merge");
  k.fn.full_waves = full_waves;
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto t = k.v(1, "t");
  k.op(0, "v_mov_b32", {R(t), I(7)});
  edit_modifiers(k.op(0, "v_mov_b32", {R(t), R(tid)}), mods);
  k.op(0, "global_store_dword", {R(tid), R(t), R(out)});
  k.op(0, "s_endpgm", {});
  function fn = k.fn;
  eliminate_dead_code(fn, k.isa);
  for (const instr& in : fn.blocks[0].instrs)
    if (in.num_operands == 2 && in.ops[1].k == operand::kind::imm) return true;  // t = 7 is still there
  return false;
}
}  // namespace

TEST_CASE("partial defs: DPP masks, a missing bound_ctrl and SDWA preserve keep the old value alive") {
  // row_mask / bank_mask other than 0xf
  CHECK(dce_keeps_old_value([](modifiers& m) {
    m.dpp.ctrl = 0x111;
    m.dpp.row_mask = 0x1;
    m.dpp.bound_ctrl = true;
  }));
  CHECK(dce_keeps_old_value([](modifiers& m) {
    m.dpp.ctrl = 0xe4;  // quad_perm:[0,1,2,3]
    m.dpp.bank_mask = 0x7;
    m.dpp.bound_ctrl = true;
  }));
  // bound_ctrl off with a control that leaves lanes without a source
  for (uint16_t ctrl : {uint16_t(0x101), uint16_t(0x11f), uint16_t(0x130), uint16_t(0x138), uint16_t(0x142),
                        uint16_t(0x143)})
    CHECK(dce_keeps_old_value([&](modifiers& m) { m.dpp.ctrl = ctrl; }));
  // SDWA: UNUSED_PRESERVE with a partial dst_sel
  for (uint8_t sel = 0; sel < 6; ++sel)
    CHECK(dce_keeps_old_value([&](modifiers& m) {
      m.sdwa.on = true;
      m.sdwa.dst_sel = sel;
      m.sdwa.dst_unused = 2;
    }));
}

TEST_CASE("partial defs: full writes still end the old value") {
  // bound_ctrl on, full masks: every lane is written (out-of-range sources read 0)
  CHECK_FALSE(dce_keeps_old_value([](modifiers& m) {
    m.dpp.ctrl = 0x111;
    m.dpp.bound_ctrl = true;
  }));
  // bound_ctrl off, and every lane has a source in a full wave: the old value ends where the
  // kernel declares full waves; otherwise the entry's EXEC may be a partial last wave, whose
  // lanes with a source past its end keep it
  for (uint16_t ctrl : {uint16_t(0x1b), uint16_t(0x121), uint16_t(0x134), uint16_t(0x13c), uint16_t(0x140),
                        uint16_t(0x141)}) {
    CHECK_FALSE(dce_keeps_old_value([&](modifiers& m) { m.dpp.ctrl = ctrl; }, true));
    CHECK(dce_keeps_old_value([&](modifiers& m) { m.dpp.ctrl = ctrl; }));
  }
  // SDWA without preserve, or DWORD
  CHECK_FALSE(dce_keeps_old_value([](modifiers& m) {
    m.sdwa.on = true;
    m.sdwa.dst_sel = 4;
    m.sdwa.dst_unused = 0;
  }));
  CHECK_FALSE(dce_keeps_old_value([](modifiers& m) {
    m.sdwa.on = true;
    m.sdwa.dst_sel = 6;
    m.sdwa.dst_unused = 2;
  }));
}

TEST_CASE("partial defs: accumulating and half-writing instructions read their destination") {
  // (the table's roles: LLVM ties v_dot*c / v_pk_fmac's vdst to a source, and the fp8/bf8
  // converts, the mix forms and v_madak/madmk_f16 keep part of vdst)
  for (std::string_view name : {"v_dot2c_f32_f16", "v_dot2c_i32_i16", "v_dot4c_i32_i8", "v_dot8c_i32_i4",
                                "v_pk_fmac_f16", "v_cvt_pk_fp8_f32", "v_cvt_sr_bf8_f32", "v_fma_mixlo_f16",
                                "v_fma_mixhi_f16", "v_madak_f16", "v_fmac_f32", "v_writelane_b32"}) {
    INFO(name);
    const isa::instr_desc* d = gfx942.find(name);
    REQUIRE(d);
    CHECK(d->operands[0].role == isa::operand_role::def_use);
  }
  // op_sel on the destination of a 16-bit VOP3 op writes the high half only
  const isa::instr_desc* pack = gfx942.find("v_pack_b32_f16");
  REQUIRE(pack);
  modifiers m;
  m.op_sel = static_cast<uint8_t>(1u << (pack->op_sel_len - 1));
  CHECK(detail::vector_dst_write(*pack, m) == detail::dst_write::merges);
  m.op_sel = 1;  // a source half only
  CHECK(detail::vector_dst_write(*pack, m) == detail::dst_write::full);
  m.op_sel = 0xff;  // the unset default: emit prints no op_sel, the whole dword is written
  CHECK(detail::vector_dst_write(*pack, m) == detail::dst_write::full);
}

TEST_CASE("partial defs: an op_sel dst-high write merges exactly when the hazard pass calls it partial") {
  // Both read op_sel_writes_dst_high (common.hpp); every VOP3 opcode with op_sel entries.
  int checked = 0;
  for (const isa::instr_desc& d : isa::gfx942_instrs) {
    if (d.enc != isa::encoding::vop3 || d.op_sel_len == 0 || !d.accepts(isa::m_op_sel)) continue;
    const uint8_t dst_high = static_cast<uint8_t>(1u << (d.op_sel_len - 1));
    for (uint8_t sel : {uint8_t{0}, uint8_t{1}, dst_high, static_cast<uint8_t>(dst_high | 1), uint8_t{0xff}}) {
      modifiers m;
      m.op_sel = sel;
      const packed_modifiers pm(m);
      INFO(d.name << " op_sel " << int(sel));
      const bool merges = detail::vector_dst_write(d, pm) == detail::dst_write::merges;
      const bool partial = (detail::modifier_hazard_kind(d, pm) & detail::hk_partial_dst) != 0;
      CHECK(merges == partial);
      CHECK(merges == (sel != 0xff && (sel & dst_high) != 0));
      ++checked;
    }
  }
  CHECK(checked > 50);
}

TEST_CASE("partial defs: CSE does not reuse a result that merged into its destination") {
  kb k("cse");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(1, "a"), b = k.v(1, "b");
  for (auto t : {a, b}) {
    edit_modifiers(k.op(0, "v_mov_b32", {R(t), R(tid)}), [](modifiers& m) {
      m.sdwa.on = true;
      m.sdwa.dst_sel = 1;
      m.sdwa.dst_unused = 2;
    });
  }
  k.op(0, "global_store_dword", {R(tid), R(a), R(out)});
  k.op(0, "global_store_dword", {R(tid), R(b), R(out)}).mods.offset = 4;
  function fn = k.fn;
  CHECK_FALSE(eliminate_common_subexpressions(fn, k.isa));
  CHECK(count(fn, "v_mov_b32") == 2);
}

TEST_CASE("partial defs: which EXEC writes only remove lanes") {
  kb k("exec");
  auto m = k.s(2, "m");
  auto save = k.s(2, "save");
  auto x = k.v(1, "x");
  struct want {
    std::string_view name;
    std::initializer_list<operand> ops;
    bool removes_only;
  };
  const operand exec = SP(special_reg::exec);
  const want cases[] = {
      {"s_and_saveexec_b64", {R(save), R(m)}, true},
      {"s_andn1_saveexec_b64", {R(save), R(m)}, true},
      {"s_andn2_saveexec_b64", {R(save), R(m)}, false},  // EXEC = m & ~EXEC
      {"s_or_saveexec_b64", {R(save), R(m)}, false},
      {"s_and_b64", {exec, exec, R(m)}, true},
      {"s_and_b64", {exec, R(m), exec}, true},
      {"s_and_b64", {exec, R(save), R(m)}, false},
      {"s_andn2_b64", {exec, exec, R(m)}, true},
      {"s_andn2_b64", {exec, R(save), R(m)}, false},  // an Else
      {"s_mov_b64", {exec, I(0)}, true},
      {"s_mov_b64", {exec, R(save)}, false},  // a join
      {"s_or_b64", {exec, exec, R(m)}, false},
      {"v_cmpx_lt_u32", {SP(special_reg::vcc), I(3), R(x)}, true},
  };
  for (const want& w : cases) {
    INFO(w.name);
    const instr& in = k.op(0, w.name, w.ops);
    CHECK(detail::exec_write_only_removes_lanes(target_isa()[in.op], in) == w.removes_only);
  }
}

namespace {
// entry -> header (EXEC &= m) -> body -> latch -> header | exit. The body defines t under the
// loop's EXEC and reads it (the def reaches itself around the back-edge); `widen_in_latch` re-enables lanes (EXEC |= m) before the back-edge
// and `read_in_latch` reads t there. Returns t's interval and the body's first position.
struct loop_result {
  uint32_t t_start, t_end, body_start, body_end;
};
loop_result lane_loop(bool widen_in_latch, bool read_in_latch) {
  kb k("loop");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto m = k.s(2, "m");
  auto t = k.v(1, "t");
  auto acc = k.v(1, "acc");
  const uint32_t header = k.block(), body = k.block(), latch = k.block(), exit = k.block();
  k.edge(0, header);
  k.edge(header, body);
  k.edge(header, exit);
  k.edge(body, latch);
  k.edge(latch, header);
  k.op(0, "v_mov_b32", {R(acc), I(0)});
  k.op(header, "v_cmp_gt_u32", {R(m), R(tid), R(acc)});
  k.op(header, "s_and_b64", {SP(special_reg::exec), SP(special_reg::exec), R(m)});
  k.op(header, "s_cbranch_execz", {L(exit)});
  k.op(body, "v_add_u32", {R(t), R(acc), R(tid)});
  k.op(body, "v_add_u32", {R(acc), R(acc), R(t)});
  if (widen_in_latch) k.op(latch, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(m)});
  if (read_in_latch) k.op(latch, "v_add_u32", {R(acc), R(acc), R(t)});
  k.op(latch, "s_branch", {L(header)});
  k.op(exit, "s_mov_b64", {SP(special_reg::exec), I(-1)});
  k.op(exit, "global_store_dword", {R(tid), R(acc), R(out)});
  k.op(exit, "s_endpgm", {});
  const liveness_info L = compute_liveness(k.fn, k.isa);
  return {L.vstart[t], L.vend[t], L.pos.start[body], L.pos.start[latch + 1] - 1};
}
}  // namespace

TEST_CASE("partial defs: a temporary of a per-lane loop lives inside the iteration") {
  const auto r = lane_loop(false, false);
  CHECK(r.t_start >= r.body_start);
  CHECK(r.t_end <= r.body_end);
  // read after the back-edge's EXEC only lost lanes: still inside the iteration
  const auto r2 = lane_loop(false, true);
  CHECK(r2.t_start >= r2.body_start);
}

TEST_CASE("partial defs: a value read after lanes are enabled again stays live around the loop") {
  // EXEC |= m before the read: lanes the def skipped read the value of an earlier iteration
  const auto r = lane_loop(true, true);
  CHECK(r.t_start < r.body_start);
  CHECK(r.t_end >= r.body_end);
}

namespace {
// entry -> header -> body -> header | exit, with t accessed in `body` alone (a one-block vreg:
// liveness leaves those out of its per-block sets when no path enters the block with them
// live). `read_first`: body reads t before defining it (the previous iteration's value, and
// an undefined one on the first). `widen`: body defines t under the loop's partial EXEC,
// enables lanes again (EXEC |= m) and then reads t; the def reaches itself around the
// back-edge, so it does not end the old value, which the re-enabled lanes read.
loop_result one_block_loop(bool read_first, bool widen, liveness_sets sets) {
  kb k("one_block");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto m = k.s(2, "m");
  auto t = k.v(1, "t");
  auto acc = k.v(1, "acc");
  const uint32_t header = k.block(), body = k.block(), exit = k.block();
  k.edge(0, header);
  k.edge(header, body);
  k.edge(header, exit);
  k.edge(body, header);
  k.op(0, "v_mov_b32", {R(acc), I(0)});
  k.op(header, "v_cmp_gt_u32", {R(m), R(tid), R(acc)});
  k.op(header, "s_and_b64", {SP(special_reg::exec), SP(special_reg::exec), R(m)});
  k.op(header, "s_cbranch_execz", {L(exit)});
  if (read_first) k.op(body, "v_add_u32", {R(acc), R(acc), R(t)});
  k.op(body, "v_add_u32", {R(t), R(acc), R(tid)});
  if (widen) k.op(body, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(m)});
  k.op(body, "v_add_u32", {R(acc), R(acc), R(t)});
  k.op(body, "s_branch", {L(header)});
  k.op(exit, "s_mov_b64", {SP(special_reg::exec), I(-1)});
  k.op(exit, "global_store_dword", {R(tid), R(acc), R(out)});
  k.op(exit, "s_endpgm", {});
  const liveness_info L = compute_liveness(k.fn, k.isa, nullptr, sets);
  return {L.vstart[t], L.vend[t], L.pos.start[body], L.pos.start[body + 1] - 1};
}
}  // namespace

TEST_CASE("partial defs: a vreg of one loop block that is read before its def lives around the loop") {
  for (liveness_sets sets : {liveness_sets::all_slots, liveness_sets::boundary_slots}) {
    INFO("sets " << int(sets));
    const auto r = one_block_loop(true, false, sets);
    CHECK(r.t_start < r.body_start);  // live from the entry (undefined there) through the loop
    CHECK(r.t_end == r.body_end);     // and out of the body to the next iteration
    const auto plain = one_block_loop(false, false, sets);  // defined first: inside its block
    CHECK(plain.t_start >= plain.body_start);
    CHECK(plain.t_end < plain.body_end);
  }
}

TEST_CASE("partial defs: a one-block def in a loop under a partial EXEC does not end a value read after EXEC widens") {
  for (liveness_sets sets : {liveness_sets::all_slots, liveness_sets::boundary_slots}) {
    INFO("sets " << int(sets));
    const auto r = one_block_loop(false, true, sets);
    CHECK(r.t_start < r.body_start);
    CHECK(r.t_end == r.body_end);
  }
}
