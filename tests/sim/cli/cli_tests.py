#!/usr/bin/env python3
"""hipasm-sim command-line tests.

Usage: cli_tests.py GROUP HIPASM_SIM CODE_OBJECT WORKDIR

GROUP is one of:
  corpus   broken files derived from a valid clang-22 code object (truncations, header bit
           flips, section offsets past the end, bad msgpack, empty and non-ELF files, wrong
           machine): `info` and `run` on each must fail cleanly.
  args     bad command lines and argument lists against a valid code object.
  info     `info` lists every kernel with its argument layout (the C ABI offsets of
           test_loader_kernels.hip's args_mix); --help works.
  run      `run` executes args_mix and ids_3d end to end through files; outputs are
           compared with a Python computation of what the kernels do.
  fatbin   CODE_OBJECT is a fat binary of examples/vector_add.hip for gfx942 and gfx950
           (hipasm_add_code_object, two ARCH values): `info` lists its entries, `run` and
           `profile` with --device mi300x / mi355x run the device's code object (checked with
           numpy-free Python), and bundles without the device's target, truncated or corrupt
           ones fail cleanly.
  node     CODE_OBJECT is tests/sim/multi/peer_kernels.hip's: `node PROGRAM` runs two and four
           devices exchanging their parts through peer mappings (outputs checked), the missing
           acquire gives peer-visibility findings (exit 3), and bad programs fail cleanly.

"Fails cleanly" means: exit status 1..127 (not 0, not killed by a signal), exactly one line on
stderr, starting with "hipasm-sim: error: ". Random mutations may leave a file valid; those
must then succeed, and enough of them must be refused for the test to mean something.
"""
import os
import random
import struct
import subprocess
import sys

from offload_bundle import bundle, entries

SIM, CO, WORK = None, None, None
failures = []


def run(args, expect_ok=None, what=""):
    """Runs hipasm-sim; checks the clean-failure rule. Returns (status, stdout, stderr)."""
    p = subprocess.run([SIM] + args, capture_output=True, timeout=120)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    label = what or " ".join(args)
    if p.returncode < 0 or p.returncode >= 128:
        failures.append(f"{label}: killed by signal / crashed (status {p.returncode}); stderr: {err[:500]}")
        return p.returncode, out, err
    if p.returncode != 0:
        lines = err.splitlines()
        if len(lines) != 1 or not lines[0].startswith("hipasm-sim: error: ") or not err.endswith("\n"):
            failures.append(f"{label}: status {p.returncode} but stderr is not one error line: {err[:500]!r}")
    if expect_ok is True and p.returncode != 0:
        failures.append(f"{label}: expected success, got status {p.returncode}: {err.strip()}")
    if expect_ok is False and p.returncode == 0:
        failures.append(f"{label}: expected a failure, got status 0")
    return p.returncode, out, err


def write(name, data):
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def run_args_for(path):
    # A plausible run of args_mix; reaching the kernel is not the point for broken files.
    return ["run", path, "args_mix", "--grid", "1", "--block", "64",
            "--arg", "out=" + os.path.join(WORK, "o.bin") + ":256", "--arg", "in=" + os.path.join(WORK, "in.bin"),
            "--arg", "f32=1", "--arg", "i64=1", "--arg", "i8=1", "--arg", "i16=1", "--arg", "f64=1",
            "--arg", "u64=1", "--arg", "u64=1"]


def sections(b):
    shoff, = struct.unpack_from("<Q", b, 40)
    shnum, shstrndx = struct.unpack_from("<HH", b, 60)
    names_off, = struct.unpack_from("<Q", b, shoff + shstrndx * 64 + 24)
    out = []
    for i in range(shnum):
        h = shoff + i * 64
        name_off, typ = struct.unpack_from("<II", b, h)
        addr, off, size = struct.unpack_from("<QQQ", b, h + 16)
        end = b.index(b"\0", names_off + name_off)
        out.append(dict(header=h, name=b[names_off + name_off:end].decode(), type=typ, addr=addr, offset=off, size=size))
    return out


