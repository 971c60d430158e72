// Cross-check of the two hazard tables that must agree but share no code: hipasm's own
// (include/hipasm/targets/gfx942/hazard_rules.hpp, used by the library's s_nop pass) and the simulator
// checker's (sim/src/hazard_rules.cpp). For every row of the library's table, a producer and
// a consumer instruction are built, and the checker is asked for the smallest number of
// wait states between them that it accepts; that must equal the library's number, for
// every MFMA pass count the row covers.
//
// Known difference of BOTH tables from LLVM 22, not fixed here (it would change gfx942 output
// of kernels that overwrite a partial result at once; to be measured first): LLVM's
// consumesDstSelForwardingOperand takes every operand of the consumer, so llc-22 also pads a
// VALU that overwrites an SDWA/op_sel partial result (-mcpu=gfx942: v_cvt_pk_fp8_f32
// op_sel:[0,0,1] then v_mov_b32 to the same VGPR: s_nop 0); dst-partial-use here is
// read-after-write only. gfx950's cvt-scale-forward takes overwrites, as LLVM does.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <sstream>

#include "hipasm/targets/gfx942/hazard_rules.hpp"
#include "hipasm/targets/gfx950/hazard_rules.hpp"
#include "memory/harness.hpp"

using namespace simtest;

namespace {

Inst valu(std::string m, std::vector<Operand> dst, std::vector<Operand> src, Format f = Format::VOP1,
          Modifiers mod = {}, uint32_t cls = 0) {
  return make(f, std::move(m), std::move(dst), std::move(src), mod, cls | C_VALU);
}
Inst mfma(std::string m, Operand d, Operand a, Operand b, Operand c) {
  return make(Format::MFMA, std::move(m), {d}, {a, b, c}, {}, C_VALU | C_MFMA);
}

// Smallest s_nop padding (in wait states) for which the checker reports nothing, on `target`
// (the checker takes a wave's target from its dispatch's code object).
int checker_min_wait(const Inst& producer, const Inst& consumer,
                     const hipasm::sim::Target& target = hipasm::sim::target_gfx942()) {
  KernelImage image;
  image.target = &target;
  for (int ws = 0; ws <= 24; ++ws) {
    Group g(1, 0, true);
    g.dispatch.image = &image;
    g.run_handlers = false;
    g.issue(0, producer);
    for (int left = ws; left > 0; left -= std::min(left, 8)) g.issue(0, s_nop(std::min(left, 8) - 1));
    g.issue(0, consumer);
    if (g.diagnostics().empty()) return ws;
  }
  return -1;
}

// Representative MFMAs by kind and pass count (pass counts from gfx942.md).
const char* xdl_of(int passes) {
  switch (passes) {
    case 2: return "v_mfma_f32_4x4x4_16b_f16";
    case 4: return "v_mfma_f32_16x16x16_f16";
    case 8: return "v_mfma_f32_32x32x8_f16";
    default: return "v_mfma_f32_32x32x4_2b_f16";
  }
}
const char* nonxdl_of(int passes) {
  switch (passes) {
    case 2: return "v_mfma_f32_4x4x1_16b_f32";
    case 8: return "v_mfma_f32_16x16x4_f32";
    case 16: return "v_mfma_f32_32x32x2_f32";
    default: return nullptr;  // no 4-pass non-XDL MFMA on gfx942
  }
}
// v_mfma_f64_16x16x4_f64 takes 8 passes on gfx942 and 16 on gfx950 (`dgemm16`).
const char* dgemm_of(int passes, int dgemm16 = 8) {
  return passes == 4 ? "v_mfma_f64_4x4x4_4b_f64" : passes == dgemm16 ? "v_mfma_f64_16x16x4_f64" : nullptr;
}

struct Scenario {
  int passes;  // 0: non-MFMA producer
  Inst producer, consumer;
};

// Scenarios of one library rule (empty: the row is not applicable to what can be built);
// `dgemm16`: the pass count of v_mfma_f64_16x16x4_f64 on the target.
std::vector<Scenario> scenarios(hipasm::hazard_check c, int dgemm16 = 8) {
  using hipasm::hazard_check;
  Modifiers dpp;
  dpp.dpp = true;
  Modifiers sdwa;
  sdwa.sdwa = true;
  sdwa.dst_sel = 5;
  Modifiers hw;
  hw.simm16 = 1 | (3 << 11);
  Inst rfl = valu("v_readfirstlane_b32", {S(4)}, {V(0)});
  Inst cmpx = valu("v_cmpx_eq_u32", {VCC()}, {V(1), V(2)}, Format::VOPC, {}, C_CMPX | C_WRITES_EXEC | C_WRITES_VCC);
  Inst vmov = valu("v_mov_b32", {V(4)}, {V(0)});
  std::vector<Scenario> out;
  auto per_pass = [&](auto name_of, auto build) {
    for (int p : {2, 4, 8, 16})
      if (const char* m = name_of(p)) out.push_back(build(p, std::string(m)));
  };
  switch (c) {
    case hazard_check::valu_sgpr_then_vmem:
      out.push_back({0, rfl, make(Format::GLOBAL, "global_load_dword", {V(1)}, {V(2), None(), S(4, 2)}, off(0))});
      // EXEC is read by every VMEM (LLVM: an implicit use; llc-22 puts s_nop 4 after v_cmpx).
      out.push_back({0, cmpx, make(Format::GLOBAL, "global_load_dword", {V(1)}, {V(2), None(), S(4, 2)}, off(0))});
      break;
    case hazard_check::valu_vcc_then_div_fmas:
      out.push_back({0, valu("v_div_scale_f32", {V(1), VCC()}, {V(2), V(3), V(4)}, Format::VOP3),
                     valu("v_div_fmas_f32", {V(5)}, {V(6), V(7), V(8)}, Format::VOP3)});
      break;
    case hazard_check::valu_sgpr_then_lane_sel:
      out.push_back({0, rfl, valu("v_writelane_b32", {V(5)}, {K(0), S(4)}, Format::VOP3)});
      break;
    case hazard_check::setreg_then_getreg:
      out.push_back({0, make(Format::SOPK, "s_setreg_b32", {}, {S(0)}, hw), make(Format::SOPK, "s_getreg_b32", {S(1)}, {}, hw)});
      break;
    case hazard_check::setreg_then_rfe: {
      Modifiers trapsts;
      trapsts.simm16 = 3 | (31 << 11);  // hwreg(HW_REG_TRAPSTS)
      out.push_back({0, make(Format::SOPK, "s_setreg_b32", {}, {S(0)}, trapsts), make(Format::SOP1, "s_rfe_b64", {}, {S(2, 2)})});
      break;
    }
    case hazard_check::salu_m0_then_m0_user:
      out.push_back({0, make(Format::SOP1, "s_mov_b32", {M0()}, {S(0)}),
                     make(Format::GLOBAL, "global_load_lds_dword", {}, {V(2, 2), None(), None()}, off(0))});
      break;
    case hazard_check::vgpr_then_dpp:
      out.push_back({0, vmov, valu("v_mov_b32", {V(5)}, {V(4)}, Format::VOP1, dpp)});
      break;
    case hazard_check::valu_exec_then_dpp:
      out.push_back({0, cmpx, valu("v_mov_b32", {V(5)}, {V(6)}, Format::VOP1, dpp)});
      break;
    case hazard_check::wide_store_then_valu_war:
      out.push_back({0, make(Format::GLOBAL, "global_store_dwordx4", {}, {V(0, 2), V(4, 4), None()}, off(0)),
                     valu("v_mov_b32", {V(6)}, {K(0)})});
      break;
    case hazard_check::valu_vcc_exec_then_z:
      out.push_back({0, valu("v_cmp_eq_u32", {VCC()}, {V(1), V(2)}, Format::VOPC), valu("v_mov_b32", {V(3)}, {Special(251)})});
      break;
    case hazard_check::valu_sgpr_then_valu:
      out.push_back({0, rfl, valu("v_add_u32", {V(1)}, {S(4), V(2)}, Format::VOP2)});
      out.push_back({0, cmpx, valu("v_cndmask_b32", {V(5)}, {V(6), V(7), EXEC()}, Format::VOP3)});
      break;
    case hazard_check::valu_exec_then_lane_op:
      out.push_back({0, cmpx, valu("v_readfirstlane_b32", {S(5)}, {V(3)})});
      break;
    case hazard_check::valu_vgpr_then_readlane:
      out.push_back({0, vmov, valu("v_readfirstlane_b32", {S(5)}, {V(4)})});
      break;
    case hazard_check::trans_then_valu:
      out.push_back({0, valu("v_rcp_f32", {V(4)}, {V(0)}), valu("v_add_f32", {V(5)}, {V(4), V(4)}, Format::VOP2)});
      break;
    case hazard_check::partial_dst_then_valu: {
      out.push_back({0, valu("v_add_f16", {V(4)}, {V(0), V(1)}, Format::VOP2, sdwa), valu("v_add_u32", {V(5)}, {V(4), V(4)}, Format::VOP2)});
      Modifiers byte1;
      byte1.op_sel = 4;  // op_sel:[0,0,1,0]: byte 1 of the result (llc-22 -mcpu=gfx942: s_nop 0)
      out.push_back({0, valu("v_cvt_sr_fp8_f32", {V(4)}, {V(0), V(1)}, Format::VOP3, byte1),
                     valu("v_add_u32", {V(5)}, {V(4), V(4)}, Format::VOP2)});
      break;
    }
    case hazard_check::vgpr_then_permlane:
      out.push_back({0, vmov, valu("v_permlane16_b32", {V(5)}, {V(4), S(0), S(1)}, Format::VOP3)});
      break;
    case hazard_check::valu_exec_then_mfma:
      out.push_back({0, cmpx, mfma(xdl_of(8), A(0, 16), V(0, 2), V(2, 2), A(0, 16))});
      break;
    case hazard_check::valu_vgpr_then_mfma:
      out.push_back({0, valu("v_mov_b32", {V(2)}, {V(0)}), mfma(xdl_of(8), A(0, 16), V(0, 2), V(2, 2), A(0, 16))});
      break;
    case hazard_check::mfma_then_same_srcc:
      per_pass(xdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, A(0, 4), V(0, 2), V(2, 2), A(0, 4)), mfma(m, A(0, 4), V(4, 2), V(6, 2), A(0, 4))};
      });
      break;
    case hazard_check::xdl_then_overlap_srcc:
      per_pass(xdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, A(0, 16), V(0, 2), V(2, 2), A(0, 16)), mfma(xdl_of(4), A(20, 4), V(0, 2), V(2, 2), A(4, 4))};
      });
      break;
    case hazard_check::xdl_then_overlap_srcc_nonxdl:
      per_pass(xdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, A(0, 16), V(0, 2), V(2, 2), A(0, 16)), mfma(nonxdl_of(8), A(20, 4), V(0), V(1), A(4, 4))};
      });
      break;
    case hazard_check::nonxdl_then_overlap_srcc:
      per_pass(nonxdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, A(0, 16), V(0), V(1), A(0, 16)), mfma(nonxdl_of(8), A(20, 4), V(0), V(1), A(4, 4))};
      });
      break;
    case hazard_check::xdl_then_srcab:
      per_pass(xdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, V(16, 16), V(0, 2), V(2, 2), V(16, 16)), mfma(xdl_of(8), A(0, 16), V(16, 2), V(2, 2), A(0, 16))};
      });
      break;
    case hazard_check::nonxdl_then_srcab:
      per_pass(nonxdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, V(16, 16), V(0), V(1), V(16, 16)), mfma(xdl_of(8), A(0, 16), V(16, 2), V(2, 2), A(0, 16))};
      });
      break;
    case hazard_check::xdl_then_read:
    case hazard_check::nonxdl_then_read: {
      bool xdl = c == hazard_check::xdl_then_read;
      for (int p : {2, 4, 8, 16}) {
        const char* m = xdl ? xdl_of(p) : nonxdl_of(p);
        if (!m) continue;
        Inst prod = xdl ? mfma(m, A(0, 16), V(0, 2), V(2, 2), A(0, 16)) : mfma(m, A(0, 16), V(0), V(1), A(0, 16));
        out.push_back({p, prod, valu("v_accvgpr_read_b32", {V(5)}, {A(3)}, Format::VOP3P)});
        out.push_back({p, prod, make(Format::GLOBAL, "global_store_dword", {}, {V(8, 2), A(3), None()}, off(0))});
      }
      break;
    }
    case hazard_check::xdl_then_waw:
    case hazard_check::nonxdl_then_waw: {
      bool xdl = c == hazard_check::xdl_then_waw;
      for (int p : {2, 4, 8, 16}) {
        const char* m = xdl ? xdl_of(p) : nonxdl_of(p);
        if (!m) continue;
        Inst prod = xdl ? mfma(m, A(0, 16), V(0, 2), V(2, 2), A(0, 16)) : mfma(m, A(0, 16), V(0), V(1), A(0, 16));
        out.push_back({p, prod, valu("v_accvgpr_write_b32", {A(2)}, {V(5)}, Format::VOP3P)});
      }
      break;
    }
    case hazard_check::mfma_srcc_then_valu_war:
      per_pass(xdl_of, [&](int p, std::string m) {
        return Scenario{p, mfma(m, A(16, 16), V(0, 2), V(2, 2), A(0, 16)), valu("v_accvgpr_write_b32", {A(2)}, {V(5)}, Format::VOP3P)};
      });
      break;
    case hazard_check::dgemm_then_fma64:
      out.push_back({0, mfma(dgemm_of(dgemm16, dgemm16), V(0, 8), V(8, 2), V(10, 2), V(0, 8)),
                     valu("v_fma_f64", {V(20, 2)}, {V(22, 2), V(24, 2), V(26, 2)}, Format::VOP3)});
      break;
    case hazard_check::dgemm_then_valu_read:
    case hazard_check::dgemm_then_mem_read:
    case hazard_check::dgemm_then_waw:
    case hazard_check::dgemm_then_srcab:
    case hazard_check::dgemm_then_overlap_srcc:
    case hazard_check::dgemm_then_same_srcc:
      for (int p : {4, dgemm16}) {
        Inst prod = mfma(dgemm_of(p, dgemm16), V(0, 8), V(8, 2), V(10, 2), V(0, 8));
        Inst cons;
        if (c == hazard_check::dgemm_then_valu_read) cons = valu("v_add_f32", {V(20)}, {V(2), V(30)}, Format::VOP2);
        if (c == hazard_check::dgemm_then_mem_read) cons = make(Format::GLOBAL, "global_store_dword", {}, {V(40, 2), V(2), None()}, off(0));
        if (c == hazard_check::dgemm_then_waw) cons = valu("v_mov_b32", {V(2)}, {K(0)});
        if (c == hazard_check::dgemm_then_srcab) cons = mfma(dgemm_of(dgemm16, dgemm16), V(16, 8), V(2, 2), V(10, 2), V(16, 8));
        if (c == hazard_check::dgemm_then_overlap_srcc) cons = mfma(nonxdl_of(8), V(16, 4), V(30), V(31), V(2, 4));
        if (c == hazard_check::dgemm_then_same_srcc) {
          if (p != 4) continue;  // the row is about the 4-pass DGEMM
          prod = mfma(dgemm_of(4), V(0, 2), V(8, 2), V(10, 2), V(0, 2));
          cons = mfma(dgemm_of(4), V(0, 2), V(12, 2), V(14, 2), V(0, 2));
        }
        out.push_back({p, prod, cons});
      }
      break;
    case hazard_check::dot_then_same_srcab:
      out.push_back({0, valu("v_dot2_f32_f16", {V(4)}, {V(0), V(1), V(2)}, Format::VOP3P),
                     valu("v_dot2_f32_f16", {V(5)}, {V(4), V(1), V(6)}, Format::VOP3P)});
      break;
    case hazard_check::dot_then_read_other:
      out.push_back({0, valu("v_dot2_f32_f16", {V(4)}, {V(0), V(1), V(2)}, Format::VOP3P),
                     valu("v_mul_f32", {V(5)}, {V(4), V(4)}, Format::VOP2)});
      break;
    case hazard_check::dot_then_waw_other:
      out.push_back({0, valu("v_dot2_f32_f16", {V(4)}, {V(0), V(1), V(2)}, Format::VOP3P),
                     valu("v_mov_b32", {V(4)}, {K(0)})});
      break;
    // gfx950's own rows.
    case hazard_check::valu_exec_then_permlane: {
      Inst swap = valu("v_permlane32_swap_b32", {V(5)}, {V(6)});
      out.push_back({0, cmpx, swap});
      out.push_back({0, valu("v_cmp_eq_u32", {EXEC()}, {V(1), V(2)}, Format::VOP3), swap});  // any VALU writing EXEC
      break;
    }
    case hazard_check::cvt_fwd_then_valu: {
      Modifiers byte1;
      byte1.op_sel = 4;  // op_sel:[0,0,1,0]
      Inst sr_fp8 = valu("v_cvt_scalef32_sr_fp8_f32", {V(4)}, {V(0), V(1), V(2)}, Format::VOP3, byte1);
      Inst sr_fp4 = valu("v_cvt_scalef32_sr_pk_fp4_f32", {V(4)}, {V(0, 2), V(2), V(3)}, Format::VOP3);
      Inst read = valu("v_add_u32", {V(5)}, {V(4), V(6)}, Format::VOP2), write = valu("v_mov_b32", {V(4)}, {V(6)});
      for (const Inst& p : {sr_fp8, sr_fp4}) {
        out.push_back({0, p, read});
        out.push_back({0, p, write});
      }
      out.push_back({0, valu("v_cvt_sr_fp8_f32", {V(4)}, {V(0), V(1)}, Format::VOP3, byte1), read});
      break;
    }
    default: break;
  }
  return out;
}

