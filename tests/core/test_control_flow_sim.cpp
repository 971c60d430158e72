// HIPASM_TEST_KERNELS: cf_kernels.hip
// Every control-flow lowering executed in hipasm-sim against the same algorithm in C++:
// uniform loops and Ifs (SCC), per-lane If/Else nesting (EXEC masks), per-lane While with
// Break/Continue, a uniform loop with a per-lane Break, For with a negative step, the execz
// skip, hand-written Label/Jump, runtime division under divergence. Lane inputs are edge
// values (0, 1, -1, INT_MIN, INT_MAX, ...) and random ones; the checker must stay silent.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

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
                                                   HIPASM_CORE_TEST_NAME + "_cf_kernels.co");
};
sim& S() {
  static sim s;
  return s;
}

std::vector<int32_t> lane_values() {
  std::vector<int32_t> v = {0, 1, -1, 2, 3, 4, 5, 7, 8, 12, 13, 20, 21, 25, 30, 31, 40, 64, 100, -100, -101,
                            1000, 1001, INT_MAX, INT_MIN, INT_MIN + 1, 12345, -12345, 999999, -7};
  std::mt19937 rng(1);
  while (v.size() % 64 || v.size() < 192) v.push_back(static_cast<int32_t>(rng()) >> (rng() % 32));
  return v;
}

void check(const rt::launch_report& rep, const char* kernel) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
}

std::vector<int32_t> run_lanes(const char* kernel, const std::vector<int32_t>& in, int extra = -1) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> I(d, in), out(d, in.size());
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  if (extra >= 0) a.add(extra);
  check(d.launch(*S().mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a), kernel);
  return out.download();
}

int32_t run_scalar(const char* kernel, int32_t n) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> out(d, std::vector<int32_t>{-999});
  rt::kernel_args a;
  a.add(out.ptr()).add(n);
  check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
  return out.download()[0];
}

}  // namespace

TEST_CASE("uniform While + If: pyhip's sum of even numbers", "[control_flow][sim]") {
  for (int n : {0, 1, 2, 3, 10, 32, 33, 100, 1000, -5}) {
    int want = 0;
    for (int i = 0; i < n; ++i)
      if ((i & 1) == 0) want += i;
    CHECK(run_scalar("cf_sum_even", n) == want);
    // (cf_sum_even_twice<1> and <2>: one template's two kernels in one code object)
    CHECK(run_scalar("_Z17cf_sum_even_twiceILi1EEvPii", n) == want);
    CHECK(run_scalar("_Z17cf_sum_even_twiceILi2EEvPii", n) == want);
  }
}

TEST_CASE("per-lane While with per-lane Break and Continue", "[control_flow][sim]") {
  auto in = lane_values();
  // bound the trip counts so the loop ends quickly for huge values (the Break does that)
  auto got = run_lanes("cf_lane_loop", in);
  for (size_t i = 0; i < in.size(); ++i) {
    int32_t v = in[i], acc = 0;
    for (int32_t k = 0; k < v; ++k) {
      if (k % 3 == 1) continue;
      if (acc > 40) break;
      if (k & 1) acc += k;
      else acc += 2 * k;
    }
    CHECK(got[i] == acc);
  }
}

TEST_CASE("uniform For with a per-lane Break", "[control_flow][sim]") {
  auto in = lane_values();
  auto got = run_lanes("cf_uniform_loop_lane_break", in);
  for (size_t i = 0; i < in.size(); ++i) {
    int32_t r = 0;
    for (int32_t s = 0; s < 20; ++s) {
      if (s >= in[i]) break;
      r += s;
    }
    CHECK(got[i] == r);
  }
}

TEST_CASE("nested per-lane If/Else and a uniform If", "[control_flow][sim]") {
  auto in = lane_values();
  for (int n : {0, 5}) {
    auto got = run_lanes("cf_nested_if", in, n);
    for (size_t i = 0; i < in.size(); ++i) {
      int32_t v = in[i];
      int32_t r = v < 0 ? (v < -100 ? 1 : 2) : (v == 0 ? 3 : (v > 1000 ? 4 : 5));
      if (n > 2) r += 10;
      CHECK(got[i] == r);
    }
  }
}

TEST_CASE("a per-lane If that no lane takes is skipped (scalar side effects too)", "[control_flow][sim]") {
  rt::device& d = *S().dev;
  auto in = lane_values();
  for (bool hit : {false, true}) {
    std::vector<int32_t> v = in;
    if (hit) v[70] = 12345;
    else
      for (auto& x : v)
        if (x == 12345) x = 0;
    rt::buffer<int32_t> I(d, v), flag(d, std::vector<int32_t>{0});
    rt::kernel_args a;
    a.add(flag.ptr()).add(I.ptr());
    check(d.launch(*S().mod, "cf_execz_skip", {static_cast<uint32_t>(v.size() / 64), 1, 1}, {64, 1, 1}, a),
          "cf_execz_skip");
    CHECK(flag.download()[0] == (hit ? 7 : 0));
  }
}

TEST_CASE("uniform Ifs on the SCC of the instruction that computed the tested value", "[control_flow][sim]") {
  for (int n : {0, 1, 2, 3, 5, 8, 9, 17, 40}) {
    int32_t want = 0;
    for (int32_t i = 0; i < n; ++i) {
      if ((i & 6) != 0) want += 1;
      if ((i >> 2) == 0) want += 10;
      if ((i ^ 5) != 0) want += 100;
      if ((static_cast<uint32_t>(i) << 30) == 0) want += 1000;
      if (!((i & 2) != 0)) want += 10000;
      want ^= 0x100000;
      if ((i & 8) != 0) want += 100000;
    }
    INFO("n " << n);
    CHECK(run_scalar("cf_scc_tests", n) == want);
  }
}

TEST_CASE("Label/Jump by hand", "[control_flow][sim]") {
  for (int n : {1, 2, 10, 1000}) CHECK(run_scalar("cf_label_jump", n) == n * (n + 1) / 2);
}

TEST_CASE("For with a negative step and a uniform Continue", "[control_flow][sim]") {
  for (int n : {0, 1, 5, 6, 20, 100}) {
    int want = 0;
    for (int i = n; i > 0; i -= 3) {
      if (i % 5 == 0) continue;
      want += i;
    }
    CHECK(run_scalar("cf_for_down", n) == want);
  }
}

TEST_CASE("runtime division inside a per-lane branch", "[control_flow][sim]") {
  auto in = lane_values();
  auto got = run_lanes("cf_div_in_branch", in);
  for (size_t i = 0; i < in.size(); ++i) {
    int32_t v = in[i];
    int32_t want = v != 0 ? (1000000 / v) % 97 : -1;
    CHECK(got[i] == want);
  }
}
