// The DSL path of the wrapper: builder function, argument type check, entry state.
#include "hipasm/kernel.hpp"

using namespace hipasm;

// vector add through the DSL: kernarg, workgroup id x, work-item id x.
constexpr void vector_add_fn(builder& J, arg<const float*> a, arg<const float*> b, arg<float*> c,
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
extern "C" __attribute__((global)) void vector_add(const float* a, const float* b, float* c, unsigned n) {
  HIPASM_KERNEL_BODY(vector_add_fn, a, b, c, n);
}

