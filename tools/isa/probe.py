"""Operand rules of every mnemonic, learnt from llvm-mc-22 by assembling variants.

For each instruction (an entry = mnemonic + operand count, e.g. the returning and
non-returning forms of global atomics are two entries) we take a disassembled text
that re-assembles as the baseline, then substitute one operand slot at a time with
an SGPR, VGPR, AGPR, inline constant, literal, vcc, exec, m0 or `off`, in each form
(_e32, _e64, plain), append each modifier, and record what llvm-mc accepts."""
import re
from collections import OrderedDict

from . import mc
from .parse import classify, parse

KEEP_MODS = ("offen", "idxen", "lds", "gds")


class Entry:
    def __init__(self, name, family, nops, variant):
        self.name, self.family, self.nops, self.variant = name, family, nops, variant
        self.cands = OrderedDict()  # form -> [(ops, mods)]
        self.base = {}              # form -> (ops, mods) that assembles
        self.slots = []             # per slot: dict
        self.mods = set()
        self.slot_mods = {}         # slot -> {"neg", "abs"}
        self.slot_acc = {}          # (form, slot) -> {candidate: (accepted, bytes)}
        self.acc_tied = set()       # slots that must all be VGPRs or all AGPRs
        self.defs = 0               # leading operands written (set by flags.roles)
        self.op_sel_len = 0
        self.op_sel_hi_len = 0
        self.width_by = {}          # slot -> "cbsz" / "blgp": its width follows that format code

    @property
    def key(self):
        return (self.name, self.nops, self.variant)

    def spell(self, form):
        return self.name + ("_" + form if form in ("e32", "e64") else "")


def _variant(name, family, ops, mods):
    if family == "mubuf" and "lds" in mods:
        return "lds"
    if family in ("flat", "global", "scratch") and "atomic" in name and "sc0" in mods:
        return "rtn"
    return ""


def collect(decoded):
    entries = OrderedDict()
    for family, text in decoded:
        mnem, form, ops, mods = parse(text, family)
        if family in ("vop1", "vop2", "vopc") and form == "":
            form = "e32"  # printed without suffix when there is no VOP3 form (v_readfirstlane_b32)
        var = _variant(mnem, family, ops, mods)
        mods = [m for m in mods if m in KEEP_MODS] + (["sc0"] if var == "rtn" else [])
        key = (mnem, len(ops), var)
        e = entries.get(key)
        if e is None:
            e = entries[key] = Entry(mnem, family, len(ops), var)
        if form == "e32" and e.family not in ("vop1", "vop2", "vopc"):
            e.family = family
        lst = e.cands.setdefault(form or "", [])
        if (ops, mods) not in lst:
            lst.append((ops, mods))
    # SOPK/SOP1 etc. ranges are exact, but an instruction decoded first as VOP3 that
    # also has an e32 form was re-labelled above; plain VOP3 forms of VOP1/2/C are e64.
    return list(entries.values())


def line(e, form, ops, mods):
    s = e.spell(form)
    if ops:
        s += " " + ", ".join(ops)
    if mods:
        s += " " + " ".join(mods)
    return s


def choose_baselines(entries):
    jobs = []
    for e in entries:
        for form, lst in e.cands.items():
            for ops, mods in lst:
                jobs.append((e, form, ops, mods))
    res = mc.assemble([line(e, f, o, m) for e, f, o, m in jobs])
    for (e, form, ops, mods), (ok, _, nbytes) in zip(jobs, res):
        if ok and form not in e.base:
            e.base[form] = (ops, mods, nbytes)
    return [e for e in entries if e.base]


def _sreg(w):
    return {1: "s20", 2: "s[20:21]", 3: "s[20:22]", 4: "s[20:23]", 8: "s[24:31]", 16: "s[32:47]"}.get(w)


def _vreg(p, w):
    if w == 1:
        return "%s40" % p
    base = 40 if w <= 8 else 64
    return "%s[%d:%d]" % (p, base, base + w - 1)


