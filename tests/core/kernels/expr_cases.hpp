// Expression lowerings under test (shared by expr_kernels.hip, which compiles them into a
// code object, and test_expr_sim.cpp, which runs them in the simulator against C++).
//
// Every kernel reads pairs (a[p], b[p]) and writes out[p]:
//   vv: a and b in VGPRs, p = workgroup * 64 + lane (per-lane values)
//   ss: a and b in SGPRs, p = workgroup (wave-uniform, SALU)
//   sv / vs: one SGPR and one VGPR operand, p = workgroup
//   vi / si: a in a VGPR / SGPR, b the compile-time constant C
#pragma once
#include <cstdint>

#include <hipasm/builder.hpp>

namespace expr_cases {
using namespace hipasm;

enum op : int { add, sub, mul, div_, rem, shl, shr, band, bor, bxor, min_, max_,
                neg, abs_, bnot, lt, le, gt, ge, eq, ne, nlt, add64, sub64 };
enum mode : int { vv, ss, sv, vs, vi, si };

// Loads the 32-bit element `idx` of p into a new register of the class the mode needs.
template <dtype T>
constexpr gpr<T> load_v(builder J, gpr<u64> p, gpr<u32> idx) {
  auto addr = J.vgpr<u64>();
  addr = p + (idx << 2);
  auto v = J.vgpr<T>();
  J.global_load_dword(v, addr, off);
  return v;
}
template <dtype T>
constexpr gpr<T> load_s(builder J, gpr<u64> p, gpr<u32> idx) {
  auto addr = J.sgpr<u64>();
  addr = p + (idx << 2);
  auto s = J.sgpr<T>();
  J.s_load_dword(s, addr, 0);
  return s;
}

template <int OP, dtype T>
constexpr gpr<T> apply(builder J, gpr<T> x, val<T> y) {
  if constexpr (OP == add) return x + y;
  else if constexpr (OP == sub) return x - y;
  else if constexpr (OP == mul) return x * y;
  else if constexpr (OP == div_) return x / y;
  else if constexpr (OP == rem) return x % y;
  else if constexpr (OP == shl) return x << y;
  else if constexpr (OP == shr) return x >> y;
  else if constexpr (OP == band) return x & y;
  else if constexpr (OP == bor) return x | y;
  else if constexpr (OP == bxor) return x ^ y;
  else if constexpr (OP == min_) return min(x, y);
  else if constexpr (OP == max_) return max(x, y);
  else if constexpr (OP == neg) return (-x).value();
  else if constexpr (OP == abs_) return abs(x).value();
  else if constexpr (OP == bnot) return (~x).value();
  else {
    // comparisons: r = 1 if true, through If (SCC branch or EXEC mask)
    auto r = T != f32 && x.cls == reg_class::sgpr && y.x.op.cls != reg_class::vgpr ? J.sgpr<T>() : J.vgpr<T>();
    r = 0;
    cond c = OP == lt ? (x < y) : OP == le ? (x <= y) : OP == gt ? (x > y) : OP == ge ? (x >= y)
           : OP == eq ? (x == y) : OP == ne ? (x != y) : !(x < y);
    J.If(c, [&] { r = 1; });
    return r;
  }
}

template <int OP, dtype T, int MODE, int64_t C = 0>
constexpr void binop(builder J, arg<int*> out, arg<const int*> a, arg<const int*> b) {
  if constexpr (MODE == vv) {
    auto p = J.vgpr<u32>();
    p = J.workgroup_id_x() * 64 + J.thread_id_x();
    auto x = load_v<T>(J, a, p);
    auto y = load_v<T>(J, b, p);
    J.s_waitcnt(vmcnt(0));
    auto r = apply<OP, T>(J, x, y);
    auto o = J.vgpr<u64>();
    o = out + (p << 2);
    J.global_store_dword(o, r, off);
  } else if constexpr (MODE == vi) {
    auto p = J.vgpr<u32>();
    p = J.workgroup_id_x() * 64 + J.thread_id_x();
    auto x = load_v<T>(J, a, p);
    J.s_waitcnt(vmcnt(0));
    auto r = apply<OP, T>(J, x, val<T>(C));
    auto o = J.vgpr<u64>();
    o = out + (p << 2);
    J.global_store_dword(o, r, off);
  } else {
    auto w = J.workgroup_id_x();
    auto wv = J.vgpr<u32>();
    wv = w;
    // (a lambda: handles are bound by initialisation; assigning a handle would emit a move)
    gpr<T> r = [&] {
      if constexpr (MODE == ss || MODE == si) {
        auto x = load_s<T>(J, a, w);
        J.s_waitcnt(lgkmcnt(0));
        if constexpr (MODE == ss) {
          auto y = load_s<T>(J, b, w);
          J.s_waitcnt(lgkmcnt(0));
          return apply<OP, T>(J, x, y);
        } else {
          return apply<OP, T>(J, x, val<T>(C));
        }
      } else if constexpr (MODE == sv) {
        auto x = load_s<T>(J, a, w);
        auto y = load_v<T>(J, b, wv);
        J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
        return apply<OP, T>(J, x, y);
      } else {
        auto x = load_v<T>(J, a, wv);
        auto y = load_s<T>(J, b, w);
        J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
        return apply<OP, T>(J, x, y);
      }
    }();
    if (r.cls == reg_class::sgpr) {
      auto o = J.sgpr<u64>();
      o = out + (w << 2);
      J.s_store_dword(r, o, 0);
      J.s_waitcnt(lgkmcnt(0));
    } else {
      auto o = J.vgpr<u64>();
      o = out + (wv << 2);
      J.global_store_dword(o, r, off);
    }
  }
}

// 64-bit address arithmetic: out[p] = low dword of ((u64)a64[p] +/- sign- or zero-extended b[p]),
// out[n + p] the high dword, computed in SGPRs (s) or VGPRs (v).
template <bool SUB, bool SIGNED, bool VEC>
constexpr void addr64(builder J, arg<unsigned*> out, arg<const unsigned long long*> a, arg<const int*> b,
                      arg<unsigned> n) {
  auto w = J.workgroup_id_x();
  auto lo = J.sgpr<u32>(), hi = J.sgpr<u32>();
  auto pa = J.sgpr<u64>();
  pa = a + (w << 3);
  auto pb = J.sgpr<u64>();
  pb = b + (w << 2);
  auto x = J.sgpr<u64>();
  J.s_load_dwordx2(x, pa, 0);
  auto y = J.sgpr<i32>();
  J.s_load_dword(y, pb, 0);
  J.s_waitcnt(lgkmcnt(0));
  auto po = J.sgpr<u64>();
  po = out + (w << 2);
  auto ph = J.sgpr<u64>();
  ph = po + (n << 2);
  if constexpr (VEC) {
    auto vx = J.vgpr<u64>();
    vx = x;
    auto r = J.vgpr<u64>();
    if constexpr (SIGNED) r = SUB ? vx - y : vx + y;
    else r = SUB ? vx - y.as<u32>() : vx + y.as<u32>();
    auto z = J.vgpr<u32>().fill(0);
    J.global_store_dword(z, r.lo(), po);
    J.global_store_dword(z, r.hi(), ph);
  } else {
    auto r = J.sgpr<u64>();
    if constexpr (SIGNED) r = SUB ? x - y : x + y;
    else r = SUB ? x - y.as<u32>() : x + y.as<u32>();
    lo = r.lo();
    hi = r.hi();
    J.s_store_dword(lo, po, 0);
    J.s_store_dword(hi, ph, 0);
    J.s_waitcnt(lgkmcnt(0));
  }
}

// f32: out = a op b per lane (vv) or wave-uniform operands (ss: computed on the VALU).
template <int OP, int MODE>
constexpr void fop(builder J, arg<float*> out, arg<const float*> a, arg<const float*> b) {
  auto p = J.vgpr<u32>();
  if constexpr (MODE == vv) p = J.workgroup_id_x() * 64 + J.thread_id_x();
  else p = J.workgroup_id_x();
  auto x = MODE == vv ? load_v<f32>(J, a, p) : load_s<f32>(J, a, J.workgroup_id_x());
  auto y = MODE == vv ? load_v<f32>(J, b, p) : load_s<f32>(J, b, J.workgroup_id_x());
  J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  gpr<f32> r = apply<OP, f32>(J, x, y);
  // (comparisons: r = 1 assigned to an f32 register is 1.0f, else 0.0f)
  auto rv = J.vgpr<f32>();  // -x and abs(x) of an SGPR stay on the SALU (sign-bit ops)
  rv = r;
  auto o = J.vgpr<u64>();
  o = out + (p << 2);
  J.global_store_dword(o, rv, off);
}

}  // namespace expr_cases

