// The independent checker of a compiled function, used by the tests on every kernel. It
// shares no code with the allocator or the s_nop pass beyond the rule data itself:
//
// verify_allocation: forward over the CFG, for every virtual-register dword, whether it
//   is defined and whether its physical register was since overwritten by another value
//   (on any path). Reading a value whose register was overwritten is a conflict: two
//   simultaneously live values shared a physical register. A memory result (load,
//   returning atomic) writes its register until an s_waitcnt retires it, read or not:
//   any other write of that physical register meanwhile is a conflict too.
// verify_hazards: for every instruction and every predecessor path (explicit stack,
//   back-edges included), every rule's window is met by the instructions and s_nops
//   really between producer and consumer.
#pragma once
#include "vec.hpp"

#include "passes/common.hpp"
#include "passes/hazards.hpp"

namespace hipasm {

namespace detail {
// A register copy that changes nothing of the value (the mnemonics, not the allocator's table).
constexpr bool is_plain_copy(const isa::instr_desc& d, const instr& in) {
  const std::string_view n = d.name;
  return in.num_operands == 2 && in.mods.none() && !in.ops[1].neg && !in.ops[1].abs &&
         in.ops[0].dwords == in.ops[1].dwords && in.ops[1].k != operand::kind::imm &&
         (n == lit("s_mov_b32") || n == lit("s_mov_b64") || n == lit("v_mov_b32") || n == lit("v_mov_b64") ||
          n == lit("v_accvgpr_mov_b32"));
}
}  // namespace detail

constexpr pass_error verify_allocation(const function& fn_, const isa_view& isa_) {
  const function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  pass_error err;
  const dword_map dm(fn);
  const uint32_t nd = dm.vreg_dwords;
  const std::size_t nb = fn.blocks.size();
  const auto preds = predecessors(fn);
  // Physical slot of each vreg dword (flat numbering of hazards.hpp), and the reverse.
  vec<int32_t> slot(nd, -1);
  vec<vec<uint32_t>> holders(768);
  for (std::size_t v = 0; v < fn.vregs.size(); ++v) {
    const vreg_info& vi = fn.vregs[v];
    if (vi.phys < 0) continue;
    for (uint32_t j = 0; j < vi.dwords; ++j) {
      const int32_t p = class_base(vi.cls) + vi.phys + static_cast<int32_t>(j);
      slot[dm.base[v] + j] = p;
      holders[static_cast<std::size_t>(p)].push_back(dm.base[v] + j);
    }
  }
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && fn.vregs[in.ops[i].value].phys < 0 && !err.failed) {
          err.begin(in.loc);
          err.add("register '").add(fn.vregs[in.ops[i].value].name).add("' has no physical register");
        }
  if (err.failed) return err;
  vec<bitset> def_out(nb, bitset(nd)), clob_out(nb, bitset(nd));
  vec<uint8_t> seen(nb, 0);
  bitset entry(nd);
  for (std::size_t v = 0; v < fn.vregs.size(); ++v)
    if (fn.vregs[v].fixed >= 0) entry.set_range(dm.base[v], fn.vregs[v].dwords);
  // What a def operand writes: its first physical slot (-1 if none) and, for a vreg, its
  // own first dword (~0u for a physically named register).
  struct slots {
    int32_t first = -1;
    uint32_t own = ~0u;
  };
  auto written_slots = [&](const operand& o) {
    slots w;
    if (o.k == operand::kind::vreg) {
      w.own = dm.base[o.value] + o.offset;
      w.first = slot[w.own];
    } else if (o.k == operand::kind::phys) {
      w.first = class_base(o.cls) + static_cast<int32_t>(o.value);
    }
    return w;
  };
  auto dword_name = [&](uint32_t dw) -> const vreg_info& {
    std::size_t v = 0;
    while (v + 1 < fn.vregs.size() && dm.base[v + 1] <= dw) ++v;
    return fn.vregs[v];
  };
  bool changed = true;
  for (int round = 0; changed && round < 1000; ++round) {
    changed = false;
    for (std::size_t b = 0; b < nb; ++b) {
      bitset def = b == 0 ? entry : bitset(nd), clob(nd);
      bool reached = b == 0;
      for (uint32_t p : preds[b])
        if (seen[p]) {
          def.merge(def_out[p]);
          clob.merge(clob_out[p]);
          reached = true;
        }
      if (!reached) continue;
      for (const instr& in : fn.blocks[b].instrs) {
        const isa::instr_desc& d = isa[in.op];
        // Reads first.
        for (int i = 0; i < in.num_operands; ++i) {
          const operand& o = in.ops[i];
          if (o.k != operand::kind::vreg || !is_use(role_of(d, i))) continue;
          for (uint32_t j = 0; j < o.dwords; ++j) {
            const uint32_t dw = dm.base[o.value] + o.offset + j;
            if (def.test(dw) && clob.test(dw) && !err.failed) {
              err.begin(in.loc);
              err.add("allocation conflict: '").add(d.name).add("' reads ");
              const vreg_info& vi = fn.vregs[o.value];
              err.add_reg(vi);
              if (!vi.name.empty()) err.add(" (allocated at ").add_loc(vi.loc).add(")");
              err.add(" after another value overwrote its physical register");
            }
          }
        }
        // Then writes: the written dwords are (re)defined, everything else in the
        // same physical register is overwritten, except by a plain copy into the register
        // it reads (coalesced: the register keeps its content, so what held it still does).
        // (the slots first: the mnemonic compares only for a copy in place)
        const int32_t dst_first = in.num_operands == 2 ? written_slots(in.ops[0]).first : -1;
        const bool same_place = dst_first >= 0 && dst_first == written_slots(in.ops[1]).first && is_plain_copy(d, in);
        for (int i = 0; i < in.num_operands; ++i) {
          const operand& o = in.ops[i];
          if (!is_def(role_of(d, i))) continue;
          const auto [first, own] = written_slots(o);
          if (first < 0) continue;
          for (uint32_t j = 0; j < o.dwords; ++j) {
            const uint32_t p = static_cast<uint32_t>(first) + j;
            if (p >= holders.size()) continue;
            for (uint32_t h : holders[p]) {
              if (same_place || (own != ~0u && h == own + j)) continue;
              if (def.test(h)) clob.set(h);
            }
            if (own != ~0u) {
              def.set(own + j);
              clob.reset(own + j);
            }
          }
        }
      }
      if (!seen[b] || !(def == def_out[b]) || !(clob == clob_out[b])) {
        seen[b] = 1;
        def_out[b] = def;
        clob_out[b] = clob;
        changed = true;
      }
    }
  }
  if (err.failed) return err;
  // A memory result is written when it returns: from issue until an s_waitcnt retires it
  // (async_pending, the counter model of waitcnt_check.hpp), on any path, nothing else may
  // write its physical register (the late write would clobber that value).
  vec<async_pending> pout(nb);
  seen.assign(nb, 0);
  changed = true;
  for (int round = 0; changed && round < 1000 && !err.failed; ++round) {
    changed = false;
    for (std::size_t b = 0; b < nb && !err.failed; ++b) {
      async_pending st;
      bool reached = b == 0;
      for (uint32_t p : preds[b])
        if (seen[p]) {
          st.merge(pout[p]);
          reached = true;
        }
      if (!reached) continue;
      for (const instr& in : fn.blocks[b].instrs) {
        const isa::instr_desc& d = isa[in.op];
        for (int i = 0; i < in.num_operands && !st.pend.empty() && !err.failed; ++i) {
          const operand& o = in.ops[i];
          if (!is_def(role_of(d, i))) continue;
          const auto [first, own] = written_slots(o);
          if (first < 0) continue;
          for (uint32_t j = 0; j < o.dwords && !err.failed; ++j)
            for (const pending_entry& e : st.pend) {
              if (e.key >= nd || slot[e.key] != first + static_cast<int32_t>(j)) continue;
              if (own != ~0u && e.key == own + j) continue;  // the same value: waitcnt_check's business
              const vreg_info& pv = dword_name(e.key);
              err.begin(in.loc);
              err.add("allocation conflict: '").add(d.name).add("' writes the physical register of ").add_reg(pv);
              if (!pv.name.empty()) err.add(" (allocated at ").add_loc(pv.loc).add(")");
              err.add(" while a memory instruction may still return into it");
              break;
            }
        }
        st.step(isa, dm, in, [](uint32_t) {});
      }
      if (!seen[b] || !(st == pout[b])) {
        seen[b] = 1;
        pout[b] = std::move(st);
        changed = true;
      }
    }
  }
  return err;
}

