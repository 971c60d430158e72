// HIPASM_TEST_KERNELS: lanes_math.hip
// The lanes/math/convert/select helpers executed in hipasm-sim against plain C++ (long double
// references for the math, the ISA's lane rules for DPP/SDWA, the formats' definitions for the
// conversions), and against clang-22's own code for the same operations (ref_* kernels:
// __builtin_expf & co, the __bf16 cast) run in the same simulator. Every launch must leave the
// checker silent (no missing s_nop / s_waitcnt, no bad access).
#include "narrow_float_ref.hpp"
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(hipasm::test::code_object("lanes_math"));
};
sim& S() {
  static sim s;
  return s;
}

float F(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t B(float f) { return std::bit_cast<uint32_t>(f); }

template <class T, class O = T>
std::vector<O> run(const std::string& kernel, const std::vector<T>& in, size_t out_count, rt::dim3 grid,
                   rt::dim3 block = {64, 1, 1}) {
  rt::device& d = *S().dev;
  rt::buffer<T> A(d, in.empty() ? std::vector<T>(1) : in);
  rt::buffer<O> out(d, std::vector<O>(out_count, O{}));
  rt::kernel_args args;
  args.add(out.ptr());
  if (!in.empty()) args.add(A.ptr());
  rt::launch_report rep = d.launch(*S().m, kernel, grid, block, args);
  INFO(kernel);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << diag);
  return out.download();
}
void pad64(std::vector<float>& v) {
  while (v.size() % 64) v.push_back(1.0f);
}

// ---- math ---------------------------------------------------------------------------------
std::vector<float> math_inputs(float lo, float hi) {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 10.0f, -10.0f, F(1), F(0x80000001), F(0x007fffff),
                          F(0x807fffff), FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN, -NAN,
                          F(0x7fa00000), F(0xffffffff), -126.0f, -125.99f, -126.01f, -149.0f, -150.0f, -160.0f,
                          127.99f, 128.0f, 88.72f, 88.73f, -103.9f, -104.0f, -87.3f, 0.44f, 0.45f, 0.46f, 1e-30f,
                          -1e-30f, 1e-8f, 3.0f, 20.0f, -20.0f, 100.0f, -100.0f};
  for (int e = -149; e <= 127; ++e)
    for (float m : {1.0f, 1.37f, 1.999f}) {
      v.push_back(std::ldexp(m, e));
      v.push_back(-std::ldexp(m, e));
    }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(lo, hi);
  for (int i = 0; i < 3000; ++i) v.push_back(u(rng));
  for (int i = 0; i < 1000; ++i) v.push_back(F(rng()));
  pad64(v);
  return v;
}
// |got - ref| in ulps of the correctly rounded result (denormal spacing below FLT_MIN)
long double ulps(float got, long double ref) {
  float rf = static_cast<float>(ref);
  if (std::isinf(rf) || std::isinf(got)) return got == rf ? 0 : 1e30L;
  long double a = std::fabs(static_cast<long double>(rf));
  long double q = a < FLT_MIN ? std::ldexp(1.0L, -149) : std::ldexp(1.0L, std::ilogb(rf) - 23);
  return std::fabs(static_cast<long double>(got) - ref) / q;
}

struct math_case {
  const char* name;
  std::function<long double(long double)> ref;
  float lo, hi;  // random inputs' range
  double max_ulps;  // bound on the ulp error (results >= min_rel_mag in magnitude)
  double min_rel_mag;  // below it: absolute error <= abs_err
  double abs_err;
  bool clang_ref;  // bit-identical to clang's code in the simulator
  bool skip_denormal_inputs = false;  // math_opts::flush_denormals: the hardware reads them as 0,
                                      // the simulator (MODE keeps denormals) as they are
};

