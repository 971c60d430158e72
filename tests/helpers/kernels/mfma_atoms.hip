// Kernels of test_mfma_atoms_sim.cpp, compiled for each target the test runs on: every MFMA
// atom of the active target.
//   atom_<i>: one MFMA of atom i with raw operands: lane l's register r of A, B, C at word
//     r * 64 + l of its input, D's likewise of the output (the host places the values by the
//     atom's layout).
//   frag_<i>: the fragment helpers: A (M x K, row-major, ld = K + 4 elements) and B (K x N
//     stored N x K, ld = K + 8) from global memory through mfma_load, C/D row-major (ld = N + 1)
//     through mfma_load/mfma_store with mfma_global; frag_lds_<i>: A and B through LDS views,
//     B stored K x N (transposed fragments).
//   f8f6f4_<M>_<FA>_<FB> (gfx950): atom_<i> of the f8f6f4 atoms in fp6 / fp4 formats.
#include <hipasm/hipasm.hpp>
#include <hipasm/helpers/mfma.hpp>

using namespace hipasm;

namespace ma {

// The atom's MFMA; a scaled atom's scales are 127 (2^0) here (test_mfma_scale_sim.cpp tests others).
template <int I>
constexpr void run(builder J, operand_arg d, operand_arg a, operand_arg b, operand_arg c, const modifiers& m = {}) {
  constexpr const mfma_atom& x = mfma_atoms()[I];
  if constexpr (x.scaled) {
    auto one = J.vgpr<u32>();
    one = 127u;
    mfma_run(J, x, d, a, b, c, one, one, m);
  } else {
    mfma_run(J, x, d, a, b, c, m);
  }
}

template <int I, int FA = 0, int FB = 0>
constexpr void atom_raw(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b,
                        arg<const uint32_t*> c) {
  constexpr const mfma_atom& x = mfma_atoms()[I];
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto A = make_buffer(J, a, 0xffffffffu), B = make_buffer(J, b, 0xffffffffu), C = make_buffer(J, c, 0xffffffffu),
       D = make_buffer(J, d, 0xffffffffu);
  auto ra = J.vgpr<u32>(x.a_regs(FA)), rb = J.vgpr<u32>(x.b_regs(FB)), rc = J.vgpr<u32>(x.c_regs());
  for (int r = 0; r < x.a_regs(FA); ++r) A.load(ra.at(r), at(o) + 256 * r);
  for (int r = 0; r < x.b_regs(FB); ++r) B.load(rb.at(r), at(o) + 256 * r);
  for (int r = 0; r < x.c_regs(); ++r) C.load(rc.at(r), at(o) + 256 * r);
  J.s_waitcnt(vmcnt(0));
  if constexpr (x.a == mfma_type::f8f6f4) run<I>(J, rc, ra, rb, rc, {.cbsz = FA, .blgp = FB});
  else run<I>(J, rc, ra, rb, rc);
  for (int r = 0; r < x.c_regs(); ++r) D.store(rc.at(r), at(o) + 256 * r);
}

// Tile shapes of the fragment kernels (elements): A M x K (ld K + 16 bytes), B N x K (ld K + 32
// bytes), C/D M x N (ld N + 1); blocks stacked along M (A, C) or N (B).
template <int I>
struct shape {
  static constexpr const mfma_atom& x = mfma_atoms()[I];
  static constexpr uint32_t eb_a = static_cast<uint32_t>(mfma_type_bits(x.a) / 8);
  static constexpr uint32_t eb_c = static_cast<uint32_t>(mfma_type_bits(x.c) / 8);
  static constexpr uint32_t rows_a = x.m * x.blocks, cols_b = x.n * x.blocks;
  static constexpr uint32_t lda = x.k + 16 / eb_a, ldbt = x.k + 32 / eb_a, ldc = x.n + 1;
};

template <int I>
constexpr void frag_global(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b,
                           arg<const uint32_t*> c) {
  using S = shape<I>;
  constexpr const mfma_atom& x = S::x;
  auto lane = J.vgpr<u32>();
  lane = J.thread_id_x();
  auto A = make_buffer(J, a, 0xffffffffu), B = make_buffer(J, b, 0xffffffffu), C = make_buffer(J, c, 0xffffffffu),
       D = make_buffer(J, d, 0xffffffffu);
  auto fa = J.vgpr<u32>(x.a_regs()), fb = J.vgpr<u32>(x.b_regs()), acc = J.vgpr<u32>(x.c_regs());
  mfma_load(J, x, mfma_operand::a, fa, mfma_global{A, 0, S::lda * S::eb_a, S::eb_a}, lane);
  mfma_load(J, x, mfma_operand::b, fb, mfma_global{B, 0, S::ldbt * S::eb_a, S::eb_a}, lane, {}, true);
  mfma_load(J, x, mfma_operand::c, acc, mfma_global{C, 0, S::ldc * S::eb_c, S::eb_c}, lane);
  J.s_waitcnt(vmcnt(0));
  run<I>(J, acc, fa, fb, acc);
  mfma_store(J, x, acc, mfma_global{D, 0, S::ldc * S::eb_c, S::eb_c}, lane);
}

template <int I>
constexpr void frag_lds(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b,
                        arg<const uint32_t*> c) {
  using S = shape<I>;
  constexpr const mfma_atom& x = S::x;
  auto lane = J.vgpr<u32>();
  lane = J.thread_id_x();
  auto A = make_buffer(J, a, 0xffffffffu), B = make_buffer(J, b, 0xffffffffu), C = make_buffer(J, c, 0xffffffffu),
       D = make_buffer(J, d, 0xffffffffu);
  lds_pool pool(J);
  // A: M x K row-major, 16 bytes of padding a row; B: K x N row-major (the fragment is k-strided).
  auto As = pool.view({.rows = S::rows_a, .cols = x.k, .elem_bytes = S::eb_a, .row_pad = 16});
  auto Bs = pool.view({.rows = x.k, .cols = S::cols_b, .elem_bytes = S::eb_a, .row_pad = 8});
  // Fill LDS from the packed inputs (A then B, dword by dword; the host packs them row by row).
  constexpr uint32_t a_words = S::rows_a * x.k * S::eb_a / 4, b_words = x.k * S::cols_b * S::eb_a / 4;
  constexpr uint32_t a_row_words = x.k * S::eb_a / 4, b_row_words = S::cols_b * S::eb_a / 4;
  auto w = J.vgpr<u32>();
  auto fill = [&](const buffer& G, const lds_view& V, uint32_t words, uint32_t row_words) {
    for (uint32_t i = 0; i < words; i += 64) {
      w = lane + i;
      auto v = J.vgpr<u32>(), q = J.vgpr<u32>(), addr = J.vgpr<u32>();
      G.load(v, w << 2u);
      J.s_waitcnt(vmcnt(0));
      q = w / row_words;
      addr = q * V.L.row_stride() + ((w - q * row_words) << 2u) + V.base;
      J.If(w < words, [&] { J.ds_write_b32(addr, v); });
    }
  };
  fill(A, As, a_words, a_row_words);
  fill(B, Bs, b_words, b_row_words);
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  auto fa = J.vgpr<u32>(x.a_regs()), fb = J.vgpr<u32>(x.b_regs()), acc = J.vgpr<u32>(x.c_regs());
  mfma_load(J, x, mfma_operand::a, fa, mfma_lds{As}, lane);
  mfma_load(J, x, mfma_operand::b, fb, mfma_lds{Bs}, lane);
  mfma_load(J, x, mfma_operand::c, acc, mfma_global{C, 0, S::ldc * S::eb_c, S::eb_c}, lane);
  J.s_waitcnt(vmcnt(0));
  J.s_waitcnt(lgkmcnt(0));
  run<I>(J, acc, fa, fb, acc);
  mfma_store(J, x, acc, mfma_global{D, 0, S::ldc * S::eb_c, S::eb_c}, lane);
}

}  // namespace ma

