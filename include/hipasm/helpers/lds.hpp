// LDS: a scoped allocator (reuse between phases of a kernel) and typed tensor views with a
// shape, row padding and an XOR swizzle, whose loads and stores fold constant offsets into
// the instruction's offset fields and pick the widest DS instruction the alignment allows.
//
//   lds_pool pool(J);                                   // the kernel's LDS size is its peak
//   auto As = pool.view({.rows = 128, .cols = 64, .elem_bytes = 2, .row_pad = 16});
//   As.store(v4, row, multiple_of(col, 8));             // ds_write_b128 (16-byte aligned)
//   auto p = As.addr(lane_row, multiple_of(k, 4));      // the address register, once
//   As.load(a0, p);  As.load(a1, p, 0, 16);             // ds_read_b64 offset:K, offset:K+32
//   As.load2(b2, p, 0, 0, 32, 0);                       // two b32 32 rows apart: ds_read2st64_b32
//   pool.scope([&] { auto t = pool.alloc(4096); ... }); // t is free again after the scope
//
// Freeing is a compile-time notion: LDS freed by one phase and reused by the next needs the
// usual s_waitcnt lgkmcnt(0) + s_barrier between them when different waves touch it.
//
// Views address elements: coordinates (row, col) are mem_offsets (mem_offset.hpp), so a
// register, a constant, or an expression result whose constant is taken apart (`col + 8`).
// Address = base + row * row_stride + swz(row, col * elem_bytes), row_stride = cols *
// elem_bytes + row_pad. The swizzle XORs the 'chunk' index of the byte in the row with
// (row / swz_row_div) % swz_groups: byte ^ (((row / row_div) % groups) * chunk); it permutes
// each row's chunks (a bijection: cols * elem_bytes must be a multiple of chunk * groups).
//
// Instruction choice for an access of W bytes at an address known to be A-aligned (from the
// base, the row stride, multiple_of() promises on the registers and the constant):
//   W = 16: ds_read_b128 (A >= 16), ds_read2_b64 (A >= 8), two ds_read2_b32 (A >= 4);
//   W = 12: ds_read_b96 (A >= 16), ds_read_b64 + ds_read_b32 (A >= 8), ds_read2_b32 + b32;
//   W = 8: ds_read_b64 (A >= 8), ds_read2_b32 (A >= 4); W = 4: ds_read_b32;
//   sub-dword widths (mem_opts::width): ds_read_u8/i8/u16/i16 and the d16 forms.
// Stores the same with ds_write. A register-address-free access uses a VGPR holding 0 and
// the whole address in offset:. The constant part goes to offset: (16 bits) or, for the
// read2/write2 forms, offset0/offset1 (8 bits, in units of the element); what does not fit
// is added to the address register (one v_add_u32, the fields then count from 0). Above
// 64 KiB (gfx950's 160 KiB) the part above offset:'s 16 bits joins the register
// (detail::split_lds_offset, emit_ctx.hpp), as in workgroup_reduce / workgroup_scan.
#pragma once
#include <cstdint>
#include <source_location>

#include "../builder.hpp"
#include "buffer.hpp"
#include "emit_ctx.hpp"
#include "mem_offset.hpp"

namespace hipasm {

struct lds_layout {
  uint32_t rows = 1, cols = 1;   // shape, in elements
  uint32_t elem_bytes = 4;
  uint32_t row_pad = 0;          // bytes after each row
  uint32_t swz_chunk = 0;        // XOR swizzle: chunk bytes (0: no swizzle), power of two
  uint32_t swz_groups = 1;       // chunks permuted per row (power of two)
  uint32_t swz_row_div = 1;      // rows sharing one pattern (power of two)

