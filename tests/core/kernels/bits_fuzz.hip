// kb_fuzz_<seed>: the random program with the known-bits step (the default options);
// kb_fuzz_ref_<seed>: the same with it off.
#include "bits_fuzz.hpp"

namespace {
using namespace hipasm;
template <uint32_t S>
inline constexpr auto bits_ref = with_options<kb_fuzz::bits_kernel<S>, kernel_options{.known_bits = false}>;
}  // namespace

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
