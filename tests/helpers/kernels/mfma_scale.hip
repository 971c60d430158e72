// Kernels of test_mfma_scale_sim.cpp (gfx950): one scaled f8f6f4 MFMA through the builder's
// mnemonic. scale_<M>_<FA>_<FB>_<SA><SB>: v_mfma_scale_f32_MxMxK_f8f6f4 with A in format FA
// (cbsz), B in FB (blgp), the scale byte SA of src3 and SB of src4 (op_sel low bit, op_sel_hi
// high bit). Lane l's register r of A, B, C and its scale dwords at word r * 64 + l of their
// inputs; D's likewise of the output.
#include <hipasm/hipasm.hpp>
#include <hipasm/helpers/mfma.hpp>

using namespace hipasm;

namespace msc {
constexpr int fmt_dwords(int f) { return f <= 1 ? 8 : f <= 3 ? 6 : 4; }

template <int M, int FA, int FB, int SA, int SB>
constexpr void scale_k(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b,
                       arg<const uint32_t*> c, arg<const uint32_t*> s) {
  constexpr int wa = fmt_dwords(FA), wb = fmt_dwords(FB), wc = M * M / 64;
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto A = make_buffer(J, a, 0xffffffffu), B = make_buffer(J, b, 0xffffffffu), C = make_buffer(J, c, 0xffffffffu),
       S = make_buffer(J, s, 0xffffffffu), D = make_buffer(J, d, 0xffffffffu);
  auto ra = J.vgpr<u32>(wa), rb = J.vgpr<u32>(wb), rc = J.vgpr<u32>(wc);
  auto sa = J.vgpr<u32>(), sb = J.vgpr<u32>();
  for (int r = 0; r < wa; ++r) A.load(ra.at(r), at(o) + 256 * r);
  for (int r = 0; r < wb; ++r) B.load(rb.at(r), at(o) + 256 * r);
  for (int r = 0; r < wc; ++r) C.load(rc.at(r), at(o) + 256 * r);
  S.load(sa, at(o));
  S.load(sb, at(o) + 256);
  J.s_waitcnt(vmcnt(0));
  modifiers m;
  m.op_sel = static_cast<uint8_t>((SA & 1) | (SB & 1) << 1);
  if (SA > 1 || SB > 1) m.op_sel_hi = static_cast<uint8_t>((SA >> 1) | (SB >> 1) << 1);  // else the default
  m.cbsz = FA;
  m.blgp = FB;
  if constexpr (M == 16) J.v_mfma_scale_f32_16x16x128_f8f6f4(rc, ra, rb, rc, sa, sb, m);
  else J.v_mfma_scale_f32_32x32x64_f8f6f4(rc, ra, rb, rc, sa, sb, m);
  for (int r = 0; r < wc; ++r) D.store(rc.at(r), at(o) + 256 * r);
}

// load_<M>_<F>: mfma_load of the A fragment of v_mfma_scale_f32_MxMxK_f8f6f4 in format F from a
// row-major M x K tile of F's codes (K * bits / 8 bytes a row) in global memory; lane l's register
// r to word r * 64 + l of the output.
template <int M, int F>
constexpr void load_k(builder J, arg<uint32_t*> d, arg<const uint8_t*> t) {
  constexpr const mfma_atom& x =
      mfma_atom_of(M == 16 ? "v_mfma_scale_f32_16x16x128_f8f6f4" : "v_mfma_scale_f32_32x32x64_f8f6f4");
  constexpr uint32_t row_bytes = x.k * (F <= 1 ? 8u : F <= 3 ? 6u : 4u) / 8u;
  auto T = make_buffer(J, t, M * row_bytes), D = make_buffer(J, d, 0xffffffffu);
  auto lane = lane_id(J);
  auto fa = J.vgpr<u32>(x.a_regs(F));
  mfma_load(J, x, mfma_operand::a, fa, mfma_global{T, 0, row_bytes, 1}, lane, {}, false, F);
  J.s_waitcnt(vmcnt(0));
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  for (int r = 0; r < x.a_regs(F); ++r) D.store(fa.at(r), at(o) + 256 * r);
}
}  // namespace msc

#define SCALE(M, FA, FB, SA, SB)                                                                          \
  extern "C" __attribute__((global)) void scale_##M##_##FA##_##FB##_##SA##SB(                                 \
      uint32_t* d, const uint32_t* a, const uint32_t* b, const uint32_t* c, const uint32_t* s) {             \
    HIPASM_KERNEL_BODY((msc::scale_k<M, FA, FB, SA, SB>), d, a, b, c, s);                                     \
  }
SCALE(16, 0, 0, 0, 0) SCALE(16, 0, 1, 1, 2) SCALE(16, 2, 4, 3, 0) SCALE(16, 4, 4, 2, 3) SCALE(16, 3, 0, 0, 1)
SCALE(32, 0, 0, 0, 0) SCALE(32, 1, 3, 3, 1) SCALE(32, 4, 2, 1, 2) SCALE(32, 2, 2, 2, 2)
SCALE(16, 0, 4, 1, 0) SCALE(32, 0, 4, 0, 3) SCALE(32, 4, 1, 2, 0)

#define LOAD(M, F)                                                                                        \
  extern "C" __attribute__((global)) void load_##M##_##F(uint32_t* d, const uint8_t* t) {                \
    HIPASM_KERNEL_BODY((msc::load_k<M, F>), d, t);                                                        \
  }
LOAD(16, 0) LOAD(16, 2) LOAD(16, 4) LOAD(32, 1) LOAD(32, 3) LOAD(32, 4)
