// The checker, driven directly with hand-built instruction streams: for each rule a version
// that leaves out the wait (exactly that rule is reported) and one with enough s_nop /
// s_waitcnt / s_barrier (nothing is reported). Wait-state counts come from
// ../shared/reference/gfx942.md and LLVM's GCNHazardRecognizer.cpp, not from the checker.
#include <catch2/catch.hpp>

#include <regex>

#include "hazard_rules.hpp"
#include "memory/harness.hpp"

using namespace simtest;

namespace {

// The rule tags ("[hazard vcc-div-fmas]") of the findings, in order.
std::vector<std::string> tags(const std::vector<std::string>& diags) {
  std::vector<std::string> out;
  std::regex tag(R"(: \[([^\]]+)\] )");
  for (auto& d : diags) {
    std::smatch m;
    if (std::regex_search(d, m, tag)) out.push_back(m[1]);
    else out.push_back("<untagged: " + d + ">");
  }
  return out;
}
using Tags = std::vector<std::string>;

Inst valu(std::string m, std::vector<Operand> dst, std::vector<Operand> src, Format f = Format::VOP1,
          Modifiers mod = {}, uint32_t cls = 0) {
  return make(f, std::move(m), std::move(dst), std::move(src), mod, cls | C_VALU);
}
Inst gload(int vdst, int vaddr, int n = 1) {
  return make(Format::GLOBAL, n == 1 ? "global_load_dword" : "global_load_dwordx" + std::to_string(n),
              {V(vdst, n)}, {V(vaddr, 2), None(), None()}, off(0), C_VMEM | C_LOAD);
}
Inst gstore(int vaddr, int vdata, int n = 1) {
  return make(Format::GLOBAL, n == 1 ? "global_store_dword" : "global_store_dwordx" + std::to_string(n), {},
              {V(vaddr, 2), V(vdata, n), None()}, off(0), C_VMEM | C_STORE);
}
Inst sload(int sdst, int n) {
  return make(Format::SMEM, "s_load_dwordx" + std::to_string(n), {S(sdst, n)}, {S(0, 2), None()}, off(0),
              C_SMEM | C_LOAD);
}
Inst dsread(int vdst, int vaddr, int offset = 0) {
  return make(Format::DS, "ds_read_b32", {V(vdst)}, {V(vaddr)}, off(offset), C_DS | C_LOAD);
}
Inst dswrite(int vaddr, int vdata, int offset = 0) {
  return make(Format::DS, "ds_write_b32", {}, {V(vaddr), V(vdata)}, off(offset), C_DS | C_STORE);
}
Inst vadd(int d, Operand a, Operand b) { return valu("v_add_u32", {V(d)}, {a, b}, Format::VOP2); }
Inst readfirstlane(int sdst, int v) { return valu("v_readfirstlane_b32", {S(sdst)}, {V(v)}); }
Inst cmp_exec() { return valu("v_cmp_eq_u32", {EXEC()}, {V(1), V(2)}, Format::VOP3, {}, C_WRITES_EXEC); }
Inst mfma(std::string m, Operand d, Operand a, Operand b, Operand c) {
  return make(Format::MFMA, std::move(m), {d}, {a, b, c}, {}, C_VALU | C_MFMA);
}
Inst nops(int ws) {  // a single s_nop for up to 8 wait states
  return s_nop(ws - 1);
}

// Runs `body` on a fresh single-wave group that does not execute handlers; returns tags.
template <class F>
Tags stream(F&& body) {
  Group g(1, 4096, true);
  g.run_handlers = false;
  body(g);
  return tags(g.diagnostics());
}

}  // namespace

