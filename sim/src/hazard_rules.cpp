// gfx942 hazard table of the simulator's checker (see hazard_rules.hpp). Every row is from
// ../shared/reference/gfx942.md; the rows it marks (verify) and all MFMA numbers were checked
// against LLVM's GCNHazardRecognizer.cpp (checkVMEMHazards, checkDPPHazards,
// checkDivFMasHazards, checkRWLaneHazards, checkGetRegHazards/checkSetRegHazards,
// checkReadM0Hazards, checkVALUHazards with hasVDecCoExecHazard/hasTransForwardingHazard/
// hasDstSelForwardingHazard/has12DWordStoreHazard, checkMAIHazards90A, checkMAIVALUHazards).
// Notes from that check:
// - ">64-bit store": LLVM applies it to FLAT/GLOBAL/SCRATCH stores and atomics with more than
//   64 bits of data, and to MUBUF ones only when soffset is not an SGPR; 2 wait states on gfx940.
// - "VALU writes VCC/EXEC -> VALU reads VCCZ/EXECZ" (5) is the ISA manual's row; LLVM has no
//   check for it (it never emits src_vccz/src_execz as VALU data). Kept from the reference.
// - "v_permlane*" (2) does not fire on gfx942: the instructions are gfx10+/gfx950. Kept.
// - "v_cmpx -> VALU reads EXEC explicitly" (2) is LLVM's VALU-writes-SGPR row (hasVDecCoExecHazard:
//   any explicit SGPR-class source, EXEC and M0 included): valu-sgpr-valu covers it.
// - VMEM/FLAT read EXEC implicitly: a VALU writing EXEC (v_cmpx) needs 5 wait states before
//   one (LLVM's checkVMEMHazards; llc-22 puts s_nop 4 between v_cmpx and global_load).
// - DGEMM numbers (not in gfx942.md's table, which says "DGEMM has its own numbers") are
//   LLVM's: SrcC overlap 9 (16x16) / 4 (4x4) unless the consumer is XDL (0), same SrcC 4x4->4x4
//   4, SrcA/B 11 / 6, VALU read 11 / 6, memory read 18 / 9, write after write 11 / 6.
// - v_dot rules (3 wait states) are LLVM's checkMAIVALUHazards rows for gfx90a+, not in
//   gfx942.md; they are included because gfx942 runs them.
// - s_nop N counts N+1 wait states for N up to 15 (SIMM16[3:0]), as LLVM counts it
//   (getNumWaitStates) and emits it: llc-22 writes "s_nop 15" (16 wait states) after a
//   16-pass MFMA on gfx942; hipasm's pass uses the same maximum.
// - The producer/consumer opcode classes of every rule are compared with hipasm's and with
//   LLVM 22's by tests/sim/test_hazard_sets.cpp over every gfx942 opcode.
#include "hazard_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace hipasm::sim::hz {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

bool to_range(const Operand& op, Range& r) {
  uint16_t n = std::max<uint16_t>(op.dwords, 1);
  switch (op.kind) {
    case Operand::Sgpr: r = {FS, op.reg, uint16_t(op.reg + n)}; return true;
    case Operand::Vgpr: r = {FV, op.reg, uint16_t(op.reg + n)}; return true;
    case Operand::Agpr: r = {FV, uint16_t(256 + op.reg), uint16_t(256 + op.reg + n)}; return true;
    case Operand::Vcc: r = {FVCC, op.reg, uint16_t(op.reg + n)}; return true;
    case Operand::Exec: r = {FEXEC, op.reg, uint16_t(op.reg + n)}; return true;
    case Operand::M0: r = {FM0, 0, 1}; return true;
    case Operand::Special:
      // flat_scratch, xnack_mask, ttmp*: SGPR-file registers at their encoding index.
      if (op.reg >= 102 && op.reg < 128) { r = {FS, op.reg, uint16_t(op.reg + n)}; return true; }
      return false;
    default: return false;
  }
}

