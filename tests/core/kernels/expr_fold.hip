// Kernels of test_expr_fold.cpp (expr_fold.hpp): fold on (the default) and off.
#include "expr_fold.hpp"

using namespace expr_fold;

extern "C" __attribute__((global)) void fold_lshl_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<lshl_add>, out, a, b); }
extern "C" __attribute__((global)) void nofold_lshl_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<lshl_add>, out, a, b); }
extern "C" __attribute__((global)) void fold_add3(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add3>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add3(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add3>, out, a, b); }
extern "C" __attribute__((global)) void fold_lshl_or(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<lshl_or>, out, a, b); }
extern "C" __attribute__((global)) void nofold_lshl_or(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<lshl_or>, out, a, b); }
extern "C" __attribute__((global)) void fold_and_or(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<and_or>, out, a, b); }
extern "C" __attribute__((global)) void nofold_and_or(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<and_or>, out, a, b); }
extern "C" __attribute__((global)) void fold_add_zero_fresh(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add_zero_fresh>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add_zero_fresh(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add_zero_fresh>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_zero(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_zero>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_zero(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_zero>, out, a, b); }
extern "C" __attribute__((global)) void fold_two_shifts(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<two_shifts>, out, a, b); }
extern "C" __attribute__((global)) void nofold_two_shifts(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<two_shifts>, out, a, b); }
extern "C" __attribute__((global)) void fold_identity_chain(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<identity_chain>, out, a, b); }
extern "C" __attribute__((global)) void nofold_identity_chain(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<identity_chain>, out, a, b); }
extern "C" __attribute__((global)) void fold_shared_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<shared_shift>, out, a, b); }
extern "C" __attribute__((global)) void nofold_shared_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<shared_shift>, out, a, b); }
extern "C" __attribute__((global)) void fold_retarget_identity(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<retarget_identity>, out, a, b); }
extern "C" __attribute__((global)) void nofold_retarget_identity(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<retarget_identity>, out, a, b); }
extern "C" __attribute__((global)) void fold_salu_identity(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<salu_identity>, out, a, b); }
extern "C" __attribute__((global)) void nofold_salu_identity(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<salu_identity>, out, a, b); }
extern "C" __attribute__((global)) void fold_shr_zero(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<shr_zero>, out, a, b); }
extern "C" __attribute__((global)) void nofold_shr_zero(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<shr_zero>, out, a, b); }
extern "C" __attribute__((global)) void fold_zero_shl(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<zero_shl>, out, a, b); }
extern "C" __attribute__((global)) void nofold_zero_shl(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<zero_shl>, out, a, b); }
extern "C" __attribute__((global)) void fold_i32_lshl_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<i32_lshl_add>, out, a, b); }
extern "C" __attribute__((global)) void nofold_i32_lshl_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<i32_lshl_add>, out, a, b); }
extern "C" __attribute__((global)) void fold_literal_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<literal_add>, out, a, b); }
extern "C" __attribute__((global)) void nofold_literal_add(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<literal_add>, out, a, b); }
extern "C" __attribute__((global)) void fold_xor_zero_named(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<xor_zero_named>, out, a, b); }
extern "C" __attribute__((global)) void nofold_xor_zero_named(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<xor_zero_named>, out, a, b); }
extern "C" __attribute__((global)) void fold_add64_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add64_shift>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add64_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add64_shift>, out, a, b); }
extern "C" __attribute__((global)) void fold_add64_signed(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add64_signed>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add64_signed(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add64_signed>, out, a, b); }
extern "C" __attribute__((global)) void fold_add64_pair(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add64_pair>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add64_pair(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add64_pair>, out, a, b); }
extern "C" __attribute__((global)) void fold_add64_masked_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<add64_masked_shift>, out, a, b); }
extern "C" __attribute__((global)) void nofold_add64_masked_shift(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<add64_masked_shift>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_pow2_plus1(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_pow2_plus1>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_pow2_plus1(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_pow2_plus1>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_u24_tid(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_u24_tid>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_u24_tid(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_u24_tid>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_u24_max(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_u24_max>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_u24_max(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_u24_max>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_u24_over(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_u24_over>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_u24_over(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_u24_over>, out, a, b); }
extern "C" __attribute__((global)) void fold_mul_u24_shr(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mul_u24_shr>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mul_u24_shr(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mul_u24_shr>, out, a, b); }
extern "C" __attribute__((global)) void fold_mad_u24(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel<mad_u24>, out, a, b); }
extern "C" __attribute__((global)) void nofold_mad_u24(unsigned* out, const unsigned* a, const unsigned* b) { HIPASM_KERNEL_BODY(fold_kernel_off<mad_u24>, out, a, b); }
