// The optimisation and checking passes one by one: remove-unreachable, a2v, CSE, DSE, DCE
// (EXEC-aware, never touching side effects, carry-outs are defs), split-registers and the
// explicit s_waitcnt check.
#include <catch2/catch.hpp>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
std::size_t total(const function& fn) {
  std::size_t n = 0;
  for (const auto& b : fn.blocks) n += b.instrs.size();
  return n;
}
}  // namespace

TEST_CASE("remove-unreachable: dead blocks go, successors and labels are renumbered") {
  kb k("unreach");
  const uint32_t dead = k.block(), live = k.block();
  k.edge(0, live);
  k.edge(dead, live);
  k.op(0, "s_branch", {L(live)});
  k.op(dead, "s_nop", {I(0)});
  k.op(live, "s_endpgm", {});
  function fn = k.fn;
  remove_unreachable_blocks(fn);
  REQUIRE(fn.blocks.size() == 2);
  CHECK(fn.blocks[0].succs == hipasm::vec<uint32_t>{1});
  CHECK(fn.blocks[0].instrs[0].ops[0].value == 1);
  CHECK(to_text(fn).find("s_branch .Lunreach_bb1") != std::string::npos);
}

TEST_CASE("a2v: AGPR sources of instructions that cannot read AGPRs are copied, modifiers kept") {
  kb k("a2v");
  auto acc = k.a(2, "acc");
  auto x = k.v(1, "x");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  k.op(0, "v_accvgpr_write_b32", {R(acc, 0, 1), I(1)});
  k.op(0, "v_accvgpr_write_b32", {R(acc, 1, 1), I(2)});
  k.op(0, "v_add_f32", {R(x), NEG(R(acc, 1, 1)), R(tid)});
  k.op(0, "global_store_dwordx2", {R(tid), R(acc), R(out)});  // stores may read AGPRs
  k.op(0, "global_store_dword", {R(tid), R(x), R(out)}).mods.offset = 8;
  function fn = k.fn;
  pass_error err;
  REQUIRE(agpr_to_vgpr(fn, k.isa, err));
  CHECK(count(fn, "v_accvgpr_read_b32") == 1);
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn);
  INFO(text);
  CHECK(assemble_errors(text, "a2v") == "");
  CHECK(text.find("v_add_f32 v") != std::string::npos);
  CHECK(text.find(", -v") != std::string::npos);  // neg kept on the copied source
  CHECK(text.find("global_store_dwordx2 v0, a[") != std::string::npos);
}

TEST_CASE("cse: identical computations merge; carry-outs, EXEC changes and side effects do not") {
  kb k("cse");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(1, "a"), b = k.v(1, "b");
  auto c = k.v(1, "c"), d = k.v(1, "d");
  auto e = k.v(1, "e"), f = k.v(1, "f");
  auto save = k.s(2, "save");
  k.op(0, "v_add_u32", {R(a), I(5), R(tid)});
  k.op(0, "v_add_u32", {R(b), I(5), R(tid)});  // same as a
  k.op(0, "v_add_co_u32", {R(c), SP(special_reg::vcc), R(tid), R(tid)});
  k.op(0, "v_add_co_u32", {R(d), SP(special_reg::vcc), R(tid), R(tid)});  // carry-out: kept
  k.op(0, "v_mul_lo_u32", {R(e), R(tid), R(tid)});
  k.op(0, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(3)});
  k.op(0, "s_and_saveexec_b64", {R(save), SP(special_reg::vcc)});
  k.op(0, "v_mul_lo_u32", {R(f), R(tid), R(tid)});  // other EXEC: kept
  k.op(0, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(save)});
  for (auto v : {a, b, c, d, e, f}) k.op(0, "global_store_dword", {R(tid), R(v), R(out)}).mods.offset = static_cast<int>(4 * v);
  function fn = k.fn;
  CHECK(eliminate_common_subexpressions(fn, k.isa));
  CHECK(count(fn, "v_add_u32") == 1);
  CHECK(count(fn, "v_add_co_u32") == 2);
  CHECK(count(fn, "v_mul_lo_u32") == 2);
  CHECK(count(fn, "global_store_dword") == 6);
  // b's store now reads a.
  const auto& stores = fn.blocks[0].instrs;
  std::size_t merged_reads = 0;
  for (const auto& in : stores)
    if (target_isa()[in.op].name == "global_store_dword" && in.ops[1].value == a) ++merged_reads;
  CHECK(merged_reads == 2);
}

