// Kernels of partial_defs.hip, shared with test_partial_defs_sim.cpp (host register usage):
// defs that keep part of the destination's old value (DPP row/bank masks and bound_ctrl,
// SDWA UNUSED_PRESERVE, accumulating v_dot4c, v_fma_mixlo keeping the high half, d16_hi
// loads), and temporaries of loops under a partial EXEC (their allocation against the same
// loop run uniformly) next to values that lanes carry across iterations they skip.
#pragma once
#include "hipasm/kernel.hpp"

namespace hipasm::test::partial {
using namespace hipasm;

// Byte offset of this lane's element: (workgroup * 64 + lane) * 4.
constexpr gpr<u32> element_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  return o;
}

// The reproducer: t = 7.0f, then t = x + x with DPP row_shr:1 row_mask:0x1: rows 1..3
// and lane 0 (no source, bound_ctrl off) keep 7.0.
constexpr void dpp_row_mask_fn(builder J, arg<float*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto x = J.vgpr<f32>().named("x");
  J.v_cvt_f32_u32(x, lane);
  auto t = J.vgpr<f32>().named("t");
  t = 7.0f;
  J.v_add_f32(t, x, x, {.dpp = {.ctrl = 0x111, .row_mask = 0x1}});
  J.global_store_dword(element_offset(J), t, out);
}

// Banks 0 and 2 written (lanes 0-3, 8-11 of each row), from the lane above (row_shl:1,
// bound_ctrl on: the last lane of a row reads 0); the other lanes keep 5.
constexpr void dpp_bank_mask_fn(builder J, arg<unsigned*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x() + 100u;
  auto t = J.vgpr<u32>().named("t");
  t = 5u;
  J.v_mov_b32(t, lane, {.dpp = {.ctrl = 0x101, .bank_mask = 0x5, .bound_ctrl = true}});
  J.global_store_dword(element_offset(J), t, out);
}

// Full masks, bound_ctrl off, row_shr:2: the first two lanes of each row have no source and
// keep 9.
constexpr void dpp_no_bound_ctrl_fn(builder J, arg<unsigned*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x() * 3u;
  auto t = J.vgpr<u32>().named("t");
  t = 9u;
  J.v_mov_b32(t, lane, {.dpp = {.ctrl = 0x112}});
  J.global_store_dword(element_offset(J), t, out);
}

// quad_perm:[1,0,3,2] without bound_ctrl under the odd lanes: each odd lane's source (the even
// lane below it) is disabled, so nothing is written and t keeps lane + 1000 (set under the
// same EXEC: a def there that only lost lanes on the way must still not end t's value).
constexpr void dpp_partial_exec_fn(builder J, arg<unsigned*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto r = J.vgpr<u32>().named("r");
  r = 1u;
  J.If((lane & 1u) != 0u, [&] {
    auto t = J.vgpr<u32>().named("t");
    t = lane + 1000u;
    J.v_mov_b32(t, lane, {.dpp = {.ctrl = 0xb1}});
    r = t;
  });
  J.global_store_dword(element_offset(J), r, out);
}

// SDWA dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE into a register holding 0x31234.
constexpr void sdwa_preserve_fn(builder J, arg<unsigned*> out) {
  auto src = J.vgpr<u32>().named("src");
  src = J.thread_id_x() + 0x55u;
  auto t = J.vgpr<u32>().named("t");
  t = 0x31234u;
  J.v_mov_b32(t, src, {.sdwa = {.on = true, .dst_sel = 1, .dst_unused = 2}});
  J.global_store_dword(element_offset(J), t, out);
}

// v_dot4c_i32_i8 accumulates into its destination: acc = 1000 + lane, plus the dot product of
// the bytes of lane * 0x01010101 and 0x01020304 (each byte is lane: 10 * lane).
constexpr void dot4c_fn(builder J, arg<int*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto a = J.vgpr<u32>().named("a");
  a = lane * 0x01010101u;
  auto b = J.vgpr<u32>().named("b");
  b = 0x01020304u;
  auto acc = J.vgpr<u32>().named("acc");
  acc = lane + 1000u;
  J.v_dot4c_i32_i8(acc, a, b);
  J.global_store_dword(element_offset(J), acc, out);
}

// v_fma_mixlo_f16 writes the low half (f32 sources: lane * 2 + 0.5) and keeps the high one.
constexpr void fma_mixlo_fn(builder J, arg<unsigned*> out) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto x = J.vgpr<f32>().named("x");
  J.v_cvt_f32_u32(x, lane);
  auto two = J.vgpr<f32>().named("two");
  two = 2.0f;
  auto half = J.vgpr<f32>().named("half");
  half = 0.5f;
  auto t = J.vgpr<u32>().named("t");
  t = 0xabcd0000u;
  J.v_fma_mixlo_f16(t, x, two, half);
  J.global_store_dword(element_offset(J), t, out);
}

// global_load_short_d16_hi keeps the low half (the table's def_use role).
constexpr void d16_hi_fn(builder J, arg<unsigned*> out, arg<const unsigned short*> in) {
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto a = J.vgpr<u32>().named("a");
  a = lane << 1u;
  auto t = J.vgpr<u32>().named("t");
  t = lane + 0x1230u;
  J.global_load_short_d16_hi(t, a, in);
  J.s_waitcnt(vmcnt(0));
  J.global_store_dword(element_offset(J), t, out);
}

// ---- loops under a partial EXEC

// 90 simple statements, each into a fresh register: acc = (acc * 3 + s + 1) ^ k.
constexpr void ninety_statements(builder J, gpr<u32> acc, gpr<u32> k) {
  for (unsigned s = 0; s < 90; ++s) {
    auto t = J.vgpr<u32>().named("t");
    t = acc * 3u + (s + 1u);
    acc = t ^ k;
  }
}

