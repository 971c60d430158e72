#!/bin/sh
# Compiles and runs one reproducer of tests/difftest/repro (a batch of one kernel: <name>.hip
# and its C++ reference <name>_ref.cpp) as the difftest does; fails on a compile error, a
# checker report or a wrong output word.
#   run_repro.sh <difftest_env.sh> <repro dir> <name> <work dir>
set -e
. "$1"
dir=$2; name=$3; work=$4
mkdir -p "$work"
${DEVICE_LAUNCHER:-} $DEVICE_CXX $DEVICE_FLAGS -S "$dir/$name.hip" -o "$work/$name.s"
"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu="$ARCH" -filetype=obj "$work/$name.s" -o "$work/$name.o"
"$LD_LLD" --no-undefined -shared "$work/$name.o" -o "$work/$name.co"
$HOST_CXX $REF_FLAGS "$dir/${name}_ref.cpp" -o "$work/${name}_ref.so"
# the inputs the reducer used: the runner's data comes from the seed in the first line
seed=$(head -1 "$dir/$name.hip" | sed -n 's/.*seed \([0-9]*\).*/\1/p')
"$RUNNER" "$work/$name.co" "$work/${name}_ref.so" --seed "${seed:-1}" --verbose
