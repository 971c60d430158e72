#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks for hipasm (as root; uses sudo otherwise).
#   install-deps.sh            the compiler, the simulator and the C++ tests (the quick start)
#   install-deps.sh --python   also numpy, pytest and torch for python/ and its tests (the suite)
set -euo pipefail
pkgs=(clang-22 lld-22 llvm-22 libclang-rt-22-dev python3 libamdhip64-dev rocm-device-libs catch2 libbenchmark-dev ninja-build cmake)
case "${1:-}" in
  --python) pkgs+=(python3-numpy python3-pytest python3-torch) ;;
  "") ;;
  *) echo "install-deps.sh: unknown option '$1' (--python or nothing)" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}"
