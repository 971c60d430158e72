// EXPECT: bitop3_gfx942.hip:11: error: kernel 'bad': v_bitop3_b32 needs gfx950; this kernel is being compiled for gfx942
// ARCH: gfx942
// v_bitop3_b32 exists on gfx950 only: on gfx942 the instruction itself is rejected.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_bitop3(builder J, arg<unsigned*> out) {
  auto x = J.vgpr<u32>();
  x = J.thread_id_x();
  auto y = J.vgpr<u32>();
  J.v_bitop3_b32(y, x, x, x, {.bitop3 = 0x96});
  J.global_store_dword(J.thread_id_x() << 2u, y, out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_bitop3, out); }
