// Unary operators, f32 arithmetic and comparisons, 64-bit address arithmetic.
#include <hipasm/kernel.hpp>

#include "expr_cases.hpp"

using namespace expr_cases;
#define KU1(NAME, OP, T, MODE)                                                                   \
  extern "C" __attribute__((global)) void NAME##_##MODE(int* out, const int* a, const int* b) {              \
    HIPASM_KERNEL_BODY((binop<OP, hipasm::dtype::T, MODE>), out, a, b);                         \
  }
#define KU(NAME, OP, T) KU1(NAME, OP, T, vv) KU1(NAME, OP, T, ss)
EXPR_UNARY_OPS(KU, u32, u32)
EXPR_UNARY_OPS(KU, i32, i32)

#define KF1(NAME, OP, MODE)                                                                      \
  extern "C" __attribute__((global)) void f32_##NAME##_##MODE(float* out, const float* a, const float* b) {  \
    HIPASM_KERNEL_BODY((fop<OP, MODE>), out, a, b);                                             \
  }
#define KF(NAME, OP) KF1(NAME, OP, vv) KF1(NAME, OP, ss)
KF(add, add) KF(sub, sub) KF(mul, mul) KF(min, min_) KF(max, max_) KF(neg, neg) KF(abs, abs_)
KF(lt, lt) KF(le, le) KF(gt, gt) KF(ge, ge) KF(eq, eq) KF(ne, ne) KF(nlt, nlt)

#define KA(NAME, SUB, SIGNED, VEC)                                                               \
  extern "C" __attribute__((global)) void NAME(unsigned* out, const unsigned long long* a, const int* b,     \
                                  unsigned n) {                                                 \
    HIPASM_KERNEL_BODY((addr64<SUB, SIGNED, VEC>), out, a, b, n);                               \
  }
KA(add64_u_s, false, false, false) KA(add64_i_s, false, true, false) KA(sub64_u_s, true, false, false)
KA(sub64_i_s, true, true, false) KA(add64_u_v, false, false, true) KA(add64_i_v, false, true, true)
KA(sub64_u_v, true, false, true) KA(sub64_i_v, true, true, true)
