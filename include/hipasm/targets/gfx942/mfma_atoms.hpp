// gfx942's MFMA atoms: the gfx9 ones (targets/mfma_atoms_gfx9.hpp) and the xf32 MFMAs, which
// gfx950 drops.
#pragma once
#include "../mfma_atoms_gfx9.hpp"
#include "isa.hpp"

namespace hipasm::targets {

inline constexpr auto gfx942_mfma_atoms = join_mfma_atoms(
    gfx9_mfma_atoms<isa::gfx942_op>(),
    std::array<mfma_atom, 2>{{
        HIPASM_MFMA_ATOM_(isa::gfx942_op, v_mfma_f32_16x16x8_xf32, 16, 16, 8, 1, xf32, xf32, f32, c16x16),
        HIPASM_MFMA_ATOM_(isa::gfx942_op, v_mfma_f32_32x32x4_xf32, 32, 32, 4, 1, xf32, xf32, f32, c32x32),
    }});

}  // namespace hipasm::targets
