// EXPECT: target_lacks_instruction_gfx950.hip:12: error: kernel 'bad': v_mfma_f32_16x16x8_xf32 needs gfx942; this kernel is being compiled for gfx950
// ARCH: gfx950
// gfx950 removed the xf32 MFMAs: a kernel compiled for it (--offload-arch=gfx950) that calls
// one fails on the user's line.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_target(builder J, arg<float*> out) {
  auto a = J.vgpr<f32>(2);
  auto c = J.vgpr<f32>(4);
  a[0] = 1.0f;
  J.v_mfma_f32_16x16x8_xf32(c, a, a, c);
  J.global_store_dword(J.thread_id_x() << 2u, c[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_target, out); }
