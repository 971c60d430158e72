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
