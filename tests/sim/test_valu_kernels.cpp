// End-to-end VALU/MFMA checks: clang-22 -O3 kernels (tests/sim/valu/valu_kernels.hip) run in
// the simulator through the rt::device launcher; results are compared with plain C++ on
// the host (IEEE operations bit for bit, fp8 from the format definition, matrices from the
// documented layouts in valu/mfma_layout.hpp). Every launch must leave the checker silent.
#include <catch2/catch.hpp>
#include <hipasm/rt/launcher.hpp>

#include <bit>
#include <cmath>
#include <memory>
#include <random>

#include "valu/mfma_layout.hpp"

using namespace hipasm::rt;

namespace {

device* dev() {
  static std::unique_ptr<device> d = device::open();
  return d.get();
}
module& mod() {
  static std::unique_ptr<module> m = dev()->load_file(std::string(HIPASM_SIM_TEST_DIR) + "/simvalu_kernels.co");
  return *m;
}
void launch(const char* kernel, uint32_t grid, uint32_t block, const kernel_args& args) {
  launch_report rep = dev()->launch(mod(), kernel, {grid}, {block}, args);
  std::string diags;
  for (auto& d : rep.diagnostics) diags += d + "\n";
  INFO(diags);
  REQUIRE(rep.diagnostics.empty());
}
#define REQUIRE_DEVICE()                                        \
  if (!dev()) {                                                 \
    WARN("no device for the selected HIPASM_BACKEND: skipped"); \
    return;                                                     \
  }

std::vector<float> floats(size_t n, uint32_t seed) {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 3.0f, 0.1f, 1e-40f, -3e-39f, 1e30f, -7.5f, 65504.0f, 1e-8f,
                          INFINITY, -INFINITY, NAN, 2.5f, 123456.789f, 3.4e38f, 1.17549435e-38f, 0.5f};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> e(-40.0f, 40.0f), sg(-1.0f, 1.0f);
  while (v.size() < n) v.push_back(std::copysign(std::exp2(e(rng)), sg(rng)));
  v.resize(n);
  return v;
}
bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

}  // namespace

TEST_CASE("clang's f32 division, sqrt, fma, min, rounding and med3 are exact", "[valu][kernel]") {
  REQUIRE_DEVICE();
  const uint32_t n = 300;
  auto a = floats(n, 1), b = floats(n, 2);
  std::rotate(b.begin(), b.begin() + 7, b.end());
  buffer<float> da(*dev(), a), db(*dev(), b), out(*dev(), n * 6);
  kernel_args args;
  args.add(da.addr()).add(db.addr()).add(out.addr()).add(n);
  launch("k_float_ops", (n + 63) / 64, 64, args);
  auto o = out.download();
  for (uint32_t i = 0; i < n; ++i) {
    float x = a[i], y = b[i];
    INFO("x=" << x << " y=" << y);
    CHECK(same(o[i * 6 + 0], x / y));
    CHECK(same(o[i * 6 + 1], std::sqrt(std::fabs(x))));
    CHECK(same(o[i * 6 + 2], std::fma(x, y, x)));
    if (!std::isnan(x) && !std::isnan(y) && !(x == 0 && y == 0)) CHECK(same(o[i * 6 + 3], std::fmin(x, y)));
    CHECK(same(o[i * 6 + 4], std::trunc(x) + std::floor(y)));
    if (!std::isnan(x) && !std::isnan(y)) {
      float lo = std::min(x, y), hi = std::max(x, y);
      float med = 1.0f < lo ? lo : (1.0f > hi ? hi : 1.0f);
      if (!(x == 0 && y == 0)) CHECK(o[i * 6 + 5] == med);
    }
  }
}

TEST_CASE("clang's f64 division and sqrt sequences are exact", "[valu][kernel]") {
  REQUIRE_DEVICE();
  const uint32_t n = 200;
  std::vector<double> a(n), b(n);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> e(-300.0, 300.0), sg(-1.0, 1.0);
  for (uint32_t i = 0; i < n; ++i) a[i] = std::copysign(std::exp2(e(rng)), sg(rng)), b[i] = std::copysign(std::exp2(e(rng)), sg(rng));
  a[0] = 0.0, b[0] = 0.0, a[1] = 1.0, b[1] = 3.0, a[2] = INFINITY, b[3] = -0.0, a[4] = 4.9e-324, b[5] = 2.2250738585072014e-308;
  buffer<double> da(*dev(), a), db(*dev(), b), out(*dev(), n * 4);
  kernel_args args;
  args.add(da.addr()).add(db.addr()).add(out.addr()).add(n);
  launch("k_double_ops", (n + 63) / 64, 64, args);
  auto o = out.download();
  for (uint32_t i = 0; i < n; ++i) {
    INFO("x=" << a[i] << " y=" << b[i]);
    CHECK(same(o[i * 4 + 0], a[i] / b[i]));
    CHECK(same(o[i * 4 + 1], std::sqrt(std::fabs(a[i]))));
    CHECK(same(o[i * 4 + 2], std::fma(a[i], b[i], -a[i])));
    CHECK(same(o[i * 4 + 3], std::floor(a[i]) - std::ceil(b[i])));
  }
}