TEST_CASE("checker: pending VMEM results need vmcnt, in order", "[checker]") {
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, vadd(2, V(1), V(3)));
        }) == Tags{"pending-read"});
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, s_waitcnt(0, 15));
          g.issue(0, vadd(2, V(1), V(3)));
        }).empty());
  // vmcnt(1) retires the older of two loads only.
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, gload(4, 10, 2));
          g.issue(0, s_waitcnt(1, 15));
          g.issue(0, vadd(2, V(1), V(3)));
        }).empty());
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, gload(4, 10, 2));
          g.issue(0, s_waitcnt(1, 15));
          g.issue(0, vadd(2, V(5), V(3)));
        }) == Tags{"pending-read"});
  // Stores occupy vmcnt: a store issued after the load keeps vmcnt(1) from covering... nothing
  // (the load is older), but a store before it makes vmcnt(1) too weak.
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, s_nop(0));  // (a store may not join the load's soft clause)
          g.issue(0, gstore(10, 6));
          g.issue(0, s_waitcnt(1, 15));
          g.issue(0, vadd(2, V(1), V(3)));
        }).empty());
  CHECK(stream([](Group& g) {
          g.issue(0, gstore(10, 6));
          g.issue(0, gload(1, 10));
          g.issue(0, s_waitcnt(1, 15));
          g.issue(0, vadd(2, V(1), V(3)));
        }) == Tags{"pending-read"});
  // A load's address registers are reads too; the end of the program with pending stores is fine.
  CHECK(stream([](Group& g) {
          g.issue(0, gload(10, 20, 2));
          g.issue(0, s_nop(0));
          g.issue(0, gstore(10, 6));
        }) == Tags{"pending-read"});
  CHECK(stream([](Group& g) { g.issue(0, gstore(10, 6)); }).empty());
}

TEST_CASE("checker: lgkmcnt: DS in order, SMEM out of order", "[checker]") {
  CHECK(stream([](Group& g) {
          g.issue(0, dsread(1, 10));
          g.issue(0, dsread(2, 10, 4));
          g.issue(0, s_waitcnt(63, 1));
          g.issue(0, vadd(3, V(1), V(1)));
        }).empty());
  CHECK(stream([](Group& g) {
          g.issue(0, sload(4, 2));
          g.issue(0, sload(8, 2));
          g.issue(0, s_waitcnt(63, 1));
          g.issue(0, vadd(3, S(4), V(1)));
        }) == Tags{"pending-read"});
  CHECK(stream([](Group& g) {
          g.issue(0, sload(4, 2));
          g.issue(0, sload(8, 2));
          g.issue(0, s_waitcnt(63, 0));
          g.issue(0, vadd(3, S(4), V(1)));
        }).empty());
  // A younger SMEM may complete first: lgkmcnt(1) does not prove the older DS read.
  CHECK(stream([](Group& g) {
          g.issue(0, dsread(1, 10));
          g.issue(0, sload(4, 2));
          g.issue(0, s_waitcnt(63, 1));
          g.issue(0, vadd(3, V(1), V(1)));
        }) == Tags{"pending-read"});
  // vmcnt does not retire LDS results.
  CHECK(stream([](Group& g) {
          g.issue(0, dsread(1, 10));
          g.issue(0, s_waitcnt(0, 15));
          g.issue(0, vadd(3, V(1), V(1)));
        }) == Tags{"pending-read"});
}

TEST_CASE("checker: overwriting a pending destination (WAW)", "[checker]") {
  CHECK(stream([](Group& g) {
          g.issue(0, gload(1, 10));
          g.issue(0, valu("v_mov_b32", {V(1)}, {K(0)}));
        }) == Tags{"pending-write"});
  CHECK(stream([](Group& g) {  // same in-order queue: the later load lands last
          g.issue(0, gload(1, 10));
          g.issue(0, gload(1, 12));
        }).empty());
  CHECK(stream([](Group& g) {  // SMEM returns out of order
          g.issue(0, sload(4, 2));
          g.issue(0, sload(4, 2));
        }) == Tags{"pending-write"});
}

