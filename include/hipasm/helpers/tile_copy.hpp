// Workgroup-cooperative copy of a global tile into an LDS view.
//
//   copy_tile(J, A, at(a_off), lda_bytes, As, {.threads = 256});        // through VGPRs
//   copy_tile(J, A, at(a_off), lda_bytes, As, {.threads = 256, .direct = true});  // LDS-DMA
//
// The tile is the view's whole shape (rows x cols elements); its element (0, 0) is at byte
// `origin` of the buffer, rows `row_bytes` apart (an SGPR or a constant). Every lane of the
// workgroup takes part: lane t copies chunks t, t + threads, ... of vec_bytes each (chunk c:
// row c / chunks_per_row, column (c % chunks_per_row) * vec_bytes / elem_bytes); chunks past
// the tile (a partial last step) are masked off. Rows past the buffer's end read zeros (the
// V# range check: size the V# to the tensor, see buffer.hpp), so tail tiles need no branch.
//
// Through VGPRs: all loads first (vec_bytes per lane and step, offsets folded into offset:/
// soffset; a partial step first), then each step's LDS store after the weakest vmcnt that
// covers it, then (wait)
// s_waitcnt lgkmcnt(0) + s_barrier. Direct (LDS-DMA, buffer_load_dword ... lds): no VGPRs,
// 4 bytes per lane; each wave fills 256 consecutive LDS bytes per step (16 bytes and 1024
// with buffer_load_dwordx4 ... lds where the target has it, vec_bytes is 16 and the view's
// rows, padding and swizzle chunks are multiples of 16 bytes), and each lane loads
// the element the view puts at its LDS dword (padding lanes are masked off, swizzles inverted;
// steps whose lanes read the same bytes of rows d further share one offset, + d rows in
// soffset); then (wait) s_waitcnt vmcnt(0) + s_barrier. With wait = false the caller waits: vmcnt for
// the direct path or the VGPR path's loads, lgkmcnt for its LDS stores, and a barrier.
// Column tails (copy_tile(..., opts, cols_valid)): the range check ends the tensor, not a row,
// so chunks whose first column is at or past cols_valid take an offset past the V# (zeros).
// A ring of LDS buffers chosen at run time (copy_tile(..., opts, lds_shift{s})): the tile lands
// at the view's address plus s bytes (an SGPR, a multiple of 16), e.g. s = 0 or the distance
// to a second view of the same layout, toggled each loop trip: one loop body serves both
// buffers (the direct path adds s to M0's base, one s_add; the VGPR path to the store address,
// one v_add).
//
// Split copy (the loads of tile k+1 issued before the MFMAs of tile k, the LDS stores later):
//
//   tile_staging st = make_tile_staging(J, As[0], row_bytes, {.threads = 512}, true);  // once
//   copy_tile_load(J, A, at(a_org), st, cols_valid);  // VMEM loads into st.data: st.loads() of them
//   J.s_waitcnt(vmcnt(0));                            // (or leave younger loads in flight)
//   copy_tile_store(J, st, As[1]);                    // ds_writes into any view of the same layout
//
// (copy_tile_prepare(J, st) between the wait and the store does the store's VALU part, the
// column tail's masks, on its own: earlier, among other work; the store then only stores.)
//
// Both phases are straight-line code (selects, no EXEC branches), so record()/interleave() can
// merge them with MFMAs. The tile must be whole steps (rows x row bytes a multiple of threads x
// vec_bytes). With a column tail (col_tail = true, then copy_tile_load takes cols_valid, any
// value: not only multiples of a chunk) a chunk past cols_valid loads zeros and the chunk that
// straddles it is masked word by word before its store. `elem_loads` loads each 2-byte
// element on its own (buffer_load_ushort, the two of a dword joined by v_lshl_or at the store):
// rows need not be dword aligned (a GEMM with an odd K), at twice the loads of vec_bytes = 4.
//
// Transposed (a K-major GEMM operand into the [row][k] layout): make_transposed_staging,
// copy_tile_load / copy_tile_store on a transposed_staging (see its section).
#pragma once
#include <array>
#include <cstdint>
#include <source_location>

#include "../builder.hpp"
#include "buffer.hpp"
#include "lanes.hpp"
#include "lds.hpp"
#include "mem_offset.hpp"
#include "select.hpp"

