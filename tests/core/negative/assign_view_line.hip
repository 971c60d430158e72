// EXPECT: assign_view_line.hip:12: error: kernel 'assign_view_line': cannot assign a per-lane .VGPR. value to an SGPR
// An assignment from a view (.as, .at, .slice, .lo, ...) is reported at the assignment's line,
// not at the line where the destination was declared or the last instruction.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  auto s = J.sgpr<u32>();
  auto v = J.vgpr<i32>();
  v = J.thread_id_x().as<i32>() + 1;
  s = s + 2;
  s = v.as<u32>();
}
extern "C" __attribute__((global)) void assign_view_line() { HIPASM_KERNEL_BODY(bad); }
