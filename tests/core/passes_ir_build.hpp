// Constexpr IR building for the pass tests and the raw-IR test kernels: instructions by
// mnemonic with the real table of the target, without the DSL (so the passes are tested on
// exactly the IR they get). Usable at run time, in constant evaluation and in device code.
#pragma once
#include <initializer_list>
#include <string_view>

#include "hipasm/pipeline.hpp"

namespace hipasm::test {

// Operand shorthands. A vreg operand with dwords 0 takes the register's full width.
constexpr operand R(uint64_t id, uint16_t off = 0, uint16_t n = 0) {
  operand o{};
  o.k = operand::kind::vreg;
  o.value = id;
  o.offset = off;
  o.dwords = n;
  return o;
}
constexpr operand NEG(operand o) {
  o.neg = true;
  return o;
}
constexpr operand ABS(operand o) {
  o.abs = true;
  return o;
}
constexpr operand I(int64_t v) {
  operand o{};
  o.k = operand::kind::imm;
  o.value = static_cast<uint64_t>(v);
  return o;
}
constexpr operand L(uint32_t b) {
  operand o{};
  o.k = operand::kind::label;
  o.value = b;
  return o;
}
constexpr operand SP(special_reg r) {
  operand o{};
  o.k = operand::kind::special;
  o.sp = r;
  o.dwords = (r == special_reg::vcc || r == special_reg::exec) ? 2 : 1;
  return o;
}
constexpr operand PH(reg_class c, uint64_t idx, uint16_t n = 1) {
  operand o{};
  o.k = operand::kind::phys;
  o.cls = c;
  o.value = idx;
  o.dwords = n;
  return o;
}
constexpr operand OFF() { return operand{}; }

struct kb {
  function fn;
  isa_view isa = target_isa();
  uint32_t line = 100;  // each instruction gets the next "source line"

  constexpr explicit kb(std::string_view name = "k") {
    fn.name = name;
    fn.blocks.emplace_back();
  }
  constexpr uint64_t reg(reg_class c, uint16_t dwords = 1, std::string_view name = {}, int16_t fixed = -1,
                         uint16_t align = 1) {
    vreg_info v{};
    v.cls = c;
    v.dwords = dwords;
    v.align = align;
    v.fixed = fixed;
    v.name = name;
    v.loc = src_loc{"test.cpp", line};
    fn.vregs.push_back(v);
    return fn.vregs.size() - 1;
  }
  constexpr uint64_t s(uint16_t n = 1, std::string_view name = {}) { return reg(reg_class::sgpr, n, name); }
  constexpr uint64_t v(uint16_t n = 1, std::string_view name = {}) { return reg(reg_class::vgpr, n, name); }
  constexpr uint64_t a(uint16_t n = 1, std::string_view name = {}) { return reg(reg_class::agpr, n, name); }
  constexpr uint32_t block() {
    fn.blocks.emplace_back();
    return static_cast<uint32_t>(fn.blocks.size() - 1);
  }
  constexpr void edge(uint32_t from, uint32_t to) { fn.blocks[from].succs.push_back(to); }
  constexpr instr& op(uint32_t b, std::string_view mnemonic, std::initializer_list<operand> ops) {
    const isa::instr_desc* d = active_target::desc.find(mnemonic);  // binary search
    if (!d) __builtin_trap();  // unknown mnemonic: not a constant expression
    return op(b, static_cast<target_op>(d - active_target::desc.instrs), ops);
  }
  // By table index: the variants that share a mnemonic (returning atomics, LDS loads).
  constexpr instr& op(uint32_t b, target_op which, std::initializer_list<operand> ops) {
    const int idx = static_cast<int>(which);
    instr& in = fn.blocks[b].instrs.emplace_back();  // in place, as the library's builder does
    in.op = static_cast<uint16_t>(idx);
    in.loc = src_loc{"test.cpp", ++line};
    int i = 0;
    for (const operand& o_ : ops) {
      operand& o = in.ops[i++];
      o = o_;
      if (o.k == operand::kind::vreg) {
        o.cls = fn.vregs[o.value].cls;
        if (o.dwords == 0) o.dwords = static_cast<uint16_t>(fn.vregs[o.value].dwords - o.offset);
      }
    }
    in.num_operands = static_cast<uint8_t>(i);
    return in;
  }
};

}  // namespace hipasm::test
