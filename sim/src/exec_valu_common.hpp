// Shared machinery of the VALU semantics (exec_valu_*.cpp): gathering the 64 lanes of each
// source with DPP / SDWA / op_sel / neg / abs applied, EXEC masking, and writing results
// with SDWA dst_sel, 16-bit half selection, clamp and omod.
//
// What is modelled of the MODE register (Wave::mode, hardware layout): FP_DENORM for f32
// ([5:4]) and for f16/f64 ([7:6]) — input denormals are flushed to signed zero when bit 0 of
// the field is clear, output denormals when bit 1 is clear; DX10_CLAMP ([8]) — clamp turns
// NaN into 0 when set. Rounding is always round-to-nearest-even (FP_ROUND is not modelled;
// no clang-generated kernel changes it). IEEE mode's sNaN quieting in min/max is modelled;
// the non-IEEE (IEEE = 0) min/max rules and exception flags (TRAPSTS) are not.
// 16-bit results: the gfx9 rule for the unused half (LLVM's zeroesHigh16BitsOfDest): VOP1/
// VOP2-derived f16/u16 ops and v_mad/fma/div_fixup_f16 zero it, the VOP3-only 16-bit ops
// (min3/max3/med3, add_i16, ...) and v_mac/madmk/madak_f16 keep it; op_sel[3] writes the
// high half and keeps the low one.
#pragma once
#pragma clang fp contract(off)
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core.hpp"
#include "float_formats.hpp"