TEST_CASE("dce: dead results go; stores, returning atomics, SCC feeding a branch stay") {
  kb k("dce");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto dead = k.v(1, "dead"), old = k.v(1, "old"), live = k.v(1, "live");
  auto s = k.s(1, "s");
  const uint32_t next = k.block();
  k.edge(0, next);
  k.edge(0, next);
  k.op(0, "v_mul_lo_u32", {R(dead), R(tid), R(tid)});  // never read
  k.op(0, isa::gfx942_op::global_atomic_add_rtn, {R(old), R(tid), R(tid), R(out)});  // result unused
  k.op(0, "v_add_u32", {R(live), I(1), R(tid)});
  k.op(0, "s_mov_b32", {R(s), I(3)});
  k.op(0, "s_cmp_eq_u32", {R(s), I(3)});  // SCC read by the branch
  k.op(0, "s_cbranch_scc1", {L(next)});
  k.op(next, "global_store_dword", {R(tid), R(live), R(out)});
  function fn = k.fn;
  CHECK(eliminate_dead_code(fn, k.isa));
  CHECK(count(fn, "v_mul_lo_u32") == 0);
  CHECK(count(fn, "global_atomic_add") == 1);
  CHECK(count(fn, "s_cmp_eq_u32") == 1);
  CHECK(count(fn, "s_mov_b32") == 1);
  CHECK(count(fn, "v_add_u32") == 1);
  CHECK(count(fn, "global_store_dword") == 1);
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  const std::string text = to_text(st.fn);
  INFO(text);
  CHECK(text.find("global_atomic_add v") != std::string::npos);
  CHECK(text.find(" sc0") != std::string::npos);  // the returning form
  CHECK(assemble_errors(text, "dce") == "");
}

TEST_CASE("dce: unread chains across blocks and SCC written again in the block go before its liveness") {
  // A value read only by a dead instruction of a later block, and a SALU result whose SCC the
  // next compare writes again: both go in the sweep that needs no liveness, so the liveness dce
  // then computes finds nothing more and is handed on for the allocator.
  kb k("dce_unread");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.v(1, "a"), b = k.v(1, "b"), live = k.v(1, "live");
  auto s = k.s(1, "s"), t = k.s(1, "t");
  const uint32_t next = k.block();
  k.edge(0, next);
  k.op(0, "v_mul_lo_u32", {R(a), R(tid), R(tid)});  // read only by the dead add in `next`
  k.op(0, "s_add_u32", {R(s), R(t), I(1)});        // s unread, SCC written by the compare
  k.op(0, "s_cmp_eq_u32", {R(t), I(3)});
  k.op(0, "s_cbranch_scc1", {L(next)});
  k.op(next, "v_add_u32", {R(b), R(a), R(tid)});  // never read
  k.op(next, "v_add_u32", {R(live), I(1), R(tid)});
  k.op(next, "global_store_dword", {R(tid), R(live), R(out)});
  function fn = k.fn;
  vec<liveness_info> handed;
  vec<detail::access_table> table_after;
  CHECK(eliminate_dead_code(fn, k.isa, &handed, nullptr, &table_after));
  CHECK(count(fn, "v_mul_lo_u32") == 0);
  CHECK(count(fn, "s_add_u32") == 0);
  CHECK(count(fn, "v_add_u32") == 1);
  CHECK(count(fn, "s_cmp_eq_u32") == 1);
  CHECK(total(fn) == 4);
  REQUIRE(handed.size() == 1);
  CHECK(table_after.empty());
  CHECK(handed.back().vstart.size() == fn.vregs.size());

  // SCC read before it is written again (s_addc) or live out of the block: the sweep keeps
  // the instruction, the liveness decides (here: it stays).
  kb k2("dce_scc_read");
  auto tid2 = k2.reg(reg_class::vgpr, 1, "tid", 0);
  auto out2 = k2.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto lo = k2.s(1, "lo"), hi = k2.s(1, "hi"), x = k2.s(1, "x");
  auto v = k2.v(1, "v");
  k2.op(0, "s_mov_b32", {R(x), I(5)});
  k2.op(0, "s_add_u32", {R(lo), R(x), I(1)});   // lo unread, but its carry is read
  k2.op(0, "s_addc_u32", {R(hi), R(x), I(0)});  // reads SCC
  k2.op(0, "v_mov_b32", {R(v), R(hi)});
  k2.op(0, "global_store_dword", {R(tid2), R(v), R(out2)});
  function fn2 = k2.fn;
  eliminate_dead_code(fn2, k2.isa);
  CHECK(count(fn2, "s_add_u32") == 1);
  CHECK(count(fn2, "s_addc_u32") == 1);
}

