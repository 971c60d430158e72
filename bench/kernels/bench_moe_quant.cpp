// bench_kernel_moe_quant [AITER_DIR]: the fp8 block-scale fused MoE (kernels/moe_quant.hpp) on the
// MI300X (cu_num 304) shapes of aiter's a8w8_blockscale_tuned_fmoe_ds_v3.csv (DeepSeek V3 with 8-way
// expert parallelism: model_dim 7168, inter_dim 2048, 33 experts, top-9; the table's only MI300X
// rows among the a8w8 block-scale tables), decode (1, 4 and 32 tokens) and, with
// HIPASM_BENCH_MOE_QUANT_PREFILL=1, prefill (256 tokens),
// uniform random routing. Line shape=T_tok_D_dim_I_inter_E_e_top_K_fp8_block_g1u1: our stage 1 and
// stage 2 in one dispatch (HIPASM_MOE_QUANT_FUSED_KERNEL) on moe_sorting's routing (x quantized
// beforehand, as aiter's kernels take it; the sorting not timed, as aiter's row), next to aiter's fmoe_fp8_blockscale_g1u1_subGU_256.co (its one-kernel asm MoE, g1u1
// SiLU, fp8 x with 1x128 scales) fed the same routing; amd_us: the csv's us (AMD's measured
// CK 2-stage time) when the row is there. gbps / hbm_pct: the routed experts' fp8 weights (the
// traffic that bounds decode) against the model's HBM rate.
// ..._i8_g1u1: int8 per token x per channel on the int8 row of aiter's tuned_fmoe.csv (model_dim
// 6144, inter_dim 4096, 8 experts, top-2; the table has it for cu_num 80 only: no amd_us), 1 and
// 32 tokens (256 with the prefill rows), next to aiter's fmoe_int8_g1u1_multix_subGU_N.co (N as asm_fmoe.cu's
// get_heuristic_kernel picks it: fewest rounds of workgroups over the CUs, then fewest idle CUs;
// x scales [tokens], W1's [E][2 inter], W2's [E][dim]).
// aiter's argument block is KernelArgs of csrc/py_itfs_cu/asm_fmoe.cu (pointers and u32s each
// padded to 16 bytes), as FMoeKernel::launch_kernel<1, 2> fills it for fmoe_fp8_blockscale_g1u1
// (element sizes: fp8 in, bf16 out), grid (inter / 256, max blocks), 256 threads; its scales are
// x [dim / 128][tokens] (fused_moe.py's partial_transpose), W1 [E][2 inter / 128][dim / 128], W2
// [E][dim / 128][inter / 128]. Weights random-free (zeros: the time does not depend on them; aiter
// pre-shuffles its weights, which changes no traffic).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <hipasm/kernels/moe_launch.hpp>
#include <hipasm/kernels/moe_quant_launch.hpp>

#include "bench_common.hpp"
#include "moe_bench_configs.hpp"
#include "moe_quant_bench_configs.hpp"

namespace fs = std::filesystem;
namespace hk = hipasm::kernels;
namespace {
using namespace bench;

struct shape {
  uint32_t dim, inter, experts, topk;
  bool i8 = false;
};

// The csv's us for (cu_num 304, tokens, shape, per_1x128), 0 if absent.
double amd_us(const fs::path& csv, const shape& s, uint32_t tokens) {
  std::ifstream f(csv);
  std::string line;
  if (!std::getline(f, line)) return 0;
  std::vector<std::string> head;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::stringstream ss(l);
    std::string c;
    while (std::getline(ss, c, ',')) v.push_back(c);
    return v;
  };
  head = split(line);
  auto col = [&](const char* n) { return size_t(std::find(head.begin(), head.end(), n) - head.begin()); };
  const size_t cu = col("cu_num"), tk = col("token"), md = col("model_dim"), id = col("inter_dim"), ex = col("expert"),
               k = col("topk"), q = col("q_type"), us = col("us");
  while (std::getline(f, line)) {
    const auto v = split(line);
    if (v.size() <= us) continue;
    if (v[cu] == "304" && v[tk] == std::to_string(tokens) && v[md] == std::to_string(s.dim) &&
        v[id] == std::to_string(s.inter) && v[ex] == std::to_string(s.experts) && v[k] == std::to_string(s.topk) &&
        v[q].find("per_1x128") != std::string::npos)
      return std::atof(v[us].c_str());
  }
  return 0;
}

