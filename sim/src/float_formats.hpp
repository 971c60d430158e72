// Bit-exact conversions between f32/f64 and the narrow formats gfx942 computes with:
// IEEE half (f16), bfloat16 (bf16), and the two 8-bit "FNUZ" formats of CDNA3:
//   fp8 = E4M3, exponent bias 8, no infinities, no negative zero, 0x80 is the only NaN,
//         largest finite 240;
//   bf8 = E5M2, exponent bias 16, no infinities, no negative zero, 0x80 is the only NaN,
//         largest finite 57344.
// Written from the format definitions (not from the host's _Float16/__bf16, which the tests
// use as the independent oracle). Rounding: nearest-even unless the function says otherwise.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace hipasm::sim::fp {

inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }

inline bool is_nan32(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
inline bool is_nan16(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

// ---- f16 ----
inline float f16_to_f32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
  if (exp == 0x1f) return f32(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
  if (exp == 0) {
    if (man == 0) return f32(sign);
    // subnormal: value = man * 2^-24, exact in f32
    float v = float(man) * 0x1p-24f;
    return sign ? -v : v;
  }
  return f32(sign | ((exp + 112) << 23) | (man << 13));
}

enum class Round { NearestEven, TowardZero };

// f32 -> f16 with the given rounding; NaN stays a quiet NaN with its top payload bits.
inline uint16_t f32_to_f16(float f, Round rm = Round::NearestEven) {
  uint32_t b = bits(f);
  uint16_t sign = uint16_t((b >> 16) & 0x8000u);
  uint32_t a = b & 0x7fffffffu;
  if (a > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((a >> 13) & 0x1ffu));
  if (a == 0x7f800000u) return uint16_t(sign | 0x7c00u);
  int exp = int(a >> 23) - 127;
  uint32_t man = (a & 0x7fffffu) | (a >= 0x800000u ? 0x800000u : 0);  // 24-bit significand
  if (a < 0x800000u) exp = -126;                                      // f32 subnormal
  // target: normal if exp >= -14 (11-bit significand), else subnormal with fewer bits
  int shift;  // bits of the 24-bit significand to drop
  uint32_t hexp;
  if (exp >= -14) {
    shift = 13;
    hexp = uint32_t(exp + 15);
  } else {
    shift = 13 + (-14 - exp);
    hexp = 0;
  }
  if (shift > 31) return rm == Round::NearestEven ? sign : sign;  // rounds to zero
  uint32_t kept = man >> shift;
  uint32_t rest = man & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rm == Round::NearestEven && (rest > half || (rest == half && (kept & 1)))) ++kept;
  // kept holds the significand with implicit bit (normal) or the subnormal mantissa
  uint32_t out;
  if (hexp == 0) {
    out = kept;  // may carry into 0x400 = smallest normal, which is the right encoding
  } else {
    out = (hexp << 10) + (kept - 0x400u);  // carry past 0x7ff bumps the exponent
    if (kept >= 0x800u) out = ((hexp + 1) << 10);
  }
  if (out >= 0x7c00u) {
    // overflow: RNE goes to infinity, RTZ saturates to the largest finite value
    out = rm == Round::NearestEven ? 0x7c00u : 0x7bffu;
  }
  return uint16_t(sign | out);
}

// double -> float rounding to odd (inexact results get their last bit set): a following
// rounding to a format with at most 22 significand bits is then correctly rounded.
inline float to_float_odd(double d) {
  float f = float(d);
  if (double(f) == d || std::isnan(d) || std::isinf(f)) return f;
  uint32_t b = bits(f);
  if (std::fabs(double(f)) > std::fabs(d)) b -= 1;  // rounded away from zero: step back
  return f32(b | 1u);
}
inline uint16_t f64_to_f16(double d) { return f32_to_f16(to_float_odd(d)); }

// ---- bf16 ----
inline float bf16_to_f32(uint16_t h) { return f32(uint32_t(h) << 16); }
inline uint16_t f32_to_bf16(float f) {
  uint32_t b = bits(f);
  if (is_nan32(b)) return uint16_t((b >> 16) | 0x40u);
  uint32_t lsb = (b >> 16) & 1u;
  b += 0x7fffu + lsb;
  return uint16_t(b >> 16);
}

// ---- fp8 / bf8 (FNUZ) ----
struct Fp8Format {
  int man_bits;  // 3 (fp8) or 2 (bf8)
  int bias;      // 8 or 16
  int max_exp_field;
};
inline constexpr Fp8Format kFp8{3, 8, 15};
inline constexpr Fp8Format kBf8{2, 16, 31};

inline float fp8_to_f32(uint8_t v, const Fp8Format& f) {
  if (v == 0x80) return std::numeric_limits<float>::quiet_NaN();
  bool neg = v & 0x80;
  int exp = (v >> f.man_bits) & ((1 << (7 - f.man_bits)) - 1);
  int man = v & ((1 << f.man_bits) - 1);
  float r;
  if (exp == 0)
    r = std::ldexp(float(man), 1 - f.bias - f.man_bits);
  else
    r = std::ldexp(float((1 << f.man_bits) | man), exp - f.bias - f.man_bits);
  return neg ? -r : r;
}
inline float fp8_to_f32(uint8_t v) { return fp8_to_f32(v, kFp8); }
inline float bf8_to_f32(uint8_t v) { return fp8_to_f32(v, kBf8); }

// f32 -> fp8/bf8. Nearest-even when `rand` is absent; stochastic rounding adds `rand`
// (uniform 32 bits) below the kept precision before truncating. Values beyond the largest
// finite one become NaN (0x80) unless `saturate`, which clamps them (and infinities) to
// +-max. A result that rounds to zero is +0 (the format has no -0).
inline uint8_t f32_to_fp8(float x, const Fp8Format& f, bool saturate, bool stochastic = false,
                          uint32_t rand = 0) {
  uint32_t b = bits(x);
  if (is_nan32(b)) return 0x80;
  bool neg = b >> 31;
  double a = std::fabs(double(x));
  const int max_man = (1 << f.man_bits) - 1;
  const double max_val = std::ldexp(double((1 << f.man_bits) | max_man),
                                    f.max_exp_field - f.bias - f.man_bits);
  if (std::isinf(a)) return saturate ? uint8_t((neg ? 0x80 : 0) | 0x7f) : 0x80;
  if (a == 0) return 0;
  // quantum at this magnitude
  int e;
  std::frexp(a, &e);             // a in [2^(e-1), 2^e)
  int exp_unb = e - 1;
  int min_exp = 1 - f.bias;      // smallest normal exponent
  if (exp_unb < min_exp) exp_unb = min_exp;
  double q = std::ldexp(1.0, exp_unb - f.man_bits);
  double m = a / q;              // exact: a is an f32, q a power of two
  double n = std::floor(m);
  double frac = m - n;
  bool up;
  if (stochastic) {
    up = frac * 4294967296.0 + double(rand) >= 4294967296.0;
  } else {
    up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0);
  }
  double r = (n + (up ? 1 : 0)) * q;
  if (r > max_val) {
    if (!saturate) return 0x80;
    r = max_val;
  }
  if (r == 0) return 0;
  // encode r
  int re;
  std::frexp(r, &re);
  int rexp = re - 1;
  uint8_t out;
  if (rexp < min_exp) {
    out = uint8_t(r / std::ldexp(1.0, min_exp - f.man_bits));  // subnormal mantissa
  } else {
    int field = rexp + f.bias;
    int man = int(r / std::ldexp(1.0, rexp - f.man_bits)) - (1 << f.man_bits);
    out = uint8_t((field << f.man_bits) | man);
  }
  return uint8_t((neg ? 0x80 : 0) | out);
}

