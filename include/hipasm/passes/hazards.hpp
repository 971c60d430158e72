// Hazard s_nop insertion: the LAST pass (nothing may move instructions after it).
//
// For every instruction, every rule of the target's hazard table (hazard_rules.hpp) is
// checked against the instructions issued before it, walking back across block starts
// into every predecessor (loop back-edges included) for as many wait states as the
// longest rule needs; the distance that counts is the minimum over all paths. Missing
// wait states become `s_nop N` (N <= 15), each commented with its rule.
//
// `hazard_facts` (what an instruction produces/consumes, in physical registers) and
// `hazard_wait` (one rule on one producer/consumer pair) are shared with verify.hpp,
// whose checker walks the final program independently of this pass.
#pragma once
#include <string_view>
#include "../vec.hpp"

#include "../hazard_rules.hpp"
#include "common.hpp"

namespace hipasm {

namespace detail {

// Flat physical register numbering for hazard checks. 160 + id stands for hardware
// register `id` of s_setreg/s_getreg (the setreg rule relates the same hwreg only).
inline constexpr uint16_t hz_vcc = 106, hz_m0 = 124, hz_exec = 126, hz_hwreg0 = 160, hz_scc = 253;
inline constexpr uint16_t hz_vgpr0 = 256, hz_agpr0 = 512;

enum hz_kind : uint32_t {
  hk_valu = 1u << 0,  // VALU, not MFMA
  hk_mfma = 1u << 1, hk_xdl = 1u << 2, hk_dgemm = 1u << 3, hk_trans = 1u << 4, hk_dpp = 1u << 5,
  hk_partial_dst = 1u << 6, hk_cmpx = 1u << 7, hk_setreg = 1u << 8, hk_getreg = 1u << 9,
  hk_div_fmas = 1u << 10, hk_lane_op = 1u << 11, hk_readlane = 1u << 12, hk_permlane = 1u << 13,
  hk_fma64 = 1u << 14, hk_mem = 1u << 15 /* VMEM, FLAT, DS */, hk_vmem = 1u << 16 /* VMEM, FLAT */,
  hk_wide_store = 1u << 17, hk_m0_user = 1u << 18, hk_z_reader = 1u << 19, hk_salu = 1u << 20,
  hk_nop = 1u << 21, hk_smem = 1u << 22, hk_smfmac = 1u << 23,
  hk_dot = 1u << 24,     // v_dot*
  hk_rw_lane = 1u << 25, // v_readlane_b32, v_writelane_b32 (LLVM's isRWLane: an SGPR lane select)
  hk_rfe = 1u << 26,     // s_rfe_b64 (reads TRAPSTS)
  hk_mem_store = 1u << 27,  // SMEM/VMEM/FLAT that may store: stores, atomics, LDS-DMA (LLVM's mayStore)
  hk_cvt_fwd = 1u << 28,    // a convert whose result needs a wait state before any VALU touches it (gfx950)
};
inline constexpr uint16_t hz_hwreg_trapsts = 3;

// Operand tags: which role of the consumer a use is (the rules relate specific roles).
enum hz_tag : uint8_t { ht_plain, ht_src0, ht_lane_sel, ht_srcc, ht_srcab, ht_data, ht_implicit, ht_z };

struct hz_range {
  uint16_t first = 0;
  uint8_t n = 0;
  uint8_t tag = ht_plain;
  constexpr bool overlaps(const hz_range& o) const { return first < o.first + o.n && o.first < first + n; }
  constexpr bool same(const hz_range& o) const { return first == o.first && n == o.n; }
};

// common.hpp's span_signature of a physical range.
constexpr uint64_t reg_signature(const hz_range& r) { return span_signature(r.first, r.n); }

struct hazard_facts {
  uint32_t kind = 0;
  uint64_t def_sig = 0, use_sig = 0;
  uint16_t op = 0;  // opcode (the v_dot rules tell the same opcode from another)
  uint8_t passes = 0;
  uint8_t wait_states = 1;  // what this instruction itself provides (s_nop N: N+1)
  uint8_t ndefs = 0, nuses = 0;
  hz_range defs[8]{};
  hz_range uses[12]{};

