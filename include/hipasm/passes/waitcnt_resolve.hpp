// Computed waits: the s_waitcnt of `J.wait_for(regs...)` placeholders, of the automatic
// mode (kernel_options::auto_waitcnt: a wait before every read or overwrite of a pending
// memory result) and of the kernel-argument loads when the prologue leaves their wait to
// the pipeline (kernel_options::schedule). Runs after every pass that removes or moves
// memory instructions and before waitcnt-check, which then checks the result like a
// hand-written wait.
//
// Model: waitcnt_check.hpp's (vmcnt in order; LDS in order on lgkmcnt; SMEM out of order:
// only lgkmcnt(0) retires it; FLAT on both). A wait for a set of pending loads is the
// weakest one that retires all of them: vmcnt(min age of those on vm), lgkmcnt(0) if one
// of them is SMEM/FLAT, else lgkmcnt(min age of those on lgkm); expcnt never (no compute
// instruction returns a register through it on gfx942). The state at a join is the union
// of its predecessors' (each age the minimum over paths), so a count computed there is the
// weakest that is sufficient on every path into it, loop back-edges included; the states
// are iterated to a fixpoint with the computed waits applied, then the waits are written.
//
// Where the kernel-argument wait goes: before the first read of an argument, or at the
// end of the kernel's straight-line entry (the chain of blocks from the entry that each
// have one successor and whose successor has one predecessor), before its terminator: an
// argument first read inside a loop or a branch would otherwise wait on every iteration.
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "waitcnt_check.hpp"

namespace hipasm {

namespace detail {

constexpr bool is_wait_placeholder(const instr& in) {
  return in.num_operands > 0 && in.ops[0].k == operand::kind::imm && (in.ops[0].value & wait_placeholder_bit);
}

// What a computed wait must retire (record p of the pending set s).
struct wait_need {
  uint32_t vm = waitcnt_encoding::vm_max, lgkm = waitcnt_encoding::lgkm_max;
  bool any = false;
  constexpr void add(const pending_set& s, const pending_entry& p) {
    any = true;
    if (p.on_vm && s.vm_age(p) < vm) vm = s.vm_age(p);
    if (p.on_lgkm) {
      const uint32_t l = p.out_of_order ? 0u : s.lgkm_age(p);
      if (l < lgkm) lgkm = l;
    }
  }
  constexpr waitcnt_counts counts() const { return {vm, lgkm}; }
  constexpr uint64_t simm16() const {
    return waitcnt_encoding::encode(vm, waitcnt_encoding::exp_max, lgkm);
  }
};

}  // namespace detail

// Resolves the placeholders and inserts the automatic waits. `auto_all`: every memory
// result is waited for automatically; `auto_kernargs`: the loads from the kernarg segment
// pointer are.
// `kernargs_only` (the builder's call at the end of a kernel, so that the passes after it
// see the wait in place): only the kernel-argument wait; placeholders stay for the pipeline.
constexpr bool resolve_waitcnts(function& fn_, const isa_view& isa_, bool auto_all, bool auto_kernargs,
                                pass_error& err_, bool* rewrote = nullptr, bool kernargs_only = false) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  pass_error& err = err_;
  using namespace detail;
  const std::size_t nb = fn.blocks.size();
  // Anything to do? (one cheap sweep: most kernels have neither placeholders nor auto waits)
  bool placeholders = false, any_load = false;
  for (std::size_t b = 0; b < nb; ++b) {
    const instr* const ins = fn.blocks[b].instrs.data();
    const std::size_t ni = fn.blocks[b].instrs.size();
    for (std::size_t i = 0; i < ni; ++i) {
      const isa::instr_desc& d = isa.descs[ins[i].op];
      if (d.flags & isa::f_waitcnt) placeholders = placeholders || (!kernargs_only && is_wait_placeholder(ins[i]));
      else if (async_counts_vm(d) || async_counts_lgkm(d)) any_load = true;
    }
  }
  if (!placeholders && !(any_load && (auto_all || auto_kernargs))) return true;