constexpr std::string_view kTrans[] = {
    "v_exp_f32", "v_log_f32", "v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32",
    "v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", "v_sin_f32", "v_cos_f32", "v_exp_legacy_f32",
    "v_log_legacy_f32", "v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_log_f16", "v_exp_f16",
    "v_sin_f16", "v_cos_f16"};

}  // namespace

int mfma_passes(std::string_view m) {
  std::string_view rest;
  if (starts_with(m, "v_mfma_scale_")) rest = m.substr(13);  // gfx950 scaled f8f6f4
  else if (starts_with(m, "v_mfma_")) rest = m.substr(7);
  else if (starts_with(m, "v_smfmac_")) rest = m.substr(9);
  else return 0;
  bool f64 = starts_with(rest, "f64_");
  size_t us = rest.find('_');
  if (us == std::string_view::npos) return 0;
  rest = rest.substr(us + 1);  // "<M>x<N>x<K>..."
  int dims[3] = {0, 0, 0};
  size_t i = 0;
  for (int d = 0; d < 3; ++d) {
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])))
      dims[d] = dims[d] * 10 + (rest[i++] - '0');
    if (d < 2) {
      if (i >= rest.size() || rest[i] != 'x') return 0;
      ++i;
    }
  }
  int M = dims[0], K = dims[2];
  bool xf32 = m.find("xf32") != std::string_view::npos;
  if (f64) return M == 16 ? 8 : 4;
  if (M == 4) return 2;
  if (M == 16) return (K == 1 || K == 2 || K == 4) ? 8 : 4;
  if (M == 32) return ((K == 1 || K == 2 || K == 4) && !xf32) ? 16 : 8;
  return 0;
}

