// EXPECT: error: static assertion failed: hipasm: max3 takes f32, i32 or u32, got f16x2.*helpers_dtype_name.hip:11:[0-9]+: note: in instantiation of.*error: static assertion failed: hipasm: readfirstlane takes a 32-bit register, got u64.*helpers_dtype_name.hip:12:[0-9]+: note: in instantiation of
// A helper given a register of a dtype it does not take: the static_assert names the dtype
// (f16x2, u64), not "(hipasm::dtype)3", and the note names the user's line.
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void bad(builder J, arg<int*> out) {
  auto h = J.vgpr<f16x2>();
  h = 0u;
  auto d = J.vgpr<u64>();
  auto m = max3(h, h, h);
  auto r = readfirstlane(d);
  J.global_store_dword(J.thread_id_x() << 2u, m, out);
}
extern "C" __attribute__((global)) void k(int* out) { HIPASM_KERNEL_BODY(bad, out); }
