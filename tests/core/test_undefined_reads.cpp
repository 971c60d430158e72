// The undefined-reads check (passes/undefined_reads.hpp): a read of a register that no write
// reaches on some path is an error at the read naming the register and the path; what only
// keeps an old value (DPP's old, v_writelane, d16), registers written on every path (both
// branches of an If/Else, .fill(), before a loop) and registers marked .allow_undefined()
// compile. (tests/core/negative/undefined_*.hip check the static_assert of whole kernels.)
#include <catch2/catch.hpp>

#include <hipasm/helpers/dpp.hpp>
#include <hipasm/kernel.hpp>

#include <string>
#include <string_view>

using namespace hipasm;

namespace {

std::string message(const pipeline_state& s) { return std::string(s.error.view()); }
bool mentions(const pipeline_state& s, std::string_view what) { return message(s).find(what) != std::string::npos; }
std::string at_line(int line) { return "test_undefined_reads.cpp:" + std::to_string(line) + ": error:"; }

// ---- compile: every read has a write on every path --------------------------------------

constexpr void lane_if_else_both(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x = J.vgpr<f32>();
  J.If(t < 32u, [&] { x = 1.0f; }).Else([&] { x = 2.0f; });
  J.global_store_dword(out + 4u * t, x, off);
}
constexpr void uniform_if_else_both(builder J, arg<int*> out, arg<int> n) {
  auto s = J.sgpr<i32>();
  J.If(n > 3, [&] { s = 1; }, [&] { s = 2; });
  J.s_store_dword(s, out, 0);
}
constexpr void nested_lane_ifs(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x = J.vgpr<f32>();
  J.If(t < 32u, [&] {
    J.If(t < 16u, [&] { x = 1.0f; }).Else([&] { x = 2.0f; });
  }).Else([&] {
    x = 3.0f;
  });
  J.global_store_dword(out + 4u * t, x, off);
}
constexpr void filled_array(builder J, arg<float*> out) {
  auto acc = J.vgpr<f32>(4).fill(0.0f);
  auto p = J.vgpr<u64>();
  p = out + 0u;
  for (int i = 0; i < 4; ++i) J.global_store_dword(p, acc[i], off, {.offset = 4 * i});
}
constexpr void loop_carried(builder J, arg<float*> out, arg<int> n) {
  auto i = J.sgpr<i32>();
  auto sum = J.vgpr<f32>().fill(0.0f);
  J.For(i, 0, n, [&] { sum = sum + 1.0f; });
  J.global_store_dword(out + 4u * J.thread_id_x(), sum, off);
}
// DPP without bound_ctrl keeps the old value where the source lane is missing: a partial
// write, whose old contents are not read.
constexpr void dpp_old_value(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x = J.vgpr<f32>();
  x = t.as<f32>();
  auto y = J.vgpr<f32>();
  J.v_mov_b32(y, x, dpp::row_shr(1));
  auto z = J.vgpr<f32>();
  J.v_mov_b32(z, x, dpp::row_shr(1).bound_ctrl());
  J.global_store_dword(out + 4u * t, y + z, off);
}
// v_writelane fills a VGPR lane by lane: the other lanes' old contents are kept, not read.
constexpr void writelane_build(builder J, arg<float*> out, arg<int> n) {
  auto v = J.vgpr<i32>();
  for (int i = 0; i < 4; ++i) J.v_writelane_b32(v, n + i, i);
  J.global_store_dword(out + 4u * J.thread_id_x(), v, off);
}
constexpr void marked_allow_undefined(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>().allow_undefined();
  J.global_store_dword(out + 4u * J.thread_id_x(), x, off);
}
// v_pk_add_f32 with op_sel_hi 0 on its second source reads that pair's low dword for both
// halves (topk_softmax's max in both halves): its high dword is not read.
template <bool HiToo>
constexpr void packed_low_only(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x2 = J.vgpr<f32>(2), m2 = J.vgpr<f32>(2).named("m2"), r2 = J.vgpr<f32>(2);
  x2[0] = t.as<f32>();
  x2[1] = t.as<f32>() + 1.0f;
  m2[0] = 2.0f;
  J.v_pk_add_f32(r2, x2, m2, modifiers{.op_sel_hi = HiToo ? uint8_t(0b11) : uint8_t(0b01)});
  J.global_store_dwordx2(out + 8u * t, r2, off);
}
// A read nobody uses is removed before the check (dce): nothing reads garbage.
constexpr void dead_read(builder J, arg<float*> out) {
  auto x = J.vgpr<f32>();
  auto y = J.vgpr<f32>();
  y = x + 1.0f;
  J.global_store_dword(out + 4u * J.thread_id_x(), J.thread_id_x(), off);
}

// The same condition tested again: the second If runs only where the first one wrote.
constexpr void same_condition_again(builder J, arg<int*> out, arg<int> n) {
  auto s = J.sgpr<i32>();
  J.If(n > 3, [&] { s = n * 3; });
  J.If(n > 3, [&] { J.s_store_dword(s, out, 0); });
  auto t = J.thread_id_x();
  auto c = J.vgpr<u32>();
  c = t + 1u;
  auto y = J.vgpr<i32>();
  J.If(c < 5u, [&] { y = n + 2; });
  J.If(c < 5u, [&] { J.global_store_dword(out + 4u * t, y, off); });
}

// ---- errors -------------------------------------------------------------------------------

constexpr int never_written_line = __LINE__ + 3;
constexpr void never_written(builder J, arg<float*> out) {
  auto acc = J.vgpr<f32>().named("acc");
  J.global_store_dword(out + 4u * J.thread_id_x(), acc, off);
}
constexpr int lane_if_line = __LINE__ + 4;
constexpr void lane_if_only(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x = J.vgpr<f32>().named("x");
  J.If(t < 32u, [&] { x = 1.0f; });
  J.global_store_dword(out + 4u * t, x, off);
}
constexpr int uniform_if_line = __LINE__ + 3;
constexpr void uniform_if_only(builder J, arg<int*> out, arg<int> n) {
  auto s = J.sgpr<i32>().named("s");
  J.If(n > 3, [&] { s = 1; });
  J.s_store_dword(s, out, 0);
}
constexpr int loop_line = __LINE__ + 7;
constexpr void loop_reads_first(builder J, arg<float*> out, arg<int> n) {
  auto i = J.sgpr<i32>();
  auto prev = J.vgpr<f32>().named("prev");
  auto p = J.vgpr<u64>();
  p = out + 0u;
  J.For(i, 0, n, [&] {
    J.global_store_dword(p, prev, off);
    prev = J.thread_id_x().as<f32>();
  });
}
// An accumulating def_use reads its destination: v_fmac into a never-written register.
constexpr int fmac_line = __LINE__ + 6;
constexpr void fmac_undefined_acc(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto a = J.vgpr<f32>();
  a = t.as<f32>();
  auto acc = J.vgpr<f32>().named("acc");
  J.v_fmac_f32(acc, a, a);
  J.global_store_dword(out + 4u * t, acc, off);
}
// Only the low dword of a pair written, both read.
constexpr int half_line = __LINE__ + 5;
constexpr void half_written_pair(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto p = J.vgpr<u64>().named("p");
  p.lo() = t;
  J.global_store_dword(p, t, off);
}
// Written in the then-branch of an If/Else only: the else lanes skip it.
constexpr int else_line = __LINE__ + 4;
constexpr void lane_then_only_with_else(builder J, arg<float*> out) {
  auto t = J.thread_id_x();
  auto x = J.vgpr<f32>().named("x");
  J.If(t < 32u, [&] { x = 1.0f; }).Else([&] { J.global_store_dword(out + 4u * t, t, off); });
  J.global_store_dword(out + 4u * t, x, off);
}

// A condition whose operand changed between the two Ifs (or another condition) says nothing.
constexpr int changed_line = __LINE__ + 10;
constexpr int other_line = __LINE__ + 10;
template <bool Change>
constexpr void condition_changed(builder J, arg<int*> out, arg<int> n) {
  auto t = J.thread_id_x();
  auto c = J.vgpr<u32>();
  c = t + 1u;
  auto y = J.vgpr<i32>();
  J.If(c < 5u, [&] { y = n + 2; });
  if (Change) c = c + 1u;
  if (Change) J.If(c < 5u, [&] { J.global_store_dword(out + 4u * t, y, off); });
  else J.If(c < 6u, [&] { J.global_store_dword(out + 4u * t, y, off); });
}

}  // namespace

