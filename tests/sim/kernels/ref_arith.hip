// Reference kernels: scalar/vector integer and float arithmetic, 2-D grids, division,
// 64-bit math, sub-dword memory, conversions, transcendentals, divergent loops.
// Each kernel's host reference lives in tests/sim/test_reference_*.cpp; keep them in step.
#include "ref_common.h"

// 16 integer results per element. Signed overflow is avoided by doing wrapping math in
// unsigned (the host reference does the same).
KERNEL void ref_int_arith(const int* a, const int* b, int* out, int k, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  int x = a[i], y = b[i];
  u32 ux = (u32)x, uy = (u32)y;
  int* o = out + i * 16;
  o[0] = (int)(ux + uy);
  o[1] = (int)(ux - uy);
  o[2] = (int)(ux * uy);
  o[3] = (int)(ux * (u32)k + 12345u);
  o[4] = (int)(((i64)x * (i64)y) >> 32);          // v_mul_hi_i32
  o[5] = (int)(((u64)ux * (u64)uy) >> 32);        // v_mul_hi_u32
  o[6] = (x & y) | (~x ^ k);
  o[7] = (int)(ux << (uy & 31));
  o[8] = x >> (y & 31);
  o[9] = (int)(ux >> (uy & 31));
  o[10] = x < y ? x : y;
  o[11] = (u32)x > (u32)y ? x : y;
  o[12] = __builtin_popcount(ux) + __builtin_clz(ux | 1) * 64 + __builtin_ctz(uy | 0x80000000u) * 4096;
  o[13] = (int)__builtin_bitreverse32(ux);
  o[14] = (int)((ux << (k & 31)) | (ux >> ((32 - (k & 31)) & 31)));  // rotate
  o[15] = (int)((ux >> 8) & 0xfff) + (x > 0 ? 1 : (x < 0 ? -1 : 0)) + (int)(uy % 3u == 0);
}

// Float arithmetic with float, 64-bit and double kernel arguments. Contraction is off so
// the host reference can reproduce every rounding bit for bit.
#pragma clang fp contract(off)
KERNEL void ref_float_arith(const float* x, const float* y, float* out, double* outd,
                            float alpha, i64 offset, double beta, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  float a = x[i], b = y[(i64)i + offset];
  float* o = out + i * 12;
  o[0] = alpha * a + b;
  o[1] = a * b;
  o[2] = a / b;                                   // clang's correctly rounded division
  o[3] = __builtin_fmaf(a, b, alpha);
  o[4] = __builtin_sqrtf(__builtin_fabsf(a));     // clang's correctly rounded sqrt
  o[5] = __builtin_fminf(a, b);
  o[6] = __builtin_fmaxf(a, b);
  o[7] = __builtin_floorf(a) + __builtin_ceilf(b);
  o[8] = __builtin_truncf(a) - __builtin_rintf(b);
  o[9] = __builtin_copysignf(__builtin_fabsf(a), b);
  o[10] = __builtin_ldexpf(a, (int)(i % 7) - 3);
  o[11] = a < b ? a - b : (a == b ? 0.5f : b - a);
  double da = a, db = b;
  double* od = outd + i * 4;
  od[0] = beta * da + db;
  od[1] = da / (db + beta);                       // f64 division sequence (v_div_*_f64)
  od[2] = __builtin_fma(da, db, beta);
  od[3] = __builtin_sqrt(da * da + db * db);
}

// A 2-D grid with a 2-D block: work-item and workgroup ids in x and y, group sizes from
// the hidden arguments, bounds on both axes.
KERNEL void ref_grid2d(int* out, u32 width, u32 height, int salt) {
  u32 x = wg_x() * size_x() + tid_x();
  u32 y = wg_y() * size_y() + tid_y();
  if (x >= width || y >= height) return;
  out[y * width + x] = (int)(x * 1000u + y) ^ salt ^ (int)((wg_x() << 24) | (wg_y() << 16) | (tid_y() << 8) | tid_x());
}

