// EXPECT: out_of_vgprs.hip:9: error: kernel '[^']*': out of VGPRs allocating 'b'
// 200 + 100 VGPRs live at once: no spilling, the allocator names the register and its line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void too_many(builder J, arg<float*> out) {
  auto a = J.vgpr<f32>(200).named("a");
  a.fill(1.0f);
  auto b = J.vgpr<f32>(100).named("b");
  b.fill(2.0f);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  for (int i = 0; i < 200; ++i) J.global_store_dword(p, a[i], off);
  for (int i = 0; i < 100; ++i) J.global_store_dword(p, b[i], off);
}
extern "C" __attribute__((global)) void out_of_vgprs(float* out) { HIPASM_KERNEL_BODY(too_many, out); }