InstInfo classify(const Inst& in) {
  InstInfo info;
  std::string_view m = in.mnemonic;
  info.mnemonic = m;
  uint64_t& f = info.flags;
  switch (in.format) {
    case Format::SOP1: case Format::SOP2: case Format::SOPK: case Format::SOPC: case Format::SOPP:
      f |= SALU; break;
    case Format::SMEM: f |= SMEM; break;
    case Format::VOP1: case Format::VOP2: case Format::VOPC: case Format::VOP3:
    case Format::VOP3P: case Format::MFMA:
      f |= VALU; break;
    case Format::DS: f |= DS; break;
    case Format::FLAT: f |= FLAT; break;
    case Format::GLOBAL: case Format::SCRATCH: case Format::MUBUF: f |= VMEM; break;
  }
  if (starts_with(m, "v_mfma_") || starts_with(m, "v_smfmac_")) {
    f |= VALU | MFMA;
    info.passes = uint8_t(mfma_passes(m));
    if (info.passes == 0) info.passes = in.mfma_passes ? in.mfma_passes : 16;
    // gfx950 f8f6f4: twice the passes with an FP8/BF8 input, cbsz or blgp <= 1
    // (SISchedule.td PredIsF8_MFMA_SCALE).
    if (m.find("_f8f6f4") != std::string_view::npos && (in.mod.cbsz <= 1 || in.mod.blgp <= 1))
      info.passes = uint8_t(info.passes * 2);
    if (starts_with(m, "v_mfma_f64_")) f |= DGEMM;
    else if (starts_with(m, "v_smfmac_")) f |= XDL;
    else if (!(starts_with(m, "v_mfma_f32_") && ends_with(m, "f32") && m.find("xf32") == std::string_view::npos))
      f |= XDL;
  }
  if (starts_with(m, "v_dot")) f |= DOT;
  for (auto t : kTrans)
    if (m == t) f |= TRANS;
  if (in.mod.dpp) f |= DPP;
  if (f & VALU) {
    // LLVM's hasDstSelForwardingHazard: SDWA dst_sel != DWORD, or the VOP3 op_sel dst bit.
    // Not VOP3P: LLVM 22 tests src0_modifiers bit 3, VOP3P's op_sel_hi[0] (set by default),
    // and so pads every packed op read at once; AMD's production asm (aiter, gfx942) reads
    // v_pk_* results at once thousands of times: no hardware hazard.
    if (in.mod.sdwa && in.mod.dst_sel != 6) f |= DST_PARTIAL;
    if (!in.mod.sdwa && in.format == Format::VOP3 && (in.mod.op_sel & 8)) f |= DST_PARTIAL;
  }
  // The converts writing the byte of vdst that op_sel[3:2] selects (LLVM's FP8 dst-select
  // kind): byte 1 or 3 (op_sel[2]) is a partial write too, on gfx942 as on gfx950 (llc-22
  // -mcpu=gfx942: s_nop 0 after v_cvt_sr_fp8_f32 op_sel:[0,0,1,0] before a VALU reads it).
  const bool byte_select = starts_with(m, "v_cvt_scalef32_sr_fp8_") || starts_with(m, "v_cvt_scalef32_sr_bf8_") ||
                           starts_with(m, "v_cvt_scalef32_pk_fp4_") || m == "v_cvt_sr_fp8_f32" ||
                           m == "v_cvt_sr_bf8_f32";
  if ((f & VALU) && byte_select && in.format == Format::VOP3 && (in.mod.op_sel & 4)) f |= DST_PARTIAL;
  if (starts_with(m, "v_cmpx_")) f |= CMPX;
  if (m == "v_readlane_b32") f |= READLANE;
  if (m == "v_readfirstlane_b32") f |= READFIRSTLANE;
  if (m == "v_writelane_b32") f |= WRITELANE;
  if (starts_with(m, "v_permlane")) f |= PERMLANE;
  // gfx950's scaled converts that write one byte of vdst (op_sel[3:2] != 0) and every
  // stochastic fp4 pair: the next VALU touching vdst needs 1 wait state (LLVM's
  // hasCvtScaleForwardingHazard / getDstSelForwardingOperand; llc-22 -mcpu=gfx950 puts s_nop 0
  // after v_cvt_scalef32_sr_fp8_f32 op_sel:[0,0,1,0] and v_cvt_scalef32_sr_pk_fp4_f32, none
  // after byte 0).
  if (starts_with(m, "v_cvt_scalef32_sr_pk_fp4_") || (byte_select && (in.mod.op_sel & 0xc)))
    f |= CVT_FWD;
  if (starts_with(m, "v_div_fmas_")) f |= DIV_FMAS;
  if (m == "v_fma_f64" || m == "v_fmac_f64") f |= FMA64;
  if (m == "s_setreg_b32" || m == "s_setreg_imm32_b32") {
    f |= SETREG;
    info.hwreg = int16_t(in.mod.simm16 & 0x3f);
  }
  if (m == "s_rfe_b64") {
    f |= RFE;
    info.hwreg = 3;  // TRAPSTS
  }
  if (m == "s_getreg_b32") {
    f |= GETREG;
    info.hwreg = int16_t(in.mod.simm16 & 0x3f);
  }
  bool lds_dma = starts_with(m, "global_load_lds_") || starts_with(m, "scratch_load_lds_") || ((f & VMEM) && in.mod.lds);
  if (starts_with(m, "s_sendmsg") || m == "s_ttracedata" || starts_with(m, "s_movrel") ||
      ((f & DS) && (in.mod.gds || m.find("_addtid_") != std::string_view::npos ||
                    starts_with(m, "ds_gws_"))) ||
      lds_dma)
    f |= M0_READER;
  // LLVM's LDS-DMA loads are VALU too (isLdsDma: isVALU && MUBUF/FLAT): a VALU consumer of
  // the VALU rules (llc-22: v_exp_f32 v1; s_nop 0; buffer_load_dword v1 ... lds).
  if (lds_dma) f |= VALU;
  if (m == "s_nop") {
    f |= NOP;
    info.wait_states = uint8_t((in.mod.simm16 & 0xf) + 1);
  }

  // Registers.
  Range r;
  for (int i = 0; i < in.num_dst && i < int(in.dst.size()); ++i) {
    const Operand& op = in.dst[i];
    if (!to_range(op, r)) continue;
    info.defs.push_back(r);
    if (r.file == FEXEC) f |= WRITES_EXEC;
    if (r.file == FVCC) f |= WRITES_VCC;
    if (r.file == FM0) f |= WRITES_M0;
  }
  if ((in.cls & C_WRITES_VCC) && !(f & WRITES_VCC)) { info.defs.push_back({FVCC, 0, 2}); f |= WRITES_VCC; }
  if ((in.cls & C_WRITES_EXEC) && !(f & WRITES_EXEC)) { info.defs.push_back({FEXEC, 0, 2}); f |= WRITES_EXEC; }
  if ((in.cls & C_WRITES_M0) && !(f & WRITES_M0)) { info.defs.push_back({FM0, 0, 1}); f |= WRITES_M0; }
  if (f & CMPX) {  // v_cmpx always writes EXEC
    if (!(f & WRITES_EXEC)) info.defs.push_back({FEXEC, 0, 2});
    f |= WRITES_EXEC;
  }
  bool reads_vcc = false, reads_m0 = false;
  for (int i = 0; i < in.num_src && i < int(in.src.size()); ++i) {
    const Operand& op = in.src[i];
    if (op.kind == Operand::Special && op.reg == 251) f |= READS_VCCZ;
    if (op.kind == Operand::Special && op.reg == 252) f |= READS_EXECZ;
    if (op.kind == Operand::Exec) f |= READS_EXEC;
    if (!to_range(op, r)) continue;
    info.uses.push_back(r);
    if (r.file == FVCC) reads_vcc = true;
    if (r.file == FM0) reads_m0 = true;
    if (i == 0) { info.has_src0 = true; info.src0 = r; }
    if (i == 1) { info.has_src1 = true; info.src1 = r; }
  }
  // Every VMEM/FLAT instruction reads EXEC (LLVM: an implicit use; checkVMEMHazards counts it).
  if (f & (VMEM | FLAT)) info.uses.push_back({FEXEC, 0, 2});
  if ((in.cls & C_READS_VCC) && !reads_vcc) info.uses.push_back({FVCC, 0, 2});
  if ((in.cls & C_READS_M0) && !reads_m0) info.uses.push_back({FM0, 0, 1});
  // v_permlane16/32_swap: both operands are read and written (vdst is a tied input).
  if (starts_with(m, "v_permlane16_swap") || starts_with(m, "v_permlane32_swap")) {
    if (in.num_dst > 0 && to_range(in.dst[0], r)) info.uses.push_back(r);
    if (to_range(in.src[0], r)) info.defs.push_back(r);
  }
  if (f & MFMA) {
    if (in.num_dst > 0 && to_range(in.dst[0], r)) { info.has_mfma_dst = true; info.mfma_dst = r; }
    if (to_range(in.src[0], r)) { info.has_srcA = true; info.srcA = r; }
    if (to_range(in.src[1], r)) { info.has_srcB = true; info.srcB = r; }
    if (to_range(in.src[2], r)) { info.has_srcC = true; info.srcC = r; }
  }
  if (f & DOT) {
    if (in.num_dst > 0 && to_range(in.dst[0], r)) { info.has_mfma_dst = true; info.mfma_dst = r; }
    if (to_range(in.src[0], r)) { info.has_srcA = true; info.srcA = r; }
    if (to_range(in.src[1], r)) { info.has_srcB = true; info.srcB = r; }
  }
  // > 64-bit store data (stores and atomics, which write memory).
  bool writes_mem = m.find("_store") != std::string_view::npos || m.find("_atomic_") != std::string_view::npos;
  if (writes_mem && (f & (VMEM | FLAT)) && to_range(in.src[1], r) && r.file == FV) {
    info.has_store_data = true;
    info.store_data = r;
    bool soffset_reg = in.format == Format::MUBUF && in.src[3].kind == Operand::Sgpr;
    if (r.hi - r.lo > 2 && !soffset_reg) f |= BIG_STORE;
  }
  // llc-22 puts no s_nop between a load and s_dcache_wb / buffer_wbl2 / buffer_inv.
  if ((writes_mem || lds_dma) && (f & (SMEM | VMEM | FLAT))) f |= MAY_STORE;
  info.is_waitcnt = m == "s_waitcnt";
  info.is_barrier = m == "s_barrier";
  auto all = rules();
  for (size_t i = 0; i < all.size(); ++i)
    if (matches(f, all[i].cons_all, all[i].cons_any, all[i].cons_none)) info.consumer_rules.push_back(uint8_t(i));
  return info;
}

