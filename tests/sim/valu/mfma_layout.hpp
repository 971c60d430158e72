// Test-side MFMA model written from AMD's documented register mapping (CDNA3 ISA guide,
// MAI chapter, as the AMD Matrix Instruction Calculator prints it), independent of the
// simulator's exec_mfma.cpp: element -> (register, lane) for inputs, register/lane ->
// element for outputs, and a reference D computed from raw register contents.
#pragma once
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace mfma_ref {

enum class Ty { F32, XF32, F16, BF16, I8, FP8, BF8, F64 };

struct Spec {
  std::string name;
  int M, N, K, B;
  Ty a, b;
  bool sparse;
};

inline int bits_of(Ty t) {
  switch (t) {
    case Ty::F32: case Ty::XF32: return 32;
    case Ty::F16: case Ty::BF16: return 16;
    case Ty::F64: return 64;
    default: return 8;
  }
}

// FNUZ fp8 (E4M3, bias 8) / bf8 (E5M2, bias 16) value of a byte, from the format definition.
inline double f8_value(int c, int mbits, int bias) {
  if (c == 0x80) return NAN;
  int e = (c >> mbits) & ((1 << (7 - mbits)) - 1), m = c & ((1 << mbits) - 1);
  double mag = e == 0 ? std::ldexp(double(m), 1 - bias - mbits) : std::ldexp(1.0 + double(m) / (1 << mbits), e - bias);
  return (c & 0x80) ? -mag : mag;
}
inline uint8_t f8_code(double v, int mbits, int bias) {
  for (int c = 0; c < 256; ++c)
    if (c != 0x80 && f8_value(c, mbits, bias) == v) return uint8_t(c);
  throw std::runtime_error("value not representable in fp8/bf8");
}

// Bits of an exactly representable value in the element type.
inline uint64_t encode(Ty t, double v) {
  float f = float(v);
  switch (t) {
    case Ty::F32: case Ty::XF32: return std::bit_cast<uint32_t>(f);
    case Ty::F16: return std::bit_cast<uint16_t>(_Float16(f));
    case Ty::BF16: return std::bit_cast<uint32_t>(f) >> 16;
    case Ty::I8: return uint8_t(int8_t(v));
    case Ty::FP8: return f8_code(v, 3, 8);
    case Ty::BF8: return f8_code(v, 2, 16);
    case Ty::F64: return std::bit_cast<uint64_t>(v);
  }
  return 0;
}
inline double decode(Ty t, uint64_t b) {
  switch (t) {
    case Ty::F32: case Ty::XF32: return std::bit_cast<float>(uint32_t(b));
    case Ty::F16: return double(std::bit_cast<_Float16>(uint16_t(b)));
    case Ty::BF16: return std::bit_cast<float>(uint32_t(b & 0xffff) << 16);
    case Ty::I8: return double(int8_t(uint8_t(b)));
    case Ty::FP8: return f8_value(int(b & 0xff), 3, 8);
    case Ty::BF8: return f8_value(int(b & 0xff), 2, 16);
    case Ty::F64: return std::bit_cast<double>(b);
  }
  return 0;
}

struct Place {
  int reg, bit, lane;
};
// Element (block b, row/col `row`, k) of an input with `rows` rows per block, K elements per
// row (halved for the sparse A), B blocks, `bits` wide: lane b*rows + (k / E)*rows*B + row,
// slot k % E of the lane's packed registers (E = elements per lane).
inline Place place_input(int rows, int K, int B, int bits, int b, int row, int k) {
  const int epl = K * rows * B / 64;
  const int lane = b * rows + (k / epl) * rows * B + row;
  const int slot = k % epl;
  return {slot * bits / 32, (slot * bits) % 32, lane};
}

// Output register r (in units of the element width) at `lane`: {block, row, col}.
inline std::array<int, 3> output_element(const Spec& s, int r, int lane) {
  if (s.a == Ty::F64) {
    if (s.M == 16) return {0, 4 * r + lane / 16, lane % 16};
    return {(lane / 4) % 4, lane / 16, lane % 4};  // 4x4x4_4b
  }
  if (s.M == 4) return {lane / 4, r, lane % 4};
  if (s.M == 16) return {r / 4, 4 * (lane / 16) + r % 4, lane % 16};
  const int rb = r % 16;
  return {r / 16, (8 * (rb / 4)) % 32 + 4 * (lane / 32) + rb % 4, lane % 32};
}

// Raw per-lane registers: dword r of lane l at [r * 64 + l].
inline uint64_t get_bits(const std::vector<uint32_t>& regs, const Place& p, int bits) {
  if (bits == 64) return regs[size_t(p.reg) * 64 + p.lane] | (uint64_t(regs[size_t(p.reg + 1) * 64 + p.lane]) << 32);
  uint32_t w = regs[size_t(p.reg) * 64 + p.lane] >> p.bit;
  return bits == 32 ? w : (w & ((1u << bits) - 1));
}
inline void put_bits(std::vector<uint32_t>& regs, const Place& p, int bits, uint64_t v) {
  if (bits == 64) {
    regs[size_t(p.reg) * 64 + p.lane] = uint32_t(v);
    regs[size_t(p.reg + 1) * 64 + p.lane] = uint32_t(v >> 32);
    return;
  }
  uint32_t& w = regs[size_t(p.reg) * 64 + p.lane];
  const uint32_t mask = (bits == 32 ? 0xffffffffu : ((1u << bits) - 1)) << p.bit;
  w = (w & ~mask) | ((uint32_t(v) << p.bit) & mask);
}

// Reference D (raw registers) for non-sparse MFMAs from raw A/B/C registers, with CBSZ/ABID
// (A block b reads block (b / 2^cbsz) * 2^cbsz + abid) and BLGP (B lane l reads lane
// swz(l)). Sums in long double: exact for the small values the tests use.
inline std::vector<uint32_t> reference(const Spec& s, const std::vector<uint32_t>& A, const std::vector<uint32_t>& Bv,
                                       const std::vector<uint32_t>& C, int cbsz = 0, int abid = 0, int blgp = 0) {
  auto swz = [&](int l) {
    switch (blgp) {
      case 1: return l % 32;
      case 2: return l < 32 ? l + 32 : l;
      case 3: return (l + 16) % 64;
      case 4: return l % 16;
      case 5: return 16 + l % 16;
      case 6: return 32 + l % 16;
      case 7: return 48 + l % 16;
      default: return l;
    }
  };
  const int ab = bits_of(s.a), bb = bits_of(s.b), ob = s.a == Ty::F64 ? 64 : 32;
  const int words = s.M * s.N * s.B / 64;
  std::vector<uint32_t> D(size_t(words) * ob / 32 * 64);
  for (int r = 0; r < words; ++r)
    for (int l = 0; l < 64; ++l) {
      auto [b, i, j] = output_element(s, r, l);
      const int ba = cbsz ? (b >> cbsz << cbsz) + abid : b;
      long double acc;
      if (ob == 64) acc = std::bit_cast<double>(C[size_t(2 * r) * 64 + l] | (uint64_t(C[size_t(2 * r + 1) * 64 + l]) << 32));
      else if (s.a == Ty::I8) acc = int32_t(C[size_t(r) * 64 + l]);
      else acc = std::bit_cast<float>(C[size_t(r) * 64 + l]);
      for (int k = 0; k < s.K; ++k) {
        Place pa = place_input(s.M, s.K, s.B, ab, ba, i, k);
        Place pb = place_input(s.N, s.K, s.B, bb, b, j, k);
        pb.lane = swz(pb.lane);
        acc += (long double)decode(s.a, get_bits(A, pa, ab)) * decode(s.b, get_bits(Bv, pb, bb));
      }
      if (ob == 64) {
        uint64_t v = std::bit_cast<uint64_t>(double(acc));
        D[size_t(2 * r) * 64 + l] = uint32_t(v);
        D[size_t(2 * r + 1) * 64 + l] = uint32_t(v >> 32);
      } else if (s.a == Ty::I8) {
        D[size_t(r) * 64 + l] = uint32_t(int32_t(int64_t(acc)));
      } else {
        D[size_t(r) * 64 + l] = std::bit_cast<uint32_t>(float(acc));
      }
    }
  return D;
}

}  // namespace mfma_ref
