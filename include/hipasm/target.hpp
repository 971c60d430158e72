// Per-target facts as data: the instruction table, register-file limits, LDS size, wave
// size, and the hazard rules (hazard_rules.hpp, the hazard pass's data). Each target is a
// `target` instance and a type (targets/<arch>/target.hpp; targets/select.hpp picks the one a
// compilation is for), never a branch in the passes.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hazard_rules.hpp"
#include "isa/check.hpp"
#include "isa/instr_desc.hpp"
#include "isa/semantics.hpp"

namespace hipasm {

// What a target adds that the helpers choose by (never by the target's name): each flag says
// the target has these instructions (targets/<arch>/target.hpp checks every flag against the
// instruction table, features_match_table).
struct target_features {
  bool has_lds_dma_x4 = false;     // global_load_lds_dwordx4, buffer_load_dwordx4 ... lds: 16 bytes a lane
  bool has_permlane_swap = false;  // v_permlane16_swap_b32, v_permlane32_swap_b32
  bool has_ds_read_tr = false;     // ds_read_b64_tr_b16 / _b8 / _b4: transposing LDS reads
  bool has_bitop3 = false;         // v_bitop3_b32 / _b16: any function of three inputs, bit by bit
  bool has_prng = false;           // v_prng_b32
  bool has_mx_convert = false;     // v_cvt_scalef32_*: fp4 / fp6 / fp8 with E8M0 scales
};

// What a target's 8-bit floats are (its fp8 / bf8 conversions and MFMAs read and write them):
// FNUZ (e4m3fnuz: bias 8, largest 240; e5m2fnuz: bias 16, largest 57344; 0x80 the only NaN, no
// infinities, no -0) or OCP's (e4m3fn: bias 7, largest 448, S.1111.111 NaN, no infinities;
// e5m2: bias 15, largest 57344, IEEE infinities and NaNs).
enum class fp8_format : uint8_t { fnuz, ocp };
// The largest finite value of fp8 (e4m3) / bf8 (e5m2) in a format, as f32 bits.
constexpr uint32_t fp8_max_bits(fp8_format f, bool bf8) {
  return bf8 ? 0x47600000u : f == fp8_format::ocp ? 0x43e00000u : 0x43700000u;  // 57344 / 448 / 240
}

struct target {
  std::string_view name;                 // as clang's --offload-arch spells it
  const isa::instr_desc* instrs;         // the instruction table, sorted by mnemonic
  std::size_t num_instrs;
  isa::reg_limits regs;                  // addressable SGPRs / VGPRs / AGPRs
  uint32_t lds_bytes;                    // LDS per workgroup
  uint8_t wave_size;
  uint8_t max_snop;                      // largest N of one s_nop N (N+1 wait states)
  uint8_t vgpr_alloc_granule;            // VGPR/AGPR allocation granule (accum_offset is a multiple of 4)
  uint8_t sgpr_pair_align, sgpr_quad_align, vgpr_tuple_align;  // tuple alignment in registers
  // Occupancy (builder::require_waves_per_simd): a SIMD's register files per lane and its wave
  // slots. A wave holds its VGPRs + AGPRs (accum_offset, a multiple of 4, then the AGPRs,
  // rounded up to vgpr_alloc_granule) of the unified file, and its SGPRs plus the extra ones
  // (VCC, FLAT_SCRATCH, XNACK_MASK) rounded up to sgpr_alloc_granule of the SIMD's SGPR file.
  uint16_t unified_vgprs_per_lane;
  uint16_t sgprs_per_simd;
  uint8_t sgpr_alloc_granule;
  uint8_t extra_sgprs;
  uint8_t max_waves_per_simd;
  const hazard_table* hazard_rules = nullptr;  // the hazard pass's per-target table (hazard_rules.hpp)
  const isa::op_semantics* semantics = nullptr;  // what some instructions compute (isa/semantics.hpp)
  target_features features{};
  fp8_format fp8 = fp8_format::fnuz;             // its 8-bit floats

