// EXPECT: [^ -~][^ ]*select_constants_types.hip:11: error: kernel 'select_constants_types': select of two constants of different C.. types.*name the dtype, as in select<dtype::u32>\(c, 1, 2\)
// select of two constants of different C++ types (1u and 2): one error at the user's line
// saying what to write (before: ~30 lines of overload candidates, none at the user's line first).
#include <hipasm/kernel.hpp>
#include <hipasm/helpers.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<unsigned*> out) {
  auto i = J.vgpr<u32>();
  i = J.thread_id_x();
  auto r = select(i < 5u, 1u, 2);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  J.global_store_dword(p, r, off);
}
extern "C" __attribute__((global)) void select_constants_types(unsigned* out) { HIPASM_KERNEL_BODY(bad, out); }
