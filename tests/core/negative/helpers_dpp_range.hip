// EXPECT: helpers_dpp_range.hip:10:[0-9]+: note: in call to 'row_shr.16.'
// A DPP control out of range (row_shr takes 1..15) stops the kernel's evaluation with a note
// naming the call at the user's line (include/hipasm/helpers/dpp.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad_dpp(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  x = 1.0f;
  J.v_add_f32(x, x, x, dpp::row_shr(16));
  J.global_store_dword(J.thread_id_x() << 2u, x, out);
}
extern "C" __attribute__((global)) void bad(float* out) { HIPASM_KERNEL_BODY(bad_dpp, out); }
