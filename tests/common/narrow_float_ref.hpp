// Host references for the narrow floats, written from the formats' definitions (not from
// hipasm or hipasm-sim): each format is sign, exponent and mantissa fields from the top bit
// down, a zero exponent field subnormal (value m 2^(1 - bias - man)), else
// 2^(e - bias) (1 + m 2^-man). What the all-ones and sign-only codes mean is the format's:
//   FNUZ (AMD's e4m3fnuz bias 8, e5m2fnuz bias 16): 0x80 the only NaN, no -0, no infinities.
//   OCP 8-bit FP (OFP8) e4m3fn (bias 7): S.1111.111 NaN, no infinities, largest 448.
//   OCP e5m2 (bias 15): IEEE-like, exponent all ones infinity (mantissa 0) or NaN.
//   OCP MX v1.0 section 5.3: fp6 e2m3 (bias 1), e3m2 (bias 3), fp4 e2m1 (bias 1): all codes
//   finite; section 5.4.1: the E8M0 block scale 2^(e - 127), 0xff NaN.
// Encoding is round to nearest even; beyond the largest finite value a saturating encode gives
// it with the value's sign, a non-saturating one NaN (FNUZ 0x80, e4m3fn S.1111.111) or
// infinity (e5m2); the 6- and 4-bit formats always saturate (MX conversion rule).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace hipasm::test {

struct minifloat {
  enum special_kind { fnuz, fn, ieee, finite };
  int exp_bits, man_bits, bias;
  special_kind special;
  int bits() const { return 1 + exp_bits + man_bits; }
  uint32_t sign_bit() const { return 1u << (bits() - 1); }
  double max_finite() const {
    const int emax = (1 << exp_bits) - 1 - (special == ieee ? 1 : 0) - bias;
    const int mmax = (1 << man_bits) - 1 - (special == fn ? 1 : 0);  // e4m3fn: S.1111.111 is NaN
    return std::ldexp(1.0 + std::ldexp(double(mmax), -man_bits), emax);
  }
  uint32_t nan_code(bool neg) const {
    if (special == fnuz) return sign_bit();
    return (neg ? sign_bit() : 0) | ((1u << (exp_bits + man_bits)) - 1);
  }
};
inline constexpr minifloat e4m3fnuz{4, 3, 8, minifloat::fnuz}, e5m2fnuz{5, 2, 16, minifloat::fnuz};
inline constexpr minifloat e4m3fn{4, 3, 7, minifloat::fn}, e5m2{5, 2, 15, minifloat::ieee};
inline constexpr minifloat e2m3{2, 3, 1, minifloat::finite}, e3m2{3, 2, 3, minifloat::finite},
    e2m1{2, 1, 1, minifloat::finite};

inline double decode(const minifloat& f, uint32_t c) {
  const bool neg = (c & f.sign_bit()) != 0;
  const int e = int(c >> f.man_bits) & ((1 << f.exp_bits) - 1), m = int(c) & ((1 << f.man_bits) - 1);
  const int emax = (1 << f.exp_bits) - 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (f.special == minifloat::fnuz && c == f.sign_bit()) return nan;
  if (f.special == minifloat::fn && e == emax && m == (1 << f.man_bits) - 1) return nan;
  if (f.special == minifloat::ieee && e == emax) return m ? nan : neg ? -INFINITY : INFINITY;
  const double a = e == 0 ? std::ldexp(double(m), 1 - f.bias - f.man_bits)
                          : std::ldexp(1.0 + std::ldexp(double(m), -f.man_bits), e - f.bias);
  return neg ? -a : a;
}

inline uint32_t encode(const minifloat& f, double x, bool saturate) {
  const bool neg = std::signbit(x);
  const uint32_t s = neg ? f.sign_bit() : 0;
  const uint32_t zero = f.special == minifloat::fnuz ? 0 : s;  // (FNUZ has no -0)
  const double maxv = f.max_finite();
  const uint32_t max_code = f.special == minifloat::fn ? (1u << (f.exp_bits + f.man_bits)) - 2
                            : f.special == minifloat::ieee
                                ? ((((1u << f.exp_bits) - 2) << f.man_bits) | ((1u << f.man_bits) - 1))
                                : (1u << (f.exp_bits + f.man_bits)) - 1;
  const uint32_t inf_code = f.special == minifloat::ieee ? ((1u << f.exp_bits) - 1) << f.man_bits : 0;
  if (std::isnan(x)) return f.special == minifloat::finite ? s | max_code : f.nan_code(neg);
  double a = std::fabs(x);
  if (saturate || f.special == minifloat::finite) a = std::min(a, maxv);
  if (a == 0) return zero;
  const double sub_q = std::ldexp(1.0, 1 - f.bias - f.man_bits);
  if (std::isinf(a)) return f.special == minifloat::ieee ? s | inf_code : f.nan_code(neg);
  const int e = std::max(std::ilogb(a), 1 - f.bias);
  const double quantum = std::ldexp(1.0, e - f.man_bits);
  const double r = std::nearbyint(a / quantum) * quantum;  // ties to even; exact in double
  if (r > maxv) return f.special == minifloat::ieee ? s | inf_code : f.nan_code(neg);
  if (r == 0) return zero;
  const int re = std::ilogb(r);
  if (re < 1 - f.bias) return s | uint32_t(r / sub_q);
  return s | uint32_t(re + f.bias) << f.man_bits | (uint32_t(r / std::ldexp(1.0, re - f.man_bits)) - (1u << f.man_bits));
}

// The 8-bit formats of a target's fp8 / bf8 instructions (gfx942 FNUZ, gfx950 OCP).
struct f8_formats {
  minifloat fp8, bf8;
};
inline f8_formats f8_formats_of(const std::string& arch) {
  if (arch == "gfx950") return {e4m3fn, e5m2};
  return {e4m3fnuz, e5m2fnuz};
}

// E8M0: 2^(e - 127), 0xff NaN.
inline double e8m0_value(uint8_t e) {
  return e == 0xff ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, int(e) - 127);
}

}  // namespace hipasm::test
