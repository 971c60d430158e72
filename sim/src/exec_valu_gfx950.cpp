// VALU instructions new in gfx950 (CDNA4). Which ones a code object may use is the target's
// opcode table (gen/gfx950_opcodes.inc): a gfx942 code object never decodes to these.
//   v_permlane16_swap_b32 / v_permlane32_swap_b32: swap the odd 16-lane rows of vdst with the
//     even rows of src0 / rows 2-3 of vdst with rows 0-1 of src0 (LLVM's intrinsic
//     documentation); both operands are written.
//   v_cvt_pk_bf16_f32 / v_cvt_pk_f16_f32: {src1, src0} rounded to nearest-even into one dword.
//   v_cvt_f32_bf16: the bf16 in the low half (op_sel[0] / SDWA: the high half) widened.
//   v_minimum3_f32 / v_maximum3_f32: IEEE 754-2019 minimum/maximum (a NaN operand gives NaN,
//     -0 < +0).
//   v_bitop3_b32 / _b16: bit i of the result is bit (s0_i*4 + s1_i*2 + s2_i) of the table.
//   v_prng_b32: one LFSR step, (x << 1) ^ (x[31] ? 197 : 0) (CDNA4 ISA).
//   v_ashr_pk_{i8,u8}_i32: two arithmetic shifts, saturated to bytes, packed into 16 bits.
//   v_cvt_sr_{f16,bf16}_f32: stochastic rounding with the seed in src1.
//   v_cvt_scalef32_*: values divided (down-converts) or multiplied (up-converts) by the power
//     of two of the f32 scale (its exponent field), to / from OCP fp8 e4m3fn, bf8 e5m2, fp6
//     e2m3, bf6 e3m2, fp4 e2m1; nearest-even or (_sr_) stochastic, the packed SR forms taking
//     v_prng_b32 of the previous seed for each next value (CDNA4 ISA pseudocode).
// The scale rule (exponent field only, 0xff: NaN / saturation) and the saturation follow AMD's
// bit-accurate gfx950 fp4 model; the op_sel roles are what clang-22 emits for the builtins.
// Where the CDNA4 ISA text leaves a point open, the choice is stated at the handler (the
// kept half of the 16-bit results, the stochastic-rounding width in float_formats.hpp).
#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

using SrcType::B16;
using SrcType::B32;
using SrcType::F32;

void permlane_swap(Wave& w, const Inst& in, int row_bits) {
  if (!in.dst[0].is_vector() || !in.src[0].is_vector()) fail(in, "both operands must be VGPRs");
  uint32_t* d = vec_ptr(w, in.dst[0]);
  uint32_t* s = vec_ptr(w, in.src[0]);
  uint32_t old_d[kLanes], old_s[kLanes];
  std::memcpy(old_d, d, sizeof old_d);
  std::memcpy(old_s, s, sizeof old_s);
  // Pairs (a in vdst, b in src0): 16-lane rows: a = b + 16 for b in rows 0 and 2; 32: a = b + 32.
  const int span = 1 << row_bits;
  for (int b = 0; b < kLanes; ++b) {
    if ((b >> row_bits) & 1) continue;
    const int a = b + span;
    // A value read from an inactive lane (without fi) is 0 with bound_ctrl, else no write.
    const bool a_ok = ((w.exec >> a) & 1) || in.mod.fi, b_ok = ((w.exec >> b) & 1) || in.mod.fi;
    if ((w.exec >> a) & 1) {
      if (b_ok) d[a] = old_s[b];
      else if (in.mod.bound_ctrl) d[a] = 0;
    }
    if ((w.exec >> b) & 1) {
      if (a_ok) s[b] = old_d[a];
      else if (in.mod.bound_ctrl) s[b] = 0;
    }
  }
  w.lane_ops += std::popcount(w.exec);
}