namespace hipasm {

struct tile_copy_opts {
  uint32_t threads = 256;   // workgroup size: every lane takes part
  uint32_t vec_bytes = 16;  // bytes per lane per load (4, 8 or 16; the direct path: 4)
  bool direct = false;      // LDS-DMA (buffer_load_dword ... lds)
  bool wait = true;         // end with the waits and s_barrier that make the tile visible
  bool elem_loads = false;  // split copy only: 2-byte elements loaded one by one (unaligned rows)
};

// A run-time displacement of the destination view, in bytes (see the header comment).
struct lds_shift {
  gpr<dtype::u32> bytes;
};

namespace detail {
// Byte offsets at or past 2^31 are past every V# this helper is used with (num_records below
// 2^31): a chunk past the valid columns loads from there and gets zeros.
inline constexpr uint32_t past_any_buffer = 0x80000000u;

// Word masks for a column tail: dst = the low bytes of a word that lie before the valid end,
// (~0 >> s) >> s with s = clamp(q + add, 0, 16) (q = 16 - 4 x the word's valid bytes; two
// shifts: one by 32 would be a shift by 0). No compares: no VCC -> v_cndmask wait states.
constexpr void tail_word_mask(builder& b, const gpr<dtype::i32>& q, int32_t add, gpr<dtype::u32> dst,
                              std::source_location l) {
  auto sh = b.vgpr<dtype::u32>(l);
  sh = max(min(add ? gpr<dtype::i32>(q + add) : q, 16), 0).as<dtype::u32>();
  dst = (0xffffffffu >> sh) >> sh;
}
// q = 16 - 4 x (valid - col0) x eb: tail_word_mask's base for the word at column col0.
constexpr gpr<dtype::i32> tail_mask_base(builder& b, const xval& cols_valid, const gpr<dtype::u32>& col0, uint32_t eb,
                                         std::source_location l) {
  auto vb4 = b.sgpr<dtype::u32>(l);
  vb4 = detail::u32_view(&b, cols_valid.op) * (4 * eb);
  auto qu = b.vgpr<dtype::u32>(l);
  qu = col0 * (4 * eb) + 16u - vb4;
  return qu.as<dtype::i32>();
}
// A split copy's load arguments: a made staging, cols_valid exactly with a column tail, and
// not a constant.
constexpr bool staged_load_ok(builder& b, src_loc sl, uint32_t steps, bool col_tail, const xval* cols_valid,
                              const char* maker) {
  if (steps == 0) {
    b.fail(sl, "copy_tile_load: the staging was not made by ", maker, " (or its making failed)");
    return false;
  }
  if (col_tail != (cols_valid != nullptr)) {
    b.fail(sl, col_tail ? "copy_tile_load: the staging has a column tail: pass cols_valid"
                        : "copy_tile_load: cols_valid needs a staging made with col_tail = true");
    return false;
  }
  if (cols_valid && cols_valid->is_imm()) {
    b.fail(sl, "copy_tile_load: a constant cols_valid: size the view instead");
    return false;
  }
  return true;
}

constexpr void copy_tile_impl(builder J, const buffer& A, mem_offset origin, const val<dtype::u32>& row_bytes,
                              const lds_view& V, tile_copy_opts o, const xval* cols_valid,
                              const gpr<dtype::u32>* shift, std::source_location l) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  const lds_layout& L = V.L;
  if (row_bytes.x.is_reg(reg_class::vgpr) || row_bytes.x.is_reg(reg_class::agpr)) {
    b.fail(sl, "copy_tile: the row stride must be wave-uniform (an SGPR or a constant)");
    return;
  }
  if (o.threads == 0 || o.threads % 64 != 0 || o.threads > 1024) {
    b.fail(sl, "copy_tile: threads must be a multiple of 64 up to 1024");
    return;
  }
  if (shift && (shift->b == nullptr || shift->cls != reg_class::sgpr)) {
    b.fail(sl, "copy_tile: lds_shift must be wave-uniform (an SGPR)");
    return;
  }
  auto t = b.thread_id_x(l);
  // (lambdas below capture locals, never reference parameters: see README's pitfalls)
  const buffer Ab = A;
  const lds_view Vb = V;
  // The row stride as a value usable in expressions (a constant or an SGPR view).
  const bool stride_const = row_bytes.x.is_imm();
  const uint32_t stride_imm = static_cast<uint32_t>(row_bytes.x.op.value);
  gpr<dtype::u32> stride_reg = stride_const ? gpr<dtype::u32>{} : detail::u32_view(&b, row_bytes.x.op);
  // byte offset of row r (a register or a constant) from the tile origin
  auto row_off = [&](const gpr<dtype::u32>& r) -> gpr<dtype::u32> {
    if (stride_const) return r * stride_imm;
    return r * stride_reg;
  };

  if (!o.direct) {
    const uint32_t vb = o.vec_bytes;
    if (!(vb == 4 || vb == 8 || vb == 16) || (L.cols * L.elem_bytes) % vb != 0 || vb % L.elem_bytes != 0) {
      b.fail(sl, "copy_tile: vec_bytes must be 4, 8 or 16, a multiple of the element size, dividing the row (",
             static_cast<long long>(L.cols * L.elem_bytes), " bytes)");
      return;
    }
    const uint32_t cpr = L.cols * L.elem_bytes / vb, vel = vb / L.elem_bytes, T = o.threads;
    if (T % cpr != 0 && cpr % T != 0) {
      b.fail(sl, "copy_tile: threads (", static_cast<long long>(T), ") and chunks per row (", static_cast<long long>(cpr),
             ") must divide one another");
      return;
    }
    const uint32_t total = L.rows * cpr, steps = (total + T - 1) / T;
    if (steps * (vb / 4) > 128) {
      b.fail(sl, "copy_tile: ", static_cast<long long>(steps * vb / 4), " VGPRs of staging: copy the tile in parts");
      return;
    }
    auto row0 = b.vgpr<dtype::u32>(l).named("tile_row");
    auto col0 = b.vgpr<dtype::u32>(l).named("tile_col");
    row0 = t / cpr;
    col0 = (t % cpr) * vel;
    auto goff = b.vgpr<dtype::u32>(l).named("tile_goff");
    goff = row_off(row0) + col0 * L.elem_bytes;
    // Column tail: a chunk whose first column is at or past cols_valid loads zeros (its
    // offset moved past the V#); one select per distinct column displacement.
    const bool col_tail = cols_valid != nullptr;
    const val<dtype::u32> valid = col_tail ? val<dtype::u32>(detail::u32_view(&b, cols_valid->op), l) : val<dtype::u32>(0u, l);
    auto masked_goff = [&](uint32_t dcol) -> gpr<dtype::u32> {
      auto sel = b.vgpr<dtype::u32>(l);
      sel = goff;
      gpr<dtype::u32> c = dcol ? col0 + dcol : col0;
      b.If(c >= valid, [&] { sel = past_any_buffer; }, l);
      return sel;
    };
    if (col_tail && cols_valid->is_imm()) {
      b.fail(sl, "copy_tile: a constant cols_valid: size the view instead");
      return;
    }
    mem_offset gbase = origin + at(goff);
    gpr<dtype::u32> goff_tail0 = col_tail && T % cpr == 0 ? masked_goff(0) : gpr<dtype::u32>{};
    lds_addr a = V.addr(row0, multiple_of(col0, vel & (0u - vel)), l);
    if (shift) {  // the ring buffer chosen at run time: its address register moved
      auto moved = b.vgpr<dtype::u32>(l).named("tile_lds_shifted");
      if (a.reg.k == operand::kind::none) moved = *shift;
      else moved = detail::u32_view(&b, a.reg) + *shift;
      a.reg = moved.to_operand();
      a.reg_align = detail::min_align(a.reg_align, 16);
    }
    auto stage = b.vgpr<dtype::u32>(static_cast<int>(steps), static_cast<int>(vb / 4), l).named("tile_stage");
    // A partial last step (some lanes past the tile) loads under an EXEC mask that may be
    // empty, so it may not issue at all: it is issued FIRST, so that the vmcnt each later
    // step waits for counts only loads that always issue.
    const bool partial = total % T != 0;
    auto step_at = [&](uint32_t k) { return partial ? (k == 0 ? steps - 1 : k - 1) : k; };
    for (uint32_t k = 0; k < steps; ++k) {
      const uint32_t i = step_at(k);
      const uint32_t drow = i * T / cpr, dcol = (i * T % cpr) * vel;
      mem_offset g = !col_tail ? gbase : origin + at(T % cpr == 0 ? goff_tail0 : masked_goff(dcol));
      g.c += static_cast<int64_t>(dcol) * L.elem_bytes;
      if (drow) {
        if (stride_const) g.c += static_cast<int64_t>(drow) * stride_imm;
        else g += mem_offset(stride_reg * drow);
      }
      if (partial && i == steps - 1) {
        b.If(t < total - i * T, [&] { Ab.load(stage[static_cast<int>(i)], g, mem_opts{}, l); }, l);
      } else {
        Ab.load(stage[static_cast<int>(i)], g, mem_opts{}, l);
      }
    }
    for (uint32_t k = 0; k < steps; ++k) {
      const uint32_t i = step_at(k);
      const uint32_t drow = i * T / cpr, dcol = (i * T % cpr) * vel;
      b.s_waitcnt(vmcnt(steps - 1 - k), no_modifiers, l);
      if (partial && i == steps - 1) {
        b.If(t < total - i * T, [&] { Vb.store(stage[static_cast<int>(i)], a, static_cast<int32_t>(drow), static_cast<int32_t>(dcol), mem_opts{}, l); }, l);
      } else {
        Vb.store(stage[static_cast<int>(i)], a, static_cast<int32_t>(drow), static_cast<int32_t>(dcol), mem_opts{}, l);
      }
    }
    if (o.wait) {
      b.s_waitcnt(lgkmcnt(0), no_modifiers, l);
      b.s_barrier(no_modifiers, l);
    }
    return;
  }

