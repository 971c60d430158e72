// Host tests of the control-flow lowering's IR: which instructions mark EXEC, where the
// branches go, how blocks and CFG edges are laid out. (test_control_flow_sim.cpp runs the
// same constructs in the simulator against C++.)
#include <catch2/catch.hpp>

#include <hipasm/builder.hpp>
#include <hipasm/pipeline.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace hipasm;

namespace {

std::string_view name_of(const instr& in) { return isa::gfx942_table[in.op].name; }
std::vector<std::string> body(const function& fn) {
  std::vector<std::string> r;
  for (uint32_t b = 1; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs)
      if (name_of(in) != "s_waitcnt") r.emplace_back(name_of(in));  // (the kernel-argument wait: kernel_options::schedule)
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

constexpr void scalar_bit_if(builder J, arg<uint32_t> n) {
  auto s = J.sgpr<u32>();
  gpr<u32> t = n;
  s = 0u;
  J.If((t & 4u) != 0u, [&] { s = 1u; });  // s_and's SCC is the test
  auto m = J.sgpr<u32>();
  m = t >> 3u;
  s = s + 2u;  // another SALU write of SCC after m's: m's test needs its s_cmp
  J.If(m == 0u, [&] { s = s + 3u; });
  J.s_store_dword(s, J.kernarg_ptr(), 0);
}

}  // namespace

TEST_CASE("uniform If on (x & bit) != 0: the branch reads s_and's SCC, no s_cmp", "[control_flow]") {
  build_result r = build_kernel<scalar_bit_if>("scalar_bit_if");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  const auto at = [&](std::string_view op, std::size_t from = 0) {
    for (std::size_t i = from; i < m.size(); ++i)
      if (m[i] == op) return i;
    return m.size();
  };
  const std::size_t a = at("s_and_b32");
  REQUIRE(a + 1 < m.size());
  CHECK(m[a + 1] == "s_cbranch_scc0");  // skip the then-block when the AND is 0
  const std::size_t sh = at("s_lshr_b32");
  REQUIRE(sh < m.size());
  CHECK(at("s_cmp_eq_u32", sh) < m.size());
  CHECK(at("s_cmp_lg_u32") == m.size());
}

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

// ---- J.Return() and hand-written flow inside per-lane code ----------------------------------
namespace {

int count_op(const function& fn, std::string_view op) {
  int n = 0;
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs) n += name_of(in) == op;
  return n;
}
// The error names the offending line of this file and says what is wrong.
void check_error(const build_result& r, int line, std::string_view what) {
  REQUIRE_FALSE(r.error.ok());
  std::string msg(r.error.view());
  INFO(msg);
  CHECK(msg.find("test_control_flow.cpp:" + std::to_string(line) + ": error:") != std::string::npos);
  CHECK(msg.find(what) != std::string::npos);
}

constexpr void uniform_return(builder J, arg<int> n) {
  auto s = J.sgpr<i32>();
  J.If(n > 3, [&] { J.Return(); });
  s = 1;
}
constexpr void lane_return(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.If(v < 10u, [&] { J.Return(); });
  v = v + 1;
}
constexpr int endpgm_if_line = __LINE__ + 5;
constexpr void endpgm_in_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.If(v == 0u, [&] {
    J.s_endpgm();
  });
  v = v + 1;
}
constexpr int endpgm_op_line = __LINE__ + 5;
constexpr void endpgm_by_name_in_lane_loop(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.While([&] { return v < 20u; }, [&] {
    J.op("s_endpgm", {});
    v = v + 1;
  });
}
// Known only at the loop's end: the per-lane Break after it parks lanes in the uniform loop.
constexpr int endpgm_loop_line = __LINE__ + 6;
constexpr void endpgm_in_uniform_loop_with_lane_break(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto s = J.sgpr<u32>();
  J.For(s, 0u, 8u, [&] {
    J.If(s == 5u, [&] { J.s_endpgm(); });
    J.If(v == s, [&] { J.Break(); });
  });
}
constexpr int setpc_line = __LINE__ + 6;
constexpr void setpc_in_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto p = J.sgpr<u64>();
  J.If(v == 3u, [&] {
    J.s_setpc_b64(p);
  });
}
constexpr int jump_out_line = __LINE__ + 5;
constexpr void jump_out_of_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto after = J.make_label("after");
  J.If(v == 3u, [&] { J.Jump(after); });
  J.place(after);
  v = v + 1;
}
constexpr int jump_in_line = __LINE__ + 5;
constexpr void jump_into_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto inside = J.make_label("inside");
  J.Jump(inside);
  J.If(v == 3u, [&] {
    J.place(inside);
    v = v + 1;
  });
}
// Allowed: flow by hand that stays inside one per-lane branch, leaves a uniform loop, ends the
// wave outside per-lane code.
constexpr void hand_flow_allowed(builder J, arg<int> n) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto c = J.sgpr<u32>();
  J.If(v < 7u, [&] {
    auto k = J.sgpr<u32>();  // (the branch's own counter: an SGPR from outside may not be written here)
    k = 0u;
    auto top = J.Label("top");
    k = k + 1u;
    J.s_cmp_lt_u32(k, 4u);
    J.s_cbranch_scc1(top);
  });
  auto out = J.make_label("out");
  J.For(c, 0u, 8u, [&] {
    J.If(c == 5u, [&] { J.Jump(out); });
    J.If(n > 3, [&] { J.s_endpgm(); });
  });
  J.place(out);
  J.If(n > 5, [&] { J.s_endpgm(); });
}

}  // namespace

