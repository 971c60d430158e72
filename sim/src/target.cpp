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

// MFMA passes per target, from LLVM's scheduling models (SISchedule.td: SIDPGFX942FullSpeedModel
// and SIDPGFX950FullSpeedModel, whose InstRW regexes name the LLVM opcodes: 4X4X -> 2 passes;
// 16X16X{8X,16,32,64} -> 4; 16X16X[14][FBI] (the 4-block and f32 shapes) -> 8; 32X32X{4XF,8,16,
// 32_} -> 8; 32X32X[124][FBI] -> 16; f64 4x4x4 -> 4, f64 16x16x4 -> 8 on gfx942 and 16 on gfx950;
// SMFMAC 16x16 -> 4, 32x32 -> 8; gfx950's f8f6f4 shapes and their _scale forms 4 / 8 passes, twice
// that with an FP8/BF8 input, "PredIsF8_MFMA_SCALE"). A pass is 4 cycles (timing.md T4).
#define HIPASM_CDNA3_MFMA_COSTS                                                            \
  {"v_mfma_f32_4x4x1_16b_f32", 2, 2}, {"v_mfma_f32_4x4x4_16b_f16", 2, 2},                   \
  {"v_mfma_f32_4x4x4_16b_bf16", 2, 2}, {"v_mfma_i32_4x4x4_16b_i8", 2, 2},                  \
  {"v_mfma_f32_16x16x16_f16", 4, 4}, {"v_mfma_f32_16x16x16_bf16", 4, 4},                   \
  {"v_mfma_f32_16x16x32_fp8_fp8", 4, 4}, {"v_mfma_f32_16x16x32_fp8_bf8", 4, 4},            \
  {"v_mfma_f32_16x16x32_bf8_fp8", 4, 4}, {"v_mfma_f32_16x16x32_bf8_bf8", 4, 4},            \
  {"v_mfma_i32_16x16x32_i8", 4, 4}, {"v_mfma_f32_16x16x1_4b_f32", 8, 8},                   \
  {"v_mfma_f32_16x16x4_4b_f16", 8, 8}, {"v_mfma_f32_16x16x4_4b_bf16", 8, 8},               \
  {"v_mfma_i32_16x16x4_4b_i8", 8, 8}, {"v_mfma_f32_16x16x4_f32", 8, 8},                    \
  {"v_mfma_f32_32x32x8_f16", 8, 8}, {"v_mfma_f32_32x32x8_bf16", 8, 8},                     \
  {"v_mfma_f32_32x32x16_fp8_fp8", 8, 8}, {"v_mfma_f32_32x32x16_fp8_bf8", 8, 8},            \
  {"v_mfma_f32_32x32x16_bf8_fp8", 8, 8}, {"v_mfma_f32_32x32x16_bf8_bf8", 8, 8},            \
  {"v_mfma_i32_32x32x16_i8", 8, 8}, {"v_mfma_f32_32x32x1_2b_f32", 16, 16},                 \
  {"v_mfma_f32_32x32x2_f32", 16, 16}, {"v_mfma_f32_32x32x4_2b_f16", 16, 16},               \
  {"v_mfma_f32_32x32x4_2b_bf16", 16, 16}, {"v_mfma_i32_32x32x4_2b_i8", 16, 16},            \
  {"v_mfma_f64_4x4x4_4b_f64", 4, 4},                                                       \
  {"v_smfmac_f32_16x16x32_f16", 4, 4}, {"v_smfmac_f32_16x16x32_bf16", 4, 4},               \
  {"v_smfmac_i32_16x16x64_i8", 4, 4}, {"v_smfmac_f32_16x16x64_fp8_fp8", 4, 4},             \
  {"v_smfmac_f32_16x16x64_fp8_bf8", 4, 4}, {"v_smfmac_f32_16x16x64_bf8_fp8", 4, 4},        \
  {"v_smfmac_f32_16x16x64_bf8_bf8", 4, 4}, {"v_smfmac_f32_32x32x16_f16", 8, 8},            \
  {"v_smfmac_f32_32x32x16_bf16", 8, 8}, {"v_smfmac_i32_32x32x32_i8", 8, 8},                \
  {"v_smfmac_f32_32x32x32_fp8_fp8", 8, 8}, {"v_smfmac_f32_32x32x32_fp8_bf8", 8, 8},        \
  {"v_smfmac_f32_32x32x32_bf8_fp8", 8, 8}, {"v_smfmac_f32_32x32x32_bf8_bf8", 8, 8}
