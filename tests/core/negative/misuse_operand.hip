// EXPECT: misuse_operand.hip:9: error: kernel 'misuse_operand': s_mov_b32: operand 1 .src0. cannot be a VGPR
// An SGPR move cannot read a VGPR: the builder rejects it at the user's line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void misuse(builder J, arg<int*> out) {
  auto s = J.sgpr<u32>();
  auto v = J.vgpr<u32>().fill(1);
  J.s_mov_b32(s, v);
  J.s_store_dword(s, out, 0);
}
extern "C" __attribute__((global)) void misuse_operand(int* out) { HIPASM_KERNEL_BODY(misuse, out); }
