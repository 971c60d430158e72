// bench_kernel_moe [AITER_DIR]: fused MoE (kernels/moe.hpp) on the bf16 shapes of aiter's
// tuned_fmoe.csv (model_dim, inter_dim, experts, top-k; 1 to 1024 tokens), uniform random
// routing. Lines:
//   shape=T_tok_D_dim_I_inter_E_e_top_K_g1u0: both GEMM stages of the gate-only MoE in one
//     dispatch (HIPASM_MOE_FUSED_KERNEL), with
//     aiter's fmoe_b16.co (its bf16 fmoe asm kernel, g1u0: one kernel for both GEMMs) on the
//     same shape, fed the routing our moe_sorting produced (aiter's layout);
//   ..._g1u1: the gated MoE (silu(gate) * up), the one the csv's rows tune; aiter has no bf16
//     g1u1 asm kernel on gfx942 (none);
//   ..._sorting: the sorting alone (aiter's is CK, not asm: none); at 1024 tokens (prefill) only
//     the sorting.
// aiter's argument block is KernelArgs of csrc/py_itfs_cu/asm_fmoe.cu (pointers and u32s each
// padded to 16 bytes, 448 bytes), grid (ceil(inter / 512), max blocks), 256 threads, as its
// FMoeKernel::launch_kernel does for fmoe_b16 (sub_GU 512, not persistent). Its weights are
// random here (aiter pre-shuffles them; the layout does not change the time).
// The fused kernel's stage-2 workgroups wait for stage-1 ones: the functional run goes on one
// thread in workgroup order (one poll a wait, recorded deterministically), and the timing model
// issues each poll no earlier than the atomic it read completes (docs/timing-model.md).
// bench_kernel_moe_mi355x: the same rows on the MI355X model (gfx950 code: the double-K bf16
// MFMA; device=mi355x), next to aiter's gfx950 bf16 g1u0 asm kernel (aiter_gfx950_co below).
// HIPASM_BENCH_MOE_PHASES=1 prints, for the fused kernel and aiter's, the waves resident over the
// run (stage 1 + stage 2), the HBM bytes and the block count (print_phases).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <hipasm/kernels/moe_launch.hpp>

#include "bench_common.hpp"
#include "moe_bench_configs.hpp"

