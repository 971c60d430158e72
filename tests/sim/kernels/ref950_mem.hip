// gfx950 reference kernels: transposing LDS reads and 16-/12-byte LDS-DMA as clang-22 emits
// them for gfx950. Host side: tests/sim/test_reference950_mem.cpp.
#include "ref_common.h"

typedef short i16x4 __attribute__((ext_vector_type(4)));
typedef int i32x2 __attribute__((ext_vector_type(2)));
typedef int i32x3 __attribute__((ext_vector_type(3)));

// One wave: LDS gets In[0..n) (dwords), then every lane reads the 8 (12) bytes at
// Addr[lane] (a byte address) with the transposing read and stores what it received.
#define TR(NAME, BUILTIN, VT, DW)                                                  \
  KERNEL void NAME(const u32* In, const u32* Addr, u32* Out) {                     \
    SHARED u32 lds[1024];                                                          \
    const u32 l = tid_x();                                                         \
    for (u32 i = l; i < 1024; i += 64) lds[i] = In[i];                             \
    sync_workgroup();                                                              \
    VT v = BUILTIN((LDS VT*)((LDS char*)lds + Addr[l]));                           \
    __builtin_memcpy(Out + DW * l, &v, 4 * DW);                                    \
  }
TR(read_tr_b16, __builtin_amdgcn_ds_read_tr16_b64_v4i16, i16x4, 2)
TR(read_tr_b8, __builtin_amdgcn_ds_read_tr8_b64_v2i32, i32x2, 2)
TR(read_tr_b4, __builtin_amdgcn_ds_read_tr4_b64_v2i32, i32x2, 2)
TR(read_tr_b6, __builtin_amdgcn_ds_read_tr6_b96_v3i32, i32x3, 3)

// LDS-DMA of 16 / 12 bytes per lane (global_load_lds_dwordx4 / x3): lane l's bytes from
// In + Off[l] land at LDS + l * size; then each lane copies LDS out.
#define DMA(NAME, SIZE)                                                           \
  KERNEL void NAME(const u32* In, const u32* Off, u32* Out) {                      \
    SHARED u32 lds[64 * SIZE / 4];                                                 \
    const u32 l = tid_x();                                                         \
    __builtin_amdgcn_global_load_lds((void*)((const char*)In + Off[l]), (LDS void*)lds, SIZE, 0, 0); \
    __builtin_amdgcn_s_waitcnt(0);                                                 \
    sync_workgroup();                                                              \
    for (u32 i = l; i < 64 * SIZE / 4; i += 64) Out[i] = lds[i];                   \
  }
DMA(dma_x4, 16)
DMA(dma_x3, 12)

// The same through a buffer (buffer_load_dwordx4 ... lds, 16 bytes a lane): lane l's bytes
// from In + Off[l] (a V# of in_bytes) land at LDS + 16 l.
KERNEL void dma_buf_x4(const u32* In, const u32* Off, u32* Out, u32 in_bytes) {
  SHARED u32 lds[64 * 4];
  const u32 l = tid_x();
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((void*)In, 0, in_bytes, 0x00027000);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (LDS void*)lds, 16, Off[l], 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  sync_workgroup();
  for (u32 i = l; i < 64 * 4; i += 64) Out[i] = lds[i];
}

// A packed f16 buffer atomic add with return, lane l on dword l of Mem. The bf16 form has no
// builtin: test_reference950_mem.cpp re-assembles this kernel's code with
// buffer_atomic_pk_add_bf16 in its place (same operands and encoding layout).
typedef _Float16 f16x2_t __attribute__((ext_vector_type(2)));
KERNEL void buffer_pk_add(u32* Mem, const u32* Val, u32* Old) {
  const u32 l = tid_x();
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(Mem, 0, 256, 0x00027000);
  const f16x2_t o = __builtin_amdgcn_raw_ptr_buffer_atomic_fadd_v2f16(__builtin_bit_cast(f16x2_t, Val[l]), r, 4 * l, 0, 0);
  Old[l] = __builtin_bit_cast(u32, o);
}
