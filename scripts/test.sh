#!/usr/bin/env bash
# The whole test suite: install what is missing (python/ included), configure (everything on,
# also after the quick start's configure), build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --python
# (scripts/build-locked: one build at a time in build/)
scripts/build-locked build cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPASM_BUILD_TESTS=ON -DHIPASM_BUILD_BENCH=ON -DHIPASM_BUILD_PYTHON=ON
scripts/build-locked build cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
