// VALU conversions: integer <-> float with the hardware's saturation (NaN -> 0), f16/f32/f64,
// normalised and packed forms, and the fp8/bf8 conversions (FNUZ on gfx942, OCP on gfx950).
#include <climits>

#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

constexpr SrcType F32 = SrcType::F32, F64 = SrcType::F64, F16 = SrcType::F16, B32 = SrcType::B32,
                  B16 = SrcType::B16;

// Float -> integer: truncate toward zero (after `pre`), saturate, NaN -> 0.
inline uint32_t to_i32(double x) {
  if (std::isnan(x)) return 0;
  if (x <= double(INT32_MIN)) return uint32_t(INT32_MIN);
  if (x >= double(INT32_MAX)) return uint32_t(INT32_MAX);
  return uint32_t(int32_t(x));
}
inline uint32_t to_u32(double x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 4294967295.0) return 0xffffffffu;
  return uint32_t(x);
}
inline uint32_t to_i16(double x) {
  if (std::isnan(x)) return 0;
  return uint16_t(int16_t(std::clamp(std::trunc(x), -32768.0, 32767.0)));
}
inline uint32_t to_u16(double x) {
  if (std::isnan(x)) return 0;
  return uint16_t(std::clamp(std::trunc(x), 0.0, 65535.0));
}
inline uint32_t snorm16(double x) {
  if (std::isnan(x)) return 0;
  return uint16_t(int16_t(std::nearbyint(std::clamp(x, -1.0, 1.0) * 32767.0)));
}
inline uint32_t unorm16(double x) {
  if (std::isnan(x)) return 0;
  return uint16_t(std::nearbyint(std::clamp(x, 0.0, 1.0) * 65535.0));
}
inline uint32_t to_u8_round(double x) {
  if (std::isnan(x)) return 0;
  return uint32_t(std::clamp(std::nearbyint(x), 0.0, 255.0));
}

template <class F> void cvt(Wave& w, const Inst& in, SrcType st, DstType dt, F f) {
  valu32<1>(w, in, {st}, dt, f);
}

// v_cvt_f32_fp8/bf8 (VOP1): the byte is chosen by SDWA src0_sel (applied by gather) or,
// in the VOP3 form, by op_sel[1:0].
inline int vop3_byte(const Inst& in) { return in.format == Format::VOP3 ? (in.mod.op_sel & 3) : 0; }
inline int vop3_word(const Inst& in) { return in.format == Format::VOP3 ? (in.mod.op_sel & 1) : 0; }

// The fp8/bf8 encodings are the target's (Target::fp8): CDNA3 FNUZ, or CDNA4 OCP e4m3fn/e5m2.
inline float f8_value(const Wave& w, uint8_t v, const fp::Fp8Format& f) {
  if (target_of(w).fp8 == Fp8Kind::Ocp) return fp::mini_to_f32(v, f.man_bits == 2 ? fp::kE5M2 : fp::kE4M3);
  return fp::fp8_to_f32(v, f);
}
inline uint32_t f8_code(const Wave& w, float x, const fp::Fp8Format& f, bool sat) {
  if (target_of(w).fp8 == Fp8Kind::Ocp) return fp::f32_to_ocp_fp8(x, f.man_bits == 2, 127, sat);
  return fp::f32_to_fp8(x, f, sat);
}

void cvt_f32_f8(Wave& w, const Inst& in, const fp::Fp8Format& f) {
  const int sh = 8 * vop3_byte(in);
  valu32<1>(w, in, {B32}, DstType::F32, [&](uint32_t a) {
    return bits(f8_value(w, uint8_t(a >> sh), f)); });
}
void cvt_pk_f32_f8(Wave& w, const Inst& in, const fp::Fp8Format& f) {
  const int sh = 16 * vop3_word(in);
  valu64<1>(w, in, {B32}, DstType::B64, [&](uint64_t a) {
    uint32_t v = uint32_t(a) >> sh;
    return uint64_t(bits(f8_value(w, uint8_t(v), f))) |
           (uint64_t(bits(f8_value(w, uint8_t(v >> 8), f))) << 32); });
}
// v_cvt_pk_{fp8,bf8}_f32: two values into the word op_sel[3] selects; the other word kept.
void cvt_pk_f8_f32(Wave& w, const Inst& in, const fp::Fp8Format& f) {
  const int sh = 16 * ((in.mod.op_sel >> 3) & 1);
  const bool sat = in.mod.clamp;
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  Sources s;
  static constexpr SrcType t[2] = {SrcType::F32, SrcType::F32};
  gather(w, in, 2, t, s);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    uint32_t v = f8_code(w, f32(s.p[0][0][l]), f, sat) | (f8_code(w, f32(s.p[1][0][l]), f, sat) << 8);
    res[l] = (old[l] & ~(0xffffu << sh)) | (v << sh);
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}
// v_cvt_sr_{fp8,bf8}_f32: stochastic rounding with src1 as the random bits; the byte
// op_sel[3:2] selects is written, the others kept.
void cvt_sr_f8_f32(Wave& w, const Inst& in, const fp::Fp8Format& f) {
  // gfx950's stochastic rounding to OCP (AMD's model adds the random bits, then still rounds
  // to nearest) is not modelled.
  if (target_of(w).fp8 == Fp8Kind::Ocp) fail(in, "stochastic rounding to OCP fp8 is not simulated");
  const int sh = 8 * ((in.mod.op_sel >> 2) & 3);
  const bool sat = in.mod.clamp;
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  Sources s;
  static constexpr SrcType t[2] = {SrcType::F32, SrcType::B32};
  gather(w, in, 2, t, s);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    uint32_t v = fp::f32_to_fp8(f32(s.p[0][0][l]), f, sat, true, s.p[1][0][l]);
    res[l] = (old[l] & ~(0xffu << sh)) | (v << sh);
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}

