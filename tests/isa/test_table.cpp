// Generated-table tests against the oracle (llvm-mc-22 for the target, targets/select.hpp):
//  - every table entry, instantiated with legal operands chosen from its own operand
//    classes, passes check() and assembles, and the disassembler names the same mnemonic;
//  - for every operand slot and every operand kind, check() accepts exactly what llvm-mc
//    accepts (the checker's rules and the assembler's agree slot by slot).
#include <catch2/catch.hpp>

#include <map>

#include "isa_test_util.hpp"

using namespace isa_test;

namespace {

struct reg_alloc {
  int s = 20, v = 20, a = 20;
  operand take(reg_class c, int dw) {
    int& next = c == reg_class::sgpr ? s : c == reg_class::vgpr ? v : a;
    int align = c == reg_class::sgpr ? (dw >= 4 ? 4 : dw == 2 ? 2 : 1) : (dw >= 2 ? 2 : 1);
    next = (next + align - 1) / align * align;
    operand o = reg(c, next, dw);
    next += dw;
    return o;
  }
};

// A legal operand for slot i, from the slot's classes (VGPRs first: they never touch the
// constant bus; `off` before an SGPR base so global vaddr stays 64-bit).
operand legal_operand(const instr_desc& d, int i, reg_alloc& ra) {
  const operand_desc& od = d.operands[i];
  const uint16_t c = od.classes;
  const int dw = od.dwords;
  if (c & oc_vgpr) return ra.take(reg_class::vgpr, dw);
  if (c & oc_agpr) return ra.take(reg_class::agpr, dw);
  if (c & oc_off) return isa_test::off();
  if (c & oc_sgpr) return ra.take(reg_class::sgpr, dw);
  if (c & oc_vcc) return special(dw == 2 ? special_reg::vcc : special_reg::vcc_lo);
  if (c & oc_exec) return special(dw == 2 ? special_reg::exec : special_reg::exec_lo);
  if (c & oc_m0) return special(special_reg::m0);
  if (c & oc_label) return isa_test::label(1);
  if (c & oc_simm16) return imm(0);
  if (c & oc_inline) return imm(1);
  return imm(0x1234);
}

instr instance(uint16_t op) {
  const instr_desc& d = active_target::table[op];
  instr in;
  in.op = op;
  in.num_operands = d.num_operands;
  reg_alloc ra;
  for (int i = 0; i < d.num_operands; ++i) in.ops[i] = legal_operand(d, i, ra);
  if (d.enc == encoding::mubuf)
    for (int i = 0; i < d.num_operands; ++i)
      if ((d.operands[i].classes & oc_off) && in.ops[i].is_reg()) edit_modifiers(in, [&](modifiers& m_) { m_.offen = true; });
  if (d.has(f_returns)) edit_modifiers(in, [&](modifiers& m_) { m_.sc0 = true; });
  if (d.has(f_needs_gds)) edit_modifiers(in, [&](modifiers& m_) { m_.gds = true; });
  if (d.enc == encoding::mubuf && d.has(f_lds_dma)) edit_modifiers(in, [&](modifiers& m_) { m_.lds = true; });
  // Two scalar sources exceed the constant bus (v_writelane_b32 s, s): the later ones
  // become inline constants where the slot takes them.
  for (int i = d.num_operands - 1; i > 0 && !check(d, in).ok; --i)
    if (in.ops[i].k == operand::kind::phys && in.ops[i].cls == reg_class::sgpr &&
        (d.operands[i].classes & oc_inline) && d.operands[i].role == operand_role::use)
      in.ops[i] = imm(1);
  return in;
}

}  // namespace

