// CFG liveness with loops, per virtual-register dword (and per EXEC/VCC/SCC/M0 slot).
//
// EXEC-aware: a VGPR/AGPR def writes only the enabled lanes, the others keep the old value.
// A def ends the old value's life when no lane it leaves alone can read that value later:
//  - EXEC is known full: every lane the wave started with (entry state, or restored from a
//    saved copy of the full mask; the lanes past a partial wave's end hold nothing), or
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
// the def_use roles of v_mac/v_dot*c/d16 loads/v_writelane...) is also a read. A DPP def
// without bound_ctrl whose source lanes always exist in a full wave ends the old value only
// where all 64 lanes are known on (exec_state::all_lanes), not merely the wave's own: a
// source lane past a partial wave's end is off, and its destination lane keeps the value.
//
// The result gives each virtual register one interval [start, end] in instruction
// positions: the hull of its accesses and of the block boundaries where it is live (and
// maybe defined: a path no def reaches holds nothing to keep; see the intervals below). A
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
  // Per block, over the boundary slots (`boundary_slot`: index -> slot of dm), the only
  // slots that can be live where blocks meet: the dwords of vregs accessed in several
  // blocks or live at entry, the special registers, and the vregs of one block that some
  // path enters live (read before a def that ends them). The others, most of a kernel of
  // many small blocks, live and die inside their block; leaving them out of the per-block
  // sets made them ~5x smaller there (see compute_liveness). `expand` gives a full set.
  vec<uint32_t> boundary_slot;
  bool boundary_compressed = false;  // false: every slot, in order (boundary_slot[i] == i)
  vec<detail::bitset> live_in, live_out;
  vec<detail::bitset> wide_out;  // per block: live-out dwords that are wide (see above)
  vec<uint8_t> def_kills;                 // per position: the lane-masked defs end the old value
  vec<uint32_t> vstart, vend;             // per vreg; vstart > vend when never accessed
  vec<uint32_t> dword_start, dword_end;   // per vreg dword (dm.base): the hull of that dword alone

  constexpr liveness_info() = default;
  // `table`: the function's access table when a pass already built it (moved from), or null.
  constexpr liveness_info(const function& fn, const isa_view& isa, detail::access_table* table = nullptr)
      : dm(fn), pos(fn), acc(table ? std::move(*table) : detail::access_table(fn, isa, dm)) {}
  // A per-block set (live_out, wide_out, live_in) over all dm.total() slots.
  constexpr detail::bitset expand(const detail::bitset& boundary) const {
    if (!boundary_compressed) return boundary;
    detail::bitset full(dm.total());
    const uint64_t* const w = boundary.w.data();
    const uint32_t* const slot = boundary_slot.data();
    uint64_t* const f = full.w.data();
    for (std::size_t i = 0; i < boundary.w.size(); ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) {
        const uint32_t s = slot[i * 64 + static_cast<uint32_t>(__builtin_ctzll(x))];
        f[s >> 6] |= uint64_t{1} << (s & 63);
      }
    return full;
  }
};

