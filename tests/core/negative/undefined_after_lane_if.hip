// EXPECT: undefined_after_lane_if.hip:13: error: kernel .undefined_after_lane_if.: reads .x. \(allocated at [^ ]*undefined_after_lane_if.hip:8\) in lanes that skip its write at [^ ]*undefined_after_lane_if.hip:11 \(the per-lane branch at [^ ]*undefined_after_lane_if.hip:10\)
// A VGPR written only in the lanes of a per-lane If and read after its join: the lanes that
// skipped the If hold garbage.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>().named("x");
  auto t = J.thread_id_x();
  J.If(t < 32u, [&] {
    x = 1.0f;
  });
  J.global_store_dword(out + 4u * t, x, off);
}
extern "C" __attribute__((global)) void undefined_after_lane_if(float* out) { HIPASM_KERNEL_BODY(bad, out); }
