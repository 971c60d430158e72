// gfx950 reference suite, VALU: clang-22's gfx950 code for the new VALU instructions
// (kernels/ref950_valu.hip) against host references written from the definitions (LLVM's
// intrinsic documentation for the permlane swaps, IEEE 754-2019 minimum/maximum, the OCP MX
// fp4 e2m1 value set). The checker must report nothing.
#include "kernels/ref_host.hpp"

#include <algorithm>
#include <array>

#pragma clang fp contract(off)

using namespace refsuite;
namespace {
const std::string G = "950_valu";

std::vector<float> special_floats() {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  return {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, inf, -inf, nan, 1e-40f, -1e-40f, 3.0e38f, 65504.0f, 65520.0f,
          1.00390625f, 1.01171875f, 0.333333343f, -2.75f, 7.0e-6f, 2.0e-8f};
}
}  // namespace

TEST_CASE("gfx950 reference: v_permlane16_swap / v_permlane32_swap", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t n = 128;  // two waves
  std::vector<uint32_t> X(n), Y(n);
  for (uint32_t i = 0; i < n; ++i) X[i] = 0x1000 + i, Y[i] = 0x2000 + i;
  for (int span : {16, 32}) {
    device& dev = *the_device();
    buffer<uint32_t> dX(dev, X), dY(dev, Y), oX(dev, n), oY(dev, n);
    kernel_args args;
    args.add(dX.addr()).add(dY.addr()).add(oX.addr()).add(oY.addr());
    run(G, span == 16 ? "permlane16_swap" : "permlane32_swap", {2}, {64}, args);
    auto gx = oX.download(), gy = oY.download();
    mismatches m;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t l = i % 64, base = i - l;
      // Odd rows (of `span` lanes) of the first operand trade places with the even rows of
      // the second: lane l of an odd row gets the second operand's lane l - span.
      const bool odd = (l / span) % 2;
      const uint32_t wx = odd ? Y[base + l - span] : X[i];
      const uint32_t wy = odd ? Y[i] : X[base + l + span];
      expect_exact(m, "first", i, gx[i], wx);
      expect_exact(m, "second", i, gy[i], wy);
    }
    INFO("span " << span);
    REFSUITE_REQUIRE_NONE(m);
  }
}