// IEEE 754-2019 minimum / maximum.
inline uint32_t minimum_ieee(uint32_t a, uint32_t b, bool max) {
  if (fp::is_nan32(a)) return a | 0x400000u;
  if (fp::is_nan32(b)) return b | 0x400000u;
  const float x = f32(a), y = f32(b);
  if (x == y) return (std::signbit(x) != max) ? a : b;  // -0 < +0
  return (x < y) != max ? a : b;
}

void minmax3(Wave& w, const Inst& in, bool max) {
  F32Env e(w);
  valu32<3>(w, in, {F32, F32, F32}, DstType::F32, [&](uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t x = bits(e.i(a)), y = bits(e.i(b)), z = bits(e.i(c));
    return e.o(f32(minimum_ieee(minimum_ieee(x, y, max), z, max)));
  });
}

inline uint32_t bitop3(uint8_t table, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r = 0;
  for (int i = 0; i < 8; ++i) {
    if (!((table >> i) & 1)) continue;
    const uint32_t ma = (i & 4) ? a : ~a, mb = (i & 2) ? b : ~b, mc = (i & 1) ? c : ~c;
    r |= ma & mb & mc;
  }
  return r;
}

// The wide source formats of the scaled down-converts, read from a source dword (f16 / bf16:
// the half `hi` picks), and their mantissa bits (which fix the stochastic-rounding width).
enum class Wide : uint8_t { F32, F16, BF16 };
inline float wide_value(uint32_t v, Wide t, bool hi) {
  const uint16_t h = uint16_t(hi ? v >> 16 : v);
  return t == Wide::F32 ? f32(v) : t == Wide::F16 ? fp::f16_to_f32(h) : fp::bf16_to_f32(h);
}
constexpr int wide_man_bits(Wide t) { return t == Wide::F32 ? 23 : t == Wide::F16 ? 10 : 7; }
inline uint32_t scale_exp(uint32_t scale_bits) { return (scale_bits >> 23) & 0xff; }
inline uint32_t prng(uint32_t x) { return (x << 1) ^ ((x >> 31) ? 197u : 0u); }

// A down-convert into a `field_mask` field of vdst at bit `sh`, the rest of vdst kept:
// `pack(s, lane)` gives the field from the gathered sources.
template <int N, class Pack>
void cvt_down(Wave& w, const Inst& in, const SrcType (&t)[N], int sh, uint32_t field_mask, Pack pack) {
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  Sources s;
  gather(w, in, N, t, s);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) { res[l] = (old[l] & ~(field_mask << sh)) | (pack(s, l) << sh); });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}
inline int dst_byte(const Inst& in) { return 8 * ((in.mod.op_sel >> 2) & 3); }
inline int dst_word(const Inst& in) { return 16 * ((in.mod.op_sel >> 3) & 1); }

// v_cvt_scalef32_pk_fp4_{f32,f16,bf16}: two values (src0, src1 / the halves of src0) divided
// by the scale's power of two, to fp4 e2m1 nearest-even, saturated, into byte op_sel[3:2].
template <Wide W>
void cvt_scalef32_pk_fp4(Wave& w, const Inst& in) {
  if constexpr (W == Wide::F32) {
    static constexpr SrcType t[3] = {F32, F32, F32};
    cvt_down(w, in, t, dst_byte(in), 0xffu, [](const Sources& s, int l) {
      const uint32_t e = scale_exp(s.p[2][0][l]);
      return fp::f32_to_mini_sat(f32(s.p[0][0][l]), fp::kE2M1, e) | fp::f32_to_mini_sat(f32(s.p[1][0][l]), fp::kE2M1, e) << 4;
    });
  } else {
    static constexpr SrcType t[2] = {B32, F32};
    cvt_down(w, in, t, dst_byte(in), 0xffu, [](const Sources& s, int l) {
      const uint32_t e = scale_exp(s.p[1][0][l]), v = s.p[0][0][l];
      return fp::f32_to_mini_sat(wide_value(v, W, false), fp::kE2M1, e) |
             fp::f32_to_mini_sat(wide_value(v, W, true), fp::kE2M1, e) << 4;
    });
  }
}

