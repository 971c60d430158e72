// gfx950 (CDNA4) reference kernels: the new MFMA shapes and formats through clang-22's
// builtins, one wave each. Host side: tests/sim/test_reference950_mfma.cpp.
//
// Every kernel reads its operands already in register order: lane l's registers are the
// dwords In[l * R + 0 .. R-1] (R = the operand's registers), and writes the accumulator
// registers to Out[l * R + r]. Which matrix element sits in which lane and register (the
// documented MAI layout) is the host's business, so these kernels test the instruction, not
// a layout written twice.
#include "ref_common.h"

typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef int i32x4 __attribute__((ext_vector_type(4)));
typedef int i32x8 __attribute__((ext_vector_type(8)));
typedef int i32x16 __attribute__((ext_vector_type(16)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef _Float16 f16x8 __attribute__((ext_vector_type(8)));

template <class V, int N>
DEVICE V load(const u32* p) {
  V v;
  __builtin_memcpy(&v, p + lane_id() * N, sizeof(V));
  return v;
}
template <class V, int N>
DEVICE void store(u32* p, V v) {
  __builtin_memcpy(p + lane_id() * N, &v, sizeof(V));
}

KERNEL void mfma_16x16x32_bf16(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x4 c = load<f32x4, 4>(C);
  c = __builtin_amdgcn_mfma_f32_16x16x32_bf16(load<bf16x8, 4>(A), load<bf16x8, 4>(B), c, 0, 0, 0);
  store<f32x4, 4>(D, c);
}
KERNEL void mfma_32x32x16_bf16(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x16 c = load<f32x16, 16>(C);
  c = __builtin_amdgcn_mfma_f32_32x32x16_bf16(load<bf16x8, 4>(A), load<bf16x8, 4>(B), c, 0, 0, 0);
  store<f32x16, 16>(D, c);
}
KERNEL void mfma_16x16x32_f16(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x4 c = load<f32x4, 4>(C);
  c = __builtin_amdgcn_mfma_f32_16x16x32_f16(load<f16x8, 4>(A), load<f16x8, 4>(B), c, 0, 0, 0);
  store<f32x4, 4>(D, c);
}
KERNEL void mfma_32x32x16_f16(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x16 c = load<f32x16, 16>(C);
  c = __builtin_amdgcn_mfma_f32_32x32x16_f16(load<f16x8, 4>(A), load<f16x8, 4>(B), c, 0, 0, 0);
  store<f32x16, 16>(D, c);
}
KERNEL void mfma_16x16x64_i8(const u32* A, const u32* B, const u32* C, u32* D) {
  i32x4 c = load<i32x4, 4>(C);
  c = __builtin_amdgcn_mfma_i32_16x16x64_i8(load<i32x4, 4>(A), load<i32x4, 4>(B), c, 0, 0, 0);
  store<i32x4, 4>(D, c);
}
KERNEL void mfma_32x32x32_i8(const u32* A, const u32* B, const u32* C, u32* D) {
  i32x16 c = load<i32x16, 16>(C);
  c = __builtin_amdgcn_mfma_i32_32x32x32_i8(load<i32x4, 4>(A), load<i32x4, 4>(B), c, 0, 0, 0);
  store<i32x16, 16>(D, c);
}

// f8f6f4 with E8M0 scales: formats are immediates (cbsz = A's, blgp = B's), so one kernel
// per (shape, A format, B format, scale byte) the host tests. Inputs: 8 dwords per lane
// (fp6 uses 6, fp4 4: the rest ignored); Sa/Sb one scale dword per lane.
#define SCALED(SHAPE, ACC, NACC, FA, FB, SELA, SELB)                                         \
  KERNEL void mfma_scale_##SHAPE##_##FA##_##FB##_##SELA##SELB(                               \
      const u32* A, const u32* B, const u32* C, const u32* Sa, const u32* Sb, u32* D) {       \
    ACC c = load<ACC, NACC>(C);                                                               \
    c = __builtin_amdgcn_mfma_scale_f32_##SHAPE##_f8f6f4(                                     \
        load<i32x8, 8>(A), load<i32x8, 8>(B), c, FA, FB, SELA, (int)Sa[lane_id()], SELB,      \
        (int)Sb[lane_id()]);                                                                  \
    store<ACC, NACC>(D, c);                                                                   \
  }
