// VOP3P packed math (v_pk_* on 16-bit halves and on f32 pairs), v_fma_mix*, dot products
// (VOP3P v_dot* and the VOP2 accumulate-into-dst v_dot*c forms), v_pk_fmac_f16.
//
// VOP3P operand selection: for source i the low-half operation reads the half op_sel[i]
// picks and the high-half operation the half op_sel_hi[i] picks; neg_lo[i] / neg_hi[i]
// negate those (float ops only). For the f32-pair ops "half" means dword.
#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

struct Pk {
  const Inst& in;
  bool lo_hi(int i) const { return (in.mod.op_sel >> i) & 1; }
  bool hi_hi(int i) const { return (in.mod.op_sel_hi >> i) & 1; }
  bool neg_lo(int i) const { return (in.mod.neg_lo >> i) & 1; }
  bool neg_hi(int i) const { return (in.mod.neg_hi >> i) & 1; }
};

inline uint16_t half(uint32_t v, bool hi) { return uint16_t(hi ? v >> 16 : v); }

// 16-bit packed: f(a, b, c) on uint16_t operands for each half; float ops get negation.
template <int N, bool Float, class F>
void pk16(Wave& w, const Inst& in, F f) {
  Sources s;
  static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
  gather(w, in, N, t, s);
  const Pk p{in};
  alignas(64) uint32_t res[kLanes];
  const bool dx10 = (w.mode >> 8) & 1;
  F16Env e(w);
  for_lanes(s.mask, [&](int l) {
    uint16_t lo[3] = {}, hi[3] = {};
    for (int i = 0; i < N; ++i) {
      uint32_t v = s.p[i][0][l];
      lo[i] = half(v, p.lo_hi(i));
      hi[i] = half(v, p.hi_hi(i));
      if (Float) {
        if (p.neg_lo(i)) lo[i] ^= 0x8000u;
        if (p.neg_hi(i)) hi[i] ^= 0x8000u;
      }
    }
    uint32_t rl, rh;
    if constexpr (Float) {
      auto one = [&](const uint16_t* x) -> uint32_t {
        auto r = f(e.i(x[0]), e.i(x[1]), e.i(x[2]));
        if (in.mod.clamp) r = apply_omod_clamp(r, Modifiers{.clamp = true}, dx10);
        return e.o(r);
      };
      rl = one(lo);
      rh = one(hi);
    } else {
      rl = uint16_t(f(lo[0], lo[1], lo[2]));
      rh = uint16_t(f(hi[0], hi[1], hi[2]));
    }
    res[l] = (rl & 0xffffu) | (rh << 16);
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}

// f32 pairs (v_pk_fma_f32, v_pk_mul_f32, v_pk_add_f32).
template <int N, class F>
void pk32(Wave& w, const Inst& in, F f) {
  Sources s;
  static constexpr SrcType t[3] = {SrcType::B64, SrcType::B64, SrcType::B64};
  gather(w, in, N, t, s);
  const Pk p{in};
  F32Env e(w);
  const bool dx10 = (w.mode >> 8) & 1;
  alignas(64) uint64_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    float lo[3] = {}, hi[3] = {};
    for (int i = 0; i < N; ++i) {
      uint32_t v0 = s.p[i][0][l], v1 = s.p[i][1][l];
      uint32_t a = p.lo_hi(i) ? v1 : v0, b = p.hi_hi(i) ? v1 : v0;
      if (p.neg_lo(i)) a ^= 0x80000000u;
      if (p.neg_hi(i)) b ^= 0x80000000u;
      lo[i] = e.i(a);
      hi[i] = e.i(b);
    }
    float rl = f(lo[0], lo[1], lo[2]), rh = f(hi[0], hi[1], hi[2]);
    if (in.mod.clamp) {
      rl = apply_omod_clamp(rl, Modifiers{.clamp = true}, dx10);
      rh = apply_omod_clamp(rh, Modifiers{.clamp = true}, dx10);
    }
    res[l] = uint64_t(e.o(rl)) | (uint64_t(e.o(rh)) << 32);
  });
  write_dst64(w, in, s.mask, DstType::B64, res);
  w.lane_ops += std::popcount(s.mask);
}

