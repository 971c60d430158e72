// bench_kernel_moe_fp4: the MXFP4 (a4w4) MoE layer (kernels/moe_fp4.hpp) on the MI355X model, on
// the shapes of AMD's 2026 MI355X MoE challenge (gpu-mode reference-kernels
// problems/amd_202602/moe-mxfp4: DeepSeek-R1, d_hidden 7168, top-8 routed + the shared expert):
// 257 experts of d_expert 256 at 4, 64 and 256 tokens, 33 experts of d_expert 2048 at 64, 256 and
// 1024 tokens. Routing as the challenge's generate_input: 8 distinct routed experts a token drawn
// uniformly (its router's logits are random), weights summing to about 1, then the shared expert
// (the last id) with weight 1. Lines:
//   shape=T tok_7168dim_I inter_E e_top9_layer: the whole layer as AMD times it, every launch it
//     takes summed (hipasm_us): the sorting and x's quantization (mxfp4_quant) in one dispatch
//     (the prologue kernel), then both stages in one dispatch (the fused kernel) where an expert
//     averages fewer than 32 routed rows (257 experts; 33 at 64 tokens), else x's sorted rows
//     gathered (moe_fp4_gather), stage 1 and stage 2 (two blocks a workgroup where an expert
//     averages 128 routed rows or more, stage 2's rows then stored and summed by the reduce:
//     moe_fp4_bench_configs.hpp);
//     amd_us: AMD's measured time of aiter's flow on an MI355X (the challenge's README), amd_ratio
//     amd_us / hipasm_us; w_pct: the weights of the experts the routing uses (fp4 and scales, both
//     matrices, each read once) over hipasm_us, as a percentage of the model's MI355X HBM rate
//     (bench_common.hpp model_hbm_gbps_mi355x); hbm_pct: what reached HBM in the model.
//   ..._prologue, _gather, _stage1, _stage2, _reduce, _fused: each launch alone (the gather and the stages
//     also where the layer takes the fused kernel).
// aiter's gfx950 fmoe asm kernels are not launched here (aiter_us none): see docs/kernels.md.
// Stage grids of 256 tokens and more are profiled on XCD 0 (32 CUs: every 8th workgroup; the grids'
// x, the column blocks, a multiple of 8, so XCD 0 takes every block's eighth of the columns).
// MOE_FP4_BENCH_FUSED=1 / 0: the layer through the fused kernel or the two stages, whatever the
// token count (the fused kernel's whole grid is simulated: slow for large rows).
// MOE_FP4_BENCH_RAW=1: row-major weights (the raw layout) instead of preshuffled ones.
// HIPASM_BENCH_SHAPE=TEXT: the rows whose name contains TEXT; MOE_FP4_BENCH_TOKENS=T: those of T tokens.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <hipasm/kernels/moe_fp4_launch.hpp>

#include "bench_common.hpp"
#include "moe_fp4_bench_configs.hpp"

