// Common subexpression elimination, block-local (value numbering over a window of recent
// instructions). An instruction is replaced by an earlier identical one in the same block
// when: neither has side effects or implicit defs (so no carry-out, VCC or SCC result is
// lost: v_add_co_u32 is never merged) nor keeps part of its destination (def_use roles, and
// the modifiers of common.hpp's vector_dst_write), every register it writes is a whole virtual
// register written nowhere else in the function, nothing it reads (EXEC included for
// VALU instructions: a different EXEC writes different lanes) was written in between, and
// opcode, operands and modifiers match exactly. Uses of the later result are renamed.
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

namespace detail {

constexpr bool same_operand(const operand& a, const operand& b) {
  return a.k == b.k && a.cls == b.cls && a.sp == b.sp && a.neg == b.neg && a.abs == b.abs &&
         a.offset == b.offset && a.dwords == b.dwords && a.value == b.value;
}

// A hash of what makes two instructions equivalent (opcode and source operands; defs and
// modifiers are left to the full comparison): different keys, different values.
constexpr uint64_t value_key(const isa::instr_desc& d, const instr& in) {
  uint64_t h = in.op * 0x9e3779b97f4a7c15ull + in.num_operands;
  for (int i = 0; i < in.num_operands; ++i) {
    const auto r = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
    if (r != isa::operand_role::use) continue;
    const operand& o = in.ops[i];
    h = (h ^ (o.value + (uint64_t{o.offset} << 40) + (uint64_t{o.dwords} << 52) + (uint64_t(o.k) << 58) +
              (uint64_t(o.sp) << 32) + (uint64_t{o.neg} << 61) + (uint64_t{o.abs} << 62))) *
        0x100000001b3ull;
  }
  return h;
}

}  // namespace detail

