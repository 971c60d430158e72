// EXPECT: mx_convert_gfx942.hip:13: error: kernel 'bad': cvt_fp4x8: the OCP MX conversions .v_cvt_scalef32_.. do not exist on gfx942
// ARCH: gfx942
// The fp4 / fp6 conversions with E8M0 scales (convert.hpp) need gfx950's v_cvt_scalef32_*
// instructions: on gfx942 the build fails on the user's line, naming the target.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_fp4(builder J, arg<unsigned*> out, arg<unsigned> scale) {
  auto x = J.vgpr<f32>(8);
  for (int i = 0; i < 8; ++i) x[i] = 1.0f;
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto p = cvt_fp4x8(x, scale);
  J.global_store_dword(o, p.as<u32>(), out);
}
extern "C" __attribute__((global)) void bad(unsigned* out, unsigned scale) { HIPASM_KERNEL_BODY(bad_fp4, out, scale); }