  // Direct: LDS bytes [p, p + vb) (from the view's base) of step i, wave w, lane l: p = (i *
  // waves + w) * 64 * vb + vb * l. Their elements: row = p / row_stride, byte in row = p %
  // row_stride (padding past cols * elem_bytes), unswizzled by the same XOR. vb = 16 (one
  // buffer_load_dwordx4 ... lds a lane, a quarter of the instructions) where the target has it,
  // vec_bytes is 16, every 16-byte piece of the view is 16 consecutive bytes of one row (rows,
  // padding, swizzle chunks and the base multiples of 16 bytes) and there is no column tail (a
  // piece would straddle it); else vb = 4.
  if (o.vec_bytes != 4 && o.vec_bytes != 16) {
    b.fail(sl, "copy_tile: the direct (LDS-DMA) path moves 4 bytes per lane (16 where the target has it)");
    return;
  }
  if (L.elem_bytes > 4 || (L.cols * L.elem_bytes) % 4 != 0 || (L.swizzled() && L.swz_chunk < 4) || V.base % 4 != 0) {
    b.fail(sl, "copy_tile: the direct path needs dword rows and elements of at most 4 bytes");
    return;
  }
  const uint32_t rs = L.row_stride(), rowb = L.cols * L.elem_bytes, T = o.threads;
  const bool x4 = o.vec_bytes == 16 && detail::features().has_lds_dma_x4 && rowb % 16 == 0 && rs % 16 == 0 &&
                  (!L.swizzled() || L.swz_chunk % 16 == 0) && V.base % 16 == 0 && !cols_valid;
  const uint32_t dma_bytes = x4 ? 16 : 4;
  const uint32_t total = L.bytes(), per_step = T * dma_bytes, steps = (total + per_step - 1) / per_step;
  auto wave = b.sgpr<dtype::u32>(l).named("tile_wave");
  b.v_readfirstlane_b32(wave, t, no_modifiers, l);
  auto wsg = b.sgpr<dtype::u32>(l).named("tile_wave_lds");
  wsg = (wave >> 6) << (x4 ? 10 : 8);  // this wave's first LDS byte of a step
  if (shift) wsg = wsg + *shift;
  auto p = b.vgpr<dtype::u32>(l).named("tile_p");
  p = t << (x4 ? 4 : 2);  // = w * 64 * vb + vb * lane
  // Steps share offset registers: step j reuses the registers of an earlier step i when every
  // lane reads the same in-row bytes of a row a constant d rows further on (goff + d * stride,
  // a uniform term: no VALU), checked lane by lane at compile time. The swizzle repeats every
  // swz_row_div * swz_groups rows, so a tile's steps fall into a few groups (64x128 fp8 tiles
  // of two waves: 16 steps, 2 groups; before, each step's address was computed, a
  // v_mul_lo_u32 and a column check a load).
  // (the view's own compile-time swizzle: the same map the registers below compute per lane)
  auto lane_place = [&](uint32_t q, uint32_t& row, uint32_t& inrow) {
    row = q / rs;
    inrow = q % rs;
    return static_cast<uint32_t>(Vb.swizzle_const(row, inrow));
  };
  // d (rows) if step j's lanes read step i's bytes d rows on
  auto same_columns = [&](uint32_t i, uint32_t j, uint32_t& d) {
    for (uint32_t t4 = 0; t4 < per_step; t4 += dma_bytes) {
      uint32_t ri = 0, ii = 0, rj = 0, ij = 0;
      const uint32_t ci = lane_place(i * per_step + t4, ri, ii), cj = lane_place(j * per_step + t4, rj, ij);
      if (ci != cj || ii != ij) return false;
      if (t4 == 0) d = rj - ri;
      else if (rj - ri != d) return false;
    }
    return true;
  };
  struct offset_group {
    uint32_t step = 0;
    gpr<dtype::u32> goff{}, inrow{};
  };
  // (a fixed array: a register handle cannot be copied into a grown vec; past 16 groups a step
  // computes its own registers)
  std::array<offset_group, 16> groups{};
  size_t ngroups = 0;
  offset_group own{};
  for (uint32_t i = 0; i < steps; ++i) {
    const uint32_t pi = i * per_step;
    const offset_group* G = nullptr;
    uint32_t drow = 0;
    for (size_t k = 0; k < ngroups && !G; ++k)
      if (same_columns(groups[k].step, i, drow)) G = &groups[k];
    if (!G) {
      drow = 0;
      gpr<dtype::u32> q = pi ? p + pi : p;
      auto row = b.vgpr<dtype::u32>(l);
      row = q / rs;
      auto inrow = b.vgpr<dtype::u32>(l);
      inrow = q - row * rs;
      auto colb = b.vgpr<dtype::u32>(l);
      if (L.swizzled()) {
        gpr<dtype::u32> rsh = L.swz_row_div > 1 ? row >> detail::log2u(L.swz_row_div) : row;
        colb = inrow ^ ((rsh & (L.swz_groups - 1)) << detail::log2u(L.swz_chunk));
      } else {
        colb = inrow;
      }
      auto goff = b.vgpr<dtype::u32>(l);
      goff = row_off(row) + colb;
      if (cols_valid) {  // past the valid columns: the DMA writes zeros (see past_any_buffer)
        if (cols_valid->is_imm()) {
          b.fail(sl, "copy_tile: a constant cols_valid: size the view instead");
          return;
        }
        gpr<dtype::u32> vb = detail::u32_view(&b, cols_valid->op) * L.elem_bytes;
        b.If(colb >= vb, [&] { goff = past_any_buffer; }, l);
      }
      offset_group& n = ngroups < groups.size() ? groups[ngroups++] : own;  // (rebind: `=` would move registers)
      n.step = i;
      n.goff.rebind(goff);
      n.inrow.rebind(inrow);
      G = &n;
    }
    // lanes on padding bytes or past the view load nothing
    auto body = [&] {
      mem_offset lds_at = at(wsg) + static_cast<int64_t>(Vb.base + pi);
      mem_offset g = origin + at(G->goff);
      if (drow) {
        if (stride_const) g.c += static_cast<int64_t>(drow) * stride_imm;
        else g += mem_offset(stride_reg * drow);
      }
      if (x4) Ab.load_lds_x4(lds_at, g, mem_opts{}, l);
      else Ab.load_lds(lds_at, g, mem_opts{}, l);
    };
    const bool tail = pi + per_step > total;
    auto in_tile = [&] {
      if (tail) b.If(p < total - pi, body, l);
      else body();
    };
    if (L.row_pad) b.If(G->inrow < rowb, in_tile, l);
    else in_tile();
  }
  if (o.wait) {
    b.s_waitcnt(vmcnt(0), no_modifiers, l);
    b.s_barrier(no_modifiers, l);
  }
}

}  // namespace detail