TEST_CASE("clang's conversions between int, float, double and half", "[valu][kernel]") {
  REQUIRE_DEVICE();
  const uint32_t n = 256;
  auto a = floats(n, 4);
  std::vector<double> d(n);
  std::vector<int64_t> l(n);
  std::mt19937_64 rng(5);
  for (uint32_t i = 0; i < n; ++i) {
    d[i] = double(a[(i * 7) % n]) * 1.0000001;
    l[i] = int64_t(rng()) >> (rng() % 64);
  }
  l[0] = 0, l[1] = -1, l[2] = INT64_MIN, l[3] = INT64_MAX, l[4] = (1ll << 53) + 1;
  buffer<float> da(*dev(), a);
  buffer<double> dd(*dev(), d);
  buffer<int64_t> dl(*dev(), l);
  buffer<int32_t> oi(*dev(), n * 2);
  buffer<uint32_t> ou(*dev(), n);
  buffer<float> of(*dev(), n * 4);
  buffer<double> od(*dev(), n * 2);
  kernel_args args;
  args.add(da.addr()).add(dd.addr()).add(dl.addr()).add(oi.addr()).add(ou.addr()).add(of.addr()).add(od.addr()).add(n);
  launch("k_convert", n / 64, 64, args);
  auto vi = oi.download();
  auto vu = ou.download();
  auto vf = of.download();
  auto vd = od.download();
  for (uint32_t i = 0; i < n; ++i) {
    float x = a[i];
    INFO("x=" << x << " d=" << d[i] << " l=" << l[i]);
    CHECK(vi[i * 2 + 0] == ((x > -2147483648.0f && x < 2147483648.0f) ? int32_t(x) : 0));
    float q = x / 64.0f;
    if (!std::isnan(q)) CHECK(vi[i * 2 + 1] == int32_t(_Float16(q > 1000.0f || q < -1000.0f ? 0.0f : q)));
    CHECK(vu[i] == ((x >= 0.0f && x < 4294967296.0f) ? uint32_t(x) : 0u));
    CHECK(same(vf[i * 4 + 0], float(l[i])));
    CHECK(same(vf[i * 4 + 1], float(uint64_t(l[i]))));
    CHECK(same(vf[i * 4 + 2], float(d[i])));
    CHECK(same(vf[i * 4 + 3], float(_Float16(x))));
    CHECK(same(vd[i * 2 + 0], double(l[i])));
    CHECK(same(vd[i * 2 + 1], double(x) * 3.0));
  }
}