  const dword_map dm(fn);
  const auto preds = predecessors(fn);
  // The kernarg segment pointer: the entry register s[0:1].
  int64_t kernarg_vreg = -1;
  for (std::size_t v = 0; v < fn.vregs.size(); ++v)
    if (fn.vregs[v].cls == reg_class::sgpr && fn.vregs[v].fixed == 0 && fn.vregs[v].dwords == 2)
      kernarg_vreg = static_cast<int64_t>(v);
  // The end of the straight-line entry: kernel-argument waits still pending there are
  // forced before its terminator.
  std::size_t entry_end = 0;
  vec<uint8_t> on_entry(nb, 0);  // the blocks from the first to entry_end
  {
    vec<uint8_t> seen(nb, 0);
    while (fn.blocks[entry_end].succs.size() == 1) {
      seen[entry_end] = 1;
      const uint32_t s = fn.blocks[entry_end].succs[0];
      if (s >= nb || seen[s] || preds[s].size() != 1) break;
      entry_end = s;
    }
    for (std::size_t b = 0; b < nb; ++b) on_entry[b] = seen[b];
    on_entry[entry_end] = 1;
  }
  // Only the kernel arguments wait automatically: their loads never leave the straight-line
  // entry (the wait is forced at its end), so one sweep along it is the whole analysis (and
  // only its blocks' loads are looked at: the builder's call at the end of every kernel).
  const bool entry_only = !placeholders && !auto_all && preds[0].empty();
  vec<load_info> loads;
  vec<uint8_t> load_auto, load_kernarg;
  vec<vec<int32_t>> load_of(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    if (entry_only && !on_entry[b]) continue;
    const instr* const ins = fn.blocks[b].instrs.data();
    const std::size_t ni = fn.blocks[b].instrs.size();
    load_of[b].assign(ni, -1);
    for (std::size_t i = 0; i < ni; ++i) {
      const instr& in = ins[i];
      const isa::instr_desc& d = isa.descs[in.op];
      if (!async_counts_vm(d) && !async_counts_lgkm(d)) continue;  // (no load_info built for the rest)
      const load_info li = memory_result_of(in, d, dm);
      if (li.ndefs == 0) continue;
      const bool karg = d.enc == isa::encoding::smem && in.num_operands > 1 && in.ops[1].k == operand::kind::vreg &&
                        static_cast<int64_t>(in.ops[1].value) == kernarg_vreg;
      load_of[b][i] = static_cast<int32_t>(loads.size());
      loads.push_back(li);
      load_auto.push_back(auto_all || (auto_kernargs && karg) ? 1 : 0);
      load_kernarg.push_back(auto_kernargs && karg ? 1 : 0);
    }
  }

