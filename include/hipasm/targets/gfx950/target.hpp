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

// LDS 160 KiB: clang-22 "local memory exceeds limit (163840)"; gfx950.md section 5. OCP fp8
// (gfx950.md section 2). Features: the target-features clang-22 adds for gfx950 (gfx950.md
// section 1) and the v_cvt_scalef32_* conversions.
inline constexpr target gfx950 = with_features(
    gfx9_target("gfx950", isa::gfx950_instrs.data(), isa::gfx950_num_instrs, 163840, &gfx950_hazards,
                detail::gfx950_semantics.data(), fp8_format::ocp),
    {.has_lds_dma_x4 = true, .has_permlane_swap = true, .has_ds_read_tr = true, .has_bitop3 = true, .has_prng = true,
     .has_mx_convert = true});
static_assert(features_match_table(gfx950), "gfx950's feature flags and its instruction table disagree");

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
