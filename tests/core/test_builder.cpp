// Host tests of the kernel builder: IR shape (blocks, CFG, operands), kernel-argument loads,
// entry state, LDS, and errors that name the user's line. build_kernel runs at run time
// here; test_builder_constexpr.cpp runs the same kernels in constant evaluation.
#include <catch2/catch.hpp>

#include <hipasm/builder.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace hipasm;
using O = isa::gfx942_op;

namespace {

std::string_view name_of(const instr& in) { return isa::gfx942_table[in.op].name; }

std::vector<std::string> mnemonics(const function& fn, uint32_t first_block = 0) {
  std::vector<std::string> r;
  for (uint32_t b = first_block; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs) r.emplace_back(name_of(in));
  return r;
}
int count(const function& fn, std::string_view m) {
  int n = 0;
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs) n += name_of(in) == m;
  return n;
}
const instr* first(const function& fn, std::string_view m) {
  for (const block& b : fn.blocks)
    for (const instr& in : b.instrs)
      if (name_of(in) == m) return &in;
  return nullptr;
}
std::string msg(const build_result& r) { return std::string(r.error.view()); }

// pyhip's README kernel.
constexpr void sum_even(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>().named("i");
  auto cnt = J.sgpr<i32>().named("cnt");
  i = 0;
  cnt = 0;
  J.While([&] { return i < n; }, [&] {
    J.If((i & 1) == 0, [&] { cnt = cnt + i; });
    i = i + 1;
  });
  J.s_store_dword(cnt, out, 0, {.glc = true});
  J.s_waitcnt(lgkmcnt(0));
}

}  // namespace

TEST_CASE("sum_even: blocks, CFG and instructions", "[builder]") {
  build_result r = build_kernel<sum_even>("sum_even");
  REQUIRE(r.error.ok());
  const function& fn = r.fn;
  // prologue: pointer (dwords 0-1) and n (dword 2) -> one x2 and one dword load; their wait
  // comes before the first read (kernel_options::schedule), here the loop's first compare
  REQUIRE(fn.blocks[0].instrs.size() == 2);
  CHECK(name_of(fn.blocks[0].instrs[0]) == "s_load_dwordx2");
  CHECK(name_of(fn.blocks[0].instrs[1]) == "s_load_dword");
  CHECK(fn.blocks[0].instrs[1].ops[2].value == 8);  // byte offset of n
  // n is first read in the loop head: the wait ends the straight-line entry, before the loop
  CHECK(name_of(fn.blocks[1].instrs.back()) == "s_waitcnt");
  CHECK(fn.uses_kernarg_ptr);
  // scalar loop and scalar if: SCC branches, no EXEC manipulation
  CHECK(count(fn, "s_cmp_lt_i32") == 1);
  // (i & 1) == 0: s_and_b32 sets SCC = (i & 1) != 0, the If branches on it (no s_cmp)
  CHECK(count(fn, "s_cmp_eq_u32") == 0);
  CHECK(count(fn, "s_cbranch_scc0") == 1);
  CHECK(count(fn, "s_cbranch_scc1") == 1);
  CHECK(count(fn, "s_branch") == 1);
  CHECK(count(fn, "s_and_saveexec_b64") == 0);
  CHECK(count(fn, "s_add_u32") == 2);  // cnt + i and i + 1, each retargeted (no s_mov)
  CHECK(count(fn, "s_mov_b32") == 2);  // the two initialisers
  CHECK(count(fn, "s_endpgm") == 1);
  // The loop's back edge: the block ending in s_branch jumps to the head, which has it as
  // a predecessor; the head exits to the block after the loop.
  int back_edges = 0;
  for (uint32_t b = 0; b < fn.blocks.size(); ++b) {
    const auto& bl = fn.blocks[b];
    if (!bl.instrs.empty() && name_of(bl.instrs.back()) == "s_branch") {
      REQUIRE(bl.succs.size() == 1);
      CHECK(bl.succs[0] < b);
      ++back_edges;
    }
    if (!bl.instrs.empty() && name_of(bl.instrs.back()) == "s_cbranch_scc0") {
      REQUIRE(bl.succs.size() == 2);
      CHECK(bl.succs[0] == b + 1);  // fall-through first
      CHECK(bl.succs[1] > b);
    }
  }
  CHECK(back_edges == 1);
  // Source lines of the user's kernel are on every instruction of the body.
  for (uint32_t b = 1; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs) {
      CHECK(std::string_view(in.loc.file).find("test_builder.cpp") != std::string_view::npos);
      CHECK(in.loc.line > 0);
    }
  // register names for the asm comments
  bool named_i = false;
  for (const vreg_info& v : fn.vregs) named_i |= v.name == "i";
  CHECK(named_i);
}

