// EXPECT: misaligned_tuple.hip:9: error: kernel 'misaligned_tuple': global_load_dwordx2 operand 0: a 2-dword VGPR tuple must start at a multiple of 2
// 64-bit VGPR tuples start at an even register: an odd slice is rejected at the user's line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<const float*> in) {
  auto v = J.vgpr<f32>(4);
  auto p = J.vgpr<u64>();
  p = in + 0u; J.global_load_dwordx2(v.slice(1, 2), p, off);
}
extern "C" __attribute__((global)) void misaligned_tuple(const float* in) { HIPASM_KERNEL_BODY(bad, in); }