  constexpr bool is(uint32_t k) const { return (kind & k) != 0; }
  constexpr void add_def(hz_range r) {
    if (ndefs < 8) defs[ndefs++] = r;
    def_sig |= span_signature(r.first, r.n);
  }
  constexpr void add_use(hz_range r) {
    if (nuses < 12) uses[nuses++] = r;
    use_sig |= span_signature(r.first, r.n);
  }
  constexpr bool writes(uint16_t first, uint16_t n) const {
    hz_range q{first, static_cast<uint8_t>(n), 0};
    for (int i = 0; i < ndefs; ++i)
      if (defs[i].overlaps(q)) return true;
    return false;
  }
};


constexpr hz_range special_range(special_reg r) {
  switch (r) {
    case special_reg::vcc: return {hz_vcc, 2, 0};
    case special_reg::vcc_lo: return {hz_vcc, 1, 0};
    case special_reg::vcc_hi: return {hz_vcc + 1, 1, 0};
    case special_reg::exec: return {hz_exec, 2, 0};
    case special_reg::exec_lo: return {hz_exec, 1, 0};
    case special_reg::exec_hi: return {hz_exec + 1, 1, 0};
    case special_reg::m0: return {hz_m0, 1, 0};
    case special_reg::scc: return {hz_scc, 1, 0};
    case special_reg::vccz: return {hz_vcc, 2, ht_z};
    case special_reg::execz: return {hz_exec, 2, ht_z};
    default: return {};
  }
}

constexpr uint16_t class_base(reg_class c) { return c == reg_class::sgpr ? 0 : c == reg_class::vgpr ? hz_vgpr0 : hz_agpr0; }

// Physical range of a register operand (after allocation), n == 0 if none.
constexpr hz_range phys_range(const vreg_info* vregs, const operand& o) {
  if (o.k == operand::kind::vreg) {
    const vreg_info& vi = vregs[o.value];
    if (vi.phys < 0) return {};
    return {static_cast<uint16_t>(class_base(vi.cls) + vi.phys + o.offset), static_cast<uint8_t>(o.dwords), 0};
  }
  if (o.k == operand::kind::phys)
    return {static_cast<uint16_t>(class_base(o.cls) + o.value), static_cast<uint8_t>(o.dwords), 0};
  if (o.k == operand::kind::special) return special_range(o.sp);
  return {};
}

constexpr bool is_vector(const hz_range& r) { return r.first >= hz_vgpr0; }
// SGPRs, VCC, M0, EXEC (LLVM's isSGPRReg: every scalar register a VALU can write).
constexpr bool is_scalar(const hz_range& r) { return r.first < hz_hwreg0; }

// The part of an instruction's hazard kind that depends on its opcode only (the table's
// flags and hazard classes), with two more bits: a store/atomic, and an implicit M0 read.
inline constexpr uint32_t hk_op_store = 1u << 29, hk_op_m0_read = 1u << 30, hk_op_known = 1u << 31;
constexpr uint32_t opcode_hazard_kind(const isa::instr_desc& d) {
  using namespace isa;
  uint32_t k = hk_op_known;
  const uint64_t fl = d.flags;
  const uint16_t hc = d.hazard;
  if (has(fl, f_mfma)) {
    k |= hk_mfma;
    if (has(fl, f_xdl)) k |= hk_xdl;
    if (has(fl, f_dgemm)) k |= hk_dgemm;
    if (hc & hc_smfmac) k |= hk_smfmac;
  } else if (has(fl, f_valu) || has(fl, f_lds_dma)) {
    k |= hk_valu;  // LLVM marks the LDS-DMA loads VALU too (isLdsDma: isVALU && MUBUF/FLAT)
  }
  if (has(fl, f_salu)) k |= hk_salu;
  if (has(fl, f_trans)) k |= hk_trans;
  if (hc & hc_dpp) k |= hk_dpp;
  if (has(fl, f_cmpx) || (hc & hc_cmpx)) k |= hk_cmpx;
  if (hc & hc_setreg) k |= hk_setreg;
  if (hc & hc_getreg) k |= hk_getreg;
  if (hc & hc_rfe) k |= hk_rfe;
  if (hc & hc_div_fmas) k |= hk_div_fmas;
  if (hc & hc_dot) k |= hk_dot;
  const bool readlane = (hc & (hc_readlane | hc_readfirstlane)) != 0;
  if (readlane) k |= hk_readlane;
  if (hc & (hc_readlane | hc_writelane)) k |= hk_rw_lane;
  if (readlane || (hc & hc_writelane)) k |= hk_lane_op;
  if (has(fl, f_permlane) || (hc & hc_permlane)) k |= hk_permlane;
  if (hc & hc_fma64) k |= hk_fma64;
  if (has(fl, f_cvt_sr_fp4)) k |= hk_cvt_fwd;
  const bool vmem = has(fl, f_vmem) || has(fl, f_flat) || d.enc == encoding::flat ||
                    d.enc == encoding::global || d.enc == encoding::scratch || d.enc == encoding::mubuf;
  if (vmem) k |= hk_vmem | hk_mem;
  const bool smem = has(fl, f_smem) || d.enc == encoding::smem;
  if (smem) k |= hk_smem;
  // LLVM's mayStore: stores, atomics (with or without return) and the LDS-DMA loads; not
  // the cache controls (llc-22 puts no s_nop before s_dcache_wb, buffer_wbl2, buffer_inv).
  if ((vmem || smem) && ((hc & hc_mem_store) || has(fl, f_lds_dma)))
    k |= hk_mem_store;
  if (has(fl, f_ds) || d.enc == encoding::ds) k |= hk_mem;
  if (hc & hc_nop) k |= hk_nop;
  const bool store = has(fl, f_store) || has(fl, f_atomic);
  if (store) k |= hk_op_store;
  // LLVM's createsVALUHazard: a VMEM/FLAT store or atomic whose data is wider than 64 bits
  // (MUBUF only without an SGPR soffset: fill_hazard_facts clears it then).
  if (vmem && store)
    for (int i = 0; i < d.num_operands; ++i)
      if (d.operands[i].role != operand_role::def && (d.operands[i].classes & (oc_vgpr | oc_agpr)) &&
          d.operands[i].dwords > 2)
        k |= hk_wide_store;
  // The M0 readers of LLVM's checkReadM0Hazards on gfx9: s_movrel*, ds_*_addtid_b32,
  // s_sendmsg*, s_ttracedata, GDS-only DS (and any DS with gds, fill_hazard_facts), LDS-DMA.
  if ((hc & hc_m0_user) || has(fl, f_needs_gds) || has(fl, f_lds_dma))
    k |= hk_m0_user;
  if (has(fl, f_reads_m0) || has(fl, f_lds_dma)) k |= hk_op_m0_read;
  return k;
}

// opcode_hazard_kind per opcode, computed on first use (a pass sees few distinct opcodes;
// the mnemonic tests are what made per-instruction facts expensive to evaluate).
struct opcode_kind_cache {
  vec<uint32_t> kind;
  constexpr explicit opcode_kind_cache(const isa_view& isa) : kind(isa.count, 0u) {}
  constexpr uint32_t get(const isa_view& isa, uint16_t op) {
    uint32_t* const kinds = kind.data();  // (raw: a vec's operator[] is an interpreted call)
    uint32_t k = kinds[op];
    if (k == 0) kinds[op] = k = opcode_hazard_kind(isa.descs[op]);
    return k;
  }
};

// The kind bits that depend on an instruction's modifiers: DPP, a partial-dword result
// (LLVM's hasDstSelForwardingHazard: SDWA dst_sel != DWORD, or VOP3 op_sel dst-high: the
// last op_sel entry, or a byte-select convert's op_sel[2]), and a GDS access (an M0 reader). Not VOP3P: LLVM 22 tests bit 3 of
// src0_modifiers, which in VOP3P is op_sel_hi[0] (set by default), so llc-22 puts s_nop 0
// after every packed op read at once; AMD's production asm reads them at once (aiter's
// gfx942 code objects: 6104 such reads in 400 files), so the hardware needs no wait.
constexpr uint32_t modifier_hazard_kind(const isa::instr_desc& d, const packed_modifiers& m) {
  using namespace isa;
  uint32_t k = 0;
  if (m.dpp_on()) k |= hk_dpp;
  // A byte-select convert writing byte 1 or 3 (op_sel[2]) writes part of its dst too (LLVM's
  // FP8 dst-select kind; llc-22 -mcpu=gfx942 pads v_cvt_sr_fp8_f32 op_sel:[0,0,1,0]).
  const int byte = cvt_dst_byte(d, m);
  const bool byte_odd = byte == 1 || byte == 3;
  if ((m.sdwa_on() && m.sdwa_dst_sel() != 6) || op_sel_writes_dst_high(d, m) || byte_odd) k |= hk_partial_dst;
  if (m.gds() && (d.enc == encoding::ds)) k |= hk_m0_user;
  // LLVM's getDstSelForwardingOperand on gfx950: a byte-select convert writing byte 1-3
  // (op_sel[3:2] != 0; the stochastic fp4 pairs whatever their op_sel: opcode_hazard_kind).
  if (byte > 0) k |= hk_cvt_fwd;
  return k;
}

// Fills `h` (default-constructed) in place: the facts are big, and every copy of them is
// interpreted field by field.
constexpr void fill_hazard_facts(hazard_facts& h_, const function& fn, const isa_view& isa, const instr& in,
                                 opcode_kind_cache& cache) {
  using namespace isa;
  hazard_facts& h = h_;
  const instr_desc& d = isa.descs[in.op];
  const vreg_info* const vregs = fn.vregs.data();
  const uint64_t fl = d.flags;
  const uint32_t op_kind = cache.get(isa, in.op);
  h.kind = op_kind & ~(hk_op_store | hk_op_m0_read | hk_op_known);
  h.op = in.op;
  // (Flag tests written out below, not through is()/has()/role_of(): this runs for every
  // instruction and each of those is an interpreted call.)
  const bool mfma = (h.kind & hk_mfma) != 0;
  if (mfma) h.passes = d.mfma_passes;
  if (!in.mods.none()) h.kind |= modifier_hazard_kind(d, in.mods);
  if (h.kind & hk_nop) {
    uint64_t n = 0;
    for (int i = 0; i < in.num_operands; ++i)
      if (in.ops[i].k == operand::kind::imm) n = in.ops[i].value;
    h.wait_states = static_cast<uint8_t>((n & 0xf) + 1);
  }
  if (h.kind & (hk_setreg | hk_getreg)) {  // the hardware register: the first immediate's id field
    for (int i = 0; i < in.num_operands; ++i)
      if (in.ops[i].k == operand::kind::imm) {
        const hz_range hw{static_cast<uint16_t>(hz_hwreg0 + (in.ops[i].value & 0x3f)), 1, ht_plain};
        if (h.kind & hk_setreg) h.add_def(hw);
        h.add_use(hw);
        break;
      }
  }
  if (h.kind & hk_rfe) h.add_use({static_cast<uint16_t>(hz_hwreg0 + hz_hwreg_trapsts), 1, ht_implicit});
  const bool vmem = (h.kind & hk_vmem) != 0;
  bool m0_read = (op_kind & hk_op_m0_read) != 0 || (h.kind & hk_m0_user) != 0;
  const bool store = (op_kind & hk_op_store) != 0;
  const bool smfmac = (h.kind & hk_smfmac) != 0, lane_op = (h.kind & hk_lane_op) != 0;
  const bool dot = (h.kind & hk_dot) != 0;

  int first_use = -1;
  const int nd = d.num_operands;
  const isa::operand_desc* const odesc = d.operands;
  const operand* const ops = in.ops;
  const int nops = in.num_operands;
  // (phys_range's mapping, add_def and add_use written out: per operand they were three
  // interpreted calls and two copies of a range; this runs for every instruction)
  for (int i = 0; i < nops; ++i) {
    const operand& o = ops[i];
    uint32_t first = 0, n = 0;
    uint8_t tag = ht_plain;
    if (o.k == operand::kind::vreg) {
      const vreg_info& vi = vregs[o.value];
      if (vi.phys < 0) continue;
      first = class_base(vi.cls) + static_cast<uint32_t>(vi.phys) + o.offset;
      n = o.dwords;
    } else if (o.k == operand::kind::phys) {
      first = class_base(o.cls) + static_cast<uint32_t>(o.value);
      n = o.dwords;
    } else if (o.k == operand::kind::special) {
      const hz_range sr = special_range(o.sp);
      first = sr.first;
      n = sr.n;
      tag = sr.tag;
    }
    if (n == 0) continue;
    const uint64_t sig = span_signature(first, n);
    if (tag == ht_z) {  // src_vccz / src_execz as data
      h.kind |= hk_z_reader;
      if (h.nuses < 12) h.uses[h.nuses++] = {static_cast<uint16_t>(first), static_cast<uint8_t>(n), ht_z};
      h.use_sig |= sig;
      continue;
    }
    const isa::operand_role role = i < nd ? odesc[i].role : isa::operand_role::use;
    if (role != isa::operand_role::use) {
      if (h.ndefs < 8) h.defs[h.ndefs++] = {static_cast<uint16_t>(first), static_cast<uint8_t>(n), ht_plain};
      h.def_sig |= sig;
    }
    if (role != isa::operand_role::def) {
      uint8_t t = ht_plain;
      if (first_use < 0) {
        first_use = i;
        t = ht_src0;
      }
      if (mfma) {
        const bool srcc = (smfmac && i == 0) || (!smfmac && i == 3);
        // LLVM checks every MFMA source but C by the SrcA/B rules, the scaled MFMAs' scale
        // VGPRs (operands 4 and 5) too (llc-22 -mcpu=gfx950: XDL result as a scale, 8 passes: 12)
        t = srcc ? ht_srcc : (i == 1 || i == 2 || (!smfmac && i > 3)) ? ht_srcab : ht_plain;
      } else if (dot && i == 3) {
        t = ht_srcc;  // a VOP3P v_dot's accumulator (src2)
      } else if (lane_op && i == 2 && first < hz_vgpr0) {
        t = ht_lane_sel;
      } else if (vmem && store && first >= hz_vgpr0 && n > 2) {
        t = ht_data;
      }
      if (h.nuses < 12) h.uses[h.nuses++] = {static_cast<uint16_t>(first), static_cast<uint8_t>(n), t};
      h.use_sig |= sig;
      if (first == hz_m0) m0_read = true;
    }
  }
  // MUBUF with an SGPR soffset has no wide-store hazard (LLVM's createsVALUHazard).
  if ((h.kind & hk_wide_store) && d.enc == encoding::mubuf && in.num_operands > 3 &&
      phys_range(vregs, in.ops[3]).n > 0)
    h.kind &= ~uint32_t{hk_wide_store};
  if (fl & f_reads_exec) h.add_use({hz_exec, 2, ht_implicit});
  if (fl & f_reads_vcc) h.add_use({hz_vcc, 2, ht_implicit});
  if ((fl & f_writes_exec) || (h.kind & hk_cmpx)) h.add_def({hz_exec, 2, ht_plain});
  if (fl & f_writes_vcc) h.add_def({hz_vcc, 2, ht_plain});
  if (fl & f_writes_m0) h.add_def({hz_m0, 1, ht_plain});
  if (fl & f_writes_scc) h.add_def({hz_scc, 1, ht_plain});
  if (m0_read && !(h.use_sig & reg_signature({hz_m0, 1, 0}))) h.add_use({hz_m0, 1, ht_implicit});
}

constexpr hazard_facts make_hazard_facts(const function& fn, const isa_view& isa, const instr& in,
                                         opcode_kind_cache& cache) {
  hazard_facts h;
  fill_hazard_facts(h, fn, isa, in, cache);
  return h;
}

// The opcode classes of each rule, as LLVM's GCNHazardRecognizer (gfx940 paths) names
// them, over an instruction's hazard kind `k` (opcode_hazard_kind | modifier_hazard_kind):
// the one definition the pass, verify.hpp and the cross-check test read. The register
// relation (which operand of the consumer, written by the producer) is hazard_relation's.
// LLVM's isVALU includes MFMAs (hk_valu does not).
inline constexpr uint32_t hk_any_valu = hk_valu | hk_mfma;
// k matches when it has a bit of `any`, a bit of `also` and none of `none`; `any` alone is
// the walk's cheap filter (a superset).
struct kind_test {
  uint32_t any = 0, also = ~0u, none = 0;
};
constexpr bool kind_matches(const kind_test& t, uint32_t k) { return (k & t.any) && (k & t.also) && !(k & t.none); }
struct rule_kinds {
  kind_test producer, consumer;
};
constexpr rule_kinds hazard_rule_kinds(hazard_check c) {
  constexpr uint32_t any_writer = ~uint32_t{hk_nop};  // any instruction that writes the VGPR
  constexpr uint32_t all = ~0u;
  constexpr kind_test valu{hk_any_valu}, mfma{hk_mfma}, dgemm{hk_dgemm}, dot{hk_dot}, setreg{hk_setreg};
  constexpr kind_test xdl{hk_xdl, all, hk_dgemm}, nonxdl{hk_mfma, all, hk_xdl | hk_dgemm};
  constexpr kind_test valu_or_mem{hk_valu | hk_mem};
  switch (c) {
    case hazard_check::valu_sgpr_then_vmem: return {valu, {hk_vmem}};
    case hazard_check::valu_vcc_then_div_fmas: return {valu, {hk_div_fmas}};
    case hazard_check::valu_sgpr_then_lane_sel: return {valu, {hk_rw_lane}};
    case hazard_check::valu_exec_then_dpp: return {valu, {hk_dpp}};
    case hazard_check::valu_vcc_exec_then_z:
    case hazard_check::valu_sgpr_then_valu: return {valu, valu};
    case hazard_check::valu_exec_then_lane_op: return {valu, {hk_lane_op}};
    case hazard_check::valu_vgpr_then_readlane: return {valu, {hk_readlane}};
    case hazard_check::vgpr_then_permlane: return {valu, {hk_permlane}};
    case hazard_check::setreg_then_getreg: return {setreg, {hk_getreg | hk_setreg}};
    case hazard_check::setreg_then_rfe: return {setreg, {hk_rfe}};
    case hazard_check::salu_m0_then_m0_user: return {{hk_salu}, {hk_m0_user}};
    case hazard_check::vgpr_then_dpp: return {{any_writer}, {hk_dpp}};
    case hazard_check::wide_store_then_valu_war: return {{hk_wide_store}, valu};
    case hazard_check::trans_then_valu: return {{hk_trans}, {hk_any_valu, all, hk_trans}};
    case hazard_check::partial_dst_then_valu: return {{hk_partial_dst, hk_any_valu}, valu};
    case hazard_check::valu_exec_then_mfma: return {{hk_valu}, mfma};
    case hazard_check::valu_vgpr_then_mfma: return {{hk_valu, all, hk_dot}, mfma};
    case hazard_check::mfma_then_same_srcc: return {mfma, mfma};
    case hazard_check::xdl_then_overlap_srcc: return {xdl, {hk_xdl}};
    case hazard_check::xdl_then_overlap_srcc_nonxdl: return {xdl, {hk_mfma, all, hk_xdl}};
    case hazard_check::xdl_then_srcab: return {xdl, mfma};
    case hazard_check::xdl_then_read:
    case hazard_check::xdl_then_waw:
    case hazard_check::mfma_srcc_then_valu_war: return {xdl, valu_or_mem};
    case hazard_check::nonxdl_then_overlap_srcc: return {nonxdl, {hk_mfma, all, hk_xdl}};
    case hazard_check::nonxdl_then_srcab: return {nonxdl, mfma};
    case hazard_check::nonxdl_then_read:
    case hazard_check::nonxdl_then_waw: return {nonxdl, valu_or_mem};
    case hazard_check::dgemm_then_fma64: return {dgemm, {hk_fma64}};
    case hazard_check::dgemm_then_valu_read: return {dgemm, {hk_valu}};
    case hazard_check::dgemm_then_mem_read: return {dgemm, {hk_mem}};
    case hazard_check::dgemm_then_waw: return {dgemm, valu_or_mem};
    case hazard_check::dgemm_then_srcab: return {dgemm, mfma};
    case hazard_check::dgemm_then_overlap_srcc: return {dgemm, {hk_mfma, all, hk_xdl}};
    case hazard_check::dgemm_then_same_srcc: return {dgemm, dgemm};
    case hazard_check::dot_then_same_srcab: return {dot, dot};
    case hazard_check::dot_then_read_other:
    case hazard_check::dot_then_waw_other: return {dot, valu_or_mem};
    case hazard_check::valu_exec_then_permlane: return {valu, {hk_permlane}};
    case hazard_check::cvt_fwd_then_valu: return {{hk_cvt_fwd, hk_any_valu}, valu};
    default: return {};  // a check this pass does not make: no instruction matches
  }
}
constexpr bool hazard_rule_producer(hazard_check c, uint32_t k) { return kind_matches(hazard_rule_kinds(c).producer, k); }
constexpr bool hazard_rule_consumer(hazard_check c, uint32_t k) { return kind_matches(hazard_rule_kinds(c).consumer, k); }

// Register relations between a producer P and a consumer C (free functions, not lambdas:
// each lambda object costs the constant interpreters a construction per call).
constexpr bool any_range(const hz_range&) { return true; }
constexpr bool vec_range(const hz_range& x) { return is_vector(x); }
constexpr bool vgpr_range(const hz_range& x) { return x.first >= hz_vgpr0 && x.first < hz_agpr0; }
constexpr bool scalar_range(const hz_range& x) { return is_scalar(x); }
constexpr bool hwreg_range(const hz_range& x) { return x.first >= hz_hwreg0 && x.first < hz_hwreg0 + 64; }
// An explicit scalar source, or VCC read in any way (LLVM's VALU SGPR/VCC rule).
constexpr bool scalar_read_range(const hz_range& x) {
  return is_scalar(x) && (x.tag != ht_implicit || (x.first < hz_vcc + 2 && hz_vcc < x.first + x.n));
}
constexpr bool srcab_range(const hz_range& x) { return x.tag == ht_srcab; }
constexpr bool lane_sel_range(const hz_range& x) { return x.tag == ht_lane_sel; }
constexpr bool z_range(const hz_range& x) { return x.tag == ht_z; }
constexpr bool src0_vec_range(const hz_range& x) { return x.tag == ht_src0 && is_vector(x); }
constexpr bool not_srcc_vec_range(const hz_range& x) { return x.tag != ht_srcc && is_vector(x); }

// P writes (a register matching pd) that C reads (through an operand matching pu).
constexpr bool writes_read(const hazard_facts& P, const hazard_facts& C, bool (*pd)(const hz_range&),
                           bool (*pu)(const hz_range&)) {
  for (int i = 0; i < P.ndefs; ++i) {
    if (!pd(P.defs[i])) continue;
    for (int j = 0; j < C.nuses; ++j)
      if (pu(C.uses[j]) && P.defs[i].overlaps(C.uses[j])) return true;
  }
  return false;
}
// P writes a vector register that C writes too (WAW).
constexpr bool vector_waw(const hazard_facts& P, const hazard_facts& C) {
  for (int i = 0; i < P.ndefs; ++i)
    for (int j = 0; j < C.ndefs; ++j)
      if (is_vector(P.defs[i]) && P.defs[i].overlaps(C.defs[j])) return true;
  return false;
}
// P reads (an operand with tag) what C overwrites (WAR).
constexpr bool read_then_written(const hazard_facts& P, const hazard_facts& C, uint8_t tag) {
  for (int i = 0; i < P.nuses; ++i)
    if (P.uses[i].tag == tag)
      for (int j = 0; j < C.ndefs; ++j)
        if (P.uses[i].overlaps(C.defs[j])) return true;
  return false;
}
// C reads as SrcC exactly (same) or partly (!same) what P wrote.
constexpr bool srcc_relation(const hazard_facts& P, const hazard_facts& C, bool same) {
  for (int i = 0; i < P.ndefs; ++i) {
    if (!is_vector(P.defs[i])) continue;
    for (int j = 0; j < C.nuses; ++j) {
      if (C.uses[j].tag != ht_srcc || !P.defs[i].overlaps(C.uses[j])) continue;
      if (P.defs[i].same(C.uses[j]) == same) return true;
    }
  }
  return false;
}

// Whether rule `r` relates producer P and consumer C by their registers (their kinds
// already match the rule's: hazard_rule_kinds).
constexpr bool hazard_relation(const hazard_rule& r, const hazard_facts& P, const hazard_facts& C) {
  bool hit = false;
  switch (r.check) {
    case hazard_check::valu_sgpr_then_vmem: hit = writes_read(P, C, scalar_range, scalar_range); break;
    case hazard_check::valu_vcc_then_div_fmas: hit = P.writes(hz_vcc, 2); break;
    case hazard_check::valu_sgpr_then_lane_sel: hit = writes_read(P, C, scalar_range, lane_sel_range); break;
    case hazard_check::setreg_then_getreg:
    case hazard_check::setreg_then_rfe: hit = writes_read(P, C, hwreg_range, hwreg_range); break;
    case hazard_check::salu_m0_then_m0_user: hit = P.writes(hz_m0, 1); break;
    case hazard_check::vgpr_then_dpp: hit = writes_read(P, C, vgpr_range, vgpr_range); break;
    case hazard_check::valu_exec_then_dpp:
    case hazard_check::valu_exec_then_lane_op:
    case hazard_check::valu_exec_then_mfma:
    case hazard_check::valu_exec_then_permlane: hit = P.writes(hz_exec, 2); break;
    case hazard_check::wide_store_then_valu_war: hit = read_then_written(P, C, ht_data); break;
    case hazard_check::valu_vcc_exec_then_z: hit = writes_read(P, C, any_range, z_range); break;
    case hazard_check::valu_sgpr_then_valu: hit = writes_read(P, C, scalar_range, scalar_read_range); break;
    case hazard_check::valu_vgpr_then_readlane: hit = writes_read(P, C, vec_range, src0_vec_range); break;
    case hazard_check::trans_then_valu:
    case hazard_check::partial_dst_then_valu:
    case hazard_check::vgpr_then_permlane:
    case hazard_check::valu_vgpr_then_mfma:
    case hazard_check::xdl_then_read:
    case hazard_check::nonxdl_then_read:
    case hazard_check::dgemm_then_valu_read:
    case hazard_check::dgemm_then_mem_read: hit = writes_read(P, C, vec_range, vec_range); break;
    case hazard_check::mfma_then_same_srcc:
    case hazard_check::dgemm_then_same_srcc: hit = srcc_relation(P, C, true); break;
    case hazard_check::xdl_then_overlap_srcc:
    case hazard_check::xdl_then_overlap_srcc_nonxdl:
    case hazard_check::nonxdl_then_overlap_srcc:
    case hazard_check::dgemm_then_overlap_srcc: hit = srcc_relation(P, C, false); break;
    case hazard_check::xdl_then_srcab:
    case hazard_check::nonxdl_then_srcab:
    case hazard_check::dgemm_then_srcab: hit = writes_read(P, C, vec_range, srcab_range); break;
    case hazard_check::xdl_then_waw:
    case hazard_check::nonxdl_then_waw:
    case hazard_check::dgemm_then_waw: hit = vector_waw(P, C); break;
    case hazard_check::mfma_srcc_then_valu_war: hit = read_then_written(P, C, ht_srcc); break;
    case hazard_check::dgemm_then_fma64: hit = true; break;
    case hazard_check::dot_then_same_srcab: hit = P.op == C.op && writes_read(P, C, vec_range, not_srcc_vec_range); break;
    case hazard_check::dot_then_read_other: hit = P.op != C.op && writes_read(P, C, vec_range, vec_range); break;
    case hazard_check::dot_then_waw_other: hit = P.op != C.op && vector_waw(P, C); break;
    case hazard_check::cvt_fwd_then_valu: hit = writes_read(P, C, vec_range, vec_range) || vector_waw(P, C); break;
    default: break;
  }
  return hit;
}

// Wait states rule `r` requires between producer P and consumer C (0: no hazard).
constexpr int hazard_wait(const hazard_rule& r, const hazard_facts& P, const hazard_facts& C) {
  const int w = r.wait[hazard_pass_index(P.is(hk_mfma) ? P.passes : 0)];
  if (w <= 0) return 0;
  if (!hazard_rule_producer(r.check, P.kind) || !hazard_rule_consumer(r.check, C.kind)) return 0;
  return hazard_relation(r, P, C) ? w : 0;
}
// The rules that can fire in one function (producer kinds present), with their kind tests.
struct active_rules {
  const hazard_table* table = nullptr;
  vec<uint16_t> index;  // into table->rules
  vec<rule_kinds> kinds;
  vec<int8_t> max_rule_wait;
  int max_wait = 0;

