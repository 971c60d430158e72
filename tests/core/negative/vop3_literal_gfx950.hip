// EXPECT: vop3_literal_gfx950.hip:14: error: .*literal 0x12345 not allowed in VOP3 on gfx9 \(
// ARCH: gfx950
// A literal in a VOP3 instruction compiled for gfx950: the rule is gfx9's (gfx942 and gfx950
// alike), and the message must not name a target the kernel is not compiled for.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_literal(builder J, arg<unsigned*> out) {
  auto x = J.vgpr<f32>();
  x = 1.0f;
  auto y = J.vgpr<f32>();
  auto k = J.vgpr<f32>();
  k = 2.0f;
  J.v_fma_f32(y, x, k, 0x12345u);
  J.global_store_dword(J.thread_id_x() << 2u, y, out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_literal, out); }
