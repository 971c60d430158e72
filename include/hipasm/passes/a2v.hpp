// a2v: an instruction that cannot read AGPRs gets its AGPR sources copied into fresh
// VGPRs through v_accvgpr_read_b32 (one per dword) just before it. The operand keeps its
// neg/abs modifiers and its width; only the register changes. An AGPR that is both read
// and written by such an instruction is copied in, and the result copied back with
// v_accvgpr_write_b32.
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

namespace detail {
constexpr bool operand_accepts_agpr(const isa::instr_desc& d, int i) {
  if (i < d.num_operands) return (d.operands[i].classes & isa::oc_agpr) != 0;
  // (s_waitcnt: a wait_for placeholder's registers are not read, only waited for)
  return has(d.flags, isa::f_can_read_agpr | isa::f_waitcnt);
}
}  // namespace detail

constexpr bool agpr_to_vgpr(function& fn, const isa_view& isa, pass_error& err) {
  using namespace detail;
  const int read_op = isa.find("v_accvgpr_read_b32");
  const int write_op = isa.find("v_accvgpr_write_b32");
  for (block& blk : fn.blocks) {
    bool needed = false;
    const vreg_info* const vregs = fn.vregs.data();  // (raw: vec::operator[] is an interpreted call)
    for (const instr& in : blk.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::vreg && vregs[in.ops[i].value].cls == reg_class::agpr &&
            is_use(role_of(isa.descs[in.op], i)) && !operand_accepts_agpr(isa.descs[in.op], i))
          needed = true;
    if (!needed) continue;
    vec<instr> out;
    out.reserve(blk.instrs.size() + 8);
    for (instr in : blk.instrs) {
      const isa::instr_desc& d = isa.descs[in.op];
      vec<instr> after;
      for (int i = 0; i < in.num_operands; ++i) {
        operand& o = in.ops[i];
        const auto role = role_of(d, i);
        if (o.k != operand::kind::vreg || fn.vregs[o.value].cls != reg_class::agpr || !is_use(role) ||
            operand_accepts_agpr(d, i))
          continue;
        if (read_op < 0 || (is_def(role) && write_op < 0)) {
          if (err.begin(in.loc))
            err.add("'").add(d.name).add("' cannot read AGPRs and the target has no v_accvgpr_read_b32");
          return false;
        }
        vreg_info tmp{};
        tmp.cls = reg_class::vgpr;
        tmp.dwords = o.dwords;
        tmp.align = o.dwords > 1 ? 2 : 1;
        tmp.name = fn.vregs[o.value].name;
        tmp.loc = in.loc;
        const uint64_t t = fn.vregs.size();
        fn.vregs.push_back(tmp);
        for (uint16_t j = 0; j < o.dwords; ++j) {
          instr cp{};
          cp.op = static_cast<uint16_t>(read_op);
          cp.num_operands = 2;
          cp.ops[0] = operand{operand::kind::vreg, reg_class::vgpr, special_reg::none, false, false, j, 1, t};
          cp.ops[1] = operand{operand::kind::vreg, reg_class::agpr, special_reg::none, false, false,
                              static_cast<uint16_t>(o.offset + j), 1, o.value};
          cp.loc = in.loc;
          cp.comment = "a2v: AGPR source copied";
          out.push_back(cp);
          if (is_def(role)) {
            instr back = cp;
            back.op = static_cast<uint16_t>(write_op);
            back.ops[0] = cp.ops[1];
            back.ops[1] = cp.ops[0];
            back.comment = "a2v: result copied back";
            after.push_back(back);
          }
        }
        o.value = t;
        o.offset = 0;
        o.cls = reg_class::vgpr;
      }
      out.push_back(in);
      for (const instr& a : after) out.push_back(a);
    }
    blk.instrs = std::move(out);
  }
  return true;
}

}  // namespace hipasm