const MfmaCost kGfx942Mfma[] = {
    HIPASM_CDNA3_MFMA_COSTS,
    {"v_mfma_f32_16x16x8_xf32", 4, 4}, {"v_mfma_f32_32x32x4_xf32", 8, 8},  // gone on gfx950
    {"v_mfma_f64_16x16x4_f64", 8, 8},
};
const MfmaCost kGfx950Mfma[] = {
    HIPASM_CDNA3_MFMA_COSTS,
    {"v_mfma_f64_16x16x4_f64", 16, 16},
    // the double-K shapes: as many passes as the CDNA3 shape of the same M (twice the rate)
    {"v_mfma_f32_16x16x32_f16", 4, 4}, {"v_mfma_f32_16x16x32_bf16", 4, 4},
    {"v_mfma_i32_16x16x64_i8", 4, 4}, {"v_mfma_f32_32x32x16_f16", 8, 8},
    {"v_mfma_f32_32x32x16_bf16", 8, 8}, {"v_mfma_i32_32x32x32_i8", 8, 8},
    {"v_mfma_f32_16x16x128_f8f6f4", 4, 8}, {"v_mfma_f32_32x32x64_f8f6f4", 8, 16},
    {"v_mfma_scale_f32_16x16x128_f8f6f4", 4, 8}, {"v_mfma_scale_f32_32x32x64_f8f6f4", 8, 16},
    {"v_smfmac_f32_16x16x64_f16", 4, 4}, {"v_smfmac_f32_16x16x64_bf16", 4, 4},
    {"v_smfmac_i32_16x16x128_i8", 4, 4}, {"v_smfmac_f32_16x16x128_fp8_fp8", 4, 4},
    {"v_smfmac_f32_16x16x128_fp8_bf8", 4, 4}, {"v_smfmac_f32_16x16x128_bf8_fp8", 4, 4},
    {"v_smfmac_f32_16x16x128_bf8_bf8", 4, 4}, {"v_smfmac_f32_32x32x32_f16", 8, 8},
    {"v_smfmac_f32_32x32x32_bf16", 8, 8}, {"v_smfmac_i32_32x32x64_i8", 8, 8},
    {"v_smfmac_f32_32x32x64_fp8_fp8", 8, 8}, {"v_smfmac_f32_32x32x64_fp8_bf8", 8, 8},
    {"v_smfmac_f32_32x32x64_bf8_fp8", 8, 8}, {"v_smfmac_f32_32x32x64_bf8_bf8", 8, 8},
};
#undef HIPASM_CDNA3_MFMA_COSTS

// EF_AMDGPU_MACH_AMDGCN_GFX942 = 0x4c, _GFX950 = 0x4f (llvm/BinaryFormat/ELF.h). LDS per
// workgroup: 64 KiB on gfx942, 160 KiB on gfx950 (clang-22: "local memory exceeds limit
// (163840)"; ROCm gpu-arch-specs). FP8: FNUZ on gfx942, OCP on gfx950 (gfx950.md section 2).
// LDS-DMA buffer loads: one dword (or less) on gfx942; gfx950 adds dwordx3/x4, not x2
// (llvm-mc-22 accepts `buffer_load_dwordx3/x4 ... lds` only for gfx950, x2 for neither).
const Target kGfx942{0, "gfx942", 0x4c, 64 * 1024, Fp8Kind::Fnuz, 1u << 1, kGfx942Opcodes, kGfx942Mfma};
const Target kGfx950{1,          "gfx950",      0x4f,          160 * 1024, Fp8Kind::Ocp,
                     1u << 1 | 1u << 3 | 1u << 4, kGfx950Opcodes, kGfx950Mfma};
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

const MfmaCost* find_mfma_cost(const Target& t, std::string_view mnemonic) {
  for (const MfmaCost& c : t.mfma_costs)
    if (mnemonic == c.mnemonic) return &c;
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
