// Kernels that hold V VGPRs, A AGPRs and S SGPRs live at once and ask for W waves a SIMD
// (builder::require_waves_per_simd; W = 0: no requirement). Shared by test_regalloc.cpp (the
// pipeline's verdicts and messages) and occupancy_kernels.hip (what clang's descriptor says).
#pragma once
#include "hipasm/kernel.hpp"

namespace hipasm::test {
using namespace hipasm;

inline constexpr int occupancy_require_line = __LINE__ + 4;  // the require_waves_per_simd line below
template <int V, int A, int S, unsigned W>
constexpr void occupancy_fn(builder J, arg<uint32_t*> out) {
  if constexpr (W > 0)
    J.require_waves_per_simd(W);
  auto v = J.vgpr<u32>(V).named("held_v");
  for (int i = 0; i < V; ++i) J.v_mov_b32(v[i], 1000u + i);  // (distinct: cse would merge equal ones)
  auto a = J.agpr<u32>(A > 0 ? A : 1).named("held_a");
  auto t = J.vgpr<u32>();
  for (int i = 0; i < A; ++i) {
    J.v_mov_b32(t, 2000u + i);
    J.v_accvgpr_write_b32(a[i], t);
  }
  auto s = J.sgpr<u32>(S > 0 ? S : 1).named("held_s");
  for (int i = 0; i < S; ++i) J.s_mov_b32(s[i], 5000u + i);
  auto p = J.vgpr<u64>();
  p = out + J.thread_id_x() * 4u;
  int k = 0;
  for (int i = 0; i < V; ++i) J.global_store_dword(p, v[i], off, {.offset = 256 * (k++ % 16)});
  for (int i = 0; i < A; ++i) {
    J.v_accvgpr_read_b32(t, a[i]);
    J.global_store_dword(p, t, off, {.offset = 256 * (k++ % 16)});
  }
  for (int i = 0; i < S; ++i) {
    J.v_mov_b32(t, s[i]);
    J.global_store_dword(p, t, off, {.offset = 256 * (k++ % 16)});
  }
}
}  // namespace hipasm::test
