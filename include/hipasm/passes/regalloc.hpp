// Linear-scan register allocation, one pool per class (SGPR, VGPR, AGPR), no spilling.
//
// Each virtual register gets one physical base for its whole interval (liveness.hpp).
// Entry-state registers (vreg_info::fixed) keep their hardware register; registers the
// user named physically are never handed out. Tuples start at a multiple of their
// alignment: the vreg's own, and the class rule checked against llvm-mc-22 for gfx942
// (SGPR pairs even, SGPR tuples of 3+ dwords at a multiple of 4, VGPR/AGPR tuples even).
// Running out is an error naming the kernel, the register's source line and the live set.
//
// Copy coalescing: a plain copy `d = u` (s_mov_b32/b64, v_mov_b32/b64, v_accvgpr_mov_b32,
// no modifiers, both virtual registers of one class, either side possibly a slice) where
// u's interval ends at the copy and d's starts there gives d the registers that put the
// copied dwords of both in the same place, when those are free from the copy on (u's own end
// there); the copy is then `x = x` and remove_identity_copies drops it. u is placed first (its
// interval starts earlier), so chains coalesce too. Nothing else changes: d's registers are
// held for d's whole interval, as any other choice would be.
// A one-dword copy `d = u` whose source lives on (`y = x * 1u`, `y = x` with x read later)
// also takes u's register when nothing writes d or u from the copy to d's end
// (copy_shares_source): d starts at the copy and every path from it to a read of d stays in
// d's interval, so the two hold one value wherever d is read. The register stays u's (or
// becomes d's from u's end to d's); a temporary of result coalescing below may not take it
// while d reads it (shared_end).
//
// Result coalescing (the same switch): an instruction that may compute in place
// (`computes_in_place`: VALU or SALU, not MFMA, lane-crossing, EXEC-writing or DPP, its result
// written whole) whose one-dword result d and one-dword source u are vregs of one class puts
// them in one register when u is a one-dword temporary written only by an earlier in-place
// instruction of the same block (`u = g(...); d = f(u)`) and d's old value is dead in between:
// nothing between the two accesses d, writes EXEC or waits, and the second does not read d
// (the first may: `u = d - m; d = exp(u)` becomes `d = d - m; d = exp(d)`). u then takes d's
// register; both instructions run under the same EXEC, so the lanes they leave alone keep d's
// value. A copy hint of u goes first (it saves an instruction, this only a register).
// Not done: a fresh d = f(u) in the register of a temporary u that dies there. Tried: with any
// dying source it fragmented the register file (more VGPRs in LDS-swizzle code), for unary f
// after u's def it still cost attn_fwd d64 a VGPR, and in-place chains of
// transcendental ops (sigmoid's mul, exp, add, rcp) left the hazard pass nothing to fill the
// trans-use wait states with (moe stage1 g1u0 +8 s_nop); paged_attn_decode did not need it.
// So a helper whose result goes to an older register (s = exp2(s - m)) compiles as the in-place
// code written by hand (tests/core/test_regalloc.cpp).
#pragma once
#include "../vec.hpp"

#include "common.hpp"
#include "liveness.hpp"

