// Per-lane input/output for the control-flow kernels: lane value v = in[gid], out[gid] = r.
#pragma once
#include <hipasm/kernel.hpp>

namespace cf_io {
using namespace hipasm;

constexpr gpr<u32> global_id(builder J) {
  auto g = J.vgpr<u32>();
  g = J.workgroup_id_x() * 64 + J.thread_id_x();
  return g;
}
constexpr gpr<i32> lane_in(builder J, gpr<u64> in, gpr<u32> gid) {
  auto p = J.vgpr<u64>();
  p = in + (gid << 2);
  auto v = J.vgpr<i32>();
  J.global_load_dword(v, p, off);
  J.s_waitcnt(vmcnt(0));
  return v;
}
constexpr void lane_out(builder J, gpr<u64> out, gpr<u32> gid, gpr<i32> r) {
  auto p = J.vgpr<u64>();
  p = out + (gid << 2);
  J.global_store_dword(p, r, off);
}
}  // namespace cf_io