constexpr void copy_tile(builder J, const buffer& A, mem_offset origin, const val<dtype::u32>& row_bytes,
                         const lds_view& V, tile_copy_opts o = {},
                         std::source_location l = std::source_location::current()) {
  detail::copy_tile_impl(J, A, origin, row_bytes, V, o, nullptr, nullptr, l);
}
// Into the view moved by a run-time number of bytes (a ring of LDS buffers, see above).
constexpr void copy_tile(builder J, const buffer& A, mem_offset origin, const val<dtype::u32>& row_bytes,
                         const lds_view& V, tile_copy_opts o, const lds_shift& shift,
                         std::source_location l = std::source_location::current()) {
  detail::copy_tile_impl(J, A, origin, row_bytes, V, o, nullptr, &shift.bytes, l);
}
// With a column tail: only the first cols_valid (an SGPR, a multiple of the chunk's
// elements) columns of each row are read; the rest of the tile's columns are zeros. (The V#
// range check ends the tensor, not a row: the K tail of a row-major GEMM operand.) The V#
// must be smaller than 2 GiB.
constexpr void copy_tile(builder J, const buffer& A, mem_offset origin, const val<dtype::u32>& row_bytes,
                         const lds_view& V, tile_copy_opts o, const val<dtype::u32>& cols_valid,
                         std::source_location l = std::source_location::current()) {
  detail::copy_tile_impl(J, A, origin, row_bytes, V, o, &cols_valid.x, nullptr, l);
}


// The staging of a split copy: this lane's share of one tile in VGPRs, its global offset and
// LDS address (computed once, reused by every load and store of the copy).
struct tile_staging {
  lds_view view{};           // the view `addr` was computed in (stores translate it)
  lds_addr addr{};           // this lane's first chunk in `view`
  tile_copy_opts o{};
  gpr<dtype::u32> data;      // steps x words: the loaded chunks (elem_loads: the low elements)
  gpr<dtype::u32> hi;        // elem_loads: the high element of each word (joined at the store)
  gpr<dtype::u32> goff;      // byte offset of the lane's first chunk from the tile origin
  gpr<dtype::u32> col0;      // its first column
  gpr<dtype::u32> mask;      // column tail: the bits of each word of the chunk that are kept
  gpr<dtype::u32> stride;    // the row stride (an SGPR) unless stride_const
  bool stride_const = false;
  uint32_t stride_imm = 0;
  uint32_t steps = 0, words = 0, cpr = 0, vel = 0;
  bool col_tail = false;
  bool prepared = false;     // copy_tile_prepare ran since the last copy_tile_load (emission order)

  // VMEM instructions one copy_tile_load issues (for s_waitcnt vmcnt counts).
  constexpr uint32_t loads() const { return o.elem_loads ? steps * words * 2 : steps; }
};

constexpr tile_staging make_tile_staging(builder J, const lds_view& V, const val<dtype::u32>& row_bytes,
                                         tile_copy_opts o = {}, bool col_tail = false,
                                         std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  tile_staging st;
  st.view = V;
  st.o = o;
  st.col_tail = col_tail;
  const lds_layout& L = V.L;
  if (row_bytes.x.is_reg(reg_class::vgpr) || row_bytes.x.is_reg(reg_class::agpr)) {
    b.fail(sl, "make_tile_staging: the row stride must be wave-uniform (an SGPR or a constant)");
    return st;
  }
  const uint32_t vb = o.vec_bytes, T = o.threads;
  if (o.direct) {
    b.fail(sl, "make_tile_staging: the split copy goes through VGPRs (direct = false)");
    return st;
  }
  if (T == 0 || T % 64 != 0 || T > 1024) {
    b.fail(sl, "make_tile_staging: threads must be a multiple of 64 up to 1024");
    return st;
  }
  if (!(vb == 4 || vb == 8 || vb == 16) || (L.cols * L.elem_bytes) % vb != 0 || vb % L.elem_bytes != 0) {
    b.fail(sl, "make_tile_staging: vec_bytes must be 4, 8 or 16, a multiple of the element size, dividing the row (",
           static_cast<long long>(L.cols * L.elem_bytes), " bytes)");
    return st;
  }
  if (o.elem_loads && (L.elem_bytes != 2 || vb != 4)) {
    b.fail(sl, "make_tile_staging: elem_loads moves 2-byte elements, vec_bytes = 4 (two per lane and step)");
    return st;
  }
  st.cpr = L.cols * L.elem_bytes / vb;
  st.vel = vb / L.elem_bytes;
  st.words = vb / 4;
  if (T % st.cpr != 0 && st.cpr % T != 0) {
    b.fail(sl, "make_tile_staging: threads (", static_cast<long long>(T), ") and chunks per row (",
           static_cast<long long>(st.cpr), ") must divide one another");
    return st;
  }
  if (col_tail && T % st.cpr != 0) {
    b.fail(sl, "make_tile_staging: a column tail needs whole rows per step (threads a multiple of the ",
           static_cast<long long>(st.cpr), " chunks per row)");
    return st;
  }
  const uint32_t total = L.rows * st.cpr;
  if (total % T != 0) {
    b.fail(sl, "make_tile_staging: the tile (", static_cast<long long>(total), " chunks of ", static_cast<long long>(vb),
           " bytes) must be whole steps of ", static_cast<long long>(T), " lanes");
    return st;
  }
  st.steps = total / T;
  if (st.steps * st.words > 128) {
    b.fail(sl, "make_tile_staging: ", static_cast<long long>(st.steps * st.words), " VGPRs of staging: copy the tile in parts");
    return st;
  }
  st.stride_const = row_bytes.x.is_imm();
  st.stride_imm = static_cast<uint32_t>(row_bytes.x.op.value);
  if (!st.stride_const) st.stride.rebind(detail::u32_view(&b, row_bytes.x.op));
  auto t = b.thread_id_x(l);
  auto row0 = b.vgpr<dtype::u32>(l).named("stage_row");
  st.col0.rebind(b.vgpr<dtype::u32>(l).named("stage_col"));
  row0 = t / st.cpr;
  st.col0 = (t % st.cpr) * st.vel;
  st.goff.rebind(b.vgpr<dtype::u32>(l).named("stage_goff"));
  if (st.stride_const) st.goff = row0 * st.stride_imm + st.col0 * L.elem_bytes;
  else st.goff = row0 * st.stride + st.col0 * L.elem_bytes;
  st.addr = V.addr(row0, multiple_of(st.col0, st.vel & (0u - st.vel)), l);
  st.data.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.steps), static_cast<int>(st.words), l).named("stage"));
  if (o.elem_loads) st.hi.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.steps), static_cast<int>(st.words), l).named("stage_hi"));
  if (col_tail && !o.elem_loads) st.mask.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.words), l).named("stage_mask"));
  return st;
}

