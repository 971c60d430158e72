// Conversions between f32 and the narrow formats (VGPR results):
//
//   auto p = cvt_bf16x2(a, b);        // bf16x2: a in the low half, b in the high half
//   auto h = cvt_f16x2(a, b);         // f16x2
//   auto q = cvt_fp8x4(a, b, c, d);   // fp8x4 (e4m3), byte 0 = a; cvt_bf8x4: e5m2 (the target's: FNUZ or OCP)
//   auto i = cvt_i8x4(a, b, c, d);    // four int8 in a u32, byte 0 = a (saturating)
//   auto f = to_f32(p, 1);            // element 1 of a bf16x2 / f16x2 / fp8x4 / bf8x4 as f32
//   auto g = to_f32x2(q, 1);          // elements 2 and 3 of an fp8x4 / bf8x4 (one instruction)
//   auto b = to_bf16x4(q);            // the 4 elements as bf16: 2 bf16x2 dwords (a bf16 MFMA operand)
//
// - f32 -> bf16: round to nearest even, NaN stays a (quiet) NaN, as clang's __float2bfloat16 /
//   (__bf16) casts: v_bfe_u32 + v_add3_u32 (add 0x7fff + the kept lsb), v_or_b32 of the quiet bit
//   and v_cmp_u_f32 + v_cndmask_b32 for NaN; a pair joins the two high halves with one
//   v_perm_b32: 11 VALU for a pair; bf16_round::nearest_even_finite drops the NaN check (5 VALU
//   a pair), half_away is pyhip's rounding (3 VALU a pair). A target with v_cvt_pk_bf16_f32
//   (gfx950: round to nearest even, NaN quiet) takes one VALU a pair (or a value) for both
//   nearest-even modes.
// - f32 -> f16: v_cvt_f16_f32 (round to nearest even) for the low half, its SDWA form with
//   dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE for the high half: 2 VALU for a pair
//   (v_cvt_pkrtz_f16_f32 would be 1, but rounds toward zero).
// - f32 -> fp8/bf8 in the target's 8-bit formats (target.hpp fp8_format: FNUZ e4m3fnuz /
//   e5m2fnuz, 0x80 the only NaN, no infinities; or OCP e4m3fn / e5m2): two v_cvt_pk_fp8_f32 (the
//   second writes the high word, op_sel:[0,0,1]), round to nearest even. saturate (default):
//   every non-NaN value, infinities included, is clamped to +-the format's largest (fp8 240
//   FNUZ, 448 OCP; bf8 57344) first (v_med3_f32: llvm-mc-22 accepts no clamp bit on
//   v_cvt_pk_fp8_f32 for either target), NaN kept (v_cmp_u_f32 + v_cndmask_b32); without it
//   values beyond the range become NaN (FNUZ 0x80, OCP e4m3fn S.1111.111) or, OCP e5m2,
//   infinity, as the instruction does.
// - f32 -> int8: round to nearest even, saturated to [-128, 127]; NaN gives -128 (0x80, the
//   byte FNUZ fp8 uses for NaN). Per value v_med3_f32 (the clamp; with a NaN source med3 is min3,
//   which returns the smallest non-NaN operand) and v_add_f32 of 1.5 * 2^23 in its SDWA form
//   with dst_sel BYTE_n: the sum is 1.5 * 2^23 + the integer, rounded by the add itself, whose
//   low byte is the integer in two's complement, written straight into byte n (UNUSED_PAD for
//   byte 0, UNUSED_PRESERVE after): 2 VALU a value, no packing instructions.
// - to f32: bf16 a shift or mask; f16 v_cvt_f32_f16 (SDWA WORD_1 for the high half); fp8/bf8
//   v_cvt_f32_fp8 / _bf8 with SDWA src0_sel BYTE_n: one VALU each, exact.
// - fp8/bf8 to bf16 (exact: bf16 holds every e4m3 and e5m2 value of both formats, OCP's
//   infinities and NaNs included): to_f32x2 twice, then
//   one v_perm_b32 a pair joins the f32s' high halves, written into the first pair's registers:
//   4 VALU for 4 values, no copies (a pair built by assigning two results into the dwords of a
//   2-register tuple costs a v_mov each: the allocator does not give a value copied into one dword
//   of a tuple that dword's register).
#pragma once
#include "dpp.hpp"
#include "emit_ctx.hpp"

