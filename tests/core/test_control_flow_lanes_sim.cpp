// HIPASM_TEST_KERNELS: cf_lanes.hip
// Break/Continue under every nesting of uniform and per-lane If/Else and loops (uniform in
// per-lane, per-lane in uniform, per-lane in per-lane, a loop in a per-lane If), with per-lane
// trip counts so lanes leave at different iterations. Each kernel runs in hipasm-sim; every
// lane's result is compared with the same program written as a plain C++ loop per lane with
// real break/continue (kernels/cf_lanes.hip shows each program next to its kernel).
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" +
                                                   HIPASM_CORE_TEST_NAME + "_cf_lanes.co");
};
sim& S() {
  static sim s;
  return s;
}

// Four waves of lane inputs: edge values, small values (every trip count), random bits.
std::vector<int32_t> lane_values() {
  std::vector<int32_t> v = {0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 20, 21, 25, 30, 31, 40, 64, 100, -100, -101,
                            1000, 1001, INT_MAX, INT_MIN, INT_MIN + 1, 12345, -12345, 999999, -7};
  for (int32_t i = 0; i < 64; ++i) v.push_back(i);
  std::mt19937 rng(7);
  while (v.size() < 256) v.push_back(static_cast<int32_t>(rng()));
  return v;
}

std::vector<int32_t> run(const char* kernel, const std::vector<int32_t>& in, int n = -1) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> I(d, in), out(d, std::vector<int32_t>(in.size(), -999999));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  if (n >= 0) a.add(n);
  rt::launch_report rep = d.launch(*S().mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
  return out.download();
}

// Runs `kernel` and compares every lane with ref(g, v).
void compare(const char* kernel, const std::function<int32_t(int32_t g, int32_t v)>& ref, int n = -1) {
  auto in = lane_values();
  auto got = run(kernel, in, n);
  int bad = 0;
  for (size_t g = 0; g < in.size(); ++g) {
    int32_t want = ref(static_cast<int32_t>(g), in[g]);
    if (got[g] != want && ++bad <= 8)
      FAIL_CHECK(kernel << " n=" << n << " lane " << g << " v=" << in[g] << ": got " << got[g] << ", want " << want);
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("loop-level Break after a per-lane Continue (uniform loop)", "[control_flow][sim]") {
  compare("cf_break_after_continue", [](int32_t g, int32_t) {
    int32_t acc = 0;
    for (int s = 0; s < 4; ++s) {
      if (g & 1) {
        acc += 1;
        continue;
      }
      acc += 100;
      break;
    }
    return acc;
  });
}

TEST_CASE("loop-level Break after a per-lane Continue (per-lane loop)", "[control_flow][sim]") {
  compare("cf_lane_loop_break_after_continue", [](int32_t, int32_t v) {
    int32_t acc = 0, t = v & 7;
    for (int32_t k = 0; k < t; ++k) {
      if ((v >> k) & 1) {
        acc += 1;
        continue;
      }
      acc += 100 + k;
      break;
    }
    return acc;
  });
}

TEST_CASE("Break under a uniform If after a per-lane Continue", "[control_flow][sim]") {
  for (int n : {0, 1, 3, 4, 9, 31}) {
    compare("cf_uniform_if_break", [n](int32_t, int32_t v) {
      int32_t acc = 0;
      for (int32_t s = 0; s < n; ++s) {
        if ((v >> s) & 1) {
          acc += 1;
          continue;
        }
        if (s >= 3) break;
        acc += 10;
      }
      return acc;
    }, n);
  }
}

TEST_CASE("Break and Continue in the branches of nested per-lane If/Else", "[control_flow][sim]") {
  compare("cf_nested_if_else", [](int32_t, int32_t v) {
    int32_t acc = 0, t = (v & 15) + 1;
    for (int32_t k = 0; k < t; ++k) {
      if (k % 3 == 0) {
        if ((v >> (k & 7)) & 1) continue;
        else acc += 7;
      } else {
        if (acc > (v & 63)) break;
        else acc += 1;
      }
      acc += k;
    }
    return acc;
  });
}

TEST_CASE("a uniform loop inside a per-lane loop", "[control_flow][sim]") {
  compare("cf_uniform_in_lane", [](int32_t, int32_t v) {
    int32_t acc = 0;
    for (int32_t k = 0; k < (v & 7); ++k) {
      for (int32_t s = 0; s < 5; ++s) {
        if (((v + s + k) & 3) == 1) {
          acc += 1;
          continue;
        }
        if (s == 3) break;
        if (((v >> s) & 1) && k > 2) break;
        acc += s * 10;
      }
      if (((v ^ k) & 5) == 0) continue;
      acc += 1000;
      if (acc > (v & 1023) + 2000) break;
    }
    return acc;
  });
}

TEST_CASE("a per-lane loop inside a uniform loop", "[control_flow][sim]") {
  compare("cf_lane_in_uniform", [](int32_t, int32_t v) {
    int32_t acc = 0;
    for (int32_t s = 0; s < 6; ++s) {
      if ((v >> s) & 1) continue;
      for (int32_t k = 0; k < (v & 7); ++k) {
        if (k == s) continue;
        if (k * s > (v & 15)) break;
        acc += k;
      }
      if (acc > 30) break;
      acc += s;
    }
    return acc;
  });
}

TEST_CASE("a per-lane While inside a per-lane While", "[control_flow][sim]") {
  compare("cf_lane_in_lane", [](int32_t, int32_t v) {
    int32_t acc = 0, a = 0;
    while (a < (v & 7)) {
      a += 1;
      int32_t b = 0;
      while (b < ((v >> 3) & 7)) {
        b += 1;
        if ((a + b) & 1) continue;
        if (b > a) break;
        acc += a * b;
      }
      if (a == 2) continue;
      if (acc > ((v >> 6) & 31)) break;
      acc += 1;
    }
    return acc;
  });
}

TEST_CASE("a uniform loop inside a per-lane If/Else", "[control_flow][sim]") {
  for (int n : {0, 3, 6, 8}) {
    compare("cf_loop_in_lane_if", [n](int32_t, int32_t v) {
      int32_t acc = 0;
      if (v & 1) {
        for (int32_t s = 0; s < n; ++s) {
          if (((v >> s) & 3) == 2) {
            acc += 1;
            continue;
          }
          if (s == 5) {
            acc += 50;
            break;
          }
          if (((v >> 4) & 7) == s) {
            acc += 500;
            break;
          } else {
            acc += 2;
            if (acc > 9) continue;
          }
          acc += 20;
        }
        acc += 3;
      } else {
        acc = 7;
      }
      return acc;
    }, n);
  }
}
