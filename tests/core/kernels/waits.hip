// Code objects of test_waits_sim.cpp (the kernels are in waits_fn.hpp).
#include "waits_fn.hpp"

using namespace hipasm::test::waits;

#define IN_KERNEL(name)                                                                        \
  extern "C" __attribute__((global)) void name(unsigned* out, const unsigned* in) {            \
    HIPASM_KERNEL_BODY(name##_fn, out, in);                                                    \
  }
#define IN_N_KERNEL(name)                                                                      \
  extern "C" __attribute__((global)) void name(unsigned* out, const unsigned* in, unsigned n) { \
    HIPASM_KERNEL_BODY(name##_fn, out, in, n);                                                 \
  }
IN_KERNEL(wf_straight)
IN_KERNEL(wf_lds_smem)
IN_KERNEL(auto_mixed)
IN_KERNEL(auto_smem_waw)
IN_N_KERNEL(wf_join)
IN_N_KERNEL(wf_join_uneven)
IN_N_KERNEL(wf_loop)
IN_N_KERNEL(auto_loop)
extern "C" __attribute__((global)) void karg_late(unsigned* out, unsigned k) { HIPASM_KERNEL_BODY(karg_late_fn, out, k); }
extern "C" __attribute__((global)) void karg_early(unsigned* out, unsigned k) { HIPASM_KERNEL_BODY(karg_early_fn, out, k); }
extern "C" __attribute__((global)) void karg_loop(unsigned* out, unsigned k, unsigned n) {
  HIPASM_KERNEL_BODY(karg_loop_fn, out, k, n);
}
