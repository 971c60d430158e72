// J.Return(): lanes stop for the rest of the kernel, the others go on (out of Ifs and loops,
// through later If/Else and loops), the wave ends when none is left. Run by
// test_control_flow_return_sim.cpp against the same programs as plain C++ per lane (the
// comment above each kernel; `g` is the lane's global id, `v` its input, out[g] starts as a
// sentinel that a lane which returns without storing keeps).
#include "cf_lane_io.hpp"

using namespace hipasm;
using cf_io::global_id;
using cf_io::lane_in;
using cf_io::lane_out;

// if ((g & 63) == 5) return; out = g;
constexpr void ret_one_lane(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  J.If(J.thread_id_x() == 5u, [&] { J.Return(); });
  auto r = J.vgpr<i32>();
  r = gid.as<i32>();
  lane_out(J, out, gid, r);
  (void)in;
}
extern "C" __attribute__((global)) void cf_ret_one_lane(int* out, const int* in) { HIPASM_KERNEL_BODY(ret_one_lane, out, in); }

// if (v < 0) { out = v; return; }
// acc = v & 255;
// if (acc > 100) { if (acc & 1) { out = acc + 1; return; } acc += 1000; } else { acc += 7; }
// out = acc * 2;
constexpr void ret_top(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  J.If(v < 0, [&] {
    lane_out(J, out, gid, v);
    J.Return();
  });
  auto acc = J.vgpr<i32>();
  acc = v & 255;
  J.If(acc > 100, [&] {
    J.If((acc & 1) != 0, [&] {
      auto r = J.vgpr<i32>();
      r = acc + 1;
      lane_out(J, out, gid, r);
      J.Return();
    });
    acc = acc + 1000;
  }).Else([&] { acc = acc + 7; });
  auto r = J.vgpr<i32>();
  r = acc * 2;
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_ret_top(int* out, const int* in) { HIPASM_KERNEL_BODY(ret_top, out, in); }

// for (s = 0; s < 8; ++s) {
//   if ((v & 15) == s) { out = acc + 1000 * s; return; }
//   if ((v >> s) & 1) { acc += 1; continue; }
//   acc += s;
//   if (acc > ((v >> 4) & 15)) break;
// }
// if (g & 1) acc += 100; else acc += 200;
// for (s = 0; s < 3; ++s) acc += 1;
// for (k = 0; k < (v & 3); ++k) acc += 10;
// out = acc;
// (Return, Continue and Break in a uniform loop; If/Else and loops after it)
constexpr void ret_uniform_loop(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.For(s, 0, 8, [&] {
    J.If((v & 15) == s, [&] {
      auto r = J.vgpr<i32>();
      r = acc + s * 1000;
      lane_out(J, out, gid, r);
      J.Return();
    });
    J.If(((v >> s) & 1) != 0, [&] {
      acc = acc + 1;
      J.Continue();
    });
    acc = acc + s;
    J.If(acc > ((v >> 4) & 15), [&] { J.Break(); });
  });
  J.If((gid & 1u) != 0u, [&] { acc = acc + 100; }).Else([&] { acc = acc + 200; });
  J.For(s, 0, 3, [&] { acc = acc + 1; });
  auto k = J.vgpr<i32>(), t = J.vgpr<i32>();
  t = v & 3;
  J.For(k, 0, t, [&] { acc = acc + 10; });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_ret_uniform_loop(int* out, const int* in) {
  HIPASM_KERNEL_BODY(ret_uniform_loop, out, in);
}

// for (a = 0; a < (v & 7); ++a) {
//   for (b = 0; b < ((v >> 3) & 7); ++b) {
//     if (a * b == ((v >> 6) & 15)) { out = 5000 + acc; return; }
//     if ((a + b) & 1) continue;
//     acc += b;
//   }
//   if (acc > 40) break;
// }
// if ((v >> 10) & 1) acc += 1; else acc += 2;
// out = acc;
// (Return two per-lane loops deep)
constexpr void ret_nested_lane(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto a = J.vgpr<i32>(), b = J.vgpr<i32>();
  auto ta = J.vgpr<i32>(), tb = J.vgpr<i32>(), hit = J.vgpr<i32>();
  ta = v & 7;
  tb = (v >> 3) & 7;
  hit = (v >> 6) & 15;
  J.For(a, 0, ta, [&] {
    J.For(b, 0, tb, [&] {
      J.If(a * b == hit, [&] {
        auto r = J.vgpr<i32>();
        r = acc + 5000;
        lane_out(J, out, gid, r);
        J.Return();
      });
      J.If(((a + b) & 1) != 0, [&] { J.Continue(); });
      acc = acc + b;
    });
    J.If(acc > 40, [&] { J.Break(); });
  });
  J.If(((v >> 10) & 1) != 0, [&] { acc = acc + 1; }).Else([&] { acc = acc + 2; });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_ret_nested_lane(int* out, const int* in) {
  HIPASM_KERNEL_BODY(ret_nested_lane, out, in);
}

// k = 0;
// while (k < (v & 7)) { k += 1; if ((v >> k) & 1) { acc += 1; continue; } out = acc * 10 + k; return; }
// out = acc - 1;
// (Return at a per-lane loop's own level, after a per-lane Continue)
constexpr void ret_loop_level(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto k = J.vgpr<i32>().fill(0);
  auto t = J.vgpr<i32>();
  t = v & 7;
  J.While([&] { return k < t; }, [&] {
    k = k + 1;
    J.If(((v >> k) & 1) != 0, [&] {
      acc = acc + 1;
      J.Continue();
    });
    auto r = J.vgpr<i32>();
    r = acc * 10 + k;
    lane_out(J, out, gid, r);
    J.Return();
  });
  auto r = J.vgpr<i32>();
  r = acc - 1;
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_ret_loop_level(int* out, const int* in) {
  HIPASM_KERNEL_BODY(ret_loop_level, out, in);
}

// if ((v & 3) != 0) {
//   for (s = 0; s < 6; ++s) {
//     if ((v >> s) & 1) { acc += 1; continue; }
//     else { if (s == ((v >> 8) & 7)) { out = 777 + acc; return; } }
//     acc += 10;
//     if (s == 4) break;
//   }
//   for (s = 0; s < 2; ++s) if (g & 2) acc += 3;
//   out = acc * 2 + 1;   (a returned lane coming back at the loop's exit would store this)
// } else { acc = 55; }
// out = acc;
// (Return in an Else inside a uniform loop inside a per-lane If; a uniform Break after it)
constexpr void ret_in_else(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.If((v & 3) != 0, [&] {
    J.For(s, 0, 6, [&] {
      J.If(((v >> s) & 1) != 0, [&] {
        acc = acc + 1;
        J.Continue();
      }).Else([&] {
        J.If(((v >> 8) & 7) == s, [&] {
          auto r = J.vgpr<i32>();
          r = acc + 777;
          lane_out(J, out, gid, r);
          J.Return();
        });
      });
      acc = acc + 10;
      J.If(s == 4, [&] { J.Break(); });
    });
    J.For(s, 0, 2, [&] { J.If((gid & 2u) != 0u, [&] { acc = acc + 3; }); });
    auto r = J.vgpr<i32>();
    r = acc * 2 + 1;
    lane_out(J, out, gid, r);
  }).Else([&] { acc = 55; });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_ret_in_else(int* out, const int* in) { HIPASM_KERNEL_BODY(ret_in_else, out, in); }

// for (s = 0; s < 8; ++s) if ((v & 15) == s) { out = s; return; }
// flag[0] = 1;   (a scalar store: only a wave with lanes left reaches it)
// out = -5;
constexpr void ret_all_loop(builder J, arg<int*> out, arg<const int*> in, arg<int*> flag) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto s = J.sgpr<i32>();
  J.For(s, 0, 8, [&] {
    J.If((v & 15) == s, [&] {
      auto r = J.vgpr<i32>();
      r = s;
      lane_out(J, out, gid, r);
      J.Return();
    });
  });
  auto one = J.sgpr<i32>();
  one = 1;
  J.s_store_dword(one, flag, 0);
  J.s_waitcnt(lgkmcnt(0));
  auto r = J.vgpr<i32>().fill(-5);
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_ret_all_loop(int* out, const int* in, int* flag) {
  HIPASM_KERNEL_BODY(ret_all_loop, out, in, flag);
}

// if (v >= 0) return;  flag[0] = 1;  out = -5;
constexpr void ret_all_if(builder J, arg<int*> out, arg<const int*> in, arg<int*> flag) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  J.If(v >= 0, [&] { J.Return(); });
  auto one = J.sgpr<i32>();
  one = 1;
  J.s_store_dword(one, flag, 0);
  J.s_waitcnt(lgkmcnt(0));
  auto r = J.vgpr<i32>().fill(-5);
  lane_out(J, out, gid, r);
}
extern "C" __attribute__((global)) void cf_ret_all_if(int* out, const int* in, int* flag) {
  HIPASM_KERNEL_BODY(ret_all_if, out, in, flag);
}

// if (n > 3) return;  out = v;   (n uniform: the whole wave ends)
constexpr void ret_uniform(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  J.If(n > 3, [&] { J.Return(); });
  lane_out(J, out, gid, v);
}
extern "C" __attribute__((global)) void cf_ret_uniform(int* out, const int* in, int n) {
  HIPASM_KERNEL_BODY(ret_uniform, out, in, n);
}
