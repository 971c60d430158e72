// Host launch of the MXFP4 MoE kernels (moe_fp4.hpp) through hipasm::rt: the same calls drive
// hipasm-sim and a real MI355X (rt::device::open's backend).
//
//   moe_fp4_workspace ws(*dev, tokens, topk, experts, dim, inter);  // xq/xs, sorted buffers, hq/hs
//   launch_moe_fp4<quant_cfg, sort_cfg, s1_cfg, s2_cfg>(*dev, {quant_mod, "quant"}, {sort_mod, "sort"},
//       {s1_mod, "s1"}, {s2_mod, "s2"}, ws, {.out, .x, .w1, .w1_scales, .w2, .w2_scales, .topk_ids,
//       .topk_weights, .tokens, .topk, .experts, .dim, .inter});
//   launch_moe_fp4<quant_cfg, sort_cfg, s1_cfg, s2_cfg>(*dev, {mod, "prologue"}, {mod, "fused"}, ws, {...});
//
// The whole layer: x (bf16 [tokens][dim]) quantized to MXFP4 (mxfp4_quant.hpp), the sorting
// (moe.hpp), stage 1 (h, and out zeroed), stage 2 (out f32 [tokens][dim] += the weighted sums):
// four dispatches, or two (the sorting and the quantization in one, both stages in one).
// Weights in the raw layout (moe_fp4.hpp), or with w_shuffled as moe_fp4_preshuffle returns them.
// Each launch can also run on its own (launch_moe_fp4_stage1 / _stage2).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm_fp4_launch.hpp"
#include "moe_fp4.hpp"
#include "moe_launch.hpp"
#include "mxfp4_quant.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct moe_fp4_stage_args {
  uint64_t out = 0;                 // f32 [tokens][dim]
  uint64_t hq = 0, hs = 0;          // h: max_blocks * 32 * inter / 2 fp4 bytes, / 32 E8M0 (moe_fp4.hpp's layout)
  uint64_t xq = 0, xs = 0;          // stage 1: x quantized, [tokens][dim / 2] and [tokens][dim / 32]
  uint64_t w = 0, w_scales = 0;     // stage 1: W1 and its scales; stage 2: W2 and its scales
  uint64_t sorted_token_ids = 0, sorted_weights = 0, sorted_expert_ids = 0, num_valid_ids = 0;
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0, inter = 0;
  uint64_t y = 0;                   // stage 2 with rows_out: f32 [topk][tokens][dim] (in place of out)
};

namespace detail {
// the stages' grid rows: at most one a block that can hold entries (a block holds at least one, so
// tokens * topk bound the count where it is below aiter's worst case, e.g. in decode)
inline uint32_t moe_fp4_grid_blocks(uint32_t tokens, uint32_t topk, uint32_t experts) {
  return std::min(moe_max_blocks(tokens, topk, experts), tokens * topk);
}
inline void moe_fp4_check(const moe_fp4_stage_args& a) {
  moe_check_shape("hipasm moe_fp4", a.tokens, a.topk, a.experts);
  if (a.dim == 0 || a.inter == 0 || a.dim % 256 != 0 || a.inter % 256 != 0)
    throw std::invalid_argument("hipasm moe_fp4: dim and inter must be positive multiples of 256 (whole K steps), got dim " +
                                std::to_string(a.dim) + " inter " + std::to_string(a.inter));
  const uint64_t blocks = moe_max_blocks(a.tokens, a.topk, a.experts);
  if (uint64_t(a.tokens) * a.dim * 4 >= (uint64_t{1} << 31) || uint64_t(a.inter) * a.dim >= (uint64_t{1} << 31))
    throw std::invalid_argument("hipasm moe_fp4: out and each expert's weights must be below 2 GiB (32-bit offsets)");
  // (the loads of a block not taken or of a padding row go to 2^30 past the start: past every V#)
  if (blocks * moe_block_m * std::max(a.inter, a.dim) / 2 >= (uint64_t{1} << 30))
    throw std::invalid_argument("hipasm moe_fp4: h and x gathered must be below 1 GiB");
}
template <moe_fp4_config C>
rt::launch_report launch_moe_fp4_gemm(rt::device& dev, rt::module& m, const std::string& kernel,
                                      const moe_fp4_stage_args& a, uint32_t cols, rt::kernel_args args,
                                      const rt::launch_options& opts) {
  moe_fp4_check(a);
  const uint32_t blocks = moe_max_blocks(a.tokens, a.topk, a.experts);
  const uint32_t gy = C.grid_y(cols, C.groups(moe_fp4_grid_blocks(a.tokens, a.topk, a.experts)));
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy).add(blocks);
  return dev.launch(m, kernel, {C.grid_x(cols), gy, 1}, {C.threads(), 1, 1}, args, opts);
}
}  // namespace detail

