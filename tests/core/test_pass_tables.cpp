// Tables a pipeline step hands to a later one instead of building them again must equal what
// the later step would build, or, for the liveness dce carries over its own removals (reused by
// regalloc: pipeline.hpp's liveness), cover it: dce's access table of what it left against a
// fresh one, its liveness against a fresh liveness of the function dce left, on library kernels
// whose dce removes instructions in several blocks; the whole pipeline with the handed liveness
// and a fresh one; liveness's per-block sets over the boundary slots against sets over all slots.
#include <catch2/catch.hpp>

#include <string>

#include <hipasm/hipasm.hpp>
#include <hipasm/verify.hpp>
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

void require_same_liveness(const liveness_info& a, const liveness_info& b) {
  REQUIRE(a.def_kills.size() == b.def_kills.size());
  for (std::size_t p = 0; p < a.def_kills.size(); ++p) REQUIRE(a.def_kills[p] == b.def_kills[p]);
  REQUIRE(a.live_in.size() == b.live_in.size());
  for (std::size_t k = 0; k < a.live_in.size(); ++k) {
    INFO("block " << k);
    REQUIRE(a.expand(a.live_in[k]) == b.expand(b.live_in[k]));
    REQUIRE(a.expand(a.live_out[k]) == b.expand(b.live_out[k]));
    REQUIRE(a.expand(a.wide_out[k]) == b.expand(b.wide_out[k]));
  }
  REQUIRE(a.vstart.size() == b.vstart.size());
  for (std::size_t v = 0; v < a.vstart.size(); ++v) {
    REQUIRE(a.vstart[v] == b.vstart[v]);
    REQUIRE(a.vend[v] == b.vend[v]);
  }
  REQUIRE(a.dword_start.size() == b.dword_start.size());
  for (std::size_t d = 0; d < a.dword_start.size(); ++d) {
    REQUIRE(a.dword_start[d] == b.dword_start[d]);
    REQUIRE(a.dword_end[d] == b.dword_end[d]);
  }
}

// A liveness carried over dce's removals (detail::remap_liveness) against a fresh one of the
// same function: the same positions, per-block sets that hold the fresh ones, intervals that
// cover the fresh ones (what the allocator needs).
void require_covers_liveness(const liveness_info& carried, const liveness_info& fresh) {
  REQUIRE(carried.pos.total == fresh.pos.total);
  for (std::size_t b = 0; b < fresh.pos.start.size(); ++b) REQUIRE(carried.pos.start[b] == fresh.pos.start[b]);
  REQUIRE(carried.def_kills.size() == fresh.def_kills.size());
  REQUIRE(carried.live_in.size() == fresh.live_in.size());
  for (std::size_t k = 0; k < fresh.live_in.size(); ++k) {
    INFO("block " << k);
    const detail::bitset ci = carried.expand(carried.live_in[k]), fi = fresh.expand(fresh.live_in[k]);
    const detail::bitset co = carried.expand(carried.live_out[k]), fo = fresh.expand(fresh.live_out[k]);
    for (std::size_t w = 0; w < fi.w.size(); ++w) {
      REQUIRE((fi.w[w] & ~ci.w[w]) == 0);
      REQUIRE((fo.w[w] & ~co.w[w]) == 0);
    }
  }
  REQUIRE(carried.vstart.size() == fresh.vstart.size());
  for (std::size_t v = 0; v < fresh.vstart.size(); ++v) {
    if (fresh.vstart[v] > fresh.vend[v]) continue;  // (accessed nowhere)
    INFO("vreg " << v);
    REQUIRE(carried.vstart[v] <= fresh.vstart[v]);
    REQUIRE(carried.vend[v] >= fresh.vend[v]);
  }
  REQUIRE(carried.dword_start.size() == fresh.dword_start.size());
  for (std::size_t d = 0; d < fresh.dword_start.size(); ++d) {
    if (fresh.dword_start[d] > fresh.dword_end[d]) continue;
    INFO("dword " << d);
    REQUIRE(carried.dword_start[d] <= fresh.dword_start[d]);
    REQUIRE(carried.dword_end[d] >= fresh.dword_end[d]);
  }
}

// The kernel built, with its options, before the first pipeline step.
template <auto Kernel>
pipeline_state built_state(const char* name) {
  build_result br = detail::build_ir<Kernel>(name);
  REQUIRE_FALSE(br.error.failed);
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<Kernel>();
  return pipeline_state{std::move(br.fn), target_isa(), &gfx942_hazards, po};
}

// Runs the kernel's pipeline up to dse, then dce with and without the table it leaves.
// Returns whether its liveness removed something (then the liveness is carried over).
template <auto Kernel>
bool check_table_after_dce(const char* name) {
  INFO(name);
  pipeline_state st = built_state<Kernel>(name);
  for (const pipeline_step& step : pipeline_steps) {
    if (step.run == detail::step_dce) break;
    REQUIRE(run_step(st, step));
  }
  function fn = st.fn;
  vec<liveness_info> live;
  vec<detail::access_table> after;
  const bool removed = eliminate_dead_code(fn, st.isa, &live, nullptr, &after);
  REQUIRE(removed);  // (the kernels are chosen so that dce has work)
  // Its liveness always goes on: as it is when its removals needed none, carried over them
  // (a superset) with the table of what is left when they did.
  REQUIRE(live.size() == 1);
  const detail::dword_map dm(fn);
  const detail::access_table table(fn, st.isa, dm);
  const liveness_info fresh = compute_liveness(fn, st.isa);
  require_same(live.back().acc, table);
  if (after.empty()) {
    require_same_liveness(live.back(), fresh);
    return false;
  }
  require_same(after.back(), table);
  require_covers_liveness(live.back(), fresh);
  // The liveness from the handed table is a fresh one.
  const liveness_info reused = compute_liveness(fn, st.isa, &after.back());
  require_same_liveness(reused, fresh);
  return true;
}

}  // namespace

