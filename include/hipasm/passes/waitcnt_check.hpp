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

struct pending_load {
  uint32_t id = 0;        // index into the load list
  uint8_t vm_age = 0;     // younger vm operations issued since
  uint8_t lgkm_age = 0;   // younger in-order lgkm (LDS) operations issued since
  bool on_vm = false, on_lgkm = false, out_of_order = false;
};

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
  for (int k = 0; k < in.num_operands; ++k)
    if (in.ops[k].k == operand::kind::vreg && is_def(role_of(d, k)) && li.ndefs < 4) {
      li.first[li.ndefs] = dm.base[in.ops[k].value] + in.ops[k].offset;
      li.n[li.ndefs++] = in.ops[k].dwords;
    }
  return li;
}

constexpr bool merge_pending(vec<pending_load>& into, const vec<pending_load>& from) {
  bool changed = false;
  for (const pending_load& p : from) {
    bool found = false;
    for (pending_load& q : into)
      if (q.id == p.id) {
        found = true;
        if (p.vm_age < q.vm_age) q.vm_age = p.vm_age, changed = true;
        if (p.lgkm_age < q.lgkm_age) q.lgkm_age = p.lgkm_age, changed = true;
        if (p.on_vm && !q.on_vm) q.on_vm = true, changed = true;
        if (p.on_lgkm && !q.on_lgkm) q.on_lgkm = true, changed = true;
      }
    if (!found) {
      into.push_back(p);
      changed = true;
    }
  }
  return changed;
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
      const load_info li = memory_result_of(ins[i], isa.descs[ins[i].op], dm);
      if (li.ndefs == 0) continue;
      load_of[b][i] = static_cast<int32_t>(loads.size());
      loads.push_back(li);
    }
  }
  if (loads.empty()) return true;

  vec<vec<pending_load>> out_state(nb);
  vec<uint8_t> visited(nb, 0);
  bool changed = true;
  bool report = false;  // the last round reports; earlier rounds reach the fixpoint
  for (int round = 0; round < 64 && (changed || !report); ++round) {
    if (!changed) report = true;
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      vec<pending_load> st;
      for (uint32_t p : preds[b])
        if (visited[p]) merge_pending(st, out_state[p]);
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
            if (err.failed || idx < 0) return;
            const bool mem_def = def && !use && (async_counts_vm(d) || async_counts_lgkm(d));
            for (const pending_load& p : st) {
              if (mem_def && overwrite_returns_in_order(d, p)) continue;
              const load_info& li = loads[p.id];
              for (int k = 0; k < li.ndefs; ++k)
                if (f < li.first[k] + li.n[k] && li.first[k] < f + n) {
                  const operand& o = in.ops[idx];
                  const vreg_info& vi = fn.vregs[o.value < fn.vregs.size() ? o.value : 0];
                  if (!err.begin(in.loc)) return;
                  err.add("'").add(d.name).add(use ? "' reads " : "' overwrites ");
                  err.add_reg(vi).add(" loaded by '").add(isa[li.in->op].name).add("' at ").add_loc(li.in->loc)
                      .add(" before an s_waitcnt guarantees it has returned (needs ");
                  if (p.on_vm) err.add("vmcnt(").add(static_cast<long long>(p.vm_age)).add(")");
                  if (p.on_vm && p.on_lgkm) err.add(" and ");
                  if (p.on_lgkm) {
                    if (p.out_of_order)
                      err.add("lgkmcnt(0)");
                    else
                      err.add("lgkmcnt(").add(static_cast<long long>(p.lgkm_age)).add(")");
                  }
                  err.add(")");
                  return;
                }
            }
          });
          if (err.failed) return false;
        }
        if (has(d.flags, isa::f_waitcnt)) {  // (s_waitcnt: the flag marks it alone)
          const waitcnt_counts wc = decode_waitcnt(in);
          for (std::size_t k = 0; k < st.size();) {
            if (wc.retires(st[k]))
              st.erase(st.begin() + static_cast<std::ptrdiff_t>(k));
            else
              ++k;
          }
          continue;
        }
        const bool vm = async_counts_vm(d), lgkm = async_counts_lgkm(d);
        const bool in_order_lgkm = lgkm && !vm && d.enc == isa::encoding::ds;
        if (vm || lgkm)
          for (pending_load& p : st) {
            if (vm && p.vm_age < 255) ++p.vm_age;
            if (in_order_lgkm && p.lgkm_age < 255) ++p.lgkm_age;
          }
        const int32_t id = block_load_of[i];
        if (id >= 0) {
          pending_load p{static_cast<uint32_t>(id)};
          p.on_vm = vm;
          p.on_lgkm = lgkm;
          p.out_of_order = lgkm && !in_order_lgkm;
          bool found = false;
          for (pending_load& q : st)
            if (q.id == p.id) q = p, found = true;
          if (!found) st.push_back(p);
        }
      }
      if (!visited[b] || merge_pending(out_state[b], st)) {
        if (!visited[b]) out_state[b] = st;
        visited[b] = 1;
        changed = true;
      }
    }
  }
  return true;
}

}  // namespace hipasm
