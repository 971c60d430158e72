// Shared by the passes: a view of the target's instruction table, a constexpr error
// message builder, and the one place that says which registers an instruction reads and
// writes (explicit operands by the table's roles, implicit EXEC/VCC/SCC/M0 by its flags).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include "../vec.hpp"

#include "../ir.hpp"
#include "../isa/instr_desc.hpp"
#include "../isa/semantics.hpp"
#include "../targets/waitcnt.hpp"

namespace hipasm {

// The instruction table of a target, as the passes see it.
struct isa_view {
  const isa::instr_desc* descs = nullptr;
  uint32_t count = 0;
  const isa::op_semantics* sem = nullptr;  // what some instructions compute; null: passes that need it do nothing

  constexpr const isa::instr_desc& operator[](uint32_t op) const { return descs[op]; }
  // Index of a mnemonic, or -1 (target tables are sorted by mnemonic: a binary search, as
  // string comparisons cost the default constant interpreter tens of microseconds each).
  constexpr int find(std::string_view name) const {
    const isa::instr_desc* d = isa::find_sorted(descs, count, name);
    return d ? static_cast<int>(d - descs) : -1;
  }
};

// The first error of a compilation: a one-line message and the user's line.
struct pass_error {
  bool failed = false;
  src_loc loc{};
  vec<char> text{};  // the whole message, however long (an out-of-registers listing can be long)

  constexpr const char* data() const { return text.data(); }
  constexpr std::size_t size() const { return text.size(); }
  constexpr std::string_view view() const { return {text.data(), text.size()}; }

