// HIPASM_TEST_KERNELS: cf_fuzz.hip
// 32 random structured programs (kernels/cf_random_programs.hpp: uniform and per-lane If/Else
// and loops nested up to four deep, Break/Continue/Return anywhere, per-lane trip counts,
// conditions that change with the iteration) lowered with the DSL and run in hipasm-sim;
// every lane's output is compared with the program evaluated for that lane on the host, for
// two values of the uniform argument n.
#include <catch2/catch.hpp>

#include <hipasm/sim/launcher.hpp>

#include "kernels/cf_random_programs.hpp"

#include <climits>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" +
                                                   HIPASM_CORE_TEST_NAME + "_cf_fuzz.co");
};
sim& S() {
  static sim s;
  return s;
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
  rt::device& d = *S().dev;
  auto in = lane_values();
  int programs_with_return = 0;
  for (uint32_t seed = 0; seed < 32; ++seed) {
    cf_fuzz::program p = cf_fuzz::generate(seed);
    for (int i = 0; i < p.len; ++i) programs_with_return += p.n[i].k == cf_fuzz::k_return;
    std::string kernel = "cf_fuzz_" + std::to_string(seed);
    for (int n : {2, 9}) {
      rt::buffer<int32_t> I(d, in), out(d, std::vector<int32_t>(in.size(), -999999));
      rt::kernel_args a;
      a.add(out.ptr()).add(I.ptr()).add(n);
      rt::launch_report rep =
          d.launch(*S().mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a);
      for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
      auto got = out.download();
      int bad = 0;
      for (size_t g = 0; g < in.size(); ++g) {
        int32_t want = cf_fuzz::reference(p, in[g], n);
        if (got[g] != want && ++bad <= 4)
          FAIL_CHECK(kernel << " n=" << n << " lane " << g << " v=" << in[g] << ": got " << got[g] << ", want " << want);
      }
      CHECK(bad == 0);
    }
  }
  CHECK(programs_with_return > 0);
}