def slot_candidates(w, memory):
    c = OrderedDict()
    if _sreg(w):
        c["sgpr"] = _sreg(w)
    c["vgpr"] = _vreg("v", w)
    c["agpr"] = _vreg("a", w)
    c["inline"] = "1"
    c["literal"] = "0x1234"
    if w == 1:
        c.update(vcc="vcc_lo", exec="exec_lo", m0="m0")
    elif w == 2:
        c.update(vcc="vcc", exec="exec")
    if memory:  # elsewhere `off` parses as a symbol (a literal), not the keyword
        c["off"] = "off"
    return c


MEMORY = ("ds", "flat", "global", "scratch", "mubuf")


def _joint_jobs(e):
    """Probes that must change several slots together."""
    if "" not in e.base:
        return []
    ops, mods, _ = e.base[""]
    jobs = []
    kinds = [classify(t) for t in ops]
    # Data/result operands of memory ops and MFMA dst+C switch to AGPRs together (one
    # acc bit for the instruction): replace all of them at once.
    if e.family in MEMORY or e.name.startswith(("v_mfma", "v_smfmac")):
        if e.name.startswith("v_mfma"):
            group = [0, 3] if len(ops) >= 4 else [0]  # dst and C (the scaled forms have 6)
        elif e.name.startswith("v_smfmac"):
            group = [0]
        else:
            addr = address_slot(e)
            group = [i for i, (k, w) in enumerate(kinds) if k == "vgpr" and i != addr]
        if group and all(kinds[i][0] == "vgpr" for i in group):
            o = list(ops)
            for i in group:
                o[i] = "a[%d:%d]" % (64, 64 + kinds[i][1] - 1) if kinds[i][1] > 1 else "a%d" % (64 + 2 * group.index(i))
            jobs.append((e, "", tuple(group), "agpr", line(e, "", o, mods)))
    # global: an SGPR base (saddr) makes vaddr a 32-bit offset
    if e.family == "global":
        a, sa = address_slot(e), len(ops) - 1  # saddr is the last operand
        if ops and ops[sa] == "off":
            o = list(ops)
            o[a], o[sa] = "v40", "s[20:21]"
            jobs.append((e, "", (sa,), "sgpr", line(e, "", o, mods)))
    return jobs


def address_slot(e):
    """Index of the VGPR address operand of a memory instruction: MUBUF always puts vdata
    first (except loads into LDS, which have none); DS/FLAT put the address after the
    result of a load and first in a store."""
    if e.family == "mubuf":
        return 0 if e.variant == "lds" else 1
    return 1 if e.defs else 0


# Immediate values that tell the operand's inline-constant set and literal rules apart.
IMM_PROBES = OrderedDict([
    ("f32", "0x3f000000"), ("f16", "0x3800"), ("f64", "0x3fe0000000000000"),
    ("lit32", "0x12345678"), ("lit16", "0x1234"), ("lit64hi", "0x3ff0000100000000"),
    ("neg", "-17"), ("u32max", "0xffffffff"),
])