// ---- small floats of CDNA4 (OCP MX formats): e4m3fn, e5m2, fp6 e2m3/e3m2, fp4 e2m1 ----
// Sign, exponent, mantissa from the top bit down; exponent bias as given; a zero exponent
// field is subnormal. Specials: e4m3fn has no infinities and S.1111.111 is NaN; e5m2 is
// IEEE-like (all-ones exponent: infinity or NaN); the 6- and 4-bit formats have neither.
// (OCP Microscaling Formats (MX) v1.0, sections 5.3-5.3.3; OCP 8-bit FP spec.)
struct MiniFloat {
  int exp_bits, man_bits, bias;
  enum Special : uint8_t { None, AllOnesNan, Ieee } special;
  int bits() const { return 1 + exp_bits + man_bits; }
};
inline constexpr MiniFloat kE4M3{4, 3, 7, MiniFloat::AllOnesNan};
inline constexpr MiniFloat kE5M2{5, 2, 15, MiniFloat::Ieee};
inline constexpr MiniFloat kE2M3{2, 3, 1, MiniFloat::None};
inline constexpr MiniFloat kE3M2{3, 2, 3, MiniFloat::None};
inline constexpr MiniFloat kE2M1{2, 1, 1, MiniFloat::None};

inline float mini_to_f32(uint32_t v, const MiniFloat& f) {
  const int n = f.bits();
  const bool neg = (v >> (n - 1)) & 1;
  const int exp = int(v >> f.man_bits) & ((1 << f.exp_bits) - 1);
  const int man = int(v) & ((1 << f.man_bits) - 1);
  const int exp_max = (1 << f.exp_bits) - 1;
  float r;
  if (f.special == MiniFloat::AllOnesNan && exp == exp_max && man == (1 << f.man_bits) - 1)
    r = std::numeric_limits<float>::quiet_NaN();
  else if (f.special == MiniFloat::Ieee && exp == exp_max)
    r = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else if (exp == 0)
    r = std::ldexp(float(man), 1 - f.bias - f.man_bits);
  else
    r = std::ldexp(float((1 << f.man_bits) | man), exp - f.bias - f.man_bits);
  return neg ? -r : r;
}