template <moe_fp4_config C>
rt::launch_report launch_moe_fp4_stage1(rt::device& dev, rt::module& m, const std::string& kernel,
                                        const moe_fp4_stage_args& a, const rt::launch_options& opts = {}) {
  rt::kernel_args args;
  args.add(a.hq).add(a.hs).add(a.out).add(a.xq).add(a.xs).add(a.w).add(a.w_scales).add(a.sorted_token_ids);
  args.add(a.sorted_expert_ids).add(a.num_valid_ids);
  return detail::launch_moe_fp4_gemm<C>(dev, m, kernel, a, a.inter, args, opts);
}

// (with C.rows_out the rows go to a.y, out untouched: launch_moe_fp4_reduce sums them into out)
template <moe_fp4_config C>
rt::launch_report launch_moe_fp4_stage2(rt::device& dev, rt::module& m, const std::string& kernel,
                                        const moe_fp4_stage_args& a, const rt::launch_options& opts = {}) {
  if constexpr (C.rows_out) {
    if (a.y == 0) throw std::invalid_argument("hipasm moe_fp4 stage 2: rows_out needs y (f32 [topk][tokens][dim])");
    if (uint64_t(a.tokens) * a.topk * a.dim * 4 > (uint64_t{1} << 31))
      throw std::invalid_argument("hipasm moe_fp4 stage 2: y (topk * tokens * dim f32) must be at most 2 GiB");
  }
  rt::kernel_args args;
  args.add(C.rows_out ? a.y : a.out).add(a.hq).add(a.hs).add(a.w).add(a.w_scales).add(a.sorted_token_ids).add(a.sorted_weights);
  args.add(a.sorted_expert_ids).add(a.num_valid_ids);
  return detail::launch_moe_fp4_gemm<C>(dev, m, kernel, a, a.dim, args, opts);
}

struct moe_fp4_reduce_args {
  uint64_t out = 0, y = 0;  // f32 [tokens][dim], f32 [topk][tokens][dim] (stage 2's rows_out)
  uint64_t topk_ids = 0;    // i32 [tokens][topk]: slots of ids outside [0, experts) are left out
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0;
};

// out = the sums over top-k of stage 2's rows (HIPASM_MOE_FP4_REDUCE_KERNEL of WAVES waves):
// grid (ceil(dim / (256 WAVES)), tokens).
template <uint32_t WAVES>
rt::launch_report launch_moe_fp4_reduce(rt::device& dev, rt::module& m, const std::string& kernel,
                                        const moe_fp4_reduce_args& a, const rt::launch_options& opts = {}) {
  detail::moe_check_shape("hipasm moe_fp4 reduce", a.tokens, a.topk, a.experts);
  if (a.dim == 0 || a.dim % 4 != 0)
    throw std::invalid_argument("hipasm moe_fp4 reduce: dim must be a positive multiple of 4, got " + std::to_string(a.dim));
  if (uint64_t(a.tokens) * a.topk * a.dim * 4 > (uint64_t{1} << 31))
    throw std::invalid_argument("hipasm moe_fp4 reduce: y (topk * tokens * dim f32) must be at most 2 GiB");
  rt::kernel_args args;
  args.add(a.out).add(a.y).add(a.topk_ids).add(a.tokens).add(a.topk).add(a.experts).add(a.dim);
  return dev.launch(m, kernel, {(a.dim + 256 * WAVES - 1) / (256 * WAVES), a.tokens, 1}, {64 * WAVES, 1, 1}, args, opts);
}