  constexpr uint32_t row_stride() const { return cols * elem_bytes + row_pad; }
  constexpr uint32_t bytes() const { return rows * row_stride(); }
  constexpr bool swizzled() const { return swz_chunk != 0 && swz_groups > 1; }
};

namespace detail {
constexpr bool pow2(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }
constexpr int log2u(uint32_t x) {
  int k = 0;
  while (x > 1) x >>= 1, ++k;
  return k;
}
// Largest power of two dividing x (x = 0: 65536, an LDS address's whole range).
constexpr uint32_t align_of(int64_t x) {
  uint64_t u = static_cast<uint64_t>(x);
  if (u == 0) return 65536;
  uint32_t a = 1;
  while ((u & 1) == 0 && a < 65536) u >>= 1, a <<= 1;
  return a;
}
constexpr uint32_t min_align(uint32_t a, uint32_t b) { return a < b ? a : b; }
// A handle that names an operand's register without making it an expression result.
constexpr gpr<dtype::u32> u32_view(builder* b, const operand& o) {
  gpr<dtype::u32> g;
  g.b = b;
  g.id = static_cast<uint32_t>(o.value);
  g.cls = o.cls;
  g.off = o.offset;
  return g;
}

// builder_state::memo (value_memo) for helpers: a value computed from register sources a and c
// (kind none: no second source) by what `key` names. A source is packed (value, offset,
// dwords, class); a source that is no virtual register makes the value not memoised (~0).
constexpr uint64_t memo_source(const operand& o) {
  if (o.k == operand::kind::none) return 0;
  if (o.k != operand::kind::vreg) return ~uint64_t{0};
  return (uint64_t{1} << 63) | (uint64_t{static_cast<uint8_t>(o.cls)} << 60) | (uint64_t{o.value & 0xffffffu} << 32) |
         (uint64_t{o.offset} << 16) | o.dwords;
}
constexpr uint32_t memo_slot(uint64_t key, uint64_t a, uint64_t c) {
  return static_cast<uint32_t>(((key * 0x9e3779b97f4a7c15ull) ^ (a * 0xc2b2ae3d27d4eb4full) ^ (c * 0x165667b19e3779f9ull)) >> 58) &
         (value_memo::slots - 1);
}
// The memoised value, or kind none when there is none that still stands.
constexpr operand memo_find(builder& b, uint64_t key, const operand& a, const operand& c = {}) {
  value_memo& m = b.memo_;
  if (!m.live || b.err.failed) return {};
  const uint64_t pa = memo_source(a), pc = memo_source(c);
  if (pa == ~uint64_t{0} || pc == ~uint64_t{0}) return {};
  const value_memo::entry& e = m.e[memo_slot(key, pa, pc)];
  if (e.key != key || e.a != pa || e.c != pc || e.epoch != m.epoch || e.block != b.cur_block() ||
      e.first < m.rec_first)
    return {};
  const vec<instr>& list = b.fn.blocks[e.block].instrs;
  if (e.index >= list.size()) return {};
  const instr& in = list.data()[e.index];
  const operand& d = in.ops[0];
  if (in.op != e.op || d.k != operand::kind::vreg || d.value != e.res || d.offset != 0) return {};
  const uint32_t* const ds = m.def_seq.data();
  const std::size_t n = m.def_seq.size();
  // neither source written since the value's first instruction, nor the value since its own
  if (a.value < n && ds[a.value] >= e.first) return {};
  if (c.k != operand::kind::none && c.value < n && ds[c.value] >= e.first) return {};
  if (e.res < n && ds[e.res] > e.last) return {};
  return d;
}
// Before building a value to memoise: entries need every later write counted. Returns the
// sequence number its first instruction will get.
constexpr uint32_t memo_begin(builder& b) {
  b.memo_.live = true;
  return b.memo_.seq + 1;
}
// Memoises `res`, built since memo_begin returned `first`, when the current block's last
// instruction writes it (the whole VGPR) and nothing in between bumped the epoch.
constexpr void memo_store(builder& b, uint64_t key, const operand& a, const operand& c, uint32_t first,
                          uint32_t epoch, uint32_t block, const operand& res) {
  value_memo& m = b.memo_;
  if (b.err.failed || m.epoch != epoch || b.cur_block() != block || res.k != operand::kind::vreg || res.offset != 0)
    return;
  const uint64_t pa = memo_source(a), pc = memo_source(c);
  if (pa == ~uint64_t{0} || pc == ~uint64_t{0}) return;
  const vec<instr>& list = b.fn.blocks[block].instrs;
  if (list.size() == 0) return;
  const instr& in = list.data()[list.size() - 1];
  const operand& d = in.ops[0];
  if (d.k != operand::kind::vreg || d.value != res.value || d.offset != 0 || m.seq < first) return;
  value_memo::entry& e = m.e[memo_slot(key, pa, pc)];
  e.key = key;
  e.a = pa;
  e.c = pc;
  e.res = static_cast<uint32_t>(res.value);
  e.block = block;
  e.index = static_cast<uint32_t>(list.size() - 1);
  e.first = first;
  e.last = m.seq;
  e.epoch = epoch;
  e.op = in.op;
}
// f(a, c) through the memo: made by `make` (which emits the value's instructions) when no
// memoised value stands; memoised only when `keep` accepts the instruction that made it (the
// current block's last).
template <class F, class Keep>
constexpr operand memoised_if(builder& b, uint64_t key, const operand& a, const operand& c, F&& make, Keep&& keep) {
  const uint64_t pa = memo_source(a), pc = memo_source(c);
  if (key == 0 || pa == ~uint64_t{0} || pc == ~uint64_t{0}) return make();
  operand r = memo_find(b, key, a, c);
  if (r.k != operand::kind::none) return r;
  const uint32_t first = memo_begin(b), epoch = b.memo_.epoch, block = b.cur_block();
  r = make();
  const vec<instr>& list = b.fn.blocks[block].instrs;
  if (b.cur_block() == block && list.size() != 0 && keep(list.data()[list.size() - 1]))
    memo_store(b, key, a, c, first, epoch, block, r);
  return r;
}
template <class F>
constexpr operand memoised(builder& b, uint64_t key, const operand& a, const operand& c, F&& make) {
  return memoised_if(b, key, a, c, static_cast<F&&>(make), [](const instr&) { return true; });
}

struct lds_block {
  uint32_t off = 0, bytes = 0;
  bool foreign = false;  // allocated outside the pool (J.lds): never freed
};
struct lds_pool_state {
  builder* b = nullptr;
  uint32_t base = 0;       // where the pool starts
  uint32_t known_end = 0;  // the kernel's static LDS size when the pool last looked
  uint32_t refs = 1;
  vec<lds_block> live;     // sorted by offset
};
}  // namespace detail

class lds_view;

// A first-fit allocator over the kernel's static LDS: allocations, frees, scopes. The
// kernel's static LDS size is the highest end any allocation reached. Copies are handles to
// one allocator (a kernel may pass the pool by value).
class lds_pool {
 public:
  constexpr explicit lds_pool(builder J) : s(new detail::lds_pool_state) {
    s->b = J.self();
    s->base = s->known_end = J.fn.lds_static_bytes;
  }
  constexpr lds_pool(const lds_pool& o) : s(o.s) { ++s->refs; }
  constexpr lds_pool& operator=(const lds_pool& o) {
    if (o.s == s) return *this;
    release();
    s = o.s;
    ++s->refs;
    return *this;
  }
  constexpr ~lds_pool() { release(); }

