// The gfx942 semantics table (isa/semantics.hpp, target.hpp) the value-rewriting passes read
// instead of opcodes: checked against the mnemonics of the generated instruction table
// (llvm-mc-22's names), so a wrong entry or a missing comparison cannot hide.
#include <catch2/catch.hpp>

#include <hipasm/pipeline.hpp>

#include <map>
#include <string>

namespace {
using hipasm::isa::op_kind;

std::string name_of(uint16_t op) { return std::string(hipasm::gfx942.instrs[op].name); }

// v_cmp_<pred>_<type> with its sources swapped: lt<->gt, le<->ge, nlt<->ngt, nle<->nge.
std::string swapped(const std::string& n) {
  static const std::map<std::string, std::string> sw = {{"lt", "gt"}, {"gt", "lt"},   {"le", "ge"},   {"ge", "le"},
                                                        {"eq", "eq"}, {"ne", "ne"},   {"neq", "neq"}, {"nlt", "ngt"},
                                                        {"ngt", "nlt"}, {"nle", "nge"}, {"nge", "nle"}};
  const std::size_t a = n.find('_', 2) + 1, b = n.find('_', a);
  auto it = sw.find(n.substr(a, b - a));
  return it == sw.end() ? "" : n.substr(0, a) + it->second + n.substr(b);
}
}  // namespace

TEST_CASE("gfx942 semantics entries match their mnemonics", "[isa][semantics]") {
  const hipasm::target& t = hipasm::gfx942;
  REQUIRE(t.semantics != nullptr);
  int compares = 0;
  for (uint16_t op = 0; op < t.num_instrs; ++op) {
    const auto& s = t.semantics[op];
    const std::string n = name_of(op);
    INFO(n);
    switch (s.kind) {
      case op_kind::none: break;
      case op_kind::compare:
        ++compares;
        CHECK(n.rfind("v_cmp_", 0) == 0);
        REQUIRE(s.related < t.num_instrs);
        CHECK(name_of(s.related) == swapped(n));
        break;
      case op_kind::sub:
        REQUIRE(s.related < t.num_instrs);
        CHECK(name_of(s.related) == n.substr(0, 2) + "and_b32");
        CHECK((n == "v_sub_u32" || n == "s_sub_u32"));
        break;
      case op_kind::waitcnt: CHECK(n == "s_waitcnt"); break;
      case op_kind::mov: CHECK((n == "v_mov_b32" || n == "s_mov_b32")); break;
      case op_kind::add: CHECK((n == "v_add_u32" || n == "s_add_u32" || n == "v_add3_u32")); break;
      case op_kind::band: CHECK(n.substr(1) == "_and_b32"); break;
      case op_kind::bor: CHECK((n.substr(1) == "_or_b32" || n == "v_or3_b32")); break;
      case op_kind::bxor: CHECK(n.substr(1) == "_xor_b32"); break;
      case op_kind::mul: CHECK((n == "v_mul_lo_u32" || n == "s_mul_i32")); break;
      case op_kind::shl: CHECK(n == "s_lshl_b32"); break;
      case op_kind::shl_rev: CHECK(n == "v_lshlrev_b32"); break;
      case op_kind::lshr: CHECK(n == "s_lshr_b32"); break;
      case op_kind::lshr_rev: CHECK(n == "v_lshrrev_b32"); break;
      case op_kind::lshl_add: CHECK(n == "v_lshl_add_u32"); break;
      case op_kind::lshl_or: CHECK(n == "v_lshl_or_b32"); break;
      case op_kind::readfirstlane: CHECK(n == "v_readfirstlane_b32"); break;
    }
  }
  // Every 32-bit integer and f32 VOPC comparison whose swapped form exists is listed.
  for (const char* pred : {"lt", "gt", "le", "ge", "eq", "ne"})
    for (const char* ty : {"i32", "u32"}) {
      const hipasm::isa::instr_desc* d = t.find(std::string("v_cmp_") + pred + "_" + ty);
      REQUIRE(d != nullptr);
      CHECK(t.semantics[d - t.instrs].kind == op_kind::compare);
    }
  CHECK(compares == 22);
}