namespace {
constexpr uint64_t kMem = VMEM | FLAT | DS;

// clang-format off
constexpr Rule kRules[] = {
  // id, prod_all, prod_any, prod_none, cons_all, cons_any, cons_none, rel, wait, n, window, text
  {"valu-sgpr-vmem", VALU, 0, 0, 0, VMEM | FLAT, 0, Rel::SgprDefUse, Wait::Fixed, 5, 5,
   "VMEM reads an SGPR/VCC/EXEC/M0 written by a VALU less than 5 wait states before"},
  {"vcc-div-fmas", VALU, 0, 0, DIV_FMAS, 0, 0, Rel::VccDef, Wait::Fixed, 4, 4,
   "v_div_fmas reads VCC written by a VALU less than 4 wait states before"},
  {"sgpr-lane-select", VALU, 0, 0, 0, READLANE | WRITELANE, 0, Rel::LaneSelect, Wait::Fixed, 4, 4,
   "lane-select SGPR written by a VALU less than 4 wait states before"},
  {"setreg-getreg", SETREG, 0, 0, 0, GETREG | SETREG, 0, Rel::SameHwReg, Wait::Fixed, 2, 2,
   "hardware register accessed less than 2 wait states after s_setreg of it"},
  {"setreg-rfe", SETREG, 0, 0, RFE, 0, 0, Rel::SameHwReg, Wait::Fixed, 1, 1,
   "s_rfe_b64 right after s_setreg of TRAPSTS (needs 1 wait state)"},
  {"salu-m0", SALU, 0, 0, M0_READER, 0, 0, Rel::M0Def, Wait::Fixed, 1, 1,
   "M0 read (s_sendmsg/GDS/addtid/s_movrel/LDS-DMA) right after an SALU wrote it (needs 1 wait state)"},
  {"vgpr-dpp", 0, 0, 0, DPP, 0, 0, Rel::VgprDefUse, Wait::Fixed, 2, 2,
   "DPP reads a VGPR written less than 2 wait states before"},
  {"exec-dpp", VALU, 0, 0, DPP, 0, 0, Rel::ExecDef, Wait::Fixed, 5, 5,
   "DPP less than 5 wait states after a VALU wrote EXEC"},
  {"big-store-data", BIG_STORE, 0, 0, VALU, 0, 0, Rel::StoreDataDef, Wait::Fixed, 2, 2,
   "VALU overwrites the data VGPRs of a >64-bit store less than 2 wait states after it"},
  {"vcc-exec-z", VALU, 0, 0, VALU, READS_VCCZ | READS_EXECZ, 0, Rel::VccExecDefZ, Wait::Fixed, 5, 5,
   "VALU reads VCCZ/EXECZ less than 5 wait states after a VALU wrote VCC/EXEC"},
  {"valu-sgpr-valu", VALU, 0, 0, VALU, 0, 0, Rel::SgprVccDefUse, Wait::Fixed, 2, 2,
   "VALU reads an SGPR/VCC/EXEC/M0 written by a VALU less than 2 wait states before"},
  {"exec-readlane", VALU, 0, 0, 0, READLANE | READFIRSTLANE | WRITELANE, 0, Rel::ExecDef, Wait::Fixed, 4, 4,
   "v_readlane/v_readfirstlane/v_writelane less than 4 wait states after a VALU wrote EXEC"},
  {"vgpr-readlane-src0", VALU, 0, 0, 0, READLANE | READFIRSTLANE, 0, Rel::VgprDefSrc0, Wait::Fixed, 1, 1,
   "v_readlane/v_readfirstlane reads a VGPR the previous VALU wrote (needs 1 wait state)"},
  {"trans-use", TRANS, 0, 0, VALU, 0, TRANS, Rel::VgprDefUse, Wait::Fixed, 1, 1,
   "VALU reads a transcendental result right after it (needs 1 wait state)"},
  {"dst-partial-use", VALU | DST_PARTIAL, 0, 0, VALU, 0, 0, Rel::VgprDefUse, Wait::Fixed, 1, 1,
   "VALU reads a result written with SDWA dst_sel/op_sel dst-high right after it (needs 1 wait state)"},
  {"vgpr-permlane", VALU, 0, 0, PERMLANE, 0, 0, Rel::VgprDefUse, Wait::Fixed, 2, 2,
   "v_permlane reads a VGPR written by a VALU less than 2 wait states before"},
  // gfx950 only (LLVM's checkPermlaneHazards, hasCvtScaleForwardingHazard).
  // Any VALU writing EXEC, not only v_cmpx (llc-22: `$exec = V_CMP_EQ_U32_e64` then a swap: S_NOP 3).
  {"cmpx-permlane", VALU, 0, 0, PERMLANE, 0, 0, Rel::ExecDef, Wait::Fixed, 4, 4,
   "v_permlane less than 4 wait states after a VALU (v_cmpx) wrote EXEC", kGfx950Only},
  {"cvt-scale-forward", VALU | CVT_FWD, 0, 0, VALU, 0, 0, Rel::VgprDefUseDef, Wait::Fixed, 1, 1,
   "VALU reads or writes the result of a byte-select / stochastic fp4 scaled convert right after it "
   "(needs 1 wait state)", kGfx950Only},
  // MFMA (gfx940 paths).
  {"exec-mfma", VALU, 0, MFMA, MFMA, 0, 0, Rel::ExecDef, Wait::Fixed, 4, 4,
   "MFMA less than 4 wait states after a VALU wrote EXEC"},
  {"valu-vgpr-mfma", VALU, 0, MFMA | DOT, MFMA, 0, 0, Rel::VgprDefUse, Wait::Fixed, 2, 2,
   "MFMA reads a VGPR written by a VALU less than 2 wait states before"},
  {"mfma-srcc", MFMA, 0, 0, MFMA, 0, 0, Rel::MfmaSrcC, Wait::SrcC, 0, 19,
   "MFMA reads as SrcC the result of an MFMA still in flight"},
  {"mfma-srcab", MFMA, 0, 0, MFMA, 0, 0, Rel::MfmaSrcAB, Wait::SrcAB, 0, 20,
   "MFMA reads as SrcA/B the result of an MFMA still in flight"},
  {"mfma-read", MFMA, 0, 0, 0, VALU | kMem, MFMA, Rel::MfmaDefUse, Wait::ReadAfterMfma, 0, 20,
   "reads the result of an MFMA still in flight"},
  {"mfma-waw", MFMA, 0, 0, 0, VALU | kMem, MFMA, Rel::MfmaDefDef, Wait::WawAfterMfma, 0, 20,
   "overwrites the destination of an MFMA still in flight"},
  {"mfma-srcc-war", MFMA | XDL, 0, DGEMM, 0, VALU | kMem, MFMA, Rel::SrcCDef, Wait::WarSrcC, 0, 15,
   "overwrites a register an XDL MFMA still reads as SrcC"},
  {"dgemm-fma64", DGEMM, 0, 0, FMA64, 0, 0, Rel::None, Wait::Fixed, 2, 2,
   "v_fma_f64/v_fmac_f64 less than 2 wait states after a DGEMM"},
  // v_dot (LLVM checkMAIVALUHazards, gfx90a+).
  {"dot-same-srcab", DOT, 0, 0, DOT, 0, 0, Rel::DotDefSrcAB, Wait::Fixed, 3, 3,
   "v_dot reads as SrcA/B the result of the same v_dot less than 3 wait states before"},
  {"dot-read-other", DOT, 0, 0, 0, VALU | kMem, MFMA, Rel::DotDefUseOther, Wait::Fixed, 3, 3,
   "reads a v_dot result less than 3 wait states after it"},
  {"dot-write-other", DOT, 0, 0, 0, VALU | kMem, MFMA, Rel::DotDefDefOther, Wait::Fixed, 3, 3,
   "overwrites a v_dot result less than 3 wait states after it"},
};
// clang-format on
}  // namespace

