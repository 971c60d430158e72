// CFG liveness with loops, per virtual-register dword (and per EXEC/VCC/SCC/M0 slot).
//
// EXEC-aware: a VGPR/AGPR def writes only the enabled lanes, the others keep the old value.
// A def ends the old value's life when no lane it leaves alone can read that value later:
//  - EXEC is known full (entry state, or restored from a saved copy of the full mask), or
//    no earlier def can reach it (the disabled lanes hold nothing anyone may read): the
//    forward verdict, `def_kills`;
//  - or every read the value reaches is under an EXEC that only lost lanes since the def:
//    the backward analysis tracks, with each live dword, whether it is "wide": some path
//    from here reaches a read of it across an EXEC write that may enable lanes (an If's
//    join, an Else, a Continue's re-enable; exec_write_only_removes_lanes in common.hpp
//    says which writes only remove lanes) or through a cross-lane read (readlane, DPP,
//    permlane, MFMA, ds_swizzle/permute). A def of a live dword that is not wide kills it:
//    lanes it does not write are disabled at every later read (they only lose lanes on
//    the way), so they never read the old value, also around a loop back-edge: a
//    temporary defined and used in one iteration of a per-lane loop, or of a loop under a
//    per-lane If, is live only there, as in a uniform loop, while a value read after a
//    join or carried to the next iteration by lanes the def skipped stays live.
//    (Soundness: at any def marked killing, a lane it skipped that read the old value would
//    do so at a read reached without crossing a killing def; on every such path EXEC only
//    loses lanes, so the lane would be disabled there.)
// A def that keeps part of the old value in enabled lanes (common.hpp's dst_write: DPP
// row/bank masks or a missing bound_ctrl, SDWA UNUSED_PRESERVE, op_sel on the destination,
// the def_use roles of v_mac/v_dot*c/d16 loads/v_writelane...) is also a read.
//
// The result gives each virtual register one interval [start, end] in instruction
// positions: the hull of its accesses and of the block boundaries where it is live. A
// value live around a loop back-edge is live-out of the latch and live-in at the header,
// so its interval covers the whole loop. A memory result (load, returning atomic) is
// written when it returns: its interval also covers every position where, on some path,
// no s_waitcnt has retired it yet (read or never read, across blocks and back-edges).
#pragma once
#include <string_view>
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

struct liveness_info {
  detail::dword_map dm;
  detail::positions pos;
  detail::access_table acc;                       // every instruction's accesses, decoded once
  vec<detail::bitset> live_in, live_out;  // per block, over dm.total() slots
  vec<detail::bitset> wide_out;           // per block: live-out dwords that are wide (see above)
  vec<uint8_t> def_kills;                 // per position: the lane-masked defs end the old value
  vec<uint32_t> vstart, vend;             // per vreg; vstart > vend when never accessed
  vec<uint32_t> dword_start, dword_end;   // per vreg dword (dm.base): the hull of that dword alone

  constexpr liveness_info() = default;
  // `table`: the function's access table when a pass already built it (moved from), or null.
  constexpr liveness_info(const function& fn, const isa_view& isa, detail::access_table* table = nullptr)
      : dm(fn), pos(fn), acc(table ? std::move(*table) : detail::access_table(fn, isa, dm)) {}
};

namespace detail {

// Which SGPR vregs hold a copy of the full EXEC mask, and whether EXEC is full.
struct exec_state {
  bool reached = false;
  bool full = false;
  // sorted vreg ids: every per-lane If at a full EXEC saves one and SSA-like vregs keep it, so
  // a kernel of many Ifs holds hundreds; a lookup per def and a meet per join must not scan
  vec<uint32_t> full_copies;

