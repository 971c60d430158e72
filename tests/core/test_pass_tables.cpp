// Tables a pipeline step hands to a later one instead of building them again must equal what
// the later step would build: dce's access table after its removals (reused by regalloc's
// liveness, pipeline.hpp's accesses_after_dce) against a table built from the function dce
// left, on library kernels whose dce removes instructions in several blocks.
#include <catch2/catch.hpp>

#include <string>

#include <hipasm/hipasm.hpp>
#include <hipasm/kernels/attn_fwd.hpp>
#include <hipasm/kernels/gemm_quant.hpp>

using namespace hipasm;

namespace {

void require_same(const detail::access_table& a, const detail::access_table& b) {
  REQUIRE(a.block_first.size() == b.block_first.size());
  for (std::size_t i = 0; i < a.block_first.size(); ++i) REQUIRE(a.block_first[i] == b.block_first[i]);
  REQUIRE(a.begin.size() == b.begin.size());
  for (std::size_t i = 0; i < a.begin.size(); ++i) REQUIRE(a.begin[i] == b.begin[i]);
  REQUIRE(a.acc.size() == b.acc.size());
  for (std::size_t i = 0; i < a.acc.size(); ++i) {
    INFO("access " << i);
    REQUIRE(a.acc[i].first == b.acc[i].first);
    REQUIRE(a.acc[i].n == b.acc[i].n);
    REQUIRE(a.acc[i].flags == b.acc[i].flags);
  }
}

// Runs the kernel's pipeline up to dse, then dce with and without the table it leaves.
template <auto Kernel>
void check_table_after_dce(const char* name) {
  INFO(name);
  build_result br = detail::build_ir<Kernel>(name);
  REQUIRE_FALSE(br.error.failed);
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<Kernel>();
  pipeline_state st{std::move(br.fn), gfx942_isa(), &gfx942_hazards, po};
  for (const pipeline_step& step : pipeline_steps) {
    if (step.run == detail::step_dce) break;
    REQUIRE(run_step(st, step));
  }
  function fn = st.fn;
  vec<detail::access_table> after;
  const bool removed = eliminate_dead_code(fn, st.isa, nullptr, nullptr, &after);
  REQUIRE(removed);  // (the kernels are chosen so that dce has work)
  REQUIRE(after.size() == 1);
  const detail::dword_map dm(fn);
  require_same(after.back(), detail::access_table(fn, st.isa, dm));
  // The allocation from the handed table is the one from a fresh liveness.
  const liveness_info fresh = compute_liveness(fn, st.isa);
  const liveness_info reused = compute_liveness(fn, st.isa, &after.back());
  REQUIRE(fresh.vstart.size() == reused.vstart.size());
  for (std::size_t v = 0; v < fresh.vstart.size(); ++v) {
    REQUIRE(fresh.vstart[v] == reused.vstart[v]);
    REQUIRE(fresh.vend[v] == reused.vend[v]);
  }
}

}  // namespace

TEST_CASE("dce's access table after its removals equals a fresh one", "[dce][pipeline]") {
  check_table_after_dce<&attn_fwd_kernel<attn_fwd_config{.head_dim = 64, .causal = true, .waves = 4, .bn = 32}>>(
      "attn_fwd_d64_causal");
  check_table_after_dce<&gemm_quant_kernel<gemm_quant_config{.type = quant_type::i8, .scale = quant_scale::per_token,
                                                             .bm = 64, .bn = 64, .wm = 2, .wn = 1, .ahead = 2}>>(
      "gemm_i8_token_a2");
}

TEST_CASE("the pipeline gives the same asm with dce's table handed on or not", "[dce][pipeline]") {
  // (regalloc builds its own table when dce's is dropped: as after a step that rewrote the function)
  constexpr auto k = &attn_fwd_kernel<attn_fwd_config{.head_dim = 64, .causal = true, .waves = 4, .bn = 32}>;
  build_result br = detail::build_ir<k>("attn");
  REQUIRE_FALSE(br.error.failed);
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<k>();
  po.limits = register_limits{gfx942.regs.sgprs, gfx942.regs.vgprs, gfx942.regs.agprs};
  pipeline_state handed{br.fn, gfx942_isa(), &gfx942_hazards, po};
  pipeline_state rebuilt{std::move(br.fn), gfx942_isa(), &gfx942_hazards, po};
  for (const pipeline_step& step : pipeline_steps) {
    REQUIRE(run_step(handed, step));
    if (step.run == detail::step_regalloc) {
      REQUIRE(rebuilt.accesses_after_dce.size() == 1);  // (dce removed something; no step since rewrote)
      rebuilt.accesses_after_dce.clear();
    }
    REQUIRE(run_step(rebuilt, step));
  }
  size_sink a, b;
  print_function(a, handed.fn, handed.isa, {});
  print_function(b, rebuilt.fn, rebuilt.isa, {});
  std::string ta(a.n, '\0'), tb(b.n, '\0');
  array_sink oa{ta.data()}, ob{tb.data()};
  print_function(oa, handed.fn, handed.isa, {});
  print_function(ob, rebuilt.fn, rebuilt.isa, {});
  REQUIRE(ta == tb);
}
