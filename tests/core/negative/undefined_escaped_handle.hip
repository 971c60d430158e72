// EXPECT: undefined_escaped_handle.hip:16: error: kernel .undefined_escaped_handle.: reads the SGPR allocated at [^ ]*undefined_escaped_handle.hip:12 on a path that skips its write at [^ ]*undefined_escaped_handle.hip:13 \(the branch at [^ ]*undefined_escaped_handle.hip:11\)
// A handle made inside a (uniform) If and kept after it: when the If is not taken, nothing
// wrote its register.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<int*> out, arg<int> n) {
  gpr<i32> kept;
  auto s = J.sgpr<i32>();
  s = n + 0;
  J.If(s > 3, [&] {
    auto t = J.sgpr<i32>();
    t = s * 2;
    kept.rebind(t);
  });
  J.s_store_dword(kept, out, 0);
}
extern "C" __attribute__((global)) void undefined_escaped_handle(int* out, int n) { HIPASM_KERNEL_BODY(bad, out, n); }