// A split copy's column-tail masks for one tail, made once: a walk over the columns in tiles of
// the view's width (a GEMM's K loop with tiles starting at multiples of it) loads tiles whose
// cols_valid is the whole width or more, 0 or less (every chunk past the V#: zeros), or the one
// tail (K mod the width). copy_tile_load(..., cols_valid, tail) then takes each word's mask as
// the tail's or all ones (one v_or a word) instead of computing it (5 VALU a word), VALU that in
// a pipelined loop competes with the MFMAs for the SIMD's VALU issue turns.
// deferred = true: copy_tile_load leaves the words as loaded and the staging prepared (a whole
// tile needs no mask, an empty one loads zeros): the caller masks a tile whose cols_valid is below
// the width with copy_tile_mask_tail before its store, e.g. in a branch on cols_valid that only
// the tail tile takes, so that whole tiles spend no VALU on masks.
struct tile_tail_masks {
  gpr<dtype::u32> mask;  // the staging's words for cols_valid = the tail
  uint32_t cols = 0, cpr = 0, vel = 0, words = 0;  // the layout they were made for
  bool deferred = false;
};

constexpr tile_tail_masks make_tile_tail_masks(builder J, const tile_staging& st, const val<dtype::u32>& tail_cols,
                                               std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  tile_tail_masks t;
  if (st.steps == 0 || !st.col_tail || st.o.elem_loads) {
    b.fail(sl, "make_tile_tail_masks: needs a staging made by make_tile_staging with col_tail = true (no elem_loads)");
    return t;
  }
  t.cols = st.view.L.cols;
  t.cpr = st.cpr;
  t.vel = st.vel;
  t.words = st.words;
  t.mask.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.words), l).named("tail_mask"));
  auto tc = b.sgpr<dtype::u32>(l);
  tc = tail_cols;
  const gpr<dtype::i32> q = detail::tail_mask_base(b, val<dtype::u32>(tc, l).x, st.col0, st.view.L.elem_bytes, l);
  for (uint32_t w = 0; w < st.words; ++w) detail::tail_word_mask(b, q, static_cast<int32_t>(16 * w), t.mask[static_cast<int>(w)], l);
  return t;
}

namespace detail {
constexpr uint32_t copy_tile_load_impl(builder J, const buffer& A, mem_offset origin, tile_staging& st,
                                       const xval* cols_valid, std::source_location l,
                                       const tile_tail_masks* tail = nullptr) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (!staged_load_ok(b, sl, st.steps, st.col_tail, cols_valid, "make_tile_staging")) return 0;
  if (tail && (tail->words != st.words || tail->cpr != st.cpr || tail->vel != st.vel || tail->cols != st.view.L.cols)) {
    b.fail(sl, "copy_tile_load: the tail masks were made for another staging layout (make_tile_tail_masks)");
    return 0;
  }
  if (tail && cols_valid->is_reg(reg_class::vgpr)) {
    b.fail(sl, "copy_tile_load: with tail masks cols_valid must be wave-uniform (an SGPR)");
    return 0;
  }
  const lds_layout& L = st.view.L;
  const uint32_t T = st.o.threads, eb = L.elem_bytes;
  const val<dtype::u32> valid = cols_valid ? val<dtype::u32>(detail::u32_view(&b, cols_valid->op), l) : val<dtype::u32>(0u, l);
  gpr<dtype::u32> past = b.vgpr<dtype::u32>(l);
  if (cols_valid) past = past_any_buffer;
  // the lane's offsets: one per element half (elem_loads) or one per chunk
  const int halves = st.o.elem_loads ? 2 : 1;
  gpr<dtype::u32> g[2];
  for (int h = 0; h < halves; ++h) {
    if (!cols_valid) g[h].rebind(st.goff);
    else g[h].rebind(select(st.col0 + static_cast<uint32_t>(h) >= valid, past, st.goff, l));
  }
  if (tail && tail->deferred) {
    // (copy_tile_mask_tail, the caller's)
  } else if (tail) {
    // a whole tile: every word kept; else (the tail, or nothing loaded) the tail's masks
    auto full = b.sgpr<dtype::u32>(l);
    full = select(detail::u32_view(&b, cols_valid->op) >= st.view.L.cols, 0xffffffffu, 0u, l);
    for (uint32_t w = 0; w < st.words; ++w) st.mask[static_cast<int>(w)] = tail->mask[static_cast<int>(w)] | full;
  } else if (cols_valid && !st.o.elem_loads) {
    // Word w of the chunk keeps c = clamp(nb - 4w, 0, 4) bytes, nb = (valid - col0) * eb the
    // chunk's valid bytes (signed): mask = (~0 >> s) >> s with s = 16 - 4c = clamp(q + 16w, 0,
    // 16), q = 16 - 4 nb (two shifts: one by 32 would be a shift by 0). No compares: no
    // VCC -> v_cndmask wait states, 4 VALU a word.
    const gpr<dtype::i32> q = tail_mask_base(b, *cols_valid, st.col0, eb, l);
    for (uint32_t w = 0; w < st.words; ++w) tail_word_mask(b, q, static_cast<int32_t>(16 * w), st.mask[static_cast<int>(w)], l);
  }
  st.prepared = tail && tail->deferred;
  const buffer Ab = A;
  for (uint32_t i = 0; i < st.steps; ++i) {
    const uint32_t drow = i * T / st.cpr, dcol = (i * T % st.cpr) * st.vel;
    for (int h = 0; h < halves; ++h) {
      mem_offset m = origin + at(g[h]);
      m.c += static_cast<int64_t>(dcol) * eb + 2 * h;
      if (drow) {
        if (st.stride_const) m.c += static_cast<int64_t>(drow) * st.stride_imm;
        else m += mem_offset(st.stride * drow);
      }
      if (!st.o.elem_loads) {
        Ab.load(st.data[static_cast<int>(i)], m, mem_opts{}, l);
      } else {
        for (uint32_t w = 0; w < st.words; ++w) {
          mem_offset mw = m;
          mw.c += 4 * static_cast<int64_t>(w);
          // (two zero-extended loads joined at the store: a d16_hi load into the word a
          // pending d16 load writes would read it before its return)
          Ab.load((h ? st.hi : st.data)[static_cast<int>(i)][static_cast<int>(w)], mw, mem_opts{.width = narrow::u16}, l);
        }
      }
    }
  }
  return st.loads();
}
}  // namespace detail

