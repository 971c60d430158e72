// Kernels of test_waits.cpp (asm checks) and test_waits_sim.cpp (runs): computed waits
// (J.wait_for, kernel_options::auto_waitcnt), the kernel-argument wait placed late, and
// the scheduling options. Each kernel's comment gives the waits its asm must have, worked
// out by hand from the counter rules (gfx942.md: vmcnt in order; LDS in order on lgkmcnt;
// SMEM out of order, only lgkmcnt(0) retires it).
#pragma once
#include <hipasm/hipasm.hpp>

namespace hipasm::test::waits {

// Byte offset of this lane's element in a row of 64 words.
constexpr gpr<u32> lane_byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = J.thread_id_x() << 2u;
  return o;
}

// Three loads in flight. wait_for(x): two younger vm ops -> vmcnt(2); wait_for(z): the
// youngest -> vmcnt(0) (which retires y too). out[lane] = 3*in[lane] + in[64+lane] + in[128+lane].
constexpr void wf_straight_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = lane_byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  auto y = J.vgpr<u32>().named("y");
  auto z = J.vgpr<u32>().named("z");
  J.global_load_dword(x, o, in);
  J.global_load_dword(y, o, in, {.offset = 256});
  J.global_load_dword(z, o, in, {.offset = 512});
  J.wait_for(x);
  auto r = J.vgpr<u32>().named("r");
  r = x * 3u;
  J.wait_for(z, y);
  r = r + y + z;
  J.global_store_dword(o, r, out);
}

// LDS and SMEM on lgkmcnt: a, b = ds_read (in order), s = s_load (out of order) issued
// after them. wait_for(a): b is one younger LDS op, the SMEM does not count -> lgkmcnt(1);
// wait_for(s) -> lgkmcnt(0). out[lane] = (lane + 1) + 2*lane + in[0].
constexpr void wf_lds_smem_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = lane_byte_offset(J);
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto lds = J.lds<unsigned>(128);
  auto la = J.vgpr<u32>().named("la");
  la = o + lds.offset;
  auto w0 = J.vgpr<u32>().named("w0");
  auto w1 = J.vgpr<u32>().named("w1");
  w0 = lane + 1u;
  w1 = lane * 2u;
  J.ds_write_b32(la, w0);
  J.ds_write_b32(la, w1, {.offset = 256});
  auto a = J.vgpr<u32>().named("a");
  auto b = J.vgpr<u32>().named("b");
  J.ds_read_b32(a, la);
  J.ds_read_b32(b, la, {.offset = 256});
  auto s = J.sgpr<u32>().named("s");
  J.s_load_dword(s, in, 0);
  J.wait_for(a);
  auto r = J.vgpr<u32>().named("r");
  r = a + 0u;
  J.wait_for(s);
  r = r + b + s;
  J.global_store_dword(o, r, out);
}

// A join: x is loaded, then each branch of an SGPR If loads y. At wait_for(x) x has one
// younger vm op on both paths -> vmcnt(1); then wait_for(y) -> vmcnt(0).
// out[lane] = in[lane] + (n > 0 ? in[64 + lane] : in[128 + lane]).
constexpr void wf_join_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  auto o = lane_byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  auto y = J.vgpr<u32>().named("y");
  J.global_load_dword(x, o, in);
  J.If(n > 0u, [&] { J.global_load_dword(y, o, in, {.offset = 256}); })
      .Else([&] { J.global_load_dword(y, o, in, {.offset = 512}); });
  J.wait_for(x);
  auto r = J.vgpr<u32>().named("r");
  r = x + 0u;
  J.wait_for(y);
  r = r + y;
  J.global_store_dword(o, r, out);
}

// The same join with one path loading nothing: x's youngest age over the paths is 0 ->
// vmcnt(0). out[lane] = in[lane] + (n > 0 ? in[64 + lane] : 5).
constexpr void wf_join_uneven_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  auto o = lane_byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  auto y = J.vgpr<u32>().named("y");
  y = 5u;
  J.global_load_dword(x, o, in);
  J.If(n > 0u, [&] { J.global_load_dword(y, o, in, {.offset = 256}); });
  J.wait_for(x);
  auto r = J.vgpr<u32>().named("r");
  r = x + 0u;
  J.wait_for(y);
  r = r + y;
  J.global_store_dword(o, r, out);
}

