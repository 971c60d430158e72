// Control-flow lowerings run by test_control_flow_sim.cpp: uniform (SCC) and per-lane (EXEC)
// If/Else, While with Break/Continue, For, nesting, the execz skip, Label/Jump.
#include <hipasm/kernel.hpp>

using namespace hipasm;

// pyhip's README kernel: out[0] = sum of the even numbers below n (uniform loop and If).
constexpr void sum_even(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>().named("i");
  auto cnt = J.sgpr<i32>().named("cnt");
  i = 0;
  cnt = 0;
  J.While([&] { return i < n; }, [&] {
    J.If((i & 1) == 0, [&] { cnt = cnt + i; });
    i = i + 1;
  });
  J.s_store_dword(cnt, out, 0, {.glc = true});
  J.s_waitcnt(lgkmcnt(0));
}
extern "C" __attribute__((global)) void cf_sum_even(int* out, int n) { HIPASM_KERNEL_BODY(sum_even, out, n); }
// Two instantiations of one kernel template: the same __func__ and the same builder function
// at the same line, so only clang's number of each asm statement ("%=") keeps their asm
// labels apart (the loop and the If branch); the same labels twice would not assemble.
template <int Copy>
__attribute__((global)) void cf_sum_even_twice(int* out, int n) { HIPASM_KERNEL_BODY(sum_even, out, n); }
template __attribute__((global)) void cf_sum_even_twice<1>(int*, int);
template __attribute__((global)) void cf_sum_even_twice<2>(int*, int);

namespace {
// Per-lane loads and stores: lane value v = in[gid], out[gid] = r.
constexpr gpr<i32> lane_in(builder J, gpr<u64> in, gpr<u32> gid) {
  auto p = J.vgpr<u64>();
  p = in + (gid << 2);
  auto v = J.vgpr<i32>();
  J.global_load_dword(v, p, off);
  J.s_waitcnt(vmcnt(0));
  return v;
}
constexpr void lane_out(builder J, gpr<u64> out, gpr<u32> gid, gpr<i32> r) {
  auto p = J.vgpr<u64>();
  p = out + (gid << 2);
  J.global_store_dword(p, r, off);
}
constexpr gpr<u32> global_id(builder J) {
  auto g = J.vgpr<u32>();
  g = J.workgroup_id_x() * 64 + J.thread_id_x();
  return g;
}
}  // namespace