void check_math(const math_case& c) {
  auto in = math_inputs(c.lo, c.hi);
  auto got = run<float>(std::string("math_") + c.name, in, in.size(), {static_cast<uint32_t>(in.size() / 64), 1, 1});
  std::vector<float> ref_clang;
  if (c.clang_ref) ref_clang = run<float>(std::string("ref_") + c.name, in, in.size(), {static_cast<uint32_t>(in.size() / 64), 1, 1});
  long double worst = 0, worst_abs = 0;
  float worst_x = 0;
  int bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    float x = in[i];
    if (c.skip_denormal_inputs && x != 0 && std::fpclassify(x) == FP_SUBNORMAL) continue;
    long double r = c.ref(static_cast<long double>(x));
    INFO(c.name << "(" << x << " = 0x" << std::hex << B(x) << std::dec << ") = " << got[i] << " (0x" << std::hex << B(got[i])
                << std::dec << "), expected " << static_cast<double>(r));
    if (c.clang_ref && !(std::isnan(got[i]) && std::isnan(ref_clang[i])) && B(got[i]) != B(ref_clang[i]) && bad++ < 5)
      FAIL_CHECK("differs from clang's code: 0x" << std::hex << B(ref_clang[i]));
    if (std::isnan(r)) {
      if (!std::isnan(got[i]) && bad++ < 5) FAIL_CHECK("NaN expected");
      continue;
    }
    if (std::isnan(got[i])) {
      if (bad++ < 5) FAIL_CHECK("unexpected NaN");
      continue;
    }
    if (std::fabs(r) < c.min_rel_mag) {
      long double ae = std::fabs(static_cast<long double>(got[i]) - r);
      worst_abs = std::max(worst_abs, ae);
      if (ae > c.abs_err && bad++ < 5) FAIL_CHECK("absolute error " << static_cast<double>(ae));
      continue;
    }
    long double u = ulps(got[i], r);
    if (u > worst) {
      worst = u;
      worst_x = x;
    }
    if (u > c.max_ulps && bad++ < 5) FAIL_CHECK("error " << static_cast<double>(u) << " ulp");
  }
  std::printf("%-10s max error %.3f ulp (at x = %a), max absolute error below %g: %g\n", c.name,
              static_cast<double>(worst), worst_x, c.min_rel_mag, static_cast<double>(worst_abs));
}

long double sigmoid_l(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double gelu_tanh_l(long double x) {
  return 0.5L * x * (1.0L + std::tanh(std::sqrt(2.0L / 3.14159265358979323846264L) * (x + 0.044715L * x * x * x)));
}
long double gelu_erf_l(long double x) { return 0.5L * x * std::erfc(-x / std::sqrt(2.0L)); }

}  // namespace

TEST_CASE("math helpers against long double and clang's code", "[helpers][math]") {
  const math_case cases[] = {
      {"exp2", [](long double x) { return std::exp2(x); }, -160, 130, 1.0, 0, 0, true},
      {"exp", [](long double x) { return std::exp(x); }, -110, 90, 1.0, 0, 0, true},
      {"log2", [](long double x) { return std::log2(x); }, 0, 1e6f, 1.0, 0, 0, true},
      {"log", [](long double x) { return std::log(x); }, 0, 1e6f, 1.5, 0, 0, true},
      {"rcp", [](long double x) { return 1.0L / x; }, -1e3f, 1e3f, 1.0, 0, 0, false},
      {"rsqrt", [](long double x) { return 1.0L / std::sqrt(x); }, 0, 1e3f, 0.5, 0, 0, false},
      {"sigmoid", sigmoid_l, -30, 30, 16, 0x1p-20, 0x1p-38, false},
      {"silu", [](long double x) { return x * sigmoid_l(x); }, -30, 30, 16, 0x1p-20, 0x1p-38, false},
      {"tanh", [](long double x) { return std::tanh(x); }, -5, 5, 2, 0, 0, false},
      {"gelu_tanh", gelu_tanh_l, -10, 10, 40, 0x1p-20, 0x1p-38, false},
      {"gelu_erf", gelu_erf_l, -10, 10, 40, 0x1p-20, 0x1p-38, false},
      // math_opts::flush_denormals: the bare instructions; results below 2^-126 may be 0 (the
      // hardware) or exact (the simulator keeps denormals), so they are checked to within 2^-126;
      // exp's x log2(e) (log2 e rounded, then the product) is off by up to ~2^-24 |x| log2 e in the
      // exponent: <= 0.7 |x| ulp, 64 ulp at the ends of the range (measured 58)
      {"exp2_flush", [](long double x) { return std::exp2(x); }, -160, 130, 1.0, 0x1p-126, 0x1p-126, false, true},
      {"exp_flush", [](long double x) { return std::exp(x); }, -110, 90, 64, 0x1p-126, 0x1p-126, false, true},
      {"log2_flush", [](long double x) { return std::log2(x); }, 0, 1e6f, 1.0, 0, 0, false, true},
      {"log_flush", [](long double x) { return std::log(x); }, 0, 1e6f, 1.5, 0, 0, false, true},
      {"rcp_flush", [](long double x) { return 1.0L / x; }, -1e3f, 1e3f, 1.0, 0x1p-126, 0x1p-126, false, true},
      // math_opts::absolute_error (tanh's one formula): every result checked to an absolute 2^-22
      {"tanh_absolute", [](long double x) { return std::tanh(x); }, -12, 12, 0, 2, 0x1p-22, false},
  };
  for (const auto& c : cases) {
    SECTION(c.name) { check_math(c); }
  }
}

