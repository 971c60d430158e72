// Code object of examples/stencil_ring.hpp: the periodic and the open-boundary stencil.
#include <hipasm/kernel.hpp>

#include "stencil_ring.hpp"

extern "C" __attribute__((global)) void stencil_ring(float* out, const float* in, unsigned rows, unsigned steps,
                                                     float c0, float c1, float c2) {
  HIPASM_KERNEL_BODY(examples::stencil_ring, out, in, rows, steps, c0, c1, c2);
}
extern "C" __attribute__((global)) void stencil_open(float* out, const float* in, unsigned rows, unsigned steps,
                                                     float c0, float c1, float c2) {
  HIPASM_KERNEL_BODY(examples::stencil_open, out, in, rows, steps, c0, c1, c2);
}
