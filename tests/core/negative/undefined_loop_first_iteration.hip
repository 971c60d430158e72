// EXPECT: undefined_loop_first_iteration.hip:13: error: kernel .undefined_loop_first_iteration.: reads .prev. \(allocated at [^ ]*undefined_loop_first_iteration.hip:9\) before its write at [^ ]*undefined_loop_first_iteration.hip:14 \(on the loop's first iteration\)
// A loop that reads a value the previous iteration wrote: the first iteration reads it
// before anything wrote it.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<float*> out, arg<int> n) {
  auto i = J.sgpr<i32>();
  auto prev = J.vgpr<f32>().named("prev");
  auto p = J.vgpr<u64>();
  p = out + 0u;
  J.For(i, 0, n, [&] {
    J.global_store_dword(p, prev, off);
    prev = J.thread_id_x().as<f32>();
  });
}
extern "C" __attribute__((global)) void undefined_loop_first_iteration(float* out, int n) { HIPASM_KERNEL_BODY(bad, out, n); }