namespace hipasm {

struct register_limits {
  uint16_t sgprs = 102;  // s0..s101 are addressable on gfx942
  uint16_t vgprs = 256;
  uint16_t agprs = 256;
  // The occupancy the kernel asked for (builder::require_waves_per_simd), when these limits
  // come from it: named in the out-of-registers message. budget: VGPRs + AGPRs a lane.
  uint8_t waves_per_simd = 0;
  uint16_t budget = 0;
  src_loc budget_loc{};
};

// Highest physical register used per class (-1: none), from the final program.
struct register_usage {
  int max_sgpr = -1, max_vgpr = -1, max_agpr = -1;
  constexpr int count(reg_class c) const {
    return (c == reg_class::sgpr ? max_sgpr : c == reg_class::vgpr ? max_vgpr : max_agpr) + 1;
  }
};

namespace detail {

constexpr uint16_t class_alignment(reg_class c, uint16_t dwords) {
  if (dwords <= 1) return 1;
  if (c == reg_class::sgpr) return dwords == 2 ? 2 : 4;
  return 2;
}

// Sorts 64-bit keys ascending (not std::sort: <algorithm> does not compile in HIP device
// passes without the HIP headers): LSD radix sort, a byte a pass (a pass whose byte is the same
// in every key is skipped). No comparisons: the heap sort it replaces made interpreted calls
// (the comparator, vec::operator[]) at every step, ~0.1 s for 2000 vregs.
constexpr void sort_keys(vec<uint64_t>& a_) {
  vec<uint64_t>& a = a_;  // a local alias: see compute_liveness
  const std::size_t n = a.size();
  if (n < 2) return;
  vec<uint64_t> tmp(n, 0);
  uint64_t* src = a.data();
  uint64_t* dst = tmp.data();
  for (int shift = 0; shift < 64; shift += 8) {
    std::size_t at[257] = {};  // at[d + 1]: how many keys have byte d; then where d starts
    for (std::size_t i = 0; i < n; ++i) ++at[((src[i] >> shift) & 0xff) + 1];
    if (at[((src[0] >> shift) & 0xff) + 1] == n) continue;
    for (int d = 0; d < 256; ++d) at[d + 1] += at[d];
    for (std::size_t i = 0; i < n; ++i) dst[at[(src[i] >> shift) & 0xff]++] = src[i];
    uint64_t* const t = src;
    src = dst;
    dst = t;
  }
  if (src != a.data()) __builtin_memcpy(a.data(), src, n * sizeof(uint64_t));
}

constexpr int class_index(reg_class c) { return c == reg_class::sgpr ? 0 : c == reg_class::vgpr ? 1 : 2; }
constexpr std::string_view class_letter(reg_class c) {
  return c == reg_class::sgpr ? "s" : c == reg_class::vgpr ? "v" : "a";
}
constexpr std::string_view class_name(reg_class c) {
  return c == reg_class::sgpr ? "SGPR" : c == reg_class::vgpr ? "VGPR" : "AGPR";
}
// The live set of the out-of-registers message, grouped by the array or handle that owns each
// register (pieces split_registers cut out of one array go together: same name and line):
// " 'acc' (k.hip:9) 64 dwords: v0..v63[0..63]; 'b' (k.hip:12) 3 dwords: v64[0] v70[1] v72[4]",
// each group's registers as runs of consecutive registers (of an array: holding consecutive
// dwords, with their element indices), in the order of their lowest register; registers the
// kernel names physically as "named physically". The whole set, however long. busy/owner: the
// allocator's per-register state, live = busy >= s.
constexpr void put_live_set(pass_error& err, const function& fn, reg_class c, uint32_t limit, const int64_t* busy,
                            const int32_t* owner, int64_t s) {
  const vreg_info* const vregs = fn.vregs.data();
  auto same_group = [&](int32_t a, int32_t b) {
    if (a < 0 || b < 0) return a == b;
    const vreg_info &x = vregs[a], &y = vregs[b];
    return x.name == y.name && x.loc.line == y.loc.line && x.loc.file == y.loc.file;
  };
  // The dword of its array (or handle) register r holds.
  auto dword_of = [&](uint32_t r) {
    const vreg_info& o = vregs[owner[r]];
    return static_cast<uint32_t>(o.array_off + (r - static_cast<uint32_t>(o.phys)));
  };
  vec<uint8_t> done(limit, 0);
  bool first_group = true;
  for (uint32_t g = 0; g < limit; ++g) {
    if (busy[g] < s || done[g]) continue;
    const int32_t head = owner[g];
    uint32_t total = 0;
    for (uint32_t r = g; r < limit; ++r)
      if (busy[r] >= s && !done[r] && same_group(owner[r], head)) ++total;
    err.add(first_group ? " " : "; ");
    first_group = false;
    const vreg_info* h = head >= 0 ? &vregs[head] : nullptr;
    if (!h) err.add("named physically");
    else if (!h->name.empty()) err.add("'").add(h->name).add("' (").add_loc(h->loc).add(")");
    else err.add("unnamed (").add_loc(h->loc).add(")");
    err.add(" ").add(static_cast<long long>(total)).add(total == 1 ? " dword:" : " dwords:");
    // Its registers, in runs (of an array: holding consecutive elements).
    const bool indexed = h && (h->array_dwords != 0 || h->rank > 0);
    for (uint32_t r = g; r < limit;) {
      if (busy[r] < s || done[r] || !same_group(owner[r], head)) {
        ++r;
        continue;
      }
      uint32_t n = 1;
      while (r + n < limit && busy[r + n] >= s && !done[r + n] && same_group(owner[r + n], head) &&
             (!indexed || dword_of(r + n) == dword_of(r) + n))
        ++n;
      err.add(" ").add(class_letter(c)).add(static_cast<long long>(r));
      if (n > 1) err.add("..").add(class_letter(c)).add(static_cast<long long>(r + n - 1));
      if (indexed) err.add_index(*h, dword_of(r), n);
      for (uint32_t k = 0; k < n; ++k) done[r + k] = 1;
      r += n;
    }
  }
}

// The opcodes of plain register copies on the target (copy_ops::is: one of them).
struct copy_ops {
  int ids[5] = {-1, -1, -1, -1, -1};
  constexpr explicit copy_ops(const isa_view& isa)
      : ids{isa.find(lit("s_mov_b32")), isa.find(lit("s_mov_b64")), isa.find(lit("v_mov_b32")),
            isa.find(lit("v_mov_b64")), isa.find(lit("v_accvgpr_mov_b32"))} {}
  constexpr bool is(uint16_t op) const {
    const int o = op;
    return o == ids[0] || o == ids[1] || o == ids[2] || o == ids[3] || o == ids[4];
  }
};
// Whether `in` copies one virtual register (slice) into another of the same class and width,
// with nothing that changes the value (source modifiers, DPP/SDWA, clamp, ...).
constexpr bool is_plain_vreg_copy(const copy_ops& ops, const instr& in) {
  if (in.num_operands != 2 || !ops.is(in.op) || !in.mods.none()) return false;
  const operand& d = in.ops[0];
  const operand& u = in.ops[1];
  return d.k == operand::kind::vreg && u.k == operand::kind::vreg && d.cls == u.cls && d.dwords == u.dwords &&
         !u.neg && !u.abs && d.value != u.value;
}
// Whether `in` may write its result into the register of a source it reads (see the head
// comment): the VALU and SALU instructions that read their sources before they write, whole.
constexpr bool computes_in_place(const isa_view& isa, const instr& in) {
  const isa::instr_desc& desc = isa.descs[in.op];
  const uint64_t fl = desc.flags;
  constexpr uint64_t excluded = isa::f_mfma | isa::f_readlane | isa::f_permlane | isa::f_writes_exec | isa::f_cmpx |
                                isa::f_side_effect | isa::f_branch | isa::f_waitcnt;
  if (!(fl & (isa::f_valu | isa::f_salu)) || (fl & excluded) || in.mods.dpp_on()) return false;
  return !(fl & isa::f_valu) || (in.mods.more | in.mods.bytes) == 0 || vector_dst_write(desc, in.mods) == dst_write::full;
}
// The operand index of `in`'s one-dword vreg result written whole (role def), or -1.
constexpr int in_place_result(const isa_view& isa, const instr& in) {
  const isa::instr_desc& desc = isa.descs[in.op];
  for (int i = 0; i < in.num_operands && i < desc.num_operands; ++i)
    if (desc.operands[i].role == isa::operand_role::def)
      return in.ops[i].k == operand::kind::vreg && in.ops[i].dwords == 1 ? i : -1;
  return -1;
}
}  // namespace detail

constexpr register_usage compute_register_usage(const function& fn_) {
  const function& fn = fn_;
  register_usage u;
  auto note = [&](reg_class c, int last) {
    int& m = c == reg_class::sgpr ? u.max_sgpr : c == reg_class::vgpr ? u.max_vgpr : u.max_agpr;
    if (last > m) m = last;
  };
  const vreg_info* const vregs = fn.vregs.data();  // (raw: vec::operator[] is an interpreted call)
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i) {
        const operand& o = in.ops[i];
        if (o.k == operand::kind::vreg) {
          const vreg_info& vi = vregs[o.value];
          if (vi.phys >= 0) note(vi.cls, vi.phys + o.offset + o.dwords - 1);
        } else if (o.k == operand::kind::phys) {
          note(o.cls, static_cast<int>(o.value) + o.dwords - 1);
        }
      }
  return u;
}