namespace fs = std::filesystem;
namespace hk = hipasm::kernels;
namespace {
using namespace bench;

struct shape {
  uint32_t dim, inter, experts, topk;
};

// HIPASM_BENCH_MOE_PHASES=1: how busy the device is over the run (on stderr): waves resident in
// each twentieth of the cycles, split at workgroup `split` (the fused kernel's first stage-2
// workgroup; 0: no split), and the last wave end of each side. Where a run loses time to its
// ramp up, a stage boundary or its tail; with the HBM bytes (what it moved beyond the weights).
bool phases_wanted() {
  const char* e = std::getenv("HIPASM_BENCH_MOE_PHASES");
  return e && *e == '1';
}
void print_phases(const char* who, const rt::launch_report& rep, uint32_t split) {
  if (!phases_wanted() || !rep.profile) return;
  const auto& p = *rep.profile;
  constexpr int N = 20;
  const double step = double(p.cycles) / N;
  std::vector<double> a(N, 0), b(N, 0);
  uint64_t end_a = 0, end_b = 0, start_b = ~0ull;
  for (const auto& w : p.waves_info) {
    const bool second = split && w.workgroup >= split;
    (second ? end_b : end_a) = std::max(second ? end_b : end_a, w.end);
    if (second) start_b = std::min(start_b, w.start);
    for (int i = 0; i < N; ++i) {
      const double lo = std::max(double(w.start), i * step), hi = std::min(double(w.end), (i + 1) * step);
      if (hi > lo) (second ? b : a)[i] += (hi - lo) / step;
    }
  }
  std::fprintf(stderr, "%s: %llu cycles, HBM %llu bytes, %.1f GB/s; first part ends %llu", who,
               (unsigned long long)p.cycles, (unsigned long long)p.hbm_bytes, p.hbm_gbps, (unsigned long long)end_a);
  if (split) std::fprintf(stderr, ", second part %llu .. %llu", (unsigned long long)start_b, (unsigned long long)end_b);
  std::fprintf(stderr, "\n  resident waves a twentieth:");
  for (int i = 0; i < N; ++i) std::fprintf(stderr, split ? " %.0f+%.0f" : " %.0f", a[i], b[i]);
  std::fprintf(stderr, "\n");
}

// The operands, allocated first in each side's device (bench::fresh_device) in this order: the
// same addresses for ours and aiter's, whatever else ran. The output last (ours f32, aiter's bf16).
struct operands {
  rt::buffer<uint16_t> X, W1, W2;
  rt::buffer<int> TI;
  rt::buffer<float> TW;
  hk::moe_workspace ws;
  operands(rt::device& d, const shape& s, uint32_t tokens, const std::vector<uint16_t>& x, const std::vector<int>& ids,
           const std::vector<float>& tw)
      : X(d, x),
        // W1 holds gate and up rows (g1u1); the g1u0 runs read its first inter rows of each expert
        // with the g1u0 expert stride, as aiter's kernel does: the same bytes per expert either way.
        // (+ slack: fmoe_b16 reads whole 512-column tiles of inter, past W2's end when inter % 512 != 0)
        W1(d, size_t(s.experts) * 2 * s.inter * s.dim + size_t(s.dim) * 512 * 2),
        W2(d, size_t(s.experts) * s.dim * s.inter + size_t(s.dim) * 512 * 2),
        TI(d, ids),
        TW(d, tw),
        ws(d, tokens, s.topk, s.experts, s.inter) {}
};

// aiter's fmoe_b16 on `in`, whose workspace holds the routing our moe_sorting produced.
// gfx950 (bench_kernel_moe_mi355x): aiter has no fmoe_b16.co; its gfx950 bf16 g1u0 asm kernel
// fmoe_bf16_noquantBf16_g1u0_vs_atm_inlv_silu_1tg_32x512 (hsa/gfx950/fmoe/silu, not persistent, sub_GU
// 512) takes the same argument block and grid (aiter's host code names no table that launches it).
inline constexpr const char* aiter_gfx950_co = "fmoe_bf16_noquantBf16_g1u0_vs_atm_inlv_silu_1tg_32x512";
double aiter_fmoe(rt::device& d, const fs::path& co, const shape& s, uint32_t tokens, const operands& in) {
  const hk::moe_workspace& ws = in.ws;
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(size_t(tokens) * s.dim, 0));
  auto m = d.load_file(co.string());
  rt::kernel_args a;
  const uint64_t zero = 0;
  auto ptr = [&](uint64_t p) { a.add(p).add(zero); };
  auto u32 = [&](uint32_t v) { a.add(v).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0}); };
  ptr(O.addr());
  ptr(in.X.addr());
  ptr(in.W1.addr());
  ptr(ws.num_valid_ids.addr());
  ptr(in.W2.addr());
  for (int i = 0; i < 4; ++i) ptr(0);  // XQ, GUQ, DQ, SMQ: no quantization
  ptr(ws.sorted_token_ids.addr());
  ptr(ws.sorted_weights.addr());
  ptr(ws.sorted_expert_ids.addr());
  const uint32_t sub_gu = 512, ps_deno = (s.inter + sub_gu - 1) / sub_gu;
  // (fmoe_b16's metadata ends at topk; the host struct's total_tgs and ps_deno follow, zero for a
  // non-persistent launch past the kernarg segment the metadata declares)
  for (uint32_t v : {s.dim, s.inter, tokens, s.experts, s.dim * 2, s.dim * 2, s.inter * 2, s.dim * 2,
                     s.dim * 2 * s.inter, s.inter * 2 * s.dim, 0u, 0u, s.inter * 4, s.topk})
    u32(v);
  if (target_gfx950) {  // (its kernarg segment has them: total_tgs 0, not persistent)
    u32(0);
    u32(ps_deno);
  }
  const uint32_t gx = ps_deno, gy = ws.max_blocks;
  rt::profile_options p = profile_for(gx * gy, target_device);
  rt::launch_options o;
  o.profile = &p;
  o.allow = {"all"};  // AMD's code: checker findings are warnings
  const std::string kname = target_gfx950 ? "_ZN5aiter" + std::to_string(std::string(aiter_gfx950_co).size()) + aiter_gfx950_co + "E"
                                          : std::string("fmoe_kernel_func");
  auto rep = d.launch(*m, kname, {gx, gy, 1}, {256, 1, 1}, a, o);
  print_phases("aiter fmoe", rep, 0);
  return rep.profile->time_us;
}

