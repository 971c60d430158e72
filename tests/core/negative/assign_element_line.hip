// EXPECT: assign_element_line.hip:13: error: kernel 'assign_element_line': cannot assign a per-lane .VGPR. value to an SGPR
// `x = a[i]` (an element of a register array) is reported at the assignment's line, not at the
// previous statement's (operator[] takes the line through its index's conversion).
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  auto a = J.vgpr<u32>(4);
  auto x = J.sgpr<u32>();
  a.fill(1u);
  x = 2u;

  x = a[1];
}
extern "C" __attribute__((global)) void assign_element_line() { HIPASM_KERNEL_BODY(bad); }
