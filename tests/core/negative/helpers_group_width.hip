// EXPECT: helpers_group_width.hip:10: error: kernel '[^']*': group_reduce: width must be 2, 4, 8, 16, 32 or 64, got 12
// A lane-group reduction over a width the DPP/swizzle steps cannot make: a compile error at the
// call's line (include/hipasm/helpers/lanes.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_width(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  x = 1.0f;
  auto s = group_reduce(J, reduce::sum, x, 12);
  J.global_store_dword(J.thread_id_x() << 2u, s, out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_width, out); }
