// The builder in constant evaluation: the same kernels must build inside a constant
// expression (this file) and at run time, with identical IR. CMake compiles
// test_builder_constexpr_newinterp.cpp (which includes this file) again with clang's
// -fexperimental-new-constant-interpreter, so both interpreters are covered.
#include <catch2/catch.hpp>

#include <hipasm/builder.hpp>

#include <cstdint>

// hipasm's test build table-checks every lowered instruction (CMakeLists.txt).
static_assert(HIPASM_CHECK_LOWERING == 1, "the tests are built without HIPASM_CHECK_LOWERING");

using namespace hipasm;

namespace cx {

constexpr void scalar_flow(builder J, arg<int*> out, arg<int> n) {
  auto i = J.sgpr<i32>(), acc = J.sgpr<i32>();
  acc = 0;
  J.For(i, 0, n, [&] {
    J.If(i % 3 == 0, [&] { J.Continue(); });
    J.If(i > 100, [&] { J.Break(); });
    acc = acc + i / 7 - (i * i) % 5;
  });
  J.s_store_dword(acc, out, 0);
}
constexpr void vector_flow(builder J, arg<float*> out, arg<const float*> in, arg<unsigned> n) {
  auto gid = J.vgpr<u32>();
  gid = J.workgroup_id_x() * 64 + J.thread_id_x();
  auto k = J.vgpr<u32>();
  k = gid;
  auto x = J.vgpr<f32>().fill(0.0f);
  J.While([&] { return k < n; }, [&] {
    auto p = J.vgpr<u64>();
    p = in + (k << 2);
    auto t = J.vgpr<f32>();
    J.global_load_dword(t, p, off);
    J.s_waitcnt(vmcnt(0));
    J.If(t > 0.0f, [&] { x = x + t; }).Else([&] { x = x - abs(t); });
    J.If(k / 10u == 3u, [&] { J.Break(); });
    k = k + 64 * 4;
  });
  auto q = J.vgpr<u64>();
  q = out + (gid << 2);
  J.global_store_dword(q, x, off);
}
// Many instructions: a straight-line body of N expressions.
template <int N>
constexpr void long_kernel(builder J, arg<int*> out, arg<int> a) {
  auto s = J.sgpr<i32>();
  auto v = J.vgpr<i32>();
  s = a;
  v = J.thread_id_x().as<i32>();
  for (int i = 0; i < N; ++i) {
    s = s * 3 + i;
    v = v + s;
  }
  J.s_store_dword(s, out, 0);
}

struct summary {
  bool ok = false;
  uint32_t blocks = 0, instrs = 0, vregs = 0, edges = 0;
  uint64_t hash = 0;  // over opcodes and operand values
};
template <auto K>
constexpr summary summarize() {
  build_result r = build_kernel<K>("k");
  summary s;
  s.ok = r.error.ok();
  s.blocks = static_cast<uint32_t>(r.fn.blocks.size());
  s.vregs = static_cast<uint32_t>(r.fn.vregs.size());
  uint64_t h = 1469598103934665603ull;
  for (const block& b : r.fn.blocks) {
    s.edges += static_cast<uint32_t>(b.succs.size());
    for (const instr& in : b.instrs) {
      ++s.instrs;
      h = (h ^ in.op) * 1099511628211ull;
      for (uint32_t j = 0; j < in.num_operands; ++j) h = (h ^ (in.ops[j].value + 7 * in.ops[j].offset)) * 1099511628211ull;
    }
  }
  s.hash = h;
  return s;
}

constexpr summary scalar_cx = summarize<scalar_flow>();
constexpr summary vector_cx = summarize<vector_flow>();
constexpr summary long_cx = summarize<long_kernel<500>>();
static_assert(scalar_cx.ok && vector_cx.ok && long_cx.ok);
static_assert(long_cx.instrs > 1000);

}  // namespace cx

TEST_CASE("constant evaluation and run time build the same IR", "[builder][constexpr]") {
  auto same = [](const cx::summary& a, const cx::summary& b) {
    CHECK(a.ok == b.ok);
    CHECK(a.blocks == b.blocks);
    CHECK(a.instrs == b.instrs);
    CHECK(a.vregs == b.vregs);
    CHECK(a.edges == b.edges);
    CHECK(a.hash == b.hash);
  };
  same(cx::scalar_cx, cx::summarize<cx::scalar_flow>());
  same(cx::vector_cx, cx::summarize<cx::vector_flow>());
  same(cx::long_cx, cx::summarize<cx::long_kernel<500>>());
}