namespace detail {

// Which SGPR vregs hold a copy of the full EXEC mask, and whether EXEC is full. Full is every
// lane the wave started with (the dispatch's mask: the last wave of a workgroup whose size is
// not a multiple of 64 starts partial); `all_lanes` is the stronger fact that all 64 lanes are
// on, which a DPP source lane past the wave's end needs (vector_dst_write's
// merges_if_partial_exec). An EXEC write of all ones sets it; a full EXEC is all 64 lanes too
// where the kernel declares full waves (builder::workgroup_size, function::full_waves).
struct exec_state {
  bool reached = false;
  bool full = false;
  bool all_lanes = false;
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
    if (all_lanes && !o.all_lanes) {
      all_lanes = false;
      changed = true;
    }
    // (both sorted: one walk keeps the common ids in place; the lists of two paths mostly
    // share a long prefix, passed over first without writes)
    uint32_t* const a = full_copies.data();
    const uint32_t* const b = o.full_copies.data();
    const std::size_t na = full_copies.size(), nb = o.full_copies.size();
    const std::size_t common = na < nb ? na : nb;
    std::size_t i = 0;
    while (i < common && a[i] == b[i]) ++i;
    std::size_t kept = i, j = i;
    for (; i < na; ++i) {
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
  const bool writes_exec = has(d.flags, isa::f_writes_exec) || has(d.flags, isa::f_cmpx) || explicit_exec_def;
  const bool was_full = st.full;
  // SGPR defs: a saved copy of the full mask, or a copy destroyed.
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    if (!is_def(role_of(d, i)) || o.k != operand::kind::vreg) continue;
    bool saves_full = false;
    if (was_full && i == 0) {  // (the mnemonics only where they can matter: each test costs)
      const bool saveexec = name == lit("s_and_saveexec_b64") || name == lit("s_or_saveexec_b64") ||
                            name == lit("s_andn2_saveexec_b64") || name == lit("s_orn2_saveexec_b64");
      saves_full = saveexec ||
                   (name == lit("s_mov_b64") && in.num_operands >= 2 && is_exec_operand(in.ops[1]));
    }
    if (saves_full)
      st.add(o.value);
    else
      st.drop(o.value);
  }
  if (!writes_exec) return;
  bool full_after = false, all_after = false;
  auto all_ones = [](const operand& s) { return s.k == operand::kind::imm && static_cast<int64_t>(s.value) == -1; };
  if (in.num_operands >= 2 && is_exec_operand(in.ops[0])) {
    if (name == lit("s_mov_b64")) {
      const operand& s = in.ops[1];
      full_after = s.k == operand::kind::vreg && st.holds_full(s.value);
      all_after = all_ones(s);
    } else if (name == lit("s_or_b64") && in.num_operands >= 3) {
      for (int i = 1; i < 3; ++i) {
        const operand& s = in.ops[i];
        if (s.k == operand::kind::vreg && st.holds_full(s.value)) full_after = true;
        if (all_ones(s)) all_after = true;
      }
    }
  } else if (name == lit("s_or_saveexec_b64") && in.num_operands >= 2 && all_ones(in.ops[1])) {
    all_after = true;  // EXEC |= all ones (the lane helpers' "all lanes on")
  }
  st.full = full_after || all_after;
  st.all_lanes = all_after;
}

// The vregs that may ever hold a saved copy of the full EXEC mask: exec_transfer adds only
// the first operand of s_*_saveexec_b64 (which write EXEC) and of s_mov_b64 from EXEC. (A
// superset is safe: it only makes more instructions exec_relevant.)
constexpr vec<uint8_t> exec_copy_candidates(const function& fn, const isa_view& isa) {
  vec<uint8_t> may_hold(fn.vregs.size(), 0);
  uint8_t* const m = may_hold.data();
  for (const block& blk : fn.blocks) {
    const instr* const ins = blk.instrs.data();
    const std::size_t n = blk.instrs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const instr& in = ins[i];
      if (in.num_operands == 0 || in.ops[0].k != operand::kind::vreg) continue;
      const isa::instr_desc& d = isa.descs[in.op];
      if (has(d.flags, isa::f_writes_exec) || (in.num_operands >= 2 && is_exec_operand(in.ops[1])))
        m[in.ops[0].value] = 1;
    }
  }
  return may_hold;
}

// Whether exec_transfer can change any state at `in`: it writes EXEC (the slow path there),
// or it defines a vreg that may hold a saved copy (`may_hold`: exec_copy_candidates), which
// it saves or drops. Other instructions leave the state as it is (most of a kernel's scalar
// code: a per-instruction transfer there was a tenth of the liveness).
constexpr bool exec_relevant(const isa_view& isa, const uint8_t* may_hold, const instr& in) {
  const isa::instr_desc& d = isa.descs[in.op];
  if (has(d.flags, isa::f_writes_exec) || has(d.flags, isa::f_cmpx)) return true;
  // (the operand first: most are VGPR vregs, and then no role lookup; role_of written out)
  const int nd = d.num_operands;
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    const bool candidate =
        o.k == operand::kind::vreg
            ? may_hold[o.value] != 0
            : o.k == operand::kind::special &&
                  (o.sp == special_reg::exec || o.sp == special_reg::exec_lo || o.sp == special_reg::exec_hi);
    if (candidate && (i >= nd || d.operands[i].role != isa::operand_role::use)) return true;
  }
  return false;
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

