// Conditions as values and combined; select; max3/min3; the 32x32->64-bit multiply.
//
//   J.If(x > 0 && (i < n || !(x == y)), [&] { ... });  // && / || combine conditions
//   auto v = select(x > y, x, y);                       // v_cndmask_b32 (s_cselect_b32 if uniform)
//   auto flag = as_u32(i < n);                          // 0 or 1
//   auto m = max3(a, b, c);                             // v_max3_f32 / _i32 / _u32
//   m = max3(abs(x), abs(y), m);                        // f32 -x / abs(x): source modifiers
//   auto p = mul_wide(a, b);                            // u32 x u32 -> u64 (i32 -> i64)
//
// Conditions on SGPRs and immediates (u32/i32) stay on SCC: a && b is s_cmp, s_cselect_b32
// (a as 0/1), s_cmp, s_cselect_b32 (the pair), then compared with 0 where used. Anything
// per-lane is a lane mask in an SGPR pair (v_cmp into it; a uniform side becomes
// s_cselect_b64 EXEC/0) combined with s_and_b64 / s_or_b64; ! of a mask is EXEC & ~mask. A
// mask holds active lanes only (lane_mask hands it out as a value, set_exec may load it).
// Both sides are evaluated (no short circuit: a comparison has no side effects).
#pragma once
#include "emit_ctx.hpp"

namespace hipasm {

namespace detail {

constexpr builder* cond_builder(const cond& c) { return c.a.b ? c.a.b : c.c.b; }

// 0/1 in a new SGPR for a uniform condition.
constexpr operand scalar_bool(hctx& h, const cond& c) {
  lower L = h.L();
  bool sense = emit_scalar_cmp(L, c);
  reg_ref t = h.s();
  h.e(detail::O::s_cselect_b32, {reg_op(t), imm_op(sense ? 1 : 0), imm_op(sense ? 0 : 1)});
  return reg_op(t);
}
// The active lanes where c holds, as an SGPR pair.
constexpr operand lane_mask_of(hctx& h, const cond& c) {
  lower L = h.L();
  if (c.scalar()) {
    bool sense = emit_scalar_cmp(L, c);
    reg_ref m = h.s(2);
    h.e(detail::O::s_cselect_b64, {reg_op(m), sense ? exec_op() : imm_op(0, 2), sense ? imm_op(0, 2) : exec_op()});
    return reg_op(m);
  }
  return reg_op(emit_vector_cmp(L, c));
}
constexpr cond combine(const cond& a, const cond& c, bool both, src_loc l) {
  builder* bp = cond_builder(a) ? cond_builder(a) : cond_builder(c);
  if (!bp) return a;
  hctx h(*bp, l);
  if (a.scalar() && c.scalar()) {
    operand ta = scalar_bool(h, a);
    lower L = h.L();
    bool sense = emit_scalar_cmp(L, c);
    reg_ref r = h.s();
    // &&: c ? a : 0; ||: c ? 1 : a (sense false: SCC holds !c)
    operand yes = both ? ta : imm_op(1), no = both ? imm_op(0) : ta;
    h.e(detail::O::s_cselect_b32, {reg_op(r), sense ? yes : no, sense ? no : yes});
    cond out;
    out.op = cmpop::ne;
    out.a = xval{bp, reg_op(r), dtype::u32, l};
    out.c = xval{nullptr, imm_op(0), dtype::u32, l};
    out.loc = l;
    return out;
  }
  operand ma = lane_mask_of(h, a), mc = lane_mask_of(h, c);
  reg_ref r = h.s(2);
  h.e(both ? detail::O::s_and_b64 : detail::O::s_or_b64, {reg_op(r), ma, mc});
  cond out;
  out.lane_mask = true;
  out.op = cmpop::ne;
  operand ro = reg_op(r);
  out.a = xval{bp, ro, dtype::u64, l};
  out.c = xval{nullptr, imm_op(0), dtype::u64, l};
  out.loc = l;
  return out;
}

template <dtype T>
constexpr reg_ref lower_select(const cond& c, const xval& a, const xval& x, src_loc l) {
  builder* bp = cond_builder(c) ? cond_builder(c) : (a.b ? a.b : x.b);
  hctx h(*bp, l);
  auto uniform = [](const xval& v) { return !v.is_reg(reg_class::vgpr) && !v.is_reg(reg_class::agpr); };
  if (c.scalar() && uniform(a) && uniform(x)) {
    lower L = h.L();
    bool sense = emit_scalar_cmp(L, c);
    reg_ref d = h.s();
    operand p = a.op, q = x.op;
    if (lower::is_imm(p) && lower::is_imm(q) && !lower::inline_const(p, false) && !lower::inline_const(q, false)) p = L.smov(p);
    h.e(detail::O::s_cselect_b32, {reg_op(d), sense ? p : q, sense ? q : p});
    return d;
  }
  operand m = lane_mask_of(h, c);
  lower L = h.L();
  // VOP3 v_cndmask_b32 d, false, true, mask: the mask is the one constant-bus read
  auto vsrc = [&](const xval& v) {
    operand o = v.op;
    if (lower::is_imm(o) ? !lower::inline_const(o, T == dtype::f32) : !lower::is_vgpr(o)) o = L.vmov(o);
    return o;
  };
  operand t = vsrc(a), f = vsrc(x);
  reg_ref d = h.v();
  h.e(detail::O::v_cndmask_b32, {reg_op(d), f, t, m});
  return d;
}

}  // namespace detail

constexpr cond operator&&(const cond& a, const cond& c) { return detail::combine(a, c, true, c.loc.line ? c.loc : a.loc); }
constexpr cond operator||(const cond& a, const cond& c) { return detail::combine(a, c, false, c.loc.line ? c.loc : a.loc); }

// c ? a : b per lane (uniform: s_cselect_b32); 32-bit dtypes.
template <dtype T>
constexpr gpr<T> select(const cond& c, const gpr<T>& a, const gpr<T>& b, std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "select takes 32-bit values");
  detail::hctx h(*a.b, to_src_loc(l));
  detail::reg_ref d = detail::lower_select<T>(c, val<T>(a, l).x, val<T>(b, l).x, h.l);
  return h.result<T>(d);
}
template <dtype T>
constexpr gpr<T> select(const cond& c, const gpr<T>& a, const std::type_identity_t<val<T>>& b,
                        std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "select takes 32-bit values");
  detail::hctx h(*a.b, to_src_loc(l));
  detail::reg_ref d = detail::lower_select<T>(c, val<T>(a, l).x, b.x, h.l);
  return h.result<T>(d);
}
template <dtype T>
constexpr gpr<T> select(const cond& c, const std::type_identity_t<val<T>>& a, const gpr<T>& b,
                        std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "select takes 32-bit values");
  detail::hctx h(*b.b, to_src_loc(l));
  detail::reg_ref d = detail::lower_select<T>(c, a.x, val<T>(b, l).x, h.l);
  return h.result<T>(d);
}
// Any mix of a register, a unary expression (-x, abs(x), ~x) and a constant, the dtype taken
// from the register operand(s): select(c, 0.0f, -(x * y)), select(c, -x, y), select(c, abs(x), 1).
namespace detail {
template <class A, class B>
constexpr dtype select_dtype() {
  if constexpr (reg_operand<A>) return reg_dtype_v<A>;
  else return reg_dtype_v<B>;
}
template <class X>
constexpr builder* select_builder(const X& x) {
  if constexpr (requires { x.g.b; }) return x.g.b;  // unary
  else if constexpr (requires { x.b; }) return x.b;  // a register handle
  else return nullptr;
}
}  // namespace detail
template <class A, class B>
  requires((detail::reg_operand<A> || detail::reg_operand<B>) && !detail::is_mixed<A> && !detail::is_mixed<B>)
