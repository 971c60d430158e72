// A view or a copy of a named expression result is not a temporary: `auto t = x + 5;
// z = VIEW(t);` copies t into z and leaves t written (it used to retarget the add into z and
// leave t's register unwritten). Every view kind, SGPR and VGPR, 32- and 64-bit; the test
// (test_expr_sim.cpp) compares t and z with plain C++.
//
// Per element p (a lane for VGPRs, a workgroup for SGPRs), with x = in[p] (i32), w = in64[p]:
//   out[8p + 0] = t   = x + 5          out[8p + 1] = z   = VIEW(t) * 3
//   out[8p + 2..3] = t64 = w + x       out[8p + 4..5] = z64 = VIEW(t64) + 1
//   out[8p + 6] = r = VIEW(x + 7) (a view of an unnamed result: copied or not, the value)
#include <hipasm/kernel.hpp>

#include "expr_cases.hpp"

namespace expr_views {
using namespace hipasm;

enum view : int { as_, at_, index_, element_, slice_, flat_, copy_, lo_ };

// VIEW(t): the view of kind V; as<U>() reinterprets as U (the other signedness).
template <int V, dtype U, dtype T>
constexpr auto view_of(const gpr<T>& t) {
  if constexpr (V == as_) return t.template as<U>();
  else if constexpr (V == at_) return t.at(0);
  else if constexpr (V == index_) return t[0];
  else if constexpr (V == element_) return t.element(0);
  else if constexpr (V == slice_) return t.slice(0, 1);
  else if constexpr (V == flat_) return t.flat();
  else return gpr<T>(t);  // copy_ (and lo_, for the 32-bit part)
}

template <int V, bool VEC>
constexpr void view_case(builder J, arg<int*> out, arg<const int*> in, arg<const unsigned long long*> in64) {
  constexpr dtype Z = V == as_ ? u32 : i32;
  constexpr dtype Z64 = V == as_ ? i64 : u64;
  if constexpr (VEC) {
    auto p = J.vgpr<u32>();
    p = J.workgroup_id_x() * 64 + J.thread_id_x();
    auto x = expr_cases::load_v<i32>(J, in, p);
    auto a64 = J.vgpr<u64>();
    a64 = in64 + (p << 3);
    auto w = J.vgpr<u64>();
    J.global_load_dwordx2(w, a64, off);
    J.s_waitcnt(vmcnt(0));
    auto t = x + 5;
    auto z = J.vgpr<Z>();
    z = view_of<V, Z>(t);
    z = z * 3;
    auto o = J.vgpr<u64>();
    o = out + (p << 5);
    auto t64 = w + x;
    if constexpr (V == lo_) {
      auto z32 = J.vgpr<u32>();
      z32 = t64.lo();
      z32 = z32 + 1;
      J.global_store_dword(o, z32, off, {.offset = 16});
    } else {
      auto z64 = J.vgpr<Z64>();
      z64 = view_of<V, Z64>(t64);
      z64 = z64 + 1;
      J.global_store_dwordx2(o, z64, off, {.offset = 16});
    }
    auto r = J.vgpr<i32>();
    r = view_of<V, i32>(x + 7);
    J.global_store_dword(o, t, off);
    J.global_store_dword(o, z, off, {.offset = 4});
    J.global_store_dwordx2(o, t64, off, {.offset = 8});
    J.global_store_dword(o, r, off, {.offset = 24});
  } else {
    auto g = J.workgroup_id_x();
    auto x = expr_cases::load_s<i32>(J, in, g);
    auto a64 = J.sgpr<u64>();
    a64 = in64 + (g << 3);
    auto w = J.sgpr<u64>();
    J.s_load_dwordx2(w, a64, 0);
    J.s_waitcnt(lgkmcnt(0));
    auto t = x + 5;
    auto z = J.sgpr<Z>();
    z = view_of<V, Z>(t);
    z = z * 3;
    auto o = J.sgpr<u64>();
    o = out + (g << 5);
    auto t64 = w + x;
    if constexpr (V == lo_) {
      auto z32 = J.sgpr<u32>();
      z32 = t64.lo();
      z32 = z32 + 1;
      J.s_store_dword(z32, o, 16);
    } else {
      auto z64 = J.sgpr<Z64>();
      z64 = view_of<V, Z64>(t64);
      z64 = z64 + 1;
      J.s_store_dwordx2(z64, o, 16);
    }
    auto r = J.sgpr<i32>();
    r = view_of<V, i32>(x + 7);
    J.s_store_dword(t, o, 0);
    J.s_store_dword(z, o, 4);
    J.s_store_dwordx2(t64, o, 8);
    J.s_store_dword(r, o, 24);
    J.s_waitcnt(lgkmcnt(0));
  }
}

}  // namespace expr_views

#define KV(NAME, V)                                                                                     \
  extern "C" __attribute__((global)) void view_##NAME##_v(int* out, const int* in,                      \
                                                          const unsigned long long* in64) {             \
    HIPASM_KERNEL_BODY((expr_views::view_case<expr_views::V, true>), out, in, in64);                   \
  }                                                                                                     \
  extern "C" __attribute__((global)) void view_##NAME##_s(int* out, const int* in,                      \
                                                          const unsigned long long* in64) {             \
    HIPASM_KERNEL_BODY((expr_views::view_case<expr_views::V, false>), out, in, in64);                  \
  }
KV(as, as_)
KV(at, at_)
KV(index, index_)
KV(element, element_)
KV(slice, slice_)
KV(flat, flat_)
KV(copy, copy_)
KV(lo, lo_)