namespace {
constexpr void four_ints(builder J, arg<int> a, arg<int> b, arg<int> c, arg<int> d, arg<float*> out) {
  auto s = J.sgpr<i32>();
  s = a + b + c + d;
  J.s_store_dword(s, out, 0);
}
constexpr void unused_args(builder J, arg<int> a, arg<double> b, arg<int> c) {
  auto s = J.sgpr<i32>();
  s = c;
  (void)a;
  (void)b;
}
constexpr void no_args(builder& J) { J.s_nop(0); }
}  // namespace

TEST_CASE("kernel arguments: C ABI offsets, fewest loads, only when used", "[builder][args]") {
  {
    build_result r = build_kernel<four_ints>("four_ints");
    REQUIRE(r.error.ok());
    // four ints (dwords 0..3) + pointer (dwords 4..5): x4 + x2
    const auto& p = r.fn.blocks[0].instrs;
    REQUIRE(p.size() == 2);  // (the wait before the first read: kernel_options::schedule)
    CHECK(name_of(p[0]) == "s_load_dwordx4");
    CHECK(p[0].ops[2].value == 0);
    CHECK(name_of(p[1]) == "s_load_dwordx2");
    CHECK(p[1].ops[2].value == 16);
    // the x4 destination is 4-aligned
    CHECK(r.fn.vregs[p[0].ops[0].value].align == 4);
  }
  {
    build_result r = build_kernel<unused_args>("unused_args");
    REQUIRE(r.error.ok());
    // int a (0), double b (8, aligned), int c (16): only c is loaded
    const auto& p = r.fn.blocks[0].instrs;
    REQUIRE(p.size() == 1);  // (the wait before the first read: kernel_options::schedule)
    CHECK(name_of(p[0]) == "s_load_dword");
    CHECK(p[0].ops[2].value == 16);
    // the body reads the loaded chunk, not the argument's own register
    const instr* mov = first(r.fn, "s_mov_b32");
    REQUIRE(mov);
    CHECK(mov->ops[1].value == p[0].ops[0].value);
  }
  {
    build_result r = build_kernel<no_args>("no_args");
    REQUIRE(r.error.ok());
    CHECK(r.fn.blocks[0].instrs.empty());
  }
}

namespace {
constexpr void ids(builder J, arg<int*> out) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() + J.thread_id_z() + J.workgroup_id_x() + J.workgroup_id_z();
  J.global_store_dword(J.vgpr<u64>().fill(0), v, off);
  (void)out;
}
}  // namespace

TEST_CASE("entry state: only what is read is enabled and unpacked", "[builder][entry]") {
  build_result r = build_kernel<ids>("ids");
  REQUIRE(r.error.ok());
  const function& fn = r.fn;
  CHECK(fn.uses_workitem_id[0]);
  CHECK_FALSE(fn.uses_workitem_id[1]);
  CHECK(fn.uses_workitem_id[2]);
  CHECK(fn.uses_workgroup_id[0]);
  CHECK_FALSE(fn.uses_workgroup_id[1]);
  CHECK(fn.uses_workgroup_id[2]);
  // x = v0 & 0x3ff, z = bfe(v0, 20, 10); the v0 register is fixed to v0
  const instr* a = first(fn, "v_and_b32");
  REQUIRE(a);
  CHECK(a->ops[1].value == 0x3ff);
  CHECK(fn.vregs[a->ops[2].value].fixed == 0);
  CHECK(fn.vregs[a->ops[2].value].cls == reg_class::vgpr);
  const instr* z = first(fn, "v_bfe_u32");
  REQUIRE(z);
  CHECK(z->ops[2].value == 20);
  CHECK(z->ops[3].value == 10);
  CHECK(count(fn, "v_bfe_u32") == 1);  // no y
  // workgroup ids follow the kernarg pointer s[0:1]: x in s2, z in s3 (y not enabled)
  int fixed2 = 0, fixed3 = 0;
  for (const vreg_info& v : fn.vregs) {
    fixed2 += v.cls == reg_class::sgpr && v.fixed == 2;
    fixed3 += v.cls == reg_class::sgpr && v.fixed == 3;
  }
  CHECK(fixed2 == 1);
  CHECK(fixed3 == 1);
}

