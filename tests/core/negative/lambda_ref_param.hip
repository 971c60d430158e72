// EXPECT: error: non-type template argument is not a constant expression.*lambda_ref_param.hip:11:[0-9]+: note: function parameter 'acc' with unknown value cannot be used in a constant expression
// The text README's "Pitfalls" quotes for a lambda capturing a reference parameter under the
// bytecode constant interpreter (the library cannot detect it). If clang stops failing here,
// this test fails and the README rule can go. (The default interpreter accepts the kernel;
// taking the handle by value or through a local reference works under both.)
#include <hipasm/kernel.hpp>
using namespace hipasm;

// acc is a reference parameter; the [&] lambda reads it.
constexpr void bump(builder J, gpr<i32>& acc, arg<int> n) {
  J.If(n > 0, [&] { acc = acc + 1; });
}
constexpr void k(builder J, arg<int*> out, arg<int> n) {
  auto acc = J.sgpr<i32>().fill(0);
  bump(J, acc, n);
  J.s_store_dword(acc, out, 0);
  J.s_waitcnt(lgkmcnt(0));
}
extern "C" __attribute__((global)) void lambda_ref_param(int* out, int n) { HIPASM_KERNEL_BODY(k, out, n); }
