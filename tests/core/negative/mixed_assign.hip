// EXPECT: error: static assertion failed: hipasm: mixed dtypes in an assignment: i32 register = u32 value .registers never convert implicitly.*mixed_assign.hip:10:[0-9]+: note: in instantiation of.*[^0-9]1 error generated
// Assigning a register of another dtype is one error naming both dtypes and the user's line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<int*> out) {
  auto u = J.sgpr<u32>().fill(1);
  auto i = J.sgpr<i32>().fill(2);
  i = i + 1;
  i = u;
  J.s_store_dword(i, out, 0);
}
extern "C" __attribute__((global)) void mixed_assign(int* out) { HIPASM_KERNEL_BODY(bad, out); }
