// Reference kernels: the tutorial's GEMV (fp32 and fp16), MFMA lane layouts, and a small
// bf16 MFMA GEMM with LDS double buffering. Host references: test_reference_mfma.cpp.
#include "ref_common.h"

typedef short short4 __attribute__((ext_vector_type(4)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef u32 uint4 __attribute__((ext_vector_type(4)));

#pragma clang fp contract(off)
// The seed tutorial's kernel_gemv_v0 / kernel_gemv_v1 (threadIdx.x -> workitem id):
// one thread per row of a rows x 4 matrix.
KERNEL void kernel_gemv_v0(float* mat, float* vec, float* res) {
  u32 tid = tid_x();
  u32 row = tid;
  u32 start_idx = 4 * row;
  float mat_h0 = mat[start_idx], mat_h1 = mat[start_idx + 1];
  float mat_h2 = mat[start_idx + 2], mat_h3 = mat[start_idx + 3];
  float vec_h0 = vec[0], vec_h1 = vec[1], vec_h2 = vec[2], vec_h3 = vec[3];
  float sum = 0.0f;
  sum += mat_h0 * vec_h0;
  sum += mat_h1 * vec_h1;
  sum += mat_h2 * vec_h2;
  sum += mat_h3 * vec_h3;
  res[row] = sum;
}
KERNEL void kernel_gemv_v1(_Float16* mat, _Float16* vec, _Float16* res) {
  u32 tid = tid_x();
  u32 row = tid;
  u32 start_idx = 4 * row;
  _Float16 mat_h0 = mat[start_idx], mat_h1 = mat[start_idx + 1];
  _Float16 mat_h2 = mat[start_idx + 2], mat_h3 = mat[start_idx + 3];
  _Float16 vec_h0 = vec[0], vec_h1 = vec[1], vec_h2 = vec[2], vec_h3 = vec[3];
  float sum = 0.0f;
  sum += (float)mat_h0 * (float)vec_h0;
  sum += (float)mat_h1 * (float)vec_h1;
  sum += (float)mat_h2 * (float)vec_h2;
  sum += (float)mat_h3 * (float)vec_h3;
  res[row] = (_Float16)sum;
}

// v_mfma_f32_32x32x8_bf16 (the _1k form): D[32x32] = A[32x8] * B[8x32] + C, one wave.
// Documented layout: lane l holds A[l%32][(l/32)*4 + 0..3] and B[(l/32)*4 + 0..3][l%32];
// accumulator register r of lane l is D[(r/4)*8 + (l/32)*4 + r%4][l%32].
// A is row-major 32x8, B row-major 8x32, C/D row-major 32x32 (bf16 as raw u16 bits).
KERNEL void ref_mfma_32x32x8_bf16(const u16* A, const u16* B, const float* C, float* D) {
  u32 l = tid_x() & 63;
  u32 i = l % 32, kb = (l / 32) * 4;
  short4 a, b;
  for (int t = 0; t < 4; ++t) {
    a[t] = (short)A[i * 8 + kb + t];
    b[t] = (short)B[(kb + t) * 32 + i];
  }
  float16 acc;
  for (int r = 0; r < 16; ++r) acc[r] = C[((r / 4) * 8 + (l / 32) * 4 + r % 4) * 32 + i];
  acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 16; ++r) D[((r / 4) * 8 + (l / 32) * 4 + r % 4) * 32 + i] = acc[r];
}

// v_mfma_f32_16x16x16_f16: D[16x16] = A[16x16] * B[16x16] + C, one wave.
// Layout: lane l holds A[l%16][(l/16)*4 + 0..3], B[(l/16)*4 + 0..3][l%16];
// accumulator register r of lane l is D[(l/16)*4 + r][l%16].
KERNEL void ref_mfma_16x16x16_f16(const _Float16* A, const _Float16* B, const float* C, float* D) {
  u32 l = tid_x() & 63;
  u32 i = l % 16, kb = (l / 16) * 4;
  half4 a, b;
  for (int t = 0; t < 4; ++t) {
    a[t] = A[i * 16 + kb + t];
    b[t] = B[(kb + t) * 16 + i];
  }
  float4 acc;
  for (int r = 0; r < 4; ++r) acc[r] = C[((l / 16) * 4 + r) * 16 + i];
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r) D[((l / 16) * 4 + r) * 16 + i] = acc[r];
}

// bf16 GEMM C[MxN] = A[MxK] * Bt[NxK]^T (both row-major, "NT"), fp32 output.
// Workgroup: 256 threads = 4 waves, a 64x64 tile of C; wave w computes the 32x32 block
// (w/2, w%2) with v_mfma_f32_32x32x8_bf16. K advances 32 at a time through two LDS
// buffers: while the MFMAs read buffer `cur`, the next tile's global loads are in flight
// and are then written to buffer `cur^1`; one barrier per step separates the phases.
// Requires M % 64 == 0, N % 64 == 0, K % 32 == 0.
enum { TILE = 64, KT = 32 };
DEVICE void gemm_load_tile(const u16* A, const u16* Bt, u32 K, u32 m0, u32 n0, u32 k0, u32 t,
                           uint4& ra, uint4& rb) {
  u32 row = t / 4, kc = (t % 4) * 8;  // 64 rows x 4 chunks of 8 bf16 (16 bytes)
  ra = *(const uint4*)(A + (u64)(m0 + row) * K + k0 + kc);
  rb = *(const uint4*)(Bt + (u64)(n0 + row) * K + k0 + kc);
}
KERNEL void ref_gemm_bf16(const u16* A, const u16* Bt, float* C, u32 M, u32 N, u32 K) {
  SHARED uint4 As[2][TILE * KT / 8];
  SHARED uint4 Bs[2][TILE * KT / 8];
  u32 t = tid_x();
  u32 w = t / 64, l = t % 64;
  u32 m0 = wg_y() * TILE, n0 = wg_x() * TILE;
  u32 wr = w / 2, wc = w % 2;
  uint4 ra, rb;
  gemm_load_tile(A, Bt, K, m0, n0, 0, t, ra, rb);
  As[0][t] = ra;
  Bs[0][t] = rb;
  sync_workgroup();
  float16 acc = {};
  u32 nk = K / KT;
  for (u32 kt = 0; kt < nk; ++kt) {
    u32 cur = kt & 1;
    if (kt + 1 < nk) gemm_load_tile(A, Bt, K, m0, n0, (kt + 1) * KT, t, ra, rb);
    const LDS short4* as = (const LDS short4*)&As[cur][0];
    const LDS short4* bs = (const LDS short4*)&Bs[cur][0];
    for (u32 kk = 0; kk < KT / 8; ++kk) {
      // row r of the tile starts at short4 index r * KT/4; k offset kk*8 + (l/32)*4.
      short4 a = as[(wr * 32 + l % 32) * (KT / 4) + kk * 2 + l / 32];
      short4 b = bs[(wc * 32 + l % 32) * (KT / 4) + kk * 2 + l / 32];
      acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
    }
    if (kt + 1 < nk) {
      As[cur ^ 1][t] = ra;
      Bs[cur ^ 1][t] = rb;
    }
    sync_workgroup();
  }
  u32 col = n0 + wc * 32 + l % 32;
  for (int r = 0; r < 16; ++r) {
    u32 row = m0 + wr * 32 + (r / 4) * 8 + (l / 32) * 4 + r % 4;
    C[(u64)row * N + col] = acc[r];
  }
}
