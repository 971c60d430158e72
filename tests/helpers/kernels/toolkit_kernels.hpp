// Kernels of test_toolkit.cpp: loop helpers, register features, EXEC masks, Jump, debug log.
// Each is one wave of 64 lanes unless its comment says otherwise; `in`/`out` are per lane.
#pragma once
#include <utility>

#include <hipasm/hipasm.hpp>

namespace tk {
using namespace hipasm;

constexpr gpr<u32> lane_of(builder J) {
  auto l = J.vgpr<u32>();
  l = J.thread_id_x() & 63u;
  return l;
}
constexpr void store_lane(builder J, arg<int*> out, const gpr<u32>& lane, const gpr<i32>& v, int slot = 0) {
  auto o = J.vgpr<u32>();
  o = lane * 4u + static_cast<unsigned>(slot * 256);
  J.global_store_dword(o, v, out);
}

// acc = acc * 3 + (iteration + lane) for iterations 0..N-1 (order matters), unrolled by F.
template <int N, int F>
constexpr void unroll_ct(builder J, arg<int*> out, arg<int>) {
  auto lane = lane_of(J);
  auto acc = J.vgpr<i32>();
  acc = 0;
  unroll(J, N, F, [&](const gpr<i32>& base, int k) { acc = acc * 3 + (base + k) + lane.as<i32>(); });
  store_lane(J, out, lane, acc);
}
// The same with the trip count n a kernel argument.
template <int F>
constexpr void unroll_rt(builder J, arg<int*> out, arg<int> n) {
  auto lane = lane_of(J);
  auto acc = J.vgpr<i32>();
  acc = 0;
  unroll(J, n, F, [&](const gpr<i32>& base, int k) { acc = acc * 3 + (base + k) + lane.as<i32>(); });
  store_lane(J, out, lane, acc);
}

// software_pipeline over D register buffers (a ring): load(it) reads in[it * 64 + lane] into
// buffer buf; compute(it) does acc = acc * 3 + buffer + it. out[lane] = acc; out[64 + lane] =
// how many computes ran (checks the epilogue ran each iteration once).
template <class Trips>
constexpr void pipeline_body(builder J, arg<int*> out, arg<const int*> in, const Trips& trips, int depth, bool il,
                             bool overrun = false) {
  auto lane = lane_of(J);
  auto vo = J.vgpr<u32>();
  vo = lane * 4u;
  auto p = J.sgpr<u64>();
  p = in;
  auto acc = J.vgpr<i32>(), count = J.vgpr<i32>();
  acc = 0;
  count = 0;
  gpr<i32> bufs[4] = {J.vgpr<i32>(), J.vgpr<i32>(), J.vgpr<i32>(), J.vgpr<i32>()};  // (copies of a handle alias it)
  software_pipeline(
      J, trips, depth,
      [&](const gpr<i32>&, int buf) {
        J.global_load_dword(bufs[buf], vo, p);
        p = p + 256;
      },
      [&](const gpr<i32>& it, int buf) {
        acc = acc * 3 + bufs[buf] + it;
        count = count + 1;
      },
      {.interleave = il, .overrun = overrun});
  store_lane(J, out, lane, acc);
  store_lane(J, out, lane, count, 1);
}
template <int T, int D, bool IL>
constexpr void pipeline_ct(builder J, arg<int*> out, arg<const int*> in, arg<int>) {
  pipeline_body(J, out, in, T, D, IL);
}
// (overrun: the loads run up to D - 1 rows past the count: in[] holds 16 rows, the tests at
// most 10 trips)
template <int D, bool IL = false, bool OVERRUN = false>
constexpr void pipeline_rt(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  pipeline_body(J, out, in, val<i32>(n), D, IL, OVERRUN);
}

// Registers: a pinned array (v40..v43), an aligned one, reshape, rebind / swap_handles in a
// C++ loop, two LDS buffers swapped. out slots: 0 pinned sum, 1 reshape element, 2 rotated
// value, 3 LDS ping-pong result, 4 aligned sum.
constexpr void regs_kernel(builder J, arg<int*> out, arg<const int*> in) {
  auto lane = lane_of(J);
  auto vo = J.vgpr<u32>();
  vo = lane * 4u;
  auto x = J.vgpr<i32>();
  J.global_load_dword(x, vo, in);
  J.s_waitcnt(vmcnt(0));
  auto pinned = J.vgpr<i32>(4).named("pinned").pin(40);
  for (int i = 0; i < 4; ++i) pinned[i] = x * (i + 1);
  auto s = J.vgpr<i32>();
  s = pinned[0] + pinned[1] + pinned[2] + pinned[3];  // 10 x
  store_lane(J, out, lane, s, 0);
  auto grid = J.vgpr<i32>(16);
  for (int i = 0; i < 16; ++i) grid[i] = x + i * 100;
  auto g2 = grid.reshape(4, 4);
  auto e = J.vgpr<i32>();
  e = g2[2][3];  // element 11: x + 1100
  store_lane(J, out, lane, e, 1);
  // rotation: a = x, b = 0; four times b = a * 2 + k, then swap what a and b name.
  auto a = J.vgpr<i32>(), b = J.vgpr<i32>();
  a = x;
  for (int k = 0; k < 4; ++k) {
    b = a * 2 + k;
    swap_handles(a, b);
  }
  store_lane(J, out, lane, a, 2);  // ((((x*2)*2+1)*2+2)*2+3)
  // LDS ping-pong: buffer 0 = x; three times: next = previous + 7 through LDS, swap the two
  // allocations (values: the swap moves nothing).
  decltype(J.lds<int>(64)) lds[2] = {J.lds<int>(64), J.lds<int>(64)};
  auto la = J.vgpr<u32>();
  la = lane * 4u + lds[0].offset;
  J.ds_write_b32(la, x);
  for (int k = 0; k < 3; ++k) {
    auto v = J.vgpr<i32>();
    auto src = J.vgpr<u32>(), dst = J.vgpr<u32>();
    src = lane * 4u + lds[0].offset;
    dst = lane * 4u + lds[1].offset;
    J.s_waitcnt(lgkmcnt(0));
    J.ds_read_b32(v, src);
    J.s_waitcnt(lgkmcnt(0));
    v = v + 7;
    J.ds_write_b32(dst, v);
    std::swap(lds[0], lds[1]);
  }
  auto r = J.vgpr<i32>();
  auto ra = J.vgpr<u32>();
  ra = lane * 4u + lds[0].offset;
  J.s_waitcnt(lgkmcnt(0));
  J.ds_read_b32(r, ra);
  J.s_waitcnt(lgkmcnt(0));
  store_lane(J, out, lane, r, 3);  // x + 21
  auto al = J.vgpr<i32>(6).named("aligned6").aligned(4);
  for (int i = 0; i < 6; ++i) al[i] = x + i;
  auto t = J.vgpr<i32>();
  t = al[0] + al[5];
  store_lane(J, out, lane, t, 4);  // 2x + 5
}

// Two pinned values live at once in overlapping registers: an error at the second pin.
constexpr int kPinConflictLine = __LINE__ + 5;
constexpr void pin_conflict(builder J, arg<int*> out) {
  auto lane = lane_of(J);
  auto a = J.vgpr<i32>(2).pin(10);
  a[0] = lane.as<i32>();
  auto b = J.vgpr<i32>().pin(11);
  a[1] = a[0] + 1;
  b = a[0] + a[1];
  auto s = J.vgpr<i32>();
  s = a[1] + b;
  store_lane(J, out, lane, s);
}
// A pinned 2-dword SGPR value used as a pair at an odd register.
constexpr int kPinAlignLine = __LINE__ + 2;
constexpr void pin_misaligned(builder J, arg<int*> out, arg<const int*> in) {
  auto p = J.sgpr<u64>().pin(5);
  p = in;
  auto v = J.vgpr<i32>();
  auto z = J.vgpr<u32>();
  z = 0u;
  J.global_load_dword(v, z, p);
  J.s_waitcnt(vmcnt(0));
  store_lane(J, out, lane_of(J), v);
}
// Pinned registers whose values do not overlap in time may share a register.
constexpr void pin_reuse(builder J, arg<int*> out) {
  auto lane = lane_of(J);
  auto a = J.vgpr<i32>().pin(20);
  a = lane.as<i32>() * 5;
  auto s = J.vgpr<i32>();
  s = a + 1;
  auto b = J.vgpr<i32>().pin(20);
  b = s * 2;
  store_lane(J, out, lane, b);  // (5 lane + 1) * 2
}

// EXEC masks: m = lanes with x < 10; with_exec_mask(m): y += 100 there; a saved EXEC
// restored after narrowing it by hand; lane_mask of a uniform condition. out slots: 0 y,
// 1 lanes counted under the restored EXEC, 2 z (uniform mask: every lane when n > 3).
constexpr void exec_kernel(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  auto lane = lane_of(J);
  auto vo = J.vgpr<u32>();
  vo = lane * 4u;
  auto x = J.vgpr<i32>();
  J.global_load_dword(x, vo, in);
  J.s_waitcnt(vmcnt(0));
  auto y = J.vgpr<i32>();
  y = x;
  auto m = lane_mask(J, x < 10);
  with_exec_mask(J, m, [&] { y = y + 100; });
  store_lane(J, out, lane, y, 0);
  auto saved = exec_mask(J);
  auto odd = lane_mask(J, (lane & 1u) == 1u);
  set_exec(J, odd);
  auto c = J.vgpr<i32>();
  c = 7;  // only the odd lanes
  set_exec(J, saved);
  auto c2 = J.vgpr<i32>();
  c2 = 0;
  with_exec_mask(J, odd, [&] { c2 = c; });
  store_lane(J, out, lane, c2, 1);  // 7 on odd lanes, 0 on even
  auto um = lane_mask(J, n > 3);
  auto z = J.vgpr<i32>();
  z = 1;
  with_exec_mask(J, um, [&] { z = 2; });
  store_lane(J, out, lane, z, 2);
}

// with_exec_mask around Break and Return. Per lane (x = in[lane], m = x < 10):
//   cnt = 0, cnt2 = 0
//   for k in 0..3: { if (m) { if (x * k > 20) break; cnt += 1; } cnt2 += 1; }
//   if (m && x < 0) return;   (the lane stores nothing)
//   out[lane] = cnt * 100 + cnt2
constexpr void exec_flow_kernel(builder J, arg<int*> out, arg<const int*> in, arg<int>) {
  auto lane = lane_of(J);
  auto vo = J.vgpr<u32>();
  vo = lane * 4u;
  auto x = J.vgpr<i32>();
  J.global_load_dword(x, vo, in);
  J.s_waitcnt(vmcnt(0));
  auto m = lane_mask(J, x < 10);
  auto cnt = J.vgpr<i32>(), cnt2 = J.vgpr<i32>();
  cnt = 0;
  cnt2 = 0;
  auto k = J.sgpr<i32>();
  J.For(k, 0, 4, [&] {
    with_exec_mask(J, m, [&] {
      J.If(x * k > 20, [&] { J.Break(); });
      cnt = cnt + 1;
    });
    cnt2 = cnt2 + 1;
  });
  with_exec_mask(J, m, [&] { J.If(x < 0, [&] { J.Return(); }); });
  auto r = J.vgpr<i32>();
  r = cnt * 100 + cnt2;
  store_lane(J, out, lane, r);
}

// Jump(label, cond) and Jump(label, branch_if): a hand-written counted loop and a branch
// over code when EXEC is empty. out: slot 0 = sum_{i < n} i (+ 1000 if the execz branch was
// not taken, which it must be).
constexpr void jump_kernel(builder J, arg<int*> out, arg<int> n) {
  auto lane = lane_of(J);
  auto i = J.sgpr<i32>(), s = J.sgpr<i32>();
  i = 0;
  s = 0;
  auto done = J.make_label("done");
  auto head = J.Label("head");
  J.Jump(done, i >= n);
  s = s + i;
  i = i + 1;
  J.Jump(head);
  J.place(done);
  auto r = J.vgpr<i32>();
  r = s;
  auto saved = exec_mask(J);
  auto none = lane_mask(J, lane > 100u);
  set_exec(J, none);
  auto skip = J.make_label("skip");
  J.Jump(skip, branch_if::execz);
  J.s_add_i32(s, s, 1000);  // (scalar: would run with EXEC empty if not skipped)
  J.place(skip);
  set_exec(J, saved);
  auto r2 = J.vgpr<i32>();
  r2 = s;
  store_lane(J, out, lane, r2, 0);
  store_lane(J, out, lane, r, 1);
}

// The debug log in 3-D workgroups: every lane logs its work-item id x | y << 8 | z << 16
// (tag 7); the records carry the workgroup's 3-D id and the wave and lane in the group.
constexpr void debug_3d_kernel(builder J, arg<uint32_t*> dbg_buf) {
  auto dbg = make_debug_log(J, dbg_buf);
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() | (J.thread_id_y() << 8u) | (J.thread_id_z() << 16u);
  dbg(7, v);
}

// The debug log: every lane logs x (f32) under tag 1, the lanes with x >= 0 log lane * 2 (i32)
// under tag 2, an SGPR (n) once under tag 3.
constexpr int kDebugLine = __LINE__ + 9;
constexpr void debug_kernel(builder J, arg<float*> out, arg<const float*> in, arg<uint32_t*> dbg_buf, arg<int> n) {
  auto dbg = make_debug_log(J, dbg_buf);
  auto lane = lane_of(J);
  auto vo = J.vgpr<u32>();
  vo = (J.workgroup_id_x() * 64u + lane) * 4u;
  auto x = J.vgpr<f32>();
  J.global_load_dword(x, vo, in);
  J.s_waitcnt(vmcnt(0));
  dbg(1, x);
  J.If(x >= 0.0f, [&] {
    auto t = J.vgpr<i32>();
    t = lane.as<i32>() * 2;
    dbg(2, t);
  });
  dbg(3, n);
  auto y = J.vgpr<f32>();
  y = x + 1.0f;
  J.global_store_dword(vo, y, out);
}

}  // namespace tk

