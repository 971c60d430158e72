// gfx950 reference kernels: the new VALU instructions as clang-22 emits them for gfx950
// (builtins and plain C++). Host side: tests/sim/test_reference950_valu.cpp. One work-item
// per element; the wave-level ones (permlane swaps) use whole waves.
#include "ref_common.h"

typedef u32 u32x2 __attribute__((ext_vector_type(2)));

// v_permlane16_swap_b32 / v_permlane32_swap_b32 (both results stored).
KERNEL void permlane16_swap(const u32* X, const u32* Y, u32* OX, u32* OY) {
  const u32 i = gid_x();
  u32x2 r = __builtin_amdgcn_permlane16_swap(X[i], Y[i], false, false);
  OX[i] = r[0], OY[i] = r[1];
}
KERNEL void permlane32_swap(const u32* X, const u32* Y, u32* OX, u32* OY) {
  const u32 i = gid_x();
  u32x2 r = __builtin_amdgcn_permlane32_swap(X[i], Y[i], false, false);
  OX[i] = r[0], OY[i] = r[1];
}

// f32 -> bf16 / f16 pairs (v_cvt_pk_bf16_f32 / v_cvt_pk_f16_f32), and bf16 -> f32.
KERNEL void cvt_bf16(const float* X, __bf16* Y) {
  const u32 i = gid_x();
  Y[2 * i] = (__bf16)X[2 * i];
  Y[2 * i + 1] = (__bf16)X[2 * i + 1];
}
KERNEL void cvt_f16(const float* X, _Float16* Y) {
  const u32 i = gid_x();
  Y[2 * i] = (_Float16)X[2 * i];
  Y[2 * i + 1] = (_Float16)X[2 * i + 1];
}
KERNEL void bf16_to_f32(const __bf16* X, float* Y) {
  const u32 i = gid_x();
  Y[i] = (float)X[i] * 3.0f;
}

// IEEE minimum / maximum of three (v_minimum3_f32 / v_maximum3_f32).
KERNEL void minimum3(const float* A, const float* B, const float* C, float* Mn, float* Mx) {
  const u32 i = gid_x();
  Mn[i] = __builtin_elementwise_minimum(__builtin_elementwise_minimum(A[i], B[i]), C[i]);
  Mx[i] = __builtin_elementwise_maximum(__builtin_elementwise_maximum(A[i], B[i]), C[i]);
}

// Three-input logic that LLVM turns into v_bitop3_b32.
KERNEL void bitop3(const u32* A, const u32* B, const u32* C, u32* D) {
  const u32 i = gid_x();
  const u32 a = A[i], b = B[i], c = C[i];
  D[4 * i + 0] = (a & b) | (~a & c);
  D[4 * i + 1] = a ^ b ^ c;
  D[4 * i + 2] = ~(a | b) & c;
  D[4 * i + 3] = (a & b) | (b & c) | (a & c);
}

// f32 pairs to fp4 e2m1 with a scale, into byte `sel` of an old value.
#define FP4(SEL)                                                                            \
  KERNEL void cvt_scalef32_pk_fp4_f32_##SEL(const float* X, const float* S, const u32* Old, u32* D) { \
    const u32 i = gid_x();                                                                  \
    D[i] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(Old[i], X[2 * i], X[2 * i + 1], S[i], SEL); \
  }
FP4(0)
FP4(3)

// Scaled up-converts: narrow codes in X, an f32 scale; 8 result dwords per work-item.
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
typedef _Float16 f16x2 __attribute__((ext_vector_type(2)));
typedef float f32x2 __attribute__((ext_vector_type(2)));
KERNEL void cvt_scalef32_up(const u32* X, const float* S, const u32* Old, u32* O) {
  const u32 i = gid_x();
  const bf16x2 a = __builtin_amdgcn_cvt_scalef32_pk_bf16_fp8(X[i], S[i], true);
  const f32x2 b = __builtin_amdgcn_cvt_scalef32_pk_f32_bf8(X[i], S[i], false);
  const float c = __builtin_amdgcn_cvt_scalef32_f32_fp8(X[i], S[i], 3);
  const f16x2 d = __builtin_amdgcn_cvt_scalef32_pk_f16_fp4(X[i], S[i], 2);
  f16x2 old;
  __builtin_memcpy(&old, Old + i, 4);
  const f16x2 e = __builtin_amdgcn_cvt_scalef32_f16_fp8(old, X[i], S[i], 2, true);
  const bf16x2 f = __builtin_amdgcn_cvt_scalef32_pk_bf16_fp4(X[i], S[i], 1);
  __builtin_memcpy(O + 8 * i, &a, 4);
  __builtin_memcpy(O + 8 * i + 1, &b, 8);
  __builtin_memcpy(O + 8 * i + 3, &c, 4);
  __builtin_memcpy(O + 8 * i + 4, &d, 4);
  __builtin_memcpy(O + 8 * i + 5, &e, 4);
  __builtin_memcpy(O + 8 * i + 6, &f, 4);
  O[8 * i + 7] = 0;
}

