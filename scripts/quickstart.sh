#!/usr/bin/env bash
# Quick start: install the compiler if it is missing, build the simulator, the examples and the
# Python package (not the tests, benchmarks or hipasm.ops' kernels: scripts/test.sh builds and
# runs those), run the main example (prints each example kernel's asm and register/LDS usage,
# runs it in hipasm-sim and checks it against C++), then README.md's Python example.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --quickstart
# (scripts/build-locked: one build at a time in build/)
scripts/build-locked build cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHIPASM_BUILD_TESTS=OFF -DHIPASM_BUILD_BENCH=OFF -DHIPASM_BUILD_PYTHON=ON
scripts/build-locked build cmake --build build -j"$(nproc)" --target main_example hipasm-sim hipasm_python_package
./build/bin/main_example
PYTHONPATH=build/python /usr/bin/python3 scripts/readme_python_example.py  # Debian's python3-numpy
echo "Python: PYTHONPATH=$PWD/build/python python3 -c 'import hipasm', or pip install ./python (docs/python.md)"