// Division and remainder: per-lane runtime divisors (compiler's v_rcp_iflag sequences),
// a wave-uniform divisor from the kernel arguments, and scalar-only division.
KERNEL void ref_div_runtime(const int* a, const int* b, int* out, int d, int e, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  int x = a[i], y = b[i];
  u32 ux = (u32)x, uy = (u32)y;
  int* o = out + i * 8;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = (int)(ux / uy);
  o[3] = (int)(ux % uy);
  o[4] = x / d;
  o[5] = (int)(ux % (u32)d);
  o[6] = d / e + (d % e) * 7;                      // both uniform
  o[7] = (int)((u32)d / (u32)e);
}

// Division by constants: magic-number sequences.
KERNEL void ref_div_const(const int* a, int* out, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  int x = a[i];
  u32 ux = (u32)x;
  int* o = out + i * 12;
  o[0] = x / 7;
  o[1] = x % 7;
  o[2] = x / -3;
  o[3] = x / 16;
  o[4] = x % 16;
  o[5] = (int)(ux / 10u);
  o[6] = (int)(ux % 1000u);
  o[7] = (int)(ux / 3u);
  o[8] = (int)(ux / 641u);
  o[9] = x / 1000000;
  o[10] = (int)(ux / 0x80000001u);
  o[11] = x % -5;
}

// 64-bit integer math: multiply, shifts by runtime amounts, 64-bit division sequences,
// 128-bit high products.
KERNEL void ref_int64(const i64* a, const i64* b, i64* out, i64 k, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  i64 x = a[i], y = b[i];
  u64 ux = (u64)x, uy = (u64)y;
  i64* o = out + i * 12;
  o[0] = (i64)(ux * uy);
  o[1] = (i64)(ux * (u64)k + ux);
  o[2] = (i64)(ux << (uy & 63));
  o[3] = x >> (y & 63);
  o[4] = (i64)(ux >> (uy & 63));
  o[5] = x / y;
  o[6] = x % y;
  o[7] = (i64)(ux / uy);
  o[8] = (i64)(ux % uy);
  o[9] = x / 1000000007ll + (i64)(ux % 10ull);
  o[10] = (i64)(((unsigned __int128)ux * uy) >> 64);
  o[11] = (i64)((((__int128)x * (__int128)k) >> 64) ^ (__int128)(x < y ? x : y));
}

// Sub-dword global memory: signed/unsigned byte and short loads (sign/zero extension),
// byte and short stores from neighbouring lanes into the same dword.
KERNEL void ref_subdword(const signed char* sc, const u8* uc, const short* ss, const u16* us,
                         int* out_i, signed char* out_c, short* out_s, u8* out_u8, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  out_i[i * 4 + 0] = sc[i];
  out_i[i * 4 + 1] = uc[i];
  out_i[i * 4 + 2] = ss[i];
  out_i[i * 4 + 3] = us[i];
  out_c[i] = (signed char)(sc[i] * 3 + uc[i]);
  out_s[i] = (short)(ss[i] * 5 - (int)us[i]);
  out_u8[n - 1 - i] = (u8)(uc[i] ^ (u8)i);
}

// Sub-dword LDS traffic: bytes and shorts written by one lane, read back (with sign and
// zero extension) by another lane after a barrier.
KERNEL void ref_lds_subdword(const int* in, int* out) {
  SHARED signed char bytes[256];
  SHARED short shorts[256];
  u32 t = tid_x();
  int v = in[wg_x() * 256 + t];
  bytes[t] = (signed char)v;
  shorts[t] = (short)(v >> 8);
  sync_workgroup();
  u32 p = 255 - t;
  int sb = bytes[p], ub = (u8)bytes[(t * 7) & 255];
  int sh = shorts[p], uh = (u16)shorts[(t * 13) & 255];
  out[wg_x() * 256 + t] = sb * 1000003 + ub * 101 + sh * 7 + uh;
}

