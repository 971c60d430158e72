// A 3-point stencil on rows of 64 floats, a row per wave, `steps` times in registers:
//   x[i] <- c0 x[i-1] + c1 x[i] + c2 x[i+1]
// (c0 = c2 = k, c1 = 1 - 2k: an explicit step of the 1-D heat equation). The neighbours come
// from the DPP whole-wave shifts on the multiplies themselves (v_mul_f32_dpp: no v_mov, no LDS,
// no wait): periodic rows (a ring: lane 0's left is lane 63) read x through wave_ror:1 (lane i gets
// lane i-1 mod 64) and wave_rol:1 (lane i+1 mod 64); open rows (zero outside) through
// wave_shr:1 and wave_shl:1 with bound_ctrl, where lane 0's left and lane 63's right read 0.
// Four VALU a point a step, no s_nop. `stencil_ring_block` / 64 rows a workgroup; rows past the last are
// neither loaded nor stored (the buffer's range check).
#pragma once
#include <hipasm/builder.hpp>
#include <hipasm/helpers/buffer.hpp>
#include <hipasm/helpers/dpp.hpp>

#include "sizes.hpp"

namespace examples {
using namespace hipasm;

template <bool Periodic>
constexpr void stencil_rows(builder J, arg<float*> out, arg<const float*> in, arg<unsigned> rows, arg<unsigned> steps,
                            arg<float> c0, arg<float> c1, arg<float> c2) {
  // this lane's element: row (workgroup * waves + wave), column lane
  auto elem = J.vgpr<u32>().named("elem");
  elem = J.workgroup_id_x() * stencil_ring_block + J.thread_id_x();
  auto bytes = J.sgpr<u32>().named("bytes");
  bytes = rows << 8u;  // 64 floats a row
  buffer I = make_buffer(J, in, bytes), O = make_buffer(J, out, bytes);
  auto x = J.vgpr<f32>().named("x");
  I.load(x, elem << 2u);
  // DPP's second source must be a VGPR: the outer weights broadcast once
  auto w0 = J.vgpr<f32>().named("w0"), w2 = J.vgpr<f32>().named("w2");
  w0 = c0;
  w2 = c2;
  J.s_waitcnt(vmcnt(0));
  const dpp_ctrl left = Periodic ? dpp::wave_ror(1) : dpp::wave_shr(1).bound_ctrl();
  const dpp_ctrl right = Periodic ? dpp::wave_rol(1) : dpp::wave_shl(1).bound_ctrl();
  auto k = J.sgpr<u32>().named("k");
  J.For(k, 0u, steps, [&] {
    // both neighbours' products first: a DPP read of a VGPR a VALU wrote less than 2 wait
    // states before needs s_nops (gfx942.md), so the chain t += ..., t += ... on one register
    // would take two; here the DPP reads are of x, written by the previous step's last add
    auto l = J.vgpr<f32>().named("l"), r = J.vgpr<f32>().named("r");
    J.v_mul_f32(l, x, w0, left);   // x[i-1] c0
    J.v_mul_f32(r, x, w2, right);  // x[i+1] c2
    J.v_fma_f32(l, c1, x, l);      // + c1 x[i]
    J.v_add_f32(x, l, r);
  });
  O.store(x, elem << 2u);
}

constexpr void stencil_ring(builder J, arg<float*> out, arg<const float*> in, arg<unsigned> rows, arg<unsigned> steps,
                            arg<float> c0, arg<float> c1, arg<float> c2) {
  stencil_rows<true>(J, out, in, rows, steps, c0, c1, c2);
}
constexpr void stencil_open(builder J, arg<float*> out, arg<const float*> in, arg<unsigned> rows, arg<unsigned> steps,
                            arg<float> c0, arg<float> c1, arg<float> c2) {
  stencil_rows<false>(J, out, in, rows, steps, c0, c1, c2);
}

}  // namespace examples
