// EXPECT: mfma_f8f6f4_bad_format.hip:13: error: .*v_mfma_f32_16x16x128_f8f6f4.*cbsz:5 names no A format \(0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4\)
// ARCH: gfx950
// cbsz / blgp of an f8f6f4 MFMA are format codes 0..4; 5..7 name none.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_k(builder J, arg<float*> out) {
  using dtype::u32;
  using dtype::f32;
  auto a = J.vgpr<u32>(8), b = J.vgpr<u32>(8);
  auto acc = J.vgpr<f32>(4);
  a.fill(0u), b.fill(0u), acc.fill(0.0f);
  J.v_mfma_f32_16x16x128_f8f6f4(acc, a, b, acc, {.cbsz = 5});
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
