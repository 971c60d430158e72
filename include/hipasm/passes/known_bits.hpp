// Rewrites by known low bits (before cse; kernel_options::known_bits), two identities that
// hold for every value:
//  - `x & c` (c a constant whose highest set bit is bit h-1) reads only the low h bits of x,
//    and the low h bits of a sum, OR or XOR do not depend on a term whose low h bits are
//    known zero (a shift left by >= h, a multiple of 2^h), nor does an AND with a mask that
//    covers them, or a copy, change them. The mask's operand is replaced by what is left when
//    that is one register (`(lane % 16 + 64 * w + 16 * m) & 7` reads `lane`); when the operand
//    is a sum/difference/AND/OR/XOR read only by the mask, its own sources are replaced the
//    same way, in place (`((r + 16 * m) ^ c) & 7` becomes `(r ^ c) & 7`: one value for every
//    m, which cse then shares).
//  - `x - ((x >> k) << k)` (x % 2^k written through a division) is `x & (2^k - 1)`.
// Known zero low bits are facts of registers written once in the function (they hold
// wherever the register holds its value: a shift's low bits are zero whatever it shifted).
// A substitution follows definitions inside the current block only, where nothing between
// the definition and the reader wrote the register, the sources it reads instead, or EXEC
// (a VALU result is per active lane). A replacement is a register of the same class, so
// every operand rule (VOP2 src1 a VGPR, one constant-bus read) still holds. The opcodes'
// meaning comes from the target's data (isa/semantics.hpp).
#pragma once
#include <bit>
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

