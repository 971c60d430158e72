// Instruction facts as data: what an instruction is, never how it is used.
// A target (gfx942, later gfx950) is a table of instr_desc plus limits and hazard data
// (see target.hpp); the builder, the passes and the emitter read only these fields.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hipasm::isa {

// Encoding family, as LLVM's gfx9 assembler names them.
enum class encoding : uint8_t {
  sop1, sop2, sopk, sopc, sopp, smem,
  vop1, vop2, vopc, vop3, vop3p, mfma /* VOP3P-MAI, incl. SMFMAC */,
  ds, flat, global, scratch, mubuf,
};

// What may stand in an operand slot: a bit mask.
enum operand_class : uint16_t {
  oc_sgpr = 1 << 0,     // s0..s101 (and vcc/exec/m0 where the encoding takes an SGPR)
  oc_vgpr = 1 << 1,
  oc_agpr = 1 << 2,
  oc_inline = 1 << 3,   // inline constant (-16..64, +-0.5/1/2/4, 1/(2pi))
  oc_literal = 1 << 4,  // 32-bit literal (never in VOP3/VOP3P on gfx9)
  oc_label = 1 << 5,    // branch target
  oc_simm16 = 1 << 6,   // 16-bit immediate field (SOPK, SOPP)
  oc_vcc = 1 << 7,      // only vcc (e32 carry-out/carry-in forms)
  oc_m0 = 1 << 8,
  oc_exec = 1 << 9,
  oc_scc = 1 << 10,
  oc_off = 1 << 11,     // the `off` keyword: no address register (global saddr, scratch, MUBUF vaddr)
};

// How an immediate in a slot is encoded (what is an inline constant, what a literal means).
enum class imm_kind : uint8_t {
  none,
  b32,          // 32-bit operand: inline -16..64 and the f32 inline floats; literal: any 32 bits
  f16,          // 16-bit float operand: inline -16..64 and the f16 inline floats; literal: 16 bits
  i16,          // 16-bit integer (or packed) operand: inline -16..64 only; literal: 16 bits
  b64,          // 64-bit integer operand: inline -16..64 and the f64 inline floats; literal: a
                // 32-bit value, sign-extended
  f64,          // 64-bit float operand: as b64 for inline; literal: the high 32 bits (low 32 zero)
  simm16,       // 16-bit immediate field (SOPK/SOPP): -32768..65535
  smem_offset,  // SMEM offset field: 21-bit signed byte offset
  label,        // branch target (block id in the IR)
  u4,           // 4-bit immediate field (s_set_gpr_idx_on / s_set_gpr_idx_mode): 0..15
};

// Source modifiers a slot accepts in its VOP3 form.
enum operand_mod : uint8_t { om_neg = 1 << 0, om_abs = 1 << 1 };

enum class operand_role : uint8_t { def, use, def_use };
enum class operand_width_by : uint8_t { fixed, cbsz, blgp };

// Registers of an f8f6f4 MFMA's A or B operand by its format code (cbsz / blgp: 0 fp8 e4m3,
// 1 bf8 e5m2, 2 fp6 e2m3, 3 bf6 e3m2, 4 fp4 e2m1; 0 for the codes that name no format).
constexpr uint8_t f8f6f4_dwords(unsigned code) { return code <= 1 ? 8 : code <= 3 ? 6 : code == 4 ? 4 : 0; }

struct operand_desc {
  operand_role role;
  uint16_t classes;  // operand_class mask (union over the instruction's forms)
  uint8_t dwords;    // register width in dwords (1, 2, 3, 4, 8, 16, 32)
  uint16_t classes_e32 = 0;  // VOP1/VOP2/VOPC with both forms: what the 32-bit form accepts
  imm_kind imm = imm_kind::none;
  uint8_t src_mods = 0;      // operand_mod mask
  uint8_t dwords_alt = 0;    // global vaddr: width when saddr is an SGPR (0: no alternative)
  // The modifier whose format code sets the width (gfx950's f8f6f4 MFMAs: A by cbsz, B by
  // blgp; f8f6f4_dwords), learnt from llvm-mc by tools/gen_isa_table.py.
  operand_width_by width_by = operand_width_by::fixed;
};