// v_cvt_scalef32_sr_pk_fp4_{f32,f16,bf16}: the same with stochastic rounding; src1 is the
// seed of the first value, v_prng_b32 of it the seed of the second (ISA pseudocode).
template <Wide W>
void cvt_scalef32_sr_pk_fp4(Wave& w, const Inst& in) {
  static constexpr SrcType t[3] = {W == Wide::F32 ? SrcType::B64 : B32, B32, F32};
  constexpr int k = wide_man_bits(W) - 1;
  cvt_down(w, in, t, dst_byte(in), 0xffu, [](const Sources& s, int l) {
    const uint32_t e = scale_exp(s.p[2][0][l]), seed = s.p[1][0][l];
    const float a = W == Wide::F32 ? f32(s.p[0][0][l]) : wide_value(s.p[0][0][l], W, false);
    const float b = W == Wide::F32 ? f32(s.p[0][1][l]) : wide_value(s.p[0][0][l], W, true);
    return fp::f32_to_mini_sat(a, fp::kE2M1, e, k, seed) | fp::f32_to_mini_sat(b, fp::kE2M1, e, k, prng(seed)) << 4;
  });
}

// v_cvt_scalef32_pk_{fp8,bf8}_{f32,f16,bf16}: two values divided by the scale's power of two,
// to OCP e4m3fn / e5m2 (fp::f32_to_ocp_fp8; clamp saturates), into the word op_sel[3] picks.
template <bool Bf8, Wide W>
void cvt_scalef32_pk_f8(Wave& w, const Inst& in) {
  const bool clamp = in.mod.clamp;
  auto enc = [clamp](float x, uint32_t e) { return uint32_t(fp::f32_to_ocp_fp8(x, Bf8, e, clamp)); };
  if constexpr (W == Wide::F32) {
    static constexpr SrcType t[3] = {F32, F32, F32};
    cvt_down(w, in, t, dst_word(in), 0xffffu, [&](const Sources& s, int l) {
      const uint32_t e = scale_exp(s.p[2][0][l]);
      return enc(f32(s.p[0][0][l]), e) | enc(f32(s.p[1][0][l]), e) << 8;
    });
  } else {
    static constexpr SrcType t[2] = {B32, F32};
    cvt_down(w, in, t, dst_word(in), 0xffffu, [&](const Sources& s, int l) {
      const uint32_t e = scale_exp(s.p[1][0][l]), v = s.p[0][0][l];
      return enc(wide_value(v, W, false), e) | enc(wide_value(v, W, true), e) << 8;
    });
  }
}

// v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16}: one value (f16 / bf16: the half op_sel[0]
// picks), stochastic rounding with the seed src1, into byte op_sel[3:2]. No clamp (llvm-mc
// rejects it): overflow gives the infinity code.
template <bool Bf8, Wide W>
void cvt_scalef32_sr_f8(Wave& w, const Inst& in) {
  static constexpr SrcType t[3] = {W == Wide::F32 ? F32 : B32, B32, F32};
  constexpr int k = wide_man_bits(W) - (Bf8 ? 2 : 3);
  const bool hi = in.mod.op_sel & 1;
  cvt_down(w, in, t, dst_byte(in), 0xffu, [hi](const Sources& s, int l) {
    return uint32_t(fp::f32_to_ocp_fp8(wide_value(s.p[0][0][l], W, hi), Bf8, scale_exp(s.p[2][0][l]), false, k,
                                       s.p[1][0][l]));
  });
}

