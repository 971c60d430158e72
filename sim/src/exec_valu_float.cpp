// VALU floating-point arithmetic: f32, f64, f16 (VOP1/VOP2/VOP3), division helpers,
// rounding, frexp/ldexp, transcendentals (results from the host's libm in double, then
// rounded: within the ISA's 1 ulp for exp/log/rcp/rsq/sqrt/sin/cos).
#include <limits>

#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

constexpr SrcType F32 = SrcType::F32, F64 = SrcType::F64, F16 = SrcType::F16, B32 = SrcType::B32,
                  B16 = SrcType::B16;

constexpr double kTwoPi = 6.283185307179586476925286766559;

// ---- f32 drivers: f takes floats (denormal-flushed per MODE) and returns a float.
template <class F> void f32_1(Wave& w, const Inst& in, F f) {
  F32Env e(w);
  valu32<1>(w, in, {F32}, DstType::F32, [&](uint32_t a) { return e.o(f(e.i(a))); });
}
template <class F> void f32_2(Wave& w, const Inst& in, F f) {
  F32Env e(w);
  valu32<2>(w, in, {F32, F32}, DstType::F32, [&](uint32_t a, uint32_t b) { return e.o(f(e.i(a), e.i(b))); });
}
template <class F> void f32_3(Wave& w, const Inst& in, F f) {
  F32Env e(w);
  valu32<3>(w, in, {F32, F32, F32}, DstType::F32,
            [&](uint32_t a, uint32_t b, uint32_t c) { return e.o(f(e.i(a), e.i(b), e.i(c))); });
}
template <class F> void f64_1(Wave& w, const Inst& in, F f) {
  F64Env e(w);
  valu64<1>(w, in, {F64}, DstType::F64, [&](uint64_t a) { return e.o(f(e.i(a))); });
}
template <class F> void f64_2(Wave& w, const Inst& in, F f) {
  F64Env e(w);
  valu64<2>(w, in, {F64, F64}, DstType::F64, [&](uint64_t a, uint64_t b) { return e.o(f(e.i(a), e.i(b))); });
}
template <class F> void f64_3(Wave& w, const Inst& in, F f) {
  F64Env e(w);
  valu64<3>(w, in, {F64, F64, F64}, DstType::F64,
            [&](uint64_t a, uint64_t b, uint64_t c) { return e.o(f(e.i(a), e.i(b), e.i(c))); });
}

// f16: computed in float/double, rounded once to f16.
template <class F> void f16_1(Wave& w, const Inst& in, DstType dt, F f) {
  F16Env e(w);
  valu32<1>(w, in, {F16}, dt, [&](uint32_t a) { return e.o(f(e.i(a))); });
}
template <class F> void f16_2(Wave& w, const Inst& in, DstType dt, F f) {
  F16Env e(w);
  valu32<2>(w, in, {F16, F16}, dt, [&](uint32_t a, uint32_t b) { return e.o(f(e.i(a), e.i(b))); });
}
template <class F> void f16_3(Wave& w, const Inst& in, DstType dt, F f) {
  F16Env e(w);
  valu32<3>(w, in, {F16, F16, F16}, dt,
            [&](uint32_t a, uint32_t b, uint32_t c) { return e.o(f(e.i(a), e.i(b), e.i(c))); });
}

// Generic "accumulate into the destination" handler for fmac/mac forms: the VOP2 encoding
// has no src2, so the old destination value is the addend.
template <SrcType T, class F>
void acc_op(Wave& w, const Inst& in, DstType dt, F f) {
  Sources s;
  const SrcType t[2] = {T, T};
  gather(w, in, 2, t, s);
  const bool wide = T == SrcType::F64;
  const uint32_t* d0 = vec_ptr(w, in.dst[0], 0);
  const uint32_t* d1 = wide ? vec_ptr(w, in.dst[0], 1) : nullptr;
  if (wide) {
    alignas(64) uint64_t res[kLanes];
    for_lanes(s.mask, [&](int l) {
      uint64_t a = s.p[0][0][l] | (uint64_t(s.p[0][1][l]) << 32);
      uint64_t b = s.p[1][0][l] | (uint64_t(s.p[1][1][l]) << 32);
      uint64_t c = d0[l] | (uint64_t(d1[l]) << 32);
      res[l] = f(a, b, c);
    });
    write_dst64(w, in, s.mask, dt, res);
  } else {
    alignas(64) uint32_t res[kLanes];
    for_lanes(s.mask, [&](int l) { res[l] = uint32_t(f(s.p[0][0][l], s.p[1][0][l], d0[l])); });
    write_dst32(w, in, s.mask, dt, res);
  }
  w.lane_ops += std::popcount(s.mask);
}