constexpr gpr<detail::select_dtype<A, B>()> select(const cond& c, const A& a, const B& b,
                                                  std::source_location l = std::source_location::current()) {
  constexpr dtype T = detail::select_dtype<A, B>();
  if constexpr (detail::reg_operand<A> && detail::reg_operand<B>) {
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"
    if constexpr (detail::reg_dtype_v<A> != detail::reg_dtype_v<B>)  // names both dtypes (dtype_message)
      static_assert(false, detail::mixed_dtypes_message<detail::reg_dtype_v<A>, detail::reg_dtype_v<B>>("select"));
#pragma clang diagnostic pop
  }
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "select takes 32-bit values");
  builder* bp = detail::select_builder(a);
  if (!bp) bp = detail::select_builder(b);
  if (!bp) bp = detail::cond_builder(c);
  detail::hctx h(*bp, to_src_loc(l));
  const val<T> va(a, l), vb(b, l);
  detail::reg_ref d = detail::lower_select<T>(c, va.x, vb.x, h.l);
  return h.result<T>(d);
}
// Both immediates: select<u32>(i < n, 7, 9).
template <dtype T>
constexpr gpr<T> select(const cond& c, const std::type_identity_t<val<T>>& a, const std::type_identity_t<val<T>>& b,
                        std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(dwords_of(T) == 1, T, "select takes 32-bit values");
  builder* bp = detail::cond_builder(c);
  detail::hctx h(*bp, to_src_loc(l));
  detail::reg_ref d = detail::lower_select<T>(c, a.x, b.x, h.l);
  return h.result<T>(d);
}
// Two plain constants of one C++ type: the dtype is that type's (select(c, 1u, 2u) is u32,
// select(c, 1, 2) i32, select(c, 1.0f, 2.0f) f32).
namespace detail {
template <class A>
constexpr dtype constant_dtype() {
  if constexpr (std::is_same_v<A, unsigned>) return dtype::u32;
  else if constexpr (std::is_same_v<A, int>) return dtype::i32;
  else return dtype::f32;
}
template <class A, class B>
concept same_constants =
    std::is_same_v<A, B> && (std::is_same_v<A, unsigned> || std::is_same_v<A, int> || std::is_same_v<A, float>);
template <class A, class B>
concept two_constants = std::is_arithmetic_v<A> && std::is_arithmetic_v<B>;
}  // namespace detail
template <class A, class B>
  requires detail::same_constants<A, B>