  // One sweep over a block from state `st`; with `write`, the block's new instruction list
  // (placeholders resolved, automatic waits inserted) goes to `out`.
  struct sweeper {
    function* fn;
    const isa_view* isa;
    const dword_map* dm;
    const vec<load_info>* loads;
    const vec<uint8_t>* load_auto;
    const vec<uint8_t>* load_kernarg;
    std::size_t entry_end;
    bool kernargs_only;
    bool any_auto;  // some loads are waited for automatically (auto_all or auto_kernargs)
    constexpr instr wait_instr(const wait_need& w, const src_loc& l, std::string_view why, uint16_t op) const {
      instr x{};
      x.op = op;
      x.num_operands = 1;
      x.ops[0].k = operand::kind::imm;
      x.ops[0].value = w.simm16();
      x.loc = l;
      x.comment = why;
      return x;
    }
    constexpr bool overlaps(const pending_entry& p, uint32_t f, uint32_t n) const {
      const load_info& li = (*loads)[p.key];
      for (int k = 0; k < li.ndefs; ++k)
        if (f < li.first[k] + li.n[k] && li.first[k] < f + n) return true;
      return false;
    }
    // Returns how many waits it computed (placeholders included).
    constexpr int run(std::size_t b, pending_set& st_, vec<instr>* out) const {
      pending_set& st = st_;  // (a local alias: the lambda below must not capture a parameter)
      int made = 0;
      const isa_view& is = *isa;
      const block& blk = fn->blocks[b];
      const instr* const ins = blk.instrs.data();
      const std::size_t ni = blk.instrs.size();
      const uint32_t* const base = dm->base.data();
      const uint8_t* const autos = load_auto->data();
      const uint8_t* const kargs = load_kernarg->data();
      // Pending loads waited for automatically (the kernel arguments among them): while there
      // are none, no instruction needs an automatic wait and its accesses are not looked at.
      uint32_t auto_pending = 0;
      if (any_auto)
        for (const pending_entry& p : st.pend)
          if (autos[p.key]) ++auto_pending;
      auto retire = [&](const waitcnt_counts& wc) {
        st.retire(wc, [&](uint32_t id) {
          if (autos[id]) --auto_pending;
        });
      };
      for (std::size_t i = 0; i < ni; ++i) {
        const instr& in = ins[i];
        const isa::instr_desc& d = is.descs[in.op];
        const bool waitcnt = (d.flags & isa::f_waitcnt) != 0;
        // Kernel-argument loads still pending at the end of the entry: wait before its
        // terminator (or after its last instruction, below).
        if (b == entry_end && !st.empty() && i + 1 == ni && (d.flags & (isa::f_branch | isa::f_terminator))) {
          wait_need w;
          for (const pending_entry& p : st.pend)
            if (kargs[p.key]) w.add(st, p);
          if (w.any) {
            retire(w.counts());
            if (out) out->push_back(wait_instr(w, in.loc, lit("wait: kernel arguments"), wait_op));
            ++made;
          }
        }
        if (waitcnt && !kernargs_only && is_wait_placeholder(in)) {
          ++made;
          wait_need w;
          for (int k = 1; k < in.num_operands; ++k) {
            const operand& o = in.ops[k];
            if (o.k != operand::kind::vreg) continue;
            const uint32_t f = base[o.value] + o.offset;
            for (const pending_entry& p : st.pend)
              if (overlaps(p, f, o.dwords)) w.add(st, p);
          }
          if (w.any) {
            retire(w.counts());
            if (out) merge_or_push(*out, wait_instr(w, in.loc, lit("wait_for"), in.op));
          }
          continue;
        }
        if (auto_pending > 0 && !waitcnt) {
          // Automatic waits: reads and overwrites of pending auto results (a load overwriting
          // one needs none only when both return in order on one counter: waitcnt-check's rule).
          // The kernel arguments' SMEM loads are also waited for before the first other
          // lgkmcnt instruction: after it, their lgkmcnt(0) would wait for that one too.
          wait_need w;
          const bool mem = async_counts_vm(d) || async_counts_lgkm(d);
          if (async_counts_lgkm(d)) {
            const int32_t id = (*load_of)[b][i];
            if (id < 0 || !kargs[id])
              for (const pending_entry& p : st.pend)
                if (kargs[p.key]) w.add(st, p);
          }
          for_each_access(is, *dm, in, [&](bool def, bool use, uint32_t f, uint32_t n, int idx) {
            if (idx < 0) return;
            const bool mem_def = def && !use && mem;
            for (const pending_entry& p : st.pend)
              if (autos[p.key] && overlaps(p, f, n) && !(mem_def && overwrite_returns_in_order(d, p))) w.add(st, p);
          });
          if (w.any) {
            retire(w.counts());
            if (out) merge_or_push(*out, wait_instr(w, in.loc, lit("wait: automatic"), wait_op));
            ++made;
          }
        }
        if (out) out->push_back(in);
        if (waitcnt) {
          retire(decode_waitcnt(in));
          continue;
        }
        const bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
        if (!vm && !lgkm) continue;
        const bool in_order_lgkm = lgkm && !vm && d.enc == isa::encoding::ds;
        st.issue(vm, in_order_lgkm);
        const int32_t id = (*load_of)[b][i];
        if (id >= 0 && st.put(static_cast<uint32_t>(id), vm, lgkm, lgkm && !in_order_lgkm) && autos[id]) ++auto_pending;
      }
      // A straight-line entry that falls through: the argument wait at its very end.
      if (b == entry_end && !st.empty() &&
          (ni == 0 || !(is.descs[ins[ni - 1].op].flags & (isa::f_branch | isa::f_terminator)))) {
        wait_need w;
        for (const pending_entry& p : st.pend)
          if (kargs[p.key]) w.add(st, p);
        if (w.any) {
          retire(w.counts());
          if (out) out->push_back(wait_instr(w, ni ? ins[ni - 1].loc : src_loc{}, lit("wait: kernel arguments"), wait_op));
          ++made;
        }
      }
      return made;
    }
    // Two computed waits in a row become one (the stronger of each count).
    static constexpr void merge_or_push(vec<instr>& out, const instr& w) {
      if (!out.empty()) {
        instr& last = out.back();
        if (last.op == w.op && !last.comment.empty() && last.num_operands == 1 && last.ops[0].k == operand::kind::imm &&
            !(last.ops[0].value & wait_placeholder_bit) && last.loc.line == w.loc.line &&
            (last.comment == w.comment)) {
          const waitcnt_counts a = decode_waitcnt(last), c = decode_waitcnt(w);
          wait_need m;
          m.vm = a.vm < c.vm ? a.vm : c.vm;
          m.lgkm = a.lgkm < c.lgkm ? a.lgkm : c.lgkm;
          last.ops[0].value = m.simm16();
          return;
        }
      }
      out.push_back(w);
    }
    const vec<vec<int32_t>>* load_of;
    uint16_t wait_op;
  };
  const int wop = isa.find("s_waitcnt");
  if (wop < 0) return true;
  sweeper sw{&fn, &isa, &dm, &loads, &load_auto, &load_kernarg, entry_end, kernargs_only, auto_all || auto_kernargs};
  sw.load_of = &load_of;
  sw.wait_op = static_cast<uint16_t>(wop);

