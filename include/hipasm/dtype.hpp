// The register dtypes (dtype, u32 ... bf6) and their names: plain C++, also for host code that
// any C++20 compiler builds (helpers/debug_log_host.hpp decodes a log's dtypes with them).
#pragma once
#include <cstdint>
#include <string_view>

namespace hipasm {

// (int, not uint8_t: where clang's diagnostics cannot name an enumerator they print the
// value, and a char-typed one prints as a character: "val<(hipasm::dtype)'\x02'>".)
// fp4x8: eight OCP MX fp4 (e2m1), element i in bits 4i..4i+3; fp6 / bf6: a dword of 32 OCP MX
// fp6 (e2m3) / bf6 (e3m2) values packed in six dwords, value i in bits 6i..6i+5 of the six.
enum class dtype : int { u32, i32, f32, f16x2, bf16x2, fp8x4, bf8x4, u64, i64, f64, fp4x8, fp6, bf6 };
inline constexpr dtype u32 = dtype::u32, i32 = dtype::i32, f32 = dtype::f32,
                       f16x2 = dtype::f16x2, bf16x2 = dtype::bf16x2, fp8x4 = dtype::fp8x4,
                       bf8x4 = dtype::bf8x4, u64 = dtype::u64, i64 = dtype::i64, f64 = dtype::f64,
                       fp4x8 = dtype::fp4x8, fp6 = dtype::fp6, bf6 = dtype::bf6;

constexpr uint16_t dwords_of(dtype t) {
  return t == dtype::u64 || t == dtype::i64 || t == dtype::f64 ? 2 : 1;
}
constexpr bool is_int32(dtype t) { return t == dtype::u32 || t == dtype::i32; }
constexpr bool is_int64(dtype t) { return t == dtype::u64 || t == dtype::i64; }
constexpr bool is_signed(dtype t) { return t == dtype::i32 || t == dtype::i64; }
constexpr std::string_view dtype_name(dtype t) {
  constexpr std::string_view n[] = {"u32",   "i32",   "f32", "f16x2", "bf16x2", "fp8x4", "bf8x4",
                                    "u64",   "i64",   "f64", "fp4x8", "fp6",    "bf6"};
  return n[static_cast<int>(t)];
}

}  // namespace hipasm
