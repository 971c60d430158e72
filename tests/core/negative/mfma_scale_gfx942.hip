// EXPECT: mfma_scale_gfx942.hip:16: error: kernel 'bad': v_mfma_scale_f32_16x16x128_f8f6f4 needs gfx950; this kernel is being compiled for gfx942
// ARCH: gfx942
// gfx950's scaled MFMA (v_mfma_ld_scale_b32 + the f8f6f4 MFMA) fails the gfx942 build on the
// user's line, naming both targets.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_k(builder J, arg<float*> out) {
  using dtype::u32;
  using dtype::f32;
  auto a = J.vgpr<u32>(8), b = J.vgpr<u32>(8);
  auto acc = J.vgpr<f32>(4);
  auto sa = J.vgpr<u32>(), sb = J.vgpr<u32>();
  a.fill(0u), b.fill(0u), acc.fill(0.0f);
  sa = 127u, sb = 127u;
  J.v_mfma_scale_f32_16x16x128_f8f6f4(acc, a, b, acc, sa, sb);
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
