// Kernels for tests/sim/test_valu_kernels.cpp: clang-22 -O3 code for gfx942 that exercises
// VALU and MFMA instructions through clang builtins and plain C++ (division, sqrt, f16,
// conversions, fp8, dot products, every MFMA shape family). Compiled with -nogpuinc
// -nogpulib: only clang builtins. Each kernel reads its inputs per thread (or, for the matrix
// kernels, the raw per-lane register contents) and writes raw results the host checks.
#define KERNEL extern "C" __attribute__((global))
#define DEVICE static __attribute__((device)) inline __attribute__((always_inline))

typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long i64;
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
typedef short short2 __attribute__((ext_vector_type(2)));
typedef unsigned short ushort2 __attribute__((ext_vector_type(2)));
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef float float32 __attribute__((ext_vector_type(32)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef int int16 __attribute__((ext_vector_type(16)));
typedef int int32x __attribute__((ext_vector_type(32)));
typedef double double4 __attribute__((ext_vector_type(4)));

DEVICE u32 gid() {
  return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() + __builtin_amdgcn_workitem_id_x();
}
DEVICE u32 lane() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

// ---- f32 / f64: IEEE operations clang expands into VALU sequences
KERNEL void k_float_ops(const float* a, const float* b, float* out, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  float x = a[i], y = b[i];
  out[i * 6 + 0] = x / y;
  out[i * 6 + 1] = __builtin_sqrtf(__builtin_fabsf(x));
  out[i * 6 + 2] = __builtin_fmaf(x, y, x);
  out[i * 6 + 3] = __builtin_fminf(x, y);
  out[i * 6 + 4] = __builtin_truncf(x) + __builtin_floorf(y);
  out[i * 6 + 5] = __builtin_amdgcn_fmed3f(x, y, 1.0f);
}
KERNEL void k_double_ops(const double* a, const double* b, double* out, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  double x = a[i], y = b[i];
  out[i * 4 + 0] = x / y;
  out[i * 4 + 1] = __builtin_sqrt(__builtin_fabs(x));
  out[i * 4 + 2] = __builtin_fma(x, y, -x);
  out[i * 4 + 3] = __builtin_floor(x) - __builtin_ceil(y);
}
// ---- conversions
KERNEL void k_convert(const float* a, const double* d, const i64* l, int* oi, u32* ou, float* of,
                      double* od, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  float x = a[i];
  // out-of-range float->int is UB in C++; the builtin-free in-range path is checked on host
  oi[i * 2 + 0] = (x > -2147483648.0f && x < 2147483648.0f) ? (int)x : 0;
  oi[i * 2 + 1] = (int)(_Float16)(x / 64.0f > 1000.0f || x / 64.0f < -1000.0f ? 0.0f : x / 64.0f);
  ou[i] = (x >= 0.0f && x < 4294967296.0f) ? (u32)x : 0u;
  of[i * 4 + 0] = (float)l[i];
  of[i * 4 + 1] = (float)(u64)l[i];
  of[i * 4 + 2] = (float)d[i];
  of[i * 4 + 3] = (float)(_Float16)x;
  od[i * 2 + 0] = (double)l[i];
  od[i * 2 + 1] = (double)x * 3.0;
}
// ---- f16 arithmetic (scalar and packed) and dot products
KERNEL void k_half(const u32* a, const u32* b, u32* out, float* fout, int* iout, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  half2 x = __builtin_bit_cast(half2, a[i]), y = __builtin_bit_cast(half2, b[i]);
  half2 s = x + y, p = x * y;
  half2 f = __builtin_elementwise_fma(x, y, s);
  out[i * 4 + 0] = __builtin_bit_cast(u32, s);
  out[i * 4 + 1] = __builtin_bit_cast(u32, p);
  out[i * 4 + 2] = __builtin_bit_cast(u32, f);
  _Float16 m = x.x > y.y ? x.x : y.y;
  out[i * 4 + 3] = (u32)__builtin_bit_cast(unsigned short, m);
  fout[i] = __builtin_amdgcn_fdot2(x, y, 0.25f, false);
  iout[i * 3 + 0] = __builtin_amdgcn_sdot4((int)a[i], (int)b[i], 7, false);
  iout[i * 3 + 1] = (int)__builtin_amdgcn_udot8(a[i], b[i], 100u, false);
  iout[i * 3 + 2] = __builtin_amdgcn_sdot2(__builtin_bit_cast(short2, a[i]), __builtin_bit_cast(short2, b[i]), -5, false);
}
// ---- fp8 / bf8
KERNEL void k_fp8(const float* a, const float* b, const u32* bytes, u32* packed, float* unpacked, u32 n) {
  u32 i = gid();
  if (i >= n) return;
  int w = __builtin_amdgcn_cvt_pk_fp8_f32(a[i], b[i], 0, false);
  w = __builtin_amdgcn_cvt_pk_bf8_f32(b[i], a[i], w, true);
  packed[i] = (u32)w;
  int v = (int)bytes[i];
  unpacked[i * 6 + 0] = __builtin_amdgcn_cvt_f32_fp8(v, 0);
  unpacked[i * 6 + 1] = __builtin_amdgcn_cvt_f32_fp8(v, 3);
  unpacked[i * 6 + 2] = __builtin_amdgcn_cvt_f32_bf8(v, 1);
  float2 p = __builtin_amdgcn_cvt_pk_f32_fp8(v, true);
  unpacked[i * 6 + 3] = p.x;
  unpacked[i * 6 + 4] = p.y;
  unpacked[i * 6 + 5] = __builtin_amdgcn_cvt_f32_bf8(v, 2);
}

// ---- MFMA: A/B/C are the raw per-lane register contents (dword r of lane l at [r*64 + l]);
// D is written the same way.
#define LOADV(T, N, src, r0)                                 \
  ({                                                         \
    T v_;                                                    \
    for (int r_ = 0; r_ < N; ++r_) ((u32*)&v_)[r_] = src[(r0 + r_) * 64 + l]; \
    v_;                                                      \
  })
#define STOREV(dst, v, N)                                    \
  for (int r_ = 0; r_ < N; ++r_) dst[r_ * 64 + l] = ((const u32*)&v)[r_];

KERNEL void k_mfma_32x32x8_f16(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  half4 a = LOADV(half4, 2, A, 0), b = LOADV(half4, 2, B, 0);
  float16 c = LOADV(float16, 16, C, 0);
  float16 d = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
  STOREV(D, d, 16);
}
KERNEL void k_mfma_16x16x4_4b_f16_cbsz(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  half4 a = LOADV(half4, 2, A, 0), b = LOADV(half4, 2, B, 0);
  float16 c = LOADV(float16, 16, C, 0);
  float16 d = __builtin_amdgcn_mfma_f32_16x16x4f16(a, b, c, 2, 3, 0);
  STOREV(D, d, 16);
}
KERNEL void k_mfma_4x4x1_16b_f32_blgp(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  float a = __builtin_bit_cast(float, A[l]), b = __builtin_bit_cast(float, B[l]);
  float4 c = LOADV(float4, 4, C, 0);
  float4 d = __builtin_amdgcn_mfma_f32_4x4x1f32(a, b, c, 0, 0, 3);
  STOREV(D, d, 4);
}
KERNEL void k_mfma_32x32x16_i8(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  long a = LOADV(long, 2, A, 0), b = LOADV(long, 2, B, 0);
  int16 c = LOADV(int16, 16, C, 0);
  int16 d = __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, c, 0, 0, 0);
  STOREV(D, d, 16);
}
KERNEL void k_mfma_16x16x4_f64(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  double a = LOADV(double, 2, A, 0), b = LOADV(double, 2, B, 0);
  double4 c = LOADV(double4, 8, C, 0);
  double4 d = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 0);
  STOREV(D, d, 8);
}
KERNEL void k_mfma_16x16x32_fp8_bf8(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  long a = LOADV(long, 2, A, 0), b = LOADV(long, 2, B, 0);
  float4 c = LOADV(float4, 4, C, 0);
  float4 d = __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, 0, 0, 0);
  STOREV(D, d, 4);
}
KERNEL void k_mfma_16x16x8_xf32(const u32* A, const u32* B, const u32* C, u32* D) {
  u32 l = lane();
  float2 a = LOADV(float2, 2, A, 0), b = LOADV(float2, 2, B, 0);
  float4 c = LOADV(float4, 4, C, 0);
  float4 d = __builtin_amdgcn_mfma_f32_16x16x8_xf32(a, b, c, 0, 0, 0);
  STOREV(D, d, 4);
}
KERNEL void k_smfmac_16x16x32_f16(const u32* A, const u32* B, const u32* C, const u32* I, u32* D) {
  u32 l = lane();
  half4 a = LOADV(half4, 2, A, 0);
  typedef _Float16 half8 __attribute__((ext_vector_type(8)));
  half8 b = LOADV(half8, 4, B, 0);
  float4 c = LOADV(float4, 4, C, 0);
  float4 d = __builtin_amdgcn_smfmac_f32_16x16x32_f16(a, b, c, (int)I[l], 0, 1);
  STOREV(D, d, 4);
}
