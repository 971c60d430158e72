// gfx950's MFMA atoms: the gfx9 ones (targets/mfma_atoms_gfx9.hpp, without gfx942's xf32) and
// CDNA4's double-K bf16/f16/i8 shapes and the f8f6f4 MFMAs (A and B formats by cbsz / blgp;
// the atom's element bits and layouts are fp8's, mfma_atom::operand_bits and ab_layout give
// fp6's and fp4's), and their scaled forms (mfma_atom::scaled: mfma_run's six-operand form).
#pragma once
#include "../mfma_atoms_gfx9.hpp"
#include "isa.hpp"

namespace hipasm::targets {

constexpr mfma_atom scaled_mfma_atom(mfma_atom x) {
  x.scaled = true;
  return x;
}
// f8f6f4: la / lb are the FP8 layout (mfma_ab_layout_f8); fp6 / fp4 take mfma_atom::ab_layout.
constexpr mfma_atom f8f6f4_atom(mfma_atom x) {
  x.la = mfma_ab_layout_f8(true, x.m, x.k);
  x.lb = mfma_ab_layout_f8(false, x.n, x.k);
  return x;
}

inline constexpr auto gfx950_mfma_atoms = join_mfma_atoms(
    gfx9_mfma_atoms<isa::gfx950_op>(),
    std::array<mfma_atom, 10>{{
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_16x16x32_bf16, 16, 16, 32, 1, bf16, bf16, f32, c16x16),
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_32x32x16_bf16, 32, 32, 16, 1, bf16, bf16, f32, c32x32),
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_16x16x32_f16, 16, 16, 32, 1, f16, f16, f32, c16x16),
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_32x32x16_f16, 32, 32, 16, 1, f16, f16, f32, c32x32),
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_i32_16x16x64_i8, 16, 16, 64, 1, i8, i8, i32, c16x16),
        HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_i32_32x32x32_i8, 32, 32, 32, 1, i8, i8, i32, c32x32),
        f8f6f4_atom(HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_16x16x128_f8f6f4, 16, 16, 128, 1, f8f6f4, f8f6f4, f32,
                                      c16x16)),
        f8f6f4_atom(HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_f32_32x32x64_f8f6f4, 32, 32, 64, 1, f8f6f4, f8f6f4, f32,
                                      c32x32)),
        scaled_mfma_atom(f8f6f4_atom(HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_scale_f32_16x16x128_f8f6f4, 16, 16, 128,
                                                       1, f8f6f4, f8f6f4, f32, c16x16))),
        scaled_mfma_atom(f8f6f4_atom(HIPASM_MFMA_ATOM_(isa::gfx950_op, v_mfma_scale_f32_32x32x64_f8f6f4, 32, 32, 64, 1,
                                                       f8f6f4, f8f6f4, f32, c32x32))),
    }});

}  // namespace hipasm::targets
