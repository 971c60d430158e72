// Liveness and linear-scan allocation: loops, divergent control flow, entry state,
// alignment, running out; every allocation checked by the independent verifier and every
// printed program by llvm-mc-22.
#include <catch2/catch.hpp>

#include <random>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
pipeline_state compile(const function& fn) { return compile_function(fn); }
int16_t phys(const pipeline_state& st, uint64_t v) { return st.fn.vregs[v].phys; }
// Compiled with the coalesced copies kept: verify_allocation then sees each copy's def (a
// removed copy leaves its destination without one, and a read of it unchecked).
pipeline_state compile_keeping_copies(const function& fn) {
  pipeline_options opt;
  opt.keep_coalesced_copies = true;
  return compile_function(fn, gfx942, opt);
}
// Compiled with the allocator's coalescing off (kernel_options::coalesce): every copy its own.
pipeline_state compile_without_coalescing(const function& fn) {
  pipeline_options off;
  off.kernel.coalesce = false;
  return compile_function(fn, gfx942, off);
}
}  // namespace

TEST_CASE("regalloc: a loop-carried value first written inside the loop keeps its register") {
  // pyhip's bug: one interval per array from first write to last use; `prev` is read at the
  // loop top (value of the previous iteration) and written later in the body.
  kb k("loop_carried");
  auto cnt = k.s(1, "cnt");
  auto acc = k.v(1, "acc");
  auto prev = k.v(1, "prev");
  auto u = k.v(1, "u");
  auto tmp = k.v(1, "tmp");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto addr = k.v(1, "addr");
  const uint32_t loop = k.block(), done = k.block();
  k.edge(0, loop);
  k.edge(loop, loop);
  k.edge(loop, done);
  k.op(0, "s_mov_b32", {R(cnt), I(8)});
  k.op(0, "v_mov_b32", {R(acc), I(0)});
  k.op(0, "v_mov_b32", {R(prev), I(1)});
  k.op(loop, "v_add_u32", {R(acc), R(prev), R(acc)});  // reads last iteration's prev
  k.op(loop, "v_mov_b32", {R(u), R(cnt)});             // u lives only here...
  k.op(loop, "v_add_u32", {R(acc), R(u), R(acc)});     // ...and dies here
  k.op(loop, "v_add_u32", {R(acc), R(prev), R(acc)});  // prev live across u (else u may share it)
  k.op(loop, "v_mov_b32", {R(tmp), R(cnt)});
  k.op(loop, "v_lshlrev_b32", {R(prev), I(1), R(tmp)});  // prev written late in the body
  k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  k.op(loop, "s_cbranch_scc1", {L(loop)});
  k.op(done, "v_mov_b32", {R(addr), I(0)});
  k.op(done, "global_store_dword", {R(addr), R(acc), R(out)});
  const auto st = compile(k.fn);
  check_clean(st, "loop_carried");
  CHECK(phys(st, prev) != phys(st, u));
  CHECK(phys(st, prev) != phys(st, tmp));
  CHECK(phys(st, prev) != phys(st, acc));
}

TEST_CASE("liveness: a value defined and read under the same condition is not live before its def") {
  // x is written in one branch and read in a later branch on the same condition: the backward
  // analysis also sees the read on the path that skipped the write, back to the entry, but no
  // def reaches there, so x must not be live through the loop before it (where `a` lives): x
  // takes a's register once a is dead. (Before: live from the entry, x and a apart; in
  // paged_attn_decode a split's 96 conditionally loaded registers held through the main loop.)
  kb k("cond_def");
  auto cnt = k.s(1, "cnt");
  auto flag = k.s(1, "flag");
  auto a = k.v(1, "a");
  auto x = k.v(1, "x");
  auto addr = k.v(1, "addr");
  auto addr2 = k.v(1, "addr2");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto fl = k.reg(reg_class::sgpr, 1, "flag_in", 2, 1);
  const uint32_t loop = k.block(), after = k.block(), def = k.block(), join = k.block(), use = k.block(),
                 done = k.block();
  k.edge(0, loop);
  k.edge(loop, loop);
  k.edge(loop, after);
  k.edge(after, def);
  k.edge(after, join);
  k.edge(def, join);
  k.edge(join, use);
  k.edge(join, done);
  k.edge(use, done);
  k.op(0, "s_mov_b32", {R(cnt), I(8)});
  k.op(0, "s_mov_b32", {R(flag), R(fl)});
  k.op(0, "v_mov_b32", {R(a), I(0)});
  k.op(loop, "v_add_u32", {R(a), R(a), R(cnt)});
  k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
  k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
  k.op(loop, "s_cbranch_scc1", {L(loop)});
  k.op(after, "v_mov_b32", {R(addr), I(0)});
  k.op(after, "global_store_dword", {R(addr), R(a), R(out)});  // a's last use
  k.op(after, "s_cmp_eq_u32", {R(flag), I(0)});
  k.op(after, "s_cbranch_scc1", {L(join)});
  k.op(def, "v_mov_b32", {R(x), I(7)});
  k.op(join, "s_cmp_eq_u32", {R(flag), I(0)});
  k.op(join, "s_cbranch_scc1", {L(done)});
  k.op(use, "v_mov_b32", {R(addr2), I(4)});
  k.op(use, "global_store_dword", {R(addr2), R(x), R(out)});
  const auto st = compile(k.fn);
  check_clean(st, "cond_def");
  CHECK(phys(st, x) == phys(st, a));
}