// The registers free at the current position `at`, per class, as bitsets (bit r: busy[r] <
// at), for the allocator's search: a vreg takes the lowest aligned run of free registers.
// Scanning busy[] register by register from r = 0 cost every temporary a walk past all the
// long-lived registers below it (~0.1 s for a DSL kernel of 4000 instructions); this finds
// the same register with a count-trailing-zeros per 64 registers. Registers are freed when
// `at` passes the end of their interval: buckets by end position (a flat linked list).
struct free_regs {
  vec<uint64_t> bits[3];
  vec<int32_t> head;   // per position: first entry ending there, or -1
  vec<int32_t> next;   // per entry
  vec<uint32_t> reg;   // per entry: class << 16 | register
  int64_t at = 0;

  constexpr void expire_at(int c, uint32_t r, int64_t end) {
    if (end < 0 || static_cast<uint64_t>(end) >= head.size()) return;  // physical: never
    reg.push_back(static_cast<uint32_t>(c) << 16 | r);
    next.push_back(head.data()[end]);
    head.data()[end] = static_cast<int32_t>(reg.size() - 1);
  }
  constexpr void set(int c, uint32_t r, bool free) {
    uint64_t& w = bits[c].data()[r >> 6];
    const uint64_t m = uint64_t{1} << (r & 63);
    w = free ? (w | m) : (w & ~m);
  }
  constexpr bool is_free(int c, uint32_t r) const { return (bits[c].data()[r >> 6] >> (r & 63)) & 1; }
  // The state at position `start` from busy[] (after the fixed registers are placed).
  constexpr void init(const vec<int64_t>* busy, const uint16_t* limit, uint32_t max_end, int64_t start) {
    head.assign(static_cast<std::size_t>(max_end) + 1, -1);
    at = start;
    for (int c = 0; c < 3; ++c) {
      bits[c].assign((limit[c] + 63u) / 64u, 0);
      const int64_t* const b = busy[c].data();
      for (uint32_t r = 0; r < limit[c]; ++r) {
        if (b[r] < start) set(c, r, true);
        else expire_at(c, r, b[r]);
      }
    }
  }
  // Moves to position `to` (never backwards): registers whose intervals ended become free.
  constexpr void advance(const vec<int64_t>* busy, int64_t to) {
    const int32_t* const h = head.data();
    for (; at < to; ++at) {
      if (static_cast<uint64_t>(at) >= head.size()) {
        at = to;
        break;
      }
      for (int32_t k = h[at]; k >= 0; k = next.data()[k]) {
        const int c = static_cast<int>(reg.data()[k] >> 16);
        const uint32_t r = reg.data()[k] & 0xffff;
        if (busy[c].data()[r] == at) set(c, r, true);
      }
    }
  }
  // The lowest r, r % align == phase, with r..r+n-1 free and below limit; -1 if none.
  constexpr int find(int c, uint32_t n, uint32_t align, uint32_t limit, uint32_t phase = 0) const {
    const uint64_t* const w = bits[c].data();
    const std::size_t nw = bits[c].size();
    for (std::size_t k = 0; k < nw; ++k) {
      for (uint64_t x = w[k]; x; x &= x - 1) {
        const uint32_t r = static_cast<uint32_t>(k * 64 + static_cast<std::size_t>(__builtin_ctzll(x)));
        if (r % align != phase) continue;
        if (r + n > limit) return -1;
        bool ok = true;
        for (uint32_t j = 1; j < n && ok; ++j) ok = is_free(c, r + j);
        if (ok) return static_cast<int>(r);
      }
    }
    return -1;
  }
};

