// EXPECT: lds_over_target_gfx950.hip:10: error: kernel 'bad': LDS allocation exceeds 160 KiB .163844 bytes.
// ARCH: gfx950
// gfx950's LDS is 160 KiB a workgroup (gfx942: 64 KiB): 100 KiB fits, 4 bytes past 160 KiB do
// not, on the line that asks.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_lds(builder J, arg<float*> out) {
  J.lds<uint32_t>(100 * 256);
  J.lds<uint32_t>(60 * 256 + 1);
  J.global_store_dword(J.thread_id_x() << 2u, J.thread_id_x(), out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_lds, out); }
