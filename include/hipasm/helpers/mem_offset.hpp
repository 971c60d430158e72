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
//
// WRAPPING: the register holds (base + c) mod 2^32, but a buffer access sums voffset, soffset
// and offset: exactly (nothing wraps at 32 bits: CDNA3 ISA "Buffer Addressing", LLVM's
// SelectMUBUF* "the total computation of vaddr + soffset + offset must not overflow"), so
// base + c with a carry out is a different, out-of-range offset. A peeled constant therefore
// goes into `c` only when the bounds of `base` (value_range below) prove 0 <= base + c < 2^32;
// otherwise it stays with its register term (`vk`/`sk`), and a buffer access adds it back into
// the register (the instruction the peel removed, re-made where the access is), while an LDS
// address, whose sums wrap at 32 bits anyway (DS: vaddr + offset mod 2^32; M0 likewise), folds
// it into `c` (fold_wrapping()).
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

// Bounds [lo, hi] of a 32-bit register's value at a point of the function, from the
// instructions that computed it: a definition earlier in the same block, else the register's
// only definition in the function; work-item ids are below 1024; anything else (kernel
// arguments, loop-carried values, an opcode not listed) is [0, 2^32 - 1]. Every rule bounds
// the 32-bit result, so a sum or product that could carry out gives the full range.
struct u32_range {
  uint64_t lo = 0, hi = 0xffffffffu;
};
struct value_range {
  const builder& b;
  int32_t budget = 256;  // instructions looked at per query: bounds the compile-time cost
  static constexpr uint64_t kMax = 0xffffffffu;
  static constexpr u32_range full() { return {0, kMax}; }
  static constexpr u32_range fit(uint64_t lo, uint64_t hi) { return hi > kMax ? full() : u32_range{lo, hi}; }
  static constexpr uint64_t mask_of(uint64_t hi) {  // every value with no bit above hi's highest
    uint64_t m = 0;
    while (m < hi) m = m * 2 + 1;
    return m;
  }
  static constexpr bool writes(const instr& in, int i) {
    const isa::instr_desc& d = active_target::table[in.op];
    return i < d.num_operands && d.operands[i].role != isa::operand_role::use;
  }
  static constexpr bool is_exec(const operand& o) {
    return o.k == operand::kind::special &&
           (o.sp == special_reg::exec || o.sp == special_reg::exec_lo || o.sp == special_reg::exec_hi);
  }
  // Where vreg `id` was last written before (blk, idx): 1 found (di), 0 not written in this
  // block before idx, -1 written in a way not followed (a partial or multi-dword write, or a
  // VGPR write with an EXEC write between it and idx: lanes outside that EXEC keep another value).
  constexpr int def_in_block(uint32_t id, uint32_t blk, uint32_t idx, uint32_t& di) {
    const vec<instr>& list = b.fn.blocks[blk].instrs;
    bool exec_written = false;
    for (uint32_t k = idx; k-- > 0;) {
      if (--budget < 0) return -1;
      const instr& in = list[k];
      for (int i = 0; i < in.num_operands; ++i) {
        const operand& o = in.ops[i];
        if (is_exec(o) && writes(in, i)) exec_written = true;
        if (o.k != operand::kind::vreg || o.value != id || !writes(in, i)) continue;
        if (i != 0 || o.offset != 0 || o.dwords != 1 || (exec_written && o.cls != reg_class::sgpr)) return -1;
        di = k;
        return 1;
      }
    }
    return 0;
  }
  constexpr u32_range of(const operand& o, uint32_t blk, uint32_t idx, int depth) {
    if (o.k == operand::kind::imm) {
      const uint64_t v = o.value & kMax;
      return {v, v};
    }
    if (o.k != operand::kind::vreg || o.offset != 0 || o.dwords != 1 || o.neg || o.abs || depth <= 0) return full();
    const uint32_t id = static_cast<uint32_t>(o.value);
    uint32_t di = 0;
    int f = def_in_block(id, blk, idx, di);
    if (f < 0) return full();
    if (f == 1) return of_instr(b.fn.blocks[blk].instrs[di], blk, di, depth - 1);
    // Not written earlier in this block: the function's only definition, or the entry value.
    uint32_t defs = 0, db = 0;
    for (uint32_t bi = 0; bi < b.fn.blocks.size() && defs < 2; ++bi) {
      uint32_t k = 0;
      int g = def_in_block(id, bi, static_cast<uint32_t>(b.fn.blocks[bi].instrs.size()), k);
      if (g < 0) return full();
      if (g == 0) continue;
      uint32_t k2 = 0;
      if (def_in_block(id, bi, k, k2) != 0) return full();  // a second write in that block
      ++defs, db = bi, di = k;
    }
    bool tid = false;  // a work-item id: its entry value is below 1024
    for (int dim = 0; dim < 3; ++dim) tid = tid || b.thread_id_vreg(dim) == static_cast<int32_t>(id);
    if (defs == 0 && tid) return {0, 1023};
    if (defs == 1 && !tid && b.fn.vregs[id].fixed < 0) return of_instr(b.fn.blocks[db].instrs[di], db, di, depth - 1);
    return full();
  }
  // An instruction's operands, read at its position (no lambdas: clang's constant evaluator
  // rejects a lambda's reference captures of parameters here).
  struct instr_at {
    const instr& in;
    uint32_t blk, idx;
    int depth;
    constexpr u32_range src(value_range& r, int i) const {
      return i < in.num_operands ? r.of(in.ops[i], blk, idx, depth) : full();
    }
    constexpr bool shift(int i, uint64_t& k) const {
      const operand& o = in.ops[i];
      if (o.k != operand::kind::imm) return false;
      k = o.value & 31;
      return true;
    }
  };
  constexpr u32_range of_instr(const instr& in, uint32_t blk, uint32_t idx, int depth) {
    using O = target_op;
    if (!in.mods.none()) return full();
    const instr_at at{in, blk, idx, depth};
    uint64_t k = 0;
    switch (static_cast<O>(in.op)) {
      case O::v_mov_b32: case O::s_mov_b32: case O::v_readfirstlane_b32: return at.src(*this, 1);
      case O::v_add_u32: case O::s_add_u32: case O::s_add_i32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        return fit(a.lo + c.lo, a.hi + c.hi);
      }
      case O::v_add3_u32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2), e = at.src(*this, 3);
        return fit(a.lo + c.lo + e.lo, a.hi + c.hi + e.hi);
      }
      case O::v_sub_u32: case O::s_sub_u32: case O::s_sub_i32: case O::v_subrev_u32: {
        const bool rev = static_cast<O>(in.op) == O::v_subrev_u32;
        u32_range a = at.src(*this, rev ? 2 : 1), c = at.src(*this, rev ? 1 : 2);
        return a.lo >= c.hi ? u32_range{a.lo - c.hi, a.hi - c.lo} : full();
      }
      case O::v_lshlrev_b32: case O::s_lshl_b32: {
        const bool rev = static_cast<O>(in.op) == O::v_lshlrev_b32;
        if (!at.shift(rev ? 1 : 2, k)) return full();
        u32_range a = at.src(*this, rev ? 2 : 1);
        return fit(a.lo << k, a.hi << k);
      }
      case O::v_lshrrev_b32: case O::s_lshr_b32: {
        const bool rev = static_cast<O>(in.op) == O::v_lshrrev_b32;
        u32_range a = at.src(*this, rev ? 2 : 1);
        if (!at.shift(rev ? 1 : 2, k)) return {0, a.hi};
        return {a.lo >> k, a.hi >> k};
      }
      case O::v_lshl_add_u32: {
        if (!at.shift(2, k)) return full();
        u32_range a = at.src(*this, 1), c = at.src(*this, 3);
        if ((a.hi << k) > kMax) return full();
        return fit((a.lo << k) + c.lo, (a.hi << k) + c.hi);
      }
      case O::v_and_b32: case O::s_and_b32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        return {0, a.hi < c.hi ? a.hi : c.hi};
      }
      case O::v_or_b32: case O::s_or_b32: case O::v_xor_b32: case O::s_xor_b32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        return {0, mask_of(a.hi > c.hi ? a.hi : c.hi)};
      }
      case O::v_bfe_u32: {
        const operand& w = in.ops[3];
        if (w.k != operand::kind::imm) return full();
        return {0, (uint64_t{1} << (w.value & 31)) - 1};
      }
      case O::v_mbcnt_lo_u32_b32: case O::v_mbcnt_hi_u32_b32: {
        u32_range a = at.src(*this, 2);
        return fit(a.lo, a.hi + 32);
      }
      case O::v_mul_u32_u24: case O::v_mad_u32_u24: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        if (a.hi > 0xffffff) a = {0, 0xffffff};
        if (c.hi > 0xffffff) c = {0, 0xffffff};
        u32_range e = static_cast<O>(in.op) == O::v_mad_u32_u24 ? at.src(*this, 3) : u32_range{0, 0};
        if (a.hi * c.hi > kMax) return full();
        return fit(a.lo * c.lo + e.lo, a.hi * c.hi + e.hi);
      }
      case O::v_mul_lo_u32: case O::s_mul_i32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        if (a.hi != 0 && c.hi > kMax / a.hi) return full();
        return {a.lo * c.lo, a.hi * c.hi};
      }
      case O::v_min_u32: case O::v_max_u32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        if (static_cast<O>(in.op) == O::v_min_u32) return {a.lo < c.lo ? a.lo : c.lo, a.hi < c.hi ? a.hi : c.hi};
        return {a.lo > c.lo ? a.lo : c.lo, a.hi > c.hi ? a.hi : c.hi};
      }
      case O::v_cndmask_b32: {
        u32_range a = at.src(*this, 1), c = at.src(*this, 2);
        return {a.lo < c.lo ? a.lo : c.lo, a.hi > c.hi ? a.hi : c.hi};
      }
      default: return full();
    }
  }
};