// Fast path of v_fma_f32 / v_fmac_f32 / v_fmamk / v_fmaak: the host FMA over all lanes
// when denormals are kept (MODE f32 = 3). `acc`: the VOP2 fmac form, addend = old dst.
// Returns false when the generic per-lane path must run instead.
bool fma32_fast(Wave& w, const Inst& in, bool acc) {
  if (!host_has_fma() || ((w.mode >> 4) & 3) != 3) return false;
  Sources s;
  static constexpr SrcType t[3] = {SrcType::F32, SrcType::F32, SrcType::F32};
  gather(w, in, acc ? 2 : 3, t, s);
  alignas(64) uint32_t old[kLanes];
  const uint32_t* c = s.p[2][0];
  if (acc) {
    std::memcpy(old, vec_ptr(w, in.dst[0]), sizeof old);
    c = old;
  }
  alignas(64) uint32_t res[kLanes];
  fma32_lanes_hw(s.mask, s.p[0][0], s.p[1][0], c, res);
  write_dst32(w, in, s.mask, DstType::F32, res);
  w.lane_ops += std::popcount(s.mask);
  return true;
}

// ---- helpers
inline float fract32(float x) {
  if (std::isinf(x)) return std::numeric_limits<float>::quiet_NaN();
  if (std::isnan(x)) return x;
  float r = x - std::floor(x);
  return std::min(r, 0x1.fffffep-1f);
}
inline double fract64(double x) {
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(x)) return x;
  double r = x - std::floor(x);
  return std::min(r, 0x1.fffffffffffffp-1);
}
inline int frexp_exp(double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return 0;
  int e;
  std::frexp(x, &e);
  return e;
}
inline double frexp_mant(double x) {
  if (std::isnan(x) || std::isinf(x)) return x;  // NaN/inf pass through
  int e;
  return std::frexp(x, &e);
}
inline float rndne(float x) { return std::nearbyint(x); }  // host rounding mode is nearest-even
inline double rndne(double x) { return std::nearbyint(x); }
// sin/cos with the input in revolutions (x * 2*pi), computed in double.
inline double sin_rev(double x) {
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = x - std::nearbyint(x);
  return std::sin(kTwoPi * r);
}
inline double cos_rev(double x) {
  if (std::isinf(x)) return std::numeric_limits<double>::quiet_NaN();
  double r = x - std::nearbyint(x);
  return std::cos(kTwoPi * r);
}
inline int biased_exp32(float x) { return int((bits(x) >> 23) & 0xff); }
inline int biased_exp64(double x) { return int((bits(x) >> 52) & 0x7ff); }
inline bool is_denorm32(float x) { return x != 0 && std::fpclassify(x) == FP_SUBNORMAL; }
inline bool is_denorm64(double x) { return x != 0 && std::fpclassify(x) == FP_SUBNORMAL; }

// fma(a, b, c) * 2^k rounded once to f32 (v_div_fmas post-scaling can land in the denormal
// range, where scaling a rounded f32 would round twice). The exact a*b+c is formed in
// double (product exact, TwoSum for the addition), rounded to odd, scaled, then rounded.
inline float fma_scaled_f32(float a, float b, float c, int k) {
  const double p = double(a) * double(b);  // exact: 48-bit product
  const double s = p + double(c);
  if (!std::isfinite(s)) return float(std::ldexp(s, k));
  const double bp = s - p;
  const double e = (p - (s - bp)) + (double(c) - bp);  // p + c == s + e exactly
  double r = s;
  if (e != 0) {
    if ((e < 0) != (s < 0) && s != 0) r = std::nextafter(s, 0.0);  // truncate toward zero
    r = f64(bits(r) | 1u);                                           // round to odd
  }
  return float(std::ldexp(r, k));
}