namespace {
constexpr void x_only(builder J, arg<int*> out) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() + 1u;
  J.global_store_dword(J.vgpr<u64>().fill(0), v, off);
  (void)out;
}
}  // namespace

TEST_CASE("entry state: work-item id x alone is v0 itself, not unpacked", "[builder][entry]") {
  // With y and z unused the descriptor enables only x, and v0 holds x alone (the hardware packs
  // y and z only when enabled: clang-22 stores threadIdx.x of such a kernel straight from v0).
  // The v_and_b32 0x3ff was one VALU instruction of every kernel for nothing.
  build_result r = build_kernel<x_only>("x_only");
  REQUIRE(r.error.ok());
  CHECK(count(r.fn, "v_and_b32") == 0);
  CHECK(count(r.fn, "v_bfe_u32") == 0);
  int fixed_v0 = 0;
  for (const vreg_info& v : r.fn.vregs) fixed_v0 += v.cls == reg_class::vgpr && v.fixed == 0;
  CHECK(fixed_v0 == 1);  // the id x itself
}

namespace {
constexpr void lds_kernel(builder J) {
  lds_ref a = J.lds<float>(10);            // 0..40
  lds_ref b = J.lds<double>(3, 64);        // aligned to 64
  lds_ref d = J.lds_dynamic(16);
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() * 4;
  J.ds_write_b32(v, v, {.offset = static_cast<int32_t>(a.offset)});
  J.ds_write_b32(v, v, {.offset = static_cast<int32_t>(b.offset)});
  J.ds_write_b32(v, v, {.offset = static_cast<int32_t>(d.offset)});
}
}  // namespace

TEST_CASE("LDS: static allocations with alignment, dynamic after them", "[builder][lds]") {
  build_result r = build_kernel<lds_kernel>("lds_kernel");
  REQUIRE(r.error.ok());
  CHECK(r.fn.lds_static_bytes == 64 + 24);
  CHECK(r.fn.lds_dynamic);
  std::vector<int32_t> offs;
  for (const block& b : r.fn.blocks)
    for (const instr& in : b.instrs)
      if (name_of(in) == "ds_write_b32") offs.push_back(in.mods.offset);
  REQUIRE(offs.size() == 3);
  CHECK(offs[0] == 0);
  CHECK(offs[1] == 64);
  CHECK(offs[2] == 96);
}

namespace {
constexpr void regs_kernel(builder J, arg<float*> p) {
  auto acc = J.vgpr<f32>(4, 4).named("acc").fill(0.0f);
  auto row = acc[1];
  row[2] = row[3] * 2.0f;
  auto sl = acc.flat().slice(4, 2);  // elements 4 and 5 (pyhip acc[4:5])
  auto s = J.sgpr<u32>(4).init({1, 2, 3, 4});
  auto a = J.agpr<f32>(4);
  a[0] = acc[0][0];
  J.global_load_dwordx2(sl.as<u32>(), J.vgpr<u64>().fill(0), off);
  J.s_load_dwordx4(s, p, 0);
}
}  // namespace

TEST_CASE("register arrays: shape, indexing, slices, initialisers, AGPR moves", "[builder][registers]") {
  build_result r = build_kernel<regs_kernel>("regs_kernel");
  REQUIRE(r.error.ok());
  const function& fn = r.fn;
  // fill(0) of 16 VGPRs + the u64 fill (2) + 4 s_mov for init
  CHECK(count(fn, "v_mov_b32") == 16 + 2);
  CHECK(count(fn, "s_mov_b32") == 4);
  const instr* mul = first(fn, "v_mul_f32");
  REQUIRE(mul);
  // row[2] = row[3] * 2: destination retargeted into element (1,2) = dword 6 of acc
  CHECK(mul->ops[0].offset == 6);
  CHECK(mul->ops[2].offset == 7);
  const instr* w = first(fn, "v_accvgpr_write_b32");
  REQUIRE(w);
  CHECK(w->ops[0].cls == reg_class::agpr);
  const instr* ld = first(fn, "global_load_dwordx2");
  REQUIRE(ld);
  CHECK(ld->ops[0].offset == 4);
  CHECK(ld->ops[0].dwords == 2);
  bool named = false;
  for (const vreg_info& v : fn.vregs)
    if (v.name == "acc") {
      named = true;
      CHECK(v.dwords == 16);
      CHECK(v.cls == reg_class::vgpr);
    }
  CHECK(named);
  const instr* sl = first(fn, "s_load_dwordx4");
  REQUIRE(sl);
  CHECK(fn.vregs[sl->ops[0].value].align >= 4);
}