namespace detail {
// A register the user pinned (gpr::pin): it takes its register unless that register is out of
// range, misaligned for its use, or holds another entry/pinned/physically named value while
// this one is live (the values placed before it all start no later, so "holds" is busy >= s).
constexpr bool place_pinned(function& fn, vreg_info& vi, uint32_t v, int64_t s, int64_t e, uint16_t align,
                            const uint16_t* limit, vec<int64_t>* busy, vec<int32_t>* owner, pass_error& err) {
  const int c = class_index(vi.cls);
  const int p = vi.pinned;
  if (p + vi.dwords > limit[c] || p % align != 0) {
    if (err.begin(vi.loc)) {
      err.add("kernel '").add(fn.name).add("': ").add_reg(vi).add(" is pinned to ").add(class_letter(vi.cls))
          .add(static_cast<long long>(p));
      if (p % align != 0)
        err.add(", but its use as a ").add(static_cast<long long>(vi.dwords)).add("-dword tuple needs a multiple of ")
            .add(static_cast<long long>(align));
      else
        err.add(", past the last ").add(class_name(vi.cls)).add(" (").add(static_cast<long long>(limit[c] - 1)).add(")");
    }
    return false;
  }
  for (uint32_t j = 0; j < vi.dwords; ++j) {
    if (busy[c][p + j] < s) continue;
    if (err.begin(vi.loc)) {
      err.add("kernel '").add(fn.name).add("': ").add_reg(vi).add(" is pinned to ").add(class_letter(vi.cls))
          .add(static_cast<long long>(p));
      if (vi.dwords > 1) err.add("+").add(static_cast<long long>(vi.dwords));
      err.add(", but ").add(class_letter(vi.cls)).add(static_cast<long long>(p + j)).add(" holds");
      const int32_t ow = owner[c][p + j];
      if (ow < 0) err.add(" a register the kernel names physically");
      else err.add(" ").add_reg(fn.vregs[ow]).add(" (").add_loc(fn.vregs[ow].loc).add(")");
      err.add(" while it is live");
    }
    return false;
  }
  vi.phys = static_cast<int16_t>(p);
  for (uint32_t j = 0; j < vi.dwords; ++j) {
    if (e > busy[c][p + j]) busy[c][p + j] = e;
    owner[c][p + j] = static_cast<int32_t>(v);
  }
  return true;
}
// The result-coalescing hint of the instruction ins[i] at position p (block start bp), when it
// computes in place (see the head comment): d = f(u) with u's dword ending at p, u a one-dword
// temporary that an in-place instruction earlier in the block wrote, nothing in between
// touching d, EXEC or waiting: into[u].
constexpr void result_hints(const function& fn, const isa_view& isa, const instr* ins, std::size_t i, uint32_t p,
                            uint32_t bp, const liveness_info& L, uint32_t* into, uint16_t* into_off) {
  const instr& in = ins[i];
  if (!computes_in_place(isa, in)) return;
  const int di = in_place_result(isa, in);
  if (di < 0) return;
  const vreg_info* const vregs = fn.vregs.data();
  const uint32_t* const base = L.dm.base.data();
  const operand& dop = in.ops[di];
  const uint32_t d = static_cast<uint32_t>(dop.value);
  if (vregs[d].fixed >= 0 || vregs[d].pinned >= 0) return;
  const isa::instr_desc& desc = isa.descs[in.op];
  bool reads_d = false;  // (d's old value read here: no dead stretch before)
  for (int j = 0; j < in.num_operands; ++j)
    reads_d = reads_d || (j != di && in.ops[j].k == operand::kind::vreg && in.ops[j].value == d);
  for (int j = 0; j < in.num_operands && j < desc.num_operands; ++j) {
    const operand& uo = in.ops[j];
    if (j == di || uo.k != operand::kind::vreg || uo.cls != dop.cls || uo.dwords != 1 || uo.value == d ||
        desc.operands[j].role != isa::operand_role::use || uo.neg || uo.abs)
      continue;
    const uint32_t u = static_cast<uint32_t>(uo.value), u0 = base[u] + uo.offset;
    if (L.dword_end[u0] != p) continue;
    // u = g(...) at p1 earlier in this block, d's old value dead from p1 to here
    const uint32_t p1 = L.dword_start[u0];
    if (reads_d || vregs[u].dwords != 1 || vregs[u].fixed >= 0 || vregs[u].pinned >= 0 || into[u] != 0 ||
        p1 < bp || p1 >= p || L.vstart[d] >= p1)
      continue;
    const instr& def = ins[p1 - bp];
    const int ui = computes_in_place(isa, def) ? in_place_result(isa, def) : -1;
    if (ui < 0 || def.ops[ui].value != u) continue;
    bool clear = true;  // (the first instruction may read d, nothing else)
    const isa::instr_desc& ddesc = isa.descs[def.op];
    for (int m = 0; m < def.num_operands && clear; ++m)
      clear = !(def.ops[m].k == operand::kind::vreg && def.ops[m].value == d &&
                (m >= ddesc.num_operands || ddesc.operands[m].role != isa::operand_role::use));
    for (std::size_t k = p1 - bp + 1; k < i && clear; ++k) {
      const instr& x = ins[k];
      const uint64_t fl = isa.descs[x.op].flags;
      clear = !(fl & (isa::f_writes_exec | isa::f_cmpx | isa::f_waitcnt));
      for (int m = 0; m < x.num_operands && clear; ++m) {
        const operand& o = x.ops[m];
        clear = !(o.k == operand::kind::vreg && o.value == d) &&
                !(o.k == operand::kind::special && (o.sp == special_reg::exec || o.sp == special_reg::exec_lo ||
                                                    o.sp == special_reg::exec_hi));
      }
    }
    if (!clear) continue;
    into[u] = d + 1;
    into_off[u] = dop.offset;
    return;
  }
}
// Whether the copy `d = u` at position p (instruction i of block b) may leave d in u's
// register although u lives on (the third form of copy coalescing in the head comment): no
// instruction from p + 1 to d's end writes d's dword d0 or u's dword u0 (any def, masked or
// partial: each changes one of the two). d starts at p, so this copy is its only def in its
// interval, and every path from the copy to a read of d stays in that interval (d is live
// there): the two hold the same value wherever d is read.
constexpr bool copy_shares_source(const function& fn, const liveness_info& L, std::size_t b, std::size_t i,
                                  uint32_t d0, uint32_t u0) {
  const uint32_t e = L.dword_end[d0];
  const access_table& T = L.acc;
  const uint32_t* const ab = T.begin.data();
  const access* const accs = T.acc.data();
  for (std::size_t k = b, j = i + 1; k < fn.blocks.size() && L.pos.start[k] <= e; ++k, j = 0) {
    const std::size_t n = fn.blocks[k].instrs.size();
    for (; j < n && L.pos.start[k] + j <= e; ++j)
      for (uint32_t x = ab[T.at(k) + j]; x < ab[T.at(k) + j + 1]; ++x)
        if ((accs[x].flags & access::def) && ((d0 >= accs[x].first && d0 < accs[x].first + accs[x].n) ||
                                              (u0 >= accs[x].first && u0 < accs[x].first + accs[x].n)))
          return false;
  }
  return true;
}
}  // namespace detail

