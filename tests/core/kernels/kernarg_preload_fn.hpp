// Kernels of test_kernarg_preload.cpp: kernel arguments preloaded into user SGPRs
// (kernel_options::kernarg_preload), each kernel with preloading on and off, compiled into a
// code object whose translation unit preloads (KERNARG_PRELOAD) and one that does not.
#pragma once
#include <hipasm/hipasm.hpp>

namespace hipasm::test::preload {

// y[i] = a * x[i] + y[i] for i < n, i = workgroup * 64 + lane: a short elementwise kernel
// whose arguments are all preloadable (y, x: s[2:5], a: s6, n: s7).
constexpr void axpy(builder J, arg<float*> y, arg<const float*> x, arg<float> a, arg<unsigned> n) {
  auto i = J.vgpr<u32>().named("i");
  i = J.workgroup_id_x() * 64u + J.thread_id_x();
  J.If(i < n, [&] {
    auto off = J.vgpr<u32>().named("off");
    off = i << 2u;
    auto xv = J.vgpr<f32>().named("xv");
    auto yv = J.vgpr<f32>().named("yv");
    J.global_load_dword(xv, off, x);
    J.global_load_dword(yv, off, y);
    J.s_waitcnt(vmcnt(0));
    yv = a * xv + yv;
    J.global_store_dword(off, yv, y);
  });
}

// Eight pointers and an int: p0..p6 fill the 14 preloadable dwords, p7 and k are loaded.
// The workgroup ids x, y, z follow the preloaded dwords (s16, s17, s18).
// p_j[lane + 64 * g] = 1000 * j + k + gx + 10 * gy + 100 * gz, g = gx + 2 * gy + 4 * gz.
constexpr void wide(builder J, arg<int*> p0, arg<int*> p1, arg<int*> p2, arg<int*> p3, arg<int*> p4, arg<int*> p5,
                    arg<int*> p6, arg<int*> p7, arg<int> k) {
  auto gx = J.workgroup_id_x(), gy = J.workgroup_id_y(), gz = J.workgroup_id_z();
  auto base = J.sgpr<i32>().named("base");
  base = k + gx.as<i32>() + gy.as<i32>() * 10 + gz.as<i32>() * 100;
  auto g = J.sgpr<u32>().named("g");
  g = gx + (gy << 1u) + (gz << 2u);
  auto off = J.vgpr<u32>().named("off");
  off = (J.thread_id_x() + (g << 6u)) << 2u;
  const arg<int*> ps[8] = {p0, p1, p2, p3, p4, p5, p6, p7};
  for (int j = 0; j < 8; ++j) {
    auto v = J.vgpr<i32>().named("v");
    v = base + 1000 * j;
    J.global_store_dword(off, v, ps[j]);
  }
}

// Mixed kinds: a short (preloaded by clang, but sub-dword: loaded), an int (s5), a struct
// (ends the preloading), a float after it (loaded).
// out[lane] = (s & 0xffff) + a + st.u * st.v + int(f) + lane.
struct two_ints {
  int u, v;
};
constexpr void mixed(builder J, arg<int*> out, arg<short> s, arg<int> a, arg<two_ints> st, arg<float> f) {
  auto r = J.sgpr<i32>().named("r");
  r = (s.as<i32>() & 0xffff) + a + st.field<int>(0) * st.field<int>(4);
  auto fi = J.vgpr<i32>().named("fi");
  J.v_cvt_i32_f32(fi, f);
  auto v = J.vgpr<i32>().named("v");
  v = r + fi + J.thread_id_x().as<i32>();
  auto off = J.vgpr<u32>().named("off");
  off = J.thread_id_x() << 2u;
  J.global_store_dword(off, v, out);
}

inline constexpr kernel_options on{.kernarg_preload = arg_preload::fitting};
inline constexpr auto axpy_on = with_options<axpy, on>;
inline constexpr auto wide_on = with_options<wide, on>;
inline constexpr auto mixed_on = with_options<mixed, on>;

}  // namespace hipasm::test::preload
