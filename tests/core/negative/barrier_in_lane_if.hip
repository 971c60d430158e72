// EXPECT: barrier_in_lane_if.hip:16: error: kernel '[^']*': s_barrier inside the per-lane If at [^ ]*barrier_in_lane_if.hip:15: a wave whose lanes all skip it does not reach the barrier .*J.wave_uniform
// workgroup_reduce has an s_barrier: called under a per-lane If, a wave whose lanes all fail
// the condition skips it (s_cbranch_execz) and the others wait for it. The error is at the
// helper's call.
#include <hipasm/kernel.hpp>
#include <hipasm/helpers/lanes.hpp>
using namespace hipasm;

constexpr void reduce_in_branch(builder J, arg<float*> out) {
  auto tid = J.thread_id_x();
  auto p = J.vgpr<u64>();
  auto x = J.vgpr<f32>();
  p = out + (tid << 2);
  x = tid.as<f32>();
  J.If(tid < 100u, [&] {
    auto t = workgroup_reduce(J, reduce::sum, x, J.lds<float>(4, 16), 4);
    x = t;
  });
  J.global_store_dword(p, x, off);
}
extern "C" __attribute__((global)) void barrier_in_lane_if(float* out) { HIPASM_KERNEL_BODY(reduce_in_branch, out); }
