// Shared helpers for the reference kernels. Compiled with -nogpuinc -nogpulib: no HIP
// headers, only clang builtins (see ../shared/reference/toolchain.md).
#pragma once

#define KERNEL extern "C" __attribute__((global))
#define DEVICE static __attribute__((device)) inline __attribute__((always_inline))
#define LDS __attribute__((address_space(3)))
// Static LDS arrays: HIP's __shared__. (A `static` local declared only with
// address_space(3) gets no LDS allocation from clang-22: group size 0, wrong code.)
#define SHARED __attribute__((shared)) static

typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;
typedef long long i64;
typedef unsigned long long u64;

DEVICE u32 tid_x() { return __builtin_amdgcn_workitem_id_x(); }
DEVICE u32 tid_y() { return __builtin_amdgcn_workitem_id_y(); }
DEVICE u32 wg_x() { return __builtin_amdgcn_workgroup_id_x(); }
DEVICE u32 wg_y() { return __builtin_amdgcn_workgroup_id_y(); }
// The group sizes come from the hidden kernel arguments the launcher fills.
DEVICE u32 size_x() { return __builtin_amdgcn_workgroup_size_x(); }
DEVICE u32 size_y() { return __builtin_amdgcn_workgroup_size_y(); }
DEVICE u32 gid_x() { return wg_x() * size_x() + tid_x(); }
DEVICE u32 lane_id() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }

// __syncthreads() as HIP defines it: release fence (waits for this wave's LDS/global
// writes), barrier, acquire fence. gfx942 has the back-off barrier, so clang inserts no
// wait before s_barrier by itself.
DEVICE void sync_workgroup() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