TEST_CASE("f16 arithmetic, packed math and dot products", "[valu][kernel]") {
  REQUIRE_DEVICE();
  const uint32_t n = 256;
  std::vector<uint32_t> a(n), b(n);
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> v(-50.0f, 50.0f);
  auto h = [](float f) { return uint32_t(std::bit_cast<uint16_t>(_Float16(f))); };
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = h(v(rng)) | (h(v(rng)) << 16);
    b[i] = i < 32 ? rng() : (h(v(rng)) | (h(v(rng)) << 16));  // first lanes: arbitrary bits
  }
  buffer<uint32_t> da(*dev(), a), db(*dev(), b), out(*dev(), n * 4);
  buffer<float> fout(*dev(), n);
  buffer<int32_t> iout(*dev(), n * 3);
  kernel_args args;
  args.add(da.addr()).add(db.addr()).add(out.addr()).add(fout.addr()).add(iout.addr()).add(n);
  launch("k_half", n / 64, 64, args);
  auto o = out.download();
  auto f = fout.download();
  auto io = iout.download();
  auto lo = [](uint32_t w) { return std::bit_cast<_Float16>(uint16_t(w)); };
  auto hi = [](uint32_t w) { return std::bit_cast<_Float16>(uint16_t(w >> 16)); };
  auto same16 = [](uint16_t got, _Float16 want) {
    return std::isnan(float(want)) ? std::isnan(float(std::bit_cast<_Float16>(got))) : got == std::bit_cast<uint16_t>(want);
  };
  for (uint32_t i = 0; i < n; ++i) {
    _Float16 x0 = lo(a[i]), x1 = hi(a[i]), y0 = lo(b[i]), y1 = hi(b[i]);
    INFO("i=" << i << " a=" << std::hex << a[i] << " b=" << b[i]);
    CHECK(same16(uint16_t(o[i * 4 + 0]), _Float16(x0 + y0)));
    CHECK(same16(uint16_t(o[i * 4 + 0] >> 16), _Float16(x1 + y1)));
    CHECK(same16(uint16_t(o[i * 4 + 1]), _Float16(x0 * y0)));
    CHECK(same16(uint16_t(o[i * 4 + 1] >> 16), _Float16(x1 * y1)));
    _Float16 s0 = _Float16(x0 + y0), s1 = _Float16(x1 + y1);
    CHECK(same16(uint16_t(o[i * 4 + 2]), _Float16(std::fma(double(x0), double(y0), double(s0)))));
    CHECK(same16(uint16_t(o[i * 4 + 2] >> 16), _Float16(std::fma(double(x1), double(y1), double(s1)))));
    if (!std::isnan(float(x0)) && !std::isnan(float(y1))) CHECK(same16(uint16_t(o[i * 4 + 3]), x0 > y1 ? x0 : y1));
    double dot = double(x0) * double(y0) + double(x1) * double(y1) + 0.25;
    if (std::isfinite(dot)) CHECK(same(f[i], float(dot)));
    int32_t s4 = 7;
    for (int k = 0; k < 4; ++k) s4 += int32_t(int8_t(a[i] >> (8 * k))) * int8_t(b[i] >> (8 * k));
    CHECK(io[i * 3 + 0] == s4);
    uint32_t u8 = 100;
    for (int k = 0; k < 8; ++k) u8 += ((a[i] >> (4 * k)) & 15) * ((b[i] >> (4 * k)) & 15);
    CHECK(uint32_t(io[i * 3 + 1]) == u8);
    int32_t s2 = -5 + int32_t(int16_t(a[i])) * int16_t(b[i]) + int32_t(int16_t(a[i] >> 16)) * int16_t(b[i] >> 16);
    CHECK(io[i * 3 + 2] == s2);
  }
}

TEST_CASE("fp8/bf8 conversion builtins (FNUZ)", "[valu][kernel]") {
  REQUIRE_DEVICE();
  const uint32_t n = 256;
  auto a = floats(n, 8), b = floats(n, 9);
  for (uint32_t i = 0; i < n; ++i) a[i] = std::ldexp(a[i], -int(std::ilogb(a[i]) / 2)), b[i] = b[i] * 1e-30f;
  std::vector<uint32_t> bytes(n);
  for (uint32_t i = 0; i < n; ++i)
    bytes[i] = ((i * 4) & 0xff) | (((i * 4 + 1) & 0xff) << 8) | (((i * 4 + 2) & 0xff) << 16) | (((i * 4 + 3) & 0xff) << 24);
  buffer<float> da(*dev(), a), db(*dev(), b), unpacked(*dev(), n * 6);
  buffer<uint32_t> dbytes(*dev(), bytes), packed(*dev(), n);
  kernel_args args;
  args.add(da.addr()).add(db.addr()).add(dbytes.addr()).add(packed.addr()).add(unpacked.addr()).add(n);
  launch("k_fp8", n / 64, 64, args);
  auto p = packed.download();
  auto u = unpacked.download();
  // Nearest representable code, ties to the even code; beyond the largest finite -> NaN.
  auto ref = [](float x, int mbits, int bias) -> uint32_t {
    if (std::isnan(x)) return 0x80;
    double best = INFINITY, maxv = 0;
    int code = 0;
    for (int c = 0; c < 256; ++c) {
      if (c == 0x80) continue;
      double v = mfma_ref::f8_value(c, mbits, bias);
      maxv = std::max(maxv, v);
      double dist = std::fabs(v - double(x));
      if (dist < best || (dist == best && (c & 1) == 0 && (code & 1) == 1)) best = dist, code = c;
    }
    const double half_ulp_above_max = maxv + std::ldexp(1.0, int(std::ilogb(maxv)) - mbits - 1);
    if (std::fabs(double(x)) >= half_ulp_above_max) return 0x80;
    return code == 0x80 ? 0 : uint32_t(code);
  };
  for (uint32_t i = 0; i < n; ++i) {
    INFO("i=" << i << " a=" << a[i] << " b=" << b[i] << " unpacked " << u[i * 6 + 3] << " " << u[i * 6 + 5]);
    uint32_t want = ref(a[i], 3, 8) | (ref(b[i], 3, 8) << 8) | (ref(b[i], 2, 16) << 16) | (ref(a[i], 2, 16) << 24);
    CHECK(p[i] == want);
    auto fp8 = [&](int c) { return float(mfma_ref::f8_value(c & 0xff, 3, 8)); };
    auto bf8 = [&](int c) { return float(mfma_ref::f8_value(c & 0xff, 2, 16)); };
    CHECK(same(u[i * 6 + 0], fp8(int(i * 4))));
    CHECK(same(u[i * 6 + 1], fp8(int(i * 4 + 3))));
    CHECK(same(u[i * 6 + 2], bf8(int(i * 4 + 1))));
    CHECK(same(u[i * 6 + 3], fp8(int(i * 4 + 2))));
    CHECK(same(u[i * 6 + 4], fp8(int(i * 4 + 3))));
    CHECK(same(u[i * 6 + 5], bf8(int(i * 4 + 2))));
  }
}

