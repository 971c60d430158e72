"""Shared by bench/difftest/run and reduce.py: compile a generated batch as
hipasm_add_code_object does (flags and precompiled header from the build's difftest_env.sh),
build its reference, run it."""
import os
import re
import shlex
import subprocess
import sys


def load_env(build, arch=None, build_pch=True):
    """The build's difftest_env.sh with DEVICE_FLAGS and ARCH for `arch` (default: the build's
    default target); builds that target's precompiled header if it is missing or stale (not
    when called from a build of this build directory: build_pch=False)."""
    path = os.path.join(build, "tests", "difftest", "difftest_env.sh")
    if not os.path.exists(path):
        sys.exit(f"difftest: {path} missing: configure {build} with tests (cmake -S . -B {build})")
    env = {}
    for line in open(path):
        m = re.match(r"^(\w+)='(.*)'$", line.strip())
        if m:
            env[m.group(1)] = m.group(2)
    if not os.path.exists(env["RUNNER"]):
        sys.exit(f"difftest: {env['RUNNER']} missing: cmake --build {build} --target hipasm-difftest-run")
    arch = arch or env["ARCH"]
    if arch not in env.get("ARCHS", env["ARCH"]).split():
        sys.exit(f"difftest: unknown target {arch} (this build has: {env.get('ARCHS', env['ARCH'])})")
    if "DEVICE_FLAGS_" + arch in env:
        env["ARCH"], env["DEVICE_FLAGS"] = arch, env["DEVICE_FLAGS_" + arch]
        pch = env.get("PCH_TARGET_" + arch)
        if pch and build_pch:
            rc, out = sh([env["CMAKE_COMMAND"], "--build", env["BUILD_DIR"], "--target", pch])
            if rc != 0:
                sys.exit(f"difftest: building the {arch} precompiled header failed:\n{out[-2000:]}")
    return env


def sh(cmd, timeout=900):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return p.returncode, p.stdout


def compile_hip(env, hip, out_co):
    """hip -> asm -> code object; returns (ok, message, static instruction count)."""
    asm = out_co[:-3] + ".s"
    rc, out = sh(shlex.split(env.get("DEVICE_LAUNCHER", "")) + [env["DEVICE_CXX"]] + shlex.split(env["DEVICE_FLAGS"]) + ["-S", hip, "-o", asm])
    if rc != 0:
        return False, out, 0
    obj = out_co + ".o"
    rc, out2 = sh([env["LLVM_MC"], "-triple=amdgcn-amd-amdhsa", f"-mcpu={env['ARCH']}", "-filetype=obj", asm, "-o", obj])
    if rc != 0:
        return False, "assembler: " + out2, 0
    rc, out3 = sh([env["LD_LLD"], "--no-undefined", "-shared", obj, "-o", out_co])
    if rc != 0:
        return False, "linker: " + out3, 0
    n = 0
    for line in open(asm):
        s = line.strip()
        if s and not s.startswith((".", ";", "//")) and not s.endswith(":") and re.match(r"^[a-z_][a-z0-9_]*\b", s):
            n += 1
    return True, out, n


def compile_ref(env, cpp, out_so):
    rc, out = sh([env["HOST_CXX"]] + shlex.split(env["REF_FLAGS"]) + [cpp, "-o", out_so])
    return rc == 0, out


def classify_compile_error(msg):
    if re.search(r"out of (registers|VGPRs|SGPRs|AGPRs)", msg, re.I):
        return "compile-registers"
    if msg.startswith("assembler"):
        return "assembler"
    if "hipasm:" in msg:
        return "compile-hipasm"
    return "compile-other"


def first_error(msg):
    for line in msg.splitlines():
        if "error" in line:
            return line.strip()[:400]
    return msg.strip().splitlines()[0][:400] if msg.strip() else "?"
