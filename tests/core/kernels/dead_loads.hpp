// Kernels of test_dead_loads.cpp: loads whose results nobody reads, removed by dce when
// nothing else can observe them (passes/dce.hpp, dead_load) and kept otherwise.
#pragma once
#include <hipasm/hipasm.hpp>

namespace dead_loads {
using namespace hipasm;

enum kind : int {
  vm_zero_wait,
  vm_partial_wait,
  vm_glc,
  smem_zero_wait,
  ds_zero_wait,
  no_wait_in_block,  // its block falls through to the end of the kernel: goes
  branch_follows,    // a per-lane If follows it, then a zero wait on both paths: goes
  // after the store, at the end of the kernel (no wait follows: s_endpgm waits for all)
  baseline,    // nothing after the store
  end_vm,      // a global load and its own address arithmetic: both go
  end_buffer,  // a buffer load (V# and offset of its own): goes
  end_smem,    // an s_load from an address of its own: goes
  end_in_if,   // a global load in a per-lane If that ends the kernel: goes
  end_lds_dma, // a buffer load to LDS (writes LDS): stays
  end_atomic,  // a returning atomic whose result is unused: stays
  // in a uniform loop
  loop_dead,       // each iteration's dwordx4 overwritten by the next, never read: goes, and
                   // its address arithmetic (a pointer stepped each iteration) with it
  loop_dead_wait,  // the same with a zero wait in the loop after it: goes
  loop_next,       // read by the next iteration (before it is loaded again): stays
  loop_epilogue,   // loaded again each iteration, read after the loop: stays
  loop_partial,    // dead, but a partial wait in the loop counts it: stays
  count
};

// out[lane] = in[lane] + 1, with one extra load of in[lane + 64] whose result is unused.
template <int K>
constexpr void dl_kernel(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  auto lane = J.thread_id_x();
  auto p = J.vgpr<u64>(), q = J.vgpr<u64>();
  p = in + (lane << 2);
  q = p + 256;
  auto v = J.vgpr<u32>().named("v"), dead = J.vgpr<u32>().named("dead");
  auto sdead = J.sgpr<u32>().named("sdead");
  J.global_load_dword(v, p, off);
  if constexpr (K == vm_zero_wait) {
    J.global_load_dword(dead, q, off);
    J.s_waitcnt(vmcnt(0));
  } else if constexpr (K == vm_partial_wait) {
    J.global_load_dword(dead, q, off);
    J.s_waitcnt(vmcnt(1));  // guarantees v only because the dead load is younger
  } else if constexpr (K == vm_glc) {
    J.global_load_dword(dead, q, off, {.sc0 = true, .sc1 = true});
    J.s_waitcnt(vmcnt(0));
  } else if constexpr (K == smem_zero_wait) {
    J.s_load_dword(sdead, in, 4);
    J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  } else if constexpr (K == ds_zero_wait) {
    auto a = J.vgpr<u32>();
    a = lane << 2;
    J.lds<unsigned>(64, 4);
    J.ds_read_b32(dead, a);
    J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  } else if constexpr (K == no_wait_in_block) {
    J.s_waitcnt(vmcnt(0));
    auto w = J.vgpr<u32>();
    w = lane;
    J.If(w < 1000u, [&] { J.global_load_dword(dead, q, off); });  // its block ends without a wait
  } else if constexpr (K == branch_follows) {
    J.s_waitcnt(vmcnt(0));
    auto w = J.vgpr<u32>();
    w = lane;
    J.If(w < 1000u, [&] { J.global_load_dword(dead, q, off); });
    J.If(w < 500u, [&] { w = w + 1u; });
    J.s_waitcnt(vmcnt(0));
  } else if constexpr (K == loop_next) {
    J.s_waitcnt(vmcnt(0));
    auto x = J.vgpr<u32>().named("x");
    x = v;
    auto i = J.sgpr<u32>();
    J.For(i, 0u, 3u, [&] {
      v = x;  // the previous iteration's x
      J.global_load_dword(x, p, off);
      J.s_waitcnt(vmcnt(0));
    });
  } else if constexpr (K == loop_epilogue) {
    auto i = J.sgpr<u32>();
    J.For(i, 0u, 3u, [&] { J.global_load_dword(v, p, off); });
    J.s_waitcnt(vmcnt(0));
  } else if constexpr (K == loop_partial) {
    auto i = J.sgpr<u32>();
    J.For(i, 0u, 3u, [&] {
      J.global_load_dword(v, p, off);
      J.global_load_dword(dead, q, off);
      J.s_waitcnt(vmcnt(1));  // guarantees v only because the dead load is younger
    });
    J.s_waitcnt(vmcnt(0));  // (no iteration: the first v)
  } else {
    J.s_waitcnt(vmcnt(0));
  }
  auto o = J.vgpr<u64>();
  o = out + (lane << 2);
  J.global_store_dword(o, v + 1u, off);
  if constexpr (K == end_vm) {
    auto a = J.vgpr<u64>();
    a = in + ((lane * 3u + 5u) << 2);
    J.global_load_dword(dead, a, off);
  } else if constexpr (K == end_buffer) {
    auto I = make_buffer(J, in, 512u);
    auto a = J.vgpr<u32>();
    a = (lane * 3u + 7u) << 2;
    I.load(dead, a);
  } else if constexpr (K == end_smem) {
    auto sa = J.sgpr<u64>();
    sa = in + 64u;
    J.s_load_dword(sdead, sa, 8);
  } else if constexpr (K == end_in_if) {
    J.If(lane < 40u, [&] {
      auto a = J.vgpr<u64>();
      a = in + ((lane * 3u + 5u) << 2);
      J.global_load_dword(dead, a, off);
    });
  } else if constexpr (K == end_lds_dma) {
    auto tile = J.lds<unsigned>(64, 4);
    auto I = make_buffer(J, in, 512u);
    auto a = J.vgpr<u32>();
    a = lane << 2;
    auto z = J.sgpr<u32>();
    z = 0u;
    I.load_lds(at(z) + tile.offset, a);
  } else if constexpr (K == loop_dead || K == loop_dead_wait) {
    auto d4 = J.vgpr<u32>(4).named("d4");
    auto a = J.vgpr<u64>().named("a");
    a = in + ((lane * 3u + 5u) << 2);
    auto i = J.sgpr<u32>();
    J.For(i, 0u, 4u, [&] {
      J.global_load_dwordx4(d4, a, off);
      if constexpr (K == loop_dead_wait) J.s_waitcnt(vmcnt(0));
      a = a + 16u;
    });
  } else if constexpr (K == end_atomic) {
    auto one = J.vgpr<u32>();
    one = 1u;
    J.global_atomic_add(dead, q, one, off, {.sc0 = true});
  }
}

template <int K>
inline constexpr auto dl_kernel_no_dce = with_options<dl_kernel<K>, kernel_options{.dce = false}>;

}  // namespace dead_loads