TEST_CASE("Return outside per-lane code is s_endpgm", "[control_flow][return]") {
  build_result r = build_kernel<uniform_return>("uniform_return");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  std::vector<std::string> want = {"s_cmp_gt_i32", "s_cbranch_scc0", "s_endpgm", "s_mov_b32", "s_endpgm"};
  CHECK(m == want);
}

TEST_CASE("per-lane Return: off the If's saved EXEC, the wave ends when the save is empty", "[control_flow][return]") {
  build_result r = build_kernel<lane_return>("lane_return");
  REQUIRE(r.error.ok());
  auto m = body(r.fn);
  std::vector<std::string> want = {"v_mov_b32",   "v_cmp_lt_u32", "s_and_saveexec_b64", "s_cbranch_execz",
                                   "s_andn2_b64", "s_cbranch_scc0", "s_mov_b64",        "s_branch",
                                   "s_mov_b64",   "v_add_u32",      "s_endpgm"};
  CHECK(m == want);
  // the scc0 branch goes to the final s_endpgm, the s_branch to the If's join (the restore)
  int end = block_of_label_target(r.fn, "s_cbranch_scc0");
  REQUIRE(end > 0);
  CHECK(name_of(r.fn.blocks[end].instrs[0]) == "s_endpgm");
  CHECK(static_cast<uint32_t>(end) == r.fn.blocks.size() - 1);
  int join = block_of_label_target(r.fn, "s_branch");
  CHECK(name_of(r.fn.blocks[join].instrs[0]) == "s_mov_b64");
  CHECK(r.fn.blocks[join].instrs[0].ops[0].sp == special_reg::exec);
  CHECK(count_op(r.fn, "s_endpgm") == 1);
}

