// Pieces of the library's LDS-tiled GEMMs that do not depend on the element type: the K loop of
// a multi-buffered tile pipeline, LDS address arithmetic between buffers of one layout, the
// order of the C tiles over the XCDs and split-K's pass from f32 partial sums to bf16 C.
// Used by gemm_quant.hpp and gemm_bf16.hpp.
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::detail {

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

// The C tile (tx, ty) of this workgroup in a gx x gy grid of tiles (grid x, y as given; z
// planes ordered alike). The dispatcher deals workgroups round-robin to the XCDs (linear id %
// xcds; each XCD has its own L2): the linear id is first renumbered so that each XCD's
// workgroups are consecutive, then consecutive ids walk a band of `band` tile rows column by
// column. The workgroups that run together on one XCD then cover a compact block of C (~6x6
// tiles of 38 CUs) and share their A and B tiles in that XCD's L2, where the plain row-major
// order gives each XCD every 8th tile column of ~10 rows.
constexpr void gemm_tile_order(builder J, gpr<dtype::u32> gx, gpr<dtype::u32> gy, gpr<dtype::u32> tx,
                               gpr<dtype::u32> ty, uint32_t xcds = 8, uint32_t band = 8) {
  using dtype::u32;
  auto tiles = J.sgpr<u32>(), lin = J.sgpr<u32>(), xcd = J.sgpr<u32>(), id = J.sgpr<u32>();
  tiles = gx * gy;
  lin = J.workgroup_id_y() * gx + J.workgroup_id_x();
  // XCD i holds the ids = i mod xcds: tiles / xcds of them, one more for i < tiles % xcds.
  xcd = lin % xcds;
  id = xcd * (tiles / xcds) + min(xcd, gpr<u32>(tiles % xcds)) + lin / xcds;
  auto per_band = J.sgpr<u32>(), first = J.sgpr<u32>(), rows = J.sgpr<u32>(), in = J.sgpr<u32>();
  per_band = gx * band;
  first = (id / per_band) * band;
  rows = min(gpr<u32>(gy - first), band);
  in = id - (first * gx);
  ty = first + in % rows;
  tx = in / rows;
}

// Split-K with bf16 output, second kernel: C[i] = bf16(sum of ws[s * count + i], s < slices)
// (f32 sums in slice order, then round to nearest even) for i < count: gemm_bf16's atomic sums
// (one slice) and gemm_quant's per-split slices. 256 lanes a workgroup, 4 elements a lane: one
// dwordx4 load a slice (a raw V# checks each dword, so the last slice ends exactly at the
// workspace's end), 4 slices' loads in flight, 16-bit stores (any count; past it: dropped).
// Empty unless Used (the GEMM macros define it for every configuration).
inline constexpr uint32_t gemm_to_bf16_threads = 256, gemm_to_bf16_per_group = 4 * gemm_to_bf16_threads;

template <bool Used>
constexpr void gemm_sum_to_bf16_kernel(builder J, arg<uint16_t*> c_ptr, arg<const float*> ws_ptr, arg<unsigned> count,
                                       arg<unsigned> slices) {
  if constexpr (!Used) return;
  using dtype::f32;
  using dtype::u32;
  constexpr int G = 4;  // slices a trip
  auto slice_bytes = J.sgpr<u32>(), ws_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>();
  slice_bytes = count << 2;
  ws_bytes = slice_bytes * slices;
  c_bytes = count << 1;
  auto W = make_buffer(J, ws_ptr, ws_bytes);
  auto Cb = make_buffer(J, c_ptr, c_bytes);
  auto i = J.vgpr<u32>();
  i = J.workgroup_id_x() * gemm_to_bf16_per_group + (J.thread_id_x() << 2);
  auto off = J.vgpr<u32>();
  off = i << 2;
  auto sum = J.vgpr<f32>(4), x = J.vgpr<f32>(G, 4);  // x[g]: slice s + g's 4 elements
  sum.fill(0.0f);
  auto s = J.sgpr<u32>(), soff = J.sgpr<u32>(G);
  s = 0u;
  J.While([&] { return s < slices; },
          [&] {
            // (slices past the last: past the V#, zeros)
            for (int g = 0; g < G; ++g) {
              soff[g] = (s + static_cast<uint32_t>(g)) * slice_bytes;
              W.load(x[g], at(off) + at(soff[g]));
            }
            J.s_waitcnt(vmcnt(0));
            for (int g = 0; g < G; ++g)
              for (int e = 0; e < 4; ++e) sum[e] = sum[e] + x[g][e];
            s = s + static_cast<uint32_t>(G);
          });
  auto co = J.vgpr<u32>();
  co = i << 1;
  for (int e = 0; e < 4; e += 2) {
    auto h = cvt_bf16x2(sum[e], sum[e + 1]);
    Cb.store(h, at(co) + 2 * e, {.width = narrow::u16});
    Cb.store(h, at(co) + (2 * e + 2), {.width = narrow::u16_d16_hi});
  }
}

}  // namespace hipasm::detail

// Defines `name_to_bf16` (C, workspace, count, slices): detail::gemm_sum_to_bf16_kernel<used>.
#define HIPASM_GEMM_TO_BF16_KERNEL(name, used)                                                                  \
  constexpr auto name##_to_bf16_hipasm_fn = &::hipasm::detail::gemm_sum_to_bf16_kernel<(used)>;             \
  extern "C" __attribute__((global)) void name##_to_bf16(uint16_t* c, const float* ws, unsigned count,       \
                                                         unsigned slices) {                                 \
    HIPASM_KERNEL_BODY(name##_to_bf16_hipasm_fn, c, ws, count, slices);                                     \
  }
