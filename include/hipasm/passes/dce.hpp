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
//  - no s_waitcnt's count depends on it: on every path from it (through branches, joins and
//    loop back-edges: a load in a loop whose value no iteration and no later code reads goes
//    too), the waits of its counters up to one that waits for that counter to reach zero are
//    all such zero waits (a wait that leaves N operations pending would guarantee one
//    operation fewer without it); the end of the kernel (s_endpgm) waits for everything, so
//    it counts as a zero wait. A wait_for's wait is computed after dce from the loads left,
//    so it does not count. Loads do not order other memory accesses on gfx9, so nothing
//    else can depend on it.
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

namespace detail {
// See the head comment: a load instruction at fn.blocks[b].instrs[i] that may go when its
// results are dead. (Called only for dead instructions with side effects: rare, so plain code.)
constexpr bool dead_load(const isa_view& isa, const function& fn, std::size_t b, std::size_t i) {
  const block& blk = fn.blocks[b];
  const instr& in = blk.instrs[i];
  const isa::instr_desc& d = isa.descs[in.op];
  constexpr uint64_t other = isa::f_store | isa::f_atomic | isa::f_lds_dma | isa::f_side_effect | isa::f_barrier |
                             isa::f_writes_exec | isa::f_cmpx | isa::f_writes_m0 | isa::f_branch | isa::f_terminator;
  if (!(d.flags & isa::f_load) || (d.flags & other)) return false;
  const modifiers m = in.mods.unpack();
  if (m.glc || m.slc || m.nt || m.sc0 || m.sc1 || m.lds || m.gds) return false;
  for (int k = 0; k < in.num_operands; ++k)
    if (is_def(role_of(d, k)) && in.ops[k].k != operand::kind::vreg) return false;
  const uint8_t counters = (async_counts_vm(d) ? 1 : 0) | (async_counts_lgkm(d) ? 2 : 0);
  if (!counters) return false;
  // Every path on from the load, through branches and loop back-edges, with the counters it
  // may still be pending on (bit 0 vm, bit 1 lgkm): a block is scanned again only with a
  // set of them that no earlier scan of it covered (seen: bit k for a scan with set k), so at
  // most three scans of a block.
  vec<uint8_t> seen(fn.blocks.size(), 0);
  struct path {
    std::size_t block, from;
    uint8_t pending;
  };
  vec<path> todo;
  todo.push_back({b, i + 1, counters});
  while (!todo.empty()) {
    const path p = todo.back();
    todo.pop_back();
    const block& cur = fn.blocks[p.block];
    uint8_t pending = p.pending;
    for (std::size_t j = p.from; j < cur.instrs.size() && pending; ++j) {
      const instr& w = cur.instrs[j];
      const isa::instr_desc& wd = isa.descs[w.op];
      if (!(wd.flags & isa::f_waitcnt)) continue;
      if (!isa.sem || isa.sem[w.op].kind != isa::op_kind::waitcnt) return false;  // other wait forms
      const waitcnt_counts c = decode_waitcnt(w);
      if ((pending & 1) && c.vm != 63) {
        if (c.vm != 0) return false;
        pending &= ~1;
      }
      if ((pending & 2) && c.lgkm != 15) {
        if (c.lgkm != 0) return false;
        pending &= ~2;
      }
    }
    if (!pending) continue;
    if (cur.succs.empty()) {
      // the end of the program waits for everything (not s_setpc_b64: code may follow)
      if (cur.instrs.empty() || !std::string_view(isa.descs[cur.instrs.back().op].name).starts_with(lit("s_endpgm")))
        return false;
      continue;
    }
    for (uint32_t s : cur.succs) {
      if (seen[s] & ((1u << pending) | (1u << 3))) continue;  // (a scan with more pending covers fewer)
      seen[s] |= static_cast<uint8_t>(1u << pending);
      todo.push_back({s, 0, pending});
    }
  }
  return true;
}
// Whether special-register def `a` (SCC, VCC: a SALU result's SCC, a carry) of instruction i
// of block b is written again later in the block before any read: the next instruction
// that touches its registers writes all of them without reading them. (A SALU sequence
// sets SCC at almost every step; the liveness decides the rest.)
constexpr bool overwritten_in_block(const access_table& t, std::size_t b, std::size_t i, std::size_t n,
                                    const access& a) {
  const uint32_t t0 = t.at(b);
  const uint32_t* const acc_begin = t.begin.data();
  const access* const accs = t.acc.data();
  for (std::size_t j = i + 1; j < n; ++j) {
    bool touched = false, covers = false;
    for (uint32_t x = acc_begin[t0 + j]; x < acc_begin[t0 + j + 1]; ++x) {
      const access& o = accs[x];
      if (o.first >= a.first + a.n || a.first >= o.first + o.n) continue;
      if (o.flags & (access::use | access::masked)) return false;
      touched = true;
      if (o.first <= a.first && o.first + o.n >= a.first + a.n) covers = true;
    }
    if (touched) return covers;
  }
  return false;
}

// The instructions whose defs are all vreg dwords (or SCC/VCC that overwritten_in_block
// says are dead) that no instruction that stays reads, anywhere, found without liveness:
// the ones that must stay (a store, a branch, a def something else needs...) mark the vreg
// dwords they read as needed, then every instruction that writes a needed dword stays and
// marks its own reads, until nothing changes (sweeps in reverse program order: a chain of
// dead values goes in one sweep, a value a loop carries to itself, such as a pointer stepped
// each iteration for a dead load, takes a sweep or two more); a load left unneeded goes only
// where dead_load says nothing observes it, else it stays and the sweeps go on. Flow-
// insensitive (a dword needed anywhere keeps every write of it): most of what dce removes
// is of this kind (results of the expressions that a fused instruction or cse made unread).
// `keep[b]` gets the block's flags when it loses any. Then the liveness of what is left
// usually finds nothing more, and the allocator can use it as it is.
// An instruction mark_unread may remove: block b, index i. (At namespace scope: a local class's
// implicit constructor is not defined yet where vec's constant-evaluated `new T[n]()` needs it.)
struct dce_candidate {
  uint32_t b = 0, i = 0;
  bool load = false;  // has side effects: goes only if dead_load
};

constexpr bool mark_unread(const function& fn, const isa_view& isa, const access_table& t, uint32_t vreg_dwords,
                           vec<vec<uint8_t>>& keep) {
  const uint32_t* const acc_begin = t.begin.data();
  const access* const accs = t.acc.data();
  bitset needed(vreg_dwords);
  uint64_t* const nw = needed.w.data();
  auto need_reads = [&](uint32_t a0, uint32_t a1) {
    for (uint32_t x = a0; x < a1; ++x) {
      const access& a = accs[x];
      if (!(a.flags & access::use) || a.first >= vreg_dwords) continue;
      for (uint32_t d = a.first; d < a.first + a.n; ++d) nw[d >> 6] |= uint64_t{1} << (d & 63);
    }
  };
  // The instructions that may go (block, index), in reverse program order; the rest stay and
  // need what they read.
  vec<dce_candidate> cands;
  for (std::size_t b = fn.blocks.size(); b-- > 0;) {
    const block& blk = fn.blocks[b];
    const uint32_t t0 = t.at(b);
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      bool has_defs = false, may_go = true;
      for (uint32_t x = a0; x < a1 && may_go; ++x) {
        const access& a = accs[x];
        if (!(a.flags & access::def)) continue;
        has_defs = true;
        if (a.first >= vreg_dwords) may_go = overwritten_in_block(t, b, i, blk.instrs.size(), a);
      }
      // (needed by an instruction after it, already seen: most are, and never become candidates)
      for (uint32_t x = a0; x < a1 && may_go; ++x) {
        const access& a = accs[x];
        if ((a.flags & access::def) && a.first < vreg_dwords && needed.any_range(a.first, a.n)) may_go = false;
      }
      const instr& in = blk.instrs[i];
      const bool effects = may_go && has_defs && has_side_effects(isa, in);
      if (effects && !(isa.descs[in.op].flags & isa::f_load)) may_go = false;
      if (has_defs && may_go) cands.push_back({static_cast<uint32_t>(b), static_cast<uint32_t>(i), effects});
      else need_reads(a0, a1);
    }
  }
  // Sweeps until no candidate turns out needed; then the unneeded loads dead_load keeps.
  for (;;) {
    bool changed = true;
    while (changed) {
      changed = false;
      std::size_t n = 0;
      dce_candidate* const c = cands.data();
      for (std::size_t k = 0; k < cands.size(); ++k) {
        const uint32_t f = t.at(c[k].b) + c[k].i;
        const uint32_t a0 = acc_begin[f], a1 = acc_begin[f + 1];
        bool is_needed = false;
        for (uint32_t x = a0; x < a1 && !is_needed; ++x) {
          const access& a = accs[x];
          if ((a.flags & access::def) && a.first < vreg_dwords) is_needed = needed.any_range(a.first, a.n);
        }
        if (is_needed) {
          need_reads(a0, a1);
          changed = true;
        } else {
          c[n++] = c[k];
        }
      }
      cands.resize(n);
    }
    bool kept_load = false;
    std::size_t n = 0;
    dce_candidate* const c = cands.data();
    for (std::size_t k = 0; k < cands.size(); ++k) {
      if (c[k].load && !dead_load(isa, fn, c[k].b, c[k].i)) {
        const uint32_t f = t.at(c[k].b) + c[k].i;
        need_reads(acc_begin[f], acc_begin[f + 1]);
        kept_load = true;
      } else {
        c[n++] = c[k];
      }
    }
    cands.resize(n);
    if (!kept_load) break;
  }
  for (const dce_candidate& c : cands) {
    if (keep[c.b].empty()) keep[c.b].assign(fn.blocks[c.b].instrs.size(), 1);
    keep[c.b][c.i] = 0;
  }
  return !cands.empty();
}