// v_fma_mix*: op_sel_hi[i] = 1 reads source i as the f16 half op_sel[i] picks, else as f32.
// Source neg/abs: the NEG / NEG_HI fields (or the operand's modifiers).
template <int Out /*0 f32, 1 lo f16, 2 hi f16*/>
void fma_mix(Wave& w, const Inst& in) {
  Sources s;
  static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
  gather(w, in, 3, t, s);
  const Pk p{in};
  const bool dx10 = (w.mode >> 8) & 1;
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    double x[3];
    for (int i = 0; i < 3; ++i) {
      uint32_t v = s.p[i][0][l];
      double d = p.hi_hi(i) ? double(fp::f16_to_f32(half(v, p.lo_hi(i)))) : double(f32(v));
      // mix encodings keep abs in NEG_HI and neg in NEG (LLVM prints them on the operand)
      if (in.src[i].abs || p.neg_hi(i)) d = std::fabs(d);
      if (in.src[i].neg || p.neg_lo(i)) d = -d;
      x[i] = d;
    }
    if constexpr (Out == 0) {
      float r = fma32(float(x[0]), float(x[1]), float(x[2]));  // inputs are exact in f32
      if (in.mod.clamp) r = apply_omod_clamp(r, Modifiers{.clamp = true}, dx10);
      res[l] = bits(r);
    } else {
      // one rounding to f16 (via double fma and a round-to-odd float)
      double r = fma64(x[0], x[1], x[2]);
      if (in.mod.clamp) r = apply_omod_clamp(r, Modifiers{.clamp = true}, dx10);
      const uint32_t h = fp::f64_to_f16(r);
      res[l] = Out == 1 ? (old[l] & 0xffff0000u) | h : (old[l] & 0xffffu) | (h << 16);
    }
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}

inline int32_t sx(uint32_t v, int bits_) { return int32_t(v << (32 - bits_)) >> (32 - bits_); }

// Integer dot product of `n` lanes of `bits` each; signed or unsigned; + acc, clamp saturates.
template <int Bits, bool Signed>
uint32_t idot(uint32_t a, uint32_t b, uint32_t acc, bool clamp) {
  constexpr int n = 32 / Bits;
  int64_t s = Signed ? int64_t(int32_t(acc)) : int64_t(acc);
  for (int i = 0; i < n; ++i) {
    uint32_t x = (a >> (Bits * i)) & ((1u << Bits) - 1), y = (b >> (Bits * i)) & ((1u << Bits) - 1);
    s += Signed ? int64_t(sx(x, Bits)) * sx(y, Bits) : int64_t(x) * int64_t(y);
  }
  if (clamp) {
    if (Signed) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
    else s = std::clamp<int64_t>(s, 0, UINT32_MAX);
  }
  return uint32_t(s);
}

// VOP3P integer dots (op_sel selection applies to 16-bit element dots only; the 8/4-bit
// forms read whole dwords).
template <int Bits, bool Signed>
void dot_int(Wave& w, const Inst& in) {
  valu32<3>(w, in, {SrcType::B32, SrcType::B32, SrcType::B32}, DstType::B32,
            [&](uint32_t a, uint32_t b, uint32_t c) { return idot<Bits, Signed>(a, b, c, in.mod.clamp); });
}
// VOP2 dot*c: accumulate into the destination, vdst = f(src0, src1, vdst).
template <class F>
void dot_accumulate(Wave& w, const Inst& in, F f) {
  const uint32_t* d = vec_ptr(w, in.dst[0]);
  alignas(64) uint32_t old[kLanes];
  std::memcpy(old, d, sizeof old);
  Sources s;
  static constexpr SrcType t[2] = {SrcType::B32, SrcType::B32};
  gather(w, in, 2, t, s);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) { res[l] = f(s.p[0][0][l], s.p[1][0][l], old[l]); });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}
template <int Bits, bool Signed>
void dotc_int(Wave& w, const Inst& in) {
  dot_accumulate(w, in, [&](uint32_t a, uint32_t b, uint32_t c) { return idot<Bits, Signed>(a, b, c, in.mod.clamp); });
}

// f16 / bf16 dot: products exact, summed in double then rounded once to f32.
template <bool Bf16 = false>
inline float fdot2(uint16_t a0, uint16_t a1, uint16_t b0, uint16_t b1, float c) {
  auto v = [](uint16_t h) { return double(Bf16 ? fp::bf16_to_f32(h) : fp::f16_to_f32(h)); };
  return float(v(a0) * v(b0) + v(a1) * v(b1) + double(c));
}

