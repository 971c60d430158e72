// The three hazard tables compared as SETS over every gfx942 opcode: for each rule (by the
// simulator's rule id), the opcodes that can be its producer and its consumer according to
//   - hipasm's pass (hazard_rule_producer/_consumer of passes/hazards.hpp over the kind
//     opcode_hazard_kind | modifier_hazard_kind gives an instruction),
//   - hipasm-sim's checker (hz::classify and the rule's flag masks),
//   - LLVM 22's GCNHazardRecognizer on gfx942 (the gfx940 paths), written out below from
//     names and encodings only, one comment per rule naming the LLVM function.
// Each opcode is tried in the forms that change its class: plain (VOP3P: default
// op_sel_hi), DPP, SDWA writing a word, VOP3 op_sel writing the high half, DS with gds.
// The register relation of each rule (which operand of the consumer) and the wait states
// are test_checker_crosscheck's. Operand-derived flags of the checker (WRITES_EXEC, ...
// READS_VCCZ) are relations, not classes, and are left out of its masks here.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hipasm/hipasm.hpp"
#include "hipasm/targets/gfx950/hazard_rules.hpp"
#include "hipasm/targets/gfx950/isa.hpp"
#include "hazard_rules.hpp"

namespace {

using namespace hipasm;
using namespace hipasm::isa;
namespace hz = hipasm::sim::hz;

enum class op_form { plain, dpp, sdwa_word, op_sel_dst, op_sel_byte1, gds };
const char* form_name(op_form f) {
  switch (f) {
    case op_form::plain: return "";
    case op_form::dpp: return " (dpp)";
    case op_form::sdwa_word: return " (sdwa dst_sel:WORD_1)";
    case op_form::op_sel_dst: return " (op_sel dst)";
    case op_form::op_sel_byte1: return " (op_sel:[0,0,1,0])";
    case op_form::gds: return " (gds)";
  }
  return "";
}
// Also op_sel:[0,0,1,0]: a source's high half, or byte 1 of a byte-select convert's result.
std::vector<op_form> forms_of(const instr_desc& d) {
  std::vector<op_form> out{op_form::plain};
  if (d.has(f_has_dpp)) out.push_back(op_form::dpp);
  if (d.has(f_has_sdwa) && d.accepts(m_sdwa_dst)) out.push_back(op_form::sdwa_word);
  if (d.enc == encoding::vop3 && d.accepts(m_op_sel) && d.op_sel_len > 0) out.push_back(op_form::op_sel_dst);
  if (d.enc == encoding::vop3 && d.accepts(m_op_sel) && d.op_sel_len == 4) out.push_back(op_form::op_sel_byte1);
  if (d.accepts(m_gds) && !d.has(f_needs_gds)) out.push_back(op_form::gds);
  return out;
}

// hipasm's view: the instruction's hazard kind.
uint32_t library_kind(const instr_desc& d, op_form f) {
  modifiers m;
  if (f == op_form::dpp) m.dpp.ctrl = 0x111;
  if (f == op_form::sdwa_word) m.sdwa.on = true, m.sdwa.dst_sel = 5;
  if (f == op_form::op_sel_dst) m.op_sel = uint8_t(1u << (d.op_sel_len - 1));
  if (f == op_form::op_sel_byte1) m.op_sel = 4;
  if (f == op_form::gds) m.gds = true;
  const uint32_t internal = hipasm::detail::hk_op_store | hipasm::detail::hk_op_m0_read | hipasm::detail::hk_op_known;
  return (hipasm::detail::opcode_hazard_kind(d) & ~internal) | hipasm::detail::modifier_hazard_kind(d, packed_modifiers(m));
}

// The checker's view: hz::classify of the instruction as the decoder would give it.
uint64_t checker_flags(const instr_desc& d, op_form f) {
  sim::Inst in;
  in.format = static_cast<sim::Format>(d.enc);
  in.mnemonic = std::string(d.name);
  if (d.enc == encoding::vop3p) in.mod.op_sel_hi = 7;  // the default op_sel_hi:[1,1,1]
  if (d.enc == encoding::mubuf && d.has(f_lds_dma)) in.mod.lds = true;
  if (f == op_form::dpp) in.mod.dpp = true;
  if (f == op_form::sdwa_word) in.mod.sdwa = true, in.mod.dst_sel = 5;
  if (f == op_form::op_sel_dst) in.mod.op_sel = 8;  // the encoding's dst bit
  if (f == op_form::op_sel_byte1) in.mod.op_sel = 4;
  if (f == op_form::gds) in.mod.gds = true;
  // Stores and atomics: their data operand (src[1]), as wide as the table says; MUBUF with
  // an immediate soffset (the checker's wide-store rule needs both).
  const bool mem = d.enc == encoding::mubuf || d.enc == encoding::global || d.enc == encoding::flat ||
                   d.enc == encoding::scratch;
  if (mem && (d.has(f_store) || d.has(f_atomic))) {
    int w = 0;
    for (int i = 0; i < d.num_operands; ++i)
      if (d.operands[i].role != operand_role::def && (d.operands[i].classes & (oc_vgpr | oc_agpr)))
        w = std::max(w, int(d.operands[i].dwords));
    in.src[1].kind = sim::Operand::Vgpr;
    in.src[1].reg = 0;
    in.src[1].dwords = uint8_t(w);
    in.src[3].kind = sim::Operand::Const;
    in.num_src = 4;
  }
  return hz::classify(in).flags;
}
constexpr uint64_t operand_flags = hz::WRITES_EXEC | hz::WRITES_VCC | hz::WRITES_M0 | hz::READS_VCCZ |
                                   hz::READS_EXECZ | hz::READS_EXEC;
bool checker_match(uint64_t flags, uint64_t all, uint64_t any, uint64_t none) {
  return hz::matches(flags, all & ~operand_flags, any & ~operand_flags, none & ~operand_flags);
}

// ---- LLVM 22's classes (SIInstrInfo::isVALU/isMFMA/isDOT/isTRANS/isDPP..., gfx940).
bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has_text(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }
struct llvm_class {
  bool valu, mfma, dgemm, xdl, dot, trans, vmem_or_flat, ds, salu, dpp, partial_dst, wide_store, m0_reader;
  bool rfe, setreg, getreg, div_fmas, rw_lane, readlane, readfirstlane, writelane, fma64, permlane;
  bool cvt_forward;  // gfx950's hasCvtScaleForwardingHazard producers
};
llvm_class llvm_of(const instr_desc& d, op_form f) {
  const std::string_view n = d.name;
  llvm_class c{};
  const auto e = d.enc;
  const bool lds_dma = starts(n, "global_load_lds_") || starts(n, "scratch_load_lds_") ||
                       (e == encoding::mubuf && d.has(f_lds_dma));
  // SIInstrInfo::isVALU: the VALU encodings, and the LDS-DMA loads (VALU = 1 in their
  // pseudos: isLdsDma is isVALU && MUBUF/FLAT).
  c.valu = e == encoding::vop1 || e == encoding::vop2 || e == encoding::vopc || e == encoding::vop3 ||
           e == encoding::vop3p || e == encoding::mfma || lds_dma;
  c.mfma = starts(n, "v_mfma_") || starts(n, "v_smfmac_");
  c.dgemm = starts(n, "v_mfma_f64_");
  // getMAIIsGFX940XDL: every MFMA but DGEMM and the five f32-input ones.
  static const std::set<std::string_view> non_xdl{"v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_16x16x1_4b_f32",
                                                  "v_mfma_f32_4x4x1_16b_f32", "v_mfma_f32_32x32x2_f32",
                                                  "v_mfma_f32_16x16x4_f32"};
  c.xdl = c.mfma && !c.dgemm && !non_xdl.count(n);
  c.dot = starts(n, "v_dot");
  // VOP1Instructions.td: TRANS = 1.
  static const std::set<std::string_view> trans{
      "v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32", "v_rcp_f64",
      "v_rsq_f64", "v_sqrt_f64", "v_sin_f32", "v_cos_f32", "v_rcp_f16", "v_sqrt_f16", "v_rsq_f16",
      "v_log_f16", "v_exp_f16", "v_sin_f16", "v_cos_f16", "v_exp_legacy_f32", "v_log_legacy_f32"};
  c.trans = trans.count(n) != 0;
  c.vmem_or_flat = e == encoding::mubuf || e == encoding::global || e == encoding::scratch || e == encoding::flat;
  c.ds = e == encoding::ds;
  c.salu = e == encoding::sop1 || e == encoding::sop2 || e == encoding::sopk || e == encoding::sopc ||
           e == encoding::sopp;
  c.dpp = f == op_form::dpp;
  // hasDstSelForwardingHazard: SDWA dst_sel != DWORD; op_sel operand with src0_modifiers bit 3
  // (VOP3: dst-high). DELIBERATE DEPARTURE: in VOP3P that bit is op_sel_hi[0] (set by
  // default), so LLVM 22 also counts every v_pk_* / v_fma_mix* / v_pk_mad* (llc-22:
  // v_pk_mul_f32; s_nop 0; v_pk_add_f32). AMD's production asm reads packed results at once
  // (aiter's gfx942 code objects: 6104 times in 400 files), so neither table takes VOP3P.
  // getDstSelForwardingOperand's FP8 kind, on gfx942 too: a byte-select convert writing byte 1
  // or 3 (src2_modifiers OP_SEL_0; llc-22 -mcpu=gfx942: v_cvt_sr_fp8_f32 op_sel:[0,0,1,0];
  // s_nop 0; v_add_u32 reading it).
  const bool byte_sel = starts(n, "v_cvt_scalef32_sr_fp8_") || starts(n, "v_cvt_scalef32_sr_bf8_") ||
                        starts(n, "v_cvt_scalef32_pk_fp4_") || n == "v_cvt_sr_fp8_f32" || n == "v_cvt_sr_bf8_f32";
  c.partial_dst = c.valu && (f == op_form::sdwa_word || f == op_form::op_sel_dst || (byte_sel && f == op_form::op_sel_byte1));
  // createsVALUHazard: a MUBUF/FLAT store or atomic with > 64-bit vdata.
  const bool writes_mem = has_text(n, "_store") || has_text(n, "_atomic_");
  c.wide_store = c.vmem_or_flat && writes_mem &&
                 (has_text(n, "dwordx3") || has_text(n, "dwordx4") || has_text(n, "cmpswap_x2") ||
                  (has_text(n, "_format_xyz") && !has_text(n, "_d16")));
  // checkReadM0Hazards on gfx9: s_movrel*, DS_READ/WRITE_ADDTID_B32, s_sendmsg(halt),
  // s_ttracedata, always-GDS (ds_gws_*) and gds DS, LDS-DMA (isVALU && MUBUF/FLAT).
  c.m0_reader = starts(n, "s_movrel") || n == "ds_read_addtid_b32" || n == "ds_write_addtid_b32" ||
                n == "s_sendmsg" || n == "s_sendmsghalt" || n == "s_ttracedata" || starts(n, "ds_gws_") ||
                (c.ds && f == op_form::gds) || lds_dma;
  c.setreg = n == "s_setreg_b32" || n == "s_setreg_imm32_b32";
  c.getreg = n == "s_getreg_b32";
  c.rfe = n == "s_rfe_b64";  // isRFE
  c.div_fmas = n == "v_div_fmas_f32" || n == "v_div_fmas_f64";
  c.readlane = n == "v_readlane_b32";
  c.readfirstlane = n == "v_readfirstlane_b32";
  c.writelane = n == "v_writelane_b32";
  c.rw_lane = c.readlane || c.writelane;
  c.fma64 = n == "v_fma_f64" || n == "v_fmac_f64";
  // isPermlane; on gfx950 checkPermlaneHazards takes the swaps (llc-22 -mcpu=gfx950: s_nop 1
  // after a VALU writes a swap's VGPR, s_nop 3 after one writes EXEC).
  c.permlane = n == "v_permlane16_b32" || n == "v_permlanex16_b32" || n == "v_permlane64_b32" ||
               n == "v_permlane16_swap_b32" || n == "v_permlane32_swap_b32";
  // getDstSelForwardingOperand on gfx950 (llc-22 -run-pass=post-RA-hazard-rec -mcpu=gfx950 over
  // each opcode and op_sel): FP8 kind (byte select: op_sel[2] or [3] set) and FP4 kind (any).
  c.cvt_forward = starts(n, "v_cvt_scalef32_sr_pk_fp4_") ||
                  (byte_sel && (f == op_form::op_sel_dst || f == op_form::op_sel_byte1));
  return c;
}
// Per rule id: LLVM's producer and consumer classes.
bool llvm_producer(std::string_view id, const llvm_class& c) {
  if (id == "valu-sgpr-vmem") return c.valu;       // checkVMEMHazards: IsHazardDefFn = isVALU
  if (id == "vcc-div-fmas") return c.valu;         // checkDivFMasHazards
  if (id == "sgpr-lane-select") return c.valu;     // checkRWLaneHazards
  if (id == "setreg-getreg") return c.setreg;      // checkGetRegHazards / checkSetRegHazards
  if (id == "setreg-rfe") return c.setreg;         // checkRFEHazards (hasRFEHazards: VI+)
  if (id == "salu-m0") return c.salu;              // checkReadM0Hazards: isSALU
  if (id == "vgpr-dpp") return true;               // checkDPPHazards: any def of the VGPR
  if (id == "exec-dpp") return c.valu;             // checkDPPHazards: isVALU writes EXEC
  if (id == "big-store-data") return c.wide_store; // checkVALUHazardsHelper / createsVALUHazard
  if (id == "vcc-exec-z") return c.valu;           // ISA manual row; LLVM has none
  if (id == "valu-sgpr-valu") return c.valu;       // checkVALUHazards, hasVDecCoExecHazard
  if (id == "exec-readlane") return c.valu;        // checkVALUHazards, VALUWriteEXECRWLane
  if (id == "vgpr-readlane-src0") return c.valu;   // checkVALUHazards, VALUWriteVGPRReadlaneRead
  if (id == "trans-use") return c.trans;           // checkVALUHazards, hasTransForwardingHazard
  if (id == "dst-partial-use") return c.partial_dst;  // checkVALUHazards, hasDstSelForwardingHazard
  if (id == "vgpr-permlane") return c.valu;        // ISA manual row (no v_permlane on gfx942)
  if (id == "exec-mfma") return c.valu && !c.mfma; // checkMAIHazards90A: IsLegacyVALUFn
  if (id == "valu-vgpr-mfma") return c.valu && !c.mfma && !c.dot;  // IsLegacyVALUNotDotFn
  if (id == "mfma-srcc" || id == "mfma-srcab") return c.mfma;       // checkMAIHazards90A
  if (id == "mfma-read" || id == "mfma-waw") return c.mfma;         // checkMAIVALUHazards
  if (id == "mfma-srcc-war") return c.xdl;         // checkMAIVALUHazards: IsSMFMAReadAsCFn (gfx940: XDL)
  if (id == "dgemm-fma64") return c.dgemm;         // checkMAIVALUHazards: DMFMAToFMA64WaitStates
  if (id == "dot-same-srcab" || id == "dot-read-other" || id == "dot-write-other") return c.dot;  // IsDotWriteFn
  if (id == "cmpx-permlane") return c.valu;        // checkPermlaneHazards: a VALU writing EXEC
  if (id == "cvt-scale-forward") return c.cvt_forward;  // checkVALUHazards, IsShift16BitDefFn
  FAIL("no LLVM producer class for rule " << id);
  return false;
}
bool llvm_consumer(std::string_view id, const llvm_class& c) {
  const bool mai_valu_consumer = (c.valu && !c.mfma) || c.vmem_or_flat || c.ds;  // checkMAIVALUHazards
  if (id == "valu-sgpr-vmem") return c.vmem_or_flat;
  if (id == "vcc-div-fmas") return c.div_fmas;
  if (id == "sgpr-lane-select") return c.rw_lane;  // isRWLane: v_readlane_b32, v_writelane_b32
  if (id == "setreg-getreg") return c.getreg || c.setreg;
  if (id == "setreg-rfe") return c.rfe;
  if (id == "salu-m0") return c.m0_reader;
  if (id == "vgpr-dpp" || id == "exec-dpp") return c.dpp;
  if (id == "big-store-data") return c.valu;
  if (id == "vcc-exec-z") return c.valu;
  if (id == "valu-sgpr-valu") return c.valu;
  if (id == "exec-readlane") return c.readlane || c.readfirstlane || c.writelane;
  if (id == "vgpr-readlane-src0") return c.readlane || c.readfirstlane;
  if (id == "trans-use") return c.valu && !c.trans;
  if (id == "dst-partial-use") return c.valu;
  if (id == "vgpr-permlane") return c.permlane;
  if (id == "exec-mfma" || id == "valu-vgpr-mfma" || id == "mfma-srcc" || id == "mfma-srcab") return c.mfma;
  if (id == "mfma-read" || id == "mfma-waw" || id == "mfma-srcc-war") return mai_valu_consumer;
  if (id == "dgemm-fma64") return c.fma64;
  if (id == "dot-same-srcab") return c.dot;
  if (id == "dot-read-other" || id == "dot-write-other") return mai_valu_consumer;
  if (id == "cmpx-permlane") return c.permlane;
  if (id == "cvt-scale-forward") return c.valu;  // consumesDstSelForwardingOperand: any VALU
  FAIL("no LLVM consumer class for rule " << id);
  return false;
}

using opset = std::set<std::string>;
std::string list(const opset& s) {
  std::string out;
  for (const auto& x : s) out += "  " + x + "\n";
  return out;
}
// Lines naming what one side has and the other lacks (empty when equal).
std::string difference(const std::string& what, const char* a_name, const opset& a, const char* b_name,
                       const opset& b) {
  opset only_a, only_b;
  for (const auto& x : a)
    if (!b.count(x)) only_a.insert(x);
  for (const auto& x : b)
    if (!a.count(x)) only_b.insert(x);
  std::string out;
  if (!only_a.empty()) out += what + ": in " + a_name + " only:\n" + list(only_a);
  if (!only_b.empty()) out += what + ": in " + b_name + " only:\n" + list(only_b);
  return out;
}

// The three tables' producer and consumer sets of every rule that holds on `target`, over
// every opcode of `instrs` in each form; the report lists what one side has and the other lacks.
struct set_report {
  std::string text;
  std::size_t sim_only = 0;  // opcodes of the simulator's decode table that hipasm's table lacks
  std::map<std::string, opset> ref_p, ref_c;
};
// The simulator's opcodes (its decode table, named without the _e32/_e64/_sdwa/_dpp that
// llvm-mc prints, and its MFMA cost table) that hipasm's table of the target lacks, as
// descriptions of name and encoding only: compared in the plain form, checker against LLVM.
// On gfx950 these are the scaled MFMAs (hipasm writes their v_mfma_ld_scale_b32 word itself;
// the decoder joins that prefix word with the MFMA after it, so it is no instruction here).
std::vector<instr_desc> sim_only_opcodes(const hipasm::sim::Target& target, const std::set<std::string>& lib,
                                         std::deque<std::string>& names) {
  std::vector<instr_desc> out;
  std::set<std::string> seen;
  auto add = [&](std::string name, hipasm::sim::Format fmt) {
    for (const char* suffix : {"_e32", "_e64", "_sdwa", "_dpp"}) {
      const std::string_view sv = suffix;
      if (name.size() > sv.size() && name.compare(name.size() - sv.size(), sv.size(), sv) == 0)
        name.resize(name.size() - sv.size());
    }
    if (lib.count(name) || name == "v_mfma_ld_scale_b32" || !seen.insert(name).second) return;
    instr_desc d{};
    d.name = names.emplace_back(std::move(name));
    d.enc = static_cast<encoding>(fmt);
    out.push_back(d);
  };
  for (const auto& row : target.opcodes) add(row.printed, row.fmt);
  for (const auto& cost : target.mfma_costs) add(cost.mnemonic, hipasm::sim::Format::MFMA);
  return out;
}

template <class Instrs, class Rules>
set_report compare_sets(const Instrs& instrs, const Rules& lib_rules, const hipasm::sim::Target& target) {
  // Rule ids: the checker's table is the list; every hipasm row names one of them.
  std::map<std::string, opset> lib_p, lib_c, sim_p, sim_c;
  set_report out;
  auto& ref_p = out.ref_p;
  auto& ref_c = out.ref_c;
  std::set<std::string> ids;
  auto holds = [&](const hz::Rule& r) { return hz::rule_applies(r, target); };
  for (const hz::Rule& r : hz::rules())
    if (holds(r)) ids.insert(r.id);
  for (const hazard_rule& r : lib_rules) {
    INFO(r.name);
    CHECK(ids.count(std::string(r.id)) == 1);
  }
  std::set<std::string> lib_names;
  for (const instr_desc& d : instrs) lib_names.insert(std::string(d.name));
  std::deque<std::string> extra_names;
  const std::vector<instr_desc> extra = sim_only_opcodes(target, lib_names, extra_names);
  out.sim_only = extra.size();
  std::vector<const instr_desc*> all;
  for (const instr_desc& d : instrs) all.push_back(&d);
  for (const instr_desc& d : extra) all.push_back(&d);
  std::map<std::string, opset> ref_lib_p, ref_lib_c;  // LLVM's sets over hipasm's opcodes
  for (const instr_desc* dp : all) {
    const instr_desc& d = *dp;
    const bool in_lib = lib_names.count(std::string(d.name)) != 0;
    for (op_form f : forms_of(d)) {
      const std::string name = std::string(d.name) + form_name(f);
      const uint32_t k = in_lib ? library_kind(d, f) : 0;
      const uint64_t flags = checker_flags(d, f);
      const llvm_class lc = llvm_of(d, f);
      for (const hazard_rule& r : lib_rules) {
        if (!in_lib) break;
        if (hipasm::detail::hazard_rule_producer(r.check, k)) lib_p[std::string(r.id)].insert(name);
        if (hipasm::detail::hazard_rule_consumer(r.check, k)) lib_c[std::string(r.id)].insert(name);
      }
      for (const hz::Rule& r : hz::rules()) {
        if (!holds(r)) continue;
        if (checker_match(flags, r.prod_all, r.prod_any, r.prod_none)) sim_p[r.id].insert(name);
        if (checker_match(flags, r.cons_all, r.cons_any, r.cons_none)) sim_c[r.id].insert(name);
      }
      for (const auto& id : ids) {
        if (llvm_producer(id, lc)) {
          ref_p[id].insert(name);
          if (in_lib) ref_lib_p[id].insert(name);
        }
        if (llvm_consumer(id, lc)) {
          ref_c[id].insert(name);
          if (in_lib) ref_lib_c[id].insert(name);
        }
      }
    }
  }
  std::ostringstream report;
  for (const auto& id : ids) {
    report << difference(id + " producers", "hipasm", lib_p[id], "LLVM", ref_lib_p[id])
           << difference(id + " producers", "hipasm-sim", sim_p[id], "LLVM", ref_p[id])
           << difference(id + " consumers", "hipasm", lib_c[id], "LLVM", ref_lib_c[id])
           << difference(id + " consumers", "hipasm-sim", sim_c[id], "LLVM", ref_c[id]);
  }
  out.text = report.str();
  return out;
}

}  // namespace

