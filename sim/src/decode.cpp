// gfx942/gfx950 decoder. Opcode -> mnemonic and operand widths come from per-target tables
// generated from llvm-mc-22's disassembler (gen/<target>_opcodes.inc, tools/gen_sim_decode.py,
// reached through Target::opcodes); the bit layouts of each encoding and LLVM's printing
// conventions are written here.
#include "decode.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>

namespace hipasm::sim {
namespace {  // decoder internals (file-local: no clashes with other files' helpers)

enum Field : uint8_t {
  F_none, F_vdst, F_sdst, F_src0, F_src1, F_src2, F_sdata, F_sbase, F_soffset, F_addr, F_data0,
  F_data1, F_data, F_saddr, F_vdata, F_vaddr, F_srsrc,
  // tokens that are not fields
  T_vcc, T_exec, T_m0, T_scc, T_off, T_imm, T_hwreg, T_sendmsg, T_gpr_idx,
};

struct Slot {
  Field f = F_none;
  char cls = 0;       // 'v', 's', 'a' for fields
  uint8_t dwords = 0;
};

struct Entry {
  Format fmt{};
  uint16_t op = 0;
  std::string printed, base;
  std::vector<Slot> slots;
  int dst_bits = 32, src_bits = 32;  // float-constant width of the type (16/32/64)
  // Per-source overrides (0: src_bits): the width of an inline float constant, and whether a
  // 16-bit constant is bf16 (LLVM: 1.0 -> 0x3f80) and the operand still a whole dword (a pair).
  uint8_t src_bits_at[3] = {0, 0, 0};
  bool src_bf16_at[3] = {false, false, false}, src_pair_at[3] = {false, false, false};
  bool has_sdst = false;
  const Slot* find(Field f) const {
    for (auto& s : slots)
      if (s.f == f) return &s;
    return nullptr;
  }
};

Field field_of(std::string_view n) {
  static const std::pair<const char*, Field> names[] = {
      {"vdst", F_vdst},   {"sdst", F_sdst},   {"src0", F_src0},     {"src1", F_src1},
      {"src2", F_src2},   {"sdata", F_sdata}, {"sbase", F_sbase},   {"soffset", F_soffset},
      {"addr", F_addr},   {"data0", F_data0}, {"data1", F_data1},   {"data", F_data},
      {"saddr", F_saddr}, {"vdata", F_vdata}, {"vaddr", F_vaddr},   {"srsrc", F_srsrc},
      {"vcc", T_vcc},     {"exec", T_exec},   {"m0", T_m0},         {"scc", T_scc},
      {"off", T_off},     {"imm", T_imm},     {"hwreg", T_hwreg},   {"sendmsg", T_sendmsg},
      {"gpr_idx", T_gpr_idx}};
  for (auto& [k, v] : names)
    if (n == k) return v;
  return T_imm;
}

int type_width(std::string_view t) {
  if (t == "f16" || t == "i16" || t == "u16" || t == "b16" || t == "bf16") return 16;
  if (t == "f64" || t == "i64" || t == "u64" || t == "b64") return 64;
  if (t == "f32" || t == "i32" || t == "u32" || t == "b32") return 32;
  return 0;
}

std::string strip_suffix(const std::string& p) {
  for (const char* suf : {"_e32", "_e64", "_sdwa", "_dpp"}) {
    size_t n = std::strlen(suf);
    if (p.size() > n && p.compare(p.size() - n, n, suf) == 0) return p.substr(0, p.size() - n);
  }
  return p;
}

// gfx950's v_cvt_scalef32_<form>_<dst>_<src>: the types of the sources, as LLVM gives them
// (llvm-mc-22 encodes 0x3f800000 in the scale's slot as the constant 1.0 and rejects 0x3c00):
// the scale (the last source) and the seed of the _sr_ forms are 32-bit; a value source is
// its type (f32; f16 / bf16, a pair of them in one dword for the packed forms; fp8 / fp4 /
// fp6 codes are 32-bit). The destination is 16-bit only where one half is written (the pk
// fp8 / bf8 word, the single f16); the byte and whole-register forms are not.
void scalef32_operands(Entry& e) {
  const std::string_view b = std::string_view(e.base).substr(std::strlen("v_cvt_scalef32_"));
  const bool sr = b.rfind("sr_", 0) == 0;
  const std::string_view rest = sr ? b.substr(3) : b;
  const bool pk = rest.rfind("pk", 0) == 0 || rest.rfind("2xpk16", 0) == 0;
  std::string_view form = rest;  // <dst>_<src> after the pk/pk32/2xpk16 prefix
  if (pk) form = form.substr(form.find('_') + 1);
  const std::string_view dst = form.substr(0, form.find('_')), src = form.substr(form.find('_') + 1);
  int nsrc = 0;
  for (auto& s : e.slots) nsrc += s.f == F_src0 || s.f == F_src1 || s.f == F_src2;
  for (int i = 0; i < nsrc; ++i) e.src_bits_at[i] = 32;
  if (src == "f16" || src == "bf16") {
    e.src_bits_at[0] = 16;
    e.src_bf16_at[0] = src == "bf16";
    e.src_pair_at[0] = pk;  // two values in the dword
  }
  const bool word_dst = !sr && ((pk && (dst == "fp8" || dst == "bf8")) || (!pk && dst == "f16"));
  e.dst_bits = word_dst ? 16 : 32;
}

struct Tables {
  std::deque<Entry> entries;
  std::vector<const Entry*> by[17];
  explicit Tables(const Target& target) {
    for (auto& v : by) v.assign(1024, nullptr);
    for (auto& r : target.opcodes) {
      Entry e;
      e.fmt = r.fmt;
      e.op = r.op;
      e.printed = r.printed;
      e.base = strip_suffix(e.printed);
      std::string_view sig = r.sig;
      while (!sig.empty()) {
        size_t sp = sig.find(' ');
        std::string_view tok = sig.substr(0, sp);
        sig = sp == std::string_view::npos ? std::string_view{} : sig.substr(sp + 1);
        Slot s;
        size_t colon = tok.find(':');
        if (colon != std::string_view::npos) {
          s.f = field_of(tok.substr(0, colon));
          s.cls = tok[colon + 1];
          s.dwords = uint8_t(std::stoi(std::string(tok.substr(colon + 2))));
        } else {
          s.f = field_of(tok);
        }
        if (s.f == F_sdst && (r.fmt == Format::VOP3 || r.fmt == Format::VOP3P)) e.has_sdst = true;
        e.slots.push_back(s);
      }
      // Operand types from the mnemonic: v_cvt_<dst>_<src>, else one type for all.
      std::vector<int> widths;
      std::string_view b = e.base;
      size_t pos = 0;
      while (pos <= b.size()) {
        size_t us = b.find('_', pos);
        std::string_view t = b.substr(pos, us == std::string_view::npos ? b.npos : us - pos);
        if (int w = type_width(t)) widths.push_back(w);
        if (us == std::string_view::npos) break;
        pos = us + 1;
      }
      bool packed = e.base.rfind("v_pk_", 0) == 0;
      if (!widths.empty()) {
        e.dst_bits = widths[0];
        e.src_bits = widths.size() >= 2 ? widths[1] : widths[0];
      }
      if (packed && e.src_bits != 32) e.src_bits = e.dst_bits = 16;
      // dot products and non-v_pk_ packed converts take 32-bit (packed) sources
      if (!packed && (e.base.rfind("v_dot", 0) == 0 || e.base.find("_pk_") != std::string::npos))
        e.src_bits = 32;
      if (e.base.find("_mix") != std::string::npos) e.src_bits = 32;
      if (e.base.rfind("v_cvt_scalef32_", 0) == 0) scalef32_operands(e);
      // gfx950's v_cvt_f32_bf16: a bf16 source, whose inline float constants are bf16 (llvm-mc-22
      // encodes 0x3f80 there as 1.0 and rejects 0x3c00).
      if (e.base == "v_cvt_f32_bf16") e.src_bf16_at[0] = true;
      entries.push_back(std::move(e));
      by[int(r.fmt)][r.op] = &entries.back();
    }
  }
};

const Tables& tables(const Target& target) {
  static const std::vector<std::unique_ptr<Tables>> all = [] {
    std::vector<std::unique_ptr<Tables>> v;
    for (const Target* t : all_targets()) v.push_back(std::make_unique<Tables>(*t));
    return v;
  }();
  return *all[size_t(target.index)];
}

// ---- operand printing and construction ----

std::string reg_range(char c, unsigned lo, unsigned n) {
  if (n <= 1) return c + std::to_string(lo);
  return std::string(1, c) + "[" + std::to_string(lo) + ":" + std::to_string(lo + n - 1) + "]";
}

// A 16-bit immediate as LLVM prints it: inline-constant range in decimal, the rest in hex.
std::string imm16_text(uint16_t v) {
  if (v <= 64) return std::to_string(v);
  if (int16_t(v) >= -16 && int16_t(v) < 0) return std::to_string(int16_t(v));
  return hex(v);
}

// Scalar register name (codes 0..127) as LLVM prints it.
// SGPR tuples are aligned by the hardware: the low bit (pairs) or two bits (4+ dwords) of
// the register number are ignored, as LLVM's disassembler shows.
unsigned align_sreg(unsigned code, unsigned n) {
  if (code >= 128 || code == 125) return code;  // constants; null is null at any width
  return n >= 4 ? code & ~3u : n == 2 ? code & ~1u : code;
}

std::string sreg_name(unsigned code, unsigned n) {
  code = align_sreg(code, n);
  if (code == 125) return "null";
  if (code < 102) return reg_range('s', code, n);
  auto pair = [&](const char* whole, const char* lo, const char* hi, unsigned base) {
    if (n == 2 && code == base) return std::string(whole);
    return std::string(code == base ? lo : hi);
  };
  if (code == 102 || code == 103) return pair("flat_scratch", "flat_scratch_lo", "flat_scratch_hi", 102);
  if (code == 104 || code == 105) return pair("xnack_mask", "xnack_mask_lo", "xnack_mask_hi", 104);
  if (code == 106 || code == 107) return pair("vcc", "vcc_lo", "vcc_hi", 106);
  if (code >= 108 && code <= 123) {
    unsigned t = code - 108;
    if (n <= 1) return "ttmp" + std::to_string(t);
    return "ttmp[" + std::to_string(t) + ":" + std::to_string(t + n - 1) + "]";
  }
  if (code == 124) return "m0";
  if (code == 126 || code == 127) return pair("exec", "exec_lo", "exec_hi", 126);
  return "<sreg " + std::to_string(code) + ">";
}

const char* kFloatNames[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
const uint64_t kF16[] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118};
const uint64_t kBF16[] = {0x3F00, 0xBF00, 0x3F80, 0xBF80, 0x4000, 0xC000, 0x4080, 0xC080, 0x3E22};
const uint64_t kF32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                         0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
const uint64_t kF64[] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                         0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                         0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};

struct Src {
  Operand op;
  std::string text;
};

// A 9-bit source operand (8-bit scalar fields pass code < 256). `literal` points to the
// literal dword if the instruction has room for one; `used_literal` is set when consumed.
bool make_src(unsigned code, unsigned dwords, int bits, const uint32_t* literal,
              bool* used_literal, bool agpr, Src& out, bool is_float = true) {
  Operand& o = out.op;
  o.dwords = uint8_t(dwords ? dwords : 1);
  o.bits = uint8_t(dwords >= 2 ? 64 : (bits == 16 ? 16 : 32));
  if (code >= 256) {
    o.kind = agpr ? Operand::Agpr : Operand::Vgpr;
    o.reg = uint16_t(code - 256);
    out.text = reg_range(agpr ? 'a' : 'v', code - 256, o.dwords);
    return true;
  }
  if (code < 128) code = align_sreg(code, o.dwords);
  if (code < 102) {
    o.kind = Operand::Sgpr;
    o.reg = uint16_t(code);
  } else if (code == 125) {
    o.kind = Operand::Special;  // null: reads 0, writes are dropped
    o.reg = 125;
  } else if (code == 106 || code == 107) {
    o.kind = Operand::Vcc;
    o.reg = uint16_t(code - 106);
  } else if (code == 126 || code == 127) {
    o.kind = Operand::Exec;
    o.reg = uint16_t(code - 126);
  } else if (code == 124) {
    o.kind = Operand::M0;
  } else if (code >= 102 && code <= 123) {
    o.kind = Operand::Special;
    o.reg = uint16_t(code);
  } else if (code >= 128 && code <= 208) {
    int64_t v = code <= 192 ? int64_t(code) - 128 : 192 - int64_t(code);
    o.kind = Operand::Const;
    o.imm = uint64_t(v);
    out.text = std::to_string(v);
    return true;
  } else if (code >= 240 && code <= 248) {
    int i = int(code) - 240;
    o.kind = Operand::Const;
    o.imm = o.bits == 16 ? kF16[i] : o.bits == 64 ? kF64[i] : kF32[i];
    out.text = i < 8 ? kFloatNames[i] : (o.bits == 64 ? "0.15915494309189532" : "0.15915494");
    if (o.bits == 16 && !is_float) out.text = hex(o.imm);  // LLVM prints i16 operands' bits
    return true;
  } else if (code == 255) {
    if (!literal) return false;
    *used_literal = true;
    o.kind = Operand::Literal;
    uint32_t l = *literal;
    o.imm = l;
    out.text = hex(bits == 16 && dwords <= 1 ? (l & 0xffff) : l);  // 16-bit operands use the low half
    return true;
  } else if ((code >= 235 && code <= 239) || (code >= 251 && code <= 254)) {
    static const char* names[] = {"src_shared_base", "src_shared_limit", "src_private_base",
                                  "src_private_limit", "src_pops_exiting_wave_id"};
    static const char* names2[] = {"src_vccz", "src_execz", "src_scc", "src_lds_direct"};
    o.kind = Operand::Special;
    o.reg = uint16_t(code);
    out.text = code <= 239 ? names[code - 235] : names2[code - 251];
    if (code == 253) o.kind = Operand::Scc;
    return true;
  } else {
    return false;
  }
  out.text = sreg_name(code, o.dwords);
  return true;
}

// A 64-bit float operand widens a 32-bit literal into the high dword.
void fix_literal64(Operand& o, bool is_float) {
  if (o.kind == Operand::Literal && o.bits == 64 && is_float) o.imm = uint64_t(uint32_t(o.imm)) << 32;
}

bool base_is_float(const std::string& base, bool dst) {
  // the relevant type token: dst type for dst, src type for src (v_cvt_<d>_<s>)
  std::vector<std::string> types;
  size_t pos = 0;
  while (pos <= base.size()) {
    size_t us = base.find('_', pos);
    std::string t = base.substr(pos, us == std::string::npos ? std::string::npos : us - pos);
    if (type_width(t)) types.push_back(t);
    if (us == std::string::npos) break;
    pos = us + 1;
  }
  if (types.empty()) return false;
  const std::string& t = dst || types.size() < 2 ? types[0] : types[1];
  return t[0] == 'f' || t == "bf16";
}

Operand vgpr_op(unsigned reg, unsigned n, bool agpr) {
  Operand o;
  o.kind = agpr ? Operand::Agpr : Operand::Vgpr;
  o.reg = uint16_t(reg);
  o.dwords = uint8_t(n ? n : 1);
  o.bits = n >= 2 ? 64 : 32;
  return o;
}
Operand sgpr_op(unsigned code, unsigned n) {
  Src s;
  make_src(code, n, 32, nullptr, nullptr, false, s);
  return s.op;
}
std::string op_text(const Operand& o) {
  switch (o.kind) {
    case Operand::Vgpr: return reg_range('v', o.reg, o.dwords);
    case Operand::Agpr: return reg_range('a', o.reg, o.dwords);
    case Operand::Sgpr: return reg_range('s', o.reg, o.dwords);
    case Operand::Vcc: return sreg_name(106 + o.reg, o.dwords);
    case Operand::Exec: return sreg_name(126 + o.reg, o.dwords);
    case Operand::M0: return "m0";
    case Operand::Special: return sreg_name(o.reg, o.dwords);
    default: return "?";
  }
}

// int_const: an integer inline constant, whose negation LLVM writes neg(N) (-N would be
// another constant).
std::string with_mods(const std::string& t, bool neg, bool abs, bool sext = false, bool int_const = false) {
  std::string s = t;
  if (sext) s = "sext(" + s + ")";
  if (abs) s = "|" + s + "|";
  if (neg) s = int_const && !abs ? "neg(" + s + ")" : "-" + s;
  return s;
}

const char* sel_name(unsigned s) {
  static const char* n[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "?"};
  return n[s & 7];
}

std::string dpp_text(const Modifiers& m) {
  std::string s;
  unsigned c = m.dpp_ctrl;
  char b[64];
  if (c <= 0xff) {
    std::snprintf(b, sizeof b, " quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
    s += b;
  } else if (c >= 0x101 && c <= 0x10f) s += " row_shl:" + std::to_string(c - 0x100);
  else if (c >= 0x111 && c <= 0x11f) s += " row_shr:" + std::to_string(c - 0x110);
  else if (c >= 0x121 && c <= 0x12f) s += " row_ror:" + std::to_string(c - 0x120);
  else if (c == 0x130) s += " wave_shl:1";
  else if (c == 0x134) s += " wave_rol:1";
  else if (c == 0x138) s += " wave_shr:1";
  else if (c == 0x13c) s += " wave_ror:1";
  else if (c == 0x140) s += " row_mirror";
  else if (c == 0x141) s += " row_half_mirror";
  else if (c == 0x142) s += " row_bcast:15";
  else if (c == 0x143) s += " row_bcast:31";
  else if (c >= 0x150 && c <= 0x15f) s += " row_newbcast:" + std::to_string(c - 0x150);
  else s += " <dpp " + hex(c) + ">";
  std::snprintf(b, sizeof b, " row_mask:0x%x bank_mask:0x%x", m.row_mask, m.bank_mask);
  s += b;
  if (m.bound_ctrl) s += " bound_ctrl:1";
  return s;
}

std::string hwreg_text(uint16_t simm) {
  unsigned id = simm & 63, off = (simm >> 6) & 31, size = ((simm >> 11) & 31) + 1;
  const char* name = nullptr;
  switch (id) {
    case 1: name = "HW_REG_MODE"; break;
    case 2: name = "HW_REG_STATUS"; break;
    case 3: name = "HW_REG_TRAPSTS"; break;
    case 4: name = "HW_REG_HW_ID"; break;
    case 5: name = "HW_REG_GPR_ALLOC"; break;
    case 6: name = "HW_REG_LDS_ALLOC"; break;
    case 7: name = "HW_REG_IB_STS"; break;
    case 15: name = "HW_REG_SH_MEM_BASES"; break;
    case 16: name = "HW_REG_TBA_LO"; break;
    case 17: name = "HW_REG_TBA_HI"; break;
    case 18: name = "HW_REG_TMA_LO"; break;
    case 19: name = "HW_REG_TMA_HI"; break;
    case 20: name = "HW_REG_XCC_ID"; break;
    case 21: name = "HW_REG_SQ_PERF_SNAPSHOT_DATA"; break;
    case 22: name = "HW_REG_SQ_PERF_SNAPSHOT_DATA1"; break;
    case 23: name = "HW_REG_SQ_PERF_SNAPSHOT_PC_LO"; break;
    case 24: name = "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"; break;
    default: break;
  }
  std::string n = name ? name : std::to_string(id);
  if (off == 0 && size == 32) return "hwreg(" + n + ")";
  return "hwreg(" + n + ", " + std::to_string(off) + ", " + std::to_string(size) + ")";
}

std::string sendmsg_text(uint16_t simm) {
  unsigned id = simm & 15, op = (simm >> 4) & 7, stream = (simm >> 8) & 3;
  static const char* names[] = {nullptr, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE",
                                "MSG_STALL_WAVE_GEN", "MSG_HALT_WAVES", "MSG_ORDERED_PS_DONE",
                                "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ", "MSG_GET_DOORBELL",
                                nullptr, nullptr, nullptr, nullptr, "MSG_SYSMSG"};
  std::string s = "sendmsg(";
  s += names[id] ? names[id] : std::to_string(id);
  if (id == 2 || id == 3) {
    static const char* ops[] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
    s += ", ";
    s += op < 4 ? ops[op] : std::to_string(op);
    if (op != 0) s += ", " + std::to_string(stream);
  } else if (id == 15) {
    s += ", " + std::to_string(op);
  }
  return s + ")";
}

std::string swizzle_text(uint16_t imm) {
  std::string s = "swizzle(";
  if ((imm & 0xE000) == 0xE000) return s + "FFT," + std::to_string(imm & 0x1f) + ")";
  if ((imm & 0xE000) == 0xC000)
    return s + "ROTATE," + std::to_string((imm >> 10) & 1) + "," + std::to_string((imm >> 5) & 0x1f) + ")";
  if (imm & 0x8000) {
    s += "QUAD_PERM";
    for (int i = 0; i < 4; ++i) s += "," + std::to_string((imm >> (2 * i)) & 3);
    return s + ")";
  }
  unsigned andm = imm & 31, orm = (imm >> 5) & 31, xorm = (imm >> 10) & 31;
  if (andm == 31 && orm == 0 && std::popcount(xorm) == 1) return s + "SWAP," + std::to_string(xorm) + ")";
  if (andm == 31 && orm == 0 && xorm > 0 && std::has_single_bit(xorm + 1))
    return s + "REVERSE," + std::to_string(xorm + 1) + ")";
  unsigned group = 31 - andm + 1;
  if (group > 1 && std::has_single_bit(group) && orm < group && xorm == 0)
    return s + "BROADCAST," + std::to_string(group) + "," + std::to_string(orm) + ")";
  s += "BITMASK_PERM,\"";
  for (int i = 4; i >= 0; --i) {
    if (andm >> i & 1) s += (xorm >> i & 1) ? 'i' : 'p';
    else s += (orm >> i & 1) ? '1' : '0';
  }
  return s + "\")";
}

std::string waitcnt_text(uint16_t s) {
  unsigned vm = (s & 15) | ((s >> 14) & 3) << 4, exp = (s >> 4) & 7, lgkm = (s >> 8) & 15;
  bool all = vm == 63 && exp == 7 && lgkm == 15;
  std::string t;
  auto add = [&](const char* n, unsigned v) {
    if (!t.empty()) t += ' ';
    t += n;
    t += '(' + std::to_string(v) + ')';
  };
  if (vm != 63 || all) add("vmcnt", vm);
  if (exp != 7 || all) add("expcnt", exp);
  if (lgkm != 15 || all) add("lgkmcnt", lgkm);
  return t;
}

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
bool has(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }

// From the target's cost table (target.cpp); 0 for an instruction that is not an MFMA.
uint8_t mfma_passes(const Target& target, const Inst& in) {
  const MfmaCost* c = find_mfma_cost(target, in.mnemonic);
  if (!c) return 0;
  return in.mod.cbsz <= 1 || in.mod.blgp <= 1 ? c->passes_fp8 : c->passes;
}

uint32_t classify(const Inst& in) {
  const std::string& m = in.mnemonic;
  uint32_t c = 0;
  switch (in.format) {
    case Format::SOP1: case Format::SOP2: case Format::SOPK: case Format::SOPC: case Format::SOPP:
      c |= C_SALU;
      if (m == "s_waitcnt") c |= C_WAITCNT;
      if (m == "s_barrier") c |= C_BARRIER;
      if (m == "s_nop") c |= C_NOP;
      if (m == "s_endpgm") c |= C_ENDPGM;
      if (starts(m, "s_branch") || starts(m, "s_cbranch") || m == "s_setpc_b64" ||
          m == "s_swappc_b64" || m == "s_call_b64")
        c |= C_BRANCH;
      if (has(m, "saveexec") || has(m, "wrexec")) c |= C_WRITES_EXEC | C_READS_EXEC;
      if (m == "s_cbranch_execz" || m == "s_cbranch_execnz") c |= C_READS_EXEC;
      if (m == "s_cbranch_vccz" || m == "s_cbranch_vccnz") c |= C_READS_VCC;
      if (m == "s_cbranch_scc0" || m == "s_cbranch_scc1" || starts(m, "s_cselect") ||
          starts(m, "s_addc") || starts(m, "s_subb") || starts(m, "s_cmov") || starts(m, "s_cmovk"))
        c |= C_READS_SCC;
      if (m == "s_sendmsg" || m == "s_sendmsghalt" || starts(m, "s_movrel")) c |= C_READS_M0;
      if (starts(m, "s_rfe_")) c |= C_BRANCH;
      if (m == "s_cbranch_g_fork" || m == "s_cbranch_i_fork" || m == "s_cbranch_join")
        c |= C_READS_EXEC | C_WRITES_EXEC;
      // Index mode: M0[7:0] / M0[15:12] are rewritten, the other bits kept.
      if (m == "s_set_gpr_idx_on" || m == "s_set_gpr_idx_idx" || m == "s_set_gpr_idx_mode")
        c |= C_READS_M0 | C_WRITES_M0;
      break;
    case Format::SMEM:
      c |= C_SMEM;
      if (has(m, "atomic")) c |= C_ATOMIC;
      else if (has(m, "store")) c |= C_STORE;
      else if (has(m, "load")) c |= C_LOAD;  // s_memtime/s_memrealtime read a counter, no memory
      break;
    case Format::DS:
      c |= C_DS;
      // Lane exchanges (permute/swizzle) go through the DS unit but touch no LDS bytes.
      if (has(m, "permute") || has(m, "swizzle")) break;
      if (has(m, "read") || has(m, "load")) c |= C_LOAD;
      else if ((has(m, "write") && !has(m, "wrxchg")) || has(m, "store")) c |= C_STORE;
      // GWS operations update the resource state: LLVM marks ds_gws_init a store, the rest
      // read-modify-write.
      else if (has(m, "gws_init")) c |= C_STORE;
      else if (!has(m, "nop")) c |= C_ATOMIC;
      if (has(m, "addtid") || has(m, "gws")) c |= C_READS_M0;
      break;
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: case Format::MUBUF:
      c |= in.format == Format::FLAT ? (C_FLAT | C_VMEM) : C_VMEM;
      if (has(m, "atomic")) c |= C_ATOMIC;
      else if (has(m, "store")) c |= C_STORE;
      else if (has(m, "load")) c |= C_LOAD;
      if (in.mod.lds || has(m, "load_lds")) c |= C_LDS_DMA | C_READS_M0 | C_STORE;  // writes LDS
      break;
    default:
      c |= C_VALU;
      if (starts(m, "v_mfma") || starts(m, "v_smfmac")) {
        c |= C_MFMA;
        if (starts(m, "v_mfma_f64")) c |= C_DGEMM;
        else if (!(has(m, "_f32") && (m.size() >= 4 && m.compare(m.size() - 4, 4, "_f32") == 0)) ||
                 has(m, "xf32"))
          c |= C_XDL;
      }
      if (starts(m, "v_exp_") || starts(m, "v_log_") || starts(m, "v_rcp_") ||
          starts(m, "v_rsq_") || starts(m, "v_sqrt_") || starts(m, "v_sin_") || starts(m, "v_cos_"))
        c |= C_TRANS;
      if (starts(m, "v_cmpx_")) c |= C_CMPX | C_WRITES_EXEC;
      if (starts(m, "v_readlane") || starts(m, "v_readfirstlane") || starts(m, "v_writelane"))
        c |= C_READLANE;
      if (starts(m, "v_permlane")) c |= C_PERMLANE;
      if (starts(m, "v_interp") || starts(m, "v_movrel")) c |= C_READS_M0;
      if (in.mod.dpp) c |= C_DPP;
      if (in.mod.sdwa) c |= C_SDWA;
      break;
  }
  for (int i = 0; i < in.num_dst; ++i) {
    if (in.dst[i].kind == Operand::Vcc) c |= C_WRITES_VCC;
    if (in.dst[i].kind == Operand::Exec) c |= C_WRITES_EXEC;
    if (in.dst[i].kind == Operand::M0) c |= C_WRITES_M0;
    if (in.dst[i].kind == Operand::Scc) c |= C_WRITES_SCC;
  }
  for (int i = 0; i < in.num_src; ++i) {
    if (in.src[i].kind == Operand::Vcc) c |= C_READS_VCC;
    if (in.src[i].kind == Operand::Exec) c |= C_READS_EXEC;
    if (in.src[i].kind == Operand::M0) c |= C_READS_M0;
    if (in.src[i].kind == Operand::Scc) c |= C_READS_SCC;
  }
  // SCC writers among SALU: compares and arithmetic/logic (per the ISA's SCC column).
  if (c & C_SALU) {
    static const char* const scc_writers[] = {
        "s_add_", "s_sub_", "s_addc_", "s_subb_", "s_min_", "s_max_", "s_and_", "s_or_",
        "s_xor_", "s_andn2_", "s_orn2_", "s_nand_", "s_nor_", "s_xnor_", "s_lshl_", "s_lshr_",
        "s_ashr_", "s_bfe_", "s_absdiff_", "s_abs_", "s_not_", "s_bcnt", "s_quadmask", "s_wqm",
        "s_cmp_", "s_cmpk_", "s_bitcmp", "s_addk_", "s_lshl1_", "s_lshl2_", "s_lshl3_",
        "s_lshl4_", "s_andn1_", "s_orn1_", "s_andn2_wrexec", "s_setvskip"};
    for (const char* p : scc_writers)
      if (starts(m, p)) { c |= C_WRITES_SCC; break; }
    if (starts(m, "s_sub_") || starts(m, "s_add_")) c |= C_WRITES_SCC;
  }
  return c;
}

Inst unknown(std::span<const uint8_t> b, uint64_t pc, Format f) {
  Inst in;
  in.pc = pc;
  in.size = 4;
  in.format = f;
  uint32_t w0 = 0, w1 = 0;
  std::memcpy(&w0, b.data(), 4);
  if (b.size() >= 8) std::memcpy(&w1, b.data() + 4, 4);
  char t[80];
  std::snprintf(t, sizeof t, "<unknown %s encoding 0x%08x 0x%08x>", format_name(f), w0, w1);
  in.text = t;
  return in;
}

}  // namespace

Inst decode_one(std::span<const uint8_t> b, uint64_t pc, const Target& target) {
  auto word = [&](size_t i) -> uint32_t {
    uint32_t w = 0;
    if (b.size() >= 4 * (i + 1)) std::memcpy(&w, b.data() + 4 * i, 4);
    return w;
  };
  const Tables& T = tables(target);
  uint32_t w0 = word(0);
  bool have1 = b.size() >= 8;
  uint32_t w1 = word(1);

  Format f;
  unsigned op;
  if ((w0 >> 23) == 0x17D) { f = Format::SOP1; op = (w0 >> 8) & 0xff; }
  else if ((w0 >> 23) == 0x17E) { f = Format::SOPC; op = (w0 >> 16) & 0x7f; }
  else if ((w0 >> 23) == 0x17F) { f = Format::SOPP; op = (w0 >> 16) & 0x7f; }
  else if ((w0 >> 28) == 0xB) { f = Format::SOPK; op = (w0 >> 23) & 0x1f; }
  else if ((w0 >> 30) == 0x2) { f = Format::SOP2; op = (w0 >> 23) & 0x7f; }
  else if ((w0 >> 25) == 0x3F) { f = Format::VOP1; op = (w0 >> 9) & 0xff; }
  else if ((w0 >> 25) == 0x3E) { f = Format::VOPC; op = (w0 >> 17) & 0xff; }
  else if ((w0 >> 31) == 0) { f = Format::VOP2; op = (w0 >> 25) & 0x3f; }
  else if ((w0 >> 26) == 0x30) { f = Format::SMEM; op = (w0 >> 18) & 0xff; }
  else if ((w0 >> 23) == 0x1A7) { f = Format::VOP3P; op = (w0 >> 16) & 0x7f; }
  else if ((w0 >> 26) == 0x34) { f = Format::VOP3; op = (w0 >> 16) & 0x3ff; }
  else if ((w0 >> 26) == 0x36) { f = Format::DS; op = (w0 >> 17) & 0xff; }
  else if ((w0 >> 26) == 0x37) {
    unsigned seg = (w0 >> 14) & 3;
    f = seg == 0 ? Format::FLAT : seg == 1 ? Format::SCRATCH : Format::GLOBAL;
    op = (w0 >> 18) & 0x7f;
    if (seg == 3) return unknown(b, pc, Format::FLAT);
  } else if ((w0 >> 26) == 0x38) { f = Format::MUBUF; op = (w0 >> 18) & 0x7f; }
  else return unknown(b, pc, Format::VOP3);

  const Entry* e = T.by[int(f)][op];
  if (!e) return unknown(b, pc, f);

  Inst in;
  in.pc = pc;
  in.format = f;
  in.opcode = uint16_t(op);
  in.mnemonic = e->base;
  std::string name = e->printed;
  std::vector<std::string> texts;  // printed operands in order
  std::string mods;
  unsigned size = 4;
  bool used_lit = false;
  bool ok = true;
  const bool src_float = base_is_float(e->base, false);

  auto add_dst = [&](const Operand& o, const std::string& t) {
    if (in.num_dst < in.dst.size()) in.dst[in.num_dst++] = o;
    texts.push_back(t);
  };
  auto add_src = [&](const Operand& o, const std::string& t) {
    if (in.num_src < in.src.size()) in.src[in.num_src++] = o;
    texts.push_back(t);
  };
  auto implicit = [&](Field t, bool before_src) {
    Operand o;
    if (t == T_vcc) { o.kind = Operand::Vcc; o.dwords = 2; }
    else if (t == T_exec) { o.kind = Operand::Exec; o.dwords = 2; }
    else if (t == T_m0) { o.kind = Operand::M0; }
    else if (t == T_scc) { o.kind = Operand::Scc; }
    std::string txt = op_text(o);
    if (t == T_scc) txt = "scc";
    if (before_src) add_dst(o, txt); else add_src(o, txt);
  };

  const uint32_t* lit_ptr = nullptr;
  switch (f) {
    // ------------------------------------------------------------------ scalar
    case Format::SOP1: case Format::SOP2: case Format::SOPC: case Format::SOPK: {
      lit_ptr = have1 ? &w1 : nullptr;
      unsigned sdst = (w0 >> 16) & 0x7f, s0 = w0 & 0xff, s1 = (w0 >> 8) & 0xff;
      uint16_t simm = uint16_t(w0 & 0xffff);
      in.mod.simm16 = simm;
      bool seen_src = false;
      for (auto& s : e->slots) {
        switch (s.f) {
          case F_sdst: {
            Operand o = sgpr_op(sdst, s.dwords);
            o.bits = s.dwords >= 2 ? 64 : 32;
            add_dst(o, sreg_name(sdst, s.dwords));
            break;
          }
          case F_src0: case F_src1: {
            Src x;
            unsigned code = s.f == F_src0 ? s0 : s1;
            if (!make_src(code, s.dwords, 32, lit_ptr, &used_lit, false, x)) ok = false;
            x.op.bits = s.dwords >= 2 ? 64 : 32;
            if (x.op.kind == Operand::Literal && s.dwords >= 2 && src_float) fix_literal64(x.op, true);
            add_src(x.op, x.text);
            seen_src = true;
            break;
          }
          case T_imm: {
            Operand o;
            if (f == Format::SOPK && e->base == "s_setreg_imm32_b32") {
              if (!have1) { ok = false; break; }
              used_lit = true;
              o.kind = Operand::Literal;
              o.imm = w1;
              // Printed like a source operand: inline-constant values by name, others in hex.
              std::string t = hex(w1);
              if (int32_t(w1) >= -16 && int32_t(w1) <= 64) t = std::to_string(int32_t(w1));
              for (int k = 0; k < 8; ++k)
                if (w1 == kF32[k]) t = kFloatNames[k];
              if (w1 == kF32[8]) t = "0.15915494";
              add_src(o, t);
            } else if (f == Format::SOPK && (e->base == "s_call_b64" || e->base == "s_cbranch_i_fork")) {
              o.kind = Operand::Label;
              o.imm = pc + 4 + int64_t(int16_t(simm)) * 4;
              add_src(o, std::to_string(simm));  // llvm-mc prints the raw field
            } else {
              o.kind = Operand::Const;
              o.imm = simm;  // SOPK immediates are zero- or sign-extended by the semantics
              add_src(o, hex(simm));
            }
            break;
          }
          case T_hwreg: {
            Operand o;
            o.kind = Operand::Const;
            o.imm = simm;
            texts.push_back(hwreg_text(simm));
            break;
          }
          case T_gpr_idx: texts.push_back("gpr_idx(" + std::to_string(s1) + ")"); break;
          default: ok = false; break;
        }
      }
      (void)seen_src;
      // s_setreg_b32 prints hwreg first but its only source is the sdst field.
      if (e->base == "s_setreg_b32" && in.num_dst == 1) {
        in.src[0] = in.dst[0];
        in.num_src = 1;
        in.num_dst = 0;
      }
      // SOPK: the sdst field is a source of compares and of read-modify-write forms.
      if (f == Format::SOPK && in.num_dst == 1 && in.num_src == 1) {
        const std::string& m = e->base;
        if (starts(m, "s_cmpk_")) {
          in.src[1] = in.src[0];
          in.src[0] = in.dst[0];
          in.num_src = 2;
          in.num_dst = 0;
        } else if (m == "s_cbranch_i_fork") {  // sdst is the compare mask (read, not written)
          in.src[1] = in.src[0];
          in.src[0] = in.dst[0];
          in.num_src = 2;
          in.num_dst = 0;
        } else if (m == "s_addk_i32" || m == "s_mulk_i32") {
          in.src[1] = in.src[0];
          in.src[0] = in.dst[0];
          in.num_src = 2;
        }
      }
      // s_bitset{0,1} rewrite one bit of the destination: it is read too (an implicit source).
      if (f == Format::SOP1 && starts(e->base, "s_bitset") && in.num_dst == 1 && in.num_src == 1) {
        in.src[1] = in.dst[0];
        in.num_src = 2;
      }
      if (e->base == "s_set_gpr_idx_on") {
        static const char* n[] = {"SRC0", "SRC1", "SRC2", "DST"};
        std::string t;
        for (int i = 0; i < 4; ++i)
          if (s1 >> i & 1) t += std::string(t.empty() ? "" : ",") + n[i];
        texts.back() = "gpr_idx(" + t + ")";
      }
      break;
    }
    case Format::SOPP: {
      uint16_t simm = uint16_t(w0 & 0xffff);
      in.mod.simm16 = simm;
      const std::string& m = e->base;
      if (starts(m, "s_branch") || starts(m, "s_cbranch")) {
        Operand o;
        o.kind = Operand::Label;
        o.imm = pc + 4 + int64_t(int16_t(simm)) * 4;
        add_src(o, std::to_string(simm));  // llvm-mc prints the raw field
      } else if (m == "s_waitcnt") {
        texts.push_back(waitcnt_text(simm));
      } else if (m == "s_sendmsg" || m == "s_sendmsghalt") {
        texts.push_back(sendmsg_text(simm));
      } else if (m == "s_set_gpr_idx_mode") {
        static const char* n[] = {"SRC0", "SRC1", "SRC2", "DST"};
        std::string t;
        for (int i = 0; i < 4; ++i)
          if (simm >> i & 1) t += std::string(t.empty() ? "" : ",") + n[i];
        texts.push_back("gpr_idx(" + t + ")");
      } else if (!e->slots.empty()) {
        if (!(m == "s_endpgm" && simm == 0)) texts.push_back(imm16_text(simm));
      } else if (simm != 0) {
        texts.push_back(std::to_string(simm));
      }
      break;
    }
    case Format::SMEM: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      unsigned sbase = (w0 & 0x3f) << 1, sdata = (w0 >> 6) & 0x7f;
      bool soe = (w0 >> 14) & 1, glc = (w0 >> 16) & 1, imm = (w0 >> 17) & 1;
      int32_t offset = int32_t(w1 << 11) >> 11;  // 21-bit signed
      unsigned soff = w1 >> 25;
      in.mod.glc = glc;
      for (auto& s : e->slots) {
        if (s.f == T_imm && starts(e->base, "s_atc_probe") && texts.empty()) {
          texts.push_back(imm16_text(uint16_t(sdata)));  // the probe mode, not a register
          continue;
        }
        if (s.f == F_sdata) {
          Operand o = sgpr_op(sdata, s.dwords);
          std::string t = sreg_name(sdata, s.dwords);
          if (has(e->base, "store") || (has(e->base, "atomic") && !glc)) {
            in.src[2] = o;
            texts.push_back(t);
          } else {
            add_dst(o, t);
            if (has(e->base, "atomic")) in.src[2] = o;  // returning atomics also read data
          }
        } else if (s.f == F_sbase) {
          in.src[0] = sgpr_op(sbase, s.dwords);
          texts.push_back(sreg_name(sbase, s.dwords));
        } else if (s.f == T_imm) {
          // offset operand: imm, soffset, or soffset + imm
          if (imm && soe) {
            in.src[1] = sgpr_op(soff, 1);
            texts.push_back(sreg_name(soff, 1));
            in.mod.offset = offset;
            mods += " offset:" + (offset < 0 ? "-" + hex(uint64_t(-int64_t(offset))) : hex(uint64_t(offset)));
          } else if (imm) {
            in.mod.offset = offset;
            in.mod.soffset_off = true;
            texts.push_back(offset < 0 ? "-" + hex(uint64_t(-int64_t(offset))) : hex(uint64_t(offset)));
          } else {
            unsigned r = soe ? soff : (w1 & 0x7f);
            in.src[1] = sgpr_op(r, 1);
            texts.push_back(sreg_name(r, 1));
          }
        }
      }
      in.num_src = 3;
      if (glc && e->find(F_sdata)) mods += " glc";  // cache-control forms ignore it
      break;
    }
    // ------------------------------------------------------------------ vector ALU
    case Format::VOP1: case Format::VOP2: case Format::VOPC: {
      unsigned src0 = w0 & 0x1ff;
      unsigned vsrc1 = (w0 >> 9) & 0xff;
      unsigned vdst = f == Format::VOPC ? 0 : (w0 >> 17) & 0xff;
      if (f == Format::VOP1) vsrc1 = 0;
      bool dpp = src0 == 0xfa, sdwa = src0 == 0xf9;
      bool neg[2] = {false, false}, abs[2] = {false, false}, sext[2] = {false, false};
      bool s0_sgpr = false, s1_sgpr = false;
      Operand sdwa_sdst;
      bool has_sdwa_sdst = false;
      if (dpp || sdwa) {
        if (!have1) return unknown(b, pc, f);
        size = 8;
        uint32_t d = w1;
        if (dpp) {
          in.mod.dpp = true;
          src0 = 256 + (d & 0xff);
          in.mod.dpp_ctrl = uint16_t((d >> 8) & 0x1ff);
          {
            unsigned c = in.mod.dpp_ctrl;
            bool valid = c <= 0xff || (c >= 0x101 && c <= 0x10f) || (c >= 0x111 && c <= 0x11f) ||
                         (c >= 0x121 && c <= 0x12f) || c == 0x130 || c == 0x134 || c == 0x138 ||
                         c == 0x13c || (c >= 0x140 && c <= 0x143) ||
                         (c >= 0x150 && c <= 0x15f);  // gfx90a+ row_newbcast (64-bit DPP)
            if (!valid) return unknown(b, pc, f);
          }
          in.mod.bound_ctrl = (d >> 19) & 1;
          neg[0] = (d >> 20) & 1; abs[0] = (d >> 21) & 1;
          neg[1] = (d >> 22) & 1; abs[1] = (d >> 23) & 1;
          in.mod.bank_mask = uint8_t((d >> 24) & 15);
          in.mod.row_mask = uint8_t((d >> 28) & 15);
        } else {
          in.mod.sdwa = true;
          s0_sgpr = (d >> 23) & 1;
          src0 = s0_sgpr ? (d & 0xff) : 256 + (d & 0xff);
          if (f == Format::VOPC) {
            has_sdwa_sdst = (d >> 15) & 1;
            if (has_sdwa_sdst) sdwa_sdst = sgpr_op((d >> 8) & 0x7f, 2);
          } else {
            in.mod.dst_sel = uint8_t((d >> 8) & 7);
            in.mod.dst_unused = uint8_t((d >> 11) & 3);
            in.mod.clamp = (d >> 13) & 1;
            in.mod.omod = uint8_t((d >> 14) & 3);
          }
          in.mod.src0_sel = uint8_t((d >> 16) & 7);
          sext[0] = (d >> 19) & 1; neg[0] = (d >> 20) & 1; abs[0] = (d >> 21) & 1;
          in.mod.src1_sel = uint8_t((d >> 24) & 7);
          sext[1] = (d >> 27) & 1; neg[1] = (d >> 28) & 1; abs[1] = (d >> 29) & 1;
          s1_sgpr = (d >> 31) & 1;
          in.mod.sdwa_sext0 = sext[0];
          in.mod.sdwa_sext1 = sext[1];
        }
        std::string base = strip_suffix(name);
        name = base + (dpp ? "_dpp" : "_sdwa");
      } else {
        lit_ptr = have1 ? &w1 : nullptr;
      }
      bool before_src = true;
      for (auto& s : e->slots) {
        switch (s.f) {
          case F_vdst: {
            Operand o;
            if (s.cls == 's') o = sgpr_op(vdst, s.dwords);
            else o = vgpr_op(vdst, s.dwords, s.cls == 'a');
            o.bits = uint8_t(e->dst_bits == 16 ? 16 : s.dwords >= 2 ? 64 : 32);
            add_dst(o, s.cls == 's' ? sreg_name(vdst, s.dwords) : reg_range(s.cls, vdst, s.dwords));
            break;
          }
          case F_src0: case F_src1: {
            before_src = false;
            int i = s.f == F_src0 ? 0 : 1;
            unsigned code = i == 0 ? src0 : (s1_sgpr ? vsrc1 : 256 + vsrc1);
            Src x;
            bool agpr = s.cls == 'a';
            if (!make_src(code, s.dwords, e->src_bits, lit_ptr, &used_lit, agpr && code >= 256, x, src_float)) ok = false;
            if (e->src_bf16_at[i] && code >= 240 && code <= 248) x.op.imm = kBF16[code - 240];
            if (x.op.kind == Operand::Literal && starts(e->base, "v_pk_")) x.text = hex(x.op.imm);  // packed: all 32 bits
            if (s.dwords >= 2) fix_literal64(x.op, src_float);
            if (sdwa && starts(e->base, "v_pk_")) neg[i] = abs[i] = false;  // no modifiers on packed
            x.op.neg = neg[i];
            x.op.abs = abs[i];
            add_src(x.op, with_mods(x.text, neg[i], abs[i], sext[i]));
            break;
          }
          case T_imm: {  // madmk/madak/fmamk/fmaak constant
            if (!have1 || dpp || sdwa) { ok = false; break; }
            Operand o;
            o.kind = Operand::Literal;
            o.imm = w1;
            o.bits = uint8_t(e->src_bits);
            used_lit = true;
            add_src(o, hex(w1));
            before_src = false;
            break;
          }
          case T_vcc: case T_exec: case T_m0: case T_scc:
            if (s.f == T_vcc && before_src && has_sdwa_sdst) {
              add_dst(sdwa_sdst, sreg_name((w1 >> 8) & 0x7f, 2));
            } else {
              implicit(s.f, before_src);
            }
            break;
          default: ok = false; break;
        }
      }
      if (sdwa) {
        if (in.mod.clamp) mods += " clamp";
        if (in.mod.omod) mods += in.mod.omod == 1 ? " mul:2" : in.mod.omod == 2 ? " mul:4" : " div:2";
        // The fp8/bf8 -> f32 converts have no dst_sel/dst_unused in their SDWA form (LLVM
        // encodes DWORD/UNUSED_PAD and prints neither).
        const bool fp8_to_f32 = starts(e->base, "v_cvt_f32_fp8") || starts(e->base, "v_cvt_f32_bf8") ||
                                starts(e->base, "v_cvt_pk_f32_fp8") || starts(e->base, "v_cvt_pk_f32_bf8");
        if (f != Format::VOPC && !fp8_to_f32) {
          static const char* un[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "?"};
          mods += std::string(" dst_sel:") + sel_name(in.mod.dst_sel) + " dst_unused:" + un[in.mod.dst_unused];
        }
        mods += std::string(" src0_sel:") + sel_name(in.mod.src0_sel);
        if (f != Format::VOP1) mods += std::string(" src1_sel:") + sel_name(in.mod.src1_sel);
      }
      if (dpp) mods += dpp_text(in.mod);
      break;
    }
    case Format::VOP3: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      unsigned vdst = w0 & 0xff, absm = (w0 >> 8) & 7, opsel = (w0 >> 11) & 15;
      unsigned sdst = (w0 >> 8) & 0x7f;
      in.mod.clamp = (w0 >> 15) & 1;
      unsigned codes[3] = {w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff};
      in.mod.omod = uint8_t((w1 >> 27) & 3);
      unsigned negm = (w1 >> 29) & 7;
      if (e->has_sdst) absm = 0, opsel = 0;
      // gfx9 VOP3 op_sel exists only on VOP3-only 16-bit ops and the fp8/bf8 converts; the
      // hardware (and LLVM) ignore the bits elsewhere.
      bool has_opsel = e->printed.size() < 4 || e->printed.compare(e->printed.size() - 4, 4, "_e64") != 0;
      // gfx950's scale converts select bytes/halves with op_sel too.
      has_opsel = has_opsel && (e->dst_bits == 16 || e->src_bits == 16 || has(e->base, "fp8") ||
                                has(e->base, "bf8") || starts(e->base, "v_alignb") ||
                                starts(e->base, "v_cvt_scalef32")) &&
                  !has(e->base, "_legacy");
      // gfx950 v_permlane*_swap e64: op_sel[0] is fi, op_sel[1] bound_ctrl.
      const bool swap = starts(e->base, "v_permlane16_swap") || starts(e->base, "v_permlane32_swap");
      if (swap) {
        in.mod.fi = opsel & 1;
        in.mod.bound_ctrl = (opsel >> 1) & 1;
        has_opsel = false;
      }
      // gfx950 v_bitop3: the 8-bit truth table fills the neg [2:0], abs [5:3] and omod [7:6]
      // fields (llvm-mc-22 -show-encoding), which are then no modifiers.
      const bool bitop3 = starts(e->base, "v_bitop3_");
      if (bitop3) {
        in.mod.bitop3 = uint8_t(negm | absm << 3 | unsigned(in.mod.omod) << 6);
        negm = absm = 0;
        in.mod.omod = 0;
        if (e->dst_bits != 16) opsel = 0;
      }
      if (!has_opsel && !(bitop3 && e->dst_bits == 16)) opsel = 0;
      in.mod.op_sel = uint8_t(opsel);
      int nsrc = 0;
      bool before_src = true;
      for (auto& s : e->slots) {
        switch (s.f) {
          case F_vdst: {
            Operand o;
            std::string t;
            if (s.cls == 's') { o = sgpr_op(vdst, s.dwords); t = sreg_name(vdst, s.dwords); }
            else { o = vgpr_op(vdst, s.dwords, s.cls == 'a'); t = reg_range(s.cls, vdst, s.dwords); }
            o.bits = uint8_t(e->dst_bits == 16 ? 16 : s.dwords >= 2 ? 64 : 32);
            add_dst(o, t);
            break;
          }
          case F_sdst: add_dst(sgpr_op(sdst, s.dwords), sreg_name(sdst, s.dwords)); break;
          case F_src0: case F_src1: case F_src2: {
            before_src = false;
            int i = s.f - F_src0;
            Src x;
            const int bits = e->src_bits_at[i] ? e->src_bits_at[i] : e->src_bits;
            if (!make_src(codes[i], s.dwords, bits, nullptr, nullptr, s.cls == 'a' && codes[i] >= 256, x, src_float)) ok = false;
            if (e->src_bf16_at[i] && codes[i] >= 240 && codes[i] <= 248) x.op.imm = kBF16[codes[i] - 240];
            if (e->src_pair_at[i]) x.op.bits = 32;  // both halves are read
            x.op.neg = negm >> i & 1;
            x.op.abs = absm >> i & 1;
            add_src(x.op, with_mods(x.text, x.op.neg, x.op.abs, false,
                                    x.op.kind == Operand::Const && codes[i] <= 208));
            nsrc = std::max(nsrc, i + 1);
            break;
          }
          case T_vcc: case T_exec: case T_m0: case T_scc: implicit(s.f, before_src); break;
          default: ok = false; break;
        }
      }
      if (opsel) {
        std::string t = " op_sel:[";
        if (starts(e->base, "v_cvt_sr_")) nsrc = 3;  // byte select printed in the src2 slot
        for (int i = 0; i < nsrc; ++i) t += std::to_string(opsel >> i & 1) + ",";
        t += std::to_string(opsel >> 3 & 1) + "]";
        mods += t;
      }
      if (bitop3 && in.mod.bitop3) mods += " bitop3:" + imm16_text(in.mod.bitop3);
      if (swap && in.mod.bound_ctrl) mods += " bound_ctrl:1";
      if (swap && in.mod.fi) mods += " fi:1";
      if (in.mod.clamp) mods += " clamp";
      if (in.mod.omod) mods += in.mod.omod == 1 ? " mul:2" : in.mod.omod == 2 ? " mul:4" : " div:2";
      break;
    }
    case Format::VOP3P: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      unsigned vdst = w0 & 0xff;
      unsigned codes[3] = {w1 & 0x1ff, (w1 >> 9) & 0x1ff, (w1 >> 18) & 0x1ff};
      // v_mfma_ld_scale_b32 (gfx950) is an ordinary VOP3P (two sources, op_sel); with the
      // f8f6f4 MFMA after it, it forms v_mfma_scale_* (joined below).
      bool mai = (starts(e->base, "v_mfma") && e->base != "v_mfma_ld_scale_b32") || starts(e->base, "v_smfmac");
      bool accvgpr = starts(e->base, "v_accvgpr");
      if (mai) {
        in.format = Format::MFMA;
        in.mod.cbsz = uint8_t((w0 >> 8) & 7);
        in.mod.abid = uint8_t((w0 >> 11) & 15);
        in.mod.acc_cd = (w0 >> 15) & 1;
        unsigned acc = (w1 >> 27) & 3;
        in.mod.acc = acc != 0;
        in.mod.blgp = uint8_t((w1 >> 29) & 7);
        bool smfmac = starts(e->base, "v_smfmac");
        // f8f6f4 (gfx950): cbsz / blgp are the A / B formats (0 e4m3, 1 e5m2, 2 e2m3, 3 e3m2,
        // 4 e2m1), which set the tuple sizes: 8, 6 or 4 VGPRs (llvm-mc-22: "wrong register
        // tuple size for cbsz value"; other codes do not exist).
        const bool f8f6f4 = has(e->base, "_f8f6f4");
        auto f8f6f4_dwords = [](unsigned fmt) { return fmt <= 1 ? 8u : fmt <= 3 ? 6u : fmt == 4 ? 4u : 0u; };
        if (f8f6f4 && (!f8f6f4_dwords(in.mod.cbsz) || !f8f6f4_dwords(in.mod.blgp))) return unknown(b, pc, f);
        for (auto& s : e->slots) {
          if (s.f == F_vdst) {
            Operand o = vgpr_op(vdst, s.dwords, in.mod.acc_cd);
            add_dst(o, reg_range(in.mod.acc_cd ? 'a' : 'v', vdst, s.dwords));
          } else if (s.f >= F_src0 && s.f <= F_src2) {
            int i = s.f - F_src0;
            bool ag = i < 2 ? (acc >> i & 1) : (smfmac ? false : in.mod.acc_cd);
            unsigned dw = s.dwords;
            if (f8f6f4 && i < 2) dw = f8f6f4_dwords(i == 0 ? in.mod.cbsz : in.mod.blgp);
            Src x;
            if (!make_src(codes[i], dw, 32, nullptr, nullptr, ag && codes[i] >= 256, x)) ok = false;
            add_src(x.op, x.text);
          } else {
            ok = false;
          }
        }
        if (in.mod.cbsz) mods += " cbsz:" + std::to_string(in.mod.cbsz);
        if (in.mod.abid) mods += " abid:" + std::to_string(in.mod.abid);
        if (in.mod.blgp) {
          if (starts(e->base, "v_mfma_f64")) {
            mods += " neg:[" + std::to_string(in.mod.blgp & 1) + "," + std::to_string(in.mod.blgp >> 1 & 1) +
                    "," + std::to_string(in.mod.blgp >> 2 & 1) + "]";
          } else {
            mods += " blgp:" + std::to_string(in.mod.blgp);
          }
        }
        break;
      }
      unsigned neg_hi = (w0 >> 8) & 7, opsel = (w0 >> 11) & 7;
      unsigned opsel_hi = ((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2);
      unsigned neg_lo = (w1 >> 29) & 7;
      in.mod.clamp = (w0 >> 15) & 1;
      in.mod.op_sel = uint8_t(opsel);
      in.mod.op_sel_hi = uint8_t(opsel_hi);
      in.mod.neg_lo = uint8_t(neg_lo);
      in.mod.neg_hi = uint8_t(neg_hi);
      int nsrc = 0;
      for (auto& s : e->slots) {
        if (s.f == F_vdst) {
          Operand o = vgpr_op(vdst, s.dwords, s.cls == 'a');
          add_dst(o, reg_range(s.cls, vdst, s.dwords));
        } else if (s.f >= F_src0 && s.f <= F_src2) {
          int i = s.f - F_src0;
          Src x;
          bool ag = s.cls == 'a' && codes[i] >= 256;
          if (!make_src(codes[i], s.dwords, accvgpr ? 32 : e->src_bits, nullptr, nullptr, ag, x)) ok = false;
          std::string t = x.text;
          // fma_mix/mad_mix: NEG_LO is the source's neg, NEG_HI its abs (LLVM prints -|x|).
          if (has(e->base, "_mix")) t = with_mods(t, neg_lo >> i & 1, neg_hi >> i & 1, false, x.op.kind == Operand::Const && codes[i] <= 208);
          add_src(x.op, t);
          nsrc = std::max(nsrc, i + 1);
        } else {
          ok = false;
        }
      }
      if (!accvgpr) {
        bool mix = has(e->base, "_mix");
        bool no_hi = starts(e->base, "v_dot4") || starts(e->base, "v_dot8") ||
                     (has(e->base, "_f32") && starts(e->base, "v_pk_") && false);
        auto arr = [&](unsigned v) {
          std::string t = "[";
          for (int i = 0; i < nsrc; ++i) t += std::to_string(v >> i & 1) + (i + 1 < nsrc ? "," : "");
          return t + "]";
        };
        unsigned full = (1u << nsrc) - 1;
        if (opsel & full) mods += " op_sel:" + arr(opsel);
        unsigned hi_default = mix ? 0 : full;
        if (!no_hi && (opsel_hi & full) != hi_default) mods += " op_sel_hi:" + arr(opsel_hi);
        if ((neg_lo & full) && !mix) mods += " neg_lo:" + arr(neg_lo);
        if ((neg_hi & full) && !mix) mods += " neg_hi:" + arr(neg_hi);
      }
      if (in.mod.clamp) mods += " clamp";
      break;
    }
    // ------------------------------------------------------------------ memory
    case Format::DS: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      unsigned off0 = w0 & 0xff, off1 = (w0 >> 8) & 0xff;
      // gfx942 has no GDS: the bit is ignored (LLVM neither prints it), except by the GWS
      // opcodes, which exist only with it (and print it).
      const bool gws = starts(e->base, "ds_gws_");
      in.mod.gds = gws;
      if (gws && !((w0 >> 16) & 1)) return unknown(b, pc, f);
      bool acc = (w0 >> 25) & 1;
      in.mod.acc = acc;
      unsigned addr = w1 & 0xff, d0 = (w1 >> 8) & 0xff, d1 = (w1 >> 16) & 0xff, vdst = w1 >> 24;
      bool two = has(e->base, "2_") || has(e->base, "2st64");
      if (two) { in.mod.offset = int32_t(off0); in.mod.offset1 = int32_t(off1); }
      else in.mod.offset = int32_t(off0 | off1 << 8);
      Operand srcs[3];
      std::vector<std::pair<Field, std::string>> order;
      for (auto& s : e->slots) {
        if (s.f == F_vdst) add_dst(vgpr_op(vdst, s.dwords, acc), reg_range(acc ? 'a' : 'v', vdst, s.dwords));
        // GWS: the data VGPR (LLVM's data0) is encoded in the ADDR field and may be an AGPR.
        else if (s.f == F_addr && gws) { srcs[0] = vgpr_op(addr, 1, acc); texts.push_back(reg_range(acc ? 'a' : 'v', addr, 1)); }
        else if (s.f == F_addr) { srcs[0] = vgpr_op(addr, 1, false); texts.push_back(reg_range('v', addr, 1)); }
        else if (s.f == F_data0) { srcs[1] = vgpr_op(d0, s.dwords, acc); texts.push_back(reg_range(acc ? 'a' : 'v', d0, s.dwords)); }
        else if (s.f == F_data1) { srcs[2] = vgpr_op(d1, s.dwords, acc); texts.push_back(reg_range(acc ? 'a' : 'v', d1, s.dwords)); }
        else ok = false;
      }
      for (int i = 0; i < 3; ++i) in.src[i] = srcs[i];
      in.num_src = 3;
      if (two) {
        if (off0) mods += " offset0:" + std::to_string(off0);
        if (off1) mods += " offset1:" + std::to_string(off1);
      } else if (e->base == "ds_swizzle_b32" && in.mod.offset) {
        mods += " offset:" + swizzle_text(uint16_t(in.mod.offset));
      } else if (in.mod.offset) {
        mods += " offset:" + std::to_string(in.mod.offset);
      }
      if (gws) mods += " gds";
      break;
    }
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      int32_t off = int32_t(w0 << 19) >> 19;  // 13-bit signed
      if (f == Format::FLAT) off = int32_t(w0 & 0xfff);
      bool sve = (w0 >> 13) & 1;
      in.mod.sc0 = in.mod.glc = (w0 >> 16) & 1;
      in.mod.nt = in.mod.slc = (w0 >> 17) & 1;
      in.mod.sc1 = (w0 >> 25) & 1;
      in.mod.offset = off;
      unsigned addr = w1 & 0xff, data = (w1 >> 8) & 0xff, saddr = (w1 >> 16) & 0x7f, vdst = w1 >> 24;
      bool acc = (w1 >> 23) & 1;
      in.mod.acc = acc;
      const Slot* sd = e->find(F_vdst);
      const Slot* sdat = e->find(F_data);
      bool atomic = has(e->base, "atomic");
      bool rtn = atomic && in.mod.sc0;
      unsigned data_dw = sdat ? sdat->dwords : 1;
      if (sd) add_dst(vgpr_op(vdst, sd->dwords, acc), reg_range(acc ? 'a' : 'v', vdst, sd->dwords));
      else if (rtn) {
        unsigned n = has(e->base, "cmpswap") ? data_dw / 2 : data_dw;
        add_dst(vgpr_op(vdst, n, acc), reg_range(acc ? 'a' : 'v', vdst, n));
      }
      bool saddr_off = f == Format::FLAT || saddr == 0x7f;
      in.mod.soffset_off = saddr_off;
      // vaddr
      if (f == Format::SCRATCH && !sve) {
        texts.push_back("off");
      } else {
        unsigned n = f == Format::SCRATCH ? 1 : (saddr_off ? 2 : 1);
        in.src[0] = vgpr_op(addr, n, false);
        texts.push_back(reg_range('v', addr, n));
      }
      if (sdat) {
        in.src[1] = vgpr_op(data, sdat->dwords, acc);
        texts.push_back(reg_range(acc ? 'a' : 'v', data, sdat->dwords));
      }
      if (f != Format::FLAT) {
        if (saddr_off) texts.push_back("off");
        else {
          unsigned n = f == Format::SCRATCH ? 1 : 2;
          in.src[2] = sgpr_op(saddr, n);
          texts.push_back(sreg_name(saddr, n));
        }
      }
      in.num_src = 3;
      if (off) mods += " offset:" + std::to_string(off);
      if (in.mod.sc0) mods += " sc0";
      if (in.mod.nt) mods += " nt";
      if (in.mod.sc1) mods += " sc1";
      break;
    }
    case Format::MUBUF: {
      if (!have1) return unknown(b, pc, f);
      size = 8;
      in.mod.offset = int32_t(w0 & 0xfff);
      in.mod.offen = (w0 >> 12) & 1;
      in.mod.idxen = (w0 >> 13) & 1;
      in.mod.sc0 = in.mod.glc = (w0 >> 14) & 1;
      in.mod.sc1 = (w0 >> 15) & 1;
      in.mod.lds = (w0 >> 16) & 1;
      in.mod.nt = in.mod.slc = (w0 >> 17) & 1;
      unsigned vaddr = w1 & 0xff, vdata = (w1 >> 8) & 0xff, srsrc = ((w1 >> 16) & 0x1f) << 2;
      bool acc = (w1 >> 23) & 1;
      in.mod.acc = acc;
      unsigned soff = w1 >> 24;
      const Slot* sd = e->find(F_vdata);
      bool store = has(e->base, "store"), atomic = has(e->base, "atomic");
      if (sd) {
        Operand d = vgpr_op(vdata, sd->dwords, acc);
        std::string t = reg_range(acc ? 'a' : 'v', vdata, sd->dwords);
        if (store || atomic) in.src[1] = d;
        if (!store && !(atomic && !in.mod.sc0)) {
          Operand r = d;
          if (atomic && has(e->base, "cmpswap")) r.dwords = uint8_t(sd->dwords / 2);
          if (!in.mod.lds) { in.dst[0] = r; in.num_dst = 1; }
        }
        if (!in.mod.lds) texts.push_back(t);  // LDS-DMA loads print no vdata
      }
      if (!(e->find(F_srsrc) || e->find(F_vaddr) || sd)) {
        // buffer_inv / buffer_wbl2: only the cache bits mean anything.
        in.mod.offset = 0;
        in.mod.offen = in.mod.idxen = in.mod.lds = false;
      }
      if (e->find(F_srsrc) || e->find(F_vaddr) || sd) {
        unsigned n = in.mod.offen && in.mod.idxen ? 2 : 1;
        if (in.mod.offen || in.mod.idxen) {
          in.src[0] = vgpr_op(vaddr, n, false);
          texts.push_back(reg_range('v', vaddr, n));
        } else {
          texts.push_back("off");
        }
        in.src[2] = sgpr_op(srsrc, 4);
        texts.push_back(sreg_name(srsrc, 4));
        Src so;
        if (!make_src(soff, 1, 32, nullptr, nullptr, false, so)) ok = false;
        in.src[3] = so.op;
        texts.push_back(so.text);
        in.num_src = 4;
      }
      if (in.mod.idxen) mods += " idxen";
      if (in.mod.offen) mods += " offen";
      if (in.mod.offset) mods += " offset:" + std::to_string(in.mod.offset);
      if (in.mod.sc0) mods += " sc0";
      if (in.mod.nt) mods += " nt";
      if (in.mod.sc1) mods += " sc1";
      if (in.mod.lds) mods += " lds";
      break;
    }
    default: ok = false;
  }
  if (!ok) return unknown(b, pc, f);
  if (used_lit) size += 4;                          // the 32-bit literal after the instruction
  if (size > b.size()) return unknown(b, pc, f);    // truncated at the end of the section
  in.size = uint8_t(size);
  in.text = name;
  for (size_t i = 0; i < texts.size(); ++i) {
    in.text += i == 0 ? " " : ", ";
    in.text += texts[i];
  }
  in.text += mods;
  // A register tuple must lie inside its file (the hardware and LLVM reject the rest; the
  // handlers index register storage with these numbers).
  for (int i = 0; i < in.num_dst + int(in.src.size()); ++i) {
    const Operand& o = i < in.num_dst ? in.dst[i] : in.src[i - in.num_dst];
    if ((o.kind == Operand::Vgpr || o.kind == Operand::Agpr) && o.reg + o.dwords > 256)
      return unknown(b, pc, f);
    if (o.kind == Operand::Special && o.reg == 254 &&
        !(in.format == Format::VOP1 || in.format == Format::VOP2 || in.format == Format::VOPC))
      return unknown(b, pc, f);  // src_lds_direct is a VOP1/VOP2/VOPC src0 only
    if (in.format == Format::SMEM && (o.kind == Operand::M0 || o.kind == Operand::Exec) &&
        (i < in.num_dst || i - in.num_dst == 2))
      return unknown(b, pc, f);  // SMEM data is never M0 or EXEC
    // gfx90a+: VGPR/AGPR tuples start at an even register (LLVM: "Invalid register").
    if ((o.kind == Operand::Vgpr || o.kind == Operand::Agpr) && o.dwords >= 2 && (o.reg & 1))
      return unknown(b, pc, f);
    // MFMA A/B come from VGPRs/AGPRs (or inline constants), never scalar registers.
    if (in.format == Format::MFMA && i >= in.num_dst && i - in.num_dst < 2 &&
        (o.kind == Operand::Sgpr || o.kind == Operand::Vcc || o.kind == Operand::Exec ||
         o.kind == Operand::M0 || o.kind == Operand::Special || o.kind == Operand::Scc ||
         o.kind == Operand::Literal || o.kind == Operand::Const))
      return unknown(b, pc, f);
    if (o.kind == Operand::Sgpr && o.reg + o.dwords > 128) return unknown(b, pc, f);
  }
  // gfx950 v_mfma_scale_*: v_mfma_ld_scale_b32 vScaleA, vScaleB followed by an f8f6f4 MFMA
  // whose abid is 1 is one 16-byte instruction (llvm-mc-22 -show-encoding), the scale bytes
  // chosen by op_sel / op_sel_hi of the first half: byte = op_sel[i] + 2 * op_sel_hi[i].
  if (in.mnemonic == "v_mfma_ld_scale_b32" && b.size() >= 16 && in.num_src == 2) {
    Inst m = decode_one(b.subspan(8), pc + 8, target);
    if (m.format == Format::MFMA && has(m.mnemonic, "_f8f6f4") && m.mod.abid == 1 && m.num_src == 3) {
      const std::string tail = m.text.substr(m.text.find(' '));
      std::string ops = tail.substr(0, tail.find(" cbsz:") != std::string::npos ? tail.find(" cbsz:") : tail.find(" abid:"));
      std::string mm = tail.substr(ops.size());
      if (size_t a = mm.find(" abid:1"); a != std::string::npos) mm.erase(a, 7);
      m.src[3] = in.src[0];
      m.src[4] = in.src[1];
      m.num_src = 5;
      m.mod.op_sel = uint8_t(in.mod.op_sel & 3);
      m.mod.op_sel_hi = uint8_t(in.mod.op_sel_hi & 3);
      m.mnemonic = "v_mfma_scale_" + m.mnemonic.substr(7);
      auto arr = [](unsigned v) {
        return "[" + std::to_string(v & 1) + "," + std::to_string(v >> 1 & 1) + "," + std::to_string(v >> 2 & 1) + "]";
      };
      std::string sel;
      if (in.mod.op_sel) sel += " op_sel:" + arr(in.mod.op_sel);
      if (in.mod.op_sel_hi != 7) sel += " op_sel_hi:" + arr(in.mod.op_sel_hi);
      m.text = m.mnemonic + ops + ", " + op_text(in.src[0]) + ", " + op_text(in.src[1]) + sel + mm;
      m.pc = pc;
      m.size = uint8_t(8 + m.size);
      m.cls = classify(m);
      m.mfma_passes = mfma_passes(target, m);
      return m;
    }
  }
  // v_permlane*_swap write both operands (LLVM: two defs): src0 is a destination too.
  if ((starts(in.mnemonic, "v_permlane16_swap") || starts(in.mnemonic, "v_permlane32_swap")) &&
      in.num_dst == 1 && in.num_src >= 1)
    in.dst[in.num_dst++] = in.src[0];
  in.cls = classify(in);
  in.mfma_passes = mfma_passes(target, in);
  return in;
}

