// Test helper for the pass tests: builds IR by hand with the real gfx942 table, by
// mnemonic, without the DSL (so the passes are tested on exactly the IR they get).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "hipasm/emit.hpp"
#include "hipasm/pipeline.hpp"
#include "hipasm/verify.hpp"

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
  isa_view isa = gfx942_isa();
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
    const int idx = isa.find(mnemonic);
    if (idx < 0) throw std::invalid_argument("unknown mnemonic");
    instr in{};
    in.op = static_cast<uint16_t>(idx);
    in.loc = src_loc{"test.cpp", ++line};
    int i = 0;
    for (operand o : ops) {
      if (o.k == operand::kind::vreg) {
        o.cls = fn.vregs[o.value].cls;
        if (o.dwords == 0) o.dwords = static_cast<uint16_t>(fn.vregs[o.value].dwords - o.offset);
      }
      in.ops[i++] = o;
    }
    in.num_operands = static_cast<uint8_t>(i);
    fn.blocks[b].instrs.push_back(in);
    return fn.blocks[b].instrs.back();
  }
};

inline std::string to_text(const function& fn, bool comments = false) {
  size_sink s;
  emit_options opt;
  opt.comments = comments;
  print_function(s, fn, gfx942_isa(), opt);
  std::string out(s.n, '\0');
  array_sink a{out.data()};
  print_function(a, fn, gfx942_isa(), opt);
  return out;
}

inline std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// Assembles text with llvm-mc-22 for gfx942: returns the assembler's diagnostics ("" = ok).
inline std::string assemble_errors(const std::string& text, const std::string& tag) {
  const std::string path = "/tmp/hipasm_test_" + tag + "_" + std::to_string(::getpid()) + ".s";
  std::ofstream(path) << text;
  std::string errs = run("llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -filetype=null " + path + " 2>&1");
  std::remove(path.c_str());
  return errs;
}

}  // namespace hipasm::test