// aiter's fmoe_b16 in a device of its own, its operands as ours and its workspace holding the
// routing our moe_sorting wrote into `ours` (copied over: the kernels must do the same work).
double aiter_on_our_routing(const fs::path& co, const shape& s, uint32_t tokens, const std::vector<uint16_t>& xv,
                            const std::vector<int>& ids, const std::vector<float>& tw, const hk::moe_workspace& ours) {
  auto d = fresh_device();
  operands in(*d, s, tokens, xv, ids, tw);
  in.ws.sorted_token_ids.upload(ours.sorted_token_ids.download());
  in.ws.sorted_expert_ids.upload(ours.sorted_expert_ids.download());
  in.ws.num_valid_ids.upload(ours.num_valid_ids.download());
  in.ws.sorted_weights.upload(ours.sorted_weights.download());
  return aiter_fmoe(*d, co, s, tokens, in);
}

void row(const fs::path& aiter, const shape& s, uint32_t tokens, bool sorting_only) {
  const std::string base = std::to_string(tokens) + "tok_" + std::to_string(s.dim) + "dim_" + std::to_string(s.inter) +
                           "inter_" + std::to_string(s.experts) + "e_top" + std::to_string(s.topk);
  // (HIPASM_BENCH_SHAPE may name one line: ..._g1u0)
  if (!selected(base + "_sorting") && !selected(base + "_g1u0") && !selected(base + "_g1u1")) return;
  std::mt19937 rng(tokens * 131 + s.dim);
  std::vector<int> ids;
  std::vector<float> tw;
  std::vector<int> all(s.experts);
  for (uint32_t e = 0; e < s.experts; ++e) all[e] = int(e);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    for (uint32_t k = 0; k < s.topk; ++k) {
      ids.push_back(all[k]);
      tw.push_back(1.0f / float(s.topk));
    }
  }
  std::vector<uint16_t> xv(size_t(tokens) * s.dim);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = uint16_t(0x3c00 + (i * 2654435761u) % 512);  // ~[0.0078, 0.0156)
  auto dp = fresh_device();
  rt::device& d = *dp;
  operands in(d, s, tokens, xv, ids, tw);
  hk::moe_workspace& ws = in.ws;
  rt::buffer<float> OUT(d, size_t(tokens) * s.dim);
  const auto sort_mod = d.load_file(HIPASM_BENCH_SORT_CO);
  const auto g1u1_mod = d.load_file(HIPASM_BENCH_CO);
  const auto g1u0_mod = d.load_file(HIPASM_BENCH_G1U0_CO);

  rt::profile_options p1 = profile_for(1, target_device);
  rt::launch_options o1;
  o1.profile = &p1;
  const result sr = from(hk::launch_moe_sorting<moe_bench::sort>(
      d, *sort_mod, "moe_sorting",
      {.sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
       .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
       .topk_ids = in.TI.addr(), .topk_weights = in.TW.addr(), .tokens = tokens, .topk = s.topk, .experts = s.experts},
      o1));
  // the data the routing moves: ids and weights in, the sorted entries out
  print_line("moe", base + "_sorting", sr, 0, double(tokens) * s.topk * 8 * 2, false, row_device);

  const uint32_t used = std::min<uint32_t>(s.experts, tokens * s.topk);  // experts whose weights are read (at most)
  for (bool gated : {false, true}) {
    if (sorting_only || !selected(base + (gated ? "_g1u1" : "_g1u0"))) continue;
    const hk::moe_args a{.out = OUT.addr(), .x = in.X.addr(), .w1 = in.W1.addr(), .w2 = in.W2.addr(), .tokens = tokens,
                         .topk = s.topk, .experts = s.experts, .dim = s.dim, .inter = s.inter};
    rt::profile_options p;  // the whole grid (its workgroups wait for each other: no sampling)
    p.device = target_device;
    rt::launch_options o;
    o.profile = &p;
    o.threads = 1;  // one poll a wait, recorded deterministically (see the head comment)
    const auto rep =
        gated                       ? hk::launch_moe_fused<moe_bench::g1u1, moe_bench::down_g1u1>(d, *g1u1_mod, "moe_fused_g1u1", ws, a, o)
        : s.inter >= moe_bench::long_k ? hk::launch_moe_fused<moe_bench::g1u0, moe_bench::down_fused_long_k>(
                                             d, *g1u0_mod, "moe_fused_g1u0_long_k", ws, a, o)
        : s.inter >= moe_bench::mid_k ? hk::launch_moe_fused<moe_bench::g1u0, moe_bench::down_fused_mid_k>(
                                            d, *g1u0_mod, "moe_fused_g1u0_mid_k", ws, a, o)
                                       : hk::launch_moe_fused<moe_bench::g1u0, moe_bench::down_fused>(d, *g1u0_mod, "moe_fused_g1u0", ws, a, o);
    {
      const uint32_t gx1 = (gated ? moe_bench::g1u1 : moe_bench::g1u0).grid_x(s.inter);
      const uint32_t gy1 = (gated ? moe_bench::g1u1 : moe_bench::g1u0).grid_y(s.inter, ws.max_blocks);
      print_phases("hipasm moe fused", rep, gx1 * gy1);
      if (phases_wanted())
        std::fprintf(stderr, "  blocks %u\n", ws.num_valid_ids.download()[0] / hk::moe_block_m);
    }
    const double gu = gated ? 2.0 : 1.0;
    const double flops = double(tokens) * s.topk * 2.0 * s.dim * s.inter * (gu + 1.0);
    const double bytes = double(used) * s.dim * s.inter * 2.0 * (gu + 1.0) + double(tokens) * s.dim * (2.0 + 4.0);
    const double aiter_us = gated || aiter.empty() ? 0 : aiter_on_our_routing(aiter, s, tokens, xv, ids, tw, ws);
    print_line("moe", base + (gated ? "_g1u1" : "_g1u0"), from(rep), aiter_us, bytes, false, row_device);
  }
}
}  // namespace

