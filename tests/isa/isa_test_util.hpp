// Test helpers: build instructions on physical registers, print them as llvm-mc-22 spells
// them (a printer of the tests' own, independent of the library's emitter), and run
// llvm-mc-22 on many lines at once (the oracle).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "hipasm/isa/check.hpp"
#include "hipasm/targets/select.hpp"

namespace isa_test {
using namespace hipasm;
using namespace hipasm::isa;

inline operand reg(reg_class c, int first, int dwords) {
  operand o;
  o.k = operand::kind::phys;
  o.cls = c;
  o.value = static_cast<uint64_t>(first);
  o.dwords = static_cast<uint16_t>(dwords);
  return o;
}
inline operand special(special_reg r) {
  operand o;
  o.k = operand::kind::special;
  o.sp = r;
  o.dwords = (r == special_reg::vcc || r == special_reg::exec) ? 2 : 1;
  return o;
}
inline operand imm(uint64_t v) {
  operand o;
  o.k = operand::kind::imm;
  o.value = v;
  return o;
}
inline operand off() { return operand{}; }
inline operand label(int id) {
  operand o;
  o.k = operand::kind::label;
  o.value = static_cast<uint64_t>(id);
  return o;
}

inline std::string reg_text(const operand& o) {
  char p = o.cls == reg_class::sgpr ? 's' : o.cls == reg_class::vgpr ? 'v' : 'a';
  if (o.dwords == 1) return p + std::to_string(o.value);
  return std::string(1, p) + "[" + std::to_string(o.value) + ":" + std::to_string(o.value + o.dwords - 1) + "]";
}

inline std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

inline std::string operand_text(const instr_desc& d, int i, const operand& o) {
  std::string s;
  switch (o.k) {
    case operand::kind::phys:
    case operand::kind::vreg: s = reg_text(o); break;
    case operand::kind::special:
      switch (o.sp) {
        case special_reg::vcc: s = "vcc"; break;
        case special_reg::vcc_lo: s = "vcc_lo"; break;
        case special_reg::exec: s = "exec"; break;
        case special_reg::exec_lo: s = "exec_lo"; break;
        case special_reg::m0: s = "m0"; break;
        default: s = "?"; break;
      }
      break;
    case operand::kind::imm: {
      auto sv = static_cast<int64_t>(o.value);
      imm_kind k = d.operands[i].imm;
      if (sv >= -16 && sv <= 64) s = std::to_string(sv);
      else if (k == imm_kind::simm16 || k == imm_kind::smem_offset) s = std::to_string(sv);
      else if (sv < 0 && sv >= INT32_MIN) s = std::to_string(sv);
      else s = hex(o.value);  // the whole value: llvm-mc judges whether it fits
      break;
    }
    case operand::kind::label: s = "L" + std::to_string(o.value); break;
    case operand::kind::none: s = "off"; break;
  }
  if (o.abs) s = "|" + s + "|";
  if (o.neg) s = "-" + s;
  return s;
}

// llvm-mc syntax of one instruction; `form_suffix` adds _e64 where the checker says so.
inline std::string print(const instr_desc& d, const instr& in, bool e64_suffix) {
  std::string s(d.name);
  if (e64_suffix) s += "_e64";
  for (int i = 0; i < in.num_operands; ++i) s += (i ? ", " : " ") + operand_text(d, i, in.ops[i]);
  const modifiers m = in.mods.unpack();
  if (m.idxen) s += " idxen";
  if (m.offen) s += " offen";
  if (d.accepts(m_offset01) && (m.offset || m.offset1))
    s += " offset0:" + std::to_string(m.offset) + " offset1:" + std::to_string(m.offset1);
  else {
    if (m.offset) s += " offset:" + std::to_string(m.offset);
    if (m.offset1) s += " offset1:" + std::to_string(m.offset1);  // (illegal here: llvm-mc must say so)
  }
  if (m.glc) s += " glc";
  if (m.slc) s += " slc";
  if (m.sc0) s += " sc0";
  if (m.sc1) s += " sc1";
  if (m.nt) s += " nt";
  if (m.lds) s += " lds";
  if (m.gds) s += " gds";
  if (m.clamp) s += " clamp";
  if (m.omod == 1) s += " mul:2";
  if (m.omod == 2) s += " mul:4";
  if (m.omod == 3) s += " div:2";
  auto bits = [&](std::string_view name, unsigned v, int n) {
    s += " " + std::string(name) + ":[";
    for (int i = 0; i < n; ++i) s += std::string(i ? "," : "") + ((v >> i) & 1 ? "1" : "0");
    s += "]";
  };
  if (m.bitop3) s += " bitop3:" + std::to_string(m.bitop3);  // (llvm-mc prints it before op_sel)
  if (m.op_sel) bits("op_sel", m.op_sel, d.op_sel_len);
  if (m.op_sel_hi != 0xff) bits("op_sel_hi", m.op_sel_hi, d.op_sel_hi_len);
  if (m.neg_lo) bits("neg_lo", m.neg_lo, d.op_sel_hi_len);
  if (m.neg_hi) bits("neg_hi", m.neg_hi, d.op_sel_hi_len);
  if (m.dpp.ctrl != 0xffff) {
    unsigned c = m.dpp.ctrl;
    if (c <= 0xff)
      s += " quad_perm:[" + std::to_string(c & 3) + "," + std::to_string((c >> 2) & 3) + "," +
           std::to_string((c >> 4) & 3) + "," + std::to_string((c >> 6) & 3) + "]";
    else if (c > 0x100 && c < 0x110) s += " row_shl:" + std::to_string(c & 15);
    else if (c > 0x110 && c < 0x120) s += " row_shr:" + std::to_string(c & 15);
    else if (c > 0x120 && c < 0x130) s += " row_ror:" + std::to_string(c & 15);
    else if (c == 0x140) s += " row_mirror";
    else if (c == 0x141) s += " row_half_mirror";
    else if (c == 0x142) s += " row_bcast:15";
    else if (c == 0x143) s += " row_bcast:31";
    s += " row_mask:" + hex(m.dpp.row_mask) + " bank_mask:" + hex(m.dpp.bank_mask);
    if (m.dpp.bound_ctrl) s += " bound_ctrl:1";
  }
  if (m.sdwa.on) {
    static const char* sel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
    static const char* unused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"};
    if (d.accepts(m_sdwa_dst))
      s += std::string(" dst_sel:") + sel[m.sdwa.dst_sel % 7] + " dst_unused:" + unused[m.sdwa.dst_unused % 3];
    s += std::string(" src0_sel:") + sel[m.sdwa.src0_sel % 7];
    int srcs = 0;
    for (int i = 0; i < d.num_operands; ++i)
      if (d.operands[i].role != operand_role::def) ++srcs;
    if (srcs >= 2 && (d.operands[d.num_operands - 1].classes & oc_vgpr))
      s += std::string(" src1_sel:") + sel[m.sdwa.src1_sel % 7];
  }
  if (m.cbsz) s += " cbsz:" + std::to_string(m.cbsz);
  if (m.abid) s += " abid:" + std::to_string(m.abid);
  if (m.blgp) s += " blgp:" + std::to_string(m.blgp);
  return s;
}

struct mc_result {
  bool ok;
  std::string text;  // the printed instruction, or the error
  std::string encoding;
};

inline std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// A scratch file name of this process (tests may run in parallel).
inline std::string scratch(const char* what) {
  static int counter = 0;
  return std::string(HIPASM_ISA_TEST_DIR) + "/" + what + "_" + std::to_string(getpid()) + "_" +
         std::to_string(counter++);
}

inline std::string mc_path() {
  const char* e = std::getenv("LLVM_MC");
  return e ? e : HIPASM_LLVM_MC;
}

// Assemble every line (labels L0..L3 are defined first); one result per line.
inline std::vector<mc_result> assemble(const std::vector<std::string>& lines) {
  const std::string in = scratch("mc_in") + ".s";
  const std::string err = scratch("mc_err") + ".txt";
  {
    std::ofstream f(in);
    f << "L0:\nL1:\nL2:\nL3:\n";
    for (const auto& l : lines) f << l << "\n";
  }
  std::string out = run(mc_path() + " -arch=amdgcn -mcpu=" + std::string(hipasm::active_target::name) + " -show-encoding " + in + " 2>" + err);
  std::remove(in.c_str());
  std::vector<std::string> errs(lines.size());
  {
    std::ifstream f(err);
    std::string l;
    while (std::getline(f, l)) {
      auto p = l.find(".s:");
      if (p == std::string::npos) continue;
      size_t ln = std::strtoul(l.c_str() + p + 3, nullptr, 10);
      if (l.find(": error: ") == std::string::npos || ln < 5 || ln - 5 >= lines.size()) continue;
      if (errs[ln - 5].empty()) errs[ln - 5] = l.substr(l.find(": error: ") + 9);
    }
  }
  std::remove(err.c_str());
  std::vector<mc_result> res;
  std::istringstream os(out);
  std::string l;
  std::vector<std::pair<std::string, std::string>> printed;
  while (std::getline(os, l)) {
    auto e = l.find("; encoding: [");
    if (e == std::string::npos) continue;
    std::string t = l.substr(0, e);
    t.erase(0, t.find_first_not_of(" \t"));
    t.erase(t.find_last_not_of(" \t") + 1);
    printed.emplace_back(t, l.substr(e + 13, l.find(']', e) - e - 13));
  }
  size_t k = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!errs[i].empty()) res.push_back({false, errs[i], ""});
    else if (k < printed.size()) {
      res.push_back({true, printed[k].first, printed[k].second});
      ++k;
    } else res.push_back({false, "no output", ""});
  }
  return res;
}

