// Pieces of the library's LDS-tiled GEMMs that do not depend on the element type: the K loop of
// a multi-buffered tile pipeline, LDS address arithmetic between buffers of one layout, the
// order of the C tiles over the XCDs and split K's ranges.
// Used by gemm_quant.hpp and gemm_bf16.hpp.
#pragma once
#include <cstdint>
#include <source_location>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"

namespace hipasm::kernels::detail {

// `a` moved by `d` bytes: the same element in another LDS buffer of the same layout.
constexpr lds_addr lds_moved(lds_addr a, int64_t d) {
  a.k += d;
  return a;
}

// The K loop's skeleton: prologue(), then trips of `steps` steps (step(i), i = 0 .. steps - 1:
// a compile-time index, e.g. the LDS buffer) while fewer than k_tiles tiles were stepped over.
// A tile count that is not a multiple of `steps` ends with steps on tiles past K, which the
// caller's loads make zero. (Handles and callables by value: a lambda must not capture a
// reference parameter.)
template <class Prologue, class Step>
constexpr void gemm_k_trips(builder J, gpr<dtype::u32> k_tiles, int steps, Prologue prologue, Step step) {
  prologue();
  auto it = J.sgpr<dtype::u32>();
  it = 0u;
  J.While([&] { return it < k_tiles; },
          [&] {
            for (int i = 0; i < steps; ++i) step(i);
            it = it + static_cast<uint32_t>(steps);
          });
}

// The K loop over `k_tiles` tiles with `stages` LDS buffers: the loads of the first stages - 1
// tiles, the wait for the first (tile_visible(ahead): the oldest tile visible to all waves with
// `ahead` younger ones in flight), then trips of `stages` steps, step(buf) on buffer buf.
template <class LoadTile, class TileVisible, class Step>
constexpr void gemm_k_loop(builder J, gpr<dtype::u32> k_tiles, int stages, LoadTile load_tile, TileVisible tile_visible,
                           Step step) {
  gemm_k_trips(
      J, k_tiles, stages,
      [&] {
        for (int i = 0; i + 1 < stages; ++i) load_tile(i);
        tile_visible(static_cast<uint32_t>(stages - 2));
      },
      step);
}

// Host side: of C's M rows, how many run in `big` (bm x bn) tiles when the rows left run in a
// second dispatch of `rest` tiles, over `cus` CUs. A grid of big tiles whose last round is
// part-filled leaves CUs idle for a whole big tile (MI300X: 8192^2 in 256x256 tiles is 1024
// workgroups, 3.4 rounds of 304): run the whole rounds of big tiles that whole tile rows fill,
// and the rows left in smaller tiles whose last round is shorter. The split whose rounds (each
// weighed by its tile's area) cost least; M (one dispatch) unless a split saves more than 1/32 (a
// second dispatch's start and drain).
constexpr uint32_t gemm_balanced_rows(uint32_t big_bm, uint32_t big_bn, uint32_t rest_bm, uint32_t rest_bn, uint32_t M,
                                      uint32_t N, uint32_t cus) {
  if (cus == 0 || M == 0 || N == 0) return M;
  const uint64_t gx = (N + big_bn - 1) / big_bn, gxr = (N + rest_bn - 1) / rest_bn, gy = (M + big_bm - 1) / big_bm;
  auto rounds = [&](uint64_t groups) { return (groups + cus - 1) / cus; };
  const uint64_t whole = rounds(gx * gy) * big_bm * big_bn;
  uint64_t best = whole, best_rows = M;
  for (uint64_t r = gy; r-- > 0;) {  // (ties: the most rows in big tiles)
    const uint64_t left = M - r * big_bm;
    const uint64_t cost = rounds(gx * r) * big_bm * big_bn + rounds(gxr * ((left + rest_bm - 1) / rest_bm)) * rest_bm * rest_bn;
    if (cost < best) {
      best = cost;
      best_rows = r * big_bm;
    }
  }
  return best * 32 < whole * 31 ? static_cast<uint32_t>(best_rows) : M;
}

// The C tile (tx, ty) of this workgroup in a gx x gy grid of tiles (grid x, y as given; z
// planes ordered alike). The dispatcher deals workgroups round-robin to the XCDs (linear id %
// xcds; each XCD has its own L2): the linear id is first renumbered so that each XCD's
// workgroups are consecutive, then consecutive ids walk a band of `band` tile rows column by
// column. The workgroups that run together on one XCD then cover a compact block of C (~6x6
// tiles of 38 CUs) and share their A and B tiles in that XCD's L2, where the plain row-major
// order gives each XCD every 8th tile column of ~10 rows.
// gemm_tile_order_of: the same for the linear id `lin` of `tiles` = gx * gy (a persistent
// workgroup's k-th tile: its id plus k times the grid, the grid a multiple of xcds).
// small_div: the two divisions by gemm_udiv_small (tile ids below 2^21), not the exact 32-bit sequence.
// gemm_udiv_small: q = n / d for n < 2^21, d >= 1 (wave-uniform, EXEC not empty), in 7
// instructions where the 32-bit sequence takes ~21: floor((n + 1/2) * rcp(d)) in f32. (n + 1/2)
// / d lies at least 1/(2d) from an integer and the f32 reciprocal and product err by under 2^-22
// of the quotient, below 2^-1/d for n < 2^21.
constexpr void gemm_udiv_small(builder J, gpr<dtype::u32> n, gpr<dtype::u32> d, gpr<dtype::u32> q) {
  auto fn = J.vgpr<dtype::f32>(), fd = J.vgpr<dtype::f32>();
  auto qv = J.vgpr<dtype::u32>();
  J.v_cvt_f32_u32(fn, n);
  J.v_cvt_f32_u32(fd, d);
  J.v_rcp_f32(fd, fd);
  fn = fn + 0.5f;
  fn = fn * fd;
  J.v_cvt_u32_f32(qv, fn);
  J.v_readfirstlane_b32(q, qv);
}
constexpr void gemm_tile_order_of(builder J, gpr<dtype::u32> lin, gpr<dtype::u32> tiles, gpr<dtype::u32> gx,
                                  gpr<dtype::u32> gy, gpr<dtype::u32> tx, gpr<dtype::u32> ty, uint32_t xcds = 8,
                                  uint32_t band = 8, bool small_div = false) {
  using dtype::u32;
  auto xcd = J.sgpr<u32>(), id = J.sgpr<u32>();
  // XCD i holds the ids = i mod xcds: tiles / xcds of them, one more for i < tiles % xcds.
  xcd = lin % xcds;
  id = xcd * (tiles / xcds) + min(xcd, gpr<u32>(tiles % xcds)) + lin / xcds;
  auto per_band = J.sgpr<u32>(), first = J.sgpr<u32>(), rows = J.sgpr<u32>(), in = J.sgpr<u32>();
  per_band = gx * band;
  if (small_div) {
    gemm_udiv_small(J, id, per_band, first);
    first = first * band;
  } else {
    first = (id / per_band) * band;
  }
  rows = min(gpr<u32>(gy - first), band);
  in = id - (first * gx);
  // (the remainder from the quotient: one division by the run-time `rows`, ~100 cycles of the
  // prologue before the first loads)
  if (small_div) gemm_udiv_small(J, in, rows, tx);
  else tx = in / rows;
  ty = first + (in - tx * rows);
}
constexpr void gemm_tile_order(builder J, gpr<dtype::u32> gx, gpr<dtype::u32> gy, gpr<dtype::u32> tx,
                               gpr<dtype::u32> ty, uint32_t xcds = 8, uint32_t band = 8, bool small_div = false) {
  auto tiles = J.sgpr<dtype::u32>(), lin = J.sgpr<dtype::u32>();
  tiles = gx * gy;
  lin = J.workgroup_id_y() * gx + J.workgroup_id_x();
  gemm_tile_order_of(J, lin, tiles, gx, gy, tx, ty, xcds, band, small_div);
}

// This lane's place in a wave-tiled GEMM of one MFMA atom `at` (wm x wn waves, wave blocks wtm x
// wtn; lane l reads A's row and B's column of its lane fields (at.a_row(), at.b_col()) and, of
// each K slice of (k groups) x `per_read` elements, the k group at.a_k() gives it: `per_read`
// a multiple of the atom's elements a lane, the k of several MFMAs in one read): its lane and
// wave, its A and B rows in the tile, and per slice p the LDS read address of that row and k
// group in buffer 0 of A and B (a swizzled view recomputes a column displacement that crosses
// chunks, so each slice gets its address once, outside the loop; another buffer's is that
// address translated, a constant).
struct gemm_lane_place {
  gpr<dtype::u32> lane, wave, a_row, b_row;
};
template <int KS>
constexpr gemm_lane_place gemm_lane_fragments(builder J, const mfma_atom& at, gpr<dtype::u32> tid, uint32_t wm,
                                              uint32_t wtm, uint32_t wtn, uint32_t per_read, const lds_view& A0,
                                              const lds_view& B0, lds_addr (&a_addr)[KS], lds_addr (&b_addr)[KS],
                                              std::source_location l = std::source_location::current()) {
  using dtype::u32;
  const mfma_lane_field row = at.a_row(), col = at.b_col(), kg = at.a_k();
  // (the B tile is stored N x K: its rows are B's columns, read like A's rows)
  if (kg.stride == 0 || per_read % kg.stride != 0 || at.b_k().shift != kg.shift)
    J.fail(to_src_loc(l), "gemm_lane_fragments: per_read must be a multiple of the atom's k elements a lane");
  gemm_lane_place g;
  // (rebind: assigning a register handle would copy the registers)
  g.lane.rebind(J.vgpr<u32>());
  g.wave.rebind(J.vgpr<u32>());
  g.lane = tid & 63u;
  g.wave = tid >> 6;
  g.a_row.rebind(J.vgpr<u32>());
  g.b_row.rebind(J.vgpr<u32>());
  auto kcol = J.vgpr<u32>();
  g.a_row = (g.wave % wm) * wtm + (g.lane & row.mask);
  g.b_row = (g.wave / wm) * wtn + (g.lane & col.mask);
  kcol = (g.lane >> kg.shift) * per_read;
  for (int p = 0; p < KS; ++p) {
    auto ca = J.vgpr<u32>();
    ca = kcol + kg.size() * per_read * static_cast<uint32_t>(p);
    a_addr[p] = A0.addr(g.a_row, multiple_of(ca, per_read));
    b_addr[p] = B0.addr(g.b_row, multiple_of(ca, per_read));
  }
  return g;
}

// Split K: workgroup z (of `splits` along grid z) takes the tiles [t0, t0 + k_tiles) of the
// k_tiles of the whole K loop (k_tiles becomes its count): ceil(k_tiles / splits) tiles each,
// rounded up to whole `granule`s (k_tiles a multiple of it); a workgroup past the last tile
// gets none. `splits` a constant or an SGPR.
template <class Splits>
constexpr void gemm_split_k_range(builder J, gpr<dtype::u32> k_tiles, const Splits& splits, uint32_t granule,
                                  gpr<dtype::u32> t0) {
  using dtype::u32;
  auto per = J.sgpr<u32>(), t1 = J.sgpr<u32>();
  if (granule == 1) per = (k_tiles + (splits - 1u)) / splits;
  else per = ((k_tiles / granule + (splits - 1u)) / splits) * granule;
  t0 = min(gpr<u32>(J.workgroup_id_z() * per), k_tiles);
  t1 = min(gpr<u32>(t0 + per), k_tiles);
  k_tiles = t1 - t0;
}

// The p_off of gemm_store_bf16_block_pairs: pair jp's byte offset of the lane's column in the
// wave's first row, bit 31 set where the column is past N (the store dropped). first_row(wrow)
// and column(col, jp) write the row and pair jp's column of the lane into the registers given.
template <int TN, class NT, class FirstRow, class Column>
constexpr gpr<dtype::u32> gemm_block_pair_offsets(builder J, const NT& N, const gpr<dtype::u32>& n_bytes,
                                                  FirstRow first_row, Column column) {
  auto p_off = J.vgpr<dtype::u32>(TN / 2);
  auto wrow = J.vgpr<dtype::u32>(), col = J.vgpr<dtype::u32>();
  first_row(wrow);
  for (int jp = 0; jp < TN / 2; ++jp) {
    column(col, jp);
    p_off[jp] = select(col >= N, 0x80000000u, gpr<dtype::u32>(wrow * n_bytes + (col << 1)));
  }
  return p_off;
}

// gfx950 (v_permlane32_swap): a wave's TM x TN blocks of 32x32 f32 accumulators stored as bf16
// to a row-major C, a whole 128-byte line of a row per 16-bit store. Blocks j and j + 1 are a
// pair: the swap trades block j's lanes 32..63 (its rows + 4) with block j + 1's lanes 0..31, so
// that each register holds 64 consecutive columns of one row (lane l column 64 (j / 2) + l).
// fetch(x, i, j, r) writes element r of block (i, j) into the f32 register x; p_off[jp] is pair
// jp's byte offset of the lane's column in the wave's first row (bit 31 set past N: dropped);
// n_bytes C's row pitch. Rows r and r + 1 (r even) share one conversion.
template <int TM, int TN, class CBuf, class Fetch>
constexpr void gemm_store_bf16_block_pairs(builder J, CBuf& Cb, const gpr<dtype::u32>& p_off,
                                           const gpr<dtype::u32>& n_bytes, Fetch fetch) {
  static_assert(TN % 2 == 0, "gemm_store_bf16_block_pairs: blocks go in pairs");
  auto x = J.vgpr<dtype::f32>(4);
  auto srows = J.sgpr<dtype::u32>(4);  // (rows R + q + 4 h, shared by the block pairs)
  for (int i = 0; i < TM; ++i)
    for (int r = 0; r < 16; r += 2) {
      for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 2; ++q)
          srows[2 * h + q] = n_bytes * static_cast<uint32_t>(32 * i + 8 * (r / 4) + r % 4 + q + 4 * h);
      for (int jp = 0; jp < TN / 2; ++jp) {
        const int j = 2 * jp;
        fetch(x[0], i, j, r);
        fetch(x[1], i, j + 1, r);
        fetch(x[2], i, j, r + 1);
        fetch(x[3], i, j + 1, r + 1);
        J.v_permlane32_swap_b32(x[0], x[1]);
        J.v_permlane32_swap_b32(x[2], x[3]);
        // x[0], x[2]: rows R, R + 1 (R = 32 i + 8 (r / 4) + r % 4); x[1], x[3]: rows R + 4, R + 5
        for (int h = 0; h < 2; ++h) {
          auto v = cvt_bf16x2(x[h], x[2 + h]);
          Cb.store(v, at(p_off[jp]) + at(srows[2 * h]), {.width = narrow::u16});
          Cb.store(v, at(p_off[jp]) + at(srows[2 * h + 1]), {.width = narrow::u16_d16_hi});
        }
      }
    }
}

}  // namespace hipasm::kernels::detail