TEST_CASE("checker: hazard rows of gfx942.md, each with and without its wait states", "[checker]") {
  struct Row {
    const char* tag;
    std::vector<Inst> producer;  // the producer (and anything it needs)
    int need;                    // wait states the rule needs
    Inst consumer;
  };
  Modifiers dpp;
  dpp.dpp = true;
  Modifiers sdwa_hi;
  sdwa_hi.sdwa = true;
  sdwa_hi.dst_sel = 5;  // WORD_1
  Modifiers setreg;
  setreg.simm16 = 1 | (0 << 6) | (3 << 11);  // hwreg(HW_REG_MODE, 0, 4)
  Inst mfma_xdl8 = mfma("v_mfma_f32_32x32x8_f16", A(0, 16), V(0, 2), V(2, 2), A(0, 16));
  std::vector<Row> rows = {
      {"hazard valu-sgpr-vmem", {readfirstlane(4, 0)}, 5,
       make(Format::GLOBAL, "global_load_dword", {V(1)}, {V(2), None(), S(4, 2)}, off(0), C_VMEM)},
      {"hazard vcc-div-fmas", {valu("v_div_scale_f32", {V(1), VCC()}, {V(2), V(3), V(4)}, Format::VOP3)}, 4,
       valu("v_div_fmas_f32", {V(5)}, {V(1), V(3), V(4)}, Format::VOP3, {}, C_READS_VCC)},
      {"hazard setreg-getreg", {make(Format::SOPK, "s_setreg_b32", {}, {S(0)}, setreg)}, 2,
       make(Format::SOPK, "s_getreg_b32", {S(1)}, {}, setreg)},
      {"hazard salu-m0", {make(Format::SOP1, "s_mov_b32", {M0()}, {S(0)})}, 1,
       make(Format::GLOBAL, "global_load_lds_dword", {}, {V(2, 2), None(), None()}, off(0), C_VMEM | C_LDS_DMA)},
      {"hazard vgpr-dpp", {valu("v_mov_b32", {V(1)}, {V(0)})}, 2,
       valu("v_add_u32", {V(2)}, {V(1), V(3)}, Format::VOP2, dpp)},
      {"hazard exec-dpp", {cmp_exec()}, 5, valu("v_mov_b32", {V(2)}, {V(3)}, Format::VOP1, dpp)},
      {"hazard big-store-data", {gstore(10, 4, 4)}, 2, valu("v_mov_b32", {V(5)}, {K(0)})},
      {"hazard vcc-exec-z", {valu("v_cmp_eq_u32", {VCC()}, {V(1), V(2)}, Format::VOPC)}, 5,
       valu("v_mov_b32", {V(3)}, {Special(251)})},
      {"hazard valu-sgpr-valu", {readfirstlane(4, 0)}, 2, vadd(1, S(4), V(2))},
      {"hazard exec-readlane", {cmp_exec()}, 4, readfirstlane(4, 1)},
      {"hazard vgpr-readlane-src0", {valu("v_mov_b32", {V(1)}, {V(0)})}, 1, readfirstlane(4, 1)},
      {"hazard trans-use", {valu("v_exp_f32", {V(1)}, {V(2)})}, 1, valu("v_add_f32", {V(3)}, {V(1), V(4)}, Format::VOP2)},
      {"hazard dst-partial-use", {valu("v_add_f16", {V(1)}, {V(5), V(6)}, Format::VOP2, sdwa_hi)}, 1,
       vadd(2, V(1), V(3))},
      {"hazard valu-sgpr-valu", {valu("v_cmpx_eq_u32", {}, {V(1), V(2)}, Format::VOPC, {}, C_WRITES_EXEC)}, 2,
       valu("v_cndmask_b32", {V(3)}, {V(4), V(5), EXEC()}, Format::VOP3)},
      {"hazard vgpr-permlane", {valu("v_mov_b32", {V(1)}, {V(0)})}, 2, valu("v_permlane16_b32", {V(2)}, {V(1), S(0), S(1)}, Format::VOP3)},
      {"hazard exec-mfma", {cmp_exec()}, 4, mfma_xdl8},
      {"hazard valu-vgpr-mfma", {valu("v_mov_b32", {V(2)}, {K(0)})}, 2, mfma_xdl8},
      // 32x32x8 f16: XDL, 8 passes. Overlapping SrcC: NP+1 = 9; SrcA/B: NP+3 = 11.
      {"hazard mfma-srcc", {mfma_xdl8}, 9,
       mfma("v_mfma_f32_16x16x16_f16", A(20, 4), V(0, 2), V(2, 2), A(4, 4))},
      {"hazard mfma-srcab", {mfma("v_mfma_f32_32x32x8_f16", V(16, 16), V(0, 2), V(2, 2), V(16, 16))}, 11,
       mfma("v_mfma_f32_32x32x8_f16", A(0, 16), V(16, 2), V(2, 2), A(0, 16))},
      {"hazard mfma-read", {mfma_xdl8}, 11, valu("v_accvgpr_read_b32", {V(0)}, {A(3)}, Format::VOP3P)},
      // non-XDL 32x32x2 f32: 16 passes, read needs NP+2 = 18.
      {"hazard mfma-read", {mfma("v_mfma_f32_32x32x2_f32", A(0, 16), V(0), V(1), A(0, 16))}, 18,
       make(Format::GLOBAL, "global_store_dword", {}, {V(40, 2), A(5), None()}, off(0), C_VMEM)},
      {"hazard mfma-waw", {mfma_xdl8}, 11, valu("v_accvgpr_write_b32", {A(0)}, {V(1)}, Format::VOP3P)},
      {"hazard mfma-srcc-war", {mfma("v_mfma_f32_32x32x8_f16", A(16, 16), V(0, 2), V(2, 2), A(0, 16))}, 7,
       valu("v_accvgpr_write_b32", {A(0)}, {V(1)}, Format::VOP3P)},
      {"hazard dgemm-fma64", {mfma("v_mfma_f64_16x16x4_f64", V(0, 8), V(8, 2), V(10, 2), V(0, 8))}, 2,
       valu("v_fma_f64", {V(20, 2)}, {V(22, 2), V(24, 2), V(26, 2)}, Format::VOP3)},
      // DGEMM 16x16 result read by a memory instruction: 18 (LLVM).
      {"hazard mfma-read", {mfma("v_mfma_f64_16x16x4_f64", V(0, 8), V(8, 2), V(10, 2), V(0, 8))}, 18,
       gstore(40, 2, 2)},
      {"hazard dot-read-other", {valu("v_dot2_f32_f16", {V(1)}, {V(2), V(3), V(1)}, Format::VOP3P)}, 3,
       vadd(4, V(1), V(5))},
      // Soft clauses (LLVM's checkSoftClauseHazards; llc-22 -mcpu=gfx942 puts s_nop 0 in each):
      // a load overwriting the previous load's address, a store joining a load, an s_load
      // overwriting the previous s_load's base, a load whose result is its own address.
      {"hazard soft-clause", {gload(4, 0)}, 1, gload(0, 2)},
      {"hazard soft-clause", {gload(4, 0)}, 1, gstore(2, 6)},
      {"hazard soft-clause", {sload(4, 2)}, 1,
       make(Format::SMEM, "s_load_dword", {S(0)}, {S(2, 2), None()}, off(0), C_SMEM | C_LOAD)},
      {"hazard soft-clause", {gload(4, 2)}, 1, gload(0, 0)},
  };
  for (auto& r : rows) {
    INFO(r.tag << " needs " << r.need);
    auto run = [&](int ws) {
      return stream([&](Group& g) {
        for (auto& p : r.producer) g.issue(0, p);
        for (int left = ws; left > 0; left -= std::min(left, 8)) g.issue(0, nops(std::min(left, 8)));
        g.issue(0, r.consumer);
      });
    };
    CHECK(run(r.need) == Tags{});
    if (r.need > 0) CHECK(run(r.need - 1) == Tags{r.tag});
    if (r.need > 1) {
      // Any instruction counts one wait state, not only s_nop.
      auto with_salu = stream([&](Group& g) {
        for (auto& p : r.producer) g.issue(0, p);
        for (int i = 0; i < r.need; ++i) g.issue(0, make(Format::SOP1, "s_mov_b32", {S(100)}, {K(0)}));
        g.issue(0, r.consumer);
      });
      CHECK(with_salu == Tags{});
    }
  }
}