int main(int argc, char** argv) {
  fs::path aiter;
  if (argc > 1) {
    const fs::path root = argv[1];
    const fs::path c950 = root / "hsa" / "gfx950" / "fmoe" / "silu" / (std::string(aiter_gfx950_co) + ".co");
    for (const fs::path& c : target_gfx950 ? std::vector<fs::path>{c950}
                                           : std::vector<fs::path>{root / "hsa" / "gfx942" / "fmoe_b16.co", root / "fmoe_b16.co"})
      if (fs::exists(c)) aiter = c;
    if (aiter.empty()) std::fprintf(stderr, "bench_kernel_moe: no aiter bf16 fmoe code object under %s; aiter skipped\n", argv[1]);
  }
  // (model_dim, inter_dim, experts, top-k) of tuned_fmoe.csv's bf16 rows
  const shape shapes[] = {{2048, 192, 128, 8}, {4096, 384, 128, 8}, {7168, 256, 256, 8}, {7168, 512, 256, 8}, {6144, 4096, 8, 2}};
  for (const shape& s : shapes)
    for (uint32_t tokens : {1u, 32u}) row(aiter, s, tokens, false);
  // prefill's routing (the csv's largest token count): the sorting alone
  for (const shape& s : shapes) row(aiter, s, 1024, true);
  return 0;
}
