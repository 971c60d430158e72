#!/usr/bin/env bash
# Quick start: install the compiler if it is missing, build the simulator and the examples (not
# the tests, benchmarks or Python package: scripts/test.sh builds and runs those), run the main
# example (prints each example kernel's asm and register/LDS usage, runs it in hipasm-sim and
# checks it against C++).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --quickstart
# (scripts/build-locked: one build at a time in build/)
scripts/build-locked build cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPASM_BUILD_TESTS=OFF -DHIPASM_BUILD_BENCH=OFF -DHIPASM_BUILD_PYTHON=OFF
scripts/build-locked build cmake --build build -j"$(nproc)" --target main_example hipasm-sim
./build/bin/main_example