TEST_CASE("dse: scalar writes overwritten before any read go; VGPR writes stay (EXEC)") {
  kb k("dse");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto s = k.s(1, "s");
  auto v = k.v(1, "v");
  auto save = k.s(2, "save");
  k.op(0, "s_mov_b32", {R(s), I(1)});  // overwritten: dead
  k.op(0, "s_mov_b32", {R(s), I(2)});
  k.op(0, "v_mov_b32", {R(v), I(1)});  // the lanes outside the If keep it
  k.op(0, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(3)});
  k.op(0, "s_and_saveexec_b64", {R(save), SP(special_reg::vcc)});
  k.op(0, "v_mov_b32", {R(v), R(s)});
  k.op(0, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(save)});
  k.op(0, "global_store_dword", {R(tid), R(v), R(out)});
  function fn = k.fn;
  CHECK(eliminate_dead_stores(fn, k.isa));
  CHECK(count(fn, "s_mov_b32") == 1);
  CHECK(count(fn, "v_mov_b32") == 2);
}

TEST_CASE("split-registers: an array becomes the pieces really used, each aligned as its uses need") {
  kb k("split");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto arr = k.v(8, "arr");
  k.op(0, "global_load_dwordx2", {R(arr, 0, 2), R(tid), R(out)});
  k.op(0, "v_mov_b32", {R(arr, 5, 1), I(3)});  // dwords 2..4, 6, 7 unused
  k.op(0, "s_waitcnt", {I(0x0f70)});
  k.op(0, "global_store_dwordx2", {R(tid), R(arr, 0, 2), R(out)});
  k.op(0, "global_store_dword", {R(tid), R(arr, 5, 1), R(out)});
  function fn = k.fn;
  pass_error err;
  REQUIRE(split_registers(fn, err));
  // Two pieces: 2 dwords (aligned 2) and 1 dword.
  std::size_t pieces = 0;
  for (std::size_t v = k.fn.vregs.size(); v < fn.vregs.size(); ++v) {
    ++pieces;
    CHECK(fn.vregs[v].name == "arr");
    if (fn.vregs[v].dwords == 2) CHECK(fn.vregs[v].align == 2);
  }
  CHECK(pieces == 2);
  const auto st = compile_function(k.fn);
  REQUIRE_FALSE(st.error.failed);
  CHECK(st.usage.max_vgpr < 4);  // 8 dwords declared, 3 used (+ tid)
}

TEST_CASE("waitcnt check: reading a load's result before a sufficient s_waitcnt names both lines") {
  auto build = [](uint64_t wait) {
    kb k("wait");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto x = k.v(1, "x"), y = k.v(1, "y"), z = k.v(1, "z");
    k.op(0, "global_load_dword", {R(x), R(tid), R(out)});   // line 101
    k.op(0, "global_load_dword", {R(y), R(tid), R(out)});   // line 102
    k.op(0, "s_waitcnt", {I(static_cast<int64_t>(wait))});  // line 103
    k.op(0, "v_add_u32", {R(z), R(x), R(tid)});             // line 104: reads x
    k.op(0, "s_waitcnt", {I(0x0f70)});
    k.op(0, "v_add_u32", {R(z), R(y), R(z)});
    k.op(0, "global_store_dword", {R(tid), R(z), R(out)});
    return k.fn;
  };
  pass_error err;
  // vmcnt(1): the older load (x) has returned.
  CHECK(check_waitcnts(build(0x0f71), target_isa(), err));
  // vmcnt(2) is not enough.
  pass_error err2;
  CHECK_FALSE(check_waitcnts(build(0x0f72), target_isa(), err2));
  const std::string msg(err2.view());
  INFO(msg);
  CHECK(msg.find("test.cpp:104: error:") == 0);
  CHECK(msg.find("'x'") != std::string::npos);
  CHECK(msg.find("test.cpp:101") != std::string::npos);
  CHECK(msg.find("vmcnt(1)") != std::string::npos);
  // The whole pipeline reports it as the kernel's error.
  CHECK(compile_function(build(0x0f72)).error.failed);
}

