// gfx942 (CDNA3: MI300X, MI300A, MI325X) as data: its generated instruction table and mnemonic
// surface (isa.hpp, mnemonics.hpp: tools/gen_isa_table.py), semantics, hazard rules, waitcnt
// encoding and limits. targets/select.hpp makes it the compilation's target.
#pragma once
#include <array>
#include <string_view>

#include "../../target.hpp"
#include "../waitcnt_gfx9.hpp"
#include "hazard_rules.hpp"
#include "isa.hpp"
#include "mnemonics.hpp"

namespace hipasm {

namespace detail {
inline constexpr std::array<isa::op_semantics, isa::gfx942_num_instrs> gfx942_semantics =
    isa::make_semantics<isa::gfx942_num_instrs>(gfx9_semantics_list<isa::gfx942_op>());
}  // namespace detail

inline constexpr target gfx942{
    .name = "gfx942",
    .instrs = isa::gfx942_instrs.data(),
    .num_instrs = isa::gfx942_num_instrs,
    .regs = {.sgprs = 102, .vgprs = 256, .agprs = 256},
    .lds_bytes = 65536,
    .wave_size = 64,
    .max_snop = 15,  // SIMM16[3:0]: llc-22 emits s_nop 15
    .vgpr_alloc_granule = 8,
    .sgpr_pair_align = 2,
    .sgpr_quad_align = 4,
    .vgpr_tuple_align = 2,
    // 512 per lane: gfx942.md "Machine"; 800 SGPRs a SIMD and 8 wave slots: timing.md T1 (the
    // timing model's device table); granule 16 and 6 extra SGPRs (VCC, FLAT_SCRATCH and
    // XNACK_MASK with architected flat scratch): LLVM's AMDGPUBaseInfo (getSGPRAllocGranule,
    // getMaxNumSGPRs, getNumExtraSGPRs) for gfx9.
    .unified_vgprs_per_lane = 512,
    .sgprs_per_simd = 800,
    .sgpr_alloc_granule = 16,
    .extra_sgprs = 6,
    .max_waves_per_simd = 8,
    .hazard_rules = &gfx942_hazards,
    .semantics = detail::gfx942_semantics.data(),
};

namespace targets {
// The compile-time face of the target: the builder derives from its mnemonic surface, and the
// builder, passes and printer read its op enumeration, table and waitcnt encoding through
// active_target (targets/select.hpp), never by name.
struct gfx942 {
  static constexpr std::string_view name = "gfx942";
  using op = isa::gfx942_op;
  template <class Builder>
  using mnemonics = isa::gfx942_mnemonics<Builder>;
  using waitcnt_encoding = waitcnt_gfx9;
  static constexpr const target& desc = hipasm::gfx942;
  static constexpr const std::array<isa::instr_desc, isa::gfx942_num_instrs>& table = isa::gfx942_table;
  static constexpr int find_instr(std::string_view mnemonic) { return isa::gfx942_find_instr(mnemonic); }
};
}  // namespace targets

}  // namespace hipasm