  constexpr lds_ref alloc(uint32_t bytes, uint32_t align = 16, std::source_location l = std::source_location::current()) {
    builder& b = *s->b;
    src_loc sl = to_src_loc(l);
    if (!detail::pow2(align)) {
      b.fail(sl, "LDS alignment must be a power of two, got ", static_cast<long long>(align));
      return {};
    }
    if (b.fn.lds_dynamic) {
      b.fail(sl, "LDS pool allocation after lds_dynamic(): allocate dynamic LDS last");
      return {};
    }
    if (b.fn.lds_static_bytes > s->known_end) {  // J.lds() allocated behind the pool's back
      insert({s->known_end, b.fn.lds_static_bytes - s->known_end, true});
      s->known_end = b.fn.lds_static_bytes;
    }
    uint32_t at = (s->base + align - 1) & ~(align - 1);
    const detail::lds_block* blocks = s->live.data();
    const std::size_t n = s->live.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (static_cast<uint64_t>(at) + bytes <= blocks[i].off) break;
      uint32_t end = blocks[i].off + blocks[i].bytes;
      if (end > at) at = (end + align - 1) & ~(align - 1);
    }
    uint64_t end = static_cast<uint64_t>(at) + bytes;
    if (end > active_target::desc.lds_bytes) {
      b.fail(sl, "LDS pool: ", static_cast<long long>(bytes), " bytes do not fit in ", static_cast<long long>(active_target::desc.lds_bytes / 1024), " KiB (",
             static_cast<long long>(live_bytes()), " bytes live)");
      return {};
    }
    insert({at, bytes, false});
    if (end > b.fn.lds_static_bytes) b.fn.lds_static_bytes = static_cast<uint32_t>(end);
    s->known_end = b.fn.lds_static_bytes;
    return {at, bytes};
  }
  constexpr void free(lds_ref r, std::source_location l = std::source_location::current()) {
    detail::lds_block* blocks = s->live.data();
    const std::size_t n = s->live.size();
    for (std::size_t i = 0; i < n; ++i)
      if (blocks[i].off == r.offset && blocks[i].bytes == r.bytes && !blocks[i].foreign) {
        for (std::size_t j = i + 1; j < n; ++j) blocks[j - 1] = blocks[j];
        s->live.pop_back();
        return;
      }
    s->b->fail(to_src_loc(l), "LDS pool free() of a block it does not hold (freed twice, or not from this pool): offset ",
               static_cast<long long>(r.offset));
  }
  // Runs body(); what it allocated from the pool and did not free is freed after it.
  template <class F>
  constexpr void scope(F&& body) {
    vec<detail::lds_block> before;
    before.append(s->live.data(), s->live.size());
    body();
    // keep the blocks that were live before, and foreign blocks (J.lds inside the scope)
    vec<detail::lds_block> keep;
    for (const detail::lds_block& x : s->live) {
      bool old = x.foreign;
      for (const detail::lds_block& y : before)
        if (y.off == x.off && y.bytes == x.bytes) old = true;
      if (old) keep.push_back(x);
    }
    s->live.clear();
    s->live.append(keep.data(), keep.size());
  }
  constexpr lds_view view(const lds_layout& layout, std::source_location l = std::source_location::current());
  constexpr uint32_t live_bytes() const {
    uint32_t t = 0;
    for (const detail::lds_block& x : s->live) t += x.bytes;
    return t;
  }

 private:
  detail::lds_pool_state* s;
  constexpr void release() {
    if (s && --s->refs == 0) delete s;
    s = nullptr;
  }
  constexpr void insert(detail::lds_block blk) {
    s->live.push_back(blk);
    detail::lds_block* p = s->live.data();
    for (std::size_t i = s->live.size() - 1; i > 0 && p[i - 1].off > p[i].off; --i) {
      detail::lds_block t = p[i - 1];
      p[i - 1] = p[i];
      p[i] = t;
    }
  }
};

// An LDS address: a VGPR part (computed once) and a constant byte part, with what is known
// about them (for instruction choice and for folding displacements).
struct lds_addr {
  operand reg{};          // VGPR part (kind none: none)
  int64_t k = 0;          // constant byte address part (includes the view's base)
  uint32_t reg_align = 65536;  // the VGPR part is a multiple of this
  int32_t in_chunk = 0;   // swizzled views: the constant's byte offset inside its chunk that
                          // was folded (-1: the register column is not chunk aligned)
  mem_offset row{}, col{};  // the coordinates (to recompute a displacement that cannot fold)
};

class lds_view {
 public:
  lds_layout L{};
  uint32_t base = 0;

  constexpr lds_view() = default;
  constexpr lds_view(lds_ref r, const lds_layout& layout, std::source_location l = std::source_location::current())
      : L(layout), base(r.offset) {
    (void)l;
  }

  // The address of element (row, col): its register part computed now.
  constexpr lds_addr addr(mem_offset row, mem_offset col, std::source_location l = std::source_location::current()) const {
    return compute(row, col, to_src_loc(l), row.b ? row.b : col.b);
  }
  // The address `a` (computed in view `from`) moved to the same element of this view: one
  // compile-time constant (no instruction) when both views have the same layout, so an address
  // computed once serves every buffer of a ring (double-buffered tiles). Different layouts are
  // a compile error at the caller's line.
  constexpr lds_addr translate(builder J, const lds_addr& a, const lds_view& from,
                               std::source_location l = std::source_location::current()) const {
    const lds_layout& F = from.L;
    if (F.rows != L.rows || F.cols != L.cols || F.elem_bytes != L.elem_bytes || F.row_pad != L.row_pad ||
        F.swz_chunk != L.swz_chunk || F.swz_groups != L.swz_groups || F.swz_row_div != L.swz_row_div) {
      J.self()->fail(to_src_loc(l), "LDS view translate: the two views have different layouts");
      return a;
    }
    lds_addr r = a;
    r.k += static_cast<int64_t>(base) - static_cast<int64_t>(from.base);
    return r;
  }

  // Loads / stores of the register's width (1-4 dwords, or a sub-dword width) at (row, col)
  // or at an address plus a displacement of (drow, dcol) elements.
  template <dtype T>
  constexpr void load(const gpr<T>& dst, mem_offset row, mem_offset col, mem_opts o = {},
                      std::source_location l = std::source_location::current()) const {
    builder* b = dst.b;
    lds_addr a = compute(row, col, to_src_loc(l), b);
    access(*b, false, dst.to_operand(), a, o, l);
  }
  template <dtype T>
  constexpr void load(const gpr<T>& dst, const lds_addr& a, int32_t drow = 0, int32_t dcol = 0, mem_opts o = {},
                      std::source_location l = std::source_location::current()) const {
    builder* b = dst.b;
    access(*b, false, dst.to_operand(), displaced(*b, a, drow, dcol, width_of(dst.dwords(), o), to_src_loc(l)), o, l);
  }
  template <dtype T>
  constexpr void store(const gpr<T>& src, mem_offset row, mem_offset col, mem_opts o = {},
                       std::source_location l = std::source_location::current()) const {
    builder* b = src.b;
    lds_addr a = compute(row, col, to_src_loc(l), b);
    access(*b, true, src.to_operand(), a, o, l);
  }
  template <dtype T>
  constexpr void store(const gpr<T>& src, const lds_addr& a, int32_t drow = 0, int32_t dcol = 0, mem_opts o = {},
                       std::source_location l = std::source_location::current()) const {
    builder* b = src.b;
    access(*b, true, src.to_operand(), displaced(*b, a, drow, dcol, width_of(src.dwords(), o), to_src_loc(l)), o, l);
  }