// ---- reductions ---------------------------------------------------------------------------
namespace {
enum class red { sum, max, min };
enum class ty { f32, i32, u32 };
uint32_t combine(red r, ty t, uint32_t a, uint32_t b) {
  if (t == ty::f32) {
    float x = F(a), y = F(b);
    return B(r == red::sum ? x + y : r == red::max ? std::fmax(x, y) : std::fmin(x, y));
  }
  if (r == red::sum) return a + b;
  if (t == ty::i32) {
    int32_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
    return static_cast<uint32_t>(r == red::max ? std::max(x, y) : std::min(x, y));
  }
  return r == red::max ? std::max(a, b) : std::min(a, b);
}
// the reduction of in[first, first+count) over lanes where active(lane)
uint32_t reduce_ref(red r, ty t, const std::vector<uint32_t>& in, size_t first, size_t count,
                    const std::function<bool(size_t)>& active) {
  bool any = false;
  uint32_t acc = 0;
  for (size_t i = first; i < first + count; ++i) {
    if (!active(i)) continue;
    acc = any ? combine(r, t, acc, in[i]) : in[i];
    any = true;
  }
  return acc;
}
std::vector<uint32_t> red_inputs(ty t, red r, int seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(256);
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == ty::f32) {
      // sums: integers (exact in any order); max/min: distinct values of every sign and size
      v[i] = r == red::sum ? B(static_cast<float>(static_cast<int>(rng() % 2001) - 1000))
                           : B(std::ldexp(static_cast<float>(static_cast<int>(rng() % 20001) - 10000), static_cast<int>(rng() % 40) - 20));
    } else {
      v[i] = rng();
    }
  }
  if (t == ty::f32 && r != red::sum) {
    v[5] = B(NAN);     // IEEE max/min ignore a quiet NaN
    v[70] = B(-INFINITY);
    v[140] = B(INFINITY);
    v[200] = B(F(1));  // a denormal
  }
  if (t == ty::i32 || t == ty::u32) {
    v[3] = 0x80000000u;
    v[66] = 0x7fffffffu;
    v[130] = 0;
    v[199] = 0xffffffffu;
  }
  return v;
}
bool same(ty t, uint32_t a, uint32_t b) { return t == ty::f32 ? (F(a) == F(b) || (std::isnan(F(a)) && std::isnan(F(b)))) : a == b; }

void check_red(red r, ty t, const std::string& mode, int width) {
  const char* rn = r == red::sum ? "sum" : r == red::max ? "max" : "min";
  const char* tn = t == ty::f32 ? "f32" : t == ty::i32 ? "i32" : "u32";
  std::string k = std::string("red_") + rn + "_" + tn + "_" + mode;
  auto in = red_inputs(t, r, width + static_cast<int>(mode.size()));
  bool wg = mode == "wg";
  std::vector<float> fin(in.size());
  for (size_t i = 0; i < in.size(); ++i) fin[i] = F(in[i]);
  auto got = run<float, uint32_t>(k, fin, 2 * 256 * 64, wg ? rt::dim3{1, 1, 1} : rt::dim3{4, 1, 1},
                                   wg ? rt::dim3{256, 1, 1} : rt::dim3{64, 1, 1});
  auto all = [](size_t) { return true; };
  std::function<bool(size_t)> act = all;
  if (mode.find("partial") != std::string::npos) act = [](size_t i) { return i % 64 % 3 != 0; };
  if (mode.back() == 'p') act = [](size_t i) { return i % 64 % 5 != 2; };
  int span = wg ? 256 : width;
  int bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    size_t first = i / span * span;
    uint32_t want = act(i) ? reduce_ref(r, t, in, first, span, act) : in[i];
    if (!same(t, got[i], want) && bad++ < 5) FAIL_CHECK(k << " lane " << i << ": got 0x" << std::hex << got[i] << " want 0x" << want);
    if (mode == "pair") {
      std::vector<uint32_t> in3(in.size());
      for (size_t j = 0; j < in.size(); ++j) in3[j] = t == ty::f32 ? B(F(in[j]) * 3.0f) : in[j] * 3;
      uint32_t want3 = reduce_ref(r, t, in3, first, span, act);
      if (!same(t, got[256 * 64 + i], want3) && bad++ < 5)
        FAIL_CHECK(k << " second value, lane " << i << ": got 0x" << std::hex << got[256 * 64 + i] << " want 0x" << want3);
    }
  }
}
}  // namespace