// Weights of `experts` experts, each rows x K (K / 2 bytes a row, K / 32 scales), in the layout of
// moe_fp4_config::w_shuffled: each expert's matrix through gemm_fp4_preshuffle_b (rows a multiple
// of 32: no padding), one after another.
inline gemm_fp4_b_shuffled moe_fp4_preshuffle(const std::vector<uint8_t>& q, const std::vector<uint8_t>& scales,
                                              uint32_t experts, uint32_t rows, uint32_t K) {
  if (rows == 0 || rows % 32 != 0) throw std::invalid_argument("moe_fp4_preshuffle: rows must be a positive multiple of 32");
  const size_t eq = size_t(rows) * K / 2, es = size_t(rows) * K / 32;
  if (q.size() != eq * experts || scales.size() != es * experts)
    throw std::invalid_argument("moe_fp4_preshuffle: q and scales must hold experts * rows * K / 2 and / 32 bytes");
  gemm_fp4_b_shuffled r;
  r.q.reserve(q.size());
  r.scales.reserve(scales.size());
  for (uint32_t e = 0; e < experts; ++e) {
    const auto one = gemm_fp4_preshuffle_b(std::vector<uint8_t>(q.begin() + e * eq, q.begin() + (e + 1) * eq),
                                           std::vector<uint8_t>(scales.begin() + e * es, scales.begin() + (e + 1) * es),
                                           rows, K);
    r.q.insert(r.q.end(), one.q.begin(), one.q.end());
    r.scales.insert(r.scales.end(), one.scales.begin(), one.scales.end());
  }
  return r;
}

// The intermediate buffers of one run: x quantized, the sorted routing (aiter's sizes), h.
struct moe_fp4_workspace {
  uint32_t max_blocks = 0;
  rt::buffer<uint8_t> xq, xs;
  rt::buffer<uint32_t> sorted_token_ids, sorted_expert_ids, num_valid_ids;
  rt::buffer<float> sorted_weights;
  rt::buffer<uint8_t> hq, hs;
  rt::buffer<uint32_t> counters;  // the fused kernel's (zero between its launches: it leaves them so)
  // x's sorted rows for an x_gathered stage 1 (launch_moe_fp4_gather): with x_gathered, or
  // allocate_x_gathered (e.g. after the caller's other buffers)
  std::optional<rt::buffer<uint8_t>> xg, xgs;
  // stage 2's rows for a rows_out configuration (f32 [topk][tokens][dim]): allocate_rows
  std::optional<rt::buffer<float>> y;
  moe_fp4_workspace(rt::device& dev, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t dim, uint32_t inter,
                    bool x_gathered = false)
      : max_blocks(moe_max_blocks(tokens, topk, experts)),
        xq(dev, size_t(tokens) * dim / 2),
        xs(dev, size_t(tokens) * dim / 32),
        sorted_token_ids(dev, std::vector<uint32_t>(size_t(max_blocks) * moe_block_m, 0u)),
        sorted_expert_ids(dev, std::vector<uint32_t>(max_blocks, 0u)),
        num_valid_ids(dev, std::vector<uint32_t>(2, 0u)),
        sorted_weights(dev, std::vector<float>(size_t(max_blocks) * moe_block_m, 0.0f)),
        hq(dev, size_t(max_blocks) * moe_block_m * inter / 2),
        hs(dev, size_t(max_blocks) * moe_block_m * inter / 32),
        counters(dev, std::vector<uint32_t>(detail::moe_sync_blocks / 4 + max_blocks, 0u)) {
    if (x_gathered) allocate_x_gathered(dev, dim);
  }
  void allocate_rows(rt::device& dev, uint32_t tokens, uint32_t topk, uint32_t dim) {
    if (!y) y.emplace(dev, size_t(tokens) * topk * dim);
  }
  void allocate_x_gathered(rt::device& dev, uint32_t dim) {
    if (!xg) xg.emplace(dev, size_t(max_blocks) * moe_block_m * dim / 2);
    if (!xgs) xgs.emplace(dev, size_t(max_blocks) * moe_block_m * dim / 32);
  }
};

