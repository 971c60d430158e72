// Helpers of the generated C++ references (batch_<seed>_ref.cpp): the DSL's documented
// semantics in plain C++. Integers wrap (32-bit two's complement), / and % truncate toward
// zero as in C++, shift amounts are taken mod 32 (v_lshlrev_b32 / s_lshl_b32 read the low 5
// bits), f32 is IEEE single with round-to-nearest-even and denormals (the kernel's default
// FP mode; the reference is compiled with -ffp-contract=off so nothing fuses), f32 min/max
// are IEEE minNum/maxNum with -0 < +0 (v_min_f32 / v_max_f32).
#pragma once
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>

#include "difftest_abi.h"

namespace difftest {
using u32 = uint32_t;
using i32 = int32_t;
using u64 = uint64_t;

// Set when the reference would divide by zero or INT_MIN by -1: a generator bug, reported by
// the runner (the generated program must stay inside C++'s defined behaviour).
inline thread_local bool undefined_behaviour = false;

inline u32 bits(u32 x) { return x; }
inline u32 bits(i32 x) { return static_cast<u32>(x); }
inline u32 bits(float x) { return std::bit_cast<u32>(x); }
inline float asf(u32 x) { return std::bit_cast<float>(x); }
inline i32 asi(u32 x) { return static_cast<i32>(x); }

inline u32 oadd(u32 a, u32 b) { return a + b; }
inline i32 oadd(i32 a, i32 b) { return asi(bits(a) + bits(b)); }
inline float oadd(float a, float b) { return a + b; }
inline u32 osub(u32 a, u32 b) { return a - b; }
inline i32 osub(i32 a, i32 b) { return asi(bits(a) - bits(b)); }
inline float osub(float a, float b) { return a - b; }
inline u32 omul(u32 a, u32 b) { return a * b; }
inline i32 omul(i32 a, i32 b) { return asi(bits(a) * bits(b)); }
inline float omul(float a, float b) { return a * b; }
inline u32 odiv(u32 a, u32 b) {
  if (b == 0) { undefined_behaviour = true; return 0; }
  return a / b;
}
inline i32 odiv(i32 a, i32 b) {
  if (b == 0 || (a == INT_MIN && b == -1)) { undefined_behaviour = true; return 0; }
  return a / b;
}
inline float odiv(float a, float b) { return a / b; }
inline u32 orem(u32 a, u32 b) {
  if (b == 0) { undefined_behaviour = true; return 0; }
  return a % b;
}
inline i32 orem(i32 a, i32 b) {
  if (b == 0 || (a == INT_MIN && b == -1)) { undefined_behaviour = true; return 0; }
  return a % b;
}
inline u32 oshl(u32 a, u32 n) { return a << (n & 31); }
inline i32 oshl(i32 a, i32 n) { return asi(bits(a) << (bits(n) & 31)); }
inline u32 oshr(u32 a, u32 n) { return a >> (n & 31); }
inline i32 oshr(i32 a, i32 n) { return a >> (bits(n) & 31); }  // arithmetic (C++20)
inline u32 oband(u32 a, u32 b) { return a & b; }
inline i32 oband(i32 a, i32 b) { return a & b; }
inline u32 obor(u32 a, u32 b) { return a | b; }
inline i32 obor(i32 a, i32 b) { return a | b; }
inline u32 obxor(u32 a, u32 b) { return a ^ b; }
inline i32 obxor(i32 a, i32 b) { return a ^ b; }
inline u32 omin(u32 a, u32 b) { return a < b ? a : b; }
inline i32 omin(i32 a, i32 b) { return a < b ? a : b; }
inline u32 omax(u32 a, u32 b) { return a > b ? a : b; }
inline i32 omax(i32 a, i32 b) { return a > b ? a : b; }
inline float omin(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
inline float omax(float a, float b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
inline u32 oneg(u32 a) { return 0u - a; }
inline i32 oneg(i32 a) { return asi(0u - bits(a)); }
inline float oneg(float a) { return -a; }
inline u32 obnot(u32 a) { return ~a; }
inline i32 obnot(i32 a) { return ~a; }
inline u32 oabs(u32 a) { return asi(a) < 0 ? 0u - a : a; }
inline i32 oabs(i32 a) { return a < 0 ? oneg(a) : a; }
inline float oabs(float a) { return std::fabs(a); }

// 64-bit address arithmetic: a 64-bit value plus/minus a zero- (u32) or sign- (i32) extended
// 32-bit value or a 64-bit value.
inline u64 ext(u32 x) { return x; }
inline u64 ext(i32 x) { return static_cast<u64>(static_cast<int64_t>(x)); }
inline u64 ext(u64 x) { return x; }

// DPP source lane for dpp_ctrl `c` (gfx9 encodings), -1 when out of range.
inline int dpp_src(unsigned c, int l) {
  const int row_base = l & ~15, in_row = l & 15;
  if (c <= 0xff) return (l & ~3) | ((c >> (2 * (l & 3))) & 3);
  if (c >= 0x101 && c <= 0x10f) return in_row + int(c & 15) > 15 ? -1 : l + int(c & 15);
  if (c >= 0x111 && c <= 0x11f) return in_row < int(c & 15) ? -1 : l - int(c & 15);
  if (c >= 0x121 && c <= 0x12f) return row_base | ((in_row - int(c & 15)) & 15);
  switch (c) {
    case 0x130: return l == 63 ? -1 : l + 1;
    case 0x134: return (l + 1) & 63;
    case 0x138: return l == 0 ? -1 : l - 1;
    case 0x13c: return (l - 1) & 63;
    case 0x140: return row_base | (15 - in_row);
    case 0x141: return (l & ~7) | (7 - (l & 7));
    case 0x142: return l < 16 ? -1 : row_base - 1;
    case 0x143: return l < 32 ? -1 : 31;
    default: return -1;
  }
}
// SDWA operand select (zero-extended) and destination write.
inline u32 sdwa_sel(u32 v, unsigned sel) {
  if (sel <= 3) return (v >> (8 * sel)) & 0xffu;
  if (sel <= 5) return (v >> (16 * (sel - 4))) & 0xffffu;
  return v;
}
inline u32 sdwa_dst(u32 old, u32 res, unsigned sel, unsigned unused) {
  if (sel == 6) return res;
  const unsigned width = sel <= 3 ? 8 : 16, shift = sel <= 3 ? 8 * sel : 16 * (sel - 4);
  const u32 fmask = (width == 8 ? 0xffu : 0xffffu) << shift;
  const u32 field = (res << shift) & fmask;
  if (unused == 2) return (old & ~fmask) | field;
  if (unused == 1) {
    const bool sign = (field >> (shift + width - 1)) & 1;
    const u32 above = shift + width >= 32 ? 0u : (~0u << (shift + width));
    return field | (sign ? above : 0u);
  }
  return field;
}

}  // namespace difftest
