#!/bin/sh
# Compiles and runs one reproducer of tests/difftest/repro (a batch of one kernel: <name>.hip
# and its C++ reference <name>_ref.cpp) as the difftest does; fails on a compile error, a
# checker report or a wrong output word. The target is the one the .hip's first line names
# (gen.py writes "arch gfx950" there for a target other than gfx942), else the default.
#   run_repro.sh <difftest_env.sh> <repro dir> <name> <work dir>
set -e
. "$1"
dir=$2; name=$3; work=$4
mkdir -p "$work"
arch=$(head -1 "$dir/$name.hip" | sed -n 's/.*arch \(gfx[0-9a-z]*\).*/\1/p')
if [ -n "$arch" ]; then
  case " $ARCHS " in *" $arch "*) ;; *) echo "run_repro.sh: unknown target $arch (known: $ARCHS)" >&2; exit 2 ;; esac
  ARCH=$arch
  eval "DEVICE_FLAGS=\$DEVICE_FLAGS_$arch; PCH_TARGET=\$PCH_TARGET_$arch"
  # a non-default target's precompiled header is built on demand
  [ -z "$PCH_TARGET" ] || "$CMAKE_COMMAND" --build "$BUILD_DIR" --target "$PCH_TARGET" >/dev/null
fi
${DEVICE_LAUNCHER:-} $DEVICE_CXX $DEVICE_FLAGS -S "$dir/$name.hip" -o "$work/$name.s"
"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu="$ARCH" -filetype=obj "$work/$name.s" -o "$work/$name.o"
"$LD_LLD" --no-undefined -shared "$work/$name.o" -o "$work/$name.co"
$HOST_CXX $REF_FLAGS "$dir/${name}_ref.cpp" -o "$work/${name}_ref.so"
# the inputs the reducer used: the runner's data comes from the seed in the first line
seed=$(head -1 "$dir/$name.hip" | sed -n 's/.*seed \([0-9]*\).*/\1/p')
"$RUNNER" "$work/$name.co" "$work/${name}_ref.so" --seed "${seed:-1}" --verbose