TEST_CASE("regalloc: the independent verifier rejects a wrong allocation") {
  kb k("wrong");
  auto a = k.v(1, "a");
  auto b = k.v(1, "b");
  auto c = k.v(1, "c");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  k.op(0, "v_mov_b32", {R(a), I(1)});
  k.op(0, "v_mov_b32", {R(b), I(2)});
  k.op(0, "v_add_u32", {R(c), R(a), R(b)});
  k.op(0, "global_store_dword", {R(a), R(c), R(out)});
  auto st = compile(k.fn);
  REQUIRE_FALSE(st.error.failed);
  REQUIRE_FALSE(verify_allocation(st.fn, k.isa).failed);
  st.fn.vregs[b].phys = st.fn.vregs[a].phys;  // a and b are live together
  const auto v = verify_allocation(st.fn, k.isa);
  CHECK(v.failed);
  CHECK(v.view().find("allocation conflict") != std::string_view::npos);
}

TEST_CASE("regalloc: entry registers stay put and nothing else lands on them while they live") {
  kb k("entry");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto wg = k.reg(reg_class::sgpr, 1, "wg_x", 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto p = k.s(2, "p");
  auto q = k.s(1, "q");
  auto x = k.v(1, "x");
  auto addr = k.v(1, "addr");
  k.op(0, "s_load_dwordx2", {R(p), R(kern), I(0)});
  k.op(0, "s_mul_i32", {R(q), R(wg), I(64)});
  k.op(0, "v_add_u32", {R(x), R(q), R(tid)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_store_dword", {R(addr), R(x), R(p)});
  const auto st = compile(k.fn);
  check_clean(st, "entry");
  CHECK(phys(st, kern) == 0);
  CHECK(phys(st, wg) == 2);
  CHECK(phys(st, tid) == 0);
  // p is loaded while the kernarg pointer is read: not s[0:1]; q while wg_x is read.
  CHECK(phys(st, p) >= 4);
  CHECK(phys(st, p) % 2 == 0);
}

TEST_CASE("regalloc: tuple alignment per class, checked by llvm-mc-22") {
  kb k("align");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto s1 = k.s(1, "s1");
  auto s4 = k.s(4, "quad");
  auto s8 = k.s(8, "oct");
  auto v1 = k.v(1, "v1");
  auto v2 = k.v(2, "pair");
  auto v4 = k.v(4, "quadv");
  auto acc = k.a(16, "acc");
  k.op(0, "s_mov_b32", {R(s1), I(3)});
  k.op(0, "s_load_dwordx4", {R(s4), R(kern), I(0)});
  k.op(0, "s_load_dwordx8", {R(s8), R(kern), I(16)});
  k.op(0, "v_mov_b32", {R(v1), R(s1)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "global_load_dwordx2", {R(v2), R(v1), R(s4, 0, 2)});
  k.op(0, "global_load_dwordx4", {R(v4), R(v1), R(s8, 2, 2)});
  k.op(0, "s_waitcnt", {I(0x0f70)});
  for (int j = 0; j < 16; ++j) k.op(0, "v_accvgpr_write_b32", {R(acc, static_cast<uint16_t>(j), 1), I(0)});
  k.op(0, "v_mfma_f32_32x32x8_f16", {R(acc), R(v2), R(v4, 2, 2), R(acc)});
  k.op(0, "global_store_dwordx4", {R(v1), R(acc, 0, 4), R(s4, 2, 2)});
  const auto st = compile(k.fn);
  check_clean(st, "align");
  CHECK(phys(st, s4) % 4 == 0);
  CHECK(phys(st, s8) % 4 == 0);
  CHECK(phys(st, v2) % 2 == 0);
  CHECK(phys(st, v4) % 2 == 0);
  CHECK(phys(st, acc) % 2 == 0);
}

TEST_CASE("regalloc: running out of VGPRs names the kernel, the line and the live set") {
  kb k("greedy");
  std::vector<uint64_t> vals;
  for (int i = 0; i < 300; ++i) {
    vals.push_back(k.v(1, "val"));
    k.op(0, "v_mov_b32", {R(vals.back()), I(i)});  // (distinct: cse would merge equal ones)
  }
  auto sum = k.v(1, "sum");
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  k.op(0, "v_mov_b32", {R(sum), I(0)});
  for (auto v : vals) k.op(0, "v_add_u32", {R(sum), R(v), R(sum)});
  k.op(0, "global_store_dword", {R(sum), R(sum), R(out)});
  const auto st = compile(k.fn);
  REQUIRE(st.error.failed);
  const std::string msg(st.error.view());
  INFO(msg);
  CHECK(msg.find("kernel 'greedy'") != std::string::npos);
  CHECK(msg.find("out of VGPRs") != std::string::npos);
  CHECK(msg.find("test.cpp:") == 0);             // the allocation's source line first
  // one group per handle (each 'val' has its own line here), in register order
  CHECK(msg.find("live VGPRs: 256 of 256 in use; by array: 'val' (test.cpp:") != std::string::npos);
  CHECK(msg.find(") 1 dword: v0; 'val' (test.cpp:") != std::string::npos);
}

TEST_CASE("regalloc: registers named physically are never handed out") {
  kb k("phys");
  auto a = k.v(1, "a");
  auto b = k.v(1, "b");
  k.op(0, "v_mov_b32", {PH(reg_class::vgpr, 0), I(7)});
  k.op(0, "v_mov_b32", {PH(reg_class::vgpr, 1), I(7)});
  k.op(0, "v_mov_b32", {R(a), I(1)});
  k.op(0, "v_add_u32", {R(b), R(a), PH(reg_class::vgpr, 0)});
  k.op(0, "v_add_u32", {PH(reg_class::vgpr, 1), R(b), PH(reg_class::vgpr, 1)});
  const auto st = compile(k.fn);
  check_clean(st, "phys");
  CHECK(phys(st, a) >= 2);
  CHECK(phys(st, b) >= 2);
}

TEST_CASE("liveness: a VGPR write under a partial EXEC does not end the old value") {
  // x = 1 everywhere; lanes with tid > 5 overwrite x; all lanes read x. The first write
  // must survive dead-code elimination and keep its register.
  kb k("divergent");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto x = k.v(1, "x");
  auto y = k.v(1, "y");
  auto save = k.s(2, "saved_exec");
  auto addr = k.v(1, "addr");
  k.op(0, "v_mov_b32", {R(x), I(1)});
  k.op(0, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(5)});
  k.op(0, "s_and_saveexec_b64", {R(save), SP(special_reg::vcc)});
  k.op(0, "v_mov_b32", {R(y), I(2)});
  k.op(0, "v_mov_b32", {R(x), R(y)});
  k.op(0, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(save)});
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "global_store_dword", {R(addr), R(x), R(out)});
  const auto st = compile(k.fn);
  check_clean(st, "divergent");
  const std::string text = to_text(st.fn);
  CHECK(text.find("v_mov_b32 v" + std::to_string(phys(st, x)) + ", 1\n") != std::string::npos);
}

TEST_CASE("liveness: after EXEC is restored a VGPR write ends the old value again") {
  kb k("restored");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto x = k.v(1, "x");
  auto save = k.s(2, "saved_exec");
  auto addr = k.v(1, "addr");
  k.op(0, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(5)});
  k.op(0, "s_and_saveexec_b64", {R(save), SP(special_reg::vcc)});
  k.op(0, "v_mov_b32", {R(x), I(2)});
  k.op(0, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(save)});
  k.op(0, "v_mov_b32", {R(x), I(3)});  // full EXEC again: the earlier x is dead
  k.op(0, "v_lshlrev_b32", {R(addr), I(2), R(tid)});
  k.op(0, "global_store_dword", {R(addr), R(x), R(out)});
  const auto st = compile(k.fn);
  check_clean(st, "restored");
  const std::string text = to_text(st.fn);
  CHECK(text.find(", 2\n") == std::string::npos);  // the dead partial write is gone
  CHECK(text.find(", 3\n") != std::string::npos);
}

