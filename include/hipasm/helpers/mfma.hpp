// MFMA atoms (mfma_atom.hpp) of the active target: lookup, lane coordinates, and fragment
// loads and stores through an atom's layout. Not part of helpers.hpp (a kernel that uses no
// atom does not compile them): include <hipasm/helpers/mfma.hpp>.
//
//   constexpr const mfma_atom& at = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
//   at.la.coord(lane, e);                          // (row, k) element e of lane's A holds
//   at.lc.place({.row = i, .col = j});             // the lane and element holding C(i, j)
//   auto fa = J.vgpr<u32>(at.a_regs());            // A's registers of one lane
//   mfma_load(J, at, mfma_operand::a, fa, mfma_lds{As}, lane, {row0, k0});       // from LDS
//   mfma_load(J, at, mfma_operand::b, fb, mfma_global{Bb, 0, ldb * 2, 2}, lane, {}, true);
//   mfma_run(J, at, acc, fa, fb, acc);
//   mfma_store(J, at, acc, mfma_global{Cb, 0, ldc * 4, 4}, lane);                 // C row-major
//
// Memory tiles: element (r, c) of the tile is at view coordinate (r, c) of an lds_view, or at
// byte origin + r * row_bytes + c * elem_bytes of a buffer. A fragment's element (row, col) of
// the operand (A: (i, k), B: (k, j), C: (i, j)) is the tile's (row, col), or (col, row) with
// `transposed` (B stored N x K, A stored K x M); the blocks of a multi-block atom are stacked
// along M (A, C) or N (B). A lane's k-consecutive elements that are consecutive in memory load
// with one access of their width (split into 16-byte ones); otherwise element by element
// (16-bit: the d16 / d16_hi halves; 8-bit: bytes shifted into place).
#pragma once
#include <cstdint>
#include <source_location>
#include <string_view>

#include "../builder.hpp"
#include "../mfma_atom.hpp"
#include "../targets/mfma_atoms.hpp"
#include "buffer.hpp"
#include "lds.hpp"
#include "mem_offset.hpp"