  // The first index whose id is >= v.
  constexpr std::size_t lower_bound(uint64_t v) const {
    const uint32_t* const c = full_copies.data();
    std::size_t lo = 0, hi = full_copies.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (c[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  constexpr bool holds_full(uint64_t v) const {
    const std::size_t i = lower_bound(v);
    return i < full_copies.size() && full_copies.data()[i] == v;
  }
  constexpr void drop(uint64_t v) {
    const std::size_t i = lower_bound(v);
    if (i < full_copies.size() && full_copies.data()[i] == v)
      full_copies.erase(full_copies.begin() + static_cast<std::ptrdiff_t>(i));
  }
  constexpr void add(uint64_t v) {
    const std::size_t i = lower_bound(v);
    if (i == full_copies.size()) full_copies.push_back(static_cast<uint32_t>(v));
    else if (full_copies.data()[i] != v)
      full_copies.insert(full_copies.begin() + static_cast<std::ptrdiff_t>(i), static_cast<uint32_t>(v));
  }
  // Meet at a join: full only if full on every path; copies common to all paths.
  constexpr bool meet(const exec_state& o) {
    if (!o.reached) return false;
    if (!reached) {
      *this = o;
      return true;
    }
    bool changed = false;
    if (full && !o.full) {
      full = false;
      changed = true;
    }
    // (both sorted: one walk keeps the common ids in place)
    uint32_t* const a = full_copies.data();
    const uint32_t* const b = o.full_copies.data();
    const std::size_t na = full_copies.size(), nb = o.full_copies.size();
    std::size_t kept = 0, j = 0;
    for (std::size_t i = 0; i < na; ++i) {
      while (j < nb && b[j] < a[i]) ++j;
      if (j < nb && b[j] == a[i]) a[kept++] = a[i];
    }
    if (kept != na) {
      full_copies.resize(kept);
      changed = true;
    }
    return changed;
  }
};

constexpr bool is_exec_operand(const operand& o) {
  return o.k == operand::kind::special && o.sp == special_reg::exec;
}

// Transfer of one instruction on the EXEC state.
constexpr void exec_transfer(const isa_view& isa, const instr& in, exec_state& st) {
  const isa::instr_desc& d = isa.descs[in.op];
  // Only scalar instructions save or restore EXEC; the rest just drop SGPR copies they
  // overwrite (no mnemonic comparisons for them: those cost constant evaluation time).
  bool explicit_exec_def = false;
  for (int i = 0; i < in.num_operands; ++i)
    if (in.ops[i].k == operand::kind::special && is_def(role_of(d, i)) &&
        (in.ops[i].sp == special_reg::exec || in.ops[i].sp == special_reg::exec_lo ||
         in.ops[i].sp == special_reg::exec_hi))
      explicit_exec_def = true;
  if (d.enc != isa::encoding::sop1 && d.enc != isa::encoding::sop2 && !has(d.flags, isa::f_writes_exec) &&
      !has(d.flags, isa::f_cmpx) && !explicit_exec_def) {
    if (!st.full_copies.empty())
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && is_def(role_of(d, i))) st.drop(in.ops[i].value);
    return;
  }
  const std::string_view name = d.name;
  bool writes_exec = has(d.flags, isa::f_writes_exec) || has(d.flags, isa::f_cmpx);
  for (int i = 0; i < in.num_operands; ++i)
    if (is_def(role_of(d, i)) && in.ops[i].k == operand::kind::special &&
        (in.ops[i].sp == special_reg::exec || in.ops[i].sp == special_reg::exec_lo ||
         in.ops[i].sp == special_reg::exec_hi))
      writes_exec = true;
  const bool was_full = st.full;
  // SGPR defs: a saved copy of the full mask, or a copy destroyed.
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    if (!is_def(role_of(d, i)) || o.k != operand::kind::vreg) continue;
    const bool saveexec = name == lit("s_and_saveexec_b64") || name == lit("s_or_saveexec_b64") ||
                          name == lit("s_andn2_saveexec_b64") || name == lit("s_orn2_saveexec_b64");
    bool saves_full = was_full && saveexec && i == 0;
    if (was_full && name == lit("s_mov_b64") && i == 0 && in.num_operands >= 2 && is_exec_operand(in.ops[1]))
      saves_full = true;
    if (saves_full)
      st.add(o.value);
    else
      st.drop(o.value);
  }
  if (!writes_exec) return;
  bool full_after = false;
  if (in.num_operands >= 2 && is_exec_operand(in.ops[0])) {
    if (name == lit("s_mov_b64")) {
      const operand& s = in.ops[1];
      full_after = (s.k == operand::kind::vreg && st.holds_full(s.value)) ||
                   (s.k == operand::kind::imm && static_cast<int64_t>(s.value) == -1);
    } else if (name == lit("s_or_b64") && in.num_operands >= 3) {
      for (int i = 1; i < 3; ++i) {
        const operand& s = in.ops[i];
        if (s.k == operand::kind::vreg && st.holds_full(s.value)) full_after = true;
        if (s.k == operand::kind::imm && static_cast<int64_t>(s.value) == -1) full_after = true;
      }
    }
  }
  st.full = full_after;
}

// One instruction, backward: `live` and `wide` (wide implies live; bitset words, raw: this
// runs for every instruction of every block visit, and each call or vec access is an
// interpreted frame) after it become the sets before it. `kills`: the forward verdict for
// its lane-masked defs (def_kills).
constexpr void live_step(uint64_t* live, uint64_t* wide, std::size_t nwords, const access* a, const access* end,
                         bool kills) {
  // Defs first (they happen after the reads of the same instruction). An EXEC write that may
  // enable lanes makes everything live after it wide (an instruction writing EXEC has no
  // lane-masked def, so the order among its defs does not matter).
  for (const access* x = a; x != end; ++x) {
    const uint8_t f = x->flags;
    if (f & access::exec_widens)
      for (std::size_t w = 0; w < nwords; ++w) wide[w] |= live[w];
    if ((f & (access::def | access::use)) != access::def) continue;
    // every lane written (or none holding a value): a kill; enabled lanes without a DPP
    // source under a partial EXEC keep the old value: a read; else the narrow kill
    const int how = (!(f & access::masked) || kills) ? 0 : (f & access::merge_partial) ? 1 : 2;
    for (uint32_t first = x->first, n = x->n; n;) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      const uint64_t m = (k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1) << lo;
      const uint32_t w = first >> 6;
      if (how == 0) {
        live[w] &= ~m;
        wide[w] &= ~m;
      } else if (how == 1) {
        live[w] |= m;
      } else {
        live[w] &= ~(m & ~wide[w]);
      }
      first += k;
      n -= k;
    }
  }
  for (const access* x = a; x != end; ++x) {
    const uint8_t f = x->flags;
    if (!(f & access::use)) continue;
    const bool cross = (f & access::cross_lane) != 0;
    for (uint32_t first = x->first, n = x->n; n;) {
      const uint32_t lo = first & 63, k = n < 64 - lo ? n : 64 - lo;
      const uint64_t m = (k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1) << lo;
      live[first >> 6] |= m;
      if (cross) wide[first >> 6] |= m;
      first += k;
      n -= k;
    }
  }
}

}  // namespace detail

