// EXPECT: mfma_scale_fp4_width.hip:16: error: .*v_mfma_scale_f32_16x16x128_f8f6f4.*cbsz:4 \(A in fp4\): operand 1 \(src0\) must be 4 dword\(s\) wide, got 8
// ARCH: gfx950
// The scaled MFMA's A width follows its format (cbsz) as the unscaled one's does: fp4 A is 4
// VGPRs (llvm-mc-22 rejects 8), named on the user's line.
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
  J.v_mfma_scale_f32_16x16x128_f8f6f4(acc, a, b, acc, sa, sb, {.cbsz = 4});
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