Program decode_program(std::span<const uint8_t> code, uint64_t base, const Target& target) {
  Program p;
  p.base = base;
  p.index.assign((code.size() + 3) / 4, -1);
  size_t off = 0;
  while (off + 4 <= code.size()) {
    Inst in = decode_one(code.subspan(off, std::min<size_t>(kMaxInstBytes, code.size() - off)), base + off, target);
    p.index[off / 4] = int32_t(p.insts.size());
    off += in.size;
    p.insts.push_back(std::move(in));
  }
  return p;
}

namespace {
void check_reachable(const Program& prog, uint64_t entry);
}

void bind_handlers(Program& prog, uint64_t entry) {
  if (!prog.bound) {
    Registry& reg = Registry::get();
    for (auto& in : prog.insts)
      if (!in.mnemonic.empty()) in.exec = reg.find(in.mnemonic);
    prog.bound = true;
  }
  check_reachable(prog, entry);
}

std::shared_ptr<const Program> decoded_program(const KernelImage& image) {
  return decoded_program(image.code, image.code_vaddr, image.entry, *image.target);
}

std::shared_ptr<const Program> decoded_program(std::span<const uint8_t> code, uint64_t base,
                                               uint64_t entry, const Target& target) {
  struct Cached {
    std::vector<uint8_t> code;
    const Target* target;
    uint64_t base;
    std::shared_ptr<Program> prog;
  };
  static std::mutex mu;
  static std::deque<Cached> cache;  // most recent first
  constexpr size_t kCapacity = 16;
  std::shared_ptr<Program> prog;
  {
    std::lock_guard lock(mu);
    for (auto it = cache.begin(); it != cache.end(); ++it) {
      if (it->base == base && it->target == &target && it->code.size() == code.size() &&
          std::memcmp(it->code.data(), code.data(), code.size()) == 0) {
        prog = it->prog;
        if (it != cache.begin()) {
          Cached c = std::move(*it);
          cache.erase(it);
          cache.push_front(std::move(c));
        }
        break;
      }
    }
  }
  if (!prog) {
    prog = std::make_shared<Program>(decode_program(code, base, target));
    bind_handlers(*prog, entry);  // binds, then checks this entry
    std::lock_guard lock(mu);
    cache.push_front({std::vector<uint8_t>(code.begin(), code.end()), &target, base, prog});
    if (cache.size() > kCapacity) cache.pop_back();
    return prog;
  }
  check_reachable(*prog, entry);
  return prog;
}

