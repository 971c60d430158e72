// Operand legality of one instruction against its instr_desc: register class and width per
// operand, inline constants vs literals, the constant bus, tuple alignment and the range of
// physical registers, modifiers. Everything is constexpr and allocation-free, so the builder
// calls it while a kernel is being built (virtual registers: class and width) and the passes
// call it again after allocation (physical registers: alignment and range too).
//
// The rules come from the table, which tools/gen_isa_table.py learnt from llvm-mc-22; what the
// table cannot hold (one literal, one constant-bus read, acc bits, addressing widths) is here.
#pragma once
#include <cstdint>
#include <string_view>
#include "../vec.hpp"

#include "../ir.hpp"
#include "inline_constants.hpp"
#include "instr_desc.hpp"

namespace hipasm::isa {

// Which encoding of the instruction its operands and modifiers select.
enum class form : uint8_t {
  plain,  // the instruction has one encoding (SOP*, SMEM, VOP3-only, VOP3P, MFMA, memory)
  e32,    // VOP1/VOP2/VOPC 32-bit encoding
  e64,    // the VOP3 encoding of a VOP1/VOP2/VOPC instruction
  dpp,
  sdwa,
};

// Register file sizes a check enforces on physical registers (target.hpp holds one per target).
struct reg_limits {
  uint16_t sgprs = 102;  // s0..s101 addressable on gfx9 (vcc is s[106:107], not allocatable)
  uint16_t vgprs = 256;
  uint16_t agprs = 256;
};

// The failure message. Empty and unallocated when the check passes: a fixed buffer would be
// copied element by element with every result in constant evaluation (the bytecode
// interpreter pays for that per instruction).
struct check_message {
  vec<char> chars;