std::span<const Rule> rules() { return kRules; }

uint64_t producer_key_flag(const Rule& r) {
  // Rarest first: these kinds are a small part of any instruction stream.
  constexpr uint64_t order[] = {SETREG, BIG_STORE, CMPX, CVT_FWD, DGEMM, DOT, TRANS, MFMA, XDL, DST_PARTIAL, SALU, VALU};
  for (uint64_t f : order)
    if (r.prod_all & f) return f;
  return 0;
}

// Rows by Target::index. gfx942: NP+1 / 3 (SrcC), NP+3 / 5 (reads), f64 16x16x4 11 and 9.
// gfx950: 4/6/10/18 for an XDL SrcC (3 for a 2-pass XDL feeding a non-XDL MFMA), 5/8/12/20 for
// reads, f64 16x16x4 19 and 17 (gfx950.md section 4; llc-22: accvgpr_read after a 16x16x16 bf16
// s_nop 7 on gfx950, s_nop 6 on gfx942).
constexpr MfmaWaits kMfmaWaits[] = {
    {1, 3, 3, 5, 11, 9},   // gfx942
    {2, 3, 4, 5, 19, 17},  // gfx950
};
static_assert(std::size(kMfmaWaits) == 2, "one row per target of all_targets()");

const MfmaWaits& mfma_waits(const Target& t) { return kMfmaWaits[size_t(t.index)]; }

