// Kernels of test_dead_loads.cpp (dead_loads.hpp).
#include "dead_loads.hpp"

using namespace dead_loads;

extern "C" __attribute__((global)) void dl_vm_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_vm_partial_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_partial_wait>, out, in); }
extern "C" __attribute__((global)) void dl_vm_glc(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<vm_glc>, out, in); }
extern "C" __attribute__((global)) void dl_smem_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<smem_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_ds_zero_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<ds_zero_wait>, out, in); }
extern "C" __attribute__((global)) void dl_no_wait_in_block(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<no_wait_in_block>, out, in); }
extern "C" __attribute__((global)) void dl_baseline(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<baseline>, out, in); }
extern "C" __attribute__((global)) void dl_end_vm(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_vm>, out, in); }
extern "C" __attribute__((global)) void dl_end_buffer(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_buffer>, out, in); }
extern "C" __attribute__((global)) void dl_end_smem(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_smem>, out, in); }
extern "C" __attribute__((global)) void dl_end_in_if(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_in_if>, out, in); }
extern "C" __attribute__((global)) void dl_end_lds_dma(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_lds_dma>, out, in); }
extern "C" __attribute__((global)) void dl_end_atomic(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<end_atomic>, out, in); }
extern "C" __attribute__((global)) void dl_branch_follows(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<branch_follows>, out, in); }
extern "C" __attribute__((global)) void dl_loop_dead(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<loop_dead>, out, in); }
extern "C" __attribute__((global)) void dl_loop_dead_wait(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<loop_dead_wait>, out, in); }
extern "C" __attribute__((global)) void dl_loop_next(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<loop_next>, out, in); }
extern "C" __attribute__((global)) void dl_loop_epilogue(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<loop_epilogue>, out, in); }
extern "C" __attribute__((global)) void dl_loop_partial(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY(dl_kernel<loop_partial>, out, in); }
