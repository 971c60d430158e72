// EXPECT: unknown_instruction.hip:8: error: kernel 'unknown_instruction': unknown instruction 'v_add_f33'
// By-name instructions are checked against the gfx942 table.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void unknown(builder J) {
  auto v = J.vgpr<f32>().fill(1.0f);
  J.op("v_add_f33", {v, v, v});
}
extern "C" __attribute__((global)) void unknown_instruction() { HIPASM_KERNEL_BODY(unknown); }