  constexpr pass_error& add(std::string_view s) {
    for (char c : s) text.push_back(c);
    return *this;
  }
  constexpr pass_error& add(long long v) {
    if (v < 0) {
      add("-");
      v = -v;
    }
    char buf[24]{};
    int n = 0;
    do {
      buf[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) add(std::string_view(&buf[--n], 1));
    return *this;
  }
  constexpr pass_error& add_loc(const src_loc& l) {
    add(l.file && l.file[0] ? std::string_view(l.file) : std::string_view("<unknown>"));
    add(":").add(static_cast<long long>(l.line));
    return *this;
  }
  // Element indices of dwords [first, first + n) of a register array of that shape:
  // "[5]", "[4..7]", "[1][2]", "[1][0]..[1][3]".
  constexpr pass_error& add_index(const vreg_info& v, uint32_t first, uint32_t n) {
    const uint32_t e = v.elem_dwords ? v.elem_dwords : 1;
    const uint32_t a = first / e, b = (first + n - 1) / e;
    if (a == b) return add_element(v, a);
    if (v.rank <= 1) return add("[").add(static_cast<long long>(a)).add("..").add(static_cast<long long>(b)).add("]");
    return add_element(v, a).add("..").add_element(v, b);
  }
  // Flat element i of an array of v's shape: "[i]", "[r][c]", "[x][y][z]".
  constexpr pass_error& add_element(const vreg_info& v, uint32_t i) {
    const uint32_t d1 = v.dim1 ? v.dim1 : 1, d2 = v.dim2 ? v.dim2 : 1;
    if (v.rank >= 3)
      return add("[").add(static_cast<long long>(i / (d1 * d2))).add("][").add(static_cast<long long>(i / d2 % d1))
          .add("][").add(static_cast<long long>(i % d2)).add("]");
    if (v.rank == 2)
      return add("[").add(static_cast<long long>(i / d1)).add("][").add(static_cast<long long>(i % d1)).add("]");
    return add("[").add(static_cast<long long>(i)).add("]");
  }
  // A virtual register as messages name it: 'acc', 'acc[4..7]' for a piece of an array, or,
  // unnamed, where it was allocated: "the VGPR allocated at k.hip:42" ("element [3] of the
  // VGPR array allocated at ...").
  constexpr pass_error& add_reg(const vreg_info& v) {
    const bool piece = v.array_dwords != 0;
    if (!v.name.empty()) {
      add("'").add(v.name);
      if (piece) add_index(v, v.array_off, v.dwords);
      return add("'");
    }
    if (piece) add(v.dwords / (v.elem_dwords ? v.elem_dwords : 1) > 1 ? "elements " : "element ")
        .add_index(v, v.array_off, v.dwords).add(" of ");
    add(v.cls == reg_class::sgpr ? "the SGPR" : v.cls == reg_class::vgpr ? "the VGPR" : "the AGPR");
    if (piece || v.rank > 0) add(" array");
    return add(" allocated at ").add_loc(v.loc);
  }
  // Starts the message "file:line: error: " once; later errors are ignored.
  constexpr bool begin(const src_loc& l) {
    if (failed) return false;
    failed = true;
    loc = l;
    add_loc(l).add(": error: ");
    return true;
  }
};

namespace detail {

constexpr bool has(uint64_t flags, uint64_t f) { return (flags & f) != 0; }
constexpr bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
constexpr bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// Special registers as liveness pseudo-dwords (after all virtual register dwords).
enum special_slot : uint32_t { sl_vcc_lo, sl_vcc_hi, sl_exec_lo, sl_exec_hi, sl_scc, sl_m0, sl_count };

// Dword numbering of virtual registers: vreg v occupies [base[v], base[v] + dwords).
struct dword_map {
  vec<uint32_t> base;
  uint32_t vreg_dwords = 0;
  constexpr dword_map() = default;
  constexpr explicit dword_map(const function& fn) : base(fn.vregs.size() + 1, 0) {
    uint32_t n = 0;
    uint32_t* const b = base.data();  // raw: vec::operator[] is an interpreted call
    const vreg_info* const vregs = fn.vregs.data();
    const std::size_t nv = fn.vregs.size();
    for (std::size_t v = 0; v < nv; ++v) {
      b[v] = n;
      n += vregs[v].dwords;
    }
    base[fn.vregs.size()] = n;
    vreg_dwords = n;
  }
  constexpr uint32_t total() const { return vreg_dwords + sl_count; }
  constexpr uint32_t special(special_slot s) const { return vreg_dwords + s; }
};

// A 64-bit signature of a register range (bit r mod 64 for each register r): two ranges
// whose signatures share no bit share no register. A range is a rotated run of ones:
// constant work whatever its width. Lets a pass skip most pairs at once.
constexpr uint64_t span_signature(uint32_t first, uint32_t n) {
  if (n == 0) return 0;
  if (n >= 64) return ~uint64_t{0};
  const uint64_t run = (uint64_t{1} << n) - 1;
  const uint32_t s = first & 63u;
  return s == 0 ? run : (run << s) | (run >> (64 - s));
}

// A growable bit set (the universes are small: a few thousand dwords at most).
struct bitset {
  vec<uint64_t> w;
  constexpr bitset() = default;
  constexpr explicit bitset(uint32_t bits) : w((bits + 63) / 64, 0) {}
  constexpr void set(uint32_t i) { w[i >> 6] |= (uint64_t{1} << (i & 63)); }
  constexpr void reset(uint32_t i) { w[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  constexpr bool test(uint32_t i) const { return (w[i >> 6] >> (i & 63)) & 1; }
  // Range operations a word at a time (ranges are register tuples: up to 32 dwords). The
  // mask is computed in place: these run for every access of every instruction in the
  // liveness and dce passes, where each nested call is an interpreted frame.
  constexpr void set_range(uint32_t first, uint32_t n) {
    uint64_t* const a = w.data();
    while (n) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      a[first >> 6] |= (k >= 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << lo;
      first += k;
      n -= k;
    }
  }
  constexpr void reset_range(uint32_t first, uint32_t n) {
    uint64_t* const a = w.data();
    while (n) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      a[first >> 6] &= ~((k >= 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << lo);
      first += k;
      n -= k;
    }
  }
  constexpr bool any_range(uint32_t first, uint32_t n) const {
    const uint64_t* const a = w.data();
    while (n) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      if (a[first >> 6] & ((k >= 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << lo)) return true;
      first += k;
      n -= k;
    }
    return false;
  }
  constexpr bool all_range(uint32_t first, uint32_t n) const {
    const uint64_t* const a = w.data();
    while (n) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      const uint64_t m = (k >= 64 ? ~uint64_t{0} : ((uint64_t{1} << k) - 1)) << lo;
      if ((a[first >> 6] & m) != m) return false;
      first += k;
      n -= k;
    }
    return true;
  }
  // this |= o; returns whether anything changed.
  constexpr bool merge(const bitset& o) {
    bool changed = false;
    uint64_t* const a = w.data();  // (raw: vec::operator[] is an interpreted call per word)
    const uint64_t* const b = o.w.data();
    const std::size_t n = w.size();
    for (std::size_t i = 0; i < n; ++i) {
      const uint64_t x = a[i] | b[i];
      if (x != a[i]) {
        a[i] = x;
        changed = true;
      }
    }
    return changed;
  }
  constexpr bool operator==(const bitset& o) const { return w == o.w; }
};

// The width of a special register operand in liveness slots.
struct special_span {
  int first = -1;  // special_slot, or -1 when the register is not tracked
  uint32_t n = 0;
};
constexpr special_span special_slots(special_reg r) {
  switch (r) {
    case special_reg::vcc: return {sl_vcc_lo, 2};
    case special_reg::vcc_lo: return {sl_vcc_lo, 1};
    case special_reg::vcc_hi: return {sl_vcc_hi, 1};
    case special_reg::exec: return {sl_exec_lo, 2};
    case special_reg::exec_lo: return {sl_exec_lo, 1};
    case special_reg::exec_hi: return {sl_exec_hi, 1};
    case special_reg::m0: return {sl_m0, 1};
    case special_reg::scc: return {sl_scc, 1};
    case special_reg::vccz: return {sl_vcc_lo, 2};    // reads VCC
    case special_reg::execz: return {sl_exec_lo, 2};  // reads EXEC
    default: return {};
  }
}

// Role of explicit operand i of an instruction (extra operands beyond the table are uses).
constexpr isa::operand_role role_of(const isa::instr_desc& d, int i) {
  return i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
}
constexpr bool is_def(isa::operand_role r) { return r != isa::operand_role::use; }
constexpr bool is_use(isa::operand_role r) { return r != isa::operand_role::def; }

// Calls f(is_def, is_use, first_slot, count, operand_index) for every register an
// instruction touches in liveness space: vreg dwords and special slots (implicit ones
// have operand_index -1). Physical registers named by the user are not tracked here:
// the allocator keeps them out of its pool.
template <class F>
constexpr void for_each_access(const isa_view& isa, const dword_map& dm, const instr& in, F&& f) {
  const isa::instr_desc& d = isa.descs[in.op];
  const int n = in.num_operands;
  const uint32_t* const base = dm.base.data();  // (raw: a vec's operator[] is a call)
  for (int i = 0; i < n; ++i) {
    const operand& o = in.ops[i];
    if (o.k == operand::kind::vreg) {
      const auto r = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
      f(r != isa::operand_role::use, r != isa::operand_role::def, base[o.value] + o.offset, uint32_t{o.dwords}, i);
    } else if (o.k == operand::kind::special) {
      const auto r = role_of(d, i);
      auto s = special_slots(o.sp);
      if (s.first >= 0) {
        bool reads_only = o.sp == special_reg::vccz || o.sp == special_reg::execz;
        f(!reads_only && is_def(r), reads_only || is_use(r), dm.special(static_cast<special_slot>(s.first)), s.n, i);
      }
    }
  }
  // Implicit accesses (plain bit tests, no helper calls: this runs for every instruction
  // in every sweep, and each call costs the constant interpreters a frame).
  const uint64_t fl = d.flags;
  constexpr uint64_t implicit = isa::f_reads_exec | isa::f_reads_vcc | isa::f_reads_scc | isa::f_reads_m0 |
                                isa::f_writes_exec | isa::f_cmpx | isa::f_writes_vcc | isa::f_writes_scc |
                                isa::f_writes_m0;
  if (!(fl & implicit)) return;
  const uint32_t sp = dm.vreg_dwords;
  if (fl & isa::f_reads_exec) f(false, true, sp + sl_exec_lo, 2u, -1);
  if (fl & isa::f_reads_vcc) f(false, true, sp + sl_vcc_lo, 2u, -1);
  if (fl & isa::f_reads_scc) f(false, true, sp + sl_scc, 1u, -1);
  if (fl & isa::f_reads_m0) f(false, true, sp + sl_m0, 1u, -1);
  if (fl & (isa::f_writes_exec | isa::f_cmpx)) f(true, false, sp + sl_exec_lo, 2u, -1);
  if (fl & isa::f_writes_vcc) f(true, false, sp + sl_vcc_lo, 2u, -1);
  if (fl & isa::f_writes_scc) f(true, false, sp + sl_scc, 1u, -1);
  if (fl & isa::f_writes_m0) f(true, false, sp + sl_m0, 1u, -1);
}

// How a VALU instruction's vector result treats the destination's old value in the lanes
// EXEC enables (the lanes it disables keep it always: the passes call such a def
// lane-masked). Instructions whose table role is def_use (v_mac/v_fmac, v_dot*c,
// v_writelane, d16 loads, the fp8 converts, the 16-bit ops that keep the other half...)
// read it by their role; this is what the modifiers add:
//  - DPP with row_mask or bank_mask other than 0xf: the disabled rows/banks are not written;
//  - DPP without bound_ctrl (llvm-mc prints bound_ctrl:1 for the bit, and reads bound_ctrl:0
//    as the same bit): a lane whose source lane is out of range (row_shl/row_shr, wave_shl/
//    wave_shr, row_bcast) or disabled by EXEC is not written. With a control whose source
//    lanes always exist (quad_perm, mirrors, rotations) that can only happen under a partial
//    EXEC;
//  - SDWA dst_unused:UNUSED_PRESERVE with a dst_sel narrower than DWORD: the other bits stay;
//  - VOP3 op_sel on the destination (its last op_sel entry): the high half is written, the
//    low half stays.
enum class dst_write : uint8_t { full, merges, merges_if_partial_exec };
// A VOP3 op_sel that selects the destination's high half (the last op_sel entry): the one
// test the partial-write analysis (vector_dst_write) and the hazard pass's partial-dst kind
// share. op_sel 0xff is the unset default (emit.hpp prints no op_sel for it).
constexpr bool op_sel_writes_dst_high(const isa::instr_desc& d, const packed_modifiers& m) {
  const uint8_t sel = m.op_sel();
  return d.enc == isa::encoding::vop3 && d.op_sel_len > 0 && sel != 0xff && ((sel >> (d.op_sel_len - 1)) & 1) &&
         d.accepts(isa::m_op_sel);
}
// The byte of its dst a byte-select convert writes (op_sel[3:2]: v_cvt_sr_fp8_f32 and the like,
// flag f_cvt_byte_sel), or -1 for any other instruction.
constexpr int cvt_dst_byte(const isa::instr_desc& d, const packed_modifiers& m) {
  if (!d.has(isa::f_cvt_byte_sel)) return -1;
  return m.op_sel() == 0xff ? 0 : (m.op_sel() >> 2) & 3;
}
constexpr dst_write vector_dst_write(const isa::instr_desc& d, const packed_modifiers& m) {
  if (m.dpp_on()) {
    if (m.dpp_row_mask() != 0xf || m.dpp_bank_mask() != 0xf) return dst_write::merges;
    if (!m.dpp_bound_ctrl()) {
      const uint16_t c = m.dpp_ctrl();
      const bool source_may_be_missing = (c >= 0x101 && c <= 0x10f) || (c >= 0x111 && c <= 0x11f) || c == 0x130 ||
                                         c == 0x138 || c == 0x142 || c == 0x143;
      return source_may_be_missing ? dst_write::merges : dst_write::merges_if_partial_exec;
    }
  }
  if (m.sdwa_on() && m.sdwa_dst_unused() == 2 && m.sdwa_dst_sel() != 6) return dst_write::merges;
  if (op_sel_writes_dst_high(d, m)) return dst_write::merges;
  // A byte-select convert (op_sel[3:2] picks the byte) writing byte 1, 2 or 3 keeps the other
  // bytes (op_sel_writes_dst_high sees only op_sel[3]); byte 0 counts as a full write, so a
  // packed result is written byte 0 first, as the low word of v_cvt_pk_fp8_f32 is.
  if (cvt_dst_byte(d, m) > 0) return dst_write::merges;
  return dst_write::full;
}

// Whether an EXEC write can only remove lanes (v_cmpx, s_and_saveexec, s_andn1_saveexec,
// s_andn1_wrexec, EXEC &= x, EXEC &= ~x, EXEC = 0); any other EXEC write may add lanes.
// Only called for EXEC writers (mnemonic comparisons cost constant evaluation time).
constexpr bool exec_write_only_removes_lanes(const isa::instr_desc& d, const instr& in) {
  if (d.flags & isa::f_cmpx) return true;  // EXEC = the comparison in the active lanes
  const std::string_view n = d.name;
  if (n == lit("s_and_saveexec_b64") || n == lit("s_andn1_saveexec_b64") || n == lit("s_andn1_wrexec_b64"))
    return true;
  if (in.num_operands < 2 || in.ops[0].k != operand::kind::special) return false;
  const special_reg dst = in.ops[0].sp;
  if (dst != special_reg::exec && dst != special_reg::exec_lo && dst != special_reg::exec_hi) return false;
  if ((n == lit("s_mov_b64") || n == lit("s_mov_b32")) && in.ops[1].k == operand::kind::imm && in.ops[1].value == 0)
    return true;
  if (in.num_operands < 3) return false;
  // (no lambda: clang-22's bytecode interpreter cannot read a captured reference parameter)
  const bool src0_is_dst = in.ops[1].k == operand::kind::special && in.ops[1].sp == dst;
  const bool src1_is_dst = in.ops[2].k == operand::kind::special && in.ops[2].sp == dst;
  if ((n == lit("s_and_b64") || n == lit("s_and_b32")) && (src0_is_dst || src1_is_dst)) return true;
  return (n == lit("s_andn2_b64") || n == lit("s_andn2_b32")) && src0_is_dst;
}

// Every access of every instruction (for_each_access's output), decoded once: the passes
// that sweep a function several times (liveness's fixpoints, dce, dse) read these flat
// records instead of decoding operands again on every sweep.
struct access {
  enum : uint8_t {
    def = 1,
    use = 2,
    masked = 4,          // a lane-masked def (a VGPR/AGPR result: disabled lanes keep the old value)
    merge_partial = 8,   // a masked def that also keeps some enabled lanes when EXEC is partial
    cross_lane = 16,     // a use that reads lanes other than the enabled ones
    exec_widens = 32,    // (on the EXEC def) the write may enable lanes
  };
  uint32_t first = 0, n = 0;
  uint8_t flags = 0;
};
struct access_table {
  vec<uint32_t> begin;  // per instruction, in block order; accesses [begin[i], begin[i + 1])
  vec<access> acc;
  vec<uint32_t> block_first;  // index of each block's first instruction in `begin`

