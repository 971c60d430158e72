// Dead code elimination with CFG liveness (EXEC-aware, see liveness.hpp): an instruction
// without side effects (common.hpp: memory operations, atomics including returning ones,
// barriers, s_waitcnt, s_sendmsg, branches, EXEC/M0 writers are never removed) goes when
// nothing reads any register it writes: explicit defs, carry-outs and implicit VCC/SCC
// defs included. Removing one can make its inputs dead in the same backward walk.
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

// When nothing is removed the liveness it computed still describes the function: it is
// handed to `unchanged_liveness` (if given) so the allocator need not compute it again.
// `table`: the function's access table if an earlier pass left one (moved from), or null.
constexpr bool eliminate_dead_code(function& fn_, const isa_view& isa_,
                                   vec<liveness_info>* unchanged_liveness = nullptr,
                                   detail::access_table* table = nullptr) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  liveness_info L = compute_liveness(fn, isa, table);
  bool removed_any = false;
  const uint32_t* const acc_begin = L.acc.begin.data();  // raw pointers: see liveness.hpp
  const access* const accs = L.acc.acc.data();
  const uint8_t* const def_kills = L.def_kills.data();
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    block& blk = fn.blocks[b];
    bitset live = L.live_out[b], wide = L.wide_out[b];
    vec<uint8_t> keep(blk.instrs.size(), 1);
    bool removed = false;
    const uint32_t t0 = L.acc.at(b);
    const uint32_t start_b = L.pos.start[b];
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const instr& in = blk.instrs[i];
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      bool has_defs = false, any_live = false;
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if (!(a.flags & access::def)) continue;
        has_defs = true;
        if (live.any_range(a.first, a.n)) any_live = true;
      }
      if (has_defs && !any_live && !has_side_effects(isa, in)) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      live_step(live.w.data(), wide.w.data(), live.w.size(), accs + a0, accs + a1, def_kills[start_b + i] != 0);
    }
    if (removed) {
      removed_any = true;
      keep_marked(blk.instrs, keep);
    }
  }
  if (!removed_any && unchanged_liveness) unchanged_liveness->push_back(std::move(L));
  return removed_any;
}

}  // namespace hipasm