TEST_CASE("checker: soft clauses that need no wait state (as llc-22 for gfx942)", "[checker]") {
  // Independent loads; a load after a store (the run writes nothing yet); a VMEM run broken
  // by an SMEM; an s_load after a global_load writing its base.
  CHECK(stream([](Group& g) {
          g.issue(0, gload(4, 0));
          g.issue(0, gload(5, 2));
        }) == Tags{});
  CHECK(stream([](Group& g) {
          g.issue(0, gstore(2, 6));
          g.issue(0, gload(0, 0));
        }) == Tags{});
  CHECK(stream([](Group& g) {
          g.issue(0, gload(4, 0));
          g.issue(0, sload(8, 2));
          g.issue(0, gload(0, 2));
        }) == Tags{});
}

TEST_CASE("checker: MFMA SrcC chains and special cases", "[checker]") {
  // Same SrcC as the previous MFMA's dst: back to back is fine (4 passes and up)...
  CHECK(stream([](Group& g) {
          g.issue(0, mfma("v_mfma_f32_32x32x8_f16", A(0, 16), V(0, 2), V(2, 2), A(0, 16)));
          g.issue(0, mfma("v_mfma_f32_32x32x8_f16", A(0, 16), V(4, 2), V(6, 2), A(0, 16)));
        }).empty());
  // ...but a 2-pass (4x4) producer needs 2.
  CHECK(stream([](Group& g) {
          g.issue(0, mfma("v_mfma_f32_4x4x4_16b_f16", A(0, 4), V(0, 2), V(2, 2), A(0, 4)));
          g.issue(0, mfma("v_mfma_f32_4x4x4_16b_f16", A(0, 4), V(4, 2), V(6, 2), A(0, 4)));
        }) == Tags{"hazard mfma-srcc"});
  // non-XDL producer, XDL consumer with overlapping SrcC: 0 wait states.
  CHECK(stream([](Group& g) {
          g.issue(0, mfma("v_mfma_f32_32x32x2_f32", A(0, 16), V(0), V(1), A(0, 16)));
          g.issue(0, mfma("v_mfma_f32_16x16x16_f16", A(20, 4), V(0, 2), V(2, 2), A(4, 4)));
        }).empty());
}