  constexpr access_table() = default;
  constexpr access_table(const function& fn_, const isa_view& isa_, const dword_map& dm_) {
    const function& fn = fn_;  // local aliases: lambdas must not capture reference parameters
    const isa_view& isa = isa_;  // (clang-22's new constant interpreter)
    const dword_map& dm = dm_;
    const vreg_info* const vregs = fn.vregs.data();
    block_first.reserve(fn.blocks.size() + 1);
    const uint32_t exec_slot = dm.special(sl_exec_lo), exec_hi_slot = dm.special(sl_exec_hi);
    for (const block& b : fn.blocks) {
      block_first.push_back(static_cast<uint32_t>(begin.size()));
      for (const instr& in : b.instrs) {
        begin.push_back(static_cast<uint32_t>(acc.size()));
        const isa::instr_desc& desc = isa.descs[in.op];
        const uint64_t fl = desc.flags;
        // What the result keeps of the old destination (modifiers only: the table's
        // def_use roles already say "read"), and whether the sources are read across lanes:
        // readlane/readfirstlane, permlane, MFMA, DPP's src0, ds_swizzle/permute/bpermute
        // (the DS instructions that neither load, store nor are atomic).
        dst_write dw = dst_write::full;
        bool cross = false;
        if (fl & isa::f_valu) {
          if ((in.mods.more | in.mods.bytes) != 0) dw = vector_dst_write(desc, in.mods);
          cross = (fl & (isa::f_readlane | isa::f_permlane | isa::f_mfma)) || in.mods.dpp_on();
        } else if (fl & isa::f_ds) {
          cross = !(fl & (isa::f_load | isa::f_store | isa::f_atomic));
        }
        for_each_access(isa, dm, in, [&](bool d, bool u, uint32_t f, uint32_t n, int idx) {
          // A lane-masked def: a VGPR/AGPR result writes only the active lanes, so under a
          // partial EXEC the inactive lanes keep the old value (the def does not end its life).
          const bool vector = (d || cross) && idx >= 0 && in.ops[idx].k == operand::kind::vreg &&
                              vregs[in.ops[idx].value].cls != reg_class::sgpr;
          const bool masked = d && vector;
          uint8_t fs = static_cast<uint8_t>((d ? access::def : 0) | (u ? access::use : 0) | (masked ? access::masked : 0));
          if (masked && dw == dst_write::merges) fs |= access::use;  // keeps part of the old value: a read
          if (masked && dw == dst_write::merges_if_partial_exec) fs |= access::merge_partial;
          // (an MFMA reads its accumulator, def_use in SMFMAC, across lanes too)
          if (cross && vector && u && (!d || (fl & isa::f_mfma))) fs |= access::cross_lane;
          if (d && (f == exec_slot || f == exec_hi_slot) && !exec_write_only_removes_lanes(desc, in))
            fs |= access::exec_widens;
          access a;
          a.first = f;
          a.n = n;
          a.flags = fs;
          acc.push_back(a);
        });
      }
    }
    block_first.push_back(static_cast<uint32_t>(begin.size()));
    begin.push_back(static_cast<uint32_t>(acc.size()));
  }
  // The first instruction index of block b (instruction i of the block is at + i).
  constexpr uint32_t at(std::size_t b) const { return block_first[b]; }

