// Uniform (wave-invariant) integer math on kernel arguments: clang-22 computes it with SALU
// instructions (SOP1/SOP2/SOPK/SOPC, SCC selects, 64-bit carry chains). The host test
// evaluates the same C++ expressions as the oracle (tests/sim/test_scalar.cpp).
#include "scalar_exprs.h"

extern "C" __attribute__((global)) void scalar_uniform(unsigned* out, unsigned a, unsigned b, int c, int d,
                                          unsigned long long e, unsigned long long f) {
  unsigned r[kScalarResults];
  scalar_exprs(r, a, b, c, d, e, f);
  // One lane stores, so the results stay scalar until the store.
  if (__builtin_amdgcn_workitem_id_x() == 0)
    for (int i = 0; i < kScalarResults; ++i) out[i] = r[i];
}
