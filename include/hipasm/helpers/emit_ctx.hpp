// Internal: how the helpers emit. A helper is a short fixed sequence built with the expression
// lowering's context (detail::lower: legal operand forms, constants moved where VOP3 cannot
// take them) plus modifiers (DPP, SDWA, op_sel, clamp); its result is a new register recorded as
// the last expression, so `y = exp(x)` computes straight into y.
#pragma once
#include "../builder.hpp"

namespace hipasm::detail {

struct hctx {
  builder& b;
  src_loc l;
  uint32_t block = 0, first = 0;

  constexpr hctx(builder& bb, src_loc loc) : b(bb), l(loc) {
    b.note_loc(l);
    block = b.cur_block();
    first = b.cur_index();
  }
  constexpr lower L() { return lower{b, l}; }
  constexpr bool failed() const { return b.err.failed; }
  constexpr reg_ref v(uint16_t dwords = 1) { return b.new_reg(reg_class::vgpr, dwords, builder::natural_align(reg_class::vgpr, dwords), l); }
  constexpr reg_ref s(uint16_t dwords = 1) { return b.new_reg(reg_class::sgpr, dwords, builder::natural_align(reg_class::sgpr, dwords), l); }
  // One instruction with modifiers; checked against the table in hipasm's test build, as the
  // expression lowering's instructions are (HIPASM_CHECK_LOWERING).
  constexpr void e(O op, std::initializer_list<operand> ops, const modifiers& m = no_modifiers) {
    if (b.err.failed) return;
    emitted x = b.emit_raw(op, ops, l, m);
#if defined(HIPASM_CHECK_LOWERING) && HIPASM_CHECK_LOWERING
    const instr& in = b.fn.blocks[x.block].instrs[x.index];
    isa::form chosen = isa::form::plain;
    if (!isa::detail::quick_check(op_desc(op), in, isa::reg_limits{}, chosen))
      b.fail(l, "internal helper error: ", isa::check(op_desc(op), in).message.view());
#else
    (void)x;
#endif
  }
  // The result: a new register that `x = helper(...)` may retarget (see assign_temp).
  // retarget = false: the sequence writes the result under another EXEC than the caller's
  // (the reductions' all-lanes mode), so `y = helper(...)` must copy it under the caller's.
  template <dtype T>
  constexpr gpr<T> result(const reg_ref& r, bool retarget = true) {
    if (retarget && b.cur_block() == block) b.last_expr_ = {r.id, block, first, b.cur_index()};
    else b.last_expr_ = {};
    return gpr<T>(r);
  }
};

// An LDS byte address `reg + k` (k constant) for a DS instruction, whose offset field holds 16
// bits (0..65535) while gfx950 has 160 KiB of LDS: `hi` goes into the address VGPR (one add),
// `lo` into the offset field, with room for `span` more bytes that instructions at k + 1 ..
// k + span take (the second half of a split access; the helpers' scratch reads): lo + span <=
// 65535. k in range: no add. Above: hi is k rounded down to 64 KiB (to 32 KiB when the span
// would cross 64 KiB), so nearby accesses share one add (cse). Negative: hi = k (the address
// register's sum is the true address, never a wrapped one).
struct lds_offset_split {
  int64_t hi = 0;
  uint32_t lo = 0;
};
constexpr lds_offset_split split_lds_offset(int64_t k, uint32_t span = 0) {
  if (k >= 0 && k + span <= 65535) return {0, static_cast<uint32_t>(k)};
  if (k < 0 || span >= 32768) return {k, 0};
  int64_t hi = k & ~int64_t{0xffff};
  if ((k - hi) + span > 65535) hi += 0x8000;
  return {hi, static_cast<uint32_t>(k - hi)};
}

// The target's feature flags (target.hpp: target_features), for the helpers' choices.
constexpr const target_features& features() { return active_target::desc.features; }

// An instruction that only targets with some feature have, by name (a helper asks features()
// first: the op enumeration of a target without it has no such member). `need` picks the
// form with those flags among same-named entries (f_lds_dma: a MUBUF load's LDS-DMA form). A
// name the target lacks stops the constant evaluation here, naming this function.
inline O instruction_not_on_this_target_see_the_helper_below() { return O{}; }
constexpr O feature_op(std::string_view name, uint64_t need = 0) {
  const int i = isa::find_instr(name);
  if (i < 0) return instruction_not_on_this_target_see_the_helper_below();
  for (std::size_t k = static_cast<std::size_t>(i); k < active_target::table.size() && active_target::table[k].name == name; ++k)
    if ((active_target::table[k].flags & need) == need) return static_cast<O>(k);
  return instruction_not_on_this_target_see_the_helper_below();
}

// An operand from a val (register element or immediate).
template <dtype T>
constexpr builder* builder_of(const val<T>& a) { return a.x.b; }

}  // namespace hipasm::detail
