// A consumer's kernel: out[i] = in[i] * 2 for i < n.
#include "kernel_fn.hpp"
extern "C" __global__ void double_it(int* out, const int* in, unsigned n) {
  HIPASM_KERNEL_BODY(double_it_fn, out, in, n);
}
