// EXPECT: assign_unbound_handle.hip:13: error: kernel 'assign_unbound_handle': assignment to a register handle that names no register
// Assigning to a default-constructed handle (an array of handles filled by `=` instead of
// rebind) did nothing at all; it is an error at the assignment's line.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  gpr<u32> slots[2];
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  slots[1].rebind(v);

  slots[0] = v;
}
extern "C" __attribute__((global)) void assign_unbound_handle() { HIPASM_KERNEL_BODY(bad); }
