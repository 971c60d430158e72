// Operators with a compile-time constant operand: division and remainder by every constant
// shape (magic numbers, powers of two, negatives), other operators by a few constants.
#include <hipasm/kernel.hpp>

#include "expr_cases.hpp"

using namespace expr_cases;
#define KC(OPN, OP, T, MODE, CN, C)                                                              \
  extern "C" __attribute__((global)) void OPN##_##T##_##MODE##_##CN(int* out, const int* a, const int* b) {  \
    HIPASM_KERNEL_BODY((binop<OP, hipasm::dtype::T, MODE, C>), out, a, b);                      \
  }
#define KD(CN, C)                                                                                \
  KC(div, div_, u32, vi, CN, C) KC(div, div_, u32, si, CN, C) KC(div, div_, i32, vi, CN, C)     \
  KC(div, div_, i32, si, CN, C) KC(rem, rem, u32, vi, CN, C) KC(rem, rem, u32, si, CN, C)       \
  KC(rem, rem, i32, vi, CN, C) KC(rem, rem, i32, si, CN, C)
EXPR_CONSTS(KD)
#define KO(CN, C)                                                                                \
  KC(add, add, i32, vi, CN, C) KC(sub, sub, i32, si, CN, C) KC(mul, mul, i32, vi, CN, C)        \
  KC(mul, mul, u32, si, CN, C) KC(shl, shl, u32, vi, CN, C) KC(shr, shr, i32, vi, CN, C)        \
  KC(shr, shr, u32, si, CN, C) KC(and, band, u32, vi, CN, C) KC(min, min_, i32, vi, CN, C)      \
  KC(max, max_, u32, si, CN, C) KC(lt, lt, i32, vi, CN, C) KC(ge, ge, u32, si, CN, C)
KO(c7, 7) KO(c100, 100) KO(cm3, -3) KO(cmin, -2147483648LL)
