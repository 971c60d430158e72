// Code object of examples/vector_add.hpp.
#include <hipasm/kernel.hpp>

#include "vector_add.hpp"

extern "C" __attribute__((global)) void vector_add(float* c, const float* a, const float* b, unsigned n) {
  HIPASM_KERNEL_BODY(examples::vector_add, c, a, b, n);
}
