#!/usr/bin/env python3
"""Generates tests/sim/decode_cases.s: the instruction forms test_decode assembles with
llvm-mc-22 and checks the simulator's decoder against.

Sources of forms:
- every row of sim/src/gen/gfx942_opcodes.inc (a representative operand instance for every
  mnemonic of every encoding: the disassembler's own text of the probe);
- variants per encoding: DPP and SDWA forms of each VOP1/VOP2/VOPC opcode, 32-bit literals,
  integer and float inline constants, SGPR/special sources, neg/abs/clamp/omod/op_sel,
  AGPR operands (MFMA acc/acc_cd, DS/FLAT/MUBUF data), memory offsets and cache bits.
Candidate lines llvm-mc-22 rejects (a form the instruction does not have) are dropped, so the
file only holds forms LLVM accepts for gfx942.

Usage: tools/gen_sim_decode_cases.py [--llvm-mc llvm-mc-22]
"""
import argparse
import os
import re
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def rows():
    inc = os.path.join(ROOT, "sim", "src", "gen", "gfx942_opcodes.inc")
    for line in open(inc):
        m = re.match(r'\{Format::(\w+), 0x([0-9a-f]+), "([^"]+)", "([^"]*)"\},\s*// (.*)$', line)
        if m:
            yield m.group(1), int(m.group(2), 16), m.group(3), m.group(4), m.group(5).strip()