def probe_slots(entries):
    jobs = []
    for e in entries:
        for form, (ops, mods, _) in e.base.items():
            for i, tok in enumerate(ops):
                kind, w = classify(tok)
                field = e.family in ("sopp", "sopk", "smem") and kind == "imm"
                if e.family == "sopp":
                    continue
                for cname, ctok in slot_candidates(w, e.family in MEMORY).items():
                    if field and cname in ("inline", "literal"):
                        continue  # an immediate field of the encoding, not a source
                    o = list(ops)
                    o[i] = ctok
                    jobs.append((e, form, i, cname, line(e, form, o, mods)))
        jobs.extend(_joint_jobs(e))
    res = mc.assemble([j[-1] for j in jobs])
    for (e, form, i, cname, _), (ok, msg, nb) in zip(jobs, res):
        # The kind is legal in the slot if only the constant bus was exceeded (the baseline
        # may already read vcc or an SGPR, e.g. v_cndmask_b32, v_div_fmas_f32): the checker
        # enforces the bus separately.
        if not ok and "constant bus" in msg:
            ok = True
        if isinstance(i, tuple):  # a joint probe: several slots at once
            if ok:
                for k in i:
                    e.slot_acc[(form, k)][cname] = (ok, nb)
                if cname == "agpr":
                    e.acc_tied = set(i) if len(i) > 1 else set()
            continue
        e.slot_acc.setdefault((form, i), {})[cname] = (ok, nb)
    # second round: immediate typing where an inline constant was accepted
    jobs2 = []
    for e in entries:
        for form, (ops, mods, _) in e.base.items():
            for i, tok in enumerate(ops):
                d = e.slot_acc.get((form, i))
                if not d or not d.get("inline", (False,))[0]:
                    continue
                for pname, ptok in IMM_PROBES.items():
                    o = list(ops)
                    o[i] = ptok
                    jobs2.append((e, form, i, pname, line(e, form, o, mods)))
    # immediate fields of scalar instructions: 16-bit, or only 4 bits (s_set_gpr_idx_*)?
    for e in entries:
        if not e.family.startswith("sop"):
            continue
        for form, (ops, mods, _) in e.base.items():
            for i, tok in enumerate(ops):
                if classify(tok)[0] != "imm" and e.family != "sopp":
                    continue
                for pname, ptok in (("u4_15", "15"), ("u4_16", "16")):
                    o = list(ops)
                    o[i] = ptok
                    jobs2.append((e, form, i, pname, line(e, form, o, mods)))
    res2 = mc.assemble([j[-1] for j in jobs2])
    for (e, form, i, pname, _), (ok, _, nb) in zip(jobs2, res2):
        if pname.startswith("u4_"):
            e.slot_acc.setdefault((form, i), {})[pname] = (ok, nb)
        else:
            e.slot_acc[(form, i)]["imm_" + pname] = (ok, nb)


MOD_PROBES = [
    ("offset", "offset:16"), ("offset01", "offset0:1 offset1:2"), ("glc", "glc"), ("slc", "slc"),
    ("nt", "nt"), ("sc0", "sc0"), ("sc1", "sc1"), ("lds", "lds"), ("gds", "gds"),
    ("clamp", "clamp"), ("omod", "mul:2"), ("cbsz", "cbsz:1"), ("abid", "abid:1"),
    ("blgp", "blgp:1"), ("bitop3", "bitop3:1"),
]


def _bits(n):
    return "[" + ",".join(["1"] + ["0"] * (n - 1)) + "]"


def _lens(e):
    """op_sel length (VOP3: sources + dst; VOP3P: sources) and source count."""
    nsrc = sum(1 for r in e.roles if r != "def")
    return (nsrc if e.family == "vop3p" else nsrc + 1), nsrc


