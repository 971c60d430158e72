// The dtypes the builder takes an MFMA's operands to hold (builder.hpp, detail::mfma_types_of,
// read from the mnemonic) agree with the target's MFMA atoms (targets/<arch>/mfma_atoms.hpp:
// the operand types as data), for every atom and every f8f6f4 format code; registers of
// another dtype are refused (tests/core/negative/mfma_*_dtype.hip check the messages).
#include <catch2/catch.hpp>

#include <hipasm/hipasm.hpp>
#include <hipasm/helpers/mfma.hpp>

#include <string>

using namespace hipasm;

namespace {
// An atom's operand type as the dtype of the registers holding it (f16 and bf16 two to a
// register, fp8 / bf8 four; i8 four, as i32 or u32; f8f6f4 by its format code).
int8_t dtype_of(mfma_type t, unsigned format) {
  switch (t) {
    case mfma_type::f32: case mfma_type::xf32: return static_cast<int8_t>(dtype::f32);
    case mfma_type::f16: return static_cast<int8_t>(dtype::f16x2);
    case mfma_type::bf16: return static_cast<int8_t>(dtype::bf16x2);
    case mfma_type::i8: case mfma_type::i32: return static_cast<int8_t>(dtype::i32);
    case mfma_type::fp8: return static_cast<int8_t>(dtype::fp8x4);
    case mfma_type::bf8: return static_cast<int8_t>(dtype::bf8x4);
    case mfma_type::f64: return static_cast<int8_t>(dtype::f64);
    case mfma_type::f8f6f4: {
      const dtype by_code[] = {dtype::fp8x4, dtype::bf8x4, dtype::fp6, dtype::bf6, dtype::fp4x8};
      return static_cast<int8_t>(by_code[format]);
    }
  }
  return -1;
}
}  // namespace

TEST_CASE("the MFMA operand dtypes agree with the target's MFMA atoms", "[builder][mfma]") {
  int atoms = 0;
  for (const mfma_atom& at : mfma_atoms()) {
    const bool formats = at.a == mfma_type::f8f6f4;
    for (unsigned f = 0; f < (formats ? 5u : 1u); ++f) {
      instr in;
      in.mods = packed_modifiers(modifiers{.cbsz = static_cast<uint8_t>(f), .blgp = static_cast<uint8_t>(4 - f)});
      const detail::mfma_types t = detail::mfma_types_of(at.name, in);
      INFO(std::string(at.name) << " format " << f);
      CHECK(t.a == dtype_of(at.a, f));
      CHECK(t.b == dtype_of(at.b, formats ? 4 - f : 0));
      CHECK(t.d == dtype_of(at.c, 0));
      CHECK(!t.smfmac);
    }
    ++atoms;
  }
  CHECK(atoms > 20);
}

TEST_CASE("u32 and u64 registers are raw bits for any MFMA operand", "[builder][mfma]") {
  CHECK(detail::operand_dtype_fits(static_cast<int8_t>(dtype::f16x2), static_cast<int8_t>(dtype::u32)));
  CHECK(detail::operand_dtype_fits(static_cast<int8_t>(dtype::f32), static_cast<int8_t>(dtype::u32)));
  CHECK(detail::operand_dtype_fits(static_cast<int8_t>(dtype::f64), static_cast<int8_t>(dtype::u64)));
  CHECK(!detail::operand_dtype_fits(static_cast<int8_t>(dtype::f16x2), static_cast<int8_t>(dtype::f32)));
  CHECK(!detail::operand_dtype_fits(static_cast<int8_t>(dtype::f32), static_cast<int8_t>(dtype::bf16x2)));
  CHECK(!detail::operand_dtype_fits(static_cast<int8_t>(dtype::i32), static_cast<int8_t>(dtype::f32)));
  CHECK(detail::operand_dtype_fits(static_cast<int8_t>(dtype::f64), static_cast<int8_t>(dtype::u32)));
  CHECK(!detail::operand_dtype_fits(static_cast<int8_t>(dtype::f64), static_cast<int8_t>(dtype::f32)));
  CHECK(!detail::operand_dtype_fits(static_cast<int8_t>(dtype::fp8x4), static_cast<int8_t>(dtype::bf8x4)));
}