// Properties the passes need. Implicit register reads/writes are listed here so
// liveness and hazards see them without knowing mnemonics.
enum instr_flag : uint64_t {
  f_salu = 1ull << 0, f_valu = 1ull << 1, f_smem = 1ull << 2, f_vmem = 1ull << 3,
  f_ds = 1ull << 4, f_flat = 1ull << 5, f_mfma = 1ull << 6, f_xdl = 1ull << 7,
  f_dgemm = 1ull << 8, f_trans = 1ull << 9,
  f_load = 1ull << 10, f_store = 1ull << 11, f_atomic = 1ull << 12,
  f_branch = 1ull << 13, f_terminator = 1ull << 14, f_barrier = 1ull << 15,
  f_waitcnt = 1ull << 16 /* s_waitcnt itself (its simm16 holds the counters) */, f_side_effect = 1ull << 17,
  f_reads_exec = 1ull << 18, f_writes_exec = 1ull << 19,
  f_reads_vcc = 1ull << 20, f_writes_vcc = 1ull << 21,
  f_reads_scc = 1ull << 22, f_writes_scc = 1ull << 23,
  f_reads_m0 = 1ull << 24, f_writes_m0 = 1ull << 25,
  f_has_e64 = 1ull << 26,   // has a VOP3 form (VOP1/VOP2/VOPC promoted)
  f_has_dpp = 1ull << 27, f_has_sdwa = 1ull << 28,
  f_cmpx = 1ull << 29,      // v_cmpx_*: writes EXEC
  f_lds_dma = 1ull << 30,
  f_readlane = 1ull << 31,  // v_readlane/v_readfirstlane/v_writelane
  f_permlane = 1ull << 32,
  f_lgkm = 1ull << 33,      // counts on lgkmcnt
  f_vm = 1ull << 34,        // counts on vmcnt
  f_can_read_agpr = 1ull << 35,  // sources may be AGPRs (else a2v copies them)
  f_acc_tied = 1ull << 36,  // data/result operands are all VGPRs or all AGPRs (one acc bit)
  f_returns = 1ull << 37,   // flat/global atomic returning the old value (printed with sc0)
  f_needs_gds = 1ull << 38, // exists only with gds (ds_gws_*): the mnemonic sets it
  // LLVM's getFPDstSelType: a convert writing the byte of vdst that op_sel[3:2] selects (FP8),
  // and the stochastic fp4 pairs (FP4): the dst-forwarding hazards (passes/hazards.hpp)
  f_cvt_byte_sel = 1ull << 39, f_cvt_sr_fp4 = 1ull << 40,
};

// Modifier kinds an instruction accepts (bit mask), checked by the builder.
enum modifier_kind : uint32_t {
  m_offset = 1 << 0, m_offset01 = 1 << 1, m_glc = 1 << 2, m_slc = 1 << 3, m_nt = 1 << 4,
  m_sc0 = 1 << 5, m_sc1 = 1 << 6, m_lds = 1 << 7, m_idxen = 1 << 8, m_offen = 1 << 9,
  m_clamp = 1 << 10, m_omod = 1 << 11, m_neg_abs = 1 << 12, m_op_sel = 1 << 13,
  m_op_sel_hi = 1 << 14, m_neg_lo_hi = 1 << 15, m_dpp = 1 << 16, m_sdwa = 1 << 17,
  m_cbsz_abid_blgp = 1 << 18, m_gds = 1 << 19, m_waitcnt = 1 << 20,
  m_blgp = 1 << 21,      // blgp: (m_cbsz_abid_blgp covers cbsz/abid; f64 MFMA and SMFMAC have no blgp)
  m_sdwa_dst = 1 << 22,  // the SDWA form has dst_sel/dst_unused (not v_cvt_*_fp8/bf8)
  m_abid = 1 << 23,      // abid: (gfx950's f8f6f4 MFMAs take cbsz and blgp, not abid)
  m_bitop3 = 1 << 24,    // bitop3: (gfx950's v_bitop3_b32 / _b16)
};

// What the hazard rules tell apart by instruction beyond the flags (LLVM's GCNHazardRecognizer
// tests these opcodes by name): data of each target's table, set by tools/gen_isa_table.py,
// so that the hazard pass compares no mnemonics.
enum hazard_class : uint16_t {
  hc_smfmac = 1 << 0, hc_dpp = 1 << 1, hc_cmpx = 1 << 2, hc_setreg = 1 << 3, hc_getreg = 1 << 4,
  hc_rfe = 1 << 5, hc_div_fmas = 1 << 6, hc_dot = 1 << 7,
  hc_readlane = 1 << 8, hc_readfirstlane = 1 << 9, hc_writelane = 1 << 10,
  hc_permlane = 1 << 11, hc_fma64 = 1 << 12 /* v_fma_f64, v_fmac_f64 */,
  hc_mem_store = 1 << 13 /* a memory store or atomic by name */, hc_nop = 1 << 14,
  hc_m0_user = 1 << 15 /* s_movrel*, ds_*_addtid_b32, s_sendmsg*, s_ttracedata */,
};

inline constexpr int max_operands = 6;

struct instr_desc {
  std::string_view name;  // mnemonic as llvm-mc-22 spells it for the target
  encoding enc;
  uint8_t num_operands;   // in assembler order: defs first, as printed by llvm-mc
  operand_desc operands[max_operands];
  uint64_t flags;         // instr_flag mask
  uint32_t modifiers;     // modifier_kind mask
  uint8_t mfma_passes;    // the target's pass count, 0 if not MFMA
  uint8_t op_sel_len = 0;     // entries printed in op_sel:[...] (VOP3: sources + dst)
  uint8_t op_sel_hi_len = 0;  // entries in op_sel_hi:/neg_lo:/neg_hi:[...] (sources)
  uint16_t hazard = 0;        // hazard_class mask

  constexpr bool has(uint64_t f) const { return (flags & f) != 0; }
  constexpr bool accepts(uint32_t m) const { return (modifiers & m) != 0; }
};

// Binary search of a table sorted by mnemonic (every target's table is: tests/isa checks
// it): the first entry with that name (the base form of _rtn/_lds variants), or nullptr.
constexpr const instr_desc* find_sorted(const instr_desc* table, std::size_t count, std::string_view name) {
  std::size_t lo = 0, hi = count;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (table[mid].name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && table[lo].name == name ? &table[lo] : nullptr;
}

}  // namespace hipasm::isa