// v_dot2_f32_{f16,bf16} (VOP3P: op_sel / op_sel_hi pick halves, neg_lo / neg_hi negate them;
// only neg_lo reaches src2) and the v_dot2c forms (VOP2: accumulate into vdst).
template <bool Bf16>
void dot2_f32(Wave& w, const Inst& in) {
  Sources s;
  static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
  gather(w, in, 3, t, s);
  const Pk p{in};
  const bool dx10 = (w.mode >> 8) & 1;
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    uint16_t a0 = half(s.p[0][0][l], p.lo_hi(0)), a1 = half(s.p[0][0][l], p.hi_hi(0));
    uint16_t b0 = half(s.p[1][0][l], p.lo_hi(1)), b1 = half(s.p[1][0][l], p.hi_hi(1));
    if (p.neg_lo(0)) a0 ^= 0x8000u;
    if (p.neg_hi(0)) a1 ^= 0x8000u;
    if (p.neg_lo(1)) b0 ^= 0x8000u;
    if (p.neg_hi(1)) b1 ^= 0x8000u;
    uint32_t c = s.p[2][0][l];
    if (p.neg_lo(2)) c ^= 0x80000000u;
    float r = fdot2<Bf16>(a0, a1, b0, b1, f32(c));
    if (in.mod.clamp) r = apply_omod_clamp(r, Modifiers{.clamp = true}, dx10);
    res[l] = bits(r);
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}
template <bool Bf16>
void dot2c_f32(Wave& w, const Inst& in) {
  dot_accumulate(w, in, [](uint32_t a, uint32_t b, uint32_t c) {
    return bits(fdot2<Bf16>(uint16_t(a), uint16_t(a >> 16), uint16_t(b), uint16_t(b >> 16), f32(c)));
  });
}