TEST_CASE("gfx950 reference: f32 -> bf16 / f16 pairs, bf16 -> f32", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::vector<float> X = special_floats();
  std::mt19937 rng(77);
  for (int i = 0; i < 236; ++i) X.push_back(std::bit_cast<float>(uint32_t(rng())));
  const uint32_t n = uint32_t(X.size()) / 2;
  device& dev = *the_device();
  buffer<float> dX(dev, X);
  buffer<uint16_t> dB(dev, X.size()), dH(dev, X.size());
  kernel_args a1, a2;
  a1.add(dX.addr()).add(dB.addr());
  a2.add(dX.addr()).add(dH.addr());
  run(G, "cvt_bf16", {1}, {n}, a1);
  run(G, "cvt_f16", {1}, {n}, a2);
  auto gb = dB.download(), gh = dH.download();
  mismatches m;
  for (size_t i = 0; i < X.size(); ++i) {
    // bf16: round to nearest even (host reference), any NaN for a NaN.
    if (std::isnan(X[i])) {
      if (!std::isnan(bf16_to_float(gb[i]))) m.add("bf16 NaN lost at " + std::to_string(i));
      if (!std::isnan(half_bits_to_float(gh[i]))) m.add("f16 NaN lost at " + std::to_string(i));
      continue;
    }
    expect_exact(m, "bf16", i, gb[i], float_to_bf16(X[i]));
    expect_exact(m, "f16", i, gh[i], float_to_half_bits(X[i]));  // the host's _Float16 conversion
  }
  // bf16 -> f32 (times 3, exact for these inputs)
  std::vector<uint16_t> B(64);
  for (int i = 0; i < 64; ++i) B[size_t(i)] = float_to_bf16(float(i - 32) * 0.375f);
  buffer<uint16_t> dBin(dev, B);
  buffer<float> dF(dev, 64);
  kernel_args a3;
  a3.add(dBin.addr()).add(dF.addr());
  run(G, "bf16_to_f32", {1}, {64}, a3);
  auto gf = dF.download();
  for (int i = 0; i < 64; ++i) expect_float(m, "bf16_to_f32", size_t(i), gf[size_t(i)], bf16_to_float(B[size_t(i)]) * 3.0f);
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_minimum3_f32 / v_maximum3_f32 (IEEE 754-2019)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  const std::vector<float> S = special_floats();
  std::vector<float> A, B, C;
  for (float a : S)
    for (float b : S)
      for (float c : {0.0f, -0.0f, 1.0f, std::numeric_limits<float>::quiet_NaN()})
        A.push_back(a), B.push_back(b), C.push_back(c);
  const uint32_t n = uint32_t(A.size());
  device& dev = *the_device();
  buffer<float> dA(dev, A), dB(dev, B), dC(dev, C), dMn(dev, n), dMx(dev, n);
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dMn.addr()).add(dMx.addr());
  run(G, "minimum3", {blocks_for(n, 64)}, {64}, args);
  auto mn = dMn.download(), mx = dMx.download();
  // minimum: NaN if any operand is NaN; -0 below +0; else the smaller.
  auto minimum = [](float x, float y) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
    if (x == y) return std::signbit(x) ? x : y;
    return x < y ? x : y;
  };
  auto maximum = [](float x, float y) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
    if (x == y) return std::signbit(x) ? y : x;
    return x > y ? x : y;
  };
  mismatches m;
  for (uint32_t i = 0; i < n; ++i) {
    expect_float(m, "minimum3", i, mn[i], minimum(minimum(A[i], B[i]), C[i]));
    expect_float(m, "maximum3", i, mx[i], maximum(maximum(A[i], B[i]), C[i]));
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: three-input logic (v_bitop3_b32)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(3);
  const uint32_t n = 256;
  std::vector<uint32_t> A(n), B(n), C(n);
  for (uint32_t i = 0; i < n; ++i) A[i] = rng(), B[i] = rng(), C[i] = rng();
  device& dev = *the_device();
  buffer<uint32_t> dA(dev, A), dB(dev, B), dC(dev, C), dD(dev, 4 * n);
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
  run(G, "bitop3", {n / 64}, {64}, args);
  auto D = dD.download();
  mismatches m;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t a = A[i], b = B[i], c = C[i];
    expect_exact(m, "select", i, D[4 * i], (a & b) | (~a & c));
    expect_exact(m, "xor3", i, D[4 * i + 1], a ^ b ^ c);
    expect_exact(m, "nor_and", i, D[4 * i + 2], ~(a | b) & c);
    expect_exact(m, "majority", i, D[4 * i + 3], (a & b) | (b & c) | (a & c));
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_cvt_scalef32_pk_fp4_f32", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  // fp4 e2m1 magnitudes of codes 0..7 (OCP MX v1.0).
  const double kMag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  // Nearest even code (ties to the even code), saturating at 6; NaN and +-inf give +-6.
  auto to_fp4 = [&](float x, float scale) -> uint32_t {
    const uint32_t sign = std::signbit(x) ? 8 : 0;
    if (std::isnan(x) || std::isinf(x)) return sign | 7;
    int e;
    std::frexp(scale, &e);  // the scale's power of two: 2^(e-1)
    const double a = std::fabs(double(x)) / std::ldexp(1.0, e - 1);
    uint32_t best = 0;
    for (uint32_t c = 1; c < 8; ++c) {
      const double dc = std::fabs(a - kMag[c]), db = std::fabs(a - kMag[best]);
      if (dc < db || (dc == db && (c % 2) == 0)) best = c;
    }
    if (a >= 6) best = 7;
    return sign | best;
  };
  std::mt19937 rng(44);
  std::vector<float> X, S;
  std::vector<uint32_t> Old;
  const std::vector<float> sp = special_floats();
  const float scales[] = {1.0f, 0.25f, 4.0f, 3.0f, 0.75f, 1024.0f};
  for (int i = 0; i < 128; ++i) {
    const float s = scales[size_t(i) % 6];
    for (int k = 0; k < 2; ++k) {
      float v;
      if (i < 10) v = sp[size_t(2 * i + k)];
      else v = float(std::ldexp(double(int(rng() % 200) - 100) / 16.0, int(rng() % 3)) * s);
      X.push_back(v);
    }
    S.push_back(s);
    Old.push_back(rng());
  }
  const uint32_t n = uint32_t(S.size());
  device& dev = *the_device();
  for (int sel : {0, 3}) {
    buffer<float> dX(dev, X), dS(dev, S);
    buffer<uint32_t> dO(dev, Old), dD(dev, n);
    kernel_args args;
    args.add(dX.addr()).add(dS.addr()).add(dO.addr()).add(dD.addr());
    run(G, sel == 0 ? "cvt_scalef32_pk_fp4_f32_0" : "cvt_scalef32_pk_fp4_f32_3", {blocks_for(n, 64)}, {64}, args);
    auto D = dD.download();
    mismatches m;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t byte = to_fp4(X[2 * i], S[i]) | to_fp4(X[2 * i + 1], S[i]) << 4;
      const uint32_t want = (Old[i] & ~(0xffu << (8 * sel))) | byte << (8 * sel);
      expect_exact(m, "fp4 (" + std::to_string(X[2 * i]) + ", " + std::to_string(X[2 * i + 1]) + ") / " +
                          std::to_string(S[i]), i, D[i], want);
    }
    INFO("byte " << sel);
    REFSUITE_REQUIRE_NONE(m);
  }
}