TEST_CASE("checker: MFMA pass counts follow gfx942.md", "[checker]") {
  // 2 = all 4x4; 4 = 16x16x8xf32, 16x16x16 f16/bf16, 16x16x32 i8/fp8, SMFMAC 16x16;
  // 8 = 16x16x{1,4}, 32x32x4xf32, 32x32x8, 32x32x16, SMFMAC 32x32; 16 = 32x32x{1,2,4}.
  // DGEMM: 16x16x4 f64 8, 4x4x4 f64 4 (LLVM's gfx940 scheduling model).
  std::vector<std::pair<const char*, int>> want = {
      {"v_mfma_f32_4x4x1_16b_f32", 2},     {"v_mfma_f32_4x4x4_16b_f16", 2},
      {"v_mfma_i32_4x4x4_16b_i8", 2},      {"v_mfma_f32_16x16x8_xf32", 4},
      {"v_mfma_f32_16x16x16_f16", 4},      {"v_mfma_f32_16x16x16_bf16", 4},
      {"v_mfma_i32_16x16x32_i8", 4},       {"v_mfma_f32_16x16x32_fp8_bf8", 4},
      {"v_smfmac_f32_16x16x32_f16", 4},    {"v_mfma_f32_16x16x1_4b_f32", 8},
      {"v_mfma_f32_16x16x4_f32", 8},       {"v_mfma_f32_16x16x4_4b_f16", 8},
      {"v_mfma_f32_32x32x4_xf32", 8},      {"v_mfma_f32_32x32x8_f16", 8},
      {"v_mfma_f32_32x32x8_bf16", 8},      {"v_mfma_i32_32x32x16_i8", 8},
      {"v_mfma_f32_32x32x16_bf8_fp8", 8},  {"v_smfmac_f32_32x32x16_bf16", 8},
      {"v_mfma_f32_32x32x1_2b_f32", 16},   {"v_mfma_f32_32x32x2_f32", 16},
      {"v_mfma_f32_32x32x4_2b_f16", 16},   {"v_mfma_f32_32x32x4_2b_bf16", 16},
      {"v_mfma_f64_16x16x4_f64", 8},       {"v_mfma_f64_4x4x4_4b_f64", 4},
  };
  for (auto& [m, n] : want) {
    INFO(m);
    CHECK(hipasm::sim::hz::mfma_passes(m) == n);
  }
}

