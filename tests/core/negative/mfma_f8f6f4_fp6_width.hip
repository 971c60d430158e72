// EXPECT: mfma_f8f6f4_fp6_width.hip:14: error: .*v_mfma_f32_32x32x64_f8f6f4.*blgp:3 \(B in bf6\): operand 2 \(src1\) must be 6 dword\(s\) wide, got 8
// ARCH: gfx950
// The f8f6f4 MFMA's B width follows its format (blgp): bf6 B is 6 VGPRs, not fp8's 8.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_k(builder J, arg<float*> out) {
  using dtype::u32;
  using dtype::f32;
  auto a = J.vgpr<u32>(8), b = J.vgpr<u32>(8);
  auto acc = J.vgpr<f32>(16);
  a.fill(0u), b.fill(0u), acc.fill(0.0f);
  J.v_mfma_f32_32x32x64_f8f6f4(acc, a, b, acc);
  J.v_mfma_f32_32x32x64_f8f6f4(acc, a, b, acc, {.blgp = 3});
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
