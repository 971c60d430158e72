// EXPECT: out_of_vgprs.hip:10: error: kernel 'out_of_vgprs': out of VGPRs allocating 'b\[[0-9]+\]' .*live VGPRs: 256 of 256 in use; by array: 'a' \([^)]*out_of_vgprs.hip:8\) 200 dwords: v0\.\.v199\[0\.\.199\]; 'b' \([^)]*out_of_vgprs.hip:10\) [0-9]+ dwords: v200\.\.
// 200 + 100 VGPRs live at once: no spilling, the allocator names the register (with its array
// index) and its line, and lists what is live by array: 'a' (...:8) 200 dwords: v0..v199[0..199].
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void too_many(builder J, arg<float*> out) {
  auto a = J.vgpr<f32>(200).named("a");
  for (int i = 0; i < 200; ++i) J.v_mov_b32(a[i], 1.0f + i);  // distinct: CSE keeps them apart
  auto b = J.vgpr<f32>(100).named("b");
  for (int i = 0; i < 100; ++i) J.v_mov_b32(b[i], 1000.0f + i);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  for (int i = 0; i < 200; ++i) J.global_store_dword(p, a[i], off);
  for (int i = 0; i < 100; ++i) J.global_store_dword(p, b[i], off);
}
extern "C" __attribute__((global)) void out_of_vgprs(float* out) { HIPASM_KERNEL_BODY(too_many, out); }
