// HIPASM_TEST_KERNELS: arrival.hip
// if_last_arrival (helpers/arrival.hpp) under a per-lane If that leaves lane 0 out: the first
// active lane counts the wave in and zeroes the counter, whatever offset the other lanes hold
// (before: lane 0 did, so no lane counted, the arrival read an undefined result, and every
// active lane's store of zero went to its own offset). Executed in hipasm-sim against plain C++;
// the checker must report nothing.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

TEST_CASE("if_last_arrival counts in the first active lane", "[helpers][arrival]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(hipasm::test::code_object("arrival"));
  constexpr uint32_t groups = 5, guard = 0x5a5a5a5au;
  for (uint32_t first : {0u, 1u, 7u, 40u, 63u}) {
    INFO("first active lane " << first);
    rt::buffer<uint32_t> out(*dev, std::vector<uint32_t>(64, 0)), part(*dev, std::vector<uint32_t>(groups * 64, 0));
    std::vector<uint32_t> cnt(1 + 64, guard);
    cnt[0] = 0;  // the counter starts at zero; the guard words after it must stay untouched
    rt::buffer<uint32_t> counters(*dev, cnt);
    for (int launch = 0; launch < 2; ++launch) {  // the counter is zero again for the next launch
      rt::kernel_args args;
      args.add(out.ptr()).add(part.ptr()).add(counters.ptr()).add(first).add(groups);
      auto rep = dev->launch(*mod, "last_arrival_partial", {groups, 1, 1}, {64, 1, 1}, args);
      for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
      auto r = out.download();
      int bad = 0;
      for (uint32_t lane = 0; lane < 64 && bad < 4; ++lane) {
        uint32_t want = 0;
        if (lane >= first)
          for (uint32_t g = 0; g < groups; ++g) want += (g + 1) * (lane + 1);
        if (r[lane] != want) {
          ++bad;
          FAIL_CHECK("launch " << launch << " lane " << lane << ": got " << r[lane] << ", want " << want);
        }
      }
      auto c = counters.download();
      CHECK(c[0] == 0u);
      for (uint32_t i = 1; i <= 64; ++i)
        if (c[i] != guard) FAIL_CHECK("launch " << launch << ": guard word " << i << " overwritten: " << c[i]);
    }
  }
}
