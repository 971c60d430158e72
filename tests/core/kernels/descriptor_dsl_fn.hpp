// The DSL kernel of descriptor_dsl.hip, shared with test_descriptor.cpp (host asm_text).
#pragma once
#include "hipasm/kernel.hpp"

namespace hipasm::test {
using namespace hipasm;

// vector add through the DSL: kernarg, workgroup id x, work-item id x.
constexpr void vector_add_fn(builder J, arg<const float*> a, arg<const float*> b, arg<float*> c,
                             arg<unsigned> n) {
  auto i = J.vgpr<u32>().named("i");
  i = J.workgroup_id_x() * 256u + J.thread_id_x();
  auto off = J.vgpr<u32>().named("off");
  off = i << 2u;
  J.If(i < n, [&] {
    auto x = J.vgpr<f32>().named("x");
    auto y = J.vgpr<f32>().named("y");
    J.global_load_dword(x, off, a);
    J.global_load_dword(y, off, b);
    J.wait_vmcnt(0);
    x = x + y;
    J.global_store_dword(off, x, c);
  });
}
}  // namespace hipasm::test