#define SCALED_BOTH(FA, FB, SELA, SELB)           \
  SCALED(16x16x128, f32x4, 4, FA, FB, SELA, SELB) \
  SCALED(32x32x64, f32x16, 16, FA, FB, SELA, SELB)
SCALED_BOTH(0, 0, 0, 0)
SCALED_BOTH(1, 1, 1, 2)
SCALED_BOTH(0, 1, 3, 0)
SCALED_BOTH(2, 2, 0, 1)
SCALED_BOTH(3, 3, 2, 3)
SCALED_BOTH(4, 4, 1, 1)
SCALED_BOTH(2, 4, 0, 0)
SCALED_BOTH(4, 0, 3, 3)
SCALED_BOTH(3, 1, 0, 0)

// The same builtin with constant zero scales and op_sel: clang-22 emits the unscaled
// v_mfma_f32_*_f8f6f4 (no v_mfma_ld_scale_b32), which applies no scale.
#define PLAIN(SHAPE, ACC, NACC, FA, FB)                                                        \
  KERNEL void mfma_plain_##SHAPE##_##FA##_##FB(const u32* A, const u32* B, const u32* C, u32* D) { \
    ACC c = load<ACC, NACC>(C);                                                                \
    c = __builtin_amdgcn_mfma_scale_f32_##SHAPE##_f8f6f4(load<i32x8, 8>(A), load<i32x8, 8>(B), c, \
                                                        FA, FB, 0, 0, 0, 0);                    \
    store<ACC, NACC>(D, c);                                                                    \
  }
PLAIN(16x16x128, f32x4, 4, 0, 1)
PLAIN(32x32x64, f32x16, 16, 4, 2)

// A CDNA3 fp8 MFMA on gfx950 reads OCP e4m3fn / e5m2, not FNUZ.
typedef long i64x1;
KERNEL void mfma_16x16x32_fp8_bf8(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x4 c = load<f32x4, 4>(C);
  c = __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(load<i64x1, 2>(A), load<i64x1, 2>(B), c, 0, 0, 0);
  store<f32x4, 4>(D, c);
}

// gfx950 SMFMAC (4:2 sparse A): the compressed A (16 fp8 per lane), B (32 per lane), the
// 2-bit index of each kept value in the lane's index dword.
KERNEL void smfmac_16x16x128_fp8_fp8(const u32* A, const u32* B, const u32* C, const u32* Idx, u32* D) {
  f32x4 c = load<f32x4, 4>(C);
  c = __builtin_amdgcn_smfmac_f32_16x16x128_fp8_fp8(load<i32x4, 4>(A), load<i32x8, 8>(B), c,
                                                     (int)Idx[lane_id()], 0, 0);
  store<f32x4, 4>(D, c);
}
KERNEL void smfmac_32x32x32_bf16(const u32* A, const u32* B, const u32* C, const u32* Idx, u32* D) {
  f32x16 c = load<f32x16, 16>(C);
  c = __builtin_amdgcn_smfmac_f32_32x32x32_bf16(load<bf16x8, 4>(A), __builtin_bit_cast(__bf16 __attribute__((ext_vector_type(16))), load<i32x8, 8>(B)), c,
                                                 (int)Idx[lane_id()], 0, 0);
  store<f32x16, 16>(D, c);
}

// A CDNA3-shape XDL MFMA (16x16x16 bf16, 4 passes) whose result a VALU reads at once: llc-22
// pads 8 wait states on gfx950 (gfx942: 7). test_reference950_mfma takes one away.
typedef short i16x4 __attribute__((ext_vector_type(4)));
KERNEL void hazard_16x16x16_bf16(const u32* A, const u32* B, const u32* C, u32* D) {
  f32x4 c = load<f32x4, 4>(C);
  c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(load<i16x4, 2>(A), load<i16x4, 2>(B), c, 0, 0, 0);
  store<f32x4, 4>(D, c * 2.0f);
}