// The access table of the function after the instructions `keep` marks went (blocks without
// flags keep all).
constexpr access_table table_without(const access_table& old, const vec<vec<uint8_t>>& keep) {
  access_table after;
  after.begin.reserve(old.begin.size());
  after.acc.reserve(old.acc.size());
  for (std::size_t b = 0; b < keep.size(); ++b)
    after.add_block(old, b, keep[b].empty() ? nullptr : keep[b].data(), old.at(b + 1) - old.at(b));
  after.finish();
  return after;
}

// The liveness of a function, carried over the removal of the instructions `keep` marks
// (blocks without flags keep all; `fn` is the function after it) instead of computed again
// (~0.25 s of a 2000-instruction kernel's compile): positions are renumbered (a removed
// instruction's position becomes that of the next one kept, or of its block's end), the
// access table loses the removed instructions' records, and everything else stays. What it
// then says is a superset of the new function's liveness: the removed instructions' reads
// and the dead values they defined still count (a value may stay live up to the next kept
// instruction, a boundary set may hold a value nobody reads any more). The allocator only
// needs intervals that cover every access and live boundary, so this is safe; it may hold a
// register a little longer than a fresh liveness would.
constexpr void remap_liveness(liveness_info& L, const function& fn, const vec<vec<uint8_t>>& keep) {
  const positions old = L.pos;
  L.pos = positions(fn);
  vec<uint32_t> at_(old.total + 1, 0);  // old position -> new
  uint32_t* const at = at_.data();
  vec<uint8_t> kills(L.pos.total, 1);
  const uint8_t* const old_kills = L.def_kills.data();
  for (std::size_t b = 0; b < keep.size(); ++b) {
    const uint32_t o0 = old.start[b], o1 = old.start[b + 1];  // (o1 - 1: the block's end)
    uint32_t n = L.pos.start[b];
    const uint8_t* const k = keep[b].empty() ? nullptr : keep[b].data();
    for (uint32_t p = o0; p + 1 < o1; ++p) {
      at[p] = n;
      if (!k || k[p - o0]) kills.data()[n++] = old_kills[p];
    }
    at[o1 - 1] = n;  // the block's end
    kills.data()[n] = old_kills[o1 - 1];
  }
  at[old.total] = L.pos.total;
  L.def_kills = std::move(kills);
  auto remap = [&](vec<uint32_t>& first, vec<uint32_t>& last) {
    uint32_t* const f = first.data();
    uint32_t* const e = last.data();
    for (std::size_t i = 0; i < first.size(); ++i)
      if (f[i] <= e[i]) {  // (first > last: never accessed)
        f[i] = at[f[i]];
        e[i] = at[e[i]];
      }
  };
  remap(L.vstart, L.vend);
  remap(L.dword_start, L.dword_end);
  L.acc = table_without(L.acc, keep);
  // A vreg whose accesses all went is accessed nowhere (as a fresh liveness says), unless it
  // is entry state (held from the first instruction).
  vec<uint8_t> accessed_(L.dm.vreg_dwords, 0);
  uint8_t* const accessed = accessed_.data();
  for (const access& a : L.acc.acc)
    for (uint32_t d = a.first; d < a.first + a.n && d < L.dm.vreg_dwords; ++d) accessed[d] = 1;
  const uint32_t* const base = L.dm.base.data();
  for (std::size_t v = 0; v < fn.vregs.size(); ++v) {
    if (fn.vregs[v].fixed >= 0) continue;
    bool any = false;
    for (uint32_t d = base[v]; d < base[v + 1]; ++d) {
      if (accessed[d]) any = true;
      else L.dword_start.data()[d] = ~0u, L.dword_end.data()[d] = 0;
    }
    if (!any) L.vstart.data()[v] = ~0u, L.vend.data()[v] = 0;
  }
}
}  // namespace detail