// The kernel list: X(name, builder function, kind) with kind the host reference selector.
#define EXPR_INT_OPS(X, T, TN)                                             \
  X(add_##TN, add, T) X(sub_##TN, sub, T) X(mul_##TN, mul, T)              \
  X(div_##TN, div_, T) X(rem_##TN, rem, T) X(shl_##TN, shl, T)             \
  X(shr_##TN, shr, T) X(and_##TN, band, T) X(or_##TN, bor, T)              \
  X(xor_##TN, bxor, T) X(min_##TN, min_, T) X(max_##TN, max_, T)           \
  X(lt_##TN, lt, T) X(le_##TN, le, T) X(gt_##TN, gt, T) X(ge_##TN, ge, T)  \
  X(eq_##TN, eq, T) X(ne_##TN, ne, T) X(nlt_##TN, nlt, T)
#define EXPR_UNARY_OPS(X, T, TN) X(neg_##TN, neg, T) X(abs_##TN, abs_, T) X(not_##TN, bnot, T)
// constant operands: X(name, value); divisors with every magic-number shape
#define EXPR_CONSTS(X)                                                                            \
  X(c1, 1) X(c2, 2) X(c3, 3) X(c5, 5) X(c6, 6) X(c7, 7) X(c10, 10) X(c16, 16) X(c25, 25)        \
  X(c64, 64) X(c100, 100) X(c127, 127) X(c641, 641) X(c1000, 1000) X(c65536, 65536)             \
  X(c65537, 65537) X(c123456789, 123456789) X(cmax, 2147483647) X(cm1, -1) X(cm2, -2)          \
  X(cm3, -3) X(cm7, -7) X(cm16, -16) X(cm100, -100) X(cmmax, -2147483647) X(cmin, -2147483648LL)
// (for u32 the negative values are the large unsigned ones: 0xffffffff, 0x80000000, ...)