namespace hipasm {

// The active target's atoms.
constexpr const auto& mfma_atoms() { return targets::active_mfma_atoms; }

// The atom of an MFMA mnemonic; an MFMA the target lacks (or a name no atom has) is a compile
// error at the caller's line.
constexpr const mfma_atom* find_mfma_atom(std::string_view name) {
  for (const mfma_atom& a : mfma_atoms())
    if (a.name == name) return &a;
  return nullptr;
}
constexpr const mfma_atom& mfma_atom_of(std::string_view name) {
  const mfma_atom* a = find_mfma_atom(name);
  if (!a) throw "hipasm: no MFMA atom of this name on the active target (helpers/mfma.hpp mfma_atoms())";
  return *a;
}
// By types and shape (blocks = 1 unless asked).
constexpr const mfma_atom* find_mfma_atom(mfma_type a, mfma_type b, int m, int n, int k, int blocks = 1) {
  for (const mfma_atom& x : mfma_atoms())
    if (x.a == a && x.b == b && x.m == m && x.n == n && x.k == k && x.blocks == blocks && !x.scaled) return &x;
  return nullptr;
}
constexpr const mfma_atom& mfma_atom_of(mfma_type a, mfma_type b, int m, int n, int k, int blocks = 1) {
  const mfma_atom* x = find_mfma_atom(a, b, m, n, k, blocks);
  if (!x) throw "hipasm: no MFMA atom of these types and shape on the active target";
  return *x;
}

// The atom's pass count on the active target (its instruction table's) and its cycles on the
// matrix core (4 a pass: docs/timing-model.md).
constexpr int mfma_passes(const mfma_atom& a) { return active_target::desc[a.op].mfma_passes; }
constexpr int mfma_cycles(const mfma_atom& a) { return 4 * mfma_passes(a); }

enum class mfma_operand : uint8_t { a, b, c };

struct mfma_origin {
  mem_offset row{}, col{};  // the fragment's element (0, 0) in the tile
};

// An LDS tile: an lds_view (the view's rows x cols, elem_bytes the element's).
struct mfma_lds {
  lds_view view;
};
// A global tile: a buffer, the byte of element (0, 0), the row pitch and the element size.
struct mfma_global {
  buffer buf;
  mem_offset origin{};
  uint32_t row_bytes = 0;
  uint32_t elem_bytes = 4;
};

namespace detail {

// The layout of operand w (f8f6f4: A's / B's for its format code, mfma_atom::ab_layout).
constexpr mfma_layout mfma_layout_of(const mfma_atom& a, mfma_operand w, int format = 0) {
  return w == mfma_operand::c ? a.lc : a.ab_layout(w == mfma_operand::b ? 1 : 0, format);
}
// The memory row/col a dimension lands on: blocks stack along M (A, C) or N (B).
constexpr bool mfma_dim_is_row(mfma_operand w, mfma_dim d, bool transposed) {
  bool row = d == mfma_dim::row || (d == mfma_dim::block && w != mfma_operand::b);
  return row != transposed;
}
constexpr int mfma_block_scale(const mfma_atom& a, mfma_operand w) {
  return w == mfma_operand::b ? a.n : a.m;
}
// A constant (row, col) of the tile from an element index (the element modes).
struct mfma_rc {
  int row = 0, col = 0;
};
constexpr mfma_rc mfma_elem_rc(const mfma_atom& a, mfma_operand w, int e, bool transposed, int format = 0) {
  const mfma_coord c = mfma_layout_of(a, w, format).coord(0, e);
  const int blk = c.block * mfma_block_scale(a, w);
  int r = c.row, k = c.col;
  if (w == mfma_operand::b) k += blk;
  else r += blk;
  return transposed ? mfma_rc{k, r} : mfma_rc{r, k};
}

}  // namespace detail

// The part of a lane's tile row (mem_row = true) or column that its lane index gives: the sum
// over the layout's lane modes landing there of ((lane >> shift) & (size - 1)) * stride. The
// top mode is not masked (lane < 64). For A/B of a single-block atom: row = lane % M is
// `lane & (M - 1)`, the k group `lane >> log2(M)` times its k stride (the elements a lane
// holds; f8f6f4 with fp8: 16). `format`: f8f6f4's cbsz / blgp code.
constexpr gpr<dtype::u32> mfma_lane_part(builder J, const mfma_atom& at, mfma_operand w, const gpr<dtype::u32>& lane,
                                         bool mem_row, bool transposed = false, int format = 0) {
  const mfma_layout L = detail::mfma_layout_of(at, w, format);
  int shift = 0, top = 0;
  for (int i = 0; i < 3; ++i)
    if (L.lane[i].size > 1) top = i;
  auto r = J.vgpr<dtype::u32>();
  bool any = false;
  for (int i = 0; i < 3; ++i) {
    const mfma_mode& m = L.lane[i];
    if (m.size > 1 && detail::mfma_dim_is_row(w, m.dim, transposed) == mem_row) {
      const uint32_t scale = static_cast<uint32_t>(m.stride) *
                             static_cast<uint32_t>(m.dim == mfma_dim::block ? detail::mfma_block_scale(at, w) : 1);
      auto t = J.vgpr<dtype::u32>();
      if (shift == 0) t = lane & static_cast<uint32_t>(m.size - 1);
      else if (i == top) t = lane >> static_cast<uint32_t>(shift);
      else t = (lane >> static_cast<uint32_t>(shift)) & static_cast<uint32_t>(m.size - 1);
      if (scale != 1) t = t * scale;
      if (any) r = r + t;
      else r = t;
      any = true;
    }
    shift += detail::log2u(m.size);
  }
  if (!any) r = 0u;
  return r;
}

// What mfma_lane_part's value is known to be a multiple of (for the access widths).
constexpr uint32_t mfma_lane_part_align(const mfma_atom& at, mfma_operand w, bool mem_row, bool transposed = false,
                                        int format = 0) {
  const mfma_layout L = detail::mfma_layout_of(at, w, format);
  uint32_t a = 0;
  for (const mfma_mode& m : L.lane)
    if (m.size > 1 && detail::mfma_dim_is_row(w, m.dim, transposed) == mem_row) {
      uint32_t s = static_cast<uint32_t>(m.stride) *
                   static_cast<uint32_t>(m.dim == mfma_dim::block ? detail::mfma_block_scale(at, w) : 1);
      s &= ~(s - 1);  // its lowest set bit
      a = a == 0 || s < a ? s : a;
    }
  return a == 0 ? 65536u : a;
}

namespace detail {

// One access of `dst` at the tile's (row, col) displaced by constant (dr, dc) from the lane's
// base; the base is made once per fragment (lds: an address, global: a byte offset).
struct mfma_mem_lds {
  const lds_view& v;
  lds_addr a;
  constexpr mfma_mem_lds(builder, const mfma_lds& m, const gpr<dtype::u32>& r, const gpr<dtype::u32>& c,
                         const mfma_origin& o, src_loc, uint32_t c_align)
      : v(m.view), a(m.view.addr(at(r) + o.row, multiple_of(c, c_align) + o.col)) {}
  template <dtype T>
  constexpr void load(const gpr<T>& dst, int dr, int dc, narrow nw) const { v.load(dst, a, dr, dc, {.width = nw}); }
  template <dtype T>
  constexpr void store(const gpr<T>& src, int dr, int dc) const { v.store(src, a, dr, dc); }
  constexpr uint32_t elem_bytes() const { return v.L.elem_bytes; }
};
struct mfma_mem_global {
  const mfma_global& g;
  mem_offset base;
  // The origin's (row, col) must be constants here (a register origin goes in mfma_global::origin).
  constexpr mfma_mem_global(builder J, const mfma_global& m, const gpr<dtype::u32>& r, const gpr<dtype::u32>& c,
                            const mfma_origin& o, src_loc sl, uint32_t)
      : g(m) {
    if (!o.row.constant() || !o.col.constant())
      J.fail(sl, "mfma_global: a register origin goes in mfma_global::origin (bytes); mfma_origin takes constants");
    auto off = J.vgpr<dtype::u32>();
    off = r * m.row_bytes + c * m.elem_bytes;
    base = at(off) + m.origin + (o.row.c * static_cast<int64_t>(m.row_bytes) + o.col.c * static_cast<int64_t>(m.elem_bytes));
  }
  constexpr int64_t disp(int dr, int dc) const {
    return static_cast<int64_t>(dr) * g.row_bytes + static_cast<int64_t>(dc) * g.elem_bytes;
  }
  template <dtype T>
  constexpr void load(const gpr<T>& dst, int dr, int dc, narrow nw) const {
    g.buf.load(dst, base + disp(dr, dc), {.width = nw});
  }
  template <dtype T>
  constexpr void store(const gpr<T>& src, int dr, int dc) const {
    g.buf.store(src, base + disp(dr, dc));
  }
  constexpr uint32_t elem_bytes() const { return g.elem_bytes; }
};
constexpr mfma_mem_lds mfma_mem(builder J, const mfma_lds& m, const gpr<dtype::u32>& r, const gpr<dtype::u32>& c,
                                const mfma_origin& o, src_loc sl, uint32_t c_align) {
  return {J, m, r, c, o, sl, c_align};
}
constexpr mfma_mem_global mfma_mem(builder J, const mfma_global& m, const gpr<dtype::u32>& r,
                                   const gpr<dtype::u32>& c, const mfma_origin& o, src_loc sl,
                                   uint32_t c_align) {
  return {J, m, r, c, o, sl, c_align};
}

}  // namespace detail

// Load the A, B or C fragment of `at` (format: f8f6f4's cbsz / blgp code) into `frag` (its
// a_regs() / b_regs() / c_regs() dwords) from a tile in LDS (mfma_lds) or global memory
// (mfma_global).
template <class Mem, dtype T>
constexpr void mfma_load(builder J, const mfma_atom& at, mfma_operand w, const gpr<T>& frag, const Mem& mem,
                         const gpr<dtype::u32>& lane, const mfma_origin& org = {}, bool transposed = false,
                         int format = 0, std::source_location l = std::source_location::current()) {
  const src_loc sl = to_src_loc(l);
  const int which = w == mfma_operand::b ? 1 : 0;
  const bool is_c = w == mfma_operand::c;
  const int fmt = is_c ? 0 : format;
  const mfma_layout L = detail::mfma_layout_of(at, w, fmt);
  const int bits = is_c ? mfma_type_bits(at.c) : at.operand_bits(which, format);
  const int regs = is_c ? at.c_regs() : which ? at.b_regs(format) : at.a_regs(format);
  if (frag.dwords() != regs) {
    J.fail(sl, "mfma_load: a fragment of ", regs, " dwords for ", at.name);
    return;
  }
  auto fu = frag.template as<dtype::u32>(l);
  const auto r = mfma_lane_part(J, at, w, lane, true, transposed, fmt);
  auto c = mfma_lane_part(J, at, w, lane, false, transposed, fmt);
  const bool k_is_col = (which == 0) != transposed;
  // fp6 / fp4: the tile's columns are bytes (elem_bytes 1) holding 8 / bits elements each, so a
  // k coordinate becomes the byte k * bits / 8 (a lane's k starts at a multiple of 32).
  const bool sub_byte = bits < 8 && k_is_col;
  if (sub_byte) c = (c * static_cast<uint32_t>(bits)) >> 3u;
  uint32_t c_align = mfma_lane_part_align(at, w, false, transposed, fmt);
  if (sub_byte) c_align = c_align * static_cast<uint32_t>(bits) / 8;
  c_align &= ~(c_align - 1);  // a power of two
  const auto m = detail::mfma_mem(J, mem, r, c, org, sl, c_align);
  const int n = L.elems();
  // The lane's elements run along k in runs of element mode 0 (stride 1; f8f6f4's fp8 two runs
  // of 16): each run consecutive in memory when k is the tile's column, loaded in 16-byte pieces.
  const int run = !is_c && L.elem[0].stride == 1 ? L.elem[0].size : 0;
  if (run > 0 && k_is_col && (run * bits) % 32 == 0 && static_cast<int>(m.elem_bytes() * 8) == (bits < 8 ? 8 : bits)) {
    const int run_regs = run * bits / 32;
    for (int d0 = 0; d0 < regs; d0 += run_regs)
      for (int d = 0; d < run_regs; d += 4) {
        const int cnt = run_regs - d < 4 ? run_regs - d : 4;
        if (sub_byte) {  // the run's first element, then 4 bytes a register
          const detail::mfma_rc p = detail::mfma_elem_rc(at, w, d0 * 32 / bits, transposed, fmt);
          m.load(fu.slice(d0 + d, cnt, l), p.row, p.col * bits / 8 + 4 * d, narrow::none);
          continue;
        }
        const detail::mfma_rc p = detail::mfma_elem_rc(at, w, (d0 + d) * 32 / bits, transposed, fmt);
        m.load(fu.slice(d0 + d, cnt, l), p.row, p.col, narrow::none);
      }
    return;
  }
  if (bits < 8) {
    J.fail(sl, "mfma_load: fp6/fp4 fragments load k-contiguous only (an element is part of a byte)");
    return;
  }
  if (bits >= 32) {
    for (int e = 0; e < n; ++e) {
      const detail::mfma_rc p = detail::mfma_elem_rc(at, w, e, transposed, fmt);
      m.load(fu.slice(e * bits / 32, bits / 32, l), p.row, p.col, narrow::none);
    }
  } else if (bits == 16) {
    // The low halves first: a d16_hi load keeps (reads) the low half, so it waits for it.
    for (int h = 0; h < 2; ++h)
      for (int e = h; e < n; e += 2) {
        const detail::mfma_rc p = detail::mfma_elem_rc(at, w, e, transposed, fmt);
        if (h) J.wait_for(fu.at(e / 2, l));
        m.load(fu.at(e / 2, l), p.row, p.col, h ? narrow::u16_d16_hi : narrow::u16_d16);
      }
  } else {
    auto tmp = J.vgpr<dtype::u32>(n);
    for (int e = 0; e < n; ++e) {
      const detail::mfma_rc p = detail::mfma_elem_rc(at, w, e, transposed, fmt);
      m.load(tmp.at(e, l), p.row, p.col, narrow::u8);
    }
    for (int e = 0; e < n; ++e) J.wait_for(tmp.at(e, l));
    for (int d = 0; d < regs; ++d) {
      auto x = fu.at(d, l);
      x = tmp.at(4 * d, l) | (tmp.at(4 * d + 1, l) << 8u);
      x = x | (tmp.at(4 * d + 2, l) << 16u);
      x = x | (tmp.at(4 * d + 3, l) << 24u);
    }
  }
}

// Store the C/D fragment `acc` (c_regs() dwords) to a tile, one element (a dword, or two for
// f64) at a time: for a row-major tile, each store writes consecutive columns across lanes.
template <class Mem, dtype T>
constexpr void mfma_store(builder J, const mfma_atom& at, const gpr<T>& acc, const Mem& mem, const gpr<dtype::u32>& lane,
                          const mfma_origin& org = {}, bool transposed = false,
                          std::source_location l = std::source_location::current()) {
  if (acc.dwords() != at.c_regs()) {
    J.fail(to_src_loc(l), "mfma_store: a C/D fragment of ", at.c_regs(), " dwords for ", at.name);
    return;
  }
  const src_loc sl = to_src_loc(l);
  auto fu = acc.template as<dtype::u32>(l);
  const auto r = mfma_lane_part(J, at, mfma_operand::c, lane, true, transposed);
  const auto c = mfma_lane_part(J, at, mfma_operand::c, lane, false, transposed);
  const auto m = detail::mfma_mem(J, mem, r, c, org, sl, mfma_lane_part_align(at, mfma_operand::c, false, transposed));
  const int dw = mfma_type_bits(at.c) / 32;
  for (int e = 0; e < at.c_elems(); ++e) {
    const detail::mfma_rc p = detail::mfma_elem_rc(at, mfma_operand::c, e, transposed);
    m.store(fu.slice(e * dw, dw, l), p.row, p.col);
  }
}

// D = A * B + C through the atom (modifiers as the mnemonic takes them: cbsz/blgp for f8f6f4).
constexpr emitted mfma_run(builder J, const mfma_atom& at, operand_arg d, operand_arg a, operand_arg b, operand_arg c,
                           const modifiers& m = no_modifiers, std::source_location l = std::source_location::current()) {
  return J.emit(static_cast<target_op>(at.op), {d, a, b, c}, m, l);
}
// A scaled atom (at.scaled): sa / sb the scale VGPRs, m.op_sel / m.op_sel_hi their bytes.
constexpr emitted mfma_run(builder J, const mfma_atom& at, operand_arg d, operand_arg a, operand_arg b, operand_arg c,
                           operand_arg sa, operand_arg sb, const modifiers& m = no_modifiers,
                           std::source_location l = std::source_location::current()) {
  return J.emit(static_cast<target_op>(at.op), {d, a, b, c, sa, sb}, m, l);
}

}  // namespace hipasm
