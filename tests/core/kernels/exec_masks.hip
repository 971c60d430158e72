// Kernels of test_exec_masks_sim.cpp (exec_masks_fn.hpp).
#include "exec_masks_fn.hpp"

using namespace hipasm::test::exec_masks;

constexpr void em_dpp_row_mirror_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x140, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_mirror_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_mirror_nobound_fn, out); }
constexpr void em_dpp_row_mirror_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x140, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_mirror_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_mirror_bound_fn, out); }
constexpr void em_dpp_row_half_mirror_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x141, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_half_mirror_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_half_mirror_nobound_fn, out); }
constexpr void em_dpp_row_half_mirror_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x141, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_half_mirror_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_half_mirror_bound_fn, out); }
constexpr void em_dpp_quad_perm_rev_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x1b, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_quad_perm_rev_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_quad_perm_rev_nobound_fn, out); }
constexpr void em_dpp_quad_perm_rev_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x1b, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_quad_perm_rev_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_quad_perm_rev_bound_fn, out); }
constexpr void em_dpp_row_ror3_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x123, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_ror3_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_ror3_nobound_fn, out); }
constexpr void em_dpp_row_ror3_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x123, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_ror3_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_ror3_bound_fn, out); }
constexpr void em_dpp_wave_rol_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x134, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_wave_rol_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_wave_rol_nobound_fn, out); }
constexpr void em_dpp_wave_rol_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x134, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_wave_rol_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_wave_rol_bound_fn, out); }
constexpr void em_dpp_wave_ror_nobound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x13c, false>(J, out); }
extern "C" __attribute__((global)) void em_dpp_wave_ror_nobound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_wave_ror_nobound_fn, out); }
constexpr void em_dpp_wave_ror_bound_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x13c, true>(J, out); }
extern "C" __attribute__((global)) void em_dpp_wave_ror_bound(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_wave_ror_bound_fn, out); }
extern "C" __attribute__((global)) void em_neg_and_in_if(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<neg_and_in_if>, out, n); }
extern "C" __attribute__((global)) void em_neg_or_in_if(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<neg_or_in_if>, out, n); }
extern "C" __attribute__((global)) void em_outer_in_if(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<outer_in_if>, out, n); }
extern "C" __attribute__((global)) void em_uniform_or_in_if(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<uniform_or_in_if>, out, n); }
extern "C" __attribute__((global)) void em_uniform_neg_in_if(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<uniform_neg_in_if>, out, n); }
extern "C" __attribute__((global)) void em_nested(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<nested>, out, n); }
extern "C" __attribute__((global)) void em_top_level(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<top_level>, out, n); }
extern "C" __attribute__((global)) void em_if_neg(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<if_neg>, out, n); }
extern "C" __attribute__((global)) void em_else_neg(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<else_neg>, out, n); }
extern "C" __attribute__((global)) void em_select_neg(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<select_neg>, out, n); }
extern "C" __attribute__((global)) void em_while_neg(unsigned* out, unsigned n) { HIPASM_KERNEL_BODY(mask_fn<while_neg>, out, n); }
// declared full waves (launched with 64 threads): the DPP move ends v's old value
constexpr void em_dpp_row_mirror_wg64_fn(builder J, arg<unsigned*> out) { dpp_entry_fn<0x140, false, 64>(J, out); }
extern "C" __attribute__((global)) void em_dpp_row_mirror_wg64(unsigned* out) { HIPASM_KERNEL_BODY(em_dpp_row_mirror_wg64_fn, out); }