// Software pipelining over a loop: two loads in flight. At the loop head x is pending with
// age 0 from the entry and from the back-edge; y's load makes it 1 -> wait_for(x) is
// vmcnt(1), and symmetrically wait_for(y) is vmcnt(1). After the loop x (loaded by the last
// iteration, or before the loop when n is 0) is the youngest -> vmcnt(0).
// out[lane] = sum of in[row * 64 + lane] for rows 0 .. 2n-1, plus in[2n * 64 + lane].
template <bool Explicit>
constexpr void pipelined_body(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  auto o = lane_byte_offset(J);
  auto x = J.vgpr<u32>().named("x");
  auto y = J.vgpr<u32>().named("y");
  auto acc = J.vgpr<u32>().named("acc");
  auto addr = J.vgpr<u32>().named("addr");
  acc = 0u;
  J.global_load_dword(x, o, in);
  auto i = J.sgpr<u32>().named("i");
  J.For(i, 0u, n, [&] {
    addr = o + i * 512u;
    J.global_load_dword(y, addr, in, {.offset = 256});
    if constexpr (Explicit) J.wait_for(x);
    acc = acc + x;
    J.global_load_dword(x, addr, in, {.offset = 512});
    if constexpr (Explicit) J.wait_for(y);
    acc = acc + y;
  });
  if constexpr (Explicit) J.wait_for(x);
  acc = acc + x;
  J.global_store_dword(o, acc, out);
}
constexpr void wf_loop_fn(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  pipelined_body<true>(J, out, in, n);
}
// The same without a single wait in the source: the automatic mode finds the same three.
constexpr void auto_loop_body(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  pipelined_body<false>(J, out, in, n);
}
inline constexpr auto auto_loop_fn = with_options<auto_loop_body, kernel_options{.auto_waitcnt = true}>;

// Automatic waits for LDS, SMEM and a store's data, in a per-lane branch: a and b are ds
// reads, s an s_load; r = a reads a (b is one younger LDS op -> lgkmcnt(1)), then r + b + s
// needs b and s (SMEM -> lgkmcnt(0)). In the lanes below 32 a global load replaces r (it
// overwrites nothing pending: r is ready) and is stored (vmcnt(0) before the store reads it).
// out[lane] = lane < 32 ? in[64 + lane] : (lane + 1) + 2 * lane + in[0].
constexpr void auto_mixed_body(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto o = lane_byte_offset(J);
  auto lane = J.vgpr<u32>().named("lane");
  lane = J.thread_id_x();
  auto lds = J.lds<unsigned>(128);
  auto la = J.vgpr<u32>().named("la");
  la = o + lds.offset;
  auto w0 = J.vgpr<u32>().named("w0");
  auto w1 = J.vgpr<u32>().named("w1");
  w0 = lane + 1u;
  w1 = lane * 2u;
  J.ds_write_b32(la, w0);
  J.ds_write_b32(la, w1, {.offset = 256});
  auto a = J.vgpr<u32>().named("a");
  auto b = J.vgpr<u32>().named("b");
  J.ds_read_b32(a, la);
  J.ds_read_b32(b, la, {.offset = 256});
  auto s = J.sgpr<u32>().named("s");
  J.s_load_dword(s, in, 0);
  auto r = J.vgpr<u32>().named("r");
  r = a + 0u;
  r = r + b + s;
  J.If(lane < 32u, [&] { J.global_load_dword(r, o, in, {.offset = 256}); });
  J.global_store_dword(o, r, out);
}
// (fold off: `r = a + 0u; r = r + b + s` stays three adds, each waiting only for what it reads)
inline constexpr auto auto_mixed_fn =
    with_options<auto_mixed_body, kernel_options{.fold = false, .auto_waitcnt = true}>;

// Kernel arguments: their loads come first and, with scheduling on (the default), their
// wait comes right before the first instruction that reads one (here after the two
// multiplies that only need the thread id). out[lane] = (lane * 7 + 3)^2 + k.
constexpr void karg_late_body(builder J, arg<unsigned*> out, arg<unsigned> k) {
  auto v = J.vgpr<u32>().named("v");
  v = J.thread_id_x() * 7u + 3u;
  auto w = J.vgpr<u32>().named("w");
  w = v * v;
  auto r = J.vgpr<u32>().named("r");
  r = w + k;
  J.global_store_dword(lane_byte_offset(J), r, out);
}
constexpr void karg_late_fn(builder J, arg<unsigned*> out, arg<unsigned> k) { karg_late_body(J, out, k); }
inline constexpr auto karg_early_fn = with_options<karg_late_body, kernel_options{.schedule = false}>;

// Kernel arguments first read inside a loop: the wait stays at the end of the entry (not
// once per iteration). out[lane] = lane + k * n.
constexpr void karg_loop_fn(builder J, arg<unsigned*> out, arg<unsigned> k, arg<unsigned> n) {
  auto acc = J.vgpr<u32>().named("acc");
  acc = J.thread_id_x();
  auto i = J.sgpr<u32>().named("i");
  J.For(i, 0u, n, [&] { acc = acc + k; });
  J.global_store_dword(lane_byte_offset(J), acc, out);
}

// Two SMEM loads into one SGPR: SMEM returns out of order, so the second may not be issued
// while the first is pending (the older result could land last; found by the difftest
// campaign, seed 7019). The automatic mode waits before it: lgkmcnt(0) before the first
// s_load (the kernel arguments), before the second, and before the read.
// out[lane] = in[1].
constexpr void auto_smem_waw_body(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto s = J.sgpr<u32>().named("s");
  J.s_load_dword(s, in, 0);
  J.s_load_dword(s, in, 4);
  auto r = J.vgpr<u32>().named("r");
  r = s + 0u;
  J.global_store_dword(lane_byte_offset(J), r, out);
}
inline constexpr auto auto_smem_waw_fn = with_options<auto_smem_waw_body, kernel_options{.auto_waitcnt = true}>;

}  // namespace hipasm::test::waits