  // Two elements of half the register's width each (2 dwords: 2 x b32, 4 dwords: 2 x b64),
  // at p displaced by (drow0, dcol0) and by (drow1, dcol1): one ds_read2 / ds_write2 when both
  // offsets fit its 8-bit fields (in elements), ds_read2st64 when they are multiples of 64
  // elements that fit, either after moving the smaller offset into the address register
  // (one v_add_u32); else two single accesses.
  template <dtype T>
  constexpr void load2(const gpr<T>& dst, const lds_addr& p, int32_t drow0, int32_t dcol0, int32_t drow1,
                       int32_t dcol1, std::source_location l = std::source_location::current()) const {
    pair(*dst.b, false, dst.to_operand(), p, drow0, dcol0, drow1, dcol1, l);
  }
  template <dtype T>
  constexpr void store2(const gpr<T>& src, const lds_addr& p, int32_t drow0, int32_t dcol0, int32_t drow1,
                        int32_t dcol1, std::source_location l = std::source_location::current()) const {
    pair(*src.b, true, src.to_operand(), p, drow0, dcol0, drow1, dcol1, l);
  }

  // ---- internals --------------------------------------------------------------------------
  static constexpr uint32_t width_of(uint16_t dwords, const mem_opts& o) {
    using enum narrow;
    switch (o.width) {
      case none: return dwords * 4u;
      case u8: case i8: case u8_d16: case i8_d16: case u8_d16_hi: case i8_d16_hi: return 1;
      default: return 2;
    }
  }
  constexpr bool check_layout(builder& b, src_loc sl) const {
    if (!detail::pow2(L.elem_bytes) || L.elem_bytes > 16 || L.rows == 0 || L.cols == 0) {
      b.fail(sl, "LDS view: elem_bytes must be a power of two up to 16 and the shape nonzero");
      return false;
    }
    if (L.swizzled()) {
      if (!detail::pow2(L.swz_chunk) || !detail::pow2(L.swz_groups) || !detail::pow2(L.swz_row_div)) {
        b.fail(sl, "LDS view: swizzle chunk, groups and row_div must be powers of two");
        return false;
      }
      if ((L.cols * L.elem_bytes) % (L.swz_chunk * L.swz_groups) != 0) {
        b.fail(sl, "LDS view: a swizzled row (", static_cast<long long>(L.cols * L.elem_bytes),
               " bytes) must be a multiple of chunk * groups (", static_cast<long long>(L.swz_chunk * L.swz_groups),
               " bytes): the XOR would leave the row");
        return false;
      }
    }
    if (static_cast<uint64_t>(base) + L.bytes() > active_target::desc.lds_bytes) {
      b.fail(sl, "LDS view exceeds ", static_cast<long long>(active_target::desc.lds_bytes / 1024), " KiB");
      return false;
    }
    return true;
  }

  // reg + c as a VGPR (c may be 0), through the expression lowering.
  static constexpr operand add_const(builder& b, const operand& reg, int64_t c) {
    gpr<dtype::u32> r = detail::u32_view(&b, reg);
    gpr<dtype::u32> t = r + static_cast<uint32_t>(c);
    return t.to_operand();
  }