  constexpr active_rules(const hazard_table& t, uint32_t present_kinds) : table(&t) {
    for (uint32_t i = 0; i < t.count; ++i) {
      const rule_kinds m = hazard_rule_kinds(t.rules[i].check);
      if ((m.producer.any & present_kinds) == 0) continue;
      int w = 0;
      for (int x : t.rules[i].wait) w = x > w ? x : w;
      if (w == 0) continue;
      index.push_back(static_cast<uint16_t>(i));
      kinds.push_back(m);
      max_rule_wait.push_back(static_cast<int8_t>(w));
      if (w > max_wait) max_wait = w;
    }
  }
  // The rules that can apply to consumer C, and the longest window among them. Raw arrays
  // of what the walk reads per candidate producer (a vec's operator[] is an interpreted call).
  struct subset {
    uint8_t n = 0;
    int window = 0;
    // Beyond short_window wait states only an MFMA producer can still need more (a rule
    // waits table.wait[0] for any other producer): the walk then visits MFMAs only.
    int short_window = 0;
    uint32_t producers = 0;  // producer kinds any of these rules involves
    kind_test producer[64]{};           // per rule: the producer kinds it takes
    const hazard_rule* rule[64]{};      // per rule
    uint16_t rule_index[64]{};          // per rule: index into table->rules
    // Per producer kind met so far (a function has few): the rules (bit k: rule[k]) whose
    // producer test it passes, so that a candidate producer visits only those.
    uint8_t kinds_cached = 0;
    uint32_t cached_kind[16]{};
    uint64_t cached_rules[16]{};
    constexpr uint64_t rules_for_producer(uint32_t p_kind) {
      for (uint8_t i = 0; i < kinds_cached; ++i)
        if (cached_kind[i] == p_kind) return cached_rules[i];
      uint64_t m = 0;
      for (uint8_t k = 0; k < n; ++k) {
        const kind_test& t = producer[k];  // (kind_matches written out: a call per rule)
        if ((t.any & p_kind) && (t.also & p_kind) && !(t.none & p_kind)) m |= uint64_t{1} << k;
      }
      if (kinds_cached < 16) {
        cached_kind[kinds_cached] = p_kind;
        cached_rules[kinds_cached++] = m;
      }
      return m;
    }
  };
  constexpr subset for_consumer(const hazard_facts& C) const {
    subset s;
    for (std::size_t i = 0; i < index.size() && s.n < 64; ++i)
      if (kind_matches(kinds[i].consumer, C.kind)) {
        const kind_test& p = kinds[i].producer;
        s.producer[s.n] = p;
        s.rule[s.n] = &table->rules[index[i]];
        s.rule_index[s.n++] = index[i];
        s.producers |= p.any;
        if (max_rule_wait[i] > s.window) s.window = max_rule_wait[i];
        const int w0 = table->rules[index[i]].wait[0];
        if ((p.any & ~uint32_t{hk_mfma}) && w0 > s.short_window) s.short_window = w0;
      }
    if (s.short_window > s.window) s.short_window = s.window;
    return s;
  }
};

// The strongest requirement of any rule between P and C: wait states and the rule index.
struct hazard_need {
  int wait = 0;
  int rule = -1;
};
// Every rule but these relates a register of P to one of C (RAW, WAW or WAR; s_setreg
// relates its hardware register, a pseudo register hz_hwreg0 + id).
inline constexpr uint32_t hk_no_register_relation = hk_dgemm | hk_cmpx;
// The strongest requirement of the rules of `sub` between P and C (after the walk's cheap
// filter on kinds and register signatures). A rule that waits no more than `floor` for P
// is not checked: it could not raise what the walk already needs.
constexpr hazard_need hazard_between(active_rules::subset& sub, const hazard_facts& P, const hazard_facts& C,
                                     int floor) {
  hazard_need n;
  const int pass = hazard_pass_index(P.is(hk_mfma) ? P.passes : 0);
  for (uint64_t m = sub.rules_for_producer(P.kind); m; m &= m - 1) {  // (in rule order)
    const int k = __builtin_ctzll(m);
    const hazard_rule& r = *sub.rule[k];
    const int w = r.wait[pass];
    if (w <= floor || !hazard_relation(r, P, C)) continue;  // the consumer's kind: for_consumer
    if (w > n.wait) n = {w, sub.rule_index[k]};
  }
  return n;
}

// One block's issued instructions for the backward walk. The walk reads kind, register
// signatures and wait states of every instruction in a window for every consumer, so those
// sit in flat arrays (a primitive read from a raw array is the cheapest access in both
// constant interpreters); the full facts are read only for the few candidates that pass.
struct fact_seq {
  static constexpr uint32_t no_facts = ~0u;  // an inserted s_nop
  vec<hazard_facts> facts;  // the block's own instructions, in original order
  // Per issued position k < n (the arrays are allocated ahead: an issue writes through raw
  // pointers, no push_back per array): index into facts, or no_facts, and what the walk reads.
  std::size_t n = 0;
  vec<uint32_t> at;
  vec<uint32_t> kind;
  vec<uint64_t> def_sig, use_sig;
  vec<uint8_t> wait;
  // Per position k in 0..n: wait states issued before k, and the last MFMA before k
  // (-1: none). The walk's long stretch jumps from MFMA to MFMA with these.
  vec<uint32_t> wait_before{0u};
  vec<int32_t> mfma_before{-1};