// v_cvt_sr_{f16,bf16}_f32: f32 to f16 / bf16 with stochastic rounding (sr_round: the seed's
// top 13 / 16 bits added below the kept mantissa, then truncated; overflow gives infinity,
// NaN a quiet NaN), into the half op_sel[3] picks, the other half kept.
inline uint32_t sr_to_bf16(uint32_t b, uint32_t seed) {
  if (fp::is_nan32(b)) return (b >> 16) | 0x40u;
  if ((b & 0x7fffffffu) == 0x7f800000u) return b >> 16;
  return ((b & 0x80000000u) | ((b & 0x7fffffffu) + (seed >> 16))) >> 16;
}
inline uint32_t sr_to_f16(uint32_t b, uint32_t seed) {
  const uint32_t sign = (b >> 16) & 0x8000u;
  if (fp::is_nan32(b)) return fp::f32_to_f16(f32(b));
  const double a = std::fabs(double(f32(b)));
  if (std::isinf(a)) return sign | 0x7c00u;
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);
  const double r = fp::sr_round(a, std::ldexp(1.0, std::max(e - 1, -14) - 10), 13, seed);
  if (r >= 65536.0) return sign | 0x7c00u;
  return sign | fp::f32_to_f16(float(r));  // exact
}

// 32 six-bit values packed in six dwords, value i at bits [6i+5 : 6i].
inline uint32_t get6(const uint32_t* d, int i) {
  const int bit = 6 * i, w = bit / 32, o = bit % 32;
  uint64_t v = d[w];
  if (w + 1 < 6) v |= uint64_t(d[w + 1]) << 32;
  return uint32_t(v >> o) & 0x3fu;
}
inline void put6(uint32_t* d, int i, uint32_t v) {
  const int bit = 6 * i, w = bit / 32, o = bit % 32;
  d[w] |= v << o;
  if (o > 26) d[w + 1] |= v >> (32 - o);
}
inline void need_vgprs(const Inst& in) {
  if (!in.dst[0].is_vector() || !in.src[0].is_vector()) fail(in, "packed operands must be VGPRs");
}

// v_cvt_scalef32_[sr_]pk32_{fp6,bf6}_{f32,f16,bf16} and _2xpk16_{fp6,bf6}_f32: 32 values
// (src0: 32 f32 or 16 dwords of halves; 2xpk16: value 2i from src0 dword i, 2i+1 from src1
// dword i) divided by the scale's power of two, to e2m3 / e3m2 saturated, packed into six
// dwords. SR: src1 seeds the first value, each next seed is v_prng_b32 of the previous.
enum class Pack32 : uint8_t { Plain, Sr, TwoX16 };
template <bool Bf6, Wide W, Pack32 P>
void cvt_scalef32_pk32_down(Wave& w, const Inst& in) {
  need_vgprs(in);
  if (P == Pack32::TwoX16 && !in.src[1].is_vector()) fail(in, "packed operands must be VGPRs");
  const fp::MiniFloat& f = Bf6 ? fp::kE3M2 : fp::kE2M3;
  constexpr int k = wide_man_bits(W) - (Bf6 ? 2 : 3);
  Sources s;
  static constexpr SrcType t[3] = {B32, B32, F32};
  const int sc = P == Pack32::Plain ? 1 : 2;
  gather(w, in, sc + 1, t, s);
  for_lanes(s.mask, [&](int l) {
    const uint32_t e = scale_exp(s.p[sc][0][l]);
    uint32_t seed = P == Pack32::Sr ? s.p[1][0][l] : 0;
    uint32_t out[6] = {};
    for (int i = 0; i < 32; ++i) {
      float x;
      if constexpr (P == Pack32::TwoX16) x = f32(vec_ptr(w, in.src[i & 1], i >> 1)[l]);
      else if constexpr (W == Wide::F32) x = f32(vec_ptr(w, in.src[0], i)[l]);
      else x = wide_value(vec_ptr(w, in.src[0], i >> 1)[l], W, i & 1);
      put6(out, i, P == Pack32::Sr ? fp::f32_to_mini_sat(x, f, e, k, seed) : fp::f32_to_mini_sat(x, f, e));
      if (P == Pack32::Sr) seed = prng(seed);
    }
    for (int d = 0; d < 6; ++d) vec_ptr(w, in.dst[0], d)[l] = out[d];
  });
  w.lane_ops += 32 * std::popcount(s.mask);
}