TEST_CASE("isa_table_assembles: every entry, printed with legal operands, assembles and disassembles to itself") {
  std::vector<std::string> lines;
  std::vector<uint16_t> ops;
  std::vector<std::string> check_failures;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    instr in = instance(op);
    check_result r = check(d, in);
    if (!r.ok) {
      check_failures.push_back(std::string(r.message.view()));
      continue;
    }
    lines.push_back(print(d, in, r.print_e64));
    ops.push_back(op);
  }
  INFO("first check() failure: " << (check_failures.empty() ? "" : check_failures[0]));
  CHECK(check_failures.empty());
  REQUIRE(lines.size() > 1100);

  auto res = assemble(lines);
  REQUIRE(res.size() == lines.size());
  std::vector<std::string> rejected, encodings;
  for (size_t i = 0; i < res.size(); ++i) {
    if (!res[i].ok) rejected.push_back(lines[i] + "  -> " + res[i].text);
    else encodings.push_back(res[i].encoding);
  }
  INFO("rejected by llvm-mc: " << rejected.size() << (rejected.empty() ? "" : "; first: " + rejected[0]));
  CHECK(rejected.empty());

  // Round trip: the disassembler names the table's mnemonic.
  if (rejected.empty()) {
    auto dis = disassemble(encodings);
    REQUIRE(dis.size() == encodings.size());
    std::vector<std::string> wrong;
    for (size_t i = 0; i < dis.size(); ++i) {
      std::string want(active_target::table[ops[i]].name);
      if (mnemonic_of(dis[i]) != want) wrong.push_back(want + " came back as " + dis[i]);
    }
    INFO("mnemonic mismatches: " << wrong.size() << (wrong.empty() ? "" : "; first: " + wrong[0]));
    CHECK(wrong.empty());
  }
}

namespace {
// check() takes a quick path and explains only failures: both paths must agree.
int quick_vs_explained_mismatches = 0;
std::string first_quick_mismatch;
check_result checked(const instr_desc& d, const instr& in) {
  check_result r = check(d, in);
  if (r.ok != check_explained(d, in).ok) {
    if (quick_vs_explained_mismatches++ == 0) first_quick_mismatch = print(d, in, false);
  }
  return r;
}

struct variant {
  uint16_t op;
  int slot;
  std::string kind;
  bool checker_ok;
  std::string text;
  std::string message;
};

// Operands of each kind for a slot of width dw (registers clear of the instance's own).
std::vector<std::pair<std::string, operand>> candidates(int dw) {
  std::vector<std::pair<std::string, operand>> c;
  int sa = dw >= 4 ? 4 : dw == 2 ? 2 : 1;
  int sbase = dw >= 16 ? 64 : 80;
  sbase = (sbase + sa - 1) / sa * sa;
  if (sbase + dw <= 102) c.push_back({"sgpr", reg(reg_class::sgpr, sbase, dw)});
  c.push_back({"vgpr", reg(reg_class::vgpr, 200, dw)});
  c.push_back({"agpr", reg(reg_class::agpr, 200, dw)});
  c.push_back({"inline", imm(1)});
  c.push_back({"literal", imm(0x1234)});
  if (dw == 1) {
    c.push_back({"vcc", special(special_reg::vcc_lo)});
    c.push_back({"exec", special(special_reg::exec_lo)});
    c.push_back({"m0", special(special_reg::m0)});
  } else if (dw == 2) {
    c.push_back({"vcc", special(special_reg::vcc)});
    c.push_back({"exec", special(special_reg::exec)});
  }
  return c;
}

// Checker verdict vs llvm-mc verdict, variant by variant: both directions must agree.
void compare(const std::vector<variant>& vs, const std::vector<mc_result>& res) {
  std::vector<std::string> too_lax, too_strict;
  for (size_t k = 0; k < vs.size(); ++k) {
    if (vs[k].checker_ok && !res[k].ok) too_lax.push_back(vs[k].text + "  -> llvm-mc: " + res[k].text);
    if (!vs[k].checker_ok && res[k].ok) too_strict.push_back(vs[k].text + "  -> check: " + vs[k].message);
  }
  WARN("variants: " << vs.size() << ", checker accepts llvm-mc rejects: " << too_lax.size()
                    << ", checker rejects llvm-mc accepts: " << too_strict.size());
  for (size_t k = 0; k < too_lax.size() && k < 15; ++k) UNSCOPED_INFO("lax: " << too_lax[k]);
  for (size_t k = 0; k < too_strict.size() && k < 15; ++k) UNSCOPED_INFO("strict: " << too_strict[k]);
  CHECK((too_lax.empty() && too_strict.empty()));
  INFO("quick and explained checks disagree on " << quick_vs_explained_mismatches
                                                 << " variants; first: " << first_quick_mismatch);
  CHECK(quick_vs_explained_mismatches == 0);
}
}  // namespace