  // Building the table of the function after a pass dropped instructions (an instruction's
  // accesses depend on it and the vregs alone): the blocks in order, each by add_block with
  // the old table and the block's n keep flags (null: all kept), then finish.
  constexpr void add_block(const access_table& old, std::size_t b, const uint8_t* keep, std::size_t n) {
    block_first.push_back(static_cast<uint32_t>(begin.size()));
    const uint32_t t0 = old.at(b);
    const uint32_t* const ob = old.begin.data();
    const access* const oa = old.acc.data();
    if (!keep) {
      const uint32_t shift = static_cast<uint32_t>(acc.size()) - ob[t0];
      for (std::size_t i = 0; i < n; ++i) begin.push_back(ob[t0 + i] + shift);
      acc.append(oa + ob[t0], ob[t0 + n] - ob[t0]);
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!keep[i]) continue;
      begin.push_back(static_cast<uint32_t>(acc.size()));
      acc.append(oa + ob[t0 + i], ob[t0 + i + 1] - ob[t0 + i]);
    }
  }
  constexpr void finish() {
    block_first.push_back(static_cast<uint32_t>(begin.size()));
    begin.push_back(static_cast<uint32_t>(acc.size()));
  }
};

// Never removed, merged or moved by an optimisation: memory operations (they count on
// vmcnt/lgkmcnt, so removing one changes what a later s_waitcnt waits for), stores,
// atomics (returning ones too), barriers, s_waitcnt, s_sendmsg, branches, EXEC and M0
// writers, and anything writing a register the user named physically.
constexpr bool has_side_effects(const isa_view& isa, const instr& in) {
  const isa::instr_desc& d = isa.descs[in.op];
  constexpr uint64_t keep = isa::f_smem | isa::f_vmem | isa::f_ds | isa::f_flat | isa::f_load |
                            isa::f_store | isa::f_atomic | isa::f_branch | isa::f_terminator |
                            isa::f_barrier | isa::f_waitcnt | isa::f_side_effect |
                            isa::f_writes_exec | isa::f_cmpx | isa::f_writes_m0 | isa::f_lgkm |
                            isa::f_vm | isa::f_lds_dma;
  if (d.flags & keep) return true;
  if (d.enc == isa::encoding::sopp) return true;
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    if (!is_def(role_of(d, i))) continue;
    if (o.k == operand::kind::phys) return true;
    if (o.k == operand::kind::special &&
        (o.sp == special_reg::exec || o.sp == special_reg::exec_lo || o.sp == special_reg::exec_hi ||
         o.sp == special_reg::m0 || o.sp == special_reg::flat_scratch))
      return true;
  }
  return false;
}

// Instruction positions: block b's instructions are numbered from start[b].
struct positions {
  vec<uint32_t> start;
  uint32_t total = 0;
  constexpr positions() = default;
  constexpr explicit positions(const function& fn) : start(fn.blocks.size() + 1, 0) {
    uint32_t n = 0;
    for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
      start[b] = n;
      n += static_cast<uint32_t>(fn.blocks[b].instrs.size()) + 1;  // +1: a slot for the block end
    }
    start[fn.blocks.size()] = n;
    total = n;
  }
};

// Predecessor lists from the successor lists.
constexpr vec<vec<uint32_t>> predecessors(const function& fn) {
  vec<vec<uint32_t>> preds(fn.blocks.size());
  for (std::size_t b = 0; b < fn.blocks.size(); ++b)
    for (uint32_t s : fn.blocks[b].succs)
      if (s < fn.blocks.size()) preds[s].push_back(static_cast<uint32_t>(b));
  return preds;
}


// Register dwords a memory instruction (load, returning atomic: any VMEM/FLAT/DS/SMEM
// instruction with a register def) will still write after its issue. The model of
// waitcnt_check.hpp: vmcnt counts VMEM/FLAT operations, which return in order; lgkmcnt
// counts LDS (in order) and SMEM (out of order: only lgkmcnt(0) retires one); FLAT counts
// on both. A dword retires at the s_waitcnt that guarantees its load returned. At joins:
// the union, each age the minimum over the paths (merge).
// (flag tests written out: these run for every instruction in several passes)
constexpr bool async_counts_vm(const isa::instr_desc& d) {
  return (d.flags & isa::f_vm) != 0 || d.enc == isa::encoding::flat || d.enc == isa::encoding::global ||
         d.enc == isa::encoding::scratch || d.enc == isa::encoding::mubuf;
}
constexpr bool async_counts_lgkm(const isa::instr_desc& d) {
  return (d.flags & isa::f_lgkm) != 0 || d.enc == isa::encoding::ds || d.enc == isa::encoding::smem ||
         d.enc == isa::encoding::flat;
}

// Whether a memory instruction (descriptor d) may write a register that the pending record
// p's load will still write, without a wait: only when both return in order on the same
// counter (VMEM after VMEM, LDS after LDS), so the older result lands first. An SMEM or FLAT
// load returns out of order (the older result may land last), and two counters are not
// ordered with each other.
template <class P>
constexpr bool overwrite_returns_in_order(const isa::instr_desc& d, const P& p) {
  const bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
  if (vm && !lgkm) return p.on_vm && !p.on_lgkm;
  if (lgkm && !vm && d.enc == isa::encoding::ds) return p.on_lgkm && !p.on_vm && !p.out_of_order;
  return false;
}

// The counters an s_waitcnt waits for (decoded by the target's waitcnt_encoding).
struct waitcnt_counts {
  uint32_t vm = waitcnt_encoding::vm_max, lgkm = waitcnt_encoding::lgkm_max;
};
constexpr waitcnt_counts decode_waitcnt(const instr& in) {
  uint64_t imm = 0;
  for (int k = 0; k < in.num_operands; ++k)
    if (in.ops[k].k == operand::kind::imm) imm = in.ops[k].value;
  return {waitcnt_encoding::vm(imm), waitcnt_encoding::lgkm(imm)};
}

// Pending memory results, keyed by a number (a register dword for liveness, a load's index for
// the wait passes), sorted by key. A record's age on a counter is how many operations of that
// counter (vm; in-order lgkm: LDS) were issued after it, saturating at 255. The set counts the
// operations issued (vm_issued, lgkm_issued) and a record keeps the count at its issue
// (`*_mark`: age = issued - mark), so an issue costs O(1) instead of a pass over every record,
// and sorted keys make lookup O(log n) and a join's merge, a comparison O(n) (per-record ages
// made joins quadratic). out_of_order: SMEM/FLAT on lgkm, only lgkmcnt(0) retires it.
struct pending_entry {
  uint32_t key = 0;
  uint32_t vm_mark = 0, lgkm_mark = 0;
  bool on_vm = false, on_lgkm = false, out_of_order = false;
};

struct pending_set {
  vec<pending_entry> pend;
  uint32_t vm_issued = 0, lgkm_issued = 0;

