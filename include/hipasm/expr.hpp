// Expression lowering: + - * / % << >> & | ^ ~, unary -, abs, min/max, 64-bit address
// arithmetic, assignment. Each operator emits at once into a new virtual register (the
// allocator reuses it when it dies); `x = expr` retargets the expression's last instruction
// into x when that is safe, otherwise it moves.
//
// Scalar or vector: SGPR op SGPR (or immediate) on u32/i32 is SALU into a new SGPR; anything
// with a VGPR, and every f32 operation (SALU has no float ALU on gfx942), is VALU into a new
// VGPR. Operand legality is arranged here (VOP2 src1 must be a VGPR, one constant-bus read,
// no literal in VOP3) so every emitted instruction passes the table check.
//
// f32 division is IEEE correctly rounded (clang's v_div_scale/v_rcp/FMA/v_div_fmas/v_div_fixup
// sequence, lower_fdiv). Integer division and remainder follow C++ (truncation toward zero):
//  - by a constant: shifts for powers of two (signed: bias negatives first), multiply-high by
//    a magic number otherwise (Granlund-Montgomery / Hacker's Delight 10-1, 10-10);
//  - by a register: the compiler's reciprocal sequence (v_rcp_iflag_f32 estimate, one Newton
//    step in integers, quotient by multiply-high, two corrections), exact for every 32-bit
//    input; signed by magnitudes and sign fix-up. Scalar operands keep the integer part on
//    the SALU and take only the reciprocal estimate through a VGPR (v_readfirstlane_b32; with
//    lane 0 turned on where EXEC may be empty, builder_state::exec_may_be_empty).
//    Division by zero by a register gives an unspecified value (as in C++, undefined).
#pragma once
#include <cstdint>

#include "builder.hpp"