TEST_CASE("undefined reads: registers written on every path compile") {
  CHECK(detail::compile_kernel<lane_if_else_both>("k").error.failed == false);
  CHECK(detail::compile_kernel<uniform_if_else_both>("k").error.failed == false);
  CHECK(detail::compile_kernel<nested_lane_ifs>("k").error.failed == false);
  CHECK(detail::compile_kernel<filled_array>("k").error.failed == false);
  CHECK(detail::compile_kernel<loop_carried>("k").error.failed == false);
  const pipeline_state again = detail::compile_kernel<same_condition_again>("k");
  INFO(message(again));
  CHECK_FALSE(again.error.failed);
}

TEST_CASE("undefined reads: kept old values, marked registers and dead reads compile") {
  const pipeline_state d = detail::compile_kernel<dpp_old_value>("k");
  INFO(message(d));
  CHECK_FALSE(d.error.failed);
  CHECK(detail::compile_kernel<writelane_build>("k").error.failed == false);
  CHECK(detail::compile_kernel<marked_allow_undefined>("k").error.failed == false);
  CHECK(detail::compile_kernel<dead_read>("k").error.failed == false);
  const pipeline_state p = detail::compile_kernel<packed_low_only<false>>("k");
  INFO(message(p));
  CHECK_FALSE(p.error.failed);
  const pipeline_state q = detail::compile_kernel<packed_low_only<true>>("k");
  INFO(message(q));
  CHECK(mentions(q, "reads dword 1 of 'm2'"));
}