std::vector<uint8_t> padded(std::vector<uint8_t> v, size_t extra) {
  v.resize(v.size() + extra, 0);
  return v;
}

// The operands, allocated first in each side's device (bench::fresh_device) in this order.
struct operands {
  rt::buffer<uint8_t> X, W1, W2;
  rt::buffer<float> XS, W1S, W2S;
  rt::buffer<int> TI;
  rt::buffer<float> TW;
  hk::moe_workspace ws;
  operands(rt::device& d, const shape& s, uint32_t tokens, const std::vector<uint8_t>& x, const std::vector<int>& ids,
           const std::vector<float>& tw)
      // (+ 32 rows: aiter's int8 kernel reads the padding rows' token `tokens` through a V# wider than x)
      : X(d, padded(x, size_t(32) * s.dim)),
        W1(d, size_t(s.experts) * 2 * s.inter * s.dim),
        W2(d, size_t(s.experts) * s.dim * s.inter),
        // (+ slack: padding rows' token id is `tokens`; aiter's int8 kernel reads x scales up to
        // a 64-row tile past the tokens)
        XS(d, std::vector<float>((s.i8 ? tokens : size_t(s.dim / 128) * tokens) + 64, 1.0f)),
        W1S(d, std::vector<float>(s.i8 ? size_t(s.experts) * 2 * s.inter
                                       : size_t(s.experts) * (2 * s.inter / 128) * (s.dim / 128), 1.0f)),
        W2S(d, std::vector<float>(s.i8 ? size_t(s.experts) * s.dim : size_t(s.experts) * (s.dim / 128) * (s.inter / 128),
                                  1.0f)),
        TI(d, ids),
        TW(d, tw),
        ws(d, tokens, s.topk, s.experts, s.inter) {}
};

void copy_routing(const hk::moe_workspace& from, hk::moe_workspace& to) {
  to.sorted_token_ids.upload(from.sorted_token_ids.download());
  to.sorted_expert_ids.upload(from.sorted_expert_ids.download());
  to.num_valid_ids.upload(from.num_valid_ids.download());
  to.sorted_weights.upload(from.sorted_weights.download());
}

