// Host tests of the control-flow lowering's IR: which instructions mark EXEC, where the
// branches go, how blocks and CFG edges are laid out. (test_control_flow_sim.cpp runs the
// same constructs in the simulator against C++.)
#include <catch2/catch.hpp>

#include <hipasm/builder.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace hipasm;

namespace {

std::string_view name_of(const instr& in) { return isa::gfx942_table[in.op].name; }
std::vector<std::string> body(const function& fn) {
  std::vector<std::string> r;
  for (uint32_t b = 1; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs) r.emplace_back(name_of(in));
  return r;
}
int block_of_label_target(const function& fn, std::string_view branch, int nth = 0) {
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      if (name_of(in) == branch && nth-- == 0)
        for (uint32_t j = 0; j < in.num_operands; ++j)
          if (in.ops[j].k == operand::kind::label) return static_cast<int>(in.ops[j].value);
  return -1;
}

constexpr void vec_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.If(v < 10u, [&] { v = v + 1; });
}
constexpr void vec_if_else(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.If(v < 10u, [&] { v = v + 1; }).Else([&] { v = v + 2; });
}
constexpr void vec_while_break(builder J) {
  auto v = J.vgpr<i32>();
  v = J.thread_id_x().as<i32>();
  J.While([&] { return v < 100; }, [&] {
    J.If(v == 50, [&] { J.Break(); });
    v = v + 3;
  });
}
constexpr void scalar_if_else(builder J, arg<int> n) {
  auto s = J.sgpr<i32>();
  J.If(n > 3, [&] { s = 1; }, [&] { s = 2; });
}

}  // namespace

TEST_CASE("per-lane If: v_cmp mask, s_and_saveexec_b64, s_cbranch_execz, restore", "[control_flow]") {
  build_result r = build_kernel<vec_if>("vec_if");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  std::vector<std::string> want = {"v_mov_b32", "v_cmp_lt_u32", "s_and_saveexec_b64", "s_cbranch_execz",
                                   "v_add_u32", "s_mov_b64",    "s_endpgm"};
  CHECK(m == want);
  // the execz branch skips to the restore
  int target = block_of_label_target(r.fn, "s_cbranch_execz");
  REQUIRE(target > 0);
  CHECK(name_of(r.fn.blocks[target].instrs[0]) == "s_mov_b64");
  CHECK(r.fn.blocks[target].instrs[0].ops[0].sp == special_reg::exec);
}

TEST_CASE("per-lane If/Else: the else lanes are saved & ~mask, one restore at the end", "[control_flow]") {
  build_result r = build_kernel<vec_if_else>("vec_if_else");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  std::vector<std::string> want = {"v_mov_b32",   "v_cmp_lt_u32",    "s_and_saveexec_b64", "s_cbranch_execz",
                                   "v_add_u32",   "s_andn2_b64",     "s_cbranch_execz",    "v_add_u32",
                                   "s_mov_b64",   "s_endpgm"};
  CHECK(m == want);
  // then-branch skip goes to the else computation, else skip goes to the restore
  int t0 = block_of_label_target(r.fn, "s_cbranch_execz", 0);
  int t1 = block_of_label_target(r.fn, "s_cbranch_execz", 1);
  CHECK(name_of(r.fn.blocks[t0].instrs[0]) == "s_andn2_b64");
  CHECK(name_of(r.fn.blocks[t1].instrs[0]) == "s_mov_b64");
  // CFG: every conditional branch block has two successors, fall-through first
  for (uint32_t b = 0; b < r.fn.blocks.size(); ++b) {
    const block& bl = r.fn.blocks[b];
    if (!bl.instrs.empty() && name_of(bl.instrs.back()) == "s_cbranch_execz") {
      REQUIRE(bl.succs.size() == 2);
      CHECK(bl.succs[0] == b + 1);
    }
  }
}

TEST_CASE("per-lane While: lanes leave through EXEC; Break under a per-lane If patches its saved EXEC",
          "[control_flow]") {
  build_result r = build_kernel<vec_while_break>("vec_while_break");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  auto find = [&](std::string_view s, size_t from = 0) {
    for (size_t i = from; i < m.size(); ++i)
      if (m[i] == s) return static_cast<int>(i);
    return -1;
  };
  // entry: EXEC saved before the loop head
  int save = find("s_mov_b64");
  int head_cmp = find("v_cmp_lt_i32");
  REQUIRE(save >= 0);
  REQUIRE(head_cmp > save);
  CHECK(m[head_cmp + 1] == "s_and_b64");  // exec &= mask
  CHECK(m[head_cmp + 2] == "s_cbranch_execz");
  // the Break: remove the lanes from the If's saved EXEC, turn them off, jump to the If's join
  int andn2 = find("s_andn2_b64");
  REQUIRE(andn2 > 0);
  CHECK(m[andn2 + 1] == "s_mov_b64");
  CHECK(m[andn2 + 2] == "s_branch");
  // the back edge and the restore at the exit
  int back = find("s_branch", andn2 + 3);
  REQUIRE(back > 0);
  CHECK(m.back() == "s_endpgm");
  CHECK(m[m.size() - 2] == "s_mov_b64");
  // loop back edge in the CFG
  bool back_edge = false;
  for (uint32_t b = 0; b < r.fn.blocks.size(); ++b)
    for (uint32_t s : r.fn.blocks[b].succs) back_edge |= s < b;
  CHECK(back_edge);
}

TEST_CASE("wave-uniform If/Else: s_cmp + s_cbranch_scc0, then-branch jumps over the else", "[control_flow]") {
  build_result r = build_kernel<scalar_if_else>("scalar_if_else");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  std::vector<std::string> want = {"s_cmp_gt_i32", "s_cbranch_scc0", "s_mov_b32", "s_branch", "s_mov_b32", "s_endpgm"};
  CHECK(m == want);
  CHECK(r.fn.uses_kernarg_ptr);
}