  // Room for c positions (keeps the first n).
  constexpr void reserve(std::size_t c) {
    if (c <= at.size()) return;
    at.resize(c);
    kind.resize(c);
    def_sig.resize(c);
    use_sig.resize(c);
    wait.resize(c);
    wait_before.resize(c + 1);
    mfma_before.resize(c + 1);
  }
  // Issues facts[i] (i == no_facts: `nop`, an s_nop's facts).
  constexpr void issue(uint32_t i, const hazard_facts& h) {
    if (n == at.size()) reserve(2 * n + 8);
    const std::size_t k = n++;
    const uint32_t hk = h.kind;
    at.data()[k] = i;
    kind.data()[k] = hk;
    def_sig.data()[k] = h.def_sig;
    use_sig.data()[k] = h.use_sig;
    wait.data()[k] = h.wait_states;
    uint32_t* const before = wait_before.data();
    int32_t* const mfma = mfma_before.data();
    before[k + 1] = before[k] + h.wait_states;
    mfma[k + 1] = (hk & hk_mfma) ? static_cast<int32_t>(k) : mfma[k];
  }
  constexpr std::size_t size() const { return n; }
};

// Backward walk: the most wait states still missing before consumer C, over every path
// into (block b, before position `end`), `dist` wait states already between. Block `cur`
// is the one being rewritten: its issued prefix (`cur_out`), then its not yet rewritten
// tail from original instruction `cur_i` (reached through a self loop; without its
// s_nops: fewer wait states, so never too few nops).
struct hazard_walker {
  const vec<fact_seq>* seqs;  // per block: final order once rewritten, original before
  const vec<vec<uint32_t>>* preds;
  const active_rules* rules;
  uint32_t cur = ~0u;
  const fact_seq* cur_out = nullptr;
  std::size_t cur_i = 0;

