// EXPECT: unnamed_wait.hip:12: error: 'v_add_f32' (reads|overwrites) the VGPR allocated at [^ ]*unnamed_wait.hip:9 loaded by 'global_load_dword' at [^ ]*unnamed_wait.hip:11 before an s_waitcnt
// An unnamed register in a message is named by where it was allocated (it used to leave a
// blank: "'v_add_f32' reads  loaded by ...").
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<float*> out) {
  auto p = J.vgpr<u64>();
  auto x = J.vgpr<f32>();
  p = out + J.thread_id_x() * 4;
  J.global_load_dword(x, p, off);
  x = x + 1.0f;
  J.s_waitcnt(vmcnt(0));
  J.global_store_dword(p, x, off);
}
extern "C" __attribute__((global)) void unnamed_wait(float* out) { HIPASM_KERNEL_BODY(bad, out); }