namespace {
constexpr void s_s(builder J, arg<int> a, arg<int> b) {
  auto s = J.sgpr<i32>();
  s = a * b + (a >> 3);
}
constexpr void s_v(builder J, arg<int> a) {
  auto v = J.vgpr<i32>();
  v = J.thread_id_x().as<i32>() * a - 5;
}
constexpr void f_s(builder J, arg<float> a, arg<float> b) {
  auto v = J.vgpr<f32>();
  v = a + b;  // SALU has no float add: VALU
}
constexpr void keep_temp(builder J, arg<int> a, arg<int> b) {
  auto x = J.sgpr<i32>();
  auto t = a + b;
  x = t;  // t is a named handle: moved, t keeps its value
  x = x + t;
}
}  // namespace

TEST_CASE("expressions pick SALU or VALU from the operand classes", "[builder][expr]") {
  {
    build_result r = build_kernel<s_s>("s_s");
    REQUIRE(r.error.ok());
    CHECK(count(r.fn, "s_mul_i32") == 1);
    CHECK(count(r.fn, "s_ashr_i32") == 1);
    CHECK(count(r.fn, "s_add_u32") == 1);
    CHECK(count(r.fn, "v_mul_lo_u32") == 0);
  }
  {
    build_result r = build_kernel<s_v>("s_v");
    REQUIRE(r.error.ok());
    CHECK(count(r.fn, "v_mul_lo_u32") == 1);  // full 32-bit multiply, not v_mul_u32_u24
    CHECK(count(r.fn, "v_sub_u32") + count(r.fn, "v_subrev_u32") == 1);
  }
  {
    build_result r = build_kernel<f_s>("f_s");
    REQUIRE(r.error.ok());
    CHECK(count(r.fn, "v_add_f32") == 1);
  }
  {
    build_result r = build_kernel<keep_temp>("keep_temp");
    REQUIRE(r.error.ok());
    CHECK(count(r.fn, "s_add_u32") == 2);
    CHECK(count(r.fn, "s_mov_b32") == 1);
  }
}

// ---- retargeting: a true temporary is computed straight into the destination; a view or
// a copy of a named result is copied (the named register stays written) -------------------
namespace {
constexpr void temp_s(builder J, arg<int> a) {
  auto z = J.sgpr<i32>().named("z");
  z = a + 5;
}
constexpr void temp_v(builder J, arg<int> a) {
  auto z = J.vgpr<i32>().named("z");
  z = J.thread_id_x().as<i32>() + a;
}
constexpr void temp_s64(builder J, arg<const int*> p, arg<int> a) {
  auto z = J.sgpr<u64>().named("z");
  z = p + a;
}
constexpr void temp_v64(builder J, arg<const int*> p) {
  auto z = J.vgpr<u64>().named("z");
  z = p + J.thread_id_x();
}
template <int View>
constexpr void view_s(builder J, arg<int> a) {
  auto z = J.sgpr<i32>().named("z");
  auto t = (a + 5).named("t");
  if constexpr (View == 0) z = t.as<i32>();
  else if constexpr (View == 1) z = t.at(0);
  else if constexpr (View == 2) z = t[0];
  else if constexpr (View == 3) z = t.element(0);
  else if constexpr (View == 4) z = t.slice(0, 1);
  else if constexpr (View == 5) z = t.flat();
  else z = gpr<i32>(t);
}
template <int View>
constexpr void view_v64(builder J, arg<const int*> p) {
  auto z = J.vgpr<u64>().named("z");
  auto t = (p + J.thread_id_x()).named("t");
  if constexpr (View == 0) z = t.as<u64>();
  else if constexpr (View == 1) z = t.at(0);
  else z = t.slice(0, 1);
}

// The body's instructions (blocks after the prologue, without s_endpgm) and their
// destinations' names.
std::vector<std::string> body(const function& fn) {
  std::vector<std::string> r;
  for (uint32_t b = 1; b < fn.blocks.size(); ++b)
    for (const instr& in : fn.blocks[b].instrs) {
      // (s_waitcnt: the kernel-argument wait before the first read, kernel_options::schedule)
      if (name_of(in) == "s_endpgm" || name_of(in) == "s_waitcnt") continue;
      std::string s(name_of(in));
      if (in.num_operands && in.ops[0].k == operand::kind::vreg) s += " " + std::string(fn.vregs[in.ops[0].value].name);
      r.push_back(s);
    }
  return r;
}
}  // namespace

