// Kernels of test_sched_sim.cpp: scheduling (kernel_options::schedule, and schedule_virtual
// before allocation) puts independent instructions where s_nops would go; J.sched_barrier()
// stops it. Each kernel
// has a hazard whose gap the instructions written after it can fill.
#pragma once
#include <hipasm/hipasm.hpp>

namespace hipasm::test::sched {

constexpr gpr<u32> lane_byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = J.thread_id_x() << 2u;
  return o;
}

// A DPP read of a VALU result (2 wait states), then independent integer work.
// out[lane] = (lane % 16 ? lane : 0) + ((lane * 5 + 7) ^ 0x55) + lane * lane.
template <bool Fence>
constexpr void dpp_body(builder J, arg<unsigned*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto t = J.vgpr<u32>().named("t");
  t = lane + 1u;
  auto r = J.vgpr<u32>().named("r");
  J.v_mov_b32(r, t, {.dpp = {.ctrl = 0x111, .bound_ctrl = true}});  // row_shr:1: lane-1's t
  if constexpr (Fence) J.sched_barrier();
  auto u = J.vgpr<u32>().named("u");
  u = lane * 5u;
  auto w = J.vgpr<u32>().named("w");
  w = (u + 7u) ^ 0x55u;
  auto q = J.vgpr<u32>().named("q");
  q = lane * lane;
  r = r + w + q;
  J.global_store_dword(lane_byte_offset(J), r, out);
}
// Scheduling before allocation (schedule_virtual), the default (after allocation only), off.
inline constexpr auto fill_dpp_fn = with_options<dpp_body<false>, kernel_options{.schedule_virtual = true}>;
constexpr void fill_dpp_default_fn(builder J, arg<unsigned*> out) { dpp_body<false>(J, out); }
inline constexpr auto fill_dpp_off_fn = with_options<dpp_body<false>, kernel_options{.schedule = false}>;
inline constexpr auto fill_dpp_fenced_fn = with_options<dpp_body<true>, kernel_options{.schedule_virtual = true}>;

// An MFMA result read by a VALU (many wait states), then independent work: the f32 4x4x1
// MFMA with A = 1 and B = 2 in every lane gives 2 in every element whatever the layout.
// out[lane] = 2 + lane, out[64 + lane] = ((lane * 3) | 1) * (lane + 9) - (lane ^ 0x3c).
template <bool Schedule>
constexpr void mfma_body(builder J, arg<float*> out, arg<unsigned*> out2) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto a = J.vgpr<f32>().named("a");
  auto b = J.vgpr<f32>().named("b");
  a = 1.0f;
  b = 2.0f;
  auto acc = J.vgpr<f32>(4).named("acc");
  for (unsigned i = 0; i < 4; ++i) acc[i] = 0.0f;
  J.v_mfma_f32_4x4x1_16b_f32(acc, a, b, acc);
  auto lf = J.vgpr<f32>().named("lf");
  J.v_cvt_f32_u32(lf, lane);
  auto r = J.vgpr<f32>().named("r");
  r = acc[0] + lf;
  auto x = J.vgpr<u32>().named("x");
  x = (lane * 3u) | 1u;
  auto y = J.vgpr<u32>().named("y");
  y = lane + 9u;
  auto z = J.vgpr<u32>().named("z");
  z = x * y;
  auto e = J.vgpr<u32>().named("e");
  e = lane ^ 0x3cu;
  z = z - e;
  auto o = lane_byte_offset(J);
  J.global_store_dword(o, r, out);
  J.global_store_dword(o, z, out2);
}
inline constexpr auto fill_mfma_fn = with_options<mfma_body<true>, kernel_options{.schedule_virtual = true}>;
inline constexpr auto fill_mfma_off_fn = with_options<mfma_body<true>, kernel_options{.schedule = false}>;

}  // namespace hipasm::test::sched
