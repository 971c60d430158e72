"""Instruction properties the passes need, from the encoding family and the name.

Implicit register uses follow LLVM's AMDGPU .td files (SOPInstructions.td: SCC defs
and uses; VOP*Instructions.td: EXEC uses of every VALU op, VCC of v_div_fmas;
DSInstructions.td / BUFInstructions.td / FLATInstructions.td: M0 of GDS, addtid,
append/consume and LDS-DMA). MFMA pass counts come from llvm-mca-22's scheduling
model for the target (its reciprocal throughput is the pass count)."""
import re
import subprocess

from . import mc

MEMORY = ("ds", "flat", "global", "scratch", "mubuf")

SCC_WRITERS = re.compile(
    r"^s_(add|sub|addc|subb|min|max|and|or|xor|andn2|orn2|nand|nor|xnor|lshl|lshr|ashr|bfe|not|wqm|"
    r"bcnt0|bcnt1|quadmask|cmp|bitcmp0|bitcmp1|abs|absdiff|cmpk|addk|lshl[1-4]_add|"
    r"and_saveexec|or_saveexec|xor_saveexec|andn2_saveexec|orn2_saveexec|nand_saveexec|"
    r"nor_saveexec|xnor_saveexec|andn1_saveexec|orn1_saveexec|andn1_wrexec|andn2_wrexec|bfm_never)(_|$)")
SCC_READERS = re.compile(r"^s_(addc_u32|subb_u32|cselect_b32|cselect_b64|cmov_b32|cmov_b64|cmovk_i32|cbranch_scc[01])$")
TRANS = re.compile(r"^v_(exp|log|rcp|rcp_iflag|rsq|sqrt|sin|cos|exp_legacy|log_legacy)_f(16|32|64)$")
NON_XDL = re.compile(r"^v_mfma_f32_(4x4x1_16b|16x16x1_4b|16x16x4|32x32x1_2b|32x32x2)_f32$")
# The destination is also a source: v_dot*c / v_pk_fmac accumulate into it (LLVM ties their
# vdst to src2).
DST_ACCUMULATES = re.compile(r"^v_(dot\d+c_|pk_fmac_)")
# Results that keep part of the old destination (a read of it, for liveness): the fp8/bf8
# converts write the word or byte op_sel selects (LLVM ties vdst_in); the mix forms write
# one half; v_madak/madmk_f16 keep the high half on gfx9 (GCNSubtarget::zeroesHigh16BitsOfDest);
# the gfx9 VOP3-only 16-bit ops, which LLVM does not list as zeroing the high half, are
# taken to keep it (hipasm-sim keeps it for these too).
DST_KEEPS_PART = {
    "v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32", "v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32",
    "v_fma_mixlo_f16", "v_fma_mixhi_f16", "v_mad_mixlo_f16", "v_mad_mixhi_f16",
    "v_madak_f16", "v_madmk_f16",
    "v_add_i16", "v_sub_i16", "v_mad_f16", "v_mad_u16", "v_mad_i16", "v_fma_f16", "v_div_fixup_f16",
    "v_min3_f16", "v_max3_f16", "v_med3_f16", "v_min3_i16", "v_max3_i16", "v_med3_i16",
    "v_min3_u16", "v_max3_u16", "v_med3_u16",
}


