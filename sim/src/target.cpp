// The targets hipasm-sim runs, as data: each row names where its numbers come from
// (../shared/reference/gfx942.md and gfx950.md; LLVM's AMDGPU backend).
#include "core.hpp"

namespace hipasm::sim {
namespace {

const OpcodeRow kGfx942Opcodes[] = {
#include "gen/gfx942_opcodes.inc"
};
const OpcodeRow kGfx950Opcodes[] = {
#include "gen/gfx950_opcodes.inc"
};

// gfx950 pass counts that differ from CDNA3's (SISchedule.td SIDPGFX950FullSpeedModel): the
// f64 16x16x4 takes 16 passes (gfx942: 8); the f8f6f4 shapes (and their _scale forms) take
// twice the passes when an input is FP8/BF8 ("PredIsF8_MFMA_SCALE").
const MfmaPassRule kGfx950Passes[] = {
    {"v_mfma_f64_16x16x4", 16, 16},
    {"16x16x128_f8f6f4", 4, 8},
    {"32x32x64_f8f6f4", 8, 16},
};

// EF_AMDGPU_MACH_AMDGCN_GFX942 = 0x4c, _GFX950 = 0x4f (llvm/BinaryFormat/ELF.h). LDS per
// workgroup: 64 KiB on gfx942, 160 KiB on gfx950 (clang-22: "local memory exceeds limit
// (163840)"; ROCm gpu-arch-specs). FP8: FNUZ on gfx942, OCP on gfx950 (gfx950.md section 2).
// LDS-DMA buffer loads: one dword (or less) on gfx942; gfx950 adds dwordx3/x4, not x2
// (llvm-mc-22 accepts `buffer_load_dwordx3/x4 ... lds` only for gfx950, x2 for neither).
const Target kGfx942{0, "gfx942", 0x4c, 64 * 1024, Fp8Kind::Fnuz, 1u << 1, kGfx942Opcodes, {}};
const Target kGfx950{1,          "gfx950",      0x4f,          160 * 1024, Fp8Kind::Ocp,
                     1u << 1 | 1u << 3 | 1u << 4, kGfx950Opcodes, kGfx950Passes};
const Target* const kTargets[] = {&kGfx942, &kGfx950};

}  // namespace

const Target& target_gfx942() { return kGfx942; }
const Target& target_gfx950() { return kGfx950; }
std::span<const Target* const> all_targets() { return kTargets; }

const Target* find_target_by_mach(uint32_t mach) {
  for (const Target* t : kTargets)
    if (t->elf_mach == mach) return t;
  return nullptr;
}

const Target* find_target_by_name(std::string_view name) {
  for (const Target* t : kTargets) {
    const std::string_view n = t->name;
    const size_t at = name.find(n);
    // "gfx950", "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-"; not "gfx9500"
    if (at != std::string_view::npos && (at + n.size() == name.size() || name[at + n.size()] == ':'))
      return t;
  }
  return nullptr;
}

}  // namespace hipasm::sim
