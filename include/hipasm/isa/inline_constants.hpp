// Inline constants and literals of gfx9 (gfx942): which immediate values an operand encodes
// for free (an inline constant) and which need the one 32-bit literal an instruction may carry.
// The rules depend on the operand's immediate kind (instr_desc.hpp, learnt from llvm-mc-22):
// 32-bit operands share the f32 inline floats, 16-bit float operands the f16 ones, 64-bit
// operands the f64 ones; every kind has the integers -16..64.
#pragma once
#include <cstdint>

#include "instr_desc.hpp"

namespace hipasm::isa {

// Bit patterns of the inline floats 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi).
inline constexpr uint32_t inline_f32[] = {0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u, 0x40000000u,
                                          0xc0000000u, 0x40800000u, 0xc0800000u, 0x3e22f983u};
inline constexpr uint16_t inline_f16[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
inline constexpr uint64_t inline_f64[] = {0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
                                          0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
                                          0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull};

namespace detail {
constexpr bool fits_i32_or_u32(uint64_t v) {
  auto s = static_cast<int64_t>(v);
  return (s >= INT32_MIN && s <= INT32_MAX) || v <= 0xffffffffull;
}
constexpr bool fits_16(uint64_t v) {
  auto s = static_cast<int64_t>(v);
  return (s >= -32768 && s <= 32767) || v <= 0xffffull;
}
constexpr bool inline_int(int64_t v) { return v >= -16 && v <= 64; }
}  // namespace detail

// Immediates arrive as 64-bit values: integers sign-extended, f32 as their 32 bits, f64 as
// their 64 bits. An immediate that does not fit the operand at all is neither inline nor literal.
constexpr bool imm_fits(imm_kind k, uint64_t v) {
  switch (k) {
    case imm_kind::b32: return detail::fits_i32_or_u32(v);
    case imm_kind::f16:
    case imm_kind::i16: return detail::fits_16(v);
    case imm_kind::b64:
    case imm_kind::f64: return true;
    case imm_kind::simm16: return detail::fits_16(v);
    case imm_kind::u4: return v <= 15;
    case imm_kind::smem_offset: {
      auto s = static_cast<int64_t>(v);
      return s >= -(1 << 20) && s < (1 << 20);
    }
    default: return false;
  }
}

constexpr bool is_inline_constant(imm_kind k, uint64_t v) {
  switch (k) {
    case imm_kind::b32: {
      if (!detail::fits_i32_or_u32(v)) return false;
      auto lo = static_cast<uint32_t>(v);
      if (detail::inline_int(static_cast<int32_t>(lo))) return true;
      for (uint32_t f : inline_f32)
        if (f == lo) return true;
      return false;
    }
    case imm_kind::f16:
    case imm_kind::i16: {
      if (!detail::fits_16(v)) return false;
      auto lo = static_cast<uint16_t>(v);
      if (detail::inline_int(static_cast<int16_t>(lo))) return true;
      if (k == imm_kind::f16)
        for (uint16_t f : inline_f16)
          if (f == lo) return true;
      return false;
    }
    case imm_kind::b64:
    case imm_kind::f64: {
      if (detail::inline_int(static_cast<int64_t>(v))) return true;
      for (uint64_t f : inline_f64)
        if (f == v) return true;
      return false;
    }
    default: return false;
  }
}

// Can the value be encoded as the instruction's 32-bit literal? (Whether the slot accepts a
// literal at all is the operand class oc_literal.)
//  - b64: only 0..0x7fffffff: the hardware extends a 64-bit integer literal and llvm-mc's
//    printing hides how; values where sign and zero extension agree are the safe set.
//  - f64: the literal is the high half, so the low 32 bits must be zero.
constexpr bool is_literal_encodable(imm_kind k, uint64_t v) {
  switch (k) {
    case imm_kind::b32: return detail::fits_i32_or_u32(v);
    case imm_kind::f16:
    case imm_kind::i16: return detail::fits_16(v);
    case imm_kind::b64: return v <= 0x7fffffffull;
    case imm_kind::f64: return (v & 0xffffffffull) == 0;
    default: return false;
  }
}

}  // namespace hipasm::isa