  constexpr lds_addr compute(mem_offset row, mem_offset col, src_loc sl, builder* bp) const {
    lds_addr a;
    row.fold_wrapping();  // LDS addresses wrap at 32 bits: a peeled constant is exact here
    col.fold_wrapping();
    a.row = row;
    a.col = col;
    if (!bp) {  // both coordinates constant and no builder: nothing to emit, address constant
      a.k = base + row.c * L.row_stride() + col.c * L.elem_bytes;
      if (L.swizzled()) a.k = base + row.c * L.row_stride() + swizzle_const(row.c, col.c * L.elem_bytes);
      return a;
    }
    builder& b = *bp;
    if (!check_layout(b, sl)) return a;
    b.note_loc(sl);
    const uint32_t rs = L.row_stride(), eb = L.elem_bytes;
    operand rr = row.vgpr_sum(b, sl), rsg = row.sgpr_sum(b, sl);
    operand cr = col.vgpr_sum(b, sl), csg = col.sgpr_sum(b, sl);
    // one register per coordinate (VGPR + SGPR terms added)
    operand R = sum2(b, rr, rsg), C = sum2(b, cr, csg);
    // Terms memoised (builder_state::memo: the same row or column register in the same block
    // makes the same value, which CSE would merge) are those whose instructions and whose
    // user's do not depend on what was emitted just before (expr.hpp's fold_int fuses an add
    // with an operand's recent definition): never the address register itself (a caller may
    // change it), nor what an add would fuse with.
    int64_t rc = row.c, cc = col.c;
    if (!L.swizzled()) {
      a.k = base + rc * rs + cc * eb;
      a.reg_align = 65536;
      operand acc{};
      if (R.k != operand::kind::none) {
        // (memoised when the add below fuses with the column's fresh shift instead)
        acc = C.k != operand::kind::none && eb > 1 ? mulm(b, R, rs) : mul(b, R, rs);
        a.reg_align = detail::min_align(a.reg_align, detail::align_of(rs) * row.mult);
      }
      if (C.k != operand::kind::none) {
        operand cb = mul(b, C, eb);
        acc = acc.k == operand::kind::none ? cb : sum2(b, cb, acc);
        a.reg_align = detail::min_align(a.reg_align, eb * col.mult);
      }
      a.reg = acc;
      return a;
    }
    // Swizzled: byte = col * eb; byte ^= ((row / row_div) % groups) * chunk.
    const uint32_t chunk = L.swz_chunk, span = chunk * L.swz_groups, period = L.swz_row_div * L.swz_groups;
    // Row constant: folded when it keeps the pattern (a multiple of the period), else added.
    int64_t rfold = 0;
    if (R.k == operand::kind::none) {
      rfold = 0;  // the whole row is constant: its pattern is a constant
    } else if (rc % period == 0) {
      rfold = rc;
      rc = 0;
    } else {
      R = row_plus(b, R, rc, rs);
      rc = 0;
    }
    // Column constant (bytes): the part that is a multiple of the span folds, the part inside
    // a chunk folds when the register column is chunk aligned, the rest joins the XOR.
    int64_t cbytes = cc * eb;
    bool creg = C.k != operand::kind::none;
    uint32_t creg_align = creg ? eb * col.mult : 65536;
    int64_t chi = cbytes - (cbytes % span + span) % span;  // floor to a multiple of span
    int64_t cmid = cbytes - chi;                           // in [0, span)
    int64_t clo = 0;
    if (!creg || creg_align % chunk == 0) {
      clo = cmid % chunk;
      cmid -= clo;
      a.in_chunk = static_cast<int32_t>(clo);
    } else {
      a.in_chunk = -1;
    }
    // the column's bytes plus cmid (memoised when the add fuses with the fresh shift: eb > 1)
    auto col_bytes = [&] {
      auto make = [&] {
        operand Cb = mul(b, C, eb);
        if (cmid) Cb = add_const(b, Cb, cmid);
        return Cb;
      };
      if (eb == 1) return make();
      return detail::memoised(b, memo_key(memo_kind::col_bytes, static_cast<uint32_t>(cmid), eb), C, {}, make);
    };
    if (R.k == operand::kind::none) {
      // constant row: pattern known; the constant column parts XOR at compile time
      int64_t pat = ((rc / L.swz_row_div) % L.swz_groups) * chunk;
      a.k = base + rc * rs + chi + clo;
      if (!creg) {
        a.k += cmid ^ pat;
        return a;
      }
      operand Cb = col_bytes();
      a.reg = (detail::u32_view(&b, Cb) ^ static_cast<uint32_t>(pat)).to_operand();
      a.reg_align = detail::min_align(creg_align, chunk);
      return a;
    }
    a.k = base + rfold * rs + chi + clo;
    gpr<dtype::u32> rv = detail::u32_view(&b, R);
    if (creg && detail::features().has_bitop3) {
      operand Cb = col_bytes();
      const operand colx = xor_pattern_bitop3(b, rv, Cb, chunk, sl);
      if (colx.k != operand::kind::none) {
        a.reg = row_add(b, R, rs, colx);
        a.reg_align = detail::min_align(detail::align_of(rs) * row.mult, detail::min_align(creg_align, chunk));
        return a;
      }
    }
    // The pattern: memoised when an xor uses it, or when the final add fuses with the row's
    // fresh shift (a row stride of a power of two above 1), not with the pattern's.
    auto make_pat = [&] {
      gpr<dtype::u32> rsh = L.swz_row_div > 1 ? rv >> detail::log2u(L.swz_row_div) : rv;
      return ((rsh & (L.swz_groups - 1)) << detail::log2u(chunk)).to_operand();
    };
    const operand pat = creg || cmid || (rs > 1 && detail::pow2(rs))
                            ? detail::memoised(b, memo_key(memo_kind::pattern, L.swz_row_div, L.swz_groups, chunk), R,
                                               {}, make_pat)
                            : make_pat();
    operand colx = pat;
    if (creg) {
      const operand Cb = col_bytes();
      colx = detail::memoised(b, memo_key(memo_kind::xor2), Cb, pat, [&] {
        return (detail::u32_view(&b, Cb) ^ detail::u32_view(&b, pat)).to_operand();
      });
    } else if (cmid) {
      colx = detail::memoised(b, memo_key(memo_kind::xor_const, static_cast<uint32_t>(cmid)), pat, {}, [&] {
        return (detail::u32_view(&b, pat) ^ static_cast<uint32_t>(cmid)).to_operand();
      });
    }
    a.reg = row_add(b, R, rs, colx);
    a.reg_align = detail::min_align(detail::align_of(rs) * row.mult, detail::min_align(creg_align, chunk));
    return a;
  }
  // What a memoised address term is (detail::memoised's key).
  enum class memo_kind : uint8_t { mul = 1, add, col_bytes, pattern, xor2, xor_const, shift, bitop3 };
  // (0, not memoised, when y or z does not fit its 12 bits)
  static constexpr uint64_t memo_key(memo_kind k, uint32_t x = 0, uint32_t y = 0, uint32_t z = 0) {
    if (y > 0xfffu || z > 0xfffu) return 0;
    return (uint64_t{static_cast<uint8_t>(k)} << 56) | (uint64_t{x} << 24) | (uint64_t{y} << 12) | z;
  }
  static constexpr operand mulm(builder& b, const operand& v, uint32_t k) {
    if (k == 1) return v;
    // (the lambda reads locals: clang's bytecode interpreter cannot read a reference parameter there)
    builder& bl = b;
    const operand vl = v;
    const uint32_t kl = k;
    return detail::memoised(bl, memo_key(memo_kind::mul, kl), vl, {}, [&] { return mul(bl, vl, kl); });
  }
  constexpr int64_t swizzle_const(int64_t row, int64_t byte) const {
    return byte ^ (((row / L.swz_row_div) % L.swz_groups) * L.swz_chunk);
  }
  // Cb ^ (((row / row_div) % groups) * chunk) where the target has v_bitop3: the row shifted
  // so that its pattern bits sit at the chunk's bits, then (t & mask) ^ Cb in one VALU
  // instruction (table 0x6a: (s0 & s1) ^ s2) instead of an and, a shift and an xor. None when
  // the operands would read two SGPRs (one constant-bus read in VOP3): the caller's path then.
  constexpr operand xor_pattern_bitop3(builder& b, const gpr<dtype::u32>& rv, const operand& Cb, uint32_t chunk,
                                       src_loc sl) const {
    // (the lambdas below read locals: clang's bytecode interpreter cannot read a reference
    // parameter there)
    builder& bl = b;
    const gpr<dtype::u32> rvl = rv;
    const operand Cbl = Cb;
    const src_loc sll = sl;
    const int sh = detail::log2u(chunk) - detail::log2u(L.swz_row_div);
    const uint32_t mask = (L.swz_groups - 1) << detail::log2u(chunk);
    const operand r = rv.to_operand();
    const bool inline_mask = mask <= 64;
    const int sgprs = (Cb.is_reg() && Cb.cls == reg_class::sgpr) + !inline_mask;
    if (!r.is_reg() || r.cls != reg_class::vgpr || sgprs > 1) return {};
    operand t = r;
    if (sh != 0)
      t = detail::memoised(bl, memo_key(memo_kind::shift, static_cast<uint32_t>(sh + 64)), r, {}, [&] {
        if (sh > 0) return (rvl << static_cast<uint32_t>(sh)).to_operand();
        return (rvl >> static_cast<uint32_t>(-sh)).to_operand();
      });
    return detail::memoised(bl, memo_key(memo_kind::bitop3, mask), t, Cbl, [&] {
      operand m = detail::imm_op(mask);
      if (!inline_mask) {
        gpr<dtype::u32> ms = bl.sgpr<dtype::u32>();
        ms = mask;
        m = ms.to_operand();
      }
      gpr<dtype::u32> d = bl.vgpr<dtype::u32>();
      modifiers mo;
      mo.bitop3 = 0x6a;
      const operand_arg args[4] = {detail::as_arg(d.to_operand()), detail::as_arg(t), detail::as_arg(m),
                                   detail::as_arg(Cbl)};
      bl.emit_ops(detail::feature_op("v_bitop3_b32"), args, 4, mo, sll);
      return d.to_operand();
    });
  }
  // R + rc for the row: memoised while the add cannot fuse (fold_int: no recent definition
  // of R it would fuse with, now or when it was made), and while its users do not look at its
  // definition (the v_lshl_add_u32 of row_add: a row stride of a power of two above 1).
  static constexpr operand row_plus(builder& b, const operand& R, int64_t rc, uint32_t rs) {
    if (rs < 2 || !detail::pow2(rs) || R.k != operand::kind::vreg || R.cls != reg_class::vgpr || R.dwords != 1 ||
        b.err.failed || detail::recent_def(b, static_cast<uint32_t>(R.value)) >= 0)
      return add_const(b, R, rc);
    // (only the plain add: v_add_u32 of R and the constant; the lambdas read locals: clang's
    // bytecode interpreter cannot read a reference parameter there)
    builder& bl = b;
    const operand Rl = R;
    auto is_r = [&](const operand& o) { return o.k == operand::kind::vreg && o.value == Rl.value && o.offset == Rl.offset; };
    return detail::memoised_if(bl, memo_key(memo_kind::add, static_cast<uint32_t>(rc)), Rl, {},
                               [&] { return add_const(bl, Rl, rc); },
                               [&](const instr& in) {
                                 return in.op == static_cast<uint16_t>(target_op::v_add_u32) && in.num_operands == 3 &&
                                        ((in.ops[1].k == operand::kind::imm && is_r(in.ops[2])) ||
                                         (in.ops[2].k == operand::kind::imm && is_r(in.ops[1])));
                               });
  }
  // R * rs + colx. With rs a power of two above 1 and R a VGPR: the v_lshl_add_u32 the
  // expression lowering makes of the two (fold_int fuses the add with the fresh shift of R),
  // without that shift (which nothing reads after the fusion).
  static constexpr operand row_add(builder& b, const operand& R, uint32_t rs, const operand& colx) {
    operand s[3] = {R, detail::imm_op(static_cast<uint32_t>(detail::log2u(rs))), colx};
    if (b.err.failed || !b.options().fold || rs < 2 || !detail::pow2(rs) || R.k != operand::kind::vreg ||
        R.cls != reg_class::vgpr || R.dwords != 1 || colx.k != operand::kind::vreg || colx.cls != reg_class::vgpr ||
        colx.offset != 0 || colx.dwords != 1 || !detail::vop3_legal(s, 3))
      return sum2(b, mul(b, R, rs), colx);
    detail::lower L{b, b.cur_loc()};
    const uint32_t block = b.cur_block(), first = b.cur_index();
    const detail::reg_ref out = L.tmp(reg_class::vgpr);
    L.e(target_op::v_lshl_add_u32, {detail::reg_op(out), s[0], s[1], s[2]});
    if (b.cur_block() == block) b.last_expr_ = {out.id, block, first, b.cur_index()};
    return detail::reg_op(out);
  }
  static constexpr operand mul(builder& b, const operand& v, uint32_t k) {
    if (k == 1) return v;
    return (detail::u32_view(&b, v) * k).to_operand();
  }
  static constexpr operand sum2(builder& b, const operand& v, const operand& s) {
    if (v.k == operand::kind::none) return s;
    if (s.k == operand::kind::none) return v;
    gpr<dtype::u32> t = detail::u32_view(&b, v) + detail::u32_view(&b, s);
    return t.to_operand();
  }