TEST_CASE("isa_slot_rules_agree: per slot and operand kind, check() accepts exactly what llvm-mc accepts") {
  std::vector<variant> vs;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    const instr base = instance(op);
    for (int i = 0; i < d.num_operands; ++i) {
      const operand_desc& od = d.operands[i];
      if (od.classes & (oc_simm16 | oc_label)) continue;  // immediate fields: range-checked elsewhere
      if (d.enc == encoding::mfma && (d.operands[i].classes & oc_agpr) && d.has(f_acc_tied) && (i == 0 || i == 3))
        continue;  // dst and C change class together (covered by isa_negative)
      if (d.has(f_acc_tied) && !(d.enc == encoding::mfma) && (od.classes & oc_agpr)) continue;  // same
      for (auto& [kind, o] : candidates(od.dwords)) {
        instr in = base;
        in.ops[i] = o;
        check_result r = checked(d, in);
        vs.push_back({op, i, kind, r.ok, print(d, in, r.ok && r.print_e64), std::string(r.message.view())});
      }
    }
  }
  std::vector<std::string> lines;
  for (auto& v : vs) lines.push_back(v.text);
  auto res = assemble(lines);
  REQUIRE(res.size() == vs.size());
  compare(vs, res);
}

TEST_CASE("isa_modifiers_agree: per instruction and modifier, check() accepts exactly what llvm-mc accepts") {
  struct mod_probe {
    const char* name;
    void (*set)(modifiers&);
  };
  static const mod_probe probes[] = {
      {"offset", [](modifiers& m) { m.offset = 16; }},
      {"offset1", [](modifiers& m) { m.offset1 = 2; }},
      {"glc", [](modifiers& m) { m.glc = true; }},
      {"slc", [](modifiers& m) { m.slc = true; }},
      {"nt", [](modifiers& m) { m.nt = true; }},
      {"sc0", [](modifiers& m) { m.sc0 = true; }},
      {"sc1", [](modifiers& m) { m.sc1 = true; }},
      {"gds", [](modifiers& m) { m.gds = true; }},
      {"clamp", [](modifiers& m) { m.clamp = true; }},
      {"omod", [](modifiers& m) { m.omod = 1; }},
      {"op_sel", [](modifiers& m) { m.op_sel = 1; }},
      {"op_sel_hi", [](modifiers& m) { m.op_sel_hi = 0; }},
      {"neg_lo", [](modifiers& m) { m.neg_lo = 1; }},
      {"neg_hi", [](modifiers& m) { m.neg_hi = 1; }},
      {"cbsz", [](modifiers& m) { m.cbsz = 1; }},
      {"abid", [](modifiers& m) { m.abid = 1; }},
      {"blgp", [](modifiers& m) { m.blgp = 1; }},
      {"bitop3", [](modifiers& m) { m.bitop3 = 0x96; }},
      {"dpp", [](modifiers& m) { m.dpp.ctrl = 0x101; }},
      {"sdwa", [](modifiers& m) { m.sdwa = {.on = true, .dst_sel = 6, .dst_unused = 0, .src0_sel = 5, .src1_sel = 6}; }},
  };
  std::vector<variant> vs;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    const instr base = instance(op);
    if (!check(d, base).ok) continue;
    for (const mod_probe& p : probes) {
      instr in = base;
      edit_modifiers(in, p.set);
      check_result r = checked(d, in);
      // clamp/omod belong to the VOP3 form: spell it, or llvm-mc may pick SDWA (which has clamp)
      bool vop3_mod = in.mods.clamp() || in.mods.omod();
      bool e64 = r.ok ? r.print_e64 : (vop3_mod && d.has(f_has_e64));
      vs.push_back({op, -1, p.name, r.ok, print(d, in, e64), std::string(r.message.view())});
    }
    // neg / abs on each source register
    for (int i = 0; i < d.num_operands; ++i) {
      if (d.operands[i].role == operand_role::def || !base.ops[i].is_reg()) continue;
      for (int which = 0; which < 2; ++which) {
        instr in = base;
        (which ? in.ops[i].abs : in.ops[i].neg) = true;
        check_result r = checked(d, in);
        vs.push_back({op, i, which ? "abs" : "neg", r.ok, print(d, in, r.ok && r.print_e64),
                      std::string(r.message.view())});
      }
    }
  }
  std::vector<std::string> lines;
  for (auto& v : vs) lines.push_back(v.text);
  auto res = assemble(lines);
  REQUIRE(res.size() == vs.size());
  compare(vs, res);
}