  constexpr void push_back(char c) { chars.push_back(c); }
  constexpr void append(const char* s, uint32_t k) {
    for (uint32_t i = 0; i < k; ++i) chars.push_back(s[i]);
  }
  constexpr void clear() { chars.clear(); }
  constexpr std::string_view view() const {
    return chars.empty() ? std::string_view() : std::string_view(chars.data(), chars.size());
  }
  constexpr operator std::string_view() const { return view(); }
  constexpr std::size_t size() const { return chars.size(); }
};

struct check_result {
  bool ok = true;
  form chosen = form::plain;
  bool print_e64 = false;  // spell the mnemonic with _e64 (VOP3 form of a VOP1/VOP2/VOPC op)
  check_message message{};
};

namespace detail {

struct writer {
  check_message* m;
  constexpr writer& operator<<(std::string_view s) {
    for (char c : s) m->push_back(c);
    return *this;
  }
  constexpr writer& operator<<(char c) { return *this << std::string_view(&c, 1); }
  constexpr writer& operator<<(const char* s) {
    while (*s) *this << *s++;
    return *this;
  }
  constexpr writer& dec(long long v) {
    unsigned long long u = v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
    if (v < 0) *this << '-';
    char t[24]{};
    int n = 0;
    do {
      t[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u);
    while (n) *this << t[--n];
    return *this;
  }
  constexpr writer& hex(uint64_t v) {
    *this << "0x";
    char t[20]{};
    int n = 0;
    do {
      t[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v);
    while (n) *this << t[--n];
    return *this;
  }
};

constexpr bool is_valu(const instr_desc& d) {
  return d.enc == encoding::vop1 || d.enc == encoding::vop2 || d.enc == encoding::vopc ||
         d.enc == encoding::vop3 || d.enc == encoding::vop3p || d.enc == encoding::mfma;
}
constexpr bool is_vop12c(const instr_desc& d) {
  return d.enc == encoding::vop1 || d.enc == encoding::vop2 || d.enc == encoding::vopc;
}
constexpr bool is_memory(const instr_desc& d) {
  return d.enc == encoding::ds || d.enc == encoding::flat || d.enc == encoding::global ||
         d.enc == encoding::scratch || d.enc == encoding::mubuf;
}

constexpr uint16_t class_bit(reg_class c) {
  return c == reg_class::sgpr ? oc_sgpr : c == reg_class::vgpr ? oc_vgpr : oc_agpr;
}

// The operand class an IR operand belongs to, and its width in dwords.
struct op_kind {
  uint16_t cls = 0;
  uint16_t dwords = 1;
};
constexpr op_kind kind_of(const operand& o) {
  switch (o.k) {
    case operand::kind::vreg:
    case operand::kind::phys: return {class_bit(o.cls), o.dwords};
    case operand::kind::imm: return {oc_inline, 1};
    case operand::kind::label: return {oc_label, 1};
    case operand::kind::none: return {oc_off, 1};
    case operand::kind::special:
      switch (o.sp) {
        case special_reg::vcc: return {oc_vcc, 2};
        case special_reg::vcc_lo:
        case special_reg::vcc_hi: return {oc_vcc, 1};
        case special_reg::exec: return {oc_exec, 2};
        case special_reg::exec_lo:
        case special_reg::exec_hi: return {oc_exec, 1};
        case special_reg::m0: return {oc_m0, 1};
        case special_reg::scc: return {oc_scc, 1};
        case special_reg::flat_scratch: return {oc_sgpr, 2};
        // vccz/execz and the aperture registers are encoded like constants
        default: return {oc_inline, o.dwords};
      }
  }
  return {};
}

constexpr std::string_view class_name(uint16_t c) {
  switch (c) {
    case oc_sgpr: return "an SGPR";
    case oc_vgpr: return "a VGPR";
    case oc_agpr: return "an AGPR";
    case oc_inline: return "an inline constant";
    case oc_literal: return "a literal";
    case oc_label: return "a label";
    case oc_simm16: return "an immediate";
    case oc_vcc: return "vcc";
    case oc_m0: return "m0";
    case oc_exec: return "exec";
    case oc_scc: return "scc";
    case oc_off: return "off";
  }
  return "?";
}

constexpr void list_classes(writer& w, uint16_t mask) {
  bool first = true;
  for (uint16_t b = 1; b && b <= oc_off; b = static_cast<uint16_t>(b << 1)) {
    if (!(mask & b)) continue;
    if (b == oc_inline && (mask & oc_literal)) continue;  // printed as "an immediate"
    w << (first ? "" : ", ");
    if (b == oc_literal && (mask & oc_inline)) w << "an immediate";
    else w << class_name(b);
    first = false;
  }
  if (first) w << "nothing";
}

constexpr void operand_name(writer& w, const instr_desc& d, int i) {
  w << "operand " ;
  w.dec(i);
  if (is_valu(d) || d.enc <= encoding::sopp) {
    int src = 0;
    for (int k = 1; k < i; ++k)
      if (d.operands[k].role != operand_role::def) ++src;
    if (i > 0 && d.operands[0].role == operand_role::use) ++src;
    if (d.operands[i].role == operand_role::def || (i == 0 && d.operands[i].role == operand_role::def_use))
      w << (i == 0 ? " (dst)" : " (sdst)");
    else {
      w << " (src";
      w.dec(src);
      w << ")";
    }
  }
}

constexpr void reg_text(writer& w, const operand& o) {
  char p = o.cls == reg_class::sgpr ? 's' : o.cls == reg_class::vgpr ? 'v' : 'a';
  if (o.dwords == 1) {
    w << p;
    w.dec(static_cast<long long>(o.value));
  } else {
    w << p << '[';
    w.dec(static_cast<long long>(o.value));
    w << ':';
    w.dec(static_cast<long long>(o.value + o.dwords - 1));
    w << ']';
  }
}

constexpr bool mods_need_vop3(const instr& in, const instr_desc& d) {
  if (in.mods.clamp() || in.mods.omod() || in.mods.op_sel()) return true;
  const operand* ops = in.ops;
  for (int i = 0; i < d.num_operands; ++i)
    if (ops[i].neg || ops[i].abs) return true;
  return false;
}

// Classes the chosen form accepts in slot i.
constexpr uint16_t form_classes(const instr_desc& d, int i, form f) {
  const operand_desc& od = d.operands[i];
  switch (f) {
    case form::e32: return od.classes_e32 ? od.classes_e32 : od.classes;
    case form::e64: return static_cast<uint16_t>(od.classes & ~oc_literal);  // no literal in VOP3 on gfx9
    case form::dpp: {
      uint16_t c = od.classes_e32 ? od.classes_e32 : od.classes;
      if (od.role == operand_role::def || c == oc_vcc) return c;  // vcc carry/mask stays
      return static_cast<uint16_t>(c & oc_vgpr);
    }
    case form::sdwa: {
      if (od.role == operand_role::def) {
        if (i > 0) return od.classes_e32;  // carry-out: vcc
        return d.enc == encoding::vopc ? uint16_t(od.classes & (oc_sgpr | oc_vcc | oc_exec)) : uint16_t(oc_vgpr);
      }
      uint16_t c = od.classes_e32 ? od.classes_e32 : od.classes;
      if (c == oc_vcc) return c;  // carry-in/out stays vcc
      return static_cast<uint16_t>((od.classes & (oc_sgpr | oc_vgpr | oc_inline | oc_vcc | oc_exec | oc_m0)));
    }
    default: return od.classes;
  }
}

// Expected width of slot i given the other operands (addressing modes change widths).
constexpr uint16_t expected_dwords(const instr_desc& d, const instr& in, int i) {
  const operand_desc& od = d.operands[i];
  if (od.dwords_alt) {
    const operand& saddr = in.ops[d.num_operands - 1];  // global: saddr is the last operand
    if (saddr.k != operand::kind::none) return od.dwords_alt;  // an SGPR base: vaddr is a 32-bit offset
  }
  if (d.enc == encoding::mubuf && (od.classes & oc_off) && (od.classes & oc_vgpr))
    return in.mods.idxen() && in.mods.offen() ? 2 : 1;
  if (od.width_by != operand_width_by::fixed)
    return f8f6f4_dwords(od.width_by == operand_width_by::cbsz ? in.mods.cbsz() : in.mods.blgp());
  return od.dwords;
}

enum class fit { ok, bad_class, bad_width, literal_in_vop3, literal_value, imm_range, not_inline };

// Whether immediate value v may sit in a slot that accepts `allowed` (the verdict that
// operand_fits explains and operand_ok decides).
constexpr bool imm_allowed(const operand_desc& od, uint16_t allowed, uint64_t v) {
  if (allowed & oc_simm16) return imm_fits(od.imm, v);
  if ((allowed & oc_inline) && is_inline_constant(od.imm, v)) return true;
  return (allowed & oc_literal) && is_literal_encodable(od.imm, v);
}

constexpr fit operand_fits(const instr_desc& d, const instr& in, int i, form f) {
  const operand& o = in.ops[i];
  const operand_desc& od = d.operands[i];
  uint16_t allowed = form_classes(d, i, f);
  op_kind k = kind_of(o);
  if (o.k == operand::kind::imm) {
    if (imm_allowed(od, allowed, o.value)) return fit::ok;
    if (allowed & oc_simm16) return fit::imm_range;
    if (allowed & oc_literal) return fit::literal_value;
    if ((od.classes & oc_literal) || (is_valu(d) && (od.classes & oc_inline))) return fit::literal_in_vop3;
    return (od.classes & oc_inline) ? fit::not_inline : fit::bad_class;
  }
  if (!(allowed & k.cls)) return fit::bad_class;
  if (o.is_reg() || (o.k == operand::kind::special && (k.cls & (oc_vcc | oc_exec | oc_sgpr)))) {
    if (k.dwords != expected_dwords(d, in, i)) return fit::bad_width;
  }
  return fit::ok;
}

// Distinct scalar values read through the constant bus (SGPRs, vcc, exec, m0, literals).
struct bus_use {
  int count = 0;
  int first = -1, second = -1;  // operand indices for the message (-2: implicit vcc)
  int literals = 0;
  uint64_t literal = 0;
};

// One scalar source as a comparable key (the same SGPR read twice uses the bus once).
constexpr uint64_t scalar_key(const operand& o) {
  if (o.k == operand::kind::special) return 0x1000000ull | static_cast<uint64_t>(o.sp);
  if (o.k == operand::kind::imm) return 0x2000000ull ^ (o.value * 0x9e3779b97f4a7c15ull);
  return (static_cast<uint64_t>(o.k) << 60) | (static_cast<uint64_t>(o.offset) << 40) | (o.value & 0xffffffffffull);
}

constexpr bus_use constant_bus(const instr_desc& d, const instr& in, form f) {
  bus_use u;
  uint64_t seen[max_operands + 1] = {};
  int n = 0;
  uint64_t literal_seen = 0;
  bool any_literal = false;
  for (int i = 0; i <= d.num_operands; ++i) {
    uint64_t key = 0;
    int idx = i;
    if (i == d.num_operands) {  // the implicit vcc of v_div_fmas
      if (!((d.flags & (f_reads_vcc)) != 0)) break;
      key = 0x1000000ull | static_cast<uint64_t>(special_reg::vcc);
      idx = -2;
    } else {
      if (d.operands[i].role == operand_role::def) continue;
      const operand& o = in.ops[i];
      if (o.is_reg()) {
        if (o.cls != reg_class::sgpr) continue;
      } else if (o.k == operand::kind::special) {
        // v_writelane's lane select may be m0 without using the bus (llvm-mc agrees)
        if (o.sp == special_reg::m0 && i == 2 && ((d.flags & (f_readlane)) != 0) && d.operands[0].role == operand_role::def_use)
          continue;
        if (o.sp == special_reg::scc) continue;
      } else if (o.k == operand::kind::imm && !(d.operands[i].classes & oc_simm16)) {
        // A literal-only slot (the K of v_fmaak_f32 ...) holds the literal even for 1.
        if ((d.operands[i].classes & oc_inline) && is_inline_constant(d.operands[i].imm, o.value)) continue;
        if (!any_literal || literal_seen != o.value) {
          if (any_literal) ++u.literals;
          else u.literals = 1;
          any_literal = true;
          literal_seen = o.value;
          u.literal = o.value;
        }
      } else {
        continue;
      }
      key = scalar_key(o);
    }
    bool dup = false;
    for (int k = 0; k < n; ++k)
      if (seen[k] == key) dup = true;
    if (dup) continue;
    seen[n++] = key;
    ++u.count;
    if (u.first < 0) u.first = idx;
    else if (u.second < 0) u.second = idx;
  }
  (void)f;
  return u;
}

// The modifier_kind bits an instruction's modifiers use.
constexpr uint32_t modifiers_used(const modifiers& m, bool ds2) {
  uint32_t u = 0;
  if (m.offset != 0) u |= ds2 ? uint32_t(m_offset01) : uint32_t(m_offset);
  if (m.offset1 != 0) u |= m_offset01;
  if (m.glc) u |= m_glc;
  if (m.slc) u |= m_slc;
  if (m.nt) u |= m_nt;
  if (m.sc0) u |= m_sc0;
  if (m.sc1) u |= m_sc1;
  if (m.lds) u |= m_lds;
  if (m.idxen) u |= m_idxen;
  if (m.offen) u |= m_offen;
  if (m.gds) u |= m_gds;
  if (m.clamp) u |= m_clamp;
  if (m.omod != 0) u |= m_omod;
  if (m.op_sel != 0) u |= m_op_sel;
  if (m.op_sel_hi != 0xff) u |= m_op_sel_hi;
  if (m.neg_lo != 0 || m.neg_hi != 0) u |= m_neg_lo_hi;
  if (m.cbsz != 0 || m.abid != 0) u |= m_cbsz_abid_blgp;
  if (m.abid != 0) u |= m_abid;
  if (m.blgp != 0) u |= m_blgp;
  if (m.bitop3 != 0) u |= m_bitop3;
  if (m.dpp.ctrl != 0xffff) u |= m_dpp;
  if (m.sdwa.on) {
    u |= m_sdwa;
    if (m.sdwa.dst_sel != 6 || m.sdwa.dst_unused != 0) u |= m_sdwa_dst;
  }
  return u;
}

constexpr const char* modifier_name(uint32_t bit, bool ds2) {
  switch (bit) {
    case m_offset: return "offset";
    case m_offset01: return ds2 ? "offset0/offset1" : "offset1";
    case m_glc: return "glc";
    case m_slc: return "slc";
    case m_nt: return "nt";
    case m_sc0: return "sc0";
    case m_sc1: return "sc1";
    case m_lds: return "lds";
    case m_idxen: return "idxen";
    case m_offen: return "offen";
    case m_gds: return "gds";
    case m_clamp: return "clamp";
    case m_omod: return "omod (mul:/div:)";
    case m_op_sel: return "op_sel";
    case m_op_sel_hi: return "op_sel_hi";
    case m_neg_lo_hi: return "neg_lo/neg_hi";
    case m_cbsz_abid_blgp: return "cbsz/abid";
    case m_blgp: return "blgp";
    case m_abid: return "abid";
    case m_bitop3: return "bitop3";
    case m_dpp: return "DPP";
    case m_sdwa: return "SDWA";
    case m_sdwa_dst: return "SDWA dst_sel/dst_unused";
  }
  return "?";
}

// Start a failure message "<mnemonic>: ". (Plain functions, not lambdas capturing the
// descriptor: clang's bytecode interpreter rejects lambdas that capture reference parameters.)
constexpr writer begin_fail(check_result& r, const instr_desc& d) {
  r.ok = false;
  r.message.clear();
  writer w{&r.message};
  w << d.name << ": ";
  return w;
}

// `what` stays a const char* until a failure: a string_view would measure it on every call.
constexpr bool in_range(check_result& r, const instr_desc& d, const char* what, long long v, long long lo,
                        long long hi) {
  if (v >= lo && v <= hi) return true;
  writer w = begin_fail(r, d);
  w << what << ' ';
  w.dec(v);
  w << " out of range ";
  w.dec(lo);
  w << "..";
  w.dec(hi);
  return false;
}

constexpr void bus_operand_name(writer& w, const instr_desc& d, int i) {
  if (i == -2) w << "the implicit vcc";
  else operand_name(w, d, i);
}

constexpr bool fits_form(const instr_desc& d, const instr& in, form f) {
  for (int i = 0; i < d.num_operands; ++i)
    if (operand_fits(d, in, i, f) != fit::ok) return false;
  return constant_bus(d, in, f).count <= 1;
}

}  // namespace detail

// The encoding the operands and modifiers select. Call after check() succeeded (check()
// returns the same choice in check_result::chosen).
constexpr form choose_form(const instr_desc& d, const instr& in) {
  if (!detail::is_vop12c(d)) return form::plain;
  if (in.mods.dpp_on()) return form::dpp;
  if (in.mods.sdwa_on()) return form::sdwa;
  if (!d.has(f_has_e64)) return d.enc == encoding::vop3 ? form::plain : form::e32;
  if (!detail::mods_need_vop3(in, d) && detail::fits_form(d, in, form::e32)) return form::e32;
  return form::e64;
}

// The full check with its message; check() runs it only when the quick path fails, so both
// must agree on every instruction (tests/isa compares them on ~60k variants).
constexpr check_result check_explained(const instr_desc& d, const instr& in, const reg_limits& lim = {}) {
  check_result r;
  detail::writer w{&r.message};
  if (in.num_operands != d.num_operands) {
    (w = detail::begin_fail(r, d)) << "takes ";
    w.dec(d.num_operands);
    w << " operands, got ";
    w.dec(in.num_operands);
    return r;
  }
  const form f = choose_form(d, in);
  r.chosen = f;
  r.print_e64 = f == form::e64 && d.has(f_has_e64);
  if (f == form::dpp && !d.has(f_has_dpp)) {
    (w = detail::begin_fail(r, d)) << "has no DPP form";
    return r;
  }
  if (f == form::sdwa && !d.has(f_has_sdwa)) {
    (w = detail::begin_fail(r, d)) << "has no SDWA form";
    return r;
  }

  // Operands one by one.
  for (int i = 0; i < d.num_operands; ++i) {
    const operand& o = in.ops[i];
    const operand_desc& od = d.operands[i];
    detail::fit ft = detail::operand_fits(d, in, i, f);
    // A literal that the e32 form could not take either: say why it does not fit at all.
    if (ft == detail::fit::literal_in_vop3 && f == form::e64 &&
        detail::operand_fits(d, in, i, form::e32) == detail::fit::literal_value)
      ft = detail::fit::literal_value;
    switch (ft) {
      case detail::fit::ok: break;
      case detail::fit::bad_class: {
        detail::op_kind k = detail::kind_of(o);
        w = detail::begin_fail(r, d);
        detail::operand_name(w, d, i);
        w << " cannot be " << (o.k == operand::kind::imm ? std::string_view("an immediate") : detail::class_name(k.cls));
        uint16_t allowed = detail::form_classes(d, i, f);
        if (f == form::e32 || f == form::dpp || f == form::sdwa) {
          w << " in the " << (f == form::e32 ? "e32" : f == form::dpp ? "DPP" : "SDWA") << " form";
        } else if (f == form::e64) {
          if (detail::operand_fits(d, in, i, form::e32) == detail::fit::ok)
            w << " in the e64 form, which the other operands or modifiers require";
          else
            w << " in the e32 form or the e64 form";
        }
        w << "; it takes ";
        detail::list_classes(w, allowed);
        return r;
      }
      case detail::fit::bad_width: {
        w = detail::begin_fail(r, d);
        const int want = detail::expected_dwords(d, in, i);
        if (od.width_by != operand_width_by::fixed) {
          const bool a = od.width_by == operand_width_by::cbsz;
          const unsigned code = a ? in.mods.cbsz() : in.mods.blgp();
          constexpr std::string_view fmt[] = {"fp8", "bf8", "fp6", "bf6", "fp4"};
          w << (a ? "cbsz:" : "blgp:");
          w.dec(code);
          if (want == 0) {
            w << " names no " << (a ? "A" : "B") << " format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)";
            return r;
          }
          w << " (" << (a ? "A" : "B") << " in " << fmt[code] << "): ";
        }
        detail::operand_name(w, d, i);
        w << " must be ";
        w.dec(want);
        w << " dword(s) wide, got ";
        w.dec(detail::kind_of(o).dwords);
        return r;
      }
      case detail::fit::literal_in_vop3: {
        if (f == form::dpp || f == form::sdwa) {
          // DPP/SDWA carry their own second dword: no room for a literal. gfx942's DPP sources
          // are VGPRs only (llvm-mc rejects an inline constant or SGPR there too); SDWA takes
          // SGPRs and inline constants.
          (w = detail::begin_fail(r, d)) << "immediate ";
          w.hex(o.value);
          w << " as ";
          detail::operand_name(w, d, i);
          if (f == form::dpp)
            w << ": DPP takes no literal (nor an inline constant on gfx9): its sources are VGPRs; move the "
                 "value into a VGPR first (v_mov_b32) and pass the register";
          else
            w << ": SDWA takes no literal: pass a register or an inline constant (-16..64, +-0.5, +-1, +-2, +-4, "
                 "1/(2*pi))";
          return r;
        }
        (w = detail::begin_fail(r, d)) << "literal ";
        w.hex(o.value);
        w << " not allowed in VOP3 on gfx9 (";
        detail::operand_name(w, d, i);
        w << "; inline constants are -16..64, +-0.5, +-1, +-2, +-4, 1/(2*pi))";
        return r;
      }
      case detail::fit::literal_value: {
        (w = detail::begin_fail(r, d)) << "immediate ";
        w.hex(o.value);
        w << " cannot be encoded for ";
        detail::operand_name(w, d, i);
        w << (od.imm == imm_kind::f64   ? " (a 64-bit float literal keeps only the high 32 bits: low 32 bits must be 0)"
              : od.imm == imm_kind::b64 ? " (a 64-bit integer literal must be 0..0x7fffffff)"
                                        : " (does not fit the operand width)");
        return r;
      }
      case detail::fit::imm_range: {
        (w = detail::begin_fail(r, d)) << "immediate ";
        w.hex(o.value);
        w << " out of range for ";
        detail::operand_name(w, d, i);
        w << (od.imm == imm_kind::smem_offset ? " (21-bit signed offset)" : " (16-bit field)");
        return r;
      }
      case detail::fit::not_inline: {
        w = detail::begin_fail(r, d);
        detail::operand_name(w, d, i);
        w << " takes inline constants only (-16..64, +-0.5, +-1, +-2, +-4, 1/(2*pi)), got ";
        w.hex(o.value);
        return r;
      }
    }
    // Source modifiers
    if ((o.neg && !(od.src_mods & om_neg)) || (o.abs && !(od.src_mods & om_abs))) {
      (w = detail::begin_fail(r, d)) << "modifier " << (o.neg ? "neg" : "abs") << " not accepted by ";
      detail::operand_name(w, d, i);
      return r;
    }
    // Physical registers: range and tuple alignment
    if (o.k == operand::kind::phys) {
      uint16_t limit = o.cls == reg_class::sgpr ? lim.sgprs : o.cls == reg_class::vgpr ? lim.vgprs : lim.agprs;
      if (o.value + o.dwords > limit) {
        w = detail::begin_fail(r, d);
        detail::reg_text(w, o);
        w << " is out of range: the target addresses " << (o.cls == reg_class::sgpr ? "s0..s" : o.cls == reg_class::vgpr ? "v0..v" : "a0..a");
        w.dec(limit - 1);
        return r;
      }
      uint16_t align = o.cls == reg_class::sgpr ? (o.dwords >= 4 ? 4 : o.dwords == 2 ? 2 : 1) : (o.dwords >= 2 ? 2 : 1);
      if (o.value % align != 0) {
        w = detail::begin_fail(r, d);
        detail::reg_text(w, o);
        w << " is not aligned: ";
        if (o.cls == reg_class::sgpr)
          w << (align == 2 ? "64-bit SGPR pairs start at an even register" : "SGPR tuples of 4+ dwords start at a multiple of 4");
        else
          w << "VGPR/AGPR tuples start at an even register on gfx90a and later";
        return r;
      }
    }
  }

  // MUBUF addressing: vaddr is off exactly when neither idxen nor offen is set.
  if (d.enc == encoding::mubuf) {
    for (int i = 0; i < d.num_operands; ++i) {
      const operand_desc& od = d.operands[i];
      if (!((od.classes & oc_off) && (od.classes & oc_vgpr))) continue;
      bool want_reg = in.mods.idxen() || in.mods.offen();
      bool is_off = in.ops[i].k == operand::kind::none;
      if (want_reg == is_off) {
        (w = detail::begin_fail(r, d)) << (want_reg ? "idxen/offen need a VGPR vaddr, not off" : "vaddr must be off without idxen or offen");
        return r;
      }
    }
  }

  // One acc bit: data and result operands all VGPRs or all AGPRs.
  if (d.has(f_acc_tied)) {
    int cls = -1;
    for (int i = 0; i < d.num_operands; ++i) {
      if (d.enc == encoding::mfma && (i == 1 || i == 2)) continue;  // A/B choose their own class
      if (!(d.operands[i].classes & oc_agpr) || !in.ops[i].is_reg()) continue;
      int c = static_cast<int>(in.ops[i].cls);
      if (cls >= 0 && c != cls) {
        (w = detail::begin_fail(r, d)) << "data and result operands must be all VGPRs or all AGPRs (";
        detail::operand_name(w, d, i);
        w << " differs)";
        return r;
      }
      cls = c;
    }
  }

  // Constant bus and literal count (VALU).
  if (detail::is_valu(d)) {
    detail::bus_use u = detail::constant_bus(d, in, f);
    if (u.literals > 1) {
      (w = detail::begin_fail(r, d)) << "at most one literal per instruction";
      return r;
    }
    if (u.count > 1) {
      (w = detail::begin_fail(r, d)) << "at most one SGPR/literal read (constant bus) per VALU instruction on gfx9: ";
      detail::bus_operand_name(w, d, u.first);
      w << " and ";
      detail::bus_operand_name(w, d, u.second);
      w << " both read scalar values";
      return r;
    }
  }

  // Modifiers: accepted at all, and in range. (A bit mask first: cheap in constant
  // evaluation; names are only produced for a failure.)
  const modifiers m = in.mods.unpack();
  const bool ds2 = d.accepts(m_offset01);
  const uint32_t used = detail::modifiers_used(m, ds2);
  if (const uint32_t bad = used & ~d.modifiers) {
    uint32_t bit = bad & (~bad + 1);
    (w = detail::begin_fail(r, d)) << "modifier " << detail::modifier_name(bit, ds2) << " not accepted";
    return r;
  }
  if (d.has(f_needs_gds) && !m.gds) {
    (w = detail::begin_fail(r, d)) << "needs the gds modifier (GWS instructions exist only with gds)";
    return r;
  }
  if (ds2) {
    if (!detail::in_range(r, d, "offset0", m.offset, 0, 255) || !detail::in_range(r, d, "offset1", m.offset1, 0, 255))
      return r;
  } else if (m.offset != 0) {
    bool ok = true;
    switch (d.enc) {
      case encoding::ds: ok = detail::in_range(r, d, "offset", m.offset, 0, 65535); break;
      case encoding::flat: ok = detail::in_range(r, d, "offset", m.offset, 0, 4095); break;
      case encoding::global:
      case encoding::scratch: ok = detail::in_range(r, d, "offset", m.offset, -4096, 4095); break;
      case encoding::mubuf: ok = detail::in_range(r, d, "offset", m.offset, 0, 4095); break;
      case encoding::smem: {
        // offset: is the immediate next to an SGPR soffset; with an immediate soffset there is none
        const int last = d.num_operands - 1;
        if (last >= 0 && d.operands[last].imm == imm_kind::smem_offset && in.ops[last].k == operand::kind::imm) {
          (w = detail::begin_fail(r, d)) << "offset: needs an SGPR offset operand (the immediate offset is the operand)";
          return r;
        }
        ok = detail::in_range(r, d, "offset", m.offset, -(1 << 20), (1 << 20) - 1);
        break;
      }
      default: break;
    }
    if (!ok) return r;
  }
  if (used & (m_omod | m_cbsz_abid_blgp | m_blgp)) {
    if (!detail::in_range(r, d, "omod", m.omod, 0, 3) || !detail::in_range(r, d, "cbsz", m.cbsz, 0, 7) ||
        !detail::in_range(r, d, "abid", m.abid, 0, 15) || !detail::in_range(r, d, "blgp", m.blgp, 0, 7))
      return r;
  }
  if ((used & m_bitop3) && !detail::in_range(r, d, "bitop3", m.bitop3, 0, 255)) return r;
  if (f == form::dpp &&
      (!detail::in_range(r, d, "row_mask", m.dpp.row_mask, 0, 15) ||
       !detail::in_range(r, d, "bank_mask", m.dpp.bank_mask, 0, 15) || !detail::in_range(r, d, "dpp_ctrl", m.dpp.ctrl, 0, 0x1ff)))
    return r;
  if (f == form::sdwa &&
      (!detail::in_range(r, d, "dst_sel", m.sdwa.dst_sel, 0, 6) || !detail::in_range(r, d, "dst_unused", m.sdwa.dst_unused, 0, 2) ||
       !detail::in_range(r, d, "src0_sel", m.sdwa.src0_sel, 0, 6) || !detail::in_range(r, d, "src1_sel", m.sdwa.src1_sel, 0, 6)))
    return r;
  return r;
}

namespace detail {

// Is operand i legal in form f? The same rules as the explained path, in one function with
// no calls on the common register path (constant evaluation pays per call and per copy).
constexpr bool operand_ok(const instr_desc& d, const instr& in, int i, form f, const reg_limits& lim) {
  const operand& o = in.ops[i];
  const operand_desc& od = d.operands[i];
  const uint16_t allowed = f == form::plain ? od.classes : form_classes(d, i, f);
  if ((o.neg && !(od.src_mods & om_neg)) || (o.abs && !(od.src_mods & om_abs))) return false;
  switch (o.k) {
    case operand::kind::vreg:
    case operand::kind::phys: {
      const uint16_t bit = o.cls == reg_class::sgpr ? oc_sgpr : o.cls == reg_class::vgpr ? oc_vgpr : oc_agpr;
      if (!(allowed & bit)) return false;
      uint16_t want = od.dwords;
      if (od.dwords_alt || od.width_by != operand_width_by::fixed || (d.enc == encoding::mubuf && (od.classes & oc_off)))
        want = expected_dwords(d, in, i);
      if (o.dwords != want) return false;
      if (o.k == operand::kind::phys) {
        const uint16_t limit = o.cls == reg_class::sgpr ? lim.sgprs : o.cls == reg_class::vgpr ? lim.vgprs : lim.agprs;
        if (o.value + o.dwords > limit) return false;
        const uint16_t align =
            o.cls == reg_class::sgpr ? (o.dwords >= 4 ? 4 : o.dwords == 2 ? 2 : 1) : (o.dwords >= 2 ? 2 : 1);
        if (o.value % align != 0) return false;
      }
      return true;
    }
    // Immediates and special registers decide here too (operand_fits' verdict without its
    // calls: these two are in most lowered and user instructions).
    case operand::kind::imm: return imm_allowed(od, allowed, o.value);
    case operand::kind::special: {
      const op_kind k = kind_of(o);
      if (!(allowed & k.cls)) return false;
      return !(k.cls & (oc_vcc | oc_exec | oc_sgpr)) || k.dwords == expected_dwords(d, in, i);
    }
    case operand::kind::label:
    case operand::kind::none: return operand_fits(d, in, i, f) == fit::ok;
  }
  return false;
}

constexpr bool all_operands_ok(const instr_desc& d, const instr& in, form f, const reg_limits& lim) {
  for (int i = 0; i < d.num_operands; ++i)
    if (!operand_ok(d, in, i, f, lim)) return false;
  if (is_valu(d)) {
    // Constant bus: with at most one scalar-looking source (SGPR, special register, immediate)
    // nothing can exceed it; only then is the exact count (dedup, inline constants) needed.
    // Results and inline constants do not read it (as constant_bus counts), so a carry-out
    // VCC or an inline constant is no reason for the exact count.
    int scalar = (d.flags & f_reads_vcc) != 0;
    const operand* ops = in.ops;
    for (int i = 0; i < d.num_operands; ++i) {
      const operand_desc& od = d.operands[i];
      if (od.role == operand_role::def) continue;
      const operand& o = ops[i];
      if (o.k == operand::kind::vreg || o.k == operand::kind::phys) scalar += o.cls == reg_class::sgpr;
      else if (o.k == operand::kind::special) ++scalar;
      else if (o.k == operand::kind::imm)
        scalar += !((od.classes & oc_inline) && is_inline_constant(od.imm, o.value));
    }
    if (scalar > 1) {
      bus_use u = constant_bus(d, in, f);
      if (u.count > 1 || u.literals > 1) return false;
    }
  }
  return true;
}

static_assert(modifiers_used(no_modifiers, false) == 0 && modifiers_used(no_modifiers, true) == 0,
              "quick_check skips instructions without modifiers: the defaults must use no modifier bit");

// Modifiers accepted by the instruction and in range (the bits used in `used`).
constexpr bool modifiers_ok(const instr_desc& d, const instr& in, bool ds2, uint32_t& used) {
  const modifiers m = in.mods.unpack();
  used = modifiers_used(m, ds2);
  if (used & ~d.modifiers) return false;
  if (used) {
    if (ds2) {
      if (m.offset < 0 || m.offset > 255 || m.offset1 < 0 || m.offset1 > 255) return false;
    } else if (m.offset != 0) {
      switch (d.enc) {
        case encoding::ds:
          if (m.offset < 0 || m.offset > 65535) return false;
          break;
        case encoding::flat:
        case encoding::mubuf:
          if (m.offset < 0 || m.offset > 4095) return false;
          break;
        case encoding::global:
        case encoding::scratch:
          if (m.offset < -4096 || m.offset > 4095) return false;
          break;
        case encoding::smem: {
          const int last = d.num_operands - 1;
          if (last >= 0 && d.operands[last].imm == imm_kind::smem_offset && in.ops[last].k == operand::kind::imm)
            return false;
          if (m.offset < -(1 << 20) || m.offset >= (1 << 20)) return false;
          break;
        }
        default: break;
      }
    }
    if (m.omod > 3 || m.cbsz > 7 || m.abid > 15 || m.blgp > 7 || m.bitop3 > 255) return false;
    if ((used & m_dpp) && (m.dpp.row_mask > 15 || m.dpp.bank_mask > 15 || m.dpp.ctrl > 0x1ff)) return false;
    if ((used & m_sdwa) && (m.sdwa.dst_sel > 6 || m.sdwa.dst_unused > 2 || m.sdwa.src0_sel > 6 || m.sdwa.src1_sel > 6))
      return false;
  }
  return true;
}

// The whole verdict without a message; sets the chosen form.
constexpr bool quick_check(const instr_desc& d, const instr& in, const reg_limits& lim, form& chosen) {
  if (in.num_operands != d.num_operands) return false;
  const bool ds2 = (d.modifiers & m_offset01) != 0;
  if ((d.flags & f_needs_gds) && !in.mods.gds()) return false;
  uint32_t used = 0;
  if (!in.mods.none() && !modifiers_ok(d, in, ds2, used)) return false;
  form f = form::plain;
  bool try_e32 = false;
  if (is_vop12c(d)) {
    if (used & m_dpp) f = form::dpp;
    else if (used & m_sdwa) f = form::sdwa;
    else if (!((d.flags & (f_has_e64)) != 0)) f = d.enc == encoding::vop3 ? form::plain : form::e32;
    else if (!mods_need_vop3(in, d)) try_e32 = true;
    else f = form::e64;
  }
  if ((f == form::dpp && !((d.flags & (f_has_dpp)) != 0)) || (f == form::sdwa && !((d.flags & (f_has_sdwa)) != 0))) return false;
  if (try_e32) f = all_operands_ok(d, in, form::e32, lim) ? form::e32 : form::e64;
  if (!(try_e32 && f == form::e32) && !all_operands_ok(d, in, f, lim)) return false;
  if (d.enc == encoding::mubuf) {
    for (int i = 0; i < d.num_operands; ++i) {
      const operand_desc& od = d.operands[i];
      if ((od.classes & oc_off) && (od.classes & oc_vgpr) &&
          (in.mods.idxen() || in.mods.offen()) == (in.ops[i].k == operand::kind::none))
        return false;
    }
  }
  if (((d.flags & (f_acc_tied)) != 0)) {
    int cls = -1;
    for (int i = 0; i < d.num_operands; ++i) {
      if (d.enc == encoding::mfma && (i == 1 || i == 2)) continue;
      if (!(d.operands[i].classes & oc_agpr) || !in.ops[i].is_reg()) continue;
      const int c = static_cast<int>(in.ops[i].cls);
      if (cls >= 0 && c != cls) return false;
      cls = c;
    }
  }
  chosen = f;
  return true;
}

}  // namespace detail

// Operand legality of one instruction: ok, the chosen form, and on failure a one-line message.
constexpr check_result check(const instr_desc& d, const instr& in, const reg_limits& lim = {}) {
  form f = form::plain;
  if (detail::quick_check(d, in, lim, f)) {
    check_result r;
    r.chosen = f;
    r.print_e64 = f == form::e64 && ((d.flags & (f_has_e64)) != 0);
    return r;
  }
  check_result r = check_explained(d, in, lim);
  if (r.ok) {  // the two paths disagree: a bug in this header, reported rather than hidden
    r.ok = false;
    detail::writer w = detail::begin_fail(r, d);
    w << "internal error: hipasm's quick and explained operand checks disagree";
  }
  return r;
}

}  // namespace hipasm::isa
