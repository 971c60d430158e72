// Offsets of memory accesses with their constant part kept apart, so that buffer and LDS
// helpers put it into the instruction's offset field (offset:, offset0/offset1) instead of
// computing it into a register.
//
//   A.load(v, voff + 64);        // buffer_load_dword v, voff, s[..], 0 offen offset:64
//   A.load(v, voff);             // a register offset (VGPR -> voffset, SGPR -> soffset)
//   A.load(v, at(voff) + s + 8); // several terms: one VGPR, one SGPR, a constant
//
// Expressions are lowered eagerly (`voff + 64` emits a v_add_u32 when it is evaluated).
// A `mem_offset` made from an expression RESULT (an rvalue: the temporary `voff + 64`, not a
// named register) takes the result apart again: when the expression's last instruction adds
// a constant to a register (v_add_u32 / v_sub_u32 / s_add / s_sub with an immediate, or the
// immediate addend of v_add3_u32 / v_lshl_add_u32 / v_mad_u32_u24), that instruction is
// removed (or shortened to the non-constant part) and the constant kept here. A named
// register (`auto o = voff + 64; A.load(v, o);`) is an lvalue and used as it is: its register
// must stay written. Removing the expression's last instruction is safe because an rvalue
// result is read by nothing else and the instruction writes nothing but that result.
#pragma once
#include <cstdint>
#include <source_location>

#include "../builder.hpp"

namespace hipasm {

namespace detail {

// An IR operand as an instruction-call argument.
constexpr operand_arg as_arg(const operand& o) {
  operand_arg a;
  a.op = o;
  return a;
}

// The constant added by the last instruction of the expression that made the register
// `id`, taken out of it: returns true with `base` (the register operand left) and `c` (the
// constant, as a signed 32-bit value) when the expression ended in such an add.
constexpr bool peel_constant(builder& b, uint32_t id, operand& base, int64_t& c) {
  if (b.err.failed) return false;
  const expr_record rec = b.last_expr_;
  if (rec.id != id || rec.block != b.cur_block() || rec.end != b.cur_index() || rec.end <= rec.first) return false;
  vec<instr>& list = b.fn.blocks[rec.block].instrs;
  instr& in = list[rec.end - 1];
  if (!in.mods.none()) return false;
  const operand& d = in.ops[0];
  if (d.k != operand::kind::vreg || d.value != id || d.offset != 0 || d.dwords != 1) return false;
  auto imm32 = [](const operand& o) { return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(o.value))); };
  auto is_imm = [](const operand& o) { return o.k == operand::kind::imm; };
  auto is_reg = [](const operand& o) { return o.k == operand::kind::vreg; };
  const O op = static_cast<O>(in.op);
  const operand& s0 = in.ops[1];
  const operand& s1 = in.ops[2];
  bool drop = false;  // remove the instruction (base is one of its sources)
  if (op == O::v_add_u32 || op == O::s_add_u32 || op == O::s_add_i32) {
    if (is_imm(s0) && is_reg(s1)) base = s1, c = imm32(s0), drop = true;
    else if (is_reg(s0) && is_imm(s1)) base = s0, c = imm32(s1), drop = true;
    else return false;
  } else if (op == O::v_sub_u32 || op == O::s_sub_u32 || op == O::s_sub_i32) {
    if (is_reg(s0) && is_imm(s1)) base = s0, c = -imm32(s1), drop = true;
    else return false;
  } else if (op == O::v_subrev_u32) {  // d = src1 - src0
    if (is_imm(s0) && is_reg(s1)) base = s1, c = -imm32(s0), drop = true;
    else return false;
  } else if (op == O::v_mov_b32 || op == O::s_mov_b32) {  // a copy: `x + 0` of a named x (fold_int)
    if (is_reg(s0)) base = s0, c = 0, drop = true;
    else return false;
  } else if (op == O::v_add3_u32 || op == O::v_lshl_add_u32 || op == O::v_mad_u32_u24) {
    // d = f(a, b) + imm: keep d = f(a, b) as a two-source instruction.
    const operand& s2 = in.ops[3];
    if (!is_imm(s2)) return false;
    operand a = s0, x = s1;
    O two = op == O::v_add3_u32 ? O::v_add_u32 : op == O::v_mad_u32_u24 ? O::v_mul_u32_u24 : O::v_lshlrev_b32;
    if (op == O::v_lshl_add_u32) {
      a = s1, x = s0;  // v_lshlrev_b32 d, shift, value: the value must be the VGPR (src1)
      if (!lower::is_vgpr(x)) return false;
    } else if (!lower::is_vgpr(x)) {
      if (!lower::is_vgpr(a)) return false;
      operand t = a;
      a = x;
      x = t;
    }
    c = imm32(s2);
    in.op = static_cast<uint16_t>(two);
    in.num_operands = 3;
    in.ops[1] = a;
    in.ops[2] = x;
    in.ops[3] = operand{};
    base = d;
    b.last_expr_ = {};
    return true;
  } else {
    return false;
  }
  if (base.dwords != 1) return false;
  if (drop) list.pop_back();
  b.last_expr_ = {};
  return true;
}

}  // namespace detail