TEST_CASE("waitcnt check: a MUBUF atomic without glc returns nothing; with glc (sc0) its data is pending") {
  auto build = [](bool returns) {
    kb k("atomic");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto rsrc = k.reg(reg_class::sgpr, 4, "rsrc", 4, 4);
    auto x = k.v(1, "x");
    k.op(0, "v_mov_b32", {R(x), I(1)});
    instr& a = k.op(0, "buffer_atomic_add_f32", {R(x), R(tid), R(rsrc), I(0)});  // line 102
    modifiers m;
    m.offen = true;
    m.glc = returns;
    a.mods = m;
    k.op(0, "v_mov_b32", {R(x), I(2)});  // line 103: overwrites the atomic's data
    k.op(0, "s_waitcnt", {I(0x0f70)});
    k.op(0, "buffer_atomic_add_f32", {R(x), R(tid), R(rsrc), I(0)}).mods = m;
    return k.fn;
  };
  pass_error err;
  CHECK(check_waitcnts(build(false), target_isa(), err));
  INFO(std::string(err.view()));
  pass_error err2;
  CHECK_FALSE(check_waitcnts(build(true), target_isa(), err2));
  const std::string msg(err2.view());
  INFO(msg);
  CHECK(msg.find("test.cpp:103: error:") == 0);
  CHECK(msg.find("'x'") != std::string::npos);
}

TEST_CASE("waitcnt check: SMEM returns out of order, only lgkmcnt(0) covers it; loops carry pending loads") {
  kb k("smem");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto a = k.s(1, "a"), b = k.s(1, "b"), c = k.s(1, "c");
  k.op(0, "s_load_dword", {R(a), R(kern), I(0)});
  k.op(0, "s_load_dword", {R(b), R(kern), I(4)});
  k.op(0, "s_waitcnt", {I(0xc17f)});  // lgkmcnt(1)
  k.op(0, "s_add_u32", {R(c), R(a), I(1)});
  pass_error err;
  CHECK_FALSE(check_waitcnts(k.fn, k.isa, err));
  CHECK(err.view().find("lgkmcnt(0)") != std::string_view::npos);

  kb l("loop_pending");
  auto tid = l.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = l.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto x = l.v(1, "x"), y = l.v(1, "y");
  auto cnt = l.s(1, "cnt");
  const uint32_t loop = l.block(), done = l.block();
  l.edge(0, loop);
  l.edge(loop, loop);
  l.edge(loop, done);
  l.op(0, "s_mov_b32", {R(cnt), I(4)});
  l.op(0, "v_mov_b32", {R(x), I(0)});
  l.op(loop, "v_add_u32", {R(y), R(x), R(tid)});  // x from the previous iteration's load
  l.op(loop, "global_load_dword", {R(x), R(tid), R(out)});
  l.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  l.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  l.op(loop, "s_cbranch_scc1", {L(loop)});
  l.op(done, "s_waitcnt", {I(0x0f70)});
  l.op(done, "global_store_dword", {R(tid), R(y), R(out)});
  pass_error err2;
  CHECK_FALSE(check_waitcnts(l.fn, l.isa, err2));
  CHECK(err2.view().find("'x'") != std::string_view::npos);
}

TEST_CASE("pipeline: a whole kernel compiles at compile time") {
  constexpr auto size = [] {
    kb k("ct");
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto x = k.v(1, "x");
    k.op(0, "v_add_u32", {R(x), I(1), R(tid)});
    k.op(0, "global_store_dword", {R(tid), R(x), R(out)});
    const auto st = compile_function(k.fn);
    return st.error.failed ? 0 : printed_size(st.fn, st.isa);
  }();
  STATIC_REQUIRE(size > 0);
}