TEST_CASE("s_endpgm, s_setpc_b64 and branches by hand may not leave per-lane code", "[control_flow][return]") {
  check_error(build_kernel<endpgm_in_lane_if>("k"), endpgm_if_line, "s_endpgm inside a per-lane If/loop");
  check_error(build_kernel<endpgm_in_lane_if>("k"), endpgm_if_line, "J.Return()");
  check_error(build_kernel<endpgm_by_name_in_lane_loop>("k"), endpgm_op_line, "would end the whole wave");
  check_error(build_kernel<endpgm_in_uniform_loop_with_lane_break>("k"), endpgm_loop_line, "s_endpgm inside a per-lane");
  check_error(build_kernel<setpc_in_lane_if>("k"), setpc_line, "s_setpc_b64 inside a per-lane If/loop");
  check_error(build_kernel<jump_out_of_lane_if>("k"), jump_out_line, "s_branch to label 'after'");
  check_error(build_kernel<jump_out_of_lane_if>("k"), jump_out_line, "leaves a per-lane If/loop");
  check_error(build_kernel<jump_into_lane_if>("k"), jump_in_line, "enters a per-lane If/loop");
  build_result ok = build_kernel<hand_flow_allowed>("k");
  INFO(std::string(ok.error.view()));
  CHECK(ok.error.ok());
}

namespace {
// Whole-wave effects inside per-lane code (builder::wave_uniform).
constexpr int sgpr_op_line = __LINE__ + 7;
constexpr int sgpr_op_if_line = __LINE__ + 5;
constexpr void sgpr_op_in_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto s = J.sgpr<u32>().named("total");
  J.If(v == 0u, [&] {
    J.s_add_u32(s, s, 1u);
  });
}
constexpr int sgpr_expr_line = __LINE__ + 7;
constexpr void sgpr_expr_in_nested_lane_if(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  J.If(v < 32u, [&] {
    auto s = J.sgpr<u32>();  // declared in the outer If: written in the inner one
    s = 0u;
    J.If(v == 3u, [&] { s = s * 3u; });
  });
}
constexpr int sgpr_else_line = __LINE__ + 6;
constexpr void sgpr_cmp_in_lane_else(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto m = J.sgpr<u64>().named("mask");
  J.If(v == 0u, [&] { v = v + 1u; }).Else([&] {
    J.v_cmp_eq_u32(m, v, 5u);  // a VALU write of an SGPR pair (lanes outside EXEC: 0)
  });
}
constexpr int sgpr_loop_line = __LINE__ + 7;
constexpr void sgpr_in_lane_loop_break(builder J) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto s = J.sgpr<u32>().named("trips");
  s = 0u;
  J.While([&] { return v < 20u; }, [&] {
    J.v_readfirstlane_b32(s, v);
    J.If(v == 9u, [&] { J.Break(); });
    v = v + 1u;
  });
}
constexpr int barrier_line = __LINE__ + 6;
constexpr void barrier_in_lane_loop_if(builder J, arg<int> n) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto i = J.sgpr<i32>();
  J.For(i, 0, n, [&] {  // a uniform loop: fine ...
    J.If(v < 7u, [&] { J.s_barrier(); });  // ... a per-lane If in it is not
  });
}
// Allowed: SGPRs declared inside, uniform Ifs and loops (at any depth), a For's counter and the
// flow's own masks under a per-lane condition, and whatever J.wave_uniform holds.
constexpr void wave_scope_allowed(builder J, arg<int> n) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x();
  auto s = J.sgpr<u32>().named("s");
  auto i = J.sgpr<u32>().named("i");
  s = 0u;
  J.If(n > 2, [&] { s = s + 1u; J.s_barrier(); });
  J.For(i, 0u, 4u, [&] { s = s + i; J.s_barrier(); });
  J.If(v < 10u, [&] {
    auto t = J.sgpr<u32>().named("t");
    t = s + 2u;
    J.s_mul_i32(t, t, t);
    J.If(n > 1, [&] { t = t + 1u; });
    J.For(i, 0u, 3u, [&] { t = t + 1u; });  // (i: the For's counter)
    v = v + t;
  });
  J.For(i, 0u, v, [&] {  // per-lane condition: the counter is the loop's
    J.If(v == i, [&] { J.Continue(); });
    J.If(v + i == 9u, [&] { J.If(v > 3u, [&] { J.Break(); }); });
    J.If(v == 100u, [&] { J.Return(); });
    v = v - 1u;
  });
  J.If(v == 0u, [&] {
    J.wave_uniform([&] {
      s = s + 1u;
      J.s_add_u32(s, s, 1u);
      J.s_barrier();
    });
  });
  J.While([&] { return v < 20u; }, [&] {
    v = v + 1u;
    J.wave_uniform([&] { s = s + 1u; });
  });
  v = v + s;
}
constexpr void lane_break_continue(builder J) {
  auto v = J.vgpr<u32>();
  auto i = J.vgpr<u32>();
  v = J.thread_id_x();
  i = 0u;
  J.While([&] { return i < 8u; }, [&] {
    i = i + 1u;
    J.If(v == i, [&] { J.Continue(); });
    J.If(v < i, [&] { J.Break(); });
    v = v + 3u;
  });
}
}  // namespace

