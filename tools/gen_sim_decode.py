#!/usr/bin/env python3
"""Generates hipasm-sim's per-target opcode tables (gfx942, gfx950) from llvm-mc-22's disassembler.

For every encoding family the opcode field is enumerated with fixed, distinct operand
registers (vdst/sdst = 0, src0 = 4, src1 = 8, src2 = 12, ...). llvm-mc-22 names each valid
opcode and prints its operands; the register number tells which field an operand came from
and the printed range its width ("v[4:5]" = 2 dwords). Output: sim/src/gen/<mcpu>_opcodes.inc,
rows of {Format, opcode, "printed mnemonic", "signature"} where the signature lists the printed
operands in order as field:class+dwords (e.g. "vdst:v1 src0:s2") or an implicit/other token
(vcc, exec, m0, scc, off, imm). The decoder (decode.cpp) parses the signatures at start-up.

Usage: tools/gen_sim_decode.py [--llvm-mc llvm-mc-22] [--mcpu gfx942|gfx950] [--out FILE]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

LLVM_MC = "llvm-mc-22"
MCPU = "gfx942"


def disasm(words):
    """Disassembles one instruction given as little-endian 32-bit words (+ a trailing
    literal dword in case the instruction takes one). Returns the text or None."""
    data = b"".join(w.to_bytes(4, "little") for w in words + [0x3F800000])
    hexs = " ".join(f"0x{b:02x}" for b in data)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=" + MCPU, "--disassemble"],
                       input=hexs, capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    if not lines:
        return None
    # The first instruction decoded must start at byte 0: an invalid first word produces a
    # warning at <stdin>:1:1.
    if "<stdin>:1:1:" in r.stderr:
        return None
    # The disassembler decodes some operand fields it then flags ("/*Invalid register...*/"):
    # such a probe picked the wrong operand kinds; another variant will fit.
    if "/*" in lines[0]:
        return None
    return lines[0]


REG_RE = re.compile(r"^(-?\|?)([vsa])(?:(\d+)|\[(\d+):(\d+)\])\|?$")


def split_operands(text):
    """mnemonic, [operand strings] (modifiers after the last operand are dropped)."""
    parts = text.split(None, 1)
    mnem = parts[0]
    if len(parts) == 1:
        return mnem, []
    rest = parts[1]
    ops, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    ops.append(cur.strip())
    # The last operand may be followed by space-separated modifiers.
    last = ops[-1]
    depth, cut = 0, None
    for i, ch in enumerate(last):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == " " and depth == 0:
            cut = i
            break
    if cut is not None:
        ops[-1] = last[:cut]
    return mnem, [o for o in ops if o]


def signature(ops, fieldmap):
    """fieldmap: {(class, number): field} tried in order; a (class, number) may map to a
    list of fields consumed in order (vdst then sdst for VOP3b)."""
    used = {}
    sig = []
    for o in ops:
        m = REG_RE.match(o)
        if m:
            cls = m.group(2)
            if m.group(3) is not None:
                lo = hi = int(m.group(3))
            else:
                lo, hi = int(m.group(4)), int(m.group(5))
            n = hi - lo + 1
            key = lo
            cands = fieldmap.get(key, [])
            k = used.get(key, 0)
            if k < len(cands):
                used[key] = k + 1
                sig.append(f"{cands[k]}:{cls}{n}")
            else:
                sig.append(f"?{lo}:{cls}{n}")
            continue
        low = o.lower()
        if low == "gds":  # the GWS opcodes' modifier, printed alone when there is no operand
            continue
        if low in ("vcc", "exec", "m0", "scc", "off", "vcc_lo", "exec_lo"):
            sig.append(low)
        elif low.startswith("hwreg("):
            sig.append("hwreg")
        elif low.startswith("sendmsg("):
            sig.append("sendmsg")
        elif low.startswith("gpr_idx("):
            sig.append("gpr_idx")
        else:
            sig.append("imm")
    return " ".join(sig)


V = 256  # VGPR base in a 9-bit source field


def probes():
    """Yields (format, opcode, [variants of word lists], fieldmap)."""
    # SOP2: [31:30]=10 op[29:23] sdst[22:16] ssrc1[15:8] ssrc0[7:0]
    fm_s = {0: ["sdst"], 4: ["src0"], 8: ["src1"]}
    for op in range(0, 96):
        yield "SOP2", op, [[0x80000000 | op << 23 | 0 << 16 | 8 << 8 | 4]], fm_s
    # SOPK: 1011 op[27:23] sdst[22:16] simm16
    for op in range(0, 29):  # 29..31 are the SOP1/SOPC/SOPP prefixes
        yield "SOPK", op, [[0xB0000000 | op << 23 | 0 << 16 | 0x0003]], fm_s
    # SOP1: 101111101 sdst[22:16] op[15:8] ssrc0[7:0]
    for op in range(0, 256):
        yield "SOP1", op, [[0xBE800000 | 0 << 16 | op << 8 | 4]], fm_s
    # SOPC: 101111110 op[22:16] ssrc1[15:8] ssrc0[7:0]
    for op in range(0, 128):
        yield "SOPC", op, [[0xBF000000 | op << 16 | 8 << 8 | 4]], fm_s
    # SOPP: 101111111 op[22:16] simm16
    for op in range(0, 128):
        yield "SOPP", op, [[0xBF800000 | op << 16 | 3], [0xBF800000 | op << 16]], fm_s
    # SMEM (gfx9): 110000 op[25:18] imm[17] glc[16] soe[14] sdata[12:6] sbase[5:0]; offset[20:0]
    fm_m = {0: ["sdata"], 4: ["sbase"], 8: ["soffset"]}
    for op in range(0, 256):
        w0 = 0xC0000000 | op << 18 | 1 << 17 | 0 << 6 | 2
        # s_memtime/s_dcache_inv take no sbase/offset: those fields must then be zero.
        yield "SMEM", op, [[w0, 0x10], [w0 & ~0x3F, 0], [w0 & ~0x3F & ~(1 << 17), 0]], fm_m
    # VOP2: 0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
    fm_v = {0: ["vdst", "sdst"], 4: ["src0"], 8: ["src1"], 12: ["src2"]}
    for op in range(0, 62):
        yield "VOP2", op, [[op << 25 | 0 << 17 | 8 << 9 | (V + 4)],
                           [op << 25 | 0 << 17 | 8 << 9 | 4]], fm_v
    # VOP1: 0111111 vdst[24:17] op[16:9] src0[8:0]
    for op in range(0, 256):
        yield "VOP1", op, [[0x7E000000 | 0 << 17 | op << 9 | (V + 4)],
                           [0x7E000000 | 0 << 17 | op << 9 | 4]], fm_v
    # VOPC: 0111110 op[24:17] vsrc1[16:9] src0[8:0]
    for op in range(0, 256):
        yield "VOPC", op, [[0x7C000000 | op << 17 | 8 << 9 | (V + 4)]], fm_v
    # VOP3 (gfx9): 110100 op[25:16] clamp[15] op_sel/sdst[14:8] vdst[7:0]; neg omod src2 src1 src0
    def vop3(op, s0, s1, s2):
        return [0xD0000000 | op << 16 | 0, s0 | s1 << 9 | s2 << 18]
    for op in range(0, 0x380):
        yield "VOP3", op, [vop3(op, V + 4, V + 8, V + 12), vop3(op, V + 4, 8, V + 12),
                           vop3(op, 4, 8, V + 12), vop3(op, 4, V + 8, V + 12),
                           vop3(op, 4, 8, 12)], fm_v
    # VOP3P: 110100111 op[22:16] (MAI: acc_cd[15], abid[14:11], cbsz[10:8]) vdst[7:0];
    # neg_lo/blgp[31:29] op_sel_hi/acc[28:27] src2 src1 src0
    for op in range(0, 128):
        w1 = (V + 4) | (V + 8) << 9 | (V + 12) << 18
        yield "VOP3P", op, [[0xD3800000 | op << 16, w1 | 3 << 27],
                            [0xD3800000 | op << 16, w1]], fm_v
    # DS: 110110 acc[25] op[24:17] gds[16] offset1[15:8] offset0[7:0]; vdst data1 data0 addr.
    # The disassembler rejects a non-zero field the instruction does not use, so variants zero
    # subsets of the operand fields (most operands first).
    # GDS-only opcodes (ds_gws_*) decode only with the gds bit set; those variants come last,
    # so an opcode valid without it keeps its gds-less row.
    fm_d = {16: ["vdst"], 4: ["addr"], 8: ["data0"], 12: ["data1"]}
    for op in range(0, 256):
        ws = subsets([(4, 0), (8, 8), (12, 16), (16, 24)])
        yield "DS", op, [[0xD8000000 | op << 17, w] for w in ws] + \
                        [[0xD8000000 | op << 17 | 1 << 16, w] for w in ws], fm_d
    # FLAT: 110111 op[24:18] slc/nt[17] glc/sc0[16] seg[15:14] lds/sve[13] offset[12:0];
    # vdst[31:24] acc/nv[23] saddr[22:16] data[15:8] addr[7:0]
    fm_f = {16: ["vdst"], 4: ["addr"], 8: ["data"], 20: ["saddr"]}
    for seg, fmt in ((0, "FLAT"), (1, "SCRATCH"), (2, "GLOBAL")):
        for op in range(0, 128):
            w0 = 0xDC000000 | op << 18 | seg << 14
            vs = []
            for saddr in (0x7F, 20, 0):
                for w in subsets([(4, 0), (8, 8), (16, 24)]):
                    vs.append([w0, w | saddr << 16])
            if seg == 1:  # scratch with SVE (vaddr enable, bit 13)
                vs += [[w0 | 1 << 13, w | 0x7F << 16] for w in subsets([(4, 0), (8, 8), (16, 24)])]
            yield fmt, op, vs, fm_f
    # MUBUF: 111000 op[24:18] slc[17] lds[16] glc[14] idxen[13] offen[12] offset[11:0];
    # soffset[31:24] tfe[23] srsrc[20:16] vdata[15:8] vaddr[7:0]
    fm_b = {16: ["vdata"], 4: ["vaddr"], 8: ["srsrc"]}
    for op in range(0, 128):
        yield "MUBUF", op, [[0xE0000000 | op << 18 | 1 << 12, w | 2 << 16 | 0x80 << 24]
                            for w in subsets([(4, 0), (16, 8)])] + \
                           [[0xE0000000 | op << 18, 2 << 16 | 0x80 << 24]], fm_b


def subsets(fields):
    """Words with every subset of (value, shift) fields present, largest subsets first."""
    n = len(fields)
    out = []
    for mask in sorted(range(1 << n), key=lambda m: -bin(m).count("1")):
        w = 0
        for i, (v, sh) in enumerate(fields):
            if mask >> i & 1:
                w |= v << sh
        out.append(w)
    return out


def run_probe(p):
    fmt, op, variants, fm = p
    for words in variants:
        t = disasm(words)
        if t is not None:
            mnem, ops = split_operands(t)
            return fmt, op, mnem, signature(ops, fm), t, words
    return None


def main():
    global LLVM_MC, MCPU
    ap = argparse.ArgumentParser()
    ap.add_argument("--llvm-mc", default="llvm-mc-22")
    ap.add_argument("--mcpu", default="gfx942", choices=["gfx942", "gfx950"])
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    LLVM_MC = args.llvm_mc
    MCPU = args.mcpu
    if args.out is None:
        args.out = os.path.join(os.path.dirname(__file__), "..", "sim", "src", "gen",
                                f"{MCPU}_opcodes.inc")
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for r in ex.map(run_probe, probes()):
            if r:
                rows.append(r)
    # VOP1/VOP2/VOPC 32-bit forms decoded as themselves; VOP3 rows may repeat mnemonics with
    # _e64. A 32-bit probe that decodes as a different encoding (e.g. VOP2 op 0x3e+) is dropped.
    out = []
    out.append(f"// GENERATED by tools/gen_sim_decode.py from llvm-mc-22's {MCPU} disassembler.")
    out.append("// {format, opcode, printed mnemonic, operand signature}; do not edit.")
    seen = set()
    for fmt, op, mnem, sig, text, words in rows:
        key = (fmt, op)
        if key in seen:
            continue
        seen.add(key)
        out.append(f'{{Format::{fmt}, 0x{op:03x}, "{mnem}", "{sig}"}},  // {text}')
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(rows)} opcodes -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
