// EXPECT: error: static assertion failed: hipasm: mixed dtypes in an expression: f32 < i32 .*mixed_compare.hip:10:[0-9]+: note: in instantiation of.*[^0-9]1 error generated
// A comparison of two dtypes (a condition for If/While) is one error naming both dtypes and
// the user's line; the kernel's own evaluation reports nothing more.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<int*> out) {
  auto f = J.vgpr<f32>().fill(1.0f);
  auto i = J.vgpr<i32>().fill(2);
  J.If(f < i, [&] { i = i + 1; });
  auto p = J.vgpr<u64>();
  p = out + 0u;
  J.global_store_dword(p, i, off);
}
extern "C" __attribute__((global)) void mixed_compare(int* out) { HIPASM_KERNEL_BODY(bad, out); }
