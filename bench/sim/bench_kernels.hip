// Kernels for the simulator benchmarks (bench/sim/sim_bench.cpp), clang-22 -O3 for gfx942.
// The GEMM is the reference suite's own ref_gemm_bf16 (tests/sim/kernels/ref_mfma.hip).
#include "ref_mfma.hip"

// VALU-heavy: per-lane xorshift, LCG, shifts and an fma chain; no memory in the loop, a
// uniform trip count (SALU loop control). One store per lane at the end.
KERNEL void bench_valu(u32* out, u32 iters, u32 seed) {
  u32 i = gid_x();
  u32 a = i ^ seed, b = i * 2654435761u + 1u, c = 12345u, d = i;
  float f = (float)(i & 255), g = 1.0001f;
  for (u32 k = 0; k < iters; ++k) {
    a ^= a << 13;
    a ^= a >> 17;
    a ^= a << 5;
    b = b * 1664525u + 1013904223u;
    c += a ^ b;
    d = (d >> 3) | (c << 29);
    f = __builtin_fmaf(f, g, 0.5f);
  }
  out[i] = a ^ b ^ c ^ d ^ __builtin_bit_cast(u32, f);
}

// MFMA-heavy: four independent v_mfma_f32_32x32x8_bf16 accumulation chains per wave.
KERNEL void bench_mfma(float* out, u32 iters) {
  u32 l = tid_x();
  short4 a = {(short)(0x3f80 + (l & 7)), (short)0x3f00, (short)0xbf80, (short)0x3e80};
  short4 b = {(short)0x3f80, (short)(0x3f00 + (l & 3)), (short)0x3f80, (short)0xbe80};
  float16 c0 = {}, c1 = {}, c2 = {}, c3 = {};
  for (u32 k = 0; k < iters; ++k) {
    c0 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c0, 0, 0, 0);
    c1 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(b, a, c1, 0, 0, 0);
    c2 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, a, c2, 0, 0, 0);
    c3 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(b, b, c3, 0, 0, 0);
  }
  float s = 0.0f;
  for (int r = 0; r < 16; ++r) s += c0[r] + c1[r] + c2[r] + c3[r];
  out[gid_x()] = s;
}