#define H(...) [](Wave& w, const Inst& in) { __VA_ARGS__; }

const Registrar reg_cvt({
    // ---- f32 <-> integers
    {"v_cvt_f32_i32", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float(int32_t(a))); }))},
    {"v_cvt_f32_u32", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float(a)); }))},
    {"v_cvt_i32_f32", H({ F32Env e(w); cvt(w, in, F32, DstType::B32, [&](uint32_t a) { return to_i32(e.i(a)); }); })},
    {"v_cvt_u32_f32", H({ F32Env e(w); cvt(w, in, F32, DstType::B32, [&](uint32_t a) { return to_u32(e.i(a)); }); })},
    {"v_cvt_rpi_i32_f32", H({ F32Env e(w); cvt(w, in, F32, DstType::B32, [&](uint32_t a) {
       return to_i32(std::floor(double(e.i(a)) + 0.5)); }); })},
    {"v_cvt_flr_i32_f32", H({ F32Env e(w); cvt(w, in, F32, DstType::B32, [&](uint32_t a) {
       return to_i32(std::floor(double(e.i(a)))); }); })},
    {"v_cvt_off_f32_i4", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) {
       return bits(float(int32_t(a << 28) >> 28) / 16.0f); }))},
    {"v_cvt_f32_ubyte0", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float(a & 0xff)); }))},
    {"v_cvt_f32_ubyte1", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float((a >> 8) & 0xff)); }))},
    {"v_cvt_f32_ubyte2", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float((a >> 16) & 0xff)); }))},
    {"v_cvt_f32_ubyte3", H(cvt(w, in, B32, DstType::F32, [](uint32_t a) { return bits(float(a >> 24)); }))},
    // ---- f64
    {"v_cvt_f64_i32", H(valu64<1>(w, in, {B32}, DstType::F64, [](uint64_t a) {
       return bits(double(int32_t(uint32_t(a)))); }))},
    {"v_cvt_f64_u32", H(valu64<1>(w, in, {B32}, DstType::F64, [](uint64_t a) { return bits(double(uint32_t(a))); }))},
    {"v_cvt_i32_f64", H({ F64Env e(w); valu64<1>(w, in, {F64}, DstType::B32, [&](uint64_t a) {
       return uint64_t(to_i32(e.i(a))); }); })},
    {"v_cvt_u32_f64", H({ F64Env e(w); valu64<1>(w, in, {F64}, DstType::B32, [&](uint64_t a) {
       return uint64_t(to_u32(e.i(a))); }); })},
    {"v_cvt_f32_f64", H({ F64Env e(w); F32Env o(w); valu64<1>(w, in, {F64}, DstType::F32, [&](uint64_t a) {
       return uint64_t(o.o(float(e.i(a)))); }); })},
    {"v_cvt_f64_f32", H({ F32Env e(w); F64Env o(w); valu64<1>(w, in, {F32}, DstType::F64, [&](uint64_t a) {
       return o.o(double(e.i(uint32_t(a)))); }); })},
    // ---- f16
    {"v_cvt_f16_f32", H({ F32Env e(w); F16Env o(w);
       cvt(w, in, F32, DstType::F16Zero, [&](uint32_t a) { return o.o(e.i(a)); }); })},
    {"v_cvt_f32_f16", H({ F16Env e(w); F32Env o(w);
       cvt(w, in, F16, DstType::F32, [&](uint32_t a) { return o.o(e.i(a)); }); })},
    {"v_cvt_f16_u16", H({ F16Env o(w); cvt(w, in, B16, DstType::F16Zero, [&](uint32_t a) { return o.o(float(uint16_t(a))); }); })},
    {"v_cvt_f16_i16", H({ F16Env o(w); cvt(w, in, B16, DstType::F16Zero, [&](uint32_t a) { return o.o(float(int16_t(a))); }); })},
    {"v_cvt_u16_f16", H({ F16Env e(w); cvt(w, in, F16, DstType::B16Zero, [&](uint32_t a) { return to_u16(e.i(a)); }); })},
    {"v_cvt_i16_f16", H({ F16Env e(w); cvt(w, in, F16, DstType::B16Zero, [&](uint32_t a) { return to_i16(e.i(a)); }); })},
    {"v_cvt_norm_i16_f16", H({ F16Env e(w); cvt(w, in, F16, DstType::B16Zero, [&](uint32_t a) { return snorm16(e.i(a)); }); })},
    {"v_cvt_norm_u16_f16", H({ F16Env e(w); cvt(w, in, F16, DstType::B16Zero, [&](uint32_t a) { return unorm16(e.i(a)); }); })},
    // ---- packing
    {"v_cvt_pkrtz_f16_f32", H({ F32Env e(w);
       valu32<2>(w, in, {F32, F32}, DstType::B32, [&](uint32_t a, uint32_t b) {
         return uint32_t(fp::f32_to_f16(e.i(a), fp::Round::TowardZero)) |
                (uint32_t(fp::f32_to_f16(e.i(b), fp::Round::TowardZero)) << 16); }); })},
    {"v_cvt_pknorm_i16_f32", H(valu32<2>(w, in, {F32, F32}, DstType::B32, [](uint32_t a, uint32_t b) {
       return snorm16(f32(a)) | (snorm16(f32(b)) << 16); }))},
    {"v_cvt_pknorm_u16_f32", H(valu32<2>(w, in, {F32, F32}, DstType::B32, [](uint32_t a, uint32_t b) {
       return unorm16(f32(a)) | (unorm16(f32(b)) << 16); }))},
    {"v_cvt_pknorm_i16_f16", H(valu32<2>(w, in, {F16, F16}, DstType::B32, [](uint32_t a, uint32_t b) {
       return snorm16(fp::f16_to_f32(uint16_t(a))) | (snorm16(fp::f16_to_f32(uint16_t(b))) << 16); }))},
    {"v_cvt_pknorm_u16_f16", H(valu32<2>(w, in, {F16, F16}, DstType::B32, [](uint32_t a, uint32_t b) {
       return unorm16(fp::f16_to_f32(uint16_t(a))) | (unorm16(fp::f16_to_f32(uint16_t(b))) << 16); }))},
    {"v_pack_b32_f16", H(valu32<2>(w, in, {F16, F16}, DstType::B32, [](uint32_t a, uint32_t b) {
       return (a & 0xffffu) | (b << 16); }))},
    {"v_cvt_pk_u8_f32", H(valu32<3>(w, in, {F32, B32, B32}, DstType::B32, [](uint32_t a, uint32_t b, uint32_t c) {
       const int sh = 8 * (b & 3);
       return (c & ~(0xffu << sh)) | (to_u8_round(f32(a)) << sh); }))},
    {"v_cvt_pkaccum_u8_f32", H({
       const uint32_t* old = vec_ptr(w, in.dst[0]);
       Sources s;
       static constexpr SrcType t[2] = {SrcType::F32, SrcType::B32};
       gather(w, in, 2, t, s);
       alignas(64) uint32_t res[kLanes];
       for_lanes(s.mask, [&](int l) {
         const int sh = 8 * (s.p[1][0][l] & 3);
         res[l] = (old[l] & ~(0xffu << sh)) | (to_u8_round(f32(s.p[0][0][l])) << sh);
       });
       write_dst32(w, in, s.mask, DstType::B32, res);
     })},
    // ---- fp8 / bf8 (CDNA3 FNUZ formats, float_formats.hpp)
    {"v_cvt_f32_fp8", H(cvt_f32_f8(w, in, fp::kFp8))},
    {"v_cvt_f32_bf8", H(cvt_f32_f8(w, in, fp::kBf8))},
    {"v_cvt_pk_f32_fp8", H(cvt_pk_f32_f8(w, in, fp::kFp8))},
    {"v_cvt_pk_f32_bf8", H(cvt_pk_f32_f8(w, in, fp::kBf8))},
    {"v_cvt_pk_fp8_f32", H(cvt_pk_f8_f32(w, in, fp::kFp8))},
    {"v_cvt_pk_bf8_f32", H(cvt_pk_f8_f32(w, in, fp::kBf8))},
    {"v_cvt_sr_fp8_f32", H(cvt_sr_f8_f32(w, in, fp::kFp8))},
    {"v_cvt_sr_bf8_f32", H(cvt_sr_f8_f32(w, in, fp::kBf8))},
});

#undef H

}  // namespace
}  // namespace hipasm::sim::detail