TEST_CASE("SGPR writes and s_barrier inside per-lane code are errors at their line; J.wave_uniform allows them",
          "[control_flow][wave_scope]") {
  check_error(build_kernel<sgpr_op_in_lane_if>("k"), sgpr_op_line,
              "s_add_u32 writes SGPR 'total' (declared at ");
  check_error(build_kernel<sgpr_op_in_lane_if>("k"), sgpr_op_line,
              "inside the per-lane If at " + std::string(__FILE__) + ":" + std::to_string(sgpr_op_if_line));
  check_error(build_kernel<sgpr_op_in_lane_if>("k"), sgpr_op_line, "J.wave_uniform([&] { ... })");
  check_error(build_kernel<sgpr_expr_in_nested_lane_if>("k"), sgpr_expr_line, "writes the SGPR declared at ");
  check_error(build_kernel<sgpr_expr_in_nested_lane_if>("k"), sgpr_expr_line,
              "inside the per-lane If at " + std::string(__FILE__) + ":" + std::to_string(sgpr_expr_line));
  check_error(build_kernel<sgpr_cmp_in_lane_else>("k"), sgpr_else_line,
              "v_cmp_eq_u32 writes SGPR 'mask' (declared at ");
  check_error(build_kernel<sgpr_cmp_in_lane_else>("k"), sgpr_else_line, "inside the per-lane Else at ");
  check_error(build_kernel<sgpr_in_lane_loop_break>("k"), sgpr_loop_line,
              "v_readfirstlane_b32 writes SGPR 'trips'");
  check_error(build_kernel<sgpr_in_lane_loop_break>("k"), sgpr_loop_line, "inside the per-lane loop at ");
  check_error(build_kernel<barrier_in_lane_loop_if>("k"), barrier_line, "s_barrier inside the per-lane If at ");
  build_result ok = build_kernel<wave_scope_allowed>("k");
  INFO(std::string(ok.error.view()));
  CHECK(ok.error.ok());
}

namespace {
// Blocks ending in an s_branch to the block right after them.
int branches_to_next(const function& fn) {
  int n = 0;
  for (uint32_t b = 0; b + 1 < fn.blocks.size(); ++b) {
    const auto& ins = fn.blocks[b].instrs;
    if (!ins.empty() && name_of(ins.back()) == "s_branch" && ins.back().ops[0].value == b + 1) ++n;
  }
  return n;
}
}  // namespace

TEST_CASE("pipeline: the branch a per-lane Return/Break/Continue leaves before its If's join is dropped",
          "[control_flow]") {
  for (const build_result& r : {build_kernel<lane_return>("lane_return"),
                                build_kernel<lane_break_continue>("lane_break_continue")}) {
    REQUIRE(r.error.ok());
    function reachable = r.fn;  // what the first step sees before it drops such branches
    remove_unreachable_blocks(reachable);
    const int dropped = branches_to_next(reachable);
    CHECK(dropped > 0);
    const pipeline_state st = compile_function(r.fn);
    REQUIRE_FALSE(st.error.failed);
    CHECK(branches_to_next(st.fn) == 0);
    CHECK(count_op(st.fn, "s_branch") == count_op(reachable, "s_branch") - dropped);
  }
}