TEST_CASE("wave, group and workgroup reductions, full and partial EXEC", "[helpers][lanes]") {
  for (ty t : {ty::f32, ty::i32, ty::u32}) {
    for (red r : {red::sum, red::max, red::min}) {
      check_red(r, t, "wave", 64);
      check_red(r, t, "wave_partial", 64);
      check_red(r, t, "wg", 256);
    }
    check_red(red::sum, t, "all", 64);
    check_red(red::max, t, "all", 64);
    check_red(red::sum, t, "pair", 64);
    check_red(red::max, t, "pair", 64);
    check_red(red::sum, t, "g2", 2);
    check_red(red::max, t, "g4", 4);
    check_red(red::min, t, "g8", 8);
    check_red(red::sum, t, "g16", 16);
    check_red(red::max, t, "g32", 32);
    check_red(red::sum, t, "g32", 32);
    check_red(red::max, t, "g16p", 16);
    check_red(red::sum, t, "g32p", 32);
    check_red(red::min, t, "g4p", 4);
  }
}

TEST_CASE("workgroup_reduce in a 2-D workgroup", "[helpers][lanes]") {
  auto in = red_inputs(ty::i32, red::sum, 99);
  std::vector<float> fin(in.size());
  uint32_t sum = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    fin[i] = F(in[i]);
    sum += in[i];
  }
  auto got = run<float, uint32_t>("wg2d", fin, 256, {1, 1, 1}, {16, 16, 1});
  for (size_t i = 0; i < 256; ++i) CHECK(got[i] == sum);
}

