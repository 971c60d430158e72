// CFG liveness with loops, per virtual-register dword (and per EXEC/VCC/SCC/M0 slot).
//
// EXEC-aware: a VGPR/AGPR def writes only the active lanes, so it ends the old value's
// life only where EXEC is known to be full (entry state, or restored from a saved copy of
// the full mask) or where no earlier def can reach it (then the inactive lanes hold
// nothing anyone may read). Elsewhere the def also counts as a use of the old value.
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
  vec<uint8_t> def_kills;                 // per position: the lane-masked defs end the old value
  vec<uint32_t> vstart, vend;             // per vreg; vstart > vend when never accessed

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
  vec<uint32_t> full_copies;  // sorted vreg ids

  constexpr bool holds_full(uint64_t v) const {
    for (uint32_t x : full_copies)
      if (x == v) return true;
    return false;
  }
  constexpr void drop(uint64_t v) {
    for (std::size_t i = 0; i < full_copies.size(); ++i)
      if (full_copies[i] == v) {
        full_copies.erase(full_copies.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }
  constexpr void add(uint64_t v) {
    if (!holds_full(v)) full_copies.push_back(static_cast<uint32_t>(v));
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
    for (std::size_t i = 0; i < full_copies.size();) {
      if (!o.holds_full(full_copies[i])) {
        full_copies.erase(full_copies.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      } else {
        ++i;
      }
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

  // Backward: per-block upward-exposed uses and kills, then the fixpoint.
  vec<bitset> gen(nb, bitset(nslots)), kill(nb, bitset(nslots));
  for (std::size_t b = 0; b < nb; ++b) {
    const block& blk = fn.blocks[b];
    bitset& g = gen[b];
    bitset& k = kill[b];
    const uint32_t t0 = T.at(b);
    const uint32_t start_b = L.pos.start[b];
    for (std::size_t i = blk.instrs.size(); i-- > 0;) {
      const bool kills = def_kills[start_b + i] != 0;
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      // defs first (they happen after the reads of the same instruction)
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if ((a.flags & (access::def | access::use)) != access::def) continue;
        if (!(a.flags & access::masked) || kills) {
          g.reset_range(a.first, a.n);
          k.set_range(a.first, a.n);
        } else {
          g.set_range(a.first, a.n);  // the old value flows through the inactive lanes
        }
      }
      for (uint32_t x = a0; x < a1; ++x) {
        const access& a = accs[x];
        if (a.flags & access::use) g.set_range(a.first, a.n);
      }
    }
  }
  L.live_in.assign(nb, bitset(nslots));
  L.live_out.assign(nb, bitset(nslots));
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t b = nb; b-- > 0;) {
      bitset out(nslots);
      for (uint32_t s : fn.blocks[b].succs)
        if (s < nb) out.merge(L.live_in[s]);
      bitset in = out;
      for (std::size_t w = 0; w < in.w.size(); ++w) in.w[w] = gen[b].w[w] | (out.w[w] & ~kill[b].w[w]);
      if (!(in == L.live_in[b]) || !(out == L.live_out[b])) {
        L.live_in[b] = std::move(in);
        L.live_out[b] = std::move(out);
        changed = true;
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
    for (std::size_t w = 0; w * 64 < nd; ++w) {
      uint64_t li = L.live_in[b].w[w], lo = L.live_out[b].w[w];
      if ((li | lo) == 0) continue;
      for (uint32_t j = 0; j < 64; ++j) {
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
      // One dword of the range is enough: a vreg's interval is the hull over its dwords.
      for (uint32_t x = acc_begin[t0 + i]; x < acc_begin[t0 + i + 1]; ++x)
        if (accs[x].first < nd) touch(accs[x].first, p);
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
      for (const async_pending::entry& e : st.pend)
        if (e.dw < nd) touch(e.dw, first);
      const block& blk = fn.blocks[b];
      for (std::size_t i = 0; i < blk.instrs.size(); ++i) {
        const uint32_t p = first + static_cast<uint32_t>(i);
        st.step(isa, L.dm, blk.instrs[i], [&](uint32_t dw) {
          if (dw < nd) touch(dw, p);
        });
      }
      for (const async_pending::entry& e : st.pend)
        if (e.dw < nd) touch(e.dw, last);
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
  return L;
}

}  // namespace hipasm
