// Kernels of test_dead_loads.cpp: loads whose results nobody reads, removed by dce when
// nothing else can observe them (passes/dce.hpp, dead_load) and kept otherwise.
#pragma once
#include <hipasm/kernel.hpp>

namespace dead_loads {
using namespace hipasm;

enum kind : int { vm_zero_wait, vm_partial_wait, vm_glc, smem_zero_wait, ds_zero_wait, no_wait_in_block, count };

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
  } else {
    J.s_waitcnt(vmcnt(0));
    auto w = J.vgpr<u32>();
    w = lane;
    J.If(w < 1000u, [&] { J.global_load_dword(dead, q, off); });  // its block ends without a wait
  }
  auto o = J.vgpr<u64>();
  o = out + (lane << 2);
  J.global_store_dword(o, v + 1u, off);
}

template <int K>
inline constexpr auto dl_kernel_no_dce = with_options<dl_kernel<K>, kernel_options{.dce = false}>;

}  // namespace dead_loads
