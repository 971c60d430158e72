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
// 4 bytes per lane; each wave fills 256 consecutive LDS bytes per step, and each lane loads
// the element the view puts at its LDS dword (padding lanes are masked off, swizzles inverted);
// then (wait) s_waitcnt vmcnt(0) + s_barrier. With wait = false the caller waits: vmcnt for
// the direct path or the VGPR path's loads, lgkmcnt for its LDS stores, and a barrier.
// Column tails (copy_tile(..., opts, cols_valid)): the range check ends the tensor, not a row,
// so chunks whose first column is at or past cols_valid take an offset past the V# (zeros).
// A ring of LDS buffers chosen at run time (copy_tile(..., opts, lds_shift{s})): the tile lands
// at the view's address plus s bytes (an SGPR, a multiple of 16), e.g. s = 0 or the distance
// to a second view of the same layout, toggled each loop trip: one loop body serves both
// buffers (the direct path adds s to M0's base, one s_add; the VGPR path to the store address,
// one v_add).
#pragma once
#include <cstdint>
#include <source_location>

#include "../builder.hpp"
#include "buffer.hpp"
#include "lds.hpp"
#include "mem_offset.hpp"

namespace hipasm {

struct tile_copy_opts {
  uint32_t threads = 256;   // workgroup size: every lane takes part
  uint32_t vec_bytes = 16;  // bytes per lane per load (4, 8 or 16; the direct path: 4)
  bool direct = false;      // LDS-DMA (buffer_load_dword ... lds)
  bool wait = true;         // end with the waits and s_barrier that make the tile visible
};

// A run-time displacement of the destination view, in bytes (see the header comment).
struct lds_shift {
  gpr<dtype::u32> bytes;
};

namespace detail {
// Byte offsets at or past 2^31 are past every V# this helper is used with (num_records below
// 2^31): a chunk past the valid columns loads from there and gets zeros.
inline constexpr uint32_t past_any_buffer = 0x80000000u;

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

  // Direct: LDS dword p (from the view's base) of step i, wave w, lane l: p = (i * waves + w)
  // * 256 + 4 * l. Its element: row = p / row_stride, byte in row = p % row_stride (padding
  // past cols * elem_bytes), unswizzled by the same XOR.
  if (o.vec_bytes != 4 && o.vec_bytes != 16) {
    b.fail(sl, "copy_tile: the direct (LDS-DMA) path moves 4 bytes per lane");
    return;
  }
  if (L.elem_bytes > 4 || (L.cols * L.elem_bytes) % 4 != 0 || (L.swizzled() && L.swz_chunk < 4) || V.base % 4 != 0) {
    b.fail(sl, "copy_tile: the direct path needs dword rows and elements of at most 4 bytes");
    return;
  }
  const uint32_t rs = L.row_stride(), rowb = L.cols * L.elem_bytes, T = o.threads;
  const uint32_t total = L.bytes(), per_step = T * 4, steps = (total + per_step - 1) / per_step;
  auto wave = b.sgpr<dtype::u32>(l).named("tile_wave");
  b.v_readfirstlane_b32(wave, t, no_modifiers, l);
  auto wsg = b.sgpr<dtype::u32>(l).named("tile_wave_lds");
  wsg = (wave >> 6) << 8;  // this wave's first LDS byte of a step
  if (shift) wsg = wsg + *shift;
  auto p = b.vgpr<dtype::u32>(l).named("tile_p");
  p = t << 2;  // = w * 256 + 4 * lane
  // Whole rows per step, and a swizzle pattern that repeats with them: the lane's element
  // (and so its global offset) moves by a constant number of rows each step; computed once.
  const uint32_t period = L.swizzled() ? L.swz_row_div * L.swz_groups : 1;
  const bool uniform_steps = per_step % rs == 0 && (per_step / rs) % period == 0;
  for (uint32_t i = 0; i < steps; ++i) {
    const uint32_t pi = i * per_step;
    if (uniform_steps && i > 0) continue;
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
    const uint32_t reps = uniform_steps ? steps : 1;
    for (uint32_t j = 0; j < reps; ++j) {
      const uint32_t pj = pi + j * per_step;
      // lanes on padding bytes or past the view load nothing
      auto body = [&] {
        mem_offset lds_at = at(wsg) + static_cast<int64_t>(Vb.base + pj);
        mem_offset g = origin + at(goff);
        const uint32_t drow = uniform_steps ? j * (per_step / rs) : 0;
        if (drow) {
          if (stride_const) g.c += static_cast<int64_t>(drow) * stride_imm;
          else g += mem_offset(stride_reg * drow);
        }
        Ab.load_lds(lds_at, g, mem_opts{}, l);
      };
      const bool tail = pj + per_step > total;
      auto in_tile = [&] {
        if (tail) b.If(p < total - pj, body, l);
        else body();
      };
      if (L.row_pad) b.If(inrow < rowb, in_tile, l);
      else in_tile();
    }
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

}  // namespace hipasm