  constexpr std::size_t size(uint32_t b) const {
    return b == cur ? cur_out->size() + ((*seqs)[b].size() - cur_i) : (*seqs)[b].size();
  }
  // Positions [lo, hi) of `q`, backwards; false once `dist` reaches the window. `facts`:
  // the block's own facts (the issued prefix of block `cur` has none of its own).
  constexpr bool scan(const hazard_facts& C, active_rules::subset& sub, const fact_seq& q, const hazard_facts* facts,
                      std::size_t hi, std::size_t lo, int& dist, hazard_need& need) const {
    const int window = sub.window;
    const uint32_t producers = sub.producers;
    const uint64_t c_any = C.use_sig | C.def_sig, c_def = C.def_sig;
    const uint32_t* const kind = q.kind.data();
    const uint64_t* const dsig = q.def_sig.data();
    const uint64_t* const usig = q.use_sig.data();
    const uint8_t* const wait = q.wait.data();
    const uint32_t* const at = q.at.data();
    // At each position: can any rule of `sub` relate P to C (kinds, register signatures; an
    // s_nop never conflicts)? Read from the flat fields; only then the rules (hazard_between).
    // d: wait states between position i and C. (The test is written out in both loops: as a
    // lambda, a call per position, it was a third of the walk's cost.)
    // Every instruction while a rule for any producer can still fire...
    std::size_t i = hi;
    int d = dist;
    const int short_window = sub.short_window;
    while (i > lo && d < short_window) {
      --i;
      const uint32_t k = kind[i];
      if ((k & producers) && !(k & hk_nop) &&
          ((k & hk_no_register_relation) || (dsig[i] & c_any) || (usig[i] & c_def))) {
        const hazard_need n = hazard_between(sub, facts[at[i]], C, need.wait + d);
        if (n.wait - d > need.wait) need = {n.wait - d, n.rule};
      }
      d += wait[i];
    }
    // ...then only the MFMAs, from one to the previous (the distance from prefix sums).
    const uint32_t* const before = q.wait_before.data();
    const int32_t* const mfma = q.mfma_before.data();
    const int from_hi = dist + static_cast<int>(before[hi]);  // d of j is from_hi - before[j + 1]
    if (i > lo && d < window)
      for (int32_t j = mfma[i]; j >= static_cast<int32_t>(lo); j = mfma[j]) {
        const int dj = from_hi - static_cast<int>(before[j + 1]);
        if (dj >= window) break;
        const uint32_t k = kind[j];
        if ((k & producers) && ((k & hk_no_register_relation) || (dsig[j] & c_any) || (usig[j] & c_def))) {
          const hazard_need n = hazard_between(sub, facts[at[j]], C, need.wait + dj);
          if (n.wait - dj > need.wait) need = {n.wait - dj, n.rule};
        }
      }
    dist = from_hi - static_cast<int>(before[lo]);
    return dist < window;
  }
  constexpr void walk(const hazard_facts& C, active_rules::subset& sub, uint32_t b, std::size_t end, int dist,
                      int hops, hazard_need& need) const {
    const fact_seq& q = seqs->data()[b];
    if (b != cur) {
      if (!scan(C, sub, q, q.facts.data(), end, 0, dist, need)) return;
    } else {
      const std::size_t np = cur_out->size();
      // Only a walk into the block being rewritten from its end (a self loop) reaches
      // its not yet rewritten tail: original positions [cur_i, cur_i + (end - np)).
      if (end > np && !scan(C, sub, q, q.facts.data(), cur_i + (end - np), cur_i, dist, need)) return;
      if (!scan(C, sub, *cur_out, q.facts.data(), end < np ? end : np, 0, dist, need)) return;
    }
    if (hops > 32) return;
    const vec<uint32_t>& ps = preds->data()[b];
    for (uint32_t p : ps) walk(C, sub, p, size(p), dist, hops + 1, need);
  }
};

// LLVM's soft clauses (hazard_table::soft_clauses): the run of SMEM, or of VMEM/FLAT,
// instructions just issued, as the registers its members write and read (bit r of a
// 768-bit set: the hz_ numbering). A load joining a run that writes registers needs one
// wait state when the run's writes (its own included) meet the run's reads; a store
// joining such a run needs one always. Kept for both kinds at once: at a block start the
// runs that end each predecessor are merged (a superset: never too few nops).
struct clause_regs {
  bool active = false;
  bool any_def = false;
  uint64_t defs[12]{}, uses[12]{};
};
constexpr void add_reg_bits(uint64_t* set, const hz_range& r) {
  for (uint32_t b = r.first, e = r.first + r.n; b < e && b < 768; ++b) set[b >> 6] |= uint64_t{1} << (b & 63);
}
struct soft_clause_state {
  clause_regs smem, vmem;

