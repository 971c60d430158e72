// gfx950 (CDNA4: MI350X, MI355X) as data: its generated instruction table and mnemonic
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
inline constexpr std::array<isa::op_semantics, isa::gfx950_num_instrs> gfx950_semantics =
    isa::make_semantics<isa::gfx950_num_instrs>(gfx9_semantics_list<isa::gfx950_op>());
}  // namespace detail

inline constexpr target gfx950{
    .name = "gfx950",
    .instrs = isa::gfx950_instrs.data(),
    .num_instrs = isa::gfx950_num_instrs,
    .regs = {.sgprs = 102, .vgprs = 256, .agprs = 256},
    .lds_bytes = 163840,  // 160 KiB: clang-22 "local memory exceeds limit (163840)"
    .wave_size = 64,
    .max_snop = 15,  // SIMM16[3:0]: llc-22 emits s_nop 15
    .vgpr_alloc_granule = 8,
    .sgpr_pair_align = 2,
    .sgpr_quad_align = 4,
    .vgpr_tuple_align = 2,
    // The register files and wave slots are gfx942's (gfx950.md section 5: 512 KiB VGPRs and
    // 12.5 KiB SGPRs a CU, 8 waves a SIMD); the allocation rules are LLVM's for gfx9.
    .unified_vgprs_per_lane = 512,
    .sgprs_per_simd = 800,
    .sgpr_alloc_granule = 16,
    .extra_sgprs = 6,
    .max_waves_per_simd = 8,
    .hazard_rules = &gfx950_hazards,
    .semantics = detail::gfx950_semantics.data(),
};

namespace targets {
// The compile-time face of the target: the builder derives from its mnemonic surface, and the
// builder, passes and printer read its op enumeration, table and waitcnt encoding through
// active_target (targets/select.hpp), never by name.
struct gfx950 {
  static constexpr std::string_view name = "gfx950";
  using op = isa::gfx950_op;
  template <class Builder>
  using mnemonics = isa::gfx950_mnemonics<Builder>;
  using waitcnt_encoding = waitcnt_gfx9;
  static constexpr const target& desc = hipasm::gfx950;
  static constexpr const std::array<isa::instr_desc, isa::gfx950_num_instrs>& table = isa::gfx950_table;
  static constexpr int find_instr(std::string_view mnemonic) { return isa::gfx950_find_instr(mnemonic); }
};
}  // namespace targets

}  // namespace hipasm