  // Rewrites block b from state st when it gets a computed wait.
  auto rewrite = [&](std::size_t b, pending_set& st) {
    pending_set probe = st;
    if (sw.run(b, probe, nullptr) == 0) {
      st = std::move(probe);
      return;
    }
    vec<instr> out;
    out.reserve(fn.blocks[b].instrs.size() + 4);
    sw.run(b, st, &out);
    fn.blocks[b].instrs = std::move(out);
    if (rewrote) *rewrote = true;
  };
  if (entry_only) {
    pending_set st;
    for (std::size_t b = 0;; b = fn.blocks[b].succs[0]) {
      rewrite(b, st);
      if (b == entry_end) break;
    }
    return true;
  }
  // (only blocks whose predecessors' states changed are swept again: out states only grow)
  vec<pending_set> out_state(nb);
  vec<uint8_t> visited(nb, 0), dirty(nb, 1);
  bool changed = true;
  for (int round = 0; round < 64 && changed; ++round) {
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      if (!dirty[b]) continue;
      dirty[b] = 0;
      pending_set st;
      for (uint32_t p : preds[b])
        if (visited[p]) st.merge(out_state[p]);
      sw.run(b, st, nullptr);
      bool grew = !visited[b];
      if (!visited[b]) {
        out_state[b] = std::move(st);
        visited[b] = 1;
      } else {
        grew = out_state[b].merge(st);
      }
      if (grew) {
        changed = true;
        for (uint32_t s : fn.blocks[b].succs)
          if (s < nb) dirty[s] = 1;
      }
    }
  }
  if (changed) {
    err.begin(src_loc{});
    err.add("kernel '").add(fn.name).add("': the computed waits (wait_for, automatic waits) did not converge");
    return false;
  }
  for (std::size_t b = 0; b < nb; ++b) {
    pending_set st;
    for (uint32_t p : preds[b])
      if (visited[p]) st.merge(out_state[p]);
    rewrite(b, st);
  }
  return true;
}

}  // namespace hipasm
