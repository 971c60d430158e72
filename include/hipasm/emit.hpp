// Asm printing: one instruction a line, operands spelled as llvm-mc-22 spells them for
// gfx942 (s[2:3], v[4:7], a[0:15], vcc, exec, inline constants and literals, offset:,
// sc0/sc1/nt, DPP/SDWA controls, op_sel:[..], cbsz/abid/blgp, bitop3, s_waitcnt vmcnt(0)
// lgkmcnt(0)), block labels, and optionally the user's file:line and register names as
// comments.
//
// The printer writes to a sink: `size_sink` counts, `array_sink` fills a buffer. At
// compile time the text is sized first and then written into an array of exactly that
// size (toolchain.md: over-sized buffers and char-by-char vectors are what make constant
// evaluation slow).
#pragma once
#include <array>
#include <cstddef>
#include <string_view>
#include "vec.hpp"

#include "ir.hpp"
#include "passes/common.hpp"

namespace hipasm {

struct emit_options {
  bool comments = true;  // file:line, register names, hazard rules
  bool labels_prefixed = true;
};

struct size_sink {
  std::size_t n = 0;
  constexpr void put(char) { ++n; }
  constexpr void put(std::string_view s) { n += s.size(); }
};
struct array_sink {
  char* p = nullptr;
  std::size_t n = 0;
  constexpr void put(char c) { p[n++] = c; }
  constexpr void put(std::string_view s) {
    // One builtin per token instead of one interpreted store per character (both clang
    // constant interpreters evaluate __builtin_memcpy on char arrays).
    if (!s.empty()) __builtin_memcpy(p + n, s.data(), s.size());
    n += s.size();
  }
};

namespace detail {

// The tokens every line prints, as constants (a global string_view is one read; lit() a call).
inline constexpr std::string_view sv_space = lit(" "), sv_comma = lit(", "), sv_comment = lit(" ; ");

template <class S>
constexpr void put_uint(S& out, uint64_t v) {
  // Register numbers and small immediates dominate: no buffer for them.
  if (v < 10) {
    out.put(static_cast<char>('0' + v));
    return;
  }
  if (v < 100) {
    out.put(static_cast<char>('0' + v / 10));
    out.put(static_cast<char>('0' + v % 10));
    return;
  }
  char buf[24];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) out.put(buf[--n]);
}
template <class S>
constexpr void put_int(S& out, int64_t v) {
  if (v < 0) {
    out.put('-');
    put_uint(out, static_cast<uint64_t>(-v));
  } else {
    put_uint(out, static_cast<uint64_t>(v));
  }
}
template <class S>
constexpr void put_hex(S& out, uint64_t v) {
  out.put(lit("0x"));
  char buf[20];
  int n = 0;
  do {
    const int d = static_cast<int>(v & 0xf);
    buf[n++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
    v >>= 4;
  } while (v);
  while (n) out.put(buf[--n]);
}

template <class S>
constexpr void put_reg(S& out, reg_class c, uint64_t first, uint32_t n) {
  out.put(c == reg_class::sgpr ? 's' : c == reg_class::vgpr ? 'v' : 'a');
  if (n <= 1) {
    put_uint(out, first);
    return;
  }
  out.put('[');
  put_uint(out, first);
  out.put(':');
  put_uint(out, first + n - 1);
  out.put(']');
}

// A virtual register (the IR before allocation, as pass_dump prints it): %v12, or the
// dwords used of a wider one, %v12[2:3].
template <class S>
constexpr void put_vreg(S& out, const vreg_info& vi, uint64_t id, uint32_t offset, uint32_t n) {
  out.put('%');
  out.put(vi.cls == reg_class::sgpr ? 's' : vi.cls == reg_class::vgpr ? 'v' : 'a');
  put_uint(out, id);
  if (offset == 0 && n == vi.dwords) return;
  out.put('[');
  put_uint(out, offset);
  if (n > 1) {
    out.put(':');
    put_uint(out, offset + n - 1);
  }
  out.put(']');
}

constexpr std::string_view special_name(special_reg r) {
  switch (r) {
    case special_reg::vcc: return lit("vcc");
    case special_reg::vcc_lo: return lit("vcc_lo");
    case special_reg::vcc_hi: return lit("vcc_hi");
    case special_reg::exec: return lit("exec");
    case special_reg::exec_lo: return lit("exec_lo");
    case special_reg::exec_hi: return lit("exec_hi");
    case special_reg::m0: return lit("m0");
    case special_reg::scc: return lit("scc");
    case special_reg::vccz: return lit("vccz");
    case special_reg::execz: return lit("execz");
    case special_reg::flat_scratch: return lit("flat_scratch");
    case special_reg::src_shared_base: return lit("src_shared_base");
    case special_reg::src_private_base: return lit("src_private_base");
    default: return lit("");
  }
}

// Labels are local symbols named after the kernel (characters an assembler symbol cannot
// hold, as in "fn<3>", become '_'), then its label_uid as is (the device wrapper's "%=":
// clang's number of the asm statement, unique in the translation unit).
template <class S>
constexpr void put_symbol_part(S& out, std::string_view s) {
  bool all_ok = true;
  for (char c : s)
    all_ok = all_ok && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  if (all_ok) {  // (a kernel's name, mostly: one token, not one put per character)
    out.put(s);
    return;
  }
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    out.put(ok ? c : '_');
  }
}
template <class S>
constexpr void put_label(S& out, const function& fn, uint64_t b) {
  out.put(lit(".L"));
  put_symbol_part(out, fn.name);
  if (!fn.label_uid.empty()) {
    out.put('_');
    out.put(fn.label_uid);
  }
  if (b < fn.blocks.size() && !fn.blocks[b].label.empty()) {
    out.put('_');
    put_symbol_part(out, fn.blocks[b].label);
  }
  out.put(lit("_bb"));
  put_uint(out, b);  // user labels may repeat (loops in helpers): keep them unique
}

// Immediates: inline integers in decimal, everything else as the 32-bit (or wider) hex.
template <class S>
constexpr void put_imm(S& out, uint64_t v) {
  const int64_t s = static_cast<int64_t>(v);
  if (s >= -16 && s <= 64) {
    put_int(out, s);
    return;
  }
  if (s < 0 && s >= -2147483648LL) v &= 0xffffffffu;
  put_hex(out, v);
}

template <class S>
constexpr void put_waitcnt(S& out_, uint64_t imm) {
  S& out = out_;  // a local alias: lambdas must not capture reference parameters (new interpreter)
  const uint64_t vm = waitcnt_encoding::vm(imm);
  const uint64_t exp = waitcnt_encoding::exp(imm);
  const uint64_t lgkm = waitcnt_encoding::lgkm(imm);
  bool any = false;
  auto field = [&](std::string_view name, uint64_t v) {
    if (any) out.put(' ');
    out.put(name);
    out.put('(');
    put_uint(out, v);
    out.put(')');
    any = true;
  };
  if (vm != waitcnt_encoding::vm_max) field(lit("vmcnt"), vm);
  if (exp != waitcnt_encoding::exp_max) field(lit("expcnt"), exp);
  if (lgkm != waitcnt_encoding::lgkm_max) field(lit("lgkmcnt"), lgkm);
  if (!any) field(lit("vmcnt"), waitcnt_encoding::vm_max);
}

template <class S>
constexpr void put_dpp(S& out, const dpp_mods& d) {
  const uint16_t c = d.ctrl;
  if (c <= 0xff) {
    out.put(lit("quad_perm:["));
    for (int i = 0; i < 4; ++i) {
      if (i) out.put(',');
      put_uint(out, (c >> (2 * i)) & 3);
    }
    out.put(']');
  } else if (c >= 0x101 && c <= 0x10f) {
    out.put(lit("row_shl:"));
    put_uint(out, c - 0x100);
  } else if (c >= 0x111 && c <= 0x11f) {
    out.put(lit("row_shr:"));
    put_uint(out, c - 0x110);
  } else if (c >= 0x121 && c <= 0x12f) {
    out.put(lit("row_ror:"));
    put_uint(out, c - 0x120);
  } else if (c == 0x130) {
    out.put(lit("wave_shl:1"));
  } else if (c == 0x134) {
    out.put(lit("wave_rol:1"));
  } else if (c == 0x138) {
    out.put(lit("wave_shr:1"));
  } else if (c == 0x13c) {
    out.put(lit("wave_ror:1"));
  } else if (c == 0x140) {
    out.put(lit("row_mirror"));
  } else if (c == 0x141) {
    out.put(lit("row_half_mirror"));
  } else if (c == 0x142) {
    out.put(lit("row_bcast:15"));
  } else if (c == 0x143) {
    out.put(lit("row_bcast:31"));
  }
  out.put(lit(" row_mask:"));
  put_hex(out, d.row_mask);
  out.put(lit(" bank_mask:"));
  put_hex(out, d.bank_mask);
  if (d.bound_ctrl) out.put(lit(" bound_ctrl:1"));
}

constexpr std::string_view sdwa_sel_name(uint8_t s) {
  switch (s) {
    case 0: return lit("BYTE_0");
    case 1: return lit("BYTE_1");
    case 2: return lit("BYTE_2");
    case 3: return lit("BYTE_3");
    case 4: return lit("WORD_0");
    case 5: return lit("WORD_1");
    default: return lit("DWORD");
  }
}

template <class S>
constexpr void put_bits(S& out, std::string_view name, uint8_t bits, int n) {
  out.put(' ');
  out.put(name);
  out.put(lit(":["));
  for (int i = 0; i < n; ++i) {
    if (i) out.put(',');
    out.put(((bits >> i) & 1) ? '1' : '0');
  }
  out.put(']');
}

// Whether two file names are the same. By content: pointers to distinct string literals
// do not compare as a constant expression (literals may overlap), and asking
// __builtin_constant_p whether they do costs the bytecode interpreter ~9 us per call.
constexpr bool same_file(const char* a, const char* b) { return a && b && __builtin_strcmp(a, b) == 0; }

constexpr std::string_view basename(const char* path) {
  std::string_view p = path ? std::string_view(path) : std::string_view();
  const auto slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

// An instruction's modifiers, after its operands.
template <class S>
constexpr void put_modifiers(S& out_, const isa::instr_desc& d, const modifiers& m, bool add_sc0, bool add_lds,
                             bool vop3p, int nsrc, bool dpp, bool sdwa) {
  S& out = out_;
  using namespace isa;
  const encoding e = d.enc;
  const bool mem = e == encoding::ds || e == encoding::flat || e == encoding::global || e == encoding::scratch ||
                   e == encoding::mubuf;
  if (e == encoding::mubuf) {
    // (LLVM's order: "idxen offen"; the other is a syntax error)
    if (m.idxen) out.put(lit(" idxen"));
    if (m.offen) out.put(lit(" offen"));
  }
  if (mem) {
    if ((d.modifiers & m_offset01) && (m.offset || m.offset1)) {
      out.put(lit(" offset0:"));
      put_int(out, m.offset);
      out.put(lit(" offset1:"));
      put_int(out, m.offset1);
    } else if (m.offset) {
      out.put(lit(" offset:"));
      put_int(out, m.offset);
    }
  }
  if (e == encoding::smem) {
    if (m.glc || m.sc0) out.put(lit(" glc"));
  } else if (mem && e != encoding::ds) {
    if (m.glc || m.sc0 || add_sc0) out.put(lit(" sc0"));
    if (m.slc || m.nt) out.put(lit(" nt"));
    if (m.sc1) out.put(lit(" sc1"));
    if ((m.lds || add_lds) && e == encoding::mubuf) out.put(lit(" lds"));
  }
  if (m.gds && e == encoding::ds) out.put(lit(" gds"));
  if (m.clamp) out.put(lit(" clamp"));
  if (m.omod == 1) out.put(lit(" mul:2"));
  if (m.omod == 2) out.put(lit(" mul:4"));
  if (m.omod == 3) out.put(lit(" div:2"));
  if (m.bitop3) {
    // (llvm-mc's spelling: decimal up to 10, hex above; before op_sel)
    out.put(lit(" bitop3:"));
    if (m.bitop3 <= 10) put_uint(out, m.bitop3);
    else put_hex(out, m.bitop3);
  }
  const int sel_len = d.op_sel_len ? d.op_sel_len : (vop3p ? nsrc : nsrc + 1);
  const int hi_len = d.op_sel_hi_len ? d.op_sel_hi_len : nsrc;
  if (!vop3p && m.op_sel != 0 && m.op_sel != 0xff) put_bits(out, lit("op_sel"), m.op_sel, sel_len);
  // The scaled MFMAs' op_sel_hi picks the scale byte with op_sel; llvm-mc's default is zeros.
  if (e == encoding::mfma && m.op_sel_hi != 0xff) put_bits(out, lit("op_sel_hi"), m.op_sel_hi, hi_len);
  if (vop3p) {
    if (m.op_sel != 0 && m.op_sel != 0xff) put_bits(out, lit("op_sel"), m.op_sel, sel_len);
    const uint8_t all = static_cast<uint8_t>((1u << hi_len) - 1);
    if (m.op_sel_hi != 0xff && (m.op_sel_hi & all) != all) put_bits(out, lit("op_sel_hi"), m.op_sel_hi, hi_len);
    if (m.neg_lo) put_bits(out, lit("neg_lo"), m.neg_lo, hi_len);
    if (m.neg_hi) put_bits(out, lit("neg_hi"), m.neg_hi, hi_len);
  }
  if (e == encoding::mfma) {
    if (m.cbsz) {
      out.put(lit(" cbsz:"));
      put_uint(out, m.cbsz);
    }
    if (m.abid) {
      out.put(lit(" abid:"));
      put_uint(out, m.abid);
    }
    if (m.blgp) {
      out.put(lit(" blgp:"));
      put_uint(out, m.blgp);
    }
  }
  if (dpp) {
    out.put(' ');
    put_dpp(out, m.dpp);
  }
  if (sdwa) {
    // VOPC has no destination select; v_cvt_*_fp8/bf8 SDWA forms take none either.
    const bool has_dst_sel = e != encoding::vopc && d.accepts(isa::m_sdwa_dst);
    if (has_dst_sel) {
      out.put(lit(" dst_sel:"));
      out.put(sdwa_sel_name(m.sdwa.dst_sel));
      out.put(lit(" dst_unused:"));
      out.put(m.sdwa.dst_unused == 1 ? lit("UNUSED_SEXT") : m.sdwa.dst_unused == 2 ? lit("UNUSED_PRESERVE") : lit("UNUSED_PAD"));
    }
    out.put(lit(" src0_sel:"));
    out.put(sdwa_sel_name(m.sdwa.src0_sel));
    if (nsrc >= 2) {
      out.put(lit(" src1_sel:"));
      out.put(sdwa_sel_name(m.sdwa.src1_sel));
    }
  }
}

template <class S>
constexpr void print_instr(S& out_, const function& fn, const isa_view& isa, const instr& in, const emit_options& opt,
                           std::string_view file = {}, bool print_loc = true) {
  S& out = out_;  // a local alias: lambdas must not capture reference parameters (new interpreter)
  using namespace isa;
  const instr_desc& d = isa.descs[in.op];
  const bool dpp = in.mods.dpp_on();
  const bool sdwa = in.mods.sdwa_on();
  // Table variants llvm-mc spells like their base (same name in the table): atomics that
  // return the old value (printed with sc0) and MUBUF loads into LDS (with lds).
  const std::string_view mnemonic = d.name;
  const bool add_sc0 = d.has(f_returns);
  const bool add_lds = d.enc == encoding::mubuf && d.has(f_lds_dma);
  out.put('\t');
  out.put(mnemonic);
  if (dpp && !contains(d.name, "_dpp")) out.put(lit("_dpp"));
  if (sdwa && !contains(d.name, "_sdwa")) out.put(lit("_sdwa"));
  const bool vop3p = d.enc == encoding::vop3p;
  const vreg_info* const vregs = fn.vregs.data();  // (raw: vec::operator[] is an interpreted call)
  int nsrc = 0;
  if (d.enc == encoding::sopp && (d.flags & f_waitcnt) && d.operands[0].imm == imm_kind::simm16) {
    uint64_t imm = 0;
    for (int i = 0; i < in.num_operands; ++i)
      if (in.ops[i].k == operand::kind::imm) imm = in.ops[i].value;
    out.put(' ');
    put_waitcnt(out, imm);
  } else {
    for (int i = 0; i < in.num_operands; ++i) {
      const operand& o = in.ops[i];
      if (i >= d.num_operands || d.operands[i].role == operand_role::use) ++nsrc;  // a pure source
      out.put(i == 0 ? sv_space : sv_comma);
      switch (o.k) {
        case operand::kind::vreg: {
          const vreg_info& vi = vregs[o.value];
          const bool neg = o.neg && !vop3p, abs = o.abs && !vop3p;
          if (neg) out.put('-');
          if (abs) out.put('|');
          if (vi.phys < 0 && vi.fixed < 0) put_vreg(out, vi, o.value, o.offset, o.dwords);  // (a dump)
          else put_reg(out, vi.cls, static_cast<uint64_t>(vi.phys < 0 ? vi.fixed : vi.phys) + o.offset, o.dwords);
          if (abs) out.put('|');
          break;
        }
        case operand::kind::phys: {
          const bool neg = o.neg && !vop3p, abs = o.abs && !vop3p;
          if (neg) out.put('-');
          if (abs) out.put('|');
          put_reg(out, o.cls, o.value, o.dwords);
          if (abs) out.put('|');
          break;
        }
        case operand::kind::special:
          if (o.neg && !vop3p) out.put('-');
          if (o.abs && !vop3p) out.put('|');
          out.put(special_name(o.sp));
          if (o.abs && !vop3p) out.put('|');
          break;
        case operand::kind::imm:
          if (d.enc == encoding::sopp || d.enc == encoding::sopk)
            put_int(out, static_cast<int64_t>(o.value));
          else
            put_imm(out, o.value);
          break;
        case operand::kind::label: put_label(out, fn, o.value); break;
        case operand::kind::none: out.put(lit("off")); break;
      }
    }
  }
  if (!in.mods.none())
    put_modifiers(out, d, in.mods.unpack(), add_sc0, add_lds, vop3p, nsrc, dpp, sdwa);
  else if (add_sc0 || add_lds)  // (no modifiers and none implied: nothing to print)
    put_modifiers(out, d, no_modifiers, add_sc0, add_lds, vop3p, nsrc, dpp, sdwa);
  if (opt.comments) {
    bool started = false;
    auto begin = [&] {
      if (!started) out.put(sv_comment);
      else out.put(' ');
      started = true;
    };
    if (in.loc.line && print_loc) {
      begin();
      out.put(file.empty() ? basename(in.loc.file) : file);
      out.put(':');
      put_uint(out, in.loc.line);
    }
    for (int i = 0; i < in.num_operands; ++i) {
      const operand& o = in.ops[i];
      if (o.k != operand::kind::vreg || vregs[o.value].name.empty()) continue;
      bool seen = false;  // a name once per line
      for (int j = 0; j < i; ++j)
        if (in.ops[j].k == operand::kind::vreg && in.ops[j].value == o.value) seen = true;
      if (seen) continue;
      begin();
      out.put(vregs[o.value].name);
    }
    if (!in.comment.empty()) {
      begin();
      out.put(in.comment);
    }
  }
  out.put('\n');
}

}  // namespace detail

// Prints the whole function body (no directives: the text goes into an asm statement). An
// instruction's "; file:line" comment is printed where it differs from the line before and
// after each label, as a compiler's .loc: most instructions repeat the one before (a
// helper's expansion, an unrolled loop), and the text is a tenth of a big kernel's compile.
template <class S>
constexpr void print_function(S& out, const function& fn, const isa_view& isa, const emit_options& opt = {}) {
  // Label only the blocks something branches to.
  vec<uint8_t> target(fn.blocks.size(), 0);
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::label && in.ops[i].value < target.size()) target[in.ops[i].value] = 1;
  // The basename of the last file printed: the scan for '/' is per file change, not per line.
  const char* last_file = nullptr;
  std::string_view base{};
  // The location in force: the last instruction's line in last_file (a line not printed
  // repeats the one before), 0 after a label or a change of file. (So one file comparison an
  // instruction, the one above.)
  uint32_t printed_line = 0;
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    if (target[b]) {
      detail::put_label(out, fn, b);
      out.put(detail::lit(":\n"));
      printed_line = 0;
    }
    for (const instr& in : fn.blocks[b].instrs) {
      bool print_loc = false;
      if (opt.comments && in.loc.line) {
        if (!detail::same_file(in.loc.file, last_file)) {
          last_file = in.loc.file;
          base = detail::basename(in.loc.file);
          printed_line = 0;
        }
        print_loc = in.loc.line != printed_line;
        printed_line = in.loc.line;
      }
      detail::print_instr(out, fn, isa, in, opt, base, print_loc);
    }
  }
}

constexpr std::size_t printed_size(const function& fn, const isa_view& isa, const emit_options& opt = {}) {
  size_sink s;
  print_function(s, fn, isa, opt);
  return s.n;
}

// A fixed-size text with data()/size(), usable as an asm template and a static_assert message.
template <std::size_t N>
struct fixed_text {
  std::array<char, N + 1> chars{};  // public: a structural type (usable as a template argument)
  constexpr const char* data() const { return chars.data(); }
  constexpr std::size_t size() const { return N; }
  constexpr std::string_view view() const { return {chars.data(), N}; }
};

}  // namespace hipasm
