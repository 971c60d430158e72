// Code objects of test_partial_defs_sim.cpp (the kernels are in partial_defs_fn.hpp).
#include "partial_defs_fn.hpp"

using namespace hipasm::test::partial;

extern "C" __attribute__((global)) void dpp_row_mask(float* out) { HIPASM_KERNEL_BODY(dpp_row_mask_fn, out); }
extern "C" __attribute__((global)) void dpp_bank_mask(unsigned* out) { HIPASM_KERNEL_BODY(dpp_bank_mask_fn, out); }
extern "C" __attribute__((global)) void dpp_no_bound_ctrl(unsigned* out) {
  HIPASM_KERNEL_BODY(dpp_no_bound_ctrl_fn, out);
}
extern "C" __attribute__((global)) void dpp_partial_exec(unsigned* out) {
  HIPASM_KERNEL_BODY(dpp_partial_exec_fn, out);
}
extern "C" __attribute__((global)) void sdwa_preserve(unsigned* out) { HIPASM_KERNEL_BODY(sdwa_preserve_fn, out); }
extern "C" __attribute__((global)) void dot4c(int* out) { HIPASM_KERNEL_BODY(dot4c_fn, out); }
extern "C" __attribute__((global)) void fma_mixlo(unsigned* out) { HIPASM_KERNEL_BODY(fma_mixlo_fn, out); }
extern "C" __attribute__((global)) void d16_hi(unsigned* out, const unsigned short* in) {
  HIPASM_KERNEL_BODY(d16_hi_fn, out, in);
}
#define LOOP_KERNEL(name)                                                                   \
  extern "C" __attribute__((global)) void name(unsigned* out, const unsigned* in, unsigned n) { \
    HIPASM_KERNEL_BODY(name##_fn, out, in, n);                                              \
  }
LOOP_KERNEL(loop_uniform)
LOOP_KERNEL(loop_per_lane)
LOOP_KERNEL(loop_in_if)
LOOP_KERNEL(carried_uniform)
LOOP_KERNEL(carried_per_lane)
LOOP_KERNEL(carried_step)