struct moe_fp4_args {
  uint64_t out = 0, x = 0;                // f32 [tokens][dim], bf16 [tokens][dim]
  uint64_t w1 = 0, w1_scales = 0, w2 = 0, w2_scales = 0;
  uint64_t topk_ids = 0, topk_weights = 0;  // i32 / f32 [tokens][topk]
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0, inter = 0;
};

namespace detail {
// Stage 1 (W1) then stage 2 (W2) on the stage arguments `s` (the layer's buffers), appended to `r`.
template <moe_fp4_config C1, moe_fp4_config C2>
void moe_fp4_stages(rt::device& dev, const moe_kernel_ref<moe_fp4_config>& stage1,
                    const moe_kernel_ref<moe_fp4_config>& stage2, const moe_fp4_stage_args& s, const moe_fp4_args& a,
                    const rt::launch_options& opts, rt::launch_report& r) {
  moe_fp4_stage_args s1 = s;
  s1.w = a.w1;
  s1.w_scales = a.w1_scales;
  rt::append_report(r, launch_moe_fp4_stage1<C1>(dev, stage1.mod, stage1.name, s1, opts));
  moe_fp4_stage_args s2 = s;
  s2.w = a.w2;
  s2.w_scales = a.w2_scales;
  rt::append_report(r, launch_moe_fp4_stage2<C2>(dev, stage2.mod, stage2.name, s2, opts));
}
}  // namespace detail

// The sorting and x's quantization in one dispatch (HIPASM_MOE_FP4_PROLOGUE_KERNEL): workgroup 0
// sorts into ws, the others quantize a.x into ws.xq / ws.xs.
template <moe_sorting_config SC, mxfp4_quant_config QC>
rt::launch_report launch_moe_fp4_prologue(rt::device& dev, rt::module& m, const std::string& kernel,
                                          moe_fp4_workspace& ws, const moe_fp4_args& a,
                                          const rt::launch_options& opts = {}) {
  static_assert(SC.threads() == 64u * static_cast<uint32_t>(QC.waves));
  detail::moe_check_shape("hipasm moe_fp4 prologue", a.tokens, a.topk, a.experts);
  if (a.experts > SC.max_experts)
    throw std::invalid_argument("hipasm moe_fp4 prologue: " + std::to_string(a.experts) +
                                " experts, the kernel takes up to " + std::to_string(SC.max_experts));
  if (uint32_t(QC.d) != a.dim || ws.xq.size() != size_t(a.tokens) * a.dim / 2)
    throw std::invalid_argument("hipasm moe_fp4 prologue: the quantization takes rows of " + std::to_string(QC.d) +
                                " and the workspace must hold tokens x dim, dim is " + std::to_string(a.dim));
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts))
    throw std::invalid_argument("hipasm moe_fp4 prologue: the workspace was made for another shape");
  if (uint64_t(a.tokens) * a.dim * 2 >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm moe_fp4 prologue: x must be below 4 GiB (32-bit offsets)");
  rt::kernel_args args;
  args.add(ws.sorted_token_ids.addr()).add(ws.sorted_weights.addr()).add(ws.sorted_expert_ids.addr());
  args.add(ws.num_valid_ids.addr()).add(a.topk_ids).add(a.topk_weights).add(a.tokens).add(a.topk).add(a.experts);
  args.add(uint64_t{0}).add(ws.xq.addr()).add(ws.xs.addr()).add(a.x);
  return dev.launch(m, kernel, {1 + mxfp4_quant_groups(QC, a.tokens), 1, 1}, {SC.threads(), 1, 1}, args, opts);
}