namespace hipasm {

// f32 -> bf16 rounding: nearest_even (NaN stays NaN; clang's), nearest_even_finite (the same
// without the NaN check: 2 VALU per value; a NaN whose payload carries may become +-inf),
// half_away (pyhip's: + 0x8000, ties away from zero; 1 VALU per value; NaN may become inf).
enum class bf16_round { nearest_even, nearest_even_finite, half_away };

namespace detail {

constexpr operand bf16_rne_high(hctx& h, operand x, operand k7fff, bf16_round mode) {
  lower L = h.L();
  if (mode == bf16_round::half_away) {  // pyhip's: + 0x8000, keep the high half
    operand r = reg_op(h.v());
    L.valu2(detail::O::v_add_u32, detail::O::v_add_u32, true, r, imm_op(0x8000u), x);
    return r;
  }
  operand lsb = reg_op(h.v());
  {
    operand s[3] = {x, imm_op(16), imm_op(1)};
    L.legal3(s, 3, false);
    h.e(detail::O::v_bfe_u32, {lsb, s[0], s[1], s[2]});
  }
  operand r = reg_op(h.v());
  {
    operand s[3] = {x, lsb, k7fff};
    L.legal3(s, 3, false);
    h.e(detail::O::v_add3_u32, {r, s[0], s[1], s[2]});
  }
  if (mode == bf16_round::nearest_even_finite) return r;
  operand q = reg_op(h.v());
  L.valu2(detail::O::v_or_b32, detail::O::v_or_b32, true, q, imm_op(0x400000u), x);
  reg_ref nan = h.s(2);
  L.valu3(detail::O::v_cmp_u_f32, reg_op(nan), x, x, true);
  operand y = reg_op(h.v());
  h.e(detail::O::v_cndmask_b32, {y, r, q, reg_op(nan)});
  return y;
}

// fp8/bf8 saturation: med3(x, -max, max) for every non-NaN x, NaN kept.
constexpr operand f8_saturate(hctx& h, operand x, operand kmax_s, operand kmin_v) {
  lower L = h.L();
  if (!lower::is_vgpr(x)) x = L.vmov(x);
  operand c = reg_op(h.v());
  h.e(detail::O::v_med3_f32, {c, x, kmin_v, kmax_s});
  reg_ref nan = h.s(2);
  h.e(detail::O::v_cmp_u_f32, {reg_op(nan), x, x});
  operand y = reg_op(h.v());
  h.e(detail::O::v_cndmask_b32, {y, c, x, reg_op(nan)});
  return y;
}

constexpr reg_ref lower_cvt_f8(hctx& h, bool bf8, const xval* v, bool saturate) {
  lower L = h.L();
  operand s[4];
  for (int i = 0; i < 4; ++i) s[i] = v[i].op;
  if (saturate) {
    const uint32_t mx = fp8_max_bits(active_target::desc.fp8, bf8);
    operand kmax = L.smov(imm_op(mx));
    operand kmin = L.vmov(imm_op(mx | 0x80000000u));
    for (int i = 0; i < 4; ++i) s[i] = f8_saturate(h, s[i], kmax, kmin);
  }
  reg_ref d = h.v();
  const O op = bf8 ? detail::O::v_cvt_pk_bf8_f32 : detail::O::v_cvt_pk_fp8_f32;
  {
    operand a[2] = {s[0], s[1]};
    L.legal3(a, 2, true);
    h.e(op, {reg_op(d), a[0], a[1]});
  }
  {
    operand a[2] = {s[2], s[3]};
    L.legal3(a, 2, true);
    modifiers m;
    m.op_sel = 4;  // op_sel:[0,0,1]: the high word; the low word is kept
    h.e(op, {reg_op(d), a[0], a[1]}, m);
    // A VALU reading it waits 1 state (LLVM's hasDstSelForwardingHazard): the hazard pass
    // inserts it (op_sel's dst bit is entry 2 of llvm-mc's [src0, src1, dst]).
  }
  return d;
}

constexpr reg_ref lower_cvt_i8(hctx& h, const xval* v) {
  lower L = h.L();
  operand kmax = L.smov(imm_op(0x42fe0000u));   // 127
  operand kmin = L.vmov(imm_op(0xc3000000u));   // -128
  operand magic = L.smov(imm_op(0x4b400000u));  // 1.5 * 2^23: integers in the low mantissa bits
  reg_ref d = h.v();
  for (int i = 0; i < 4; ++i) {
    operand x = v[i].op;
    if (!lower::is_vgpr(x)) x = L.vmov(x);
    operand c = reg_op(h.v());
    h.e(detail::O::v_med3_f32, {c, x, kmin, kmax});
    h.e(detail::O::v_add_f32, {reg_op(d), magic, c},
        sdwa().dst_sel(static_cast<sdwa_sel>(i)).dst_unused(i == 0 ? sdwa_unused::pad : sdwa_unused::preserve));
  }
  return d;
}

}  // namespace detail

// (a, b) -> bf16x2, a in bits 0-15.
constexpr gpr<dtype::bf16x2> cvt_bf16x2(const val<dtype::f32>& a, const val<dtype::f32>& b,
                                        bf16_round mode = bf16_round::nearest_even) {
  builder* bp = a.x.b ? a.x.b : b.x.b;
  detail::hctx h(*bp, b.x.loc.line ? b.x.loc : a.x.loc);
  detail::lower L = h.L();
  if (constexpr int pk = isa::find_instr("v_cvt_pk_bf16_f32"); pk >= 0 && mode != bf16_round::half_away) {
    detail::reg_ref d = h.v();
    h.e(static_cast<detail::O>(pk), {detail::reg_op(d), a.x.op, b.x.op});
    return h.result<dtype::bf16x2>(d);
  }
  operand k = mode == bf16_round::half_away ? detail::imm_op(0) : L.smov(detail::imm_op(0x7fff));
  operand lo = detail::bf16_rne_high(h, a.x.op, k, mode), hi = detail::bf16_rne_high(h, b.x.op, k, mode);
  operand sel = L.smov(detail::imm_op(0x07060302u));
  detail::reg_ref d = h.v();
  h.e(detail::O::v_perm_b32, {detail::reg_op(d), hi, lo, sel});
  return h.result<dtype::bf16x2>(d);
}
// One value -> its bf16 bits in bits 0-15 (the high half zero), as u32.
constexpr gpr<dtype::u32> cvt_bf16(const val<dtype::f32>& a, bf16_round mode = bf16_round::nearest_even) {
  if (isa::find_instr("v_cvt_pk_bf16_f32") >= 0 && mode != bf16_round::half_away)
    return cvt_bf16x2(a, 0.0f, mode).as<dtype::u32>();  // (bf16(0) = 0 in the high half)
  detail::hctx h(*a.x.b, a.x.loc);
  detail::lower L = h.L();
  operand k = mode == bf16_round::half_away ? detail::imm_op(0) : L.smov(detail::imm_op(0x7fff));
  operand y = detail::bf16_rne_high(h, a.x.op, k, mode);
  detail::reg_ref d = h.v();
  h.e(detail::O::v_lshrrev_b32, {detail::reg_op(d), detail::imm_op(16), y});
  return h.result<dtype::u32>(d);
}
// (a, b) -> f16x2, a in bits 0-15; round to nearest even.
constexpr gpr<dtype::f16x2> cvt_f16x2(const val<dtype::f32>& a, const val<dtype::f32>& b) {
  builder* bp = a.x.b ? a.x.b : b.x.b;
  detail::hctx h(*bp, b.x.loc.line ? b.x.loc : a.x.loc);
  detail::lower L = h.L();
  detail::reg_ref d = h.v();
  h.e(detail::O::v_cvt_f16_f32, {detail::reg_op(d), a.x.op});
  operand bo = b.x.op;
  if (!detail::lower::is_vgpr(bo)) bo = L.vmov(bo);  // SDWA sources are VGPRs on gfx9... (or SGPR, kept simple)
  h.e(detail::O::v_cvt_f16_f32, {detail::reg_op(d), bo}, sdwa().dst_sel(sdwa_sel::word1).dst_unused(sdwa_unused::preserve));
  return h.result<dtype::f16x2>(d);
}
// (a, b, c, d) -> fp8x4 (e4m3: the target's e4m3fnuz or e4m3fn), a in byte 0.
constexpr gpr<dtype::fp8x4> cvt_fp8x4(const val<dtype::f32>& a, const val<dtype::f32>& b, const val<dtype::f32>& c,
                                      const val<dtype::f32>& d, bool saturate = true) {
  builder* bp = a.x.b ? a.x.b : b.x.b ? b.x.b : c.x.b ? c.x.b : d.x.b;
  detail::hctx h(*bp, a.x.loc);
  detail::xval v[4] = {a.x, b.x, c.x, d.x};
  return h.result<dtype::fp8x4>(detail::lower_cvt_f8(h, false, v, saturate));
}
// (a, b, c, d) -> bf8x4 (e5m2: the target's e5m2fnuz or e5m2), a in byte 0.
constexpr gpr<dtype::bf8x4> cvt_bf8x4(const val<dtype::f32>& a, const val<dtype::f32>& b, const val<dtype::f32>& c,
                                      const val<dtype::f32>& d, bool saturate = true) {
  builder* bp = a.x.b ? a.x.b : b.x.b ? b.x.b : c.x.b ? c.x.b : d.x.b;
  detail::hctx h(*bp, a.x.loc);
  detail::xval v[4] = {a.x, b.x, c.x, d.x};
  return h.result<dtype::bf8x4>(detail::lower_cvt_f8(h, true, v, saturate));
}

// (a, b, c, d) -> four int8 (two's complement) in a u32, a in byte 0: round to nearest even,
// saturated to [-128, 127], NaN -> -128.
constexpr gpr<dtype::u32> cvt_i8x4(const val<dtype::f32>& a, const val<dtype::f32>& b, const val<dtype::f32>& c,
                                   const val<dtype::f32>& d) {
  builder* bp = a.x.b ? a.x.b : b.x.b ? b.x.b : c.x.b ? c.x.b : d.x.b;
  detail::hctx h(*bp, a.x.loc);
  detail::xval v[4] = {a.x, b.x, c.x, d.x};
  return h.result<dtype::u32>(detail::lower_cvt_i8(h, v));
}

// Element i of a packed register as f32 (exact).
template <dtype T>
  requires(T == dtype::bf16x2 || T == dtype::f16x2 || T == dtype::fp8x4 || T == dtype::bf8x4)
constexpr gpr<dtype::f32> to_f32(const gpr<T>& v, int i, std::source_location l = std::source_location::current()) {
  detail::hctx h(*v.b, to_src_loc(l));
  detail::reg_ref d = h.v();
  const int n = T == dtype::fp8x4 || T == dtype::bf8x4 ? 4 : 2;
  if (i < 0 || i >= n) {
    h.b.fail(h.l, "to_f32: element ", static_cast<long long>(i), " of a ", dtype_name(T), " (0..", static_cast<long long>(n - 1), ")");
    return gpr<dtype::f32>(d);
  }
  detail::lower L = h.L();
  operand s = v.to_operand();
  if (!detail::lower::is_vgpr(s)) s = L.vmov(s);
  if (T == dtype::bf16x2) {
    if (i == 0) h.e(detail::O::v_lshlrev_b32, {detail::reg_op(d), detail::imm_op(16), s});
    else L.valu2(detail::O::v_and_b32, detail::O::v_and_b32, true, detail::reg_op(d), detail::imm_op(0xffff0000u), s);
  } else if (T == dtype::f16x2) {
    if (i == 0) h.e(detail::O::v_cvt_f32_f16, {detail::reg_op(d), s});
    else h.e(detail::O::v_cvt_f32_f16, {detail::reg_op(d), s}, sdwa().src0_sel(sdwa_sel::word1));
  } else {
    h.e(T == dtype::fp8x4 ? detail::O::v_cvt_f32_fp8 : detail::O::v_cvt_f32_bf8, {detail::reg_op(d), s},
        sdwa().src0_sel(static_cast<sdwa_sel>(i)));
  }
  return h.result<dtype::f32>(d);
}

// Elements 2*word and 2*word+1 of an fp8x4 / bf8x4 as two f32 (a 2-element array): one
// v_cvt_pk_f32_fp8 / _bf8 (SDWA src0_sel WORD_1 for word 1), half the instructions of to_f32.
template <dtype T>
  requires(T == dtype::fp8x4 || T == dtype::bf8x4)
constexpr gpr<dtype::f32> to_f32x2(const gpr<T>& v, int word, std::source_location l = std::source_location::current()) {
  detail::hctx h(*v.b, to_src_loc(l));
  detail::reg_ref d = h.v(2);
  if (word != 0 && word != 1) {
    h.b.fail(h.l, "to_f32x2: word ", static_cast<long long>(word), " of a ", dtype_name(T), " (0 or 1)");
    return gpr<dtype::f32>(d);
  }
  detail::lower L = h.L();
  operand s = v.to_operand();
  if (!detail::lower::is_vgpr(s)) s = L.vmov(s);
  const detail::O op = T == dtype::fp8x4 ? detail::O::v_cvt_pk_f32_fp8 : detail::O::v_cvt_pk_f32_bf8;
  if (word == 0) h.e(op, {detail::reg_op(d), s});
  else h.e(op, {detail::reg_op(d), s}, sdwa().src0_sel(sdwa_sel::word1));
  return h.result<dtype::f32>(d);
}

// The 4 elements of an fp8x4 / bf8x4 as bf16, exact: element 2 k + i in half i of dword k (the
// element order of a bf16 MFMA operand).
template <dtype T>
  requires(T == dtype::fp8x4 || T == dtype::bf8x4)
constexpr gpr<dtype::bf16x2> to_bf16x4(const gpr<T>& v, std::source_location l = std::source_location::current()) {
  builder& J = *v.b;
  auto lo = to_f32x2(v, 0, l), hi = to_f32x2(v, 1, l);
  auto high_halves = J.sgpr<dtype::u32>();
  J.s_mov_b32(high_halves, 0x07060302, no_modifiers, l);
  auto r = lo.template as<dtype::u32>(l);
  J.v_perm_b32(r.at(0, l), lo.at(1, l), lo.at(0, l), high_halves, no_modifiers, l);
  J.v_perm_b32(r.at(1, l), hi.at(1, l), hi.at(0, l), high_halves, no_modifiers, l);
  return r.template as<dtype::bf16x2>(l);
}

// ---- OCP MX formats: fp4 (e2m1), fp6 (e2m3), bf6 (e3m2), with E8M0 block scales ----
// The target's v_cvt_scalef32_* instructions (target_features::has_mx_convert); on a target without them
// each helper fails naming the user's line and the target. The scale is an E8M0 code (the
// block scale 2^(code - 127); 0xff NaN) in bits 0-7 of a u32, SGPR or VGPR: the instructions
// read the exponent field of an f32, which is the code shifted left by 23 (one SALU / VALU; the
// bits above 7 fall off the top).
//   auto p = cvt_fp4x8(x8, scale);       // 8 f32 (a tuple) -> fp4x8: element i = x8[i] / scale
//   auto f = to_f32x8(p, scale);         // back: 8 f32 = element * scale (exact)
//   auto q = cvt_fp6x32<fp6>(even, odd, scale);  // 16 + 16 f32 -> 32 fp6 (or bf6) in 6 dwords:
//                                        // value 2i = even[i], 2i + 1 = odd[i] (the instruction's order)
//   auto g = to_f32x32(q, scale);        // back: 32 f32, value i in dword i
// Down-conversion rounds to nearest even and saturates to +-the format's largest (fp4 6, fp6
// 7.5, bf6 28); NaN and infinities give +-the largest, and so does every value with scale 0xff.
// Up-conversion with scale 0xff gives NaN.
namespace detail {
constexpr bool mx_available(builder& J, std::string_view what, src_loc l) {
  if (active_target::desc.features.has_mx_convert) return true;
  J.fail(l, what, ": the OCP MX conversions (v_cvt_scalef32_*) do not exist on ", active_target::name);
  return false;
}
// The E8M0 code as the f32 whose exponent field it is (same register class as the code).
constexpr gpr<dtype::u32> mx_scale_f32(builder& J, const gpr<dtype::u32>& code, std::source_location l) {
  if (code.cls == reg_class::sgpr) {
    auto s = J.sgpr<dtype::u32>();
    J.s_lshl_b32(s, code, 23, no_modifiers, l);
    return s;
  }
  auto v = J.vgpr<dtype::u32>();
  J.v_lshlrev_b32(v, 23, code, no_modifiers, l);
  return v;
}
}  // namespace detail

// 8 f32 (an 8-dword tuple) -> fp4x8, element i = x8[i] / 2^(scale - 127): four
// v_cvt_scalef32_pk_fp4_f32, byte 0 first (op_sel[3:2] picks the byte; the others are kept).
constexpr gpr<dtype::fp4x8> cvt_fp4x8(const gpr<dtype::f32>& x8, const gpr<dtype::u32>& scale,
                                      std::source_location l = std::source_location::current()) {
  builder& J = *x8.b;
  auto d = J.vgpr<dtype::u32>();
  if (!detail::mx_available(J, "cvt_fp4x8", to_src_loc(l))) return d.as<dtype::fp4x8>(l);
  if (x8.dwords() != 8) {
    J.fail(to_src_loc(l), "cvt_fp4x8: 8 f32 values (an 8-dword tuple), not ", static_cast<long long>(x8.dwords()));
    return d.as<dtype::fp4x8>(l);
  }
  auto sc = detail::mx_scale_f32(J, scale, l);
  for (int i = 0; i < 4; ++i) {
    modifiers m;
    m.op_sel = static_cast<uint8_t>(i << 2);
    J.v_cvt_scalef32_pk_fp4_f32(d, x8.at(2 * i, l), x8.at(2 * i + 1, l), sc, m, l);
  }
  return d.as<dtype::fp4x8>(l);
}

// fp4x8 -> 8 f32 (an 8-dword tuple), element i * 2^(scale - 127), exact: four
// v_cvt_scalef32_pk_f32_fp4 (op_sel[1:0] picks the byte).
constexpr gpr<dtype::f32> to_f32x8(const gpr<dtype::fp4x8>& v, const gpr<dtype::u32>& scale,
                                   std::source_location l = std::source_location::current()) {
  builder& J = *v.b;
  auto d = J.vgpr<dtype::f32>(8);
  if (!detail::mx_available(J, "to_f32x8", to_src_loc(l))) return d;
  auto sc = detail::mx_scale_f32(J, scale, l);
  auto src = v.as<dtype::u32>(l);
  for (int i = 0; i < 4; ++i) {
    modifiers m;
    m.op_sel = static_cast<uint8_t>(i);
    J.v_cvt_scalef32_pk_f32_fp4(d.slice(2 * i, 2, l), src, sc, m, l);
  }
  return d;
}

// 32 f32 -> 32 fp6 (e2m3) or bf6 (e3m2) in six dwords, value 2i = even[i] / 2^(scale - 127) and
// value 2i + 1 = odd[i] / 2^(scale - 127) (16-dword tuples): one v_cvt_scalef32_2xpk16_{fp6,bf6}_f32.
template <dtype T>
  requires(T == dtype::fp6 || T == dtype::bf6)
constexpr gpr<T> cvt_fp6x32(const gpr<dtype::f32>& even, const gpr<dtype::f32>& odd, const gpr<dtype::u32>& scale,
                            std::source_location l = std::source_location::current()) {
  builder& J = *even.b;
  auto d = J.vgpr<dtype::u32>(6);
  if (!detail::mx_available(J, "cvt_fp6x32", to_src_loc(l))) return d.as<T>(l);
  if (even.dwords() != 16 || odd.dwords() != 16) {
    J.fail(to_src_loc(l), "cvt_fp6x32: two 16-dword f32 tuples");
    return d.as<T>(l);
  }
  auto sc = detail::mx_scale_f32(J, scale, l);
  if constexpr (T == dtype::fp6) J.v_cvt_scalef32_2xpk16_fp6_f32(d, even, odd, sc, no_modifiers, l);
  else J.v_cvt_scalef32_2xpk16_bf6_f32(d, even, odd, sc, no_modifiers, l);
  return d.as<T>(l);
}

// 32 fp6 / bf6 (six dwords) -> 32 f32 (a 32-dword tuple, value i in dword i), value * 2^(scale -
// 127), exact: one v_cvt_scalef32_pk32_f32_{fp6,bf6}.
template <dtype T>
  requires(T == dtype::fp6 || T == dtype::bf6)
constexpr gpr<dtype::f32> to_f32x32(const gpr<T>& v, const gpr<dtype::u32>& scale,
                                    std::source_location l = std::source_location::current()) {
  builder& J = *v.b;
  auto d = J.vgpr<dtype::f32>(32);
  if (!detail::mx_available(J, "to_f32x32", to_src_loc(l))) return d;
  if (v.dwords() != 6) {
    J.fail(to_src_loc(l), "to_f32x32: 32 packed values (a 6-dword tuple), not ", static_cast<long long>(v.dwords()), " dwords");
    return d;
  }
  auto sc = detail::mx_scale_f32(J, scale, l);
  if constexpr (T == dtype::fp6) J.v_cvt_scalef32_pk32_f32_fp6(d, v.template as<dtype::u32>(l), sc, no_modifiers, l);
  else J.v_cvt_scalef32_pk32_f32_bf6(d, v.template as<dtype::u32>(l), sc, no_modifiers, l);
  return d;
}

}  // namespace hipasm