namespace {
namespace hk = hipasm::kernels;
using namespace bench;

struct shape {
  uint32_t tokens, inter, experts;
  double amd_us;
};
constexpr uint32_t dim = 7168, topk = 9;

bool raw_wanted() {
  const char* e = std::getenv("MOE_FP4_BENCH_RAW");
  return e && *e == '1';
}

void row(const shape& s) {
  const std::string base = std::to_string(s.tokens) + "tok_" + std::to_string(dim) + "dim_" + std::to_string(s.inter) +
                           "inter_" + std::to_string(s.experts) + "e_top" + std::to_string(topk);
  if (!selected(base + "_layer")) return;
  if (const char* t = std::getenv("MOE_FP4_BENCH_TOKENS"); t && std::to_string(s.tokens) != t) return;
  const bool raw = raw_wanted();
  std::mt19937 rng(s.tokens * 7 + s.experts);
  std::vector<int> ids;
  std::vector<float> tw;
  const uint32_t routed = s.experts - 1;
  std::vector<int> all(routed);
  for (uint32_t e = 0; e < routed; ++e) all[e] = int(e);
  std::uniform_real_distribution<float> u(0.5f, 1.5f);
  std::set<int> used;
  for (uint32_t t = 0; t < s.tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    for (uint32_t k = 0; k + 1 < topk; ++k) {
      ids.push_back(all[k]);
      tw.push_back(u(rng) / 8.0f);
      used.insert(all[k]);
    }
    ids.push_back(int(routed));
    tw.push_back(1.0f);
    used.insert(int(routed));
  }
  std::vector<uint16_t> xv(size_t(s.tokens) * dim);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = uint16_t(0x3c00 + (i * 2654435761u) % 512);
  // (weights zero: the time does not depend on their values; the sizes are the layer's)
  const size_t w1_bytes = size_t(s.experts) * 2 * s.inter * dim / 2, w1s_bytes = w1_bytes / 16;
  const size_t w2_bytes = size_t(s.experts) * dim * s.inter / 2, w2s_bytes = w2_bytes / 16;
  auto dp = fresh_device();
  rt::device& d = *dp;
  rt::buffer<uint16_t> X(d, xv);
  rt::buffer<uint8_t> W1(d, w1_bytes), W1S(d, w1s_bytes), W2(d, w2_bytes), W2S(d, w2s_bytes);
  rt::buffer<int> TI(d, ids);
  rt::buffer<float> TW(d, tw);
  hk::moe_fp4_workspace ws(d, s.tokens, topk, s.experts, dim, s.inter);
  rt::buffer<float> OUT(d, size_t(s.tokens) * dim);
  ws.allocate_x_gathered(d, dim);  // (after the layer's buffers: theirs are a workspace's without them)
  // two blocks a workgroup where an expert averages blocks_from_per_expert routed rows or more
  const bool b2 = s.tokens * topk >= moe_fp4_bench::blocks_from_per_expert * s.experts;
  constexpr bool rows = moe_fp4_bench::s2_b2.rows_out;  // (then stage 2's rows summed by the reduce)
  if (b2 && rows && !raw) ws.allocate_rows(d, s.tokens, topk, dim);
  const auto mod = d.load_file(HIPASM_BENCH_CO);

  auto opts_for = [&](rt::profile_options& p, bool stage) {
    p = profile_for(1, "mi355x");
    if (stage && s.tokens >= 256) p.sample_cus = 32;
    rt::launch_options o;
    o.profile = &p;
    return o;
  };
  rt::profile_options pp, p1, p2;
  const result rp = from(hk::launch_moe_fp4_prologue<moe_fp4_bench::sort, moe_fp4_bench::quant>(
      d, *mod, "moe_fp4_prologue", ws,
      {.x = X.addr(), .topk_ids = TI.addr(), .topk_weights = TW.addr(), .tokens = s.tokens, .topk = topk,
       .experts = s.experts, .dim = dim, .inter = s.inter},
      opts_for(pp, false)));
  hk::moe_fp4_stage_args a{.out = OUT.addr(), .hq = ws.hq.addr(), .hs = ws.hs.addr(), .xq = ws.xq.addr(),
                           .xs = ws.xs.addr(), .w = W1.addr(), .w_scales = W1S.addr(),
                           .sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                           .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                           .tokens = s.tokens, .topk = topk, .experts = s.experts, .dim = dim, .inter = s.inter};
  // x's sorted rows gathered for stage 1 (x_gathered: preshuffled weights only)
  rt::profile_options pg;
  result rg{};
  if (!raw) {
    rg = from(hk::launch_moe_fp4_gather<moe_fp4_bench::gather_waves, moe_fp4_bench::gather_parts>(
        d, *mod, "moe_fp4_gather", ws,
        {.tokens = s.tokens, .topk = topk, .experts = s.experts, .dim = dim, .inter = s.inter}, opts_for(pg, false)));
    a.xq = ws.xg->addr();
    a.xs = ws.xgs->addr();
  }
  const result r1 = from(raw ? hk::launch_moe_fp4_stage1<moe_fp4_bench::s1_raw>(d, *mod, "moe_fp4_s1_raw", a, opts_for(p1, true))
                         : b2 ? hk::launch_moe_fp4_stage1<moe_fp4_bench::s1_b2>(d, *mod, "moe_fp4_s1_b2", a, opts_for(p1, true))
                              : hk::launch_moe_fp4_stage1<moe_fp4_bench::s1>(d, *mod, "moe_fp4_s1", a, opts_for(p1, true)));
  a.w = W2.addr();
  a.w_scales = W2S.addr();
  if (ws.y) a.y = ws.y->addr();
  const result r2 = from(raw ? hk::launch_moe_fp4_stage2<moe_fp4_bench::s2_raw>(d, *mod, "moe_fp4_s2_raw", a, opts_for(p2, true))
                         : b2 ? hk::launch_moe_fp4_stage2<moe_fp4_bench::s2_b2>(d, *mod, "moe_fp4_s2_b2", a, opts_for(p2, true))
                              : hk::launch_moe_fp4_stage2<moe_fp4_bench::s2>(d, *mod, "moe_fp4_s2", a, opts_for(p2, true)));
  rt::profile_options pr;
  result rr{};
  const bool reduce = b2 && rows && !raw;
  if (reduce)
    rr = from(hk::launch_moe_fp4_reduce<moe_fp4_bench::reduce_waves>(
        d, *mod, "moe_fp4_reduce",
        {.out = OUT.addr(), .y = ws.y->addr(), .topk_ids = TI.addr(), .tokens = s.tokens, .topk = topk,
         .experts = s.experts, .dim = dim},
        opts_for(pr, false)));

  // decode: both stages in one dispatch (the whole grid profiled: its workgroups wait for each
  // other; the functional run on one thread, one poll a wait); its time replaces the two stages'
  result rf{};
  bool fused = s.tokens * topk < moe_fp4_bench::fused_below_per_expert * s.experts && !raw;
  if (const char* f = std::getenv("MOE_FP4_BENCH_FUSED"); f && *f) fused = *f == '1' && !raw;
  if (fused) {
    rt::profile_options pf = profile_for(1, "mi355x");
    rt::launch_options o;
    o.profile = &pf;
    o.threads = 1;
    rf = from(hk::launch_moe_fp4_fused<moe_fp4_bench::s1_fused, moe_fp4_bench::s2_fused>(
        d, *mod, "moe_fp4_fused", ws,
        {.out = OUT.addr(), .w1 = W1.addr(), .w1_scales = W1S.addr(), .w2 = W2.addr(), .w2_scales = W2S.addr(),
         .tokens = s.tokens, .topk = topk, .experts = s.experts, .dim = dim, .inter = s.inter},
        o));
  }
  const double flops1 = double(s.tokens) * topk * 2.0 * dim * 2.0 * s.inter, flops2 = double(s.tokens) * topk * 2.0 * dim * s.inter;
  const double per_expert = double(w1_bytes + w1s_bytes + w2_bytes + w2s_bytes) / s.experts;
  const double wbytes = per_expert * double(used.size());
  const double io = double(s.tokens) * dim * (2.0 + 4.0);  // x in, out
  const char* kname = raw ? "moe_fp4_raw" : "moe_fp4";
  print_line(kname, base + "_prologue", rp, 0, double(s.tokens) * (dim * (2.0 + 0.5 + 1.0 / 16) + topk * 8 * 2), false,
             "mi355x");
  if (!raw) print_line(kname, base + "_gather", rg, 0, double(s.tokens) * topk * dim * (0.5 + 1.0 / 16) * 2, false, "mi355x");
  print_line(kname, base + "_stage1", r1, 0, per_expert * 2.0 / 3.0 * used.size(), true, "mi355x");
  print_line(kname, base + "_stage2", r2, 0, per_expert / 3.0 * used.size(), true, "mi355x");
  if (reduce) print_line(kname, base + "_reduce", rr, 0, double(s.tokens) * dim * 4 * (topk + 1), false, "mi355x");
  if (fused) print_line(kname, base + "_fused", rf, 0, per_expert * used.size(), true, "mi355x");
  result L;
  if (fused) {
    L.us = rp.us + rf.us;
    L.hbm_bytes = rp.hbm_bytes + rf.hbm_bytes;
    L.mfma_busy = rf.mfma_busy * rf.us / L.us;
  } else {
    L.us = rp.us + rg.us + r1.us + r2.us + rr.us;
    L.hbm_bytes = rp.hbm_bytes + rg.hbm_bytes + r1.hbm_bytes + r2.hbm_bytes + rr.hbm_bytes;
    L.mfma_busy = (r1.mfma_busy * r1.us + r2.mfma_busy * r2.us) / L.us;
  }
  L.tflops = (flops1 + flops2) / (L.us * 1e6);
  char extra[160];
  std::snprintf(extra, sizeof extra, "amd_us=%.1f amd_ratio=%.3f w_pct=%.1f experts_used=%zu", s.amd_us, s.amd_us / L.us,
                100.0 * wbytes / (L.us * 1e3) / model_hbm_gbps_mi355x, used.size());
  print_line(kname, base + "_layer", L, 0, wbytes + io, true, "mi355x", extra);
}
}  // namespace

int main() {
  // the challenge's shapes and AMD's times of aiter's flow (us)
  const shape shapes[] = {{4, 256, 257, 46.9},  {64, 256, 257, 187.7},   {256, 256, 257, 245.7},
                          {64, 2048, 33, 220.6}, {256, 2048, 33, 276.4}, {1024, 2048, 33, 572.2}};
  for (const shape& s : shapes) row(s);
  return 0;
}