def variants(fmt, mnem, sig, text):
    out = [text]
    base = re.sub(r"_(e32|e64)$", "", mnem)
    toks = sig.split()
    ops = text.split(None, 1)[1] if " " in text else ""
    if fmt in ("VOP1", "VOP2", "VOPC"):
        # DPP/SDWA forms (VGPR sources), literal and constant sources.
        if fmt == "VOP1" and toks[:1] and toks[0].startswith("vdst:v1") and "src0:v1" in toks:
            out += [f"{base}_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
                    f"{base}_dpp v1, v2 row_shr:3 row_mask:0xa bank_mask:0x5 bound_ctrl:1",
                    f"{base}_dpp v1, v2 row_bcast:31 row_mask:0xf bank_mask:0xf",
                    f"{base}_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2",
                    f"{base}_e32 v1, 0x12345678", f"{base}_e32 v1, -7", f"{base}_e32 v1, 0.5",
                    f"{base}_e32 v1, s5", f"{base}_e64 v1, -v2 clamp", f"{base}_e64 v1, |v2| mul:2",
                    f"{base}_e64 v1, s3 div:2"]
        # SDWA with only the source selected: LLVM prints dst_sel/dst_unused for most opcodes
        # but not for those without them (v_cvt_f32_fp8, v_cvt_pk_f32_bf8, ...).
        if fmt == "VOP1" and toks[:1] and toks[0].startswith("vdst:v") and "src0:v1" in toks:
            vd = "v[2:3]" if toks[0].startswith("vdst:v2") else "v1"
            out += [f"{base}_sdwa {vd}, v5 src0_sel:WORD_1", f"{base}_sdwa {vd}, s5 clamp mul:2 src0_sel:BYTE_3"]
        if fmt == "VOP2" and sig.startswith("vdst:v1 src0:v1 src1:v1"):
            out += [f"{base}_dpp v1, v2, v3 row_shl:1 row_mask:0xf bank_mask:0xf",
                    f"{base}_dpp v1, -v2, |v3| wave_shr:1 row_mask:0xf bank_mask:0xf",
                    f"{base}_sdwa v1, v2, v3 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:WORD_1 src1_sel:BYTE_0",
                    f"{base}_sdwa v1, -v2, |v3| clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0",
                    f"{base}_e32 v1, 0x3e22f983, v3", f"{base}_e32 v1, 64, v3",
                    f"{base}_e32 v1, -16, v3", f"{base}_e32 v1, 1.0, v3", f"{base}_e32 v1, -4.0, v3",
                    f"{base}_e32 v1, 0.15915494, v3", f"{base}_e32 v1, s7, v3",
                    f"{base}_e32 v1, vcc_lo, v3", f"{base}_e32 v1, exec_hi, v3", f"{base}_e32 v1, m0, v3",
                    f"{base}_e64 v1, v2, s3", f"{base}_e64 v1, -v2, |v3| clamp",
                    f"{base}_e64 v1, 2.0, -1 mul:4"]
        if fmt == "VOP2" and "vcc" in toks:
            if base.startswith("v_cndmask"):
                out += [f"{base}_e64 v1, v2, v3, s[6:7]", f"{base}_dpp v1, v2, v3, vcc quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf",
                        f"{base}_sdwa v1, v2, v3, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD"]
            elif "_co_" in base and base.endswith(("c_co_u32", "b_co_u32", "brev_co_u32")):
                out += [f"{base}_e64 v1, s[2:3], v2, v3, s[4:5]",
                        f"{base}_dpp v1, vcc, v2, v3, vcc row_shr:1 row_mask:0xf bank_mask:0xf",
                        f"{base}_sdwa v1, vcc, v2, v3, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD"]
            else:
                out += [f"{base}_e64 v1, s[2:3], v2, v3", f"{base}_e32 v1, vcc, 0x1234, v3",
                        f"{base}_dpp v1, vcc, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf",
                        f"{base}_sdwa v1, vcc, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD"]
        if fmt == "VOPC":
            w = "v[2:3]" if "src0:v2" in toks else "v2"
            w1 = "v[4:5]" if "src1:v2" in toks else "v4"
            out += [f"{base}_e32 vcc, 0x1234, {w1}", f"{base}_e32 vcc, -2, {w1}", f"{base}_e32 vcc, 0.5, {w1}",
                    f"{base}_e32 vcc, s[6:7], {w1}" if w.startswith("v[") else f"{base}_e32 vcc, s6, {w1}",
                    f"{base}_e64 s[10:11], {w}, 4.0", f"{base}_e64 vcc, -{w}, |{w1}|",
                    f"{base}_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:BYTE_3",
                    f"{base}_sdwa s[6:7], v2, v4 src0_sel:DWORD src1_sel:DWORD",
                    f"{base}_dpp vcc, v2, v4 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf"]
    elif fmt == "VOP3":
        if mnem.endswith("_e64"):
            return out
        parts = [p.strip() for p in ops.split(",")] if ops else []
        if len(parts) >= 3 and all(re.fullmatch(r"v\d+", p) for p in parts[-2:]):
            srcs = parts[len(parts) - (3 if "src2" in sig else 2):]
            dsts = parts[:len(parts) - len(srcs)]
            if len(srcs) == 3:
                out += [f"{mnem} {', '.join(dsts)}, -{srcs[0]}, |{srcs[1]}|, 0.5",
                        f"{mnem} {', '.join(dsts)}, s1, 1, -{srcs[2]} clamp",
                        f"{mnem} {', '.join(dsts)}, {srcs[0]}, -4.0, 64 mul:2",
                        f"{mnem} {', '.join(dsts)}, {srcs[0]}, {srcs[1]}, {srcs[2]} op_sel:[1,0,1,1]"]
            else:
                out += [f"{mnem} {', '.join(dsts)}, -{srcs[0]}, |{srcs[1]}|",
                        f"{mnem} {', '.join(dsts)}, s1, -16 clamp",
                        f"{mnem} {', '.join(dsts)}, 0.15915494, {srcs[1]} div:2",
                        f"{mnem} {', '.join(dsts)}, {srcs[0]}, {srcs[1]} op_sel:[0,1,1]"]
        if "src0:v2" in toks:
            out.append(re.sub(r"v\[4:5\]", "s[4:5]", text, count=1))
            out.append(re.sub(r"v\[4:5\]", "-1.0", text, count=1))
            out.append(re.sub(r"v\[4:5\]", "0.15915494309189532", text, count=1))
    elif fmt == "VOP3P":
        if mnem.startswith(("v_mfma", "v_smfmac")):
            out.append(text.replace("v[", "a[", 1))  # acc_cd: D and C in AGPRs
            t = re.sub(r"^(\S+ )(\S+), ", r"\1\2, ", text)
            parts = [p.strip() for p in text.split(None, 1)[1].split(",")]
            if len(parts) == 4:
                d, a, b_, c = parts
                cv = c.replace("v", "a") if c.startswith("v[") and not mnem.startswith("v_smfmac") else c
                dv = d.replace("v", "a")
                out.append(f"{mnem} {dv}, {a.replace('a', 'v')}, {b_.replace('a', 'v')}, {cv}")
                if not mnem.startswith("v_smfmac"):
                    out.append(f"{mnem} {d}, {a.replace('a', 'v')}, {b_}, 0")
                    if mnem.startswith("v_mfma_f64"):
                        out.append(f"{mnem} {d}, {a}, {b_}, {c} neg:[1,1,0]")
                    else:
                        out.append(f"{mnem} {d}, {a}, {b_}, {c} cbsz:2 abid:3 blgp:5")
                else:
                    out.append(f"{mnem} {d}, {a}, {b_}, {c} cbsz:1 abid:2")
        elif not mnem.startswith("v_accvgpr"):
            parts = [p.strip() for p in ops.split(",")]
            n = len(parts) - 1
            if n >= 2:
                sel = ",".join(["1"] + ["0"] * (n - 1))
                out += [text.split(" op_sel")[0] + f" op_sel:[{sel}]",
                        text.split(" op_sel")[0] + f" op_sel_hi:[{','.join(['0'] * n)}]",
                        text.split(" op_sel")[0] + f" neg_lo:[{sel}] neg_hi:[{','.join(['0'] * (n - 1) + ['1'])}]",
                        text.split(" op_sel")[0] + " clamp"]
                out.append(re.sub(r", v8", ", s8", text, count=1))
                out.append(re.sub(r", v8", ", 1.0", text, count=1))
        else:
            out.append(text.replace(", v4", ", 7") if mnem == "v_accvgpr_write_b32" else text)
    elif fmt in ("SOP1", "SOP2", "SOPC"):
        if "src0:s1" in toks:
            out += [re.sub(r"\bs4\b", "0x12345678", text), re.sub(r"\bs4\b", "-13", text),
                    re.sub(r"\bs4\b", "2.0", text), re.sub(r"\bs4\b", "vcc_hi", text),
                    re.sub(r"\bs4\b", "m0", text), re.sub(r"\bs4\b", "exec_lo", text),
                    re.sub(r"\bs4\b", "src_shared_base", text)]
        if "src0:s2" in toks:
            out += [text.replace("s[4:5]", "exec", 1), text.replace("s[4:5]", "-1", 1),
                    text.replace("s[4:5]", "0x7fffffff", 1), text.replace("s[4:5]", "vcc", 1),
                    text.replace("s[4:5]", "flat_scratch", 1)]
        if "sdst:s1" in toks:
            out += [re.sub(r"\bs0\b", "m0", text, count=1), re.sub(r"\bs0\b", "vcc_lo", text, count=1)]
        if "sdst:s2" in toks:
            out += [text.replace("s[0:1]", "exec", 1), text.replace("s[0:1]", "vcc", 1)]
    elif fmt == "SOPK":
        if base.startswith(("s_movk", "s_cmpk", "s_addk", "s_mulk", "s_cmovk")):
            out += [text.replace("0x3", "0xfff0"), text.replace("0x3", "0x8000")]
        if base in ("s_getreg_b32", "s_setreg_b32"):
            out += [text.replace("HW_REG_TRAPSTS, 0, 1", "HW_REG_MODE"),
                    text.replace("HW_REG_TRAPSTS, 0, 1", "HW_REG_MODE, 4, 4"),
                    text.replace("HW_REG_TRAPSTS, 0, 1", "HW_REG_HW_ID, 8, 6")]
        if base == "s_setreg_imm32_b32":
            out += ["s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xa"]
    elif fmt == "SOPP":
        if base.startswith(("s_branch", "s_cbranch")):
            out += [f"{base} -5", f"{base} 100"]
        if base == "s_waitcnt":
            out += ["s_waitcnt vmcnt(0)", "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(62) lgkmcnt(3)",
                    "s_waitcnt expcnt(2)", "s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)",
                    "s_waitcnt vmcnt(17)"]
        if base == "s_nop":
            out += ["s_nop 0", "s_nop 7"]
        if base == "s_endpgm":
            out += ["s_endpgm"]
        if base == "s_sendmsg":
            out += ["s_sendmsg sendmsg(MSG_INTERRUPT)", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)"]
        if base == "s_setprio":
            out += ["s_setprio 0"]
    elif fmt == "SMEM":
        if "imm" in toks:
            out += [text.replace("0x10", "s6"), text.replace("0x10", "-0x100"),
                    text.replace("0x10", "0xfffff"), text.replace("0x10", "s6 offset:0x20"),
                    text + " glc"]
    elif fmt == "DS" and base.startswith("ds_gws_"):
        # GWS: "gds" printed last; the data VGPR (ADDR field) may be an AGPR or odd.
        plain = text[:-len(" gds")]
        out += [plain + " offset:65535 gds", plain + " offset:63 gds"]
        if "addr:v1" in toks:
            out += [text.replace("v4", "a4"), text.replace("v4", "v5"), text.replace("v4", "a255")]
    elif fmt == "DS":
        if "offset0" not in text:
            two = "2_" in base or "2st64" in base
            if two:
                out += [text + " offset0:3 offset1:255", text + " offset1:1"]
            else:
                out += [text + " offset:65535", text + " offset:4"]
        if "vdst:v" in sig or "data0:v" in sig:
            out.append(re.sub(r"\bv(\d+)\b(?!:)|v\[(\d+):(\d+)\]",
                              lambda m: m.group(0) if m.group(0) == "v4" else m.group(0).replace("v", "a"),
                              text))
    elif fmt in ("FLAT", "GLOBAL", "SCRATCH"):
        out += [text + " offset:64", text + " sc0", text + " nt sc1", text + " sc0 nt sc1"]
        if fmt != "FLAT":
            out += [text + " offset:-4096", text + " offset:4095"]
        if fmt == "GLOBAL" and "off" in toks:
            out.append(re.sub(r"v\[4:5\], (.*)off$", r"v4, \1s[20:21]", text))
        if fmt == "SCRATCH":
            out.append(text.replace("off, off", "off, s20", 1) if "off, off" in text else
                       re.sub(r"off$", "s20", text))
            out.append(re.sub(r"^(\S+ )((?:[va]\S+, )?)off", r"\1\2v4", text))
        if "atomic" in base:
            vd = "v[0:1]" if ("_x2" in base and "cmpswap" not in base) or base.endswith("f64") else "v0"
            out.append(re.sub(r"^(\S+) ", rf"\1 {vd}, ", text) + " sc0")
        if "vdst:v" in sig or "data:v" in sig:
            out.append(re.sub(r"\bv(16|8)\b|v\[(16|8):(\d+)\]", lambda m: m.group(0).replace("v", "a"), text))
    elif fmt == "MUBUF":
        if "srsrc" in sig:
            t = text.replace(" offen", "")
            out += [t.replace(", v4,", ", off,") + " offset:4095",
                    t.replace(", v4,", ", v4,") + " idxen",
                    t.replace(", v4,", ", v[4:5],") + " idxen offen",
                    text.replace(", 0 ", ", s3 ") + " sc0 nt sc1",
                    text.replace(", 0 ", ", -1 ") + " offset:12"]
            if "atomic" in base:
                out.append(text + " sc0")
    # Forms whose probe text is not assemblable as printed (constant-bus limit, lit()).
    extra = {
        "v_writelane_b32": ["v_writelane_b32 v1, s4, 5", "v_writelane_b32 v1, -3, m0",
                            "v_writelane_b32 v1, s4, s4"],
        "v_readlane_b32": ["v_readlane_b32 s1, v4, 63", "v_readlane_b32 vcc_lo, v4, m0"],
        "v_madmk_f16": ["v_madmk_f16 v0, v4, 0x1234, v8"],
        "v_madak_f16": ["v_madak_f16 v0, v4, v8, 0x3c00"],
        "v_fmamk_f32": ["v_fmamk_f32 v0, s4, 0x3f800000, v8"],
        "v_fmaak_f32": ["v_fmaak_f32 v0, 1.0, v8, 0x12345678"],
        "v_mov_b64_e32": ["v_mov_b64_dpp v[8:9], v[6:7] row_newbcast:3 row_mask:0xf bank_mask:0xf",
                          "v_mov_b64_dpp v[8:9], v[6:7] row_newbcast:15 row_mask:0x5 bank_mask:0xa bound_ctrl:1",
                          "v_mov_b64_dpp v[8:9], v[6:7] quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"],
    }
    out += extra.get(mnem, [])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "sim", "decode_cases.s"))
    args = ap.parse_args()
    cands = []
    seen = set()
    for fmt, op, mnem, sig, text in rows():
        for v in variants(fmt, mnem, sig, text):
            if v not in seen:
                seen.add(v)
                cands.append(v)
    src = "\n".join(cands) + "\n"
    r = subprocess.run([args.llvm_mc, "-arch=amdgcn", "-mcpu=gfx942", "-show-encoding", "-"],
                       input=src, capture_output=True, text=True)
    bad = set(int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr))
    good = [c for i, c in enumerate(cands, 1) if i not in bad]
    with open(args.out, "w") as f:
        f.write("// GENERATED by tools/gen_sim_decode_cases.py: instruction forms test_decode\n")
        f.write("// assembles with llvm-mc-22 and decodes with the simulator. Do not edit.\n")
        f.write("\n".join(good) + "\n")
    print(f"{len(good)} forms ({len(cands) - len(good)} rejected candidates dropped) -> {args.out}")


if __name__ == "__main__":
    main()
