// EXPECT: helpers_lds_dma_x4.hip:12: error: kernel '[^']*': buffer load_lds_x4: 16-byte LDS-DMA needs a target that has it \(gfx942 has not\)
// 16 bytes a lane of LDS-DMA (buffer_load_dwordx4 ... lds) on a target without it (gfx942): a
// compile error at the call's line naming the target (include/hipasm/helpers/buffer.hpp).
#include <hipasm/hipasm.hpp>
using namespace hipasm;

constexpr void dma_x4(builder J, arg<const unsigned*> in) {
  auto A = make_buffer(J, in, 4096u);
  auto V = J.lds<unsigned>(256, 16);
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 4u;
  A.load_lds_x4(V.offset, at(o));
}
extern "C" __attribute__((global)) void bad(const unsigned* in) { HIPASM_KERNEL_BODY(dma_x4, in); }
