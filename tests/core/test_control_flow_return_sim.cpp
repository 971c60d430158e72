// HIPASM_TEST_KERNELS: cf_return.hip
// J.Return() executed in hipasm-sim: the lanes that return stop (their later stores never
// happen), the others go on out of Ifs and loops and through later If/Else and loops (a
// returned lane coming back would overwrite its output), and the wave ends when no lane is
// left (a scalar store after the last Return must not run). Every lane is compared with the
// same program as a plain C++ function per lane with a real `return` (kernels/cf_return.hip).
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

constexpr int32_t kUnset = -999999;  // out[g] before the launch

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" +
                                                   HIPASM_CORE_TEST_NAME + "_cf_return.co");
};
sim& S() {
  static sim s;
  return s;
}

std::vector<int32_t> lane_values() {
  std::vector<int32_t> v = {0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 20, 21, 25, 30, 31, 40, 64, 100, -100, -101,
                            101, 102, 103, 1000, 1001, INT_MAX, INT_MIN, INT_MIN + 1, 12345, -12345, 999999, -7};
  for (int32_t i = 0; i < 64; ++i) v.push_back(i * 37);
  std::mt19937 rng(11);
  while (v.size() < 256) v.push_back(static_cast<int32_t>(rng()));
  return v;
}

void check(const rt::launch_report& rep, const char* kernel) {
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
}

std::vector<int32_t> run(const char* kernel, const std::vector<int32_t>& in, int n = -1) {
  rt::device& d = *S().dev;
  rt::buffer<int32_t> I(d, in), out(d, std::vector<int32_t>(in.size(), kUnset));
  rt::kernel_args a;
  a.add(out.ptr()).add(I.ptr());
  if (n >= 0) a.add(n);
  check(d.launch(*S().mod, kernel, {static_cast<uint32_t>(in.size() / 64), 1, 1}, {64, 1, 1}, a), kernel);
  return out.download();
}