// Disassemble encodings ("0x01,0x02,..." each); one text per input ("" if not decoded).
// An s_nop 5 after every encoding keeps the output aligned with the input (the
// disassembler prints unused fields canonicalised, so encodings cannot be matched back).
inline std::vector<std::string> disassemble(const std::vector<std::string>& encodings) {
  const std::string in = scratch("mc_dis") + ".txt";
  const std::string marker = "0x05,0x00,0x80,0xbf";
  {
    std::ofstream f(in);
    for (const auto& e : encodings) {
      // Branch fixups are printed as "A" bytes: a zero offset decodes the same mnemonic.
      std::string bytes, tok;
      std::istringstream ts(e);
      while (std::getline(ts, tok, ',')) bytes += (tok.rfind("0x", 0) == 0 ? tok : std::string("0x00")) + " ";
      f << bytes << "\n0x05 0x00 0x80 0xbf\n";
    }
  }
  std::string out =
      run(mc_path() + " -arch=amdgcn -mcpu=" + std::string(hipasm::active_target::name) + " --disassemble -show-encoding " + in + " 2>/dev/null");
  std::remove(in.c_str());
  std::vector<std::string> res;
  std::string cur;
  int n = 0;
  std::istringstream os(out);
  std::string l;
  while (std::getline(os, l)) {
    auto e = l.find("; encoding: [");
    if (e == std::string::npos) continue;
    if (l.compare(e + 13, marker.size(), marker) == 0 && l[e + 13 + marker.size()] == ']') {
      res.push_back(n == 1 ? cur : std::string());
      cur.clear();
      n = 0;
      continue;
    }
    cur = l.substr(0, e);
    cur.erase(0, cur.find_first_not_of(" \t"));
    cur.erase(cur.find_last_not_of(" \t") + 1);
    ++n;
  }
  return res;
}

inline std::string mnemonic_of(std::string t) {
  t = t.substr(0, t.find(' '));
  for (std::string_view suf : {"_e32", "_e64", "_dpp", "_sdwa"})
    if (t.size() > suf.size() && t.compare(t.size() - suf.size(), suf.size(), suf) == 0)
      t.erase(t.size() - suf.size());
  return t;
}

}  // namespace isa_test
