// Kernels of test_arrival_sim.cpp: if_last_arrival (helpers/arrival.hpp) called where lane 0 is
// not active and the counter offset is valid in the first active lane only.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace arr {

// Workgroup g (one wave) stores part[g * 64 + lane] = (g + 1) * (lane + 1); lanes >= first take
// part in the count, with counter_off 0 in the first of them and an offset into `guard` (the
// 64 dwords after the counter) in the others. The last workgroup to arrive writes
// out[lane] = sum over g of part[g * 64 + lane].
constexpr void last_arrival_partial(builder J, arg<unsigned*> out, arg<unsigned*> part, arg<unsigned*> counters,
                                    arg<unsigned> first, arg<unsigned> groups) {
  auto lane = J.vgpr<u32>();
  lane = J.thread_id_x();
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + lane) << 2u;
  auto v = J.vgpr<u32>();
  v = (J.workgroup_id_x() + 1u) * (lane + 1u);
  J.global_store_dword(o, v, part, {.sc1 = true});
  J.If(lane >= first, [&] {
    auto off = J.vgpr<u32>();
    off = select(lane == first, 0u, (lane + 1u) << 2u);
    if_last_arrival(J, counters, off, groups, [&] {
      auto sum = J.vgpr<u32>(), x = J.vgpr<u32>(), g = J.sgpr<u32>();
      sum = 0u;
      J.For(g, 0u, groups, [&] {
        J.global_load_dword(x, (g * 64u + lane) << 2u, part, {.sc1 = true});
        J.s_waitcnt(vmcnt(0));
        sum = sum + x;
      });
      J.global_store_dword(lane << 2u, sum, out);
    });
  });
}

}  // namespace arr

extern "C" __attribute__((global)) void last_arrival_partial(unsigned* out, unsigned* part, unsigned* counters,
                                                             unsigned first, unsigned groups) {
  HIPASM_KERNEL_BODY(arr::last_arrival_partial, out, part, counters, first, groups);
}