  static constexpr bool joins(uint32_t kind) { return (kind & (hk_smem | hk_vmem)) != 0; }
  // Wait states C needs to join the run of its kind (0 or 1).
  constexpr int need(const hazard_facts& C) const {
    const clause_regs& run = (C.kind & hk_smem) ? smem : vmem;
    if (!joins(C.kind) || !run.active || !run.any_def) return 0;
    if (C.kind & hk_mem_store) return 1;
    uint64_t d[12]{}, u[12]{};
    for (int i = 0; i < C.ndefs; ++i) add_reg_bits(d, C.defs[i]);
    for (int i = 0; i < C.nuses; ++i) add_reg_bits(u, C.uses[i]);
    for (int w = 0; w < 12; ++w)
      if ((run.defs[w] | d[w]) & (run.uses[w] | u[w])) return 1;
    return 0;
  }
  static constexpr void add(clause_regs& run, const hazard_facts& C) {
    if (!run.active) run = clause_regs{};
    run.active = true;
    for (int i = 0; i < C.ndefs; ++i) add_reg_bits(run.defs, C.defs[i]);
    for (int i = 0; i < C.nuses; ++i) add_reg_bits(run.uses, C.uses[i]);
    if (C.ndefs > 0) run.any_def = true;
  }
  // C issues; `broken`: wait states (s_nops) were inserted right before it.
  constexpr void issue(const hazard_facts& C, bool broken) {
    if (broken) smem.active = vmem.active = false;
    if (C.kind & hk_smem) {
      vmem.active = false;
      add(smem, C);
    } else if (C.kind & hk_vmem) {
      smem.active = false;
      add(vmem, C);
    } else {
      smem.active = vmem.active = false;
    }
  }
  static constexpr bool merge(clause_regs& into, const clause_regs& from) {
    if (!from.active) return false;
    bool changed = !into.active || (from.any_def && !into.any_def);
    if (!into.active) into = clause_regs{};
    into.active = true;
    into.any_def = into.any_def || from.any_def;
    for (int w = 0; w < 12; ++w) {
      const uint64_t nd = into.defs[w] | from.defs[w], nu = into.uses[w] | from.uses[w];
      changed = changed || nd != into.defs[w] || nu != into.uses[w];
      into.defs[w] = nd;
      into.uses[w] = nu;
    }
    return changed;
  }
  constexpr bool merge(const soft_clause_state& o) {
    const bool a = merge(smem, o.smem);
    const bool b = merge(vmem, o.vmem);
    return a || b;
  }
};

// The soft-clause state at each block's end, from the blocks as they are before the pass
// (without its s_nops: longer runs, so never too few nops). A run that covers a whole
// block continues the runs ending its predecessors, hence the fixpoint.
constexpr vec<soft_clause_state> soft_clause_exits(const vec<fact_seq>& seqs, const vec<vec<uint32_t>>& preds) {
  const std::size_t nb = seqs.size();
  vec<soft_clause_state> exit(nb);
  vec<uint8_t> whole(nb, uint8_t{0});  // the block is one run (or empty): its exit depends on its entry
  for (std::size_t b = 0; b < nb; ++b) {
    const fact_seq& q = seqs[b];
    const hazard_facts* const f = q.facts.data();
    const std::size_t n = q.facts.size();
    std::size_t i = n;
    const uint32_t last = n ? (f[n - 1].kind & (hk_smem | hk_vmem)) : 0;
    if (last)
      while (i > 0 && (f[i - 1].kind & last)) --i;
    soft_clause_state s;
    for (std::size_t k = i; k < n; ++k) s.issue(f[k], false);
    exit[b] = s;
    whole[b] = (n == 0 || (last && i == 0)) ? 1 : 0;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      if (!whole[b]) continue;
      soft_clause_state e;
      for (uint32_t p : preds[b]) e.merge(exit[p]);
      const fact_seq& q = seqs[b];
      soft_clause_state x = e;
      for (std::size_t k = 0; k < q.facts.size(); ++k) x.issue(q.facts.data()[k], false);
      if (exit[b].merge(x)) changed = true;
    }
  }
  return exit;
}

// Filling (kernel_options::schedule): before inserting an s_nop, the pass looks a few
// instructions ahead in the block for an independent instruction that needs no wait state
// where it would go, and issues it there instead (each instruction is at least one wait
// state); before an s_waitcnt that waits, it issues independent instructions the same way
// (they run while the wait stalls: pyhip's hide_karg_loads, for every wait). What may move
// and across what:
//  - a filler is a plain VALU or SALU instruction: no memory, MFMA, EXEC/M0 write, SOPP,
//    s_setreg/s_getreg, physical-register def, untracked special register (has_side_effects
//    and the kinds below);
//  - it moves above every instruction between, and shares no register with them beyond
//    reading what they read (RAW, WAR, WAW on physical registers: explicit operands and the
//    implicit EXEC, VCC, SCC, M0; a DPP/SDWA/op_sel merge is a def and a read, so any overlap
//    with it is a conflict);
//  - it never crosses a barrier, branch, SOPP other than s_nop/s_waitcnt (s_setprio, s_sleep,
//    ...), s_setreg (the MODE a VALU reads), a sched_barrier, an untracked register; it crosses
//    an s_waitcnt only if it touches no register any memory instruction of the function
//    writes (the wait may be what makes it ready);
//  - in a block that ends a loop (a successor at or before it), only instructions with at
//    least the longest rule's wait states of instructions after them move, and none from
//    between two SMEM or two VMEM instructions: the hazard and soft-clause states a loop head
//    reads through the back-edge were taken from the block before it was reordered.
// Correctness of the hazards does not depend on the choice: every instruction, fillers
// included, is checked against what was really issued before it.
struct fill_context {
  static constexpr int window = 16;        // instructions looked at after the current one
  static constexpr int max_wait_fill = 8;  // instructions pulled above one s_waitcnt
  const vec<vec<uint8_t>>* fences = nullptr;  // per block: a sched_barrier before instruction i
  uint64_t async_regs[12]{};                  // registers memory instructions write (hz numbering)
  int max_wait = 0;
  uint32_t filled = 0;                        // instructions issued early (for tests and stats)

