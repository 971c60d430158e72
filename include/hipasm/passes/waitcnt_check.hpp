// Checks the user's explicit s_waitcnt (hipasm inserts none): reading, or overwriting, a
// register that a memory load (or returning atomic) may still be writing is an error that
// names the reading line and the load's line.
//
// Model (gfx9, ../shared/reference/gfx942.md): vmcnt counts every VMEM/global/scratch/flat
// operation, stores included, and they return in order; lgkmcnt counts LDS (in order
// among themselves), SMEM (out of order: only lgkmcnt(0) guarantees one) and FLAT (which
// needs vmcnt and lgkmcnt). A pending load retires at `s_waitcnt vmcnt(N)` once N younger
// vm operations were issued after it; an LDS load at lgkmcnt(N) once N younger LDS
// operations were. At CFG joins the state is the union, each age the minimum over paths.
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

namespace detail {

struct load_info {
  const instr* in = nullptr;
  uint32_t first[4]{}, n[4]{};
  int ndefs = 0;
};

// A memory instruction (counted on vmcnt or lgkmcnt) and the register dwords it writes;
// ndefs == 0 when it is not one or writes none. Shared by the check and waitcnt_resolve.
constexpr load_info memory_result_of(const instr& in, const isa::instr_desc& d, const dword_map& dm) {
  load_info li{&in};
  if (!async_counts_vm(d) && !async_counts_lgkm(d)) return li;
  // A MUBUF atomic writes its data register only with glc (sc0 on gfx940+): the table's single
  // form marks the data def_use for the returning case; without it nothing returns, and the
  // data VGPRs may be overwritten right after issue (../shared/reference/gfx942.md)
  if ((d.flags & isa::f_atomic) != 0 && d.enc == isa::encoding::mubuf && (in.mods.flags & packed_modifiers::glc_or_sc0) == 0)
    return li;
  for (int k = 0; k < in.num_operands; ++k)
    if (in.ops[k].k == operand::kind::vreg && is_def(role_of(d, k)) && li.ndefs < 4) {
      li.first[li.ndefs] = dm.base[in.ops[k].value] + in.ops[k].offset;
      li.n[li.ndefs++] = in.ops[k].dwords;
    }
  return li;
}

}  // namespace detail