// aiter's fmoe_fp8_blockscale_g1u1 in a device of its own on our routing.
double aiter_fmoe(const fs::path& co, const shape& s, uint32_t tokens, const std::vector<uint8_t>& x,
                  const std::vector<int>& ids, const std::vector<float>& tw, const hk::moe_workspace& ours) {
  auto dp = fresh_device();
  rt::device& d = *dp;
  operands in(d, s, tokens, x, ids, tw);
  copy_routing(ours, in.ws);
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(size_t(tokens) * s.dim, 0));
  uint32_t sub_gu = 256;
  if (s.i8) {  // asm_fmoe.cu get_heuristic_kernel's choice among the multix tiles
    uint32_t best_round = ~0u, best_empty = ~0u;
    for (uint32_t n : {128u, 192u, 256u, 320u, 384u, 448u, 512u}) {
      if (s.inter % n) continue;
      const uint32_t tg = s.inter / n * in.ws.max_blocks, round = (tg + 303) / 304, empty = round * 304 - tg;
      if (round < best_round || (round == best_round && empty < best_empty)) best_round = round, best_empty = empty, sub_gu = n;
    }
  }
  const fs::path file = s.i8 ? co / ("fmoe_int8_g1u1_multix_subGU_" + std::to_string(sub_gu) + ".co") : co;
  if (!fs::exists(file)) return 0;
  auto m = d.load_file(file.string());
  rt::kernel_args a;
  const uint64_t zero = 0;
  auto ptr = [&](uint64_t p) { a.add(p).add(zero); };
  auto u32 = [&](uint32_t v) { a.add(v).add(uint32_t{0}).add(uint32_t{0}).add(uint32_t{0}); };
  ptr(O.addr());
  ptr(in.X.addr());
  ptr(in.W1.addr());
  ptr(in.ws.num_valid_ids.addr());
  ptr(in.W2.addr());
  ptr(in.XS.addr());   // XQ: x's scales (1x128 [dim / 128][tokens], or per token)
  ptr(in.W1S.addr());  // GUQ
  ptr(in.W2S.addr());  // DQ
  // SMQ: the int8 multix kernels read a smooth scale of h per expert and channel ([E][inter];
  // ones: the identity), the fp8 one none
  rt::buffer<float> SMQ(d, std::vector<float>(s.i8 ? size_t(s.experts) * s.inter : 1, 1.0f));
  ptr(s.i8 ? SMQ.addr() : 0);
  ptr(in.ws.sorted_token_ids.addr());
  ptr(in.ws.sorted_weights.addr());
  ptr(in.ws.sorted_expert_ids.addr());
  // dim, inter, tokens, experts, Xs, GUs, Ds, Os, eGUs (g1u1: twice), eDs, eGUQs, eDQs, eSMQs, topk
  for (uint32_t v : {s.dim, s.inter, tokens, s.experts, s.dim, s.dim, s.inter, s.dim * 2, s.dim * s.inter * 2,
                     s.inter * s.dim, s.i8 ? 2 * s.inter * 4 : (2 * s.inter / 128) * (s.dim / 128) * 4,
                     s.i8 ? s.dim * 4 : (s.dim / 128) * (s.inter / 128) * 4,
                     s.inter * 4, s.topk})
    u32(v);
  const uint32_t gx = (s.inter + sub_gu - 1) / sub_gu, gy = in.ws.max_blocks;
  rt::profile_options p = profile_for(gx * gy);
  rt::launch_options o;
  o.profile = &p;
  o.allow = {"all"};  // AMD's code: checker findings are warnings
  auto rep = d.launch(*m, file.stem().string(), {gx, gy, 1}, {256, 1, 1}, a, o);
  return rep.profile->time_us;
}

