// f32 math on VGPRs (SGPR operands are read as they are): exp2, exp, log2, log, rcp, rsqrt,
// sigmoid, silu, tanh, gelu_tanh, gelu_erf.
//
//   auto p = exp(x - m);          // e^(x-m)
//   y = silu(g) * u;              // a result computes straight into y
//   p = exp(x - m, {.flush_denormals = true});   // the bare v_exp_f32 (of (x - m) log2 e): see math_opts
//
// Accuracy, in ulps of the correctly rounded result, measured in hipasm-sim against long double
// over every binade, denormals, +-0, +-inf, NaN and random inputs (the test prints the maxima;
// tests/helpers/test_lanes_math_sim.cpp asserts the bounds below). The simulator rounds
// v_exp_f32 / v_log_f32 / v_rcp_f32 / v_rsq_f32 correctly; AMD gives the hardware's as 1 ulp,
// which adds up to 1 ulp to these bounds on an MI300.
//  - exp2 <= 1 ulp (measured 0.72), log2 <= 1 (0.74): clang's lowering of exp2f / log2f (log2
//    of a denormal scaled by 2^32 first; exp2 below -126 computed at +64 and scaled by 2^-64, so
//    denormal results come out; those two roundings are the excess over 0.5 ulp).
//    Bit-identical to clang's code in the simulator.
//  - exp <= 1 ulp (0.84), log <= 1.5 ulp (1.18): clang's expf / logf lowering (x*log2(e) split
//    into a head and an FMA-exact tail, v_rndne, v_ldexp; log2 times ln 2 in two parts). Above
//    88.72 exp is +inf, below -103.97 it is 0. Bit-identical to clang's code in the simulator.
//  - rcp <= 1 ulp (0.71: denormal results round twice): v_rcp_f32 of the mantissa
//    (v_frexp_mant), exponent re-applied by v_ldexp: right for denormal inputs and results.
//  - rsqrt <= 0.5 ulp: v_rsq_f32, denormal inputs scaled by 2^24 (the result by 2^12).
//  - sigmoid, silu: <= 16 ulp (12.9) where |result| >= 2^-20, <= 2^-38 absolute below: v_exp_f32
//    of x*log2(e) (that product's rounding is the error, growing with |x|), 1 + e, v_rcp_f32.
//  - tanh <= 2 ulp (1.6): |x| < 0.45 the odd Taylor polynomial to x^13 (truncation < 2^-25
//    relative); above, 1 - 2 / (2^(2|x| log2 e) + 1); sign copied (v_bfi_b32): tanh(-0) = -0.
//  - gelu_tanh, gelu_erf: <= 40 ulp (34, at x ~ -4.7 where the result is ~ -1e-5) where
//    |result| >= 2^-20, <= 2^-38 absolute below. gelu_tanh = x / (1 + 2^(x (c0 + c1 x^2)));
//    gelu_erf = x * Phi(x), Phi from erfc(z) = t * exp(-z^2 + P(t)), t = 1 / (1 + z/2) (the
//    Chebyshev fit of Numerical Recipes 6.2, fractional error < 1.2e-7 for all z >= 0).
// NaN in, NaN out for all of them.
#pragma once
#include <bit>
#include <type_traits>

#include "emit_ctx.hpp"

