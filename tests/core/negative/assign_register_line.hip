// EXPECT: assign_register_line.hip:14: error: kernel 'assign_register_line': assignment between register views of different widths .1 and 2 dwords.
// `x = y` between two registers is reported at the assignment's line, not at the previous
// statement's (the assignment takes its source by value; the copy records the caller's line).
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  auto v = J.vgpr<u32>();
  auto w = J.vgpr<u32>(2);
  v = J.thread_id_x();
  w.fill(0u);


  w = v;
}
extern "C" __attribute__((global)) void assign_register_line() { HIPASM_KERNEL_BODY(bad); }
