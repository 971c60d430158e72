// EXPECT: error: static assertion failed: hipasm: mixed dtypes in an expression: f32 \+ i32 .registers never convert implicitly: reinterpret the i32 register's bits with .as<f32>...*wrong_type.hip:11:[0-9]+: note: in instantiation of.*[^0-9]1 error generated
// f32 + i32 does not compile: dtypes are part of the register type (use .as<T>() to reinterpret).
// One error, naming both dtypes by name and (next line) the user's expression; nothing more.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void wrong(builder J) {
  auto f = J.vgpr<f32>().fill(1.0f);
  auto i = J.vgpr<i32>().fill(1);
  auto r = J.vgpr<f32>();
  r = f + i;
}
extern "C" __attribute__((global)) void wrong_type() { HIPASM_KERNEL_BODY(wrong); }