namespace hipasm::sim::detail {

using fp::f32;
using fp::f64;
using fp::bits;

// ---------------------------------------------------------------- MODE register
struct FloatMode {
  bool in32, out32, in64, out64;  // denormals kept (true) or flushed (false)
  bool dx10_clamp;
  explicit FloatMode(const Wave& w)
      : in32((w.mode >> 4) & 1), out32((w.mode >> 5) & 1), in64((w.mode >> 6) & 1),
        out64((w.mode >> 7) & 1), dx10_clamp((w.mode >> 8) & 1) {}
};

inline uint32_t flush32(uint32_t b) {
  return (b & 0x7f800000u) == 0 ? (b & 0x80000000u) : b;
}
inline uint64_t flush64(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0 ? (b & 0x8000000000000000ull) : b;
}
inline uint16_t flush16(uint16_t b) { return (b & 0x7c00u) == 0 ? uint16_t(b & 0x8000u) : b; }

// f32 arithmetic helpers honouring the denorm mode (inputs and result).
struct F32Env {
  bool in, out;
  explicit F32Env(const Wave& w) : in((w.mode >> 4) & 1), out((w.mode >> 5) & 1) {}
  float i(uint32_t b) const { return f32(in ? b : flush32(b)); }
  uint32_t o(float f) const { return out ? bits(f) : flush32(bits(f)); }
};
struct F64Env {
  bool in, out;
  explicit F64Env(const Wave& w) : in((w.mode >> 6) & 1), out((w.mode >> 7) & 1) {}
  double i(uint64_t b) const { return f64(in ? b : flush64(b)); }
  uint64_t o(double d) const { return out ? bits(d) : flush64(bits(d)); }
};
// f16 values computed in f32 (exact for add/mul/fma inputs) then rounded once.
struct F16Env {
  bool in, out;
  explicit F16Env(const Wave& w) : in((w.mode >> 6) & 1), out((w.mode >> 7) & 1) {}
  float i(uint32_t h) const {
    uint16_t v = uint16_t(h);
    return fp::f16_to_f32(in ? v : flush16(v));
  }
  uint32_t o(float f) const {
    uint16_t h = fp::f32_to_f16(f);
    return out ? h : flush16(h);
  }
  uint32_t o(double d) const {  // a double result rounded once to f16
    uint16_t h = fp::f64_to_f16(d);
    return out ? h : flush16(h);
  }
};

// Fused multiply-add, correctly rounded: the host's FMA instruction when it has one (the
// libm fallback is exact but slow).
float fma32(float a, float b, float c);
double fma64(double a, double b, double c);
bool host_has_fma();
// r[l] = fma(a[l], b[l], c[l]) for the lanes in `mask`, with the FMA instruction (call
// only when host_has_fma()).
void fma32_lanes_hw(uint64_t mask, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* r);

// IEEE-mode min/max: a NaN operand yields the other operand (sNaN quieted if both NaN).
inline float fmin_ieee(float a, float b) {
  if (std::isnan(a)) return std::isnan(b) ? f32(bits(a) | 0x400000u) : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;  // min(-0, +0) = -0
  return a < b ? a : b;
}
inline float fmax_ieee(float a, float b) {
  if (std::isnan(a)) return std::isnan(b) ? f32(bits(a) | 0x400000u) : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
inline double dmin_ieee(double a, double b) {
  if (std::isnan(a)) return std::isnan(b) ? f64(bits(a) | 0x8000000000000ull) : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
inline double dmax_ieee(double a, double b) {
  if (std::isnan(a)) return std::isnan(b) ? f64(bits(a) | 0x8000000000000ull) : b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
// med3 as the ISA defines it for floats: if any input is NaN, the result is min3 (IEEE).
inline float fmed3(float a, float b, float c) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return fmin_ieee(fmin_ieee(a, b), c);
  float mx = fmax_ieee(fmax_ieee(a, b), c);
  if (mx == a) return fmax_ieee(b, c);
  if (mx == b) return fmax_ieee(a, c);
  return fmax_ieee(a, b);
}

// ---------------------------------------------------------------- sources
// What a source is, for modifier purposes.
enum class SrcType : uint8_t {
  B32,   // 32-bit integer/bits: no float modifiers
  F32,   // neg/abs on bit 31
  B16,   // 16-bit integer in the low half (op_sel picks the half in VOP3)
  F16,   // 16-bit float: op_sel picks the half, neg/abs on bit 15
  B64,   // 64-bit integer pair
  F64,   // 64-bit float pair: neg/abs on bit 63
};

inline bool is64(SrcType t) { return t == SrcType::B64 || t == SrcType::F64; }

struct Sources {
  // Per source: pointers to the lane arrays of dword 0 and (for 64-bit) dword 1.
  const uint32_t* p[3][2] = {};
  uint64_t mask = 0;  // lanes to compute and write (EXEC, DPP row/bank/bound masks)
  alignas(64) uint32_t buf[3][2][kLanes];
};

// Lane a DPP control reads for destination lane `l`, or -1 if out of range.
int dpp_source_lane(uint16_t ctrl, int l);

// Applies the DPP permutation to `lanes` (one dword of src0) in place into `out`. Returns
// the mask of lanes whose write stays enabled (row_mask, bank_mask, out-of-range reads
// without bound_ctrl). `exec` decides which source lanes count as readable.
uint64_t dpp_apply(const Modifiers& m, uint64_t exec, const uint32_t* lanes, uint32_t* out);

// SDWA source select: BYTE_0..3 = 0..3, WORD_0/1 = 4/5, DWORD = 6.
inline uint32_t sdwa_select(uint32_t v, uint8_t sel, bool sext) {
  switch (sel) {
    case 0: case 1: case 2: case 3: {
      uint32_t b = (v >> (8 * sel)) & 0xffu;
      return sext ? uint32_t(int32_t(int8_t(b))) : b;
    }
    case 4: case 5: {
      uint32_t h = (v >> (16 * (sel - 4))) & 0xffffu;
      return sext ? uint32_t(int32_t(int16_t(h))) : h;
    }
    default: return v;
  }
}

// Gathers `n` sources of `in` per `types`, applying (in this order) DPP to src0, SDWA
// selects, VOP3 op_sel half selection for 16-bit sources, then abs and neg.
void gather(const Wave& w, const Inst& in, int n, const SrcType* types, Sources& s);

// ---------------------------------------------------------------- destinations
enum class DstType : uint8_t {
  B32,        // 32-bit result, written as is
  F32,        // 32-bit float: omod, clamp
  B16Zero,    // 16-bit result; gfx9 zeroes the high half (op_sel[3] writes the high half)
  F16Zero,    // same, float (omod, clamp)
  B16Keep,    // 16-bit result; the other half is preserved
  F16Keep,
  B64,
  F64,        // omod, clamp
};

// Output modifiers on a float result (omod: 1 = *2, 2 = *4, 3 = /2; clamp to [0,1]).
inline float apply_omod_clamp(float r, const Modifiers& m, bool dx10) {
  if (m.omod == 1) r *= 2.0f;
  else if (m.omod == 2) r *= 4.0f;
  else if (m.omod == 3) r *= 0.5f;
  if (m.clamp) {
    if (std::isnan(r)) return dx10 ? 0.0f : r;
    r = r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r);
  }
  return r;
}
inline double apply_omod_clamp(double r, const Modifiers& m, bool dx10) {
  if (m.omod == 1) r *= 2.0;
  else if (m.omod == 2) r *= 4.0;
  else if (m.omod == 3) r *= 0.5;
  if (m.clamp) {
    if (std::isnan(r)) return dx10 ? 0.0 : r;
    r = r < 0.0 ? 0.0 : (r > 1.0 ? 1.0 : r);
  }
  return r;
}

// Writes `res` (one dword per lane, or the low 16 bits for 16-bit types) to dst[0] for the
// lanes in `mask`, with SDWA dst_sel/dst_unused and omod/clamp.
void write_dst32(Wave& w, const Inst& in, uint64_t mask, DstType t, const uint32_t* res);
void write_dst64(Wave& w, const Inst& in, uint64_t mask, DstType t, const uint64_t* res);

// Writes a lane mask to a VOPC/carry-out destination (VCC or an SGPR pair): lanes in
// `mask` get their bit, lanes outside EXEC get 0.
inline void write_mask_dst(Wave& w, const Operand& d, uint64_t value) {
  if (d.kind == Operand::None) { w.vcc = value; return; }
  write_scalar64(w, d, value);
}

// ---------------------------------------------------------------- generic drivers
template <class F>
inline void for_lanes(uint64_t mask, F&& f) {
  if (mask == ~0ull) {
    for (int l = 0; l < kLanes; ++l) f(l);
  } else {
    while (mask) {
      int l = std::countr_zero(mask);
      mask &= mask - 1;
      f(l);
    }
  }
}

// r = f(a) / f(a,b) / f(a,b,c) on 32-bit lanes.
template <int N, class F>
inline void valu32(Wave& w, const Inst& in, std::initializer_list<SrcType> st, DstType dt, F&& f) {
  Sources s;
  gather(w, in, N, st.begin(), s);
  alignas(64) uint32_t res[kLanes];
  const uint32_t* a = s.p[0][0];
  const uint32_t* b = N > 1 ? s.p[1][0] : nullptr;
  const uint32_t* c = N > 2 ? s.p[2][0] : nullptr;
  for_lanes(s.mask, [&](int l) {
    if constexpr (N == 1) res[l] = f(a[l]);
    else if constexpr (N == 2) res[l] = f(a[l], b[l]);
    else res[l] = f(a[l], b[l], c[l]);
  });
  write_dst32(w, in, s.mask, dt, res);
  w.lane_ops += std::popcount(s.mask);
}

// 64-bit lanes: each source is passed as uint64_t (32-bit sources zero-extended).
template <int N, class F>
inline void valu64(Wave& w, const Inst& in, std::initializer_list<SrcType> st, DstType dt, F&& f) {
  Sources s;
  gather(w, in, N, st.begin(), s);
  alignas(64) uint64_t res[kLanes];
  auto get = [&](int i, int l) -> uint64_t {
    uint64_t lo = s.p[i][0][l];
    return s.p[i][1] ? lo | (uint64_t(s.p[i][1][l]) << 32) : lo;
  };
  for_lanes(s.mask, [&](int l) {
    if constexpr (N == 1) res[l] = f(get(0, l));
    else if constexpr (N == 2) res[l] = f(get(0, l), get(1, l));
    else res[l] = f(get(0, l), get(1, l), get(2, l));
  });
  if (dt == DstType::B64 || dt == DstType::F64)
    write_dst64(w, in, s.mask, dt, res);
  else {
    alignas(64) uint32_t r32[kLanes];
    for_lanes(s.mask, [&](int l) { r32[l] = uint32_t(res[l]); });
    write_dst32(w, in, s.mask, dt, r32);
  }
  w.lane_ops += std::popcount(s.mask);
}

// The destination operand of a VOPC-like mask result: dst[0] if decoded, else VCC.
inline const Operand& mask_dst(const Inst& in, int i) {
  static const Operand vcc{Operand::Vcc, 0, 2};
  return in.num_dst > i && in.dst[i].kind != Operand::None ? in.dst[i] : vcc;
}

// Float classification for v_cmp_class (bit order of the ISA's mask).
inline uint32_t class_bit_f32(uint32_t b) {
  uint32_t a = b & 0x7fffffffu;
  bool neg = b >> 31;
  if (a > 0x7f800000u) return (a & 0x400000u) ? 1u << 1 : 1u << 0;  // qNaN : sNaN
  if (a == 0x7f800000u) return neg ? 1u << 2 : 1u << 9;
  if (a >= 0x800000u) return neg ? 1u << 3 : 1u << 8;
  if (a != 0) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 5 : 1u << 6;
}
inline uint32_t class_bit_f64(uint64_t b) {
  uint64_t a = b & 0x7fffffffffffffffull;
  bool neg = b >> 63;
  if (a > 0x7ff0000000000000ull) return (a & 0x8000000000000ull) ? 1u << 1 : 1u << 0;
  if (a == 0x7ff0000000000000ull) return neg ? 1u << 2 : 1u << 9;
  if (a >= 0x10000000000000ull) return neg ? 1u << 3 : 1u << 8;
  if (a != 0) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 5 : 1u << 6;
}
inline uint32_t class_bit_f16(uint16_t b) {
  uint32_t a = b & 0x7fffu;
  bool neg = b >> 15;
  if (a > 0x7c00u) return (a & 0x200u) ? 1u << 1 : 1u << 0;
  if (a == 0x7c00u) return neg ? 1u << 2 : 1u << 9;
  if (a >= 0x400u) return neg ? 1u << 3 : 1u << 8;
  if (a != 0) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 5 : 1u << 6;
}

}  // namespace hipasm::sim::detail

namespace hipasm::sim::detail {
// exec_mfma.cpp: the documented output position of element (block, row, col) of an MFMA /
// SMFMAC named `name`: {register index in units of the output element width, lane}, or
// {-1, -1} for an unknown name. Tests use it to lay out expected results.
std::pair<int, int> mfma_output_location(std::string_view name, int block, int row, int col);
}  // namespace hipasm::sim::detail
