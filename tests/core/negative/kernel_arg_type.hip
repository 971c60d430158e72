// EXPECT: a HIP kernel parameter's type differs from the builder function's arg<T>
// The HIP kernel passes float* where the builder function takes arg<const float*>.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void copy_fn(builder J, arg<const float*> in, arg<float*> out) {
  (void)J;
  (void)in;
  (void)out;
}
extern "C" __attribute__((global)) void kernel_arg_type(float* in, float* out) {
  HIPASM_KERNEL_BODY(copy_fn, in, out);
}