// v_cvt_scalef32_[pk_]{f32,f16,bf16}_{fp8,bf8,fp4}: narrow values (OCP e4m3fn / e5m2, fp4
// e2m1) times 2^(e - 127), e the exponent field of the f32 scale (src1), rounded to
// nearest-even into the destination type. Which byte(s) (op_sel[1:0]; the pk fp8 forms: the
// word op_sel[0]) and, for the single f16/bf16 result, which half of vdst (op_sel[3]).
enum class Narrow : uint8_t { Fp8, Bf8, Fp4 };
template <Narrow N, Wide D, bool Pk>
void cvt_scalef32_up(Wave& w, const Inst& in) {
  const fp::MiniFloat& f = N == Narrow::Fp8 ? fp::kE4M3 : N == Narrow::Bf8 ? fp::kE5M2 : fp::kE2M1;
  Sources s;
  static constexpr SrcType t[2] = {B32, F32};
  gather(w, in, 2, t, s);
  const unsigned sel = in.mod.op_sel & 3;
  // element i's code: fp4: nibble i of byte sel; pk fp8: byte 2 * word + i; single: byte sel
  auto code = [&](uint32_t src, int i) -> uint32_t {
    if constexpr (N == Narrow::Fp4) return (src >> (8 * sel + 4 * i)) & 0xf;
    else if constexpr (Pk) return (src >> (16 * (sel & 1) + 8 * i)) & 0xff;
    else return (src >> (8 * sel)) & 0xff;
  };
  auto value = [&](uint32_t c, uint32_t scale_bits) -> double {
    const uint32_t e = (scale_bits >> 23) & 0xff;
    if (e == 0xff) return std::numeric_limits<double>::quiet_NaN();
    return std::ldexp(double(fp::mini_to_f32(c, f)), int(e) - 127);
  };
  auto narrow16 = [](double v) -> uint32_t {
    if constexpr (D == Wide::F16) return fp::f64_to_f16(v);
    else return fp::f32_to_bf16(float(v));
  };
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  if constexpr (D == Wide::F32) {
    constexpr int n = Pk ? 2 : 1;
    alignas(64) uint32_t res[2][kLanes];
    for_lanes(s.mask, [&](int l) {
      for (int i = 0; i < n; ++i) res[i][l] = bits(float(value(code(s.p[0][0][l], i), s.p[1][0][l])));
    });
    for (int i = 0; i < n; ++i) {
      uint32_t* out = vec_ptr(w, in.dst[0], i);
      for_lanes(s.mask, [&](int l) { out[l] = res[i][l]; });
    }
  } else {
    alignas(64) uint32_t res[kLanes];
    const int half = 16 * ((in.mod.op_sel >> 3) & 1);
    for_lanes(s.mask, [&](int l) {
      const uint32_t src = s.p[0][0][l], sc = s.p[1][0][l];
      if constexpr (Pk) res[l] = narrow16(value(code(src, 0), sc)) | narrow16(value(code(src, 1), sc)) << 16;
      else res[l] = (old[l] & ~(0xffffu << half)) | narrow16(value(code(src, 0), sc)) << half;
    });
    uint32_t* out = vec_ptr(w, in.dst[0]);
    for_lanes(s.mask, [&](int l) { out[l] = res[l]; });
  }
  w.lane_ops += std::popcount(s.mask);
}

