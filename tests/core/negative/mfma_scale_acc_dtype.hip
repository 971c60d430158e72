// EXPECT: mfma_scale_acc_dtype.hip:18: error: kernel 'bad': v_mfma_scale_f32_16x16x128_f8f6f4 operand 0 \(the result \(D\)\): a register of dtype bf16x2 where the instruction takes f32
// ARCH: gfx950
// A bf16x2 accumulator for a scaled MFMA (an f32 result) is an error at the call; fp4 A
// registers fit cbsz:4 (fp4x8) and the f32 accumulator before it compiles.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_k(builder J, arg<float*> out) {
  auto a = J.vgpr<fp4x8>(4);
  auto b = J.vgpr<u32>(8);
  auto acc = J.vgpr<f32>(4);
  auto wrong = J.vgpr<bf16x2>(4);
  auto sa = J.vgpr<u32>(), sb = J.vgpr<u32>();
  a.as<u32>().fill(0u), b.fill(0u), acc.fill(0.0f), wrong.as<u32>().fill(0u);
  sa = 127u, sb = 127u;
  J.v_mfma_scale_f32_16x16x128_f8f6f4(acc, a, b, acc, sa, sb, {.cbsz = 4});
  // the line the message names:
  J.v_mfma_scale_f32_16x16x128_f8f6f4(wrong, a, b, wrong, sa, sb, {.cbsz = 4});
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
