// The bitop3 modifier (gfx950's v_bitop3_b32 truth table) through the passes: CSE merges two
// v_bitop3 only when their tables agree (the table is the operation; the sources alone are not
// the value), DCE drops one whose result is never read, and the compiled function prints each
// table and assembles with llvm-mc-22 -mcpu=gfx950.
#include <catch2/catch.hpp>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

static_assert(active_target::name == "gfx950");

TEST_CASE("bitop3: CSE tells truth tables apart, DCE drops an unread one") {
  kb k("bitop3");
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto out = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto x = k.v(1, "x"), y = k.v(1, "y");
  auto r1 = k.v(1, "r1"), r2 = k.v(1, "r2"), r3 = k.v(1, "r3"), dead = k.v(1, "dead");
  k.op(0, "v_add_u32", {R(x), I(3), R(tid)});
  k.op(0, "v_lshlrev_b32", {R(y), I(4), R(tid)});
  auto table = [](instr& in, uint16_t t) {
    modifiers m = in.mods.unpack();
    m.bitop3 = t;
    in.mods = m;
  };
  table(k.op(0, "v_bitop3_b32", {R(r1), R(tid), R(x), R(y)}), 0x96);
  table(k.op(0, "v_bitop3_b32", {R(r2), R(tid), R(x), R(y)}), 0xE8);  // other table: kept
  table(k.op(0, "v_bitop3_b32", {R(r3), R(tid), R(x), R(y)}), 0x96);  // same as r1: merged
  table(k.op(0, "v_bitop3_b32", {R(dead), R(tid), R(x), R(y)}), 0x80);
  for (auto v : {r1, r2, r3}) k.op(0, "global_store_dword", {R(tid), R(v), R(out)}).mods.offset = static_cast<int>(4 * v);
  function fn = k.fn;
  CHECK(eliminate_common_subexpressions(fn, k.isa));
  CHECK(count(fn, "v_bitop3_b32") == 3);
  CHECK(eliminate_dead_code(fn, k.isa));
  CHECK(count(fn, "v_bitop3_b32") == 2);
  std::vector<uint16_t> tables;
  for (const auto& in : fn.blocks[0].instrs)
    if (target_isa()[in.op].name == "v_bitop3_b32") tables.push_back(in.mods.unpack().bitop3);
  CHECK(tables == std::vector<uint16_t>{0x96, 0xE8});

  const auto st = compile_function(k.fn);
  check_clean(st, "bitop3");
  const std::string text = to_text(st.fn);
  INFO(text);
  CHECK(text.find(" bitop3:0x96") != std::string::npos);
  CHECK(text.find(" bitop3:0xe8") != std::string::npos);
  CHECK(text.find(" bitop3:0x80") == std::string::npos);
}
