// Definedness tracking (see undef.hpp).
#include "undef.hpp"

#include <algorithm>
#include <bit>
#include <string_view>

#include "exec_valu_common.hpp"
#include "memory.hpp"

namespace hipasm::sim::undef {

namespace {

enum Kind : uint8_t {
  K_None,        // no register or memory effect the checker follows
  K_Salu,        // result defined iff every input bit is
  K_SaluBit,     // bitwise: per bit (op: Bit)
  K_Saveexec,    // s_<op>_saveexec_b64 / _wrexec (op: Bit, on (src, exec))
  K_Cselect,     // s_cselect: SCC picks the source
  K_Cmov,        // s_cmov/s_cmovk: SCC decides whether dst is written
  K_BranchScc, K_BranchVcc, K_BranchExec, K_Setpc,
  K_SetGprIdx,   // s_set_gpr_idx_on / _idx: M0 gets the index
  K_Smem,
  K_Valu,        // generic VALU: result defined in a lane iff its inputs are
  K_Packed,      // VOP3P on two 16-bit halves: each half from the halves op_sel picks
  K_Cmp,         // v_cmp*/v_cmpx*: a lane mask
  K_Cndmask,
  K_Readlane, K_Readfirstlane, K_Writelane, K_Swap,
  K_Mfma,
  K_Ds,
  K_Vmem,        // MUBUF, FLAT, GLOBAL, SCRATCH
};

enum Bit : uint8_t { B_MOV, B_NOT, B_AND, B_OR, B_XOR, B_XNOR, B_NAND, B_NOR, B_ANDN2, B_ORN2, B_ANDN1, B_ORN1 };

// 32-bit VALU ops whose result halves (16 bits each) depend on source halves that the values of
// the other operands decide: a shift by 16 moves one half and zeroes the other (bf16 -> f32 is
// a d16 load into the low half, then a shift left by 16), an AND with 0xffff zeroes the high
// half. The generic rule (every input half) would call such a result undefined.
enum Halves : uint8_t { H_NONE, H_MOV, H_NOT, H_BFREV, H_AND, H_OR, H_XOR, H_LSHL, H_LSHR, H_ASHR, H_BFE_U, H_BFE_I,
                        H_LSHL_OR, H_AND_OR };

enum DsOp : uint8_t { D_READ, D_WRITE, D_ATOMIC, D_XCHG, D_ADDTID_R, D_ADDTID_W, D_SWIZZLE, D_PERMUTE, D_BPERMUTE, D_OTHER };

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool has(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

bool bit_op(std::string_view m, size_t from, uint8_t& op) {
  static const std::pair<std::string_view, Bit> ops[] = {
      {"andn2_", B_ANDN2}, {"orn2_", B_ORN2}, {"andn1_", B_ANDN1}, {"orn1_", B_ORN1}, {"nand_", B_NAND},
      {"nor_", B_NOR},     {"xnor_", B_XNOR}, {"and_", B_AND},     {"or_", B_OR},     {"xor_", B_XOR},
      {"mov_", B_MOV},     {"not_", B_NOT}};
  std::string_view r = m.substr(from);
  for (auto& [p, b] : ops)
    if (starts(r, p)) {
      op = b;
      return true;
    }
  return false;
}

// value and defined bits of a bitwise op (per bit, as a memory checker's shadow logic: an AND
// with a defined 0, or an OR with a defined 1, is defined whatever the other side holds).
void bitwise(uint8_t op, uint64_t a, uint64_t da, uint64_t b, uint64_t db, uint64_t& r, uint64_t& dr) {
  switch (op) {
    case B_MOV: r = a; dr = da; return;
    case B_NOT: r = ~a; dr = da; return;
    case B_ANDN2: b = ~b; [[fallthrough]];
    case B_AND: r = a & b; dr = (da & db) | (da & ~a) | (db & ~b); return;
    case B_ANDN1: r = ~a & b; dr = (da & db) | (da & a) | (db & ~b); return;
    case B_NAND: r = ~(a & b); dr = (da & db) | (da & ~a) | (db & ~b); return;
    case B_ORN2: b = ~b; [[fallthrough]];
    case B_OR: r = a | b; dr = (da & db) | (da & a) | (db & b); return;
    case B_ORN1: r = ~a | b; dr = (da & db) | (da & ~a) | (db & b); return;
    case B_NOR: r = ~(a | b); dr = (da & db) | (da & a) | (db & b); return;
    case B_XOR: r = a ^ b; dr = da & db; return;
    case B_XNOR: r = ~(a ^ b); dr = da & db; return;
  }
  r = 0;
  dr = 0;
}

uint8_t ds_bytes_of(std::string_view m) {
  if (has(m, "b128")) return 16;
  if (has(m, "b96")) return 12;
  if (has(m, "_b64") || has(m, "_u64") || has(m, "_i64") || has(m, "_f64")) return 8;
  if (has(m, "u8") || has(m, "i8") || has(m, "_b8")) return 1;
  if (has(m, "u16") || has(m, "i16") || has(m, "_b16")) return 2;
  return 4;
}

}  // namespace

Facts classify(const Inst& in) {
  Facts f;
  std::string_view m = in.mnemonic;
  const uint32_t c = in.cls;
  f.scc_out = (c & C_WRITES_SCC) != 0;
  if (c & C_SALU) {
    f.scc_in = starts(m, "s_cselect") || starts(m, "s_cmov") || starts(m, "s_addc") || starts(m, "s_subb") ||
               starts(m, "s_cbranch_scc");
    if (starts(m, "s_cbranch_scc")) f.kind = K_BranchScc;
    else if (starts(m, "s_cbranch_vcc")) f.kind = K_BranchVcc;
    else if (starts(m, "s_cbranch_exec")) f.kind = K_BranchExec;
    else if (starts(m, "s_setpc") || starts(m, "s_swappc")) f.kind = K_Setpc;
    else if (starts(m, "s_set_gpr_idx_on") || starts(m, "s_set_gpr_idx_idx")) f.kind = K_SetGprIdx;
    else if (starts(m, "s_cselect")) f.kind = K_Cselect;
    else if (starts(m, "s_cmov")) f.kind = K_Cmov;
    else if (has(m, "saveexec") || has(m, "wrexec")) {
      f.kind = bit_op(m, 2, f.op) ? K_Saveexec : K_Salu;
    } else if ((m.ends_with("_b32") || m.ends_with("_b64")) && bit_op(m, 2, f.op) && !starts(m, "s_movk")) {
      f.kind = K_SaluBit;
    } else if (in.format == Format::SOPP) {
      f.kind = K_None;  // waits, barriers, branches on no condition, s_endpgm, messages
    } else if (starts(m, "s_setreg") || starts(m, "s_set_gpr_idx_off") || starts(m, "s_setvskip")) {
      f.kind = K_None;
    } else {
      f.kind = K_Salu;
    }
    return f;
  }
  if (c & C_SMEM) {
    f.kind = K_Smem;
    return f;
  }
  if (c & C_MFMA) {
    f.kind = K_Mfma;
    return f;
  }
  if (c & C_DS) {
    f.kind = K_Ds;
    f.ds_bytes = ds_bytes_of(m);
    f.half = has(m, "d16_hi") ? 2 : has(m, "d16") ? 1 : 3;
    if (starts(m, "ds_read_addtid")) f.op = D_ADDTID_R;
    else if (starts(m, "ds_write_addtid")) f.op = D_ADDTID_W;
    else if (starts(m, "ds_read")) f.op = D_READ;
    else if (starts(m, "ds_write")) f.op = D_WRITE;  // ds_write2, ds_write_b8_d16_hi, ...
    else if (starts(m, "ds_wrxchg")) f.op = D_XCHG;
    else if (starts(m, "ds_swizzle")) f.op = D_SWIZZLE;
    else if (starts(m, "ds_permute")) f.op = D_PERMUTE;
    else if (starts(m, "ds_bpermute")) f.op = D_BPERMUTE;
    else if (starts(m, "ds_gws") || starts(m, "ds_nop") || starts(m, "ds_append") || starts(m, "ds_consume") ||
             starts(m, "ds_ordered"))
      f.op = D_OTHER;
    else
      f.op = D_ATOMIC;
    if (starts(m, "ds_read_b64_tr_b") || starts(m, "ds_read_b96_tr_b"))
      f.ds_tr_bits = uint8_t(std::stoi(std::string(m.substr(m.rfind("_b") + 2))));
    if (starts(m, "ds_read2") || starts(m, "ds_write2") || starts(m, "ds_wrxchg2")) {
      f.ds_count = 2;
      f.ds_scale = uint16_t(has(m, "st64") ? 64 * f.ds_bytes : f.ds_bytes);
    }
    return f;
  }
  if (c & (C_VMEM | C_FLAT)) {
    f.kind = K_Vmem;
    const bool narrow = has(m, "_byte") || has(m, "_short") || has(m, "_ubyte") || has(m, "_sbyte") ||
                        has(m, "_ushort") || has(m, "_sshort");
    f.half = has(m, "d16_hi") ? 2 : (has(m, "_d16") && !has(m, "format")) || (narrow && (c & C_STORE)) ? 1 : 3;
    return f;
  }
  if (!(c & C_VALU)) return f;
  if (starts(m, "v_cmp")) f.kind = K_Cmp;
  else if (starts(m, "v_cndmask")) f.kind = K_Cndmask;
  else if (starts(m, "v_readlane")) f.kind = K_Readlane;
  else if (starts(m, "v_readfirstlane")) f.kind = K_Readfirstlane;
  else if (starts(m, "v_writelane")) f.kind = K_Writelane;
  else if (starts(m, "v_swap_")) f.kind = K_Swap;
  else if (in.format == Format::VOP3P && starts(m, "v_pk_") && !m.ends_with("_f32") && m != "v_pk_mov_b32")
    f.kind = K_Packed;
  else f.kind = K_Valu;
  if (starts(m, "v_cndmask") || starts(m, "v_addc_co") || starts(m, "v_subb_co") || starts(m, "v_subbrev_co"))
    f.mask_src = 2;
  for (int i = 0; i < in.num_src; ++i)
    if (in.src[i].kind == Operand::Vcc && (starts(m, "v_div_fmas") || f.mask_src == i)) f.mask_src = int8_t(i);
  // 16-bit results that keep the other half (the sim's F16Keep/B16Keep handlers).
  f.keep16 = has(m, "mac_f16") || has(m, "madmk_f16") || has(m, "madak_f16") || has(m, "fmac_f16") ||
             has(m, "3_f16") || has(m, "3_i16") || has(m, "3_u16") || m == "v_add_i16" || m == "v_sub_i16" ||
             starts(m, "v_cvt_scalef32_");  // the 16-bit forms write the half op_sel[3] picks
  static const std::pair<std::string_view, Halves> halves[] = {
      {"v_mov_b32", H_MOV},         {"v_not_b32", H_NOT},         {"v_bfrev_b32", H_BFREV},
      {"v_and_b32", H_AND},         {"v_or_b32", H_OR},           {"v_xor_b32", H_XOR},
      {"v_xnor_b32", H_XOR},        {"v_lshlrev_b32", H_LSHL},    {"v_lshrrev_b32", H_LSHR},
      {"v_ashrrev_i32", H_ASHR},    {"v_bfe_u32", H_BFE_U},       {"v_bfe_i32", H_BFE_I},
      {"v_lshl_or_b32", H_LSHL_OR}, {"v_and_or_b32", H_AND_OR}};
  for (auto& [name, h] : halves)
    if (m == name) f.halves = h;
  if (has(m, "mixlo")) f.op = 1;
  else if (has(m, "mixhi")) f.op = 2;
  return f;
}

void WaveShadow::reset(const Wave& w) {
  v.fill(0);
  s.fill(0);
  for (uint32_t i = 0; i < w.entry_sgprs && i < s.size(); ++i) s[i] = ~0u;
  for (size_t i = 102; i < s.size(); ++i) s[i] = ~0u;  // flat_scratch, xnack_mask, trap temporaries
  v[0] = v[1] = w.exec;                                // v0: the work-item ids of the lanes that exist
  vcc = 0;
  exec = ~0ull;
  m0 = 0;
  scc = false;
}

void lds_define(std::vector<uint64_t>& lds, uint32_t addr, uint32_t n) {
  for (uint64_t b = addr, e = uint64_t(addr) + n; b < e && (b >> 6) < lds.size(); ++b) lds[b >> 6] |= 1ull << (b & 63);
}

namespace {

constexpr uint32_t kHalfMask[4] = {0, 0xffffu, 0xffff0000u, ~0u};

// ---- per-lane rules of the Halves ops. Halves as bit sets: 1 low, 2 high, 3 both.
// The halves holding bits [lo, hi] of a dword (none when the range is empty).
int span_halves(int lo, int hi) {
  if (lo > hi) return 0;
  return (lo < 16 ? 1 : 0) | (hi >= 16 ? 2 : 0);
}
// The result halves that are defined when result half h reads source halves reads[h].
int defined_when(int def, int reads_lo, int reads_hi) {
  return ((def & reads_lo) == reads_lo ? 1 : 0) | ((def & reads_hi) == reads_hi ? 2 : 0);
}
// AND: a half is known where either side holds a defined 0 there; OR: a defined 0xffff.
int and_halves(uint32_t a, int da, uint32_t b, int db, bool is_or) {
  int r = 0;
  for (int h = 0; h < 2; ++h) {
    const int bit = 1 << h;
    const uint32_t m = kHalfMask[bit], known = is_or ? m : 0;
    if ((da & db & bit) || ((da & bit) && (a & m) == known) || ((db & bit) && (b & m) == known)) r |= bit;
  }
  return r;
}
// x shifted by amt (only amt's bits 4:0 count, in its low half).
int shift_halves(uint8_t op, uint32_t amt, int damt, int dx) {
  if (!(damt & 1)) return 0;
  const uint32_t a = amt & 31;
  if (op == H_LSHL) return defined_when(dx, a >= 16 ? 0 : 1, a == 0 ? 2 : a < 16 ? 3 : 1);
  return defined_when(dx, a == 0 ? 1 : a < 16 ? 3 : 2, op == H_LSHR && a >= 16 ? 0 : 2);
}
// v_bfe_u32/i32 x, off, width: the field is x's bits [off, off + width) (above bit 31: zeros,
// or bit 31 for i32), zero- or sign-extended from its top bit.
int bfe_halves(bool sign, uint32_t x_off, uint32_t width, const int* d) {
  if (!(d[1] & 1) || !(d[2] & 1)) return 0;
  const int o = int(x_off & 31), wd = int(width & 31);
  if (wd == 0) return 3;
  const int top = std::min(o + wd - 1, 31);
  const int lo = span_halves(o, std::min(o + std::min(wd, 16) - 1, 31));
  int hi = wd > 16 ? span_halves(o + 16, top) : 0;
  if (sign) hi |= span_halves(top, top);
  return defined_when(d[0], lo, hi);
}
// The defined result halves of Halves op `op` in one lane from the sources' values and
// defined halves.
int halves_rule(uint8_t op, const uint32_t* v, const int* d) {
  switch (op) {
    case H_MOV: case H_NOT: return d[0];
    case H_BFREV: return ((d[0] & 1) << 1) | (d[0] >> 1);
    case H_AND: return and_halves(v[0], d[0], v[1], d[1], false);
    case H_OR: return and_halves(v[0], d[0], v[1], d[1], true);
    case H_XOR: return d[0] & d[1];
    case H_LSHL: case H_LSHR: case H_ASHR: return shift_halves(op, v[0], d[0], d[1]);
    case H_BFE_U: case H_BFE_I: return bfe_halves(op == H_BFE_I, v[1], v[2], d);
    case H_LSHL_OR:
      return and_halves(v[0] << (v[1] & 31), shift_halves(H_LSHL, v[1], d[1], d[0]), v[2], d[2], true);
    case H_AND_OR: return and_halves(v[0] & v[1], and_halves(v[0], d[0], v[1], d[1], false), v[2], d[2], true);
  }
  return 0;
}

std::string reg_text(const Operand& op, int dwords = -1) {
  const int n = dwords < 0 ? op.dwords : dwords;
  auto span = [&](const char* p) {
    return n <= 1 ? p + std::to_string(op.reg) : std::string(p) + "[" + std::to_string(op.reg) + ":" + std::to_string(op.reg + n - 1) + "]";
  };
  switch (op.kind) {
    case Operand::Sgpr: return span("s");
    case Operand::Vgpr: return span("v");
    case Operand::Agpr: return span("a");
    case Operand::Vcc: return "vcc";
    case Operand::Exec: return "exec";
    case Operand::M0: return "m0";
    case Operand::Scc: return "scc";
    default: return "?";
  }
}

std::string lanes_text(uint64_t lanes) {
  std::string out;
  for (int l = 0; l < 64;) {
    if (!((lanes >> l) & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 64 && ((lanes >> (e + 1)) & 1)) ++e;
    if (!out.empty()) out += ",";
    out += std::to_string(l);
    if (e > l) out += "-" + std::to_string(e);
    l = e + 1;
  }
  return out;
}

struct Run {
  WaveShadow& u;
  std::vector<uint64_t>& lds;
  const Wave& w;
  const Inst& in;
  const Facts& f;
  Sink& sink;

  // ---- shadow access
  unsigned vindex(const Operand& op, int d) const {
    return (op.kind == Operand::Agpr ? w.accum_offset : 0u) + op.reg + unsigned(d);
  }
  // Defined bits of dword d of a scalar operand.
  uint32_t sdef(const Operand& op, int d) const {
    switch (op.kind) {
      case Operand::Sgpr: return op.reg + d < 128 ? u.s[op.reg + d] : ~0u;
      case Operand::Vcc: return uint32_t(u.vcc >> (32 * ((op.reg + d) & 1)));
      case Operand::Exec: return uint32_t(u.exec >> (32 * ((op.reg + d) & 1)));
      case Operand::M0: return u.m0;
      case Operand::Scc: return u.scc ? ~0u : 0u;
      case Operand::Special: {
        const unsigned r = op.reg + unsigned(d);
        if (r >= 102 && r <= 123) return u.s[r];
        if (op.reg == 253) return u.scc ? ~0u : 0u;
        return ~0u;
      }
      default: return ~0u;  // constants, literals, apertures
    }
  }
  bool sfull(const Operand& op) const {
    if (op.kind == Operand::None || op.is_const()) return true;
    for (int d = 0; d < std::max<int>(op.dwords, 1); ++d)
      if (sdef(op, d) != ~0u) return false;
    return true;
  }
  void set_sdef(const Operand& op, int d, uint32_t m) {
    switch (op.kind) {
      case Operand::Sgpr:
        if (op.reg + d < 128) u.s[op.reg + d] = m;
        return;
      case Operand::Vcc: {
        const int hi = (op.reg + d) & 1;
        u.vcc = (u.vcc & ~(0xffffffffull << (32 * hi))) | (uint64_t(m) << (32 * hi));
        return;
      }
      case Operand::Exec: {
        const int hi = (op.reg + d) & 1;
        u.exec = (u.exec & ~(0xffffffffull << (32 * hi))) | (uint64_t(m) << (32 * hi));
        return;
      }
      case Operand::M0: u.m0 = m; return;
      case Operand::Special:
        if (op.reg + d >= 102 && op.reg + d <= 123) u.s[op.reg + d] = m;
        return;
      default: return;
    }
  }
  // Per-lane definedness of a lane-mask operand (VCC or an SGPR pair).
  uint64_t mask_def(const Operand& op) const {
    if (op.kind == Operand::None || op.is_const()) return ~0ull;
    return sdef(op, 0) | (uint64_t(sdef(op, 1)) << 32);
  }
  void set_mask_def(const Operand& op, uint64_t m) {
    if (op.kind == Operand::Vcc && op.dwords == 1) {
      set_sdef(op, 0, uint32_t(m >> (32 * (op.reg & 1))));
      return;
    }
    set_sdef(op, 0, uint32_t(m));
    set_sdef(op, 1, uint32_t(m >> 32));
  }
  // Lanes where the `half` (1 low, 2 high, 3 both) of dword d of a VALU source is defined.
  uint64_t lanes_def(const Operand& op, int d, int half) const {
    if (op.is_vector()) {
      const unsigned r = vindex(op, d);
      if (r >= kMaxVgprs) return ~0ull;
      uint64_t m = ~0ull;
      if (half & 1) m &= u.v[2 * r];
      if (half & 2) m &= u.v[2 * r + 1];
      return m;
    }
    const uint32_t need = kHalfMask[half];
    return (sdef(op, d) & need) == need ? ~0ull : 0;
  }
  uint64_t all_dwords_def(const Operand& op, int half = 3) const {
    uint64_t m = ~0ull;
    for (int d = 0; d < std::max<int>(op.dwords, 1); ++d) m &= lanes_def(op, d, half);
    return m;
  }
  void set_vdef(unsigned r, int half, uint64_t lanes, uint64_t def) {
    if (r >= kMaxVgprs) return;
    if (half & 1) u.v[2 * r] = (u.v[2 * r] & ~lanes) | (def & lanes);
    if (half & 2) u.v[2 * r + 1] = (u.v[2 * r + 1] & ~lanes) | (def & lanes);
  }
  void set_vec(const Operand& op, int half, uint64_t lanes, uint64_t def) {
    if (!op.is_vector()) return;
    for (int d = 0; d < std::max<int>(op.dwords, 1); ++d) set_vdef(vindex(op, d), half, lanes, def);
  }

  // ---- findings
  void report(const char* rule, const std::string& what) { sink.found(rule, what); }
  // Lanes of `active` where a vector operand (all dwords, `half`) is undefined: a finding.
  void need_lanes(const char* rule, const char* role, const Operand& op, uint64_t active, int half = 3) {
    if (op.kind == Operand::None || !active) return;
    if (!op.is_vector()) {
      need_scalar(rule, role, op);
      return;
    }
    const uint64_t bad = ~all_dwords_def(op, half) & active;
    if (bad) report(rule, role + std::string(" ") + reg_text(op) + " is undefined in lanes " + lanes_text(bad));
  }
  void need_scalar(const char* rule, const char* role, const Operand& op) {
    if (!sfull(op)) report(rule, role + std::string(" ") + reg_text(op) + " is undefined");
  }

  // ---- VALU sources
  // Halves of source i a non-packed VALU reads: 16-bit sources pick one by op_sel or SDWA.
  int src_half(int i) const {
    const Operand& op = in.src[size_t(i)];
    const Modifiers& m = in.mod;
    if (m.sdwa && i < 2 && op.is_vector()) {
      const uint8_t sel = i == 0 ? m.src0_sel : m.src1_sel;
      return sel == 6 ? 3 : (sel == 2 || sel == 3 || sel == 5) ? 2 : 1;
    }
    if (op.bits == 16)
      return (in.format == Format::VOP3 || in.format == Format::VOP3P) && ((m.op_sel >> i) & 1) ? 2 : 1;
    return 3;
  }
  // Lanes whose src0 (after DPP) is defined; `en` gets the lanes DPP lets write.
  uint64_t src0_dpp(uint64_t def, uint64_t& en) const {
    const Modifiers& m = in.mod;
    uint64_t out = 0;
    en = 0;
    for (int l = 0; l < kLanes; ++l) {
      if (!((m.row_mask >> (l >> 4)) & 1) || !((m.bank_mask >> ((l >> 2) & 3)) & 1)) continue;
      const int s = detail::dpp_source_lane(m.dpp_ctrl, l);
      if (s < 0 || !((w.exec >> s) & 1)) {
        if (m.bound_ctrl) {
          out |= 1ull << l;
          en |= 1ull << l;
        }
        continue;
      }
      en |= 1ull << l;
      if ((def >> s) & 1) out |= 1ull << l;
    }
    return out;
  }
  uint64_t src_def(int i, uint64_t& en) const {
    const Operand& op = in.src[size_t(i)];
    uint64_t d = all_dwords_def(op, src_half(i));
    if (i == 0 && in.mod.dpp) d = src0_dpp(d, en);
    return d;
  }

  void gpr_index_check() {
    if ((w.mode & kModeGprIdxEn) && (u.m0 & 0xff) != 0xff)
      report("undef-addr", "VGPR index mode with M0[7:0] undefined");
  }

  void valu() {
    gpr_index_check();
    uint64_t en = ~0ull, in_def = ~0ull;
    for (int i = 0; i < in.num_src; ++i) {
      const Operand& op = in.src[size_t(i)];
      if (op.kind == Operand::None || op.kind == Operand::Scc) continue;
      if (i == f.mask_src) in_def &= mask_def(op);
      else in_def &= src_def(i, en);
    }
    const uint64_t active = w.exec & en;
    // Lane-mask results (VOPC, carry-out): inactive lanes get a defined 0.
    for (int i = 0; i < in.num_dst; ++i) {
      const Operand& d = in.dst[size_t(i)];
      if (d.kind == Operand::Sgpr || d.kind == Operand::Vcc) set_mask_def(d, in_def | ~active);
    }
    const Operand& d = in.dst[0];
    if (!d.is_vector()) return;
    const Modifiers& m = in.mod;
    if (m.sdwa && (in.format == Format::VOP1 || in.format == Format::VOP2) && m.dst_sel != 6) {
      const bool high = m.dst_sel == 2 || m.dst_sel == 3 || m.dst_sel == 5;
      set_vdef(vindex(d, 0), high ? 2 : 1, active, in_def);
      if (m.dst_unused != 2) set_vdef(vindex(d, 0), high ? 1 : 2, active, high ? ~0ull : in_def);
      return;
    }
    if (f.op == 1 || f.op == 2) {  // v_fma_mixlo / mixhi
      set_vdef(vindex(d, 0), f.op, active, in_def);
      return;
    }
    if (d.bits == 16 && in.format != Format::VOP3P) {
      if ((in.format == Format::VOP3) && ((m.op_sel >> 3) & 1)) {
        set_vdef(vindex(d, 0), 2, active, in_def);
      } else {
        set_vdef(vindex(d, 0), 1, active, in_def);
        if (!f.keep16) set_vdef(vindex(d, 0), 2, active, ~0ull);
      }
      return;
    }
    // 64-bit integer sums and products (v_mad_u64_u32, v_mad_i64_i32, v_lshl_add_u64): the
    // result's low dword depends only on the sources' low dwords (carries go upward), so an
    // undefined high half of an addend (clang leaves it so when only the low half is used)
    // leaves the low dword defined.
    if (d.dwords == 2 && low_dword_arith(in.mnemonic)) {
      uint64_t lo_def = ~0ull;
      for (int i = 0; i < in.num_src; ++i) {
        const Operand& op = in.src[size_t(i)];
        if (op.kind == Operand::None || op.kind == Operand::Scc) continue;
        lo_def &= i == f.mask_src ? mask_def(op) : lanes_def(op, 0, 3);
      }
      set_vdef(vindex(d, 0), 3, active, lo_def);
      set_vdef(vindex(d, 1), 3, active, in_def);
      return;
    }
    if (f.halves && d.dwords <= 1 && !m.dpp && !m.sdwa && (in_def & active) != active) {
      halves_result(d, active, in_def);
      return;
    }
    set_vec(d, 3, active, in_def);
  }

  // A Halves op in the lanes where some input half is undefined: each result half by the
  // halves it reads there.
  void halves_result(const Operand& d, uint64_t active, uint64_t in_def) {
    uint64_t lo = in_def, hi = in_def;
    std::array<uint64_t, 3> dlo{}, dhi{};
    const int n = std::min<int>(in.num_src, 3);
    for (int i = 0; i < n; ++i) {
      dlo[size_t(i)] = lanes_def(in.src[size_t(i)], 0, 1);
      dhi[size_t(i)] = lanes_def(in.src[size_t(i)], 0, 2);
    }
    for (uint64_t rest = active & ~in_def; rest; rest &= rest - 1) {
      const int l = std::countr_zero(rest);
      uint32_t v[3] = {0, 0, 0};
      int dh[3] = {3, 3, 3};
      for (int i = 0; i < n; ++i) {
        v[i] = read_u32(w, in.src[size_t(i)], l);
        dh[i] = int((dlo[size_t(i)] >> l) & 1) | int(((dhi[size_t(i)] >> l) & 1) << 1);
      }
      const int r = halves_rule(f.halves, v, dh);
      if (r & 1) lo |= 1ull << l;
      if (r & 2) hi |= 1ull << l;
    }
    set_vdef(vindex(d, 0), 1, active, lo);
    set_vdef(vindex(d, 0), 2, active, hi);
  }

  static bool low_dword_arith(std::string_view m) {
    return m == "v_mad_u64_u32" || m == "v_mad_i64_i32" || m == "v_lshl_add_u64";
  }

  void packed() {
    gpr_index_check();
    uint64_t lo = ~0ull, hi = ~0ull;
    const Modifiers& m = in.mod;
    for (int i = 0; i < in.num_src; ++i) {
      const Operand& op = in.src[size_t(i)];
      if (op.kind == Operand::None) continue;
      lo &= lanes_def(op, 0, ((m.op_sel >> i) & 1) ? 2 : 1);
      hi &= lanes_def(op, 0, ((m.op_sel_hi >> i) & 1) ? 2 : 1);
    }
    const Operand& d = in.dst[0];
    if (!d.is_vector()) return;
    set_vdef(vindex(d, 0), 1, w.exec, lo);
    set_vdef(vindex(d, 0), 2, w.exec, hi);
  }

  void cmp() {
    uint64_t en = ~0ull, in_def = ~0ull;
    for (int i = 0; i < in.num_src; ++i) {
      const Operand& op = in.src[size_t(i)];
      if (op.kind == Operand::None || op.kind == Operand::Scc) continue;
      in_def &= src_def(i, en);
    }
    const uint64_t active = w.exec & en;
    const uint64_t res = in_def | ~active;
    bool exec_written = false;
    for (int i = 0; i < in.num_dst; ++i) {
      const Operand& d = in.dst[size_t(i)];
      if (d.kind == Operand::Exec) exec_written = true;
      set_mask_def(d, res);
    }
    if (in.num_dst == 0) u.vcc = res;
    if ((in.cls & C_CMPX) && !exec_written) {
      u.exec = res;
      exec_written = true;
    }
    if (exec_written && u.exec != ~0ull)
      report("undef-exec", "the compare gives EXEC undefined bits in lanes " + lanes_text(~u.exec));
  }

  void cndmask() {
    gpr_index_check();
    uint64_t en = ~0ull;
    const uint64_t s0 = src_def(0, en), s1 = src_def(1, en);
    const Operand& mk = in.src[2];
    const uint64_t sel = mk.kind == Operand::None ? w.vcc : read_scalar64(w, mk);
    const uint64_t mdef = mk.kind == Operand::None ? u.vcc : mask_def(mk);
    const uint64_t def = mdef & ((sel & s1) | (~sel & s0));
    const Operand& d = in.dst[0];
    const uint64_t active = w.exec & en;
    if (d.bits == 16) {
      set_vdef(vindex(d, 0), 1, active, def);
    } else if (in.mod.sdwa) {
      set_vec(d, 3, active, def);
    } else {  // per half: the selected input's half
      for (int h = 1; h <= 2; ++h) {
        uint64_t en_h = ~0ull;
        uint64_t h0 = all_dwords_def(in.src[0], h);
        if (in.mod.dpp) h0 = src0_dpp(h0, en_h);
        const uint64_t h1 = all_dwords_def(in.src[1], h);
        set_vdef(vindex(d, 0), h, active, mdef & ((sel & h1) | (~sel & h0)));
      }
    }
  }

  void readlane(bool first) {
    const Operand& src = in.src[0];
    int lane;
    bool ok = true;
    if (first) {
      lane = w.exec ? std::countr_zero(w.exec) : 0;
    } else {
      lane = int(read_scalar(w, in.src[1]) & 63);
      ok = (sdef(in.src[1], 0) & 63) == 63;
    }
    ok = ok && ((lanes_def(src, 0, 3) >> lane) & 1);
    set_sdef(in.dst[0], 0, ok ? ~0u : 0u);
  }

  void writelane() {
    const int lane = int(read_scalar(w, in.src[1]) & 63);
    if ((sdef(in.src[1], 0) & 63) != 63) {
      report("undef-addr", "lane select " + reg_text(in.src[1]) + " is undefined");
      return;
    }
    set_vdef(vindex(in.dst[0], 0), 3, 1ull << lane, sdef(in.src[0], 0) == ~0u ? ~0ull : 0);
  }

  void swap() {
    const Operand& a = in.dst[0];
    const Operand& b = in.src[0];
    if (!a.is_vector() || !b.is_vector()) return;
    for (int d = 0; d < std::max<int>(a.dwords, 1); ++d) {
      const unsigned ra = vindex(a, d), rb = vindex(b, d);
      if (ra >= kMaxVgprs || rb >= kMaxVgprs) continue;
      for (int h = 0; h < 2; ++h) {
        const uint64_t da = u.v[2 * ra + h], db = u.v[2 * rb + h];
        u.v[2 * ra + h] = (da & ~w.exec) | (db & w.exec);
        u.v[2 * rb + h] = (db & ~w.exec) | (da & w.exec);
      }
    }
  }

  // An MFMA's result: a block of A times B plus C, so every output depends on whole A and B
  // registers (all lanes; MFMA ignores EXEC) and on the element of C at its own position.
  void mfma() {
    const Operand& a = in.src[0];
    const Operand& b = in.src[1];
    const Operand& c = in.src[2];
    const Operand& d = in.dst[0];
    bool ab = all_dwords_def(a) == ~0ull && all_dwords_def(b) == ~0ull;
    const bool sparse = starts(in.mnemonic, "v_smfmac");
    if (sparse) ab = ab && all_dwords_def(c) == ~0ull;  // the index register
    if (!d.is_vector()) return;
    const int n = std::max<int>(d.dwords, 1);
    std::array<uint64_t, 32> lo{}, hi{};
    for (int k = 0; k < n && k < 32; ++k) {
      if (!ab) continue;
      const Operand& acc = sparse ? d : c;
      lo[size_t(k)] = acc.is_vector() ? lanes_def(acc, k, 1) : ~0ull;
      hi[size_t(k)] = acc.is_vector() ? lanes_def(acc, k, 2) : ~0ull;
    }
    for (int k = 0; k < n && k < 32; ++k) {
      set_vdef(vindex(d, k), 1, ~0ull, lo[size_t(k)]);
      set_vdef(vindex(d, k), 2, ~0ull, hi[size_t(k)]);
    }
  }

  // ---- SALU
  void salu() {
    bool ok = !f.scc_in || u.scc;
    for (int i = 0; i < in.num_src; ++i) {
      const Operand& op = in.src[size_t(i)];
      if (op.kind == Operand::Scc) continue;
      ok = ok && sfull(op);
    }
    write_sdsts(ok ? ~0u : 0u);
    if (f.scc_out) u.scc = ok;
  }
  void write_sdsts(uint32_t m) {
    for (int i = 0; i < in.num_dst; ++i) {
      const Operand& d = in.dst[size_t(i)];
      if (d.kind == Operand::Scc || d.kind == Operand::None) continue;
      for (int k = 0; k < std::max<int>(d.dwords, 1); ++k) set_sdef(d, k, m);
    }
    check_exec();
  }
  void check_exec() {
    bool exec_written = false;
    for (int i = 0; i < in.num_dst; ++i) exec_written = exec_written || in.dst[size_t(i)].kind == Operand::Exec;
    if (exec_written && u.exec != ~0ull) report("undef-exec", "EXEC gets undefined bits in lanes " + lanes_text(~u.exec));
  }
  uint64_t sval(const Operand& op, bool wide) const { return wide ? read_scalar64(w, op) : read_scalar(w, op); }
  uint64_t sdef_of(const Operand& op, bool wide) const {
    if (op.kind == Operand::None) return ~0ull;
    return wide ? (sdef(op, 0) | (uint64_t(sdef(op, 1)) << 32)) : (uint64_t(sdef(op, 0)) | ~0xffffffffull);
  }
  void salu_bit() {
    const Operand& d = in.dst[0];
    const bool wide = d.dwords >= 2 || in.mnemonic.ends_with("_b64");
    const Operand& a = in.src[0];
    const Operand& b = in.num_src > 1 && in.src[1].kind != Operand::Scc ? in.src[1] : in.src[0];
    uint64_t r, dr;
    bitwise(f.op, sval(a, wide), sdef_of(a, wide), sval(b, wide), sdef_of(b, wide), r, dr);
    if (in.mnemonic.starts_with("s_brev")) dr = wide ? __builtin_bitreverse64(dr) : __builtin_bitreverse32(uint32_t(dr));
    if (!wide) {
      r &= 0xffffffffu;
      dr |= ~0xffffffffull;
    }
    set_sdef(d, 0, uint32_t(dr));
    if (wide) set_sdef(d, 1, uint32_t(dr >> 32));
    // SCC = result != 0: known once a defined bit is 1 or every bit is defined.
    if (f.scc_out) u.scc = dr == ~0ull || (r & dr) != 0;
    check_exec();
  }
  void saveexec() {
    const Operand& src = in.src[0];
    const uint64_t sv = read_scalar64(w, src), sd = mask_def(src);
    // sdst gets the old EXEC; EXEC = op(src, EXEC).
    if (in.num_dst > 0 && in.dst[0].kind != Operand::Exec && in.dst[0].kind != Operand::Scc) set_mask_def(in.dst[0], u.exec);
    uint64_t r, dr;
    const std::string_view m = in.mnemonic;
    if (has(m, "wrexec")) {
      // s_andn1_wrexec / s_andn2_wrexec: EXEC = ~src & EXEC / src & ~EXEC, sdst = that too.
      bitwise(f.op, sv, sd, w.exec, u.exec, r, dr);
      set_mask_def(in.dst[0], dr);
    } else {
      bitwise(f.op, sv, sd, w.exec, u.exec, r, dr);
    }
    u.exec = dr;
    u.scc = dr == ~0ull || (r & dr) != 0;
    if (u.exec != ~0ull) report("undef-exec", "EXEC gets undefined bits in lanes " + lanes_text(~u.exec) + " from " + reg_text(src));
  }
  void cselect() {
    const bool wide = in.dst[0].dwords >= 2;
    const Operand& pick = w.scc ? in.src[0] : in.src[1];
    const uint64_t def = u.scc ? sdef_of(pick, wide) : 0;
    set_sdef(in.dst[0], 0, uint32_t(def));
    if (wide) set_sdef(in.dst[0], 1, uint32_t(def >> 32));
    check_exec();
  }
  void cmov() {
    if (!u.scc) {
      write_sdsts(0);
      return;
    }
    if (!w.scc) return;
    const Operand& d = in.dst[0];
    for (int k = 0; k < std::max<int>(d.dwords, 1); ++k) set_sdef(d, k, in.src[0].is_const() ? ~0u : sdef(in.src[0], k));
    check_exec();
  }
  void branch_on(const char* what, uint64_t v, uint64_t def) {
    // zero or not: known when a defined bit is 1 or every bit is defined
    if (def != ~0ull && (v & def) == 0) report("undef-branch", std::string(what) + " depends on undefined bits in lanes " + lanes_text(~def));
  }

  // ---- memory
  void smem() {
    need_scalar("undef-addr", "base", in.src[0]);
    need_scalar("undef-addr", "offset", in.src[1]);
    if (in.cls & (C_STORE | C_ATOMIC)) need_scalar("undef-store", "data", in.src[2]);
    if (in.num_dst > 0) write_sdsts(~0u);
  }

  void vmem() {
    const uint64_t active = w.exec;
    if (in.format == Format::MUBUF) {
      need_lanes("undef-addr", "address", in.src[0], active);
      if (active) {
        need_scalar("undef-addr", "buffer resource", in.src[2]);
        need_scalar("undef-addr", "offset", in.src[3]);
      }
    } else {
      need_lanes("undef-addr", "address", in.src[0], active);
      if (active) need_scalar("undef-addr", "address", in.src[2]);
    }
    if ((in.cls & C_LDS_DMA) && active && (u.m0 & 0xffff) != 0xffff) report("undef-addr", "LDS address M0 is undefined");
    const bool scratch = in.format == Format::SCRATCH;
    if ((in.cls & (C_STORE | C_ATOMIC)) && !(in.cls & C_LDS_DMA) && !scratch)
      need_lanes("undef-store", "data", in.src[1], active, f.half);
    if (in.num_dst > 0 && in.dst[0].is_vector()) set_vec(in.dst[0], f.half, active, ~0ull);
  }

  bool lds_get(uint32_t a, uint32_t n) const {
    for (uint64_t b = a; b < uint64_t(a) + n; ++b) {
      if ((b >> 6) >= lds.size()) return true;  // outside: the access faults anyway
      if (!((lds[b >> 6] >> (b & 63)) & 1)) return false;
    }
    return true;
  }
  void lds_put(uint32_t a, uint32_t n, bool def) {
    for (uint64_t b = a; b < uint64_t(a) + n && (b >> 6) < lds.size(); ++b) {
      if (def) lds[b >> 6] |= 1ull << (b & 63);
      else lds[b >> 6] &= ~(1ull << (b & 63));
    }
  }
  bool vbit(const Operand& op, int d, int half, int lane) const { return (lanes_def(op, d, half) >> lane) & 1; }

  void ds() {
    const uint64_t active = w.exec;
    const Operand& dst = in.dst[0];
    switch (f.op) {
      case D_OTHER:
        if (in.num_dst > 0) set_vec(dst, 3, active, ~0ull);
        return;
      case D_ADDTID_R:
      case D_ADDTID_W: {
        if (active && (u.m0 & 0xffff) != 0xffff) {
          report("undef-addr", "LDS address M0 is undefined");
          return;
        }
        for (uint64_t m = active; m; m &= m - 1) {
          const int l = std::countr_zero(m);
          const uint32_t a = ds_addtid_address(w, in, l);
          if (f.op == D_ADDTID_R) {
            set_vdef(vindex(dst, 0), 3, 1ull << l, lds_get(a, 4) ? ~0ull : 0);
          } else {
            lds_put(a, 2, vbit(in.src[0], 0, 1, l));
            lds_put(a + 2, 2, vbit(in.src[0], 0, 2, l));
          }
        }
        return;
      }
      case D_SWIZZLE:
      case D_PERMUTE:
      case D_BPERMUTE:
        lane_move(active);
        return;
      default: break;
    }
    need_lanes("undef-addr", "LDS address", in.src[0], active);
    if (~all_dwords_def(in.src[0]) & active) {
      if (in.num_dst > 0) set_vec(dst, 3, active, ~0ull);  // reported: do not report its uses too
      return;
    }
    if (f.ds_tr_bits) {
      read_transposed(active);
      return;
    }
    const uint32_t n = f.ds_bytes;
    const uint32_t dw = n >= 4 ? n / 4 : 1;
    for (uint64_t m = active; m; m &= m - 1) {
      const int l = std::countr_zero(m);
      for (int e = 0; e < f.ds_count; ++e) {
        const uint32_t a = f.ds_count == 2 ? ds_address2(w, in, l, e, f.ds_scale) : ds_address(w, in, l);
        const uint64_t lane = 1ull << l;
        if (f.op == D_READ) {
          if (n >= 4) {
            for (uint32_t k = 0; k < dw; ++k) {
              set_vdef(vindex(dst, int(e * dw + k)), 1, lane, lds_get(a + 4 * k, 2) ? ~0ull : 0);
              set_vdef(vindex(dst, int(e * dw + k)), 2, lane, lds_get(a + 4 * k + 2, 2) ? ~0ull : 0);
            }
          } else {
            set_vdef(vindex(dst, 0), f.half, lane, lds_get(a, n) ? ~0ull : 0);
          }
        } else if (f.op == D_WRITE) {
          const Operand& src = in.src[size_t(1 + e)];
          if (n >= 4) {
            for (uint32_t k = 0; k < dw; ++k) {
              lds_put(a + 4 * k, 2, vbit(src, int(k), 1, l));
              lds_put(a + 4 * k + 2, 2, vbit(src, int(k), 2, l));
            }
          } else {
            lds_put(a, n, vbit(src, 0, f.half == 2 ? 2 : 1, l));
          }
        } else {  // atomics: the old value returns; the new one depends on it and on the data
          const bool old_def = lds_get(a, n);
          bool data = true;
          const int nsrc = f.op == D_XCHG ? 1 : 2;
          for (int s = 0; s < nsrc; ++s) {
            const Operand& src = in.src[size_t(f.op == D_XCHG ? 1 + e : 1 + s)];
            if (src.kind != Operand::None) data = data && ((all_dwords_def(src) >> l) & 1);
          }
          if (in.num_dst > 0 && dst.is_vector()) {
            const int nd = int(n / 4 ? n / 4 : 1);
            for (int k = 0; k < nd; ++k) set_vdef(vindex(dst, e * nd + k), 3, lane, old_def ? ~0ull : 0);
          }
          lds_put(a, n, f.op == D_XCHG ? data : (old_def && data));
        }
      }
    }
  }

  // gfx950 ds_read_b64_tr_b4/b8/b16 and ds_read_b96_tr_b6: lane l of each 16-lane group receives
  // elements l, l + 16, ... of the group's rows read as one list (ds_read_tr_source, as the data), so
  // a result half is defined where every element it holds came from defined LDS bytes of an
  // active lane's row (an inactive lane reads nothing).
  void read_transposed(uint64_t active) {
    const int bits = f.ds_tr_bits, bytes = f.ds_bytes, per_lane = bytes * 8 / bits;
    uint32_t row_def[kLanes] = {};  // bit b: byte b of the lane's row is defined
    for (uint64_t m = active; m; m &= m - 1) {
      const int l = std::countr_zero(m);
      const uint32_t a = ds_address(w, in, l);
      for (int b = 0; b < bytes; ++b)
        if (lds_get(a + uint32_t(b), 1)) row_def[l] |= 1u << b;
    }
    const Operand& dst = in.dst[0];
    for (uint64_t m = active; m; m &= m - 1) {
      const int lane = std::countr_zero(m);
      uint32_t half_def = (1u << (bytes / 2)) - 1;  // bit h: 16-bit half h of the result
      for (int k = 0; k < per_lane; ++k) {
        const TrSource from = ds_read_tr_source(lane, k, per_lane);
        const int src = from.lane, bit = from.element * bits;
        const uint32_t need = ((1u << ((bit + bits - 1) / 8 + 1)) - 1) & ~((1u << (bit / 8)) - 1);
        if ((row_def[src] & need) != need)
          for (int h = k * bits / 16; h <= (k * bits + bits - 1) / 16; ++h) half_def &= ~(1u << h);
      }
      for (int d = 0; d < bytes / 4; ++d)
        for (int h = 0; h < 2; ++h)
          set_vdef(vindex(dst, d), 1 << h, 1ull << lane, (half_def >> (2 * d + h)) & 1 ? ~0ull : 0);
    }
  }

  // ds_swizzle / ds_permute / ds_bpermute: lane movements without LDS.
  void lane_move(uint64_t active) {
    const Operand& dst = in.dst[0];
    uint64_t res = 0;
    if (f.op == D_SWIZZLE) {
      const uint64_t def = all_dwords_def(in.src[0]);
      const uint32_t off = uint32_t(in.mod.offset) & 0xffff;
      for (uint64_t m = active; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        const int s = ds_swizzle_source_lane(off, l);
        if (!((active >> s) & 1) || ((def >> s) & 1)) res |= 1ull << l;  // inactive source: 0
      }
    } else {
      need_lanes("undef-addr", "lane address", in.src[0], active);
      const uint64_t adef = all_dwords_def(in.src[0]);
      const uint64_t def = all_dwords_def(in.src[1]);
      if (f.op == D_BPERMUTE) {
        for (uint64_t m = active; m; m &= m - 1) {
          const int l = std::countr_zero(m);
          const uint32_t s = ((read_u32(w, in.src[0], l) + uint32_t(in.mod.offset)) >> 2) & 63;
          if (((adef >> l) & 1) && (!((active >> s) & 1) || ((def >> s) & 1))) res |= 1ull << l;
        }
      } else {
        res = ~0ull;  // unwritten slots read 0
        for (uint64_t m = active; m; m &= m - 1) {
          const int l = std::countr_zero(m);
          const uint32_t t = ((read_u32(w, in.src[0], l) + uint32_t(in.mod.offset)) >> 2) & 63;
          if (!((adef >> l) & 1) || !((def >> l) & 1)) res &= ~(1ull << t);
        }
      }
    }
    set_vec(dst, 3, active, res);
  }

  void run() {
    switch (f.kind) {
      case K_None: return;
      case K_Salu: salu(); return;
      case K_SaluBit: salu_bit(); return;
      case K_Saveexec: saveexec(); return;
      case K_Cselect: cselect(); return;
      case K_Cmov: cmov(); return;
      case K_BranchScc:
        if (!u.scc) report("undef-branch", "SCC is undefined");
        return;
      case K_BranchVcc: branch_on("VCCZ", w.vcc, u.vcc); return;
      case K_BranchExec: branch_on("EXECZ", w.exec, u.exec); return;
      case K_Setpc:
        if (!sfull(in.src[0])) report("undef-branch", "target " + reg_text(in.src[0]) + " is undefined");
        write_sdsts(~0u);
        return;
      case K_SetGprIdx: u.m0 = (sdef(in.src[0], 0) & 0xff) == 0xff ? ~0u : 0u; return;
      case K_Smem: smem(); return;
      case K_Valu: valu(); return;
      case K_Packed: packed(); return;
      case K_Cmp: cmp(); return;
      case K_Cndmask: cndmask(); return;
      case K_Readlane: readlane(false); return;
      case K_Readfirstlane: readlane(true); return;
      case K_Writelane: writelane(); return;
      case K_Swap: swap(); return;
      case K_Mfma: mfma(); return;
      case K_Ds: ds(); return;
      case K_Vmem: vmem(); return;
    }
  }
};

}  // namespace

void issue(WaveShadow& u, std::vector<uint64_t>& lds, const Wave& w, const Inst& in, const Facts& f, Sink& sink) {
  Run{u, lds, w, in, f, sink}.run();
}

}  // namespace hipasm::sim::undef
