// Code objects of test_sched_sim.cpp (the kernels are in sched_fn.hpp).
#include "sched_fn.hpp"

using namespace hipasm::test::sched;

extern "C" __attribute__((global)) void fill_dpp(unsigned* out) { HIPASM_KERNEL_BODY(fill_dpp_fn, out); }
extern "C" __attribute__((global)) void fill_dpp_default(unsigned* out) { HIPASM_KERNEL_BODY(fill_dpp_default_fn, out); }
extern "C" __attribute__((global)) void fill_dpp_off(unsigned* out) { HIPASM_KERNEL_BODY(fill_dpp_off_fn, out); }
extern "C" __attribute__((global)) void fill_dpp_fenced(unsigned* out) { HIPASM_KERNEL_BODY(fill_dpp_fenced_fn, out); }
extern "C" __attribute__((global)) void fill_mfma(float* out, unsigned* out2) {
  HIPASM_KERNEL_BODY(fill_mfma_fn, out, out2);
}
extern "C" __attribute__((global)) void fill_mfma_off(float* out, unsigned* out2) {
  HIPASM_KERNEL_BODY(fill_mfma_off_fn, out, out2);
}
