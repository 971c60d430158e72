// Dead store elimination for registers, block-local and cheap: a side-effect-free
// instruction whose every written register is fully overwritten later in the same block
// before anything reads it is removed. Only whole-register writes count as overwrites:
// SGPR and VCC/SCC/M0 writes, never a VGPR write (under a partial EXEC the inactive lanes
// keep the old value). Carry-outs and implicit defs are defs like any other; a def that
// keeps part of its destination (common.hpp's vector_dst_write, def_use roles) reads it.
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

// When nothing is removed, the access table it built still describes the function: it is
// handed to `unchanged_table` (if given) for dce's liveness.
constexpr bool eliminate_dead_stores(function& fn_, const isa_view& isa_,
                                     vec<detail::access_table>* unchanged_table = nullptr) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  const dword_map dm(fn);
  access_table T(fn, isa, dm);
  const uint32_t* const acc_begin = T.begin.data();  // raw pointers: see liveness.hpp
  const access* const accs = T.acc.data();
  bool removed_any = false;
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    block& blk = fn.blocks[b];
    bitset over(dm.total());  // dwords fully overwritten later before any read
    vec<uint8_t> keep(blk.instrs.size(), 1);
    bool removed = false;
    const uint32_t t0 = T.at(b);
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      bool has_defs = false, all_over = true;
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if (!(a.flags & access::def)) continue;
        has_defs = true;
        if (!over.all_range(a.first, a.n)) all_over = false;
      }
      if (has_defs && all_over && !has_side_effects(isa, blk.instrs[i])) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if ((a.flags & (access::def | access::use)) == access::def && !(a.flags & access::masked))
          over.set_range(a.first, a.n);
      }
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if (a.flags & access::use) over.reset_range(a.first, a.n);
      }
    }
    if (removed) {
      removed_any = true;
      keep_marked(blk.instrs, keep);
    }
  }
  if (!removed_any && unchanged_table) unchanged_table->push_back(std::move(T));
  return removed_any;
}

}  // namespace hipasm