constexpr gpr<detail::constant_dtype<A>()> select(const cond& c, A a, B b,
                                                  std::source_location l = std::source_location::current()) {
  return select<detail::constant_dtype<A>()>(c, a, b, l);
}
// Constants of two C++ types (1u and 1, 1 and 1.0f) or of a type without a 32-bit dtype: a
// kernel error at the call saying what to write (a deleted overload would list every select
// candidate; a static_assert would point into this header first).
template <class A, class B>
  requires(detail::two_constants<A, B> && !detail::same_constants<A, B>)
constexpr gpr<dtype::u32> select(const cond& c, A, B, std::source_location l = std::source_location::current()) {
  detail::report(*detail::cond_builder(c), to_src_loc(l),
                 "select of two constants of different C++ types, or of a type other than unsigned, int and "
                 "float: name the dtype, as in select<dtype::u32>(c, 1, 2)");
  return select<dtype::u32>(c, 0u, 0u, l);
}

// A condition as 0 or 1 (u32).
constexpr gpr<dtype::u32> as_u32(const cond& c, std::source_location l = std::source_location::current()) {
  return select<dtype::u32>(c, 1, 0, l);
}

// max/min of three (v_max3_* / v_min3_*; SALU pairs when all are uniform integers).
namespace detail {
template <dtype T>
constexpr reg_ref lower_minmax3(bool mx, const xval& a, const xval& b, const xval& c, src_loc l) {
  builder* bp = a.b ? a.b : b.b ? b.b : c.b;
  hctx h(*bp, l);
  auto uniform = [](const xval& v) { return !v.is_reg(reg_class::vgpr) && !v.is_reg(reg_class::agpr); };
  if (T != dtype::f32 && uniform(a) && uniform(b) && uniform(c)) {
    lower L = h.L();
    bool s = T == dtype::i32;
    O op = mx ? (s ? detail::O::s_max_i32 : detail::O::s_max_u32) : (s ? detail::O::s_min_i32 : detail::O::s_min_u32);
    reg_ref t = h.s(), d = h.s();
    L.salu2(op, reg_op(t), a.op, b.op);
    L.salu2(op, reg_op(d), reg_op(t), c.op);
    return d;
  }
  O op = T == dtype::f32 ? (mx ? detail::O::v_max3_f32 : detail::O::v_min3_f32)
         : T == dtype::i32 ? (mx ? detail::O::v_max3_i32 : detail::O::v_min3_i32)
                           : (mx ? detail::O::v_max3_u32 : detail::O::v_min3_u32);
  reg_ref d = h.v();
  lower L = h.L();
  L.valu3(op, reg_op(d), a.op, b.op, c.op, T == dtype::f32);
  return d;
}
}  // namespace detail

template <dtype T>
constexpr gpr<T> max3(const gpr<T>& a, const std::type_identity_t<val<T>>& b, const std::type_identity_t<val<T>>& c,
                      std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(T == dtype::f32 || T == dtype::i32 || T == dtype::u32, T, "max3 takes f32, i32 or u32");
  detail::hctx h(*a.b, to_src_loc(l));
  return h.result<T>(detail::lower_minmax3<T>(true, val<T>(a, l).x, b.x, c.x, h.l));
}
template <dtype T>
constexpr gpr<T> min3(const gpr<T>& a, const std::type_identity_t<val<T>>& b, const std::type_identity_t<val<T>>& c,
                      std::source_location l = std::source_location::current()) {
  HIPASM_DTYPE_ASSERT(T == dtype::f32 || T == dtype::i32 || T == dtype::u32, T, "min3 takes f32, i32 or u32");
  detail::hctx h(*a.b, to_src_loc(l));
  return h.result<T>(detail::lower_minmax3<T>(false, val<T>(a, l).x, b.x, c.x, h.l));
}