TEST_CASE("checker: LDS races between the waves of a workgroup", "[checker]") {
  auto race = [](auto&& body) {
    Group g(2, 4096, true);
    for (int i = 0; i < 2; ++i)
      for (int l = 0; l < kLanes; ++l) {
        g.w(i).v(10)[l] = uint32_t(l * 4);  // addresses
        g.w(i).v(11)[l] = uint32_t(i * 1000 + l);
      }
    body(g);
    return tags(g.diagnostics());
  };
  // Write, wait, barrier, read another wave's data: clean.
  CHECK(race([](Group& g) {
          g.issue(0, dswrite(10, 11));
          g.issue(0, s_waitcnt(63, 0));
          g.issue(0, s_barrier());
          g.issue(1, s_barrier());
          g.issue(1, dsread(1, 10));
          g.issue(1, s_waitcnt(63, 0));
        }).empty());
  // No s_waitcnt lgkmcnt(0) before the barrier: the store may not have landed.
  CHECK(race([](Group& g) {
          g.issue(0, dswrite(10, 11));
          g.issue(0, s_barrier());
          g.issue(1, s_barrier());
          g.issue(1, dsread(1, 10));
          g.issue(1, s_waitcnt(63, 0));
        }) == Tags{"lds-race"});
  // No barrier at all.
  CHECK(race([](Group& g) {
          g.issue(0, dswrite(10, 11));
          g.issue(0, s_waitcnt(63, 0));
          g.issue(1, dsread(1, 10));
          g.issue(1, s_waitcnt(63, 0));
        }) == Tags{"lds-race"});
  // Write after another wave's read with no barrier between.
  CHECK(race([](Group& g) {
          g.issue(1, dsread(1, 10));
          g.issue(1, s_waitcnt(63, 0));
          g.issue(0, dswrite(10, 11));
        }) == Tags{"lds-race-war"});
  // Write after another wave's write, no barrier.
  CHECK(race([](Group& g) {
          g.issue(1, dswrite(10, 11));
          g.issue(0, dswrite(10, 11));
        }) == Tags{"lds-race-waw"});
  // Atomics from several waves on the same words need no barrier.
  CHECK(race([](Group& g) {
          for (int i : {0, 1, 0})
            g.issue(i, make(Format::DS, "ds_add_u32", {}, {V(10), V(11)}, off(0), C_DS | C_ATOMIC));
        }).empty());
  // Atomics of several waves on one word: every one must be retired before the barrier, not
  // only the last (here wave 0's own, which it may read).
  auto atomics = [](int wave1_lgkm) {
    return [wave1_lgkm](Group& g) {
      g.issue(1, make(Format::DS, "ds_add_u32", {}, {V(10), V(11)}, off(0), C_DS | C_ATOMIC));
      g.issue(0, make(Format::DS, "ds_add_u32", {}, {V(10), V(11)}, off(0), C_DS | C_ATOMIC));
      g.issue(1, s_waitcnt(63, wave1_lgkm));
      g.issue(0, s_waitcnt(63, 0));
      g.issue(1, s_barrier());
      g.issue(0, s_barrier());
      g.issue(0, dsread(1, 10));
      g.issue(0, s_waitcnt(63, 0));
    };
  };
  CHECK(race(atomics(0)).empty());
  CHECK(race(atomics(1)) == Tags{"lds-race"});
  // A wave reading its own writes needs neither.
  CHECK(race([](Group& g) {
          g.issue(0, dswrite(10, 11));
          g.issue(0, dsread(1, 10));
          g.issue(0, s_waitcnt(63, 0));
        }).empty());
  // LDS-DMA is counted on vmcnt: lgkmcnt(0) before the barrier is not enough.
  auto dma = [](int vm) {
    return [vm](Group& g) {
      uint64_t src = g.mem.alloc(256);
      for (int l = 0; l < kLanes; ++l) {
        g.w(0).v(20)[l] = uint32_t(src + 4 * uint64_t(l));
        g.w(0).v(21)[l] = uint32_t((src + 4 * uint64_t(l)) >> 32);
      }
      g.w(0).m0 = 0;
      g.issue(0, make(Format::GLOBAL, "global_load_lds_dword", {}, {V(20, 2), None(), None()}, off(0),
                      C_VMEM | C_LDS_DMA));
      g.issue(0, s_waitcnt(vm, 0));
      g.issue(0, s_barrier());
      g.issue(1, s_barrier());
      g.issue(1, dsread(1, 10));
      g.issue(1, s_waitcnt(63, 0));
    };
  };
  CHECK(race(dma(0)).empty());
  CHECK(race(dma(63)) == Tags{"lds-race"});
  // The wave's own LDS-DMA result needs vmcnt too before it reads the LDS bytes.
  auto own = [](int vm) {
    return [vm](Group& g) {
      uint64_t src = g.mem.alloc(256);
      for (int l = 0; l < kLanes; ++l) {
        g.w(0).v(20)[l] = uint32_t(src + 4 * uint64_t(l));
        g.w(0).v(21)[l] = uint32_t((src + 4 * uint64_t(l)) >> 32);
      }
      g.issue(0, make(Format::GLOBAL, "global_load_lds_dword", {}, {V(20, 2), None(), None()}, off(0),
                      C_VMEM | C_LDS_DMA));
      g.issue(0, s_waitcnt(vm, 15));
      g.issue(0, dsread(1, 10));
      g.issue(0, s_waitcnt(63, 0));
    };
  };
  CHECK(race(own(0)).empty());
  CHECK(race(own(63)) == Tags{"lds-dma-pending"});
}