def roles(e):
    """Per operand: 'def', 'use' or 'def_use' (assembler order, defs first)."""
    n, name, fam = e.nops, e.name, e.family
    r = ["use"] * n
    if n == 0 or fam in ("sopc", "sopp"):
        return r

    def d(*idx, kind="def"):
        for i in idx:
            r[i] = kind

    if fam == "sop1":
        if name in ("s_setpc_b64", "s_rfe_b64", "s_cbranch_join", "s_set_gpr_idx_idx"):
            return r
        d(0, kind="def_use" if name.startswith(("s_bitset", "s_movreld")) else "def")
    elif fam == "sop2":
        if name not in ("s_cbranch_g_fork", "s_rfe_restore_b64"):
            d(0)
    elif fam == "sopk":
        if name.startswith(("s_cmpk", "s_setreg")) or name == "s_cbranch_i_fork":
            return r
        d(0, kind="def_use" if name in ("s_addk_i32", "s_mulk_i32", "s_cmovk_i32") else "def")
    elif fam == "smem":
        if "atomic" in name:
            d(0, kind="def_use")  # returns the old value with glc
        elif "load" in name or name in ("s_memtime", "s_memrealtime"):
            d(0)
    elif fam in ("vop1", "vop2", "vopc", "vop3", "vop3p", "mfma"):
        if name in ("v_writelane_b32",) or name.startswith(("v_mac_", "v_fmac_", "v_movreld", "v_smfmac")) \
                or DST_ACCUMULATES.match(name) or name in DST_KEEPS_PART:
            d(0, kind="def_use")
        elif name == "v_swap_b32" or re.match(r"v_permlane(16|32)_swap_b32$", name):
            # (a permlane swap writes both operands and keeps the lanes it does not trade)
            d(0, 1, kind="def_use")
        else:
            d(0)
        if n >= 4 and (re.search(r"_co_|^v_addc|^v_subb|^v_div_scale|^v_mad_[ui]64_[ui]32", name)):
            d(1)
    elif fam == "ds":
        if "_rtn_" in name or name.startswith("ds_read") or name in (
                "ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32", "ds_consume", "ds_append"):
            d(0, kind="def_use" if "d16" in name else "def")
    elif fam in ("flat", "global", "scratch"):
        if e.variant == "rtn" or ("load" in name and "_lds_" not in name):
            d(0, kind="def_use" if "d16" in name else "def")
    elif fam == "mubuf":
        if e.variant == "lds":
            return r
        if "atomic" in name:
            d(0, kind="def_use")  # vdata returns the old value with sc0
        elif "load" in name:
            d(0, kind="def_use" if "d16" in name else "def")
    return r


def encoding(e):
    if e.name.startswith(("v_mfma", "v_smfmac")):
        return "mfma"
    if e.family in ("vop1", "vop2", "vopc") and "e32" not in e.base:
        return "vop3"
    return e.family


