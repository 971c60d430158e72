// The active target's MFMA atoms (targets/<arch>/mfma_atoms.hpp), kept out of target.hpp so
// that a kernel pays for them only when it includes helpers/mfma.hpp.
#pragma once
#include "select.hpp"

#if defined(__gfx950__) || (defined(HIPASM_TARGET_GFX950) && HIPASM_TARGET_GFX950)
#include "gfx950/mfma_atoms.hpp"
namespace hipasm::targets {
inline constexpr const auto& active_mfma_atoms = gfx950_mfma_atoms;
}
#else
#include "gfx942/mfma_atoms.hpp"
namespace hipasm::targets {
inline constexpr const auto& active_mfma_atoms = gfx942_mfma_atoms;
}
#endif