TEST_CASE("checker: device memory one wave stores and another of the workgroup reads", "[checker]") {
  // Wave 0 stores a dword a lane, wave 1 reads the same bytes back (a workgroup exchanging data
  // through global memory, as a kernel storing a tile and loading it in another layout).
  auto race = [](auto&& body) {
    Group g(2, 4096, true);
    uint64_t buf = g.mem.alloc(4 * kLanes);
    for (int i = 0; i < 2; ++i)
      for (int l = 0; l < kLanes; ++l) {
        g.w(i).v(20)[l] = uint32_t(buf + 4 * uint64_t(l));
        g.w(i).v(21)[l] = uint32_t((buf + 4 * uint64_t(l)) >> 32);
        g.w(i).v(11)[l] = uint32_t(i * 1000 + l);
      }
    body(g);
    return tags(g.diagnostics());
  };
  auto exchange = [](int vm, bool barrier) {
    return [vm, barrier](Group& g) {
      g.issue(0, gstore(20, 11));
      g.issue(0, s_waitcnt(vm, 15));
      if (barrier) {
        g.issue(0, s_barrier());
        g.issue(1, s_barrier());
      }
      g.issue(1, gload(1, 20));
      g.issue(1, s_waitcnt(0, 15));
    };
  };
  CHECK(race(exchange(0, true)).empty());
  // The store may not be complete when the other wave passes the barrier.
  CHECK(race(exchange(63, true)) == Tags{"mem-race"});
  // Retired, but nothing orders the other wave's read after it.
  CHECK(race(exchange(0, false)) == Tags{"mem-race"});
  // A wave reading back its own store needs neither (VMEM is in order within a wave).
  CHECK(race([](Group& g) {
          g.issue(0, gstore(20, 11));
          g.issue(0, gload(1, 20));
          g.issue(0, s_waitcnt(0, 15));
        }).empty());
  // Agent- or system-scope accesses (sc1) communicate with other workgroups or devices (a flag
  // polled while it is written): the memory model's business, not this rule's.
  CHECK(race([](Group& g) {
          Modifiers m = off(0);
          m.sc1 = true;
          g.issue(0, make(Format::GLOBAL, "global_store_dword", {}, {V(20, 2), V(11), None()}, m, C_VMEM | C_STORE));
          g.issue(1, make(Format::GLOBAL, "global_load_dword", {V(1)}, {V(20, 2), None(), None()}, m, C_VMEM | C_LOAD));
          g.issue(1, s_waitcnt(0, 15));
        }).empty());
  // Atomics are performed in order at the L2: no finding between two waves' atomics.
  CHECK(race([](Group& g) {
          for (int i : {0, 1})
            g.issue(i, make(Format::GLOBAL, "global_atomic_add", {}, {V(20, 2), V(11), None()}, off(0),
                            C_VMEM | C_ATOMIC));
          g.issue(1, s_waitcnt(0, 15));
        }).empty());
}

TEST_CASE("checker: findings are deduplicated per instruction and rule, and sorted", "[checker]") {
  Group g(3, 4096, true);
  g.run_handlers = false;
  const Inst& load = g.add(gload(1, 10));
  const Inst& use = g.add(vadd(2, V(1), V(3)));
  for (int i = 0; i < 3; ++i) {
    g.checker->on_issue(g.w(i), load, 0);
    g.checker->on_issue(g.w(i), use, 1);
  }
  auto d = g.diagnostics();
  REQUIRE(d.size() == 1);
  CHECK_THAT(d[0], Catch::StartsWith("0x1008: v_add_u32 v2, v1, v3: [pending-read] reads v1 before the result of 0x1000"));
  CHECK_THAT(d[0], Catch::Contains("needs s_waitcnt vmcnt"));
}

TEST_CASE("checker: s_nop N counts N+1 wait states up to 16, as clang-22 emits it", "[checker]") {
  // clang-22 -O3 for gfx942 writes "s_nop 10" between v_mfma_f32_32x32x8_bf16 and a store of
  // its result (11 wait states for an 8-pass XDL MFMA).
  auto run = [](int n) {
    return stream([n](Group& g) {
      g.issue(0, mfma("v_mfma_f32_32x32x8_bf16", V(0, 16), V(22, 2), V(16, 2), V(0, 16)));
      g.issue(0, s_nop(n));
      g.issue(0, gstore(20, 0));
    });
  };
  CHECK(run(10).empty());
  CHECK(run(9) == Tags{"hazard mfma-read"});
  CHECK(run(15).empty());
}