// gfx942's rows only: gfx950's own rows have no gfx942 opcodes to compare.
TEST_CASE("hazard sets: producers and consumers of every rule agree (hipasm, hipasm-sim, LLVM)",
          "[checker][crosscheck][hazard-sets]") {
  CHECK(isa::gfx942_instrs.size() == isa::gfx942_num_instrs);
  auto r = compare_sets(isa::gfx942_instrs, gfx942_hazard_rules, hipasm::sim::target_gfx942());
  INFO(r.text);
  CHECK(r.text.empty());
  // The sets are not trivially empty (a class predicate that matches nothing would agree).
  CHECK(r.ref_c["vgpr-dpp"].size() > 50);
  CHECK(r.ref_p["trans-use"].size() >= 18);
  CHECK(r.ref_c["salu-m0"].count("ds_write_addtid_b32"));
  CHECK(r.ref_p["dst-partial-use"].count("v_pack_b32_f16 (op_sel dst)"));
  CHECK(!r.ref_p["dst-partial-use"].count("v_pk_fma_f32"));
  CHECK(r.ref_p["dst-partial-use"].count("v_cvt_sr_fp8_f32 (op_sel:[0,0,1,0])"));
  CHECK(!r.ref_p["dst-partial-use"].count("v_fma_f16 (op_sel:[0,0,1,0])"));
}

