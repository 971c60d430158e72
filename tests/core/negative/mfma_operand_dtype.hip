// EXPECT: mfma_operand_dtype.hip:15: error: kernel 'bad': v_mfma_f32_16x16x16_f16 operand 1 \(A\): a register of dtype f32 where the instruction takes f16x2: reinterpret the register with .as<f16x2>\(\)
// An MFMA operand register of another dtype than the mnemonic's (f32 registers as an f16
// MFMA's A) is an error at the call; the same registers reinterpreted (.as<f16x2>()) and raw
// u32 bits are accepted (the lines before it).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_k(builder J, arg<float*> out) {
  auto a = J.vgpr<f32>(2);
  auto b = J.vgpr<u32>(2);
  auto acc = J.vgpr<f32>(4);
  a.fill(0.0f), b.fill(0u), acc.fill(0.0f);
  J.v_mfma_f32_16x16x16_f16(acc, a.as<f16x2>(), b, acc);
  J.v_mfma_f32_16x16x16_f16(acc, b, b.as<f16x2>(), acc);
  J.v_mfma_f32_16x16x16_f16(acc, a, b, acc);
  J.global_store_dword(J.thread_id_x() << 2u, acc[0], out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_k, out); }
