// Asynchronous defs: a memory instruction (load, returning atomic) writes its registers
// when it returns, up to the s_waitcnt that retires it, whether or not its result is read.
// Until then no other value may be given its physical registers (liveness/regalloc), and
// the independent verifier rejects an allocation that does so.
#include <catch2/catch.hpp>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
constexpr int64_t wait_vm0 = 0x0f70;    // s_waitcnt vmcnt(0)
constexpr int64_t wait_lgkm0 = 0xc07f;  // s_waitcnt lgkmcnt(0)

// Physical ranges of two registers of the same class overlap.
bool overlap(const pipeline_state& st, uint64_t a, uint64_t b) {
  const vreg_info &x = st.fn.vregs[a], &y = st.fn.vregs[b];
  return x.cls == y.cls && x.phys < y.phys + y.dwords && y.phys < x.phys + x.dwords;
}

// Block 0 issues an unread global load, an unread returning atomic and an unread scalar
// load; block 1 defines new values (x, y, z, s) before the s_waitcnt that retires them.
struct unread_loads {
  kb k{"unread_loads"};
  uint64_t out, tid, addr, ld, old, sld, x, y, z, s, after;
  unread_loads() {
    out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    addr = k.v(1, "addr");
    ld = k.v(2, "ld");
    old = k.v(1, "old");
    sld = k.s(2, "sld");
    x = k.v(1, "x");
    y = k.v(1, "y");
    z = k.v(1, "z");
    s = k.s(2, "s");
    after = k.v(1, "after");
    const uint32_t b1 = k.block();
    k.edge(0, b1);
    k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
    // never read; sc0 / glc (a cache policy: may be volatile) keeps DCE from removing them,
    // which it otherwise does to an unread load no later wait count depends on
    edit_modifiers(k.op(0, "global_load_dwordx2", {R(ld), R(addr), R(out)}), [](modifiers& m) { m.sc0 = true; });
    k.op(0, isa::gfx942_op::global_atomic_add_rtn, {R(old), R(addr), R(tid), R(out)});  // never read
    edit_modifiers(k.op(0, "s_load_dwordx2", {R(sld), R(out), I(8)}), [](modifiers& m) { m.glc = true; });
    k.op(b1, "v_mov_b32", {R(x), I(1)});
    k.op(b1, "v_mov_b32", {R(y), I(2)});
    k.op(b1, "v_add_u32", {R(z), R(x), R(y)});
    k.op(b1, "s_mov_b64", {R(s), I(3)});
    k.op(b1, "s_add_u32", {R(s, 0, 1), R(s, 0, 1), R(s, 1, 1)});
    k.op(b1, "s_add_u32", {R(s, 1, 1), R(s, 0, 1), R(out, 0, 1)});
    k.op(b1, "v_add_u32", {R(z), R(s, 0, 1), R(z)});
    k.op(b1, "v_add_u32", {R(z), R(s, 1, 1), R(z)});
    k.op(b1, "global_store_dword", {R(addr), R(z), R(out)});
    k.op(b1, "s_waitcnt", {I(0)});  // retires everything
    k.op(b1, "v_mov_b32", {R(after), I(4)});
    k.op(b1, "global_store_dword", {R(addr), R(after), R(out)});
  }
};
}  // namespace

TEST_CASE("async defs: an unread load and an unread returning atomic keep their registers to the s_waitcnt") {
  unread_loads u;
  const auto st = compile_function(u.k.fn);
  check_clean(st, "unread_loads");
  INFO(to_text(st.fn, true));
  // The returning atomic survives DCE.
  bool atomic_kept = false;
  for (const block& b : st.fn.blocks)
    for (const instr& in : b.instrs)
      if (target_isa()[in.op].name == "global_atomic_add") atomic_kept = true;
  CHECK(atomic_kept);
  for (uint64_t later : {u.x, u.y, u.z}) {
    CHECK_FALSE(overlap(st, later, u.ld));
    CHECK_FALSE(overlap(st, later, u.old));
  }
  CHECK_FALSE(overlap(st, u.s, u.sld));
  // After the s_waitcnt the registers are free again.
  CHECK((overlap(st, u.after, u.ld) || overlap(st, u.after, u.old) || overlap(st, u.after, u.x)));
}

