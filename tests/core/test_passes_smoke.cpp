#include <catch2/catch.hpp>
#include <unistd.h>

#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

TEST_CASE("smoke: a small program compiles, allocates and assembles") {
  kb k("smoke");
  auto kern = k.reg(reg_class::sgpr, 2, "kernarg", 0, 2);
  auto tid = k.reg(reg_class::vgpr, 1, "tid", 0);
  auto ptr = k.s(2, "ptr");
  auto x = k.v(1, "x");
  auto addr = k.v(2, "addr");
  k.op(0, "s_load_dwordx2", {R(ptr), R(kern), I(0)});
  k.op(0, "v_lshlrev_b32", {R(x), I(2), R(tid)});
  k.op(0, "s_waitcnt", {I(0xc07f)});
  k.op(0, "v_mov_b32", {R(addr, 1, 1), R(ptr, 1, 1)});
  k.op(0, "v_add_co_u32", {R(addr, 0, 1), SP(special_reg::vcc), R(ptr, 0, 1), R(x)});
  k.op(0, "v_addc_co_u32", {R(addr, 1, 1), SP(special_reg::vcc), I(0), R(addr, 1, 1), SP(special_reg::vcc)});
  k.op(0, "global_store_dword", {R(addr), R(tid), OFF()});
  auto st = compile_function(k.fn);
  INFO(st.error.view());
  REQUIRE_FALSE(st.error.failed);
  std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(assemble_errors(text, "smoke") == "");
  CHECK_FALSE(verify_allocation(st.fn, k.isa).failed);
  CHECK_FALSE(verify_hazards(st.fn, k.isa, gfx942_hazards).failed);
}
