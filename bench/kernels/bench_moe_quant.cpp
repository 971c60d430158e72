// bench_kernel_moe_quant [AITER_DIR]: the fp8 block-scale fused MoE (kernels/moe_quant.hpp) on the
// MI300X (cu_num 304) shapes of aiter's a8w8_blockscale_tuned_fmoe_ds_v3.csv (DeepSeek V3 with 8-way
// expert parallelism: model_dim 7168, inter_dim 2048, 33 experts, top-9; the table's only MI300X
// rows among the a8w8 block-scale tables), decode (1, 4 and 32 tokens) and, with
// HIPASM_BENCH_MOE_QUANT_PREFILL=1, prefill (256 tokens),
// uniform random routing. Line shape=T_tok_D_dim_I_inter_E_e_top_K_fp8_block_g1u1: our stage 1 and
// stage 2 in one dispatch (HIPASM_MOE_QUANT_FUSED_KERNEL; stage 2 with two 32-row tiles a wave,
// kernels/moe_quant_rt2.hip, where ceil(dim / 512) x routed experts >= the CUs) on moe_sorting's routing (x quantized
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
// bench_kernel_moe_quant_mi355x (gfx950: OCP e4m3fn, the double-K MFMA; the MI355X model, rows
// device=mi355x): the fp8 rows of DeepSeek V3 EP8 above and of its 256 routed + 1 shared experts
// at inter 256 (7168/256/257 top-9: the table's cu_num 256 rows, amd_us), no int8 rows; aiter's
// kernel as asm_fmoe.cu's fmoe_fp8_blockscale_g1u1 takes it on gfx950 (pick_gfx950: the tuned
// table's 1-stage kernel at our block of 32 rows, else get_heuristic_kernel over
// hsa/gfx950/fmoe/silu/fmoe_bf16_blockscaleFp8_g1u1_silu.csv), with total_tgs / ps_deno for the
// persistent ones. HIPASM_BENCH_MOE_AITER_NAME=1 prints the kernel picked.
// HIPASM_BENCH_REPORT=1: the model's report of ours and of aiter's kernel; HIPASM_BENCH_TIMELINE=W:
// our launch's wave W's schedule; HIPASM_BENCH_PHASES=1:
// both launches' clock phases (HBM share, active CUs, clock) and our stages' wave windows (where
// the HBM idles); MOE_QUANT_BENCH_ROWS=A,B: our fused grid's rows of workgroups a stage
// (launch_moe_quant_fused's moe_quant_rows; 0: the default).
// MI300X fp8 rows on the rt2 kernel run its 4-wave form, moe_quant_fused_rt2_w4 (stage 1 of the
// whole K a wave, stage 2 of 4 waves x 2 row tiles), and the 32-token int8 row the int8 one,
// moe_quant_i8_fused_w4.
// Rows whose one-pass grid (kernels/moe_quant_onepass.hip: stage 1 and its down slice a
// workgroup, no waits between workgroups) suits the shape run it instead of the fused kernel
// (moe_quant_onepass_suits: decode, every workgroup resident at once; MOE_QUANT_BENCH_ONEPASS=1 / 0 forces it on / off; its rows:
// MOE_QUANT_BENCH_ROWS's first number).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
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

// A csv's rows as maps from the header's column names.
std::vector<std::vector<std::pair<std::string, std::string>>> csv_rows(const fs::path& csv) {
  std::ifstream f(csv);
  std::string line;
  std::vector<std::vector<std::pair<std::string, std::string>>> rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::stringstream ss(l);
    std::string c;
    while (std::getline(ss, c, ',')) v.push_back(c);
    return v;
  };
  if (!std::getline(f, line)) return rows;
  const auto head = split(line);
  while (std::getline(f, line)) {
    const auto v = split(line);
    rows.emplace_back();
    for (size_t i = 0; i < head.size(); ++i) rows.back().emplace_back(head[i], i < v.size() ? v[i] : "");
  }
  return rows;
}
std::string field(const std::vector<std::pair<std::string, std::string>>& row, const char* name) {
  for (const auto& [k, v] : row)
    if (k == name) return v;
  return {};
}

