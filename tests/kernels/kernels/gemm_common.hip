// Kernel of test_gemm_common.cpp: workgroup w computes gemm_udiv_small(n0 + w, d) and the C tile
// of linear id w in a gx x gy grid by gemm_tile_order_of, with the small divisions and with the
// exact 32-bit ones; out[5 w ...] = q, tx, ty (small), tx, ty (exact).
#include <hipasm/kernels/gemm_common.hpp>

using namespace hipasm;

namespace gc {

constexpr void k(builder J, arg<unsigned*> out, arg<unsigned> n0, arg<unsigned> d, arg<unsigned> gx, arg<unsigned> gy) {
  auto w = J.sgpr<u32>(), n = J.sgpr<u32>(), dd = J.sgpr<u32>(), q = J.sgpr<u32>();
  w = J.workgroup_id_x();
  n = n0 + w;
  dd = d;
  kernels::detail::gemm_udiv_small(J, n, dd, q);
  auto tiles = J.sgpr<u32>(), X = J.sgpr<u32>(), Y = J.sgpr<u32>();
  tiles = gx * gy;
  X = gx;
  Y = gy;
  auto tx = J.sgpr<u32>(2), ty = J.sgpr<u32>(2);
  kernels::detail::gemm_tile_order_of(J, w, tiles, X, Y, tx[0], ty[0], 8, 8, true);
  kernels::detail::gemm_tile_order_of(J, w, tiles, X, Y, tx[1], ty[1], 8, 8, false);
  auto v = J.vgpr<u32>(5), o = J.vgpr<u32>();
  v[0] = q + 0u;
  v[1] = tx[0] + 0u;
  v[2] = ty[0] + 0u;
  v[3] = tx[1] + 0u;
  v[4] = ty[1] + 0u;
  o = w * 20u;
  J.If(J.thread_id_x() == 0u, [&] {
    for (int i = 0; i < 5; ++i) {
      modifiers m;
      m.offset = 4 * i;
      J.global_store_dword(o, v[i], out, m);
    }
  });
}

}  // namespace gc

extern "C" __attribute__((global)) void gemm_common_k(unsigned* out, unsigned n0, unsigned d, unsigned gx, unsigned gy) {
  HIPASM_KERNEL_BODY(gc::k, out, n0, d, gx, gy);
}