// Issues the loads of the tile at `origin` into the staging's VGPRs; returns how many VMEM
// instructions that was (st.loads()).
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, tile_staging& st,
                                  std::source_location l = std::source_location::current()) {
  return detail::copy_tile_load_impl(J, A, origin, st, nullptr, l);
}
// With a column tail: columns at or past cols_valid (an SGPR, any value) are zeros.
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, tile_staging& st,
                                  const val<dtype::u32>& cols_valid,
                                  std::source_location l = std::source_location::current()) {
  return detail::copy_tile_load_impl(J, A, origin, st, &cols_valid.x, l);
}
// The same, the word masks from `tail` (make_tile_tail_masks): cols_valid must be the whole
// view width or more, 0 or less, or the tail the masks were made for.
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, tile_staging& st,
                                  const val<dtype::u32>& cols_valid, const tile_tail_masks& tail,
                                  std::source_location l = std::source_location::current()) {
  return detail::copy_tile_load_impl(J, A, origin, st, &cols_valid.x, l, &tail);
}

// The tail's word masks (made with deferred = true) applied to the tile staged by the last
// copy_tile_load: its cols_valid was the tail, or 0 or less (zeros loaded: no change).
constexpr void copy_tile_mask_tail(builder J, tile_staging& st, const tile_tail_masks& tail,
                                   std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (st.steps == 0 || !st.col_tail || st.o.elem_loads) {
    b.fail(sl, "copy_tile_mask_tail: needs a staging made by make_tile_staging with col_tail = true (no elem_loads)");
    return;
  }
  if (!tail.deferred || tail.words != st.words || tail.cpr != st.cpr || tail.vel != st.vel || tail.cols != st.view.L.cols) {
    b.fail(sl, "copy_tile_mask_tail: the masks must be deferred ones made for this staging layout (make_tile_tail_masks)");
    return;
  }
  for (uint32_t i = 0; i < st.steps; ++i)
    for (uint32_t w = 0; w < st.words; ++w)
      st.data[static_cast<int>(i)][static_cast<int>(w)] =
          st.data[static_cast<int>(i)][static_cast<int>(w)] & tail.mask[static_cast<int>(w)];
}

namespace detail {
// copy_tile_prepare of one step's registers.
constexpr void copy_tile_prepare_step(tile_staging& st, uint32_t i) {
  if (st.o.elem_loads)
    for (uint32_t w = 0; w < st.words; ++w)
      st.data[static_cast<int>(i)][static_cast<int>(w)] =
          st.data[static_cast<int>(i)][static_cast<int>(w)] | (st.hi[static_cast<int>(i)][static_cast<int>(w)] << 16);
  if (st.col_tail && !st.o.elem_loads)
    for (uint32_t w = 0; w < st.words; ++w)
      st.data[static_cast<int>(i)][static_cast<int>(w)] =
          st.data[static_cast<int>(i)][static_cast<int>(w)] & st.mask[static_cast<int>(w)];
}
}  // namespace detail

// The VALU work between a copy's loads and its stores, in the staged registers: the column
// tail's word masks, elem_loads' joins of the element pairs. copy_tile_store does it when it has
// not run since the last copy_tile_load; a pipeline runs it on its own after the loads' wait
// (vmcnt), e.g. among MFMAs before the barrier that frees the LDS buffer, so that only the
// stores stand between that barrier and the next. (Emission order: load, prepare, store.)
constexpr void copy_tile_prepare(builder J, tile_staging& st, std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (st.steps == 0) {
    b.fail(sl, "copy_tile_prepare: the staging was not made by make_tile_staging (or its making failed)");
    return;
  }
  if (st.prepared) {
    b.fail(sl, "copy_tile_prepare: the staged tile was prepared already (since its copy_tile_load)");
    return;
  }
  for (uint32_t i = 0; i < st.steps; ++i) detail::copy_tile_prepare_step(st, i);
  st.prepared = true;
}

// Stores the staged tile into V (any view of the staging's layout). The caller waits for the
// loads first (vmcnt) and, before other waves read V, for the stores (lgkmcnt) and a barrier.
constexpr void copy_tile_store(builder J, tile_staging& st, const lds_view& V,
                               std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (st.steps == 0) {
    b.fail(sl, "copy_tile_store: the staging was not made by make_tile_staging (or its making failed)");
    return;
  }
  const lds_addr a = V.translate(J, st.addr, st.view, l);
  const uint32_t T = st.o.threads;
  for (uint32_t i = 0; i < st.steps; ++i) {
    const uint32_t drow = i * T / st.cpr, dcol = (i * T % st.cpr) * st.vel;
    if (!st.prepared) detail::copy_tile_prepare_step(st, i);  // (each step's work before its store)
    V.store(st.data[static_cast<int>(i)], a, static_cast<int32_t>(drow), static_cast<int32_t>(dcol), mem_opts{}, l);
  }
  st.prepared = true;
}

