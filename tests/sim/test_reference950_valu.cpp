// gfx950 reference suite, VALU: clang-22's gfx950 code for the new VALU instructions
// (kernels/ref950_valu.hip) against host references written from the definitions (LLVM's
// intrinsic documentation for the permlane swaps, IEEE 754-2019 minimum/maximum, the OCP MX
// fp4 e2m1 value set). The checker must report nothing.
#include "kernels/ref_host.hpp"

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
  // infinity code (e4m3: NaN). Inputs keep clear of magnitudes below the smallest subnormal
  // and of -0 (the hardware's own rules there differ from plain rounding).
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
                          std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f, -2.75f, 0.001953125f, 0.0029296875f};
  while (X.size() < 512) {
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