  constexpr const isa::instr_desc* find(std::string_view mnemonic) const {
    return isa::find_sorted(instrs, num_instrs, mnemonic);
  }
  constexpr const isa::instr_desc& operator[](uint16_t op) const { return instrs[op]; }
};

// A gfx9 target (gfx942, gfx950): the numbers they share, with its own table, LDS size, hazard
// rules and semantics. Registers: 102 SGPRs, 256 VGPRs and 256 AGPRs addressable, 512 unified
// a lane (gfx942.md "Machine"; gfx950.md section 5: the same files); 800 SGPRs a SIMD and 8
// wave slots (timing.md T1, the timing model's device table); SGPR granule 16 and 6 extra
// SGPRs (VCC, FLAT_SCRATCH and XNACK_MASK with architected flat scratch): LLVM's
// AMDGPUBaseInfo (getSGPRAllocGranule, getMaxNumSGPRs, getNumExtraSGPRs) for gfx9.
constexpr target gfx9_target(std::string_view name, const isa::instr_desc* instrs, std::size_t num_instrs,
                             uint32_t lds_bytes, const hazard_table* hazards, const isa::op_semantics* semantics,
                             fp8_format fp8) {
  return target{
      .name = name,
      .instrs = instrs,
      .num_instrs = num_instrs,
      .regs = {.sgprs = 102, .vgprs = 256, .agprs = 256},
      .lds_bytes = lds_bytes,
      .wave_size = 64,
      .max_snop = 15,  // SIMM16[3:0]: llc-22 emits s_nop 15
      .vgpr_alloc_granule = 8,
      .sgpr_pair_align = 2,
      .sgpr_quad_align = 4,
      .vgpr_tuple_align = 2,
      .unified_vgprs_per_lane = 512,
      .sgprs_per_simd = 800,
      .sgpr_alloc_granule = 16,
      .extra_sgprs = 6,
      .max_waves_per_simd = 8,
      .hazard_rules = hazards,
      .semantics = semantics,
      .fp8 = fp8,
  };
}

namespace detail {
// A MUBUF load's LDS-DMA form is its own entry under the same name.
constexpr bool table_has_lds_form(const target& t, std::string_view m) {
  for (const isa::instr_desc* d = t.find(m); d && d < t.instrs + t.num_instrs && d->name == m; ++d)
    if (d->has(isa::f_lds_dma)) return true;
  return false;
}
}  // namespace detail
// Each feature flag of t is true exactly when its instructions are in t's table.
constexpr bool features_match_table(const target& t) {
  const target_features& f = t.features;
  return f.has_lds_dma_x4 == (t.find("global_load_lds_dwordx4") && detail::table_has_lds_form(t, "buffer_load_dwordx4")) &&
         f.has_permlane_swap == (t.find("v_permlane16_swap_b32") && t.find("v_permlane32_swap_b32")) &&
         f.has_ds_read_tr == (t.find("ds_read_b64_tr_b16") && t.find("ds_read_b64_tr_b8") && t.find("ds_read_b64_tr_b4")) &&
         f.has_bitop3 == (t.find("v_bitop3_b32") && t.find("v_bitop3_b16")) && f.has_prng == (t.find("v_prng_b32") != nullptr) &&
         f.has_mx_convert == (t.find("v_cvt_scalef32_pk_fp4_f32") && t.find("v_cvt_scalef32_2xpk16_fp6_f32"));
}
constexpr target with_features(target t, target_features f) {
  t.features = f;
  return t;
}

namespace detail {
// The gfx9 instructions the value-rewriting passes understand (isa/semantics.hpp), for a
// target's op enumeration O (every gfx9 target has them).
template <class O>
constexpr std::array<isa::op_semantics_entry, 46> gfx9_semantics_list() {
  using K = isa::op_kind;
  auto e = [](O op, K k, O rel = O{}, bool has_rel = false) {
    return isa::op_semantics_entry{static_cast<uint16_t>(op), k, has_rel ? static_cast<uint16_t>(rel) : uint16_t{0xffff}};
  };
  auto cmp = [&](O op, O swapped) { return e(op, K::compare, swapped, true); };
  return {{
      e(O::v_mov_b32, K::mov), e(O::s_mov_b32, K::mov), e(O::v_readfirstlane_b32, K::readfirstlane),
      e(O::v_add_u32, K::add), e(O::s_add_u32, K::add), e(O::v_add3_u32, K::add),
      e(O::v_sub_u32, K::sub, O::v_and_b32, true), e(O::s_sub_u32, K::sub, O::s_and_b32, true),
      e(O::v_and_b32, K::band), e(O::s_and_b32, K::band),
      e(O::v_or_b32, K::bor), e(O::s_or_b32, K::bor), e(O::v_or3_b32, K::bor),
      e(O::v_xor_b32, K::bxor), e(O::s_xor_b32, K::bxor),
      e(O::v_mul_lo_u32, K::mul), e(O::s_mul_i32, K::mul),
      e(O::s_lshl_b32, K::shl), e(O::v_lshlrev_b32, K::shl_rev),
      e(O::s_lshr_b32, K::lshr), e(O::v_lshrrev_b32, K::lshr_rev),
      e(O::v_lshl_add_u32, K::lshl_add), e(O::v_lshl_or_b32, K::lshl_or),
      e(O::s_waitcnt, K::waitcnt),
      cmp(O::v_cmp_lt_i32, O::v_cmp_gt_i32), cmp(O::v_cmp_gt_i32, O::v_cmp_lt_i32),
      cmp(O::v_cmp_le_i32, O::v_cmp_ge_i32), cmp(O::v_cmp_ge_i32, O::v_cmp_le_i32),
      cmp(O::v_cmp_eq_i32, O::v_cmp_eq_i32), cmp(O::v_cmp_ne_i32, O::v_cmp_ne_i32),
      cmp(O::v_cmp_lt_u32, O::v_cmp_gt_u32), cmp(O::v_cmp_gt_u32, O::v_cmp_lt_u32),
      cmp(O::v_cmp_le_u32, O::v_cmp_ge_u32), cmp(O::v_cmp_ge_u32, O::v_cmp_le_u32),
      cmp(O::v_cmp_eq_u32, O::v_cmp_eq_u32), cmp(O::v_cmp_ne_u32, O::v_cmp_ne_u32),
      cmp(O::v_cmp_lt_f32, O::v_cmp_gt_f32), cmp(O::v_cmp_gt_f32, O::v_cmp_lt_f32),
      cmp(O::v_cmp_le_f32, O::v_cmp_ge_f32), cmp(O::v_cmp_ge_f32, O::v_cmp_le_f32),
      cmp(O::v_cmp_eq_f32, O::v_cmp_eq_f32), cmp(O::v_cmp_neq_f32, O::v_cmp_neq_f32),
      cmp(O::v_cmp_nlt_f32, O::v_cmp_ngt_f32), cmp(O::v_cmp_ngt_f32, O::v_cmp_nlt_f32),
      cmp(O::v_cmp_nle_f32, O::v_cmp_nge_f32), cmp(O::v_cmp_nge_f32, O::v_cmp_nle_f32),
  }};
}
}  // namespace detail

}  // namespace hipasm