constexpr bool check_waitcnts(const function& fn_, const isa_view& isa_, pass_error& err_) {
  const function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  pass_error& err = err_;
  using namespace detail;
  const dword_map dm(fn);
  const std::size_t nb = fn.blocks.size();
  const auto preds = predecessors(fn);
  // Memory instructions that write registers.
  vec<load_info> loads;
  vec<vec<int32_t>> load_of(nb);  // per block instruction: load index or -1
  for (std::size_t b = 0; b < nb; ++b) {
    const vec<instr>& blk_instrs = fn.blocks[b].instrs;
    const instr* const ins = blk_instrs.data();  // (raw: vec::operator[] is an interpreted call)
    const std::size_t ni = blk_instrs.size();
    load_of[b].assign(ni, -1);
    for (std::size_t i = 0; i < ni; ++i) {
      const isa::instr_desc& d = isa.descs[ins[i].op];
      if (!async_counts_vm(d) && !async_counts_lgkm(d)) continue;  // (no load_info built for the rest)
      const load_info li = memory_result_of(ins[i], d, dm);
      if (li.ndefs == 0) continue;
      load_of[b][i] = static_cast<int32_t>(loads.size());
      loads.push_back(li);
    }
  }
  if (loads.empty()) return true;

  // (pending records keyed by load index). In the reporting round `cover` counts, per
  // register dword, the pending loads that write it: an access no pending load writes (nearly
  // all of them) skips the comparison with each pending load.
  vec<pending_set> out_state(nb);
  vec<uint8_t> visited(nb, 0);
  vec<uint16_t> cover_(dm.vreg_dwords, 0);
  uint16_t* const cover = cover_.data();  // (raw: vec::operator[] is an interpreted call)
  const load_info* const load_list = loads.data();
  auto add_cover = [&](uint32_t id, int delta) {
    const load_info& li = load_list[id];
    for (int k = 0; k < li.ndefs; ++k)
      for (uint32_t j = 0; j < li.n[k]; ++j) cover[li.first[k] + j] = static_cast<uint16_t>(cover[li.first[k] + j] + delta);
  };
  // Before the reporting round only blocks whose predecessors' states changed are swept
  // again (out states only grow: the others would give the same state).
  vec<uint8_t> dirty(nb, 1);
  bool changed = true;
  bool report = false;  // the last round reports; earlier rounds reach the fixpoint
  for (int round = 0; round < 64 && (changed || !report); ++round) {
    if (!changed) report = true;
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      if (!report && !dirty[b]) continue;
      dirty[b] = 0;
      pending_set st;
      for (uint32_t p : preds[b])
        if (visited[p]) st.merge(out_state[p]);
      if (report)
        for (const pending_entry& p : st.pend) add_cover(p.key, 1);
      const block& blk = fn.blocks[b];
      const instr* const ins = blk.instrs.data();
      const std::size_t ni = blk.instrs.size();
      const int32_t* const block_load_of = load_of[b].data();
      for (std::size_t i = 0; i < ni; ++i) {
        const instr& in = ins[i];
        const isa::instr_desc& d = isa.descs[in.op];
        // Reads and non-memory writes of a pending result.
        if (report && !st.empty()) {
          for_each_access(isa, dm, in, [&](bool def, bool use, uint32_t f, uint32_t n, int idx) {
            if (err.failed || idx < 0 || f >= dm.vreg_dwords) return;
            bool covered = false;
            for (uint32_t j = 0; j < n && !covered; ++j) covered = cover[f + j] != 0;
            if (!covered) return;
            const bool mem_def = def && !use && (async_counts_vm(d) || async_counts_lgkm(d));
            for (const pending_entry& p : st.pend) {
              if (mem_def && overwrite_returns_in_order(d, p)) continue;
              const load_info& li = load_list[p.key];
              for (int k = 0; k < li.ndefs; ++k)
                if (f < li.first[k] + li.n[k] && li.first[k] < f + n) {
                  const operand& o = in.ops[idx];
                  const vreg_info& vi = fn.vregs[o.value < fn.vregs.size() ? o.value : 0];
                  if (!err.begin(in.loc)) return;
                  err.add("'").add(d.name).add(use ? "' reads " : "' overwrites ");
                  err.add_reg(vi).add(" loaded by '").add(isa[li.in->op].name).add("' at ").add_loc(li.in->loc)
                      .add(" before an s_waitcnt guarantees it has returned (needs ");
                  if (p.on_vm) err.add("vmcnt(").add(static_cast<long long>(st.vm_age(p))).add(")");
                  if (p.on_vm && p.on_lgkm) err.add(" and ");
                  if (p.on_lgkm) {
                    if (p.out_of_order)
                      err.add("lgkmcnt(0)");
                    else
                      err.add("lgkmcnt(").add(static_cast<long long>(st.lgkm_age(p))).add(")");
                  }
                  err.add(")");
                  return;
                }
            }
          });
          if (err.failed) return false;
        }
        if (has(d.flags, isa::f_waitcnt)) {  // (s_waitcnt: the flag marks it alone)
          if (report)
            st.retire(decode_waitcnt(in), [&](uint32_t id) { add_cover(id, -1); });
          else
            st.retire(decode_waitcnt(in));
          continue;
        }
        const bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
        const bool in_order_lgkm = lgkm && !vm && d.enc == isa::encoding::ds;
        if (vm || lgkm) st.issue(vm, in_order_lgkm);
        const int32_t id = block_load_of[i];
        if (id >= 0 && st.put(static_cast<uint32_t>(id), vm, lgkm, lgkm && !in_order_lgkm) && report)
          add_cover(static_cast<uint32_t>(id), 1);
      }
      if (report)
        for (const pending_entry& p : st.pend) add_cover(p.key, -1);
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
  return true;
}

}  // namespace hipasm
