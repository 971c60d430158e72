"""Split llvm-mc's printed instructions into mnemonic, operands and modifiers."""
import re

FORM_SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa")
BARE_MODIFIERS = ("gds", "offen", "idxen", "lds", "glc", "slc", "nt", "sc0", "sc1", "clamp")


def split_top(s):
    """Split at commas outside () and []."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse(text, family):
    """-> (mnemonic, form, operands[list of str], modifiers[list of str])."""
    text = text.strip()
    mnem, _, rest = text.partition(" ")
    form = ""
    for suf in FORM_SUFFIXES:
        if mnem.endswith(suf):
            mnem, form = mnem[: -len(suf)], suf[1:]
    rest = rest.strip()
    if family == "sopp":
        # One immediate field, possibly printed symbolically (vmcnt(0) lgkmcnt(0)).
        return mnem, form, ([rest] if rest else []), []
    ops = split_top(rest) if rest else []
    mods = []
    if ops:
        last = ops[-1]
        # the last operand ends at the first space outside parentheses
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
            ops[-1], mods = last[:cut], last[cut + 1:].split()
        # Modifiers only, no operands ("offset:16", "gds")
        if len(ops) == 1 and not re.match(r"^[sva]\[|^ttmp", ops[0]) and all(
                ":" in t or t in BARE_MODIFIERS for t in ops[0].split()):
            mods = ops[0].split() + mods
            ops = []
    return mnem, form, ops, mods


_reg = re.compile(r"^([sva])(\d+)$|^([sva])\[(\d+):(\d+)\]$")
SPECIAL_WIDTH = {"vcc": 2, "exec": 2, "vcc_lo": 1, "vcc_hi": 1, "exec_lo": 1, "exec_hi": 1,
                 "m0": 1, "flat_scratch": 2, "scc": 1}


def classify(tok):
    """-> (kind, width) with kind in sgpr/vgpr/agpr/special/off/imm."""
    m = _reg.match(tok)
    if m:
        if m.group(1):
            return {"s": "sgpr", "v": "vgpr", "a": "agpr"}[m.group(1)], 1
        lo, hi = int(m.group(4)), int(m.group(5))
        return {"s": "sgpr", "v": "vgpr", "a": "agpr"}[m.group(3)], hi - lo + 1
    if tok in SPECIAL_WIDTH:
        return "special", SPECIAL_WIDTH[tok]
    if tok == "off":
        return "off", 1
    return "imm", 1
