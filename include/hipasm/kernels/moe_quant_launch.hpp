// Host launch of the quantized fused MoE kernels (moe_quant.hpp) through hipasm::rt: the same
// calls drive hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   moe_workspace ws(*dev, tokens, topk, experts, inter);      // moe_launch.hpp: the sorted routing
//   moe_quant_workspace qws(*dev, tokens, topk, experts, inter); // hq, hs
//   launch_moe_sorting<sort_cfg>(...);                          // (moe_launch.hpp)
//   launch_moe_quant_stage1<cfg1>(*dev, mod, "s1", ws, qws, a);
//   launch_moe_quant_stage2<cfg2>(*dev, mod, "s2", ws, qws, a);
//   (or both in one dispatch: launch_moe_quant_fused<cfg1, cfg2>, launch_moe_quant_onepass<cfg1>)
//
// x is quantized beforehand (dynamic_quant.hpp with .block = 128: q and scales [dim / 128][tokens]).
// out (f32 [tokens][dim]) is overwritten (stage 1 zeroes it, stage 2 adds into it).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "moe_launch.hpp"
#include "moe_quant.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

// The re-quantized intermediate of one run: hq fp8 [max_blocks * 32][inter], hs f32
// [inter / 128][max_blocks * 32] (at the sorted rows).
struct moe_quant_workspace {
  uint32_t max_blocks = 0;
  rt::buffer<uint8_t> hq;
  rt::buffer<float> hs;
  moe_quant_workspace(rt::device& dev, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t inter)
      : max_blocks(moe_max_blocks(tokens, topk, experts)),
        hq(dev, std::vector<uint8_t>(size_t(max_blocks) * moe_block_m * inter, 0)),
        hs(dev, std::vector<float>(size_t(max_blocks) * moe_block_m * (inter / 128 ? inter / 128 : 1), 0.0f)) {}
};

struct moe_quant_args {
  uint64_t out = 0;       // f32 [tokens][dim]
  uint64_t x = 0, xs = 0; // fp8 [tokens][dim], f32 [dim / 128][tokens]
  uint64_t w1 = 0, w1s = 0;  // fp8 [experts][2 * inter or inter][dim], f32 [experts][rows / 128][dim / 128]
  uint64_t w2 = 0, w2s = 0;  // fp8 [experts][dim][inter], f32 [experts][dim / 128][inter / 128]
  uint32_t tokens = 0, topk = 0, experts = 0, dim = 0, inter = 0;
};

namespace detail {
inline void moe_quant_check(const moe_quant_args& a, const moe_workspace& ws, const moe_quant_workspace& qws) {
  moe_check_shape("hipasm moe_quant", a.tokens, a.topk, a.experts);
  if (a.dim == 0 || a.inter == 0 || a.dim % 128 != 0 || a.inter % 128 != 0)
    throw std::invalid_argument("hipasm moe_quant: dim and inter must be positive multiples of 128 (whole scale blocks), got dim " +
                                std::to_string(a.dim) + " inter " + std::to_string(a.inter));
  const uint64_t blocks = moe_max_blocks(a.tokens, a.topk, a.experts);
  if (ws.max_blocks != blocks || qws.max_blocks != blocks || qws.hq.size() < blocks * moe_block_m * a.inter)
    throw std::invalid_argument("hipasm moe_quant: the workspaces were made for another shape");
  if (uint64_t(a.tokens) * a.dim * 4 >= (uint64_t{1} << 31) || blocks * moe_block_m * a.inter >= (uint64_t{1} << 31) ||
      uint64_t(a.inter) * a.dim * 2 >= (uint64_t{1} << 31))
    throw std::invalid_argument("hipasm moe_quant: out, hq and each expert's weights must be below 2 GiB (32-bit offsets)");
}
}  // namespace detail

template <moe_quant_config C>
rt::launch_report launch_moe_quant_stage1(rt::device& dev, rt::module& m, const std::string& kernel,
                                          const moe_workspace& ws, const moe_quant_workspace& qws,
                                          const moe_quant_args& a, const rt::launch_options& opts = {}) {
  detail::moe_quant_check(a, ws, qws);
  const uint32_t gy = C.grid_y(a.inter, ws.max_blocks);
  rt::kernel_args args;
  args.add(qws.hq.addr()).add(qws.hs.addr()).add(a.out).add(a.x).add(a.xs).add(a.w1).add(a.w1s);
  args.add(ws.sorted_token_ids.addr()).add(ws.sorted_expert_ids.addr()).add(ws.num_valid_ids.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy).add(ws.max_blocks);
  return dev.launch(m, kernel, {C.grid_x(a.inter), gy, 1}, {C.threads(), 1, 1}, args, opts);
}