def group_corpus():
    good = open(CO, "rb").read()
    write("in.bin", bytes(256))
    must_fail = []   # (name, bytes)
    may_pass = []    # random mutations that might keep the file valid

    must_fail.append(("empty", b""))
    must_fail.append(("text", b"this is not a code object\n" * 20))
    must_fail.append(("random", bytes(random.Random(5).getrandbits(8) for _ in range(4096))))
    must_fail.append(("elf-magic-only", b"\x7fELF"))
    # Truncations: many points across the file, and around the header and the section table.
    shoff, = struct.unpack_from("<Q", good, 40)
    points = set(range(0, len(good), max(1, len(good) // 60)))
    points |= {1, 3, 4, 5, 16, 52, 63, 64, 65, 120, shoff - 1, shoff, shoff + 1, shoff + 64, len(good) - 1}
    for n in sorted(p for p in points if 0 <= p < len(good)):
        must_fail.append((f"truncated-{n}", good[:n]))
    # Header fields that must be right.
    def patched(fmt, off, val):
        b = bytearray(good)
        struct.pack_into(fmt, b, off, val)
        return bytes(b)
    must_fail.append(("class32", patched("<B", 4, 1)))
    must_fail.append(("big-endian", patched("<B", 5, 2)))
    must_fail.append(("machine-x86-64", patched("<H", 18, 62)))
    flags, = struct.unpack_from("<I", good, 48)
    must_fail.append(("mach-gfx90a", patched("<I", 48, (flags & ~0xff) | 0x3f)))
    must_fail.append(("mach-none", patched("<I", 48, flags & ~0xff)))
    must_fail.append(("shoff-past-eof", patched("<Q", 40, len(good) + 8)))
    must_fail.append(("shnum-huge", patched("<H", 60, 0xfff0)))
    must_fail.append(("shentsize-wrong", patched("<H", 58, 40)))
    must_fail.append(("phoff-past-eof", patched("<Q", 32, len(good) * 4)))
    for s in sections(good):
        if s["type"] in (0, 8):  # SHT_NULL, SHT_NOBITS occupy no file bytes
            continue
        must_fail.append((f"offset-past-eof-{s['name']}", patched("<Q", s["header"] + 24, len(good) + 100)))
        must_fail.append((f"size-huge-{s['name']}", patched("<Q", s["header"] + 32, 1 << 62)))
    note = next(s for s in sections(good) if s["name"] == ".note")
    desc = note["offset"] + 20  # note header (12) + "AMDGPU\0" padded to 8
    must_fail.append(("msgpack-c1", patched("<B", desc, 0xc1)))
    must_fail.append(("msgpack-map32-lie", patched("<B", desc, 0xdf)))
    must_fail.append(("msgpack-not-map", patched("<B", desc, 0x2a)))
    must_fail.append(("note-descsz-huge", patched("<I", note["offset"] + 4, 0x7fffffff)))
    must_fail.append(("note-type-wrong", patched("<I", note["offset"] + 8, 33)))
    b = bytearray(good)
    msgpack_len, = struct.unpack_from("<I", good, note["offset"] + 4)
    b[desc + msgpack_len // 2: desc + msgpack_len] = b"\xff" * (msgpack_len - msgpack_len // 2)
    must_fail.append(("msgpack-second-half-garbage", bytes(b)))

    # Random bit flips in the ELF header and in the first KiB (headers, notes), and anywhere.
    rng = random.Random(1234)
    for i in range(64):
        b = bytearray(good)
        b[i] ^= 1 << rng.randrange(8)
        may_pass.append((f"flip-header-byte-{i}", bytes(b)))
    for i in range(120):
        b = bytearray(good)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(0x238, 0x238 + 0x660) if i % 2 else rng.randrange(len(b))
            b[at] ^= 1 << rng.randrange(8)
        may_pass.append((f"flip-{i}", bytes(b)))

    for name, data in must_fail:
        path = write(name + ".co", data)
        run(["info", path], expect_ok=False, what=f"info {name}")
        run(run_args_for(path), expect_ok=False, what=f"run {name}")
    refused = 0
    for name, data in may_pass:
        path = write(name + ".co", data)
        status, _, _ = run(["info", path], what=f"info {name}")
        refused += status != 0
        run(run_args_for(path), what=f"run {name}")
    if refused < len(may_pass) // 4:
        failures.append(f"only {refused} of {len(may_pass)} random mutations were refused: the corpus is too weak")
    run(["info", os.path.join(WORK, "does-not-exist.co")], expect_ok=False)
    run(["info", WORK], expect_ok=False, what="info on a directory")
    print(f"corpus: {len(must_fail)} broken files refused, {refused}/{len(may_pass)} random mutations refused")


def group_args():
    write("in.bin", bytes(256))
    o = os.path.join(WORK, "o.bin")
    i = os.path.join(WORK, "in.bin")
    base = ["run", CO, "args_mix", "--grid", "1", "--block", "64"]
    good_args = ["--arg", f"out={o}:256", "--arg", f"in={i}", "--arg", "f32=1.5", "--arg", "i64=3",
                 "--arg", "i8=-2", "--arg", "i16=7", "--arg", "f64=2.5", "--arg", "u64=0x100000001", "--arg", "u64=9"]
    bad = {
        "no command": [],
        "unknown command": ["frobnicate"],
        "info without file": ["info"],
        "info with two files": ["info", CO, CO],
        "run without kernel": ["run", CO, "--grid", "1", "--block", "1"],
        "wrong kernel name": ["run", CO, "no_such_kernel", "--grid", "1", "--block", "64"] + good_args,
        "missing --grid": ["run", CO, "args_mix", "--block", "64"] + good_args,
        "missing --block": ["run", CO, "args_mix", "--grid", "1"] + good_args,
        "--grid without value": base[:3] + ["--block", "64", "--grid"],
        "zero grid": ["run", CO, "args_mix", "--grid", "0", "--block", "64"] + good_args,
        "four grid dimensions": ["run", CO, "args_mix", "--grid", "1,1,1,1", "--block", "64"] + good_args,
        "non-numeric grid": ["run", CO, "args_mix", "--grid", "x", "--block", "64"] + good_args,
        "negative block": ["run", CO, "args_mix", "--grid", "1", "--block", "-64"] + good_args,
        "grid overflow": ["run", CO, "args_mix", "--grid", "99999999999", "--block", "64"] + good_args,
        "block too large": ["run", CO, "args_mix", "--grid", "1", "--block", "2048"] + good_args,
        "block over the kernel's limit": ["run", CO, "small_block", "--grid", "1", "--block", "512",
                                          "--arg", f"out={o}:4096", "--arg", "f32=1"],
        "too much LDS": base + ["--lds", "70000"] + good_args,
        "absurd thread count": base + ["--threads", "100000000"] + good_args,
        "unknown option": base + ["--frob"] + good_args,
        "--trace with a value": base + ["--trace=yes"] + good_args,
        "too few arguments": base + good_args[:-2],
        "too many arguments": base + good_args + ["--arg", "i32=1"],
        "no arguments": base,
        "scalar for a buffer": base + ["--arg", "i64=0"] + good_args[2:],
        "buffer for a scalar": base + good_args[:4] + ["--arg", f"in={i}"] + good_args[6:],
        "wrong scalar size": base + good_args[:6] + ["--arg", "i32=1"] + good_args[8:],
        "spec without =": base + ["--arg", "in"] + good_args[2:],
        "unknown spec kind": base + ["--arg", "ptr=5"] + good_args[2:],
        "out without size": base + ["--arg", f"out={o}"] + good_args[2:],
        "out with a bad size": base + ["--arg", f"out={o}:lots"] + good_args[2:],
        "inout without output": base + ["--arg", f"inout={i}"] + good_args[2:],
        "missing input file": base + good_args[:2] + ["--arg", "in=" + os.path.join(WORK, "nope.bin")] + good_args[4:],
        "i32 out of range": ["run", CO, "small_block", "--grid", "1", "--block", "64", "--arg", f"out={o}:256",
                             "--arg", "i32=3000000000"],
        "f32 out of range": ["run", CO, "small_block", "--grid", "1", "--block", "64", "--arg", f"out={o}:256",
                             "--arg", "f32=1e39"],
        "f32 not a number": ["run", CO, "small_block", "--grid", "1", "--block", "64", "--arg", f"out={o}:256",
                             "--arg", "f32=1.5x"],
        "i8 out of range": base + good_args[:8] + ["--arg", "i8=300"] + good_args[10:],
        "output file not writable": base + ["--arg", "out=" + os.path.join(WORK, "no-dir", "o.bin") + ":256"] + good_args[2:],
    }
    for what, argv in bad.items():
        status, out, err = run(argv, expect_ok=False, what=what)
        if what.startswith("wrong kernel name") and "args_mix" not in err:
            failures.append(f"{what}: the error does not list the kernels: {err.strip()}")
    print(f"args: {len(bad)} bad command lines refused")


def group_info():
    status, out, err = run(["--help"], expect_ok=True)
    if "usage: hipasm-sim" not in out:
        failures.append("--help does not print the usage")
    status, out, err = run(["info", CO], expect_ok=True)
    for k in ["args_mix", "ids_3d", "lds_static", "lds_racy", "lds_dynamic", "mfma_acc", "scratch_use", "packet_ptrs",
              "small_block", "grid_query", "const_table"]:
        if f"\nkernel {k}\n" not in out:
            failures.append(f"info does not list kernel {k}")
    # The C ABI layout of args_mix(int*, const float*, float, long, char, short, double,
    # pair_arg, unsigned long long).
    section = out.split("\nkernel args_mix\n")[1].split("\nkernel ")[0]
    want = [(0, 8, "global_buffer"), (8, 8, "global_buffer"), (16, 4, "by_value"), (24, 8, "by_value"),
            (32, 1, "by_value"), (34, 2, "by_value"), (40, 8, "by_value"), (48, 8, "by_value"), (56, 8, "by_value")]
    for n, (off, size, kind) in enumerate(want):
        line = f"    {n:<2} offset {off:4} size {size:2} {kind}"
        if line not in section:
            failures.append(f"info args_mix lacks argument line {line!r}")
    # Descriptor fields against clang's own .amdhsa_* directives (the .s next to the .co).
    asm = os.path.splitext(CO)[0] + ".s"
    directives, current = {}, None
    for line in open(asm):
        parts = line.split()
        if len(parts) >= 2 and parts[0] == ".amdhsa_kernel":
            current = parts[1]
            directives[current] = {}
        elif parts and parts[0] == ".end_amdhsa_kernel":
            current = None
        elif current and len(parts) == 2 and parts[0].startswith(".amdhsa_"):
            directives[current][parts[0][8:]] = parts[1]
    shown = {"group_segment_fixed_size": "group_segment_fixed_size", "private_segment_fixed_size": "private_segment_fixed_size",
             "kernarg_size": "kernarg_size", "accum_offset": "accum_offset", "user_sgpr_count": "user_sgpr_count",
             "system_vgpr_workitem_id": "vgpr_workitem_id", "float_denorm_mode_32": "float_denorm_mode_32",
             "ieee_mode": "ieee_mode", "user_sgpr_dispatch_ptr": "dispatch_ptr", "user_sgpr_queue_ptr": "queue_ptr",
             "enable_private_segment": "private_segment"}
    if len(directives) != 11:
        failures.append(f"found {len(directives)} .amdhsa_kernel blocks in {asm}, expected 11")
    for kernel, d in directives.items():
        block = out.split(f"\nkernel {kernel}\n")[1].split("\nkernel ")[0] if f"\nkernel {kernel}\n" in out else ""
        for directive, label in shown.items():
            if f"{label} {d[directive]}" not in block:
                failures.append(f"info {kernel}: '{label} {d[directive]}' (from .amdhsa_{directive}) not shown")
    # A reader that stops early (| head): no death by SIGPIPE, one error line.
    # (--trace of 300 waves writes far more than a pipe buffer holds.)
    p = subprocess.Popen([SIM, "run", CO, "small_block", "--grid", "300", "--block", "64", "--trace",
                          "--arg", "out=" + os.path.join(WORK, "sb.bin") + ":256", "--arg", "f32=1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode(errors="replace")
    p.wait(timeout=60)
    if p.returncode < 0 or p.returncode >= 128:
        failures.append(f"run --trace | head: killed by a signal (status {p.returncode})")
    elif p.returncode == 0 or len(err.splitlines()) != 1:
        failures.append(f"run --trace | head: expected one error line, got status {p.returncode}: {err!r}")
    print("info: listing checked")


def group_run():
    n = 64
    inp = [float(i) * 0.75 - 7.0 for i in range(n)]
    write("in.bin", struct.pack(f"<{n}f", *inp))
    out_path = os.path.join(WORK, "out.bin")
    f, big, c, s, d, pa, pb, u = 1.5, -3, -2, 7, 2.5, 11, 4.75, 9
    pair = struct.unpack("<Q", struct.pack("<if", pa, pb))[0]
    status, out, err = run(["run", CO, "args_mix", "--grid", "1", "--block", "64",
                            "--arg", f"out={out_path}:{4 * n}", "--arg", "in=" + os.path.join(WORK, "in.bin"),
                            "--arg", f"f32={f}", "--arg", f"i64={big}", "--arg", f"i8={c}", "--arg", f"i16={s}",
                            "--arg", f"f64={d}", "--arg", f"u64={pair}", "--arg", f"u64={u}"], expect_ok=True)
    if status == 0:
        got = struct.unpack(f"<{n}i", open(out_path, "rb").read())
        want = [int(x * f) + big + c + s + int(d) + pa + int(pb) + u for x in inp]
        if list(got) != want:
            failures.append(f"args_mix: got {got[:8]}..., want {want[:8]}...")
        if "0 checker findings" not in out:
            failures.append(f"args_mix: unexpected checker output: {out.strip()}")
    # ids_3d: out[x + 4y + 16z] = gx + 100 gy + 10000 gz over a 4x4x4 block; grid 1,1,1 then
    # inout with a prefilled buffer: untouched elements keep their values.
    pre = os.path.join(WORK, "pre.bin")
    write("pre.bin", struct.pack("<80I", *range(1000, 1080)))
    res = os.path.join(WORK, "ids.bin")
    status, out, err = run(["run", CO, "ids_3d", "--grid", "1", "--block", "4,4,4", "--threads", "1",
                            "--arg", f"inout={pre}:{res}"], expect_ok=True)
    if status == 0:
        got = struct.unpack("<80I", open(res, "rb").read())
        want = [0] * 64 + list(range(1064, 1080))
        if list(got) != want:
            failures.append(f"ids_3d: got {got}, want {want}")
    # A kernel the checker rejects: findings on stdout, one error line, exit status 3.
    status, out, err = run(["run", CO, "lds_racy", "--grid", "1", "--block", "512",
                            "--arg", f"out={os.path.join(WORK, 'racy.bin')}:2048"], expect_ok=False)
    if status != 3 or "lds-race" not in out or "checker reported" not in err:
        failures.append(f"lds_racy: expected exit 3 with the race on stdout, got {status}: {out.strip()!r} {err.strip()!r}")
    status, out, err = run(["run", CO, "lds_racy", "--grid", "1", "--block", "512", "--no-check",
                            "--arg", f"out={os.path.join(WORK, 'racy.bin')}:2048"], expect_ok=True)
    # --allow RULE / --warn-only: the same findings as warnings with a summary by rule and pc, exit 0;
    # another rule allowed leaves it an error; an unknown rule name is an error line.
    racy = ["run", CO, "lds_racy", "--grid", "1", "--block", "512", "--arg", f"out={os.path.join(WORK, 'racy.bin')}:2048"]
    for extra in (["--allow", "lds-race"], ["--warn-only"], ["--allow=all"]):
        status, out, err = run(racy + extra, expect_ok=True)
        if status == 0 and ("warning: " not in out or "lds-race (warning): 1 instruction" not in out
                            or "first workgroup 0 wave" not in out or "1 warning" not in out):
            failures.append(f"lds_racy {extra}: expected the race as a warning with a summary: {out.strip()!r}")
    status, out, err = run(racy + ["--allow", "hazard mfma-read"], expect_ok=False)
    if status != 3 or "lds-race (error)" not in out:
        failures.append(f"lds_racy --allow mfma-read: expected exit 3 with the race an error: {status} {out.strip()!r}")
    status, out, err = run(racy + ["--allow", "no-such-rule"], expect_ok=False)
    if status == 3 or "unknown checker rule 'no-such-rule'" not in err:
        failures.append(f"--allow no-such-rule: expected an error naming the rule, got {status}: {err.strip()!r}")
    # --seed (random wave interleaving) and --threads must not change the result.
    res2 = os.path.join(WORK, "ids2.bin")
    status, out, err = run(["run", CO, "ids_3d", "--grid", "1", "--block", "4,4,4", "--seed", "12345", "--threads", "2",
                            "--arg", f"inout={pre}:{res2}"], expect_ok=True)
    if status == 0 and open(res2, "rb").read() != open(res, "rb").read():
        failures.append("ids_3d: --seed/--threads changed the result")
    # --trace prints the executed instructions, ending with s_endpgm.
    status, out, err = run(["run", CO, "small_block", "--grid", "1", "--block", "64", "--trace",
                            "--arg", f"out={os.path.join(WORK, 'sb.bin')}:256", "--arg", "f32=2"], expect_ok=True)
    if status == 0:
        if "s_endpgm" not in out or "global_store_dword" not in out:
            failures.append(f"--trace does not show the executed instructions: {out[:300]!r}")
        if struct.unpack("<64f", open(os.path.join(WORK, "sb.bin"), "rb").read()) != (2.0,) * 64:
            failures.append("small_block: wrong output")
    # An instruction the simulator does not know: the kernel's first word patched to an
    # encoding no gfx942 instruction has (a one-line error with its address, no crash).
    good = open(CO, "rb").read()
    text = next(s for s in sections(good) if s["name"] == ".text")
    readobj = os.environ.get("HIPASM_LLVM_READOBJ", "llvm-readobj-22")
    symbols = subprocess.run([readobj, "--dyn-symbols", CO], capture_output=True, text=True).stdout
    entry = None
    lines = symbols.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("Name: small_block ("):
            entry = int(lines[i + 1].split()[1], 16)
    if entry is None:
        failures.append("cannot find small_block's entry with llvm-readobj-22")
    else:
        b = bytearray(good)
        struct.pack_into("<I", b, text["offset"] + entry - text["addr"], 0xffffffff)
        bad = write("bad-inst.co", bytes(b))
        status, out, err = run(["run", bad, "small_block", "--grid", "1", "--block", "64",
                                "--arg", f"out={os.path.join(WORK, 'sb.bin')}:256", "--arg", "f32=2"], expect_ok=False)
        if status != 0 and hex(entry)[2:] not in err.lower():
            failures.append(f"unknown instruction: the error does not give its address {hex(entry)}: {err.strip()}")
    print("run: end-to-end runs checked")


def group_fatbin():
    fat = open(CO, "rb").read()
    status, out, err = run(["info", CO], expect_ok=True)
    lines = out.splitlines()
    for want in ("hipv4-amdgcn-amd-amdhsa--gfx942", "hipv4-amdgcn-amd-amdhsa--gfx950", "host-x86_64-unknown-linux-gnu-"):
        if not any(line.strip().startswith(want + " ") for line in lines[1:4]):
            failures.append(f"info: no entry {want} in the listing:\n{out[:600]}")
    if not lines or not lines[0].endswith(": offload bundle, 3 entries"):
        failures.append(f"info: first line {lines[:1]}")
    for arch in ("gfx942", "gfx950"):
        if f"{CO} [{arch}]: target amdgcn-amd-amdhsa--{arch}" not in out:
            failures.append(f"info: no {arch} code object section:\n{out[:2000]}")
    if out.count("\nkernel vector_add\n") != 2:
        failures.append("info: vector_add is not listed once per code object")

    n = 300
    a = [0.25 * i - 30.5 for i in range(n)]
    b = [7.0 - 0.5 * (i % 11) for i in range(n)]
    ina, inb = write("a.bin", struct.pack(f"<{n}f", *a)), write("b.bin", struct.pack(f"<{n}f", *b))
    want = struct.pack(f"<{n}f", *[x + y for x, y in zip(a, b)])  # exact in float: small binary fractions

    def vector_add(cmd, device, co, out_name):
        out_path = os.path.join(WORK, out_name)
        args = [cmd, co, "vector_add", "--grid", "2", "--block", "256", "--arg", f"out={out_path}:{4 * n}",
                "--arg", f"in={ina}", "--arg", f"in={inb}", "--arg", f"u32={n}"]
        return (args + ["--device", device] if device else args), out_path

    for device, arch in (("mi300x", "gfx942"), ("mi355x", "gfx950"), (None, "gfx942")):
        for cmd in ("run", "profile"):
            args, out_path = vector_add(cmd, device, CO, f"c-{cmd}-{device}.bin")
            status, out, err = run(args, expect_ok=True)
            if status == 0 and open(out_path, "rb").read() != want:
                failures.append(f"{' '.join(args)}: wrong result")
            if cmd == "profile" and status == 0 and f"{device or 'mi300x'}" not in out.lower():
                failures.append(f"profile --device {device}: the report does not name the device:\n{out[:400]}")

    # A bundle without the device's target; a plain code object on the other target's device.
    co942 = dict(entries(fat))["hipv4-amdgcn-amd-amdhsa--gfx942"]
    only942 = write("only942.co", bundle([("host-x86_64-unknown-linux-gnu-", b""),
                                          ("hipv4-amdgcn-amd-amdhsa--gfx942", co942)]))
    args, _ = vector_add("run", "mi355x", only942, "x.bin")
    status, out, err = run(args, expect_ok=False)
    if "the fat binary has no gfx950 code object (it has: gfx942)" not in err:
        failures.append(f"missing target: {err.strip()}")
    args, _ = vector_add("run", "mi300x", only942, "y.bin")
    status, out, err = run(args, expect_ok=True)
    plain = write("plain942.co", co942)
    args, _ = vector_add("run", "mi355x", plain, "z.bin")
    status, out, err = run(args, expect_ok=False)
    if "gfx942 code object on device mi355x" not in err:
        failures.append(f"plain code object of the other target: {err.strip()}")
    args, _ = vector_add("profile", "mi355x", plain, "z.bin")
    status, out, err = run(args, expect_ok=False)
    if "gfx942 code object on device mi355x" not in err or "gfx942 devices: mi300x" not in err:
        failures.append(f"profile of a plain code object of the other target: {err.strip()}")
    # `run` without --device: a plain code object runs on its own target (a gfx950 one too, no
    # default GPU refuses it), as run's --device help says.
    plain950 = write("plain950.co", dict(entries(fat))["hipv4-amdgcn-amd-amdhsa--gfx950"])
    args, out_path = vector_add("run", None, plain950, "p950.bin")
    status, out, err = run(args, expect_ok=True)
    if status == 0 and open(out_path, "rb").read() != want:
        failures.append(f"{' '.join(args)}: wrong result")
    # `profile` without --device: timed on the code object's own target's first GPU (mi355x).
    args, out_path = vector_add("profile", None, plain950, "q950.bin")
    status, out, err = run(args, expect_ok=True)
    if status == 0 and (open(out_path, "rb").read() != want or "mi355x" not in out.lower()):
        failures.append(f"{' '.join(args)}: wrong result or not timed on mi355x:\n{out[:400]}")
    status, out, err = run(["--help"], expect_ok=True)
    run_device = out.split("\nrun ")[-1].split("\n  --grid")[0]
    if "default mi300x" in run_device or "without it" not in run_device.lower():
        failures.append(f"--help: run's --device does not say what runs without it:\n{run_device}")
    # Truncations (every cut inside the header, then through the entries) and corrupt fields.
    cuts = list(range(24, 400)) + list(range(400, len(fat), 997))
    for cut in cuts:
        path = write("cut.co", fat[:cut])
        for cmd in (["info", path], vector_add("run", "mi355x", path, "w.bin")[0]):
            run(cmd, expect_ok=False, what=f"{cmd[0]} of the first {cut} bytes")
    for at, value, what in ((24, 0, "entry count"), (24, 1 << 62, "entry count"), (32, 1 << 40, "offset"),
                            (40, 1 << 63, "size"), (48, 1 << 30, "id length")):
        b = bytearray(fat)
        struct.pack_into("<Q", b, at, value)
        path = write("corrupt.co", bytes(b))
        run(["info", path], expect_ok=False, what=f"info, {what} {value}")
        run(vector_add("run", "mi300x", path, "v.bin")[0], expect_ok=False, what=f"run, {what} {value}")
    path = write("junk-entry.co", bundle([("hipv4-amdgcn-amd-amdhsa--gfx950", b"\x7fELF" + bytes(60))]))
    status, out, err = run(["info", path], expect_ok=False)
    if "entry hipv4-amdgcn-amd-amdhsa--gfx950: " not in err:
        failures.append(f"info of a bundle with a broken code object: {err.strip()}")
    print(f"fatbin: info, run and profile on both devices; {len(cuts)} truncations and corrupt bundles refused")


def group_node():
    co = os.path.abspath(CO)

    def program(name, devices, kernel, extra=""):
        lines = [f"# {devices} devices, each copies its successor's part", f"node mi300x {devices}"]
        for d in range(devices):
            lines += [f"buffer data{d} {d} zero=512", f"buffer flag{d} {d} zero=4",
                      f"buffer out{d} {d} zero=512 out=out{d}.bin"]
        for d in range(devices):
            p = (d + 1) % devices
            lines.append(f"launch {d} {co} {kernel} 1 128 data{d} flag{d} data{p} flag{p} out{d} i32={1000 * (d + 1)}")
        return write(name, ("\n".join(lines) + "\n" + extra).encode())

    for devices in (2, 4):
        path = program(f"node{devices}.txt", devices, "peer_system")
        status, out, err = run(["node", path, "--seed", "5"], expect_ok=True)
        for d in range(devices):
            if f"hipasm-sim: device {d}: peer_system grid 1,1,1 block 128,1,1:" not in out:
                failures.append(f"node {devices}: no summary line of device {d}: {out!r}")
            got = struct.unpack("<128i", open(os.path.join(WORK, f"out{d}.bin"), "rb").read())
            want = tuple(1000 * ((d + 1) % devices + 1) + i for i in range(128))
            if got != want:
                failures.append(f"node {devices}: device {d} copied {got[:4]}..., expected {want[:4]}...")
    path = program("no_acquire.txt", 2, "peer_no_acquire")
    status, out, err = run(["node", path], expect_ok=False)
    if status != 3 or out.count("[peer-visibility]") != 2 or "device 1: 0x" not in out:
        failures.append(f"node without acquire: status {status}, stdout {out[:400]!r}")
    status, out, err = run(["node", path, "--allow", "peer-visibility"], expect_ok=True)
    if out.count("warning: device") != 2:
        failures.append(f"node --allow peer-visibility: {out[:400]!r}")
    for text, expect in (("launch 0 x.co k 1 64\n", "must come first"),
                         ("node mi300x 2\nnode mi300x 2\n", "a second 'node' line"),
                         ("node mi300x 2\nbuffer a 2 zero=4\n", "device 2 of a node of 2"),
                         ("node mi300x 2\nfoo\n", "unknown line 'foo'"),
                         ("node mi300x 1\n", "device 0 has no launch"),
                         (f"node mi300x 1\nbuffer c 0 zero=4\nlaunch 0 {co} peer_count 1 64 d\n", "no buffer has that name"),
                         (f"node mi300x 1\nbuffer c 0 zero=4\nlaunch 0 {co} peer_count 1 64 c c\n", "takes 1 arguments, 2 given"),
                         (f"node mi300x 1\nlaunch 0 {co} peer_count 1 64 u32=1\n", "takes a buffer")):
        path = write("bad.txt", text.encode())
        status, out, err = run(["node", path], expect_ok=False, what=f"node program {text!r}")
        if expect not in err:
            failures.append(f"node program {text!r}: expected '{expect}' in {err.strip()!r}")
    run(["node"], expect_ok=False, what="node without a program")
    run(["node", path, "--frob"], expect_ok=False, what="node with an unknown option")
    # node takes run's checker options with run's checks: a flag given a value is refused
    for args, expect in ((["--no-check=1"], "--no-check takes no value"),
                         (["--warn-only=yes"], "--warn-only takes no value"),
                         (["--seed=x"], "--seed"),
                         (["-x"], "unknown option '-x'")):
        status, out, err = run(["node", path] + args, expect_ok=False, what=f"node {args}")
        if expect not in err:
            failures.append(f"node {args}: expected '{expect}' in {err.strip()!r}")
    print("node: 2 and 4 devices through files, findings, bad programs refused")


def main():
    global SIM, CO, WORK
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    group, SIM, CO, WORK = sys.argv[1:]
    os.makedirs(WORK, exist_ok=True)
    {"corpus": group_corpus, "args": group_args, "info": group_info, "run": group_run,
     "fatbin": group_fatbin, "node": group_node}[group]()
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
