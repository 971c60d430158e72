// A 2-D kernel: c[r][col] = a[r][col] + alpha * b[r][col] over a rows x cols matrix with
// 16 x 4 workgroups; the row comes from blockIdx.y / threadIdx.y, the column from
// blockIdx.x / threadIdx.x (the work-item ids are unpacked from v0: x = v0[9:0],
// y = v0[19:10]), and both bounds are checked per lane.
#pragma once
#include <hipasm/builder.hpp>

#include "sizes.hpp"

namespace examples {
using namespace hipasm;

constexpr void kernel_2d(builder J, arg<float*> c, arg<const float*> a, arg<const float*> b, arg<float> alpha,
                         arg<unsigned> rows, arg<unsigned> cols) {
  auto col = J.vgpr<u32>().named("col"), r = J.vgpr<u32>().named("row");
  col = J.workgroup_id_x() * k2d_bx + J.thread_id_x();
  r = J.workgroup_id_y() * k2d_by + J.thread_id_y();
  J.If(r < rows, [&] {
    J.If(col < cols, [&] {
      auto byte = J.vgpr<u32>();
      byte = (r * cols + col) << 2;
      auto pa = J.vgpr<u64>(), pb = J.vgpr<u64>(), pc = J.vgpr<u64>();
      pa = a + byte;
      pb = b + byte;
      pc = c + byte;
      auto x = J.vgpr<f32>(), z = J.vgpr<f32>();
      J.global_load_dword(x, pa, off);
      J.global_load_dword(z, pb, off);
      J.s_waitcnt(vmcnt(0));
      x = x + z * alpha;
      J.global_store_dword(pc, x, off);
    });
  });
}

}  // namespace examples