// f32 -> OCP fp8 / bf8 pairs: the CDNA3 instruction (OCP on gfx950) and the scaled form.
KERNEL void cvt_to_fp8(const float* X, const float* S, const u32* Old, u32* O) {
  const u32 i = gid_x();
  const float a = X[2 * i], b = X[2 * i + 1];
  O[4 * i + 0] = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, Old[i], false);
  O[4 * i + 1] = __builtin_amdgcn_cvt_pk_bf8_f32(a, b, Old[i], true);
  typedef short s16x2 __attribute__((ext_vector_type(2)));
  s16x2 old = __builtin_bit_cast(s16x2, Old[i]);
  O[4 * i + 2] = __builtin_bit_cast(u32, __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(old, a, b, S[i], true));
  O[4 * i + 3] = __builtin_bit_cast(u32, __builtin_amdgcn_cvt_scalef32_pk_bf8_f32(old, a, b, S[i], false));
}

// v_prng_b32, v_bitop3_b16, v_ashr_pk_{i8,u8}_i32: one work-item per element.
KERNEL void prng(const u32* X, u32* Y) {
  const u32 i = gid_x();
  Y[i] = __builtin_amdgcn_prng_b32(X[i]);
}
KERNEL void bitop3_b16(const u16* A, const u16* B, const u16* C, u16* D) {
  const u32 i = gid_x();
  D[2 * i] = __builtin_amdgcn_bitop3_b16(A[i], B[i], C[i], 0xa1);
  D[2 * i + 1] = __builtin_amdgcn_bitop3_b16(A[i], B[i], C[i], 0x96);
}
KERNEL void ashr_pk(const u32* A, const u32* B, const u32* C, u16* D) {
  const u32 i = gid_x();
  D[2 * i] = __builtin_amdgcn_ashr_pk_i8_i32(A[i], B[i], C[i]);
  D[2 * i + 1] = __builtin_amdgcn_ashr_pk_u8_i32(A[i], B[i], C[i]);
}

// v_cvt_sr_bf16_f32 (into the high half of an old value), v_cvt_sr_f16_f32 (low half).
KERNEL void cvt_sr16(const float* X, const u32* R, const u32* Old, u32* D) {
  const u32 i = gid_x();
  bf16x2 ob;
  __builtin_memcpy(&ob, Old + i, 4);
  const bf16x2 b = __builtin_amdgcn_cvt_sr_bf16_f32(ob, X[i], R[i], true);
  f16x2 oh;
  __builtin_memcpy(&oh, Old + i, 4);
  const f16x2 h = __builtin_amdgcn_cvt_sr_f16_f32(oh, X[i], R[i], false);
  __builtin_memcpy(D + 2 * i, &b, 4);
  __builtin_memcpy(D + 2 * i + 1, &h, 4);
}

// bf16 dot products: with clamp (v_dot2_f32_bf16, VOP3P) and a chain of four without
// (LLVM makes v_dot2c_f32_bf16, VOP2, accumulating in place).
KERNEL void dot2_bf16(const bf16x2* A, const bf16x2* B, const float* C, float* D) {
  const u32 i = gid_x();
  D[2 * i] = __builtin_amdgcn_fdot2_f32_bf16(A[4 * i], B[4 * i], C[i], true);
  float acc = C[i];
  for (int k = 0; k < 4; ++k) acc = __builtin_amdgcn_fdot2_f32_bf16(A[4 * i + k], B[4 * i + k], acc, false);
  D[2 * i + 1] = acc;
}

// IEEE minimum / maximum of three f16 pairs (v_pk_minimum3_f16 / v_pk_maximum3_f16).
KERNEL void pk_minimum3(const f16x2* A, const f16x2* B, const f16x2* C, f16x2* D) {
  const u32 i = gid_x();
  D[2 * i] = __builtin_elementwise_minimum(__builtin_elementwise_minimum(A[i], B[i]), C[i]);
  D[2 * i + 1] = __builtin_elementwise_maximum(__builtin_elementwise_maximum(A[i], B[i]), C[i]);
}

