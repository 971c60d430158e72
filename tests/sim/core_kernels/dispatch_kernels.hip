// Kernels that observe the dispatcher: entry state (work-item and workgroup ids, the dispatch
// packet), partial waves, LDS with barriers, and a kernel that never finishes. Checked by
// tests/sim/test_dispatch.cpp against plain C++.
#define KERNEL extern "C" __attribute__((global))
#define SHARED __attribute__((shared))

// 8 words per work-item at its linear global index.
KERNEL void entry_ids(unsigned* out) {
  unsigned tx = __builtin_amdgcn_workitem_id_x(), ty = __builtin_amdgcn_workitem_id_y(),
           tz = __builtin_amdgcn_workitem_id_z();
  unsigned gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
           gz = __builtin_amdgcn_workgroup_id_z();
  const unsigned short* pkt = (const unsigned short*)__builtin_amdgcn_dispatch_ptr();
  unsigned bx = pkt[2], by = pkt[3], bz = pkt[4];  // workgroup_size_x/y/z
  const unsigned* pkt32 = (const unsigned*)pkt;
  unsigned grid_x = pkt32[3] / bx, grid_y = pkt32[4] / by;  // grid_size_x/y in work-items
  unsigned lx = gx * bx + tx, ly = gy * by + ty, lz = gz * bz + tz;
  unsigned linear = (lz * (grid_y * by) + ly) * (grid_x * bx) + lx;
  unsigned* o = out + linear * 8;
  o[0] = tx; o[1] = ty; o[2] = tz; o[3] = gx; o[4] = gy; o[5] = gz;
  o[6] = bx | by << 10 | bz << 20;
  o[7] = __builtin_amdgcn_read_exec_lo() ? 1u : 0u;
}

// Sum of a block's inputs by a tree in LDS with a barrier per level (4 waves when 256 wide).
KERNEL void lds_tree_sum(const int* in, int* out) {
  SHARED int s[256];
  unsigned t = __builtin_amdgcn_workitem_id_x(), g = __builtin_amdgcn_workgroup_id_x();
  s[t] = in[g * 256 + t];
  __builtin_amdgcn_s_barrier();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  }
  if (t == 0) out[g] = s[0];
}

// Spins until *flag becomes non-zero: with flag == 0 it never ends (the instruction budget).
KERNEL void spin(const int* flag, int* out) {
  int n = 0;
  while (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0) ++n;
  out[0] = n;
}

// A divergent loop per lane (EXEC masking, s_cbranch_execz/execnz), to compare schedules.
KERNEL void collatz_steps(const unsigned* in, unsigned* out) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  unsigned v = in[i], n = 0;
  while (v != 1 && n < 1000) { v = (v & 1) ? 3 * v + 1 : v / 2; ++n; }
  out[i] = n;
}

// A missing barrier: wave 1 writes LDS that wave 0 reads with no s_barrier in between. What
// wave 0 sees depends on the interleaving, so seeded schedules must give different results.
KERNEL void racy_handoff(int* out) {
  SHARED int s[64];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  if (t < 64) s[t] = -1;
  __builtin_amdgcn_s_barrier();
  if (t >= 64) {
    for (int k = 0; k < 8; ++k) s[(t - 64 + k * 8) & 63] = int(t * 8 + k);
  } else {
    int acc = 0;
    for (int k = 0; k < 8; ++k) acc = acc * 31 + s[(t + k * 3) & 63];
    out[t] = acc;
  }
}