TEST_CASE("xor_reduce over lane-index bits, shuffle_xor", "[helpers][lanes]") {
  struct xc {
    const char* name;
    red r;
    ty t;
    uint32_t bits;
    bool partial;
  };
  const xc cases[] = {{"sum_i32_30", red::sum, ty::i32, 0x30, false}, {"max_f32_30p", red::max, ty::f32, 0x30, true},
                      {"sum_u32_20", red::sum, ty::u32, 0x20, false}, {"min_i32_0c", red::min, ty::i32, 0x0c, false},
                      {"sum_f32_11p", red::sum, ty::f32, 0x11, true}, {"max_u32_24", red::max, ty::u32, 0x24, false},
                      {"sum_i32_3e", red::sum, ty::i32, 0x3e, false}, {"max_f32_07", red::max, ty::f32, 0x07, false}};
  for (const xc& c : cases) {
    auto in = red_inputs(c.t, c.r, static_cast<int>(c.bits));
    std::vector<float> fin(in.size());
    for (size_t i = 0; i < in.size(); ++i) fin[i] = F(in[i]);
    auto got = run<float, uint32_t>(std::string("xr_") + c.name, fin, 256, {4, 1, 1});
    auto active = [&](size_t i) { return !c.partial || i % 64 % 7 != 3; };
    for (size_t i = 0; i < 256; ++i) {
      size_t w = i / 64 * 64, l = i % 64;
      bool any = false;
      uint32_t acc = 0;
      for (size_t j = 0; j < 64; ++j)
        if ((j & ~c.bits) == (l & ~c.bits) && active(w + j)) {
          acc = any ? combine(c.r, c.t, acc, in[w + j]) : in[w + j];
          any = true;
        }
      uint32_t want = active(i) ? acc : in[i];
      INFO(c.name << " lane " << i);
      CHECK(same(c.t, got[i], want));
    }
  }
  for (uint32_t m : {1u, 2u, 3u, 4u, 7u, 8u, 15u, 16u, 31u, 32u, 48u, 63u}) {
    auto got = run<float, uint32_t>("shx_" + std::to_string(m), {}, 64, {1, 1, 1});
    for (uint32_t l = 0; l < 64; ++l) {
      INFO("mask " << m << " lane " << l);
      CHECK(got[l] == (l ^ m) * 5 + 3);
    }
  }
  for (uint32_t m : {1u, 3u, 4u, 8u, 15u}) {
    auto got = run<float, uint32_t>("shx_lds_" + std::to_string(m), {}, 64, {1, 1, 1});
    for (uint32_t l = 0; l < 64; ++l) {
      INFO("mask " << m << " through LDS, lane " << l);
      CHECK(got[l] == (l ^ m) * 5 + 3);
    }
  }
  // {.wait = false}: several exchanges in flight, one wait by the caller
  auto got = run<float, uint32_t>("shx_batch", {}, 64, {1, 1, 1});
  for (uint32_t l = 0; l < 64; ++l) {
    INFO("batched, lane " << l);
    CHECK(got[l] == ((l ^ 8) * 5 + 3) * 10000 + ((l ^ 16) * 5 + 3) * 100 + (l ^ 33) * 5 + 3);
  }
  // 520 chained DPP-pair exchanges: y[l] += y[l ^ 4 or 8] (mod 2^32)
  std::vector<uint32_t> y(64);
  for (uint32_t l = 0; l < 64; ++l) y[l] = l * 5 + 3;
  for (int i = 0; i < 520; ++i) {
    std::vector<uint32_t> n(64);
    for (uint32_t l = 0; l < 64; ++l) n[l] = y[l] + y[l ^ (i % 2 ? 8u : 4u)];
    y = n;
  }
  auto chain = run<float, uint32_t>("shx_chain", {}, 64, {1, 1, 1});
  for (uint32_t l = 0; l < 64; ++l) {
    INFO("chain, lane " << l);
    CHECK(chain[l] == y[l]);
  }
}

// ---- DPP / SDWA by name -------------------------------------------------------------------
TEST_CASE("named DPP controls move lanes as the ISA defines", "[helpers][dpp]") {
  // source lane of lane l for each control, -1: none
  auto src = [](int k, int l) -> int {
    int row = l & ~15, i = l & 15;
    switch (k) {
      case 0: { const int s[4] = {3, 1, 0, 2}; return (l & ~3) + s[l & 3]; }
      case 1: return i + 3 < 16 ? l + 3 : -1;
      case 2: return i >= 5 ? l - 5 : -1;
      case 3: return row + ((i - 7) & 15);
      case 4: return l + 1 < 64 ? l + 1 : -1;
      case 5: return l - 1;
      case 6: return (l + 1) % 64;
      case 7: return (l + 63) % 64;
      case 8: return row + 15 - i;
      case 9: return (l & ~7) + 7 - (l & 7);
      case 10: return row > 0 ? row - 1 : -1;
      default: return l >= 32 ? 31 : -1;
    }
  };
  for (int k = 0; k < 12; ++k) {
    auto got = run<float, uint32_t>("dpp_" + std::to_string(k), {}, 4 * 64 * 2, {1, 1, 1});
    for (int l = 0; l < 64; ++l) {
      auto x = [](int j) { return static_cast<uint32_t>(j * 7 + 100); };
      int s = src(k, l);
      INFO("control " << k << " lane " << l);
      CHECK(got[l] == (s < 0 ? 0u : x(s)));
      bool written = ((0x5 >> (l / 16)) & 1) && ((0xa >> ((l & 15) / 4)) & 1) && s >= 0;
      CHECK(got[64 + l] == (written ? x(s) + x(l) : 5u));
    }
  }
  auto got = run<float, uint32_t>("sdwa_named", {}, 128, {1, 1, 1});
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t x = l * 0x01030507u + 0x80u;
    CHECK(got[l] == ((0x31234u & ~0xff00u) | (((x >> 16) & 0xffu) << 8)));
    CHECK(got[64 + l] == static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(x >> 16))));
  }
}

