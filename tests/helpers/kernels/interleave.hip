// test_interleave.cpp's kernels (interleave_kernels.hpp).
#include "interleave_kernels.hpp"

using namespace hipasm;


extern "C" __attribute__((global)) void il_order_interleaved(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_order_on, out, in); }
extern "C" __attribute__((global)) void il_order_sequential(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_order_off, out, in); }
extern "C" __attribute__((global)) void il_loop_interleaved(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_loop_on, out, in); }
extern "C" __attribute__((global)) void il_consts_k(uint32_t* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_consts, out, in); }
extern "C" __attribute__((global)) void il_loop_sequential(float* out, const uint32_t* in) { HIPASM_KERNEL_BODY(il_loop_off, out, in); }

#include "interleave_fuzz.hpp"
#define IL_FUZZ_K(seed) \
  extern "C" __attribute__((global)) void il_fuzz_k##seed(uint32_t* o) { HIPASM_KERNEL_BODY(il_fuzz_##seed, o); }
IL_FUZZ_K(1)
IL_FUZZ_K(2)
IL_FUZZ_K(3)
IL_FUZZ_K(4)
IL_FUZZ_K(5)
IL_FUZZ_K(6)
IL_FUZZ_K(7)
IL_FUZZ_K(8)
