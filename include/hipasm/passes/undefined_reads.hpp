// Reads of registers that no write reaches on some path: a compile error at the read.
//
// The hardware gives a register that was never written whatever the last wave left there
// (hipasm-sim poisons it), so a kernel that reads one passes a test by luck. Forward
// must-defined analysis on the virtual-register dwords: a dword is defined at a point when
// every path from the kernel's entry to it writes it (entry-state registers are written at
// the entry). A read of a dword that is not is an error naming the register, where it was
// allocated and one path that skips its writes.
//
// Lanes: a VGPR written under a narrowed EXEC holds nothing in the other lanes. The CFG
// keeps those lanes' path: a per-lane If branches over its body when no lane takes it
// (s_cbranch_execz), a per-lane loop leaves at its head, so a value written only in a
// per-lane If and read after its join is flagged through that edge; written in both the
// then- and the else-branch, every path writes it.
//
// Not reads here (the old value is kept, not used): a partial write's old contents (DPP's
// old value, SDWA preserve, op_sel on the destination, v_writelane, d16 loads, the 16-bit
// ops that keep the other half, s_bitset, s_cmovk, movrel): such a write counts as the
// register's first write. An accumulating def_use (v_mac/v_fmac/v_dot*c/v_pk_fmac, smfmac,
// s_addk/s_mulk, v_swap, an atomic's data) does read it.
//
// Runs once, after dce (a read whose result nobody uses is gone then), on the access table
// of the liveness dce computed when there is one. The cost is one fixpoint on per-block
// bit sets and one sweep over the accesses.
#pragma once
#include <string_view>
#include "../vec.hpp"

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

namespace detail {

// Whether the def_use destination (operand 0) of `d` is an input to the result (an
// accumulator, an atomic's data, a swap) rather than the kept part of a partial write.
constexpr bool def_use_reads_old_value(const isa::instr_desc& d) {
  if (d.num_operands == 0 || d.operands[0].role != isa::operand_role::def_use) return false;
  if (d.flags & isa::f_atomic) return true;
  const std::string_view n = d.name;
  return starts_with(n, lit("v_mac_")) || starts_with(n, lit("v_fmac_")) || starts_with(n, lit("v_pk_fmac_")) ||
         (starts_with(n, lit("v_dot")) && contains(n, lit("c_"))) || starts_with(n, lit("v_smfmac")) ||
         starts_with(n, lit("s_addk_")) || starts_with(n, lit("s_mulk_")) || starts_with(n, lit("v_swap"));
}

// Whether access `a` of instruction `in` reads dword `dw` (one of the access's) as a value
// (an error when that is undefined): a plain use does, except a packed-f32 VOP3P source's
// dword that op_sel/op_sel_hi select for neither half (v_pk_add_f32 with op_sel_hi 0 on a
// source reads its low dword twice); a def that also uses does only when its operand is an
// accumulating def_use (see above), not when it merely keeps the old value.
constexpr bool access_reads_value(const isa_view& isa, const dword_map& dm, const instr& in, const access& a,
                                  uint32_t dw) {
  if (!(a.flags & access::use)) return false;
  const isa::instr_desc& d = isa.descs[in.op];
  if (!(a.flags & access::def)) {
    if (d.enc != isa::encoding::vop3p) return true;
    for (int i = 1; i < in.num_operands; ++i) {
      const operand& o = in.ops[i];
      if (o.k != operand::kind::vreg || o.dwords != 2 || dm.base[o.value] + o.offset != a.first) continue;
      const uint8_t sel = in.mods.op_sel() == 0xff ? 0 : in.mods.op_sel();
      const uint8_t sel_hi = static_cast<uint8_t>(static_cast<uint8_t>(in.mods.bytes >> 16) ^ 0xff);
      const bool lo = (sel >> (i - 1)) & 1, hi = (sel_hi >> (i - 1)) & 1;  // the dword each half reads
      return dw == a.first ? (!lo || !hi) : (lo || hi);
    }
    return true;
  }
  if (!def_use_reads_old_value(d)) return false;
  // The access is operand 0's when it covers the same dwords.
  const operand& o = in.ops[0];
  return in.num_operands > 0 && o.k == operand::kind::vreg && dm.base[o.value] + o.offset == a.first;
}

}  // namespace detail