// ---- conditions, select, max3/min3, mul_wide ------------------------------------------------
TEST_CASE("conditions as values, && || !, select, max3/min3, mul_wide", "[helpers][select]") {
  std::vector<int32_t> a(256), b(256);
  std::mt19937 rng(3);
  const int32_t edge[] = {0, 1, -1, 5, 6, 4, 7, INT_MIN, INT_MAX, -3, 3, 10, 9};
  for (int i = 0; i < 256; ++i) {
    a[i] = i < 169 ? edge[i % 13] : static_cast<int32_t>(rng());
    b[i] = i < 169 ? edge[i / 13] : (i % 4 == 0 ? a[i] : static_cast<int32_t>(rng() % 21) - 10);
  }
  for (int32_t n : {4, 7, 3, 10, -2, 9}) {
    rt::device& d = *S().dev;
    rt::buffer<int32_t> A(d, a), Bv(d, b), out(d, std::vector<int32_t>(12 * 256 + 12, 0));
    rt::kernel_args args;
    args.add(out.ptr()).add(A.ptr()).add(Bv.ptr()).add(n);
    auto rep = d.launch(*S().m, "cond_sel", {4, 1, 1}, {64, 1, 1}, args);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
    auto r = out.download();
    bool un = n > 3 && n < 10;
    for (int i = 0; i < 256; ++i) {
      int32_t x = a[i], y = b[i];
      INFO("n " << n << " a " << x << " b " << y);
      CHECK(r[0 * 256 + i] == (((x < y && x != 0) || !(y > 5 || x == n)) ? 1 : 0));
      CHECK(r[1 * 256 + i] == (x < y ? x : y));
      CHECK(r[2 * 256 + i] == (x >= n ? x : 77));
      CHECK(r[3 * 256 + i] == (un ? x : y));
      CHECK(r[4 * 256 + i] == (un ? 11 : 22));
      CHECK(r[5 * 256 + i] == ((n == 4 || n == 7) ? 1 : 0));
      CHECK(r[6 * 256 + i] == std::max({x, y, n}));
      CHECK(r[7 * 256 + i] == std::min({x, y, -3}));
      int64_t p = static_cast<int64_t>(x) * y;
      CHECK(r[8 * 256 + i] == static_cast<int32_t>(static_cast<uint64_t>(p)));
      CHECK(r[9 * 256 + i] == static_cast<int32_t>(static_cast<uint64_t>(p) >> 32));
      uint64_t q = static_cast<uint64_t>(static_cast<uint32_t>(x)) * static_cast<uint32_t>(y);
      CHECK(r[10 * 256 + i] == static_cast<int32_t>(q >> 32));
      CHECK(r[11 * 256 + i] == ((x > 0 && (y < n || x == y)) ? 1 : 2));
    }
    for (int g = 0; g < 4; ++g) {
      int64_t p = static_cast<int64_t>(n) * -5;
      CHECK(r[12 * 256 + g * 3] == static_cast<int32_t>(static_cast<uint64_t>(p)));
      CHECK(r[12 * 256 + g * 3 + 1] == static_cast<int32_t>(static_cast<uint64_t>(p) >> 32));
      CHECK(r[12 * 256 + g * 3 + 2] == std::max({n, 3, -2}));
    }
  }
}

TEST_CASE("lane_id, wave_id, readlane, readfirstlane", "[helpers][lanes]") {
  auto got = run<float, uint32_t>("ids", {}, 512 * 4, {2, 1, 1}, {256, 1, 1});
  for (uint32_t t = 0; t < 512; ++t) {
    uint32_t tid = t % 256, wave = tid / 64;
    INFO("thread " << t);
    CHECK(got[t * 4 + 0] == t % 64);
    CHECK(got[t * 4 + 1] == wave);
    CHECK(got[t * 4 + 2] == (wave * 64 + 5) * 3 + 1);
    CHECK(got[t * 4 + 3] == wave * 64 * 3 + 1);
  }
  auto g2 = run<float, uint32_t>("ids2d", {}, 128 * 2, {1, 1, 1}, {16, 8, 1});
  for (uint32_t t = 0; t < 128; ++t) {
    CHECK(g2[t * 2] == t % 64);
    CHECK(g2[t * 2 + 1] == t / 64);
  }
}

