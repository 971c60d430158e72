// Code object of examples/log_squares.hpp.
#include <hipasm/kernel.hpp>

#include "log_squares.hpp"

extern "C" __attribute__((global)) void log_squares(int* out, uint32_t* dbg_buf, unsigned n) {
  HIPASM_KERNEL_BODY(examples::log_squares, out, dbg_buf, n);
}
