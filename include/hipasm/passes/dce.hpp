// Dead code elimination with CFG liveness (EXEC-aware, see liveness.hpp): an instruction
// without side effects (common.hpp: memory operations, atomics including returning ones,
// barriers, s_waitcnt, s_sendmsg, branches, EXEC/M0 writers are never removed) goes when
// nothing reads any register it writes: explicit defs, carry-outs and implicit VCC/SCC
// defs included. Removing one can make its inputs dead in the same backward walk.
//
// A load whose results nobody reads goes too (dead_load), when removing it changes nothing
// else a program can observe:
//  - it only reads memory: no store, atomic, LDS-DMA, GDS, M0/EXEC write;
//  - no cache-policy bit (glc/sc0/sc1/slc/nt): a load with one may be a volatile or an
//    acquiring read that a program relies on for ordering (polling a flag), so it stays;
//  - no s_waitcnt's count depends on it: the waits of its counters that follow it in its
//    block, up to one that waits for that counter to reach zero, all do (a wait that leaves
//    N operations pending would guarantee one operation fewer without it); without such a
//    zero wait in the block it stays. Loads do not order other memory accesses on gfx9, so
//    nothing else can depend on it.
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

namespace detail {
// See the head comment: a load instruction at blk.instrs[i] that may go when its results
// are dead. (Called only for dead instructions with side effects: rare, so plain code.)
constexpr bool dead_load(const isa_view& isa, const block& blk, std::size_t i) {
  const instr& in = blk.instrs[i];
  const isa::instr_desc& d = isa.descs[in.op];
  constexpr uint64_t other = isa::f_store | isa::f_atomic | isa::f_lds_dma | isa::f_side_effect | isa::f_barrier |
                             isa::f_writes_exec | isa::f_cmpx | isa::f_writes_m0 | isa::f_branch | isa::f_terminator;
  if (!(d.flags & isa::f_load) || (d.flags & other)) return false;
  const modifiers m = in.mods.unpack();
  if (m.glc || m.slc || m.nt || m.sc0 || m.sc1 || m.lds || m.gds) return false;
  for (int k = 0; k < in.num_operands; ++k)
    if (is_def(role_of(d, k)) && in.ops[k].k != operand::kind::vreg) return false;
  bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
  if (!vm && !lgkm) return false;
  for (std::size_t j = i + 1; j < blk.instrs.size() && (vm || lgkm); ++j) {
    const instr& w = blk.instrs[j];
    const isa::instr_desc& wd = isa.descs[w.op];
    if (!(wd.flags & isa::f_waitcnt)) continue;
    if (!isa.sem || isa.sem[w.op].kind != isa::op_kind::waitcnt) return false;  // other wait forms
    const waitcnt_counts c = decode_waitcnt(w);
    if (vm && c.vm != 63) {
      if (c.vm != 0) return false;
      vm = false;
    }
    if (lgkm && c.lgkm != 15) {
      if (c.lgkm != 0) return false;
      lgkm = false;
    }
  }
  return !vm && !lgkm;
}
}  // namespace detail

// When nothing is removed the liveness it computed still describes the function: it is
// handed to `unchanged_liveness` (if given) so the allocator need not compute it again;
// when something is, the access table of what is left goes to `table_after` (if given:
// copied from the one the liveness used, the accesses of an instruction do not change).
// `table`: the function's access table if an earlier pass left one (moved from), or null.
constexpr bool eliminate_dead_code(function& fn_, const isa_view& isa_,
                                   vec<liveness_info>* unchanged_liveness = nullptr,
                                   detail::access_table* table = nullptr,
                                   vec<detail::access_table>* table_after = nullptr) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  liveness_info L = compute_liveness(fn, isa, table);
  bool removed_any = false;
  const uint32_t* const acc_begin = L.acc.begin.data();  // raw pointers: see liveness.hpp
  const access* const accs = L.acc.acc.data();
  const uint8_t* const def_kills = L.def_kills.data();
  // (the blocks' keep flags, for table_after; all kept: no flags)
  vec<vec<uint8_t>> kept(table_after ? fn.blocks.size() : 0);
  for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
    block& blk = fn.blocks[b];
    bitset live = L.expand(L.live_out[b]), wide = L.expand(L.wide_out[b]);
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
      if (has_defs && !any_live && (!has_side_effects(isa, in) || dead_load(isa, blk, i))) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      live_step(live.w.data(), wide.w.data(), live.w.size(), accs + a0, accs + a1, def_kills[start_b + i] != 0);
    }
    if (removed) {
      removed_any = true;
      keep_marked(blk.instrs, keep);
      if (table_after) kept[b] = std::move(keep);
    }
  }
  if (!removed_any && unchanged_liveness) unchanged_liveness->push_back(std::move(L));
  if (removed_any && table_after) {
    access_table after;
    after.begin.reserve(L.acc.begin.size());
    after.acc.reserve(L.acc.acc.size());
    for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
      const std::size_t n = L.pos.start[b + 1] - L.pos.start[b] - 1;  // (the block's size before)
      after.add_block(L.acc, b, kept[b].empty() ? nullptr : kept[b].data(), n);
    }
    after.finish();
    table_after->push_back(std::move(after));
  }
  return removed_any;
}

}  // namespace hipasm
