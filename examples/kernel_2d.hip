// Code object of examples/kernel_2d.hpp.
#include <hipasm/kernel.hpp>

#include "kernel_2d.hpp"

extern "C" __attribute__((global)) void kernel_2d(float* c, const float* a, const float* b, float alpha,
                                                  unsigned rows, unsigned cols) {
  HIPASM_KERNEL_BODY(examples::kernel_2d, c, a, b, alpha, rows, cols);
}