  static constexpr bool truncated(const hazard_facts& h) { return h.ndefs >= 8 || h.nuses >= 12; }
  // An operand the facts cannot see (flat_scratch, src_*_base, ...).
  static constexpr bool untracked(const instr& in) {
    for (int i = 0; i < in.num_operands; ++i)
      if (in.ops[i].k == operand::kind::special && special_range(in.ops[i].sp).n == 0) return true;
    return false;
  }
  static constexpr bool movable(const isa_view& isa, const hazard_facts& h, const instr& in) {
    constexpr uint32_t fixed = hk_mfma | hk_dgemm | hk_setreg | hk_getreg | hk_rfe | hk_nop | hk_cmpx | hk_mem |
                               hk_smem | hk_m0_user;
    if (!(h.kind & (hk_valu | hk_salu)) || (h.kind & fixed)) return false;
    if (truncated(h) || untracked(in)) return false;
    return !has_side_effects(isa, in);
  }
  // Nothing moves across x (other than by the register rules).
  static constexpr bool barrier(const isa_view& isa, const hazard_facts& x, const instr& in) {
    const isa::instr_desc& d = isa.descs[in.op];
    if (d.flags & (isa::f_barrier | isa::f_branch | isa::f_terminator | isa::f_side_effect)) return true;
    if (d.enc == isa::encoding::sopp && !(x.kind & hk_nop) && !(d.flags & isa::f_waitcnt)) return true;
    if (x.kind & (hk_setreg | hk_getreg | hk_rfe)) return true;
    if ((x.kind & hk_nop) && in.num_operands == 1 && (in.ops[0].value & detail::sched_barrier_bit)) return true;
    return truncated(x) || untracked(in);
  }
  static constexpr bool ranges_meet(const hz_range* a, int na, const hz_range* b, int nb) {
    for (int i = 0; i < na; ++i)
      for (int k = 0; k < nb; ++k)
        if (a[i].overlaps(b[k])) return true;
    return false;
  }
  // j may not move above x: they share a register one of them writes.
  static constexpr bool conflict(const isa_view& isa, const hazard_facts& j, const instr& jin, const hazard_facts& x,
                                 const instr& xin) {
    // SCC reads are not in the facts (no hazard rule reads SCC). (Its signature bit first: the
    // exact test is a loop over the defs, and this runs for every pair a filler crosses.)
    constexpr uint64_t scc_bit = uint64_t{1} << (hz_scc & 63);
    const bool j_scc_w = (j.def_sig & scc_bit) && j.writes(hz_scc, 1);
    const bool x_scc_w = (x.def_sig & scc_bit) && x.writes(hz_scc, 1);
    if (j_scc_w || x_scc_w) {
      const uint64_t jf = isa.descs[jin.op].flags, xf = isa.descs[xin.op].flags;
      if ((j_scc_w && (x_scc_w || (xf & isa::f_reads_scc))) || ((jf & isa::f_reads_scc) && x_scc_w)) return true;
    }
    if ((j.def_sig & (x.def_sig | x.use_sig)) == 0 && (j.use_sig & x.def_sig) == 0) return false;
    return ranges_meet(j.defs, j.ndefs, x.defs, x.ndefs) || ranges_meet(j.defs, j.ndefs, x.uses, x.nuses) ||
           ranges_meet(j.uses, j.nuses, x.defs, x.ndefs);
  }
  constexpr bool touches_async(const hazard_facts& h) const {
    for (int k = 0; k < h.ndefs + h.nuses; ++k) {
      const hz_range& r = k < h.ndefs ? h.defs[k] : h.uses[k - h.ndefs];
      for (uint32_t b = r.first, e = r.first + r.n; b < e && b < 768; ++b)
        if ((async_regs[b >> 6] >> (b & 63)) & 1) return true;
    }
    return false;
  }
};

}  // namespace detail

// Inserts the s_nops. `nop_op` is the table index of s_nop.
// Removes the sched_barrier markers (J.sched_barrier(): an s_nop whose immediate has
// detail::sched_barrier_bit), recording in `fences` (per block, per remaining instruction)
// that one stood before it. A marker at a block's end bounds nothing (fillers come from
// the same block only).
constexpr void strip_sched_barriers(function& fn, const isa_view& isa, vec<vec<uint8_t>>& fences) {
  const int nop_op = isa.find("s_nop");
  fences.assign(fn.blocks.size(), vec<uint8_t>{});
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    vec<instr>& list = fn.blocks[b].instrs;
    vec<uint8_t> keep(list.size(), 1);
    vec<uint8_t>& f = fences[b];
    bool pending = false, any = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const instr& in = list[i];
      if (static_cast<int>(in.op) == nop_op && in.num_operands == 1 && in.ops[0].k == operand::kind::imm &&
          (in.ops[0].value & detail::sched_barrier_bit)) {
        keep[i] = 0;
        pending = any = true;
        continue;
      }
      f.push_back(pending ? 1 : 0);
      pending = false;
    }
    if (any) detail::keep_marked(list, keep);
  }
}

