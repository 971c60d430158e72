// gfx950 reference suite, conversions with a scale and stochastic rounding: clang-22's
// gfx950 code for the v_cvt_scalef32_* builtins (kernels/ref950_valu.hip) and v_cvt_sr_*,
// against host references written from the definitions: the OCP formats (MX v1.0, 8-bit FP)
// by their code tables; nearest-even; stochastic rounding as the CDNA4 ISA describes it ("add
// a random value ... then truncate": the dropped source-mantissa bits plus the seed's top bits
// of the same width, a carry rounds up; a packed conversion takes v_prng_b32 of the previous
// seed for each next value); the scale counts by its exponent field. The checker must report
// nothing.
#include "kernels/ref_host.hpp"

#include <algorithm>
#include <array>

using namespace refsuite;
namespace {
const std::string G = "950_valu";

// A small float format: sign, exponent, mantissa; `top` is the largest finite code (no sign)
// and `over` the code of a too-large magnitude (sat formats: top itself).
struct Fmt {
  int eb, mb, bias;
  uint32_t top, over;
  bool sat;
};
const Fmt kE4M3{4, 3, 7, 0x7e, 0x7f, false}, kE5M2{5, 2, 15, 0x7b, 0x7c, false};
const Fmt kE2M3{2, 3, 1, 0x1f, 0x1f, true}, kE3M2{3, 2, 3, 0x1f, 0x1f, true}, kE2M1{2, 1, 1, 0x7, 0x7, true};

double magnitude(const Fmt& f, uint32_t c) {
  const int e = int(c >> f.mb), m = int(c) & ((1 << f.mb) - 1);
  return e == 0 ? std::ldexp(double(m), 1 - f.bias - f.mb) : std::ldexp(double((1 << f.mb) + m), e - f.bias - f.mb);
}

uint32_t prng(uint32_t x) { return (x << 1) ^ ((x >> 31) ? 197u : 0u); }

// `v` (already divided by the scale) to format f: nearest-even if k == 0, else stochastic with
// k rounding bits and `seed`. NaN -> the NaN / largest code, infinities -> `over`, with sign.
uint32_t encode(const Fmt& f, double v, int k = 0, uint32_t seed = 0) {
  const uint32_t sign = std::signbit(v) ? 1u << (f.eb + f.mb) : 0;
  if (std::isnan(v)) return sign | (f.sat ? f.top : 0x7f);
  if (std::isinf(v)) return sign | f.over;
  const double a = std::fabs(v);
  uint32_t lo = 0;
  while (lo < f.top && magnitude(f, lo + 1) <= a) ++lo;
  const double lv = magnitude(f, lo);
  const double uv = lo < f.top ? magnitude(f, lo + 1) : lv + (lv - magnitude(f, lo - 1));
  if (a >= uv) return sign | f.over;  // beyond the top code by a whole step
  bool up;
  if (k == 0) {
    const double dl = a - lv, du = uv - a;
    up = du < dl || (du == dl && (lo & 1));
  } else {
    const uint64_t frac = uint64_t(std::ldexp((a - lv) / (uv - lv), k));  // truncated
    up = frac + (seed >> (32 - k)) >= (uint64_t(1) << k);
  }
  if (!up) return sign | lo;
  return sign | (lo < f.top ? lo + 1 : f.over);
}
bool is_nan_code(const Fmt& f, uint32_t c) {
  c &= (1u << (f.eb + f.mb)) - 1;
  if (f.eb == 4) return c == 0x7f;
  return f.eb == 5 && (c >> 2) == 31 && (c & 3);
}

double pow2_of(float s) {  // the scale's power of two: its exponent field
  int e;
  std::frexp(s, &e);
  return std::ldexp(1.0, e - 1);
}
float bf16v(uint16_t b) { return bf16_to_float(b); }
float f16v(uint16_t h) { return half_bits_to_float(h); }
}  // namespace

