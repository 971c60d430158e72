// Break/Continue in every nesting of uniform and per-lane If/Else and loops, with per-lane
// trip counts: run by test_control_flow_lanes_sim.cpp against the same programs written as
// plain C++ loops (the comment above each kernel; `g` is the lane's global id, `v` its input).
#include "cf_lane_io.hpp"

using namespace hipasm;
using cf_io::global_id;
using cf_io::lane_in;
using cf_io::lane_out;

// for (s = 0; s < 4; ++s) { if (g & 1) { acc += 1; continue; } acc += 100; break; }
// (the loop-level Break must not take the lanes parked by the per-lane Continue along)
constexpr void break_after_continue(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto acc = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.For(s, 0, 4, [&] {
    J.If((gid & 1u) != 0u, [&] {
      acc = acc + 1;
      J.Continue();
    });
    acc = acc + 100;
    J.Break();
  });
  lane_out(J, out, gid, acc);
  (void)in;
}
extern "C" __attribute__((global)) void cf_break_after_continue(int* out, const int* in) {
  HIPASM_KERNEL_BODY(break_after_continue, out, in);
}

// t = v & 7; for (k = 0; k < t; ++k) { if ((v >> k) & 1) { acc += 1; continue; } acc += 100 + k; break; }
// (per-lane loop, loop-level Break after a per-lane Continue)
constexpr void lane_loop_break_after_continue(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto t = J.vgpr<i32>();
  t = v & 7;
  auto k = J.vgpr<i32>();
  J.For(k, 0, t, [&] {
    J.If(((v >> k) & 1) != 0, [&] {
      acc = acc + 1;
      J.Continue();
    });
    acc = acc + 100 + k;
    J.Break();
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_lane_loop_break_after_continue(int* out, const int* in) {
  HIPASM_KERNEL_BODY(lane_loop_break_after_continue, out, in);
}

// for (s = 0; s < n; ++s) { if ((v >> s) & 1) { acc += 1; continue; } if (s >= 3) break; acc += 10; }
// (Break under a uniform If after a per-lane Continue; n uniform)
constexpr void uniform_if_break(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.For(s, 0, n, [&] {
    J.If(((v >> s) & 1) != 0, [&] {
      acc = acc + 1;
      J.Continue();
    });
    J.If(s >= 3, [&] { J.Break(); });
    acc = acc + 10;
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_uniform_if_break(int* out, const int* in, int n) {
  HIPASM_KERNEL_BODY(uniform_if_break, out, in, n);
}

// t = (v & 15) + 1;
// for (k = 0; k < t; ++k) {
//   if (k % 3 == 0) { if ((v >> (k & 7)) & 1) continue; else acc += 7; }
//   else { if (acc > (v & 63)) break; else acc += 1; }
//   acc += k;
// }
// (Continue and Break in the then/else branches of nested per-lane Ifs)
constexpr void nested_if_else(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto t = J.vgpr<i32>();
  t = (v & 15) + 1;
  auto k = J.vgpr<i32>();
  J.For(k, 0, t, [&] {
    J.If(k % 3 == 0, [&] {
      J.If(((v >> (k & 7)) & 1) != 0, [&] { J.Continue(); }).Else([&] { acc = acc + 7; });
    }).Else([&] {
      J.If(acc > (v & 63), [&] { J.Break(); }).Else([&] { acc = acc + 1; });
    });
    acc = acc + k;
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_nested_if_else(int* out, const int* in) {
  HIPASM_KERNEL_BODY(nested_if_else, out, in);
}

// for (k = 0; k < (v & 7); ++k) {
//   for (s = 0; s < 5; ++s) {
//     if (((v + s + k) & 3) == 1) { acc += 1; continue; }
//     if (s == 3) break;
//     if (((v >> s) & 1) && k > 2) break;
//     acc += s * 10;
//   }
//   if (((v ^ k) & 5) == 0) continue;
//   acc += 1000;
//   if (acc > 2000 + (v & 1023)) break;
// }
// (a uniform loop inside a per-lane loop; uniform and per-lane Breaks after a per-lane Continue)
constexpr void uniform_in_lane(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto t = J.vgpr<i32>();
  t = v & 7;
  auto k = J.vgpr<i32>();
  auto s = J.sgpr<i32>();
  J.For(k, 0, t, [&] {
    J.For(s, 0, 5, [&] {
      J.If(((v + s + k) & 3) == 1, [&] {
        acc = acc + 1;
        J.Continue();
      });
      J.If(s == 3, [&] { J.Break(); });
      J.If(((v >> s) & 1) != 0, [&] { J.If(k > 2, [&] { J.Break(); }); });
      acc = acc + s * 10;
    });
    J.If(((v ^ k) & 5) == 0, [&] { J.Continue(); });
    acc = acc + 1000;
    J.If(acc > (v & 1023) + 2000, [&] { J.Break(); });
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_uniform_in_lane(int* out, const int* in) {
  HIPASM_KERNEL_BODY(uniform_in_lane, out, in);
}

// for (s = 0; s < 6; ++s) {
//   if ((v >> s) & 1) continue;
//   for (k = 0; k < (v & 7); ++k) { if (k == s) continue; if (k * s > (v & 15)) break; acc += k; }
//   if (acc > 30) break;
//   acc += s;
// }
// (a per-lane loop inside a uniform loop)
constexpr void lane_in_uniform(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto t = J.vgpr<i32>();
  t = v & 7;
  auto k = J.vgpr<i32>();
  auto s = J.sgpr<i32>();
  J.For(s, 0, 6, [&] {
    J.If(((v >> s) & 1) != 0, [&] { J.Continue(); });
    J.For(k, 0, t, [&] {
      J.If(k == s, [&] { J.Continue(); });
      J.If(k * s > (v & 15), [&] { J.Break(); });
      acc = acc + k;
    });
    J.If(acc > 30, [&] { J.Break(); });
    acc = acc + s;
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_lane_in_uniform(int* out, const int* in) {
  HIPASM_KERNEL_BODY(lane_in_uniform, out, in);
}

// a = 0;
// while (a < (v & 7)) {
//   a += 1; b = 0;
//   while (b < ((v >> 3) & 7)) { b += 1; if ((a + b) & 1) continue; if (b > a) break; acc += a * b; }
//   if (a == 2) continue;
//   if (acc > ((v >> 6) & 31)) break;
//   acc += 1;
// }
// (While in While, both per-lane)
constexpr void lane_in_lane(builder J, arg<int*> out, arg<const int*> in) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto a = J.vgpr<i32>().fill(0);
  auto b = J.vgpr<i32>();
  auto ta = J.vgpr<i32>(), tb = J.vgpr<i32>(), lim = J.vgpr<i32>();
  ta = v & 7;
  tb = (v >> 3) & 7;
  lim = (v >> 6) & 31;
  J.While([&] { return a < ta; }, [&] {
    a = a + 1;
    b = 0;
    J.While([&] { return b < tb; }, [&] {
      b = b + 1;
      J.If(((a + b) & 1) != 0, [&] { J.Continue(); });
      J.If(b > a, [&] { J.Break(); });
      acc = acc + a * b;
    });
    J.If(a == 2, [&] { J.Continue(); });
    J.If(acc > lim, [&] { J.Break(); });
    acc = acc + 1;
  });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_lane_in_lane(int* out, const int* in) {
  HIPASM_KERNEL_BODY(lane_in_lane, out, in);
}

// if (v & 1) {
//   for (s = 0; s < n; ++s) {
//     if (((v >> s) & 3) == 2) { acc += 1; continue; }
//     if (s == 5) { acc += 50; break; }
//     if (((v >> 4) & 7) == s) { acc += 500; break; } else { acc += 2; if (acc > 9) continue; }
//     acc += 20;
//   }
//   acc += 3;
// } else { acc = 7; }
// (a uniform loop inside a per-lane If: every kind of exit, the uniform Break with a body)
constexpr void loop_in_lane_if(builder J, arg<int*> out, arg<const int*> in, arg<int> n) {
  auto gid = global_id(J);
  auto v = lane_in(J, in, gid);
  auto acc = J.vgpr<i32>().fill(0);
  auto s = J.sgpr<i32>();
  J.If((v & 1) != 0, [&] {
    J.For(s, 0, n, [&] {
      J.If(((v >> s) & 3) == 2, [&] {
        acc = acc + 1;
        J.Continue();
      });
      J.If(s == 5, [&] {
        acc = acc + 50;
        J.Break();
      });
      J.If(((v >> 4) & 7) == s, [&] {
        acc = acc + 500;
        J.Break();
      }).Else([&] {
        acc = acc + 2;
        J.If(acc > 9, [&] { J.Continue(); });
      });
      acc = acc + 20;
    });
    acc = acc + 3;
  }).Else([&] { acc = 7; });
  lane_out(J, out, gid, acc);
}
extern "C" __attribute__((global)) void cf_loop_in_lane_if(int* out, const int* in, int n) {
  HIPASM_KERNEL_BODY(loop_in_lane_if, out, in, n);
}