#define HIPASM_MA_ARGS uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c
namespace ma {
template <int I> constexpr void atom_k(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b, arg<const uint32_t*> c) {
  if constexpr (I < mfma_atoms().size()) atom_raw<I>(J, d, a, b, c);
}
template <int I> constexpr void frag_k(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b, arg<const uint32_t*> c) {
  if constexpr (I < mfma_atoms().size()) frag_global<I>(J, d, a, b, c);
}
template <int I> constexpr void frag_lds_k(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b, arg<const uint32_t*> c) {
  if constexpr (I < mfma_atoms().size()) frag_lds<I>(J, d, a, b, c);
}
// f8f6f4_<M>_<FA>_<FB>: atom_raw of the M x M f8f6f4 atom with A in format FA (cbsz) and B
// in FB (blgp), their registers as wide as the formats (fp6 6, fp4 4); empty where the
// target has no such atom.
template <int M, int FA, int FB>
constexpr void f8f6f4_k(builder J, arg<uint32_t*> d, arg<const uint32_t*> a, arg<const uint32_t*> b,
                        arg<const uint32_t*> c) {
  constexpr const mfma_atom* x = find_mfma_atom(M == 16 ? "v_mfma_f32_16x16x128_f8f6f4" : "v_mfma_f32_32x32x64_f8f6f4");
  if constexpr (x != nullptr) atom_raw<static_cast<int>(x - mfma_atoms().data()), FA, FB>(J, d, a, b, c);
}
}  // namespace ma
#define F8F6F4(M, FA, FB)                                                        \
  extern "C" __attribute__((global)) void f8f6f4_##M##_##FA##_##FB(HIPASM_MA_ARGS) { \
    HIPASM_KERNEL_BODY((ma::f8f6f4_k<M, FA, FB>), d, a, b, c);                       \
  }
