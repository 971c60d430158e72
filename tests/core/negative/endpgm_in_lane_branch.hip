// EXPECT: endpgm_in_lane_branch.hip:14: error: kernel '[^']*': s_endpgm inside a per-lane If/loop .*would end the whole wave: use J.Return
// s_endpgm where EXEC holds only some lanes would end the others too (63 of 64 lanes would
// store nothing): a compile error at its line, J.Return() stops only the lanes executing it.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void endpgm_in_branch(builder J, arg<int*> out) {
  auto tid = J.thread_id_x();
  auto p = J.vgpr<u64>();
  p = out + (tid << 2);
  auto v = J.vgpr<u32>();
  v = tid;
  J.If(tid == 0u, [&] {
    J.op("s_endpgm", {});
  });
  J.global_store_dword(p, v, off);
}
extern "C" __attribute__((global)) void endpgm_in_lane_branch(int* out) { HIPASM_KERNEL_BODY(endpgm_in_branch, out); }