// Checks every read of a virtual register for a write on every path to it. `table`: the
// function's access table over `dm` (null: built here). False with `err` set at the first
// read that no write reaches on some path.
constexpr bool check_undefined_reads(const function& fn_, const isa_view& isa_, pass_error& err,
                                     const detail::access_table* table = nullptr, const detail::dword_map* dm_ = nullptr) {
  const function& fn = fn_;
  const isa_view& isa = isa_;
  using namespace detail;
  const std::size_t nb = fn.blocks.size();
  if (nb == 0) return true;
  dword_map own_dm;
  if (!dm_) own_dm = dword_map(fn);
  const dword_map& dm = dm_ ? *dm_ : own_dm;
  access_table own_table;
  if (!table) own_table = access_table(fn, isa, dm);
  const access_table& T = table ? *table : own_table;
  const uint32_t* const acc_begin = T.begin.data();
  const access* const accs = T.acc.data();
  const uint32_t nd = dm.vreg_dwords;
  const std::size_t nv = fn.vregs.size();
  const vreg_info* const vregs = fn.vregs.data();
  const uint32_t* const base = dm.base.data();

  // Written at the entry: the entry state, and the registers the user marked as read
  // undefined on purpose (gpr::allow_undefined).
  bitset entry(nd);
  for (std::size_t v = 0; v < nv; ++v)
    if (vregs[v].fixed >= 0 || vregs[v].allow_undefined) entry.set_range(base[v], vregs[v].dwords);
  // Per block: the dwords it writes (gen) and those it reads before writing them (ue: only
  // the blocks whose ue the dwords defined at their start do not cover are swept below).
  vec<bitset> gen(nb, bitset(nd)), ue(nb, bitset(nd));
  for (std::size_t b = 0; b < nb; ++b) {
    const uint32_t t0 = T.at(b);
    uint64_t* const g = gen[b].w.data();
    uint64_t* const u = ue[b].w.data();
    const std::size_t n = fn.blocks[b].instrs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      for (int pass = 0; pass < 2; ++pass)  // (an instruction's reads come before its writes)
        for (uint32_t k = a0; k < a1; ++k) {
          const access& a = accs[k];
          if (!(a.flags & (pass == 0 ? access::use : access::def)) || a.first >= nd) continue;
          for (uint32_t first = a.first, c_n = a.n; c_n;) {
            const uint32_t lo = first & 63, c = c_n < 64 - lo ? c_n : 64 - lo;
            const uint64_t m = (c >= 64 ? ~uint64_t{0} : (uint64_t{1} << c) - 1) << lo;
            if (pass == 0) u[first >> 6] |= m & ~g[first >> 6];
            else g[first >> 6] |= m;
            first += c;
            c_n -= c;
          }
        }
    }
  }
  // An Else's head (EXEC = save & ~mask, then s_cbranch_execz over the else-branch): the
  // lanes that skip the else-branch took the then-branch, so its skip edge carries only
  // what the then-branch's end (not the If's skip of the then-branch) brings; otherwise a
  // value written in both branches would be "unwritten" on the path that skips both.
  // `skip_to[b]`: that edge's target, ~0u when b is not an Else's head; `then_out[b]`: what
  // it carries.
  const auto preds = predecessors(fn);
  const int execz_op = isa.find(lit("s_cbranch_execz")), andn2_op = isa.find(lit("s_andn2_b64"));
  const int scc0_op = isa.find(lit("s_cbranch_scc0")), scc1_op = isa.find(lit("s_cbranch_scc1"));
  const int saveexec_op = isa.find(lit("s_and_saveexec_b64")), and_op = isa.find(lit("s_and_b64"));
  vec<uint32_t> skip_to(nb, ~0u);
  for (std::size_t b = 0; b < nb; ++b) {
    const block& blk = fn.blocks[b];
    const std::size_t n = blk.instrs.size();
    if (n < 2 || blk.instrs[n - 1].op != execz_op || blk.instrs[n - 1].ops[0].k != operand::kind::label) continue;
    const instr& x = blk.instrs[n - 2];
    if (x.op == andn2_op && x.num_operands == 3 && is_exec_operand(x.ops[0]) && x.ops[1].k == operand::kind::vreg)
      skip_to[b] = static_cast<uint32_t>(blk.instrs[n - 1].ops[0].value);
  }
  // Whether block p's edge to block s is an If's skip of its then-branch into s (an Else's head).
  auto skips_into = [&](uint32_t p, std::size_t s) {
    const block& pb = fn.blocks[p];
    const std::size_t n = pb.instrs.size();
    return n > 0 && pb.instrs[n - 1].op == execz_op && pb.instrs[n - 1].ops[0].k == operand::kind::label &&
           pb.instrs[n - 1].ops[0].value == s;
  };

  // Conditions tested again: `If(rem > k) { load x }` ... `If(rem > k) { use x }` reads x only
  // where the first If wrote it (in the same lanes, for a per-lane condition), as long as
  // nothing rewrote the comparison's operands in between. A branch's condition is its
  // comparison (s_cmp before s_cbranch_scc0/1; the v_cmp whose mask s_and_saveexec_b64 or
  // EXEC &= takes before s_cbranch_execz; an Else's head: its If's, negated), by opcode and
  // operands (a register written by a move of a constant in the block: that constant).
  // Conditions that two branches test are tracked as facts "where the condition is c, these
  // dwords are defined too", made at the branches, met at joins, dropped where an operand
  // of the comparison is written.
  struct cond_key {
    uint16_t op = 0;
    operand a{}, c{};
  };
  auto same_operand = [](const operand& x, const operand& y) {
    return x.k == y.k && x.value == y.value && x.offset == y.offset && x.dwords == y.dwords && x.sp == y.sp &&
           x.neg == y.neg && x.abs == y.abs;
  };
  auto before = [](const operand& x, const operand& y) {
    return x.k != y.k ? x.k < y.k : x.value != y.value ? x.value < y.value : x.offset < y.offset;
  };
  auto has_id = [](const vec<uint32_t>& v, uint32_t x) {
    for (uint32_t y : v)
      if (y == x) return true;
    return false;
  };
  vec<cond_key> keys;
  vec<uint32_t> br_key(nb, ~0u);    // per block: its branch's condition (an index of keys)
  vec<uint8_t> taken_pol(nb, 0);    // the condition's value on the taken edge (the other edge: negated)
  vec<uint32_t> key_uses;           // per key: branches testing it (an Else's head not counted)
  {
    // The last instruction before `end` in block b writing operand o (same register), or -1.
    auto def_in_block = [&](const block& blk, std::size_t end, const operand& o) -> int {
      for (std::size_t j = end; j-- > 0;) {
        const instr& x = blk.instrs[j];
        if (x.num_operands > 0 && is_def(role_of(isa.descs[x.op], 0)) &&
            (same_operand(x.ops[0], o) || (x.ops[0].k == operand::kind::vreg && o.k == operand::kind::vreg &&
                                            x.ops[0].value == o.value)))
          return static_cast<int>(j);
      }
      return -1;
    };
    // A comparison's source as a key operand: a constant a move put in a register, or itself.
    auto key_operand = [&](const block& blk, std::size_t at, const operand& o) -> operand {
      if (o.k != operand::kind::vreg) return o;
      const int j = def_in_block(blk, at, o);
      if (j < 0) return o;
      const instr& x = blk.instrs[static_cast<std::size_t>(j)];
      const std::string_view nm = isa.descs[x.op].name;
      if (x.num_operands == 2 && x.ops[1].k == operand::kind::imm && same_operand(x.ops[0], o) &&
          (nm == lit("v_mov_b32") || nm == lit("s_mov_b32")))
        return x.ops[1];
      return o;
    };
    // The key of comparison `cmp` (instruction j of blk), or ~0u; no register operand of it
    // may be written after it in the block.
    auto key_of = [&](const block& blk, std::size_t j) -> uint32_t {
      const instr& x = blk.instrs[j];
      if (x.num_operands < 2) return ~0u;
      const int first_src = x.num_operands == 3 ? 1 : 0;  // (v_cmp: the mask first; s_cmp: none)
      if (x.num_operands - first_src != 2) return ~0u;
      cond_key k;
      k.op = x.op;
      k.a = key_operand(blk, j, x.ops[first_src]);
      k.c = key_operand(blk, j, x.ops[first_src + 1]);
      for (const operand* o : {&k.a, &k.c}) {
        if (o->k != operand::kind::vreg && o->k != operand::kind::imm) return ~0u;
        if (o->k == operand::kind::vreg)
          for (std::size_t m = j + 1; m < blk.instrs.size(); ++m)
            if (blk.instrs[m].num_operands > 0 && blk.instrs[m].ops[0].k == operand::kind::vreg &&
                blk.instrs[m].ops[0].value == o->value && is_def(role_of(isa.descs[blk.instrs[m].op], 0)))
              return ~0u;
      }
      // (a < b is b > a: one spelling)
      if (isa.sem && isa.sem[k.op].kind == isa::op_kind::compare && isa.sem[k.op].related != 0xffff) {
        const uint16_t r = isa.sem[k.op].related;
        if (r < k.op || (r == k.op && before(k.c, k.a))) {
          const operand t = k.a;
          k.a = k.c;
          k.c = t;
          k.op = r;
        }
      }
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i].op == k.op && same_operand(keys[i].a, k.a) && same_operand(keys[i].c, k.c))
          return static_cast<uint32_t>(i);
      keys.push_back(k);
      key_uses.push_back(0);
      return static_cast<uint32_t>(keys.size() - 1);
    };
    for (std::size_t b = 0; b < nb; ++b) {
      const block& blk = fn.blocks[b];
      const std::size_t n = blk.instrs.size();
      if (n < 2 || blk.succs.size() != 2 || blk.succs[0] == blk.succs[1]) continue;
      const instr& br = blk.instrs[n - 1];
      if (br.op == scc0_op || br.op == scc1_op) {
        std::size_t j = n - 1;
        while (j-- > 0 && !(isa.descs[blk.instrs[j].op].flags & isa::f_writes_scc)) {}
        if (j >= n || isa.descs[blk.instrs[j].op].enc != isa::encoding::sopc) continue;
        br_key[b] = key_of(blk, j);
        taken_pol[b] = br.op == scc1_op ? 1 : 0;
      } else if (br.op == execz_op) {
        const instr& x = blk.instrs[n - 2];
        if (x.num_operands == 2 && x.op == saveexec_op) {
          const int j = def_in_block(blk, n - 2, x.ops[1]);
          if (j >= 0 && isa.sem && isa.sem[blk.instrs[static_cast<std::size_t>(j)].op].kind == isa::op_kind::compare &&
              (isa.descs[blk.instrs[static_cast<std::size_t>(j)].op].flags & isa::f_valu))
            br_key[b] = key_of(blk, static_cast<std::size_t>(j));
        } else if (x.num_operands == 3 && x.op == and_op && is_exec_operand(x.ops[0]) && is_exec_operand(x.ops[1])) {
          const int j = def_in_block(blk, n - 2, x.ops[2]);
          if (j >= 0 && isa.sem && isa.sem[blk.instrs[static_cast<std::size_t>(j)].op].kind == isa::op_kind::compare &&
              (isa.descs[blk.instrs[static_cast<std::size_t>(j)].op].flags & isa::f_valu))
            br_key[b] = key_of(blk, static_cast<std::size_t>(j));
        } else if (skip_to[b] != ~0u) {
          // an Else's head: its If's condition (the If's block skips into it with the same mask)
          for (uint32_t p : preds[b])
            if (br_key[p] != ~0u && skips_into(p, b) && fn.blocks[p].instrs.size() >= 2) {
              const instr& ifx = fn.blocks[p].instrs[fn.blocks[p].instrs.size() - 2];
              if (ifx.op == saveexec_op && same_operand(ifx.ops[1], x.ops[2])) {
                br_key[b] = br_key[p];
                taken_pol[b] = 1;  // no lane left for the else-branch: all took the then-branch
              }
            }
          continue;
        }
        taken_pol[b] = 0;  // no lane has the condition
      }
      if (br_key[b] != ~0u) ++key_uses[br_key[b]];
    }
  }
  // Tracked: the keys two branches test. Per block, the tracked keys whose operands it writes.
  vec<uint32_t> tracked_id(keys.size(), ~0u);
  uint32_t ntracked = 0;
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (key_uses[k] >= 2) tracked_id[k] = ntracked++;
  vec<vec<uint32_t>> kills(ntracked ? nb : 0);
  if (ntracked)
    for (std::size_t b = 0; b < nb; ++b)
      for (std::size_t k = 0; k < keys.size(); ++k) {
        if (tracked_id[k] == ~0u) continue;
        bool hit = false;
        for (const operand* o : {&keys[k].a, &keys[k].c})
          if (o->k == operand::kind::vreg && gen[b].any_range(base[o->value] + o->offset, o->dwords)) hit = true;
        if (hit) kills[b].push_back(tracked_id[k]);
      }
  // Facts: sorted by kp = 2 * tracked key + the condition's value; `s`: the dwords defined
  // where it holds (a superset of the unconditional set; all of them: the condition cannot
  // hold on this path).
  struct facts {
    vec<uint32_t> kp;
    vec<bitset> s;
    constexpr bool operator==(const facts& o) const { return kp == o.kp && s == o.s; }
  };

  // Forward fixpoint from "everything defined" (the greatest solution; a block no visited
  // predecessor reaches yet is left out): in = the meet of what the edges carry, out = in | gen.
  const std::size_t nw = entry.w.size();
  vec<bitset> in(nb, bitset(nd)), out(nb, bitset(nd)), then_out(nb);
  vec<facts> out_f(ntracked ? nb : 0);
  vec<uint8_t> visited(nb, 0);
  for (std::size_t b = 0; b < nb; ++b) {
    for (std::size_t w = 0; w < nw; ++w) out[b].w.data()[w] = ~uint64_t{0};
    if (skip_to[b] != ~0u) then_out[b] = out[b];
  }
  // What the edge p -> s carries: the defined dwords, and (tracked conditions) the facts.
  auto edge_out = [&](uint32_t p, std::size_t s) -> const bitset& {
    return skip_to[p] == s ? then_out[p] : out[p];
  };
  auto edge_facts = [&](uint32_t p, std::size_t s, bitset& d, facts& f) {
    d = edge_out(p, s);
    if (!ntracked) return;
    f = out_f[p];
    const uint32_t k = br_key[p] == ~0u ? ~0u : tracked_id[br_key[p]];
    if (k == ~0u) return;
    const bool taken = fn.blocks[p].succs[1] == s;
    const uint32_t holds = 2 * k + (taken ? taken_pol[p] : 1u - taken_pol[p]);
    // the condition holds: what it guarantees joins d; its negation cannot hold here
    vec<uint32_t> kp;
    vec<bitset> sets;
    for (std::size_t i = 0; i < f.kp.size(); ++i)
      if (f.kp[i] == holds) d.merge(f.s[i]);
    bitset all(nd);
    for (std::size_t w = 0; w < nw; ++w) all.w.data()[w] = ~uint64_t{0};
    bool placed = false;
    for (std::size_t i = 0; i <= f.kp.size(); ++i) {
      if (!placed && (i == f.kp.size() || f.kp[i] >= 2 * k)) {
        kp.push_back(holds ^ 1u);
        sets.push_back(all);
        placed = true;
      }
      if (i < f.kp.size() && f.kp[i] / 2 != k) {
        kp.push_back(f.kp[i]);
        sets.push_back(f.s[i]);
      }
    }
    f.kp = std::move(kp);
    f.s = std::move(sets);
  };
  {
    vec<uint8_t> dirty(nb, 1);
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::size_t b = 0; b < nb; ++b) {
        if (!dirty[b]) continue;
        dirty[b] = 0;
        uint64_t* const iw = in[b].w.data();
        bool reached = b == 0;
        if (b == 0) {
          for (std::size_t w = 0; w < nw; ++w) iw[w] = entry.w.data()[w];
        } else {
          for (std::size_t w = 0; w < nw; ++w) iw[w] = ~uint64_t{0};
        }
        facts fin;
        bool with_facts = false;  // (a predecessor brings facts or tests a tracked condition)
        if (ntracked)
          for (uint32_t p : preds[b])
            if (visited[p] && (!out_f[p].kp.empty() || (br_key[p] != ~0u && tracked_id[br_key[p]] != ~0u)))
              with_facts = true;
        if (!with_facts) {
          for (uint32_t p : preds[b]) {
            if (!visited[p]) continue;
            reached = true;
            const uint64_t* const pw = edge_out(p, b).w.data();
            for (std::size_t w = 0; w < nw; ++w) iw[w] &= pw[w];
          }
        } else {
          // the meet of the edges' facts: a fact an edge lacks is its unconditional set there
          vec<facts> ef;
          vec<bitset> ed;
          for (uint32_t p : preds[b]) {
            if (!visited[p]) continue;
            reached = true;
            bitset d;
            facts f;
            edge_facts(p, b, d, f);
            for (std::size_t w = 0; w < nw; ++w) iw[w] &= d.w.data()[w];
            ed.push_back(std::move(d));
            ef.push_back(std::move(f));
          }
          if (b == 0 && !ef.empty()) {  // (the entry's own state is one more edge, without facts)
            ed.push_back(entry);
            ef.emplace_back();
          }
          vec<uint32_t> all_kp;
          for (const facts& f : ef)
            for (uint32_t x : f.kp)
              if (!has_id(all_kp, x)) all_kp.push_back(x);
          for (std::size_t i = 1; i < all_kp.size(); ++i)  // (few: insertion sort)
            for (std::size_t j = i; j > 0 && all_kp[j - 1] > all_kp[j]; --j) {
              const uint32_t t = all_kp[j];
              all_kp[j] = all_kp[j - 1];
              all_kp[j - 1] = t;
            }
          for (uint32_t x : all_kp) {
            bitset m(nd);
            for (std::size_t w = 0; w < nw; ++w) m.w.data()[w] = ~uint64_t{0};
            for (std::size_t e = 0; e < ef.size(); ++e) {
              const bitset* src = &ed[e];
              for (std::size_t i = 0; i < ef[e].kp.size(); ++i)
                if (ef[e].kp[i] == x) src = &ef[e].s[i];
              for (std::size_t w = 0; w < nw; ++w) m.w.data()[w] &= src->w.data()[w];
            }
            if (!(m == in[b])) {
              fin.kp.push_back(x);
              fin.s.push_back(std::move(m));
            }
          }
        }
        if (!reached) continue;
        const bool first_visit = !visited[b];
        visited[b] = 1;
        uint64_t* const ow = out[b].w.data();
        const uint64_t* const g = gen[b].w.data();
        bool out_changed = first_visit;
        if (skip_to[b] != ~0u) {
          uint64_t* const tw = then_out[b].w.data();
          bitset t(nd);
          uint64_t* const x = t.w.data();
          for (std::size_t w = 0; w < nw; ++w) x[w] = ~uint64_t{0};
          for (uint32_t p : preds[b])
            if (visited[p] && !skips_into(p, b)) {
              const uint64_t* const pw = edge_out(p, b).w.data();
              for (std::size_t w = 0; w < nw; ++w) x[w] &= pw[w];
            }
          for (std::size_t w = 0; w < nw; ++w) {
            const uint64_t y = x[w] | g[w];
            if (y != tw[w]) {
              tw[w] = y;
              out_changed = true;
            }
          }
        }
        for (std::size_t w = 0; w < nw; ++w) {
          const uint64_t x = iw[w] | g[w];
          if (x != ow[w]) {
            ow[w] = x;
            out_changed = true;
          }
        }
        if (ntracked) {
          facts fo;
          for (std::size_t i = 0; i < fin.kp.size(); ++i) {
            if (has_id(kills[b], fin.kp[i] / 2)) continue;
            fo.kp.push_back(fin.kp[i]);
            fin.s[i].merge(gen[b]);
            fo.s.push_back(std::move(fin.s[i]));
          }
          if (!(fo == out_f[b])) {
            out_f[b] = std::move(fo);
            out_changed = true;
          }
        }
        if (out_changed) {
          changed = true;
          for (uint32_t s : fn.blocks[b].succs)
            if (s < nb) dirty[s] = 1;
        }
      }
    }
  }
  // The defined dwords an edge carries (the path search below).
  auto edge_defined = [&](uint32_t p, std::size_t s, uint32_t dw) {
    if (!ntracked) return edge_out(p, s).test(dw);
    bitset d;
    facts f;
    edge_facts(p, s, d, f);
    return d.test(dw);
  };
  // Each read against the dwords defined before it, in the blocks that read some dword
  // before writing it that may be undefined at their start.
  for (std::size_t b = 0; b < nb; ++b) {
    bool suspect = false;
    for (std::size_t w = 0; w < nw && !suspect; ++w) suspect = (ue[b].w.data()[w] & ~in[b].w.data()[w]) != 0;
    if (!suspect) continue;
    bitset cur = in[b];
    const uint32_t t0 = T.at(b);
    const block& blk = fn.blocks[b];
    const std::size_t n = blk.instrs.size();
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t a0 = acc_begin[t0 + i], a1 = acc_begin[t0 + i + 1];
      for (uint32_t k = a0; k < a1; ++k) {
        const access& a = accs[k];
        if (!(a.flags & access::use) || a.first >= nd || cur.all_range(a.first, a.n)) continue;
        const instr& ins = blk.instrs[i];
        // The first undefined dword the instruction reads, and its register.
        uint32_t dw = a.first;
        while (dw < a.first + a.n && (cur.test(dw) || !access_reads_value(isa, dm, ins, a, dw))) ++dw;
        if (dw == a.first + a.n) continue;
        uint32_t v = 0;
        while (base[v + 1] <= dw) ++v;
        const vreg_info& r = vregs[v];
        // One path on which nothing writes dw: back from b through predecessors whose out
        // lacks it, to the entry (breadth first: a shortest one).
        vec<uint32_t> from(nb, ~0u);
        vec<uint32_t> queue{static_cast<uint32_t>(b)};
        from[b] = static_cast<uint32_t>(b);
        uint32_t reached_entry = b == 0 ? 0u : ~0u;
        for (std::size_t q = 0; q < queue.size() && reached_entry == ~0u; ++q) {
          const uint32_t x = queue[q];
          for (uint32_t p : preds[x])
            if (from[p] == ~0u && visited[p] && !edge_defined(p, x, dw)) {
              from[p] = x;  // (p's successor on the path)
              if (p == 0) reached_entry = 0;
              queue.push_back(p);
            }
        }
        // The blocks from which a write of dw can be reached, and the first write.
        vec<uint8_t> reaches_def(nb, 0);
        src_loc def_at{};
        vec<uint32_t> work;
        for (std::size_t c = 0; c < nb; ++c)
          if (gen[c].test(dw)) {
            reaches_def[c] = 1;
            work.push_back(static_cast<uint32_t>(c));
            if (!def_at.line) {
              const uint32_t c0 = T.at(c);
              for (std::size_t j = 0; j < fn.blocks[c].instrs.size() && !def_at.line; ++j)
                for (uint32_t kk = acc_begin[c0 + j]; kk < acc_begin[c0 + j + 1]; ++kk)
                  if ((accs[kk].flags & access::def) && accs[kk].first <= dw && dw < accs[kk].first + accs[kk].n)
                    def_at = fn.blocks[c].instrs[j].loc;
            }
          }
        while (!work.empty()) {
          const uint32_t x = work.back();
          work.pop_back();
          for (uint32_t p : preds[x])
            if (!reaches_def[p]) {
              reaches_def[p] = 1;
              work.push_back(p);
            }
        }
        // The branch nearest the read that leaves the path towards a write.
        src_loc branch_at{};
        bool per_lane = false;  // that branch skips a per-lane If's or loop's body (s_cbranch_execz)
        if (reached_entry == 0)
          for (uint32_t x = 0; x != b && x != ~0u; x = from[x]) {
            const block& xb = fn.blocks[x];
            for (uint32_t s : xb.succs)
              if (s != from[x] && s < nb && reaches_def[s] && !xb.instrs.empty()) {
                branch_at = xb.instrs[xb.instrs.size() - 1].loc;
                per_lane = xb.instrs[xb.instrs.size() - 1].op == execz_op;
              }
          }
        if (err.begin(ins.loc)) {
          err.add("kernel '").add(fn.name).add("': reads ");
          if (r.dwords > 1 && r.array_dwords == 0) err.add("dword ").add(static_cast<long long>(dw - base[v])).add(" of ");
          err.add_reg(r);
          if (!r.name.empty()) err.add(" (allocated at ").add_loc(r.loc).add(")");
          if (!def_at.line)
            err.add(", which is never written");
          else if (branch_at.line && per_lane)
            err.add(" in lanes that skip its write at ").add_loc(def_at).add(" (the per-lane branch at ")
                .add_loc(branch_at).add(")");
          else if (branch_at.line)
            err.add(" on a path that skips its write at ").add_loc(def_at).add(" (the branch at ")
                .add_loc(branch_at).add(")");
          else if (reaches_def[b])
            err.add(" before its write at ").add_loc(def_at)
                .add(blocks_on_cycles(fn)[b] ? " (on the loop's first iteration)" : "");
          else
            err.add(" on a path that none of its writes (as at ").add_loc(def_at).add(") reaches");
          err.add(": the register holds garbage there on hardware; write it on every path before, "
                  "or mark it .allow_undefined() if the value does not matter");
        }
        return false;
      }
      for (uint32_t k = a0; k < a1; ++k) {
        const access& a = accs[k];
        if ((a.flags & access::def) && a.first < nd) cur.set_range(a.first, a.n);
      }
    }
  }
  return true;
}

}  // namespace hipasm
