// Host launch of the fused MoE kernels (moe.hpp) through hipasm::rt: the same calls drive
// hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto sort_mod = dev->load_file("moe_sorting.co"), s1 = ..., s2 = ...;
//   moe_workspace ws(*dev, tokens, topk, experts, inter);          // sorted buffers, h
//   launch_fused_moe(*dev, {*sort_mod, "sort", sort_cfg}, {*s1, "s1", gemm_cfg}, {*s2, "s2", gemm_cfg},
//                    ws, {.out, .x, .w1, .w2, .topk_ids, .topk_weights, .tokens, .topk, .experts, .dim, .inter});
//
// out (f32 [tokens][dim]) is overwritten (stage 1 zeroes it, stage 2 adds into it).
// Both GEMM stages in one dispatch (HIPASM_MOE_FUSED_KERNEL): launch_fused_moe<sort_cfg,
// stage1_cfg, stage2_cfg>(dev, {sort_mod, "sort"}, {fused_mod, "fused"}, ws, {...}) or
// launch_moe_fused after the sorting. Each stage can also be launched on its own
// (launch_moe_sorting / _stage1 / _stage2), e.g. to feed aiter's fmoe the sorted buffers.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "moe.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct moe_sorting_args {
  uint64_t sorted_token_ids = 0, sorted_weights = 0, sorted_expert_ids = 0, num_valid_ids = 0;  // outputs
  uint64_t topk_ids = 0, topk_weights = 0;  // i32 / f32 [tokens][topk]
  uint32_t tokens = 0, topk = 0, experts = 0;
  uint64_t debug_log = 0;  // a debug_log_buffer (moe_sorting_config::debug_log), else unused
};
struct moe_stage_args {
  uint64_t out = 0;    // f32 [tokens][dim]
  uint64_t h = 0;      // bf16 [max_blocks * 32][inter] (stage 1 writes, stage 2 reads)
  uint64_t x = 0;      // bf16 [tokens][dim]
  uint64_t w = 0;      // stage 1: W1 bf16 [experts][2 * inter or inter][dim]; stage 2: W2 [experts][dim][inter]
  uint64_t sorted_token_ids = 0, sorted_weights = 0, sorted_expert_ids = 0, num_valid_ids = 0;
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0, inter = 0;
};

namespace detail {
inline void moe_check_shape(const char* what, uint32_t tokens, uint32_t topk, uint32_t experts) {
  const std::string w = what;
  if (tokens == 0) throw std::invalid_argument(w + ": tokens must be >= 1");
  if (topk == 0 || topk > experts || topk > 255)
    throw std::invalid_argument(w + ": topk must be 1 .. min(experts, 255), got " + std::to_string(topk));
  if (tokens >= (1u << 24)) throw std::invalid_argument(w + ": tokens must be below 2^24 (24-bit token ids)");
  if (uint64_t(tokens) * topk * 4 >= (uint64_t{1} << 31)) throw std::invalid_argument(w + ": tokens * topk too large");
}
inline void moe_check_gemm(const moe_stage_args& a) {
  moe_check_shape("hipasm moe", a.tokens, a.topk, a.experts);
  if (a.dim == 0 || a.inter == 0 || a.dim % 16 != 0 || a.inter % 16 != 0)
    throw std::invalid_argument("hipasm moe: dim and inter must be positive multiples of 16, got dim " +
                                std::to_string(a.dim) + " inter " + std::to_string(a.inter));
  const uint64_t blocks = moe_max_blocks(a.tokens, a.topk, a.experts);
  if (uint64_t(a.tokens) * a.dim * 4 >= (uint64_t{1} << 31) || blocks * moe_block_m * a.inter * 2 >= (uint64_t{1} << 31) ||
      uint64_t(a.inter) * a.dim * 4 >= (uint64_t{1} << 31))
    throw std::invalid_argument("hipasm moe: out, h and each expert's weights must be below 2 GiB (32-bit offsets)");
}
}  // namespace detail

