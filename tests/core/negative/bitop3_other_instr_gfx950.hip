// EXPECT: bitop3_other_instr_gfx950.hip:12: error: .*v_xad_u32: modifier bitop3 not accepted
// ARCH: gfx950
// bitop3 (the truth table of v_bitop3_b32 / _b16) given to another three-source VALU
// instruction: the message names the modifier and the instruction, at the user's line.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_bitop3(builder J, arg<unsigned*> out) {
  auto x = J.vgpr<u32>();
  x = J.thread_id_x();
  auto y = J.vgpr<u32>();
  J.v_xad_u32(y, x, x, x, {.bitop3 = 0x96});
  J.global_store_dword(J.thread_id_x() << 2u, y, out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_bitop3, out); }