F8F6F4(16, 2, 2) F8F6F4(16, 3, 3) F8F6F4(16, 4, 4) F8F6F4(16, 2, 4) F8F6F4(16, 4, 3) F8F6F4(16, 1, 2) F8F6F4(16, 0, 4)
F8F6F4(32, 2, 2) F8F6F4(32, 3, 3) F8F6F4(32, 4, 4) F8F6F4(32, 2, 4) F8F6F4(32, 4, 3) F8F6F4(32, 1, 2) F8F6F4(32, 0, 4)
#define ATOM(I)                                                                                                       \
  extern "C" __attribute__((global)) void atom_##I(HIPASM_MA_ARGS) { HIPASM_KERNEL_BODY((ma::atom_k<I>), d, a, b, c); } \
  extern "C" __attribute__((global)) void frag_##I(HIPASM_MA_ARGS) { HIPASM_KERNEL_BODY((ma::frag_k<I>), d, a, b, c); } \
  extern "C" __attribute__((global)) void frag_lds_##I(HIPASM_MA_ARGS) { HIPASM_KERNEL_BODY((ma::frag_lds_k<I>), d, a, b, c); }
ATOM(0) ATOM(1) ATOM(2) ATOM(3) ATOM(4) ATOM(5) ATOM(6) ATOM(7) ATOM(8) ATOM(9)
ATOM(10) ATOM(11) ATOM(12) ATOM(13) ATOM(14) ATOM(15) ATOM(16) ATOM(17) ATOM(18) ATOM(19)
ATOM(20) ATOM(21) ATOM(22) ATOM(23) ATOM(24) ATOM(25) ATOM(26) ATOM(27) ATOM(28) ATOM(29)
ATOM(30) ATOM(31) ATOM(32) ATOM(33) ATOM(34) ATOM(35) ATOM(36) ATOM(37) ATOM(38) ATOM(39)
static_assert(mfma_atoms().size() <= 40, "one ATOM(i) per atom");