template <moe_sorting_config C>
rt::launch_report launch_moe_sorting(rt::device& dev, rt::module& m, const std::string& kernel, const moe_sorting_args& a,
                                     const rt::launch_options& opts = {}) {
  detail::moe_check_shape("hipasm moe_sorting", a.tokens, a.topk, a.experts);
  if (a.experts > C.max_experts)
    throw std::invalid_argument("hipasm moe_sorting: " + std::to_string(a.experts) + " experts, the kernel takes up to " +
                                std::to_string(C.max_experts));
  rt::kernel_args args;
  args.add(a.sorted_token_ids).add(a.sorted_weights).add(a.sorted_expert_ids).add(a.num_valid_ids);
  if (C.debug_log && !a.debug_log)
    throw std::invalid_argument("hipasm moe_sorting: the configuration logs (debug_log): pass a debug_log buffer");
  args.add(a.topk_ids).add(a.topk_weights).add(a.tokens).add(a.topk).add(a.experts).add(a.debug_log);
  return dev.launch(m, kernel, {1, 1, 1}, {C.threads(), 1, 1}, args, opts);
}

namespace detail {
// A GEMM stage over `cols` output columns: the checks, the grid, and the arguments both stages
// end with (tokens, dim, inter, grid_y, max blocks) after the stage's own.
template <moe_gemm_config C>
rt::launch_report launch_moe_gemm(rt::device& dev, rt::module& m, const std::string& kernel, const moe_stage_args& a,
                                  uint32_t cols, rt::kernel_args args, const rt::launch_options& opts) {
  moe_check_gemm(a);
  const uint32_t blocks = moe_max_blocks(a.tokens, a.topk, a.experts), gy = C.grid_y(cols, blocks);
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy).add(blocks);
  return dev.launch(m, kernel, {C.grid_x(cols), gy, 1}, {C.threads(), 1, 1}, args, opts);
}
}  // namespace detail

template <moe_gemm_config C>
rt::launch_report launch_moe_stage1(rt::device& dev, rt::module& m, const std::string& kernel, const moe_stage_args& a,
                                    const rt::launch_options& opts = {}) {
  rt::kernel_args args;
  args.add(a.h).add(a.out).add(a.x).add(a.w).add(a.sorted_token_ids).add(a.sorted_expert_ids).add(a.num_valid_ids);
  return detail::launch_moe_gemm<C>(dev, m, kernel, a, a.inter, args, opts);
}

template <moe_gemm_config C>
rt::launch_report launch_moe_stage2(rt::device& dev, rt::module& m, const std::string& kernel, const moe_stage_args& a,
                                    const rt::launch_options& opts = {}) {
  rt::kernel_args args;
  args.add(a.out).add(a.h).add(a.w).add(a.sorted_token_ids).add(a.sorted_weights).add(a.sorted_expert_ids);
  args.add(a.num_valid_ids);
  return detail::launch_moe_gemm<C>(dev, m, kernel, a, a.dim, args, opts);
}

// The intermediate buffers of one run: the sorted routing (aiter's sizes), h, and the fused
// kernel's counters (zero between its launches: the kernel leaves them so).
struct moe_workspace {
  uint32_t max_padded = 0, max_blocks = 0;
  rt::buffer<uint32_t> sorted_token_ids, sorted_expert_ids, num_valid_ids;
  rt::buffer<float> sorted_weights;
  rt::buffer<uint16_t> h;
  rt::buffer<uint32_t> counters;
  moe_workspace(rt::device& dev, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t inter)
      : max_padded(moe_max_padded(tokens, topk, experts)),
        max_blocks(moe_max_blocks(tokens, topk, experts)),
        sorted_token_ids(dev, std::vector<uint32_t>(max_blocks * moe_block_m, 0u)),
        sorted_expert_ids(dev, std::vector<uint32_t>(max_blocks, 0u)),
        num_valid_ids(dev, std::vector<uint32_t>(2, 0u)),
        sorted_weights(dev, std::vector<float>(max_blocks * moe_block_m, 0.0f)),
        h(dev, std::vector<uint16_t>(size_t(max_blocks) * moe_block_m * inter, 0)),
        counters(dev, std::vector<uint32_t>(detail::moe_sync_blocks / 4 + max_blocks, 0u)) {}
};

struct moe_args {
  uint64_t out = 0, x = 0, w1 = 0, w2 = 0, topk_ids = 0, topk_weights = 0;
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0, inter = 0;
};
template <class Config>
struct moe_kernel_ref {
  rt::module& mod;
  std::string name;
};

namespace detail {
template <moe_sorting_config SC>
rt::launch_report moe_sort_into(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& sort, moe_workspace& ws,
                                const moe_args& a, const rt::launch_options& opts) {
  return launch_moe_sorting<SC>(dev, sort.mod, sort.name,
                                {.sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                                 .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                                 .topk_ids = a.topk_ids, .topk_weights = a.topk_weights, .tokens = a.tokens,
                                 .topk = a.topk, .experts = a.experts},
                                opts);
}
}  // namespace detail

