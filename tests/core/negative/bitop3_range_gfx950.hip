// EXPECT: bitop3_range_gfx950.hip:12: error: .*v_bitop3_b32: bitop3 256 out of range 0..255
// ARCH: gfx950
// A truth table wider than 8 bits: the checker names the value and the range at the user's
// line (the field is wider than 8 bits so that the value reaches it).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_bitop3(builder J, arg<unsigned*> out) {
  auto x = J.vgpr<u32>();
  x = J.thread_id_x();
  auto y = J.vgpr<u32>();
  J.v_bitop3_b32(y, x, x, x, {.bitop3 = 256});
  J.global_store_dword(J.thread_id_x() << 2u, y, out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_bitop3, out); }