  // The address displaced by (drow, dcol) elements: folded into the constant when the layout
  // allows, else computed again from the coordinates.
  constexpr lds_addr displaced(builder& b, const lds_addr& a, int32_t drow, int32_t dcol, uint32_t width,
                               src_loc sl) const {
    if (drow == 0 && dcol == 0) return a;
    const uint32_t rs = L.row_stride(), eb = L.elem_bytes;
    if (!L.swizzled()) {
      lds_addr r = a;
      r.k += static_cast<int64_t>(drow) * rs + static_cast<int64_t>(dcol) * eb;
      return r;
    }
    const uint32_t chunk = L.swz_chunk, span = chunk * L.swz_groups, period = L.swz_row_div * L.swz_groups;
    bool row_ok = a.row.constant() ? false : drow % static_cast<int32_t>(period) == 0;
    if (drow == 0) row_ok = true;
    int64_t d = static_cast<int64_t>(dcol) * eb;
    bool col_ok = d % span == 0 ||
                  (a.in_chunk >= 0 && d >= 0 && a.in_chunk + d + width <= chunk) ||
                  (a.in_chunk >= 0 && d < 0 && a.in_chunk + d >= 0);
    if (row_ok && col_ok) {
      lds_addr r = a;
      r.k += static_cast<int64_t>(drow) * rs + d;
      if (d % span != 0) r.in_chunk = static_cast<int32_t>(a.in_chunk + d);
      return r;
    }
    mem_offset row = a.row, col = a.col;
    row.c += drow;
    col.c += dcol;
    return compute(row, col, sl, &b);
  }