namespace {
// Visits every instruction reachable from the entry (fall-through and direct branches);
// `visit` returns false to stop. Throws when a pc is not the start of an instruction.
template <class Visit>
void walk_reachable(const Program& prog, uint64_t entry, Visit visit) {
  std::vector<uint64_t> work{entry};
  std::vector<char> seen(prog.index.size(), 0);
  while (!work.empty()) {
    uint64_t pc = work.back();
    work.pop_back();
    const Inst* in = prog.at(pc);
    if (!in) {
      char b[96];
      std::snprintf(b, sizeof b, "0x%" PRIx64 ": %s is not the start of an instruction", pc,
                    pc == entry ? "the kernel's entry" : "a branch target");
      throw sim::error(b);
    }
    size_t k = (pc - prog.base) / 4;
    if (seen[k]) continue;
    seen[k] = 1;
    visit(*in);
    if (in->mnemonic.empty()) continue;  // its length is unknown: nothing follows it
    const std::string& m = in->mnemonic;
    if (m == "s_endpgm" || m == "s_setpc_b64" || m == "s_trap" || m == "s_sethalt" ||
        m == "s_rfe_b64" || m == "s_rfe_restore_b64")
      continue;
    for (int i = 0; i < in->num_src; ++i)
      if (in->src[i].kind == Operand::Label) work.push_back(in->src[i].imm);
    if (m != "s_branch" && pc + in->size < prog.base + prog.index.size() * 4) work.push_back(pc + in->size);
  }
}

void check_reachable(const Program& prog, uint64_t entry) {
  // Everything reachable must run.
  walk_reachable(prog, entry, [](const Inst& in) {
    if (in.mnemonic.empty()) fail(in, "unknown instruction encoding");
    if (!in.exec) fail(in, "no simulator semantics for " + in.mnemonic);
  });
}
}  // namespace

std::vector<const Inst*> unsupported_reachable(const Program& prog, uint64_t entry, size_t* reachable) {
  std::vector<const Inst*> out;
  size_t n = 0;
  walk_reachable(prog, entry, [&](const Inst& in) {
    ++n;
    if (in.mnemonic.empty() || !in.exec) out.push_back(&in);
  });
  std::sort(out.begin(), out.end(), [](const Inst* a, const Inst* b) { return a->pc < b->pc; });
  if (reachable) *reachable = n;
  return out;
}

}  // namespace hipasm::sim
