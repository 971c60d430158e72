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

inline constexpr target gfx942 = gfx9_target("gfx942", isa::gfx942_instrs.data(), isa::gfx942_num_instrs, 65536,
                                             &gfx942_hazards, detail::gfx942_semantics.data(), fp8_format::fnuz);
static_assert(features_match_table(gfx942), "gfx942's feature flags and its instruction table disagree");

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
