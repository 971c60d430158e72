// EXPECT: helpers_scan_waves.hip:10: error: kernel '[^']*': workgroup_scan: waves must be 1..16, got 17
// A workgroup scan over more waves than a workgroup has: a compile error at the call's line
// (helpers/scan.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_waves(builder J, arg<unsigned*> out) {
  auto x = J.vgpr<u32>();
  x = 1u;
  auto s = workgroup_scan(J, reduce::sum, x, J.lds<uint32_t>(17, 16), 17);
  J.global_store_dword(J.thread_id_x() << 2u, s.value, out);
}
extern "C" __attribute__((global)) void bad(unsigned* out) { HIPASM_KERNEL_BODY(bad_waves, out); }