TEST_CASE("isa_dpp_sdwa_agree: DPP and SDWA operand rules agree with llvm-mc") {
  std::vector<variant> vs;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    if (!d.has(f_has_dpp | f_has_sdwa)) continue;
    const instr base = instance(op);
    for (int mode = 0; mode < 2; ++mode) {
      for (int i = -1; i < d.num_operands; ++i) {
        for (auto& [kind, o] : candidates(i < 0 ? 1 : d.operands[i].dwords)) {
          if (i < 0 && kind != "vgpr") continue;  // i = -1: the instance itself
          instr in = base;
          if (i >= 0) in.ops[i] = o;
          if (mode == 0) edit_modifiers(in, [&](modifiers& m_) { m_.dpp.ctrl = 0x111; });  // row_shr:1
          else edit_modifiers(in, [&](modifiers& m_) { m_.sdwa = {.on = true, .dst_sel = 6, .dst_unused = 0, .src0_sel = 4, .src1_sel = 6}; });
          check_result r = checked(d, in);
          vs.push_back({op, i, kind + (mode ? "/sdwa" : "/dpp"), r.ok, print(d, in, false), std::string(r.message.view())});
        }
      }
    }
  }
  std::vector<std::string> lines;
  for (auto& v : vs) lines.push_back(v.text);
  auto res = assemble(lines);
  REQUIRE(res.size() == vs.size());
  compare(vs, res);
}

TEST_CASE("isa_op_sel_length: the table's op_sel length is the one llvm-mc prints") {
  // Every entry of op_sel set: llvm-mc drops entries past the encoding's last and pads a short
  // list, so its printed list has exactly the encoding's length (the dst bit is the last entry:
  // the hazard rules and liveness read it there). v_cvt_pk_fp8_f32 had 4 (its vdst, also read,
  // was counted as a source) where llvm-mc has 3.
  std::vector<uint16_t> ops;
  std::vector<std::string> lines;
  for (uint16_t op = 0; op < active_target::table.size(); ++op) {
    const instr_desc& d = active_target::table[op];
    if (d.op_sel_len == 0 || d.enc == encoding::vop3p || d.enc == encoding::mfma) continue;
    instr in = instance(op);
    if (!check(d, in).ok) continue;
    std::string t = print(d, in, true);
    t += " op_sel:[";
    for (int k = 0; k < d.op_sel_len; ++k) t += k ? ",1" : "1";
    lines.push_back(t + "]");
    ops.push_back(op);
  }
  REQUIRE(!lines.empty());
  auto res = assemble(lines);
  REQUIRE(res.size() == lines.size());
  std::vector<std::string> wrong;
  for (size_t k = 0; k < res.size(); ++k) {
    const auto& txt = res[k].text;
    auto at = txt.find("op_sel:[");
    int printed = 0;
    if (res[k].ok && at != std::string::npos) {
      printed = 1;
      for (size_t c = at; c < txt.size() && txt[c] != ']'; ++c) printed += txt[c] == ',';
    }
    if (!res[k].ok || printed != active_target::table[ops[k]].op_sel_len)
      wrong.push_back(lines[k] + "  -> llvm-mc: " + txt);
  }
  for (size_t k = 0; k < wrong.size() && k < 15; ++k) UNSCOPED_INFO(wrong[k]);
  CHECK(wrong.empty());
}