// With `fill`, independent instructions take the place of s_nops and fill the slots before
// an s_waitcnt (fill_context); `fences` (per block and instruction: a sched_barrier before
// it) bound what moves. Returns how many instructions were issued early.
// Without `emit_nops` (the scheduling pass before allocation: registers numbered by
// pseudo_assign) only the fillers move; the wait states still count for what follows.
constexpr uint32_t insert_hazard_nops(function& fn_, const isa_view& isa_, const hazard_table& table_,
                                      bool fill = false, const vec<vec<uint8_t>>* fences = nullptr,
                                      bool emit_nops = true) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  const hazard_table& table = table_;
  using namespace detail;
  const int nop_op = isa.find("s_nop");
  const auto preds = predecessors(fn);
  const std::size_t nb = fn.blocks.size();
  vec<fact_seq> seqs(nb);
  opcode_kind_cache kinds(isa);
  uint32_t present = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    fact_seq& q = seqs[b];
    const vec<instr>& ins = fn.blocks[b].instrs;
    const std::size_t n = ins.size();
    q.facts.resize(n);
    q.reserve(n);
    hazard_facts* const facts = q.facts.data();  // raw: vec::operator[] is an interpreted call
    const instr* const in = ins.data();
    for (std::size_t i = 0; i < n; ++i) {
      fill_hazard_facts(facts[i], fn, isa, in[i], kinds);
      q.issue(static_cast<uint32_t>(i), facts[i]);
      present |= facts[i].kind;
    }
  }
  const active_rules rules(table, present);
  fill_context fc;
  fc.fences = fences;
  fc.max_wait = rules.max_wait > 1 ? rules.max_wait : 1;
  if (fill)
    for (std::size_t b = 0; b < nb; ++b)
      for (const hazard_facts& h : seqs[b].facts)
        if (h.kind & (hk_mem | hk_smem))
          for (int k = 0; k < h.ndefs; ++k) add_reg_bits(fc.async_regs, h.defs[k]);
  hazard_walker walker{&seqs, &preds, &rules};
  vec<uint32_t> subset_kind;
  vec<active_rules::subset> subsets;
  hazard_facts nop_facts;
  nop_facts.kind = hk_nop;
  const bool soft_clauses = table.soft_clauses && (present & (hk_smem | hk_vmem));
  // Per block: the soft-clause state at its end; blocks already rewritten hold their final
  // state (a block's entry state merges its predecessors').
  vec<soft_clause_state> clause_exit;
  if (soft_clauses) clause_exit = soft_clause_exits(seqs, preds);
  for (std::size_t b = 0; b < nb; ++b) {
    soft_clause_state clause;
    if (soft_clauses)
      for (uint32_t p : preds[b]) clause.merge(clause_exit[p]);
    const vec<instr>& ins = fn.blocks[b].instrs;
    vec<instr> out;
    fact_seq issued;
    issued.reserve(ins.size() + 8);
    walker.cur = static_cast<uint32_t>(b);
    walker.cur_out = &issued;
    std::size_t copied = 0;  // ins[copied, i) still to be appended to out (in one run)
    bool rebuilt = false;    // out holds the block with its s_nops
    const hazard_facts* const block_facts = seqs[b].facts.data();
    const std::size_t n_ins = ins.size();
    // Filling: instructions already issued early, and whether this block ends a loop.
    vec<uint8_t> taken, movable_of_;  // movable_of: 0 not known yet, 1 no, 2 yes
    bool loop_end = false;
    if (fill) {
      taken.assign(n_ins, 0);
      movable_of_.assign(n_ins, 0);
      for (uint32_t s2 : fn.blocks[b].succs) loop_end = loop_end || s2 <= b;
    }
    uint8_t* const movable_of = movable_of_.data();
    uint8_t* const tk = taken.data();  // (raw: a vec's operator[] is an interpreted call)
    const instr* const insp = ins.data();
    const uint8_t* const fence = fences && b < fences->size() && (*fences)[b].size() == n_ins ? (*fences)[b].data() : nullptr;
    // The wait states consumer C still needs where it would issue now, and the rule.
    auto need_of = [&](const hazard_facts& C) {
      hazard_need nd;
      if (C.is(hk_nop)) return nd;
      // Rule subsets depend on the consumer's kind only: computed once per kind.
      std::size_t si = 0;
      const uint32_t* const known = subset_kind.data();
      const std::size_t nk = subset_kind.size();
      while (si < nk && known[si] != C.kind) ++si;
      if (si == nk) {
        subset_kind.push_back(C.kind);
        subsets.push_back(rules.for_consumer(C));
      }
      active_rules::subset& sub = subsets.data()[si];
      if (sub.window > 0) walker.walk(C, sub, static_cast<uint32_t>(b), issued.size(), 0, 0, nd);
      return nd;
    };
    for (std::size_t i = 0; i < n_ins; ++i) {
      if (fill && tk[i]) {  // issued early as a filler
        out.append(ins.data() + copied, i - copied);
        copied = i + 1;
        continue;
      }
      const hazard_facts& C = block_facts[i];
      walker.cur_i = i;
      // Processed blocks are walked in their final form; later blocks (reached through a
      // back edge) still without their s_nops: fewer wait states, so never too few nops.
      hazard_need need = need_of(C);
      if (soft_clauses && need.wait == 0 && clause.need(C) > 0) need = {1, -2};
      bool waits = false;  // (a wait that waits: fillers go above it)
      if (fill && (isa.descs[insp[i].op].flags & isa::f_waitcnt)) {
        const waitcnt_counts wc = decode_waitcnt(insp[i]);
        waits = wc.vm + wc.lgkm < 63 + 15;
      }
      if (fill && (need.wait > 0 || waits) && !fill_context::barrier(isa, C, insp[i])) {
        int pulled = 0;
        while ((need.wait > 0 || (waits && pulled < fill_context::max_wait_fill))) {
          // The next filler: the first instruction within the window that may move here.
          std::size_t j = i + 1, seen = 0;
          bool found = false;
          for (; j < n_ins && seen < fill_context::window; ++j) {
            if (fence && fence[j]) break;  // a sched_barrier between
            if (tk[j]) continue;
            ++seen;
            const hazard_facts& F = block_facts[j];
            if (!movable_of[j]) movable_of[j] = fill_context::movable(isa, F, insp[j]) ? 2 : 1;
            bool ok = movable_of[j] == 2 && (!waits || need.wait > 0 || !fc.touches_async(F));
            if (ok && loop_end) {
              ok = static_cast<int>(n_ins - 1 - j) >= fc.max_wait;
              std::size_t pv = j, nx = j + 1;
              while (pv > i && tk[pv - 1]) --pv;
              while (nx < n_ins && tk[nx]) ++nx;
              if (ok && pv > i && nx < n_ins) {
                const uint32_t a = block_facts[pv - 1].kind, c = block_facts[nx].kind;
                if (((a & c) & hk_smem) || ((a & c) & hk_vmem)) ok = false;
              }
            }
            for (std::size_t x = i; ok && x < j; ++x) {
              if (tk[x]) continue;
              const hazard_facts& X = block_facts[x];
              if (fill_context::conflict(isa, F, insp[j], X, insp[x])) ok = false;
              else if ((isa.descs[insp[x].op].flags & isa::f_waitcnt) && fc.touches_async(F)) ok = false;
            }
            if (ok && need_of(F).wait == 0 && !(soft_clauses && clause.need(F) > 0)) {
              found = true;
              break;
            }
            if (fill_context::barrier(isa, F, insp[j])) break;
          }
          if (!found) break;
          if (!rebuilt) out.reserve(ins.size() + 8);
          rebuilt = true;
          out.append(ins.data() + copied, i - copied);
          copied = i;
          out.push_back(ins[j]);
          tk[j] = 1;
          ++fc.filled;
          ++pulled;
          const hazard_facts& F = block_facts[j];
          if (soft_clauses) clause.issue(F, false);
          issued.issue(static_cast<uint32_t>(j), F);
          need = need_of(C);
          if (soft_clauses && need.wait == 0 && clause.need(C) > 0) need = {1, -2};
        }
      }
      if (soft_clauses) clause.issue(C, need.wait > 0);  // any wait state ends a soft clause
      if (need.wait > 0 && nop_op >= 0 && emit_nops) {
        if (!rebuilt) out.reserve(ins.size() + 8);
        rebuilt = true;
        out.append(ins.data() + copied, i - copied);
        copied = i;
      }
      while (need.wait > 0 && nop_op >= 0) {
        const int n = need.wait > table.max_nop + 1 ? table.max_nop + 1 : need.wait;
        instr nop{};
        nop.op = static_cast<uint16_t>(nop_op);
        nop.num_operands = 1;
        nop.ops[0].k = operand::kind::imm;
        nop.ops[0].value = static_cast<uint64_t>(n - 1);
        nop.loc = ins[i].loc;
        nop.comment = need.rule >= 0 ? table.rules[need.rule].name : soft_clause_nop_name;
        if (emit_nops) out.push_back(nop);
        nop_facts.wait_states = static_cast<uint8_t>(n);
        issued.issue(fact_seq::no_facts, nop_facts);
        need.wait -= n;
      }
      issued.issue(static_cast<uint32_t>(i), C);
    }
    if (soft_clauses) clause_exit[b] = clause;
    if (rebuilt) {  // (else no s_nop here: the block stays as it is)
      out.append(ins.data() + copied, ins.size() - copied);
      fn.blocks[b].instrs = std::move(out);
    }
    issued.facts = std::move(seqs[b].facts);
    seqs[b] = std::move(issued);
    walker.cur = ~0u;
  }
  return fc.filled;
}

// Scheduling before register allocation (kernel_options::schedule). After allocation a
// filler nearly always shares a register with the instructions it would cross (the
// allocator gives a register back as soon as its value dies), so the fill runs on virtual
// registers: each vreg gets a pseudo physical number, a function of the vreg alone (two
// vregs may share one: a false conflict or a hazard that will not be, never a missed
// dependency), the hazard pass runs without inserting s_nops to move fillers into the
// gaps it finds, and the numbers are cleared. The real hazard pass after allocation then
// needs fewer s_nops where the fillers stayed between producer and consumer.
constexpr uint32_t schedule_fill(function& fn_, const isa_view& isa, const hazard_table& table,
                                 const vec<vec<uint8_t>>* fences) {
  function& fn = fn_;
  const std::size_t nv = fn.vregs.size();
  vreg_info* const vregs = fn.vregs.data();
  vec<int16_t> saved(nv, int16_t{-1});  // (a register placed before allocation keeps its place)
  uint32_t base = 0;
  for (std::size_t v = 0; v < nv; ++v) {
    vreg_info& vi = vregs[v];
    saved[v] = vi.phys;
    if (vi.phys >= 0) {
    } else if (vi.fixed >= 0) {
      vi.phys = vi.fixed;
    } else {
      const uint32_t room = (vi.cls == reg_class::sgpr ? 102u : 256u) - vi.dwords;
      const uint32_t a = vi.align ? vi.align : 1;
      vi.phys = static_cast<int16_t>(base % (room + 1) / a * a);
    }
    base += vi.dwords;
  }
  const uint32_t filled = insert_hazard_nops(fn, isa, table, true, fences, false);
  for (std::size_t v = 0; v < nv; ++v) vregs[v].phys = saved[v];
  return filled;
}

}  // namespace hipasm
