// The global-atomic microbenchmarks of microbench.hpp as a code object of their own, so that they
// can be built for gfx950 too (the whole microbench.hip has gfx942-only MFMA shapes): the L2
// atomic unit's rates are per device (docs/timing-model.md, L2 atomics).
#include "microbench.hpp"

namespace hipasm::microbench {
inline constexpr auto global_atomic_distinct_fn = with_options<atomic_bench<hist::distinct, true, false>, raw>;
inline constexpr auto global_atomic_pk_bf16_distinct_fn = with_options<atomic_bench<hist::distinct, true, false, true>, raw>;
}  // namespace hipasm::microbench
using namespace hipasm::microbench;

extern "C" __global__ void global_atomic_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_distinct_fn, buf, n); }
extern "C" __global__ void global_atomic_pk_bf16_distinct(uint64_t* buf, unsigned n) { HIPASM_KERNEL_BODY(global_atomic_pk_bf16_distinct_fn, buf, n); }
