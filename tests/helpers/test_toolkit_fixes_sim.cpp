// HIPASM_TEST_KERNELS: toolkit_fixes.hip
// select with a constant or a unary expression in either position (before: no matching
// overload), and shuffle_xor_into (into a given register: a fresh one, the second slot of an
// aligned pair, in place), max3/min3 with -x / abs(x) operands (before: abs first did not
// compile, elsewhere it cost a v_and_b32 each; now source modifiers, checked in the asm),
// cvt_i8x4 (nearest even, saturated, NaN -> -128), executed in hipasm-sim against plain C++.
// The checker must report nothing.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include "toolkit_fixes_fns.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {
std::unique_ptr<rt::module> load(rt::device& d) {
  return d.load_file(hipasm::test::code_object("toolkit_fixes"));
}
uint32_t B(float f) { return std::bit_cast<uint32_t>(f); }
}  // namespace

TEST_CASE("select takes constants and unary expressions in either position", "[helpers][select]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  std::vector<float> xs(256), ys(256);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -3.25f, 1e20f, -1e20f};
  for (int i = 0; i < 256; ++i) {
    xs[i] = i < 64 ? edge[i % 8] : u(rng);
    ys[i] = i < 64 ? edge[i / 8] : (i % 5 == 0 ? xs[i] : u(rng));
  }
  for (int n : {2, 4, 5, 9}) {
    rt::buffer<float> X(*dev, xs), Y(*dev, ys), out(*dev, std::vector<float>(6 * 256, 0.0f));
    rt::kernel_args args;
    args.add(out.ptr()).add(X.ptr()).add(Y.ptr()).add(n);
    auto rep = dev->launch(*mod, "select_expr", {4, 1, 1}, {64, 1, 1}, args);
    for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
    auto r = out.download();
    int bad = 0;
    for (int i = 0; i < 256 && bad < 8; ++i) {
      float x = xs[i], y = ys[i];
      const float want[6] = {x < y ? 0.0f : -(x * y),
                             x < y ? -(x * y) : 1.5f,
                             x > 0.0f ? std::fabs(y) : x,
                             y > x ? -x : -y,
                             n > 3 ? 2.0f : -y,
                             n < 5 ? std::bit_cast<float>(-n) : x};
      for (int k = 0; k < 6; ++k)
        if (B(r[k * 256 + i]) != B(want[k])) {
          ++bad;
          FAIL_CHECK("n=" << n << " i=" << i << " k=" << k << " x=" << x << " y=" << y << " got " << r[k * 256 + i]
                          << " want " << want[k]);
        }
    }
  }
}

