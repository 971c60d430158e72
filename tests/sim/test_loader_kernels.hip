// Kernels for the loader's oracle test (test_loader.cpp): each one makes clang-22 set a
// different part of the kernel descriptor or the argument metadata. Nothing here is run;
// the test compares what the loader decodes with clang's own .amdhsa_* directives and
// llvm-readobj-22's view of the metadata note.
#define KERNEL extern "C" __attribute__((global))
#define LDS __attribute__((shared))

struct pair_arg {
  int a;
  float b;
};

// Scalars of every width, a struct, pointers: offsets follow the C ABI.
KERNEL void args_mix(int* out, const float* in, float f, long n, char c, short s, double d,
                     pair_arg p, unsigned long long u) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  out[i] = (int)(in[i] * f) + (int)n + c + s + (int)d + p.a + (int)p.b + (int)u;
}

// Workgroup ids y and z, work-item ids y and z: rsrc2 enables and vgpr_workitem_id 2.
KERNEL void ids_3d(unsigned* out) {
  unsigned x = __builtin_amdgcn_workitem_id_x(), y = __builtin_amdgcn_workitem_id_y(),
           z = __builtin_amdgcn_workitem_id_z();
  unsigned gx = __builtin_amdgcn_workgroup_id_x(), gy = __builtin_amdgcn_workgroup_id_y(),
           gz = __builtin_amdgcn_workgroup_id_z();
  out[x + 4 * y + 16 * z] = gx + gy * 100 + gz * 10000;
}

// __syncthreads(): the workgroup fences make clang wait for LDS stores before s_barrier.
__attribute__((device)) inline void sync_threads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// Static LDS and a barrier: group_segment_fixed_size.
KERNEL void lds_static(float* out) {
  LDS static float tile[512];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  tile[t] = t;
  sync_threads();
  out[t] = tile[511 - t];
}

// The same with a bare s_barrier: clang emits no s_waitcnt before it, so another wave may
// read LDS bytes whose store has not completed. The checker must report this race.
KERNEL void lds_racy(float* out) {
  LDS static float tile[512];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  tile[t] = t;
  __builtin_amdgcn_s_barrier();
  out[t] = tile[511 - t];
}

// Dynamic LDS (extern shared): the hidden_dynamic_lds_size argument.
KERNEL void lds_dynamic(float* out) {
  extern LDS float dyn[];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dyn[t] = t;
  sync_threads();
  out[t] = dyn[t ^ 1];
}

typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef __bf16 bf16x4 __attribute__((ext_vector_type(4)));
// MFMA and AGPRs: accum_offset in rsrc3, agpr_count in the metadata. clang keeps MFMA
// accumulators in VGPRs when it can, so an AGPR clobber forces the split.
KERNEL void mfma_acc(f32x16* out, const bf16x4* a, const bf16x4* b) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  asm volatile("v_accvgpr_write_b32 a7, 0" ::: "a7");
  f32x16 acc = {};
  for (int k = 0; k < 4; ++k)
    acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a[t + 64 * k], b[t + 64 * k], acc, 0, 0, 0);
  out[t] = acc;
}

// A dynamically indexed private array: scratch (private segment) use.
KERNEL void scratch_use(int* out, int i, int j) {
  volatile int local[64];
  for (int k = 0; k < 64; ++k) local[k] = k * i;
  out[__builtin_amdgcn_workitem_id_x()] = local[j & 63];
}

// The dispatch packet and queue pointer: user SGPRs beyond the kernarg pointer.
KERNEL void packet_ptrs(unsigned long long* out) {
  const unsigned short* packet = (const unsigned short*)__builtin_amdgcn_dispatch_ptr();
  const char* queue = (const char*)__builtin_amdgcn_queue_ptr();
  out[0] = packet[2];
  out[1] = (unsigned long long)queue;
}

// A bounded workgroup size: .max_flat_workgroup_size.
KERNEL __attribute__((amdgpu_flat_work_group_size(1, 256))) void small_block(float* out, float v) {
  out[__builtin_amdgcn_workitem_id_x()] = v;
}

// Block counts, group sizes and grid dims read by the kernel itself (hidden args in use).
KERNEL void grid_query(unsigned* out) {
  out[0] = __builtin_amdgcn_workgroup_size_x();
  out[1] = __builtin_amdgcn_workgroup_size_y();
  out[2] = __builtin_amdgcn_workgroup_size_z();
  out[3] = __builtin_amdgcn_grid_size_x();
}

// A constant table clang places in .rodata and reads pc-relative (s_getpc_b64 + offset):
// the launcher must map the whole loaded image, not just .text.
__attribute__((constant)) static const int kTable[32] = {
    3, 141, 59, 26, 535, 89, 79, 323, 846, 26, 433, 832, 79, 50, 288, 41,
    97, 169, 399, 375, 105, 820, 974, 944, 592, 307, 816, 406, 286, 208, 998, 628};
KERNEL void const_table(int* out, int k) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  out[t] = kTable[(t * 7 + k) & 31];
}