// The fused kernel's grid: stage 1's workgroups, then stage 2's (moe_fused_kernel).
struct moe_fused_grid {
  uint32_t stage1_x = 0, stage1_y = 0, stage2_x = 0, stage2_y = 0;
  constexpr uint32_t stage1() const { return stage1_x * stage1_y; }
  constexpr uint32_t size() const { return stage1() + stage2_x * stage2_y; }
};
template <moe_gemm_config C1, moe_gemm_config C2>
constexpr moe_fused_grid moe_fused_grid_for(uint32_t dim, uint32_t inter, uint32_t max_blocks) {
  return {C1.grid_x(inter), C1.grid_y(inter, max_blocks), C2.grid_x(dim), C2.grid_y(dim, max_blocks)};
}

// Both GEMM stages in one dispatch (HIPASM_MOE_FUSED_KERNEL) on ws's sorted routing. Its
// workgroups wait for each other: not with a sampled profile (refused).
template <moe_gemm_config C1, moe_gemm_config C2>
rt::launch_report launch_moe_fused(rt::device& dev, rt::module& m, const std::string& kernel, moe_workspace& ws,
                                   const moe_args& a, const rt::launch_options& opts = {}) {
  detail::moe_check_gemm({.tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter});
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts) || ws.h.size() < size_t(ws.max_blocks) * moe_block_m * a.inter)
    throw std::invalid_argument("hipasm moe fused: the workspace was made for another shape");
  if (opts.profile && opts.profile->sample_cus)
    throw std::invalid_argument("hipasm moe fused: stage-2 workgroups wait for stage-1 ones: profile the whole grid (sample_cus 0)");
  const moe_fused_grid g = moe_fused_grid_for<C1, C2>(a.dim, a.inter, ws.max_blocks);
  rt::kernel_args args;
  args.add(a.out).add(ws.h.addr()).add(a.x).add(a.w1).add(a.w2).add(ws.sorted_token_ids.addr());
  args.add(ws.sorted_weights.addr()).add(ws.sorted_expert_ids.addr()).add(ws.num_valid_ids.addr()).add(ws.counters.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(g.stage1_y).add(g.stage2_y).add(ws.max_blocks);
  return dev.launch(m, kernel, {g.size(), 1, 1}, {C1.threads(), 1, 1}, args, opts);
}

// The three kernels in order; the diagnostics of all three in one report (and the last's time).
template <moe_sorting_config SC, moe_gemm_config GC>
rt::launch_report launch_fused_moe(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& sort,
                                   const moe_kernel_ref<moe_gemm_config>& stage1,
                                   const moe_kernel_ref<moe_gemm_config>& stage2, moe_workspace& ws, const moe_args& a,
                                   const rt::launch_options& opts = {}) {
  auto r = detail::moe_sort_into<SC>(dev, sort, ws, a, opts);
  moe_stage_args s{.out = a.out, .h = ws.h.addr(), .x = a.x, .w = a.w1,
                   .sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                   .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                   .tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter};
  auto r1 = launch_moe_stage1<GC>(dev, stage1.mod, stage1.name, s, opts);
  s.w = a.w2;
  auto r2 = launch_moe_stage2<GC>(dev, stage2.mod, stage2.name, s, opts);
  for (auto* x : {&r1, &r2})
    for (auto& d : x->diagnostics) r.diagnostics.push_back(d);
  r2.diagnostics = r.diagnostics;
  return r2;
}

// The sorting, then both GEMM stages in one dispatch; the diagnostics of both (and the last's time).
template <moe_sorting_config SC, moe_gemm_config C1, moe_gemm_config C2>
rt::launch_report launch_fused_moe(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& sort,
                                   const moe_kernel_ref<moe_gemm_config>& gemm, moe_workspace& ws, const moe_args& a,
                                   const rt::launch_options& opts = {}) {
  auto r = detail::moe_sort_into<SC>(dev, sort, ws, a, opts);
  auto r2 = launch_moe_fused<C1, C2>(dev, gemm.mod, gemm.name, ws, a, opts);
  for (auto& d : r2.diagnostics) r.diagnostics.push_back(d);
  r2.diagnostics = r.diagnostics;
  return r2;
}

}  // namespace hipasm::kernels
