// copy_tile kernels (tests/helpers/test_tile.cpp runs them in hipasm-sim against C++).
// One workgroup of O.threads lanes copies the tile whose element (0, 0) is at byte `origin`
// of `in` (rows ld_bytes apart; the V# holds in_bytes) into an LDS view of layout LY, then
// reads the view back dword by dword: out[d] = LDS dword d of the tile in row-major element
// order (row d / (cols * eb / 4), elements (d % ...) * 4 / eb ...).
#pragma once
#include <cstdint>

#include <hipasm/hipasm.hpp>

namespace tile_fns {
using namespace hipasm;

// out[d] = dword d of view V in row-major element order, by `threads` lanes.
template <lds_layout LY>
constexpr void read_back(builder J, const lds_view& V, const buffer& Out, uint32_t threads) {
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  const lds_view Vl = V;  // (the lambda captures locals, not reference parameters)
  const buffer Ob = Out;
  auto t = J.thread_id_x();
  for (uint32_t d0 = 0; d0 < dwords; d0 += threads) {
    auto d = J.vgpr<u32>();
    d = t + d0;
    J.If(d < dwords, [&] {
      auto row = J.vgpr<u32>();
      auto col = J.vgpr<u32>();
      row = d / dw_per_row;
      col = (d % dw_per_row) * (4 / LY.elem_bytes);
      auto v = J.vgpr<u32>();
      Vl.load(v, row, multiple_of(col, 4 / LY.elem_bytes));
      J.s_waitcnt(lgkmcnt(0));
      Ob.store(v, d << 2);
    });
  }
}

template <lds_layout LY, tile_copy_opts O, bool CALLER_WAITS = false>
constexpr void tile_rt(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                       arg<unsigned> ld_bytes, arg<unsigned> origin) {
  lds_pool pool(J);
  auto V = pool.view(LY);
  auto A = make_buffer(J, in, in_bytes);
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  auto Out = make_buffer(J, out, dwords * 4);
  constexpr tile_copy_opts o{O.threads, O.vec_bytes, O.direct, !CALLER_WAITS};
  copy_tile(J, A, at(origin), ld_bytes, V, o);
  if constexpr (CALLER_WAITS) {
    J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
    J.s_barrier();
  }
  read_back<LY>(J, V, Out, O.threads);
}

// The same with a column tail: only the first cols_valid columns are read, the rest are 0.
template <lds_layout LY, tile_copy_opts O>
constexpr void tile_rt_cols(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                            arg<unsigned> ld_bytes, arg<unsigned> origin, arg<unsigned> cols_valid) {
  lds_pool pool(J);
  auto V = pool.view(LY);
  auto A = make_buffer(J, in, in_bytes);
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  auto Out = make_buffer(J, out, dwords * 4);
  copy_tile(J, A, at(origin), ld_bytes, V, O, cols_valid);
  read_back<LY>(J, V, Out, O.threads);
}

}  // namespace tile_fns

