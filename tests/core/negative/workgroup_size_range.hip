// EXPECT: workgroup_size_range.hip:7: error: kernel '[^']*': workgroup_size\(2048\): a workgroup holds 1 to 1024 work-items
// A workgroup size no launch can have: a compile error at the call's line (builder.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_size(builder J, arg<unsigned*> out) {
  J.workgroup_size(2048);
  J.global_store_dword(J.thread_id_x() << 2u, J.thread_id_x(), out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_size, out); }