namespace hipasm {

// How much of the f32 range exp2, exp, log2, log and rcp handle.
struct math_opts {
  // The bare hardware instruction, which reads and writes denormals as 0: exp2 / exp results
  // below 2^-126 are 0, log2 / log of inputs below 2^-126 -inf, rcp of |x| above 2^126 0.
  // exp also rounds x * log2(e) (<= 0.7 |x| ulp: 64 at |x| = 88, measured 58), log the log2 by
  // ln 2. 1 VALU (exp, log: 2) instead of 6 (exp2), 11 (exp), 6 (log2), 11 (log), 5 (rcp); for
  // arguments known to stay clear of denormals (softmax's exp(x - max) <= 1 summed against 1).
  bool flush_denormals = false;
  // tanh only: one formula, 1 - 2 / (2^(2 x log2 e) + 1), for every x: |error| <= 2^-22
  // absolute (none relative near 0: tanh(1e-9) is 0), 5 VALU instead of 16; for values used
  // against others of order 1, as soft-capped attention scores (cap tanh(s / cap)).
  bool absolute_error = false;
};

namespace detail {

constexpr uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

// Helper-local emission over VGPR temporaries: each call is one instruction.
struct fm {
  hctx& h;
  constexpr operand v() { return reg_op(h.v()); }
  // a constant in an SGPR (one constant-bus read where VOP3 cannot take a literal)
  constexpr operand k(float f) {
    lower L = h.L();
    return L.smov(imm_op(fbits(f)));
  }
  constexpr operand kb(uint32_t bits) {
    lower L = h.L();
    return L.smov(imm_op(bits));
  }
  static constexpr operand lit(float f) { return imm_op(fbits(f)); }
  static constexpr operand absv(operand o) {
    o.abs = true;
    return o;
  }
  static constexpr operand negv(operand o) {
    o.neg = !o.neg;
    return o;
  }
  // VOP2 with a literal or constant src0 and a VGPR src1 (the e32 form)
  constexpr operand op2(O op, operand a, operand b) {
    operand d = v();
    lower L = h.L();
    L.valu2(op, op, true, d, a, b);
    return d;
  }
  constexpr operand op3(O op, operand a, operand b, operand c) {
    operand d = v();
    operand s[3] = {a, b, c};
    lower L = h.L();
    L.legal3(s, 3, true);
    h.e(op, {d, s[0], s[1], s[2]});
    return d;
  }
  constexpr operand op3(O op, operand a, operand b) {
    operand d = v();
    operand s[2] = {a, b};
    lower L = h.L();
    L.legal3(s, 2, true);
    h.e(op, {d, s[0], s[1]});
    return d;
  }
  constexpr operand op1(O op, operand a) {
    operand d = v();
    h.e(op, {d, a});
    return d;
  }
  // lane mask of (a op b) in an SGPR pair
  constexpr operand cmp(O op, operand a, operand b) {
    reg_ref m = h.s(2);
    operand s[2] = {a, b};
    lower L = h.L();
    L.legal3(s, 2, true);
    h.e(op, {reg_op(m), s[0], s[1]});
    return reg_op(m);
  }
  // m ? t : f (VOP3 v_cndmask_b32: the mask is the one constant-bus read)
  constexpr operand sel(operand m, operand t, operand f) {
    lower L = h.L();
    auto fix = [&](operand o) {
      if (lower::is_imm(o) ? !lower::inline_const(o, true) : !lower::is_vgpr(o)) o = L.vmov(o);
      return o;
    };
    t = fix(t);
    f = fix(f);
    operand d = v();
    h.e(detail::O::v_cndmask_b32, {d, f, t, m});
    return d;
  }
};

// An f32 operand in a VGPR-or-SGPR operand form (float immediates become literals).
constexpr operand fsrc(const xval& x) { return x.op; }

constexpr operand lower_exp2(fm& f, operand x) {
  operand small = f.cmp(detail::O::v_cmp_gt_f32, f.k(-126.0f), x);         // x < -126 (false for NaN)
  operand up = f.op2(detail::O::v_add_f32, fm::lit(64.0f), x);
  operand t = f.sel(small, up, x);
  operand e = f.op1(detail::O::v_exp_f32, t);
  operand dn = f.op2(detail::O::v_mul_f32, imm_op(0x1f800000u), e);        // * 2^-64
  return f.sel(small, dn, e);
}
constexpr operand lower_log2(fm& f, operand x) {
  operand small = f.cmp(detail::O::v_cmp_gt_f32, f.kb(0x00800000u), x);   // x < FLT_MIN: scale up
  operand sc = f.sel(small, imm_op(32), imm_op(0));
  operand t = f.op3(detail::O::v_ldexp_f32, x, sc);
  operand y = f.op1(detail::O::v_log_f32, t);
  operand off = f.sel(small, fm::lit(32.0f), imm_op(0));
  return f.op2(detail::O::v_sub_f32, y, off);
}
constexpr operand lower_exp(fm& f, operand x) {
  if (!lower::is_vgpr(x)) x = f.h.L().vmov(x);
  const float l2e_hi = std::bit_cast<float>(0x3fb8aa3bu), l2e_lo = std::bit_cast<float>(0x32a5705fu);
  // the range masks first: their VALU-writes-SGPR wait is then covered by the rest
  operand not_under = f.cmp(detail::O::v_cmp_ngt_f32, f.kb(0xc2ce8ed0u), x);  // !(-103.97 > x)
  operand not_over = f.cmp(detail::O::v_cmp_nlt_f32, f.kb(0x42b17218u), x);   // !(88.72 < x)
  operand ph = f.op2(detail::O::v_mul_f32, fm::lit(l2e_hi), x);
  operand pl = f.op3(detail::O::v_fma_f32, x, f.k(l2e_hi), fm::negv(ph));    // exact tail of x * hi
  operand e = f.op1(detail::O::v_rndne_f32, ph);
  operand pl2 = f.v();
  f.h.e(detail::O::v_fmamk_f32, {pl2, x, fm::lit(l2e_lo), pl});              // + x * lo
  operand a = f.op2(detail::O::v_sub_f32, ph, e);
  a = f.op2(detail::O::v_add_f32, a, pl2);
  operand ei = f.op1(detail::O::v_cvt_i32_f32, e);
  a = f.op1(detail::O::v_exp_f32, a);
  a = f.op3(detail::O::v_ldexp_f32, a, ei);
  a = f.sel(not_under, a, imm_op(0));
  return f.sel(not_over, a, imm_op(0x7f800000u));
}
constexpr operand lower_log(fm& f, operand x) {
  operand small = f.cmp(detail::O::v_cmp_gt_f32, f.kb(0x00800000u), x);
  operand sc = f.sel(small, imm_op(32), imm_op(0));
  operand t = f.op3(detail::O::v_ldexp_f32, x, sc);
  operand y = f.op1(detail::O::v_log_f32, t);
  const float ln2_hi = std::bit_cast<float>(0x3f317217u);
  operand rh = f.op2(detail::O::v_mul_f32, fm::lit(ln2_hi), y);
  operand rl = f.op3(detail::O::v_fma_f32, y, f.k(ln2_hi), fm::negv(rh));
  operand rl2 = f.v();
  f.h.e(detail::O::v_fmamk_f32, {rl2, y, imm_op(0x3377d1cfu), rl});
  operand r = f.op2(detail::O::v_add_f32, rh, rl2);
  operand finite = f.cmp(detail::O::v_cmp_lt_f32, fm::absv(y), f.kb(0x7f800000u));
  operand v = f.sel(finite, r, y);
  operand off = f.sel(small, imm_op(0x41b17218u), imm_op(0));        // 32 ln 2
  return f.op2(detail::O::v_sub_f32, v, off);
}
constexpr operand lower_rcp(fm& f, operand x) {
  operand m = f.op1(detail::O::v_frexp_mant_f32, x);
  operand e = f.op1(detail::O::v_frexp_exp_i32_f32, x);
  operand r = f.op1(detail::O::v_rcp_f32, m);
  operand ne = f.op2(detail::O::v_sub_u32, imm_op(0), e);
  return f.op3(detail::O::v_ldexp_f32, r, ne);
}
constexpr operand lower_rsqrt(fm& f, operand x) {
  operand small = f.cmp(detail::O::v_cmp_gt_f32, f.kb(0x00800000u), fm::absv(x));  // |x| < FLT_MIN
  operand up = f.op2(detail::O::v_mul_f32, imm_op(0x4b800000u), x);                // * 2^24
  operand t = f.sel(small, up, x);
  operand y = f.op1(detail::O::v_rsq_f32, t);
  operand yd = f.op2(detail::O::v_mul_f32, imm_op(0x45800000u), y);                // * 2^12
  return f.sel(small, yd, y);
}
// 1 / (1 + 2^(x * s)) (the logistic family)
constexpr operand lower_logistic(fm& f, operand x, float s) {
  operand t = f.op2(detail::O::v_mul_f32, fm::lit(s), x);
  operand e = f.op1(detail::O::v_exp_f32, t);
  operand d = f.op2(detail::O::v_add_f32, imm_op(0x3f800000u), e);
  return f.op1(detail::O::v_rcp_f32, d);
}
constexpr float log2e = 1.44269504088896340736f;
constexpr operand lower_tanh(fm& f, operand x) {
  if (!lower::is_vgpr(x)) x = f.h.L().vmov(x);
  operand ax = fm::absv(x);
  // large: 1 - 2 / (2^(2|x| log2 e) + 1)
  operand t = f.op3(detail::O::v_mul_f32, ax, f.k(2.0f * log2e));
  operand e = f.op1(detail::O::v_exp_f32, t);
  operand d = f.op2(detail::O::v_add_f32, imm_op(0x3f800000u), e);
  operand r = f.op1(detail::O::v_rcp_f32, d);
  operand big = f.op3(detail::O::v_fma_f32, r, imm_op(0xc0000000u), imm_op(0x3f800000u));  // 1 - 2r
  // small: |x| + |x| z P(z), z = x^2, P = Taylor coefficients of tanh
  operand z = f.op2(detail::O::v_mul_f32, x, x);
  const float c[6] = {-1.0f / 3, 2.0f / 15, -17.0f / 315, 62.0f / 2835, -1382.0f / 155925, 21844.0f / 6081075};
  operand p = f.op3(detail::O::v_fma_f32, z, f.k(c[5]), f.k(c[4]));
  for (int i = 3; i >= 0; --i) p = f.op3(detail::O::v_fma_f32, z, p, f.k(c[i]));
  operand q = f.op3(detail::O::v_mul_f32, z, ax);
  operand small = f.op3(detail::O::v_fma_f32, q, p, ax);
  operand is_small = f.cmp(detail::O::v_cmp_gt_f32, f.k(0.45f), ax);  // |x| < 0.45 (false for NaN)
  operand m = f.sel(is_small, small, big);
  return f.op3(detail::O::v_bfi_b32, f.kb(0x7fffffffu), m, x);           // sign of x
}
constexpr operand lower_tanh_absolute(fm& f, operand x) {
  operand t = f.op3(detail::O::v_mul_f32, x, f.k(2.0f * log2e));
  operand e = f.op1(detail::O::v_exp_f32, t);  // 0 / inf at the ends: -1 / 1
  operand d = f.op2(detail::O::v_add_f32, imm_op(0x3f800000u), e);
  operand r = f.op1(detail::O::v_rcp_f32, d);
  return f.op3(detail::O::v_fma_f32, r, imm_op(0xc0000000u), imm_op(0x3f800000u));  // 1 - 2r
}
constexpr operand lower_gelu_tanh(fm& f, operand x) {
  if (!lower::is_vgpr(x)) x = f.h.L().vmov(x);
  // x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3): 2^(x (c0 + c1 x^2)) with c = -2 sqrt(2/pi) log2 e (1, 0.044715)
  const float c0 = -2.0f * 0.7978845608028654f * log2e, c1 = c0 * 0.044715f;
  operand z = f.op2(detail::O::v_mul_f32, x, x);
  operand p = f.op2(detail::O::v_mul_f32, fm::lit(c1), z);
  p = f.op2(detail::O::v_add_f32, fm::lit(c0), p);
  operand t = f.op2(detail::O::v_mul_f32, p, x);
  operand e = f.op1(detail::O::v_exp_f32, t);
  operand d = f.op2(detail::O::v_add_f32, imm_op(0x3f800000u), e);
  operand r = f.op1(detail::O::v_rcp_f32, d);
  return f.op2(detail::O::v_mul_f32, x, r);
}
constexpr operand lower_gelu_erf(fm& f, operand x) {
  if (!lower::is_vgpr(x)) x = f.h.L().vmov(x);
  // z = |x| / sqrt 2; erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2)
  operand z = f.op3(detail::O::v_mul_f32, fm::absv(x), f.k(0.70710678118654752f));
  operand h1 = f.op3(detail::O::v_fma_f32, z, imm_op(0x3f000000u), imm_op(0x3f800000u));
  operand t = f.op1(detail::O::v_rcp_f32, h1);
  const float c[10] = {-1.26551223f, 1.00002368f, 0.37409196f, 0.09678418f, -0.18628806f,
                       0.27886807f, -1.13520398f, 1.48851587f, -0.82215223f, 0.17087277f};
  operand p = f.op3(detail::O::v_fma_f32, t, f.k(c[9]), f.k(c[8]));
  for (int i = 7; i >= 0; --i) p = f.op3(detail::O::v_fma_f32, t, p, f.k(c[i]));
  operand a = f.op3(detail::O::v_fma_f32, fm::negv(z), z, p);               // -z^2 + P(t)
  operand a2 = f.op2(detail::O::v_mul_f32, fm::lit(log2e), a);
  operand e = f.op1(detail::O::v_exp_f32, a2);
  operand hq = f.op3(detail::O::v_mul_f32, t, e);
  hq = f.op3(detail::O::v_mul_f32, hq, imm_op(0x3f000000u));                 // Phi(-|x|) = erfc(z) / 2
  operand pos = f.op2(detail::O::v_sub_f32, imm_op(0x3f800000u), hq);        // Phi(|x|) = 1 - Phi(-|x|)
  operand neg = f.cmp(detail::O::v_cmp_gt_f32, imm_op(0), x);                // x < 0
  operand phi = f.sel(neg, hq, pos);
  return f.op2(detail::O::v_mul_f32, x, phi);
}

// The lowerings with math_opts::flush_denormals: the bare instruction (exp, log: and one multiply).
constexpr operand lower_exp2_flush(fm& f, operand x) { return f.op1(detail::O::v_exp_f32, x); }
constexpr operand lower_log2_flush(fm& f, operand x) { return f.op1(detail::O::v_log_f32, x); }
constexpr operand lower_rcp_flush(fm& f, operand x) { return f.op1(detail::O::v_rcp_f32, x); }
constexpr operand lower_exp_flush(fm& f, operand x) {
  return f.op1(detail::O::v_exp_f32, f.op2(detail::O::v_mul_f32, fm::lit(log2e), x));
}
constexpr operand lower_log_flush(fm& f, operand x) {
  return f.op2(detail::O::v_mul_f32, imm_op(0x3f317218u), f.op1(detail::O::v_log_f32, x));  // * ln 2
}
constexpr operand lower_sigmoid(fm& f, operand x) { return lower_logistic(f, x, -log2e); }

// One helper call: the lowering's instructions, its result the caller's expression value.
template <operand (*Lower)(fm&, operand)>
constexpr gpr<dtype::f32> fn1_call(const val<dtype::f32>& x) {
  if (!x.x.b) return gpr<dtype::f32>{};  // an immediate: compute it in C++ instead
  builder& b = *x.x.b;
  hctx h(b, x.x.loc);
  fm f{h};
  const operand r = Lower(f, fsrc(x.x));
  return h.result<dtype::f32>(reg_ref{&b, static_cast<uint32_t>(r.value), reg_class::vgpr, r.offset, 1});
}

}  // namespace detail

// (val records the caller's line.) A constant argument is a compile error naming the function:
// compute it in C++ (std::exp ...) and use the value.
namespace detail {
template <class C>
  requires std::is_arithmetic_v<C>
constexpr gpr<dtype::f32> constant_argument_of_a_math_helper(C) {
  static_assert(!std::is_arithmetic_v<C>, "hipasm math helper of a constant: compute it in C++ (std::exp, ...) and use the value");
  return {};
}
}  // namespace detail
#define HIPASM_MATH_CONSTANT(fn)       \
  template <class C>                   \
    requires std::is_arithmetic_v<C>   \
  constexpr gpr<dtype::f32> fn(C c, math_opts = {}) { return detail::constant_argument_of_a_math_helper(c); }
HIPASM_MATH_CONSTANT(exp2) HIPASM_MATH_CONSTANT(exp) HIPASM_MATH_CONSTANT(log2) HIPASM_MATH_CONSTANT(log)
HIPASM_MATH_CONSTANT(rcp) HIPASM_MATH_CONSTANT(rsqrt) HIPASM_MATH_CONSTANT(sigmoid) HIPASM_MATH_CONSTANT(silu)
HIPASM_MATH_CONSTANT(tanh) HIPASM_MATH_CONSTANT(gelu_tanh) HIPASM_MATH_CONSTANT(gelu_erf)
#undef HIPASM_MATH_CONSTANT
constexpr gpr<dtype::f32> exp2(const val<dtype::f32>& x, math_opts o = {}) {
  return o.flush_denormals ? detail::fn1_call<detail::lower_exp2_flush>(x) : detail::fn1_call<detail::lower_exp2>(x);
}
constexpr gpr<dtype::f32> exp(const val<dtype::f32>& x, math_opts o = {}) {
  return o.flush_denormals ? detail::fn1_call<detail::lower_exp_flush>(x) : detail::fn1_call<detail::lower_exp>(x);
}
constexpr gpr<dtype::f32> log2(const val<dtype::f32>& x, math_opts o = {}) {
  return o.flush_denormals ? detail::fn1_call<detail::lower_log2_flush>(x) : detail::fn1_call<detail::lower_log2>(x);
}
constexpr gpr<dtype::f32> log(const val<dtype::f32>& x, math_opts o = {}) {
  return o.flush_denormals ? detail::fn1_call<detail::lower_log_flush>(x) : detail::fn1_call<detail::lower_log>(x);
}
constexpr gpr<dtype::f32> rcp(const val<dtype::f32>& x, math_opts o = {}) {
  return o.flush_denormals ? detail::fn1_call<detail::lower_rcp_flush>(x) : detail::fn1_call<detail::lower_rcp>(x);
}
constexpr gpr<dtype::f32> rsqrt(const val<dtype::f32>& x) { return detail::fn1_call<detail::lower_rsqrt>(x); }
constexpr gpr<dtype::f32> sigmoid(const val<dtype::f32>& x) { return detail::fn1_call<detail::lower_sigmoid>(x); }
// x * sigmoid(x) (x moved to a VGPR once when it is not one: it is read twice)
constexpr gpr<dtype::f32> silu(const val<dtype::f32>& x) {
  if (!x.x.b) return gpr<dtype::f32>{};
  builder& b = *x.x.b;
  detail::hctx h(b, x.x.loc);
  operand xv = detail::fsrc(x.x);
  if (!detail::lower::is_vgpr(xv)) xv = h.L().vmov(xv);
  val<dtype::f32> xs = x;  // (the caller's line; the VGPR, which the multiply reads again)
  xs.x.op = xv;
  xs.x.fresh = false;
  const gpr<dtype::f32> s = sigmoid(xs);
  detail::fm f{h};
  const operand r = f.op2(detail::O::v_mul_f32, xv, s.to_operand());
  return h.result<dtype::f32>(detail::reg_ref{&b, static_cast<uint32_t>(r.value), reg_class::vgpr, r.offset, 1});
}
constexpr gpr<dtype::f32> tanh(const val<dtype::f32>& x, math_opts o = {}) {
  return o.absolute_error ? detail::fn1_call<detail::lower_tanh_absolute>(x) : detail::fn1_call<detail::lower_tanh>(x);
}
constexpr gpr<dtype::f32> gelu_tanh(const val<dtype::f32>& x) { return detail::fn1_call<detail::lower_gelu_tanh>(x); }
constexpr gpr<dtype::f32> gelu_erf(const val<dtype::f32>& x) { return detail::fn1_call<detail::lower_gelu_erf>(x); }

}  // namespace hipasm