// Computes liveness. `fixed` vregs (entry state) count as defined at entry. `table`: the
// function's access table if the caller has it (it is moved into the result), or null.
constexpr liveness_info compute_liveness(const function& fn_, const isa_view& isa_,
                                         detail::access_table* table = nullptr) {
  // Lambdas below capture local aliases, not reference parameters: clang-22's new
  // constant interpreter cannot read a reference parameter captured by a lambda.
  const function& fn = fn_;
  const isa_view& isa = isa_;
  using namespace detail;
  liveness_info L(fn, isa, table);
  const access_table& T = L.acc;
  // Raw pointers into the access table: a vector's operator[] is an interpreted call.
  const uint32_t* const acc_begin = T.begin.data();
  const access* const accs = T.acc.data();
  const std::size_t nb = fn.blocks.size();
  const uint32_t nslots = L.dm.total();
  const auto preds = predecessors(fn);
  L.def_kills.assign(L.pos.total, 1);
  uint8_t* const def_kills = L.def_kills.data();
  // (raw: vec::operator[] is an interpreted call; the function adds no vregs)
  const std::size_t nv = fn.vregs.size();
  const vreg_info* const vregs = fn.vregs.data();
  const uint32_t* const base = L.dm.base.data();

  // Forward: EXEC state and maybe-defined dwords.
  {
    vec<exec_state> ex_in(nb), ex_out(nb);
    vec<bitset> def_in(nb, bitset(nslots)), def_out(nb, bitset(nslots));
    bitset entry_defs(nslots);
    for (std::size_t v = 0; v < nv; ++v)
      if (vregs[v].fixed >= 0) entry_defs.set_range(base[v], vregs[v].dwords);
    // Round-robin over the blocks whose inputs changed (all of them at first).
    vec<uint8_t> dirty(nb, 1);
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::size_t b = 0; b < nb; ++b) {
        if (!dirty[b]) continue;
        dirty[b] = 0;
        exec_state in;
        bitset din(nslots);
        if (b == 0) {
          in.reached = true;
          in.full = true;
          din = entry_defs;
        }
        for (uint32_t p : preds[b]) {
          in.meet(ex_out[p]);
          din.merge(def_out[p]);
        }
        exec_state st = in;
        bitset dd = din;
        const block& blk = fn.blocks[b];
        const uint32_t t0 = T.at(b);
        const uint32_t start_b = L.pos.start[b];
        for (std::size_t i = 0; i < blk.instrs.size(); ++i) {
          const uint32_t p = start_b + static_cast<uint32_t>(i);
          const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
          // Kill decision for this instruction's lane-masked defs.
          bool kills = st.reached && st.full;
          if (!kills) {
            bool any_defined = false;
            for (uint32_t k = a0; k < a1; ++k) {
              const access& a = accs[k];
              if ((a.flags & access::masked) && dd.any_range(a.first, a.n)) any_defined = true;
            }
            kills = !any_defined;
          }
          def_kills[p] = kills ? 1 : 0;
          for (uint32_t k = a0; k < a1; ++k) {
            const access& a = accs[k];
            if (a.flags & access::def) dd.set_range(a.first, a.n);
          }
          if (st.reached) exec_transfer(isa, blk.instrs[i], st);
        }
        bool out_changed = false;
        if (!(dd == def_out[b])) {
          def_out[b] = dd;
          out_changed = true;
        }
        if (st.reached != ex_out[b].reached || st.full != ex_out[b].full ||
            st.full_copies != ex_out[b].full_copies) {
          ex_out[b] = st;
          out_changed = true;
        }
        if (out_changed) {
          changed = true;
          for (uint32_t s : fn.blocks[b].succs)
            if (s < nb) dirty[s] = 1;
        }
      }
    }
  }

  // Backward: live and wide sets. A block whose transfer does not depend on what is wide
  // (no EXEC write that may enable lanes, no lane-masked def that only the narrow rule can
  // kill: every block under a full EXEC) is summarised once as gen/kill sets; the others run
  // instruction by instruction (live_step) each time a successor's live-in changes.
  L.live_in.assign(nb, bitset(nslots));
  L.live_out.assign(nb, bitset(nslots));
  L.wide_out.assign(nb, bitset(nslots));
  {
    const uint32_t* const start = L.pos.start.data();
    const std::size_t nw = bitset(nslots).w.size();
    vec<bitset> gen(nb, bitset(nslots)), wgen(nb, bitset(nslots)), kill(nb, bitset(nslots));
    vec<uint8_t> summarised(nb, 1);
    for (std::size_t b = 0; b < nb; ++b) {
      uint64_t* const g = gen[b].w.data();
      uint64_t* const gw = wgen[b].w.data();
      uint64_t* const k = kill[b].w.data();
      const uint32_t t0 = T.at(b);
      for (std::size_t i = fn.blocks[b].instrs.size(); i-- > 0 && summarised[b];) {
        const bool kills = def_kills[start[b] + i] != 0;
        const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
        for (uint32_t x = a0; x < a1; ++x) {
          const uint8_t f = accs[x].flags;
          if (f & access::exec_widens) summarised[b] = 0;
          if ((f & (access::def | access::use)) != access::def) continue;
          const bool kill_all = !(f & access::masked) || kills;
          if (!kill_all && !(f & access::merge_partial)) summarised[b] = 0;  // the narrow rule decides
          for (uint32_t first = accs[x].first, n = accs[x].n; n;) {
            const uint32_t lo = first & 63, c = n < 64 - lo ? n : 64 - lo;
            const uint64_t m = (c >= 64 ? ~uint64_t{0} : (uint64_t{1} << c) - 1) << lo;
            if (kill_all) {
              g[first >> 6] &= ~m;
              gw[first >> 6] &= ~m;
              k[first >> 6] |= m;
            } else {
              g[first >> 6] |= m;  // a def keeping enabled lanes under a partial EXEC: a read
            }
            first += c;
            n -= c;
          }
        }
        for (uint32_t x = a0; x < a1; ++x) {
          const uint8_t f = accs[x].flags;
          if (!(f & access::use)) continue;
          for (uint32_t first = accs[x].first, n = accs[x].n; n;) {
            const uint32_t lo = first & 63, c = n < 64 - lo ? n : 64 - lo;
            const uint64_t m = (c >= 64 ? ~uint64_t{0} : (uint64_t{1} << c) - 1) << lo;
            g[first >> 6] |= m;
            if (f & access::cross_lane) gw[first >> 6] |= m;
            first += c;
            n -= c;
          }
        }
      }
    }
    vec<bitset> wide_in(nb, bitset(nslots));
    vec<uint8_t> pending(nb, 1);
    bool again = true;
    while (again) {
      again = false;
      for (std::size_t b = nb; b-- > 0;) {
        if (!pending[b]) continue;
        pending[b] = 0;
        bitset live(nslots), wide(nslots);
        for (uint32_t s : fn.blocks[b].succs)
          if (s < nb) {
            live.merge(L.live_in[s]);
            wide.merge(wide_in[s]);
          }
        L.live_out[b] = live;
        L.wide_out[b] = wide;
        uint64_t* const lw = live.w.data();
        uint64_t* const ww = wide.w.data();
        if (summarised[b]) {
          const uint64_t* const g = gen[b].w.data();
          const uint64_t* const gw = wgen[b].w.data();
          const uint64_t* const k = kill[b].w.data();
          for (std::size_t w = 0; w < nw; ++w) {
            lw[w] = g[w] | (lw[w] & ~k[w]);
            ww[w] = gw[w] | (ww[w] & ~k[w]);
          }
        } else {
          const uint32_t t0 = T.at(b);
          for (std::size_t i = fn.blocks[b].instrs.size(); i-- > 0;)
            live_step(lw, ww, nw, accs + acc_begin[t0 + i], accs + acc_begin[t0 + i + 1], def_kills[start[b] + i] != 0);
        }
        if (!(live == L.live_in[b]) || !(wide == wide_in[b])) {
          L.live_in[b] = std::move(live);
          wide_in[b] = std::move(wide);
          for (uint32_t p : preds[b]) {
            pending[p] = 1;
            if (p >= b) again = true;  // (an earlier block is visited later in this sweep)
          }
        }
      }
    }
  }

  // Intervals: hull of accesses and live block boundaries, per dword then per vreg.
  const uint32_t nd = L.dm.vreg_dwords;
  vec<uint32_t> ds_(nd, ~0u), de_(nd, 0);
  uint32_t* const ds = ds_.data();  // raw: touch runs for every access
  uint32_t* const de = de_.data();
  auto touch = [&](uint32_t dw, uint32_t p) {
    if (p < ds[dw]) ds[dw] = p;
    if (p > de[dw]) de[dw] = p;
  };
  for (std::size_t b = 0; b < nb; ++b) {
    const uint32_t first = L.pos.start[b];
    const uint32_t last = L.pos.start[b + 1] - 1;  // the block-end slot
    const uint64_t* const lin = L.live_in[b].w.data();
    const uint64_t* const lout = L.live_out[b].w.data();
    for (std::size_t w = 0; w * 64 < nd; ++w) {
      const uint64_t li = lin[w], lo = lout[w];
      // (the set bits only: a kernel of hundreds of blocks has thousands of dwords)
      for (uint64_t x = li | lo; x; x &= x - 1) {
        const uint32_t j = static_cast<uint32_t>(__builtin_ctzll(x));
        const uint32_t dw = static_cast<uint32_t>(w * 64 + j);
        if (dw >= nd) break;
        if ((li >> j) & 1) touch(dw, first);
        if ((lo >> j) & 1) touch(dw, last);
      }
    }
    const block& blk = fn.blocks[b];
    const uint32_t t0 = T.at(b);
    for (std::size_t i = 0; i < blk.instrs.size(); ++i) {
      const uint32_t p = first + static_cast<uint32_t>(i);
      // Every dword of the range: the allocator frees a tuple's dwords one by one and
      // coalesces copies dword by dword (dword_start, dword_end).
      for (uint32_t x = acc_begin[t0 + i]; x < acc_begin[t0 + i + 1]; ++x) {
        const uint32_t f = accs[x].first;
        for (uint32_t k = 0, n = accs[x].n; k < n && f + k < nd; ++k) touch(f + k, p);
      }
    }
  }
  // A memory result lands when it returns, not when issued: its registers stay taken on
  // every path until an s_waitcnt retires it (async_pending, common.hpp's counter model),
  // whether or not anybody reads them. Forward fixpoint; each pending dword is touched
  // where it enters a block, where it retires and where it leaves a block.
  {
    vec<async_pending> pin(nb), pout(nb);
    vec<uint8_t> seen(nb, 0), dirty_async(nb, 1);
    bool again = true;
    while (again) {
      again = false;
      for (std::size_t b = 0; b < nb; ++b) {
        if (!dirty_async[b]) continue;
        dirty_async[b] = 0;
        async_pending st;
        bool reached = b == 0;
        for (uint32_t q : preds[b])
          if (seen[q]) {
            st.merge(pout[q]);
            reached = true;
          }
        if (!reached) continue;
        if (seen[b] && st == pin[b]) continue;
        pin[b] = st;
        for (const instr& in : fn.blocks[b].instrs)
          st.step(isa, L.dm, in, [](uint32_t) {});
        if (!seen[b] || !(st == pout[b])) {
          pout[b] = std::move(st);
          seen[b] = 1;
          again = true;
          for (uint32_t s : fn.blocks[b].succs)
            if (s < nb) dirty_async[s] = 1;
        }
      }
    }
    for (std::size_t b = 0; b < nb; ++b) {
      if (!seen[b]) continue;
      const uint32_t first = L.pos.start[b];
      const uint32_t last = L.pos.start[b + 1] - 1;
      async_pending st = pin[b];
      for (const pending_entry& e : st.pend)
        if (e.key < nd) touch(e.key, first);
      const block& blk = fn.blocks[b];
      for (std::size_t i = 0; i < blk.instrs.size(); ++i) {
        const uint32_t p = first + static_cast<uint32_t>(i);
        st.step(isa, L.dm, blk.instrs[i], [&](uint32_t dw) {
          if (dw < nd) touch(dw, p);
        });
      }
      for (const pending_entry& e : st.pend)
        if (e.key < nd) touch(e.key, last);
    }
  }
  // Entry-state registers hold their value from the kernel's first instruction.
  for (std::size_t v = 0; v < nv; ++v)
    if (vregs[v].fixed >= 0)
      for (uint32_t j = 0; j < vregs[v].dwords; ++j) touch(base[v] + j, 0);
  L.vstart.assign(nv, ~0u);
  L.vend.assign(nv, 0);
  uint32_t* const vstart = L.vstart.data();
  uint32_t* const vend = L.vend.data();
  for (std::size_t v = 0; v < nv; ++v) {
    const uint32_t n = vregs[v].dwords, b0 = base[v];
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t dw = b0 + j;
      if (ds[dw] < vstart[v]) vstart[v] = ds[dw];
      if (de[dw] > vend[v]) vend[v] = de[dw];
    }
  }
  L.dword_start = std::move(ds_);
  L.dword_end = std::move(de_);
  return L;
}

}  // namespace hipasm
