// Pieces of the library's LDS-tiled GEMMs that do not depend on the element type: the K loop of
// a multi-buffered tile pipeline and LDS address arithmetic between buffers of one layout.
// Used by gemm_quant.hpp; gemm_bf16.hpp has the same loop written out (to be moved here).
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::detail {

// `a` moved by `d` bytes: the same element in another LDS buffer of the same layout.
constexpr lds_addr lds_moved(lds_addr a, int64_t d) {
  a.k += d;
  return a;
}

// The K loop over `k_tiles` tiles with `stages` LDS buffers: the loads of the first stages - 1
// tiles, the wait for the first (tile_visible(ahead): the oldest tile visible to all waves with
// `ahead` younger ones in flight), then trips of `stages` steps, step(buf) on buffer buf (a
// compile-time choice, so every buffer index is a constant). A tile count that is not a
// multiple of `stages` ends with steps on tiles past K, which the caller's loads make zero.
// (Handles and callables by value: a lambda must not capture a reference parameter.)
template <class LoadTile, class TileVisible, class Step>
constexpr void gemm_k_loop(builder J, gpr<dtype::u32> k_tiles, int stages, LoadTile load_tile, TileVisible tile_visible,
                           Step step) {
  for (int i = 0; i + 1 < stages; ++i) load_tile(i);
  tile_visible(static_cast<uint32_t>(stages - 2));
  auto it = J.sgpr<dtype::u32>();
  it = 0u;
  J.While([&] { return it < k_tiles; },
          [&] {
            for (int i = 0; i < stages; ++i) step(i);
            it = it + static_cast<uint32_t>(stages);
          });
}

}  // namespace hipasm::detail
