// Kernels of test_dead_loads.cpp (dead_loads.hpp).
#include "dead_loads.hpp"

using namespace dead_loads;

extern "C" __attribute__((global)) void dl_vm_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_vm_partial_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_partial_wait>, out, in); }
extern "C" __attribute__((global)) void dl_vm_glc(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_glc>, out, in); }
extern "C" __attribute__((global)) void dl_smem_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<smem_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_ds_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<ds_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_no_wait_in_block(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<no_wait_in_block>, out, in); }
