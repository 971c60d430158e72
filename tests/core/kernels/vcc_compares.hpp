// Kernels of test_vcc_compares.cpp: per-lane comparisons the vcc-compares step rewrites into
// VCC (e32 form, a literal in src0) and ones it must leave alone (a mask read in another
// block: If/Else; an f32 literal; an SGPR operand). Per lane x = a[p], y = b[p], a uniform
// s = a[workgroup]; out[p] = the result.
#pragma once
#include <cstdint>

#include <hipasm/hipasm.hpp>

namespace vcc_compares {
using namespace hipasm;

enum kind : int { literal_if, literal_right, sgpr_left, select_literal, if_else, f32_literal, chained, count };

template <int K>
constexpr void vcc_kernel(builder J, arg<unsigned*> out, arg<const unsigned*> a, arg<const unsigned*> b) {
  auto p = J.vgpr<u32>();
  p = J.workgroup_id_x() * 64 + J.thread_id_x();
  auto pa = J.vgpr<u64>(), pb = J.vgpr<u64>();
  pa = a + (p << 2);
  pb = b + (p << 2);
  auto x = J.vgpr<u32>().named("x"), y = J.vgpr<u32>().named("y");
  J.global_load_dword(x, pa, off);
  J.global_load_dword(y, pb, off);
  auto sa = J.sgpr<u64>();
  sa = a + (J.workgroup_id_x() << 2);
  auto s = J.sgpr<u32>().named("s");
  J.s_load_dword(s, sa, 0);
  J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  auto r = J.vgpr<u32>().named("r");
  r = y;
  if constexpr (K == literal_if) {
    J.If(x < 100000u, [&] { r = r + 1; });
  } else if constexpr (K == literal_right) {
    J.If(x >= 0x80000000u, [&] { r = r ^ 0x55u; });  // (the literal on the right: swapped)
  } else if constexpr (K == sgpr_left) {
    J.If(s > x, [&] { r = r + x; });
  } else if constexpr (K == select_literal) {
    r = hipasm::select(x == 0x12345678u, y, x);
  } else if constexpr (K == if_else) {
    J.If(x < 1000u, [&] { r = r + 3; }).Else([&] { r = r - 5; });
  } else if constexpr (K == f32_literal) {
    auto f = x.as<f32>();
    J.If(f < 3.7f, [&] { r = r + 9; });
  } else {
    J.If(x > 77777u, [&] {
      J.If(y <= 0x7777777u, [&] { r = r * 3; });
      r = r + 1;
    });
  }
  auto o = J.vgpr<u64>();
  o = out + (p << 2);
  J.global_store_dword(o, r, off);
}

constexpr float as_float(uint32_t v) { return __builtin_bit_cast(float, v); }

// The C++ reference of each kernel.
constexpr uint32_t reference(int k, uint32_t x, uint32_t y, uint32_t s) {
  switch (k) {
    case literal_if: return x < 100000u ? y + 1 : y;
    case literal_right: return x >= 0x80000000u ? y ^ 0x55u : y;
    case sgpr_left: return s > x ? y + x : y;
    case select_literal: return x == 0x12345678u ? y : x;
    case if_else: return x < 1000u ? y + 3 : y - 5;
    case f32_literal: return as_float(x) < 3.7f ? y + 9 : y;
    case chained: return x > 77777u ? (y <= 0x7777777u ? y * 3 : y) + 1 : y;
  }
  return 0;
}

template <int K>
inline constexpr auto vcc_kernel_off = with_options<vcc_kernel<K>, kernel_options{.vcc_compares = false}>;

}  // namespace vcc_compares