// The instantiations test_toolkit.cpp runs (also built on the host by the test).
#define TK_UNROLL_CT(N, F) \
  constexpr void tk_unroll_ct_##N##_##F(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<int> n) { tk::unroll_ct<N, F>(J, o, n); }
TK_UNROLL_CT(0, 4)
TK_UNROLL_CT(3, 4)
TK_UNROLL_CT(4, 4)
TK_UNROLL_CT(10, 4)
TK_UNROLL_CT(9, 3)
TK_UNROLL_CT(7, 1)
constexpr void tk_unroll_rt_4(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<int> n) { tk::unroll_rt<4>(J, o, n); }
constexpr void tk_unroll_rt_3(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<int> n) { tk::unroll_rt<3>(J, o, n); }
#define TK_PIPE_CT(T, D, IL) \
  constexpr void tk_pipe_ct_##T##_##D##_##IL(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_ct<T, D, IL>(J, o, i, n); }
TK_PIPE_CT(0, 2, 0)
TK_PIPE_CT(1, 3, 0)
TK_PIPE_CT(2, 2, 0)
TK_PIPE_CT(5, 2, 0)
TK_PIPE_CT(8, 3, 0)
TK_PIPE_CT(9, 3, 1)
TK_PIPE_CT(7, 4, 1)
constexpr void tk_pipe_rt_2(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_rt<2>(J, o, i, n); }
constexpr void tk_pipe_rt_3(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_rt<3>(J, o, i, n); }
constexpr void tk_pipe_rt_2_over(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_rt<2, false, true>(J, o, i, n); }
constexpr void tk_pipe_rt_3_over(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_rt<3, false, true>(J, o, i, n); }
constexpr void tk_pipe_rt_4_il_over(hipasm::builder J, hipasm::arg<int*> o, hipasm::arg<const int*> i, hipasm::arg<int> n) { tk::pipeline_rt<4, true, true>(J, o, i, n); }