// A value overwritten on both paths of an If before any read: its register is read later (so
// mark_unread, which asks whether anything reads the register, keeps it) and the blocks differ
// (a block's own overwrite analysis does not see it): only dce's liveness finds it dead.
constexpr void overwritten_on_both_paths(builder J, arg<uint32_t*> out, arg<uint32_t> n) {
  auto v = J.vgpr<u32>();
  v = J.thread_id_x() * 3u;
  J.If(n > 3u, [&] { v = J.thread_id_x() + 5u; }, [&] { v = J.thread_id_x() + 7u; });
  J.global_store_dword(J.vgpr<u64>().fill(0), v, off);
  (void)out;
}

TEST_CASE("dce's access table after its removals equals a fresh one, its carried liveness covers a fresh one", "[dce][pipeline]") {
  int carried = 0;
  carried += check_table_after_dce<&overwritten_on_both_paths>("overwritten_on_both_paths");
  carried += check_table_after_dce<&kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 64, .causal = true, .waves = 4, .bn = 32}>>(
      "attn_fwd_d64_causal");
  carried += check_table_after_dce<&kernels::gemm_quant_kernel<kernels::gemm_quant_config{.type = kernels::quant_type::i8, .scale = kernels::quant_scale::per_token,
                                                             .bm = 64, .bn = 64, .wm = 2, .wn = 1, .ahead = 2}>>(
      "gemm_i8_token_a2");
  carried += check_table_after_dce<&kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 128, .causal = false, .waves = 8, .bn = 64}>>(
      "attn_fwd_d128");
  CHECK(carried > 0);  // (the carried path is taken: attn_fwd's liveness finds dead values)
}

TEST_CASE("the pipeline with dce's liveness handed on and with a fresh one: both clean, the same registers", "[dce][pipeline]") {
  // (regalloc builds its own liveness when dce's is dropped: as after a step that rewrote the
  // function). The carried liveness is a superset, so the allocation may differ; it must be
  // valid (the independent checker) and, on this kernel, as small.
  constexpr auto k = &kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 64, .causal = true, .waves = 4, .bn = 32}>;
  build_result br = detail::build_ir<k>("attn");
  REQUIRE_FALSE(br.error.failed);
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<k>();
  po.limits = register_limits{gfx942.regs.sgprs, gfx942.regs.vgprs, gfx942.regs.agprs};
  pipeline_state handed{br.fn, target_isa(), &gfx942_hazards, po};
  pipeline_state rebuilt{std::move(br.fn), target_isa(), &gfx942_hazards, po};
  for (const pipeline_step& step : pipeline_steps) {
    REQUIRE(run_step(handed, step));
    if (step.run == detail::step_regalloc) {
      // (dce's liveness step handed on its liveness; no step since rewrote)
      REQUIRE(rebuilt.liveness.size() == 1);
      rebuilt.accesses_after_dce.clear();
      rebuilt.liveness.clear();
    }
    REQUIRE(run_step(rebuilt, step));
  }
  for (const pipeline_state* st : {&handed, &rebuilt}) {
    const auto va = verify_allocation(st->fn, st->isa);
    INFO(va.view());
    CHECK_FALSE(va.failed);
    const auto vh = verify_hazards(st->fn, st->isa, gfx942_hazards);
    INFO(vh.view());
    CHECK_FALSE(vh.failed);
  }
  CHECK(handed.usage.count(reg_class::vgpr) == rebuilt.usage.count(reg_class::vgpr));
  CHECK(handed.usage.count(reg_class::sgpr) == rebuilt.usage.count(reg_class::sgpr));
}

namespace {
// Liveness with per-block sets over the boundary slots (a kernel of many blocks) and over all
// slots (a few large blocks) describes the same function: the kill decisions, the per-block
// sets over all slots and the intervals are equal.
template <auto Kernel>
void check_boundary_sets(const char* name) {
  INFO(name);
  pipeline_state st = built_state<Kernel>(name);
  for (const pipeline_step& step : pipeline_steps) {
    if (step.run == detail::step_regalloc) break;
    if (step.run == detail::step_dce) {  // (before and after dce's removals)
      const liveness_info a = compute_liveness(st.fn, st.isa, nullptr, liveness_sets::all_slots);
      const liveness_info b = compute_liveness(st.fn, st.isa, nullptr, liveness_sets::boundary_slots);
      require_same_liveness(a, b);
    }
    REQUIRE(run_step(st, step));
  }
  const liveness_info a = compute_liveness(st.fn, st.isa, nullptr, liveness_sets::all_slots);
  const liveness_info b = compute_liveness(st.fn, st.isa, nullptr, liveness_sets::boundary_slots);
  REQUIRE(b.boundary_slot.size() < a.boundary_slot.size());  // (the kernels have one-block vregs)
  require_same_liveness(a, b);
}
}  // namespace

TEST_CASE("liveness over the boundary slots equals liveness over all slots", "[liveness]") {
  check_boundary_sets<&kernels::gemm_quant_kernel<kernels::gemm_quant_config{.type = kernels::quant_type::fp8, .scale = kernels::quant_scale::block128,
                                                           .bm = 64, .bn = 64, .wm = 2, .wn = 1, .dma = true,
                                                           .stages = 3}>>("gemm_fp8_block_small");
  check_boundary_sets<&kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 64, .causal = true, .waves = 4, .bn = 32}>>(
      "attn_fwd_d64_causal");
}
