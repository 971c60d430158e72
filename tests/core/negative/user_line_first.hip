// EXPECT: requirement 'hipasm_info_.ok': [^ -~][^ ]*user_line_first.hip:13: error: kernel 'user_line_first': reads the VGPR allocated at
// A kernel's error names the user's line first on a line of its own ("file:line: error:", the
// form editors and gcc-style parsers read), right after clang's static assertion at the
// HIPASM_KERNEL_BODY line; [^ -~] is the line break (not printable).
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  auto p = J.vgpr<u64>();
  p = out + 0u;
  // the line the message names:
  J.global_store_dword(p, x, off);
}
extern "C" __attribute__((global)) void user_line_first(float* out) { HIPASM_KERNEL_BODY(bad, out); }