TEST_CASE("transpose_per_lane of 4-, 2- and 1-byte elements", "[helpers][lanes]") {
  for (int bytes : {4, 2, 1}) {
    const int R = bytes == 4 ? 2 : bytes == 2 ? 4 : 8, C = bytes == 4 ? 3 : bytes == 2 ? 6 : 8, N = R * C * bytes / 4;
    auto got = run<float, uint32_t>("transpose" + std::to_string(bytes), {}, 64 * N, {1, 1, 1});
    for (uint32_t l = 0; l < 64; ++l) {
      std::vector<uint8_t> s(N * 4), d(N * 4);
      for (int k = 0; k < N; ++k) {
        uint32_t v = l * 0x01010101u + static_cast<uint32_t>(k) * 0x04030201u + 0x10203040u;
        for (int j = 0; j < 4; ++j) s[k * 4 + j] = static_cast<uint8_t>(v >> (8 * j));
      }
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
          for (int j = 0; j < bytes; ++j) d[(c * R + r) * bytes + j] = s[(r * C + c) * bytes + j];
      for (int k = 0; k < N; ++k) {
        uint32_t want = d[k * 4] | d[k * 4 + 1] << 8 | d[k * 4 + 2] << 16 | static_cast<uint32_t>(d[k * 4 + 3]) << 24;
        INFO("bytes " << bytes << " lane " << l << " dword " << k);
        CHECK(got[l * N + k] == want);
      }
    }
  }
}