// Every gfx950 opcode against the gfx950 rows of both tables and LLVM's gfx950 classes
// (IsGFX950: the permlane swaps, the scaled converts; the wait states are
// test_checker_crosscheck's).
TEST_CASE("hazard sets gfx950: producers and consumers of every rule agree (hipasm, hipasm-sim, LLVM)",
          "[checker][crosscheck][hazard-sets][gfx950]") {
  CHECK(isa::gfx950_instrs.size() == isa::gfx950_num_instrs);
  auto r = compare_sets(isa::gfx950_instrs, gfx950_hazard_rules, hipasm::sim::target_gfx950());
  INFO(r.text);
  CHECK(r.text.empty());
  CHECK(r.ref_c["cmpx-permlane"] == opset{"v_permlane16_swap_b32", "v_permlane32_swap_b32"});
  CHECK(r.ref_p["cvt-scale-forward"].count("v_cvt_scalef32_sr_pk_fp4_f16"));
  CHECK(r.ref_p["cvt-scale-forward"].count("v_cvt_sr_bf8_f32 (op_sel:[0,0,1,0])"));
  CHECK(!r.ref_p["cvt-scale-forward"].count("v_cvt_scalef32_sr_fp8_f32"));  // byte 0
  // The scaled MFMAs are in both tables now (hipasm's generator enumerates the ld_scale pair):
  // every simulator opcode has a hipasm row, and theirs agree with LLVM's like the rest.
  CHECK(r.sim_only == 0);
  CHECK(r.ref_p["mfma-read"].count("v_mfma_scale_f32_16x16x128_f8f6f4"));
  CHECK(r.ref_p["mfma-read"].count("v_mfma_scale_f32_32x32x64_f8f6f4"));
}