// Stochastic rounding of a magnitude at quantum q, keeping `sr_bits` bits below q: the
// fraction is truncated to those bits, the top `sr_bits` bits of `seed` are added and a carry
// rounds up. sr_bits = the source's mantissa bits minus the result's (f32 -> e4m3: 20), so
// the seed's high bits line up one past the kept mantissa (the ISA's v_cvt_sr_fp8_f32
// "mantissa + S1[31:12]", AMD's OCP host model `from_float_sr` in amd_hip_ocp_host.hpp).
inline double sr_round(double a, double q, int sr_bits, uint32_t seed) {
  const double m = a / q, n = std::floor(m);
  const uint64_t frac = uint64_t(std::ldexp(m - n, sr_bits));
  return (n + double((frac + (seed >> (32 - sr_bits))) >> sr_bits)) * q;
}

// f32 -> a format without infinities or NaN (fp6 e2m3/e3m2, fp4 e2m1), divided first by
// 2^(scale_exp - 127): nearest-even, saturating to the largest finite value; NaN, infinities
// and scale_exp 0xff give the largest magnitude with the input's sign (gfx950's
// v_cvt_scalef32_* rule). sr_bits > 0: stochastic rounding with `seed` (sr_round).
inline uint32_t f32_to_mini_sat(float x, const MiniFloat& f, uint32_t scale_exp, int sr_bits = 0,
                                uint32_t seed = 0) {
  const uint32_t b = bits(x);
  const uint32_t sign = (b >> 31) << (f.bits() - 1);
  const uint32_t max_code = (1u << (f.exp_bits + f.man_bits)) - 1;
  if ((b & 0x7f800000u) == 0x7f800000u || scale_exp == 0xff) return sign | max_code;
  const double a = std::ldexp(std::fabs(double(x)), 127 - int(scale_exp));
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  const int min_exp = 1 - f.bias;
  const int exp_unb = std::max(e - 1, min_exp);
  const double q = std::ldexp(1.0, exp_unb - f.man_bits);
  const double m = a / q, n = std::floor(m), frac = m - n;
  const bool up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0);
  const double r = sr_bits ? sr_round(a, q, sr_bits, seed) : (n + (up ? 1 : 0)) * q;
  const double max_val = std::ldexp(double((2u << f.man_bits) - 1), (1 << f.exp_bits) - 1 - f.bias - f.man_bits);
  if (r >= max_val) return sign | max_code;
  if (r == 0) return sign;
  int re;
  std::frexp(r, &re);
  const int rexp = re - 1;
  if (rexp < min_exp) return sign | uint32_t(r / std::ldexp(1.0, min_exp - f.man_bits));
  const uint32_t man = uint32_t(r / std::ldexp(1.0, rexp - f.man_bits)) - (1u << f.man_bits);
  return sign | uint32_t(rexp + f.bias) << f.man_bits | man;
}

