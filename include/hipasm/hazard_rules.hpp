// The shape of a target's hazard data: which producer/consumer pairs need wait states and
// how many. Each target's table is in targets/<arch>/hazard_rules.hpp. Which opcodes each rule
// takes as producer and consumer is hazard_rule_kinds (passes/hazards.hpp);
// tests/sim/test_hazard_sets.cpp enumerates them over every opcode against the simulator's
// table and a list written from LLVM 22's recognizer.
//
// Each rule names a check (`hazard_check`, evaluated by passes/hazards.hpp and by the
// independent verifier in verify.hpp) and its wait states, indexed by the producer's MFMA
// pass count: [0] for a non-MFMA producer, [1..4] for 2, 4, 8 and 16 passes. A second
// target (gfx950 adds one wait state to several MFMA rows) is another table, not new code.
#pragma once
#include <cstdint>
#include <string_view>

namespace hipasm {

enum class hazard_check : uint8_t {
  valu_sgpr_then_vmem,       // VALU writes an SGPR, VMEM/FLAT reads it
  valu_vcc_then_div_fmas,    // VALU writes VCC, v_div_fmas reads it
  valu_sgpr_then_lane_sel,   // VALU writes an SGPR, v_readlane/v_writelane selects a lane with it
  setreg_then_getreg,        // s_setreg, then s_getreg/s_setreg of the same hardware register
  setreg_then_rfe,           // s_setreg of TRAPSTS, then s_rfe_b64
  salu_m0_then_m0_user,      // SALU writes M0, then s_sendmsg/GDS/s_movrel/LDS-DMA/addtid read it
  vgpr_then_dpp,             // VALU writes a VGPR, a DPP instruction reads it
  valu_exec_then_dpp,        // VALU writes EXEC, then any DPP instruction
  wide_store_then_valu_war,  // VMEM store of > 64 bits of data, VALU overwrites the data VGPRs
  valu_vcc_exec_then_z,      // VALU writes VCC/EXEC, then a VALU reads VCCZ/EXECZ as data
  valu_sgpr_then_valu,       // VALU writes an SGPR/VCC/EXEC/M0, a VALU reads it explicitly (VCC: implicitly too)
  valu_exec_then_lane_op,    // VALU writes EXEC, then v_readlane/v_readfirstlane/v_writelane
  valu_vgpr_then_readlane,   // VALU writes a VGPR, v_readlane/v_readfirstlane reads it as src0
  trans_then_valu,           // transcendental result read by a non-transcendental VALU
  partial_dst_then_valu,     // SDWA dst_sel != DWORD or op_sel dst-high write, then a VALU read
  vgpr_then_permlane,        // VALU writes a VGPR, v_permlane reads it
  valu_exec_then_mfma,       // non-MFMA VALU writes EXEC, then any MFMA
  valu_vgpr_then_mfma,       // VALU (not MFMA, not v_dot) writes a VGPR/AGPR, an MFMA reads it
  mfma_then_same_srcc,       // MFMA result read as exactly the same SrcC by an MFMA
  xdl_then_overlap_srcc,     // XDL MFMA result read as overlapping (not identical) SrcC by an XDL MFMA
  nonxdl_then_overlap_srcc,  // non-XDL MFMA result, overlapping SrcC of a non-XDL MFMA
  xdl_then_srcab,            // XDL MFMA result read as SrcA/SrcB
  nonxdl_then_srcab,         // non-XDL MFMA result read as SrcA/SrcB
  xdl_then_read,             // XDL MFMA result read by VALU / VMEM / DS / FLAT
  nonxdl_then_read,          // non-XDL MFMA result read by VALU / VMEM / DS / FLAT
  xdl_then_waw,              // XDL MFMA result overwritten by VALU / memory op
  nonxdl_then_waw,           // non-XDL MFMA result overwritten by VALU / memory op
  mfma_srcc_then_valu_war,   // XDL MFMA reads SrcC, a VALU or memory op overwrites it
  dgemm_then_fma64,          // DGEMM, then v_fma_f64/v_fmac_f64
  dgemm_then_valu_read,      // DGEMM result read by a VALU
  dgemm_then_mem_read,       // DGEMM result read by VMEM / DS / FLAT
  dgemm_then_waw,            // DGEMM result overwritten by VALU / memory op
  dgemm_then_srcab,          // DGEMM result read as SrcA/SrcB by an MFMA
  dgemm_then_overlap_srcc,   // DGEMM result read as overlapping SrcC by a non-XDL MFMA
  dgemm_then_same_srcc,      // 4-pass DGEMM result read as the same SrcC
  dot_then_same_srcab,       // v_dot result read as src0/src1 by the same v_dot opcode
  dot_then_read_other,       // v_dot result read by another VALU (not MFMA) / memory op
  dot_then_waw_other,        // v_dot result overwritten by another VALU (not MFMA) / memory op
  valu_exec_then_permlane,   // VALU writes EXEC (v_cmpx), then v_permlane16/32_swap (gfx950)
  cvt_fwd_then_valu,         // byte-select / stochastic fp4 scaled convert, a VALU reads or writes its dst (gfx950)
  xdl_then_overlap_srcc_nonxdl,  // XDL MFMA result read as overlapping SrcC by a non-XDL MFMA (DGEMM too)
  count_
};

struct hazard_rule {
  hazard_check check;
  std::string_view id;    // the simulator's rule this row is part of (sim/src/hazard_rules.cpp)
  std::string_view name;  // printed as the s_nop comment
  int8_t wait[5];         // by producer passes: non-MFMA, 2, 4, 8, 16
};

constexpr int hazard_pass_index(int passes) {
  return passes <= 0 ? 0 : passes <= 2 ? 1 : passes <= 4 ? 2 : passes <= 8 ? 3 : 4;
}

// A target's hazard data: its rules and the longest window any of them needs.
struct hazard_table {
  const hazard_rule* rules = nullptr;
  uint32_t count = 0;
  int max_wait = 0;
  // s_nop N gives N+1 wait states; SIMM16[3:0] holds N on gfx8+ (LLVM's getSNopBits: 4),
  // and llc-22 emits `s_nop 15` for 16 wait states on gfx942.
  int max_nop = 15;
  // LLVM's checkSoftClauseHazards (when XNACK is enabled; code objects for target id
  // `gfx942` have XNACK "any", which counts): a load joining a run of SMEM, or of VMEM/FLAT,
  // instructions may be replayed, so no instruction of the run may write a register one of
  // them reads, and a store may not join a run that writes registers. One wait state (any
  // other instruction, e.g. s_nop 0) ends the run. Not a producer/consumer pair: the hazard
  // pass evaluates it on its own (passes/hazards.hpp, soft_clause_state).
  bool soft_clauses = true;
};

// The s_nop comment of a broken soft clause (the simulator's rule "soft-clause").
inline constexpr std::string_view soft_clause_nop_name = "soft clause: the run writes a register it reads, or a store joins loads (1)";

constexpr hazard_table make_hazard_table(const hazard_rule* rules, uint32_t n) {
  hazard_table t{rules, n, 0, 15, true};
  for (uint32_t i = 0; i < n; ++i)
    for (int w : rules[i].wait)
      if (w > t.max_wait) t.max_wait = w;
  return t;
}


}  // namespace hipasm
