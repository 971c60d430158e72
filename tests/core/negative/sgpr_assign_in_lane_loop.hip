// EXPECT: sgpr_assign_in_lane_loop.hip:18: error: kernel '[^']*': the assignment writes the SGPR declared at [^ ]*sgpr_assign_in_lane_loop.hip:11 inside the per-lane loop at [^ ]*sgpr_assign_in_lane_loop.hip:16: an SGPR holds one value for the whole wave
// A counter declared outside a loop whose condition is per-lane, incremented in its body by an
// expression (computed into the register: the retargeted assignment): after the loop every
// lane holds the count of the lane that ran longest.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void count_in_lane_loop(builder J, arg<int*> out) {
  auto tid = J.thread_id_x();
  auto p = J.vgpr<u64>();
  auto trips = J.sgpr<u32>();
  auto v = J.vgpr<u32>();
  p = out + (tid << 2);
  trips = 0u;
  v = tid;
  J.While([&] { return v < 64u; }, [&] {
    v = v + 3u;
    trips = trips + 1u;
  });
  v = trips;
  J.global_store_dword(p, v, off);
}
extern "C" __attribute__((global)) void sgpr_assign_in_lane_loop(int* out) { HIPASM_KERNEL_BODY(count_in_lane_loop, out); }
