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
//   v_cvt_scalef32_pk_fp4_f32: two f32 divided by the power of two of the f32 scale (its
//     exponent field), to fp4 e2m1 nearest-even and saturated, into the byte op_sel[3:2] picks.
//   v_cvt_scalef32_[pk_]{f32,f16,bf16}_{fp8,bf8,fp4}: the reverse (see cvt_scalef32_up).
// The scale rule (exponent field only, 0xff: NaN / saturation) and the saturation follow AMD's
// bit-accurate gfx950 fp4 model; the op_sel roles are what clang-22 emits for the builtins.
#include "exec_valu_common.hpp"

namespace hipasm::sim::detail {
namespace {

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

// Two f32 (src0, src1) and an f32 scale (src2) -> `bits` packed into vdst at bit `sh` (the
// rest of vdst kept): `pack(a, b, scale_exp)` gives the packed narrow values.
template <class Pack>
void cvt_scalef32_down(Wave& w, const Inst& in, int sh, uint32_t bits_mask, Pack pack) {
  const uint32_t* old = vec_ptr(w, in.dst[0]);
  Sources s;
  static constexpr SrcType t[3] = {F32, F32, F32};
  gather(w, in, 3, t, s);
  alignas(64) uint32_t res[kLanes];
  for_lanes(s.mask, [&](int l) {
    const uint32_t scale_exp = (s.p[2][0][l] >> 23) & 0xff;
    const uint32_t v = pack(f32(s.p[0][0][l]), f32(s.p[1][0][l]), scale_exp);
    res[l] = (old[l] & ~(bits_mask << sh)) | (v << sh);
  });
  write_dst32(w, in, s.mask, DstType::B32, res);
  w.lane_ops += std::popcount(s.mask);
}

void cvt_scalef32_pk_fp4_f32(Wave& w, const Inst& in) {
  cvt_scalef32_down(w, in, 8 * ((in.mod.op_sel >> 2) & 3), 0xffu, [](float a, float b, uint32_t e) {
    return fp::f32_to_mini_sat(a, fp::kE2M1, e) | fp::f32_to_mini_sat(b, fp::kE2M1, e) << 4;
  });
}

// v_cvt_scalef32_[pk_]{f32,f16,bf16}_{fp8,bf8,fp4}: narrow values (OCP e4m3fn / e5m2, fp4
// e2m1) times 2^(e - 127), e the exponent field of the f32 scale (src1), rounded to
// nearest-even into the destination type. Which byte(s) (op_sel[1:0]; the pk fp8 forms: the
// word op_sel[0]) and, for the single f16/bf16 result, which half of vdst (op_sel[3]).
enum class Narrow : uint8_t { Fp8, Bf8, Fp4 };
enum class Wide : uint8_t { F32, F16, BF16 };
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

// v_cvt_scalef32_pk_{fp8,bf8}_f32: two f32 divided by the scale's power of two, to OCP
// e4m3fn / e5m2 (fp::f32_to_ocp_fp8; clamp saturates), into the word op_sel[3] picks.
template <bool Bf8>
void cvt_scalef32_pk_f8_f32(Wave& w, const Inst& in) {
  const bool clamp = in.mod.clamp;
  cvt_scalef32_down(w, in, 16 * ((in.mod.op_sel >> 3) & 1), 0xffffu, [clamp](float a, float b, uint32_t e) {
    return uint32_t(fp::f32_to_ocp_fp8(a, Bf8, e, clamp)) | uint32_t(fp::f32_to_ocp_fp8(b, Bf8, e, clamp)) << 8;
  });
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
    {"v_cvt_scalef32_pk_fp4_f32", H(cvt_scalef32_pk_fp4_f32(w, in))},
    {"v_cvt_scalef32_pk_fp8_f32", cvt_scalef32_pk_f8_f32<false>},
    {"v_cvt_scalef32_pk_bf8_f32", cvt_scalef32_pk_f8_f32<true>},
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
