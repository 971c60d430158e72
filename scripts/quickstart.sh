#!/usr/bin/env bash
# Quick start: install what is missing, build the simulator and the examples (not the whole
# suite: scripts/test.sh does that), run the main example (prints each example kernel's asm and
# register/LDS usage, runs it in hipasm-sim and checks it against C++).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# (scripts/build-locked: one build at a time in build/)
scripts/build-locked build cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
scripts/build-locked build cmake --build build -j"$(nproc)" --target main_example hipasm-sim
./build/bin/main_example