// Assigns vregs[v].phys. Returns false (with the error set) when a class runs out.
// `isa`: the target, for copy coalescing (none without it).
constexpr bool allocate_registers(function& fn_, const liveness_info& L_, pass_error& err_,
                                  register_limits lim = {}, const isa_view* isa = nullptr) {
  function& fn = fn_;  // local aliases: see compute_liveness
  const liveness_info& L = L_;
  pass_error& err = err_;
  using namespace detail;
  const std::size_t nv = fn.vregs.size();
  const uint16_t limit[3] = {lim.sgprs, lim.vgprs, lim.agprs};
  // busy_until[c][r]: last position where physical register r of class c holds a value.
  vec<int64_t> busy[3] = {vec<int64_t>(limit[0], -1), vec<int64_t>(limit[1], -1),
                                  vec<int64_t>(limit[2], -1)};
  vec<int32_t> owner[3] = {vec<int32_t>(limit[0], -1), vec<int32_t>(limit[1], -1),
                                   vec<int32_t>(limit[2], -1)};
  // Registers named physically by the user are out of the pool.
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      for (int i = 0; i < in.num_operands; ++i) {
        const operand& o = in.ops[i];
        if (o.k != operand::kind::phys) continue;
        const int c = class_index(o.cls);
        for (uint32_t j = 0; j < o.dwords; ++j)
          if (o.value + j < limit[c]) busy[c][o.value + j] = INT64_MAX;
      }

  // Allocation order: entry-state registers first, then pinned ones, then by interval start, wider
  // first, then by id; one integer key per vreg (fixed bit, pinned bit, start, 1023 - width, id), so the
  // sort compares integers, not vreg records (each record read costs the interpreters).
  if (nv > 0xfffff) {  // (the key's id field; no kernel that compiles comes near it)
    if (err.begin(src_loc{}))
      err.add("kernel '").add(fn.name).add("': more than 1048575 virtual registers");
    return false;
  }
  vec<uint64_t> order;
  order.reserve(nv);
  uint32_t max_end = 0;  // the last position any interval reaches (free_regs' buckets)
  // Raw pointers: these loops visit every vreg, and vec::operator[] is an interpreted call.
  vreg_info* const vregs = fn.vregs.data();
  const uint32_t* const vstart = L.vstart.data();
  const uint32_t* const vend = L.vend.data();
  const uint32_t* const dword_end = L.dword_end.data();
  const uint32_t* const dword_base = L.dm.base.data();
  for (std::size_t v = 0; v < nv; ++v) {
    vreg_info& vi = vregs[v];
    vi.phys = -1;
    const uint32_t s = vstart[v], e = vend[v];
    if (s > e) continue;
    if (e > max_end) max_end = e;
    const uint64_t width = vi.dwords < 1023 ? vi.dwords : 1023;
    // (pinned registers are placed right after the entry registers, before any other)
    order.push_back((uint64_t{vi.fixed >= 0 || vi.pinned >= 0 ? 0u : 1u} << 63) |
                    (uint64_t{vi.fixed < 0 && vi.pinned >= 0 ? 1u : 0u} << 62) | (uint64_t{s} << 30) |
                    ((1023 - width) << 20) | v);
  }
  sort_keys(order);

  // Copy hints (see the head comment), dword by dword: copy_src[dw] = (u's dword) + 1 where
  // a plain copy at p writes the dword dw of d, d's dword starts at p and u's ends there.
  // hint[d] = u + 1, hint_delta[d] = (u's dword) - (d's dword) of d's first such copy.
  vec<uint32_t> hint_, copy_src_;
  vec<int32_t> hint_delta_;
  // into_[t] = d + 1 where the one-dword temporary t takes the register of d's dword into_off_[t]
  // (the second form of result coalescing in the head comment; d is placed before t).
  vec<uint32_t> into_;
  vec<uint16_t> into_off_;
  // A one-dword value copied (where it ends) into dword k of a tuple of alignment A that
  // takes its place from that copy: tuple_align_[v] = A, tuple_phase_[v] = k % A. v then prefers
  // a register of that phase, so that the tuple can sit on it (the copy drops).
  vec<uint8_t> tuple_align_, tuple_phase_;
  // share_[d] = u + 1 where the one-dword copy d of u's dword share_off_[d] may sit in u's
  // register while u lives on (copy_shares_source). shared_end[c][r]: the last position where
  // such a copy reads r (a temporary placed into r's dead stretch must start after it).
  vec<uint32_t> share_;
  vec<uint16_t> share_off_;
  vec<int64_t> shared_end[3] = {vec<int64_t>(limit[0], -1), vec<int64_t>(limit[1], -1), vec<int64_t>(limit[2], -1)};
  const uint32_t* const dword_start = L.dword_start.data();
  if (isa) {
    const detail::copy_ops cops(*isa);
    hint_.assign(nv, 0);
    hint_delta_.assign(nv, 0);
    into_.assign(nv, 0);
    into_off_.assign(nv, 0);
    tuple_align_.assign(nv, 0);
    tuple_phase_.assign(nv, 0);
    share_.assign(nv, 0);
    share_off_.assign(nv, 0);
    copy_src_.assign(L.dm.vreg_dwords, 0);
    uint32_t* const hint = hint_.data();
    int32_t* const hint_delta = hint_delta_.data();
    uint32_t* const into = into_.data();
    uint16_t* const into_off = into_off_.data();
    uint32_t* const copy_src = copy_src_.data();
    const uint32_t* const pstart = L.pos.start.data();
    for (std::size_t b = 0; b < fn.blocks.size(); ++b) {
      const instr* const ins = fn.blocks[b].instrs.data();
      const std::size_t n = fn.blocks[b].instrs.size();
      for (std::size_t i = 0; i < n; ++i) {
        const instr& in = ins[i];
        const uint32_t p = pstart[b] + static_cast<uint32_t>(i);
        if (!detail::is_plain_vreg_copy(cops, in)) {
          result_hints(fn, *isa, ins, i, p, pstart[b], L, into, into_off);
          continue;
        }
        const uint32_t d = static_cast<uint32_t>(in.ops[0].value), u = static_cast<uint32_t>(in.ops[1].value);
        if (vstart[u] >= p || vregs[d].fixed >= 0 || vregs[d].pinned >= 0) continue;
        const uint32_t d0 = dword_base[d] + in.ops[0].offset, u0 = dword_base[u] + in.ops[1].offset;
        bool any = false;
        for (uint32_t k = 0; k < in.ops[0].dwords; ++k)
          if (dword_start[d0 + k] == p && dword_end[u0 + k] == p) {
            copy_src[d0 + k] = u0 + k + 1;
            any = true;
          }
        if (!any && in.ops[0].dwords == 1 && vregs[d].dwords == 1 && dword_start[d0] == p && dword_end[u0] > p &&
            copy_shares_source(fn, L, b, i, d0, u0)) {
          share_.data()[d] = u + 1;
          share_off_.data()[d] = in.ops[1].offset;
        }
        if (any && hint[d] == 0) {
          hint[d] = u + 1;
          hint_delta[d] = static_cast<int32_t>(in.ops[1].offset) - static_cast<int32_t>(in.ops[0].offset);
          uint16_t a = class_alignment(vregs[d].cls, vregs[d].dwords);
          if (vregs[d].align > a) a = vregs[d].align;
          if (a > 1 && a < 256 && vregs[u].dwords == 1 && tuple_align_.data()[u] == 0) {
            tuple_align_.data()[u] = static_cast<uint8_t>(a);
            tuple_phase_.data()[u] = static_cast<uint8_t>(in.ops[0].offset % a);
          }
        }
      }
    }
    // The phase goes back along the hints (a chain x -> y -> z into a tuple: x prefers it too;
    // a later vreg usually has a higher id).
    uint8_t* const ta = tuple_align_.data();
    uint8_t* const tp = tuple_phase_.data();
    for (std::size_t v = nv; v-- > 0;) {
      if (ta[v] == 0 || hint[v] == 0 || hint_delta[v] != 0) continue;
      const uint32_t u = hint[v] - 1;
      if (vregs[u].dwords == 1 && vregs[v].dwords == 1 && ta[u] == 0) {
        ta[u] = ta[v];
        tp[u] = tp[v];
      }
    }
  }

  free_regs fr;
  bool fr_ready = false;  // built at the first vreg that is not fixed (the fixed come first)
  for (const uint64_t key : order) {
    const uint32_t v = static_cast<uint32_t>(key & 0xfffff);
    vreg_info& vi = vregs[v];
    const int c = class_index(vi.cls);
    const int64_t s = vstart[v], e = vend[v];
    if (vi.fixed >= 0) {
      if (vi.pinned >= 0 && vi.pinned != vi.fixed) {
        if (err.begin(vi.loc))
          err.add("kernel '").add(fn.name).add("': pin: an entry-state register (kernel argument pointer, workgroup or "
                                               "work-item id) has its own register, ")
              .add(class_letter(vi.cls)).add(static_cast<long long>(vi.fixed));
        return false;
      }
      vi.phys = vi.fixed;
      for (uint32_t j = 0; j < vi.dwords; ++j)
        if (vi.fixed + j < limit[c]) {
          if (e > busy[c][vi.fixed + j]) busy[c][vi.fixed + j] = e;
          owner[c][vi.fixed + j] = static_cast<int32_t>(v);
        }
      continue;
    }
    uint16_t align = vi.align > 1 ? vi.align : 1;
    if (class_alignment(vi.cls, vi.dwords) > align) align = class_alignment(vi.cls, vi.dwords);
    if (vi.pinned >= 0) {
      if (!place_pinned(fn, vi, v, s, e, align, limit, busy, owner, err)) return false;
      continue;
    }
    if (!fr_ready) {
      fr.init(busy, limit, max_end, s);
      fr_ready = true;
    }
    fr.advance(busy, s);
    int found = -1;
    const uint32_t ta = !tuple_align_.empty() && align == 1 ? tuple_align_.data()[v] : 0u;
    const uint32_t tp = ta ? tuple_phase_.data()[v] : 0u;
    if (!hint_.empty() && hint_.data()[v] != 0) {
      // The registers that make the copies `x = x`: each free from s on, or u's dword that
      // this dword of v is copied from where the one ends and the other starts.
      const uint32_t u = hint_.data()[v] - 1;
      const int32_t delta = hint_delta_.data()[v];
      const int base = vregs[u].phys + delta;
      if (vregs[u].phys >= 0 && base >= 0 && base % align == 0 && base + vi.dwords <= limit[c]) {
        bool ok = true;
        for (uint32_t j = 0; j < vi.dwords && ok; ++j) {
          const uint32_t r = static_cast<uint32_t>(base) + j;
          const int32_t ui = static_cast<int32_t>(j) + delta;  // u's dword in r
          ok = fr.is_free(c, r) ||
               (owner[c].data()[r] == static_cast<int32_t>(u) && ui >= 0 && ui < vregs[u].dwords &&
                copy_src_.data()[dword_base[v] + j] == dword_base[u] + static_cast<uint32_t>(ui) + 1);
        }
        if (ok && (ta == 0 || static_cast<uint32_t>(base) % ta == tp)) found = base;
      }
    }
    if (found < 0 && !share_.empty() && share_.data()[v] != 0) {
      // u's register, read-only from here to e: u keeps it (or this copy does from u's end).
      const uint32_t u = share_.data()[v] - 1;
      const int r = vregs[u].phys + share_off_.data()[v];
      if (vregs[u].phys >= 0 && r % align == 0 && owner[c].data()[r] == static_cast<int32_t>(u)) {
        vi.phys = static_cast<int16_t>(r);
        if (e > shared_end[c].data()[r]) shared_end[c].data()[r] = e;
        if (busy[c].data()[r] < e) {
          busy[c].data()[r] = e;
          owner[c].data()[r] = static_cast<int32_t>(v);
          fr.expire_at(c, static_cast<uint32_t>(r), e);
        }
        continue;
      }
    }
    if (found < 0 && !into_.empty() && into_.data()[v] != 0) {
      // A temporary in a dead stretch of d's dword (after a copy hint, which saves an
      // instruction where this saves a register): d's register, still d's (owner and busy).
      const uint32_t d = into_.data()[v] - 1;
      const int r = vregs[d].phys + into_off_.data()[v];
      if (vregs[d].phys >= 0 && r % align == 0 && owner[c].data()[r] == static_cast<int32_t>(d) &&
          busy[c].data()[r] >= e && shared_end[c].data()[r] < s) {
        vi.phys = static_cast<int16_t>(r);
        continue;
      }
    }
    if (found < 0 && ta) found = fr.find(c, 1, ta, limit[c], tp);
    if (found < 0) found = fr.find(c, vi.dwords, align, limit[c]);
    if (found < 0) {
      if (err.begin(vi.loc)) {
        err.add("kernel '").add(fn.name).add("': out of ").add(class_name(vi.cls)).add("s allocating ");
        err.add_reg(vi).add(" ");
        err.add("(").add(static_cast<long long>(vi.dwords)).add(" dwords, align ")
            .add(static_cast<long long>(align)).add("), no spilling; live ").add(class_name(vi.cls)).add("s: ");
        int live_dwords = 0;
        for (uint32_t r = 0; r < limit[c]; ++r) live_dwords += busy[c][r] >= s;
        err.add(static_cast<long long>(live_dwords)).add(" of ").add(static_cast<long long>(limit[c])).add(" in use");
        if (lim.waves_per_simd) {
          err.add(" (").add(static_cast<long long>(lim.waves_per_simd)).add(" waves a SIMD, asked at ")
              .add_loc(lim.budget_loc);
          if (vi.cls != reg_class::sgpr) {
            err.add(": at most ").add(static_cast<long long>(lim.budget)).add(" VGPRs + AGPRs a lane");
            if (vi.cls == reg_class::vgpr && lim.vgprs < lim.budget)
              err.add(", ").add(static_cast<long long>(lim.budget - lim.vgprs)).add(" of them AGPRs");
          }
          err.add(")");
        }
        err.add("; by array:");
        put_live_set(err, fn, vi.cls, limit[c], busy[c].data(), owner[c].data(), s);
      }
      return false;
    }
    vi.phys = static_cast<int16_t>(found);
    // The whole tuple is held to the vreg's end (freeing its dwords one by one gave a dword an
    // MFMA writes and nobody reads to the next value: an mfma-waw s_nop).
    for (uint32_t j = 0; j < vi.dwords; ++j) {
      busy[c][found + j] = e;
      owner[c][found + j] = static_cast<int32_t>(v);
      fr.set(c, static_cast<uint32_t>(found) + j, false);
      fr.expire_at(c, static_cast<uint32_t>(found) + j, e);
    }
  }
  return true;
}

