#!/usr/bin/env bash
# pip_install_test.sh PYTHON SOURCE_DIR BUILD_DIR: `pip install ./python` into a temporary virtual
# environment (offline: --no-build-isolation --no-index, Debian's pip and setuptools), with the
# build directory's CMake build (HIPASM_BUILD_DIR); then, from that environment with no
# PYTHONPATH, import hipasm and launch an op of hipasm.ops in the simulator (prebuilt, and built on
# first use), check the package holds its library, headers and code objects, build and run
# README.md's Python example with them (hipasm.build); pip uninstall, and check it is gone.
# Exit 77 (ctest: skipped) with the reason when pip, setuptools, wheel or venv is missing.
set -euo pipefail
py=$1 src=$2 build=$3
skip() { echo "SKIPPED: $*"; exit 77; }
"$py" -c "import setuptools, wheel" 2>/dev/null && "$py" -m pip --version >/dev/null 2>&1 ||
  skip "$py lacks pip, setuptools or wheel (Debian: apt-get install python3-pip, which brings python3-setuptools and python3-wheel)"
work=$(mktemp -d "${TMPDIR:-/tmp}/hipasm-pip.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the system's pip, setuptools and numpy seen from the environment: no ensurepip, no network
"$py" -m venv --system-site-packages --without-pip "$work/venv" 2>"$work/venv.err" ||
  skip "$py -m venv failed (Debian: apt-get install python3-venv): $(cat "$work/venv.err")"
v=$work/venv/bin/python
unset PYTHONPATH HIPASM_SIM_LIBRARY HIPASM_OPS_CODE_OBJECT HIPASM_INCLUDE_DIR
export HIPASM_BUILD_DIR=$build PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 HIPASM_CACHE_DIR=$work/cache
"$v" -m pip install -q --no-build-isolation --no-index "$src/python"
cd "$work"
HIPASM_TEST_SOURCE_DIR=$src "$v" - <<'PY'
import os, sys
import numpy as np
import hipasm, hipasm._config as config
pkg = os.path.dirname(hipasm.__file__)
assert pkg.startswith(sys.prefix), f"hipasm imported from {pkg}, not the environment {sys.prefix}"
for f in ("libhipasm_sim.so", "include/hipasm/hipasm.hpp", "hipasm_python_ops.co"):
    assert os.path.exists(os.path.join(pkg, f)), f"the installed package lacks {f}"
assert config.get("sim_library") == os.path.join(pkg, "libhipasm_sim.so"), config.get("sim_library")
x = np.full((2, 256), 0x4000, np.uint16)   # bf16 2.0
w = np.full(256, 0x3F80, np.uint16)        # bf16 1.0
y = hipasm.ops.rms_norm(x, w, eps=0.0)     # 2 / sqrt(mean(4)) = 1.0
assert (y == 0x3F80).all(), y
# a size no prebuilt kernel takes: built on first use with the package's headers, into the cache
y = hipasm.ops.rms_norm(np.full((1, 512), 0x4000, np.uint16), np.full(512, 0x3F80, np.uint16), eps=0.0)
assert (y == 0x3F80).all(), y
assert any(f.startswith("rms_norm_bf16_h512_w1-") for f in os.listdir(os.environ["HIPASM_CACHE_DIR"]))
# hipasm.build with the package's headers: README.md's Python example, its kernel compiled
sys.path.insert(0, os.path.join(os.environ["HIPASM_TEST_SOURCE_DIR"], "scripts"))
import readme_python_example
os.mkdir("readme")
readme_python_example.run(os.path.abspath("readme"), root=os.environ["HIPASM_TEST_SOURCE_DIR"], pch=False)
print("installed hipasm:", pkg)
PY
"$v" -m pip uninstall -q -y hipasm
if "$v" -c "import hipasm" 2>/dev/null; then echo "hipasm still importable after pip uninstall" >&2; exit 1; fi
left=$(find "$work/venv" -path '*site-packages/hipasm*' | head -3)
[ -z "$left" ] || { echo "pip uninstall left: $left" >&2; exit 1; }
echo "pip install, import, launch, uninstall: ok"
