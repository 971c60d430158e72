// The generated mnemonic surface (gfx942_mnemonics.hpp) on a stand-in builder: each method
// takes exactly the instruction's operands, then modifiers, then the caller's location, and
// forwards the right gfx942_op; the variants set the modifier that spells them.
#include <catch2/catch.hpp>

#include <vector>

#include "hipasm/targets/select.hpp"

namespace {
using namespace hipasm;
using namespace hipasm::isa;

// An operand as the builder's operand_arg accepts it (anything with to_operand()).
struct reg_h {
  operand o;
  constexpr operand to_operand() const { return o; }
};

struct recorder : gfx942_mnemonics<recorder> {
  using operand_arg = hipasm::operand_arg;
  struct call {
    gfx942_op op;
    std::vector<operand> ops;
    modifiers m;
    unsigned line;
  };
  std::vector<call> calls;
  constexpr int emit(gfx942_op op, std::initializer_list<operand_arg> ops, const modifiers& m,
                     std::source_location loc) {
    std::vector<operand> v;
    for (const operand_arg& a : ops) v.push_back(a.op);
    calls.push_back({op, v, m, loc.line()});
    return static_cast<int>(calls.size());
  }
};

constexpr reg_h V(int i, int dw = 1) {
  operand o;
  o.k = operand::kind::phys;
  o.cls = reg_class::vgpr;
  o.value = static_cast<uint64_t>(i);
  o.dwords = static_cast<uint16_t>(dw);
  return {o};
}
constexpr reg_h OFF{};

// Usable in constant evaluation.
constexpr int count_calls() {
  recorder r;
  r.v_add_u32(V(0), V(1), V(2));
  r.s_endpgm();
  return static_cast<int>(r.calls.size());
}
static_assert(count_calls() == 2);

template <class B>
concept add_takes_two = requires(B& b, reg_h o) { b.v_add_u32(o, o); };
template <class B>
concept add_takes_three = requires(B& b, reg_h o) { b.v_add_u32(o, o, o); };
static_assert(!add_takes_two<recorder> && add_takes_three<recorder>);
}  // namespace

TEST_CASE("isa_mnemonics: methods forward op, operands, modifiers and the caller's line") {
  recorder r;
  const unsigned line = __LINE__ + 1;
  r.v_add_u32(V(0), V(1), V(2));
  r.global_load_dword(V(0), V(2, 2), OFF, {.offset = 16, .sc0 = true});
  r.global_atomic_add(V(2, 2), V(4), OFF);
  r.global_atomic_add(V(0), V(2, 2), V(4), OFF, {.offset = 8});
  r.buffer_load_dword_lds(V(1), V(4, 4), V(8), {.offen = true});
  r.v_mfma_f32_32x32x8_bf16(V(0, 16), V(16, 2), V(18, 2), V(0, 16), {.cbsz = 1, .abid = 2, .blgp = 3});
  REQUIRE(r.calls.size() == 6);
  CHECK(r.calls[0].op == gfx942_op::v_add_u32);
  CHECK(r.calls[0].ops.size() == 3);
  CHECK(r.calls[0].line == line);
  CHECK(r.calls[1].op == gfx942_op::global_load_dword);
  CHECK(r.calls[1].m.offset == 16);
  CHECK(r.calls[1].m.sc0);
  CHECK(r.calls[2].op == gfx942_op::global_atomic_add);
  CHECK_FALSE(r.calls[2].m.sc0);
  CHECK(r.calls[3].op == gfx942_op::global_atomic_add_rtn);
  CHECK(r.calls[3].m.sc0);  // the returning form is printed with sc0
  CHECK(r.calls[3].m.offset == 8);
  CHECK(r.calls[4].op == gfx942_op::buffer_load_dword_lds);
  CHECK(r.calls[4].m.lds);
  CHECK(r.calls[5].m.blgp == 3);
}

TEST_CASE("isa_mnemonics: every table entry has a method with its operand count") {
  // The generator writes one method per entry; count the enumerators it emits against the
  // table (a missing or extra entry would shift every gfx942_op).
  CHECK(static_cast<std::size_t>(gfx942_op::v_xor_b32) < gfx942_num_instrs);
  for (std::size_t i = 0; i < gfx942_num_instrs; ++i) CHECK(gfx942_instrs[i].num_operands <= max_operands);
  CHECK(gfx942_instrs[static_cast<int>(gfx942_op::v_mfma_f32_32x32x8_bf16)].name == "v_mfma_f32_32x32x8_bf16");
}