TEST_CASE("gfx950 reference: v_cvt_scalef32 up-converts from fp8 / bf8 / fp4", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  // OCP e4m3fn (bias 7; S.1111.111 NaN), e5m2 (bias 15; exponent 31 inf/NaN), fp4 e2m1
  // (bias 1): value = 2^(e - bias) * (1 + m / 2^mb), subnormal 2^(1 - bias) * m / 2^mb.
  auto decode = [](uint32_t c, int eb, int mb, int bias) -> double {
    const bool neg = (c >> (eb + mb)) & 1;
    const int e = int(c >> mb) & ((1 << eb) - 1), m = int(c) & ((1 << mb) - 1);
    double v;
    if (eb == 4 && e == 15 && m == 7) return std::numeric_limits<double>::quiet_NaN();
    if (eb == 5 && e == 31) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else v = e == 0 ? std::ldexp(double(m) / (1 << mb), 1 - bias) : std::ldexp(1.0 + double(m) / (1 << mb), e - bias);
    return neg ? -v : v;
  };
  auto e4m3 = [&](uint32_t c) { return decode(c & 0xff, 4, 3, 7); };
  auto e5m2 = [&](uint32_t c) { return decode(c & 0xff, 5, 2, 15); };
  auto e2m1 = [&](uint32_t c) { return decode(c & 0xf, 2, 1, 1); };
  // The scale counts by its power of two only (exponent field).
  auto pow2 = [](float s) { int e; std::frexp(s, &e); return std::ldexp(1.0, e - 1); };
  auto f16 = [](double v) { return uint32_t(float_to_half_bits(float(v))); };  // exact: v fits f32
  auto bf16 = [](double v) { return uint32_t(float_to_bf16(float(v))); };
  std::mt19937 rng(123);
  const uint32_t n = 256;
  std::vector<uint32_t> X(n), Old(n);
  std::vector<float> S(n);
  const float scales[] = {1.0f, 0.5f, 8.0f, 3.0f, 0.0625f, 256.0f, 1.5f};
  for (uint32_t i = 0; i < n; ++i) X[i] = rng(), Old[i] = rng(), S[i] = scales[i % 7];
  device& dev = *the_device();
  buffer<uint32_t> dX(dev, X), dO(dev, Old), dOut(dev, 8 * n);
  buffer<float> dS(dev, S);
  kernel_args args;
  args.add(dX.addr()).add(dS.addr()).add(dO.addr()).add(dOut.addr());
  run(G, "cvt_scalef32_up", {n / 64}, {64}, args);
  auto O = dOut.download();
  mismatches m;
  auto nan16 = [](uint32_t h, bool bf) { return bf ? std::isnan(bf16_to_float(uint16_t(h))) : std::isnan(half_bits_to_float(uint16_t(h))); };
  auto check16 = [&](const char* what, uint32_t i, uint32_t got, double v, bool bf) {
    if (std::isnan(v)) {
      if (!nan16(got, bf)) m.add(std::string(what) + " NaN lost at " + std::to_string(i));
      return;
    }
    expect_exact(m, what, i, got, bf ? bf16(v) : f16(v));
  };
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = X[i];
    const double p = pow2(S[i]);
    // pk_bf16_fp8, word 1: bytes 2 and 3
    check16("pk_bf16_fp8.lo", i, O[8 * i] & 0xffff, e4m3(x >> 16) * p, true);
    check16("pk_bf16_fp8.hi", i, O[8 * i] >> 16, e4m3(x >> 24) * p, true);
    // pk_f32_bf8, word 0
    expect_float(m, "pk_f32_bf8.0", i, std::bit_cast<float>(O[8 * i + 1]), float(e5m2(x) * p));
    expect_float(m, "pk_f32_bf8.1", i, std::bit_cast<float>(O[8 * i + 2]), float(e5m2(x >> 8) * p));
    // f32_fp8, byte 3
    expect_float(m, "f32_fp8", i, std::bit_cast<float>(O[8 * i + 3]), float(e4m3(x >> 24) * p));
    // pk_f16_fp4, byte 2: low nibble first
    check16("pk_f16_fp4.lo", i, O[8 * i + 4] & 0xffff, e2m1(x >> 16) * p, false);
    check16("pk_f16_fp4.hi", i, O[8 * i + 4] >> 16, e2m1(x >> 20) * p, false);
    // f16_fp8, byte 2, into the high half of the old value
    expect_exact(m, "f16_fp8.lo kept", i, O[8 * i + 5] & 0xffff, Old[i] & 0xffff);
    check16("f16_fp8.hi", i, O[8 * i + 5] >> 16, e4m3(x >> 16) * p, false);
    // pk_bf16_fp4, byte 1
    check16("pk_bf16_fp4.lo", i, O[8 * i + 6] & 0xffff, e2m1(x >> 8) * p, true);
    check16("pk_bf16_fp4.hi", i, O[8 * i + 6] >> 16, e2m1(x >> 12) * p, true);
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: f32 -> OCP fp8 / bf8 (v_cvt_pk_*_f32, v_cvt_scalef32_pk_*_f32)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  // OCP e4m3fn / e5m2 by their definitions: the nearest finite code (ties: even mantissa);
  // past the largest finite value (448 / 57344) by half an ulp or more, when the tie does not
  // go back to it: NaN (e4m3, 0x7f) / infinity (e5m2, 0x7c); NaN -> 0x7f; infinities -> the
  // infinity code (e4m3: NaN). Zeros keep their sign, and the subnormal range rounds like the
  // rest: a magnitude above half the smallest subnormal gives it, half of it gives +-0.
  auto encode = [](double v, bool bf8) -> uint32_t {
    const int eb = bf8 ? 5 : 4, mb = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
    const uint32_t sign = std::signbit(v) ? 0x80 : 0, inf = bf8 ? 0x7c : 0x7f;
    if (std::isnan(v)) return sign | 0x7f;
    if (std::isinf(v)) return sign | inf;
    const double a = std::fabs(v);
    uint32_t best = 0;
    double bd = a;
    const uint32_t top = bf8 ? 0x7b : 0x7e;
    for (uint32_t c = 1; c <= top; ++c) {
      const int e = int(c >> mb), m = int(c) & ((1 << mb) - 1);
      const double cv = e == 0 ? std::ldexp(double(m) / (1 << mb), 1 - bias) : std::ldexp(1.0 + double(m) / (1 << mb), e - bias);
      const double d = std::fabs(a - cv);
      if (d < bd || (d == bd && (c & 1) == 0)) best = c, bd = d;
    }
    (void)eb;
    const double max = bf8 ? 57344.0 : 448.0, half_ulp = bf8 ? 4096.0 : 16.0;
    const bool tie_back = bf8 ? false : true;  // 448 has an even mantissa, 57344 an odd one
    if (a > max + half_ulp || (a == max + half_ulp && !tie_back)) return sign | inf;
    return sign | best;
  };
  std::mt19937 rng(8);
  std::vector<float> X = {448.0f, 464.0f, 465.0f, 480.0f, 57344.0f, 61439.0f, 61440.0f, 1e6f,
                          std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f, -2.75f, 0.001953125f, 0.0029296875f,
                          -0.0f, 0.0f, 1.109375f * 0x1p-10f, -1.109375f * 0x1p-10f, 0.001f, -0.001f, 0x1p-10f, -0x1p-10f};
  // Both formats' subnormal ranges and a little beyond, in eighths of the smallest subnormal
  // (e4m3 2^-9, e5m2 2^-16), with both signs; around half the smallest subnormal by one f32 ulp.
  for (const int min_sub : {-9, -16}) {
    for (int k = 1; k <= 72; ++k)
      for (const float sgn : {1.0f, -1.0f}) X.push_back(sgn * std::ldexp(float(k), min_sub - 3));
    for (const float h : {std::ldexp(1.0f, min_sub - 1)})
      for (const float v : {std::nextafter(h, 0.0f), std::nextafter(h, 1.0f), -std::nextafter(h, 1.0f)}) X.push_back(v);
  }
  while (X.size() < 512 || X.size() % 128 != 0) {
    const float v = float(std::ldexp(1.0 + double(rng() % 4096) / 4096.0, int(rng() % 19) - 8)) * ((rng() & 1) ? -1.0f : 1.0f);
    X.push_back(v);
  }
  const uint32_t n = uint32_t(X.size()) / 2;
  std::vector<float> S(n);
  std::vector<uint32_t> Old(n);
  const float scales[] = {1.0f, 2.0f, 0.5f, 1.75f};  // powers of two 1, 2, 0.5, 1
  for (uint32_t i = 0; i < n; ++i) S[i] = scales[i % 4], Old[i] = rng();
  device& dev = *the_device();
  buffer<float> dX(dev, X), dS(dev, S);
  buffer<uint32_t> dO(dev, Old), dOut(dev, 4 * n);
  kernel_args args;
  args.add(dX.addr()).add(dS.addr()).add(dO.addr()).add(dOut.addr());
  run(G, "cvt_to_fp8", {n / 64}, {64}, args);
  auto O = dOut.download();
  mismatches m;
  auto pow2 = [](float s) { int e; std::frexp(s, &e); return std::ldexp(1.0, e - 1); };
  for (uint32_t i = 0; i < n; ++i) {
    const double a = X[2 * i], b = X[2 * i + 1], p = pow2(S[i]);
    const uint32_t old = Old[i];
    auto pair = [&](bool bf8, double sc) { return encode(a / sc, bf8) | encode(b / sc, bf8) << 8; };
    const std::string in = std::to_string(a) + ", " + std::to_string(b);
    // v_cvt_pk_fp8_f32 word 0 (the other word kept), v_cvt_pk_bf8_f32 word 1
    expect_exact(m, "pk_fp8_f32 (" + in + ")", i, O[4 * i], (old & 0xffff0000u) | pair(false, 1.0));
    expect_exact(m, "pk_bf8_f32 (" + in + ")", i, O[4 * i + 1], (old & 0xffffu) | pair(true, 1.0) << 16);
    expect_exact(m, "scalef32_pk_fp8_f32 (" + in + ")", i, O[4 * i + 2], (old & 0xffffu) | pair(false, p) << 16);
    expect_exact(m, "scalef32_pk_bf8_f32 (" + in + ")", i, O[4 * i + 3], (old & 0xffff0000u) | pair(true, p));
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_prng_b32, v_bitop3_b16, v_ashr_pk_i8/u8_i32", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(950);
  const uint32_t n = 256;
  std::vector<uint32_t> X(n), A(n), B(n), C(n);
  std::vector<uint16_t> A16(n), B16(n), C16(n);
  for (uint32_t i = 0; i < n; ++i) {
    X[i] = i < 4 ? std::array<uint32_t, 4>{0, 1, 0x80000000u, 0xffffffffu}[i] : rng();
    A[i] = rng(), B[i] = rng();
    // shift counts: every value 0..31, and some with high bits set (only [4:0] counts)
    C[i] = (i % 32) | (i >= 128 ? rng() & ~31u : 0);
    if (i % 8 == 0) A[i] = uint32_t(int32_t(rng() % 512) - 256), B[i] = uint32_t(int32_t(rng() % 70000) - 35000);
    A16[i] = uint16_t(rng()), B16[i] = uint16_t(rng()), C16[i] = uint16_t(rng());
  }
  device& dev = *the_device();
  buffer<uint32_t> dX(dev, X), dY(dev, n), dA(dev, A), dB(dev, B), dC(dev, C);
  buffer<uint16_t> dA16(dev, A16), dB16(dev, B16), dC16(dev, C16), dD16(dev, 2 * n), dP(dev, 2 * n);
  kernel_args a1, a2, a3;
  a1.add(dX.addr()).add(dY.addr());
  a2.add(dA16.addr()).add(dB16.addr()).add(dC16.addr()).add(dD16.addr());
  a3.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dP.addr());
  run(G, "prng", {n / 64}, {64}, a1);
  run(G, "bitop3_b16", {n / 64}, {64}, a2);
  run(G, "ashr_pk", {n / 64}, {64}, a3);
  auto Y = dY.download();
  auto D16 = dD16.download(), P = dP.download();
  mismatches m;
  // CDNA4 ISA V_PRNG_B32: D = (in << 1) ^ (in[31] ? 197 : 0).
  for (uint32_t i = 0; i < n; ++i) expect_exact(m, "prng", i, Y[i], (X[i] << 1) ^ ((X[i] >> 31) ? 197u : 0u));
  // V_BITOP3_B16: result bit j = TTBL[{S0[j], S1[j], S2[j]}].
  auto bitop3 = [](uint8_t t, uint16_t a, uint16_t b, uint16_t c) {
    uint16_t r = 0;
    for (int j = 0; j < 16; ++j) {
      const int idx = ((a >> j) & 1) << 2 | ((b >> j) & 1) << 1 | ((c >> j) & 1);
      r = uint16_t(r | ((t >> idx) & 1) << j);
    }
    return r;
  };
  for (uint32_t i = 0; i < n; ++i) {
    expect_exact(m, "bitop3_b16 0xa1", i, D16[2 * i], bitop3(0xa1, A16[i], B16[i], C16[i]));
    expect_exact(m, "bitop3_b16 0x96", i, D16[2 * i + 1], uint16_t(A16[i] ^ B16[i] ^ C16[i]));
  }
  // V_ASHR_PK_{I8,U8}_I32: {SAT8(S1 >> S2[4:0]), SAT8(S0 >> S2[4:0])}, arithmetic shifts.
  for (uint32_t i = 0; i < n; ++i) {
    const int sh = int(C[i] & 31);
    const int64_t a = int32_t(A[i]) >> sh, b = int32_t(B[i]) >> sh;  // C++20: arithmetic
    auto s8 = [](int64_t v) { return uint16_t(uint8_t(int8_t(std::clamp<int64_t>(v, -128, 127)))); };
    auto u8 = [](int64_t v) { return uint16_t(std::clamp<int64_t>(v, 0, 255)); };
    expect_exact(m, "ashr_pk_i8_i32", i, P[2 * i], uint16_t(s8(a) | s8(b) << 8));
    expect_exact(m, "ashr_pk_u8_i32", i, P[2 * i + 1], uint16_t(u8(a) | u8(b) << 8));
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: bf16 dot products (v_dot2_f32_bf16, v_dot2c_f32_bf16)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  // bf16 operands k / 16 (|k| < 128) and f32 addends j / 256: every partial sum is exact in
  // f32, so the result does not depend on where the hardware rounds.
  std::mt19937 rng(17);
  const uint32_t n = 128;
  std::vector<uint16_t> A(8 * n), B(8 * n);
  std::vector<float> C(n);
  auto val = [&]() { return float(int(rng() % 255) - 127) / 16.0f; };
  for (auto& v : A) v = float_to_bf16(val());
  for (auto& v : B) v = float_to_bf16(val());
  for (auto& c : C) c = float(int(rng() % 2001) - 1000) / 256.0f;
  device& dev = *the_device();
  buffer<uint16_t> dA(dev, A), dB(dev, B);
  buffer<float> dC(dev, C), dD(dev, 2 * n);
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
  run(G, "dot2_bf16", {n / 64}, {64}, args);
  auto D = dD.download();
  mismatches m;
  auto dot = [&](uint32_t j, double acc) {  // pair j: A[2j], A[2j+1] with B[2j], B[2j+1]
    return acc + double(bf16_to_float(A[2 * j])) * bf16_to_float(B[2 * j]) +
           double(bf16_to_float(A[2 * j + 1])) * bf16_to_float(B[2 * j + 1]);
  };
  for (uint32_t i = 0; i < n; ++i) {
    expect_float(m, "dot2 clamp", i, D[2 * i], float(std::clamp(dot(4 * i, C[i]), 0.0, 1.0)));
    double acc = C[i];
    for (uint32_t k = 0; k < 4; ++k) acc = dot(4 * i + k, acc);
    expect_float(m, "dot2c chain", i, D[2 * i + 1], float(acc));
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_pk_minimum3_f16 / v_pk_maximum3_f16 (IEEE 754-2019)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> S = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.5f, inf, -inf, nan, 65504.0f, -3.0e-7f, 6.0e-5f};
  std::vector<uint16_t> A, B, C;
  std::mt19937 rng(5);
  for (float a : S)
    for (float b : S) {
      const float c = S[rng() % S.size()], c2 = S[rng() % S.size()];
      // low halves (a, b, c), high halves (b, c2, a)
      A.push_back(float_to_half_bits(a)), B.push_back(float_to_half_bits(b)), C.push_back(float_to_half_bits(c));
      A.push_back(float_to_half_bits(b)), B.push_back(float_to_half_bits(c2)), C.push_back(float_to_half_bits(a));
    }
  while (A.size() % 128) A.push_back(0), B.push_back(0), C.push_back(0);
  const uint32_t n = uint32_t(A.size() / 2);
  device& dev = *the_device();
  buffer<uint16_t> dA(dev, A), dB(dev, B), dC(dev, C), dD(dev, 4 * n);
  kernel_args args;
  args.add(dA.addr()).add(dB.addr()).add(dC.addr()).add(dD.addr());
  run(G, "pk_minimum3", {n / 64}, {64}, args);
  auto D = dD.download();
  auto minimum = [](float x, float y, bool max) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
    if (x == y) return std::signbit(x) != max ? x : y;  // -0 below +0
    return (x < y) != max ? x : y;
  };
  mismatches m;
  for (uint32_t i = 0; i < n; ++i)
    for (int h = 0; h < 2; ++h) {
      const float a = half_bits_to_float(A[2 * i + h]), b = half_bits_to_float(B[2 * i + h]), c = half_bits_to_float(C[2 * i + h]);
      expect_float(m, "pk_minimum3", 2 * i + h, half_bits_to_float(D[4 * i + h]), minimum(minimum(a, b, false), c, false));
      expect_float(m, "pk_maximum3", 2 * i + h, half_bits_to_float(D[4 * i + 2 + h]), minimum(minimum(a, b, true), c, true));
    }
  REFSUITE_REQUIRE_NONE(m);
}
