// min/max of two registers of one dtype in a HIP translation unit: the global
// `template <class T> T max(T, T)` / min of clang's HIP math header (what every HIP source sees,
// auto-included by the driver; included here because code objects build with -nogpuinc) must
// not be chosen over hipasm's.
#include <__clang_hip_runtime_wrapper.h>

#include <hipasm/kernel.hpp>

using namespace hipasm;

// Lane i of workgroup g (index p = 64 g + i) reads fa/fb[p] and ia/ib[p] into VGPRs and
// ia/ib[g] into SGPRs; writes 8 words per p:
//   max/min of the f32 VGPRs, max/min of their negations, max/min of the i32 VGPRs,
//   max/min of the i32 SGPRs (wave-uniform), max of two u32 expression results.
constexpr void minmax(builder J, arg<unsigned*> out, arg<const float*> fa, arg<const float*> fb,
                      arg<const int*> ia, arg<const int*> ib) {
  auto p = J.vgpr<u32>();
  p = J.workgroup_id_x() * 64 + J.thread_id_x();
  auto x = J.vgpr<f32>(), y = J.vgpr<f32>();
  auto i = J.vgpr<i32>(), k = J.vgpr<i32>();
  auto addr = J.vgpr<u64>();
  addr = fa + (p << 2);
  J.global_load_dword(x, addr, off);
  addr = fb + (p << 2);
  J.global_load_dword(y, addr, off);
  addr = ia + (p << 2);
  J.global_load_dword(i, addr, off);
  addr = ib + (p << 2);
  J.global_load_dword(k, addr, off);
  auto s = J.sgpr<i32>(), t = J.sgpr<i32>();
  auto sa = J.sgpr<u64>();
  sa = ia + (J.workgroup_id_x() << 2);
  J.s_load_dword(s, sa, 0);
  sa = ib + (J.workgroup_id_x() << 2);
  J.s_load_dword(t, sa, 0);
  J.s_waitcnt(vmcnt(0) | lgkmcnt(0));

  auto r = J.vgpr<u32>(8);
  r[0] = max(x, y).as<u32>();
  r[1] = min(x, y).as<u32>();
  r[2] = max(-x, -y).as<u32>();
  r[3] = min(-x, -y).as<u32>();
  r[4] = max(i, k).as<u32>();
  r[5] = min(i, k).as<u32>();
  auto smax = J.sgpr<i32>(), smin = J.sgpr<i32>();
  smax = max(s, t);
  smin = min(s, t);
  r[6] = (smax - smin).as<u32>();
  auto iu = i.as<u32>(), ku = k.as<u32>();
  r[7] = max(iu + 1u, ku ^ 5u);
  addr = out + (p << 5);
  J.global_store_dwordx4(addr, r.slice(0, 4), off);
  J.global_store_dwordx4(addr, r.slice(4, 4), off, {.offset = 16});
}

extern "C" __attribute__((global)) void minmax_hip(unsigned* out, const float* fa, const float* fb,
                                                   const int* ia, const int* ib) {
  HIPASM_KERNEL_BODY(minmax, out, fa, fb, ia, ib);
}