constexpr bool simplify_known_bits(function& fn_, const isa_view& isa_) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const isa_view& isa = isa_;
  using namespace detail;
  using K = isa::op_kind;
  if (!isa.sem) return false;
  const isa::op_semantics* const sem = isa.sem;
  const std::size_t nv = fn.vregs.size();
  // Definitions and uses of each vreg; whether any rewrite can apply at all.
  vec<uint32_t> def_count(nv, 0), use_count(nv, 0);
  uint32_t* const dc = def_count.data();
  uint32_t* const uc = use_count.data();
  const vreg_info* const vregs = fn.vregs.data();
  bool any = false, phys_defs = false;
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs) {
      const isa::instr_desc& d = isa.descs[in.op];
      const K k = sem[in.op].kind;
      if (k == K::band || k == K::sub) any = true;
      for (int i = 0; i < in.num_operands; ++i) {
        const operand& o = in.ops[i];
        const auto r = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
        if (o.k == operand::kind::phys && r != isa::operand_role::use) phys_defs = true;
        if (o.k != operand::kind::vreg) continue;
        if (r != isa::operand_role::use) ++dc[o.value];
        if (r != isa::operand_role::def) ++uc[o.value];
      }
    }
  if (!any) return false;

  // Per vreg: known zero low bits (single-definition vregs), its last write in the running
  // instruction count (`stamp`, over the whole function) and the block index of that write,
  // and whether that write was a whole plain definition.
  vec<uint8_t> tz_bits(nv, 0), whole_def(nv, 0);
  vec<uint32_t> written_at(nv, 0), written_idx(nv, 0);
  uint8_t* const tz = tz_bits.data();
  uint8_t* const whole = whole_def.data();
  uint32_t* const wat = written_at.data();
  uint32_t* const widx = written_idx.data();

  const auto plain_reg = [&](const operand& o) {
    return o.k == operand::kind::vreg && o.offset == 0 && o.dwords == 1 && !o.neg && !o.abs &&
           vregs[o.value].dwords == 1 && vregs[o.value].pinned < 0 && (vregs[o.value].fixed < 0 || !phys_defs);
  };
  const auto tz_of = [&](const operand& o) -> uint32_t {
    if (o.k == operand::kind::imm) {
      const uint32_t v = static_cast<uint32_t>(o.value);
      return v == 0 ? 32u : static_cast<uint32_t>(std::countr_zero(v));
    }
    return plain_reg(o) ? tz[o.value] : 0u;
  };
  const auto imm_amount = [](const operand& o, uint32_t& k) {
    if (o.k != operand::kind::imm) return false;
    k = static_cast<uint32_t>(o.value) & 31u;
    return true;
  };
  // Known zero low bits of an instruction's result, from its sources' facts.
  const auto result_tz = [&](const instr& d) -> uint32_t {
    const K k = sem[d.op].kind;
    const int n = d.num_operands;
    uint32_t amt = 0, r = 0;
    switch (k) {
      case K::mov: return tz_of(d.ops[1]);
      case K::band: return std::max(tz_of(d.ops[1]), tz_of(d.ops[2]));
      case K::add:
      case K::sub:
      case K::bor:
      case K::bxor:
        r = 32;
        for (int j = 1; j < n; ++j) r = std::min(r, tz_of(d.ops[j]));
        return r;
      case K::mul: return std::min(32u, tz_of(d.ops[1]) + tz_of(d.ops[2]));
      case K::shl: return imm_amount(d.ops[2], amt) ? std::min(32u, tz_of(d.ops[1]) + amt) : 0u;
      case K::shl_rev: return imm_amount(d.ops[1], amt) ? std::min(32u, tz_of(d.ops[2]) + amt) : 0u;
      case K::lshl_add:
      case K::lshl_or:
        return imm_amount(d.ops[2], amt) ? std::min(std::min(32u, tz_of(d.ops[1]) + amt), tz_of(d.ops[3])) : 0u;
      default: return 0;
    }
  };

  uint32_t stamp = 0;
  bool changed = false;
  for (block& blk : fn.blocks) {
    instr* const ins = blk.instrs.data();
    const std::size_t n = blk.instrs.size();
    uint32_t start = stamp;    // writes after this stamp are in this block
    uint32_t exec_at = stamp;  // the block's last EXEC write
    // The in-block definition of `x` that a reader at stamp `reader` sees, or null.
    const auto def_of = [&](const operand& x, uint32_t reader) -> instr* {
      if (!plain_reg(x)) return nullptr;
      const uint32_t w = wat[x.value];
      if (w <= start || w >= reader || !whole[x.value]) return nullptr;
      instr* d = &ins[widx[x.value]];
      if ((isa.descs[d->op].flags & isa::f_valu) && exec_at > w) return nullptr;
      return d;
    };
    // What the low `h` bits of x (read at stamp `reader`) equal: x, or a register further
    // down its in-block definitions.
    const auto strip = [&](operand x, uint32_t h, uint32_t reader) -> operand {
      const uint32_t low = h >= 32 ? 0xffffffffu : (1u << h) - 1;
      for (int depth = 0; depth < 8; ++depth) {
        const instr* d = def_of(x, reader);
        if (!d) break;
        const K k = sem[d->op].kind;
        const int nops = d->num_operands;
        int keep = -1;
        uint32_t amt = 0;
        if (k == K::mov) {
          keep = 1;
        } else if (k == K::band) {
          for (int j = 1; j <= 2; ++j)
            if (d->ops[j].k == operand::kind::imm && (static_cast<uint32_t>(d->ops[j].value) & low) == low) keep = 3 - j;
        } else if (k == K::add || k == K::bor || k == K::bxor) {
          int left = 0;
          for (int j = 1; j < nops; ++j)
            if (tz_of(d->ops[j]) < h) {
              ++left;
              keep = j;
            }
          if (left != 1) keep = -1;
        } else if ((k == K::lshl_add || k == K::lshl_or) && imm_amount(d->ops[2], amt) && tz_of(d->ops[1]) + amt >= h) {
          keep = 3;
        }
        if (keep < 0) break;
        const operand& y = d->ops[keep];
        const uint32_t dstamp = wat[x.value];
        if (!plain_reg(y) || vregs[y.value].cls != vregs[x.value].cls || wat[y.value] >= dstamp) break;
        x = y;
        reader = dstamp;
      }
      return x;
    };
    // SCC is written before it is read after instruction i, in this block.
    const auto scc_dead_after = [&](std::size_t i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        const instr& w = ins[j];
        const isa::instr_desc& wd = isa.descs[w.op];
        bool reads = (wd.flags & isa::f_reads_scc) != 0, writes = (wd.flags & isa::f_writes_scc) != 0;
        for (int q = 0; q < w.num_operands; ++q)
          if (w.ops[q].k == operand::kind::special && w.ops[q].sp == special_reg::scc) {
            if (is_use(role_of(wd, q))) reads = true;
            if (is_def(role_of(wd, q))) writes = true;
          }
        if (reads) return false;
        if (writes) return true;
      }
      return false;
    };

    for (std::size_t idx = 0; idx < n; ++idx) {
      instr& in = ins[idx];
      const isa::instr_desc& d = isa.descs[in.op];
      ++stamp;
      K k = sem[in.op].kind;
      if (in.mods.none() && in.num_operands == 3 && in.ops[0].k == operand::kind::vreg) {
        // x - ((x >> j) << j) -> x & (2^j - 1)
        if (k == K::sub && sem[in.op].related != 0xffff && plain_reg(in.ops[1])) {
          const instr* s = def_of(in.ops[2], stamp);
          uint32_t j = 0, j2 = 0;
          const K sk = s ? sem[s->op].kind : K::none;
          const operand* z = nullptr;
          if (sk == K::shl && imm_amount(s->ops[2], j)) z = &s->ops[1];
          if (sk == K::shl_rev && imm_amount(s->ops[1], j)) z = &s->ops[2];
          const instr* r = z ? def_of(*z, wat[in.ops[2].value]) : nullptr;
          const K rk = r ? sem[r->op].kind : K::none;
          const operand* x = nullptr;
          if (rk == K::lshr && imm_amount(r->ops[2], j2)) x = &r->ops[1];
          if (rk == K::lshr_rev && imm_amount(r->ops[1], j2)) x = &r->ops[2];
          const bool salu = (d.flags & isa::f_salu) != 0;
          if (x && j == j2 && j > 0 && x->k == operand::kind::vreg && x->value == in.ops[1].value && plain_reg(*x) &&
              wat[x->value] < wat[z->value] && (salu ? scc_dead_after(idx) : in.ops[1].cls == reg_class::vgpr)) {
            const operand src = in.ops[1];
            in.op = sem[in.op].related;
            operand mask{};
            mask.k = operand::kind::imm;
            mask.cls = reg_class::sgpr;
            mask.value = (1u << j) - 1;
            in.ops[1] = mask;
            in.ops[2] = src;
            k = K::band;
            changed = true;
          }
        }
        // x & c: only the low bits of x up to c's highest set bit matter.
        if (k == K::band) {
          const int ci = in.ops[1].k == operand::kind::imm ? 1 : (in.ops[2].k == operand::kind::imm ? 2 : 0);
          const uint32_t c = ci ? static_cast<uint32_t>(in.ops[ci].value) : 0u;
          if (ci && c != 0 && plain_reg(in.ops[3 - ci])) {
            const uint32_t h = 32u - static_cast<uint32_t>(std::countl_zero(c));
            const operand x = in.ops[3 - ci];
            const operand y = strip(x, h, stamp);
            if (y.value != x.value) {
              in.ops[3 - ci] = y;
              changed = true;
            } else if (instr* dx = def_of(x, stamp); dx && dc[x.value] == 1 && uc[x.value] == 1) {
              // x is read only here: its definition may change its high bits.
              const K xk = sem[dx->op].kind;
              // (a SALU definition's SCC changes with its result: only where nothing reads it)
              const bool scc_ok = !(isa.descs[dx->op].flags & isa::f_salu) || scc_dead_after(widx[x.value]);
              if (scc_ok && (xk == K::add || xk == K::sub || xk == K::band || xk == K::bor || xk == K::bxor)) {
                bool any_src = false;
                for (int j = 1; j < dx->num_operands; ++j) {
                  if (!plain_reg(dx->ops[j])) continue;
                  const operand s = strip(dx->ops[j], h, wat[x.value]);
                  if (s.value != dx->ops[j].value) {
                    dx->ops[j] = s;
                    any_src = true;
                  }
                }
                if (any_src) {
                  changed = true;
                  tz[x.value] = static_cast<uint8_t>(result_tz(*dx));
                }
              }
            }
          }
        }
      }
      // This instruction's writes.
      bool phys = false;
      for (int i = 0; i < in.num_operands; ++i) {
        const auto r = i < d.num_operands ? d.operands[i].role : isa::operand_role::use;
        if (r == isa::operand_role::use) continue;
        const operand& o = in.ops[i];
        if (o.k == operand::kind::vreg) {
          wat[o.value] = stamp;
          widx[o.value] = static_cast<uint32_t>(idx);
          whole[o.value] = r == isa::operand_role::def && o.offset == 0 && o.dwords == vregs[o.value].dwords &&
                                   in.mods.none()
                               ? 1
                               : 0;
        } else if (o.k == operand::kind::phys) {
          phys = true;
        } else if (o.k == operand::kind::special &&
                   (o.sp == special_reg::exec || o.sp == special_reg::exec_lo || o.sp == special_reg::exec_hi)) {
          exec_at = stamp;
        }
      }
      if (d.flags & (isa::f_writes_exec | isa::f_cmpx)) exec_at = stamp;
      if (phys) start = stamp;  // (a physical register may be what a fixed vreg lives in)
      const operand& dst = in.ops[0];
      if (in.num_operands > 0 && dst.k == operand::kind::vreg && whole[dst.value] && dc[dst.value] == 1 &&
          vregs[dst.value].dwords == 1 && k != K::none && k != K::compare && k != K::waitcnt)
        tz[dst.value] = static_cast<uint8_t>(result_tz(in));
    }
  }
  return changed;
}

}  // namespace hipasm