TEST_CASE("x = expr computes into x; a view of a named result is copied", "[builder][expr]") {
  using V = std::vector<std::string>;
  auto run = [](build_result r) {
    INFO(msg(r));
    REQUIRE(r.error.ok());
    return body(r.fn);
  };
  CHECK(run(build_kernel<temp_s>("temp_s")) == V{"s_add_u32 z"});
  CHECK(run(build_kernel<temp_v>("temp_v")) == V{"v_add_u32 z"});
  CHECK(run(build_kernel<temp_s64>("temp_s64")) == V{"s_ashr_i32 ", "s_add_u32 z", "s_addc_u32 z"});
  // (the 64-bit VGPR adds without kernel_options::fold, the carry pair; with it, one
  // v_lshl_add_u64 computed into z or t the same way)
  constexpr kernel_options no_fold{.fold = false};
  CHECK(run(build_kernel<temp_v64>("temp_v64", no_fold)) == V{"v_mov_b32 ", "v_add_co_u32 z", "v_addc_co_u32 z"});
  CHECK(run(build_kernel<temp_v64>("temp_v64")) == V{"v_mov_b32 ", "v_mov_b32 ", "v_lshl_add_u64 z"});
  const V s32 = {"s_add_u32 t", "s_mov_b32 z"};
  CHECK(run(build_kernel<view_s<0>>("as")) == s32);
  CHECK(run(build_kernel<view_s<1>>("at")) == s32);
  CHECK(run(build_kernel<view_s<2>>("index")) == s32);
  CHECK(run(build_kernel<view_s<3>>("element")) == s32);
  CHECK(run(build_kernel<view_s<4>>("slice")) == s32);
  CHECK(run(build_kernel<view_s<5>>("flat")) == s32);
  CHECK(run(build_kernel<view_s<6>>("copy")) == s32);
  const V v64 = {"v_mov_b32 ", "v_add_co_u32 t", "v_addc_co_u32 t", "v_mov_b32 z", "v_mov_b32 z"};
  CHECK(run(build_kernel<view_v64<0>>("as64", no_fold)) == v64);
  CHECK(run(build_kernel<view_v64<1>>("at64", no_fold)) == v64);
  CHECK(run(build_kernel<view_v64<2>>("slice64", no_fold)) == v64);
  const V v64_fold = {"v_mov_b32 ", "v_mov_b32 ", "v_lshl_add_u64 t", "v_mov_b32 z", "v_mov_b32 z"};
  CHECK(run(build_kernel<view_v64<0>>("as64")) == v64_fold);
  CHECK(run(build_kernel<view_v64<1>>("at64")) == v64_fold);
  CHECK(run(build_kernel<view_v64<2>>("slice64")) == v64_fold);
}

// ---- errors: one line, the user's file:line, the kernel's name ---------------------------------
namespace {
constexpr int line_unknown = __LINE__ + 2;
constexpr void bad_name(builder J) {
  J.op("v_add_u33", {J.vgpr<u32>(), 1, 2});
}
constexpr int line_misuse = __LINE__ + 3;
constexpr void bad_operand(builder J) {
  auto s = J.sgpr<u32>();
  J.s_mov_b32(s, J.vgpr<u32>());
}
constexpr int line_index = __LINE__ + 3;
constexpr void bad_index(builder J) {
  auto v = J.vgpr<u32>(4);
  v.at(4) = 1;
}
constexpr int line_assign = __LINE__ + 3;
constexpr void bad_assign(builder J) {
  auto s = J.sgpr<u32>();
  s = J.thread_id_x() + 1;
}
constexpr int line_align = __LINE__ + 3;
constexpr void bad_align(builder J) {
  auto v = J.vgpr<u32>(4);
  J.global_load_dwordx2(v.slice(1, 2), J.vgpr<u64>().fill(0), off);
}
constexpr int line_break = __LINE__ + 2;
constexpr void bad_break(builder J) {
  J.Break();
}
constexpr int line_label = __LINE__ + 3;  // the jump
constexpr void bad_label(builder J) {
  auto L = J.make_label("nowhere");
  J.s_branch(L);
}
constexpr int line_else = __LINE__ + 4;
constexpr void bad_else(builder J, arg<int> n) {
  auto r = J.If(n < 3, [&] {});
  J.s_nop(0);
  r.Else([&] {});
}
constexpr int line_div0 = __LINE__ + 3;
constexpr void bad_div(builder J, arg<int> n) {
  auto s = J.sgpr<i32>();
  s = n / 0;
}
constexpr int line_width = __LINE__ + 2;
constexpr void bad_width(builder J) {
  J.v_add_u32(J.vgpr<u32>(2), J.vgpr<u32>(), J.vgpr<u32>());
}
}  // namespace