// V_DIV_SCALE (ISA pseudocode): scale num or den by 2^+-64 (f64: 2^+-128) to keep the
// Newton-Raphson steps away from subnormals; VCC marks quotients that need post-scaling.
template <class T>
std::pair<T, bool> div_scale(T s0, T den, T num) {
  constexpr bool dbl = std::is_same_v<T, double>;
  constexpr int big = dbl ? 768 : 96, sc = dbl ? 128 : 64, tiny = dbl ? 53 : 23;
  auto ex = [](T v) { if constexpr (dbl) return biased_exp64(v); else return biased_exp32(v); };
  auto dn = [](T v) { if constexpr (dbl) return is_denorm64(v); else return is_denorm32(v); };
  // "1/den is a denormal" in the operation's own type (an f64 test missed f32 dens > 2^126).
  const bool rcp_denorm = dn(T(1) / den);
  // "num/den is a denormal" on the exact quotient, |num/den| < 2^emin: a rounded quotient
  // misses those that round to 0 (2^-150 = 3*2^-149 / 6, a tie) or up to the smallest normal,
  // and unscaled they come out of the refinement rounded twice (0x1 for 3*2^-149 / 6).
  const bool quot_denorm = [&] {
    if (!std::isfinite(num) || !std::isfinite(den)) return false;
    int en = 0, ed = 0;
    const T mn = std::fabs(std::frexp(num, &en)), md = std::fabs(std::frexp(den, &ed));
    // |num/den| = (mn/md) * 2^(en-ed) with mn/md in [1, 2) or (1/2, 1)
    const int emin = std::numeric_limits<T>::min_exponent - 1;  // 2^emin: smallest normal
    return en - ed + (mn >= md ? 0 : -1) < emin;
  }();
  bool vcc = false;
  T d = s0;
  if (num == 0 || den == 0) {
    d = std::numeric_limits<T>::quiet_NaN();
  } else if (ex(num) - ex(den) >= big) {
    vcc = true;
    if (s0 == den) d = std::ldexp(s0, sc);
  } else if (dn(den)) {
    d = std::ldexp(s0, sc);
  } else if (rcp_denorm && quot_denorm) {
    // The ISA text scales the denominator by 2^+128 here, which
    // overflows it; scaling it down (post-scaled by 2^-128 through VCC) gives the IEEE
    // quotient clang's sequence expects.
    vcc = true;
    if (s0 == den) d = std::ldexp(s0, -sc);
  } else if (rcp_denorm) {
    d = std::ldexp(s0, -sc);
  } else if (quot_denorm) {
    vcc = true;
    if (s0 == num) d = std::ldexp(s0, sc);
  } else if (ex(num) <= tiny) {
    d = std::ldexp(s0, sc);
  }
  return {d, vcc};
}

// V_DIV_FIXUP (ISA pseudocode): the special cases of num/den applied to quotient s0.
template <class T>
T div_fixup(T s0, T den, T num) {
  constexpr bool dbl = std::is_same_v<T, double>;
  const bool sign = std::signbit(den) != std::signbit(num);
  const T inf = std::numeric_limits<T>::infinity();
  auto quiet = [](T v) {
    if constexpr (dbl) return f64(bits(v) | 0x8000000000000ull); else return f32(bits(v) | 0x400000u);
  };
  if (std::isnan(num)) return quiet(num);
  if (std::isnan(den)) return quiet(den);
  if (den == 0 && num == 0) return dbl ? T(f64(0xfff8000000000000ull)) : T(f32(0xffc00000u));
  if (std::isinf(den) && std::isinf(num)) return dbl ? T(f64(0xfff8000000000000ull)) : T(f32(0xffc00000u));
  if (den == 0 || std::isinf(num)) return sign ? -inf : inf;
  if (std::isinf(den) || num == 0) return sign ? T(-0.0) : T(0.0);
  int en, ed;
  if constexpr (dbl) { en = biased_exp64(num); ed = biased_exp64(den); }
  else { en = biased_exp32(num); ed = biased_exp32(den); }
  if (en - ed < (dbl ? -1075 : -150)) return sign ? T(-0.0) : T(0.0);  // underflow
  if (ed == (dbl ? 2047 : 255)) return sign ? -std::numeric_limits<T>::max() : std::numeric_limits<T>::max();
  // A NaN quotient here comes from an overflowing Newton-Raphson sequence (num/den beyond
  // the range even after v_div_scale): the hardware returns a signed infinity.
  if (std::isnan(s0)) return sign ? -inf : inf;
  return sign ? -std::fabs(s0) : std::fabs(s0);
}

