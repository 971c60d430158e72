// Reference kernels: cross-lane operations (DPP, ds_bpermute/ds_permute, readlane), a
// bitonic sort of one wave, LDS with barriers (transpose), global and LDS atomics.
// Host references: tests/sim/test_reference_wave.cpp.
#include "ref_common.h"

// DPP control codes (GCN/CDNA DPP_CTRL field).
enum : int {
  QUAD_PERM_1032 = 0xB1,  // quad_perm:[1,0,3,2]
  QUAD_PERM_2301 = 0x4E,  // quad_perm:[2,3,0,1]
  ROW_SHR_1 = 0x111, ROW_SHR_2 = 0x112, ROW_SHR_4 = 0x114, ROW_SHR_8 = 0x118,
  ROW_ROR_4 = 0x124, ROW_ROR_8 = 0x128,
  ROW_BCAST_15 = 0x142, ROW_BCAST_31 = 0x143,
};

// Wave-wide integer sum and float maximum with DPP (update_dpp: row-masked rows keep the
// "old" operand), finished with readlane 63. One result pair per wave.
KERNEL void ref_reduce_dpp(const int* in, int* sums, float* maxes) {
  u32 i = gid_x();
  int v = in[i];
  float f = (float)(v % 1000) * 0.25f;
  v += __builtin_amdgcn_update_dpp(0, v, QUAD_PERM_1032, 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, QUAD_PERM_2301, 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_ROR_4, 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_ROR_8, 0xf, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_BCAST_15, 0xa, 0xf, false);
  v += __builtin_amdgcn_update_dpp(0, v, ROW_BCAST_31, 0xc, 0xf, false);
  int fb = __builtin_bit_cast(int, f);
  const int ninf = __builtin_bit_cast(int, -__builtin_inff());
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, QUAD_PERM_1032, 0xf, 0xf, false)));
  fb = __builtin_bit_cast(int, f);
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, QUAD_PERM_2301, 0xf, 0xf, false)));
  fb = __builtin_bit_cast(int, f);
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, ROW_ROR_4, 0xf, 0xf, false)));
  fb = __builtin_bit_cast(int, f);
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, ROW_ROR_8, 0xf, 0xf, false)));
  fb = __builtin_bit_cast(int, f);
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, ROW_BCAST_15, 0xa, 0xf, false)));
  fb = __builtin_bit_cast(int, f);
  f = __builtin_fmaxf(f, __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(ninf, fb, ROW_BCAST_31, 0xc, 0xf, false)));
  int total = __builtin_amdgcn_readlane(v, 63);
  float fmax = __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, f), 63));
  if (lane_id() == 0) {
    u32 wave = i / 64;
    sums[wave] = total;
    maxes[wave] = fmax;
  }
}

// Inclusive prefix sum within each row of 16 lanes with mov_dpp row_shr and bound_ctrl
// (lanes whose source is outside the row read 0), then a bank-masked copy.
KERNEL void ref_scan_dpp(const int* in, int* out) {
  u32 i = gid_x();
  int v = in[i];
  v += __builtin_amdgcn_mov_dpp(v, ROW_SHR_1, 0xf, 0xf, true);
  v += __builtin_amdgcn_mov_dpp(v, ROW_SHR_2, 0xf, 0xf, true);
  v += __builtin_amdgcn_mov_dpp(v, ROW_SHR_4, 0xf, 0xf, true);
  v += __builtin_amdgcn_mov_dpp(v, ROW_SHR_8, 0xf, 0xf, true);
  // bank_mask 0x5: only banks 0 and 2 (lanes 0-3 and 8-11 of each row) take the row_shr:1
  // value (0 where the source is outside the row, bound_ctrl); the others keep "old" (-1).
  int shifted = __builtin_amdgcn_update_dpp(-1, v, ROW_SHR_1, 0xf, 0x5, true);
  out[i * 2 + 0] = v;
  out[i * 2 + 1] = shifted;
}

// Wave sum with ds_bpermute xor shuffles, plus an arbitrary gather (bpermute: pull) and
// scatter (permute: push) by a permutation from memory, and readfirstlane.
KERNEL void ref_bpermute(const int* in, const int* perm, int* out) {
  u32 i = gid_x();
  u32 lane = lane_id();
  int v = in[i];
  int s = v;
  for (int off = 32; off >= 1; off >>= 1)
    s += __builtin_amdgcn_ds_bpermute((int)((lane ^ (u32)off) * 4), s);
  int p = perm[i] & 63;
  int gathered = __builtin_amdgcn_ds_bpermute(p * 4, v);
  int scattered = __builtin_amdgcn_ds_permute(p * 4, v);
  int first = __builtin_amdgcn_readfirstlane(v);
  out[i * 4 + 0] = s;
  out[i * 4 + 1] = gathered;
  out[i * 4 + 2] = scattered;
  out[i * 4 + 3] = first;
}