namespace hipasm::detail {

using O = target_op;

constexpr bool any_agpr(const xval& a, const xval& c) { return a.is_reg(reg_class::agpr) || c.is_reg(reg_class::agpr); }

// ---- constant division helpers (host and constexpr) ----------------------------------------
struct umagic {
  uint32_t m;
  int s;
  bool add;
};
// Hacker's Delight 10-10 (magicu2): q = mulhi(n, m) [+ fix-up] >> s for 2 <= d < 2^32, d not a
// power of two.
constexpr umagic magic_unsigned(uint32_t d) {
  bool a = false;
  int p = 31;
  uint32_t nc = 0xffffffffu - (0u - d) % d;
  uint32_t q1 = 0x80000000u / nc, r1 = 0x80000000u - q1 * nc;
  uint32_t q2 = 0x7fffffffu / d, r2 = 0x7fffffffu - q2 * d;
  uint32_t delta = 0;
  do {
    p = p + 1;
    if (r1 >= nc - r1) {
      q1 = 2 * q1 + 1;
      r1 = 2 * r1 - nc;
    } else {
      q1 = 2 * q1;
      r1 = 2 * r1;
    }
    if (r2 + 1 >= d - r2) {
      if (q2 >= 0x7fffffffu) a = true;
      q2 = 2 * q2 + 1;
      r2 = 2 * r2 + 1 - d;
    } else {
      if (q2 >= 0x80000000u) a = true;
      q2 = 2 * q2;
      r2 = 2 * r2 + 1;
    }
    delta = d - 1 - r2;
  } while (p < 64 && (q1 < delta || (q1 == delta && r1 == 0)));
  return {q2 + 1, p - 32, a};
}
struct smagic {
  int32_t m;
  int s;
};
// Hacker's Delight 10-1 (magic): for 2 <= |d|, |d| not a power of two.
constexpr smagic magic_signed(int32_t d) {
  const uint32_t two31 = 0x80000000u;
  uint32_t ad = d < 0 ? 0u - static_cast<uint32_t>(d) : static_cast<uint32_t>(d);
  uint32_t t = two31 + (static_cast<uint32_t>(d) >> 31);
  uint32_t anc = t - 1 - t % ad;
  int p = 31;
  uint32_t q1 = two31 / anc, r1 = two31 - q1 * anc;
  uint32_t q2 = two31 / ad, r2 = two31 - q2 * ad;
  uint32_t delta = 0;
  do {
    p = p + 1;
    q1 = 2 * q1;
    r1 = 2 * r1;
    if (r1 >= anc) {
      q1 = q1 + 1;
      r1 = r1 - anc;
    }
    q2 = 2 * q2;
    r2 = 2 * r2;
    if (r2 >= ad) {
      q2 = q2 + 1;
      r2 = r2 - ad;
    }
    delta = ad - r2;
  } while (q1 < delta || (q1 == delta && r1 == 0));
  uint32_t m = q2 + 1;
  if (d < 0) m = 0u - m;
  return {static_cast<int32_t>(m), p - 32};
}
constexpr int log2_exact(uint32_t v) {
  if (v == 0 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((1u << k) != v) ++k;
  return k;
}

// ---- the lowering -------------------------------------------------------------------------
struct int_ops {
  lower& L;
  bool vec;  // VALU (else SALU)

  constexpr operand dst() { return reg_op(L.tmp(vec ? reg_class::vgpr : reg_class::sgpr)); }
  constexpr operand add(const operand& a, const operand& c) {
    operand d = dst();
    if (vec) L.valu2(O::v_add_u32, O::v_add_u32, true, d, a, c);
    else L.salu2(O::s_add_u32, d, a, c);
    return d;
  }
  constexpr operand sub(const operand& a, const operand& c) {
    operand d = dst();
    if (vec) L.valu2(O::v_sub_u32, O::v_subrev_u32, true, d, a, c);
    else L.salu2(O::s_sub_u32, d, a, c);
    return d;
  }
  constexpr operand mul(const operand& a, const operand& c) {
    operand d = dst();
    if (vec) L.valu3(O::v_mul_lo_u32, d, a, c);
    else L.salu2(O::s_mul_i32, d, a, c);
    return d;
  }
  constexpr operand mulhi(const operand& a, const operand& c, bool sgn) {
    operand d = dst();
    if (vec) L.valu3(sgn ? O::v_mul_hi_i32 : O::v_mul_hi_u32, d, a, c);
    else L.salu2(sgn ? O::s_mul_hi_i32 : O::s_mul_hi_u32, d, a, c);
    return d;
  }
  // value >> amount / value << amount (amount an immediate or register)
  constexpr operand shr(const operand& v, const operand& amt, bool arith) {
    operand d = dst();
    if (vec) L.valu2(arith ? O::v_ashrrev_i32 : O::v_lshrrev_b32, O{}, false, d, amt, v);
    else L.salu2(arith ? O::s_ashr_i32 : O::s_lshr_b32, d, v, amt);
    return d;
  }
  constexpr operand shl(const operand& v, const operand& amt) {
    operand d = dst();
    if (vec) L.valu2(O::v_lshlrev_b32, O{}, false, d, amt, v);
    else L.salu2(O::s_lshl_b32, d, v, amt);
    return d;
  }
  constexpr operand bxor(const operand& a, const operand& c) {
    operand d = dst();
    if (vec) L.valu2(O::v_xor_b32, O::v_xor_b32, true, d, a, c);
    else L.salu2(O::s_xor_b32, d, a, c);
    return d;
  }
  constexpr operand band(const operand& a, const operand& c) {
    operand d = dst();
    if (vec) L.valu2(O::v_and_b32, O::v_and_b32, true, d, a, c);
    else L.salu2(O::s_and_b32, d, a, c);
    return d;
  }
  constexpr operand neg(const operand& a) { return sub(imm_op(0), a); }
  constexpr operand mov(const operand& a) {
    operand d = dst();
    if (vec) L.e(O::v_mov_b32, {d, a});
    else L.e(O::s_mov_b32, {d, a});
    return d;
  }
  // d = cond(r >= dv) ? x : y for the division corrections: returns (q', r').
  constexpr void correct(operand& q, operand& r, const operand& dv) {
    if (vec) {
      reg_ref m = L.tmp(reg_class::sgpr, 2);
      L.valu3(O::v_cmp_ge_u32, reg_op(m), r, dv);
      operand q1 = add(q, imm_op(1));
      operand r1 = sub(r, dv);
      operand qn = dst(), rn = dst();
      L.e(O::v_cndmask_b32, {qn, q, q1, reg_op(m)});
      L.e(O::v_cndmask_b32, {rn, r, r1, reg_op(m)});
      q = qn;
      r = rn;
    } else {
      operand q1 = add(q, imm_op(1));
      operand r1 = sub(r, dv);
      // after the adds: they write SCC too
      L.e(O::s_cmp_ge_u32, {r, dv});
      operand qn = dst(), rn = dst();
      L.e(O::s_cselect_b32, {qn, q1, q});
      L.e(O::s_cselect_b32, {rn, r1, r});
      q = qn;
      r = rn;
    }
  }
  // Unsigned n / dv and n % dv for a register divisor (exact for all 32-bit n, dv != 0).
  constexpr void udivrem(const operand& n, const operand& dv, operand& q, operand& r) {
    // Reciprocal estimate in a VGPR: z ~= 2^32 / dv, slightly low. A scalar division where
    // EXEC may be empty (uniform code after all lanes left) turns lane 0 on for it: with no
    // lane active the VALU writes nothing and v_readfirstlane_b32 reads lane 0's stale value.
    reg_ref saved_exec{};
    if (!vec && L.b.exec_may_be_empty_) {
      saved_exec = L.tmp(reg_class::sgpr, 2);
      L.e(O::s_or_saveexec_b64, {reg_op(saved_exec), imm_op(1)});
    }
    reg_ref f = L.tmp(reg_class::vgpr);
    L.e(O::v_cvt_f32_u32, {reg_op(f), dv});
    L.e(O::v_rcp_iflag_f32, {reg_op(f), reg_op(f)});
    L.e(O::v_mul_f32, {reg_op(f), imm_op(0x4f7ffffe), reg_op(f)});
    L.e(O::v_cvt_u32_f32, {reg_op(f), reg_op(f)});
    operand z = reg_op(f);
    if (!vec) {
      operand zs = dst();
      L.e(O::v_readfirstlane_b32, {zs, z});
      z = zs;
      if (saved_exec.b) L.e(O::s_mov_b64, {special_op(special_reg::exec, 2), reg_op(saved_exec)});
    }
    // One Newton-Raphson step in integers: z += mulhi(z, -dv * z).
    operand e = mul(neg(dv), z);
    z = add(z, mulhi(z, e, false));
    q = mulhi(n, z, false);
    r = sub(n, mul(q, dv));
    correct(q, r, dv);
    correct(q, r, dv);
  }
};

constexpr reg_ref lower_divrem(lower& L, bool vec, bool sgn, bool want_rem, const xval& a, const xval& c) {
  int_ops I{L, vec};
  operand n = a.op, dv = c.op;
  operand res{};
  if (c.is_imm()) {
    if (sgn) {
      int32_t d = static_cast<int32_t>(static_cast<uint32_t>(c.op.value));
      if (d == 0) {
        L.b.fail(L.l, "division by the constant zero");
        return {};
      }
      uint32_t ad = d < 0 ? 0u - static_cast<uint32_t>(d) : static_cast<uint32_t>(d);
      int k = log2_exact(ad);
      operand q{};
      if (d == 1) {
        q = I.mov(n);
      } else if (d == -1) {
        q = I.neg(n);
      } else if (k > 0) {
        // q = (n + ((n >> 31) >>> (32 - k))) >> k, negated for a negative divisor.
        operand t = I.shr(n, imm_op(31), true);
        t = I.shr(t, imm_op(static_cast<uint32_t>(32 - k)), false);
        t = I.add(n, t);
        q = I.shr(t, imm_op(static_cast<uint32_t>(k)), true);
        if (d < 0) q = I.neg(q);
      } else {
        smagic mg = magic_signed(d);
        q = I.mulhi(n, imm_op(static_cast<uint32_t>(mg.m)), true);
        if (d > 0 && mg.m < 0) q = I.add(q, n);
        if (d < 0 && mg.m > 0) q = I.sub(q, n);
        if (mg.s > 0) q = I.shr(q, imm_op(static_cast<uint32_t>(mg.s)), true);
        q = I.add(q, I.shr(q, imm_op(31), false));
      }
      res = want_rem ? I.sub(n, I.mul(q, c.op)) : q;
    } else {
      uint32_t d = static_cast<uint32_t>(c.op.value);
      if (d == 0) {
        L.b.fail(L.l, "division by the constant zero");
        return {};
      }
      int k = log2_exact(d);
      if (k >= 0) {
        if (want_rem) res = k == 0 ? I.mov(imm_op(0)) : I.band(n, imm_op(d - 1));
        else res = k == 0 ? I.mov(n) : I.shr(n, imm_op(static_cast<uint32_t>(k)), false);
      } else {
        umagic mg = magic_unsigned(d);
        operand q = I.mulhi(n, imm_op(mg.m), false);
        if (mg.add) {
          operand t = I.sub(n, q);
          t = I.shr(t, imm_op(1), false);
          t = I.add(t, q);
          q = mg.s > 1 ? I.shr(t, imm_op(static_cast<uint32_t>(mg.s - 1)), false) : t;
        } else if (mg.s > 0) {
          q = I.shr(q, imm_op(static_cast<uint32_t>(mg.s)), false);
        }
        res = want_rem ? I.sub(n, I.mul(q, c.op)) : q;
      }
    }
  } else {
    if (n.k == operand::kind::imm) n = vec ? L.vmov(n) : L.smov(n);
    if (sgn) {
      operand sn = I.shr(n, imm_op(31), true);
      operand sd = I.shr(dv, imm_op(31), true);
      operand an = I.bxor(I.add(n, sn), sn);
      operand adv = I.bxor(I.add(dv, sd), sd);
      operand q{}, r{};
      I.udivrem(an, adv, q, r);
      if (want_rem) {
        res = I.sub(I.bxor(r, sn), sn);
      } else {
        operand sq = I.bxor(sn, sd);
        res = I.sub(I.bxor(q, sq), sq);
      }
    } else {
      operand q{}, r{};
      I.udivrem(n, dv, q, r);
      res = want_rem ? r : q;
    }
  }
  return reg_ref{&L.b, static_cast<uint32_t>(res.value), res.cls, res.offset, 1};
}

constexpr builder* pick_builder(const xval& a, const xval& c) { return a.b ? a.b : c.b; }

// f32 n / d, correctly rounded (IEEE), as clang compiles it for gfx942 with default flags:
// scale numerator and denominator (v_div_scale_f32: the numerator's scale writes VCC), Newton
// refinement of v_rcp_f32 by FMAs, v_div_fmas_f32 (undoes the scaling, reads VCC) and
// v_div_fixup_f32 (special cases: zeros, infinities, NaN, overflow). The refinement needs f32
// denormals kept; a kernel runs with the default FP mode (f32 denormals on), in which clang
// emits no mode switch either. Every instruction is VOP3: SGPR operands are copied to VGPRs
// where a second constant-bus read would be needed, literals always.
constexpr void lower_fdiv(lower& L, const operand& D, operand n, operand d) {
  // literals into VGPRs once; two different SGPRs: the numerator into a VGPR (one bus read)
  if (lower::is_imm(n) && !lower::inline_const(n, true)) n = L.vmov(n);
  if (lower::is_imm(d) && !lower::inline_const(d, true)) d = L.vmov(d);
  if (lower::is_sgpr(n) && lower::is_sgpr(d) && !lower::same_reg(n, d)) n = L.vmov(n);
  auto neg = [](operand o) {
    o.neg = !o.neg;
    return o;
  };
  operand VCC = special_op(special_reg::vcc, 2);
  operand ds = reg_op(L.tmp(reg_class::vgpr)), rcp = reg_op(L.tmp(reg_class::vgpr)), ns = reg_op(L.tmp(reg_class::vgpr));
  operand e = reg_op(L.tmp(reg_class::vgpr)), r = reg_op(L.tmp(reg_class::vgpr)), q = reg_op(L.tmp(reg_class::vgpr));
  operand t = reg_op(L.tmp(reg_class::vgpr)), q1 = reg_op(L.tmp(reg_class::vgpr)), rem = reg_op(L.tmp(reg_class::vgpr));
  operand fm = reg_op(L.tmp(reg_class::vgpr));
  operand sc = reg_op(L.tmp(reg_class::sgpr, 2));
  {  // denominator scaled: v_div_scale_f32 ds, s, d, d, n
    operand s[3] = {d, d, n};
    L.legal3(s, 3, true);
    L.e(O::v_div_scale_f32, {ds, sc, s[0], s[1], s[2]});
  }
  L.e(O::v_rcp_f32, {rcp, ds});
  {  // numerator scaled: v_div_scale_f32 ns, vcc, n, d, n
    operand s[3] = {n, d, n};
    L.legal3(s, 3, true);
    L.e(O::v_div_scale_f32, {ns, VCC, s[0], s[1], s[2]});
  }
  L.e(O::v_fma_f32, {e, neg(ds), rcp, imm_op(0x3f800000)});  // e = 1 - ds * rcp
  L.e(O::v_fma_f32, {r, e, rcp, rcp});                       // r = rcp + e * rcp
  L.e(O::v_mul_f32, {q, ns, r});                             // q = ns * r
  L.e(O::v_fma_f32, {t, neg(ds), q, ns});                    // t = ns - ds * q
  L.e(O::v_fma_f32, {q1, t, r, q});                          // q1 = q + t * r
  L.e(O::v_fma_f32, {rem, neg(ds), q1, ns});                 // rem = ns - ds * q1
  L.e(O::v_div_fmas_f32, {fm, rem, r, q1});                  // rem * r + q1, rescaled by VCC
  operand s[3] = {fm, d, n};
  L.legal3(s, 3, true);
  L.e(O::v_div_fixup_f32, {D, s[0], s[1], s[2]});
}


// ---- folding and fused instructions (kernel_options::fold) --------------------------------
// The instruction of the current block that wrote the whole 1-dword register `id`, among
// the last few, when nothing after it (to the block's end) writes `id`, what it read or
// EXEC: its sources still hold what it read, so a fused instruction may read them instead
// of its result (which dce then removes when nothing else reads it). -1: none.
constexpr int recent_def(const builder& b, uint32_t id) {
  const vec<instr>& list = b.fn.blocks[b.cur_block()].instrs;
  const instr* const ins = list.data();
  const int n = static_cast<int>(list.size());
  constexpr int window = 8;  // an expression's operands are a few instructions back
  for (int i = n - 1; i >= 0 && i >= n - window; --i) {
    const instr& d = ins[i];
    if (d.num_operands == 0 || d.ops[0].k != operand::kind::vreg || d.ops[0].value != id) continue;
    if (d.ops[0].offset != 0 || d.ops[0].dwords != 1 || !d.mods.none()) return -1;
    for (int j = 1; j < d.num_operands; ++j) {
      if (d.ops[j].k != operand::kind::vreg && d.ops[j].k != operand::kind::imm) return -1;
      // (x = x + y: its own write replaced the source it read)
      if (d.ops[j].k == operand::kind::vreg && d.ops[j].value == id) return -1;
    }
    for (int k = i + 1; k < n; ++k) {
      const instr& w = ins[k];
      const isa::instr_desc& wd = op_desc(static_cast<O>(w.op));
      if (wd.flags & (isa::f_writes_exec | isa::f_cmpx)) return -1;
      for (int j = 0; j < w.num_operands; ++j) {
        const operand& o = w.ops[j];
        const auto r = j < wd.num_operands ? wd.operands[j].role : isa::operand_role::use;
        if (r == isa::operand_role::use) continue;
        if (o.k == operand::kind::special && (o.sp == special_reg::exec || o.sp == special_reg::exec_lo ||
                                              o.sp == special_reg::exec_hi))
          return -1;
        if (o.k != operand::kind::vreg) continue;
        if (o.value == id) return -1;
        for (int s = 1; s < d.num_operands; ++s)
          if (d.ops[s].k == operand::kind::vreg && d.ops[s].value == o.value) return -1;
      }
    }
    return i;
  }
  return -1;
}

// An upper bound of a 32-bit VGPR's value where the lowering can see one: a work-item id
// (below 1024), the result of a recent v_and_b32 with a constant mask or of a logical shift
// right by a constant; else 0xffffffff.
constexpr uint32_t max_value(const builder& b, const operand& o) {
  if (o.k != operand::kind::vreg || o.offset != 0 || o.dwords != 1) return 0xffffffffu;
  for (int dim = 0; dim < 3; ++dim)
    if (b.thread_id_vreg(dim) >= 0 && o.value == static_cast<uint64_t>(b.thread_id_vreg(dim))) return 1023u;
  const int i = recent_def(b, static_cast<uint32_t>(o.value));
  if (i < 0) return 0xffffffffu;
  const instr& d = b.fn.blocks[b.cur_block()].instrs[i];
  const O op = static_cast<O>(d.op);
  if (op == O::v_and_b32) {
    uint32_t m = 0xffffffffu;
    for (int j = 1; j < 3; ++j)
      if (lower::is_imm(d.ops[j]) && static_cast<uint32_t>(d.ops[j].value) < m) m = static_cast<uint32_t>(d.ops[j].value);
    return m;
  }
  if (op == O::v_lshrrev_b32 && lower::is_imm(d.ops[1])) return 0xffffffffu >> (d.ops[1].value & 31);
  return 0xffffffffu;
}

// Sources a VOP3 instruction can take as they are: no literal, one constant-bus register.
constexpr bool vop3_legal(const operand* s, int n) {
  int bus = -1;
  for (int i = 0; i < n; ++i) {
    if (lower::is_imm(s[i]) && !lower::inline_const(s[i], false)) return false;
    if (lower::is_sgpr(s[i])) {
      if (bus >= 0 && !lower::same_reg(s[bus], s[i])) return false;
      bus = i;
    }
  }
  return true;
}

// Integer a op c without the operator's own instruction where a constant makes it an
// identity (x + 0, x - 0, x * 1, x & -1, x | 0, x ^ 0, shifts by 0: the result is x) or a
// constant (x * 0, x & 0, 0 << x, 0 >> x), and as one fused VALU instruction where an operand
// was just computed by a shift, add or and: (x << k) + y -> v_lshl_add_u32, (x + y) + z ->
// v_add3_u32, (x << k) | y -> v_lshl_or_b32, (x & m) | y -> v_and_or_b32. An identity returns
// x itself only when x is this expression's own temporary (xval::fresh), else a copy of x
// (coalesced away where possible). False: nothing done.
constexpr bool fold_int(lower& L, binop o, const xval& a, const xval& c, bool vec, reg_ref& out) {
  builder& b = L.b;
  if (a.is_imm() || c.is_imm()) {
    const bool ci = c.is_imm();
    const xval& x = ci ? a : c;
    const uint64_t kv = (ci ? c : a).op.value;
    const uint32_t k = static_cast<uint32_t>(kv);
    const bool commutative = o == binop::add || o == binop::mul || o == binop::band || o == binop::bor || o == binop::bxor;
    bool identity = false, zero = false;
    if (ci || commutative) {
      identity = ((o == binop::add || o == binop::sub || o == binop::bor || o == binop::bxor || o == binop::shl ||
                   o == binop::shr) && k == 0) ||
                 (o == binop::mul && k == 1) || (o == binop::band && k == 0xffffffffu);
      zero = (o == binop::mul || o == binop::band) && k == 0;
    } else {
      zero = (o == binop::shl || o == binop::shr) && k == 0;  // 0 << x, 0 >> x (unsigned or signed)
    }
    if (identity && x.fresh && x.op.k == operand::kind::vreg && x.op.offset == 0 && x.op.dwords == 1 &&
        b.fn.vregs[x.op.value].dwords == 1) {
      out = reg_ref{&b, static_cast<uint32_t>(x.op.value), x.op.cls, 0, 1};
      return true;
    }
    if (zero) {
      out = L.tmp(vec ? reg_class::vgpr : reg_class::sgpr);
      L.e(vec ? O::v_mov_b32 : O::s_mov_b32, {reg_op(out), imm_op(0)});
      return true;
    }
    if (identity) {
      // x is a named register (read again later): a copy, which register coalescing removes
      // where x and the result do not interfere (an add of 0 would stay an instruction).
      out = L.tmp(vec ? reg_class::vgpr : reg_class::sgpr);
      L.e(vec ? O::v_mov_b32 : O::s_mov_b32, {reg_op(out), x.op});
      return true;
    }
    // x * k, k not a power of two (those are shifts), in one full-rate VALU instruction:
    // k = 2^j + 1 as (x << j) + x; x and k below 2^24 (a work-item id, a masked value) as
    // v_mul_u32_u24 (its low 32 product bits are x * k's). Else v_mul_lo_u32 (quarter rate).
    if (o == binop::mul && vec && k > 2 && (k & (k - 1)) != 0) {
      const int j = log2_exact(k - 1);
      if (j > 0) {
        operand s3[3] = {x.op, imm_op(static_cast<uint32_t>(j)), x.op};
        if (vop3_legal(s3, 3)) {
          out = L.tmp(reg_class::vgpr);
          L.e(O::v_lshl_add_u32, {reg_op(out), s3[0], s3[1], s3[2]});
          return true;
        }
      }
      if (x.is_reg(reg_class::vgpr) && k < (1u << 24) && max_value(b, x.op) < (1u << 24)) {
        out = L.tmp(reg_class::vgpr);
        L.valu2(O::v_mul_u32_u24, O::v_mul_u32_u24, true, reg_op(out), imm_op(k), x.op);
        return true;
      }
    }
  }
  if (!vec || (o != binop::add && o != binop::bor)) return false;
  for (int side = 0; side < 2; ++side) {
    const xval& x = side ? c : a;
    const xval& y = side ? a : c;
    if (!x.is_reg(reg_class::vgpr) || x.op.offset != 0 || x.op.dwords != 1 || b.fn.vregs[x.op.value].dwords != 1)
      continue;
    const int i = recent_def(b, static_cast<uint32_t>(x.op.value));
    if (i < 0) continue;
    const instr& d = b.fn.blocks[b.cur_block()].instrs[i];
    const O dop = static_cast<O>(d.op);
    O fused{};
    operand s[3] = {d.ops[1], d.ops[2], y.op};
    if (dop == O::v_lshlrev_b32 && lower::is_imm(d.ops[1])) {
      fused = o == binop::add ? O::v_lshl_add_u32 : O::v_lshl_or_b32;
      s[0] = d.ops[2];  // the value, then the amount
      s[1] = d.ops[1];
    } else if (dop == O::v_add_u32 && o == binop::add) {
      fused = O::v_add3_u32;
    } else if (dop == O::v_mul_u32_u24 && o == binop::add) {
      fused = O::v_mad_u32_u24;  // (a literal factor stays: VOP3 cannot take it)
    } else if (dop == O::v_and_b32 && o == binop::bor) {
      fused = O::v_and_or_b32;
    } else {
      continue;
    }
    if (!vop3_legal(s, 3)) continue;
    out = L.tmp(reg_class::vgpr);
    L.e(fused, {reg_op(out), s[0], s[1], s[2]});
    return true;
  }
  return false;
}


constexpr reg_ref lower_binary(binop o, const xval& a, const xval& c) {
  builder* bp = pick_builder(a, c);
  if (!bp) return {};
  builder& b = *bp;
  src_loc l = c.loc.line ? c.loc : (a.loc.line ? a.loc : b.cur_loc());
  b.note_loc(l);
  if (b.err.failed) return b.new_reg(reg_class::vgpr, dwords_of(a.t), 1, l);
  if (any_agpr(a, c)) {
    b.fail(l, "an AGPR cannot be an expression operand: copy it to a VGPR first (v_accvgpr_read_b32)");
    return b.new_reg(reg_class::vgpr, 1, 1, l);
  }
  lower L{b, l};
  uint32_t first = b.cur_index();
  uint32_t block = b.cur_block();
  bool f32 = a.t == dtype::f32;
  bool vec = f32 || a.is_reg(reg_class::vgpr) || c.is_reg(reg_class::vgpr);
  bool sgn = a.t == dtype::i32;
  reg_ref out{};
  if (!f32 && o != binop::div && o != binop::rem && o != binop::min && o != binop::max && b.options().fold &&
      fold_int(L, o, a, c, vec, out)) {
    // (folded or fused)
  } else if (f32) {
    reg_ref d = L.tmp(reg_class::vgpr);
    operand D = reg_op(d);
    switch (o) {
      case binop::add: L.valu2(O::v_add_f32, O::v_add_f32, true, D, a.op, c.op); break;
      case binop::sub: L.valu2(O::v_sub_f32, O::v_subrev_f32, true, D, a.op, c.op); break;
      case binop::mul: L.valu2(O::v_mul_f32, O::v_mul_f32, true, D, a.op, c.op); break;
      case binop::min: L.valu2(O::v_min_f32, O::v_min_f32, true, D, a.op, c.op); break;
      case binop::max: L.valu2(O::v_max_f32, O::v_max_f32, true, D, a.op, c.op); break;
      case binop::div: lower_fdiv(L, D, a.op, c.op); break;
      default: b.fail(l, "operator not defined for f32"); break;
    }
    out = d;
  } else if (o == binop::mul && (c.is_imm() || a.is_imm()) &&
             log2_exact(static_cast<uint32_t>((c.is_imm() ? c : a).op.value)) >= 0) {
    // multiply by a power of two: a shift (full rate, and no 24-bit pitfall)
    const xval& x = c.is_imm() ? a : c;
    int k = log2_exact(static_cast<uint32_t>((c.is_imm() ? c : a).op.value));
    reg_ref d = L.tmp(vec ? reg_class::vgpr : reg_class::sgpr);
    if (k == 0) {
      if (vec) L.e(O::v_mov_b32, {reg_op(d), x.op});
      else L.e(O::s_mov_b32, {reg_op(d), x.op});
    } else if (vec) {
      L.valu2(O::v_lshlrev_b32, O{}, false, reg_op(d), imm_op(static_cast<uint32_t>(k)), x.op);
    } else {
      L.salu2(O::s_lshl_b32, reg_op(d), x.op, imm_op(static_cast<uint32_t>(k)));
    }
    out = d;
  } else if (o == binop::div || o == binop::rem) {
    out = lower_divrem(L, vec, sgn, o == binop::rem, a, c);
  } else {
    reg_ref d = L.tmp(vec ? reg_class::vgpr : reg_class::sgpr);
    operand D = reg_op(d);
    if (vec) {
      switch (o) {
        case binop::add: L.valu2(O::v_add_u32, O::v_add_u32, true, D, a.op, c.op); break;
        case binop::sub: L.valu2(O::v_sub_u32, O::v_subrev_u32, true, D, a.op, c.op); break;
        case binop::mul: L.valu3(O::v_mul_lo_u32, D, a.op, c.op); break;
        case binop::shl: L.valu2(O::v_lshlrev_b32, O{}, false, D, c.op, a.op); break;
        case binop::shr: L.valu2(sgn ? O::v_ashrrev_i32 : O::v_lshrrev_b32, O{}, false, D, c.op, a.op); break;
        case binop::band: L.valu2(O::v_and_b32, O::v_and_b32, true, D, a.op, c.op); break;
        case binop::bor: L.valu2(O::v_or_b32, O::v_or_b32, true, D, a.op, c.op); break;
        case binop::bxor: L.valu2(O::v_xor_b32, O::v_xor_b32, true, D, a.op, c.op); break;
        case binop::min: L.valu2(sgn ? O::v_min_i32 : O::v_min_u32, sgn ? O::v_min_i32 : O::v_min_u32, true, D, a.op, c.op); break;
        case binop::max: L.valu2(sgn ? O::v_max_i32 : O::v_max_u32, sgn ? O::v_max_i32 : O::v_max_u32, true, D, a.op, c.op); break;
        default: break;
      }
    } else {
      switch (o) {
        case binop::add: L.salu2(O::s_add_u32, D, a.op, c.op); break;
        case binop::sub: L.salu2(O::s_sub_u32, D, a.op, c.op); break;
        case binop::mul: L.salu2(O::s_mul_i32, D, a.op, c.op); break;
        case binop::shl: L.salu2(O::s_lshl_b32, D, a.op, c.op); break;
        case binop::shr: L.salu2(sgn ? O::s_ashr_i32 : O::s_lshr_b32, D, a.op, c.op); break;
        case binop::band: L.salu2(O::s_and_b32, D, a.op, c.op); break;
        case binop::bor: L.salu2(O::s_or_b32, D, a.op, c.op); break;
        case binop::bxor: L.salu2(O::s_xor_b32, D, a.op, c.op); break;
        case binop::min: L.salu2(sgn ? O::s_min_i32 : O::s_min_u32, D, a.op, c.op); break;
        case binop::max: L.salu2(sgn ? O::s_max_i32 : O::s_max_u32, D, a.op, c.op); break;
        default: break;
      }
    }
    out = d;
  }
  out.b = &b;
  if (b.cur_block() == block) {
    if (b.cur_index() != first) {
      b.last_expr_ = {out.id, block, first, b.cur_index()};
    } else {
      // An identity returned its operand: the record of the expression that computed it
      // still describes the result (retargeting then moves that computation); otherwise none.
      const auto& r = b.last_expr_;
      if (!(r.id == out.id && r.block == block && r.end == first)) b.last_expr_ = {};
    }
  }
  return out;
}


// 64-bit a + off with a VGPR result as one v_lshl_add_u64 (D = (S0 << S1) + S2; shifts 0..4,
// the range LLVM uses it for): no carry through VCC (so no s_nop before a v_addc reading
// it), and a 32-bit offset just shifted by 1..4 is shifted by the instruction itself. A
// 32-bit offset becomes a pair (itself, zero or its sign) first. False: the caller's
// v_add_co_u32/v_addc_co_u32 pair (offsets in SGPRs, literals).
constexpr bool add64_fused(lower& L, const xval& a, const xval& off, bool off_signed, reg_ref& out) {
  builder& b = L.b;
  auto pair_ok = [&](const xval& v) {
    return v.op.k == operand::kind::vreg && v.op.dwords == 2 && v.op.offset % 2 == 0 &&
           (v.op.cls == reg_class::vgpr || v.op.cls == reg_class::sgpr);
  };
  if (!pair_ok(a)) return false;
  operand s0{}, s2 = a.op;
  uint32_t k = 0;
  if (off.is_imm()) {
    if (!a.is_reg(reg_class::vgpr) || off.op.value > 64) return false;  // inline constants only
    s0 = a.op;
    s2 = imm_op(off.op.value, 2);
  } else if (off.op.dwords == 2) {
    if (!pair_ok(off) || (off.is_reg(reg_class::sgpr) && a.is_reg(reg_class::sgpr))) return false;
    s0 = off.op;
  } else if (off.is_reg(reg_class::vgpr)) {
    operand x = off.op;
    if (!off_signed && off.op.offset == 0 && b.fn.vregs[off.op.value].dwords == 1) {
      const int i = recent_def(b, static_cast<uint32_t>(off.op.value));
      if (i >= 0) {
        const instr& d = b.fn.blocks[b.cur_block()].instrs[i];
        // (only when the 32-bit shift dropped no bit: the 64-bit one keeps them)
        if (static_cast<O>(d.op) == O::v_lshlrev_b32 && lower::is_imm(d.ops[1]) && d.ops[1].value >= 1 &&
            d.ops[1].value <= 4 && lower::is_vgpr(d.ops[2]) &&
            (uint64_t{max_value(b, d.ops[2])} << d.ops[1].value) <= 0xffffffffull) {
          x = d.ops[2];
          k = static_cast<uint32_t>(d.ops[1].value);
        }
      }
    }
    reg_ref p = L.tmp(reg_class::vgpr, 2);
    operand lo = reg_op(p), hi = reg_op(p);
    lo.dwords = hi.dwords = 1;
    hi.offset = 1;
    L.e(O::v_mov_b32, {lo, x});
    if (off_signed) L.e(O::v_ashrrev_i32, {hi, imm_op(31), x});
    else L.e(O::v_mov_b32, {hi, imm_op(0)});
    s0 = reg_op(p);
  } else {
    return false;
  }
  for (const operand* o : {&s0, &s2})
    if (o->k == operand::kind::vreg && b.fn.vregs[o->value].align < 2) b.fn.vregs[o->value].align = 2;
  out = L.tmp(reg_class::vgpr, 2);
  L.e(O::v_lshl_add_u64, {reg_op(out), s0, imm_op(k), s2});
  return true;
}

// 64-bit a +/- off (off: 64-bit register, 32-bit register zero/sign-extended, or immediate).
constexpr reg_ref lower_add64(const xval& a, const xval& off, bool off_signed, bool subtract) {
  builder* bp = pick_builder(a, off);
  if (!bp) return {};
  builder& b = *bp;
  src_loc l = off.loc.line ? off.loc : (a.loc.line ? a.loc : b.cur_loc());
  b.note_loc(l);
  if (b.err.failed || any_agpr(a, off)) {
    if (!b.err.failed) b.fail(l, "an AGPR cannot be an expression operand");
    return b.new_reg(reg_class::vgpr, 2, 2, l);
  }
  lower L{b, l};
  uint32_t first = b.cur_index();
  uint32_t block = b.cur_block();
  bool vec = a.is_reg(reg_class::vgpr) || off.is_reg(reg_class::vgpr);
  auto half = [](const operand& o, int h) {
    operand r = o;
    if (o.k == operand::kind::imm) {
      r.value = h ? (o.value >> 32) : (o.value & 0xffffffffu);
      // keep 32-bit immediates printable as small signed numbers
      if (static_cast<int32_t>(r.value) < 0 && static_cast<int32_t>(r.value) >= -16)
        r.value = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(r.value)));
    } else {
      r.offset = static_cast<uint16_t>(o.offset + h);
    }
    r.dwords = 1;
    return r;
  };
  if (vec && !subtract && b.options().fold) {
    reg_ref r{};
    if (add64_fused(L, a, off, off_signed, r)) {
      r.b = &b;
      if (b.cur_block() == block) b.last_expr_ = {r.id, block, first, b.cur_index()};
      return r;
    }
  }
  operand alo = half(a.op, 0), ahi = half(a.op, 1);
  operand olo = half(off.op, 0), ohi{};
  if (off.is_imm()) {
    ohi = half(off.op, 1);
  } else if (off.op.dwords == 2) {
    ohi = half(off.op, 1);
  } else if (off_signed) {
    int_ops I{L, vec && off.is_reg(reg_class::vgpr)};
    ohi = I.shr(off.op, imm_op(31), true);
  } else {
    ohi = imm_op(0);
  }
  reg_ref d = L.tmp(vec ? reg_class::vgpr : reg_class::sgpr, 2);
  operand dlo = reg_op(d), dhi = reg_op(d);
  dlo.dwords = dhi.dwords = 1;
  dhi.offset = 1;
  if (!vec) {
    L.salu2(subtract ? O::s_sub_u32 : O::s_add_u32, dlo, alo, olo);
    L.salu2(subtract ? O::s_subb_u32 : O::s_addc_u32, dhi, ahi, ohi);
  } else {
    operand VCC = special_op(special_reg::vcc, 2);
    // low: src1 must be a VGPR (carry-out to VCC keeps the e32 form)
    auto arrange = [&](operand& x, operand& y, bool& rev) {
      rev = false;
      if (!L.is_vgpr(y)) {
        if (L.is_vgpr(x)) {
          operand t = x;
          x = y;
          y = t;
          rev = true;
        } else {
          y = L.vmov(y);
        }
      }
    };
    // high with carry-in: VCC uses the constant bus, so both sources are VGPRs or inline.
    operand x = ahi, y = ohi;
    bool rev = false;
    if (!L.is_vgpr(y) && (L.is_vgpr(x) || (lower::is_imm(y) && !lower::is_imm(x)))) {
      operand t = x;
      x = y;
      y = t;
      rev = true;
    }
    if (!L.is_vgpr(y)) y = L.vmov(y);
    if (L.is_sgpr(x) || !L.inline_const(x, false)) x = L.vmov(x);
    // (high operands first: their moves then sit away from the carry they feed)
    operand hx = x, hy = y;
    bool hrev = rev;
    x = alo;
    y = olo;
    arrange(x, y, rev);
    if (!subtract) L.e(O::v_add_co_u32, {dlo, VCC, x, y});
    else L.e(rev ? O::v_subrev_co_u32 : O::v_sub_co_u32, {dlo, VCC, x, y});
    x = hx;
    y = hy;
    rev = hrev;
    if (!subtract) L.e(O::v_addc_co_u32, {dhi, VCC, x, y, VCC});
    else L.e(rev ? O::v_subbrev_co_u32 : O::v_subb_co_u32, {dhi, VCC, x, y, VCC});
  }
  d.b = &b;
  if (b.cur_block() == block) b.last_expr_ = {d.id, block, first, b.cur_index()};
  return d;
}

