// Per-lane comparisons into VCC (the VOPC e32 form) where VCC is free.
//
// The expression lowering writes a comparison's lane mask into a new SGPR pair (VOP3 form,
// `v_cmp_lt_u32 s[4:5], v1, v2`), which on gfx942 cannot take a literal: the literal goes
// through a v_mov first. The e32 form writes VCC and takes a literal or SGPR in src0 (its
// src1 is a VGPR). A comparison whose mask is read only in its own block, after it, with no
// other VCC access in between, and where VCC's old value is dead (the next access after the
// last read of the mask, in the block or through the successors by a one-bit backward
// liveness, is a full write or there is none) writes VCC instead; its operands are swapped
// with the reversed predicate when src1 is not a VGPR, and a literal moved into a VGPR only
// for it goes into src0 (the v_mov is dropped). Runs on virtual registers (before dce and
// allocation); the hazard pass sees VCC as the SGPR pair it is (VALU writes VCC ->
// v_div_fmas, v_readlane lane select, VCCZ).
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {
namespace detail {

// The comparison with its operands swapped (a < b is b > a), from the target's data
// (isa/semantics.hpp); -1 for anything else.
constexpr int swapped_compare(const isa_view& isa, uint16_t op) {
  if (!isa.sem || isa.sem[op].kind != isa::op_kind::compare) return -1;
  return isa.sem[op].related;
}

// How an instruction touches VCC: bit 0 reads it, bit 1 writes all of it, bit 2 writes a half.
constexpr uint32_t vcc_access(const isa_view& isa, const instr& in) {
  const isa::instr_desc& d = isa.descs[in.op];
  uint32_t r = 0;
  if (d.flags & isa::f_reads_vcc) r |= 1;
  if (d.flags & isa::f_writes_vcc) r |= 2;
  for (int i = 0; i < in.num_operands; ++i) {
    const operand& o = in.ops[i];
    if (o.k != operand::kind::special) continue;
    const special_reg s = o.sp;
    if (s == special_reg::vccz) {
      r |= 1;
      continue;
    }
    if (s != special_reg::vcc && s != special_reg::vcc_lo && s != special_reg::vcc_hi) continue;
    const isa::operand_role role = role_of(d, i);
    if (is_use(role)) r |= 1;
    if (is_def(role)) r |= s == special_reg::vcc ? 2 : 4;
  }
  return r;
}

}  // namespace detail

// Returns how many comparisons now write VCC.
constexpr uint32_t compares_into_vcc(function& fn_, const isa_view& isa) {
  function& fn = fn_;  // local alias: see compute_liveness
  using namespace detail;
  const std::size_t nv = fn.vregs.size();
  const std::size_t nb = fn.blocks.size();
  const vreg_info* const vregs = fn.vregs.data();
  bool any = false;
  for (std::size_t b = 0; b < nb && !any; ++b) {
    const instr* const ins = fn.blocks[b].instrs.data();
    for (std::size_t i = 0, n = fn.blocks[b].instrs.size(); i < n && !any; ++i)
      any = swapped_compare(isa, ins[i].op) >= 0 && ins[i].ops[0].k == operand::kind::vreg;
  }
  if (!any) return 0;
  // Accesses per vreg, and VCC's liveness per block (gen: read before any full write).
  vec<uint32_t> count_(nv, 0);
  uint32_t* const count = count_.data();
  vec<uint8_t> gen(nb, 0), kill(nb, 0), live_in(nb, 0), live_out(nb, 0);
  for (std::size_t b = 0; b < nb; ++b) {
    const instr* const ins = fn.blocks[b].instrs.data();
    bool written = false;
    for (std::size_t i = 0, n = fn.blocks[b].instrs.size(); i < n; ++i) {
      const instr& in = ins[i];
      for (int k = 0; k < in.num_operands; ++k)
        if (in.ops[k].k == operand::kind::vreg) ++count[in.ops[k].value];
      const uint32_t a = vcc_access(isa, in);
      if (!written && (a & 5)) gen.data()[b] = 1;
      if (a & 2) written = true;
    }
    kill.data()[b] = written ? 1 : 0;
  }
  for (bool again = true; again;) {
    again = false;
    for (std::size_t b = nb; b-- > 0;) {
      uint8_t out = 0;
      for (uint32_t s : fn.blocks[b].succs)
        if (s < nb && live_in.data()[s]) out = 1;
      const uint8_t in = gen.data()[b] | (out & !kill.data()[b]);
      live_out.data()[b] = out;
      if (in != live_in.data()[b]) {
        live_in.data()[b] = in;
        again = true;
      }
    }
  }

  uint32_t converted = 0;
  vec<uint8_t> keep;
  for (std::size_t b = 0; b < nb; ++b) {
    vec<instr>& list = fn.blocks[b].instrs;
    const std::size_t n = list.size();
    bool dropped = false;
    for (std::size_t i = 0; i < n; ++i) {
      instr* const ins = list.data();
      instr& cmp = ins[i];
      const int rev = swapped_compare(isa, cmp.op);
      if (rev < 0 || cmp.num_operands != 3 || !cmp.mods.none()) continue;
      const operand& dst = cmp.ops[0];
      if (dst.k != operand::kind::vreg || dst.offset != 0 || dst.dwords != 2) continue;
      const uint32_t m = static_cast<uint32_t>(dst.value);
      if (vregs[m].dwords != 2 || vregs[m].fixed >= 0 || vregs[m].pinned >= 0) continue;
      // Every other access of m: a read of all of it later in this block, with no VCC access
      // in between (the reads themselves included).
      uint32_t seen = 1;
      std::size_t last = i;
      bool ok = true;
      for (std::size_t j = i + 1; j < n && ok && seen < count[m]; ++j) {
        const instr& in = ins[j];
        bool reads_m = false;
        for (int k = 0; k < in.num_operands && ok; ++k) {
          const operand& o = in.ops[k];
          if (o.k != operand::kind::vreg || o.value != m) continue;
          ++seen;
          const isa::instr_desc& d = isa.descs[in.op];
          const isa::operand_role role = role_of(d, k);
          ok = !is_def(role) && o.offset == 0 && o.dwords == 2 &&
               (k >= d.num_operands || (d.operands[k].classes & (isa::oc_sgpr | isa::oc_vcc)) != 0);
          reads_m = true;
        }
        if (ok && vcc_access(isa, in) != 0) ok = false;
        if (reads_m) last = j;
      }
      if (!ok || seen != count[m] || last == i) continue;
      // VCC's value before the comparison must be dead: the next access after `last`.
      bool dead = !live_out.data()[b];
      for (std::size_t j = last + 1; j < n; ++j) {
        const uint32_t a = vcc_access(isa, ins[j]);
        if (a == 0) continue;
        dead = (a & 5) == 0;
        break;
      }
      if (!dead) continue;
      // The rewrite: VCC for m; src1 a VGPR (swap), a literal v_mov'ed only for this into src0.
      operand vcc;
      vcc.k = operand::kind::special;
      vcc.cls = reg_class::sgpr;
      vcc.sp = special_reg::vcc;
      vcc.dwords = 2;
      cmp.ops[0] = vcc;
      for (std::size_t j = i + 1; j <= last; ++j)
        for (int k = 0; k < ins[j].num_operands; ++k)
          if (ins[j].ops[k].k == operand::kind::vreg && ins[j].ops[k].value == m) ins[j].ops[k] = vcc;
      ++converted;
      for (int side = 1; side <= 2; ++side) {
        const operand& t = cmp.ops[side];
        const operand& other = cmp.ops[3 - side];
        if (t.k != operand::kind::vreg || t.cls != reg_class::vgpr || count[t.value] != 2 || t.offset != 0 ||
            vregs[t.value].dwords != 1 || vregs[t.value].pinned >= 0 || other.k != operand::kind::vreg ||
            other.cls != reg_class::vgpr)
          continue;
        std::size_t def = i;
        for (std::size_t j = i; j-- > 0;)
          if (ins[j].num_operands > 0 && ins[j].ops[0].k == operand::kind::vreg && ins[j].ops[0].value == t.value) {
            def = j;
            break;
          }
        if (def == i) continue;
        const instr& mv = ins[def];
        if (!isa.sem || isa.sem[mv.op].kind != isa::op_kind::mov || !(isa.descs[mv.op].flags & isa::f_valu) || mv.num_operands != 2 ||
            !mv.mods.none() || mv.ops[1].k != operand::kind::imm)
          continue;  // (a source read only here but computed: the other side may be the literal)
        if (!dropped) {
          keep.assign(n, 1);
          dropped = true;
        }
        keep.data()[def] = 0;
        cmp.ops[side] = mv.ops[1];
        break;
      }
      const auto is_vgpr = [](const operand& o) {
        return (o.k == operand::kind::vreg || o.k == operand::kind::phys) && o.cls == reg_class::vgpr;
      };
      if (!is_vgpr(cmp.ops[2]) && is_vgpr(cmp.ops[1])) {
        const operand t = cmp.ops[1];
        cmp.ops[1] = cmp.ops[2];
        cmp.ops[2] = t;
        cmp.op = static_cast<uint16_t>(rev);
      }
    }
    if (dropped) keep_marked(list, keep);
  }
  return converted;
}

}  // namespace hipasm
