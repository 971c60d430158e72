// HIPASM_TEST_KERNELS: expr_fdiv.hip
// f32 division (`a / b` on f32 operands) executed in hipasm-sim against C++ `a / b` on the
// host, bit for bit (NaN results compare as NaN), over edge values: signed zeros, +-1,
// denormals, FLT_MIN, FLT_MAX, infinities, NaN, powers of two, random values; for VGPR,
// SGPR, mixed and immediate operands. The simulator's checker must report nothing.
//
// Divisors with |b| > 2^126 get their own case: v_div_scale_f32 must pre-scale them (its
// "1/den is a denormal" test is done in f32), or the quotient rounds 1 ulp low.
// Quotients below the normal range get another (found by the difftest: 3*2^-149 / 6 = 2^-150,
// a tie that rounds to 0): v_div_scale_f32 must flag them on the exact quotient, also when it
// rounds to 0; clang's own kernel (fdiv_clang) runs beside hipasm's as an outside reference.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

std::string co_path(const char* kernels) {
  return std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_" + kernels + ".co";
}

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(co_path("expr_fdiv"));
};
sim& S() {
  static sim s;
  return s;
}

float f(uint32_t bits) { return std::bit_cast<float>(bits); }

std::vector<float> edge_values() {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, -3.0f, 7.0f, 0.1f, -1.0f / 3.0f,
                          FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -NAN,
                          f(0x00000001), f(0x80000001), f(0x00000003), f(0x007fffff), f(0x807fffff),
                          f(0x00400000), f(0x00012345), f(0x7f7ffffe), f(0x00800001), f(0x3f800001),
                          f(0x3f7fffff), f(0x7fc12345), f(0x7f800001) /* signalling */};
  for (int k = -149; k <= 127; k += 23) v.push_back(std::ldexp(1.0f, k));
  for (int k : {-126, -127, 126, 127, 64, -64}) {
    v.push_back(std::ldexp(1.0f, k));
    v.push_back(-std::ldexp(1.5f, k));
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 16; ++i) v.push_back(f(rng()));  // any bit pattern
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (int i = 0; i < 8; ++i) v.push_back(u(rng));
  return v;
}

bool same(float got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want);
}

// A divisor the simulator's v_div_scale_f32 does not pre-scale (see the top comment).
bool huge_divisor(float y) { return std::isfinite(y) && std::fabs(y) > 0x1p126f; }

void check(const std::string& kernel, bool per_lane, const std::vector<float>& a, const std::vector<float>& b,
           float (*ref)(float, float)) {
  rt::device& d = *S().dev;
  rt::buffer<float> A(d, a), B(d, b), out(d, a.size());
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr()).add(B.ptr());
  uint32_t groups = static_cast<uint32_t>(per_lane ? a.size() / 64 : a.size());
  rt::launch_report rep = d.launch(*S().m, kernel, {groups, 1, 1}, {64, 1, 1}, args);
  INFO(kernel);
  CHECK(rep.diagnostics.empty());
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  auto got = out.download();
  int bad = 0;
  int compared = 0;
  for (size_t i = 0; i < a.size() && bad < 8; ++i) {
    ++compared;
    float want = ref(a[i], b[i]);
    if (!same(got[i], want)) {
      ++bad;
      FAIL_CHECK(kernel << "(" << std::hexfloat << a[i] << " [0x" << std::hex << std::bit_cast<uint32_t>(a[i])
                        << "], " << std::hexfloat << b[i] << " [0x" << std::hex << std::bit_cast<uint32_t>(b[i])
                        << "]) = 0x" << std::bit_cast<uint32_t>(got[i]) << ", C++ says 0x"
                        << std::bit_cast<uint32_t>(want));
    }
  }
  CHECK(bad == 0);
  CHECK(compared > 0);
}

void pairs(std::vector<float>& a, std::vector<float>& b) {
  auto e = edge_values();
  for (float x : e)
    for (float y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  // random pairs: the quotient's rounding over the whole range
  std::mt19937 rng(99);
  for (int i = 0; i < 64 * 32; ++i) {
    a.push_back(f(rng()));
    b.push_back(f(rng()));
  }
  // near-overflow / underflow quotients (the scaling cases of v_div_scale)
  for (int i = 0; i < 64 * 4; ++i) {
    a.push_back(f((rng() & 0x80ffffffu) | (i % 2 ? 0x7e000000u : 0x01000000u)));
    b.push_back(f((rng() & 0x80ffffffu) | (i % 2 ? 0x00800000u : 0x7e800000u)));
  }
  while (a.size() % 64) {
    a.push_back(1.0f);
    b.push_back(3.0f);
  }
}

}  // namespace