  constexpr bool empty() const { return pend.empty(); }
  constexpr std::size_t size() const { return pend.size(); }
  static constexpr uint32_t saturate(uint32_t age) { return age < 255 ? age : 255; }
  constexpr uint32_t vm_age(const pending_entry& e) const { return saturate(vm_issued - e.vm_mark); }
  constexpr uint32_t lgkm_age(const pending_entry& e) const { return saturate(lgkm_issued - e.lgkm_mark); }
  // The first record whose key is >= key.
  constexpr std::size_t lower_bound(uint32_t key) const {
    const pending_entry* const e = pend.data();
    std::size_t lo = 0, hi = pend.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (e[mid].key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  // An operation issued on vm and/or in order on lgkm: every record one older there.
  constexpr void issue(bool vm, bool in_order_lgkm) {
    if (vm) ++vm_issued;
    if (in_order_lgkm) ++lgkm_issued;
  }
  // Results issued now (age 0) for the n consecutive keys from `first` (a tuple's dwords:
  // one search for all), each replacing the record of the same key. Returns how many keys
  // are new.
  constexpr uint32_t put_run(uint32_t first, uint32_t n, bool vm, bool lgkm, bool out_of_order) {
    pending_entry e;
    e.vm_mark = vm_issued;
    e.lgkm_mark = lgkm_issued;
    e.on_vm = vm;
    e.on_lgkm = lgkm;
    e.out_of_order = out_of_order;
    uint32_t added = 0;
    std::size_t i = lower_bound(first);
    for (uint32_t j = 0; j < n; ++j, ++i) {
      e.key = first + j;
      if (i < pend.size() && pend.data()[i].key == e.key) {
        pend.data()[i] = e;
        continue;
      }
      if (i == pend.size()) pend.push_back(e);
      else pend.insert(pend.begin() + static_cast<std::ptrdiff_t>(i), e);
      ++added;
    }
    return added;
  }
  // One result: true when the key is new.
  constexpr bool put(uint32_t key, bool vm, bool lgkm, bool out_of_order) {
    return put_run(key, 1, vm, lgkm, out_of_order) != 0;
  }
  // An s_waitcnt with counts wc: clears the counters it covers on each record and drops the
  // records returned on all of theirs, calling retired(key) for each.
  template <class F>
  constexpr void retire(const waitcnt_counts& wc, F&& retired) {
    pending_entry* const e = pend.data();
    const std::size_t n = pend.size();
    std::size_t kept = 0;
    for (std::size_t k = 0; k < n; ++k) {
      pending_entry& x = e[k];
      if (x.on_vm && vm_age(x) >= wc.vm) x.on_vm = false;
      if (x.on_lgkm && (wc.lgkm == 0 || (!x.out_of_order && lgkm_age(x) >= wc.lgkm))) x.on_lgkm = false;
      if (!x.on_vm && !x.on_lgkm) {
        retired(x.key);
        continue;
      }
      if (kept != k) e[kept] = x;
      ++kept;
    }
    pend.resize(kept);
  }
  constexpr void retire(const waitcnt_counts& wc) {
    retire(wc, [](uint32_t) {});
  }
  // A join: the union, each age the minimum and each flag the OR over both. True when this
  // set changed.
  constexpr bool merge(const pending_set& o) {
    // Into an empty set (a block's first predecessor): a copy, counters included (only the
    // ages they give matter), instead of the record-by-record rebuild below.
    if (pend.empty()) {
      if (o.pend.empty()) return false;
      pend = o.pend;
      vm_issued = o.vm_issued;
      lgkm_issued = o.lgkm_issued;
      return true;
    }
    const pending_entry* const b = o.pend.data();
    const std::size_t nb = o.pend.size();
    bool changed = false;
    bool all_present = true;
    {
      pending_entry* const a = pend.data();
      const std::size_t na = pend.size();
      std::size_t i = 0;
      for (std::size_t j = 0; j < nb; ++j) {
        while (i < na && a[i].key < b[j].key) ++i;
        if (i == na || a[i].key != b[j].key) {
          all_present = false;
          continue;
        }
        changed = merge_into(a[i], o, b[j]) || changed;
      }
    }
    if (all_present) return changed;
    // (some keys are new: rebuild in key order; the records found above are merged already)
    vec<pending_entry> out;
    out.reserve(pend.size() + nb);
    const pending_entry* const a = pend.data();
    const std::size_t na = pend.size();
    std::size_t i = 0;
    for (std::size_t j = 0; j < nb; ++j) {
      while (i < na && a[i].key < b[j].key) out.push_back(a[i++]);
      if (i < na && a[i].key == b[j].key) {
        out.push_back(a[i++]);
        continue;
      }
      pending_entry x = b[j];
      x.vm_mark = vm_issued - o.vm_age(b[j]);
      x.lgkm_mark = lgkm_issued - o.lgkm_age(b[j]);
      out.push_back(x);
    }
    while (i < na) out.push_back(a[i++]);
    pend = std::move(out);
    return true;
  }
  // Same keys, ages and flags.
  constexpr bool operator==(const pending_set& o) const {
    if (pend.size() != o.pend.size()) return false;
    const pending_entry* const a = pend.data();
    const pending_entry* const b = o.pend.data();
    for (std::size_t k = 0; k < pend.size(); ++k)
      if (a[k].key != b[k].key || a[k].on_vm != b[k].on_vm || a[k].on_lgkm != b[k].on_lgkm ||
          a[k].out_of_order != b[k].out_of_order || vm_age(a[k]) != o.vm_age(b[k]) ||
          lgkm_age(a[k]) != o.lgkm_age(b[k]))
        return false;
    return true;
  }

 private:
  // One record of o into the same key's record x of this set.
  constexpr bool merge_into(pending_entry& x, const pending_set& o, const pending_entry& y) const {
    bool changed = false;
    const uint32_t va = o.vm_age(y), la = o.lgkm_age(y);
    if (va < vm_age(x)) x.vm_mark = vm_issued - va, changed = true;
    if (la < lgkm_age(x)) x.lgkm_mark = lgkm_issued - la, changed = true;
    if (y.on_vm && !x.on_vm) x.on_vm = true, changed = true;
    if (y.on_lgkm && !x.on_lgkm) x.on_lgkm = true, changed = true;
    if (y.out_of_order && !x.out_of_order) x.out_of_order = true, changed = true;
    return changed;
  }
};

// Register dwords a memory instruction will still write after its issue (liveness,
// verify.hpp): pending records keyed by dword.
struct async_pending : pending_set {
  // One instruction; retired(dw) is called for each dword an s_waitcnt retires.
  template <class F>
  constexpr void step(const isa_view& isa, const dword_map& dm, const instr& in, F&& retired) {
    const isa::instr_desc& d = isa.descs[in.op];
    if (d.flags & isa::f_waitcnt) {  // (s_waitcnt: the flag marks it alone)
      retire(decode_waitcnt(in), retired);
      return;
    }
    const bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
    if (!vm && !lgkm) return;
    const bool in_order_lgkm = lgkm && !vm && d.enc == isa::encoding::ds;
    issue(vm, in_order_lgkm);
    const uint32_t* const base = dm.base.data();
    for (int k = 0; k < in.num_operands; ++k) {
      const operand& o = in.ops[k];
      if (o.k != operand::kind::vreg || !is_def(role_of(d, k))) continue;
      put_run(base[o.value] + o.offset, o.dwords, vm, lgkm, lgkm && !in_order_lgkm);
    }
  }
};

// Drops the instructions of `list` whose keep flag is 0 (in place: vec::retain).
constexpr void keep_marked(vec<instr>& list, const vec<uint8_t>& keep) { list.retain(keep.data()); }

}  // namespace detail
}  // namespace hipasm
