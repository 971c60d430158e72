// Common subexpression elimination, block-local (value numbering over every earlier
// instruction of the block, found by a hash of opcode and sources). An instruction is replaced by an earlier identical one in the same block
// when: neither has side effects or implicit defs (so no carry-out, VCC or SCC result is
// lost: v_add_co_u32 is never merged; a SALU instruction whose only implicit result is SCC
// is merged when SCC is written again, unread, later in its block) nor keeps part of its destination (def_use roles, and
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
  const dword_map dm(fn);
  // How many instructions write each vreg (any part of it).
  vec<uint32_t> def_count(fn.vregs.size(), 0);
  // Raw pointers in the per-instruction code: a vec's operator[] is an interpreted call.
  // (CSE adds no vregs, so these stay valid.)
  uint32_t* const defs_of = def_count.data();
  const vreg_info* const vregs = fn.vregs.data();
  std::size_t longest = 0;
  for (const block& b : fn.blocks) {
    if (b.instrs.size() > longest) longest = b.instrs.size();
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && is_def(role_of(isa.descs[in.op], i))) ++defs_of[in.ops[i].value];
  }

  // (Flag and role tests written out: this runs for every instruction and each helper is
  // an interpreted call.) `scc_dead`: SCC is written again, unread, later in the block, so
  // a SALU instruction's SCC result may be dropped with it.
  auto candidate = [&](const instr& in, bool scc_dead) {
    const isa::instr_desc& d = isa.descs[in.op];
    constexpr uint64_t implicit_defs = isa::f_writes_exec | isa::f_writes_vcc | isa::f_writes_scc | isa::f_writes_m0 |
                                       isa::f_cmpx;
    if (!(d.flags & (isa::f_valu | isa::f_salu))) return false;
    if (d.flags & implicit_defs) {
      const bool only_scc = (d.flags & implicit_defs) == isa::f_writes_scc;
      if (!only_scc || !scc_dead) return false;
    }
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
  // Every available instruction of the block is a candidate (no window): found by its
  // value_key in a hash table, still valid when nothing it reads was written after it.
  // Writes are stamped per dword (`written_at`, a running instruction count over the whole
  // function, so nothing is reset between blocks); a write of a physical register or of too
  // many ranges to decode invalidates everything before it (`barrier`).
  vec<uint32_t> written_at(dm.total(), 0);
  uint32_t* const wat = written_at.data();
  uint32_t stamp = 0, barrier = 0;
  std::size_t buckets = 16;
  while (buckets < 2 * longest) buckets *= 2;
  vec<uint32_t> heads(buckets, 0);  // record index + 1 of the newest record of a bucket, 0: none
  uint32_t* const head = heads.data();
  struct available {
    uint32_t idx = 0;    // into blk.instrs
    uint32_t stamp = 0;  // when it became available
    uint32_t next = 0;   // the bucket's previous record + 1
    uint64_t key = 0;    // value_key: equal for equivalent instructions
    uint8_t nu = 0;
    uint32_t uf[13]{}, un[13]{};  // what it reads (EXEC too for VALU: it writes those lanes)
  };
  vec<available> records;
  vec<uint8_t> scc_dead_after;
  bool changed = false;
  for (block& blk : fn.blocks) {
    // In place: uses renamed, merged instructions only marked (copying instructions is
    // what constant evaluation pays most for).
    const std::size_t n = blk.instrs.size();
    vec<uint8_t> keep(n, 1);
    bool removed = false;
    // SCC dead after each instruction: written before it is read, later in this block (at
    // the block's end it may be live).
    scc_dead_after.resize(n);
    {
      bool dead = false;
      uint8_t* const sd = scc_dead_after.data();
      const instr* const ins = blk.instrs.data();
      for (std::size_t i = n; i-- > 0;) {
        sd[i] = dead ? 1 : 0;
        const uint64_t fl = isa.descs[ins[i].op].flags;
        bool reads = (fl & isa::f_reads_scc) != 0, writes = (fl & isa::f_writes_scc) != 0;
        for (int j = 0; j < ins[i].num_operands; ++j)
          if (ins[i].ops[j].k == operand::kind::special && ins[i].ops[j].sp == special_reg::scc) {
            if (is_def(role_of(isa.descs[ins[i].op], j))) writes = true;
            if (is_use(role_of(isa.descs[ins[i].op], j))) reads = true;
          }
        if (writes) dead = true;
        if (reads) dead = false;
      }
    }
    records.clear();
    available a;
    const uint32_t exec_slot = dm.special(sl_exec_lo);
    for (std::size_t idx = 0; idx < n; ++idx) {
      instr& in = blk.instrs[idx];
      const isa::instr_desc& d = isa.descs[in.op];
      ++stamp;
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg &&
            (i >= d.num_operands || d.operands[i].role == isa::operand_role::use))
          in.ops[i].value = ren[in.ops[i].value];
      const bool cand = candidate(in, scc_dead_after[idx] != 0);
      const uint64_t key = cand ? value_key(d, in) : 0;
      const std::size_t bucket = static_cast<std::size_t>(key ^ (key >> 29)) & (buckets - 1);
      if (cand) {
        bool merged = false;
        const available* const recs = records.data();
        for (uint32_t r = head[bucket]; r != 0 && !merged; r = recs[r - 1].next) {
          const available& e = recs[r - 1];
          if (e.key != key || e.stamp <= barrier) continue;  // cheap rejects first
          bool valid = true;
          for (int j = 0; j < e.nu && valid; ++j)
            for (uint32_t w = 0; w < e.un[j]; ++w)
              if (wat[e.uf[j] + w] >= e.stamp) valid = false;
          if (!valid) continue;
          const instr& prev = blk.instrs[e.idx];
          if (!equivalent(prev, in)) continue;
          for (int i = 0; i < in.num_operands; ++i)
            if (is_def(role_of(d, i))) ren[in.ops[i].value] = prev.ops[i].value;
          merged = true;
        }
        if (merged) {
          changed = removed = true;
          keep[idx] = 0;
          continue;
        }
      }
      // One decode of the accesses: what it writes (stamped) and, for a candidate, what it
      // reads (its record).
      int nw = 0;
      a.nu = 0;
      bool overflow = false, phys_write = false;
      for_each_access(isa, dm, in, [&](bool d, bool u, uint32_t f, uint32_t k, int) {
        if (d) {
          ++nw;
          for (uint32_t w = 0; w < k; ++w) wat[f + w] = stamp;
        }
        if (!u || !cand) return;
        if (a.nu == 12) {
          overflow = true;
          return;
        }
        a.uf[a.nu] = f;
        a.un[a.nu++] = k;
      });
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::phys && is_def(role_of(d, i))) phys_write = true;
      if (phys_write) barrier = stamp;
      if (cand && !overflow) {
        // VALU results depend on EXEC even when the table lists no implicit read.
        if (d.flags & isa::f_valu) {
          a.uf[a.nu] = exec_slot;
          a.un[a.nu++] = 2;
        }
        a.idx = static_cast<uint32_t>(idx);
        a.stamp = stamp;
        a.key = key;
        a.next = head[bucket];
        records.push_back(a);
        head[bucket] = static_cast<uint32_t>(records.size());
      }
    }
    // Empty the buckets this block used (not the whole table: blocks are often short).
    for (const available& r : records) head[static_cast<std::size_t>(r.key ^ (r.key >> 29)) & (buckets - 1)] = 0;
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