// -x, abs(x), ~x into dst (or a new temporary).
constexpr reg_ref lower_unary(const xval& a, bool neg, bool absolute, bool bnot, const reg_ref* dst) {
  if (!a.b) return {};
  builder& b = *a.b;
  src_loc l = a.loc.line ? a.loc : b.cur_loc();
  if (b.err.failed) return dst ? *dst : b.new_reg(reg_class::vgpr, dwords_of(a.t), 1, l);
  if (a.is_reg(reg_class::agpr)) {
    b.fail(l, "an AGPR cannot be an expression operand: copy it to a VGPR first");
    return b.new_reg(reg_class::vgpr, 1, 1, l);
  }
  lower L{b, l};
  bool vec = a.is_reg(reg_class::vgpr);
  if (a.t == dtype::f64) {
    if (bnot) {
      b.fail(l, "~ is not defined for f64");
      return {};
    }
    // sign bit of the high dword; low dword copied
    reg_ref d = dst ? *dst : L.tmp(vec ? reg_class::vgpr : reg_class::sgpr, 2);
    operand dlo = reg_op(d), dhi = reg_op(d), alo = a.op, ahi = a.op;
    dlo.dwords = dhi.dwords = alo.dwords = ahi.dwords = 1;
    dhi.offset = static_cast<uint16_t>(d.off + 1);
    ahi.offset = static_cast<uint16_t>(a.op.offset + 1);
    if (d.cls == reg_class::vgpr) L.e(O::v_mov_b32, {dlo, alo});
    else L.e(O::s_mov_b32, {dlo, alo});
    xval hx{a.b, ahi, dtype::f32, l};
    reg_ref dh{&b, d.id, d.cls, dhi.offset, 1};
    lower_unary(hx, neg, absolute, false, &dh);
    d.b = &b;
    return d;
  }
  if (dwords_of(a.t) != 1 || (a.t != dtype::f32 && !is_int32(a.t) && !bnot)) {
    b.fail(l, "unary -/abs are defined for u32, i32, f32 and f64 registers (use the packed instructions for ", dtype_name(a.t), ")");
    return dst ? *dst : b.new_reg(reg_class::vgpr, 1, 1, l);
  }
  uint32_t first = b.cur_index();
  uint32_t block = b.cur_block();
  reg_class dc = dst ? dst->cls : (vec ? reg_class::vgpr : reg_class::sgpr);
  if (dc == reg_class::sgpr && vec) {
    b.fail(l, "cannot assign a per-lane (VGPR) value to an SGPR (use v_readfirstlane_b32)");
    return *dst;
  }
  reg_ref d = dst ? *dst : L.tmp(dc);
  if (dc == reg_class::agpr) d = L.tmp(reg_class::vgpr);
  operand D = reg_op(d);
  bool v = d.cls == reg_class::vgpr;
  if (bnot) {
    if (v) L.e(O::v_not_b32, {D, a.op});
    else L.e(O::s_not_b32, {D, a.op});
  } else if (a.t == dtype::f32) {
    // IEEE sign-bit operations: exact for -0.0, NaN and infinities.
    uint32_t mask = absolute ? (neg ? 0x80000000u : 0x7fffffffu) : 0x80000000u;
    O sop = absolute ? (neg ? O::s_or_b32 : O::s_and_b32) : O::s_xor_b32;
    O vop = absolute ? (neg ? O::v_or_b32 : O::v_and_b32) : O::v_xor_b32;
    if (!neg && !absolute) {
      if (v) L.e(O::v_mov_b32, {D, a.op});
      else L.e(O::s_mov_b32, {D, a.op});
    } else if (v) {
      L.valu2(vop, vop, true, D, imm_op(mask), a.op);
    } else {
      L.e(sop, {D, a.op, imm_op(mask)});
    }
  } else {
    int_ops I{L, v};
    if (absolute) {
      if (v) {
        operand t = I.neg(a.op);
        if (neg) {
          operand m = I.dst();
          L.valu2(O::v_max_i32, O::v_max_i32, true, m, a.op, t);
          L.valu2(O::v_sub_u32, O::v_subrev_u32, true, D, imm_op(0), m);
        } else {
          L.valu2(O::v_max_i32, O::v_max_i32, true, D, a.op, t);
        }
      } else if (neg) {
        operand t = I.dst();
        L.e(O::s_abs_i32, {t, a.op});
        L.e(O::s_sub_u32, {D, imm_op(0), t});
      } else {
        L.e(O::s_abs_i32, {D, a.op});
      }
    } else if (neg) {
      if (v) L.valu2(O::v_sub_u32, O::v_subrev_u32, true, D, imm_op(0), a.op);
      else L.e(O::s_sub_u32, {D, imm_op(0), a.op});
    } else {
      if (v) L.e(O::v_mov_b32, {D, a.op});
      else L.e(O::s_mov_b32, {D, a.op});
    }
  }
  if (dst && dst->cls == reg_class::agpr) {
    L.e(O::v_accvgpr_write_b32, {reg_op(*dst), D});
    return *dst;
  }
  d.b = &b;
  if (!dst && b.cur_block() == block) b.last_expr_ = {d.id, block, first, b.cur_index()};
  return d;
}