TEST_CASE("regalloc: random programs with loops and divergent regions verify clean") {
  std::mt19937 rng(12345);
  for (int round = 0; round < 40; ++round) {
    kb k("random");
    auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    std::vector<uint64_t> vv, ss;
    const int nv = 8 + static_cast<int>(rng() % 40), ns = 4 + static_cast<int>(rng() % 12);
    for (int i = 0; i < nv; ++i) vv.push_back(k.v(1 + (rng() % 4 == 0 ? 1 : 0), "v"));
    for (int i = 0; i < ns; ++i) ss.push_back(k.s(1, "s"));
    // Blocks: 0 entry, then a chain of regions, some loops, some divergent.
    uint32_t cur = 0;
    std::vector<uint8_t> vdef(nv, 0), sdef(ns, 0);
    auto pick_v = [&](bool need_def) -> int {
      for (int t = 0; t < 8; ++t) {
        int i = static_cast<int>(rng() % nv);
        if (!need_def || vdef[i]) return i;
      }
      return -1;
    };
    auto body = [&](uint32_t b, int n) {
      for (int j = 0; j < n; ++j) {
        const int kind = static_cast<int>(rng() % 7);
        const int d = static_cast<int>(rng() % nv);
        const int a = pick_v(true), c = pick_v(true);
        const uint16_t dw = static_cast<uint16_t>(k.fn.vregs[vv[d]].dwords);
        if (kind == 0 || a < 0 || c < 0 || dw == 2) {
          if (dw == 2) {
            k.op(b, "v_mov_b32", {R(vv[d], 0, 1), I(j)});
            k.op(b, "v_mov_b32", {R(vv[d], 1, 1), R(tid)});
          } else {
            k.op(b, "v_mov_b32", {R(vv[d]), I(j)});
          }
        } else if (kind == 6 && d != a && k.fn.vregs[vv[a]].dwords == 1) {
          k.op(b, "v_mov_b32", {R(vv[d]), R(vv[a])});  // a copy whose source may live on
        } else if (kind == 1) {
          const int s = static_cast<int>(rng() % ns);
          k.op(b, "s_mov_b32", {R(ss[s]), I(j * 3)});
          sdef[s] = 1;
          k.op(b, "v_add_u32", {R(vv[d]), R(ss[s]), R(vv[a], 0, 1)});
        } else {
          k.op(b, kind == 2 ? "v_add_u32" : kind == 3 ? "v_xor_b32" : "v_mul_lo_u32",
               {R(vv[d]), R(vv[a], 0, 1), R(vv[c], 0, 1)});
        }
        vdef[d] = 1;
      }
    };
    body(cur, 4 + static_cast<int>(rng() % 6));
    const int regions = 1 + static_cast<int>(rng() % 4);
    for (int r = 0; r < regions; ++r) {
      const int shape = static_cast<int>(rng() % 3);
      if (shape == 0) {  // scalar loop
        auto cnt = ss[rng() % ns];
        k.op(cur, "s_mov_b32", {R(cnt), I(3)});
        const uint32_t loop = k.block();
        k.edge(cur, loop);
        body(loop, 3 + static_cast<int>(rng() % 8));
        k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
        k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
        k.op(loop, "s_cbranch_scc1", {L(loop)});
        const uint32_t next = k.block();
        k.edge(loop, loop);
        k.edge(loop, next);
        cur = next;
      } else if (shape == 1) {  // divergent if
        auto save = k.s(2, "save");
        k.op(cur, "v_cmp_gt_u32", {SP(special_reg::vcc), R(tid), I(static_cast<int>(rng() % 64))});
        k.op(cur, "s_and_saveexec_b64", {R(save), SP(special_reg::vcc)});
        const uint32_t then = k.block();
        k.op(cur, "s_cbranch_execz", {L(then + 1)});
        k.edge(cur, then);
        k.edge(cur, then + 1);
        const std::vector<uint8_t> before_then = vdef;  // (written in some lanes only: not read after)
        body(then, 2 + static_cast<int>(rng() % 6));
        vdef = before_then;
        const uint32_t join = k.block();
        k.edge(then, join);
        k.op(join, "s_or_b64", {SP(special_reg::exec), SP(special_reg::exec), R(save)});
        cur = join;
      } else {
        body(cur, 2 + static_cast<int>(rng() % 6));
      }
    }
    for (int i = 0; i < nv; ++i)
      if (vdef[i]) k.op(cur, "global_store_dword", {R(tid), R(vv[i], 0, 1), R(out)}).mods.offset = 4 * i;
    pipeline_options opt;
    opt.limits.vgprs = 24;  // force sharing
    pipeline_state st{k.fn, target_isa(), &gfx942_hazards, opt};
    run_pipeline(st);
    if (st.error.failed) {
      // Only running out is acceptable, with the documented message.
      CHECK(st.error.view().find("out of VGPRs") != std::string_view::npos);
      continue;
    }
    INFO("round " << round);
    check_clean(st, "random");
    opt.keep_coalesced_copies = true;  // (every copy's def seen by the verifier)
    pipeline_state kept{k.fn, target_isa(), &gfx942_hazards, opt};
    run_pipeline(kept);
    check_clean(kept, "random_kept");
  }
}

