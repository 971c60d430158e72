#!/usr/bin/env python3
"""hipasm-sim command line on the launch test kernels (launch_kernels.s).

Usage: cli_launch.py HIPASM_SIM CODE_OBJECT WORKDIR

- `info` prints the target ID from e_flags (the metadata has none), the kernarg size from the
  metadata when the descriptor says 0, and the preload layout;
- `--arg null` passes a null pointer (optional_ptr writes -1) and is refused for a scalar;
- `--kernarg-size` gives a kernel that reads past the metadata's segment the bytes it reads
  (zero); without it the read is an out-of-bounds error; bad values are refused;
- a kernel with kernarg preloading and a 0 kernarg_size descriptor run end to end.
Errors must be one line on stderr, "hipasm-sim: error: ...", with a non-zero status.
"""
import os
import re
import struct
import subprocess
import sys

failures = []


def run(args, expect_ok):
    p = subprocess.run([SIM] + args, capture_output=True, timeout=120)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    label = " ".join(args)
    if p.returncode < 0 or p.returncode >= 128:
        failures.append(f"{label}: crashed (status {p.returncode})")
    elif p.returncode != 0 and (len(err.splitlines()) != 1 or not err.startswith("hipasm-sim: error: ")):
        failures.append(f"{label}: status {p.returncode} but stderr is not one error line: {err!r}")
    if expect_ok and p.returncode != 0:
        failures.append(f"{label}: expected success, got {p.returncode}: {err.strip()}")
    if not expect_ok and p.returncode == 0:
        failures.append(f"{label}: expected a failure, got status 0")
    return p.returncode, out, err


def block(text, kernel):
    """The `info` lines of one kernel ("" when it is not listed)."""
    parts = text.split(f"\nkernel {kernel}\n")
    return parts[1].split("\nkernel ")[0] if len(parts) > 1 else ""


def ints(path, n):
    return list(struct.unpack(f"<{n}i", open(path, "rb").read(4 * n)))


def main():
    global SIM
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    SIM, co, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "out.bin")

    status, text, err = run(["info", co], True)
    if "target amdgcn-amd-amdhsa--gfx942 (from e_flags" not in text:
        failures.append(f"info does not print the target from e_flags: {text[:200]!r}")
    zero = block(text, "zero_kernarg_size")
    if "kernarg_size 24 (align 8) from the metadata (descriptor kernarg_size 0: unspecified)" not in zero:
        failures.append(f"info zero_kernarg_size: {zero!r}")
    pre = block(text, "preload_offset")
    if "kernarg preload: 2 dwords from dword 3 into s4..s5" not in pre:
        failures.append(f"info preload_offset: {pre!r}")

    # --arg null
    status, text, err = run(["run", co, "optional_ptr", "--grid", "1", "--block", "64",
                             "--arg", f"out={out}:256", "--arg", "null"], True)
    if status == 0 and ints(out, 64) != [-1] * 64:
        failures.append(f"optional_ptr with a null input: {ints(out, 8)}")
    inp = os.path.join(work, "in.bin")
    open(inp, "wb").write(struct.pack("<64i", *range(64)))
    status, text, err = run(["run", co, "optional_ptr", "--grid", "1", "--block", "64",
                             "--arg", f"out={out}:256", "--arg", f"in={inp}"], True)
    if status == 0 and ints(out, 64) != [2 * i for i in range(64)]:
        failures.append(f"optional_ptr with an input: {ints(out, 8)}")
    status, text, err = run(["run", co, "past_segment", "--grid", "1", "--block", "64",
                             "--arg", "null", "--arg", "i32=1", "--arg", "i32=0"], False)
    status, text, err = run(["run", co, "zero_kernarg_size", "--grid", "1", "--block", "64",
                             "--arg", f"out={out}:256", "--arg", "null", "--arg", "i32=1", "--arg", "i32=2"], False)
    if "null" not in err:
        failures.append(f"null for a scalar: the error does not say why: {err.strip()}")

    # --kernarg-size
    base = ["run", co, "past_segment", "--grid", "1", "--block", "64",
            "--arg", f"out={out}:256", "--arg", "i32=42", "--arg", "i32=0"]
    status, text, err = run(base, False)
    if "16-byte allocation" not in err:
        failures.append(f"past_segment without --kernarg-size: {err.strip()}")
    status, text, err = run(base + ["--kernarg-size", "24"], True)
    if status == 0 and ints(out, 64) != [42] * 64:
        failures.append(f"past_segment --kernarg-size 24: {ints(out, 8)}")
    status, text, err = run(base + ["--kernarg-size=0x18"], True)
    for bad in ["-1", "lots", "2000000", ""]:
        run(base + ["--kernarg-size", bad], False)

    # kernarg preloading and a 0 kernarg_size descriptor, end to end
    status, text, err = run(["run", co, "preload_offset", "--grid", "2", "--block", "64",
                             "--arg", f"out={out}:512", "--arg", "i32=5", "--arg", "i32=3", "--arg", "i32=7"], True)
    if status == 0:
        want = [5 + 3 * t + 7 + 1000 * g + 100000 * 64 for g in range(2) for t in range(64)]
        if ints(out, 128) != want:
            failures.append(f"preload_offset: {ints(out, 4)} want {want[:4]}")
    status, text, err = run(["run", co, "zero_kernarg_size", "--grid", "1", "--block", "64",
                             "--arg", f"out={out}:256", "--arg", "i32=1", "--arg", "i32=2", "--arg", "i32=3"], True)
    if status == 0 and ints(out, 64) != [1 + 2 * t + 3 for t in range(64)]:
        failures.append(f"zero_kernarg_size: {ints(out, 4)}")
    # --trace: the backward branch with its target and signed offset
    status, text, err = run(["run", co, "count_loop", "--grid", "1", "--block", "64", "--trace",
                             "--arg", f"out={out}:256", "--arg", "i32=10"], True)
    branches = [l for l in text.splitlines() if "branch" in l]
    if not any(re.search(r"s_cbranch_scc1 count_loop_head \((0x[0-9a-f]+), offset -4\)  ->  pc=\1$", l) for l in branches):
        failures.append(f"--trace backward branch text: {branches[:1]}")
    if not any("s_branch 1 <count_loop_head+0x18> (0x" in l and ", offset 1)" in l for l in branches):
        failures.append(f"--trace forward branch text: {branches[-1:]}")

    for f in failures:
        print("FAIL:", f)
    print(f"cli launch: {'failed' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