template <moe_quant_config C>
rt::launch_report launch_moe_quant_stage2(rt::device& dev, rt::module& m, const std::string& kernel,
                                          const moe_workspace& ws, const moe_quant_workspace& qws,
                                          const moe_quant_args& a, const rt::launch_options& opts = {}) {
  detail::moe_quant_check(a, ws, qws);
  const uint32_t gy = C.grid_y(a.dim, ws.max_blocks);
  rt::kernel_args args;
  args.add(a.out).add(qws.hq.addr()).add(qws.hs.addr()).add(a.w2).add(a.w2s);
  args.add(ws.sorted_token_ids.addr()).add(ws.sorted_weights.addr()).add(ws.sorted_expert_ids.addr());
  args.add(ws.num_valid_ids.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy).add(ws.max_blocks);
  return dev.launch(m, kernel, {C.grid_x(a.dim), gy, 1}, {C.threads(), 1, 1}, args, opts);
}

// The fused kernel's rows of workgroups a stage (each row loops over the blocks y, y + rows, ...);
// 0: the configuration's (max_workgroups), at most the blocks the routing can fill.
struct moe_quant_rows {
  uint32_t stage1 = 0, stage2 = 0;
};

namespace detail {
// Blocks of 32 sorted rows that can hold a routed row: each expert that gets one of the
// tokens * topk rows pads its rows to whole blocks, so at most (rows + 31 experts hit) / 32 of
// moe_max_blocks's (which bounds the buffers: every expert padded) are not empty. The fused
// grid's rows past it would only start, find no block and leave (1 token, top-9 of 33 experts:
// 9 busy blocks of 33), holding CUs from the waiting stage-2 workgroups.
constexpr uint32_t moe_quant_busy_blocks(uint32_t tokens, uint32_t topk, uint32_t experts) {
  const uint64_t rows = uint64_t(tokens) * topk, hit = rows < experts ? rows : experts;
  const uint64_t busy = (rows + (moe_block_m - 1) * hit) / moe_block_m, bound = moe_max_blocks(tokens, topk, experts);
  return uint32_t(busy < bound ? busy : bound);
}
}  // namespace detail

// Both stages in one dispatch (HIPASM_MOE_QUANT_FUSED_KERNEL) on ws's sorted routing, ws.counters
// zero (the kernel leaves them so). Its workgroups wait for each other: not with a sampled
// profile (refused).
template <moe_quant_config C1, moe_quant_config C2>
rt::launch_report launch_moe_quant_fused(rt::device& dev, rt::module& m, const std::string& kernel,
                                         const moe_workspace& ws, const moe_quant_workspace& qws,
                                         const moe_quant_args& a, moe_quant_rows rows = {},
                                         const rt::launch_options& opts = {}) {
  detail::moe_quant_check(a, ws, qws);
  if (opts.profile && opts.profile->sample_cus)
    throw std::invalid_argument("hipasm moe_quant fused: stage-2 workgroups wait for stage-1 ones: profile the whole grid (sample_cus 0)");
  const uint32_t busy = detail::moe_quant_busy_blocks(a.tokens, a.topk, a.experts);
  auto pick = [&](uint32_t r, uint32_t cfg) {
    r = r == 0 ? cfg : r;
    return r < busy ? r : busy > 0 ? busy : 1u;
  };
  const uint32_t gy1 = pick(rows.stage1, C1.grid_y(a.inter, ws.max_blocks)),
                 gy2 = pick(rows.stage2, C2.grid_y(a.dim, ws.max_blocks));
  const uint32_t n = C1.grid_x(a.inter) * gy1 + C2.grid_x(a.dim) * gy2;
  rt::kernel_args args;
  args.add(a.out).add(qws.hq.addr()).add(qws.hs.addr()).add(a.x).add(a.xs).add(a.w1).add(a.w1s).add(a.w2).add(a.w2s);
  args.add(ws.sorted_token_ids.addr()).add(ws.sorted_weights.addr()).add(ws.sorted_expert_ids.addr());
  args.add(ws.num_valid_ids.addr()).add(ws.counters.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy1).add(gy2).add(ws.max_blocks);
  return dev.launch(m, kernel, {n, 1, 1}, {C1.threads(), 1, 1}, args, opts);
}