// Scaled down-converts to fp8 / bf8 / fp4 from f32, f16 and bf16, stochastic (seed R) and
// nearest-even, each into its byte / word of the old value; 8 result dwords per work-item.
KERNEL void cvt_scalef32_down(const float* X, const f16x2* H, const bf16x2* Bf, const u32* R, const float* S,
                              const u32* Old, u32* D) {
  const u32 i = gid_x();
  const u32 old = Old[i], r = R[i];
  const float s = S[i];
  D[8 * i + 0] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(old, X[i], r, s, 1);
  D[8 * i + 1] = __builtin_amdgcn_cvt_scalef32_sr_bf8_f16(old, H[i][0], r, s, 2);
  D[8 * i + 2] = __builtin_amdgcn_cvt_scalef32_sr_fp8_bf16(old, Bf[i][1], r, s, 3);
  D[8 * i + 3] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(old, (f32x2){X[i], -X[i]}, r, s, 3);
  D[8 * i + 4] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f16(old, H[i], r, s, 1);
  D[8 * i + 5] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_bf16(old, Bf[i], r, s, 0);
  typedef short s16x2 __attribute__((ext_vector_type(2)));
  const s16x2 o2 = __builtin_bit_cast(s16x2, old);
  D[8 * i + 6] = __builtin_bit_cast(u32, __builtin_amdgcn_cvt_scalef32_pk_fp8_f16(o2, H[i], s, true)) ^
                 __builtin_bit_cast(u32, __builtin_amdgcn_cvt_scalef32_pk_bf8_bf16(o2, Bf[i], s, false));
  D[8 * i + 7] = __builtin_amdgcn_cvt_scalef32_pk_fp4_f16(old, H[i], s, 2) ^
                 __builtin_amdgcn_cvt_scalef32_pk_fp4_bf16(old, Bf[i], s, 1);
}

// fp6 / bf6: 32 values per work-item packed into six dwords (nearest-even and stochastic,
// from f32, f16, bf16; two 16-value f32 halves), and back to f32 / f16 / bf16.
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef float f32x32 __attribute__((ext_vector_type(32)));
typedef _Float16 f16x32 __attribute__((ext_vector_type(32)));
typedef __bf16 bf16x32 __attribute__((ext_vector_type(32)));
typedef u32 u32x6 __attribute__((ext_vector_type(6)));
KERNEL void cvt_fp6(const f32x32* X, const f16x32* H, const bf16x32* Bf, const u32* R, const float* S, u32x6* P,
                    const u32x6* C, f32x32* F, f16x32* FH, bf16x32* FB) {
  const u32 i = gid_x();
  const u32 r = R[i];
  const float s = S[i];
  // Keeps these two loads out of the clause of X's loads, which reuse their address
  // registers (a register written and read in one soft clause is a hazard under XNACK).
  __builtin_amdgcn_sched_barrier(0);
  __builtin_amdgcn_s_sleep(0);
  __builtin_amdgcn_sched_barrier(0);
  const f32x32 x = X[i];
  f32x16 lo, hi;
  for (int k = 0; k < 16; ++k) lo[k] = x[k], hi[k] = x[16 + k];
  P[8 * i + 0] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f32(x, r, s);
  P[8 * i + 1] = __builtin_amdgcn_cvt_scalef32_sr_pk32_bf6_f16(H[i], r, s);
  P[8 * i + 2] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_bf16(Bf[i], r, s);
  P[8 * i + 3] = __builtin_amdgcn_cvt_scalef32_pk32_bf6_f16(H[i], s);
  P[8 * i + 4] = __builtin_amdgcn_cvt_scalef32_pk32_fp6_bf16(Bf[i], s);
  P[8 * i + 5] = __builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32(lo, hi, s);
  P[8 * i + 6] = __builtin_amdgcn_cvt_scalef32_2xpk16_bf6_f32(lo, hi, s);
  P[8 * i + 7] = 0;
  const u32x6 c = C[i];
  F[i] = __builtin_amdgcn_cvt_scalef32_pk32_f32_fp6(c, s);
  FH[i] = __builtin_amdgcn_cvt_scalef32_pk32_f16_bf6(c, s);
  FB[i] = __builtin_amdgcn_cvt_scalef32_pk32_bf16_fp6(c, s);
}