// A byte offset: at most one VGPR term, at most one SGPR term, and a constant (see the head
// comment). Terms of the same class added together are summed with one v_add/s_add when the
// offset is used.
struct mem_offset {
  builder* b = nullptr;
  operand vterm[2]{};  // VGPR terms (kind none: absent)
  operand sterm[2]{};  // SGPR terms
  int64_t c = 0;
  uint32_t mult = 1;   // the register terms' sum is known to be a multiple of this (multiple_of)
  src_loc loc{};

  constexpr mem_offset() = default;
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
  constexpr mem_offset(I v) : c(static_cast<int64_t>(v)) {}
  // A named register (or a view of one): used as it is.
  template <dtype T>
    requires(T == dtype::u32 || T == dtype::i32)
  constexpr mem_offset(const gpr<T>& g, std::source_location l = std::source_location::current()) {
    add_reg(g.b, g.to_operand(), l);
  }
  // An expression result: its constant is taken back out of the register.
  template <dtype T>
    requires(T == dtype::u32 || T == dtype::i32)
  constexpr mem_offset(gpr<T>&& g, std::source_location l = std::source_location::current()) {
    operand base{};
    int64_t k = 0;
    if (g.b && g.is_result() && detail::peel_constant(*g.b, g.id, base, k)) {
      add_reg(g.b, base, l);
      c += k;
    } else {
      add_reg(g.b, g.to_operand(), l);
    }
  }

  constexpr mem_offset& operator+=(const mem_offset& o) {
    if (!o.constant()) mult = constant() ? o.mult : gcd(mult, o.mult);
    if (!b) b = o.b;
    if (!loc.line) loc = o.loc;
    for (const operand& t : o.vterm)
      if (t.k != operand::kind::none) put(vterm, t);
    for (const operand& t : o.sterm)
      if (t.k != operand::kind::none) put(sterm, t);
    c += o.c;
    return *this;
  }
  friend constexpr mem_offset operator+(mem_offset a, const mem_offset& o) { return a += o; }
  friend constexpr mem_offset operator-(mem_offset a, int64_t k) {
    a.c -= k;
    return a;
  }

  static constexpr uint32_t gcd(uint32_t a, uint32_t b) {
    while (b) {
      uint32_t t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
  constexpr bool has_vgpr() const { return vterm[0].k != operand::kind::none; }
  constexpr bool has_sgpr() const { return sterm[0].k != operand::kind::none; }
  constexpr bool constant() const { return !has_vgpr() && !has_sgpr(); }

  // The VGPR part as one operand (two terms: summed into a new VGPR); kind none if absent.
  constexpr operand vgpr_sum(builder& J, src_loc l) const { return sum(J, vterm, true, l); }
  constexpr operand sgpr_sum(builder& J, src_loc l) const { return sum(J, sterm, false, l); }

 private:
  constexpr void add_reg(builder* gb, const operand& o, std::source_location l) {
    b = gb;
    loc = to_src_loc(l);
    if (o.k != operand::kind::vreg) return;
    if (o.cls == reg_class::agpr) {
      if (b) detail::report(*b, loc, "a memory offset cannot be an AGPR (copy it to a VGPR first)");
      return;
    }
    put(o.cls == reg_class::vgpr ? vterm : sterm, o);
  }
  constexpr void put(operand* terms, const operand& o) {
    if (terms[0].k == operand::kind::none) terms[0] = o;
    else if (terms[1].k == operand::kind::none) terms[1] = o;
    else if (b) detail::report(*b, loc, "a memory offset has at most two VGPR and two SGPR terms");
  }
  static constexpr operand sum(builder& J, const operand* terms, bool vector, src_loc l) {
    if (terms[1].k == operand::kind::none) return terms[0];
    detail::lower L{J, l};
    detail::reg_ref t = L.tmp(vector ? reg_class::vgpr : reg_class::sgpr);
    operand d = detail::reg_op(t);
    if (vector) L.valu2(detail::O::v_add_u32, detail::O::v_add_u32, true, d, terms[0], terms[1]);
    else L.e(detail::O::s_add_u32, {d, terms[0], terms[1]});
    return d;
  }
};

// A register used as an offset term explicitly (for `at(v) + s + 8`).
template <dtype T>
  requires(T == dtype::u32 || T == dtype::i32)
constexpr mem_offset at(const gpr<T>& g, std::source_location l = std::source_location::current()) {
  return mem_offset(g, l);
}
template <dtype T>
  requires(T == dtype::u32 || T == dtype::i32)
constexpr mem_offset at(gpr<T>&& g, std::source_location l = std::source_location::current()) {
  return mem_offset(static_cast<gpr<T>&&>(g), l);
}

// A register promised to hold a multiple of n (elements for LDS view coordinates, bytes for
// offsets): lets LDS views prove the alignment that ds_read_b64/b128 need. The promise is
// the caller's: a value that breaks it makes a misaligned access.
template <dtype T>
  requires(T == dtype::u32 || T == dtype::i32)
constexpr mem_offset multiple_of(const gpr<T>& g, uint32_t n, std::source_location l = std::source_location::current()) {
  mem_offset m(g, l);
  if (n == 0 || (n & (n - 1)) != 0) {
    if (g.b) detail::report(*g.b, to_src_loc(l), "multiple_of(): n must be a power of two", "n", n, true);
    return m;
  }
  m.mult = n;
  return m;
}

}  // namespace hipasm