def flags(e, can_read_agpr):
    name, fam, enc = e.name, e.family, encoding(e)
    f = set()
    valu = enc in ("vop1", "vop2", "vopc", "vop3", "vop3p", "mfma")
    if fam.startswith("sop"):
        f.add("salu")
    if valu:
        f |= {"valu", "reads_exec"}
    if fam == "smem":
        f |= {"smem", "lgkm"}
    if fam in ("mubuf", "global", "scratch", "flat"):
        f |= {"vmem", "vm", "reads_exec"}
    if fam in ("global", "scratch", "flat"):
        f.add("flat")
    if fam == "flat":
        f.add("lgkm")
    if fam == "ds":
        f |= {"ds", "lgkm", "reads_exec"}
    if enc == "mfma":
        f.add("mfma")
        if name.startswith("v_mfma_f64"):
            f.add("dgemm")
        elif not NON_XDL.match(name):
            f.add("xdl")
    if TRANS.match(name):
        f.add("trans")
    # memory direction
    if fam in MEMORY or fam == "smem":
        if "atomic" in name or name.startswith(("ds_add", "ds_sub", "ds_rsub", "ds_inc", "ds_dec",
                                                "ds_min", "ds_max", "ds_and", "ds_or", "ds_xor",
                                                "ds_mskor", "ds_wrxchg", "ds_cmpst", "ds_wrap",
                                                "ds_condxchg", "ds_pk_add")):
            f |= {"atomic", "load", "store", "side_effect"}
        elif "store" in name or name.startswith("ds_write"):
            f |= {"store", "side_effect"}
        elif "load" in name or name.startswith("ds_read") or fam == "smem" and "probe" not in name \
                and not name.startswith(("s_dcache", "s_mem")):
            f.add("load")
    if e.variant == "lds" or "_lds_" in name:
        f |= {"lds_dma", "reads_m0", "store", "side_effect"}
    if name in ("ds_append", "ds_consume") or "addtid" in name or name.startswith("ds_gws"):
        f |= {"reads_m0", "side_effect"}
    if name.startswith(("s_sendmsg", "s_movrel", "v_movrel")):
        f.add("reads_m0")
    if name.startswith("s_set_gpr_idx"):
        f |= {"reads_m0", "writes_m0", "side_effect"}
    if name.startswith("s_sendmsg"):
        f |= {"lgkm", "side_effect"}
    # control flow and waits
    if name in ("s_branch", "s_setpc_b64", "s_swappc_b64", "s_call_b64") or name.startswith(
            ("s_cbranch",)):
        f |= {"branch", "side_effect"}
    if name in ("s_branch", "s_setpc_b64") or name.startswith("s_endpgm"):
        f |= {"terminator", "side_effect"}
    if name == "s_barrier":
        f |= {"barrier", "side_effect"}
    if name == "s_waitcnt":
        f |= {"waitcnt", "side_effect"}
    if name in ("s_nop", "s_sleep", "s_setprio", "s_trap", "s_sethalt", "s_setkill", "s_icache_inv",
                "s_incperflevel", "s_decperflevel", "s_ttracedata", "s_wakeup", "s_getreg_b32",
                "s_setreg_b32", "s_setreg_imm32_b32", "s_memtime", "s_memrealtime", "s_rfe_b64",
                "s_rfe_restore_b64", "s_setvskip", "s_getpc_b64", "buffer_wbl2", "buffer_inv") or name.startswith(
                    ("s_dcache", "s_endpgm", "s_atc_probe")):
        f.add("side_effect")
    # implicit SCC / EXEC / VCC
    if SCC_WRITERS.match(name) and fam.startswith("sop"):
        f.add("writes_scc")
    if SCC_READERS.match(name):
        f.add("reads_scc")
    if "saveexec" in name or "wrexec" in name:
        f |= {"reads_exec", "writes_exec"}
    if name.startswith("v_cmpx_"):
        f |= {"cmpx", "writes_exec"}
    if name in ("s_cbranch_execz", "s_cbranch_execnz"):
        f.add("reads_exec")
    if name in ("s_cbranch_vccz", "s_cbranch_vccnz") or name.startswith("v_div_fmas"):
        f.add("reads_vcc")
    if name in ("v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32"):
        f.add("readlane")
    if name.startswith("v_permlane"):
        f.add("permlane")
    # llc-22 -run-pass=post-RA-hazard-rec -mcpu=gfx950: s_nop 0 after these with op_sel[2] or
    # op_sel[3] set (the byte they write), and after every stochastic fp4 pair
    if re.match(r"v_cvt_(scalef32_)?sr_(fp8|bf8)_|v_cvt_scalef32_pk_fp4_", name):
        f.add("cvt_byte_sel")
    if name.startswith("v_cvt_scalef32_sr_pk_fp4_"):
        f.add("cvt_sr_fp4")
    if "e32" in e.base and "e64" in e.base:
        f.add("has_e64")
    if "dpp" in e.mods:
        f.add("has_dpp")
    if "sdwa" in e.mods:
        f.add("has_sdwa")
    if can_read_agpr:
        f.add("can_read_agpr")
    if e.acc_tied:
        f.add("acc_tied")
    if e.variant == "rtn":
        f.add("returns")
    return f


def mfma_passes(entries):
    """{name: passes} from llvm-mca-22's model of the target (RThroughput of each MFMA)."""
    lines, names = [], []
    for e in entries:
        if encoding(e) == "mfma" and "" in e.base:
            ops, mods, _ = e.base[""]
            lines.append(e.name + " " + ", ".join(ops))
            names.append(e.name)
    r = subprocess.run(["llvm-mca-22", "-mtriple=amdgcn", mc.MC_ARGS[1], "--instruction-info",
                        "--iterations=1"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    out = {}
    rows = [l for l in r.stdout.splitlines() if re.match(r"^\s*\d+\s+\d+\s+[\d.]+\s", l)]
    assert len(rows) == len(names), "llvm-mca printed %d rows for %d MFMAs" % (len(rows), len(names))
    for n, row in zip(names, rows):
        out[n] = int(float(row.split()[2]))
        # gfx950's f8f6f4 MFMAs take twice the passes when A or B is FP8/BF8 (cbsz/blgp 0 or 1,
        # the default), which llvm-mca's model leaves out (SISchedule.td: "not reflected in
        # MCA"): the table holds the FP8 count, so that hazard windows cover every format.
        if "f8f6f4" in n:
            out[n] *= 2
    return out