// ---- conversions --------------------------------------------------------------------------
namespace {
uint16_t bf16_rne(float x) {
  uint32_t b = B(x);
  if (std::isnan(x)) return static_cast<uint16_t>((b >> 16) | 0x40);
  return static_cast<uint16_t>((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}
uint32_t f16_bits(float x) { return std::bit_cast<uint16_t>(static_cast<_Float16>(x)); }
}  // namespace

TEST_CASE("f32 to bf16 / f16 / fp8 / bf8 and back", "[helpers][convert]") {
  // fp8 / bf8 in the target's formats (gfx942 e4m3fnuz / e5m2fnuz, gfx950 OCP e4m3fn / e5m2)
  const hipasm::test::f8_formats F8 = hipasm::test::f8_formats_of(hipasm::test::test_arch());
  auto fp8_ref = [&](float v, bool sat) { return hipasm::test::encode(F8.fp8, v, sat); };
  auto bf8_ref = [&](float v, bool sat) { return hipasm::test::encode(F8.bf8, v, sat); };
  auto fp8_back = [&](float v) { return static_cast<float>(hipasm::test::decode(F8.fp8, fp8_ref(v, true))); };
  auto bf8_back = [&](float v) { return static_cast<float>(hipasm::test::decode(F8.bf8, bf8_ref(v, true))); };
  std::vector<float> in = {0.0f, -0.0f, 1.0f, -1.0f, F(0x3f808000), F(0x3f818000), F(0x3f808001), F(0x3f807fff),
                           F(0x7f7f8000), F(0x7f7fffff), INFINITY, -INFINITY, NAN, F(0x7f800001), F(0x7fffffff),
                           F(0xff800001), F(1), F(0x00008000), F(0x00018000), FLT_MIN, 240.0f, 241.0f, 247.9f, 248.0f,
                           250.0f, 256.0f, 1e6f, -1e6f, 57344.0f, 61439.0f, 61440.0f, 65504.0f, 65520.0f, 1e-3f,
                           0.0009765625f, 0.001953125f, F(0x3b000000), 3.14159f, -2.71828f, 448.0f, 1e-10f,
                           // ties: f16 (1 + 2^-11, 1 + 3 * 2^-11), fp8 (1 + 1/16, 1 + 3/16), bf8 (1 + 1/8, 1 + 3/8)
                           F(0x3f801000), F(0x3f803000), 1.0625f, 1.1875f, -1.0625f, 1.125f, 1.375f, -1.375f};
  // the subnormal ranges of every format here (smallest subnormal: e4m3fn 2^-9, e4m3fnuz 2^-10,
  // e5m2 2^-16, e5m2fnuz 2^-17) in eighths of it, both signs: nearest even throughout
  for (const int min_sub : {-9, -10, -16, -17})
    for (int k = 1; k <= 72; ++k)
      for (const float sgn : {1.0f, -1.0f}) in.push_back(sgn * std::ldexp(float(k), min_sub - 3));
  std::mt19937 rng(11);
  for (int i = 0; i < 600; ++i) in.push_back(F(rng()));
  std::uniform_real_distribution<float> u(-300, 300);
  for (int i = 0; i < 400; ++i) in.push_back(u(rng));
  pad64(in);
  const size_t n = in.size();
  REQUIRE(n <= 4096);
  auto got = run<float, uint32_t>("cvt", in, 22 * 4096, {static_cast<uint32_t>(n / 64), 1, 1});
  auto clang_bf16 = run<float>("ref_bf16", in, n, {static_cast<uint32_t>(n / 64), 1, 1});
  const size_t R = 4096;  // the kernel's rows of results
  for (size_t i = 0; i < n; ++i) {
    float x = in[i], y = -x, h = x * 0.75f, q = x * 0.01f;
    INFO("x = " << x << " (0x" << std::hex << B(x) << ")");
    uint32_t bx = bf16_rne(x), by = bf16_rne(y);
    CHECK(got[0 * R + i] == (bx | by << 16));
    CHECK(bx == B(clang_bf16[i]));  // the reference formula is clang's __bf16 cast
    CHECK(got[1 * R + i] == (f16_bits(x) | f16_bits(h) << 16));
    auto pack = [&](bool bf8, bool sat) {
      auto c = [&](float v) { return bf8 ? bf8_ref(v, sat) : fp8_ref(v, sat); };
      return c(x) | c(y) << 8 | c(h) << 16 | c(q) << 24;
    };
    CHECK(got[2 * R + i] == pack(false, true));
    CHECK(got[3 * R + i] == pack(false, false));
    CHECK(got[4 * R + i] == pack(true, true));
    CHECK(got[5 * R + i] == pack(true, false));
    CHECK(got[6 * R + i] == bx);
    if (!std::isnan(x)) CHECK(got[12 * R + i] == (bx | by << 16));
    auto away = [](float v) { return (B(v) + 0x8000u) >> 16; };
    if (std::isfinite(x)) CHECK(got[13 * R + i] == (away(x) | away(y) << 16));
    float back = F(by << 16);
    CHECK((B(F(got[7 * R + i])) == B(back)));
    CHECK((got[8 * R + i] == B(static_cast<float>(static_cast<_Float16>(x))) || (std::isnan(x) && std::isnan(F(got[8 * R + i])))));
    CHECK((got[9 * R + i] == B(static_cast<float>(static_cast<_Float16>(h))) || (std::isnan(h) && std::isnan(F(got[9 * R + i])))));
    float d8 = fp8_back(h), e8 = bf8_back(y);
    CHECK((got[10 * R + i] == B(d8) || (std::isnan(d8) && std::isnan(F(got[10 * R + i])))));
    CHECK((got[11 * R + i] == B(e8) || (std::isnan(e8) && std::isnan(F(got[11 * R + i])))));
    // to_f32x2: fp8x4(x, y, h, x) word 1 = (h, x); bf8x4(x, y, h, x) word 0 = (x, y)
    const float pk[4] = {fp8_back(h), fp8_back(x), bf8_back(x), bf8_back(y)};
    for (int k = 0; k < 4; ++k)
      CHECK((got[(14 + k) * R + i] == B(pk[k]) || (std::isnan(pk[k]) && std::isnan(F(got[(14 + k) * R + i])))));
    // to_bf16x4: the values of (x, y, h, x) as fp8 and as bf8, exact in bf16 (a NaN: a bf16 NaN)
    const float in4[4] = {x, y, h, x};
    for (int f = 0; f < 2; ++f)
      for (int k = 0; k < 4; ++k) {
        const float want = f == 0 ? fp8_back(in4[k]) : bf8_back(in4[k]);
        const uint32_t half = got[(18 + 2 * f + k / 2) * R + i] >> (16 * (k % 2)) & 0xffffu;
        CHECK(((half << 16 == B(want)) || (std::isnan(want) && std::isnan(F(half << 16)))));
      }
  }
}
