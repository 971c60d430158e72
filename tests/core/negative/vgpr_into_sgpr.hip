// EXPECT: vgpr_into_sgpr.hip:8: error: kernel 'vgpr_into_sgpr': cannot assign a per-lane .VGPR. value to an SGPR
// A per-lane value cannot be assigned to a wave-uniform register.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  auto s = J.sgpr<u32>();
  s = J.thread_id_x() + 1;
}
extern "C" __attribute__((global)) void vgpr_into_sgpr() { HIPASM_KERNEL_BODY(bad); }
