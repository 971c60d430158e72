// EXPECT: assign_unbound_handle.hip:13: error: kernel 'assign_unbound_handle': assignment to a register handle that names no register
// Assigning to a default-constructed handle (an array of handles filled by `=` instead of
// rebind) did nothing at all; it is an error (here at the element's line).
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void bad(builder J) {
  gpr<u32> slots[2];
  auto v = J.vgpr<u32>(2);
  v.fill(J.thread_id_x());
  slots[1].rebind(v[0]);

  slots[0] = v[1];
}
extern "C" __attribute__((global)) void assign_unbound_handle() { HIPASM_KERNEL_BODY(bad); }
