// Kernels of test_toolkit_fixes_sim.cpp: select with constants and unary expressions in either
// position; shuffle_xor_into (into a given register, in place, into an aligned pair); max3/min3
// with unary operands and cvt_i8x4 (toolkit_fixes_fns.hpp).
#include <hipasm/hipasm.hpp>

#include "toolkit_fixes_fns.hpp"

#include <array>

using namespace hipasm;

namespace tf {

constexpr gpr<u32> byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  return o;
}

// out[k * 256 + p], p = 64 g + lane, for the k-th select; x = xs[p], y = ys[p], n uniform.
constexpr void select_expr(builder J, arg<float*> out, arg<const float*> xs, arg<const float*> ys, arg<int> n) {
  auto o = byte_offset(J);
  auto x = J.vgpr<f32>(), y = J.vgpr<f32>();
  J.global_load_dword(x, o, xs);
  J.global_load_dword(y, o, ys);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<f32>(6);
  r[0] = select(x < y, 0.0f, -(x * y));  // constant, unary of an expression
  r[1] = select(x < y, -(x * y), 1.5f);  // unary, constant
  r[2] = select(x > 0.0f, abs(y), x);    // unary, register
  r[3] = select(y > x, -x, -y);          // unary, unary
  r[4] = select(n > 3, 2, -y);           // uniform condition; an integer constant for f32
  auto s = J.sgpr<i32>();
  s = n;
  auto si = J.sgpr<i32>();
  si = select(n < 5, -s, 7);             // all uniform: SALU
  r[5] = x;
  J.If(n < 5, [&] { r[5] = si.as<f32>(); });
  for (int k = 0; k < 6; ++k) J.global_store_dword(o + static_cast<unsigned>(k) * 256u * 4u, r[k], out);
}

// Each mask: out[(m * 3 + j) * 256 + p]: j = 0 into a fresh register, 1 into the second slot of an
// aligned pair, 2 in place.
constexpr uint32_t masks[] = {1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63};
constexpr void shuffle_into(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = J.vgpr<u32>();
  x = J.workgroup_id_x() * 1000u + J.thread_id_x() * 7u + 3u;
  for (int m = 0; m < 11; ++m) {
    auto d = J.vgpr<u32>();
    shuffle_xor_into(J, d, x, masks[m]);
    auto kv = J.vgpr<u32>(2).aligned(2);
    kv[0] = x;
    shuffle_xor_into(J, kv[1], kv[0], masks[m]);
    auto ip = J.vgpr<u32>();
    ip = x + 0u;
    shuffle_xor_into(J, ip, ip, masks[m]);
    J.global_store_dword(o + static_cast<unsigned>(m * 3) * 1024u, d, out);
    J.global_store_dword(o + static_cast<unsigned>(m * 3 + 1) * 1024u, kv[1], out);
    J.global_store_dword(o + static_cast<unsigned>(m * 3 + 2) * 1024u, ip, out);
  }
}

// Buffers assigned into default-constructed ones (an array of them), then one rebound to
// another: out[p] = a[p] * b[p] + c[p], out[256 + p] = c[p] (through B[0] after B[0] = B[2]).
constexpr void buffer_array(builder J, arg<float*> out, arg<const float*> a, arg<const float*> b,
                            arg<const float*> c) {
  std::array<buffer, 3> B{};
  for (int i = 0; i < 3; ++i) B[i] = make_buffer(J, i == 0 ? a : i == 1 ? b : c, 256u * 4u);
  buffer O;
  O = make_buffer(J, out, 512u * 4u);
  auto voff = byte_offset(J);
  auto x = J.vgpr<f32>(3);
  for (int i = 0; i < 3; ++i) B[i].load(x[i], voff);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<f32>();
  r = x[0] * x[1] + x[2];
  O.store(r, voff);
  B[0] = B[2];
  auto y = J.vgpr<f32>();
  B[0].load(y, voff);
  J.s_waitcnt(vmcnt(0));
  O.store(y, voff + 1024);
}

// Two constants of one C++ type take its dtype: out[k * 256 + p] for x = xs[p], n uniform:
// k = 0 select(x < 0, 1u, 2u), 1 select(x < 0, -3, 4) as i32, 2 select(x < 0, 0.5f, 2.5f),
// 3 select(n < 5, 7u, 9u) (uniform).
constexpr void select_constants(builder J, arg<unsigned*> out, arg<const float*> xs, arg<int> n) {
  auto o = byte_offset(J);
  auto x = J.vgpr<f32>();
  J.global_load_dword(x, o, xs);
  J.s_waitcnt(vmcnt(0));
  gpr<u32> a = select(x < 0.0f, 1u, 2u);
  gpr<i32> b = select(x < 0.0f, -3, 4);
  gpr<f32> c = select(x < 0.0f, 0.5f, 2.5f);
  gpr<u32> d = select(n < 5, 7u, 9u);
  auto dv = J.vgpr<u32>();
  dv = d;
  J.global_store_dword(o, a, out);
  J.global_store_dword(o + 1024u, b, out);
  J.global_store_dword(o + 2048u, c, out);
  J.global_store_dword(o + 3072u, dv, out);
}

}  // namespace tf

extern "C" __attribute__((global)) void select_expr(float* out, const float* xs, const float* ys, int n) {
  HIPASM_KERNEL_BODY(tf::select_expr, out, xs, ys, n);
}
extern "C" __attribute__((global)) void shuffle_into(unsigned* out) { HIPASM_KERNEL_BODY(tf::shuffle_into, out); }
extern "C" __attribute__((global)) void buffer_array(float* out, const float* a, const float* b, const float* c) {
  HIPASM_KERNEL_BODY(tf::buffer_array, out, a, b, c);
}
extern "C" __attribute__((global)) void minmax3_mods(float* out, const float* xs, const float* ys, const float* zs) {
  HIPASM_KERNEL_BODY(tf::minmax3_mods, out, xs, ys, zs);
}
extern "C" __attribute__((global)) void cvt_i8(unsigned* out, const float* xs) { HIPASM_KERNEL_BODY(tf::cvt_i8, out, xs); }
extern "C" __attribute__((global)) void select_constants(unsigned* out, const float* xs, int n) {
  HIPASM_KERNEL_BODY(tf::select_constants, out, xs, n);
}