constexpr xval materialize_unary(const xval& a, bool neg, bool absolute, bool bnot) {
  reg_ref r = lower_unary(a, neg, absolute, bnot, nullptr);
  return xval{a.b, reg_op(r), a.t, a.loc};
}

constexpr cond make_cond(cmpop o, const xval& a, const xval& c) {
  if (builder* b = pick_builder(a, c)) b->note_loc(c.loc.line ? c.loc : a.loc);
  return cond{o, false, a, c, c.loc.line ? c.loc : a.loc};
}

// dst = src (per dword; class conversions where the hardware has them).
constexpr void assign(const reg_ref& dst, dtype t, const xval& src) {
  if (!dst.b) return;
  builder& b = *dst.b;
  src_loc l = src.loc.line ? src.loc : b.cur_loc();
  b.note_loc(l);
  if (b.err.failed) return;
  lower L{b, l};
  if (src.op.k == operand::kind::vreg && src.op.dwords != dst.dwords) {
    b.fail(l, "assignment between register views of different widths (", static_cast<long long>(src.op.dwords),
           " and ", static_cast<long long>(dst.dwords), " dwords)");
    return;
  }
  if (src.op.k == operand::kind::vreg && src.op.value == dst.id && src.op.offset == dst.off) return;
  uint16_t n = dst.dwords;
  uint16_t per = dwords_of(t);
  for (uint16_t i = 0; i < n; ++i) {
    operand D = reg_op(dst);
    D.offset = static_cast<uint16_t>(dst.off + i);
    D.dwords = 1;
    operand S = src.op;
    S.dwords = 1;
    if (S.k == operand::kind::imm) {
      // broadcast an immediate into every element (the low/high dword for 64-bit types)
      uint64_t v = src.op.value;
      uint32_t part = per == 2 ? static_cast<uint32_t>((i % 2) ? (v >> 32) : v) : static_cast<uint32_t>(v);
      S.value = static_cast<int32_t>(part) >= -16 && static_cast<int32_t>(part) < 0
                    ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(part)))
                    : part;
    } else {
      S.offset = static_cast<uint16_t>(src.op.offset + i);
    }
    bool s_v = S.k == operand::kind::vreg && S.cls == reg_class::vgpr;
    bool s_a = S.k == operand::kind::vreg && S.cls == reg_class::agpr;
    switch (dst.cls) {
      case reg_class::sgpr:
        if (s_v || s_a) {
          b.fail(l, "cannot assign a per-lane (", s_v ? "VGPR" : "AGPR", ") value to an SGPR (use v_readfirstlane_b32)");
          return;
        }
        L.e(O::s_mov_b32, {D, S});
        break;
      case reg_class::vgpr:
        if (s_a) L.e(O::v_accvgpr_read_b32, {D, S});
        else L.e(O::v_mov_b32, {D, S});
        break;
      case reg_class::agpr:
        if (s_a) L.e(O::v_accvgpr_mov_b32, {D, S});
        else if (S.k == operand::kind::imm && !L.inline_const(S, t == dtype::f32)) L.e(O::v_accvgpr_write_b32, {D, L.vmov(S)});
        else L.e(O::v_accvgpr_write_b32, {D, S});
        break;
    }
  }
}