// x's sorted rows into ws.xg / ws.xs (HIPASM_MOE_FP4_GATHER_KERNEL of WAVES waves, PARTS) after the
// sorting and the quantization: stage 1 of an x_gathered configuration then takes ws.xg / ws.xgs
// as its xq / xs (launch_moe_fp4 does so). PARTS workgroups a block that can hold entries.
template <uint32_t WAVES, uint32_t PARTS = 1>
rt::launch_report launch_moe_fp4_gather(rt::device& dev, rt::module& m, const std::string& kernel, moe_fp4_workspace& ws,
                                        const moe_fp4_args& a, const rt::launch_options& opts = {}) {
  detail::moe_fp4_check({.tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter});
  if (!ws.xg || !ws.xgs)
    throw std::invalid_argument("hipasm moe_fp4 gather: the workspace has no x_gathered buffers (x_gathered, allocate_x_gathered)");
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts) || ws.xq.size() != size_t(a.tokens) * a.dim / 2 ||
      ws.xg->size() != size_t(ws.max_blocks) * moe_block_m * a.dim / 2)
    throw std::invalid_argument("hipasm moe_fp4 gather: the workspace was made for another shape");
  const uint32_t gb = detail::moe_fp4_grid_blocks(a.tokens, a.topk, a.experts);
  rt::kernel_args args;
  args.add(ws.xg->addr()).add(ws.xgs->addr()).add(ws.xq.addr()).add(ws.xs.addr()).add(ws.sorted_token_ids.addr());
  args.add(ws.num_valid_ids.addr()).add(a.tokens).add(a.dim).add(gb).add(ws.max_blocks);
  return dev.launch(m, kernel, {gb, PARTS, 1}, {64 * WAVES, 1, 1}, args, opts);
}

// Both stages in one dispatch (HIPASM_MOE_FP4_FUSED_KERNEL) on ws's sorted routing and x quantized
// there. Its workgroups wait for each other: not with a sampled profile (refused).
template <moe_fp4_config C1, moe_fp4_config C2>
rt::launch_report launch_moe_fp4_fused(rt::device& dev, rt::module& m, const std::string& kernel, moe_fp4_workspace& ws,
                                       const moe_fp4_args& a, const rt::launch_options& opts = {}) {
  static_assert(C1.threads() == C2.threads());
  static_assert(!C1.x_gathered, "hipasm moe_fp4 fused: stage 1 reads x as quantized (x_gathered false)");
  detail::moe_fp4_check({.tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter});
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts) ||
      ws.hq.size() != size_t(ws.max_blocks) * moe_block_m * a.inter / 2 || ws.xq.size() != size_t(a.tokens) * a.dim / 2)
    throw std::invalid_argument("hipasm moe_fp4 fused: the workspace was made for another shape");
  if (opts.profile && opts.profile->sample_cus)
    throw std::invalid_argument("hipasm moe_fp4 fused: stage-2 workgroups wait for stage-1 ones: profile the whole grid (sample_cus 0)");
  const uint32_t gb = detail::moe_fp4_grid_blocks(a.tokens, a.topk, a.experts);
  const uint32_t gy1 = C1.grid_y(a.inter, gb), gy2 = C2.grid_y(a.dim, gb);
  const uint32_t groups = C1.grid_x(a.inter) * gy1 + C2.grid_x(a.dim) * gy2;
  rt::kernel_args args;
  args.add(a.out).add(ws.hq.addr()).add(ws.hs.addr()).add(ws.xq.addr()).add(ws.xs.addr()).add(a.w1).add(a.w1_scales);
  args.add(a.w2).add(a.w2_scales).add(ws.sorted_token_ids.addr()).add(ws.sorted_weights.addr());
  args.add(ws.sorted_expert_ids.addr()).add(ws.num_valid_ids.addr()).add(ws.counters.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy1).add(gy2).add(ws.max_blocks);
  return dev.launch(m, kernel, {groups, 1, 1}, {C1.threads(), 1, 1}, args, opts);
}

