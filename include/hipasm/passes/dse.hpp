// Dead store elimination for registers, block-local and cheap: a side-effect-free
// instruction whose every written register is fully overwritten later in the same block
// before anything reads it is removed. Only whole-register writes count as overwrites:
// SGPR and VCC/SCC/M0 writes, never a VGPR write (under a partial EXEC the inactive lanes
// keep the old value). Carry-outs and implicit defs are defs like any other.
#pragma once
#include <vector>

#include "common.hpp"

namespace hipasm {

constexpr bool eliminate_dead_stores(function& fn_, const isa_view& isa_) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  const dword_map dm(fn);
  bool removed_any = false;
  for (block& blk : fn.blocks) {
    bitset over(dm.total());  // dwords fully overwritten later before any read
    std::vector<uint8_t> keep(blk.instrs.size(), 1);
    bool removed = false;
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const instr& in = blk.instrs[i];
      bool has_defs = false, all_over = true;
      for_each_access(isa, dm, in, [&](bool d, bool, uint32_t f, uint32_t n, int) {
        if (!d) return;
        has_defs = true;
        for (uint32_t j = 0; j < n; ++j)
          if (!over.test(f + j)) all_over = false;
      });
      if (has_defs && all_over && !has_side_effects(isa, in)) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      for_each_access(isa, dm, in, [&](bool d, bool u, uint32_t f, uint32_t n, int idx) {
        if (d && !u && !(idx >= 0 && lane_masked_def(fn, in.ops[idx])))
          for (uint32_t j = 0; j < n; ++j) over.set(f + j);
      });
      for_each_access(isa, dm, in, [&](bool, bool u, uint32_t f, uint32_t n, int) {
        if (u)
          for (uint32_t j = 0; j < n; ++j) over.reset(f + j);
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
  return removed_any;
}

}  // namespace hipasm
