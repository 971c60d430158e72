"""Batch front end to llvm-mc-22: many lines per run, one result per line.

llvm-mc keeps going after an error and names the failing line, so one process can
check thousands of candidate instructions; results are matched to input lines by
line number (errors) and by order (successes)."""
import os
import re
import subprocess
import tempfile

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-22")
MC_ARGS = ["-arch=amdgcn", "-mcpu=gfx942"]  # set_arch() switches the target


def set_arch(arch):
    MC_ARGS[1] = "-mcpu=" + arch

_diag = re.compile(r"^[^:]*:(\d+):\d+: (error|warning): (.*)$")
_enc = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")


def _run(args, text):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([LLVM_MC] + MC_ARGS + args + [path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    return r.stdout, r.stderr


def assemble(lines):
    """Assemble each line; returns [(ok, text_or_error, nbytes)] in input order."""
    assert all("\n" not in l for l in lines)
    out, err = _run(["-show-encoding"], "\n".join(lines) + "\n")
    bad = {}
    for e in err.splitlines():
        m = _diag.match(e)
        if m and m.group(2) == "error":
            bad.setdefault(int(m.group(1)) - 1, m.group(3))
    encs = []
    for o in out.splitlines():
        m = _enc.match(o)
        if m:
            encs.append((m.group(1), len(m.group(2).split(","))))
    res = []
    it = iter(encs)
    for i in range(len(lines)):
        if i in bad:
            res.append((False, bad[i], 0))
        else:
            t, n = next(it)
            res.append((True, t, n))
    rest = list(it)
    assert not rest, "llvm-mc printed more instructions than lines: %r" % rest[:3]
    return res


_MARKER = [0x05, 0x00, 0x80, 0xBF]  # s_nop 5: separates the candidates in the output


def disassemble(byte_lines):
    """Disassemble each line of bytes; returns [text or None] in input order.

    A line may decode as a valid prefix plus garbage, or garbage then something
    valid; a marker instruction after every line keeps the output aligned."""
    assert all(list(bl) != _MARKER for bl in byte_lines)
    rows = []
    for bl in byte_lines:
        rows.append(" ".join("0x%02x" % b for b in bl))
        rows.append(" ".join("0x%02x" % b for b in _MARKER))
    out, err = _run(["--disassemble", "-show-encoding"], "\n".join(rows) + "\n")
    bad = set()
    for e in err.splitlines():
        m = _diag.match(e)
        if m:
            bad.add((int(m.group(1)) - 1) // 2)
    chunks, cur = [], []
    for o in out.splitlines():
        m = _enc.match(o)
        if not m:
            continue
        enc = [int(x, 16) for x in m.group(2).split(",")]
        if enc == _MARKER:
            chunks.append(cur)
            cur = []
        elif enc[-4:] == _MARKER:  # took the marker as its literal: not this line's form
            cur.append((m.group(1), None))
            chunks.append(cur)
            cur = []
        else:
            cur.append((m.group(1), enc))
    assert len(chunks) == len(byte_lines), "disassembler output out of step"
    # Unused fields are printed canonicalised (zero), so compare lengths, not bytes.
    return [c[0][0] if i not in bad and len(c) == 1 and c[0][1] is not None
            and len(c[0][1]) == len(bl) else None
            for i, (c, bl) in enumerate(zip(chunks, byte_lines))]
