// The kernel functions of target_features.hip, also instantiated by the host tests (their asm
// text for the instruction counts).
#pragma once
#include "tile_fns.hpp"

namespace tf {
using namespace hipasm;

constexpr gpr<u32> byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  return o;
}

// ---- lane exchanges and reductions: out[i] = what lane i gets ------------------------------
enum class lk { xor16_sum, xor32_sum, xor48_fmax, group32_sum, xor49_imin_partial, pair48_sum, shuf16, shuf32,
                shuf32_into_self, shuf16_lds };
template <lk K>
constexpr void lanes(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  J.global_load_dword(x, o, in);
  J.s_waitcnt(vmcnt(0));
  auto y = J.vgpr<u32>().named("y");
  y = x;
  if constexpr (K == lk::xor16_sum) y = xor_reduce(J, reduce::sum, x, 0x10);
  else if constexpr (K == lk::xor32_sum) y = xor_reduce(J, reduce::sum, x, 0x20);
  else if constexpr (K == lk::xor48_fmax) y = xor_reduce(J, reduce::max, x.as<f32>(), 0x30).as<u32>();
  else if constexpr (K == lk::group32_sum) y = group_reduce(J, reduce::sum, x, 32);
  else if constexpr (K == lk::xor49_imin_partial) {
    auto lane = lane_id(J);
    J.If(lane % 5u != 2u, [&] { y = xor_reduce(J, reduce::min, x.as<i32>(), 0x31).as<u32>(); });
  } else if constexpr (K == lk::pair48_sum) {
    auto p = J.vgpr<u32>(2).named("p");
    p[0] = x;
    p[1] = x * 3u;
    auto r = xor_reduce(J, reduce::sum, p, 0x30, {.all_lanes_active = true});
    y = r[0] ^ (r[1] << 1u);
  } else if constexpr (K == lk::shuf16) y = shuffle_xor(J, x, 16);
  else if constexpr (K == lk::shuf32) y = shuffle_xor(J, x, 32);
  else if constexpr (K == lk::shuf32_into_self) shuffle_xor_into(J, y, y, 32);
  else y = shuffle_xor(J, x, 16, {.lds = true});
  J.global_store_dword(o, y, out);
}

// ---- load_transposed: LDS gets in[] as the view's dwords (row-major), then lane l of group
// g = l / 16 reads the block at row E * g + E, column 16 * ((3 * g) % 4); out[2l], out[2l+1].
template <uint32_t EB, bool SWZ>
constexpr lds_layout tr_layout() {
  if constexpr (SWZ) return {.rows = 48, .cols = 64 / EB * 2, .elem_bytes = EB, .swz_chunk = 16, .swz_groups = 4};
  else return {.rows = 48, .cols = 64 / EB * 2, .elem_bytes = EB, .row_pad = 8};
}
template <uint32_t EB, bool SWZ>
constexpr void transposed(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  constexpr lds_layout LY = tr_layout<EB, SWZ>();
  constexpr uint32_t E = 8 / EB, dpr = LY.cols * EB / 4, dwords = LY.rows * dpr;
  lds_pool pool(J);
  const lds_view V = pool.view(LY);
  auto t = J.thread_id_x();
  for (uint32_t d0 = 0; d0 < dwords; d0 += 64) {
    auto d = J.vgpr<u32>(), v = J.vgpr<u32>(), r = J.vgpr<u32>(), c = J.vgpr<u32>();
    d = t + d0;
    J.global_load_dword(v, d << 2u, in);
    J.s_waitcnt(vmcnt(0));
    r = d / dpr;
    c = (d % dpr) * (4 / EB);
    V.store(v, r, multiple_of(c, 4 / EB));
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  auto g = J.vgpr<u32>(), row = J.vgpr<u32>(), col = J.vgpr<u32>();
  g = t >> 4u;
  row = g * E;
  col = ((g * 3u) & 3u) * 16u;
  auto dst = J.vgpr<u32>(2).named("dst");
  load_transposed(J, V, dst, at(row) + E, multiple_of(col, 16));
  J.s_waitcnt(lgkmcnt(0));
  auto o = J.vgpr<u32>();
  o = t << 3u;
  J.global_store_dwordx2(o, dst, out);
}

// copy_tile's direct path with 16 bytes a lane asked for (tile_fns::tile_rt: the tile, then
// read back dword by dword); dword DMA where the target or the layout has no 16-byte form.
constexpr lds_layout dma_f32_40{.rows = 40, .cols = 64, .elem_bytes = 4};
constexpr lds_layout dma_bf16_pad{.rows = 128, .cols = 64, .elem_bytes = 2, .row_pad = 16};
constexpr lds_layout dma_bf16_swz{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
constexpr lds_layout dma_wide_swz{.rows = 8, .cols = 512, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8, .swz_row_div = 2};
constexpr lds_layout dma_pad8{.rows = 64, .cols = 64, .elem_bytes = 2, .row_pad = 8, .swz_chunk = 16, .swz_groups = 8};
inline constexpr auto dma16_f32_partial_fn = &tile_fns::tile_rt<dma_f32_40, tile_copy_opts{256, 16, true, true}>;
inline constexpr auto dma16_bf16_pad_fn = &tile_fns::tile_rt<dma_bf16_pad, tile_copy_opts{256, 16, true, true}>;
inline constexpr auto dma16_bf16_swz_fn = &tile_fns::tile_rt<dma_bf16_swz, tile_copy_opts{128, 16, true, true}>;
inline constexpr auto dma16_wide_swz_fn = &tile_fns::tile_rt<dma_wide_swz, tile_copy_opts{128, 16, true, true}>;
inline constexpr auto dma16_pad8_fallback_fn = &tile_fns::tile_rt<dma_pad8, tile_copy_opts{256, 16, true, true}>;
inline constexpr auto dma16_caller_waits_fn = &tile_fns::tile_rt<dma_bf16_swz, tile_copy_opts{128, 16, true, true}, true>;

}  // namespace tf
