// EXPECT: branch_out_of_lane_loop.hip:15: error: kernel '[^']*': s_branch to label 'done' .made at [^)]*branch_out_of_lane_loop.hip:11. leaves a per-lane If/loop
// A hand-written branch out of a per-lane loop would skip the loop's EXEC restore (the lanes
// that left it earlier would stay off): a compile error at the branch's line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void branch_out(builder J, arg<int*> out) {
  auto tid = J.thread_id_x();
  auto i = J.vgpr<u32>();
  i = 0u;
  auto done = J.make_label("done");
  J.While([&] { return i < tid; }, [&] {
    i = i + 1u;
    J.If(i == 7u, [&] {
      J.Jump(done);
    });
  });
  J.place(done);
  auto p = J.vgpr<u64>();
  p = out + (tid << 2);
  J.global_store_dword(p, i, off);
}
extern "C" __attribute__((global)) void branch_out_of_lane_loop(int* out) { HIPASM_KERNEL_BODY(branch_out, out); }