// V_TRIG_PREOP_F64: 53 bits of 2/pi starting at bit (S1 & 31)*53 (+ an exponent-based
// shift when the input is large), scaled. The table is 2/pi to 1200 bits.
const uint32_t kTwoOverPi[] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
    0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e,
    0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b,
    0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
    0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
    0x1f8d5d08, 0x56033046,
};
inline int two_over_pi_bit(int i) {  // bit i (0 = most significant, weight 2^-1)
  if (i < 0 || i >= int(sizeof kTwoOverPi * 8)) return 0;
  return (kTwoOverPi[i / 32] >> (31 - i % 32)) & 1;
}
double trig_preop(double x, uint32_t seg) {
  int shift = int(seg & 31) * 53;
  int e = biased_exp64(x) - 1023;
  if (e > 1077) shift += e - 1077;
  // 53 bits starting at `shift`: value = sum bit(shift+k) * 2^-(shift+k+1)
  uint64_t m = 0;
  for (int k = 0; k < 53; ++k) m = (m << 1) | uint64_t(two_over_pi_bit(shift + k));
  return std::ldexp(double(m), -(shift + 53));
}

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_float({
    // ---- f32 binary / ternary
    {"v_add_f32", H(f32_2(w, in, [](float a, float b) { return a + b; }))},
    {"v_sub_f32", H(f32_2(w, in, [](float a, float b) { return a - b; }))},
    {"v_subrev_f32", H(f32_2(w, in, [](float a, float b) { return b - a; }))},
    {"v_mul_f32", H(f32_2(w, in, [](float a, float b) { return a * b; }))},
    {"v_mul_legacy_f32", H(f32_2(w, in, [](float a, float b) {
       return (a == 0 || b == 0) ? 0.0f : a * b; }))},  // DX9 rule: 0 * anything = 0
    {"v_min_f32", H(f32_2(w, in, [](float a, float b) { return fmin_ieee(a, b); }))},
    {"v_max_f32", H(f32_2(w, in, [](float a, float b) { return fmax_ieee(a, b); }))},
    {"v_min3_f32", H(f32_3(w, in, [](float a, float b, float c) { return fmin_ieee(fmin_ieee(a, b), c); }))},
    {"v_max3_f32", H(f32_3(w, in, [](float a, float b, float c) { return fmax_ieee(fmax_ieee(a, b), c); }))},
    {"v_med3_f32", H(f32_3(w, in, [](float a, float b, float c) { return fmed3(a, b, c); }))},
    {"v_fma_f32", H(if (!fma32_fast(w, in, false)) f32_3(w, in, [](float a, float b, float c) { return fma32(a, b, c); }))},
    // fmamk/fmaak: the literal is already in the right source slot (src1 / src2)
    {"v_fmamk_f32", H(if (!fma32_fast(w, in, false)) f32_3(w, in, [](float a, float b, float c) { return fma32(a, b, c); }))},
    {"v_fmaak_f32", H(if (!fma32_fast(w, in, false)) f32_3(w, in, [](float a, float b, float c) { return fma32(a, b, c); }))},
    {"v_fmac_f32", H({
       F32Env e(w);
       if (fma32_fast(w, in, in.num_src <= 2)) return;
       if (in.num_src > 2) {  // VOP3 form with an explicit src2 (== vdst)
         f32_3(w, in, [](float a, float b, float c) { return fma32(a, b, c); });
         return;
       }
       acc_op<SrcType::F32>(w, in, DstType::F32, [&](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         return e.o(fma32(e.i(uint32_t(a)), e.i(uint32_t(b)), e.i(uint32_t(c)))); });
     })},
    {"v_ldexp_f32", H({
       F32Env e(w);
       valu32<2>(w, in, {F32, B32}, DstType::F32, [&](uint32_t a, uint32_t b) {
         return e.o(std::ldexp(e.i(a), std::clamp(int32_t(b), -1000, 1000))); });
     })},
    {"v_div_scale_f32", H({
       F32Env e(w);
       Sources s;
       static constexpr SrcType t[3] = {SrcType::F32, SrcType::F32, SrcType::F32};
       gather(w, in, 3, t, s);
       alignas(64) uint32_t res[kLanes];
       uint64_t vcc = 0;
       for_lanes(s.mask, [&](int l) {
         auto [d, v] = div_scale<float>(f32(s.p[0][0][l]), f32(s.p[1][0][l]), f32(s.p[2][0][l]));
         res[l] = bits(d);
         vcc |= uint64_t(v) << l;
       });
       write_dst32(w, in, s.mask, DstType::F32, res);
       write_mask_dst(w, mask_dst(in, 1), vcc);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_div_fmas_f32", H({
       F32Env e(w);
       const uint64_t vcc = w.vcc;
       Sources s;
       static constexpr SrcType t[3] = {SrcType::F32, SrcType::F32, SrcType::F32};
       gather(w, in, 3, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         float a = f32(s.p[0][0][l]), b = f32(s.p[1][0][l]), c = f32(s.p[2][0][l]);
         // input denormals are not flushed (ISA note); post-scaling rounds once
         const int k = ((vcc >> l) & 1) ? (biased_exp32(c) > 127 ? 64 : -64) : 0;
         res[l] = e.o(k ? fma_scaled_f32(a, b, c, k) : fma32(a, b, c));
       });
       write_dst32(w, in, s.mask, DstType::F32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_div_fixup_f32", H(f32_3(w, in, [](float a, float b, float c) { return div_fixup<float>(a, b, c); }))},
    // ---- cube map helpers (ISA pseudocode: face of the major axis)
    {"v_cubeid_f32", H(f32_3(w, in, [](float x, float y, float z) {
       if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return z < 0 ? 5.0f : 4.0f;
       if (std::fabs(y) >= std::fabs(x)) return y < 0 ? 3.0f : 2.0f;
       return x < 0 ? 1.0f : 0.0f; }))},
    {"v_cubesc_f32", H(f32_3(w, in, [](float x, float y, float z) {
       if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return z < 0 ? -x : x;
       if (std::fabs(y) >= std::fabs(x)) return x;
       return x < 0 ? z : -z; }))},
    {"v_cubetc_f32", H(f32_3(w, in, [](float x, float y, float z) {
       if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return -y;
       if (std::fabs(y) >= std::fabs(x)) return y < 0 ? -z : z;
       return -y; }))},
    {"v_cubema_f32", H(f32_3(w, in, [](float x, float y, float z) {
       if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return z * 2.0f;
       if (std::fabs(y) >= std::fabs(x)) return y * 2.0f;
       return x * 2.0f; }))},
    // exception flags are not modelled
    {"v_clrexcp", H((void)w; (void)in)},
    // ---- f32 unary
    {"v_fract_f32", H(f32_1(w, in, [](float a) { return fract32(a); }))},
    {"v_trunc_f32", H(f32_1(w, in, [](float a) { return std::trunc(a); }))},
    {"v_ceil_f32", H(f32_1(w, in, [](float a) { return std::ceil(a); }))},
    {"v_floor_f32", H(f32_1(w, in, [](float a) { return std::floor(a); }))},
    {"v_rndne_f32", H(f32_1(w, in, [](float a) { return rndne(a); }))},
    {"v_exp_f32", H(f32_1(w, in, [](float a) { return float(std::exp2(double(a))); }))},
    {"v_exp_legacy_f32", H(f32_1(w, in, [](float a) { return float(std::exp2(double(a))); }))},
    {"v_log_f32", H(f32_1(w, in, [](float a) { return float(std::log2(double(a))); }))},
    {"v_log_legacy_f32", H(f32_1(w, in, [](float a) { return float(std::log2(double(a))); }))},
    {"v_rcp_f32", H(f32_1(w, in, [](float a) { return float(1.0 / double(a)); }))},
    {"v_rcp_iflag_f32", H(f32_1(w, in, [](float a) { return float(1.0 / double(a)); }))},
    {"v_rsq_f32", H(f32_1(w, in, [](float a) { return float(1.0 / std::sqrt(double(a))); }))},
    {"v_sqrt_f32", H(f32_1(w, in, [](float a) { return float(std::sqrt(double(a))); }))},
    {"v_sin_f32", H(f32_1(w, in, [](float a) { return float(sin_rev(a)); }))},
    {"v_cos_f32", H(f32_1(w, in, [](float a) { return float(cos_rev(a)); }))},
    {"v_frexp_mant_f32", H(f32_1(w, in, [](float a) { return float(frexp_mant(a)); }))},
    {"v_frexp_exp_i32_f32", H(valu32<1>(w, in, {F32}, DstType::B32, [](uint32_t a) {
       return uint32_t(frexp_exp(f32(a))); }))},
    // ---- f64
    {"v_add_f64", H(f64_2(w, in, [](double a, double b) { return a + b; }))},
    {"v_mul_f64", H(f64_2(w, in, [](double a, double b) { return a * b; }))},
    {"v_min_f64", H(f64_2(w, in, [](double a, double b) { return dmin_ieee(a, b); }))},
    {"v_max_f64", H(f64_2(w, in, [](double a, double b) { return dmax_ieee(a, b); }))},
    {"v_fma_f64", H(f64_3(w, in, [](double a, double b, double c) { return fma64(a, b, c); }))},
    {"v_fmac_f64", H({
       F64Env e(w);
       if (in.num_src > 2) {
         f64_3(w, in, [](double a, double b, double c) { return fma64(a, b, c); });
         return;
       }
       acc_op<SrcType::F64>(w, in, DstType::F64, [&](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         return e.o(fma64(e.i(a), e.i(b), e.i(c))); });
     })},
    {"v_ldexp_f64", H({
       F64Env e(w);
       valu64<2>(w, in, {F64, B32}, DstType::F64, [&](uint64_t a, uint64_t b) {
         return e.o(std::ldexp(e.i(a), std::clamp(int32_t(uint32_t(b)), -5000, 5000))); });
     })},
    {"v_div_scale_f64", H({
       Sources s;
       static constexpr SrcType t[3] = {SrcType::F64, SrcType::F64, SrcType::F64};
       gather(w, in, 3, t, s);
       alignas(64) uint64_t res[kLanes];
       uint64_t vcc = 0;
       auto get = [&](int i, int l) { return f64(s.p[i][0][l] | (uint64_t(s.p[i][1][l]) << 32)); };
       for_lanes(s.mask, [&](int l) {
         auto [d, v] = div_scale<double>(get(0, l), get(1, l), get(2, l));
         res[l] = bits(d);
         vcc |= uint64_t(v) << l;
       });
       write_dst64(w, in, s.mask, DstType::F64, res);
       write_mask_dst(w, mask_dst(in, 1), vcc);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_div_fmas_f64", H({
       F64Env e(w);
       const uint64_t vcc = w.vcc;
       Sources s;
       static constexpr SrcType t[3] = {SrcType::F64, SrcType::F64, SrcType::F64};
       gather(w, in, 3, t, s);
       alignas(64) uint64_t res[kLanes];
       auto get = [&](int i, int l) { return f64(s.p[i][0][l] | (uint64_t(s.p[i][1][l]) << 32)); };
       for_lanes(s.mask, [&](int l) {
         double c = get(2, l);
         double r = fma64(get(0, l), get(1, l), c);
         if ((vcc >> l) & 1) r = std::ldexp(r, biased_exp64(c) > 1023 ? 128 : -128);
         res[l] = e.o(r);
       });
       write_dst64(w, in, s.mask, DstType::F64, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_div_fixup_f64", H(f64_3(w, in, [](double a, double b, double c) { return div_fixup<double>(a, b, c); }))},
    {"v_trunc_f64", H(f64_1(w, in, [](double a) { return std::trunc(a); }))},
    {"v_ceil_f64", H(f64_1(w, in, [](double a) { return std::ceil(a); }))},
    {"v_floor_f64", H(f64_1(w, in, [](double a) { return std::floor(a); }))},
    {"v_rndne_f64", H(f64_1(w, in, [](double a) { return rndne(a); }))},
    {"v_fract_f64", H(f64_1(w, in, [](double a) { return fract64(a); }))},
    {"v_rcp_f64", H(f64_1(w, in, [](double a) { return 1.0 / a; }))},
    {"v_rsq_f64", H(f64_1(w, in, [](double a) { return 1.0 / std::sqrt(a); }))},
    {"v_sqrt_f64", H(f64_1(w, in, [](double a) { return std::sqrt(a); }))},
    {"v_frexp_mant_f64", H(f64_1(w, in, [](double a) { return frexp_mant(a); }))},
    {"v_frexp_exp_i32_f64", H(valu64<1>(w, in, {F64}, DstType::B32, [](uint64_t a) {
       return uint64_t(uint32_t(frexp_exp(f64(a)))); }))},
    {"v_trig_preop_f64", H(valu64<2>(w, in, {F64, B32}, DstType::F64, [](uint64_t a, uint64_t b) {
       return bits(trig_preop(f64(a), uint32_t(b))); }))},
    // ---- f16 (VOP2/VOP1 forms zero the high half on gfx9; see exec_valu_common.hpp)
    {"v_add_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return a + b; }))},
    {"v_sub_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return a - b; }))},
    {"v_subrev_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return b - a; }))},
    {"v_mul_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return a * b; }))},
    {"v_max_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return fmax_ieee(a, b); }))},
    {"v_min_f16", H(f16_2(w, in, DstType::F16Zero, [](float a, float b) { return fmin_ieee(a, b); }))},
    {"v_ldexp_f16", H({
       F16Env e(w);
       valu32<2>(w, in, {F16, B16}, DstType::F16Zero, [&](uint32_t a, uint32_t b) {
         return e.o(std::ldexp(e.i(a), int(int16_t(uint16_t(b))))); });
     })},
    // f16 fma: products of halves are exact in double, so fma in double rounds once.
    {"v_fma_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) {
       return double(a) * double(b) + double(c); }))},
    {"v_fma_legacy_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) {
       return double(a) * double(b) + double(c); }))},
    {"v_mad_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) { return double(a) * b + c; }))},
    {"v_mad_legacy_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) { return double(a) * b + c; }))},
    {"v_madmk_f16", H(f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return double(a) * b + c; }))},
    {"v_madak_f16", H(f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return double(a) * b + c; }))},
    {"v_mac_f16", H({
       F16Env e(w);
       if (in.num_src > 2) {
         f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return double(a) * b + c; });
         return;
       }
       acc_op<SrcType::F16>(w, in, DstType::F16Keep, [&](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
         return e.o(double(e.i(uint32_t(a))) * e.i(uint32_t(b)) + e.i(uint32_t(c) & 0xffffu)); });
     })},
    {"v_min3_f16", H(f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return fmin_ieee(fmin_ieee(a, b), c); }))},
    {"v_max3_f16", H(f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return fmax_ieee(fmax_ieee(a, b), c); }))},
    {"v_med3_f16", H(f16_3(w, in, DstType::F16Keep, [](float a, float b, float c) { return fmed3(a, b, c); }))},
    {"v_div_fixup_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) { return div_fixup<float>(a, b, c); }))},
    {"v_div_fixup_legacy_f16", H(f16_3(w, in, DstType::F16Zero, [](float a, float b, float c) { return div_fixup<float>(a, b, c); }))},
    {"v_fract_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return fract32(a) > 0x1.ffcp-1f ? 0x1.ffcp-1f : fract32(a); }))},
    {"v_trunc_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return std::trunc(a); }))},
    {"v_ceil_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return std::ceil(a); }))},
    {"v_floor_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return std::floor(a); }))},
    {"v_rndne_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return rndne(a); }))},
    {"v_exp_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(std::exp2(double(a))); }))},
    {"v_log_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(std::log2(double(a))); }))},
    {"v_rcp_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(1.0 / double(a)); }))},
    {"v_rsq_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(1.0 / std::sqrt(double(a))); }))},
    {"v_sqrt_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(std::sqrt(double(a))); }))},
    {"v_sin_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(sin_rev(a)); }))},
    {"v_cos_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(cos_rev(a)); }))},
    {"v_frexp_mant_f16", H(f16_1(w, in, DstType::F16Zero, [](float a) { return float(frexp_mant(a)); }))},
    {"v_frexp_exp_i16_f16", H(valu32<1>(w, in, {F16}, DstType::B16Zero, [](uint32_t a) {
       return uint32_t(uint16_t(frexp_exp(fp::f16_to_f32(uint16_t(a))))); }))},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail
