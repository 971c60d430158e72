#!/usr/bin/env python3
"""Generates checker_kernels.s: one pair of gfx942 kernels per checker rule.

<rule>__ok has the s_nop / s_waitcnt / s_barrier the rule asks for and must report nothing;
<rule>__bad leaves it out (one wait state short for hazards) and must report exactly that
rule. Wait-state counts are gfx942.md's (and LLVM's GCNHazardRecognizer.cpp for MFMA/DGEMM).
Every kernel takes one pointer argument `buf` (>= 64 KiB); s[2:3] = buf, v1 = tid * 4.

Usage: gen_checker_kernels.py > checker_kernels.s   (the output is committed)
"""
import sys

PROLOGUE = [
    "s_load_dwordx2 s[2:3], s[0:1], 0x0",
    "v_lshlrev_b32_e32 v1, 2, v0",
    "v_mov_b32_e32 v4, 1.0",
    "v_mov_b32_e32 v5, 1.0",
    "v_mov_b32_e32 v6, 0",
    "v_mov_b32_e32 v7, 0",
    "s_waitcnt lgkmcnt(0)",
    # A raw buffer resource over buf for MUBUF rows: base, stride 0, num_records -1, dfmt 32.
    "s_mov_b32 s8, s2",
    "s_and_b32 s9, s3, 0xffff",
    "s_mov_b32 s10, -1",
    "s_mov_b32 s11, 0x20000",
    "s_nop 7",  # keep the prologue out of every window
    "s_nop 7",
    "s_nop 7",
]


def nops(ws):
    out = []
    while ws > 0:
        n = min(ws, 8)
        out.append(f"s_nop {n - 1}")
        ws -= n
    return out


def hazard(producer, need, consumer, block=64):
    """(ok body, bad body): `need` wait states vs one fewer."""
    return (producer + nops(need) + consumer, producer + nops(need - 1) + consumer, block)


MFMA_XDL8 = "v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[4:5], 0"
CMPX = "v_cmpx_le_u32_e32 0, v1"

