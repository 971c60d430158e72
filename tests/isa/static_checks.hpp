// static_asserts over the table, the checker and the target: included by two TUs, one
// compiled with clang's default constant interpreter and one with
// -fexperimental-new-constant-interpreter, so both evaluate the same code.
#pragma once
#include <initializer_list>

#include "hipasm/isa/check.hpp"
#include "hipasm/targets/select.hpp"
#include "hipasm/target.hpp"

namespace isa_static {
using namespace hipasm;
using namespace hipasm::isa;

constexpr operand R(reg_class c, int i, int dw) {
  operand o;
  o.k = operand::kind::phys;
  o.cls = c;
  o.value = static_cast<uint64_t>(i);
  o.dwords = static_cast<uint16_t>(dw);
  return o;
}
constexpr operand V(int i, int dw = 1) { return R(reg_class::vgpr, i, dw); }
constexpr operand S(int i, int dw = 1) { return R(reg_class::sgpr, i, dw); }
constexpr operand A(int i, int dw = 1) { return R(reg_class::agpr, i, dw); }
constexpr operand I(uint64_t v) {
  operand o;
  o.k = operand::kind::imm;
  o.value = v;
  return o;
}
constexpr operand VR(int id, int dw = 1) {  // a virtual register (before allocation)
  operand o;
  o.k = operand::kind::vreg;
  o.cls = reg_class::vgpr;
  o.value = static_cast<uint64_t>(id);
  o.dwords = static_cast<uint16_t>(dw);
  return o;
}
constexpr check_result C(gfx942_op op, std::initializer_list<operand> ops, modifiers m = {}) {
  instr in;
  in.op = static_cast<uint16_t>(op);
  in.num_operands = static_cast<uint8_t>(ops.size());
  int i = 0;
  for (const operand& o : ops) in.ops[i++] = o;
  in.mods = m;
  return check(desc(op), in);
}
constexpr bool sorted() {
  for (std::size_t i = 1; i < gfx942_num_instrs; ++i)
    if (gfx942_instrs[i].name < gfx942_instrs[i - 1].name) return false;
  return true;
}
constexpr bool message_has(const check_result& r, std::string_view s) {
  return r.message.view().find(s) != std::string_view::npos;
}

// The table
static_assert(gfx942_num_instrs > 1100);
static_assert(sorted());
// The passes read f_waitcnt as "this is s_waitcnt" (its simm16 holds the counters).
constexpr bool only_s_waitcnt_has_f_waitcnt() {
  for (std::size_t i = 0; i < gfx942_num_instrs; ++i)
    if (((gfx942_instrs[i].flags & f_waitcnt) != 0) != (gfx942_instrs[i].name == "s_waitcnt")) return false;
  return true;
}
static_assert(only_s_waitcnt_has_f_waitcnt());
static_assert(find_instr("v_add_u32") == static_cast<int>(gfx942_op::v_add_u32));
static_assert(find_instr("v_mfma_f32_32x32x8_bf16") >= 0 && find_instr("v_mfma_f32_32x32x8bf16_1k") == -1);
static_assert(find_instr("v_nonexistent") == -1);
static_assert(gfx942.find("s_waitcnt") == &desc(gfx942_op::s_waitcnt));
static_assert(desc(gfx942_op::v_mfma_f32_32x32x8_bf16).mfma_passes == 8);
static_assert(desc(gfx942_op::v_mfma_f32_4x4x4_16b_f16).mfma_passes == 2);
static_assert(desc(gfx942_op::v_mfma_f32_16x16x16_f16).mfma_passes == 4);
static_assert(desc(gfx942_op::v_mfma_f32_32x32x2_f32).mfma_passes == 16);
static_assert(desc(gfx942_op::v_mfma_f64_16x16x4_f64).has(f_dgemm));
static_assert(desc(gfx942_op::v_mfma_f32_32x32x2_f32).has(f_mfma) && !desc(gfx942_op::v_mfma_f32_32x32x2_f32).has(f_xdl));
static_assert(desc(gfx942_op::v_mfma_f32_32x32x8_bf16).has(f_xdl));
static_assert(desc(gfx942_op::v_exp_f32).has(f_trans) && !desc(gfx942_op::v_add_f32).has(f_trans));
static_assert(desc(gfx942_op::v_rcp_f64).has(f_trans) && desc(gfx942_op::v_sqrt_f16).has(f_trans) &&
              desc(gfx942_op::v_log_legacy_f32).has(f_trans) && !desc(gfx942_op::v_fract_f32).has(f_trans));
static_assert(desc(gfx942_op::s_add_u32).has(f_writes_scc) && desc(gfx942_op::s_addc_u32).has(f_reads_scc));
static_assert(desc(gfx942_op::s_and_saveexec_b64).has(f_writes_exec));
static_assert(desc(gfx942_op::v_cmpx_eq_u32).has(f_cmpx | f_writes_exec));
static_assert(desc(gfx942_op::v_div_fmas_f32).has(f_reads_vcc));
static_assert(desc(gfx942_op::global_load_dword).has(f_vm | f_load) && !desc(gfx942_op::global_load_dword).has(f_lgkm));
static_assert(desc(gfx942_op::flat_load_dword).has(f_vm | f_lgkm));
static_assert(desc(gfx942_op::ds_write_b32).has(f_lgkm | f_store | f_side_effect));
static_assert(desc(gfx942_op::s_load_dwordx2).has(f_smem | f_lgkm));
static_assert(desc(gfx942_op::s_branch).has(f_branch | f_terminator));
static_assert(desc(gfx942_op::s_barrier).has(f_barrier));
static_assert(desc(gfx942_op::v_add_u32).has(f_has_e64 | f_has_dpp | f_has_sdwa));
static_assert(desc(gfx942_op::global_atomic_add_rtn).has(f_returns) && desc(gfx942_op::global_atomic_add_rtn).num_operands == 4);
static_assert(desc(gfx942_op::global_atomic_add).num_operands == 3);
static_assert(desc(gfx942_op::buffer_load_dword_lds).has(f_lds_dma | f_reads_m0));
static_assert(desc(gfx942_op::v_accvgpr_read_b32).operands[1].classes == oc_agpr);
static_assert(desc(gfx942_op::v_add_f32).operands[1].imm == imm_kind::b32);
static_assert(desc(gfx942_op::v_add_f16).operands[1].imm == imm_kind::f16);
static_assert(desc(gfx942_op::v_add_f64).operands[1].imm == imm_kind::b64 || desc(gfx942_op::v_add_f64).operands[1].imm == imm_kind::f64);
static_assert(desc(gfx942_op::v_add_co_u32).operands[1].role == operand_role::def);
static_assert(desc(gfx942_op::v_pk_fma_f16).op_sel_len == 3 && desc(gfx942_op::v_pk_fma_f16).op_sel_hi_len == 3);

// The checker
static_assert(C(gfx942_op::v_add_u32, {V(0), V(1), V(2)}).ok);
static_assert(C(gfx942_op::v_add_u32, {V(0), V(1), V(2)}).chosen == form::e32);
static_assert(C(gfx942_op::v_add_u32, {V(0), V(1), S(2)}).print_e64);
static_assert(C(gfx942_op::v_add_u32, {VR(0), VR(1), VR(2)}).ok);  // virtual registers
static_assert(message_has(C(gfx942_op::v_add_u32, {V(0), S(1), S(2)}), "constant bus"));
static_assert(message_has(C(gfx942_op::v_fma_f32, {V(0), V(1), V(2), I(0x12345)}), "literal 0x12345 not allowed in VOP3"));
static_assert(message_has(C(gfx942_op::s_mov_b64, {S(4, 2), S(3, 2)}), "s[3:4] is not aligned"));
static_assert(message_has(C(gfx942_op::s_mov_b32, {S(102), S(0)}), "s102 is out of range"));
static_assert(message_has(C(gfx942_op::v_add_f64, {V(0, 2), V(2), V(4, 2)}), "2 dword(s) wide"));
static_assert(message_has(C(gfx942_op::v_add_u32, {V(0), V(1), V(2)}, {.glc = true}), "modifier glc not accepted"));
static_assert(C(gfx942_op::global_load_dword, {V(0), V(2, 2), operand{}}, {.offset = 16, .sc0 = true}).ok);
static_assert(C(gfx942_op::v_mfma_f32_32x32x8_bf16, {A(0, 16), V(0, 2), V(2, 2), A(0, 16)}, {.cbsz = 1}).ok);
static_assert(!C(gfx942_op::v_mfma_f32_32x32x8_bf16, {A(0, 16), V(0, 2), V(2, 2), V(16, 16)}).ok);
static_assert(is_inline_constant(imm_kind::b32, 0x3e22f983) && !is_inline_constant(imm_kind::b32, 65));
static_assert(is_inline_constant(imm_kind::f16, 0x3800) && !is_inline_constant(imm_kind::i16, 0x3800));
static_assert(is_inline_constant(imm_kind::b64, static_cast<uint64_t>(-16)));

// The target
static_assert(gfx942.regs.sgprs == 102 && gfx942.regs.vgprs == 256 && gfx942.lds_bytes == 65536);
static_assert(gfx942.num_instrs == gfx942_num_instrs && gfx942.wave_size == 64 && gfx942.max_snop == 15);
static_assert(gfx942.hazard_rules != nullptr && gfx942.hazard_rules->count > 0);
}  // namespace isa_static
