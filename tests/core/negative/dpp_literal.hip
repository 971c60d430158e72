// EXPECT: dpp_literal.hip:11: error: .*v_add_f32: immediate 0x447a0000 as operand 1 .src0.: DPP takes no literal.*move the value into a VGPR first
// A DPP instruction given a literal operand (1000.0 is not an inline constant): the message
// says that DPP takes no literal and what to do instead, at the user's line (not "VOP3").
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_dpp(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  x = 1.0f;
  auto y = J.vgpr<f32>();
  J.v_add_f32(y, 1000.0f, x, dpp::row_shr(1));
  J.global_store_dword(J.thread_id_x() << 2u, y, out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_dpp, out); }