// Every row of a library table against the checker on `target`: the disagreements (one line
// each) and how many scenarios were compared.
template <class Rules>
std::string compare_rows(const Rules& rules, const hipasm::sim::Target& target, int dgemm16, int& compared) {
  std::ostringstream disagreements;
  for (const auto& rule : rules) {
    auto sc = scenarios(rule.check, dgemm16);
    INFO(rule.name);
    CHECK(!sc.empty());  // every library row is modelled here
    for (auto& s : sc) {
      int lib = rule.wait[hipasm::hazard_pass_index(s.passes)];
      int sim = checker_min_wait(s.producer, s.consumer, target);
      ++compared;
      if (lib != sim)
        disagreements << rule.name << " [" << s.producer.text << " -> " << s.consumer.text << "]: hipasm " << lib
                      << ", checker " << sim << "\n";
    }
  }
  return disagreements.str();
}

}  // namespace

TEST_CASE("cross-check: the checker's hazard table agrees with hipasm's", "[checker][crosscheck]") {
  int compared = 0;
  const std::string disagreements = compare_rows(hipasm::gfx942_hazard_rules, hipasm::sim::target_gfx942(), 8, compared);
  INFO(disagreements);
  CHECK(disagreements.empty());
  CHECK(compared >= 50);
}

// gfx950: every row of hipasm's gfx950 table against the checker's gfx950 rows, the XDL and
// f64 16x16x4 wait states as gfx950 counts them (v_mfma_f64_16x16x4_f64: 16 passes).
TEST_CASE("cross-check gfx950: the checker's hazard table agrees with hipasm's", "[checker][crosscheck][gfx950]") {
  int compared = 0;
  const auto& t950 = hipasm::sim::target_gfx950();
  const std::string disagreements = compare_rows(hipasm::gfx950_hazard_rules, t950, 16, compared);
  INFO(disagreements);
  CHECK(disagreements.empty());
  CHECK(compared >= 55);
}

