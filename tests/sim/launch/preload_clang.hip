// clang-22's own kernarg preloading (compiled with -mllvm -amdgpu-kernarg-preload-count=N):
// the outside oracle for the dispatcher's preload and the entry + 256 convention. clang emits
// a 256-byte prologue that loads the same arguments from the kernarg segment (for firmware that
// does not preload) and branches to the body; a preloading dispatch starts at the body.
#define KERNEL extern "C" __attribute__((global))

// Mixed widths: the preloaded dwords hold a pointer, an int, a short and a char packed at
// their C ABI offsets, and a long; the workgroup size comes from a hidden argument.
KERNEL void preload_mix(int* out, int a, short s, char c, long l, float f) {
  const unsigned i = __builtin_amdgcn_workitem_id_x();
  const unsigned g = __builtin_amdgcn_workgroup_id_x();
  const unsigned n = __builtin_amdgcn_workgroup_size_x();
  out[g * n + i] = a + s * (int)i + c + (int)l + (int)(f * (float)i) + (int)(g * 1000);
}