constexpr bool eliminate_common_subexpressions(function& fn_, const isa_view& isa_) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  constexpr std::size_t window = 16;
  const dword_map dm(fn);
  // How many instructions write each vreg (any part of it).
  vec<uint32_t> def_count(fn.vregs.size(), 0);
  // Raw pointers in the per-instruction code: a vec's operator[] is an interpreted call.
  // (CSE adds no vregs, so these stay valid.)
  uint32_t* const defs_of = def_count.data();
  const vreg_info* const vregs = fn.vregs.data();
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && is_def(role_of(isa.descs[in.op], i))) ++defs_of[in.ops[i].value];

  // (Flag and role tests written out: this runs for every instruction and each helper is
  // an interpreted call.)
  auto candidate = [&](const instr& in) {
    const isa::instr_desc& d = isa.descs[in.op];
    constexpr uint64_t implicit_defs = isa::f_writes_exec | isa::f_writes_vcc | isa::f_writes_scc | isa::f_writes_m0 |
                                       isa::f_cmpx;
    if ((d.flags & implicit_defs) || !(d.flags & (isa::f_valu | isa::f_salu))) return false;
    if (has_side_effects(isa, in)) return false;
    // A result that keeps part of its destination's old value (DPP masks, SDWA preserve,
    // op_sel on the destination) is not a value of the sources alone.
    if ((in.mods.more | in.mods.bytes) != 0 && (d.flags & isa::f_valu) &&
        vector_dst_write(d, in.mods) != dst_write::full)
      return false;
    bool has_def = false;
    const int nd = d.num_operands;
    for (int i = 0; i < in.num_operands; ++i) {
      const operand& o = in.ops[i];
      const auto r = i < nd ? d.operands[i].role : isa::operand_role::use;
      if (o.k == operand::kind::phys) return false;
      if (r == isa::operand_role::use) continue;
      if (r == isa::operand_role::def_use || o.k != operand::kind::vreg) return false;
      const vreg_info& vi = vregs[o.value];
      if (o.offset != 0 || o.dwords != vi.dwords || defs_of[o.value] != 1 || vi.fixed >= 0 || vi.pinned >= 0) return false;
      has_def = true;
    }
    return has_def;
  };
  auto equivalent = [&](const instr& a, const instr& b) {
    if (a.op != b.op || a.num_operands != b.num_operands || !(a.mods == b.mods)) return false;
    const isa::instr_desc& d = isa.descs[a.op];
    for (int i = 0; i < a.num_operands; ++i) {
      if (is_def(role_of(d, i))) {
        const operand& x = a.ops[i];
        const operand& y = b.ops[i];
        if (x.k != y.k || x.dwords != y.dwords || vregs[x.value].cls != vregs[y.value].cls) return false;
        continue;
      }
      if (!same_operand(a.ops[i], b.ops[i])) return false;
    }
    return true;
  };

  vec<uint64_t> rename(fn.vregs.size(), 0);
  uint64_t* const ren = rename.data();
  for (std::size_t v = 0; v < rename.size(); ++v) ren[v] = v;
  bool changed = false;
  for (block& blk : fn.blocks) {
    // In place: uses renamed, merged instructions only marked (copying instructions is
    // what constant evaluation pays most for).
    vec<uint8_t> keep(blk.instrs.size(), 1);
    bool removed = false;
    // Available instructions with the ranges they read (decoded once, when they become
    // available: every later write is checked against them).
    struct available {
      uint32_t idx = 0;  // into blk.instrs
      uint64_t key = 0;  // value_key: equal for equivalent instructions
      uint64_t usig = 0;  // span_signature of everything it reads
      bool valu = false;
      uint8_t nu = 0;
      bool overflow = false;  // reads more ranges than tracked: any write invalidates it
      uint32_t uf[12]{}, un[12]{};
    };
    // Records are appended, never moved (clang-22's new interpreter rejects the memmove
    // vector::erase does on them); `avail` holds their indices, oldest first.
    vec<available> records;
    vec<uint32_t> avail;
    // Per-instruction scratch, declared once: zero-initialising these arrays for every
    // instruction cost more than the decode that fills them (the counts say what is valid).
    uint32_t wf[16], wn[16];
    available a;
    for (std::size_t idx = 0; idx < blk.instrs.size(); ++idx) {
      instr& in = blk.instrs[idx];
      const isa::instr_desc& d = isa.descs[in.op];
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg &&
            (i >= d.num_operands || d.operands[i].role == isa::operand_role::use))
          in.ops[i].value = ren[in.ops[i].value];
      const bool cand = candidate(in);
      const uint64_t key = cand ? value_key(d, in) : 0;
      if (cand) {
        bool merged = false;
        const available* const recs = records.data();
        const uint32_t* const av = avail.data();
        for (std::size_t k = avail.size(); k-- > 0;) {
          if (recs[av[k]].key != key) continue;  // cheap reject before the full comparison
          const instr& e = blk.instrs[recs[av[k]].idx];
          if (!equivalent(e, in)) continue;
          for (int i = 0; i < in.num_operands; ++i)
            if (is_def(role_of(d, i))) ren[in.ops[i].value] = e.ops[i].value;
          merged = true;
          break;
        }
        if (merged) {
          changed = removed = true;
          keep[idx] = 0;
          continue;
        }
      }
      // One decode of the accesses: what it writes (which invalidates the available
      // instructions reading it) and, for a candidate, what it reads (its record).
      int nw = 0;
      uint64_t wsig = 0;
      bool phys_write = false;
      a.usig = 0;
      a.nu = 0;
      a.overflow = false;
      for_each_access(isa, dm, in, [&](bool d, bool u, uint32_t f, uint32_t n, int) {
        if (d && nw < 16) {
          wf[nw] = f;
          wn[nw++] = n;
          wsig |= span_signature(f, n);
        }
        if (!u || !cand) return;
        if (a.nu == 12) {
          a.overflow = true;
          return;
        }
        a.uf[a.nu] = f;
        a.un[a.nu++] = n;
        a.usig |= span_signature(f, n);
      });
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::phys && is_def(role_of(d, i))) phys_write = true;
      if (nw == 16) phys_write = true;  // too many to track: drop everything
      auto written = [&](uint32_t f, uint32_t n) {
        for (int j = 0; j < nw; ++j)
          if (f < wf[j] + wn[j] && wf[j] < f + n) return true;
        return false;
      };
      if (nw > 0 || phys_write) {
        const bool exec_written = written(dm.special(sl_exec_lo), 2);
        const available* const recs = records.data();
        const uint32_t* const av = avail.data();  // (erase shifts in place: stays valid)
        for (std::size_t k = 0; k < avail.size();) {
          const available& e = recs[av[k]];
          // VALU results depend on EXEC even when the table lists no implicit read.
          bool hit = phys_write || e.overflow || (e.valu && exec_written);
          if (!hit && (e.usig & wsig))  // signatures share a bit: compare the ranges
            for (int j = 0; j < e.nu && !hit; ++j)
              if (written(e.uf[j], e.un[j])) hit = true;
          if (hit)
            avail.erase(avail.begin() + static_cast<std::ptrdiff_t>(k));
          else
            ++k;
        }
      }
      if (cand) {
        a.idx = static_cast<uint32_t>(idx);
        a.key = key;
        a.valu = has(d.flags, isa::f_valu);
        avail.push_back(static_cast<uint32_t>(records.size()));
        records.push_back(a);
        if (avail.size() > window) avail.erase(avail.begin());
      }
    }
    if (removed) {
      keep_marked(blk.instrs, keep);
    }
  }
  if (changed)
    for (block& blk : fn.blocks)
      for (instr& in : blk.instrs)
        for (int i = 0; i < in.num_operands; ++i)
          if (in.ops[i].k == operand::kind::vreg) in.ops[i].value = ren[in.ops[i].value];
  return changed;
}

}  // namespace hipasm