TEST_CASE("f32 division: VGPR operands, every edge pair, bit-exact against C++", "[expr][sim][fdiv]") {
  std::vector<float> a, b;
  pairs(a, b);
  check("fdiv_vv", true, a, b, [](float x, float y) { return x / y; });
}

TEST_CASE("f32 division: SGPR and mixed operands", "[expr][sim][fdiv]") {
  auto e = edge_values();
  std::vector<float> a, b;
  for (float x : e)
    for (float y : e) {
      a.push_back(x);
      b.push_back(y);
    }
  for (const char* k : {"fdiv_ss", "fdiv_sv", "fdiv_vs"}) {
    SECTION(k) { check(k, false, a, b, [](float x, float y) { return x / y; }); }
  }
}

TEST_CASE("f32 division by and of immediates (literal 3.0f, inline 0.5f)", "[expr][sim][fdiv]") {
  auto e = edge_values();
  std::vector<float> a = e;
  std::mt19937 rng(3);
  while (a.size() % 64 || a.size() < 256) a.push_back(f(rng()));
  std::vector<float> b = a;
  SECTION("a / 3") { check("fdiv_vlit", true, a, b, [](float x, float) { return x / 3.0f; }); }
  SECTION("a / 0.5") { check("fdiv_vinl", true, a, b, [](float x, float) { return x / 0.5f; }); }
  SECTION("3 / b") { check("fdiv_litv", true, a, b, [](float, float y) { return 3.0f / y; }); }
  SECTION("0.5 / b") { check("fdiv_inlv", true, a, b, [](float, float y) { return 0.5f / y; }); }
}

TEST_CASE("f32 division by |b| > 2^126 (v_div_scale_f32 pre-scales the divisor)", "[expr][sim][fdiv]") {
  auto e = edge_values();
  std::vector<float> a, b;
  for (float x : e)
    for (float y : e)
      if (huge_divisor(y)) {
        a.push_back(x);
        b.push_back(y);
      }
  while (a.size() % 64) {
    a.push_back(1.0f);
    b.push_back(FLT_MAX);
  }
  check("fdiv_vv", true, a, b, [](float x, float y) { return x / y; });
}

// Quotients at and around the bottom of the f32 range: exact ties at 2^-150 (round to 0),
// odd multiples of 2^-150 (ties on the denormal grid), and quotients just below, at and above
// the smallest normal 2^-126, for denormal and normal numerators, every sign.
TEST_CASE("f32 division: quotients below the normal range (ties at 2^-150, around 2^-126)", "[expr][sim][fdiv]") {
  std::vector<float> a, b;
  auto push = [&](float x, float y) {
    for (float sx : {1.0f, -1.0f})
      for (float sy : {1.0f, -1.0f}) {
        a.push_back(sx * x);
        b.push_back(sy * y);
      }
  };
  for (uint32_t k = 1; k <= 40; ++k)                    // k * 2^-149 / (2k * 2^j) = 2^-150-j
    for (int j : {0, 1, 3, 20, 60}) push(f(k), std::ldexp(float(2 * k), j));
  for (uint32_t k : {1u, 3u, 5u, 7u, 99u, 1001u})       // odd k: k * 2^-150, a tie between neighbours
    for (uint32_t m : {1u, 2u, 7u, 100u}) push(f(k * m), float(2 * m));
  std::mt19937 rng(150);
  for (int i = 0; i < 256; ++i) {                        // num ~ den * 2^-126: boundary quotients
    float y = f((uint32_t(1 + rng() % 253) << 23) | (rng() & 0x7fffff));
    float x = y * 0x1p-126f;
    push(f(std::bit_cast<uint32_t>(x) + uint32_t(rng() % 5) - 2u), y);
    push(f(std::bit_cast<uint32_t>(x) | 1u), y);
  }
  const size_t n = a.size();
  for (size_t i = 0; i < n; i += 3) {  // a normal numerator in the same classes: both scaled by 2^64
    a.push_back(a[i] * 0x1p64f);
    b.push_back(b[i] * 0x1p64f);
  }
  while (a.size() % 64) {
    a.push_back(f(3));
    b.push_back(6.0f);
  }
  SECTION("hipasm") { check("fdiv_vv", true, a, b, [](float x, float y) { return x / y; }); }
  SECTION("clang") { check("fdiv_clang", true, a, b, [](float x, float y) { return x / y; }); }
}