// Drops the copies register allocation made `x = x` (coalesced: see the head comment).
// Returns how many it removed.
constexpr uint32_t remove_identity_copies(function& fn_, const isa_view& isa) {
  function& fn = fn_;
  const detail::copy_ops cops(isa);
  const vreg_info* const vregs = fn.vregs.data();
  uint32_t removed = 0;
  vec<uint8_t> keep;
  for (block& b : fn.blocks) {
    const instr* const ins = b.instrs.data();
    const std::size_t n = b.instrs.size();
    bool any = false;
    for (std::size_t i = 0; i < n && !any; ++i) {
      const instr& in = ins[i];
      any = detail::is_plain_vreg_copy(cops, in) &&
            vregs[in.ops[0].value].phys + in.ops[0].offset == vregs[in.ops[1].value].phys + in.ops[1].offset;
    }
    if (!any) continue;
    keep.assign(n, 1);
    for (std::size_t i = 0; i < n; ++i) {
      const instr& in = ins[i];
      if (detail::is_plain_vreg_copy(cops, in) &&
          vregs[in.ops[0].value].phys + in.ops[0].offset == vregs[in.ops[1].value].phys + in.ops[1].offset) {
        keep.data()[i] = 0;
        ++removed;
      }
    }
    detail::keep_marked(b.instrs, keep);
  }
  return removed;
}

}  // namespace hipasm
