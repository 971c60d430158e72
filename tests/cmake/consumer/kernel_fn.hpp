#pragma once
#include <hipasm/hipasm.hpp>
using namespace hipasm;
constexpr void double_it_fn(builder J, arg<int*> out, arg<const int*> in, arg<unsigned> n) {
  auto i = J.vgpr<u32>();
  i = J.workgroup_id_x() * 64 + J.thread_id_x();
  J.If(i < n, [&] {
    auto p = J.vgpr<u64>();
    p = in + (i << 2);
    auto v = J.vgpr<i32>();
    J.global_load_dword(v, p, off);
    J.s_waitcnt(vmcnt(0));
    auto q = J.vgpr<u64>();
    q = out + (i << 2);
    v = v + v;
    J.global_store_dword(q, v, off);
  });
}
