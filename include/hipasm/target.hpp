// Per-target facts as data: the instruction table, register-file limits, LDS size, wave
// size, and the hazard rules (hazard_rules.hpp, the hazard pass's data). gfx950 becomes a second `target` instance with its own table and numbers, never a
// branch in the passes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hazard_rules.hpp"
#include "isa/check.hpp"
#include "isa/gfx942.hpp"
#include "isa/instr_desc.hpp"

namespace hipasm {

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
  const hazard_table* hazard_rules = nullptr;  // the hazard pass's per-target table (hazard_rules.hpp)

  constexpr const isa::instr_desc* find(std::string_view mnemonic) const {
    return isa::find_sorted(instrs, num_instrs, mnemonic);
  }
  constexpr const isa::instr_desc& operator[](uint16_t op) const { return instrs[op]; }
};

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
    .hazard_rules = &gfx942_hazards,
};

}  // namespace hipasm