int required_wait_states(const Rule& r, const InstInfo& p, const InstInfo& c, bool same, const MfmaWaits& t) {
  int np = p.passes;
  bool p_xdl = p.flags & XDL, p_dgemm = p.flags & DGEMM, c_xdl = c.flags & XDL;
  bool p_dgemm16 = p_dgemm && np >= 8;
  switch (r.wait) {
    case Wait::Fixed: return r.n;
    case Wait::SrcC:
      if (same) {
        if (p_dgemm && (c.flags & DGEMM) && np == 4 && c.passes == 4) return 4;
        return (!p_dgemm && np == 2) ? 2 : 0;
      }
      if (p_dgemm) return c_xdl ? 0 : (p_dgemm16 ? t.dgemm16_srcc : 4);
      if (p_xdl) return np == 2 && !c_xdl ? t.xdl2_srcc_nonxdl : np + t.xdl_srcc_extra;
      return c_xdl ? 0 : np;
    case Wait::SrcAB:
      if (p_dgemm) return p_dgemm16 ? t.dgemm16_read : 6;
      return p_xdl ? (np == 2 ? t.xdl2_read : np + t.xdl_read_extra) : np + 2;
    case Wait::ReadAfterMfma: {
      bool mem = c.flags & (VMEM | FLAT | DS);
      if (p_dgemm) return mem ? (p_dgemm16 ? 18 : 9) : (p_dgemm16 ? t.dgemm16_read : 6);
      return p_xdl ? (np == 2 ? t.xdl2_read : np + t.xdl_read_extra) : np + 2;
    }
    case Wait::WawAfterMfma:
      if (p_dgemm) return p_dgemm16 ? 11 : 6;
      return p_xdl ? (np == 2 ? t.xdl2_read : np + t.xdl_read_extra) : np + 2;
    case Wait::WarSrcC:
      return np <= 2 ? 1 : np <= 4 ? 3 : np <= 8 ? 7 : 15;
  }
  return 0;
}

}  // namespace hipasm::sim::hz