// Conversions between float, double, 32/64-bit integers, half and bf16 (bits in and out).
KERNEL void ref_convert(const float* f, const int* iv, const double* dv, const u16* hbits,
                        const u16* bbits, int* oi, float* of, double* od, u16* oh, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  float x = f[i];
  int k = iv[i];
  double d = dv[i];
  oi[i * 6 + 0] = (int)x;                       // inputs keep |x| < 2^31
  oi[i * 6 + 1] = (int)(u32)__builtin_fabsf(x);
  oi[i * 6 + 2] = (int)d;
  oi[i * 6 + 3] = (int)(i64)(x * 4096.0f);
  oi[i * 6 + 4] = (int)(__builtin_rintf(x));
  oi[i * 6 + 5] = (int)(_Float16)(float)(k & 1023);
  of[i * 8 + 0] = (float)k;
  of[i * 8 + 1] = (float)(u32)k;
  of[i * 8 + 2] = (float)d;
  of[i * 8 + 3] = (float)((i64)k * 1000003ll);
  of[i * 8 + 4] = (float)__builtin_bit_cast(_Float16, hbits[i]);
  of[i * 8 + 5] = (float)__builtin_bit_cast(__bf16, bbits[i]);
  of[i * 8 + 6] = (float)((u64)(u32)k << 20);
  of[i * 8 + 7] = (float)(_Float16)x + (float)(__bf16)x;
  od[i * 3 + 0] = (double)x;
  od[i * 3 + 1] = (double)k + (double)(u32)k;
  od[i * 3 + 2] = (double)((i64)k << 21);
  oh[i * 4 + 0] = __builtin_bit_cast(u16, (_Float16)x);
  oh[i * 4 + 1] = __builtin_bit_cast(u16, (__bf16)x);
  oh[i * 4 + 2] = __builtin_bit_cast(u16, (_Float16)(__builtin_bit_cast(_Float16, hbits[i]) * (_Float16)1.5f));
  oh[i * 4 + 3] = __builtin_bit_cast(u16, (_Float16)(k % 40000));  // exact in f32: one rounding
}

// The hardware transcendental instructions (approximate: tolerances in the test).
KERNEL void ref_transcendental(const float* x, float* out, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  float a = x[i];
  float* o = out + i * 7;
  o[0] = __builtin_amdgcn_exp2f(a);
  o[1] = __builtin_amdgcn_logf(a);     // log2
  o[2] = __builtin_amdgcn_rcpf(a);
  o[3] = __builtin_amdgcn_sqrtf(a);
  o[4] = __builtin_amdgcn_sinf(a);     // sin(2*pi*a)
  o[5] = __builtin_amdgcn_cosf(a);
  o[6] = __builtin_amdgcn_rsqf(a);
}

// A libm-free expf: Cody-Waite range reduction and a degree-6 polynomial, every step an
// explicit IEEE operation (fma/mul/add/rint), so the host can reproduce it bit for bit.
DEVICE float exp_like(float x) {
  const float log2e = 1.44269504088896341f;
  const float ln2_hi = 0.693145751953125f, ln2_lo = 1.42860682030941723212e-6f;
  x = __builtin_fminf(__builtin_fmaxf(x, -87.0f), 88.0f);
  float n = __builtin_rintf(x * log2e);
  float r = __builtin_fmaf(-n, ln2_hi, x);
  r = __builtin_fmaf(-n, ln2_lo, r);
  float p = 1.0f / 720.0f;
  p = __builtin_fmaf(p, r, 1.0f / 120.0f);
  p = __builtin_fmaf(p, r, 1.0f / 24.0f);
  p = __builtin_fmaf(p, r, 1.0f / 6.0f);
  p = __builtin_fmaf(p, r, 0.5f);
  p = __builtin_fmaf(p, r, 1.0f);
  p = __builtin_fmaf(p, r, 1.0f);
  return __builtin_ldexpf(p, (int)n);
}
KERNEL void ref_expf_like(const float* x, float* out, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  out[i] = exp_like(x[i]);
}

// Divergent loops: each lane runs its own trip count (Collatz steps, capped), and a
// nested loop with a per-lane break.
KERNEL void ref_divergent_loops(const u32* in, u32* out, u32 cap, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  u32 v = in[i], steps = 0;
  while (v != 1 && v != 0 && steps < cap) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    ++steps;
  }
  u32 acc = 0;
  for (u32 j = 0; j < (in[i] & 63); ++j) {
    if (((j * 2654435761u) ^ in[i]) % 17u == 0) break;
    for (u32 m = 0; m <= (j & 3); ++m) acc += j * m + 1;
  }
  out[i * 2 + 0] = steps;
  out[i * 2 + 1] = acc;
}
