// A source that turns the asm comments off itself, before including hipasm: with the
// precompiled header (parsed before this file) its choice must still apply.
#define HIPASM_ASM_COMMENTS 0
#include "kernel_fn.hpp"
extern "C" __global__ void double_it_quiet(int* out, const int* in, unsigned n) {
  HIPASM_KERNEL_BODY(double_it_fn, out, in, n);
}