# "<rule tag>[|variant]" -> (ok body, bad body, block size); the tag is what __bad must report
RULES = {
    # ---- pending memory results
    "pending-read": (
        ["global_load_dword v8, v1, s[2:3]", "s_waitcnt vmcnt(0)", "v_add_u32_e32 v9, v8, v8"],
        ["global_load_dword v8, v1, s[2:3]", "v_add_u32_e32 v9, v8, v8"], 64),
    "pending-read|vmcnt-order": (
        ["global_load_dword v8, v1, s[2:3]", "global_load_dword v9, v1, s[2:3] offset:256",
         "s_waitcnt vmcnt(1)", "v_add_u32_e32 v10, v8, v8", "s_waitcnt vmcnt(0)"],
        ["global_load_dword v8, v1, s[2:3]", "global_load_dword v9, v1, s[2:3] offset:256",
         "s_waitcnt vmcnt(1)", "v_add_u32_e32 v10, v9, v9", "s_waitcnt vmcnt(0)"], 64),
    "pending-read|store-counts": (
        ["global_load_dword v8, v1, s[2:3]", "s_nop 0", "global_store_dword v1, v4, s[2:3] offset:512",
         "s_waitcnt vmcnt(1)", "v_add_u32_e32 v10, v8, v8"],
        ["global_store_dword v1, v4, s[2:3] offset:512", "global_load_dword v8, v1, s[2:3]",
         "s_waitcnt vmcnt(1)", "v_add_u32_e32 v10, v8, v8"], 64),
    "pending-read|smem": (
        ["s_load_dword s4, s[0:1], 0x0", "s_load_dword s5, s[0:1], 0x4", "s_waitcnt lgkmcnt(0)",
         "s_add_u32 s6, s4, 1"],
        ["s_load_dword s4, s[0:1], 0x0", "s_load_dword s5, s[0:1], 0x4", "s_waitcnt lgkmcnt(1)",
         "s_add_u32 s6, s4, 1"], 64),
    "pending-read|ds": (
        ["ds_read_b32 v8, v1", "ds_read_b32 v9, v1 offset:256", "s_waitcnt lgkmcnt(1)",
         "v_add_u32_e32 v10, v8, v8", "s_waitcnt lgkmcnt(0)"],
        ["ds_read_b32 v8, v1", "ds_read_b32 v9, v1 offset:256", "s_waitcnt lgkmcnt(1)",
         "v_add_u32_e32 v10, v9, v9", "s_waitcnt lgkmcnt(0)"], 64),
    "pending-read|ds-smem": (
        ["ds_read_b32 v8, v1", "s_load_dword s4, s[0:1], 0x0", "s_waitcnt lgkmcnt(0)",
         "v_add_u32_e32 v10, v8, v8"],
        ["ds_read_b32 v8, v1", "s_load_dword s4, s[0:1], 0x0", "s_waitcnt lgkmcnt(1)",
         "v_add_u32_e32 v10, v8, v8", "s_waitcnt lgkmcnt(0)"], 64),
    "pending-write": (
        ["global_load_dword v8, v1, s[2:3]", "s_waitcnt vmcnt(0)", "v_mov_b32_e32 v8, 0"],
        ["global_load_dword v8, v1, s[2:3]", "v_mov_b32_e32 v8, 0", "s_waitcnt vmcnt(0)"], 64),
    # ---- hazards (gfx942.md)
    "hazard valu-sgpr-vmem": hazard(["v_readfirstlane_b32 s4, v6"], 5,
                                    ["buffer_load_dword v8, v1, s[8:11], s4 offen", "s_waitcnt vmcnt(0)"]),
    "hazard vcc-div-fmas": hazard(["v_div_scale_f32 v8, vcc, v4, v4, v5"], 4,
                                  ["v_div_fmas_f32 v9, v8, v4, v5"]),
    "hazard sgpr-lane-select": hazard(["v_readfirstlane_b32 s4, v6", "s_nop 1"], 4 - 2,
                                      ["v_readlane_b32 s5, v1, s4"]),
    "hazard setreg-getreg": hazard(["s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 4)", "s_nop 2",
                                    "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4"], 2,
                                   ["s_getreg_b32 s5, hwreg(HW_REG_MODE, 0, 4)"]),
    "hazard salu-m0": hazard(["s_mov_b32 m0, 0"], 1, ["global_load_lds_dword v1, s[2:3]", "s_waitcnt vmcnt(0)"]),
    "hazard vgpr-dpp": hazard(["v_mov_b32_e32 v8, v1"], 2, ["v_mov_b32_dpp v9, v8 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]),
    "hazard exec-dpp": hazard([CMPX], 5, ["v_mov_b32_dpp v9, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]),
    "hazard big-store-data": hazard(["global_store_dwordx4 v1, v[4:7], s[2:3] offset:1024"], 2,
                                    ["v_mov_b32_e32 v5, 0"]),
    "hazard vcc-exec-z": hazard(["v_cmp_eq_u32_e32 vcc, v1, v1"], 5, ["v_mov_b32_e32 v8, src_vccz"]),
    "hazard valu-sgpr-valu": hazard(["v_readfirstlane_b32 s4, v1"], 2, ["v_add_u32_e32 v8, s4, v1"]),
    "hazard exec-readlane": hazard([CMPX], 4, ["v_readfirstlane_b32 s4, v1"]),
    "hazard vgpr-readlane-src0": hazard(["v_mov_b32_e32 v8, v1"], 1, ["v_readfirstlane_b32 s4, v8"]),
    "hazard trans-use": hazard(["v_exp_f32_e32 v8, v4"], 1, ["v_add_f32_e32 v9, v8, v8"]),
    "hazard dst-partial-use": hazard(
        ["v_add_f16_sdwa v8, v4, v5 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0"],
        1, ["v_add_u32_e32 v9, v8, v8"]),
    "hazard valu-sgpr-valu|cmpx_exec": hazard([CMPX], 2, ["v_cndmask_b32_e64 v8, v1, v4, exec"]),
    # EXEC is an implicit read of every VMEM (LLVM's checkVMEMHazards; llc-22: v_cmpx, s_nop 4).
    "hazard valu-sgpr-vmem|exec": hazard([CMPX], 5, ["global_load_dword v8, v1, s[2:3]", "s_waitcnt vmcnt(0)"]),
    # Soft clauses (LLVM's checkSoftClauseHazards, XNACK any): one wait state breaks the run.
    "hazard soft-clause": hazard(["global_load_dword v8, v1, s[2:3]"], 1,
                                 ["global_load_dword v1, v6, s[2:3]", "s_waitcnt vmcnt(0)"]),
    "hazard soft-clause|store": hazard(["global_load_dword v8, v1, s[2:3]"], 1,
                                       ["global_store_dword v1, v4, s[2:3] offset:512", "s_waitcnt vmcnt(0)"]),
    "hazard soft-clause|smem": hazard(["s_load_dword s4, s[2:3], 0x0"], 1,
                                      ["s_load_dword s2, s[0:1], 0x0", "s_waitcnt lgkmcnt(0)"]),
    # ---- MFMA (32x32x8 f16: XDL, 8 passes)
    "hazard exec-mfma": hazard([CMPX], 4, [MFMA_XDL8]),
    "hazard valu-vgpr-mfma": hazard(["v_mov_b32_e32 v4, 1.0"], 2, [MFMA_XDL8]),
    "hazard mfma-srcc": hazard([MFMA_XDL8], 9, ["v_mfma_f32_16x16x16_f16 a[16:19], v[4:5], v[4:5], a[4:7]"]),
    "hazard mfma-srcab": hazard(["v_mfma_f32_32x32x8_f16 v[8:23], v[4:5], v[4:5], 0"], 11,
                                ["v_mfma_f32_32x32x8_f16 a[0:15], v[8:9], v[4:5], 0"]),
    "hazard mfma-read": hazard([MFMA_XDL8], 11, ["v_accvgpr_read_b32 v8, a3"]),
    "hazard mfma-waw": hazard([MFMA_XDL8], 11, ["v_accvgpr_write_b32 a0, v1"]),
    "hazard mfma-srcc-war": hazard(["v_mfma_f32_32x32x8_f16 a[16:31], v[4:5], v[4:5], a[0:15]"], 7,
                                   ["v_accvgpr_write_b32 a0, v1"]),
    "hazard dgemm-fma64": hazard(["v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[4:5], 0"], 2,
                                 ["v_fma_f64 v[16:17], v[4:5], v[4:5], v[4:5]"]),
    # ---- LDS races (two waves): a wave reads the other wave's slot (byte offset ^ 256).
    "lds-race": (
        ["ds_write_b32 v1, v0", "s_waitcnt lgkmcnt(0)", "s_barrier", "v_xor_b32_e32 v8, 0x100, v1",
         "ds_read_b32 v9, v8", "s_waitcnt lgkmcnt(0)", "global_store_dword v1, v9, s[2:3]"],
        ["ds_write_b32 v1, v0", "s_barrier", "v_xor_b32_e32 v8, 0x100, v1",
         "ds_read_b32 v9, v8", "s_waitcnt lgkmcnt(0)", "global_store_dword v1, v9, s[2:3]"], 128),
}

# LDS-DMA lands in LDS when vmcnt retires it, also for the wave that issued it.
RULES["lds-dma-pending"] = (
    ["s_mov_b32 m0, 0", "s_nop 0", "global_load_lds_dword v1, s[2:3]", "s_waitcnt vmcnt(0)",
     "ds_read_b32 v8, v1", "s_waitcnt lgkmcnt(0)"],
    ["s_mov_b32 m0, 0", "s_nop 0", "global_load_lds_dword v1, s[2:3]",
     "ds_read_b32 v8, v1", "s_waitcnt vmcnt(0) lgkmcnt(0)"], 64)

# Non-XDL producer (32x32x2 f32: 16 passes): VALU read needs NP + 2 = 18.
RULES["hazard mfma-read|nonxdl"] = hazard(["v_mfma_f32_32x32x2_f32 a[0:15], v4, v4, 0"], 18,
                                          ["v_accvgpr_read_b32 v8, a3"])


def kernel_name(tag, kind):
    return tag.replace("hazard ", "hz_").replace("-", "_").replace("|", "_") + "__" + kind


DESCRIPTOR = """\t.section\t.rodata,"a",@progbits
\t.p2align\t6, 0x0
\t.amdhsa_kernel {name}
\t\t.amdhsa_group_segment_fixed_size 4096
\t\t.amdhsa_private_segment_fixed_size 0
\t\t.amdhsa_kernarg_size 8
\t\t.amdhsa_user_sgpr_count 2
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_vgpr_workitem_id 0
\t\t.amdhsa_next_free_vgpr 64
\t\t.amdhsa_next_free_sgpr 16
\t\t.amdhsa_accum_offset 32
\t\t.amdhsa_reserve_vcc 1
\t\t.amdhsa_float_denorm_mode_32 3
\t\t.amdhsa_float_denorm_mode_16_64 3
\t.end_amdhsa_kernel
\t.text
"""

METADATA_KERNEL = """  - .agpr_count:     32
    .args:
      - .address_space:  global
        .name:           buf
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 4096
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 1024
    .name:           {name}
    .private_segment_fixed_size: 0
    .sgpr_count:     22
    .sgpr_spill_count: 0
    .symbol:         {name}.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     64
    .vgpr_spill_count: 0
    .wavefront_size: 64
"""


def main():
    out = ['\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"', "\t.amdhsa_code_object_version 6", "\t.text"]
    names = []
    blocks = []
    for tag, (ok, bad, block) in RULES.items():
        for kind, body in (("ok", ok), ("bad", bad)):
            name = kernel_name(tag, kind)
            names.append(name)
            blocks.append(f"{tag.split('|')[0]}\t{name}\t{block}")
            out += [f"\t.globl\t{name}", "\t.p2align\t8", f"\t.type\t{name},@function", f"{name}:"]
            out += ["\t" + i for i in PROLOGUE + body + ["s_endpgm"]]
            out.append(DESCRIPTOR.format(name=name))
    out.append("\t.amdgpu_metadata\n---\namdhsa.kernels:")
    for n in names:
        out.append(METADATA_KERNEL.format(name=n).rstrip("\n"))
    out.append("amdhsa.target:   amdgcn-amd-amdhsa--gfx942\namdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata")
    sys.stdout.write("\n".join(out) + "\n")
    # The test's table, "<expected tag>\t<kernel>\t<block>" per line (checker_kernels.tsv).
    with open(sys.argv[1] if len(sys.argv) > 1 else "/dev/null", "w") as f:
        f.write("\n".join(blocks) + "\n")


if __name__ == "__main__":
    main()