// The soft-clause rule is not a row of either table (hipasm: hazard_table::soft_clauses and
// the pass's own run tracking; the checker: its own check): both must need one wait state
// for a clause member that breaks it, and none for independent loads.
TEST_CASE("cross-check: soft clauses need one wait state in both", "[checker][crosscheck]") {
  const int need = hipasm::gfx942_hazards.soft_clauses ? 1 : 0;
  REQUIRE(need == 1);  // target id gfx942: XNACK "any", as LLVM's isXNACKEnabled counts it
  auto gload = [](int vdst, int vaddr) {
    return make(Format::GLOBAL, "global_load_dword", {V(vdst)}, {V(vaddr, 2), None(), None()}, off(0),
                C_VMEM | C_LOAD);
  };
  auto sload = [](int sdst, int sbase) {
    return make(Format::SMEM, "s_load_dword", {S(sdst)}, {S(sbase, 2), None()}, off(0), C_SMEM | C_LOAD);
  };
  CHECK(checker_min_wait(gload(4, 0), gload(0, 2)) == need);
  CHECK(checker_min_wait(sload(4, 0), sload(0, 2)) == need);
  CHECK(checker_min_wait(gload(4, 0),
                         make(Format::GLOBAL, "global_store_dword", {}, {V(2, 2), V(6), None()}, off(0),
                              C_VMEM | C_STORE)) == need);
  CHECK(checker_min_wait(gload(4, 0), gload(5, 2)) == 0);
}