// Bitonic sort of 64 keys in one wave (the seed's warp bitonic sort), exchanging with
// ds_bpermute. Each wave sorts its own 64 keys; `descending` flips the order.
DEVICE int shfl_xor(int v, u32 lane, u32 mask) {
  return __builtin_amdgcn_ds_bpermute((int)((lane ^ mask) * 4), v);
}
KERNEL void ref_bitonic_wave(const int* in, int* out, int descending) {
  u32 i = gid_x();
  u32 lane = lane_id();
  int x = in[i];
  for (u32 k = 2; k <= 64; k <<= 1) {
    for (u32 j = k >> 1; j > 0; j >>= 1) {
      int y = shfl_xor(x, lane, j);
      bool up = ((lane & k) == 0) != (descending != 0);
      bool lower = (lane & j) == 0;
      int lo = x < y ? x : y, hi = x < y ? y : x;
      x = (lower == up) ? lo : hi;
    }
  }
  out[i] = x;
}

// Matrix transpose through LDS: 32x32 tiles, block (32, 8), each thread moves 4 elements;
// the padded row (33) avoids bank conflicts. Any width/height (bounds checked).
KERNEL void ref_transpose(const float* in, float* out, u32 width, u32 height) {
  SHARED float tile[32][33];
  u32 tx = tid_x(), ty = tid_y();
  u32 x = wg_x() * 32 + tx;
  for (u32 r = ty; r < 32; r += 8) {
    u32 y = wg_y() * 32 + r;
    if (x < width && y < height) tile[r][tx] = in[y * width + x];
  }
  sync_workgroup();
  u32 ox = wg_y() * 32 + tx;  // column in the output = row in the input
  for (u32 r = ty; r < 32; r += 8) {
    u32 oy = wg_x() * 32 + r;
    if (ox < height && oy < width) out[oy * height + ox] = tile[tx][r];
  }
}

// Global atomics on int, unsigned, 64-bit and float, with and without return values.
// counters: [0] slot counter (returned values must form a permutation), [1] sum,
// [2] max, [3] min, [4] or, [5] and, [6] xor, [7] exchange target, [8] cmpxchg counter.
KERNEL void ref_atomics_global(const int* vals, int* counters, int* slots, i64* sum64,
                               float* fsum, int* xchg_seen, u32 n) {
  u32 i = gid_x();
  if (i >= n) return;
  int v = vals[i];
  const int R = __ATOMIC_RELAXED, S = __HIP_MEMORY_SCOPE_AGENT;
  slots[i] = __hip_atomic_fetch_add(&counters[0], 1, R, S);
  __hip_atomic_fetch_add(&counters[1], v, R, S);
  __hip_atomic_fetch_max(&counters[2], v, R, S);
  __hip_atomic_fetch_min(&counters[3], v, R, S);
  __hip_atomic_fetch_or(&counters[4], 1 << (i % 31), R, S);
  __hip_atomic_fetch_and(&counters[5], ~(1 << (v & 15)), R, S);
  __hip_atomic_fetch_xor(&counters[6], v, R, S);
  xchg_seen[i] = __hip_atomic_exchange(&counters[7], (int)i, R, S);
  // Every lane increments counters[8] once with a compare-exchange retry loop.
  int old = __hip_atomic_load(&counters[8], R, S);
  while (!__hip_atomic_compare_exchange_strong(&counters[8], &old, old + 1, R, R, S)) {
  }
  __hip_atomic_fetch_add(sum64, (i64)v * 4294967296ll + 3, R, S);
  // Small integers: every partial sum is exact, so the order of the adds cannot matter.
  __hip_atomic_fetch_add(fsum, (float)(v & 255), R, S);
}

// LDS atomics: a 64-bin histogram per workgroup (ds_add_u32 with and without return),
// LDS max/min and float add, then merged into global memory.
KERNEL void ref_atomics_lds(const u32* data, u32* hist, int* extrema, float* fsum, u32* ranks, u32 n) {
  SHARED u32 bins[64];
  SHARED int lmax, lmin;
  SHARED float lsum;
  u32 t = tid_x();
  const int R = __ATOMIC_RELAXED, W = __HIP_MEMORY_SCOPE_WORKGROUP, S = __HIP_MEMORY_SCOPE_AGENT;
  if (t < 64) bins[t] = 0;
  if (t == 0) {
    lmax = -2147483647 - 1;
    lmin = 2147483647;
    lsum = 0.0f;
  }
  sync_workgroup();
  u32 i = gid_x();
  if (i < n) {
    u32 d = data[i];
    ranks[i] = __hip_atomic_fetch_add(&bins[d & 63], 1u, R, W);  // rank within its bin
    __hip_atomic_fetch_max(&lmax, (int)d, R, W);
    __hip_atomic_fetch_min(&lmin, (int)d, R, W);
    __hip_atomic_fetch_add(&lsum, (float)(d & 15), R, W);
  }
  sync_workgroup();
  if (t < 64) __hip_atomic_fetch_add(&hist[t], bins[t], R, S);
  if (t == 0) {
    __hip_atomic_fetch_max(&extrema[0], lmax, R, S);
    __hip_atomic_fetch_min(&extrema[1], lmin, R, S);
    __hip_atomic_fetch_add(fsum, lsum, R, S);
  }
}
