// EXPECT: passes a different number of arguments to HIPASM_KERNEL_BODY
// The builder function takes two runtime arguments, the HIP kernel passes one.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void two_fn(builder J, arg<float*> out, arg<int> n) {
  (void)J;
  (void)out;
  (void)n;
}
extern "C" __attribute__((global)) void kernel_arg_count(float* out) { HIPASM_KERNEL_BODY(two_fn, out); }