// ---- transposing copy -------------------------------------------------------------------------
// A tile of a row-major global matrix stored transposed: view element (r, c) = matrix element
// (c, r) of the tile at `origin` (rows row_bytes apart). The view's rows are the matrix's
// columns: a GEMM operand stored K-major (A as K x M, B as K x N) lands in the same
// [row][k] layout as a K-contiguous one.
//
//   transposed_staging st = make_transposed_staging(J, Bs[0], n_bytes, {.threads = 256});  // once
//   copy_tile_load(J, B, at(b_org), st);   // st.loads() dword loads
//   J.s_waitcnt(vmcnt(0));
//   copy_tile_store(J, st, Bs[1]);         // transposes in VGPRs, ds_writes into any view of the layout
//
// Lane unit: P = 4 / elem_bytes matrix columns (one dword) by Q = vec_bytes / elem_bytes matrix
// rows: Q dword loads, a Q x P transpose in registers (transpose_per_lane: 2-byte elements 2
// v_perm_b32 per 2x2, bytes 8 per 4x4, 4-byte elements none), P stores of vec_bytes into P
// view rows. Unit u of the tile: column group u % G (G = view rows / P), row block u / G; lane t
// takes units t, t + threads, ... (whole steps; threads a multiple of G or G of threads).
// Tails: matrix rows past the V# read zeros (size the V# to the tensor); with col_tail, the
// matrix columns at or past cols_valid (an SGPR, any value) are zeros: each loaded dword is
// masked at the store (the dword that straddles cols_valid keeps its valid elements).
// copy_tile_load(..., lane_offset{g}) loads from g (this lane's offset from the origin) instead
// of st.goff: `select(more, st.goff, past)` with `past` an offset past the V# loads a zero tile
// (a software pipeline's prefetch past the loop's end) at one v_cndmask per call.
// Rows must be dword aligned (row_bytes and origin multiples of 4).
struct lane_offset {
  gpr<dtype::u32> bytes;
};

struct transposed_staging {
  static constexpr int kMaxAddrs = 32;
  lds_view view{};            // the view the addresses were computed in (stores translate them)
  tile_copy_opts o{};
  gpr<dtype::u32> data;       // steps x Q dwords: Q matrix rows of P columns each
  gpr<dtype::u32> tr;         // the transposed unit: P view rows of vec_bytes (none for 4-byte elements)
  gpr<dtype::u32> goff;       // byte offset of the lane's first dword from the tile origin
  gpr<dtype::u32> col0;       // its first matrix column (= view row)
  gpr<dtype::u32> mask;       // col_tail: the kept bits of each column set's dwords
  gpr<dtype::u32> stride;     // the row stride (an SGPR) unless stride_const
  bool stride_const = false;
  uint32_t stride_imm = 0;
  lds_addr addr[kMaxAddrs];   // per step s and view row e of the unit: (col0 + e + dcol(s), k0 + dk(s))
  uint32_t steps = 0, per = 0, q = 0, groups = 0, col_sets = 0;
  bool col_tail = false;

  // VMEM instructions one copy_tile_load issues (for s_waitcnt vmcnt counts).
  constexpr uint32_t loads() const { return steps * q; }
  // step s's displacements: matrix rows, matrix columns (whole units)
  constexpr uint32_t drows(uint32_t s) const { return s * o.threads / groups * q; }
  constexpr uint32_t dcols(uint32_t s) const { return s * o.threads % groups * per; }
};

constexpr transposed_staging make_transposed_staging(builder J, const lds_view& V, const val<dtype::u32>& row_bytes,
                                                     tile_copy_opts o = {}, bool col_tail = false,
                                                     std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  transposed_staging st;
  st.view = V;
  st.o = o;
  st.col_tail = col_tail;
  const lds_layout& L = V.L;
  const uint32_t eb = L.elem_bytes, vb = o.vec_bytes, T = o.threads;
  if (row_bytes.x.is_reg(reg_class::vgpr) || row_bytes.x.is_reg(reg_class::agpr)) {
    b.fail(sl, "make_transposed_staging: the row stride must be wave-uniform (an SGPR or a constant)");
    return st;
  }
  if (o.direct || o.elem_loads) {
    b.fail(sl, "make_transposed_staging: the transposing copy goes through VGPRs in dwords (no direct, no elem_loads)");
    return st;
  }
  if (T == 0 || T % 64 != 0 || T > 1024) {
    b.fail(sl, "make_transposed_staging: threads must be a multiple of 64 up to 1024");
    return st;
  }
  if (eb != 1 && eb != 2 && eb != 4) {
    b.fail(sl, "make_transposed_staging: elements of 1, 2 or 4 bytes");
    return st;
  }
  if (!(vb == 4 || vb == 8 || vb == 16)) {
    b.fail(sl, "make_transposed_staging: vec_bytes (the bytes of a view row a lane stores) must be 4, 8 or 16");
    return st;
  }
  st.per = 4 / eb;
  st.q = vb / eb;
  if (L.rows % st.per != 0 || L.cols % st.q != 0) {
    b.fail(sl, "make_transposed_staging: view rows must be a multiple of ", static_cast<long long>(st.per),
           " and columns of ", static_cast<long long>(st.q), " (units of one dword by vec_bytes)");
    return st;
  }
  if (row_bytes.x.is_imm() && row_bytes.x.op.value % 4 != 0) {
    b.fail(sl, "make_transposed_staging: the matrix rows must be dword aligned (row_bytes a multiple of 4)");
    return st;
  }
  st.groups = L.rows / st.per;
  if (T % st.groups != 0 && st.groups % T != 0) {
    b.fail(sl, "make_transposed_staging: threads (", static_cast<long long>(T), ") and column groups (",
           static_cast<long long>(st.groups), ") must divide one another");
    return st;
  }
  const uint32_t units = st.groups * (L.cols / st.q);
  if (units % T != 0) {
    b.fail(sl, "make_transposed_staging: the tile (", static_cast<long long>(units), " units of ",
           static_cast<long long>(st.per), " x ", static_cast<long long>(st.q), " elements) must be whole steps of ",
           static_cast<long long>(T), " lanes");
    return st;
  }
  st.steps = units / T;
  if (st.steps * st.q > 128 || st.steps * st.per > transposed_staging::kMaxAddrs) {
    b.fail(sl, "make_transposed_staging: ", static_cast<long long>(st.steps * st.q),
           " VGPRs of staging and ", static_cast<long long>(st.steps * st.per), " LDS addresses (at most 128 and ",
           static_cast<long long>(transposed_staging::kMaxAddrs), "): copy the tile in parts");
    return st;
  }
  // the column sets a lane's steps cover (threads a multiple of G: one)
  st.col_sets = T % st.groups == 0 ? 1 : (st.groups / T < st.steps ? st.groups / T : st.steps);
  st.stride_const = row_bytes.x.is_imm();
  st.stride_imm = static_cast<uint32_t>(row_bytes.x.op.value);
  if (!st.stride_const) st.stride.rebind(detail::u32_view(&b, row_bytes.x.op));
  // (rebind: assigning a register handle would copy the registers)
  st.data.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.q * st.steps), l));
  if (eb != 4) st.tr.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.per * vb / 4), l));
  auto t = b.thread_id_x(l);
  auto r0 = b.vgpr<dtype::u32>(l), k0 = b.vgpr<dtype::u32>(l);
  r0 = (t % st.groups) * st.per;
  k0 = (t / st.groups) * st.q;
  st.col0.rebind(r0);
  st.goff.rebind(b.vgpr<dtype::u32>(l));
  if (st.stride_const) st.goff = k0 * st.stride_imm + r0 * eb;
  else st.goff = k0 * st.stride + r0 * eb;
  for (uint32_t s = 0; s < st.steps; ++s)
    for (uint32_t e = 0; e < st.per; ++e) {
      auto r = b.vgpr<dtype::u32>(l), k = b.vgpr<dtype::u32>(l);
      r = r0 + (e + st.dcols(s));
      k = k0 + st.drows(s);
      st.addr[st.per * s + e] = V.addr(r, multiple_of(k, st.q, l), l);
    }
  if (col_tail) st.mask.rebind(b.vgpr<dtype::u32>(static_cast<int>(st.col_sets), l));
  return st;
}