// IEEE 754-2019 minimum / maximum of f16 values held as floats: NaN if either is NaN,
// -0 below +0 (v_pk_minimum3_f16 / v_pk_maximum3_f16, gfx950).
inline float fminimum(float a, float b, bool max) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  if (a == b) return std::signbit(a) != max ? a : b;
  return (a < b) != max ? a : b;
}

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_packed({
    // ---- 16-bit integer packed
    {"v_pk_add_u16", H(pk16<2, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       uint32_t r = uint32_t(a) + b; return in.mod.clamp && r > 0xffff ? 0xffffu : r; }))},
    {"v_pk_sub_u16", H(pk16<2, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       return in.mod.clamp && b > a ? 0u : uint32_t(a - b); }))},
    {"v_pk_add_i16", H(pk16<2, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       int32_t r = int16_t(a) + int16_t(b);
       return uint32_t(in.mod.clamp ? std::clamp(r, -32768, 32767) : r); }))},
    {"v_pk_sub_i16", H(pk16<2, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       int32_t r = int16_t(a) - int16_t(b);
       return uint32_t(in.mod.clamp ? std::clamp(r, -32768, 32767) : r); }))},
    {"v_pk_mul_lo_u16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t { return uint32_t(a) * b; }))},
    {"v_pk_mad_u16", H(pk16<3, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       uint32_t r = uint32_t(a) * b + c; return in.mod.clamp && r > 0xffff ? 0xffffu : r; }))},
    {"v_pk_mad_i16", H(pk16<3, false>(w, in, [&](uint16_t a, uint16_t b, uint16_t c) -> uint32_t {
       int32_t r = int16_t(a) * int16_t(b) + int16_t(c);
       return uint32_t(in.mod.clamp ? std::clamp(r, -32768, 32767) : r); }))},
    {"v_pk_lshlrev_b16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t { return uint32_t(b) << (a & 15); }))},
    {"v_pk_lshrrev_b16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t { return uint32_t(b) >> (a & 15); }))},
    {"v_pk_ashrrev_i16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       return uint32_t(int16_t(b) >> (a & 15)); }))},
    {"v_pk_max_i16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       return uint32_t(std::max(int16_t(a), int16_t(b))); }))},
    {"v_pk_min_i16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t {
       return uint32_t(std::min(int16_t(a), int16_t(b))); }))},
    {"v_pk_max_u16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t { return std::max(a, b); }))},
    {"v_pk_min_u16", H(pk16<2, false>(w, in, [](uint16_t a, uint16_t b, uint16_t) -> uint32_t { return std::min(a, b); }))},
    // ---- f16 packed
    {"v_pk_add_f16", H(pk16<2, true>(w, in, [](float a, float b, float) { return a + b; }))},
    {"v_pk_mul_f16", H(pk16<2, true>(w, in, [](float a, float b, float) { return a * b; }))},
    {"v_pk_fma_f16", H(pk16<3, true>(w, in, [](float a, float b, float c) { return double(a) * double(b) + double(c); }))},
    {"v_pk_min_f16", H(pk16<2, true>(w, in, [](float a, float b, float) { return fmin_ieee(a, b); }))},
    {"v_pk_max_f16", H(pk16<2, true>(w, in, [](float a, float b, float) { return fmax_ieee(a, b); }))},
    {"v_pk_minimum3_f16", H(pk16<3, true>(w, in, [](float a, float b, float c) {
       return fminimum(fminimum(a, b, false), c, false); }))},
    {"v_pk_maximum3_f16", H(pk16<3, true>(w, in, [](float a, float b, float c) {
       return fminimum(fminimum(a, b, true), c, true); }))},
    {"v_pk_fmac_f16", H({
       // VOP2: D.h[i] = fma(S0.h[i], S1.h[i], D.h[i]); no op_sel.
       F16Env e(w);
       const uint32_t* d = vec_ptr(w, in.dst[0]);
       alignas(64) uint32_t old[kLanes];
       std::memcpy(old, d, sizeof old);
       Sources s;
       static constexpr SrcType t[2] = {SrcType::B32, SrcType::B32};
       gather(w, in, 2, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         uint32_t r = 0;
         for (int h = 0; h < 2; ++h) {
           double v = double(e.i(half(s.p[0][0][l], h))) * e.i(half(s.p[1][0][l], h)) + e.i(half(old[l], h));
           r |= (e.o(v) & 0xffffu) << (16 * h);
         }
         res[l] = r;
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
     })},
    // ---- f32 pairs
    {"v_pk_fma_f32", H(pk32<3>(w, in, [](float a, float b, float c) { return fma32(a, b, c); }))},
    {"v_pk_mul_f32", H(pk32<2>(w, in, [](float a, float b, float) { return a * b; }))},
    {"v_pk_add_f32", H(pk32<2>(w, in, [](float a, float b, float) { return a + b; }))},
    {"v_pk_mov_b32", H({
       Sources s;
       static constexpr SrcType t[2] = {SrcType::B64, SrcType::B64};
       gather(w, in, 2, t, s);
       const int s0 = in.mod.op_sel & 1, s1 = (in.mod.op_sel >> 1) & 1;
       alignas(64) uint64_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         res[l] = uint64_t(s.p[0][s0][l]) | (uint64_t(s.p[1][s1][l]) << 32);
       });
       write_dst64(w, in, s.mask, DstType::B64, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    // ---- mixed precision fma
    {"v_fma_mix_f32", H(fma_mix<0>(w, in))},
    {"v_fma_mixlo_f16", H(fma_mix<1>(w, in))},
    {"v_fma_mixhi_f16", H(fma_mix<2>(w, in))},
    // ---- dot products
    {"v_dot2_f32_f16", dot2_f32<false>},
    {"v_dot2c_f32_f16", dot2c_f32<false>},
    {"v_dot2_f32_bf16", dot2_f32<true>},    // gfx950
    {"v_dot2c_f32_bf16", dot2c_f32<true>},  // gfx950
    {"v_dot2_i32_i16", H({
       Sources s;
       static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
       gather(w, in, 3, t, s);
       const Pk p{in};
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         uint32_t a = half(s.p[0][0][l], p.lo_hi(0)) | (uint32_t(half(s.p[0][0][l], p.hi_hi(0))) << 16);
         uint32_t b = half(s.p[1][0][l], p.lo_hi(1)) | (uint32_t(half(s.p[1][0][l], p.hi_hi(1))) << 16);
         res[l] = idot<16, true>(a, b, s.p[2][0][l], in.mod.clamp);
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_dot2_u32_u16", H({
       Sources s;
       static constexpr SrcType t[3] = {SrcType::B32, SrcType::B32, SrcType::B32};
       gather(w, in, 3, t, s);
       const Pk p{in};
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         uint32_t a = half(s.p[0][0][l], p.lo_hi(0)) | (uint32_t(half(s.p[0][0][l], p.hi_hi(0))) << 16);
         uint32_t b = half(s.p[1][0][l], p.lo_hi(1)) | (uint32_t(half(s.p[1][0][l], p.hi_hi(1))) << 16);
         res[l] = idot<16, false>(a, b, s.p[2][0][l], in.mod.clamp);
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
       w.lane_ops += std::popcount(s.mask);
     })},
    {"v_dot4_i32_i8", H(dot_int<8, true>(w, in))},
    {"v_dot4_u32_u8", H(dot_int<8, false>(w, in))},
    {"v_dot8_i32_i4", H(dot_int<4, true>(w, in))},
    {"v_dot8_u32_u4", H(dot_int<4, false>(w, in))},
    {"v_dot2c_i32_i16", H(dotc_int<16, true>(w, in))},
    {"v_dot4c_i32_i8", H(dotc_int<8, true>(w, in))},
    {"v_dot8c_i32_i4", H(dotc_int<4, true>(w, in))},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail
