// Dead code elimination with CFG liveness (EXEC-aware, see liveness.hpp): an instruction
// without side effects (common.hpp: memory operations, atomics including returning ones,
// barriers, s_waitcnt, s_sendmsg, branches, EXEC/M0 writers are never removed) goes when
// nothing reads any register it writes: explicit defs, carry-outs and implicit VCC/SCC
// defs included. Removing one can make its inputs dead in the same backward walk.
#pragma once
#include <vector>

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

// When nothing is removed the liveness it computed still describes the function: it is
// handed to `unchanged_liveness` (if given) so the allocator need not compute it again.
constexpr bool eliminate_dead_code(function& fn_, const isa_view& isa_,
                                   std::vector<liveness_info>* unchanged_liveness = nullptr) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  liveness_info L = compute_liveness(fn, isa);
  bool removed_any = false;
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    block& blk = fn.blocks[b];
    bitset live = L.live_out[b];
    std::vector<uint8_t> keep(blk.instrs.size(), 1);
    bool removed = false;
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const instr& in = blk.instrs[i];
      bool has_defs = false, any_live = false;
      for_each_access(isa, L.dm, in, [&](bool d, bool, uint32_t f, uint32_t n, int) {
        if (!d) return;
        has_defs = true;
        if (live.any_range(f, n)) any_live = true;
      });
      if (has_defs && !any_live && !has_side_effects(isa, in)) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      const bool kills = L.def_kills[L.pos.start[b] + i] != 0;
      for_each_access(isa, L.dm, in, [&](bool d, bool u, uint32_t f, uint32_t n, int idx) {
        if (d && !u && (kills || idx < 0 || !lane_masked_def(fn, in.ops[idx])))
          for (uint32_t j = 0; j < n; ++j) live.reset(f + j);
      });
      for_each_access(isa, L.dm, in, [&](bool d, bool u, uint32_t f, uint32_t n, int idx) {
        if (u || (d && !kills && idx >= 0 && lane_masked_def(fn, in.ops[idx])))
          for (uint32_t j = 0; j < n; ++j) live.set(f + j);
      });
    }
    if (removed) {
      removed_any = true;
      std::vector<instr> out;
      out.reserve(blk.instrs.size());
      for (std::size_t i = 0; i < blk.instrs.size(); ++i)
        if (keep[i]) out.push_back(blk.instrs[i]);
      blk.instrs = std::move(out);
    }
  }
  if (!removed_any && unchanged_liveness) unchanged_liveness->push_back(std::move(L));
  return removed_any;
}

}  // namespace hipasm