namespace detail {
constexpr uint32_t copy_transposed_load_impl(builder J, const buffer& A, mem_offset origin, transposed_staging& st,
                                             const xval* cols_valid, const gpr<dtype::u32>* lane_goff,
                                             std::source_location l) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (!staged_load_ok(b, sl, st.steps, st.col_tail, cols_valid, "make_transposed_staging")) return 0;
  if (lane_goff && (lane_goff->b == nullptr || lane_goff->cls != reg_class::vgpr)) {
    b.fail(sl, "copy_tile_load: lane_offset must be a VGPR (this lane's offset from the origin)");
    return 0;
  }
  const uint32_t eb = st.view.L.elem_bytes;
  if (cols_valid) {
    // dwords of column set j keep clamp((valid - col0 - dcols(j)) * eb, 0, 4) bytes
    const gpr<dtype::i32> q = tail_mask_base(b, *cols_valid, st.col0, eb, l);
    for (uint32_t j = 0; j < st.col_sets; ++j)
      tail_word_mask(b, q, static_cast<int32_t>(4 * eb * st.dcols(j)), st.mask[static_cast<int>(j)], l);
  }
  const gpr<dtype::u32> g = lane_goff ? *lane_goff : st.goff;
  const buffer Ab = A;
  for (uint32_t s = 0; s < st.steps; ++s)
    for (uint32_t i = 0; i < st.q; ++i) {
      const uint32_t dk = st.drows(s) + i;
      mem_offset m = at(g) + origin;
      if (dk) {
        if (st.stride_const) m.c += static_cast<int64_t>(dk) * st.stride_imm;
        else m = m + mem_offset(st.stride * dk);
      }
      m.c += static_cast<int64_t>(st.dcols(s)) * eb;
      Ab.load(st.data[static_cast<int>(st.q * s + i)], m, mem_opts{}, l);
    }
  return st.loads();
}
}  // namespace detail

// Issues the dword loads of the tile at `origin` into the staging's VGPRs; returns st.loads().
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, transposed_staging& st,
                                  std::source_location l = std::source_location::current()) {
  return detail::copy_transposed_load_impl(J, A, origin, st, nullptr, nullptr, l);
}
// With a column tail: matrix columns at or past cols_valid (an SGPR, any value) are zeros.
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, transposed_staging& st,
                                  const val<dtype::u32>& cols_valid,
                                  std::source_location l = std::source_location::current()) {
  return detail::copy_transposed_load_impl(J, A, origin, st, &cols_valid.x, nullptr, l);
}
// From this lane's offset g instead of st.goff (see the section comment: a zero tile).
constexpr uint32_t copy_tile_load(builder J, const buffer& A, mem_offset origin, transposed_staging& st,
                                  const lane_offset& g, std::source_location l = std::source_location::current()) {
  return detail::copy_transposed_load_impl(J, A, origin, st, nullptr, &g.bytes, l);
}

// Transposes the staged tile and stores it into V (any view of the staging's layout). The
// caller waits for the loads first (vmcnt) and, before other waves read V, for the stores
// (lgkmcnt) and a barrier.
constexpr void copy_tile_store(builder J, transposed_staging& st, const lds_view& V,
                               std::source_location l = std::source_location::current()) {
  builder& b = *J.self();
  const src_loc sl = to_src_loc(l);
  b.note_loc(sl);
  if (st.steps == 0) {
    b.fail(sl, "copy_tile_store: the staging was not made by make_transposed_staging (or its making failed)");
    return;
  }
  const uint32_t eb = st.view.L.elem_bytes, q = st.q, words = st.o.vec_bytes / 4;
  for (uint32_t s = 0; s < st.steps; ++s) {
    gpr<dtype::u32> unit = st.data.slice(static_cast<int>(q * s), static_cast<int>(q));
    if (st.col_tail)
      for (uint32_t i = 0; i < q; ++i) unit[static_cast<int>(i)] = unit[static_cast<int>(i)] & st.mask[static_cast<int>(s % st.col_sets)];
    if (eb == 4) {
      V.store(unit, V.translate(J, st.addr[s], st.view, l), 0, 0, mem_opts{}, l);
      continue;
    }
    transpose_per_lane(J, static_cast<int>(q), static_cast<int>(st.per), static_cast<int>(eb), unit, st.tr, l);
    for (uint32_t e = 0; e < st.per; ++e)
      V.store(st.tr.slice(static_cast<int>(words * e), static_cast<int>(words)), V.translate(J, st.addr[st.per * s + e], st.view, l),
              0, 0, mem_opts{}, l);
  }
}

}  // namespace hipasm
