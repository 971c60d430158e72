// Argument-passing kernels for python/tests (plain HIP device code, no hipasm builder): each
// writes what it received to out, so the tests compare with what they passed.
#include <cstdint>

struct pair {
  int32_t a;
  float b;
  int64_t c;
};

// out[0..6]: n, bits of x, p.a, bits of p.b, low and high words of p.c, s (zero-extended)
extern "C" __attribute__((global)) void echo(uint32_t* out, int32_t n, float x, pair p, uint16_t s) {
  if (__builtin_amdgcn_workitem_id_x() != 0 || __builtin_amdgcn_workgroup_id_x() != 0) return;
  out[0] = static_cast<uint32_t>(n);
  out[1] = __builtin_bit_cast(uint32_t, x);
  out[2] = static_cast<uint32_t>(p.a);
  out[3] = __builtin_bit_cast(uint32_t, p.b);
  out[4] = static_cast<uint32_t>(p.c);
  out[5] = static_cast<uint32_t>(static_cast<uint64_t>(p.c) >> 32);
  out[6] = s;
}

// Hidden arguments (code object v5+ implicit arguments after the explicit ones): out[0..5] =
// block counts x, y, z (dwords 0..2) and group sizes x, y, z (halfwords 6..8).
extern "C" __attribute__((global)) void hidden(uint32_t* out) {
  if (__builtin_amdgcn_workitem_id_x() != 0 || __builtin_amdgcn_workgroup_id_x() != 0) return;
  const auto* dw = static_cast<const uint32_t*>(__builtin_amdgcn_implicitarg_ptr());
  const auto* hw = static_cast<const uint16_t*>(__builtin_amdgcn_implicitarg_ptr());
  for (int i = 0; i < 3; ++i) out[i] = dw[i];
  for (int i = 0; i < 3; ++i) out[3 + i] = hw[6 + i];
}

// out[i] = a[i] + b[i] for i < n, and in[i] is read only (a const pointer: not written back).
extern "C" __attribute__((global)) void add(float* out, const float* a, const float* b, uint32_t n) {
  const uint32_t i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  if (i < n) out[i] = a[i] + b[i];
}