// f32 -> OCP e4m3fn / e5m2 (gfx950's v_cvt_[pk_]{fp8,bf8}_f32 and v_cvt_scalef32_pk_* forms),
// divided first by 2^(scale_exp - 127). Round to nearest even over the whole range, subnormals
// included (a magnitude above half the smallest subnormal rounds up to it), and a zero keeps
// its sign in both formats: the OCP 8-bit FP spec (OFP8 v1.0: roundTiesToEven, +-0 encodings)
// and AMD's host model of these builtins (HIP's amd_hip_ocp_host.hpp, fcbx::from_float: round
// and sticky bits below the kept mantissa, zero<E>(sign) for E4M3 and E5M2). Overflow and
// infinities give the infinity code (e4m3: 0x7f, its NaN; e5m2: 0x7c) or, with clamp, the
// largest finite value (0x7e / 0x7b); NaN and scale_exp 0xff give 0x7f. sr_bits > 0:
// stochastic rounding with `seed` (sr_round).
inline uint8_t f32_to_ocp_fp8(float x, bool bf8, uint32_t scale_exp, bool clamp, int sr_bits = 0,
                              uint32_t seed = 0) {
  const MiniFloat& f = bf8 ? kE5M2 : kE4M3;
  const uint32_t b = bits(x);
  const uint8_t sign = uint8_t((b >> 31) << 7);
  const uint8_t inf_code = clamp ? (bf8 ? 0x7b : 0x7e) : (bf8 ? 0x7c : 0x7f);
  if ((b & 0x7fffffffu) == 0x7f800000u) return sign | inf_code;
  if (is_nan32(b) || scale_exp == 0xff) return sign | 0x7f;
  if ((b & 0x7fffffffu) == 0) return sign;
  const double a = std::ldexp(std::fabs(double(x)), 127 - int(scale_exp));
  int e;
  std::frexp(a, &e);
  const int min_exp = 1 - f.bias;
  const int exp_unb = std::max(e - 1, min_exp);
  const double q = std::ldexp(1.0, exp_unb - f.man_bits);
  const double m = a / q, n = std::floor(m), frac = m - n;
  const double r = sr_bits ? sr_round(a, q, sr_bits, seed)
                           : (n + ((frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0)) ? 1 : 0)) * q;
  if (r == 0) return sign;
  const double max_val = bf8 ? 57344.0 : 448.0;
  if (r > max_val) return sign | inf_code;
  int re;
  std::frexp(r, &re);
  const int rexp = re - 1;
  if (rexp < min_exp) return sign | uint8_t(r / std::ldexp(1.0, min_exp - f.man_bits));
  const uint32_t man = uint32_t(r / std::ldexp(1.0, rexp - f.man_bits)) - (1u << f.man_bits);
  return sign | uint8_t(uint32_t(rexp + f.bias) << f.man_bits | man);
}

// E8M0 (the MX block scale): 2^(v - 127); 0xff is NaN.
inline float e8m0_to_f32(uint8_t v) {
  if (v == 0xff) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, int(v) - 127);
}

// ---- helpers used by several ops ----
inline uint32_t canonical_nan32() { return 0x7fc00000u; }

}  // namespace hipasm::sim::fp
