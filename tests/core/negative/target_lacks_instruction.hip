// EXPECT: target_lacks_instruction.hip:10: error: kernel 'bad': v_cvt_pk_bf16_f32 needs gfx950; this kernel is being compiled for gfx942
// An instruction only another target has (gfx950's v_cvt_pk_bf16_f32) fails the gfx942 build
// on the user's line, naming both targets.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_target(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>(2);
  x[0] = 1.0f;
  J.v_cvt_pk_bf16_f32(x[1], x[0], x[0]);
  J.global_store_dword(J.thread_id_x() << 2u, x[1], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_target, out); }
