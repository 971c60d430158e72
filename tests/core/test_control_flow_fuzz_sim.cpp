// HIPASM_TEST_KERNELS: cf_fuzz.hip
// 32 random structured programs (kernels/cf_random_programs.hpp: uniform and per-lane If/Else
// and loops nested up to four deep, Break/Continue/Return anywhere, per-lane trip counts,
// conditions that change with the iteration) lowered with the DSL and run in hipasm-sim;
// every lane's output is compared with the program evaluated for that lane on the host, for
// two values of the uniform argument n.
#include "kernels/cf_random_programs.hpp"
#include "kernels/lane_programs.hpp"

#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

lane_programs::kernels& K() {
  static lane_programs::kernels k("cf_fuzz");
  return k;
}

std::vector<int32_t> lane_values() {
  std::vector<int32_t> v = {0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 20, 21, 25, 30, 31, 40, 64, 100, -100,
                            1000, 1001, INT_MAX, INT_MIN, 12345, -12345, 999999, -7};
  std::mt19937 rng(3);
  while (v.size() < 192) v.push_back(static_cast<int32_t>(rng()));
  return v;
}

}  // namespace

TEST_CASE("random programs: every lane matches the per-lane reference", "[control_flow][sim][fuzz]") {
  auto in = lane_values();
  int programs_with_return = 0;
  for (uint32_t seed = 0; seed < 32; ++seed) {
    cf_fuzz::program p = cf_fuzz::generate(seed);
    for (int i = 0; i < p.len; ++i) programs_with_return += p.n[i].k == cf_fuzz::k_return;
    for (int n : {2, 9}) {
      INFO("n " << n);
      lane_programs::run_lanes(K(), "cf_fuzz_" + std::to_string(seed), in, {static_cast<uint32_t>(n)},
                               [&](size_t g) { return cf_fuzz::reference(p, in[g], n); });
    }
  }
  CHECK(programs_with_return > 0);
}
