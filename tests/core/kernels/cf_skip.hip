// Kernels of test_control_flow_skip_sim.cpp: loops whose per-lane Ifs Continue/Break, with
// the rest of the body vector-only (skipped when no lane is left: s_cbranch_execz) or with
// scalar work (must keep running). Each is compiled with kernel_options::skip_idle_code on
// (skip_*) and off (skip_*_off); out[gid] is the host reference's value (test file).
#include "cf_lane_io.hpp"

#include <hipasm/helpers/exec_mask.hpp>

using namespace hipasm;

namespace {

// for i in 0..3: if (v >> i) & 1: continue; acc = acc * 3 + i + v
constexpr void cont_valu(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 1) != 0, [&] { J.Continue(); });
    acc = acc * 3 + i + v;
  });
  cf_io::lane_out(J, out, gid, acc);
}

// The same with a uniform counter after the If: it must count every iteration.
constexpr void cont_scalar(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto cnt = J.sgpr<i32>();
  cnt = 0;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 1) != 0, [&] { J.Continue(); });
    acc = acc * 3 + i + v;
    cnt = cnt + 1;
  });
  auto r = J.vgpr<i32>();
  r = acc + cnt * 1000;
  cf_io::lane_out(J, out, gid, r);
}

// A uniform division after the If: with every lane gone EXEC is empty there, and the
// division's reciprocal estimate (through a VGPR) must still be computed.
constexpr void cont_scalar_div(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto num = J.sgpr<u32>();
  num = 9000u;
  auto cnt = J.sgpr<u32>();
  cnt = 0u;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 1) != 0, [&] { J.Continue(); });
    acc = acc * 3 + i + v;
    auto d = J.sgpr<u32>();
    d = i.as<u32>() * 2u + 3u;
    cnt = cnt + num / d;
  });
  auto r = J.vgpr<i32>();
  r = acc + cnt.as<i32>();
  cf_io::lane_out(J, out, gid, r);
}

// The same with the Continue in with_exec_mask's body.
constexpr void mask_cont_scalar_div(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto num = J.sgpr<u32>();
  num = 9000u;
  auto cnt = J.sgpr<u32>();
  cnt = 0u;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    with_exec_mask(J, lane_mask(J, ((v >> i) & 1) != 0), [&] { J.Continue(); });
    acc = acc * 3 + i + v;
    auto d = J.sgpr<u32>();
    d = i.as<u32>() * 2u + 3u;
    cnt = cnt + num / d;
  });
  auto r = J.vgpr<i32>();
  r = acc + cnt.as<i32>();
  cf_io::lane_out(J, out, gid, r);
}

// Nested: if (v >> i) & 2 { if (v >> i) & 1: continue; acc += 5 }; acc = acc * 3 + i
constexpr void cont_nested(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 2) != 0, [&] {
      J.If(((v >> i) & 1) != 0, [&] { J.Continue(); });
      acc = acc + 5;
    });
    acc = acc * 3 + i;
  });
  cf_io::lane_out(J, out, gid, acc);
}

// for i in 0..3: if (v >> i) & 1: break; acc = acc * 3 + i + v
constexpr void brk_valu(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 1) != 0, [&] { J.Break(); });
    acc = acc * 3 + i + v;
  });
  cf_io::lane_out(J, out, gid, acc);
}

// for i in 0..3: if (v >> i) & 1: continue else acc += 7; acc = acc * 3 + i
constexpr void cont_else(builder J, arg<int*> out, arg<const int*> in) {
  gpr<u32> gid = cf_io::global_id(J);
  gpr<i32> v = cf_io::lane_in(J, in, gid);
  auto acc = J.vgpr<i32>();
  acc = 0;
  auto i = J.sgpr<i32>();
  J.For(i, 0, 4, [&] {
    J.If(((v >> i) & 1) != 0, [&] { J.Continue(); }).Else([&] { acc = acc + 7; });
    acc = acc * 3 + i;
  });
  cf_io::lane_out(J, out, gid, acc);
}

template <auto F>
inline constexpr auto skip_off = with_options<F, kernel_options{.skip_idle_code = false}>;
}  // namespace

#define SKIP_KERNEL(N)                                                                               \
  extern "C" __attribute__((global)) void skip_##N(int* out, const int* in) { HIPASM_KERNEL_BODY(N, out, in); } \
  extern "C" __attribute__((global)) void skip_##N##_off(int* out, const int* in) {                 \
    HIPASM_KERNEL_BODY(skip_off<N>, out, in);                                                             \
  }
SKIP_KERNEL(cont_valu)
SKIP_KERNEL(cont_scalar)
SKIP_KERNEL(cont_scalar_div)
SKIP_KERNEL(mask_cont_scalar_div)
SKIP_KERNEL(cont_nested)
SKIP_KERNEL(brk_valu)
SKIP_KERNEL(cont_else)
