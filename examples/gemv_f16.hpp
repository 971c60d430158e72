// fp16 GEMV y = A x (A: rows x K halves, row-major; x: K halves; y: rows floats), the
// tutorial's kernel done properly: one wave per row, each lane reads consecutive dwords
// (2 halves) so a wave's 64 loads are one coalesced 256-byte access, v_dot2_f32_f16
// accumulates in f32, and a ds_bpermute butterfly sums the 64 partial sums across the wave.
// K must be a multiple of 128.
#pragma once
#include <hipasm/builder.hpp>

#include "sizes.hpp"

namespace examples {
using namespace hipasm;

constexpr void gemv_f16(builder J, arg<float*> y, arg<const _Float16*> A, arg<const _Float16*> x,
                        arg<unsigned> rows, arg<unsigned> K) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x() & 63;
  auto row = J.vgpr<u32>().named("row");
  row = J.workgroup_id_x() * gemv_waves_per_group + (J.thread_id_x() >> 6);
  J.If(row < rows, [&] {
    auto acc = J.vgpr<f32>().named("acc").fill(0.0f);
    auto pa = J.vgpr<u64>().named("pa"), px = J.vgpr<u64>().named("px");
    // byte offsets: row * K * 2 + lane * 4 into A, lane * 4 into x
    auto rowbytes = J.vgpr<u32>();
    rowbytes = row * (K << 1) + (lane << 2);
    pa = A + rowbytes;
    px = x + (lane << 2);
    auto k = J.sgpr<u32>().named("k");
    J.For(k, 0u, K, [&] {
      auto av = J.vgpr<f16x2>(), xv = J.vgpr<f16x2>();
      J.global_load_dword(av, pa, off);
      J.global_load_dword(xv, px, off);
      pa = pa + 256;
      px = px + 256;
      J.s_waitcnt(vmcnt(0));
      J.v_dot2_f32_f16(acc, av, xv, acc);
    }, 128);
    // wave reduction: 6 butterfly steps through ds_bpermute (lane ^ 32, 16, ..., 1)
    for (unsigned s = 32; s >= 1; s /= 2) {
      auto addr = J.vgpr<u32>();
      auto other = J.vgpr<f32>();
      addr = (lane ^ s) << 2;
      J.ds_bpermute_b32(other, addr, acc);
      J.s_waitcnt(lgkmcnt(0));
      acc = acc + other;
    }
    J.If(lane == 0u, [&] {
      auto py = J.vgpr<u64>();
      py = y + (row << 2);
      J.global_store_dword(py, acc, off);
    });
  });
}

}  // namespace examples