// The same loop run uniformly (SGPR counter, full EXEC): n iterations for every lane.
constexpr void loop_uniform_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  (void)in;
  auto acc = J.vgpr<u32>().named("acc");
  acc = J.thread_id_x();
  auto k = J.vgpr<u32>().named("k");
  k = 0u;
  auto i = J.sgpr<u32>().named("i");
  J.For(i, 0u, n, [&] {
    ninety_statements(J, acc, k);
    k = k + 1u;
  });
  J.global_store_dword(element_offset(J), acc, out);
}

// Per-lane trip counts: while (k < in[lane]).
constexpr void loop_per_lane_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  (void)n;
  auto o = element_offset(J);
  auto v = J.vgpr<u32>().named("v");
  J.global_load_dword(v, o, in);
  J.s_waitcnt(vmcnt(0));
  auto acc = J.vgpr<u32>().named("acc");
  acc = J.thread_id_x();
  auto k = J.vgpr<u32>().named("k");
  k = 0u;
  J.While([&] { return k < v; }, [&] {
    ninety_statements(J, acc, k);
    k = k + 1u;
  });
  J.global_store_dword(o, acc, out);
}

// The uniform loop inside a per-lane If (lanes whose in[lane] is odd run it).
constexpr void loop_in_if_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  auto o = element_offset(J);
  auto v = J.vgpr<u32>().named("v");
  J.global_load_dword(v, o, in);
  J.s_waitcnt(vmcnt(0));
  auto acc = J.vgpr<u32>().named("acc");
  acc = J.thread_id_x();
  auto k = J.vgpr<u32>().named("k");
  k = 0u;
  J.If((v & 1u) != 0u, [&] {
    auto i = J.sgpr<u32>().named("i");
    J.For(i, 0u, n, [&] {
      ninety_statements(J, acc, k);
      k = k + 1u;
    });
  });
  J.global_store_dword(o, acc, out);
}

// Values lanes carry across iterations they skip. In a uniform loop, c is read by every lane
// and rewritten under a per-lane If that varies by iteration: a lane reads what it wrote the
// last time it took the branch (or the initial value). Between the read and the If,
// temporaries run under the full EXEC: they must not take c's register, whose lanes that skip
// the If still need it.
//   c = 1000 + lane; sum = 0;
//   for (s = 0; s < n; ++s) { sum += c; u = lane * 5 + s; w = u ^ s; sum += w;
//                             if ((lane + s) % 3 == 0) c = lane * 7 + s; }
constexpr void carried_uniform_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  (void)in;
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto c = J.vgpr<u32>().named("c");
  c = lane + 1000u;
  auto sum = J.vgpr<u32>().named("sum");
  sum = 0u;
  auto i = J.sgpr<u32>().named("i");
  J.For(i, 0u, n, [&] {
    sum = sum + c;
    auto u = J.vgpr<u32>().named("u");
    u = lane * 5u + i;
    auto w = J.vgpr<u32>().named("w");
    w = u ^ i;
    sum = sum + w;
    J.If((lane + i) % 3u == 0u, [&] { c = lane * 7u + i; });
  });
  J.global_store_dword(element_offset(J), sum, out);
}

// The same in a per-lane While whose lanes skip the rewrite with Continue:
//   k = 0; sum = 0; c = lane + 500;
//   while (k < v) { k += 1; sum += c * 2; u = k * 3 + lane; sum += u;
//                   if ((k + lane) % 4 == 1) continue; c = k + lane * 11; }
constexpr void carried_per_lane_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  (void)n;
  auto o = element_offset(J);
  auto v = J.vgpr<u32>().named("v");
  J.global_load_dword(v, o, in);
  J.s_waitcnt(vmcnt(0));
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto k = J.vgpr<u32>().named("k");
  k = 0u;
  auto sum = J.vgpr<u32>().named("sum");
  sum = 0u;
  auto c = J.vgpr<u32>().named("c");
  c = lane + 500u;
  J.While([&] { return k < v; }, [&] {
    k = k + 1u;
    sum = sum + c * 2u;
    auto u = J.vgpr<u32>().named("u");
    u = k * 3u + lane;
    sum = sum + u;
    J.If((k + lane) % 4u == 1u, [&] { J.Continue(); });
    c = k + lane * 11u;
  });
  J.global_store_dword(o, sum, out);
}

// A For whose step reads c: lanes that Continue skip the rewrite of c, are enabled again at
// the step and read the c of an earlier iteration (or the initial one), so a rewrite under
// the lanes still running must not end c's life (the step is reached from it through the
// re-enable of the continued lanes).
//   k = 0; sum = 0; c = lane + 500;
//   for (; k < v; sum += c * 2, k += 1) { u = k * 3 + lane; sum += u;
//                                         if ((k + lane) % 4 == 1) continue; c = k + lane * 11; }
constexpr void carried_step_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  (void)n;
  auto o = element_offset(J);
  auto v = J.vgpr<u32>().named("v");
  J.global_load_dword(v, o, in);
  J.s_waitcnt(vmcnt(0));
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto k = J.vgpr<u32>().named("k");
  k = 0u;
  auto sum = J.vgpr<u32>().named("sum");
  sum = 0u;
  auto c = J.vgpr<u32>().named("c");
  c = lane + 500u;
  J.For([] {}, [&] { return k < v; },
        [&] {
          sum = sum + c * 2u;
          k = k + 1u;
        },
        [&] {
          auto u = J.vgpr<u32>().named("u");
          u = k * 3u + lane;
          sum = sum + u;
          J.If((k + lane) % 4u == 1u, [&] { J.Continue(); });
          c = k + lane * 11u;
        });
  J.global_store_dword(o, sum, out);
}

}  // namespace hipasm::test::partial