def probe_mods(entries):
    jobs = []
    for e in entries:
        vop = e.family.startswith("vop") or e.family == "mfma"
        form = "e64" if "e64" in e.base else ("" if "" in e.base else "e32")
        ops, mods, _ = e.base[form]
        sel_len, nsrc = _lens(e)
        # Non-default values: a modifier only zeros may take is no use (v_dot2 op_sel).
        # llvm-mc's VOP3P lists hold at most three entries: the scaled MFMAs (five sources)
        # take three for the two scale sources of their v_mfma_ld_scale_b32 half.
        if e.name.startswith("v_mfma_scale"):
            sel_len = nsrc = e.op_sel_hi_len = 3
        probes = MOD_PROBES + [("op_sel", "op_sel:" + _bits(sel_len)),
                               ("op_sel_hi", "op_sel_hi:[" + ",".join(["0"] * max(nsrc, 1)) + "]"),
                               ("neg_lo_hi", "neg_lo:" + _bits(max(nsrc, 1)))]
        for mname, mtext in probes:
            if mname in mods:
                continue
            # llvm-mc wants offen/idxen, then offsets, then the cache-policy bits, then lds
            def rank(m):
                return 0 if m in ("offen", "idxen") else 1 if m.startswith("offset") else 3 if m == "lds" else 2
            m2 = sorted(mods + [mtext], key=rank)
            jobs.append((e, mname, None, line(e, form, ops, m2)))
        # neg/abs per source slot (VOP3 forms)
        if vop and form in ("e64", ""):
            for i, tok in enumerate(ops):
                if classify(tok)[0] in ("vgpr", "sgpr"):
                    for mname, t in (("neg", "-" + tok), ("abs", "|" + tok + "|")):
                        o = list(ops)
                        o[i] = t
                        jobs.append((e, mname, i, line(e, form, o, mods)))
        if "e32" in e.base:
            o32, m32, _ = e.base["e32"]
            plain = Entry(e.name, e.family, e.nops, "")
            jobs.append((e, "dpp", None, line(plain, "", o32, m32 + ["quad_perm:[0,1,2,3]", "row_mask:0xf", "bank_mask:0xf"])))
            jobs.append((e, "sdwa", None, line(plain, "", o32, m32 + ["src0_sel:WORD_1"])))
            jobs.append((e, "sdwa_dst", None, line(plain, "", o32, m32 + ["dst_sel:WORD_1", "src0_sel:WORD_1"])))
    res = mc.assemble([j[-1] for j in jobs])
    for (e, mname, slot, _), (ok, text, _) in zip(jobs, res):
        if not ok:
            continue
        if mname == "op_sel":
            # llvm-mc prints op_sel at its own length: it drops entries past the last one the
            # encoding has and pads a short list (v_cvt_pk_fp8_f32 has [src0, src1, dst] though
            # its vdst is also read; v_cvt_sr_fp8_f32 has four entries for two sources)
            m = re.search(r"op_sel:\[([^\]]*)\]", text)
            if m:
                e.op_sel_len = len(m.group(1).split(","))
        if slot is not None:
            e.slot_mods.setdefault(slot, set()).add(mname)
        else:
            e.mods.add(mname)


# The f8f6f4 format codes (cbsz for A, blgp for B) and the register count of each (the ISA's:
# fp8 / bf8 8 dwords, fp6 / bf6 6, fp4 4); isa::f8f6f4_dwords states the same.
F8F6F4_DWORDS = {0: 8, 1: 8, 2: 6, 3: 6, 4: 4}


def probe_format_widths(entries):
    """MFMAs whose A (B) width follows cbsz (blgp): for each format code, the widths llvm-mc
    accepts in the slot; a slot whose accepted width changes with the code is recorded, and it
    must match F8F6F4_DWORDS exactly (one width a code)."""
    jobs = []
    for e in entries:
        if not {"cbsz", "blgp"} <= e.mods or "" not in e.base:
            continue
        ops, mods, _ = e.base[""]
        for slot, mod in ((1, "cbsz"), (2, "blgp")):
            if classify(ops[slot])[0] not in ("vgpr", "agpr"):
                continue
            p = "a" if ops[slot].startswith("a") else "v"
            for code in F8F6F4_DWORDS:
                for w in range(1, 9):
                    o = list(ops)
                    o[slot] = _vreg(p, w)
                    jobs.append((e, slot, mod, code, w, line(e, "", o, mods + ["%s:%d" % (mod, code)])))
    res = mc.assemble([j[-1] for j in jobs])
    acc = {}
    for (e, slot, mod, code, w, _), (ok, _, _) in zip(jobs, res):
        if ok:
            acc.setdefault((id(e), slot, mod), (e, {}))[1].setdefault(code, []).append(w)
    for (_, slot, mod), (e, by_code) in acc.items():
        widths = {c: tuple(ws) for c, ws in by_code.items()}
        if len(set(widths.values())) <= 1:
            continue
        assert widths == {c: (n,) for c, n in F8F6F4_DWORDS.items()}, (e.name, slot, widths)
        e.width_by[slot] = mod
