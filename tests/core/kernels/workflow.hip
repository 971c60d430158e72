// Kernels of test_kernel_workflow.cpp: run as compiled, then dumped (.s), hand-edited,
// re-assembled and run again.
#include "hipasm/kernel.hpp"
#include "workflow_ir.hpp"

using namespace hipasm::test;

extern "C" __attribute__((global)) void wf_add(int* out) {
  HIPASM_KERNEL_BODY(wf_add_ir);
  (void)out;
}
// The hazard fixtures keep their order (kernel_options::schedule off): the test removes their
// s_nops to see the simulator report each hazard, and filling would take some hazards away.
inline constexpr auto wf_hazard_fixed = hipasm::with_options<wf_hazard_ir, hipasm::kernel_options{.schedule = false}>;
inline constexpr auto wf_hazard2_fixed = hipasm::with_options<wf_hazard2_ir, hipasm::kernel_options{.schedule = false}>;
extern "C" __attribute__((global)) void wf_hazard(const unsigned* in, float* out) {
  HIPASM_KERNEL_BODY(wf_hazard_fixed);
  (void)in;
  (void)out;
}
extern "C" __attribute__((global)) void wf_hazard2(float* out) {
  HIPASM_KERNEL_BODY(wf_hazard2_fixed);
  (void)out;
}