  // Emission of one DS access at (reg, k): the single and the two-element forms.
  struct ds_emit {
    builder* b;
    bool store;
    operand reg;
    int64_t k;
    std::source_location l;
    static constexpr operand dword(const operand& d, uint16_t first, uint16_t n) {
      operand r = d;
      r.offset = static_cast<uint16_t>(d.offset + first);
      r.dwords = n;
      return r;
    }
    // one instruction: offset: k + delta
    constexpr void one(target_op op, const operand& part, int64_t delta) const {
      modifiers m;
      m.offset = static_cast<int32_t>(k + delta);
      if (store) b->emit(op, {detail::as_arg(reg), detail::as_arg(part)}, m, l);
      else b->emit(op, {detail::as_arg(part), detail::as_arg(reg)}, m, l);
    }
    // read2/write2 of two elements of eb2 bytes at k + delta and k + delta + eb2 (false: the
    // offsets do not fit the 8-bit fields)
    constexpr bool two(target_op op, const operand& part, int64_t delta, uint32_t eb2) const {
      int64_t first = k + delta;
      if (first % eb2 != 0 || first / eb2 + 1 > 255) return false;
      modifiers m;
      m.offset = static_cast<int32_t>(first / eb2);
      m.offset1 = static_cast<int32_t>(first / eb2 + 1);
      if (store) {
        uint16_t h = static_cast<uint16_t>(eb2 / 4);
        b->emit(op, {detail::as_arg(reg), detail::as_arg(dword(part, 0, h)), detail::as_arg(dword(part, h, h))}, m, l);
      } else {
        b->emit(op, {detail::as_arg(part), detail::as_arg(reg)}, m, l);
      }
      return true;
    }
  };

  constexpr void pair(builder& b, bool store, const operand& data, const lds_addr& p, int32_t r0, int32_t c0,
                      int32_t r1, int32_t c1, std::source_location l) const {
    using O = target_op;
    const src_loc sl = to_src_loc(l);
    b.note_loc(sl);
    if (b.err.failed) return;
    if (data.k != operand::kind::vreg || data.cls == reg_class::sgpr || (data.dwords != 2 && data.dwords != 4)) {
      b.fail(sl, "LDS load2/store2: 2 or 4 VGPRs/AGPRs (two b32 or two b64 elements)");
      return;
    }
    const uint16_t half = static_cast<uint16_t>(data.dwords / 2);
    const uint32_t eb2 = half * 4u;
    const operand d0 = ds_emit::dword(data, 0, half), d1 = ds_emit::dword(data, half, half);
    const lds_addr a0 = displaced(b, p, r0, c0, eb2, sl), a1 = displaced(b, p, r1, c1, eb2, sl);
    const bool same_reg = a0.reg.k == a1.reg.k && a0.reg.value == a1.reg.value && a0.reg.offset == a1.reg.offset;
    uint32_t align = detail::min_align(detail::align_of(a0.k), detail::align_of(a1.k));
    if (a0.reg.k != operand::kind::none) align = detail::min_align(align, a0.reg_align);
    if (!same_reg || align < eb2 || a0.k < 0 || a1.k < 0) {
      access(b, store, d0, a0, mem_opts{}, l);
      access(b, store, d1, a1, mem_opts{}, l);
      return;
    }
    operand reg = a0.reg;
    if (reg.k == operand::kind::none) reg = zero(b, sl);
    else if (reg.cls != reg_class::vgpr) {
      gpr<dtype::u32> v = b.vgpr<dtype::u32>();
      v = detail::u32_view(&b, reg);
      reg = v.to_operand();
    }
    const O plain = eb2 == 4 ? (store ? O::ds_write2_b32 : O::ds_read2_b32) : (store ? O::ds_write2_b64 : O::ds_read2_b64);
    const O st64 = eb2 == 4 ? (store ? O::ds_write2st64_b32 : O::ds_read2st64_b32)
                            : (store ? O::ds_write2st64_b64 : O::ds_read2st64_b64);
    // the fields for byte offsets x and y in units of u (false: they do not fit)
    auto fits = [](int64_t x, int64_t y, int64_t u) { return x % u == 0 && y % u == 0 && x / u <= 255 && y / u <= 255; };
    int64_t k0 = a0.k, k1 = a1.k;
    int64_t unit = 0;
    if (fits(k0, k1, eb2)) unit = eb2;
    else if (fits(k0, k1, 64 * eb2)) unit = 64 * eb2;
    if (!unit) {
      const int64_t lo = k0 < k1 ? k0 : k1;
      if (fits(k0 - lo, k1 - lo, eb2)) unit = eb2;
      else if (fits(k0 - lo, k1 - lo, 64 * eb2)) unit = 64 * eb2;
      if (!unit) {
        access(b, store, d0, a0, mem_opts{}, l);
        access(b, store, d1, a1, mem_opts{}, l);
        return;
      }
      reg = add_const(b, reg, lo);
      k0 -= lo;
      k1 -= lo;
    }
    modifiers m;
    m.offset = static_cast<int32_t>(k0 / unit);
    m.offset1 = static_cast<int32_t>(k1 / unit);
    const O op = unit == eb2 ? plain : st64;
    if (store) b.emit(op, {detail::as_arg(reg), detail::as_arg(d0), detail::as_arg(d1)}, m, l);
    else b.emit(op, {detail::as_arg(data), detail::as_arg(reg)}, m, l);
  }