// f32 max3/min3 with -x / abs(x) among the operands: they become the VOP3 source modifiers
// (v_max3_f32 v, |a|, |b|, m: a row's absolute maximum in one instruction per two values)
// instead of a v_and/v_xor each; any mix with registers and float constants.
namespace detail {
template <class X>
inline constexpr bool is_f32_unary = std::is_same_v<X, unary<dtype::f32>>;
template <class X>
concept f32_minmax3_arg = std::is_same_v<X, gpr<dtype::f32>> || is_f32_unary<X> || std::is_arithmetic_v<X>;
template <class X>
constexpr xval minmax3_src(const X& x, src_loc l) {
  if constexpr (is_f32_unary<X>) {
    // modifiers ride on a VGPR; an SGPR (one constant-bus slot) or ~x is computed first
    if (!x.bnot && x.g.cls == reg_class::vgpr) return xval{x.g.b, x.to_operand(), dtype::f32, l};
    return xval{x.g.b, x.value().to_operand(), dtype::f32, l};
  } else if constexpr (std::is_arithmetic_v<X>) {
    return val<dtype::f32>(static_cast<float>(x)).x;
  } else {
    return xval{x.b, x.to_operand(), dtype::f32, l};
  }
}
template <class A, class B, class C>
constexpr gpr<dtype::f32> minmax3_mod(bool mx, const A& a, const B& b, const C& c, std::source_location sl) {
  builder* bp = nullptr;
  auto pick = [&](const auto& x) {
    using X = std::remove_cvref_t<decltype(x)>;
    if constexpr (is_f32_unary<X>) { if (!bp) bp = x.g.b; }
    else if constexpr (!std::is_arithmetic_v<X>) { if (!bp) bp = x.b; }
  };
  pick(a);
  pick(b);
  pick(c);
  hctx h(*bp, to_src_loc(sl));
  const xval xa = minmax3_src(a, h.l), xb = minmax3_src(b, h.l), xc = minmax3_src(c, h.l);
  return h.result<dtype::f32>(lower_minmax3<dtype::f32>(mx, xa, xb, xc, h.l));
}
}  // namespace detail
template <class A, class B, class C>
  requires(detail::f32_minmax3_arg<A> && detail::f32_minmax3_arg<B> && detail::f32_minmax3_arg<C> &&
           (detail::is_f32_unary<A> || detail::is_f32_unary<B> || detail::is_f32_unary<C>))
constexpr gpr<dtype::f32> max3(const A& a, const B& b, const C& c, std::source_location l = std::source_location::current()) {
  return detail::minmax3_mod(true, a, b, c, l);
}
template <class A, class B, class C>
  requires(detail::f32_minmax3_arg<A> && detail::f32_minmax3_arg<B> && detail::f32_minmax3_arg<C> &&
           (detail::is_f32_unary<A> || detail::is_f32_unary<B> || detail::is_f32_unary<C>))
constexpr gpr<dtype::f32> min3(const A& a, const B& b, const C& c, std::source_location l = std::source_location::current()) {
  return detail::minmax3_mod(false, a, b, c, l);
}

// The full 64-bit product of two 32-bit values: u32 -> u64, i32 -> i64 (v_mad_u64_u32 /
// v_mad_i64_i32 with 0; s_mul_i32 + s_mul_hi when both are uniform).
template <dtype T>
  requires(T == dtype::u32 || T == dtype::i32)
constexpr auto mul_wide(const gpr<T>& a, const std::type_identity_t<val<T>>& b,
                        std::source_location l = std::source_location::current()) {
  constexpr dtype R = T == dtype::i32 ? dtype::i64 : dtype::u64;
  detail::hctx h(*a.b, to_src_loc(l));
  detail::xval x = val<T>(a, l).x, y = b.x;
  detail::lower L = h.L();
  using detail::reg_op;
  using detail::imm_op;
  bool uni = !x.is_reg(reg_class::vgpr) && !y.is_reg(reg_class::vgpr);
  if (uni) {
    detail::reg_ref d = h.s(2);
    operand lo = reg_op(d), hi = reg_op(d);
    lo.dwords = hi.dwords = 1;
    hi.offset = 1;
    L.salu2(detail::O::s_mul_i32, lo, x.op, y.op);
    L.salu2(T == dtype::i32 ? detail::O::s_mul_hi_i32 : detail::O::s_mul_hi_u32, hi, x.op, y.op);
    return h.result<R>(d);
  }
  detail::reg_ref d = h.v(2), carry = h.s(2);
  operand s[3] = {x.op, y.op, imm_op(0)};
  L.legal3(s, 3, false);
  h.e(T == dtype::i32 ? detail::O::v_mad_i64_i32 : detail::O::v_mad_u64_u32, {reg_op(d), reg_op(carry), s[0], s[1], imm_op(0, 2)});
  return h.result<R>(d);
}

}  // namespace hipasm