namespace {
using mfma_ref::Spec;
using mfma_ref::Ty;

// Raw registers with exactly representable random elements of type t (n dwords per lane).
std::vector<uint32_t> random_regs(const Spec& s, bool is_a, int dwords, std::mt19937& rng) {
  std::vector<uint32_t> r(size_t(dwords) * 64, 0);
  const Ty t = is_a ? s.a : s.b;
  const int bits = mfma_ref::bits_of(t);
  const int rows = is_a ? s.M : s.N;
  for (int b = 0; b < s.B; ++b)
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < s.K; ++k) {
        double v = t == Ty::I8 ? double(int(rng() % 256) - 128) : 0.5 * (int(rng() % 17) - 8);
        mfma_ref::put_bits(r, mfma_ref::place_input(rows, s.K, s.B, bits, b, i, k), bits, mfma_ref::encode(t, v));
      }
  return r;
}
std::vector<uint32_t> random_acc(const Spec& s, int dwords, std::mt19937& rng) {
  std::vector<uint32_t> c(size_t(dwords) * 64);
  for (size_t x = 0; x < c.size(); ++x) {
    double v = s.a == Ty::I8 ? double(int(rng() % 2001) - 1000) : 0.5 * (int(rng() % 41) - 20);
    if (s.a == Ty::F64) {
      uint64_t bits = std::bit_cast<uint64_t>(v);
      c[x] = (x / 64) % 2 ? uint32_t(bits >> 32) : uint32_t(bits);  // pairs of dwords
    } else {
      c[x] = s.a == Ty::I8 ? uint32_t(int32_t(v)) : std::bit_cast<uint32_t>(float(v));
    }
  }
  if (s.a == Ty::F64)  // make each (lo, hi) pair one double: lo zero, hi = the high dword
    for (size_t x = 0; x < c.size(); x += 128)
      for (int l = 0; l < 64; ++l) c[x + l] = 0;
  return c;
}

void run_mfma(const char* kernel, const Spec& s, int a_dw, int b_dw, int acc_dw, int cbsz, int abid, int blgp) {
  std::mt19937 rng(std::hash<std::string>{}(kernel));
  auto A = random_regs(s, true, a_dw, rng), B = random_regs(s, false, b_dw, rng);
  auto C = random_acc(s, acc_dw, rng);
  buffer<uint32_t> dA(*dev(), A), dB(*dev(), B), dC(*dev(), C), dD(*dev(), C.size());
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
  launch(kernel, 1, 64, args);
  auto got = dD.download();
  auto want = mfma_ref::reference(s, A, B, C, cbsz, abid, blgp);
  for (size_t x = 0; x < want.size(); ++x) {
    INFO(kernel << " dword " << x / 64 << " lane " << x % 64);
    REQUIRE(got[x] == want[x]);
  }
}
}  // namespace

TEST_CASE("clang-compiled MFMA kernels match the documented layouts", "[mfma][kernel]") {
  REQUIRE_DEVICE();
  run_mfma("k_mfma_32x32x8_f16", {"", 32, 32, 8, 1, Ty::F16, Ty::F16, false}, 2, 2, 16, 0, 0, 0);
  run_mfma("k_mfma_16x16x4_4b_f16_cbsz", {"", 16, 16, 4, 4, Ty::F16, Ty::F16, false}, 2, 2, 16, 2, 3, 0);
  run_mfma("k_mfma_4x4x1_16b_f32_blgp", {"", 4, 4, 1, 16, Ty::F32, Ty::F32, false}, 1, 1, 4, 0, 0, 3);
  run_mfma("k_mfma_32x32x16_i8", {"", 32, 32, 16, 1, Ty::I8, Ty::I8, false}, 2, 2, 16, 0, 0, 0);
  run_mfma("k_mfma_16x16x4_f64", {"", 16, 16, 4, 1, Ty::F64, Ty::F64, false}, 2, 2, 8, 0, 0, 0);
  run_mfma("k_mfma_16x16x32_fp8_bf8", {"", 16, 16, 32, 1, Ty::FP8, Ty::BF8, false}, 2, 2, 4, 0, 0, 0);
  run_mfma("k_mfma_16x16x8_xf32", {"", 16, 16, 8, 1, Ty::XF32, Ty::XF32, false}, 2, 2, 4, 0, 0, 0);
}