TEST_CASE("undefined reads: the error names the read, the register and the path") {
  {
    const pipeline_state s = detail::compile_kernel<never_written>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(never_written_line)));
    CHECK(mentions(s, "reads 'acc' (allocated at "));
    CHECK(mentions(s, "test_undefined_reads.cpp:" + std::to_string(never_written_line - 1) + ")"));
    CHECK(mentions(s, "which is never written"));
    CHECK(mentions(s, ".allow_undefined()"));
  }
  {
    const pipeline_state s = detail::compile_kernel<lane_if_only>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(lane_if_line + 1)));
    CHECK(mentions(s, "in lanes that skip its write at "));
    CHECK(mentions(s, "(the per-lane branch at "));
    CHECK(mentions(s, "test_undefined_reads.cpp:" + std::to_string(lane_if_line) + ")"));
  }
  {
    const pipeline_state s = detail::compile_kernel<uniform_if_only>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(uniform_if_line + 1)));
    CHECK(mentions(s, "reads 's'"));
    CHECK(mentions(s, "on a path that skips its write at "));
    CHECK(mentions(s, "(the branch at "));
    CHECK(mentions(s, "test_undefined_reads.cpp:" + std::to_string(uniform_if_line) + ")"));
  }
  {
    const pipeline_state s = detail::compile_kernel<loop_reads_first>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(loop_line)));
    CHECK(mentions(s, "before its write at "));
    CHECK(mentions(s, "test_undefined_reads.cpp:" + std::to_string(loop_line + 1) + " (on the loop's first iteration)"));
  }
  {
    const pipeline_state s = detail::compile_kernel<fmac_undefined_acc>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(fmac_line)));
    CHECK(mentions(s, "reads 'acc'"));
  }
  {
    const pipeline_state s = detail::compile_kernel<half_written_pair>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(half_line)));
    CHECK(mentions(s, "reads dword 1 of 'p'"));
  }
  {
    const pipeline_state s = detail::compile_kernel<lane_then_only_with_else>("k");
    INFO(message(s));
    CHECK(mentions(s, at_line(else_line + 1)));
    CHECK(mentions(s, "reads 'x'"));
  }
  for (const pipeline_state& s : {detail::compile_kernel<condition_changed<true>>("k"),
                                  detail::compile_kernel<condition_changed<false>>("k")}) {
    INFO(message(s));
    CHECK((mentions(s, at_line(changed_line)) || mentions(s, at_line(other_line))));
    CHECK(mentions(s, "in lanes that skip its write at "));
  }
}