namespace detail {
// The rows of workgroups to give launch_moe_quant_onepass (its rows 0 takes one per block the
// routing can fill, uncapped): one per such block, at most as many as keep its 1 + inter / 128 x
// rows workgroups resident at once (per_cu a CU); past that a row's workgroup takes block
// y + rows after block y.
constexpr uint32_t moe_quant_onepass_rows(uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t inter, uint32_t cus,
                                          uint32_t per_cu) {
  const uint32_t busy = moe_quant_busy_blocks(tokens, topk, experts), fit = (cus * per_cu - 1) / (inter / 128);
  const uint32_t r = busy < fit ? busy : fit;
  return r > 0 ? r : 1;
}
// Whether the one-pass kernel suits a shape (per_cu of its workgroups resident a CU, as the
// bench measured it on the MI300X and MI355X models): its workgroups resident at once for all
// but at most 2 of the blocks the routing can fill, inter at least 512 (MI355X 32 tokens of
// 7168/256/257: 168.1 against the fused kernel's 166.5 us; not understood) (moe_quant_busy_blocks counts every
// routed expert's padded block: a decode routing leaves some empty; the rest would take a second
// round), so no workgroup starts after another ends and every CU streams weights to the end (more,
// and the last round leaves most CUs idle), at least a third of the CUs busy (fewer: the CUs'
// address paths, not HBM, bound the stream; MI355X 4 tokens of 7168/256/257: 72 workgroups on
// 256 CUs, 57.9 against the fused kernel's 44.6 us), and at most 4 routed rows a routed expert on
// average (its atomics: one set a row a 128-column block of inter, where stage 2 adds once a row:
// at 8 rows an expert they, not HBM, bound the down slices).
constexpr bool moe_quant_onepass_suits(uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t inter, uint32_t cus,
                                       uint32_t per_cu) {
  const uint64_t busy = moe_quant_busy_blocks(tokens, topk, experts);
  const uint64_t rows = moe_quant_onepass_rows(tokens, topk, experts, inter, cus, per_cu);
  const uint64_t n = uint64_t(inter / 128) * busy;
  const uint64_t routed = uint64_t(tokens) * topk, hit = routed < experts ? routed : experts;
  return rows + 2 >= busy && inter >= 512 && 3 * n >= cus && routed <= 4 * hit;
}
}  // namespace detail

// One pass (HIPASM_MOE_QUANT_ONEPASS_KERNEL) on ws's sorted routing, ws.counters zero (the kernel
// leaves them so): 1 + inter / 128 x rows workgroups, the first zeroing out, each other stage 1
// of a column block of inter and then that block's slice of the down projection (rows 0: one
// per block the routing can fill). The others wait for the first's zeroing: not with a sampled
// profile (refused).
template <moe_quant_config C>
rt::launch_report launch_moe_quant_onepass(rt::device& dev, rt::module& m, const std::string& kernel,
                                           const moe_workspace& ws, const moe_quant_workspace& qws,
                                           const moe_quant_args& a, uint32_t rows = 0,
                                           const rt::launch_options& opts = {}) {
  detail::moe_quant_check(a, ws, qws);
  if (opts.profile && opts.profile->sample_cus)
    throw std::invalid_argument("hipasm moe_quant one pass: workgroups wait for out's zeroing by others: profile the whole grid (sample_cus 0)");
  const uint32_t busy = detail::moe_quant_busy_blocks(a.tokens, a.topk, a.experts);
  const uint32_t gy = rows == 0 || rows > busy ? (busy > 0 ? busy : 1u) : rows;
  rt::kernel_args args;
  args.add(a.out).add(qws.hq.addr()).add(qws.hs.addr()).add(a.x).add(a.xs).add(a.w1).add(a.w1s).add(a.w2).add(a.w2s);
  args.add(ws.sorted_token_ids.addr()).add(ws.sorted_weights.addr()).add(ws.sorted_expert_ids.addr());
  args.add(ws.num_valid_ids.addr()).add(ws.counters.addr());
  args.add(a.tokens).add(a.dim).add(a.inter).add(gy).add(ws.max_blocks);
  return dev.launch(m, kernel, {1 + (a.inter / 128) * gy, 1, 1}, {C.threads(), 1, 1}, args, opts);
}

}  // namespace hipasm::kernels