namespace tile_fns {
// The split copy (make_tile_staging, copy_tile_load, copy_tile_store) with a column tail: the
// staging is made for view V0, loaded, then stored into a second view V1 of the same layout
// (its address translated); V1 is read back as above. out[dwords] = st.loads(). PREP: the
// store's masks / joins by copy_tile_prepare first (the store then only stores). TAIL: the word
// masks made once for the tail cols_valid % the view's columns (make_tile_tail_masks), as a K
// loop makes them, and taken by copy_tile_load. DEFER (with TAIL): the masks deferred, applied
// by copy_tile_mask_tail in a branch taken when cols_valid is below the view's columns.
template <lds_layout LY, tile_copy_opts O, bool PREP = false, bool TAIL = false, bool DEFER = false>
constexpr void tile_rt_split(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                             arg<unsigned> ld_bytes, arg<unsigned> origin, arg<unsigned> cols_valid) {
  lds_pool pool(J);
  auto V0 = pool.view(LY);
  auto V1 = pool.view(LY);
  auto A = make_buffer(J, in, in_bytes);
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  auto Out = make_buffer(J, out, dwords * 4 + 4);
  auto ld = J.sgpr<u32>();
  ld = ld_bytes;  // (an SGPR, as a GEMM's K * 2)
  tile_staging st = make_tile_staging(J, V0, ld, O, true);
  auto cv = J.sgpr<u32>();
  cv = cols_valid;
  auto org = J.sgpr<u32>();
  org = origin;
  uint32_t n = 0;
  if constexpr (TAIL) {
    auto tail = J.sgpr<u32>();
    tail = cv % LY.cols;
    tile_tail_masks tm = make_tile_tail_masks(J, st, tail);
    tm.deferred = DEFER;
    n = copy_tile_load(J, A, at(org), st, cv, tm);
    J.s_waitcnt(vmcnt(0));
    if constexpr (DEFER) J.If(cv < LY.cols, [&] { copy_tile_mask_tail(J, st, tm); });
  } else {
    n = copy_tile_load(J, A, at(org), st, cv);
  }
  J.s_waitcnt(vmcnt(0));
  if constexpr (PREP) copy_tile_prepare(J, st);
  copy_tile_store(J, st, V1);
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  read_back<LY>(J, V1, Out, O.threads);
  J.If(J.thread_id_x() == 0u, [&] {
    auto c = J.vgpr<u32>();
    c = n;
    Out.store(c, dwords * 4);
  });
}
}  // namespace tile_fns

namespace tile_fns {
// Two views of layout LY; the tile is copied into the first moved by `shift` bytes (an SGPR:
// lds_shift) and read back through the second: with shift = the views' distance it is there.
template <lds_layout LY, tile_copy_opts O>
constexpr void tile_rt_shift(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                             arg<unsigned> ld_bytes, arg<unsigned> origin, arg<unsigned> shift) {
  lds_pool pool(J);
  auto V0 = pool.view(LY);
  auto V1 = pool.view(LY);
  auto A = make_buffer(J, in, in_bytes);
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  auto Out = make_buffer(J, out, dwords * 4);
  auto s = J.sgpr<u32>();
  s = shift + 0u;
  copy_tile(J, A, at(origin), ld_bytes, V0, O, lds_shift{s});
  read_back<LY>(J, V1, Out, O.threads);
}
}  // namespace tile_fns

namespace tile_fns {
// The transposing copy: view element (r, c) = matrix element (c, r) of the tile at `origin` of
// `in` (matrix rows ld_bytes apart): make_transposed_staging for view V0, copy_tile_load,
// copy_tile_store into a second view V1 (translated addresses), read back from V1. TAIL: with
// cols_valid (matrix columns past it are 0).
// LD: a constant row stride (0: the run-time ld_bytes in an SGPR). out[dwords] = st.loads().
template <lds_layout LY, tile_copy_opts O, bool TAIL, uint32_t LD = 0>
constexpr void tile_rt_transposed(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                                  arg<unsigned> ld_bytes, arg<unsigned> origin, arg<unsigned> cols_valid) {
  lds_pool pool(J);
  auto V0 = pool.view(LY);
  auto V1 = pool.view(LY);
  auto A = make_buffer(J, in, in_bytes);
  constexpr uint32_t dw_per_row = LY.cols * LY.elem_bytes / 4, dwords = LY.rows * dw_per_row;
  auto Out = make_buffer(J, out, dwords * 4 + 4);
  auto ld = J.sgpr<u32>();
  ld = ld_bytes;
  auto cv = J.sgpr<u32>();
  cv = cols_valid;
  auto org = J.sgpr<u32>();
  org = origin;
  const val<u32> stride = LD ? val<u32>(LD) : val<u32>(ld);
  uint32_t n = 0;
  transposed_staging st = make_transposed_staging(J, V0, stride, O, TAIL);
  if constexpr (TAIL) n = copy_tile_load(J, A, at(org), st, cv);
  else n = copy_tile_load(J, A, at(org), st);
  J.s_waitcnt(vmcnt(0));
  copy_tile_store(J, st, V1);
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  read_back<LY>(J, V1, Out, O.threads);
  J.If(J.thread_id_x() == 0u, [&] {
    auto c = J.vgpr<u32>();
    c = n;
    Out.store(c, dwords * 4);
  });
}
}  // namespace tile_fns