// ---- messages: array indices and allocation sites (DSL kernels through the whole pipeline) --
#include <hipasm/kernel.hpp>

namespace {
constexpr int too_many_2d_a_line = __LINE__ + 2;  // (b: two lines further)
constexpr void too_many_2d(builder J, arg<float*> out) {
  auto a = J.vgpr<f32>(10, 20).named("a");  // 200 VGPRs, each element used on its own
  for (int i = 0; i < 200; ++i) J.v_mov_b32(a.flat()[i], 1.0f + i);
  auto b = J.vgpr<f64>(50);  // unnamed: 100 VGPRs in 2-dword elements
  for (int i = 0; i < 50; ++i) J.v_mov_b32(b.as<u32>()[2 * i], 1000.0f + i);
  for (int i = 0; i < 50; ++i) J.v_mov_b32(b.as<u32>()[2 * i + 1], 2000.0f + i);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  for (int i = 0; i < 200; ++i) J.global_store_dword(p, a.flat()[i], off);
  for (int i = 0; i < 50; ++i) J.global_store_dwordx2(p, b[i], off);
}
}  // namespace

TEST_CASE("regalloc: the out-of-registers listing names array elements and unnamed registers") {
  const pipeline_state st = detail::compile_kernel<too_many_2d>("too_many_2d");
  REQUIRE(st.error.failed);
  const std::string msg(st.error.view());
  INFO(msg);
  CHECK(msg.find("kernel 'too_many_2d': out of VGPRs allocating element [") != std::string::npos);
  CHECK(msg.find("] of the VGPR array allocated at ") != std::string::npos);  // b: unnamed
  // a's pieces in one group (its line, its total), merged into a run of 2-D indices; then b's
  const std::string file = __FILE__;
  CHECK(msg.find("live VGPRs: 256 of 256 in use; by array: 'a' (" + file + ":" + std::to_string(too_many_2d_a_line) + ") 200 dwords: v0..v199[0][0]..[9][19]; "
                 "unnamed (" + file + ":" + std::to_string(too_many_2d_a_line + 2) + ") 56 dwords: v200..v255[0..27]") != std::string::npos);
  CHECK(msg.substr(msg.size() - 10) == "255[0..27]");  // (the whole listing: it ends with its last run)
}

