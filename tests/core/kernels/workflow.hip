// Kernels of test_kernel_workflow.cpp: run as compiled, then dumped (.s), hand-edited,
// re-assembled and run again.
#include "hipasm/kernel.hpp"
#include "workflow_ir.hpp"

using namespace hipasm::test;

extern "C" __attribute__((global)) void wf_add(int* out) {
  HIPASM_KERNEL_BODY(wf_add_ir);
  (void)out;
}
extern "C" __attribute__((global)) void wf_hazard(const unsigned* in, float* out) {
  HIPASM_KERNEL_BODY(wf_hazard_ir);
  (void)in;
  (void)out;
}
extern "C" __attribute__((global)) void wf_hazard2(float* out) {
  HIPASM_KERNEL_BODY(wf_hazard2_ir);
  (void)out;
}