static void expect_error(const build_result& r, int line, std::string_view what) {
  INFO(msg(r));
  REQUIRE_FALSE(r.error.ok());
  std::string m = msg(r);
  CHECK(m.find("test_builder.cpp:" + std::to_string(line) + ": error: kernel '") != std::string::npos);
  CHECK(m.find(what) != std::string::npos);
  CHECK(m.find('\n') == std::string::npos);
  CHECK(r.error.loc.line == static_cast<uint32_t>(line));
}

TEST_CASE("errors name the kernel, the user's line and the problem", "[builder][errors]") {
  expect_error(build_kernel<bad_name>("bad_name"), line_unknown, "unknown instruction 'v_add_u33'");
  expect_error(build_kernel<bad_operand>("bad_operand"), line_misuse, "s_mov_b32");
  expect_error(build_kernel<bad_index>("bad_index"), line_index, "index out of range");
  expect_error(build_kernel<bad_assign>("bad_assign"), line_assign, "VGPR) value to an SGPR");
  expect_error(build_kernel<bad_align>("bad_align"), line_align, "must start at a multiple of 2");
  expect_error(build_kernel<bad_break>("bad_break"), line_break, "Break outside a loop");
  expect_error(build_kernel<bad_label>("bad_label"), line_label, "never placed");
  expect_error(build_kernel<bad_else>("bad_else"), line_else, "Else must directly follow");
  expect_error(build_kernel<bad_div>("bad_div"), line_div0, "division by the constant zero");
  expect_error(build_kernel<bad_width>("bad_width"), line_width, "v_add_u32");
}

namespace {
struct pair_arg {
  int a;
  float b;
};
constexpr void mixed_args(builder J, arg<char> c, arg<_Float16> h, arg<pair_arg> s, arg<double> d, arg<short> sh,
                          arg<__bf16> bf, arg<long> l) {
  auto x = J.sgpr<u32>();
  auto y = J.sgpr<f32>();
  x = c.as<u32>() + h.as<u32>() + sh.as<u32>() + bf.as<u32>();
  x = x + s.field<int>(0).as<u32>() + l.lo();
  y = s.field<float>(4);
  auto z = J.sgpr<f64>();
  z = d;
  // C ABI offsets: char 0, _Float16 2, struct 4, double 16, short 24, __bf16 26, long 32
  J.s_nop(0, {}, std::source_location::current());
  (void)h;
  if (c.offset != 0 || h.offset != 2 || s.offset != 4 || d.offset != 16 || sh.offset != 24 || bf.offset != 26 ||
      l.offset != 32 || h.shift != 16 || bf.shift != 16 || c.shift != 0)
    J.op("wrong_offsets", {});
}
}  // namespace

TEST_CASE("kernel arguments of every kind: sub-dword, half types, structs, 64-bit", "[builder][args]") {
  build_result r = build_kernel<mixed_args>("mixed_args");
  INFO(msg(r));
  REQUIRE(r.error.ok());
  // used dwords: 0 (char, half), 1..2 (struct), 4..5 (double), 6 (short, bf16), 8..9 (long).
  // Loads cover runs of used dwords and never split an argument (the struct at dwords 1..2
  // keeps dword 0 a load of its own).
  std::vector<std::pair<std::string, uint64_t>> loads;
  for (const instr& in : r.fn.blocks[0].instrs)
    if (name_of(in).substr(0, 6) == "s_load") loads.emplace_back(std::string(name_of(in)), in.ops[2].value);
  std::vector<std::pair<std::string, uint64_t>> want = {
      {"s_load_dword", 0}, {"s_load_dwordx2", 4}, {"s_load_dwordx2", 16}, {"s_load_dword", 24}, {"s_load_dwordx2", 32}};
  CHECK(loads == want);
}
