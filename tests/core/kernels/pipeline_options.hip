// Kernels of test_pipeline_options.cpp: the same builder function with and without the
// optional passes, through HIPASM_KERNEL_BODY.
#include "pipeline_options.hpp"

using namespace hipasm::test;

extern "C" __attribute__((global)) void po_default(int* out, int n) { HIPASM_KERNEL_BODY(po_kernel, out, n); }
extern "C" __attribute__((global)) void po_plain(int* out, int n) { HIPASM_KERNEL_BODY(po_kernel_plain, out, n); }
