// Kernel functions of test_toolkit_fixes_sim.cpp shared with its host-side asm checks:
// max3/min3 with -x / abs(x) operands (source modifiers), cvt_i8x4.
#pragma once
#include <hipasm/hipasm.hpp>

namespace tf {
using namespace hipasm;

// out[k * 256 + p] for p = 64 g + lane: the k-th max3/min3 of x = xs[p], y = ys[p], z = zs[p].
constexpr void minmax3_mods(builder J, arg<float*> out, arg<const float*> xs, arg<const float*> ys,
                            arg<const float*> zs) {
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  auto x = J.vgpr<f32>(), y = J.vgpr<f32>(), z = J.vgpr<f32>();
  J.global_load_dword(x, o, xs);
  J.global_load_dword(y, o, ys);
  J.global_load_dword(z, o, zs);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<f32>(5);
  r[0] = max3(abs(x), abs(y), z);     // unary first
  r[1] = max3(z, abs(x), -y);         // register first
  r[2] = min3(-abs(x), y, 1.5f);      // a constant
  r[3] = min3(-x, -y, -z);            // all negated
  r[4] = max3(abs(x), 0.0f, -abs(z)); // an inline constant between
  for (int k = 0; k < 5; ++k) J.global_store_dword(o + static_cast<unsigned>(k) * 256u * 4u, r[k], out);
}

// out[p] = cvt_i8x4(x, -x, x * 0.5, x * 3) for x = xs[p].
constexpr void cvt_i8(builder J, arg<unsigned*> out, arg<const float*> xs) {
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  auto x = J.vgpr<f32>();
  J.global_load_dword(x, o, xs);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<u32>();
  r = cvt_i8x4(x, -x, x * 0.5f, x * 3.0f);
  J.global_store_dword(o, r, out);
}

// lane_mask of a per-lane comparison is the comparison's own mask: one v_cmp, no s_mov_b64
// (before: a copy, which stayed when the vcc-compares step moved the comparison to VCC).
// out[p] = x == x ? x : y (NaN lanes take y); a mask the condition holds is copied (m2).
constexpr void lane_mask_own(builder J, arg<float*> out, arg<const float*> xs, arg<const float*> ys) {
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  auto x = J.vgpr<f32>(), y = J.vgpr<f32>(), r = J.vgpr<f32>();
  J.global_load_dword(x, o, xs);
  J.global_load_dword(y, o, ys);
  J.s_waitcnt(vmcnt(0));
  auto m = lane_mask(J, x == x);
  J.v_cndmask_b32(r, y, x, m);
  J.global_store_dword(o, r, out);
}

}  // namespace tf