// Whether base + c (c signed) stays in [0, 2^32) for every value in r: then the register
// (base + c) mod 2^32 is the exact sum.
constexpr bool add_cannot_wrap(const u32_range& r, int64_t c) {
  const int64_t lo = static_cast<int64_t>(r.lo) + c, hi = static_cast<int64_t>(r.hi) + c;
  return lo >= 0 && hi <= static_cast<int64_t>(value_range::kMax);
}

// The constant added by the last instruction of the expression that made the register
// `id`, taken out of it: returns true with `base` (the register operand left), `c` (the
// constant, as a signed 32-bit value) and `exact` (base + c provably does not wrap) when the
// expression ended in such an add.
constexpr bool peel_constant(builder& b, uint32_t id, operand& base, int64_t& c, bool& exact) {
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
    exact = add_cannot_wrap(value_range{b}.of_instr(in, rec.block, rec.end - 1, 6), c);
    b.forget_memo();
    b.last_expr_ = {};
    return true;
  } else {
    return false;
  }
  if (base.dwords != 1) return false;
  exact = c == 0 || add_cannot_wrap(value_range{b}.of(base, rec.block, rec.end - 1, 6), c);
  if (drop) list.pop_back();
  b.forget_memo();
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
  int64_t vk[2]{}, sk[2]{};  // constants peeled off each term that might wrap (see WRAPPING)
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
    bool exact = false;
    if (g.b && g.is_result() && detail::peel_constant(*g.b, g.id, base, k, exact)) {
      add_reg(g.b, base, l, exact ? 0 : k);
      if (exact) c += k;
    } else {
      add_reg(g.b, g.to_operand(), l);
    }
  }

  constexpr mem_offset& operator+=(const mem_offset& o) {
    if (!o.constant()) mult = constant() ? o.mult : gcd(mult, o.mult);
    if (!b) b = o.b;
    if (!loc.line) loc = o.loc;
    for (int i = 0; i < 2; ++i)
      if (o.vterm[i].k != operand::kind::none) put(vterm, vk, o.vterm[i], o.vk[i]);
    for (int i = 0; i < 2; ++i)
      if (o.sterm[i].k != operand::kind::none) put(sterm, sk, o.sterm[i], o.sk[i]);
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

  // The VGPR part as one operand (two terms: summed into a new VGPR; a term's unproven peeled
  // constant added back first); kind none if absent.
  constexpr operand vgpr_sum(builder& J, src_loc l) const { return sum(J, vterm, vk, true, l); }
  constexpr operand sgpr_sum(builder& J, src_loc l) const { return sum(J, sterm, sk, false, l); }
  // For addresses whose sums wrap at 32 bits (LDS, M0): the terms' peeled constants join `c`.
  constexpr mem_offset& fold_wrapping() {
    for (int i = 0; i < 2; ++i) {
      c += vk[i] + sk[i];
      vk[i] = sk[i] = 0;
    }
    return *this;
  }

 private:
  constexpr void add_reg(builder* gb, const operand& o, std::source_location l, int64_t k = 0) {
    b = gb;
    loc = to_src_loc(l);
    if (o.k != operand::kind::vreg) return;
    if (o.cls == reg_class::agpr) {
      if (b) detail::report(*b, loc, "a memory offset cannot be an AGPR (copy it to a VGPR first)");
      return;
    }
    if (o.cls == reg_class::vgpr) put(vterm, vk, o, k);
    else put(sterm, sk, o, k);
  }
  constexpr void put(operand* terms, int64_t* ks, const operand& o, int64_t k) {
    if (terms[0].k == operand::kind::none) terms[0] = o, ks[0] = k;
    else if (terms[1].k == operand::kind::none) terms[1] = o, ks[1] = k;
    else if (b) detail::report(*b, loc, "a memory offset has at most two VGPR and two SGPR terms");
  }
  static constexpr operand add2(detail::lower& L, bool vector, const operand& x, const operand& y) {
    detail::reg_ref t = L.tmp(vector ? reg_class::vgpr : reg_class::sgpr);
    operand d = detail::reg_op(t);
    if (vector) L.valu2(detail::O::v_add_u32, detail::O::v_add_u32, true, d, x, y);
    else L.e(detail::O::s_add_u32, {d, x, y});
    return d;
  }
  static constexpr operand sum(builder& J, const operand* terms, const int64_t* ks, bool vector, src_loc l) {
    if (terms[0].k == operand::kind::none) return terms[0];
    detail::lower L{J, l};
    operand t[2] = {terms[0], terms[1]};
    for (int i = 0; i < 2; ++i)
      if (t[i].k != operand::kind::none && ks[i] != 0)
        t[i] = add2(L, vector, detail::imm_op(static_cast<uint32_t>(ks[i])), t[i]);
    if (t[1].k == operand::kind::none) return t[0];
    return add2(L, vector, t[0], t[1]);
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