  // Emits the access of `data` (a register operand) at address a.
  constexpr void access(builder& b, bool store, const operand& data, lds_addr a, const mem_opts& o,
                        std::source_location l) const {
    using O = target_op;
    const src_loc sl = to_src_loc(l);
    b.note_loc(sl);
    if (b.err.failed) return;
    if (data.k != operand::kind::vreg || data.cls == reg_class::sgpr) {
      b.fail(sl, "LDS ", store ? "store" : "load", ": the data must be VGPRs or AGPRs");
      return;
    }
    const uint32_t W = width_of(data.dwords, o);
    if ((o.width != narrow::none && data.dwords != 1) || data.dwords > 4) {
      b.fail(sl, "LDS access of ", static_cast<long long>(data.dwords), " dwords: 1 to 4, or one with a sub-dword width");
      return;
    }
    operand reg{};
    int64_t k = 0;
    // (a 12- or 16-byte access may be split: its second instruction at offset: + 8)
    const uint32_t align = address_operands(b, a, reg, k, sl, W > 8 ? 8u : 0u);
    if (align < (W >= 4 ? 4u : W)) {
      b.fail(sl, "LDS ", store ? "store" : "load", " of ", static_cast<long long>(W),
             " bytes at an address only known to be ", static_cast<long long>(align),
             "-byte aligned: promise the column register's alignment with multiple_of(col, n), or use a narrower access");
      return;
    }
    const ds_emit E{&b, store, reg, k, l};
    if (o.width != narrow::none) {
      using enum narrow;
      O op{};
      if (store) {
        op = o.width == u8_d16_hi || o.width == i8_d16_hi ? O::ds_write_b8_d16_hi
             : o.width == u16_d16_hi                     ? O::ds_write_b16_d16_hi
             : W == 1                                    ? O::ds_write_b8
                                                         : O::ds_write_b16;
      } else {
        switch (o.width) {
          case u8: op = O::ds_read_u8; break;
          case i8: op = O::ds_read_i8; break;
          case u16: op = O::ds_read_u16; break;
          case i16: op = O::ds_read_i16; break;
          case u8_d16: op = O::ds_read_u8_d16; break;
          case i8_d16: op = O::ds_read_i8_d16; break;
          case u16_d16: op = O::ds_read_u16_d16; break;
          case u8_d16_hi: op = O::ds_read_u8_d16_hi; break;
          case i8_d16_hi: op = O::ds_read_i8_d16_hi; break;
          case u16_d16_hi: op = O::ds_read_u16_d16_hi; break;
          default: break;
        }
      }
      E.one(op, data, 0);
      return;
    }
    // read2/write2 whose offsets do not fit their 8-bit fields: the constant joins the address
    // register (one v_add_u32) and the fields count from 0.
    switch (W) {
      case 4: E.one(store ? O::ds_write_b32 : O::ds_read_b32, data, 0); return;
      case 8:
        if (align >= 8) E.one(store ? O::ds_write_b64 : O::ds_read_b64, data, 0);
        else if (!E.two(store ? O::ds_write2_b32 : O::ds_read2_b32, data, 0, 4)) far(b, reg, k, store, data, 4, 1, l);
        return;
      case 12:
        if (align >= 16) {
          E.one(store ? O::ds_write_b96 : O::ds_read_b96, data, 0);
        } else if (align >= 8) {
          E.one(store ? O::ds_write_b64 : O::ds_read_b64, ds_emit::dword(data, 0, 2), 0);
          E.one(store ? O::ds_write_b32 : O::ds_read_b32, ds_emit::dword(data, 2, 1), 8);
        } else {
          if (!E.two(store ? O::ds_write2_b32 : O::ds_read2_b32, ds_emit::dword(data, 0, 2), 0, 4))
            far(b, reg, k, store, ds_emit::dword(data, 0, 2), 4, 1, l);
          E.one(store ? O::ds_write_b32 : O::ds_read_b32, ds_emit::dword(data, 2, 1), 8);
        }
        return;
      case 16:
        if (align >= 16) {
          E.one(store ? O::ds_write_b128 : O::ds_read_b128, data, 0);
        } else if (align >= 8) {
          if (!E.two(store ? O::ds_write2_b64 : O::ds_read2_b64, data, 0, 8)) far(b, reg, k, store, data, 8, 1, l);
        } else if (k % 4 == 0 && (k + 8) / 4 + 1 <= 255) {
          E.two(store ? O::ds_write2_b32 : O::ds_read2_b32, ds_emit::dword(data, 0, 2), 0, 4);
          E.two(store ? O::ds_write2_b32 : O::ds_read2_b32, ds_emit::dword(data, 2, 2), 8, 4);
        } else {
          far(b, reg, k, store, data, 4, 2, l);
        }
        return;
      default: return;
    }
  }
  // The DS operands of address a: a VGPR (none: a VGPR holding 0) and the offset: constant,
  // leaving room for `span` more bytes in offset: (the instructions of a split access); what
  // does not fit 16 bits joins the register (detail::split_lds_offset). Returns the alignment
  // known of their sum.
  static constexpr uint32_t address_operands(builder& b, const lds_addr& a, operand& reg, int64_t& k, src_loc sl,
                                             uint32_t span = 0) {
    reg = a.reg;
    k = a.k;
    const uint32_t align = detail::min_align(a.reg.k == operand::kind::none ? 65536 : a.reg_align, detail::align_of(k));
    const detail::lds_offset_split sp = detail::split_lds_offset(k, span);
    if (sp.hi != 0) {
      if (reg.k == operand::kind::none) reg = zero(b, sl);
      reg = add_const(b, reg, sp.hi);
      k = sp.lo;
    }
    if (reg.k == operand::kind::none) reg = zero(b, sl);
    else if (reg.cls != reg_class::vgpr) {
      gpr<dtype::u32> v = b.vgpr<dtype::u32>();
      v = detail::u32_view(&b, reg);
      reg = v.to_operand();
    }
    return align;
  }
  // `pairs` read2/write2 of eb2-byte elements from a register that holds the whole address.
  static constexpr void far(builder& b, const operand& reg, int64_t k, bool store, const operand& data, uint32_t eb2,
                            int pairs, std::source_location l) {
    using O = target_op;
    const ds_emit E0{&b, store, add_const(b, reg, k), 0, l};
    O op = eb2 == 8 ? (store ? O::ds_write2_b64 : O::ds_read2_b64) : (store ? O::ds_write2_b32 : O::ds_read2_b32);
    for (int i = 0; i < pairs; ++i) {
      uint16_t n = static_cast<uint16_t>(data.dwords / pairs);
      E0.two(op, ds_emit::dword(data, static_cast<uint16_t>(i * n), n), static_cast<int64_t>(i) * 2 * eb2, eb2);
    }
  }
  static constexpr operand zero(builder& b, src_loc sl) {
    (void)sl;
    gpr<dtype::u32> z = b.vgpr<dtype::u32>();
    z = 0u;
    return z.to_operand();
  }
};

constexpr lds_view lds_pool::view(const lds_layout& layout, std::source_location l) {
  lds_ref r = alloc(layout.bytes(), 16, l);
  return lds_view(r, layout, l);
}

}  // namespace hipasm