// Which blocks lie on a cycle of the CFG (reach themselves again): Tarjan's strongly
// connected components, iteratively (a component of several blocks, or a self-edge).
constexpr vec<uint8_t> blocks_on_cycles(const function& fn) {
  const std::size_t nb = fn.blocks.size();
  vec<uint8_t> cyclic(nb, 0), on_stack(nb, 0);
  vec<uint32_t> index(nb, ~0u), low(nb, 0), stack, frame_block, frame_next;
  uint32_t counter = 0;
  for (std::size_t r = 0; r < nb; ++r) {
    if (index.data()[r] != ~0u) continue;
    auto enter = [&](uint32_t v) {
      index.data()[v] = low.data()[v] = counter++;
      stack.push_back(v);
      on_stack.data()[v] = 1;
      frame_block.push_back(v);
      frame_next.push_back(0);
    };
    enter(static_cast<uint32_t>(r));
    while (!frame_block.empty()) {
      const uint32_t v = frame_block.back();
      const vec<uint32_t>& succs = fn.blocks[v].succs;
      uint32_t& next = frame_next.data()[frame_next.size() - 1];
      if (next < succs.size()) {
        const uint32_t w = succs.data()[next++];
        if (w >= nb) continue;
        if (w == v) cyclic.data()[v] = 1;
        if (index.data()[w] == ~0u) enter(w);
        else if (on_stack.data()[w] && index.data()[w] < low.data()[v]) low.data()[v] = index.data()[w];
        continue;
      }
      frame_block.pop_back();
      frame_next.pop_back();
      if (!frame_block.empty()) {
        const uint32_t u = frame_block.back();
        if (low.data()[v] < low.data()[u]) low.data()[u] = low.data()[v];
      }
      if (low.data()[v] == index.data()[v]) {
        std::size_t first = stack.size();
        while (stack.data()[first - 1] != v) --first;
        --first;
        if (stack.size() - first > 1)
          for (std::size_t k = first; k < stack.size(); ++k) cyclic.data()[stack.data()[k]] = 1;
        for (std::size_t k = first; k < stack.size(); ++k) on_stack.data()[stack.data()[k]] = 0;
        stack.resize(first);
      }
    }
  }
  return cyclic;
}