// v_cvt_scalef32_pk32_{f32,f16,bf16}_{fp6,bf6}: six dwords of 32 e2m3 / e3m2 values times
// the scale's power of two, into 32 f32 or 16 dwords of f16 / bf16 pairs (nearest-even).
template <bool Bf6, Wide D>
void cvt_scalef32_pk32_up(Wave& w, const Inst& in) {
  need_vgprs(in);
  const fp::MiniFloat& f = Bf6 ? fp::kE3M2 : fp::kE2M3;
  Sources s;
  static constexpr SrcType t[2] = {B32, F32};
  gather(w, in, 2, t, s);
  for_lanes(s.mask, [&](int l) {
    const uint32_t e = scale_exp(s.p[1][0][l]);
    uint32_t src[6];
    for (int d = 0; d < 6; ++d) src[d] = vec_ptr(w, in.src[0], d)[l];
    uint32_t out[32] = {};
    for (int i = 0; i < 32; ++i) {
      const double v = e == 0xff ? std::numeric_limits<double>::quiet_NaN()
                                 : std::ldexp(double(fp::mini_to_f32(get6(src, i), f)), int(e) - 127);
      if constexpr (D == Wide::F32) out[i] = bits(float(v));
      else out[i / 2] |= uint32_t(D == Wide::F16 ? fp::f64_to_f16(v) : fp::f32_to_bf16(float(v))) << (16 * (i & 1));
    }
    constexpr int n = D == Wide::F32 ? 32 : 16;
    for (int d = 0; d < n; ++d) vec_ptr(w, in.dst[0], d)[l] = out[d];
  });
  w.lane_ops += 32 * std::popcount(s.mask);
}

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_gfx950({
    {"v_permlane16_swap_b32", H(permlane_swap(w, in, 4))},
    {"v_permlane32_swap_b32", H(permlane_swap(w, in, 5))},
    {"v_cvt_pk_bf16_f32", H(valu32<2>(w, in, {F32, F32}, DstType::B32, [](uint32_t a, uint32_t b) {
       return uint32_t(fp::f32_to_bf16(f32(a))) | uint32_t(fp::f32_to_bf16(f32(b))) << 16;
     }))},
    {"v_cvt_pk_f16_f32", H(valu32<2>(w, in, {F32, F32}, DstType::B32, [](uint32_t a, uint32_t b) {
       return uint32_t(fp::f32_to_f16(f32(a))) | uint32_t(fp::f32_to_f16(f32(b))) << 16;
     }))},
    {"v_cvt_f32_bf16", H({
       const int sh = in.format == Format::VOP3 ? 16 * (in.mod.op_sel & 1) : 0;
       valu32<1>(w, in, {B32}, DstType::F32, [&](uint32_t a) { return (a >> sh) << 16; });
     })},
    {"v_minimum3_f32", H(minmax3(w, in, false))},
    {"v_maximum3_f32", H(minmax3(w, in, true))},
    {"v_bitop3_b32", H(valu32<3>(w, in, {B32, B32, B32}, DstType::B32, [&](uint32_t a, uint32_t b, uint32_t c) {
       return bitop3(in.mod.bitop3, a, b, c);
     }))},
    // 16-bit: op_sel picks source halves and (op_sel[3]) the written half; the other is kept
    // ("D.b16 = tmp.b16").
    {"v_bitop3_b16", H(valu32<3>(w, in, {B16, B16, B16}, DstType::B16Keep, [&](uint32_t a, uint32_t b, uint32_t c) {
       return bitop3(in.mod.bitop3, a, b, c) & 0xffffu;
     }))},
    {"v_prng_b32", H(valu32<1>(w, in, {B32}, DstType::B32, [](uint32_t a) { return prng(a); }))},
    // Two i32 shifted right (arithmetic) by src2[4:0], saturated to i8 / u8, packed into 16 bits
    // (the half op_sel[3] picks; the other kept).
    {"v_ashr_pk_i8_i32", H(valu32<3>(w, in, {B32, B32, B32}, DstType::B16Keep, [](uint32_t a, uint32_t b, uint32_t c) {
       auto sat = [&](uint32_t x) { return uint32_t(std::clamp(int32_t(x) >> (c & 31), -128, 127)) & 0xffu; };
       return sat(a) | sat(b) << 8;
     }))},
    {"v_ashr_pk_u8_i32", H(valu32<3>(w, in, {B32, B32, B32}, DstType::B16Keep, [](uint32_t a, uint32_t b, uint32_t c) {
       auto sat = [&](uint32_t x) { return uint32_t(std::clamp(int32_t(x) >> (c & 31), 0, 255)); };
       return sat(a) | sat(b) << 8;
     }))},
    {"v_cvt_sr_bf16_f32", H(valu32<2>(w, in, {F32, B32}, DstType::B16Keep, sr_to_bf16))},
    {"v_cvt_sr_f16_f32", H(valu32<2>(w, in, {F32, B32}, DstType::B16Keep, sr_to_f16))},
    {"v_cvt_scalef32_pk_fp4_f32", cvt_scalef32_pk_fp4<Wide::F32>},
    {"v_cvt_scalef32_pk_fp4_f16", cvt_scalef32_pk_fp4<Wide::F16>},
    {"v_cvt_scalef32_pk_fp4_bf16", cvt_scalef32_pk_fp4<Wide::BF16>},
    {"v_cvt_scalef32_sr_pk_fp4_f32", cvt_scalef32_sr_pk_fp4<Wide::F32>},
    {"v_cvt_scalef32_sr_pk_fp4_f16", cvt_scalef32_sr_pk_fp4<Wide::F16>},
    {"v_cvt_scalef32_sr_pk_fp4_bf16", cvt_scalef32_sr_pk_fp4<Wide::BF16>},
    {"v_cvt_scalef32_pk_fp8_f32", cvt_scalef32_pk_f8<false, Wide::F32>},
    {"v_cvt_scalef32_pk_bf8_f32", cvt_scalef32_pk_f8<true, Wide::F32>},
    {"v_cvt_scalef32_pk_fp8_f16", cvt_scalef32_pk_f8<false, Wide::F16>},
    {"v_cvt_scalef32_pk_bf8_f16", cvt_scalef32_pk_f8<true, Wide::F16>},
    {"v_cvt_scalef32_pk_fp8_bf16", cvt_scalef32_pk_f8<false, Wide::BF16>},
    {"v_cvt_scalef32_pk_bf8_bf16", cvt_scalef32_pk_f8<true, Wide::BF16>},
    {"v_cvt_scalef32_sr_fp8_f32", cvt_scalef32_sr_f8<false, Wide::F32>},
    {"v_cvt_scalef32_sr_bf8_f32", cvt_scalef32_sr_f8<true, Wide::F32>},
    {"v_cvt_scalef32_sr_fp8_f16", cvt_scalef32_sr_f8<false, Wide::F16>},
    {"v_cvt_scalef32_sr_bf8_f16", cvt_scalef32_sr_f8<true, Wide::F16>},
    {"v_cvt_scalef32_sr_fp8_bf16", cvt_scalef32_sr_f8<false, Wide::BF16>},
    {"v_cvt_scalef32_sr_bf8_bf16", cvt_scalef32_sr_f8<true, Wide::BF16>},
    {"v_cvt_scalef32_pk32_fp6_f16", cvt_scalef32_pk32_down<false, Wide::F16, Pack32::Plain>},
    {"v_cvt_scalef32_pk32_fp6_bf16", cvt_scalef32_pk32_down<false, Wide::BF16, Pack32::Plain>},
    {"v_cvt_scalef32_pk32_bf6_f16", cvt_scalef32_pk32_down<true, Wide::F16, Pack32::Plain>},
    {"v_cvt_scalef32_pk32_bf6_bf16", cvt_scalef32_pk32_down<true, Wide::BF16, Pack32::Plain>},
    {"v_cvt_scalef32_sr_pk32_fp6_f32", cvt_scalef32_pk32_down<false, Wide::F32, Pack32::Sr>},
    {"v_cvt_scalef32_sr_pk32_fp6_f16", cvt_scalef32_pk32_down<false, Wide::F16, Pack32::Sr>},
    {"v_cvt_scalef32_sr_pk32_fp6_bf16", cvt_scalef32_pk32_down<false, Wide::BF16, Pack32::Sr>},
    {"v_cvt_scalef32_sr_pk32_bf6_f32", cvt_scalef32_pk32_down<true, Wide::F32, Pack32::Sr>},
    {"v_cvt_scalef32_sr_pk32_bf6_f16", cvt_scalef32_pk32_down<true, Wide::F16, Pack32::Sr>},
    {"v_cvt_scalef32_sr_pk32_bf6_bf16", cvt_scalef32_pk32_down<true, Wide::BF16, Pack32::Sr>},
    {"v_cvt_scalef32_2xpk16_fp6_f32", cvt_scalef32_pk32_down<false, Wide::F32, Pack32::TwoX16>},
    {"v_cvt_scalef32_2xpk16_bf6_f32", cvt_scalef32_pk32_down<true, Wide::F32, Pack32::TwoX16>},
    {"v_cvt_scalef32_pk32_f32_fp6", cvt_scalef32_pk32_up<false, Wide::F32>},
    {"v_cvt_scalef32_pk32_f32_bf6", cvt_scalef32_pk32_up<true, Wide::F32>},
    {"v_cvt_scalef32_pk32_f16_fp6", cvt_scalef32_pk32_up<false, Wide::F16>},
    {"v_cvt_scalef32_pk32_f16_bf6", cvt_scalef32_pk32_up<true, Wide::F16>},
    {"v_cvt_scalef32_pk32_bf16_fp6", cvt_scalef32_pk32_up<false, Wide::BF16>},
    {"v_cvt_scalef32_pk32_bf16_bf6", cvt_scalef32_pk32_up<true, Wide::BF16>},
    {"v_cvt_scalef32_f32_fp8", cvt_scalef32_up<Narrow::Fp8, Wide::F32, false>},
    {"v_cvt_scalef32_f32_bf8", cvt_scalef32_up<Narrow::Bf8, Wide::F32, false>},
    {"v_cvt_scalef32_f16_fp8", cvt_scalef32_up<Narrow::Fp8, Wide::F16, false>},
    {"v_cvt_scalef32_f16_bf8", cvt_scalef32_up<Narrow::Bf8, Wide::F16, false>},
    {"v_cvt_scalef32_pk_f32_fp8", cvt_scalef32_up<Narrow::Fp8, Wide::F32, true>},
    {"v_cvt_scalef32_pk_f32_bf8", cvt_scalef32_up<Narrow::Bf8, Wide::F32, true>},
    {"v_cvt_scalef32_pk_f16_fp8", cvt_scalef32_up<Narrow::Fp8, Wide::F16, true>},
    {"v_cvt_scalef32_pk_f16_bf8", cvt_scalef32_up<Narrow::Bf8, Wide::F16, true>},
    {"v_cvt_scalef32_pk_bf16_fp8", cvt_scalef32_up<Narrow::Fp8, Wide::BF16, true>},
    {"v_cvt_scalef32_pk_bf16_bf8", cvt_scalef32_up<Narrow::Bf8, Wide::BF16, true>},
    {"v_cvt_scalef32_pk_f32_fp4", cvt_scalef32_up<Narrow::Fp4, Wide::F32, true>},
    {"v_cvt_scalef32_pk_f16_fp4", cvt_scalef32_up<Narrow::Fp4, Wide::F16, true>},
    {"v_cvt_scalef32_pk_bf16_fp4", cvt_scalef32_up<Narrow::Fp4, Wide::BF16, true>},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail
