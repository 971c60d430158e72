// kb_fuzz_<seed>: the random program with the known-bits step (the default options);
// kb_fuzz_ref_<seed>: the same with it off.
#include "bits_fuzz.hpp"

namespace {
using namespace hipasm;
template <uint32_t S>
inline constexpr auto bits_ref = with_options<kb_fuzz::bits_kernel<S>, kernel_options{.known_bits = false}>;
// A SALU sum read only by a mask, whose carry (SCC) a hand-written s_addc_u32 reads: the step
// may not change that sum's high bits (the carry with them). out[gid] = (t & 7) + 16 * carry.
constexpr void scc_kernel(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  auto gid = J.vgpr<u32>();
  gid = J.workgroup_id_x() * 64 + J.thread_id_x();
  auto s = J.sgpr<u32>();
  s = n + 0x80000000u;  // (low bits known zero: the mask does not need this term)
  auto t = J.sgpr<u32>();
  t = s + J.workgroup_id_x();
  auto carry = J.sgpr<u32>();
  J.s_addc_u32(carry, 0, 0);
  auto r = J.sgpr<u32>();
  r = t & 7;
  auto v = J.vgpr<u32>();
  v = r + carry * 16;
  auto q = J.vgpr<u64>();
  q = out + (gid << 2);
  J.global_store_dword(q, v, off);
  (void)in;
}
}  // namespace

extern "C" __attribute__((global)) void kb_scc(unsigned* out, const unsigned* in, unsigned n) {
  HIPASM_KERNEL_BODY(scc_kernel, out, in, n);
}

#define KB_FUZZ_KERNEL(S)                                                                          \
  extern "C" __attribute__((global)) void kb_fuzz_##S(unsigned* out, const unsigned* in, unsigned n) { \
    HIPASM_KERNEL_BODY(kb_fuzz::bits_kernel<S>, out, in, n);                                       \
  }                                                                                                \
  extern "C" __attribute__((global)) void kb_fuzz_ref_##S(unsigned* out, const unsigned* in, unsigned n) { \
    HIPASM_KERNEL_BODY(bits_ref<S>, out, in, n);                                                   \
  }
KB_FUZZ_KERNEL(0)
KB_FUZZ_KERNEL(1)
KB_FUZZ_KERNEL(2)
KB_FUZZ_KERNEL(3)
KB_FUZZ_KERNEL(4)
KB_FUZZ_KERNEL(5)
KB_FUZZ_KERNEL(6)
KB_FUZZ_KERNEL(7)
KB_FUZZ_KERNEL(8)
KB_FUZZ_KERNEL(9)
KB_FUZZ_KERNEL(10)
KB_FUZZ_KERNEL(11)
KB_FUZZ_KERNEL(12)
KB_FUZZ_KERNEL(13)
KB_FUZZ_KERNEL(14)
KB_FUZZ_KERNEL(15)
KB_FUZZ_KERNEL(16)
KB_FUZZ_KERNEL(17)
KB_FUZZ_KERNEL(18)
KB_FUZZ_KERNEL(19)
KB_FUZZ_KERNEL(20)
KB_FUZZ_KERNEL(21)
KB_FUZZ_KERNEL(22)
KB_FUZZ_KERNEL(23)
