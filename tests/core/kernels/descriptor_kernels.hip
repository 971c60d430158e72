// Kernels whose code objects test_descriptor.cpp reads: the descriptor clang writes from
// hipasm's clobbers and entry-state asm, and the code before the asm body.
#include "hipasm/kernel.hpp"
#include "descriptor_ir.hpp"

using namespace hipasm;
using namespace hipasm::test;

extern "C" __attribute__((global)) void entry_mix(int* out) {
  HIPASM_KERNEL_BODY(entry_mix_ir);
  (void)out;
}

extern "C" __attribute__((global)) void plain_loop(int* out) {
  HIPASM_KERNEL_BODY(plain_loop_ir);
  (void)out;
}
