#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks for hipasm (as root; uses sudo otherwise).
#   install-deps.sh --quickstart  the compiler, the build tools, python3 and numpy only: enough to
#                                 build the simulator and the examples and to run README.md's
#                                 Python example (scripts/quickstart.sh)
#   install-deps.sh               also Catch2, Google Benchmark and the HIP runtime's headers
#                                 and device libraries: the C++ tests and benchmarks
#   install-deps.sh --python      also numpy, pytest and torch for python/ and its tests (the suite)
# The quick start installs without Recommends: llvm-22's recommended llvm-22-dev alone is a third
# of the download, and nothing the quick start builds needs it.
set -euo pipefail
pkgs=(clang-22 lld-22 llvm-22 ninja-build cmake python3-numpy)
apt_opts=()
case "${1:-}" in
  --quickstart) apt_opts+=(--no-install-recommends) ;;
  "" | --python)
    # clang-tools-22 (clang-offload-bundler) and python3 are clang-22's Recommends: named here so
    # that the suite has them after a quick start too. g++ (Debian's GCC 12): the test that the
    # public host headers and a consumer's host code build with GCC (tests/cmake).
    pkgs+=(clang-tools-22 libclang-rt-22-dev python3 libamdhip64-dev rocm-device-libs catch2 libbenchmark-dev g++)
    # python3-pip (with setuptools and wheel): pip install ./python, tested by python.pip_install.
    [ "${1:-}" = --python ] && pkgs+=(python3-numpy python3-pytest python3-torch python3-pip) ;;
  *) echo "install-deps.sh: unknown option '$1' (--quickstart, --python or nothing)" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${apt_opts[@]}" "${missing[@]}"
