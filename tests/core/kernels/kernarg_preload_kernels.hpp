// The kernels of kernarg_preload.hip and kernarg_noflag.hip (the same source, compiled with
// and without clang's kernarg preloading).
#pragma once
#include "kernarg_preload_fn.hpp"

using namespace hipasm::test::preload;
#define KERNEL extern "C" __attribute__((global))

KERNEL void axpy_on_k(float* y, const float* x, float a, unsigned n) { HIPASM_KERNEL_BODY(axpy_on, y, x, a, n); }
KERNEL void axpy_off_k(float* y, const float* x, float a, unsigned n) { HIPASM_KERNEL_BODY(axpy, y, x, a, n); }
KERNEL void wide_on_k(int* p0, int* p1, int* p2, int* p3, int* p4, int* p5, int* p6, int* p7, int k) {
  HIPASM_KERNEL_BODY(wide_on, p0, p1, p2, p3, p4, p5, p6, p7, k);
}
KERNEL void wide_off_k(int* p0, int* p1, int* p2, int* p3, int* p4, int* p5, int* p6, int* p7, int k) {
  HIPASM_KERNEL_BODY(wide, p0, p1, p2, p3, p4, p5, p6, p7, k);
}
KERNEL void mixed_on_k(int* out, short s, int a, two_ints st, float f) { HIPASM_KERNEL_BODY(mixed_on, out, s, a, st, f); }
KERNEL void mixed_off_k(int* out, short s, int a, two_ints st, float f) { HIPASM_KERNEL_BODY(mixed, out, s, a, st, f); }

// clang's own kernel, the outside oracle of the preloading dispatch (in the preloading
// translation unit its arguments arrive in s[2:5], s6, s7).
KERNEL void axpy_clang(float* y, const float* x, float a, unsigned n) {
  const unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  if (i < n) y[i] = a * x[i] + y[i];
}
