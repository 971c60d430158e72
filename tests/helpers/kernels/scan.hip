// Kernels of test_scan_sim.cpp: wave_scan / workgroup_scan (helpers/scan.hpp) under the EXEC of
// act[i] != 0 (set without a branch: a wave with no active lane still runs the scan).
// in: 2 x n values (element k of lane i at in[k * n + i]); out: inclusive [n][2], exclusive
// [n][2] (active lanes only), then per wave (wave_k) or workgroup (wg_k) the inclusive and the
// exclusive scan's totals, two each.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace scan_k {

struct lane_io {
  gpr<u32> g, o;
};

template <dtype T, reduce OP>
constexpr void wave_k(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<const uint32_t*> act, arg<unsigned> n) {
  auto nb = J.sgpr<u32>();
  nb = n << 2u;
  auto In = make_buffer(J, in, 0xffffffffu), Act = make_buffer(J, act, nb), Out = make_buffer(J, out, 0xffffffffu);
  auto g = J.vgpr<u32>(), o = J.vgpr<u32>();
  g = J.workgroup_id_x() * 256u + J.thread_id_x();
  o = g << 2u;
  auto x = J.vgpr<u32>(2).aligned(2), a = J.vgpr<u32>();
  In.load(x[0], at(o));
  In.load(x[1], at(o) + at(nb));
  Act.load(a, at(o));
  J.s_waitcnt(vmcnt(0));
  auto saved = exec_mask(J);
  set_exec(J, lane_mask(J, a != 0u));
  auto s = wave_scan(J, OP, x.as<T>());
  auto e = wave_scan(J, OP, x.as<T>(), {.exclusive = true});
  auto o2 = J.vgpr<u32>();
  o2 = g << 3u;
  Out.store(s.value.template as<u32>(), at(o2));
  Out.store(e.value.template as<u32>(), at(o2) + at(gpr<u32>(nb << 1u)));
  set_exec(J, saved);
  J.If((J.thread_id_x() & 63u) == 0u, [&] {
    auto t = J.vgpr<u32>(4).aligned(4);
    for (int k = 0; k < 2; ++k) {
      t[k] = s.total[k].template as<u32>();
      t[2 + k] = e.total[k].template as<u32>();
    }
    auto to = J.vgpr<u32>();
    to = (g >> 6u) << 4u;
    Out.store(t, at(to) + at(gpr<u32>(nb << 2u)));
  });
}

template <dtype T, reduce OP, int W>
constexpr void wg_k(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<const uint32_t*> act, arg<unsigned> n) {
  auto nb = J.sgpr<u32>();
  nb = n << 2u;
  auto In = make_buffer(J, in, 0xffffffffu), Act = make_buffer(J, act, nb), Out = make_buffer(J, out, 0xffffffffu);
  auto scratch = J.lds<uint32_t>(W, 16);
  auto g = J.vgpr<u32>(), o = J.vgpr<u32>();
  g = J.workgroup_id_x() * (64u * W) + J.thread_id_x();
  o = g << 2u;
  auto x = J.vgpr<u32>(), a = J.vgpr<u32>();
  In.load(x, at(o));
  Act.load(a, at(o));
  J.s_waitcnt(vmcnt(0));
  auto saved = exec_mask(J);
  set_exec(J, lane_mask(J, a != 0u));
  auto s = workgroup_scan(J, OP, x.as<T>(), scratch, W);
  auto e = workgroup_scan(J, OP, x.as<T>(), scratch, W, {.exclusive = true, .barrier_before = true});
  auto o2 = J.vgpr<u32>();
  o2 = g << 3u;
  Out.store(s.value.template as<u32>(), at(o2));
  Out.store(e.value.template as<u32>(), at(o2) + at(gpr<u32>(nb << 1u)));
  set_exec(J, saved);
  J.If(J.thread_id_x() == 0u, [&] {
    auto t = J.vgpr<u32>(2).aligned(2);
    t[0] = s.total.template as<u32>();
    t[1] = e.total.template as<u32>();
    auto to = J.vgpr<u32>();
    to = J.workgroup_id_x() << 3u;
    Out.store(t, at(to) + at(gpr<u32>(nb << 2u)));
  });
}

}  // namespace scan_k

#define WAVE_K(name, T, OP)                                                                           \
  constexpr auto name##_fn = &scan_k::wave_k<T, OP>;                                                  \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, const uint32_t* a, unsigned n) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, a, n);                                                        \
  }
#define WG_K(name, T, OP, W)                                                                          \
  constexpr auto name##_fn = &scan_k::wg_k<T, OP, W>;                                                 \
  extern "C" __global__ void name(uint32_t* o, const uint32_t* i, const uint32_t* a, unsigned n) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, a, n);                                                        \
  }
WAVE_K(wave_f32_sum, dtype::f32, reduce::sum)
WAVE_K(wave_f32_max, dtype::f32, reduce::max)
WAVE_K(wave_f32_min, dtype::f32, reduce::min)
WAVE_K(wave_i32_sum, dtype::i32, reduce::sum)
WAVE_K(wave_i32_max, dtype::i32, reduce::max)
WAVE_K(wave_i32_min, dtype::i32, reduce::min)
WAVE_K(wave_u32_sum, dtype::u32, reduce::sum)
WAVE_K(wave_u32_max, dtype::u32, reduce::max)
WAVE_K(wave_u32_min, dtype::u32, reduce::min)
// every wave count for i32 sums, the other types and ops at a few
WG_K(wg_i32_sum_1, dtype::i32, reduce::sum, 1)
WG_K(wg_i32_sum_2, dtype::i32, reduce::sum, 2)
WG_K(wg_i32_sum_3, dtype::i32, reduce::sum, 3)
WG_K(wg_i32_sum_4, dtype::i32, reduce::sum, 4)
WG_K(wg_i32_sum_5, dtype::i32, reduce::sum, 5)
WG_K(wg_i32_sum_6, dtype::i32, reduce::sum, 6)
WG_K(wg_i32_sum_7, dtype::i32, reduce::sum, 7)
WG_K(wg_i32_sum_8, dtype::i32, reduce::sum, 8)
WG_K(wg_i32_sum_9, dtype::i32, reduce::sum, 9)
WG_K(wg_i32_sum_10, dtype::i32, reduce::sum, 10)
WG_K(wg_i32_sum_11, dtype::i32, reduce::sum, 11)
WG_K(wg_i32_sum_12, dtype::i32, reduce::sum, 12)
WG_K(wg_i32_sum_13, dtype::i32, reduce::sum, 13)
WG_K(wg_i32_sum_14, dtype::i32, reduce::sum, 14)
WG_K(wg_i32_sum_15, dtype::i32, reduce::sum, 15)
WG_K(wg_i32_sum_16, dtype::i32, reduce::sum, 16)
WG_K(wg_f32_sum_3, dtype::f32, reduce::sum, 3)
WG_K(wg_f32_max_5, dtype::f32, reduce::max, 5)
WG_K(wg_f32_min_16, dtype::f32, reduce::min, 16)
WG_K(wg_i32_max_8, dtype::i32, reduce::max, 8)
WG_K(wg_i32_min_2, dtype::i32, reduce::min, 2)
WG_K(wg_u32_sum_4, dtype::u32, reduce::sum, 4)
WG_K(wg_u32_max_15, dtype::u32, reduce::max, 15)
WG_K(wg_u32_min_16, dtype::u32, reduce::min, 16)