TEST_CASE("async defs: the verifier rejects a value placed on an in-flight load's registers") {
  unread_loads u;
  for (int which = 0; which < 3; ++which) {
    auto st = compile_function(u.k.fn);
    REQUIRE_FALSE(st.error.failed);
    REQUIRE_FALSE(verify_allocation(st.fn, target_isa()).failed);
    if (which == 0) st.fn.vregs[u.x].phys = st.fn.vregs[u.ld].phys + 1;  // the load's second dword
    if (which == 1) st.fn.vregs[u.z].phys = st.fn.vregs[u.old].phys;     // the atomic's result
    if (which == 2) st.fn.vregs[u.s].phys = st.fn.vregs[u.sld].phys;     // the scalar load's pair
    const auto v = verify_allocation(st.fn, target_isa());
    INFO(which);
    CHECK(v.failed);
    CHECK(v.view().find("while a memory instruction may still return into it") != std::string_view::npos);
  }
  // After the retiring s_waitcnt sharing is fine.
  auto st = compile_function(u.k.fn);
  st.fn.vregs[u.after].phys = st.fn.vregs[u.old].phys;
  const auto v = verify_allocation(st.fn, target_isa());
  INFO(v.view());
  CHECK_FALSE(v.failed);
}

TEST_CASE("async defs: a load at the end of a loop body stays in flight across the back-edge") {
  // The load issued in one iteration returns during the next one, before the s_waitcnt at
  // the loop top: the temporary t, live only before that wait, must not share its register.
  kb k("loop_load");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto cnt = k.s(1, "cnt");
  auto acc = k.v(1, "acc");
  auto addr = k.v(1, "addr");
  auto t = k.v(1, "t");
  auto ld = k.v(1, "ld");
  const uint32_t loop = k.block(), done = k.block();
  k.edge(0, loop);
  k.edge(loop, loop);
  k.edge(loop, done);
  k.op(0, "s_mov_b32", {R(cnt), I(8)});
  k.op(0, "v_mov_b32", {R(acc), I(0)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(loop, "v_mov_b32", {R(t), R(cnt)});
  k.op(loop, "v_add_u32", {R(acc), R(t), R(acc)});
  k.op(loop, "s_waitcnt", {I(wait_vm0)});
  k.op(loop, "global_load_dword", {R(ld), R(addr), R(out)});  // never read
  k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  k.op(loop, "s_cbranch_scc1", {L(loop)});
  k.op(done, "s_waitcnt", {I(wait_vm0)});
  k.op(done, "global_store_dword", {R(addr), R(acc), R(out)});
  const auto st = compile_function(k.fn);
  check_clean(st, "loop_load");
  INFO(to_text(st.fn, true));
  CHECK_FALSE(overlap(st, t, ld));
  CHECK_FALSE(overlap(st, acc, ld));
  CHECK_FALSE(overlap(st, addr, ld));
  // And the verifier sees the conflict across the back-edge.
  auto bad = st;
  bad.fn.vregs[t].phys = bad.fn.vregs[ld].phys;
  CHECK(verify_allocation(bad.fn, target_isa()).failed);
}

TEST_CASE("async defs: only the s_waitcnt that covers the load retires it") {
  // vmcnt(1) after two loads retires the first one only; an LDS read is not retired by a
  // vmcnt wait. Values defined after such waits stay off the still pending registers.
  kb k("partial_wait");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto addr = k.v(1, "addr");
  auto l1 = k.v(1, "l1");
  auto l2 = k.v(1, "l2");
  auto lds = k.v(1, "lds");
  auto x = k.v(1, "x");
  const uint32_t b1 = k.block();
  k.edge(0, b1);
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "global_load_dword", {R(l1), R(addr), R(out)});
  k.op(0, "global_load_dword", {R(l2), R(addr), R(out)});
  k.op(0, isa::gfx942_op::ds_read_b32, {R(lds), R(addr)});
  k.op(b1, "s_waitcnt", {I(0x0f71)});  // vmcnt(1)
  k.op(b1, "v_mov_b32", {R(x), R(tid)});
  k.op(b1, "global_store_dword", {R(addr), R(x), R(out)});
  k.op(b1, "s_waitcnt", {I(0)});
  const auto st = compile_function(k.fn);
  check_clean(st, "partial_wait");
  INFO(to_text(st.fn, true));
  CHECK_FALSE(overlap(st, x, l2));
  CHECK_FALSE(overlap(st, x, lds));
}