// Which of dce's two phases run. The pipeline splits them around the computed waits
// (pipeline.hpp): the unread values (and loads) first, then the waits (whose counts depend on
// which loads are left), then the liveness, computed once on the final instructions and
// handed to the allocator, which may then remove only instructions without memory effects.
enum class dce_phases : uint8_t {
  both,           // mark_unread, then the liveness of what is left
  unread_only,    // mark_unread alone: no liveness (`table_after` gets the table of what is left)
  liveness_only,  // the liveness alone, removing no memory instruction (the waits are computed)
};

// The liveness it computed after mark_unread's removals goes to `liveness_out` (if given) so
// that the allocator need not compute it again: as it is when it found nothing more to
// remove, carried over the removals when it did (detail::remap_liveness: a superset);
// then the access table of what is left also goes to `table_after` (if given: copied from
// the one the liveness used, the accesses of an instruction do not change).
// `table`: the function's access table if an earlier pass left one (moved from), or null.
constexpr bool eliminate_dead_code(function& fn_, const isa_view& isa_,
                                   vec<liveness_info>* liveness_out = nullptr,
                                   detail::access_table* table = nullptr,
                                   vec<detail::access_table>* table_after = nullptr,
                                   dce_phases phases = dce_phases::both) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  // First what needs no liveness (mark_unread), then the liveness of what is left.
  access_table own;
  const dword_map dm(fn);
  if (!table) {
    own = access_table(fn, isa, dm);
    table = &own;
  }
  bool removed_any = false;
  if (phases != dce_phases::liveness_only) {
    vec<vec<uint8_t>> unread(fn.blocks.size());
    if (mark_unread(fn, isa, *table, dm.vreg_dwords, unread)) {
      removed_any = true;
      *table = table_without(*table, unread);
      for (std::size_t b = 0; b < fn.blocks.size(); ++b)
        if (!unread[b].empty()) keep_marked(fn.blocks[b].instrs, unread[b]);
    }
  }
  if (phases == dce_phases::unread_only) {
    if (table_after) table_after->push_back(std::move(*table));
    return removed_any;
  }
  const bool memory_may_go = phases == dce_phases::both;
  liveness_info L = compute_liveness(fn, isa, table);
  bool removed_live = false;
  const uint32_t* const acc_begin = L.acc.begin.data();  // raw pointers: see liveness.hpp
  const access* const accs = L.acc.acc.data();
  const uint8_t* const def_kills = L.def_kills.data();
  // (the blocks' keep flags, for table_after and the carried liveness; all kept: no flags)
  vec<vec<uint8_t>> kept(table_after || liveness_out ? fn.blocks.size() : 0);
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
      if (has_defs && !any_live && (!has_side_effects(isa, in) || (memory_may_go && dead_load(isa, fn, b, i)))) {
        keep[i] = 0;
        removed = true;
        continue;
      }
      live_step(live.w.data(), wide.w.data(), live.w.size(), accs + a0, accs + a1, def_kills[start_b + i] != 0);
    }
    if (removed) {
      removed_live = true;
      keep_marked(blk.instrs, keep);
      if (table_after || liveness_out) kept[b] = std::move(keep);
    }
  }
  if (removed_live && liveness_out) {
    remap_liveness(L, fn, kept);
    if (table_after) table_after->push_back(L.acc);
  } else if (removed_live && table_after) {
    table_after->push_back(table_without(L.acc, kept));
  }
  if (liveness_out) liveness_out->push_back(std::move(L));
  return removed_any || removed_live;
}

}  // namespace hipasm