// Computes liveness. `fixed` vregs (entry state) count as defined at entry. `table`: the
// function's access table if the caller has it (it is moved into the result), or null.
//
// The per-block sets (the cost of a kernel of many blocks is blocks x their size) hold only
// the slots that can cross a block boundary. A vreg accessed in one block only, not fixed:
//  - forward, is maybe-defined in its block where an earlier instruction of the block
//    defines it, or from the start when the block lies on a cycle (its defs reach the block
//    again, and only through the block itself): tracked per block in a scratch set;
//  - backward, is never live at a block boundary when each of its dwords is first accessed
//    in the block by defs only that end the old value (unmasked, or def_kills): every read
//    comes after that def, and no other block reads it. Such vregs are left out; the rest
//    of the one-block vregs join the boundary slots after the forward pass.
// Which slots the per-block sets hold (tests compare the two; the result is the same).
enum class liveness_sets : uint8_t { automatic, all_slots, boundary_slots };
constexpr liveness_info compute_liveness(const function& fn_, const isa_view& isa_,
                                         detail::access_table* table = nullptr,
                                         liveness_sets sets = liveness_sets::automatic) {
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
  const uint32_t nd = L.dm.vreg_dwords;
  const uint32_t* const start = L.pos.start.data();

  // The boundary slots: `boundary[slot]` its index, ~0u for a slot of a one-block vreg. Worth
  // it when the per-block sets are bigger than the accesses the classification reads (many
  // blocks); otherwise every slot is one (a few large blocks: the loop bodies of most kernels).
  const bool compress = sets == liveness_sets::automatic ? nb * (nslots / 64 + 1) > T.acc.size()
                                                        : sets == liveness_sets::boundary_slots;
  L.boundary_compressed = compress;
  vec<uint32_t> boundary_(nslots, ~0u);
  uint32_t* const boundary = boundary_.data();
  if (!compress) {
    L.boundary_slot.resize(nslots, 0);
    uint32_t* const slot = L.boundary_slot.data();
    for (uint32_t d = 0; d < nslots; ++d) boundary[d] = slot[d] = d;
  } else {
    vec<uint32_t> owner_(nd, 0);  // per vreg dword: 0 none, 1 + block, ~0u several blocks
    uint32_t* const owner = owner_.data();
    for (std::size_t b = 0; b < nb; ++b) {
      const uint32_t tag = static_cast<uint32_t>(b) + 1;
      const uint32_t k_end = acc_begin[T.at(b) + fn.blocks[b].instrs.size()];
      for (uint32_t k = acc_begin[T.at(b)]; k < k_end; ++k)
        for (uint32_t d = accs[k].first, e = d + accs[k].n; d < e && d < nd; ++d)
          owner[d] = owner[d] == 0 || owner[d] == tag ? tag : ~0u;
    }
    for (std::size_t v = 0; v < nv; ++v) {
      bool crosses = vregs[v].fixed >= 0;
      for (uint32_t d = base[v]; d < base[v + 1] && !crosses; ++d) crosses = owner[d] == ~0u;
      if (crosses)
        for (uint32_t d = base[v]; d < base[v + 1]; ++d) {
          boundary[d] = static_cast<uint32_t>(L.boundary_slot.size());
          L.boundary_slot.push_back(d);
        }
    }
    for (uint32_t d = nd; d < nslots; ++d) {
      boundary[d] = static_cast<uint32_t>(L.boundary_slot.size());
      L.boundary_slot.push_back(d);
    }
  }
  const uint32_t nf = static_cast<uint32_t>(L.boundary_slot.size());  // the forward pass's slots

  // The instructions async_pending::step does anything at (memory instructions and waits),
  // per block: the memory-result sweeps below visit only those.
  vec<uint32_t> async_steps, async_first(nb + 1, 0);
  for (std::size_t b = 0; b < nb; ++b) {
    const instr* const ins = fn.blocks[b].instrs.data();
    const std::size_t n = fn.blocks[b].instrs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const isa::instr_desc& d = isa.descs[ins[i].op];
      if ((d.flags & isa::f_waitcnt) || async_counts_vm(d) || async_counts_lgkm(d))
        async_steps.push_back(static_cast<uint32_t>(i));
    }
    async_first[b + 1] = static_cast<uint32_t>(async_steps.size());
  }

  // The maybe-defined boundary slots (the forward pass's nf) at each block's start and end,
  // kept for the intervals below.
  vec<bitset> maybe_in(nb), maybe_out;
  // Forward: EXEC state and maybe-defined dwords. The fixpoint runs on block summaries: a
  // block's maybe-defined dwords are its input plus every dword it defines (`gen_def`), and
  // its EXEC transfer is that of its `exec_steps` only (the instructions exec_transfer can
  // change the state at: see exec_relevant); then one sweep per block with the final inputs
  // decides def_kills (the fixpoint used to walk every instruction on each of a block's
  // visits).
  {
    vec<exec_state> ex_in(nb), ex_out(nb);
    vec<bitset> def_in(nb), def_out(nb, bitset(nf)), gen_def(nb, bitset(nf));
    bitset entry_defs(nf);
    for (std::size_t v = 0; v < nv; ++v)
      if (vregs[v].fixed >= 0) entry_defs.set_range(boundary[base[v]], vregs[v].dwords);
    vec<uint32_t> exec_steps, exec_first(nb + 1, 0);
    const vec<uint8_t> may_hold_ = exec_copy_candidates(fn, isa);
    const uint8_t* const may_hold = may_hold_.data();
    for (std::size_t b = 0; b < nb; ++b) {
      const block& blk = fn.blocks[b];
      const instr* const ins = blk.instrs.data();
      const uint32_t t0 = T.at(b);
      bitset& g = gen_def[b];
      const std::size_t n = blk.instrs.size();
      for (std::size_t i = 0; i < n; ++i) {
        for (uint32_t k = acc_begin[t0 + i]; k < acc_begin[t0 + i + 1]; ++k)
          if ((accs[k].flags & access::def) && boundary[accs[k].first] != ~0u)
            g.set_range(boundary[accs[k].first], accs[k].n);
        if (exec_relevant(isa, may_hold, ins[i])) exec_steps.push_back(static_cast<uint32_t>(i));
      }
      exec_first[b + 1] = static_cast<uint32_t>(exec_steps.size());
    }
    const uint32_t* const steps = exec_steps.data();
    const uint32_t* const steps_at = exec_first.data();
    // The input of block b from its predecessors' outputs.
    auto block_input = [&](std::size_t b, exec_state& in, bitset& din) {
      if (b == 0) {
        in.reached = true;
        in.full = true;
        din = entry_defs;
      }
      for (uint32_t p : preds[b]) {
        in.meet(ex_out[p]);
        din.merge(def_out[p]);
      }
    };
    // Round-robin over the blocks whose inputs changed (all of them at first).
    vec<uint8_t> dirty(nb, 1);
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::size_t b = 0; b < nb; ++b) {
        if (!dirty[b]) continue;
        dirty[b] = 0;
        exec_state st;
        bitset dd(nf);
        block_input(b, st, dd);
        ex_in[b] = st;  // (copies are one memcpy; the sweep below starts from these)
        def_in[b] = dd;
        dd.merge(gen_def[b]);
        if (st.reached) {
          const instr* const ins = fn.blocks[b].instrs.data();
          for (uint32_t k = steps_at[b]; k < steps_at[b + 1]; ++k) exec_transfer(isa, ins[steps[k]], st);
        }
        bool out_changed = false;
        if (!(dd == def_out[b])) {
          def_out[b] = std::move(dd);
          out_changed = true;
        }
        if (st.reached != ex_out[b].reached || st.full != ex_out[b].full || st.all_lanes != ex_out[b].all_lanes ||
            st.full_copies != ex_out[b].full_copies) {
          ex_out[b] = std::move(st);
          out_changed = true;
        }
        if (out_changed) {
          changed = true;
          for (uint32_t s : fn.blocks[b].succs)
            if (s < nb) dirty[s] = 1;
        }
      }
    }
    // Kill decisions for each instruction's lane-masked defs, from the final inputs; the
    // one-block vregs' defs in `local` (all slots; cleared again after each block).
    const vec<uint8_t> cyclic = compress ? blocks_on_cycles(fn) : vec<uint8_t>(nb, 0);
    bitset local(compress ? nslots : 0);
    for (std::size_t b = 0; b < nb; ++b) {
      // (the inputs of the block's last visit: the final ones, as any change revisits it)
      exec_state st = std::move(ex_in[b]);
      bitset dd = std::move(def_in[b]);
      maybe_in[b] = dd;
      const block& blk = fn.blocks[b];
      const instr* const ins = blk.instrs.data();
      const uint32_t t0 = T.at(b);
      const uint32_t a_first = acc_begin[t0], a_end = acc_begin[t0 + blk.instrs.size()];
      if (compress && cyclic[b])  // (its one-block vregs' defs reach its start around the cycle)
        for (uint32_t k = a_first; k < a_end; ++k)
          if ((accs[k].flags & access::def) && boundary[accs[k].first] == ~0u) local.set_range(accs[k].first, accs[k].n);
      uint32_t next_step = steps_at[b];
      const std::size_t n = blk.instrs.size();
      for (std::size_t i = 0; i < n; ++i) {
        const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
        // (a DPP def whose source lanes always exist but may be off keeps the old value
        // where they are: it needs all 64 lanes on, not just the wave's own)
        bool merges = false;
        for (uint32_t k = a0; k < a1; ++k) merges = merges || (accs[k].flags & access::merge_partial) != 0;
        bool kills = st.reached && (merges ? st.all_lanes || (st.full && fn.full_waves) : st.full);
        if (!kills) {
          bool any_defined = false;
          for (uint32_t k = a0; k < a1; ++k) {
            const access& a = accs[k];
            if (!(a.flags & access::masked)) continue;
            const uint32_t c = boundary[a.first];
            if (c != ~0u ? dd.any_range(c, a.n) : local.any_range(a.first, a.n)) any_defined = true;
          }
          kills = !any_defined;
        }
        def_kills[start[b] + i] = kills ? 1 : 0;
        for (uint32_t k = a0; k < a1; ++k) {
          const access& a = accs[k];
          if (!(a.flags & access::def)) continue;
          const uint32_t c = boundary[a.first];
          if (c != ~0u) dd.set_range(c, a.n);
          else local.set_range(a.first, a.n);
        }
        if (next_step < steps_at[b + 1] && steps[next_step] == i) {
          if (st.reached) exec_transfer(isa, ins[i], st);
          ++next_step;
        }
      }
      if (compress)
        for (uint32_t k = a_first; k < a_end; ++k)
          if ((accs[k].flags & access::def) && boundary[accs[k].first] == ~0u) local.reset_range(accs[k].first, accs[k].n);
    }
    maybe_out = std::move(def_out);
  }

  // The one-block vregs some path enters live become boundary slots too: a dword whose first
  // accessing instruction (in its block) reads it, or defines it without ending the old value.
  if (compress) {
    vec<uint32_t> first_at_(nd, ~0u);
    vec<uint8_t> entered_(nd, 0);
    uint32_t* const first_at = first_at_.data();
    uint8_t* const entered = entered_.data();
    for (std::size_t b = 0; b < nb; ++b) {
      const uint32_t t0 = T.at(b);
      const std::size_t n = fn.blocks[b].instrs.size();
      for (std::size_t i = 0; i < n; ++i) {
        const uint32_t p = start[b] + static_cast<uint32_t>(i);
        for (uint32_t k = acc_begin[t0 + i]; k < acc_begin[t0 + i + 1]; ++k) {
          const access& a = accs[k];
          if (boundary[a.first] != ~0u) continue;
          const bool ends = (a.flags & (access::def | access::use)) == access::def &&
                            (!(a.flags & access::masked) || def_kills[p]);
          for (uint32_t d = a.first, e = d + a.n; d < e; ++d) {
            if (first_at[d] == ~0u) first_at[d] = p;
            if (first_at[d] == p && !ends) entered[d] = 1;
          }
        }
      }
    }
    for (std::size_t v = 0; v < nv; ++v) {
      if (boundary[base[v]] != ~0u) continue;
      bool any = false;
      for (uint32_t d = base[v]; d < base[v + 1]; ++d) any = any || entered[d];
      if (any)
        for (uint32_t d = base[v]; d < base[v + 1]; ++d) {
          boundary[d] = static_cast<uint32_t>(L.boundary_slot.size());
          L.boundary_slot.push_back(d);
        }
    }
  }
  const uint32_t ng = static_cast<uint32_t>(L.boundary_slot.size());

  // The accesses to boundary slots, renumbered (same instruction numbering as the table).
  vec<uint32_t> bbegin_;
  vec<access> bacc_;
  if (compress) {
    bbegin_.reserve(T.begin.size());
    bacc_.reserve(T.acc.size());
    for (std::size_t x = 0; x + 1 < T.begin.size(); ++x) {
      bbegin_.push_back(static_cast<uint32_t>(bacc_.size()));
      for (uint32_t k = acc_begin[x]; k < acc_begin[x + 1]; ++k)
        if (boundary[accs[k].first] != ~0u) {
          access& a = bacc_.emplace_back();
          a = accs[k];
          a.first = boundary[accs[k].first];
        }
    }
    bbegin_.push_back(static_cast<uint32_t>(bacc_.size()));
  }
  const uint32_t* const bbegin = compress ? bbegin_.data() : acc_begin;
  const access* const bacc = compress ? bacc_.data() : accs;

  // Backward: live and wide sets. A block whose transfer does not depend on what is wide
  // (no EXEC write that may enable lanes, no lane-masked def that only the narrow rule can
  // kill: every block under a full EXEC) is summarised once as gen/kill sets; the others run
  // instruction by instruction (live_step) each time a successor's live-in changes.
  L.live_in.assign(nb, bitset(ng));
  L.live_out.assign(nb, bitset(ng));
  L.wide_out.assign(nb, bitset(ng));
  {
    const std::size_t nw = bitset(ng).w.size();
    vec<bitset> gen(nb, bitset(ng)), wgen(nb, bitset(ng)), kill(nb, bitset(ng));
    vec<uint8_t> summarised(nb, 1);
    for (std::size_t b = 0; b < nb; ++b) {
      uint64_t* const g = gen[b].w.data();
      uint64_t* const gw = wgen[b].w.data();
      uint64_t* const k = kill[b].w.data();
      const uint32_t t0 = T.at(b);
      for (std::size_t i = fn.blocks[b].instrs.size(); i-- > 0 && summarised[b];) {
        const bool kills = def_kills[start[b] + i] != 0;
        const uint32_t a0 = bbegin[t0 + i], a1 = bbegin[t0 + i + 1];
        for (uint32_t x = a0; x < a1; ++x) {
          const uint8_t f = bacc[x].flags;
          if (f & access::exec_widens) summarised[b] = 0;
          if ((f & (access::def | access::use)) != access::def) continue;
          const bool kill_all = !(f & access::masked) || kills;
          if (!kill_all && !(f & access::merge_partial)) summarised[b] = 0;  // the narrow rule decides
          for (uint32_t first = bacc[x].first, n = bacc[x].n; n;) {
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
          const uint8_t f = bacc[x].flags;
          if (!(f & access::use)) continue;
          for (uint32_t first = bacc[x].first, n = bacc[x].n; n;) {
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
    vec<bitset> wide_in(nb, bitset(ng));
    vec<uint8_t> pending(nb, 1);
    bool again = true;
    while (again) {
      again = false;
      for (std::size_t b = nb; b-- > 0;) {
        if (!pending[b]) continue;
        pending[b] = 0;
        bitset live(ng), wide(ng);
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
            live_step(lw, ww, nw, bacc + bbegin[t0 + i], bacc + bbegin[t0 + i + 1], def_kills[start[b] + i] != 0);
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

  // A slot is live at a block boundary only where some def may have reached it: a value
  // defined under a condition and read under the same condition (loads in `If(rem > k)`, their
  // use in another `If(rem > k)`) is, to the backward analysis, also read on the path that
  // skipped the def, back to the kernel's entry; on that path its register holds nothing
  // anybody may read, so it is free there (that path made a split's 96 partial registers live
  // through paged_attn_decode's main loop). Slots past nf (one-block vregs,
  // added after the forward pass) are kept as they are.
  {
    const std::size_t nfw = nf / 64;  // words wholly below nf
    const uint64_t tail = nf % 64 ? (uint64_t{1} << (nf % 64)) - 1 : 0;
    for (std::size_t b = 0; b < nb; ++b)
      for (int side = 0; side < 2; ++side) {
        uint64_t* const lw = (side == 0 ? L.live_in[b] : L.live_out[b]).w.data();
        const bitset& md = side == 0 ? maybe_in[b] : maybe_out[b];
        const uint64_t* const mw = md.w.data();
        const std::size_t mn = md.w.size();
        for (std::size_t w = 0; w < nfw; ++w) lw[w] &= w < mn ? mw[w] : 0;
        if (tail) lw[nfw] &= (nfw < mn ? mw[nfw] : 0) | ~tail;
      }
  }

  // Intervals: hull of accesses and live block boundaries, per dword then per vreg.
  vec<uint32_t> ds_(nd, ~0u), de_(nd, 0);
  uint32_t* const ds = ds_.data();  // raw: touch runs for every access
  uint32_t* const de = de_.data();
  auto touch = [&](uint32_t dw, uint32_t p) {
    if (p < ds[dw]) ds[dw] = p;
    if (p > de[dw]) de[dw] = p;
  };
  // Block boundaries: positions grow with the block index (a block's start, its end, the
  // next block's start), so a slot's smallest boundary position is in the first block it is
  // live at (its start when live-in there, else its end) and its largest in the last one:
  // one sweep each way, visiting a slot's bits only in those blocks (a slot live through
  // hundreds of blocks, as a GEMM's accumulators, was touched twice in each).
  {
    const uint32_t* const bslot = L.boundary_slot.data();
    const std::size_t nw = bitset(ng).w.size();
    for (int dir = 0; dir < 2; ++dir) {
      bitset seen_(ng);
      uint64_t* const seen = seen_.w.data();
      for (std::size_t k = 0; k < nb; ++k) {
        const std::size_t b = dir == 0 ? k : nb - 1 - k;
        const uint32_t first = start[b];
        const uint32_t last = start[b + 1] - 1;  // the block-end slot
        const uint64_t* const lin = L.live_in[b].w.data();
        const uint64_t* const lout = L.live_out[b].w.data();
        for (std::size_t w = 0; w < nw; ++w) {
          const uint64_t li = lin[w], lo = lout[w];
          const uint64_t fresh = (li | lo) & ~seen[w];
          if (!fresh) continue;
          seen[w] |= fresh;
          for (uint64_t x = fresh; x; x &= x - 1) {
            const uint32_t j = static_cast<uint32_t>(__builtin_ctzll(x));
            const uint32_t dw = bslot[w * 64 + j];
            if (dw >= nd) continue;
            if (dir == 0) touch(dw, ((li >> j) & 1) ? first : last);
            else touch(dw, ((lo >> j) & 1) ? last : first);
          }
        }
      }
    }
  }
  for (std::size_t b = 0; b < nb; ++b) {
    const uint32_t first = L.pos.start[b];
    const block& blk = fn.blocks[b];
    const uint32_t t0 = T.at(b);
    const std::size_t n = blk.instrs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t p = first + static_cast<uint32_t>(i);
      // Every dword of the range: the allocator frees a tuple's dwords one by one and
      // coalesces copies dword by dword (dword_start, dword_end).
      // (touch written out: a call per dword was a tenth of the liveness of a large block)
      for (uint32_t x = acc_begin[t0 + i]; x < acc_begin[t0 + i + 1]; ++x) {
        const uint32_t f = accs[x].first;
        const uint32_t e = f + accs[x].n < nd ? f + accs[x].n : nd;
        for (uint32_t dw = f; dw < e; ++dw) {
          if (p < ds[dw]) ds[dw] = p;
          if (p > de[dw]) de[dw] = p;
        }
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
        const instr* const ins = fn.blocks[b].instrs.data();
        for (uint32_t k = async_first[b]; k < async_first[b + 1]; ++k)
          st.step(isa, L.dm, ins[async_steps[k]], [](uint32_t) {});
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
      const instr* const ins = fn.blocks[b].instrs.data();
      for (uint32_t k = async_first[b]; k < async_first[b + 1]; ++k) {
        const uint32_t p = first + async_steps[k];
        st.step(isa, L.dm, ins[async_steps[k]], [&](uint32_t dw) {
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