namespace {
int count_op(const function& fn, std::string_view mnemonic) {
  int n = 0;
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      if (target_isa()[in.op].name == mnemonic) ++n;
  return n;
}
}  // namespace

TEST_CASE("regalloc: copies whose source dies there are coalesced, dword by dword") {
  // The kernel-argument pattern: a 4-dword load split by per-dword copies into two pointers,
  // then one pointer copied into the low half of a V#-like quad; a VGPR chain; and copies
  // whose source lives on (they must stay).
  kb k("coalesce");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto chunk = k.s(4, "chunk");
  auto pa = k.s(2, "pa");
  auto pb = k.s(2, "pb");
  auto quad = k.s(4, "quad");
  auto keep = k.s(1, "keep");
  auto keep_copy = k.s(1, "keep_copy");
  auto x = k.v(1, "x"), y = k.v(1, "y"), z = k.v(1, "z");
  auto addr = k.v(1, "addr");
  auto data = k.v(2, "data");
  k.op(0, "s_load_dwordx4", {R(chunk), R(kern), I(0)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "s_mov_b32", {R(pa, 0, 1), R(chunk, 0, 1)});
  k.op(0, "s_mov_b32", {R(pa, 1, 1), R(chunk, 1, 1)});
  k.op(0, "s_mov_b32", {R(pb, 0, 1), R(chunk, 2, 1)});
  k.op(0, "s_mov_b32", {R(pb, 1, 1), R(chunk, 3, 1)});
  k.op(0, "s_cmp_lg_u64", {R(pb), I(0)});  // pb's last read (whole: split-registers keeps it)
  k.op(0, "s_cselect_b32", {R(keep), I(1), I(2)});
  k.op(0, "s_add_u32", {R(pa, 0, 1), R(pa, 0, 1), I(64)});
  k.op(0, "s_addc_u32", {R(pa, 1, 1), R(pa, 1, 1), I(0)});
  k.op(0, "s_mov_b64", {R(quad, 0, 2), R(pa)});
  k.op(0, "s_mov_b32", {R(quad, 2, 1), I(256)});
  k.op(0, "s_mov_b32", {R(quad, 3, 1), I(0x20000)});
  k.op(0, "s_mov_b32", {R(keep_copy), R(keep)});  // keep is read below, neither is written again: shared
  k.op(0, "v_lshlrev_b32", {R(x), I(2), R(tid)});
  k.op(0, "v_mov_b32", {R(y), R(x)});
  k.op(0, "v_mov_b32", {R(z), R(y)});
  k.op(0, "v_add_u32", {R(z), R(keep), R(z)});
  k.op(0, "v_mov_b32", {R(data, 0, 1), R(keep_copy)});  // another class: a real copy
  k.op(0, "v_mov_b32", {R(data, 1, 1), R(z)});
  k.op(0, "v_mov_b32", {R(addr), I(0)});
  modifiers offen;
  offen.offen = true;
  k.op(0, "buffer_store_dwordx2", {R(data), R(addr), R(quad), I(0)}).mods = offen;
  k.op(0, "s_endpgm", {});
  const auto st = compile(k.fn);
  check_clean(st, "coalesce");
  // pa and pb sit where the load put their dwords; quad's low half is pa; x = y = z = data[1].
  CHECK(phys(st, pa) == phys(st, chunk));
  CHECK(phys(st, pb) == phys(st, chunk) + 2);
  CHECK(phys(st, quad) == phys(st, pa));
  CHECK(phys(st, y) == phys(st, x));
  CHECK(phys(st, z) == phys(st, x));
  CHECK(phys(st, data) + 1 == phys(st, z));
  CHECK(phys(st, keep_copy) == phys(st, keep));
  // What is left: the two constant writes into quad; the SGPR into data[0] and the address.
  CHECK(count_op(st.fn, "s_mov_b32") == 2);
  CHECK(count_op(st.fn, "s_mov_b64") == 0);
  CHECK(count_op(st.fn, "v_mov_b32") == 2);

  const auto plain = compile_without_coalescing(k.fn);
  check_clean(plain, "coalesce_off");
  CHECK(count_op(plain.fn, "s_mov_b32") == 7);
  CHECK(count_op(plain.fn, "s_mov_b64") == 1);
  CHECK(count_op(plain.fn, "v_mov_b32") == 5);
}

TEST_CASE("regalloc: a copy whose source lives on shares its register while neither is written") {
  // `y = x * 1u` with x read later lowered to an s_mov that nothing removed (attn_fwd's key
  // offsets). The copy d = u may sit in u's register when nothing writes d or u from the copy
  // to d's end: then both hold one value wherever d is read.
  kb k("share");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto stride = k.s(1, "stride"), st1 = k.s(1, "stride1");   // shared: stride read later, never written
  auto base = k.s(1, "base"), b1 = k.s(1, "base1");          // base written while base1 lives: apart
  auto w = k.v(1, "w"), w1 = k.v(1, "w1");                   // w1 written again: apart
  auto x = k.v(1, "x"), xc = k.v(1, "xc"), t = k.v(1, "t");  // t would take x's dead stretch: after xc
  auto lv = k.v(1, "lv"), lc = k.v(1, "lc");                 // lc outlives lv: shared, held to lc's end
  auto o1 = k.v(1, "o1"), o2 = k.v(1, "o2"), o3 = k.v(1, "o3"), o4 = k.v(1, "o4"), o5 = k.v(1, "o5");
  auto addr = k.v(1, "addr"), data = k.v(4, "data");
  k.op(0, "s_load_dword", {R(stride), R(kern), I(0)});
  k.op(0, "s_load_dword", {R(base), R(kern), I(4)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "s_mov_b32", {R(st1), R(stride)});
  k.op(0, "s_mov_b32", {R(b1), R(base)});
  k.op(0, "s_add_u32", {R(base), R(base), I(16)});            // base written while base1 lives
  k.op(0, "v_add_u32", {R(o1), R(b1), R(tid)});
  k.op(0, "v_add_u32", {R(o1), R(st1), R(o1)});
  k.op(0, "v_add_u32", {R(o1), R(base), R(o1)});
  k.op(0, "v_add_u32", {R(o1), R(stride), R(o1)});
  k.op(0, "v_lshlrev_b32", {R(w), I(1), R(tid)});
  k.op(0, "v_mov_b32", {R(w1), R(w)});
  k.op(0, "v_add_u32", {R(w1), I(7), R(w1)});
  k.op(0, "v_add_u32", {R(o2), R(w), R(w1)});
  k.op(0, "v_add_u32", {R(x), I(3), R(tid)});
  k.op(0, "v_mov_b32", {R(xc), R(x)});
  k.op(0, "v_add_u32", {R(t), I(5), R(tid)});               // t = g(...)
  k.op(0, "v_add_u32", {R(o3), R(xc), R(o2)});              // xc's last read
  k.op(0, "v_sub_u32", {R(x), R(t), I(9)});                  // x = f(t): x's old value dead since t
  k.op(0, "v_add_u32", {R(o3), R(x), R(o3)});
  k.op(0, "v_add_u32", {R(lv), I(11), R(tid)});
  k.op(0, "v_mov_b32", {R(lc), R(lv)});
  k.op(0, "v_add_u32", {R(o4), R(lv), R(o3)});               // lv's last read
  k.op(0, "v_add_u32", {R(o5), I(13), R(tid)});              // (may not take lv's register: lc lives)
  k.op(0, "v_add_u32", {R(o5), R(lc), R(o5)});
  k.op(0, "v_mov_b32", {R(data, 0, 1), R(o1)});
  k.op(0, "v_mov_b32", {R(data, 1, 1), R(o2)});
  k.op(0, "v_mov_b32", {R(data, 2, 1), R(o4)});
  k.op(0, "v_mov_b32", {R(data, 3, 1), R(o5)});
  k.op(0, "v_mov_b32", {R(addr), I(0)});
  k.op(0, "global_store_dwordx4", {R(addr), R(data), R(kern)});
  k.op(0, "s_endpgm", {});
  const auto st = compile(k.fn);
  check_clean(st, "share");
  CHECK(phys(st, st1) == phys(st, stride));
  CHECK(phys(st, b1) != phys(st, base));
  CHECK(phys(st, w1) != phys(st, w));
  CHECK(phys(st, xc) == phys(st, x));
  CHECK(phys(st, t) != phys(st, x));
  CHECK(phys(st, lc) == phys(st, lv));
  CHECK(phys(st, o5) != phys(st, lv));
  const auto kept = compile_keeping_copies(k.fn);
  check_clean(kept, "share_kept");

  const auto plain = compile_without_coalescing(k.fn);
  check_clean(plain, "share_off");
  CHECK(phys(plain, st1) != phys(plain, stride));
}

TEST_CASE("regalloc: a copy in a loop shares its source only where the source is not written") {
  // d = u at the loop top, read in the body; u written after d's last read: shared. The same
  // with d read again at the next iteration's top (live around the back-edge, where u's write
  // is): apart.
  for (const bool carried : {false, true}) {
    kb k(carried ? "share_loop_carried" : "share_loop");
    auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
    auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
    auto cnt = k.s(1, "cnt");
    auto u = k.v(1, "u"), d = k.v(1, "d"), acc = k.v(1, "acc"), addr = k.v(1, "addr");
    const uint32_t loop = k.block(), done = k.block();
    k.edge(0, loop);
    k.edge(loop, loop);
    k.edge(loop, done);
    k.op(0, "s_mov_b32", {R(cnt), I(4)});
    k.op(0, "v_mov_b32", {R(acc), I(0)});
    k.op(0, "v_add_u32", {R(u), I(1), R(tid)});
    if (carried) k.op(0, "v_mov_b32", {R(d), R(u)});
    if (carried) k.op(loop, "v_add_u32", {R(acc), R(d), R(acc)});  // the last iteration's d
    k.op(loop, "v_mov_b32", {R(d), R(u)});
    k.op(loop, "v_add_u32", {R(acc), R(d), R(acc)});
    k.op(loop, "v_lshlrev_b32", {R(u), I(1), R(u)});  // u written after d's read
    k.op(loop, "s_sub_u32", {R(cnt), R(cnt), I(1)});
    k.op(loop, "s_cmp_lg_u32", {R(cnt), I(0)});
    k.op(loop, "s_cbranch_scc1", {L(loop)});
    k.op(done, "v_add_u32", {R(acc), R(u), R(acc)});
    k.op(done, "v_mov_b32", {R(addr), I(0)});
    k.op(done, "global_store_dword", {R(addr), R(acc), R(kern)});
    const auto st = compile(k.fn);
    check_clean(st, carried ? "share_loop_carried" : "share_loop");
    CHECK((phys(st, d) == phys(st, u)) == !carried);
    const auto kept = compile_keeping_copies(k.fn);
    check_clean(kept, carried ? "share_loop_carried_kept" : "share_loop_kept");
  }
}

TEST_CASE("regalloc: a result shares the register of a temporary source that dies there") {
  // What s = exp2(s - m, {.flush_denormals = true}) emits: the subtraction's temporary, then
  // the exp into s. Hand-written in place, both are one register (v_sub v1, v1, v2;
  // v_exp v1, v1): the allocator gives the same.
  kb k("in_place");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto m = k.v(1, "m"), x = k.v(1, "x"), s = k.v(1, "s"), keep = k.v(1, "keep");
  auto t1 = k.v(1, "t1"), alpha = k.v(1, "alpha");  // alpha = exp2(x - m): a fresh result (not coalesced)
  auto t2 = k.v(1, "t2");                            // s = exp2(s - m): s's old value dies at t2's def
  auto t3 = k.v(1, "t3");                            // keep = exp2(keep - m) with keep read in between
  auto t4 = k.v(1, "t4"), y = k.v(1, "y");           // DPP reads other lanes: never in place
  auto addr = k.v(1, "addr"), acc = k.v(4, "acc");
  k.op(0, "v_cvt_f32_u32", {R(m), R(tid)});
  k.op(0, "v_add_f32", {R(x), I(1), R(m)});
  k.op(0, "v_add_f32", {R(s), I(2), R(m)});
  k.op(0, "v_add_f32", {R(keep), I(3), R(m)});
  k.op(0, "v_sub_f32", {R(t1), R(x), R(m)});
  k.op(0, "v_exp_f32", {R(alpha), R(t1)});
  k.op(0, "v_sub_f32", {R(t2), R(s), R(m)});
  k.op(0, "v_exp_f32", {R(s), R(t2)});
  k.op(0, "v_sub_f32", {R(t3), R(keep), R(m)});
  k.op(0, "v_add_f32", {R(x), R(keep), R(alpha)});  // keep's old value read: no dead stretch
  k.op(0, "v_exp_f32", {R(keep), R(t3)});
  k.op(0, "v_add_f32", {R(t4), I(4), R(x)});
  modifiers shr;
  shr.dpp.ctrl = 0x111;  // row_shr:1
  shr.dpp.bound_ctrl = true;
  k.op(0, "v_mov_b32", {R(y), R(t4)}).mods = shr;
  k.op(0, "v_mov_b32", {R(acc, 0, 1), R(y)});
  k.op(0, "v_mov_b32", {R(acc, 1, 1), R(s)});
  k.op(0, "v_mov_b32", {R(acc, 2, 1), R(keep)});
  k.op(0, "v_mov_b32", {R(acc, 3, 1), R(alpha)});
  k.op(0, "v_mov_b32", {R(addr), I(0)});
  k.op(0, "global_store_dwordx4", {R(addr), R(acc), R(kern)});
  k.op(0, "s_endpgm", {});
  const auto st = compile(k.fn);
  check_clean(st, "in_place");
  CHECK(phys(st, t2) == phys(st, s));
  CHECK(phys(st, t3) != phys(st, keep));
  CHECK(phys(st, y) != phys(st, t4));

  const auto plain = compile_without_coalescing(k.fn);
  check_clean(plain, "in_place_off");
  CHECK(phys(plain, t2) != phys(plain, s));
}

// ---- builder::require_waves_per_simd: occupancy as a compile-time property -----------------
#include "kernels/occupancy_fns.hpp"

namespace {
template <int V, int A, int S, unsigned W>
pipeline_state compile_occupancy(const char* name) {
  return detail::compile_kernel<&occupancy_fn<V, A, S, W>>(name);
}
std::string fns_line(int line) {
  return std::string(__FILE__).substr(0, std::string(__FILE__).rfind('/')) + "/kernels/occupancy_fns.hpp:" +
         std::to_string(line);
}
std::string asked_at() { return "asked at " + fns_line(occupancy_require_line); }
}  // namespace

TEST_CASE("require_waves_per_simd: the VGPR budget of n waves; over it, the live set and the asking line") {
  // 3 waves: 512 / 3 = 170 a lane, 168 in granules of 8.
  const auto fit = compile_occupancy<160, 0, 0, 3>("fit3");
  INFO(fit.error.view());
  REQUIRE_FALSE(fit.error.failed);
  CHECK(fit.usage.count(reg_class::vgpr) <= 168);
  CHECK(fit.usage.count(reg_class::vgpr) >= 160);

  // Without the requirement the same kernel with 170 held compiles (to 2 waves a SIMD) ...
  const auto free = compile_occupancy<170, 0, 0, 0>("free");
  REQUIRE_FALSE(free.error.failed);
  CHECK(free.usage.count(reg_class::vgpr) > 168);
  // ... with it, not: the allocation's line first, the live set, the budget and where it was asked.
  const auto over = compile_occupancy<170, 0, 0, 3>("over3");
  REQUIRE(over.error.failed);
  const std::string msg(over.error.view());
  INFO(msg);
  CHECK(msg.rfind(fns_line(occupancy_require_line + 1) + ": error: ", 0) == 0);  // held_v's line
  CHECK(msg.find("kernel 'over3': out of VGPRs allocating") != std::string::npos);
  CHECK(msg.find("'held_v[") != std::string::npos);
  CHECK(msg.find("168 of 168 in use (3 waves a SIMD, " + asked_at() + ": at most 168 VGPRs + AGPRs a lane)") !=
        std::string::npos);

  // 5 waves: 96 a lane; 2 waves: 256 (the whole file: a 250-register kernel fits).
  CHECK_FALSE(compile_occupancy<90, 0, 0, 5>("fit5").error.failed);
  CHECK(compile_occupancy<100, 0, 0, 5>("over5").error.view().find("96 of 96 in use (5 waves") != std::string_view::npos);
  CHECK_FALSE(compile_occupancy<250, 0, 0, 2>("fit2").error.failed);
}

TEST_CASE("require_waves_per_simd: VGPRs and AGPRs share the unified budget (accum_offset rounds to 4)") {
  const auto fit = compile_occupancy<88, 72, 0, 3>("mixed_fit");
  INFO(fit.error.view());
  REQUIRE_FALSE(fit.error.failed);
  const int v = fit.usage.count(reg_class::vgpr), a = fit.usage.count(reg_class::agpr);
  CHECK(a == 72);
  CHECK((v + 3) / 4 * 4 + a <= 168);

  // 100 VGPRs + 72 AGPRs: each fits alone, together not; the VGPRs run out in what the AGPRs leave.
  const auto over = compile_occupancy<100, 72, 0, 3>("mixed_over");
  REQUIRE(over.error.failed);
  const std::string msg(over.error.view());
  INFO(msg);
  CHECK(msg.find("kernel 'mixed_over': out of VGPRs allocating") != std::string::npos);
  CHECK(msg.find("96 of 96 in use (3 waves a SIMD, " + asked_at() + ": at most 168 VGPRs + AGPRs a lane, 72 of them AGPRs)") !=
        std::string::npos);

  // AGPRs alone over the budget.
  const auto agprs = compile_occupancy<8, 170, 0, 3>("agprs_over");
  REQUIRE(agprs.error.failed);
  CHECK(agprs.error.view().find("out of AGPRs") != std::string_view::npos);
  CHECK(agprs.error.view().find("168 of 168 in use (3 waves") != std::string_view::npos);
}

TEST_CASE("require_waves_per_simd: SGPRs limit 8 waves (800 / 8 in granules of 16, less 6 extra); bad counts") {
  CHECK_FALSE(compile_occupancy<8, 0, 80, 8>("sgprs_fit").error.failed);
  CHECK_FALSE(compile_occupancy<8, 0, 95, 7>("sgprs_7").error.failed);  // 7 waves: no SGPR limit below 102
  const auto over = compile_occupancy<8, 0, 95, 8>("sgprs_over");
  REQUIRE(over.error.failed);
  const std::string msg(over.error.view());
  INFO(msg);
  CHECK(msg.find("out of SGPRs") != std::string::npos);
  CHECK(msg.find("90 of 90 in use (8 waves a SIMD, " + asked_at() + ")") != std::string::npos);

  const auto nine = compile_occupancy<8, 0, 0, 9>("nine");
  REQUIRE(nine.error.failed);
  CHECK(std::string(nine.error.view()) ==
        fns_line(occupancy_require_line) + ": error: kernel 'nine': require_waves_per_simd(9): a SIMD holds at most 8 waves");
  CHECK(nine.error.loc.line == static_cast<uint32_t>(occupancy_require_line));
}
