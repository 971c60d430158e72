// gfx942's (CDNA3) hazard rules, written from ../shared/reference/gfx942.md and the gfx940
// paths of LLVM's GCNHazardRecognizer (checkVALUHazards, checkMAIHazards90A,
// checkMAIVALUHazards).
#pragma once
#include "../../hazard_rules.hpp"

namespace hipasm {

inline constexpr hazard_rule gfx942_hazard_rules[] = {
    {hazard_check::valu_sgpr_then_vmem, "valu-sgpr-vmem", "VALU writes SGPR -> VMEM reads it (5)", {5, 5, 5, 5, 5}},
    {hazard_check::valu_vcc_then_div_fmas, "vcc-div-fmas", "VALU writes VCC -> v_div_fmas (4)", {4, 4, 4, 4, 4}},
    {hazard_check::valu_sgpr_then_lane_sel, "sgpr-lane-select", "VALU writes SGPR -> v_readlane/v_writelane lane select (4)", {4, 4, 4, 4, 4}},
    {hazard_check::setreg_then_getreg, "setreg-getreg", "s_setreg -> s_getreg/s_setreg (2)", {2, 2, 2, 2, 2}},
    {hazard_check::setreg_then_rfe, "setreg-rfe", "s_setreg TRAPSTS -> s_rfe_b64 (1)", {1, 1, 1, 1, 1}},
    {hazard_check::salu_m0_then_m0_user, "salu-m0", "SALU writes M0 -> s_sendmsg/GDS/s_movrel/LDS-DMA (1)", {1, 1, 1, 1, 1}},
    {hazard_check::vgpr_then_dpp, "vgpr-dpp", "VGPR written (by any instruction) -> DPP reads it (2)", {2, 2, 2, 2, 2}},
    {hazard_check::valu_exec_then_dpp, "exec-dpp", "VALU writes EXEC -> DPP (5)", {5, 5, 5, 5, 5}},
    {hazard_check::wide_store_then_valu_war, "big-store-data", "store of >64-bit data -> VALU overwrites the data (2)", {2, 2, 2, 2, 2}},
    {hazard_check::valu_vcc_exec_then_z, "vcc-exec-z", "VALU writes VCC/EXEC -> VALU reads VCCZ/EXECZ (5)", {5, 5, 5, 5, 5}},
    {hazard_check::valu_sgpr_then_valu, "valu-sgpr-valu", "VALU writes SGPR/VCC/EXEC/M0 -> VALU reads it (2)", {2, 2, 2, 2, 2}},
    {hazard_check::valu_exec_then_lane_op, "exec-readlane", "VALU writes EXEC -> v_readlane/v_readfirstlane/v_writelane (4)", {4, 4, 4, 4, 4}},
    {hazard_check::valu_vgpr_then_readlane, "vgpr-readlane-src0", "VALU writes VGPR -> v_readlane src0 (1)", {1, 1, 1, 1, 1}},
    {hazard_check::trans_then_valu, "trans-use", "transcendental -> non-transcendental VALU reads it (1)", {1, 1, 1, 1, 1}},
    {hazard_check::partial_dst_then_valu, "dst-partial-use", "SDWA/op_sel partial dst -> VALU reads it (1)", {1, 1, 1, 1, 1}},
    {hazard_check::vgpr_then_permlane, "vgpr-permlane", "VALU writes VGPR -> v_permlane reads it (2)", {2, 2, 2, 2, 2}},
    {hazard_check::valu_exec_then_mfma, "exec-mfma", "VALU writes EXEC -> MFMA (4)", {4, 4, 4, 4, 4}},
    {hazard_check::valu_vgpr_then_mfma, "valu-vgpr-mfma", "VALU writes VGPR -> MFMA reads it (2)", {2, 2, 2, 2, 2}},
    {hazard_check::mfma_then_same_srcc, "mfma-srcc", "MFMA -> MFMA same SrcC (2-pass: 2)", {0, 2, 0, 0, 0}},
    // One count for XDL and non-XDL readers on gfx942 (gfx950 tells them apart); one name, as
    // the s_nop comment was before the rows were split.
    {hazard_check::xdl_then_overlap_srcc, "mfma-srcc", "XDL MFMA -> MFMA overlapping SrcC (NP+1)", {0, 3, 5, 9, 17}},
    {hazard_check::xdl_then_overlap_srcc_nonxdl, "mfma-srcc", "XDL MFMA -> MFMA overlapping SrcC (NP+1)", {0, 3, 5, 9, 17}},
    {hazard_check::nonxdl_then_overlap_srcc, "mfma-srcc", "non-XDL MFMA -> non-XDL MFMA overlapping SrcC (NP)", {0, 2, 4, 8, 16}},
    {hazard_check::xdl_then_srcab, "mfma-srcab", "XDL MFMA -> MFMA SrcA/B (NP+3)", {0, 5, 7, 11, 19}},
    {hazard_check::nonxdl_then_srcab, "mfma-srcab", "non-XDL MFMA -> MFMA SrcA/B (NP+2)", {0, 4, 6, 10, 18}},
    {hazard_check::xdl_then_read, "mfma-read", "XDL MFMA -> VALU/VMEM/DS read (NP+3)", {0, 5, 7, 11, 19}},
    {hazard_check::nonxdl_then_read, "mfma-read", "non-XDL MFMA -> VALU/VMEM/DS read (NP+2)", {0, 4, 6, 10, 18}},
    {hazard_check::xdl_then_waw, "mfma-waw", "XDL MFMA -> VALU/memory overwrites result (NP+3)", {0, 5, 7, 11, 19}},
    {hazard_check::nonxdl_then_waw, "mfma-waw", "non-XDL MFMA -> VALU/memory overwrites result (NP+2)", {0, 4, 6, 10, 18}},
    {hazard_check::mfma_srcc_then_valu_war, "mfma-srcc-war", "XDL MFMA reads SrcC -> VALU/memory overwrites it (1/3/7/15)", {0, 1, 3, 7, 15}},
    {hazard_check::dgemm_then_fma64, "dgemm-fma64", "DGEMM -> v_fma_f64/v_fmac_f64 (2)", {2, 2, 2, 2, 2}},
    {hazard_check::dgemm_then_valu_read, "mfma-read", "DGEMM -> VALU reads result (6/11)", {0, 6, 6, 11, 11}},
    {hazard_check::dgemm_then_mem_read, "mfma-read", "DGEMM -> VMEM/DS reads result (9/18)", {0, 9, 9, 18, 18}},
    {hazard_check::dgemm_then_waw, "mfma-waw", "DGEMM -> VALU/memory overwrites result (6/11)", {0, 6, 6, 11, 11}},
    {hazard_check::dgemm_then_srcab, "mfma-srcab", "DGEMM -> MFMA SrcA/B (6/11)", {0, 6, 6, 11, 11}},
    {hazard_check::dgemm_then_overlap_srcc, "mfma-srcc", "DGEMM -> MFMA overlapping SrcC (4/9)", {0, 4, 4, 9, 9}},
    {hazard_check::dgemm_then_same_srcc, "mfma-srcc", "4-pass DGEMM -> DGEMM same SrcC (4)", {0, 4, 4, 0, 0}},
    {hazard_check::dot_then_same_srcab, "dot-same-srcab", "v_dot -> same v_dot reads it as SrcA/B (3)", {3, 3, 3, 3, 3}},
    {hazard_check::dot_then_read_other, "dot-read-other", "v_dot -> another VALU/memory op reads it (3)", {3, 3, 3, 3, 3}},
    {hazard_check::dot_then_waw_other, "dot-write-other", "v_dot -> another VALU/memory op overwrites it (3)", {3, 3, 3, 3, 3}},
};

inline constexpr hazard_table gfx942_hazards =
    make_hazard_table(gfx942_hazard_rules, sizeof(gfx942_hazard_rules) / sizeof(gfx942_hazard_rules[0]));

}  // namespace hipasm
