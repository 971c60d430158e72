#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks for hipasm (as root; uses sudo otherwise).
set -euo pipefail
pkgs=(clang-22 lld-22 llvm-22 libclang-rt-22-dev python3 python3-numpy python3-pytest python3-torch libamdhip64-dev rocm-device-libs catch2 libbenchmark-dev ninja-build cmake)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}"