void row(const fs::path& aiter_dir, const fs::path& aiter_co, const shape& s, uint32_t tokens) {
  const std::string name = std::to_string(tokens) + "tok_" + std::to_string(s.dim) + "dim_" + std::to_string(s.inter) +
                           "inter_" + std::to_string(s.experts) + "e_top" + std::to_string(s.topk) +
                           (s.i8 ? "_i8_g1u1" : "_fp8_block_g1u1");
  if (!selected(name)) return;
  std::mt19937 rng(tokens * 131 + s.dim);
  std::vector<int> ids, all(s.experts);
  std::vector<float> tw;
  for (uint32_t e = 0; e < s.experts; ++e) all[e] = int(e);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    for (uint32_t k = 0; k < s.topk; ++k) {
      ids.push_back(all[k]);
      tw.push_back(1.0f / float(s.topk));
    }
  }
  std::vector<uint8_t> xv(size_t(tokens) * s.dim);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = uint8_t(0x20 + (i * 2654435761u) % 32);  // small positive fp8 / int8
  auto dp = fresh_device();
  rt::device& d = *dp;
  operands in(d, s, tokens, xv, ids, tw);
  hk::moe_workspace& ws = in.ws;
  hk::moe_quant_workspace qws(d, tokens, s.topk, s.experts, s.inter);
  rt::buffer<float> OUT(d, size_t(tokens) * s.dim);
  const auto sort_mod = d.load_file(HIPASM_BENCH_SORT_CO);
  std::vector<bool> hit(s.experts, false);
  for (int e : ids) hit[e] = true;
  const auto used = double(std::count(hit.begin(), hit.end(), true));  // experts whose weights are read
  const bool wide = s.i8 && (s.dim + 255) / 256 * uint32_t(used) >= moe_quant_bench::wide_min_groups;
  const auto s1_mod = d.load_file(!s.i8 ? HIPASM_BENCH_CO : wide ? HIPASM_BENCH_I8_WIDE_CO : HIPASM_BENCH_I8_CO);
  hk::launch_moe_sorting<moe_bench::sort>(
      d, *sort_mod, "moe_sorting",
      {.sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
       .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
       .topk_ids = in.TI.addr(), .topk_weights = in.TW.addr(), .tokens = tokens, .topk = s.topk, .experts = s.experts});
  const hk::moe_quant_args a{.out = OUT.addr(), .x = in.X.addr(), .xs = in.XS.addr(), .w1 = in.W1.addr(),
                             .w1s = in.W1S.addr(), .w2 = in.W2.addr(), .w2s = in.W2S.addr(), .tokens = tokens,
                             .topk = s.topk, .experts = s.experts, .dim = s.dim, .inter = s.inter};
  // both stages in one dispatch: the whole grid profiled (its workgroups wait for each other), the
  // functional run on one thread in workgroup order (one poll a wait, deterministic)
  rt::profile_options p;
  p.device = "mi300x";
  rt::launch_options o;
  o.profile = &p;
  o.threads = 1;
  result r =
      wide   ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_i8, moe_quant_bench::s2_i8_wide>(
                 d, *s1_mod, "moe_quant_i8_fused_wide", ws, qws, a, o))
      : s.i8 ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_i8, moe_quant_bench::s2_i8>(d, *s1_mod, "moe_quant_i8_fused",
                                                                                         ws, qws, a, o))
           : from(hk::launch_moe_quant_fused<moe_quant_bench::s1, moe_quant_bench::s2>(d, *s1_mod, "moe_quant_fused", ws,
                                                                                   qws, a, o));
  const double flops = double(tokens) * s.topk * 2.0 * s.dim * s.inter * 3.0;
  r.tflops = flops / (r.us * 1e6);
  const double bytes = double(used) * s.dim * s.inter * 3.0 + double(tokens) * s.dim * (1.0 + 4.0);
  const double aiter_us = aiter_co.empty() ? 0 : aiter_fmoe(aiter_co, s, tokens, xv, ids, tw, ws);
  std::string extra;
  if (!aiter_dir.empty() && !s.i8) {
    const double amd = amd_us(aiter_dir / "aiter" / "configs" / "model_configs" / "a8w8_blockscale_tuned_fmoe_ds_v3.csv", s, tokens);
    if (amd > 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "amd_us=%.2f amd_ratio=%.3f", amd, amd / r.us);
      extra += buf;
    }
  }
  print_line("moe_quant", name, r, aiter_us, bytes, true, row_device, extra);
}
}  // namespace

int main(int argc, char** argv) {
  fs::path aiter_dir, aiter_co;
  if (argc > 1) {
    aiter_dir = argv[1];
    const fs::path c = aiter_dir / "hsa" / "gfx942" / "fmoe_fp8_blockscale_g1u1_subGU_256.co";
    if (fs::exists(c)) aiter_co = c;
    else std::fprintf(stderr, "bench_kernel_moe_quant: no %s; aiter skipped\n", c.c_str());
  }
  const shape ds_v3{7168, 2048, 33, 9};
  // (a row's functional simulation executes every MFMA of both kernels: 4 tokens take minutes;
  // HIPASM_BENCH_MOE_QUANT_PREFILL=1 adds the 256-token rows, much longer)
  const char* pf = std::getenv("HIPASM_BENCH_MOE_QUANT_PREFILL");
  const bool prefill = pf && *pf == '1';
  for (uint32_t tokens : {1u, 4u, 32u, 256u})
    if (tokens < 256 || prefill) row(aiter_dir, aiter_co, ds_v3, tokens);
  // int8: aiter's multix code objects are found next to the fp8 one (the tile per row)
  const shape i8{6144, 4096, 8, 2, true};
  for (uint32_t tokens : {1u, 32u, 256u})
    if (tokens < 256 || prefill) row(aiter_dir, aiter_co.empty() ? fs::path{} : aiter_co.parent_path(), i8, tokens);
  return 0;
}
