// The independent checker (verify.hpp) on the kernel library's kernels, compiled natively
// through the whole pipeline: no two simultaneously live values share a register (on every
// path, memory results until their waits) and every hazard window is met. The allocator's
// coalesced copies (`x = x`) are kept for the allocation check: without them a value computed
// straight into the register of a loop-carried one (paged_attn_decode's bf16 probabilities `p`)
// reads, to the checker, as that value's register overwritten by another.
#include <catch2/catch.hpp>

#include <string>

#include <hipasm/hipasm.hpp>
#include <hipasm/kernels/attn_fwd.hpp>
#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/gemm_bf16.hpp>
#include <hipasm/kernels/gemm_quant.hpp>
#include <hipasm/kernels/moe.hpp>
#include <hipasm/kernels/paged_attn_decode.hpp>
#include <hipasm/kernels/sort.hpp>
#include <hipasm/kernels/topk_softmax.hpp>
#include <hipasm/verify.hpp>

using namespace hipasm;

namespace {

template <auto Kernel>
void check_kernel(const char* name) {
  INFO(name);
  build_result br = detail::build_ir<Kernel>(name);
  INFO(br.error.view());
  REQUIRE_FALSE(br.error.failed);
  pipeline_options po{};
  po.kernel = detail::kernel_options_of<Kernel>();
  po.limits = register_limits{gfx942.regs.sgprs, gfx942.regs.vgprs, gfx942.regs.agprs};
  po.occupancy = occupancy_of(gfx942);
  pipeline_state st{std::move(br.fn), target_isa(), &gfx942_hazards, po};
  for (const pipeline_step& step : pipeline_steps) {
    if (step.run == detail::step_regalloc) {
      // regalloc without remove_identity_copies
      if (st.liveness.empty()) st.liveness.push_back(compute_liveness(st.fn, st.isa, nullptr));
      REQUIRE(allocate_registers(st.fn, st.liveness.back(), st.error, st.options.limits,
                                 st.options.kernel.coalesce ? &st.isa : nullptr));
      st.liveness.clear();
      st.accesses_after_dce.clear();
      continue;
    }
    INFO(step.name);
    REQUIRE(run_step(st, step));
  }
  const auto va = verify_allocation(st.fn, st.isa);
  INFO(va.view());
  CHECK_FALSE(va.failed);
  const auto vh = verify_hazards(st.fn, st.isa, gfx942_hazards);
  INFO(vh.view());
  CHECK_FALSE(vh.failed);
}

}  // namespace

TEST_CASE("verify: paged_attn_decode (bf16 and fp8 caches, the benchmark's and the tests' shapes)", "[verify][library]") {
  using kernels::paged_attn_decode_body;
  using kernels::paged_attn_decode_config;
  check_kernel<&paged_attn_decode_body<paged_attn_decode_config{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4}>>("pa_bf16");
  check_kernel<&paged_attn_decode_body<paged_attn_decode_config{
      .head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .prefetch = 3, .kv_cache = kernels::pa_kv_cache::fp8_per_token}>>(
      "pa_fp8");
  check_kernel<&paged_attn_decode_body<paged_attn_decode_config{.head_dim = 64, .block_size = 32, .gqa = 4, .waves = 2}>>("pa_d64");
  check_kernel<&paged_attn_decode_body<paged_attn_decode_config{.head_dim = 128, .block_size = 16, .gqa = 16, .waves = 1}>>(
      "pa_g16_w1");
}

TEST_CASE("verify: attn_fwd, GEMMs, sort, moe sorting, topk_softmax, dynamic_quant 1x128 blocks", "[verify][library]") {
  check_kernel<&kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 128, .causal = true, .waves = 8, .bn = 64}>>("attn_d128_causal");
  check_kernel<&kernels::attn_fwd_kernel<kernels::attn_fwd_config{.head_dim = 64, .causal = false, .waves = 4, .bn = 32}>>("attn_d64");
  check_kernel<&kernels::gemm_bf16_kernel<kernels::gemm_bf16_config{}>>("gemm_bf16_default");
  check_kernel<&kernels::gemm_quant_kernel<kernels::gemm_quant_config{.type = kernels::quant_type::fp8, .scale = kernels::quant_scale::block128, .bm = 64,
                                                    .bn = 64, .wm = 2, .wn = 1, .dma = true, .stages = 3}>>("gemm_fp8_block");
  check_kernel<&kernels::gemm_quant_kernel<kernels::gemm_quant_config{.type = kernels::quant_type::i8, .scale = kernels::quant_scale::per_token, .bm = 64,
                                                    .bn = 64, .wm = 2, .wn = 1, .ahead = 2}>>("gemm_i8_token");
  using kernels::sort_config;
  check_kernel<&kernels::sort<sort_config{.key = kernels::sort_key::f32, .per_lane = 32, .waves = 4, .row_per_wave = true}>>(
      "sort_wave2048");
  check_kernel<&kernels::sort<sort_config{.key = kernels::sort_key::f32, .payload = kernels::sort_payload::index,
                                          .per_lane = 8, .waves = 8}>>("sort_wg4096_idx");
  check_kernel<&kernels::moe_sorting_kernel<kernels::moe_sorting_config{}>>("moe_sorting");
  check_kernel<&kernels::topk_softmax_body<kernels::topk_softmax_config{.experts = 128, .topk = 8}>>("topk_128x8");
  // fp8 with 1x128 block scales (the maxima a butterfly over 16 lanes, every step's at once)
  check_kernel<&kernels::dynamic_quant<kernels::dynamic_quant_config{.d = 7168, .waves = 4, .block = 128}>>("dq_fp8_block128");
}