TEST_CASE("select of two constants takes their C++ type's dtype", "[helpers][select]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  std::vector<float> xs(256);
  for (int i = 0; i < 256; ++i) xs[i] = (i % 3 == 0 ? -1.0f : 1.0f) * static_cast<float>(i % 7);
  for (int n : {4, 5}) {
    rt::buffer<float> X(*dev, xs);
    rt::buffer<uint32_t> out(*dev, std::vector<uint32_t>(4 * 256, 0));
    rt::kernel_args args;
    args.add(out.ptr()).add(X.ptr()).add(n);
    auto rep = dev->launch(*mod, "select_constants", {4, 1, 1}, {64, 1, 1}, args);
    for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
    auto r = out.download();
    int bad = 0;
    for (int i = 0; i < 256 && bad < 8; ++i) {
      const bool neg = xs[i] < 0.0f;
      const uint32_t want[4] = {neg ? 1u : 2u, static_cast<uint32_t>(neg ? -3 : 4), B(neg ? 0.5f : 2.5f),
                                n < 5 ? 7u : 9u};
      for (int k = 0; k < 4; ++k)
        if (r[k * 256 + i] != want[k]) {
          ++bad;
          FAIL_CHECK("n=" << n << " i=" << i << " k=" << k << " got " << r[k * 256 + i] << " want " << want[k]);
        }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("shuffle_xor_into writes into a given register, a pair slot, or in place", "[helpers][lanes]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  const uint32_t masks[] = {1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63};
  rt::buffer<uint32_t> out(*dev, std::vector<uint32_t>(33 * 256, 0));
  rt::kernel_args args;
  args.add(out.ptr());
  auto rep = dev->launch(*mod, "shuffle_into", {4, 1, 1}, {64, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
  auto r = out.download();
  int bad = 0;
  for (int m = 0; m < 11; ++m)
    for (uint32_t p = 0; p < 256 && bad < 8; ++p) {
      const uint32_t g = p / 64, lane = p % 64, src = lane ^ masks[m];
      const uint32_t want = g * 1000u + src * 7u + 3u;
      for (int j = 0; j < 3; ++j)
        if (r[(m * 3 + j) * 256 + p] != want) {
          ++bad;
          FAIL_CHECK("mask " << masks[m] << " form " << j << " p " << p << " got " << r[(m * 3 + j) * 256 + p]
                             << " want " << want);
        }
    }
}

TEST_CASE("buffers assigned into default-constructed ones (an array) and rebound", "[helpers][buffer]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  std::vector<float> a(256), b(256), c(256);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (int i = 0; i < 256; ++i) {
    a[i] = u(rng);
    b[i] = u(rng);
    c[i] = u(rng);
  }
  rt::buffer<float> A(*dev, a), Bv(*dev, b), C(*dev, c), out(*dev, std::vector<float>(512, 0.0f));
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr()).add(Bv.ptr()).add(C.ptr());
  auto rep = dev->launch(*mod, "buffer_array", {4, 1, 1}, {64, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
  auto r = out.download();
  int bad = 0;
  for (int p = 0; p < 256 && bad < 8; ++p) {
    const float prod = a[p] * b[p];  // (two statements: no fma contraction; the kernel rounds twice)
    const float want = prod + c[p];
    if (B(r[p]) != B(want) || B(r[256 + p]) != B(c[p])) {
      ++bad;
      FAIL_CHECK("p " << p << " got " << r[p] << ", " << r[256 + p] << " want " << want << ", " << c[p]);
    }
  }
}

namespace {
int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("max3/min3 take -x and abs(x) as source modifiers", "[helpers][select]") {
  const std::string text = hipasm::asm_text<tf::minmax3_mods>("k", hipasm::emit_options{false});
  INFO(text);
  CHECK(count(text, "v_max3_f32") == 3);
  CHECK(count(text, "v_min3_f32") == 2);
  CHECK(count(text, "v_and_b32") == 0);  // abs: a modifier, not a mask
  CHECK(count(text, "v_xor_b32") == 0);  // neg: a modifier
  CHECK(count(text, "|v") >= 5);

  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  std::vector<float> xs(256), ys(256), zs(256);
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -3.25f, 1e20f, -INFINITY};
  for (int i = 0; i < 256; ++i) {
    xs[i] = i < 64 ? edge[i % 8] : u(rng);
    ys[i] = i < 64 ? edge[i / 8] : u(rng);
    zs[i] = i < 64 ? edge[(i * 3) % 8] : u(rng);
  }
  rt::buffer<float> X(*dev, xs), Y(*dev, ys), Z(*dev, zs), out(*dev, std::vector<float>(5 * 256, 0.0f));
  rt::kernel_args args;
  args.add(out.ptr()).add(X.ptr()).add(Y.ptr()).add(Z.ptr());
  auto rep = dev->launch(*mod, "minmax3_mods", {4, 1, 1}, {64, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
  auto r = out.download();
  int bad = 0;
  for (int i = 0; i < 256 && bad < 8; ++i) {
    const float x = xs[i], y = ys[i], z = zs[i];
    const float want[5] = {std::max({std::fabs(x), std::fabs(y), z}), std::max({z, std::fabs(x), -y}),
                           std::min({-std::fabs(x), y, 1.5f}), std::min({-x, -y, -z}),
                           std::max({std::fabs(x), 0.0f, -std::fabs(z)})};
    for (int k = 0; k < 5; ++k)
      if (r[k * 256 + i] != want[k]) {  // (== : the signs of zero may differ, the values not)
        ++bad;
        FAIL_CHECK("i=" << i << " k=" << k << " x=" << x << " y=" << y << " z=" << z << " got " << r[k * 256 + i]
                        << " want " << want[k]);
      }
  }
}

TEST_CASE("cvt_i8x4: nearest even, saturated to [-128, 127], NaN -> -128", "[helpers][convert]") {
  const std::string text = hipasm::asm_text<tf::cvt_i8>("k", hipasm::emit_options{false});
  INFO(text);
  CHECK(count(text, "v_med3_f32") == 4);
  CHECK(count(text, "_sdwa") == 4);  // the adds write their bytes in place: no packing
  CHECK(count(text, "v_perm_b32") == 0);

  auto dev = rt::device::open(rt::backend::sim);
  auto mod = load(*dev);
  std::vector<float> xs = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, 126.5f, 127.49f, 127.5f,
                           -127.5f, -128.5f, -129.0f, 200.0f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN, -NAN,
                           FLT_MIN, 42.0f, -43.0f, 85.5f, -42.75f, 3.0f};
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-200.0f, 200.0f);
  while (xs.size() < 256) xs.push_back(xs.size() % 3 ? u(rng) : std::round(u(rng) * 2) / 2);  // many ties
  rt::buffer<float> X(*dev, xs);
  rt::buffer<uint32_t> out(*dev, std::vector<uint32_t>(256, 0));
  rt::kernel_args args;
  args.add(out.ptr()).add(X.ptr());
  auto rep = dev->launch(*mod, "cvt_i8", {4, 1, 1}, {64, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
  auto r = out.download();
  auto i8 = [](float v) -> uint32_t {
    if (std::isnan(v)) return 0x80;
    const float c = std::min(127.0f, std::max(-128.0f, v));
    return static_cast<uint8_t>(static_cast<int8_t>(std::nearbyint(c)));  // ties to even (default mode)
  };
  for (int i = 0; i < 256; ++i) {
    const float x = xs[i], h = x * 0.5f, t = x * 3.0f;
    const uint32_t want = i8(x) | i8(-x) << 8 | i8(h) << 16 | i8(t) << 24;
    INFO("x = " << x);
    CHECK(r[i] == want);
  }
}

TEST_CASE("lane_mask of a comparison is its own mask (no copy)", "[helpers][exec_mask]") {
  const std::string text = hipasm::asm_text<tf::lane_mask_own>("k", hipasm::emit_options{false});
  INFO(text);
  CHECK(count(text, "v_cmp_eq_f32") == 1);
  CHECK(count(text, "s_mov_b64") == 0);
  CHECK(count(text, "v_cndmask_b32") == 1);
}
