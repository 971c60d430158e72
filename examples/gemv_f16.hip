// Code object of examples/gemv_f16.hpp.
#include <hipasm/kernel.hpp>

#include "gemv_f16.hpp"

extern "C" __attribute__((global)) void gemv_f16(float* y, const _Float16* A, const _Float16* x, unsigned rows,
                                                 unsigned K) {
  HIPASM_KERNEL_BODY(examples::gemv_f16, y, A, x, rows, K);
}
