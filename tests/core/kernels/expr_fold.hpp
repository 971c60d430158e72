// Kernels of test_expr_fold.cpp: the expression lowering's constant folding and fused
// instructions (kernel_options::fold), each one expression over per-lane x = a[p], y = b[p]
// and a wave-uniform s = a[workgroup] (an SGPR), out[p] = the result. The same functions are
// compiled with fold off (the reference lowering, one instruction per operator).
#pragma once
#include <cstdint>

#include <hipasm/kernel.hpp>

namespace expr_fold {
using namespace hipasm;

enum kind : int {
  lshl_add, add3, lshl_or, and_or, add_zero_fresh, mul_zero, two_shifts, identity_chain, shared_shift,
  retarget_identity, salu_identity, shr_zero, zero_shl, i32_lshl_add, literal_add, xor_zero_named,
  add64_shift, add64_signed, add64_pair, add64_masked_shift, mul_pow2_plus1, mul_u24_tid, mul_u24_max,
  mul_u24_over, mul_u24_shr, mad_u24, accumulate, named_zero, count
};

template <int K>
constexpr void fold_kernel(builder J, arg<unsigned*> out, arg<const unsigned*> a, arg<const unsigned*> b) {
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
  auto s = J.sgpr<u32>().named("s"), s2 = J.sgpr<u32>().named("s2");
  J.s_load_dword(s, sa, 0);
  J.s_load_dword(s2, sa, 4);
  J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  auto r = J.vgpr<u32>().named("r");
  if constexpr (K == lshl_add) r = (x << 3) + y;
  else if constexpr (K == add3) r = (x + y) + s;
  else if constexpr (K == lshl_or) r = (x << 5) | y;
  else if constexpr (K == and_or) r = (x & s) | y;
  else if constexpr (K == add_zero_fresh) r = ((x + y) + 0) ^ x;
  else if constexpr (K == mul_zero) r = x * 0 + y;
  else if constexpr (K == two_shifts) r = (x << 2) + (y << 3);
  else if constexpr (K == identity_chain) r = ((((x - y) + 0) * 1) | 0) & 0xffffffffu;
  else if constexpr (K == shared_shift) {
    auto t = x << 2;
    r = (t + y) ^ (t + s);
  } else if constexpr (K == retarget_identity) {
    r = (x + y) + 0;
  } else if constexpr (K == salu_identity) {
    auto t = J.sgpr<u32>();
    t = ((s + s2) + 0) << 0;
    r = (t + x) ^ y;  // (y read like every other kernel's: the same addressing around)
  } else if constexpr (K == shr_zero) r = ((x ^ y) >> 0) + (y >> 0);
  else if constexpr (K == zero_shl) r = (0u << x) + (0u >> y) + y;
  else if constexpr (K == i32_lshl_add) {
    auto xi = x.as<i32>(), yi = y.as<i32>();
    r = ((xi << 31) + yi).as<u32>();
  } else if constexpr (K == literal_add) r = (x + 0x12345u) + y;
  else if constexpr (K == xor_zero_named) {
    auto t = x + y;
    auto u = t + 0;  // t is named: u is a new register, t stays written
    u = u + 1;
    r = t ^ u;
  }
  else if constexpr (K == named_zero) {
    // + 0 / - 0 of named registers: copies, coalesced (not s_add_u32 t, base, 0 / v_subrev_u32 w, 0, x)
    auto base = J.sgpr<u32>().named("base");
    base = s ^ s2;
    auto t = J.sgpr<u32>();
    t = base + 0;
    auto w = J.vgpr<u32>();
    w = x - 0;
    r = (t + w) ^ (y - 0u);
  }
  else if constexpr (K == accumulate) {
    // r = r + y rewrites the register it reads: r + s must not become add3(r, y, s)
    r = x;
    r = r + y;
    r = r + s;
  } else if constexpr (K == mul_pow2_plus1) r = x * 9u + (y * 3u);
  else if constexpr (K == mul_u24_tid) r = J.thread_id_x() * 1000u + y;
  else if constexpr (K == mul_u24_max) r = (y & 0xffffffu) * 0xffffffu;  // both 2^24 - 1: the boundary
  else if constexpr (K == mul_u24_over) r = (y & 0x1ffffffu) * 1000u;    // 2^25 - 1: not u24
  else if constexpr (K == mul_u24_shr) r = (y >> 8) * 0x123456u;           // below 2^24
  else if constexpr (K == mad_u24) r = (y >> 8) * 7u + x;                  // v_mad_u32_u24
  else if constexpr (K >= add64_shift && K <= add64_masked_shift) {
    // w = (y << 32) | x, a 64-bit VGPR; r = the low dword ^ the high dword of w + offset
    auto w = J.vgpr<u64>();
    w.as<u32>()[0] = x;
    w.as<u32>()[1] = y;
    auto z = J.vgpr<u64>();
    if constexpr (K == add64_shift) z = w + (y << 3);  // may drop bits: not the 64-bit shift
    else if constexpr (K == add64_signed) z = w + y.as<i32>();
    else if constexpr (K == add64_pair) z = w + w;
    else z = w + ((y & 0xffffu) << 4);  // fits: the shift moves into v_lshl_add_u64
    r = z.as<u32>()[0] ^ z.as<u32>()[1];
  }
  auto o = J.vgpr<u64>();
  o = out + (p << 2);
  J.global_store_dword(o, r, off);
}

// The C++ reference of each kernel (unsigned wrap-around, as the hardware computes).
constexpr uint32_t reference(int k, uint32_t x, uint32_t y, uint32_t s, uint32_t s2) {
  switch (k) {
    case lshl_add: return (x << 3) + y;
    case add3: return x + y + s;
    case lshl_or: return (x << 5) | y;
    case and_or: return (x & s) | y;
    case add_zero_fresh: return (x + y) ^ x;
    case mul_zero: return y;
    case two_shifts: return (x << 2) + (y << 3);
    case identity_chain: return x - y;
    case shared_shift: return ((x << 2) + y) ^ ((x << 2) + s);
    case retarget_identity: return x + y;
    case salu_identity: return (s + s2 + x) ^ y;
    case shr_zero: return (x ^ y) + y;
    case zero_shl: return y;
    case i32_lshl_add: return (x << 31) + y;
    case literal_add: return x + 0x12345u + y;
    case xor_zero_named: return (x + y) ^ (x + y + 1);
    case accumulate: return x + y + s;
    case named_zero: return ((s ^ s2) + x) ^ y;
    case mul_pow2_plus1: return x * 9u + y * 3u;
    case mul_u24_tid: return 0u;  // (per lane: test_expr_fold.cpp computes it)
    case mul_u24_max: return (y & 0xffffffu) * 0xffffffu;
    case mul_u24_over: return (y & 0x1ffffffu) * 1000u;
    case mul_u24_shr: return (y >> 8) * 0x123456u;
    case mad_u24: return (y >> 8) * 7u + x;
    case add64_shift:
    case add64_signed:
    case add64_pair:
    case add64_masked_shift: {
      const uint64_t w = (uint64_t{y} << 32) | x;
      const uint64_t z = k == add64_shift    ? w + uint64_t{static_cast<uint32_t>(y << 3)}
                         : k == add64_signed ? w + static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(y)))
                         : k == add64_pair   ? w + w
                                             : w + uint64_t{(y & 0xffffu) << 4};
      return static_cast<uint32_t>(z) ^ static_cast<uint32_t>(z >> 32);
    }
  }
  return 0;
}

// (The known-bits step off too: under a mask it also drops `| 0`, `& -1` and such; the reference
// is one instruction per operator.)
template <int K>
inline constexpr auto fold_kernel_off = with_options<fold_kernel<K>, kernel_options{.known_bits = false, .fold = false}>;
// For counting instructions: without the scheduling pass, whose gap filling differs between the
// two lowerings (it moves instructions into the s_nop gaps of the unfused address adds), and
// without the allocator's copy coalescing, which removes some of the copies the unfolded
// lowering leaves (the counts measure the expression lowering).
template <int K>
inline constexpr auto fold_kernel_counted =
    with_options<fold_kernel<K>, kernel_options{.coalesce = false, .schedule = false}>;
template <int K>
inline constexpr auto fold_kernel_off_counted =
    with_options<fold_kernel<K>, kernel_options{.coalesce = false, .known_bits = false, .fold = false, .schedule = false}>;

}  // namespace expr_fold