// The whole layer: four launches (the quantization, the sorting, stage 1, stage 2), one report
// (rt::append_report: the times added). The quantization's configuration must be of width dim.
template <mxfp4_quant_config QC, moe_sorting_config SC, moe_fp4_config C1, moe_fp4_config C2>
rt::launch_report launch_moe_fp4(rt::device& dev, const moe_kernel_ref<mxfp4_quant_config>& quant,
                                 const moe_kernel_ref<moe_sorting_config>& sort, const moe_kernel_ref<moe_fp4_config>& stage1,
                                 const moe_kernel_ref<moe_fp4_config>& stage2, moe_fp4_workspace& ws, const moe_fp4_args& a,
                                 const rt::launch_options& opts = {}) {
  static_assert(!C2.rows_out, "hipasm moe_fp4: a rows_out stage 2 needs the reduce (launch_moe_fp4's form with a reduce kernel)");
  static_assert(!C1.x_gathered, "hipasm moe_fp4: an x_gathered stage 1 needs the gather: launch_moe_fp4 with a gather kernel");
  if (uint32_t(QC.d) != a.dim || QC.f32_in)
    throw std::invalid_argument("hipasm moe_fp4: the quantization kernel takes bf16 rows of " + std::to_string(QC.d) +
                                ", dim is " + std::to_string(a.dim));
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts) || ws.xq.size() != size_t(a.tokens) * a.dim / 2 ||
      ws.hq.size() != size_t(ws.max_blocks) * moe_block_m * a.inter / 2)
    throw std::invalid_argument("hipasm moe_fp4: the workspace was made for another shape");
  const moe_fp4_stage_args s{.out = a.out, .hq = ws.hq.addr(), .hs = ws.hs.addr(), .xq = ws.xq.addr(), .xs = ws.xs.addr(),
                             .sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                             .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                             .tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter};
  detail::moe_fp4_check(s);  // (before any launch)
  rt::launch_report r = launch_mxfp4_quant<QC>(dev, quant.mod, quant.name,
                                               {.q = ws.xq.addr(), .scales = ws.xs.addr(), .in = a.x, .rows = a.tokens}, opts);
  rt::append_report(r, launch_moe_sorting<SC>(dev, sort.mod, sort.name,
                                              {.sorted_token_ids = ws.sorted_token_ids.addr(),
                                               .sorted_weights = ws.sorted_weights.addr(),
                                               .sorted_expert_ids = ws.sorted_expert_ids.addr(),
                                               .num_valid_ids = ws.num_valid_ids.addr(), .topk_ids = a.topk_ids,
                                               .topk_weights = a.topk_weights, .tokens = a.tokens, .topk = a.topk,
                                               .experts = a.experts},
                                              opts));
  detail::moe_fp4_stages<C1, C2>(dev, stage1, stage2, s, a, opts, r);
  return r;
}

// The whole layer in two dispatches: the prologue (HIPASM_MOE_FP4_PROLOGUE_KERNEL: the sorting and
// the quantization) and both stages in one (HIPASM_MOE_FP4_FUSED_KERNEL); one report.
template <mxfp4_quant_config QC, moe_sorting_config SC, moe_fp4_config C1, moe_fp4_config C2>
rt::launch_report launch_moe_fp4(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& prologue,
                                 const moe_kernel_ref<moe_fp4_config>& fused, moe_fp4_workspace& ws, const moe_fp4_args& a,
                                 const rt::launch_options& opts = {}) {
  detail::moe_fp4_check({.tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter});
  if (opts.profile && opts.profile->sample_cus)  // (before any launch)
    throw std::invalid_argument("hipasm moe_fp4 fused: stage-2 workgroups wait for stage-1 ones: profile the whole grid (sample_cus 0)");
  rt::launch_report r = launch_moe_fp4_prologue<SC, QC>(dev, prologue.mod, prologue.name, ws, a, opts);
  rt::append_report(r, launch_moe_fp4_fused<C1, C2>(dev, fused.mod, fused.name, ws, a, opts));
  return r;
}

