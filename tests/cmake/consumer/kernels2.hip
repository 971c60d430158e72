// A second source of the same code object (hipasm_add_code_object with several SOURCES).
#include "kernel_fn.hpp"
extern "C" __global__ void double_it_again(int* out, const int* in, unsigned n) {
  HIPASM_KERNEL_BODY(double_it_fn, out, in, n);
}
