// Vector add of any length: c[i] = a[i] + b[i] for i < n, one element per lane, 256 lanes per
// workgroup; the tail is masked by a per-lane If (EXEC). The loads and the store use the
// global "saddr" form: the 64-bit base stays in the argument's SGPR pair and each lane adds
// its 32-bit byte offset (no per-lane 64-bit address arithmetic).
#pragma once
#include <hipasm/builder.hpp>

#include "sizes.hpp"

namespace examples {
using namespace hipasm;

constexpr void vector_add(builder J, arg<float*> c, arg<const float*> a, arg<const float*> b, arg<unsigned> n) {
  auto i = J.vgpr<u32>().named("i");
  i = J.workgroup_id_x() * vector_add_block + J.thread_id_x();
  J.If(i < n, [&] {
    auto byte = J.vgpr<u32>().named("byte");
    byte = i << 2;
    auto x = J.vgpr<f32>().named("x"), y = J.vgpr<f32>().named("y");
    J.global_load_dword(x, byte, a);
    J.global_load_dword(y, byte, b);
    J.s_waitcnt(vmcnt(0));
    x = x + y;
    J.global_store_dword(byte, x, c);
  });
}

}  // namespace examples