// ref(g, v, out) stores like the kernel; the lane's out starts as kUnset.
using ref_fn = std::function<void(int32_t g, int32_t v, int32_t& out)>;
void compare(const char* kernel, const ref_fn& ref, int n = -1) {
  auto in = lane_values();
  auto got = run(kernel, in, n);
  int bad = 0;
  for (size_t g = 0; g < in.size(); ++g) {
    int32_t want = kUnset;
    ref(static_cast<int32_t>(g), in[g], want);
    if (got[g] != want && ++bad <= 8)
      FAIL_CHECK(kernel << " n=" << n << " lane " << g << " v=" << in[g] << ": got " << got[g] << ", want " << want);
  }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("Return in a per-lane If: that lane stops, the other 63 go on", "[control_flow][sim][return]") {
  compare("cf_ret_one_lane", [](int32_t g, int32_t, int32_t& out) {
    if ((g & 63) == 5) return;
    out = g;
  });
}

TEST_CASE("Return in nested per-lane If/Else at the top level", "[control_flow][sim][return]") {
  compare("cf_ret_top", [](int32_t, int32_t v, int32_t& out) {
    if (v < 0) {
      out = v;
      return;
    }
    int32_t acc = v & 255;
    if (acc > 100) {
      if (acc & 1) {
        out = acc + 1;
        return;
      }
      acc += 1000;
    } else {
      acc += 7;
    }
    out = acc * 2;
  });
}

TEST_CASE("Return with Continue and Break in a uniform loop, If/Else and loops after it",
          "[control_flow][sim][return]") {
  compare("cf_ret_uniform_loop", [](int32_t g, int32_t v, int32_t& out) {
    int32_t acc = 0;
    for (int32_t s = 0; s < 8; ++s) {
      if ((v & 15) == s) {
        out = acc + 1000 * s;
        return;
      }
      if ((v >> s) & 1) {
        acc += 1;
        continue;
      }
      acc += s;
      if (acc > ((v >> 4) & 15)) break;
    }
    if (g & 1) acc += 100;
    else acc += 200;
    for (int s = 0; s < 3; ++s) acc += 1;
    for (int32_t k = 0; k < (v & 3); ++k) acc += 10;
    out = acc;
  });
}

TEST_CASE("Return two per-lane loops deep", "[control_flow][sim][return]") {
  compare("cf_ret_nested_lane", [](int32_t, int32_t v, int32_t& out) {
    int32_t acc = 0;
    for (int32_t a = 0; a < (v & 7); ++a) {
      for (int32_t b = 0; b < ((v >> 3) & 7); ++b) {
        if (a * b == ((v >> 6) & 15)) {
          out = 5000 + acc;
          return;
        }
        if ((a + b) & 1) continue;
        acc += b;
      }
      if (acc > 40) break;
    }
    if ((v >> 10) & 1) acc += 1;
    else acc += 2;
    out = acc;
  });
}

TEST_CASE("Return at a per-lane loop's own level after a per-lane Continue", "[control_flow][sim][return]") {
  compare("cf_ret_loop_level", [](int32_t, int32_t v, int32_t& out) {
    int32_t acc = 0, k = 0;
    while (k < (v & 7)) {
      k += 1;
      if ((v >> k) & 1) {
        acc += 1;
        continue;
      }
      out = acc * 10 + k;
      return;
    }
    out = acc - 1;
  });
}

TEST_CASE("Return in an Else inside a uniform loop inside a per-lane If", "[control_flow][sim][return]") {
  compare("cf_ret_in_else", [](int32_t g, int32_t v, int32_t& out) {
    int32_t acc = 0;
    if ((v & 3) != 0) {
      for (int32_t s = 0; s < 6; ++s) {
        if ((v >> s) & 1) {
          acc += 1;
          continue;
        } else {
          if (s == ((v >> 8) & 7)) {
            out = 777 + acc;
            return;
          }
        }
        acc += 10;
        if (s == 4) break;
      }
      for (int s = 0; s < 2; ++s)
        if (g & 2) acc += 3;
      out = acc * 2 + 1;
    } else {
      acc = 55;
    }
    out = acc;
  });
}

TEST_CASE("uniform Return ends the wave", "[control_flow][sim][return]") {
  auto in = lane_values();
  for (int n : {0, 3, 4, 100}) {
    auto got = run("cf_ret_uniform", in, n);
    for (size_t g = 0; g < in.size(); ++g) CHECK(got[g] == (n > 3 ? kUnset : in[g]));
  }
}

TEST_CASE("the wave ends when its last lanes return (no scalar code after)", "[control_flow][sim][return]") {
  rt::device& d = *S().dev;
  for (const char* kernel : {"cf_ret_all_loop", "cf_ret_all_if"}) {
    const bool loop = std::string(kernel) == "cf_ret_all_loop";
    // lane inputs: all lanes return (values 0..7), or lane `survivor` stays (value 12 / -1)
    for (int survivor : {-1, 0, 17, 63}) {
      std::vector<int32_t> in(64);
      for (int g = 0; g < 64; ++g) in[g] = (g * 5) & 7;
      if (survivor >= 0) in[survivor] = loop ? 12 : -1;
      rt::buffer<int32_t> I(d, in), out(d, std::vector<int32_t>(64, kUnset)), flag(d, std::vector<int32_t>{0});
      rt::kernel_args a;
      a.add(out.ptr()).add(I.ptr()).add(flag.ptr());
      check(d.launch(*S().mod, kernel, {1, 1, 1}, {64, 1, 1}, a), kernel);
      auto got = out.download();
      INFO(kernel << " survivor " << survivor);
      CHECK(flag.download()[0] == (survivor >= 0 ? 1 : 0));
      for (int g = 0; g < 64; ++g) {
        int32_t want = g == survivor ? -5 : (loop ? in[g] : kUnset);
        CHECK(got[g] == want);
      }
    }
  }
}
