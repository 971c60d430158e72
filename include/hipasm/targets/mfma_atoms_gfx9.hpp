// The dense MFMAs gfx942 and gfx950 share, as atoms (mfma_atom.hpp) of a target's op
// enumeration O; targets/<arch>/mfma_atoms.hpp adds each target's own. Shapes and types are
// the mnemonics'; every atom is executed in hipasm-sim against a C++ matmul by
// tests/helpers/test_mfma_atoms_sim.cpp.
#pragma once
#include <array>
#include <cstddef>

#include "../mfma_atom.hpp"

namespace hipasm::targets {

// One atom: the layouts of A and B follow from the shape (mfma_ab_layout); C's is named.
#define HIPASM_MFMA_ATOM_(O, NAME, M, N, K, BL, TA, TB, TC, LC)                                               \
  ::hipasm::mfma_atom {                                                                                       \
    #NAME, static_cast<uint16_t>(O::NAME), M, N, K, BL, mfma_type::TA, mfma_type::TB, mfma_type::TC,          \
        mfma_ab_layout(true, M, K, BL), mfma_ab_layout(false, N, K, BL), mfma_c::LC                           \
  }

template <class O>
constexpr std::array<mfma_atom, 30> gfx9_mfma_atoms() {
  return {{
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x1_2b_f32, 32, 32, 1, 2, f32, f32, f32, c32x32_2b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x1_4b_f32, 16, 16, 1, 4, f32, f32, f32, c16x16_4b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_4x4x1_16b_f32, 4, 4, 1, 16, f32, f32, f32, c4x4_16b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x2_f32, 32, 32, 2, 1, f32, f32, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x4_f32, 16, 16, 4, 1, f32, f32, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x4_2b_f16, 32, 32, 4, 2, f16, f16, f32, c32x32_2b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x4_4b_f16, 16, 16, 4, 4, f16, f16, f32, c16x16_4b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_4x4x4_16b_f16, 4, 4, 4, 16, f16, f16, f32, c4x4_16b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x8_f16, 32, 32, 8, 1, f16, f16, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x16_f16, 16, 16, 16, 1, f16, f16, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x4_2b_bf16, 32, 32, 4, 2, bf16, bf16, f32, c32x32_2b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x4_4b_bf16, 16, 16, 4, 4, bf16, bf16, f32, c16x16_4b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_4x4x4_16b_bf16, 4, 4, 4, 16, bf16, bf16, f32, c4x4_16b),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x8_bf16, 32, 32, 8, 1, bf16, bf16, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x16_bf16, 16, 16, 16, 1, bf16, bf16, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_i32_32x32x4_2b_i8, 32, 32, 4, 2, i8, i8, i32, c32x32_2b),
      HIPASM_MFMA_ATOM_(O, v_mfma_i32_16x16x4_4b_i8, 16, 16, 4, 4, i8, i8, i32, c16x16_4b),
      HIPASM_MFMA_ATOM_(O, v_mfma_i32_4x4x4_16b_i8, 4, 4, 4, 16, i8, i8, i32, c4x4_16b),
      HIPASM_MFMA_ATOM_(O, v_mfma_i32_32x32x16_i8, 32, 32, 16, 1, i8, i8, i32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_i32_16x16x32_i8, 16, 16, 32, 1, i8, i8, i32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f64_16x16x4_f64, 16, 16, 4, 1, f64, f64, f64, c16x16_f64),
      HIPASM_MFMA_ATOM_(O, v_mfma_f64_4x4x4_4b_f64, 4, 4, 4, 4, f64, f64, f64, c4x4_4b_f64),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x32_fp8_fp8, 16, 16, 32, 1, fp8, fp8, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x32_fp8_bf8, 16, 16, 32, 1, fp8, bf8, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x32_bf8_fp8, 16, 16, 32, 1, bf8, fp8, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_16x16x32_bf8_bf8, 16, 16, 32, 1, bf8, bf8, f32, c16x16),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x16_fp8_fp8, 32, 32, 16, 1, fp8, fp8, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x16_fp8_bf8, 32, 32, 16, 1, fp8, bf8, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x16_bf8_fp8, 32, 32, 16, 1, bf8, fp8, f32, c32x32),
      HIPASM_MFMA_ATOM_(O, v_mfma_f32_32x32x16_bf8_bf8, 32, 32, 16, 1, bf8, bf8, f32, c32x32),
  }};
}

// A target's list: the shared atoms, then its own.
template <std::size_t N, std::size_t Own>
constexpr std::array<mfma_atom, N + Own> join_mfma_atoms(const std::array<mfma_atom, N>& shared,
                                                         const std::array<mfma_atom, Own>& own) {
  std::array<mfma_atom, N + Own> r{};
  for (std::size_t i = 0; i < N; ++i) r[i] = shared[i];
  for (std::size_t i = 0; i < Own; ++i) r[N + i] = own[i];
  return r;
}

}  // namespace hipasm::targets