TEST_CASE("gfx950 reference: v_cvt_sr_bf16_f32 / v_cvt_sr_f16_f32", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(31);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> X = {1.0f, -1.0f, 0.0f, -0.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                          3.3895314e38f, 65504.0f, 65519.0f, 65535.0f, 1e-40f, 6.0e-8f, 3.0e-8f, 1.0000001f};
  while (X.size() < 512) {
    const float v = float(std::ldexp(1.0 + double(rng() % (1u << 23)) / double(1u << 23), int(rng() % 50) - 30));
    X.push_back((rng() & 1) ? -v : v);
  }
  const uint32_t n = uint32_t(X.size());
  std::vector<uint32_t> R(n), Old(n);
  for (uint32_t i = 0; i < n; ++i) R[i] = rng(), Old[i] = rng();
  R[0] = 0, R[1] = 0xffffffffu;
  device& dev = *the_device();
  buffer<float> dX(dev, X);
  buffer<uint32_t> dR(dev, R), dO(dev, Old), dD(dev, 2 * n);
  kernel_args args;
  args.add(dX.addr()).add(dR.addr()).add(dO.addr()).add(dD.addr());
  run(G, "cvt_sr16", {n / 64}, {64}, args);
  auto D = dD.download();
  // f16 as a table of its finite magnitudes (code order = value order).
  std::vector<double> h(0x7c00);
  for (uint32_t c = 0; c < 0x7c00; ++c) h[c] = f16v(uint16_t(c));
  auto sr_f16 = [&](float x, uint32_t seed) -> uint32_t {
    const uint32_t sign = std::signbit(x) ? 0x8000 : 0;
    const double a = std::fabs(double(x));
    if (std::isinf(a)) return sign | 0x7c00;
    const uint32_t lo = uint32_t(std::upper_bound(h.begin(), h.end(), a) - h.begin() - 1);
    const double uv = lo < 0x7bff ? h[lo + 1] : 65536.0;
    if (a >= uv) return sign | 0x7c00;
    const uint64_t frac = uint64_t(std::ldexp((a - h[lo]) / (uv - h[lo]), 13));
    const bool up = frac + (seed >> 19) >= (1u << 13);
    return sign | (up ? lo + 1 : lo);  // lo + 1 == 0x7c00: infinity
  };
  mismatches m;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t b = std::bit_cast<uint32_t>(X[i]);
    const std::string in = "(" + std::to_string(X[i]) + ", seed " + hex(R[i]) + ")";
    // bf16 into the high half: the magnitude's low 16 bits plus the seed's high 16, truncated.
    expect_exact(m, "sr_bf16 low half kept", i, D[2 * i] & 0xffff, Old[i] & 0xffff);
    const uint32_t got_b = D[2 * i] >> 16;
    if (std::isnan(X[i])) {
      if (!std::isnan(bf16v(uint16_t(got_b)))) m.add("sr_bf16 NaN lost " + in);
    } else if (std::isinf(X[i])) {
      expect_exact(m, "sr_bf16 inf", i, got_b, b >> 16);
    } else {
      expect_exact(m, "sr_bf16 " + in, i, got_b, ((b & 0x80000000u) | ((b & 0x7fffffffu) + (R[i] >> 16))) >> 16);
    }
    expect_exact(m, "sr_f16 high half kept", i, D[2 * i + 1] >> 16, Old[i] >> 16);
    const uint32_t got_h = D[2 * i + 1] & 0xffff;
    if (std::isnan(X[i])) {
      if (!std::isnan(f16v(uint16_t(got_h)))) m.add("sr_f16 NaN lost " + in);
    } else {
      expect_exact(m, "sr_f16 " + in, i, got_h, sr_f16(X[i], R[i]));
    }
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_cvt_scalef32 down-converts to fp8 / bf8 / fp4 (stochastic and nearest-even)",
          "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(77);
  const uint32_t n = 512;
  const float scales[] = {1.0f, 0.5f, 4.0f, 3.0f, 0.015625f, 1.5f, 1024.0f, 0.75f};
  std::vector<float> X(n), S(n);
  std::vector<uint16_t> H(2 * n), B(2 * n);
  std::vector<uint32_t> R(n), Old(n);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  auto rnd = [&](int lo, int hi) {  // +-[2^lo, 2^hi) with a random 23-bit mantissa
    const float v = float(std::ldexp(1.0 + double(rng() % (1u << 23)) / double(1u << 23), lo + int(rng() % uint32_t(hi - lo))));
    return (rng() & 1) ? -v : v;
  };
  for (uint32_t i = 0; i < n; ++i) {
    S[i] = scales[i % 8];
    const float p = float(pow2_of(S[i]));
    X[i] = i < 6 ? std::array<float, 6>{inf, -inf, nan, 1e30f, -480.0f * p, 448.0f * p}[i] : rnd(-12, 11) * p;
    H[2 * i] = float_to_half_bits(std::clamp(rnd(-10, 10) * p, -65504.0f, 65504.0f));
    H[2 * i + 1] = uint16_t(i < 2 ? (i ? 0x7e00 : 0xfc00) : float_to_half_bits(std::clamp(rnd(-10, 10) * p, -65504.0f, 65504.0f)));
    B[2 * i] = float_to_bf16(rnd(-12, 17) * p), B[2 * i + 1] = float_to_bf16(rnd(-12, 11) * p);
    R[i] = rng(), Old[i] = rng();
  }
  device& dev = *the_device();
  buffer<float> dX(dev, X), dS(dev, S);
  buffer<uint16_t> dH(dev, H), dB(dev, B);
  buffer<uint32_t> dR(dev, R), dO(dev, Old), dD(dev, 8 * n);
  kernel_args args;
  args.add(dX.addr()).add(dH.addr()).add(dB.addr()).add(dR.addr()).add(dS.addr()).add(dO.addr()).add(dD.addr());
  run(G, "cvt_scalef32_down", {n / 64}, {64}, args);
  auto D = dD.download();
  mismatches m;
  auto put = [](uint32_t old, uint32_t v, int sh, uint32_t mask) { return (old & ~(mask << sh)) | v << sh; };
  for (uint32_t i = 0; i < n; ++i) {
    const double p = pow2_of(S[i]);
    const uint32_t old = Old[i], r = R[i];
    const double h0 = f16v(H[2 * i]), h1 = f16v(H[2 * i + 1]), b0 = bf16v(B[2 * i]), b1 = bf16v(B[2 * i + 1]);
    const std::string in = " x " + std::to_string(X[i]) + " s " + std::to_string(S[i]) + " seed " + hex(r);
    // stochastic: k = the source's mantissa bits minus the result's
    expect_exact(m, "sr_fp8_f32 byte 1" + in, i, D[8 * i], put(old, encode(kE4M3, X[i] / p, 20, r), 8, 0xff));
    const uint32_t bf8 = encode(kE5M2, h0 / p, 8, r), got_bf8 = (D[8 * i + 1] >> 16) & 0xff;
    if (std::isnan(h0) ? !is_nan_code(kE5M2, got_bf8) : got_bf8 != bf8)
      m.add("sr_bf8_f16 byte 2[" + std::to_string(i) + "]: got " + hex(got_bf8) + " want " + hex(bf8) + in);
    expect_exact(m, "sr_bf8_f16 other bytes", i, D[8 * i + 1] & ~0xff0000u, old & ~0xff0000u);
    expect_exact(m, "sr_fp8_bf16 byte 3" + in, i, D[8 * i + 2], put(old, encode(kE4M3, b1 / p, 4, r), 24, 0xff));
    // The SR fp4 pairs: only the written byte. clang-22 does not put the old value in vdst
    // for these three (it treats the whole register as written), so the kept bytes are
    // whatever the register held.
    expect_exact(m, "sr_pk_fp4_f32 byte 3" + in, i, D[8 * i + 3] >> 24,
                 encode(kE2M1, X[i] / p, 22, r) | encode(kE2M1, -X[i] / p, 22, prng(r)) << 4);
    expect_exact(m, "sr_pk_fp4_f16 byte 1" + in, i, (D[8 * i + 4] >> 8) & 0xff,
                 encode(kE2M1, h0 / p, 9, r) | encode(kE2M1, h1 / p, 9, prng(r)) << 4);
    expect_exact(m, "sr_pk_fp4_bf16 byte 0" + in, i, D[8 * i + 5] & 0xff,
                 encode(kE2M1, b0 / p, 6, r) | encode(kE2M1, b1 / p, 6, prng(r)) << 4);
    // nearest-even: fp8 pair from f16 into word 1, bf8 pair from bf16 into word 0 (xor-ed)
    if (!std::isnan(h1) && !std::isinf(h1)) {
      const uint32_t a = put(old, encode(kE4M3, h0 / p) | encode(kE4M3, h1 / p) << 8, 16, 0xffff);
      const uint32_t c = put(old, encode(kE5M2, b0 / p) | encode(kE5M2, b1 / p) << 8, 0, 0xffff);
      expect_exact(m, "pk_fp8_f16 ^ pk_bf8_bf16" + in, i, D[8 * i + 6], a ^ c);
      const uint32_t d = put(old, encode(kE2M1, h0 / p) | encode(kE2M1, h1 / p) << 4, 16, 0xff);
      const uint32_t e = put(old, encode(kE2M1, b0 / p) | encode(kE2M1, b1 / p) << 4, 8, 0xff);
      expect_exact(m, "pk_fp4_f16 ^ pk_fp4_bf16" + in, i, D[8 * i + 7], d ^ e);
    }
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("gfx950 reference: v_cvt_scalef32 fp6 / bf6 (pk32, sr_pk32, 2xpk16 and back)", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  std::mt19937 rng(66);
  const uint32_t n = 64;
  const float scales[] = {1.0f, 0.25f, 16.0f, 3.0f, 0.0009765625f, 4096.0f, 0.5f, 1.25f};
  std::vector<float> X(32 * n), S(n), F(32 * n);
  std::vector<uint16_t> H(32 * n), B(32 * n), FH(32 * n), FB(32 * n);
  std::vector<uint32_t> R(n), C(8 * n), P(64 * n);
  for (uint32_t i = 0; i < n; ++i) {
    S[i] = scales[i % 8], R[i] = rng();
    const float p = float(pow2_of(S[i]));
    for (uint32_t j = 0; j < 32; ++j) {
      auto v = [&](int lo, int hi) {
        const float x = float(std::ldexp(1.0 + double(rng() % (1u << 23)) / double(1u << 23), lo + int(rng() % uint32_t(hi - lo)))) * p;
        return (rng() & 1) ? -x : x;
      };
      X[32 * i + j] = j == 0 && i == 0 ? std::numeric_limits<float>::quiet_NaN() : v(-6, 6);
      H[32 * i + j] = float_to_half_bits(std::clamp(v(-6, 6), -65504.0f, 65504.0f));
      B[32 * i + j] = float_to_bf16(v(-6, 6));
    }
    for (uint32_t d = 0; d < 6; ++d) C[8 * i + d] = rng();
  }
  device& dev = *the_device();
  buffer<float> dX(dev, X), dS(dev, S), dF(dev, 32 * n);
  buffer<uint16_t> dH(dev, H), dB(dev, B), dFH(dev, 32 * n), dFB(dev, 32 * n);
  buffer<uint32_t> dR(dev, R), dP(dev, 64 * n), dC(dev, C);
  kernel_args args;
  args.add(dX.addr()).add(dH.addr()).add(dB.addr()).add(dR.addr()).add(dS.addr()).add(dP.addr()).add(dC.addr());
  args.add(dF.addr()).add(dFH.addr()).add(dFB.addr());
  run(G, "cvt_fp6", {1}, {n}, args);
  P = dP.download();
  F = dF.download();
  FH = dFH.download();
  FB = dFB.download();
  // value j of a packed result at bits [6j+5 : 6j] of its six dwords (ISA pseudocode)
  auto get6 = [&](uint32_t base, int j) {
    uint32_t v = 0;
    for (int b = 0; b < 6; ++b) v |= ((P[base + (6 * j + b) / 32] >> ((6 * j + b) % 32)) & 1) << b;
    return v;
  };
  auto code6 = [&](uint32_t i, int j) {
    uint32_t v = 0;
    for (int b = 0; b < 6; ++b) v |= ((C[8 * i + (6 * j + b) / 32] >> ((6 * j + b) % 32)) & 1) << b;
    return v;
  };
  mismatches m;
  for (uint32_t i = 0; i < n; ++i) {
    const double p = pow2_of(S[i]);
    uint32_t seed = R[i];
    for (int j = 0; j < 32; ++j, seed = prng(seed)) {
      const double x = X[32 * i + j], h = f16v(H[32 * i + j]), b = bf16v(B[32 * i + j]);
      const std::string at = std::to_string(i) + "." + std::to_string(j);
      expect_exact(m, "sr_pk32_fp6_f32 " + at, j, get6(64 * i + 0, j), encode(kE2M3, x / p, 20, seed));
      expect_exact(m, "sr_pk32_bf6_f16 " + at, j, get6(64 * i + 8, j), encode(kE3M2, h / p, 8, seed));
      expect_exact(m, "sr_pk32_fp6_bf16 " + at, j, get6(64 * i + 16, j), encode(kE2M3, b / p, 4, seed));
      expect_exact(m, "pk32_bf6_f16 " + at, j, get6(64 * i + 24, j), encode(kE3M2, h / p));
      expect_exact(m, "pk32_fp6_bf16 " + at, j, get6(64 * i + 32, j), encode(kE2M3, b / p));
      // 2xpk16: slot 2q holds the first source's value q, slot 2q + 1 the second's
      const double x2 = X[32 * i + (j / 2) + 16 * (j & 1)];
      expect_exact(m, "2xpk16_fp6_f32 " + at, j, get6(64 * i + 40, j), encode(kE2M3, x2 / p));
      expect_exact(m, "2xpk16_bf6_f32 " + at, j, get6(64 * i + 48, j), encode(kE3M2, x2 / p));
      // back: code * 2^(scale exponent), exact in f32; f16 / bf16 nearest-even of that
      const uint32_t c = code6(i, j);
      const double fp6 = (c & 32 ? -1 : 1) * magnitude(kE2M3, c & 31) * p, bf6 = (c & 32 ? -1 : 1) * magnitude(kE3M2, c & 31) * p;
      expect_float(m, "pk32_f32_fp6 " + at, j, F[32 * i + j], float(fp6));
      expect_exact(m, "pk32_f16_bf6 " + at, j, FH[32 * i + j], float_to_half_bits(float(bf6)));
      expect_exact(m, "pk32_bf16_fp6 " + at, j, FB[32 * i + j], float_to_bf16(float(fp6)));
    }
  }
  REFSUITE_REQUIRE_NONE(m);
}

namespace {
// A gfx950 kernel assembled by clang++-22 from `body` (each lane: v0 its id, s[4:5] `in`,
// s[6:7] `out`), `vgprs` VGPRs; its code object's path.
std::string assemble950(const std::string& name, const std::string& body, int vgprs) {
  std::ostringstream s;
  s << "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx950\"\n\t.amdhsa_code_object_version 6\n\t.text\n"
    << "\t.globl " << name << "\n\t.p2align 8\n\t.type " << name << ",@function\n"
    << name << ":\n\ts_load_dwordx4 s[4:7], s[0:1], 0x0\n\ts_waitcnt lgkmcnt(0)\n"
    << body << "\ts_endpgm\n"
    << "\t.section .rodata,\"a\",@progbits\n\t.p2align 6, 0x0\n\t.amdhsa_kernel " << name << "\n"
    << "\t\t.amdhsa_kernarg_size 16\n\t\t.amdhsa_user_sgpr_count 2\n\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    << "\t\t.amdhsa_next_free_vgpr " << vgprs << "\n\t\t.amdhsa_next_free_sgpr 16\n"
    << "\t\t.amdhsa_accum_offset " << vgprs << "\n\t.end_amdhsa_kernel\n\t.text\n"
    << "\t.amdgpu_metadata\n---\namdhsa.kernels:\n  - .args:\n"
    << "      - .address_space: global\n        .name: in\n        .offset: 0\n        .size: 8\n        .value_kind: global_buffer\n"
    << "      - .address_space: global\n        .name: out\n        .offset: 8\n        .size: 8\n        .value_kind: global_buffer\n"
    << "    .group_segment_fixed_size: 0\n    .kernarg_segment_align: 8\n    .kernarg_segment_size: 16\n"
    << "    .max_flat_workgroup_size: 64\n    .name: " << name << "\n    .private_segment_fixed_size: 0\n"
    << "    .sgpr_count: 16\n    .symbol: " << name << ".kd\n    .vgpr_count: " << vgprs << "\n"
    << "    .wavefront_size: 64\namdhsa.target: amdgcn-amd-amdhsa--gfx950\namdhsa.version:\n  - 1\n  - 2\n...\n"
    << "\t.end_amdgpu_metadata\n";
  const std::string sp = std::string(HIPASM_SIM_TEST_DIR) + "/kernels/" + name + ".s", co = sp + ".co";
  std::ofstream(sp) << s.str();
  const std::string cmd = "clang++-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 \"" + sp + "\" -o \"" + co + "\" 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return co;
}
}  // namespace

// Every multi-register scaled convert (and the one-dword forms) with the scale an inline
// constant (1.0: llvm-mc-22 encodes the scale slot's 1.0 as an f32 constant, accepting
// 0x3f800000 and rejecting 0x3c00 there), on sources loaded and waited for, into registers
// nothing wrote before: every result dword is defined (the checker reports nothing) and each
// value is the format's (a 1.0 input gives 1.0's code, not a saturated one). In a slot of
// two f16 / bf16 values an inline constant is the 16-bit constant and a zero high half (what
// LLVM encodes 0x3c00 / 0x3f80 to there; 0x3c003c00 it rejects). v_cvt_f32_bf16's constants are
// bf16 (LLVM: 0x3f80 is its 1.0).
TEST_CASE("gfx950 reference: multi-register scaled converts with an inline-constant scale", "[reference][gfx950]") {
  REFSUITE_REQUIRE_DEVICE();
  // Each lane reads 72 dwords: f32 x32 (v[8:39]), f16 pairs x16 (v[40:55]), bf16 pairs x16
  // (v[56:71]), fp6 / bf6 codes x6 (v[72:77]), fp8 / fp4 codes (v78), and writes 124: the
  // results v[80:203].
  std::ostringstream b;
  b << "\tv_mul_u32_u24_e32 v1, 0x120, v0\n\tv_mul_u32_u24_e32 v3, 0x1f0, v0\n";
  for (int j = 0; j < 18; ++j)
    b << "\tglobal_load_dwordx4 v[" << 8 + 4 * j << ":" << 11 + 4 * j << "], v1, s[4:5] offset:" << 16 * j << "\n";
  b << "\tv_mov_b32_e32 v2, 0\n";  // the SR seed: truncation
  for (int r = 192; r < 200; ++r) b << "\tv_mov_b32_e32 v" << r << ", 0\n";  // the kept parts
  b << "\ts_waitcnt vmcnt(0)\n"
       "\tv_cvt_scalef32_pk32_fp6_f16 v[80:85], v[40:55], 1.0\n"
       "\tv_cvt_scalef32_pk32_fp6_bf16 v[86:91], v[56:71], 1.0\n"
       "\tv_cvt_scalef32_pk32_bf6_f16 v[92:97], v[40:55], 1.0\n"
       "\tv_cvt_scalef32_pk32_bf6_bf16 v[98:103], v[56:71], 1.0\n"
       "\tv_cvt_scalef32_sr_pk32_fp6_f32 v[104:109], v[8:39], v2, 1.0\n"
       "\tv_cvt_scalef32_sr_pk32_bf6_f16 v[110:115], v[40:55], v2, 1.0\n"
       "\tv_cvt_scalef32_sr_pk32_fp6_bf16 v[116:121], v[56:71], v2, 1.0\n"
       "\tv_cvt_scalef32_2xpk16_bf6_f32 v[122:127], v[8:23], v[24:39], 1.0\n"
       "\tv_cvt_scalef32_pk32_f32_fp6 v[128:159], v[72:77], 1.0\n"
       "\tv_cvt_scalef32_pk32_f16_bf6 v[160:175], v[72:77], 1.0\n"
       "\tv_cvt_scalef32_pk32_bf16_fp6 v[176:191], v[72:77], 1.0\n"
       "\tv_cvt_scalef32_f16_fp8 v192, v78, 1.0 op_sel:[0,0,1]\n"  // into the high half
       "\tv_cvt_scalef32_pk_fp8_f16 v193, v40, 1.0\n"
       "\tv_cvt_scalef32_pk_f32_fp4 v[194:195], v78, 1.0\n"
       "\tv_cvt_scalef32_sr_fp8_f16 v196, v40, v2, 1.0\n"
       "\tv_cvt_scalef32_pk_fp4_bf16 v197, v56, 1.0\n"
       "\tv_cvt_scalef32_pk_fp8_f16 v198, 1.0, 1.0\n"
       "\tv_cvt_scalef32_pk_fp8_bf16 v199, -4.0, 1.0\n"
       "\tv_cvt_f32_bf16_e32 v200, 1.0\n"        // a bf16 constant: 0x3f80
       "\tv_cvt_f32_bf16_e64 v201, -4.0\n"
       "\tv_cvt_f32_bf16_e64 v202, 0.5\n"
       "\tv_mov_b32_e32 v203, 0\n";
  for (int j = 0; j < 31; ++j)
    b << "\tglobal_store_dwordx4 v3, v[" << 80 + 4 * j << ":" << 83 + 4 * j << "], s[6:7] offset:" << 16 * j << "\n";
  const std::string co = assemble950("cvt950_inline_scale", b.str(), 204);

  std::mt19937 rng(950);
  const uint32_t lanes = 64;
  std::vector<uint32_t> In(72 * lanes);
  auto rnd = [&](int lo, int hi) {  // +-[2^lo, 2^hi) with a random 10-bit mantissa (exact in f16 / bf16 pairs: 7)
    const float v = float(std::ldexp(1.0 + double(rng() % 1024) / 1024.0, lo + int(rng() % uint32_t(hi - lo))));
    return (rng() & 1) ? -v : v;
  };
  for (uint32_t l = 0; l < lanes; ++l) {
    uint32_t* p = &In[72 * l];
    for (int j = 0; j < 32; ++j) p[j] = std::bit_cast<uint32_t>(j == 0 ? 1.0f : rnd(-3, 5));
    for (int j = 0; j < 16; ++j) {
      p[32 + j] = float_to_half_bits(j == 0 ? 1.0f : rnd(-3, 5)) | uint32_t(float_to_half_bits(rnd(-3, 5))) << 16;
      p[48 + j] = float_to_bf16(j == 0 ? 1.0f : rnd(-3, 5)) | uint32_t(float_to_bf16(rnd(-3, 5))) << 16;
    }
    for (int j = 0; j < 6; ++j) p[64 + j] = rng();
    uint32_t c8 = rng();
    while ((c8 & 0x7f) == 0x7f) c8 = rng();  // byte 0: no NaN code
    p[70] = c8;
  }
  device& dev = *the_device();
  std::unique_ptr<module> mod = dev.load_file(co);
  buffer<uint32_t> dIn(dev, In), dOut(dev, 124 * lanes);
  kernel_args args;
  args.add(dIn.addr()).add(dOut.addr());
  const launch_report rep = dev.launch(*mod, "cvt950_inline_scale", {1}, {lanes}, args);
  INFO("diagnostics:\n" << join_lines(rep.diagnostics));
  CHECK(rep.diagnostics.empty());  // (CHECK: the values are compared too)
  const std::vector<uint32_t> Out = dOut.download();

  mismatches m;
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t* p = &In[72 * l];
    const uint32_t* o = &Out[124 * l];  // o[r - 80] is v[r]
    auto f32_at = [&](int j) { return double(std::bit_cast<float>(p[j])); };
    auto h_at = [&](int j) { return double(f16v(uint16_t(p[32 + j / 2] >> (16 * (j & 1))))); };
    auto b_at = [&](int j) { return double(bf16v(uint16_t(p[48 + j / 2] >> (16 * (j & 1))))); };
    auto six = [](const uint32_t* d, int j) {  // value j at bits [6j+5 : 6j]
      uint32_t v = 0;
      for (int k = 0; k < 6; ++k) v |= ((d[(6 * j + k) / 32] >> ((6 * j + k) % 32)) & 1) << k;
      return v;
    };
    const std::string at = "lane " + std::to_string(l) + " value ";
    for (int j = 0; j < 32; ++j) {
      const std::string s = at + std::to_string(j);
      expect_exact(m, "pk32_fp6_f16 " + s, j, six(o + 0, j), encode(kE2M3, h_at(j)));
      expect_exact(m, "pk32_fp6_bf16 " + s, j, six(o + 6, j), encode(kE2M3, b_at(j)));
      expect_exact(m, "pk32_bf6_f16 " + s, j, six(o + 12, j), encode(kE3M2, h_at(j)));
      expect_exact(m, "pk32_bf6_bf16 " + s, j, six(o + 18, j), encode(kE3M2, b_at(j)));
      // seed 0 adds nothing: the SR forms truncate the magnitude
      expect_exact(m, "sr_pk32_fp6_f32 " + s, j, six(o + 24, j), encode(kE2M3, f32_at(j), 20, 0));
      expect_exact(m, "sr_pk32_bf6_f16 " + s, j, six(o + 30, j), encode(kE3M2, h_at(j), 8, 0));
      expect_exact(m, "sr_pk32_fp6_bf16 " + s, j, six(o + 36, j), encode(kE2M3, b_at(j), 4, 0));
      expect_exact(m, "2xpk16_bf6_f32 " + s, j, six(o + 42, j), encode(kE3M2, f32_at(j / 2 + 16 * (j & 1))));
      const uint32_t c = six(p + 64, j);
      const double fp6 = (c & 32 ? -1 : 1) * magnitude(kE2M3, c & 31), bf6 = (c & 32 ? -1 : 1) * magnitude(kE3M2, c & 31);
      expect_float(m, "pk32_f32_fp6 " + s, j, std::bit_cast<float>(o[48 + j]), float(fp6));
      expect_exact(m, "pk32_f16_bf6 " + s, j, (o[80 + j / 2] >> (16 * (j & 1))) & 0xffffu, uint32_t(float_to_half_bits(float(bf6))));
      expect_exact(m, "pk32_bf16_fp6 " + s, j, (o[96 + j / 2] >> (16 * (j & 1))) & 0xffffu, uint32_t(float_to_bf16(float(fp6))));
    }
    const uint32_t c8 = p[70] & 0xff;
    const double e4m3 = (c8 & 0x80 ? -1 : 1) * magnitude(kE4M3, c8 & 0x7f);
    expect_exact(m, "f16_fp8 (high half, low kept)", l, o[112], uint32_t(float_to_half_bits(float(e4m3))) << 16);
    expect_exact(m, "pk_fp8_f16", l, o[113], encode(kE4M3, h_at(0)) | encode(kE4M3, h_at(1)) << 8);
    for (int i = 0; i < 2; ++i) {
      const uint32_t n = (p[70] >> (4 * i)) & 0xf;
      expect_float(m, "pk_f32_fp4 " + std::to_string(i), l, std::bit_cast<float>(o[114 + i]),
                   float((n & 8 ? -1 : 1) * magnitude(kE2M1, n & 7)));
    }
    expect_exact(m, "sr_fp8_f16", l, o[116], encode(kE4M3, h_at(0), 7, 0));
    expect_exact(m, "pk_fp4_bf16", l, o[117], encode(kE2M1, b_at(0)) | encode(kE2M1, b_at(1)) << 4);
    // the constant pair (1.0, 0) and (-4.0, 0)
    expect_exact(m, "pk_fp8_f16 of 1.0", l, o[118], encode(kE4M3, 1.0) | encode(kE4M3, 0.0) << 8);
    expect_exact(m, "pk_fp8_bf16 of -4.0", l, o[119], encode(kE4M3, -4.0) | encode(kE4M3, 0.0) << 8);
    expect_float(m, "v_cvt_f32_bf16 1.0", l, std::bit_cast<float>(o[120]), 1.0f);
    expect_float(m, "v_cvt_f32_bf16 -4.0", l, std::bit_cast<float>(o[121]), -4.0f);
    expect_float(m, "v_cvt_f32_bf16 0.5", l, std::bit_cast<float>(o[122]), 0.5f);
  }
  REFSUITE_REQUIRE_NONE(m);
}