// The csv's us for (cu_num: the target's CUs, tokens, shape, per_1x128), 0 if absent; kernel1 /
// one_stage: the row's stage-1 kernel and whether aiter runs it alone (its 1-stage asm fmoe).
double amd_us(const fs::path& csv, const shape& s, uint32_t tokens, std::string* kernel1 = nullptr,
              bool* one_stage = nullptr, uint32_t* block_m = nullptr) {
  for (const auto& r : csv_rows(csv))
    if (field(r, "cu_num") == std::to_string(target_cus) && field(r, "token") == std::to_string(tokens) &&
        field(r, "model_dim") == std::to_string(s.dim) && field(r, "inter_dim") == std::to_string(s.inter) &&
        field(r, "expert") == std::to_string(s.experts) && field(r, "topk") == std::to_string(s.topk) &&
        field(r, "q_type").find("per_1x128") != std::string::npos) {
      if (kernel1) *kernel1 = field(r, "kernelName1");
      if (one_stage) *one_stage = field(r, "run_1stage") == "1";
      if (block_m) *block_m = uint32_t(std::atoi(field(r, "block_m").c_str()));
      return std::atof(field(r, "us").c_str());
    }
  return 0;
}

// gfx950: aiter's fmoe_fp8_blockscale_g1u1 (csrc/py_itfs_cu/asm_fmoe.cu) on fp8 x takes a kernel of
// hsa/gfx950/fmoe/silu/fmoe_bf16_blockscaleFp8_g1u1_silu.csv: the tuned table's kernelName1 when the
// row runs it (run_1stage) at our block of 32 rows, else get_heuristic_kernel's (vskip 1, smf 0,
// subGU_m = the block 32: fewest rounds of inter / subGU_n x blocks workgroups over the CUs, then
// fewest idle CUs, then a persistent one). ps: a persistent grid of tg_num_perCU x CUs.
struct aiter_pick {
  fs::path co;
  std::string name;
  uint32_t sub_gu = 0, persistent = 0;
};
aiter_pick pick_gfx950(const fs::path& aiter_dir, const shape& s, uint32_t blocks, const std::string& tuned) {
  const fs::path dir = aiter_dir / "hsa" / "gfx950" / "fmoe" / "silu";
  aiter_pick best;
  uint32_t round = ~0u, empty = ~0u;
  bool best_ps = false;
  for (const auto& r : csv_rows(dir / "fmoe_bf16_blockscaleFp8_g1u1_silu.csv")) {
    const std::string name = field(r, "knl_name");
    const uint32_t n = uint32_t(std::atoi(field(r, "subGU_n").c_str()));
    const bool ps = field(r, "ps") == "1";
    const uint32_t per_cu = uint32_t(std::atoi(field(r, "tg_num_perCU").c_str()));
    aiter_pick c{dir / field(r, "co_name"), name, n, ps ? per_cu * target_cus : 0};
    if (!tuned.empty()) {
      if (name == tuned) return c;
      continue;
    }
    if (field(r, "vskip") != "1" || field(r, "smf") != "0" || field(r, "subGU_m") != "32" || n == 0 || s.inter % n)
      continue;
    const uint32_t tg = s.inter / n * blocks, rd = (tg + target_cus - 1) / target_cus, em = rd * target_cus - tg;
    if (rd < round || (rd == round && (em < empty || (em == empty && ps && !best_ps)))) {
      round = rd, empty = em, best = c, best_ps = ps;
    }
  }
  return best;
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

// HIPASM_BENCH_PHASES=1: the model's clock phases of a launch (HBM share, active CUs) on stderr:
// where the HBM idles (a stage's ramp, the wait between the stages, the tail)
void print_phases(const char* who, const rt::launch_report& r) {
  const char* e = std::getenv("HIPASM_BENCH_PHASES");
  if (!e || *e != '1') return;
  for (const auto& ph : r.profile->clock_phases)
    std::fprintf(stderr, "%s phase %8llu-%8llu hbm %.3f cus %.3f mfma %.3f %.0f MHz\n", who,
                 (unsigned long long)ph.start, (unsigned long long)ph.end, ph.hbm, ph.active_cus, ph.mfma, ph.clock_mhz);
}

// aiter's fmoe_fp8_blockscale_g1u1 in a device of its own on our routing.
// gfx950: `co` is aiter's checkout, `tuned` the tuned table's kernel for the row (or empty).
double aiter_fmoe(const fs::path& co, const shape& s, uint32_t tokens, const std::vector<uint8_t>& x,
                  const std::vector<int>& ids, const std::vector<float>& tw, const hk::moe_workspace& ours,
                  const std::string& tuned = {}) {
  auto dp = fresh_device();
  rt::device& d = *dp;
  operands in(d, s, tokens, x, ids, tw);
  copy_routing(ours, in.ws);
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(size_t(tokens) * s.dim, 0));
  uint32_t sub_gu = 256;
  aiter_pick pk;
  if (target_gfx950) {
    pk = pick_gfx950(co, s, in.ws.max_blocks, tuned);
    if (pk.name.empty() || !fs::exists(pk.co)) return 0;
    sub_gu = pk.sub_gu;
    if (const char* e = std::getenv("HIPASM_BENCH_MOE_AITER_NAME"); e && *e == '1')
      std::fprintf(stderr, "aiter: %s (subGU %u, persistent %u)\n", pk.name.c_str(), pk.sub_gu, pk.persistent);
  }
  if (s.i8) {  // asm_fmoe.cu get_heuristic_kernel's choice among the multix tiles
    uint32_t best_round = ~0u, best_empty = ~0u;
    for (uint32_t n : {128u, 192u, 256u, 320u, 384u, 448u, 512u}) {
      if (s.inter % n) continue;
      const uint32_t tg = s.inter / n * in.ws.max_blocks, round = (tg + 303) / 304, empty = round * 304 - tg;
      if (round < best_round || (round == best_round && empty < best_empty)) best_round = round, best_empty = empty, sub_gu = n;
    }
  }
  const fs::path file = target_gfx950 ? pk.co : s.i8 ? co / ("fmoe_int8_g1u1_multix_subGU_" + std::to_string(sub_gu) + ".co") : co;
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
  // total_tgs, ps_deno (FMoeKernel::launch_kernel): a persistent kernel's grid is total_tgs
  // workgroups over the blocks' ps_deno column tiles; else (inter / subGU, blocks)
  const uint32_t ps_deno = (s.inter + sub_gu - 1) / sub_gu, total = pk.persistent / ps_deno * ps_deno;
  if (target_gfx950) {
    u32(total);
    u32(ps_deno);
  }
  const bool ps = total > 0;
  const uint32_t gx = ps ? pk.persistent : ps_deno, gy = ps ? 1 : in.ws.max_blocks;
  rt::profile_options p = profile_for(gx * gy, target_device);
  rt::launch_options o;
  o.profile = &p;
  o.allow = {"all"};  // AMD's code: checker findings are warnings
  // HIPASM_BENCH_REPORT=1: aiter's kernel's report too (after ours)
  auto timed = [](const rt::launch_report& r) {
    if (const char* e = std::getenv("HIPASM_BENCH_REPORT"); e && *e == '1')
      std::fprintf(stderr, "aiter:\n%s\n", r.profile->report().c_str());
    print_phases("aiter", r);
    return r.profile->time_us;
  };
  if (!target_gfx950) return timed(d.launch(*m, file.stem().string(), {gx, gy, 1}, {256, 1, 1}, a, o));
  // Most of the gfx950 kernels' metadata declares two more pointers (a2, a2q) past ps_deno, which
  // aiter's 448-byte KernelArgs leaves out: null here; the kernels that declare none take 448 bytes.
  rt::kernel_args a2 = a;
  ptr(0);
  ptr(0);
  try {
    return timed(d.launch(*m, pk.name, {gx, gy, 1}, {256, 1, 1}, a, o));
  } catch (const rt::error& e) {
    if (std::string(e.what()).find("arguments") == std::string::npos) throw;
  }
  return timed(d.launch(*m, pk.name, {gx, gy, 1}, {256, 1, 1}, a2, o));
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
  const hk::moe_sorting_args sa{.sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                                .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                                .topk_ids = in.TI.addr(), .topk_weights = in.TW.addr(), .tokens = tokens, .topk = s.topk,
                                .experts = s.experts};
  for (int e : ids) hit[e] = true;
  const auto used = double(std::count(hit.begin(), hit.end(), true));  // experts whose weights are read
  const bool wide = s.i8 && (s.dim + 255) / 256 * uint32_t(used) >= moe_quant_bench::wide_min_groups;
  // fp8: stage 2 with two row tiles a wave when its workgroups still cover the CUs
  const bool rt2 = !s.i8 && (s.dim + 511) / 512 * uint32_t(used) >= target_cus;
  const auto s1_mod = d.load_file(rt2     ? HIPASM_BENCH_RT2_CO
                                  : !s.i8 ? HIPASM_BENCH_CO
                                  : wide  ? HIPASM_BENCH_I8_WIDE_CO
                                          : HIPASM_BENCH_I8_CO);
  if (s.experts > moe_bench::sort.max_experts) hk::launch_moe_sorting<moe_bench::sort_257>(d, *sort_mod, "moe_sorting_257", sa);
  else hk::launch_moe_sorting<moe_bench::sort>(d, *sort_mod, "moe_sorting", sa);
  const hk::moe_quant_args a{.out = OUT.addr(), .x = in.X.addr(), .xs = in.XS.addr(), .w1 = in.W1.addr(),
                             .w1s = in.W1S.addr(), .w2 = in.W2.addr(), .w2s = in.W2S.addr(), .tokens = tokens,
                             .topk = s.topk, .experts = s.experts, .dim = s.dim, .inter = s.inter};
  // both stages in one dispatch: the whole grid profiled (its workgroups wait for each other), the
  // functional run on one thread in workgroup order (one poll a wait, deterministic)
  rt::profile_options p;
  p.device = target_device;
  // HIPASM_BENCH_TIMELINE=W: wave W's schedule (every instruction's issue, stall and reason) on stderr
  const char* timeline = std::getenv("HIPASM_BENCH_TIMELINE");
  p.keep_events = timeline != nullptr;
  rt::launch_options o;
  o.profile = &p;
  o.threads = 1;
  // MOE_QUANT_BENCH_ROWS=A,B: the fused grid's rows of workgroups of stage 1 and 2 (0: the configuration's)
  hk::moe_quant_rows rows{};
  if (const char* e = std::getenv("MOE_QUANT_BENCH_ROWS")) std::sscanf(e, "%u,%u", &rows.stage1, &rows.stage2);
  // (the fused grid's first n1 workgroups are stage 1's)
  const uint32_t n1 = moe_quant_bench::s1.grid_x(s.inter) *
                      std::min(rows.stage1 ? rows.stage1 : moe_quant_bench::s1.grid_y(s.inter, ws.max_blocks),
                               hk::detail::moe_quant_busy_blocks(tokens, s.topk, s.experts));
  auto from = [&](const rt::launch_report& rep) {
    print_phases("hipasm", rep);
    if (timeline) std::fprintf(stderr, "%s\n", rep.profile->timeline(uint32_t(std::strtoul(timeline, nullptr, 10))).c_str());
    if (const char* e = std::getenv("HIPASM_BENCH_PHASES"); e && *e == '1') {
      // each stage's waves that did work: first start, last end (cycles)
      uint64_t st[2] = {~0ull, ~0ull}, en[2] = {0, 0};
      for (const auto& w : rep.profile->waves_info) {
        const int k = w.workgroup < n1 ? 0 : 1;
        if (w.instructions < 200) continue;  // (workgroups without a block)
        st[k] = std::min(st[k], w.start), en[k] = std::max(en[k], w.end);
      }
      std::fprintf(stderr, "hipasm stage 1 waves %llu-%llu, stage 2 waves %llu-%llu\n", (unsigned long long)st[0],
                   (unsigned long long)en[0], (unsigned long long)st[1], (unsigned long long)en[1]);
      // the waves' starts: the first, 10%, 50%, 90%, last
      std::vector<uint64_t> starts;
      for (const auto& w : rep.profile->waves_info) starts.push_back(w.start);
      std::sort(starts.begin(), starts.end());
      if (!starts.empty())
        std::fprintf(stderr, "hipasm wave starts %llu %llu %llu %llu %llu\n", (unsigned long long)starts[0],
                     (unsigned long long)starts[starts.size() / 10], (unsigned long long)starts[starts.size() / 2],
                     (unsigned long long)starts[starts.size() * 9 / 10], (unsigned long long)starts.back());
      // stage 1's workgroups' ends: the first, 10%, 50%, 90%, last
      std::vector<uint64_t> ends;
      for (const auto& w : rep.profile->waves_info)
        if (w.workgroup < n1 && w.instructions >= 200 && w.wave_in_group == 0) ends.push_back(w.end);
      std::sort(ends.begin(), ends.end());
      if (!ends.empty())
        std::fprintf(stderr, "hipasm stage 1 ends %llu %llu %llu %llu %llu\n", (unsigned long long)ends[0],
                     (unsigned long long)ends[ends.size() / 10], (unsigned long long)ends[ends.size() / 2],
                     (unsigned long long)ends[ends.size() * 9 / 10], (unsigned long long)ends.back());
    }
    return bench::from(rep);
  };
  // the one-pass kernel where it suits the shape (moe_quant_onepass_suits), else the fused one;
  // MOE_QUANT_BENCH_ONEPASS=1 / 0 forces one; its rows: moe_quant_onepass_rows's (or
  // MOE_QUANT_BENCH_ROWS's first number)
  bool onepass = hk::detail::moe_quant_onepass_suits(tokens, s.topk, s.experts, s.inter, target_cus, moe_quant_bench::op_per_cu);
  if (const char* e = std::getenv("MOE_QUANT_BENCH_ONEPASS")) onepass = std::atoi(e) != 0;
  if (onepass && rows.stage1 == 0)
    rows.stage1 = hk::detail::moe_quant_onepass_rows(tokens, s.topk, s.experts, s.inter, target_cus, moe_quant_bench::op_per_cu);
  // MI300X rows of the rt2 kernel (32 tokens of DeepSeek V3): its 4-wave form, two workgroups a
  // CU, so stage 1's busy workgroups (16 x 33) run in one round, where the 8-wave stage 1 (one a
  // CU) takes two and the second round's blocks and their stage 2 leave a tail of idle CUs (not
  // measured on MI355X: 256 CUs, but for one row below); MOE_QUANT_BENCH_W4=1 / 0 forces it on / off
  // (MI355X: the 32-token 257-expert row, measured there; its other rt2 rows not measured)
  bool rt2_w4 = rt2 && (!target_gfx950 || (tokens == 32 && s.experts == 257));
  if (const char* e = std::getenv("MOE_QUANT_BENCH_W4")) rt2_w4 = rt2 && std::atoi(e) != 0;
  // int8 rows of the wide kernel: its 4-wave form, moe_quant_i8_fused_w4 (stage 1 of the whole K a
  // wave, stage 2 4 waves x 2 row tiles): two workgroups a CU, so stage-2 workgroups start beside
  // stage 1's last ones (measured at 32 tokens; the prefill row keeps the 8-wave form, not
  // measured); MOE_QUANT_BENCH_W4=1 / 0 forces it on / off
  bool i8_w4 = wide && tokens < 256;
  if (const char* e = std::getenv("MOE_QUANT_BENCH_W4")) i8_w4 = wide && std::atoi(e) != 0;
  std::unique_ptr<rt::module> op_mod;
  if (onepass) op_mod = d.load_file(HIPASM_BENCH_ONEPASS_CO);
  result r =
      onepass && s.i8 ? from(hk::launch_moe_quant_onepass<moe_quant_bench::op_i8>(d, *op_mod, "moe_quant_i8_onepass", ws, qws, a, rows.stage1, o))
      : onepass       ? from(hk::launch_moe_quant_onepass<moe_quant_bench::op>(d, *op_mod, "moe_quant_onepass", ws, qws, a, rows.stage1, o))
      : i8_w4  ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_i8_w4, moe_quant_bench::s2_i8_rt2_w4>(
                 d, *s1_mod, "moe_quant_i8_fused_w4", ws, qws, a, rows, o))
      : wide   ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_i8, moe_quant_bench::s2_i8_wide>(
                 d, *s1_mod, "moe_quant_i8_fused_wide", ws, qws, a, rows, o))
      : s.i8 ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_i8, moe_quant_bench::s2_i8>(d, *s1_mod, "moe_quant_i8_fused",
                                                                                         ws, qws, a, rows, o))
      : rt2_w4 ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1_w4, moe_quant_bench::s2_rt2_w4>(d, *s1_mod, "moe_quant_fused_rt2_w4",
                                                                                        ws, qws, a, rows, o))
      : rt2  ? from(hk::launch_moe_quant_fused<moe_quant_bench::s1, moe_quant_bench::s2_rt2>(d, *s1_mod, "moe_quant_fused_rt2",
                                                                                        ws, qws, a, rows, o))
           : from(hk::launch_moe_quant_fused<moe_quant_bench::s1, moe_quant_bench::s2>(d, *s1_mod, "moe_quant_fused", ws,
                                                                                   qws, a, rows, o));
  const double flops = double(tokens) * s.topk * 2.0 * s.dim * s.inter * 3.0;
  r.tflops = flops / (r.us * 1e6);
  const double bytes = double(used) * s.dim * s.inter * 3.0 + double(tokens) * s.dim * (1.0 + 4.0);
  std::string tuned;
  double amd = 0;
  if (!aiter_dir.empty() && !s.i8) {
    bool one_stage = false;
    uint32_t block_m = 0;
    amd = amd_us(aiter_dir / "aiter" / "configs" / "model_configs" / "a8w8_blockscale_tuned_fmoe_ds_v3.csv", s, tokens,
                 &tuned, &one_stage, &block_m);
    if (!one_stage || block_m != hk::moe_block_m) tuned.clear();  // (its kernel needs aiter's sorting at that block)
  }
  const double aiter_us = aiter_co.empty() ? 0 : aiter_fmoe(aiter_co, s, tokens, xv, ids, tw, ws, tuned);
  std::string extra;
  if (!aiter_dir.empty() && !s.i8) {
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
  if (argc > 1 && target_gfx950) {
    aiter_dir = aiter_co = argv[1];  // (the kernel per row: pick_gfx950)
  } else if (argc > 1) {
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
  if (target_gfx950) {
    // MI355X: DeepSeek V3's 256 routed experts and the shared one, inter 256 (the table's cu_num 256 rows)
    const shape ds_v3_257{7168, 256, 257, 9};
    for (uint32_t tokens : {1u, 4u, 32u, 256u})
      if (tokens < 256 || prefill) row(aiter_dir, aiter_co, ds_v3_257, tokens);
    return 0;  // (int8: the MI300X bench's)
  }
  // int8: aiter's multix code objects are found next to the fp8 one (the tile per row)
  const shape i8{6144, 4096, 8, 2, true};
  for (uint32_t tokens : {1u, 32u, 256u})
    if (tokens < 256 || prefill) row(aiter_dir, aiter_co.empty() ? fs::path{} : aiter_co.parent_path(), i8, tokens);
  return 0;
}
