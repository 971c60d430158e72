// test_interleave.cpp's kernels (interleave_kernels.hpp).
#include "interleave_kernels.hpp"

using namespace hipasm;


extern "C" __attribute__((global)) void il_order_interleaved(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_order_on, out, in); }
extern "C" __attribute__((global)) void il_order_sequential(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_order_off, out, in); }
extern "C" __attribute__((global)) void il_loop_interleaved(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_loop_on, out, in); }
extern "C" __attribute__((global)) void il_loop_sequential(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_loop_off, out, in); }
