// The DSL path of the wrapper: builder function, argument type check, entry state.
#include "descriptor_dsl_fn.hpp"

using namespace hipasm::test;

extern "C" __attribute__((global)) void vector_add(const float* a, const float* b, float* c, unsigned n) {
  HIPASM_KERNEL_BODY(vector_add_fn, a, b, c, n);
}

