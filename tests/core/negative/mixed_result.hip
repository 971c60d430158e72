// EXPECT: error: static assertion failed: hipasm: mixed dtypes in an expression: u32 \+ i32 .*mixed_result.hip:10:[0-9]+: note: in instantiation of.*[^0-9]1 error generated
// A mixed expression used on (assigned to a register of either dtype, multiplied) is still
// one error: the operator's result is a placeholder that nothing else reports.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<int*> out) {
  auto u = J.sgpr<u32>().fill(1);
  auto i = J.sgpr<i32>().fill(2);
  i = (u + i) * 2;
  J.s_store_dword(i, out, 0);
}
extern "C" __attribute__((global)) void mixed_result(int* out) { HIPASM_KERNEL_BODY(bad, out); }
