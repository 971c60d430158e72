// EXPECT: invalid operands to binary expression .'gpr<hipasm::dtype::f32>' and 'gpr<hipasm::dtype::i32>'.
// f32 + i32 does not compile: dtypes are part of the register type (use .as<T>() to reinterpret).
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void wrong(builder J) {
  auto f = J.vgpr<f32>().fill(1.0f);
  auto i = J.vgpr<i32>().fill(1);
  auto r = J.vgpr<f32>();
  r = f + i;
}
extern "C" __attribute__((global)) void wrong_type() { HIPASM_KERNEL_BODY(wrong); }