// Per-lane loop with per-lane Break and Continue under per-lane Ifs:
//   acc = 0; for (k = 0; k < v; ++k) { if (k % 3 == 1) continue; if (acc > 40) break;
//                                      if (k & 1) acc += k; else acc += 2 * k; }
constexpr void lane_loop(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto k = J.vgpr<i32>().fill(0);
  J.While([&] { return k < v; }, [&] {
    auto kk = J.vgpr<i32>();
    kk = k;
    k = k + 1;
    J.If(kk % 3 == 1, [&] { J.Continue(); });
    J.If(acc > 40, [&] { J.Break(); });
    J.If((kk & 1) != 0, [&] { acc = acc + kk; }).Else([&] { acc = acc + kk * 2; });
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_lane_loop(int* out, const int* in) { HIPASM_KERNEL_BODY(lane_loop, out, in); }

// Uniform loop (SGPR counter) with a per-lane Break: lanes leave when their value is reached.
//   r = 0; for (s = 0; s < 20; ++s) { if (s >= v) break; r += s; }
constexpr void uniform_loop_lane_break(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto r = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.For(s, 0, 20, [&] {
    J.If(s >= v, [&] { J.Break(); });
    r = r + s;
  });
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_uniform_loop_lane_break(int* out, const int* in) {
  HIPASM_KERNEL_BODY(uniform_loop_lane_break, out, in);
}

// Nested per-lane If/Else three deep plus a uniform If inside:
//   r = v < 0 ? (v < -100 ? 1 : 2) : (v == 0 ? 3 : (v > 1000 ? 4 : 5)); if (n > 2) r += 10;
constexpr void nested_if(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto r = J.vgpr<i32>().fill(0);
  J.If(v < 0, [&] {
    J.If(v < -100, [&] { r = 1; }, [&] { r = 2; });
  }).Else([&] {
    J.If(v == 0, [&] { r = 3; }).Else([&] {
      J.If(v > 1000, [&] { r = 4; }).Else([&] { r = 5; });
    });
  });
  J.If(n > 2, [&] { r = r + 10; });
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_nested_if(int* out, const int* in, int n) {
  HIPASM_KERNEL_BODY(nested_if, out, in, n);
}

// The execz skip: a per-lane If no lane takes must not run its scalar store.
//   if (v == 12345) out_flag[0] = 7   (scalar store inside)
constexpr void execz_skip(builder J, arg<int*> flag, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  J.If(v == 12345, [&] {
    auto s = J.sgpr<i32>();
    s = 7;
    J.s_store_dword(s, flag, 0);
    J.s_waitcnt(lgkmcnt(0));
  });
}
extern "C" __attribute__((global)) void cf_execz_skip(int* flag, const int* in) { HIPASM_KERNEL_BODY(execz_skip, flag, in); }

// Uniform Ifs on x != 0 / x == 0 right after the SALU instruction that computed x: the branch
// reads that instruction's SCC (no s_cmp). r = sum over i in [0, n) of the weights below.
constexpr void scc_tests(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>(), r = J.sgpr<i32>();
  r = 0;
  J.For(i, 0, n, [&] {
    J.If((i & 6) != 0, [&] { r = r + 1; });
    J.If((i >> 2) == 0, [&] { r = r + 10; });
    J.If((i ^ 5) != 0, [&] { r = r + 100; });
    J.If((i << 30) == 0, [&] { r = r + 1000; });
    J.If(!((i & 2) != 0), [&] { r = r + 10000; });
    auto m = J.sgpr<i32>();
    m = i & 8;
    r = r ^ 0x100000;  // (SCC written again after m's AND: m's test needs its own s_cmp)
    J.If(m != 0, [&] { r = r + 100000; });
  });
  J.s_store_dword(r, out, 0);
  J.s_waitcnt(lgkmcnt(0));
}
extern "C" __attribute__((global)) void cf_scc_tests(int* out, int n) { HIPASM_KERNEL_BODY(scc_tests, out, n); }

// Label/Jump by hand: a countdown loop written with s_cbranch.
//   x = n; r = 0; top: r += x; x -= 1; if (x != 0) goto top;
constexpr void label_jump(builder J, arg<int*> out, arg<int> n) {
  auto x = J.sgpr<i32>(), r = J.sgpr<i32>();
  x = n;
  r = 0;
  auto top = J.Label("top");
  r = r + x;
  x = x - 1;
  J.s_cmp_lg_u32(x, 0);
  J.s_cbranch_scc1(top);
  J.s_store_dword(r, out, 0);
  J.s_waitcnt(lgkmcnt(0));
}
extern "C" __attribute__((global)) void cf_label_jump(int* out, int n) { HIPASM_KERNEL_BODY(label_jump, out, n); }

// For with a negative step and a uniform Continue: r = sum of i in (n, n-3, ...) > 0, skipping
// multiples of 5.
constexpr void for_down(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>(), r = J.sgpr<i32>();
  r = 0;
  J.For(i, n, 0, [&] {
    J.If(i % 5 == 0, [&] { J.Continue(); });
    r = r + i;
  }, -3);
  J.s_store_dword(r, out, 0);
  J.s_waitcnt(lgkmcnt(0));
}
extern "C" __attribute__((global)) void cf_for_down(int* out, int n) { HIPASM_KERNEL_BODY(for_down, out, n); }

// Division by runtime values inside divergent flow: r = (v != 0) ? (1000000 / v) % 97 : -1
constexpr void div_in_branch(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto r = J.vgpr<i32>().fill(-1);
  J.If(v != 0, [&] {
    auto big = J.vgpr<i32>().fill(1000000);
    r = big / v % 97;
  });
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_div_in_branch(int* out, const int* in) { HIPASM_KERNEL_BODY(div_in_branch, out, in); }