// dst = the result of the expression that made tmp.
constexpr void assign_temp(const reg_ref& dst, dtype t, const reg_ref& tmp) {
  if (!dst.b) return;
  builder& b = *dst.b;
  // (retargeting makes the expression's instructions write dst: a write at this depth)
  if (dst.cls == reg_class::sgpr && b.lane_depth_ != 0 && b.wave_uniform_ == 0 && !b.err.failed &&
      dst.id < b.fn.vregs.size() && b.fn.vregs[dst.id].lane_depth < b.lane_depth_)
    return b.wave_write_error(dst.id, "the assignment", b.cur_loc());
  const auto& rec = b.last_expr_;
  bool can = !b.err.failed && rec.id == tmp.id && tmp.off == 0 && tmp.id < b.fn.vregs.size() &&
             b.fn.vregs[tmp.id].dwords == tmp.dwords && tmp.dwords == dst.dwords && tmp.cls == dst.cls &&
             rec.block == b.cur_block() && rec.end == b.cur_index() && dst.id != tmp.id &&
             dst.off % builder::natural_align(dst.cls, dst.dwords) == 0;
  if (can) {
    // Safe unless the sequence reads a dword of dst after writing the same dword of tmp
    // (after retargeting that read would see the new value).
    auto& ins = b.fn.blocks[rec.block].instrs;
    uint64_t written = 0;  // dwords of tmp written so far
    for (uint32_t i = rec.first; i < rec.end && can; ++i) {
      const instr& in = ins[i];
      const isa::instr_desc& d = op_desc(static_cast<O>(in.op));
      uint64_t defs = 0;
      for (uint32_t j = 0; j < in.num_operands; ++j) {
        const operand& o = in.ops[j];
        if (o.k != operand::kind::vreg) continue;
        for (uint32_t w = 0; w < o.dwords; ++w) {
          if (o.value == dst.id && d.operands[j].role != isa::operand_role::def) {
            int64_t rel = static_cast<int64_t>(o.offset + w) - dst.off;
            if (rel >= 0 && rel < dst.dwords && ((written >> rel) & 1)) can = false;
          }
          if (o.value == tmp.id && d.operands[j].role != isa::operand_role::use && o.offset + w < 64)
            defs |= uint64_t{1} << (o.offset + w);
        }
      }
      written |= defs;
    }
  }
  if (can) {
    auto& ins = b.fn.blocks[rec.block].instrs;
    for (uint32_t i = rec.first; i < rec.end; ++i)
      for (uint32_t j = 0; j < ins[i].num_operands; ++j) {
        operand& o = ins[i].ops[j];
        if (o.k == operand::kind::vreg && o.value == tmp.id) {
          o.value = dst.id;
          o.offset = static_cast<uint16_t>(o.offset + dst.off);
        }
      }
    uint16_t need = builder::natural_align(dst.cls, dst.dwords);
    if (b.fn.vregs[dst.id].align < need) b.fn.vregs[dst.id].align = need;
    if (b.memo_.live) b.memo_note_def(dst.id);  // (the expression's instructions write dst now)
    b.last_expr_ = {};
    return;
  }
  operand S = reg_op(tmp);
  assign(dst, t, xval{&b, S, t, b.cur_loc()});
}

}  // namespace hipasm::detail

namespace hipasm {
// f32 a / b (correctly rounded; detail::lower_fdiv). The register handles' own `/` is the
// integer one; this overload, found by argument-dependent lookup, takes f32 operands
// (registers, -x/abs(x), float immediates), and val's conversion records the user's line.
constexpr gpr<dtype::f32> operator/(const val<dtype::f32>& a, const val<dtype::f32>& c) {
  return gpr<dtype::f32>(detail::lower_binary(detail::binop::div, a.x, c.x));
}
}  // namespace hipasm
