// Integer binary operators and comparisons, u32 and i32, for every operand-class mix.
#include <hipasm/kernel.hpp>

#include "expr_cases.hpp"

using namespace expr_cases;
#define K1(NAME, OP, T, MODE)                                                                    \
  extern "C" __attribute__((global)) void NAME##_##MODE(int* out, const int* a, const int* b) {              \
    HIPASM_KERNEL_BODY((binop<OP, hipasm::dtype::T, MODE>), out, a, b);                         \
  }
#define KM(NAME, OP, T) K1(NAME, OP, T, vv) K1(NAME, OP, T, ss) K1(NAME, OP, T, sv) K1(NAME, OP, T, vs)
EXPR_INT_OPS(KM, u32, u32)
EXPR_INT_OPS(KM, i32, i32)