namespace detail {
template <mxfp4_quant_config QC, moe_sorting_config SC, uint32_t GW, uint32_t GP, moe_fp4_config C1, moe_fp4_config C2,
          uint32_t RW>
rt::launch_report moe_fp4_gathered(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& prologue,
                                   const moe_kernel_ref<moe_sorting_config>& gather,
                                   const moe_kernel_ref<moe_fp4_config>& stage1, const moe_kernel_ref<moe_fp4_config>& stage2,
                                   const moe_kernel_ref<moe_fp4_config>* reduce, moe_fp4_workspace& ws,
                                   const moe_fp4_args& a, const rt::launch_options& opts) {
  static_assert(C1.x_gathered, "hipasm moe_fp4: the gather is for an x_gathered stage 1");
  if (ws.max_blocks != moe_max_blocks(a.tokens, a.topk, a.experts) || ws.xq.size() != size_t(a.tokens) * a.dim / 2 ||
      ws.hq.size() != size_t(ws.max_blocks) * moe_block_m * a.inter / 2)
    throw std::invalid_argument("hipasm moe_fp4: the workspace was made for another shape");
  if (!ws.xg || !ws.xgs)
    throw std::invalid_argument("hipasm moe_fp4: the workspace has no x_gathered buffers (x_gathered, allocate_x_gathered)");
  const moe_fp4_stage_args s{.out = a.out, .hq = ws.hq.addr(), .hs = ws.hs.addr(), .xq = ws.xg->addr(), .xs = ws.xgs->addr(),
                             .sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                             .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                             .tokens = a.tokens, .topk = a.topk, .experts = a.experts, .dim = a.dim, .inter = a.inter,
                             .y = ws.y ? ws.y->addr() : 0};
  if (C2.rows_out && (!ws.y || ws.y->size() != size_t(a.tokens) * a.topk * a.dim))
    throw std::invalid_argument("hipasm moe_fp4: a rows_out stage 2 needs the workspace's y of topk * tokens * dim (allocate_rows)");
  detail::moe_fp4_check(s);  // (before any launch)
  rt::launch_report r = launch_moe_fp4_prologue<SC, QC>(dev, prologue.mod, prologue.name, ws, a, opts);
  rt::append_report(r, launch_moe_fp4_gather<GW, GP>(dev, gather.mod, gather.name, ws, a, opts));
  detail::moe_fp4_stages<C1, C2>(dev, stage1, stage2, s, a, opts, r);
  if constexpr (C2.rows_out)
    rt::append_report(r, launch_moe_fp4_reduce<RW>(dev, reduce->mod, reduce->name,
                                                   {.out = a.out, .y = s.y, .topk_ids = a.topk_ids, .tokens = a.tokens,
                                                    .topk = a.topk, .experts = a.experts, .dim = a.dim},
                                                   opts));
  return r;
}
}  // namespace detail

// The whole layer in four dispatches for an x_gathered stage 1: the prologue (the sorting and the
// quantization), the gather (launch_moe_fp4_gather, GW waves, GP parts), stage 1 on ws.xg, stage
// 2; one report.
template <mxfp4_quant_config QC, moe_sorting_config SC, uint32_t GW, uint32_t GP, moe_fp4_config C1, moe_fp4_config C2>
rt::launch_report launch_moe_fp4(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& prologue,
                                 const moe_kernel_ref<moe_sorting_config>& gather, const moe_kernel_ref<moe_fp4_config>& stage1,
                                 const moe_kernel_ref<moe_fp4_config>& stage2, moe_fp4_workspace& ws, const moe_fp4_args& a,
                                 const rt::launch_options& opts = {}) {
  static_assert(!C2.rows_out, "hipasm moe_fp4: a rows_out stage 2 needs the reduce (launch_moe_fp4's form with a reduce kernel)");
  return detail::moe_fp4_gathered<QC, SC, GW, GP, C1, C2, 1>(dev, prologue, gather, stage1, stage2, nullptr, ws, a, opts);
}

// The same with a rows_out stage 2 (its rows into ws.y: allocate_rows) and the reduce over top-k
// after it (launch_moe_fp4_reduce, RW waves): five dispatches, no atomics.
template <mxfp4_quant_config QC, moe_sorting_config SC, uint32_t GW, uint32_t GP, moe_fp4_config C1, moe_fp4_config C2,
          uint32_t RW>
rt::launch_report launch_moe_fp4(rt::device& dev, const moe_kernel_ref<moe_sorting_config>& prologue,
                                 const moe_kernel_ref<moe_sorting_config>& gather, const moe_kernel_ref<moe_fp4_config>& stage1,
                                 const moe_kernel_ref<moe_fp4_config>& stage2, const moe_kernel_ref<moe_fp4_config>& reduce,
                                 moe_fp4_workspace& ws, const moe_fp4_args& a, const rt::launch_options& opts = {}) {
  static_assert(C2.rows_out, "hipasm moe_fp4: the reduce goes with a rows_out stage 2");
  return detail::moe_fp4_gathered<QC, SC, GW, GP, C1, C2, RW>(dev, prologue, gather, stage1, stage2, &reduce, ws, a, opts);
}

}  // namespace hipasm::kernels