constexpr pass_error verify_hazards(const function& fn_, const isa_view& isa_, const hazard_table& table_) {
  const function& fn = fn_;
  const isa_view& isa = isa_;
  const hazard_table& table = table_;
  using namespace detail;
  pass_error err;
  const auto preds = predecessors(fn);
  vec<vec<hazard_facts>> facts(fn.blocks.size());
  opcode_kind_cache kinds(isa);
  for (std::size_t b = 0; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs) facts[b].push_back(make_hazard_facts(fn, isa, in, kinds));
  const active_rules all(table, ~0u);
  struct frame {
    uint32_t block;
    uint32_t end;  // walk instructions [0, end) backwards
    int dist;
  };
  for (std::size_t b = 0; b < fn.blocks.size(); ++b)
    for (std::size_t i = 0; i < facts[b].size(); ++i) {
      const hazard_facts& C = facts[b][i];
      if (C.is(hk_nop)) continue;
      vec<frame> stack{{static_cast<uint32_t>(b), static_cast<uint32_t>(i), 0}};
      vec<int> best_dist(fn.blocks.size(), 1 << 30);  // smallest distance a block end was entered with
      while (!stack.empty()) {
        frame f = stack.back();
        stack.pop_back();
        int dist = f.dist;
        for (uint32_t k = f.end; k-- > 0 && dist < all.max_wait;) {
          const hazard_facts& P = facts[f.block][k];
          for (std::size_t r = 0; r < all.index.size(); ++r) {
            const int w = hazard_wait(table.rules[all.index[r]], P, C);  // every rule, no masks
            if (P.is(hk_nop) || w <= dist || err.failed) continue;
            const instr& ci = fn.blocks[b].instrs[i];
            const instr& pi = fn.blocks[f.block].instrs[k];
            err.begin(ci.loc);
            err.add("hazard not covered: '").add(isa[pi.op].name).add("' (").add_loc(pi.loc).add(") -> '")
                .add(isa[ci.op].name).add("' needs ").add(static_cast<long long>(w)).add(" wait states, has ")
                .add(static_cast<long long>(dist)).add(" [").add(table.rules[all.index[r]].name).add("]");
          }
          dist += P.wait_states;
        }
        if (dist >= all.max_wait || err.failed) continue;
        for (uint32_t p : preds[f.block]) {
          if (dist >= best_dist[p]) continue;  // already walked with fewer wait states
          best_dist[p] = dist;
          stack.push_back({p, static_cast<uint32_t>(facts[p].size()), dist});
        }
      }
      if (err.failed) return err;
    }
  return err;
}

}  // namespace hipasm
