// HIPASM_TEST_KERNELS: moe_sorting.hip moe_stage1.hip moe_stage1_g1u0.hip moe_stage2.hip moe_lds.hip moe_lds_g1u0.hip moe_fused.hip moe_fused_8w.hip
// Fused MoE (include/hipasm/kernels/moe.hpp) in hipasm-sim against plain C++ references:
// the sorting's exact output in aiter's layout (1 to 100 tokens, 8 to 256 experts, top-1 to
// top-8, experts without tokens, ids out of range, several LDS chunks), and the whole MoE
// (sorting, gate/up GEMM with SiLU, down GEMM with the routing weights) on small shapes with
// column tails, gated (g1u1) and not (g1u0), weights loaded straight into the MFMA layout or
// staged through LDS (K ranges that end inside a 128-byte line), as three kernels and with
// both GEMM stages in one dispatch (stage-2 workgroups waiting for stage-1 ones through
// counters in memory, run on several worker threads and launched twice: the counters must be
// back to 0); the checker must stay silent.
#include <catch2/catch.hpp>

#include "activation_ref.hpp"
#include "kernel_test.hpp"

#include <hipasm/helpers/debug_log_host.hpp>
#include <hipasm/kernels/moe_launch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "moe_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;
using hipasm::test::bf16;
using hipasm::test::from_bf16;

namespace {
struct mods {
  hipasm::test::kernel_sim sort{"moe_sorting"};
  std::unique_ptr<rt::module> s1 = sort.dev->load_file(hipasm::test::code_object("moe_stage1"));
  std::unique_ptr<rt::module> s1_g1u0 = sort.dev->load_file(hipasm::test::code_object("moe_stage1_g1u0"));
  std::unique_ptr<rt::module> s2 = sort.dev->load_file(hipasm::test::code_object("moe_stage2"));
  // lds_weights: stage 1 and stage 2 of one configuration a code object
  std::unique_ptr<rt::module> lds = sort.dev->load_file(hipasm::test::code_object("moe_lds"));
  std::unique_ptr<rt::module> lds_g1u0 = sort.dev->load_file(hipasm::test::code_object("moe_lds_g1u0"));
  std::unique_ptr<rt::module> fused = sort.load("moe_fused");
  std::unique_ptr<rt::module> fused_8w = sort.load("moe_fused_8w");
};
mods& M() {
  static mods m;
  return m;
}

// topk distinct experts per token drawn from the first `used` experts (the others get none)
struct routing {
  std::vector<int> ids;
  std::vector<float> w;
};
// (one_expert_all: expert used - 1 in every token's slot 0)
routing make_routing(uint32_t tokens, uint32_t topk, uint32_t used, int seed, bool one_expert_all = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.05f, 1.0f);
  routing r;
  std::vector<int> all(used);
  std::iota(all.begin(), all.end(), 0);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    if (one_expert_all) std::swap(all[0], *std::find(all.begin(), all.end(), int(used - 1)));
    for (uint32_t k = 0; k < topk; ++k) {
      r.ids.push_back(all[k]);
      r.w.push_back(u(rng));
    }
  }
  return r;
}

// aiter's moe_sorting output (SkipExpertsWithZeroTokens, mock id tokens | topk << 24)
struct sorted_ref {
  std::vector<uint32_t> ids, eids;
  std::vector<float> w;
};
sorted_ref sort_reference(const routing& r, uint32_t tokens, uint32_t topk, uint32_t experts) {
  sorted_ref s;
  for (uint32_t e = 0; e < experts; ++e) {
    size_t n = 0;
    for (uint32_t t = 0; t < tokens; ++t)
      for (uint32_t k = 0; k < topk; ++k)
        if (r.ids[t * topk + k] == int(e)) {
          s.ids.push_back(t | (k << 24));
          s.w.push_back(r.w[t * topk + k]);
          ++n;
        }
    while (n % hk::moe_block_m != 0) {
      s.ids.push_back(tokens | (topk << 24));
      s.w.push_back(0.0f);
      ++n;
    }
    for (size_t b = 0; b < n / hk::moe_block_m; ++b) s.eids.push_back(e);
  }
  return s;
}

// moe_sorting_config::debug_log's records against the routing: each expert's count and padded
// start (lane l of wave w: expert 64 w + l, every expert below `experts` once), the total (an
// SGPR) once per wave
void check_sorting_log(const std::vector<uint32_t>& buf, const routing& r, uint32_t tokens, uint32_t topk,
                       uint32_t experts, uint32_t waves) {
  INFO("the log:\n" << hipasm::format_debug_log(buf));  // (printed when a check fails)
  uint32_t dropped = 0;
  const auto recs = hipasm::decode_debug_log(buf, &dropped);
  CHECK(dropped == 0u);
  std::vector<uint32_t> count(experts, 0), start(experts, 0);
  for (uint32_t i = 0; i < tokens * topk; ++i)
    if (r.ids[i] >= 0 && r.ids[i] < int(experts)) ++count[r.ids[i]];
  uint32_t total = 0;
  for (uint32_t e = 0; e < experts; ++e) {
    start[e] = total;
    total += (count[e] + hk::moe_block_m - 1) / hk::moe_block_m * hk::moe_block_m;
  }
  std::vector<int> seen_count(experts, 0), seen_start(experts, 0), seen_total(waves, 0);
  for (const auto& d : recs) {
    INFO("tag " << d.tag << " wave " << d.wave << " lane " << d.lane << " value " << d.bits);
    CHECK(d.workgroup == 0u);
    CHECK(d.type == hipasm::dtype::u32);
    const uint32_t e = 64 * d.wave + d.lane;
    if (d.tag == uint32_t(hk::moe_log_total)) {
      CHECK(d.scalar);
      CHECK(d.bits == total);
      REQUIRE(d.wave < waves);
      ++seen_total[d.wave];
      continue;
    }
    REQUIRE(e < experts);
    CHECK_FALSE(d.scalar);
    if (d.tag == uint32_t(hk::moe_log_count)) {
      CHECK(d.bits == count[e]);
      ++seen_count[e];
    } else {
      REQUIRE(d.tag == uint32_t(hk::moe_log_start));
      CHECK(d.bits == start[e]);
      ++seen_start[e];
    }
  }
  for (uint32_t w = 0; w < waves; ++w) CHECK(seen_total[w] == 1);
  for (uint32_t e = 0; e < experts; ++e) {
    INFO("expert " << e);
    CHECK(seen_count[e] == 1);
    CHECK(seen_start[e] == 1);
  }
}

template <hk::moe_sorting_config C>
void check_sorting(const char* kernel, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t used, int seed,
                   bool bad_ids = false) {
  INFO(kernel << " tokens " << tokens << " topk " << topk << " experts " << experts << " used " << used);
  routing r = make_routing(tokens, topk, used, seed);
  if (bad_ids) {  // out of range: not routed (also at every place of the count's unrolled trips)
    r.ids[0] = -1;
    r.ids.back() = int(experts);
    for (size_t i = 97; i + 1 < r.ids.size(); i += 211) r.ids[i] = (i / 211) % 2 ? -1 : int(experts + i % 5);
  }
  rt::device& d = *M().sort.dev;
  hk::moe_workspace ws(d, tokens, topk, experts, 16);
  rt::buffer<int> ids(d, r.ids);
  rt::buffer<float> w(d, r.w);
  rt::buffer<uint32_t> log(d, hipasm::debug_log_buffer(2 * experts + C.waves));  // (exactly the records expected)
  auto rep = hk::launch_moe_sorting<C>(d, *M().sort.m, kernel,
                                       {.sorted_token_ids = ws.sorted_token_ids.addr(),
                                        .sorted_weights = ws.sorted_weights.addr(),
                                        .sorted_expert_ids = ws.sorted_expert_ids.addr(),
                                        .num_valid_ids = ws.num_valid_ids.addr(),
                                        .topk_ids = ids.addr(), .topk_weights = w.addr(), .tokens = tokens,
                                        .topk = topk, .experts = experts,
                                        .debug_log = C.debug_log ? log.addr() : 0});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
  if (C.debug_log) check_sorting_log(log.download(), r, tokens, topk, experts, C.waves);
  const sorted_ref want = sort_reference(r, tokens, topk, experts);
  const auto nv = ws.num_valid_ids.download();
  REQUIRE(nv[0] == want.ids.size());
  REQUIRE(nv[1] == tokens);
  const auto got_ids = ws.sorted_token_ids.download();
  const auto got_w = ws.sorted_weights.download();
  const auto got_e = ws.sorted_expert_ids.download();
  for (size_t i = 0; i < want.ids.size(); ++i) {
    INFO("entry " << i);
    REQUIRE(got_ids[i] == want.ids[i]);
    REQUIRE(got_w[i] == want.w[i]);
  }
  for (size_t b = 0; b < want.eids.size(); ++b) {
    INFO("block " << b);
    REQUIRE(got_e[b] == want.eids[b]);
  }
  for (size_t i = want.ids.size(); i < got_ids.size(); ++i) REQUIRE(got_ids[i] == 0u);  // nothing past the entries
}


// Runs the whole MoE (sorting and GEMMs) into a.out with ws.
using moe_run = std::function<rt::launch_report(hk::moe_workspace& ws, const hk::moe_args& a)>;

// The whole MoE on random bf16 data, `launches` times on one workspace (out refilled with 7
// between them); out against a double reference with h rounded to bf16 as the kernel stores it.
void check_moe_run(const moe_run& run, bool gated, hk::activation act, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t used,
                   uint32_t dim, uint32_t inter, int seed, int launches = 1, bool one_expert_all = false) {
  INFO("tokens " << tokens << " topk " << topk << " experts " << experts << " dim " << dim << " inter " << inter
                 << (gated ? " g1u1" : " g1u0") << " " << hk::activation_name(act) << (one_expert_all ? " one expert in every token" : ""));
  const routing r = make_routing(tokens, topk, used, seed, one_expert_all);
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const uint32_t gu = gated ? 2 * inter : inter;
  std::vector<uint16_t> x(size_t(tokens) * dim), w1(size_t(experts) * gu * dim), w2(size_t(experts) * dim * inter);
  for (auto& v : x) v = bf16(u(rng));
  for (auto& v : w1) v = bf16(u(rng) * 0.25f);
  for (auto& v : w2) v = bf16(u(rng) * 0.25f);
  rt::device& d = *M().sort.dev;
  rt::buffer<uint16_t> X(d, x), W1(d, w1), W2(d, w2);
  rt::buffer<float> O(d, size_t(tokens) * dim + 64), TW(d, r.w);
  rt::buffer<int> TI(d, r.ids);
  hk::moe_workspace ws(d, tokens, topk, experts, inter);
  for (int launch = 0; launch < launches; ++launch) {
  INFO("launch " << launch);
  O.upload(std::vector<float>(size_t(tokens) * dim + 64, 7.0f));
  auto rep = run(ws, {.out = O.addr(), .x = X.addr(), .w1 = W1.addr(), .w2 = W2.addr(), .topk_ids = TI.addr(),
                      .topk_weights = TW.addr(), .tokens = tokens, .topk = topk, .experts = experts, .dim = dim,
                      .inter = inter});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK("checker: " << msg);
  const auto out = O.download();
  std::vector<double> h(inter);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::vector<double> want(dim, 0.0), scale(dim, 0.0);
    for (uint32_t k = 0; k < topk; ++k) {
      const uint32_t e = uint32_t(r.ids[t * topk + k]);
      const double wt = r.w[t * topk + k];
      for (uint32_t n = 0; n < inter; ++n) {
        double g = 0, up = 0;
        for (uint32_t c = 0; c < dim; ++c) {
          const double xv = from_bf16(x[size_t(t) * dim + c]);
          g += xv * from_bf16(w1[(size_t(e) * gu + n) * dim + c]);
          if (gated) up += xv * from_bf16(w1[(size_t(e) * gu + inter + n) * dim + c]);
        }
        h[n] = from_bf16(bf16(gated ? hipasm::test::act_ref(act, g) * up : hipasm::test::act_ref(act, g)));
      }
      for (uint32_t c = 0; c < dim; ++c)
        for (uint32_t n = 0; n < inter; ++n) {
          const double term = wt * h[n] * from_bf16(w2[(size_t(e) * dim + c) * inter + n]);
          want[c] += term;
          scale[c] += std::fabs(term);
        }
    }
    for (uint32_t c = 0; c < dim; ++c) {
      INFO("token " << t << " column " << c << " got " << out[size_t(t) * dim + c] << " want " << want[c]);
      // h may round to the neighbouring bf16 (f32 vs double sums): 2^-8 of the terms' size
      REQUIRE(std::fabs(out[size_t(t) * dim + c] - want[c]) <= 8e-3 * scale[c] + 1e-5);
    }
  }
  for (size_t i = size_t(tokens) * dim; i < out.size(); ++i) REQUIRE(out[i] == 7.0f);  // nothing past out
  // the fused kernel's counters are back to 0 for the next launch (unused by the others)
  for (uint32_t c : ws.counters.download()) REQUIRE(c == 0u);
  }
}

// The three kernels (sorting, stage 1, stage 2).
template <hk::moe_sorting_config SC, hk::moe_gemm_config GC>
void check_moe(const char* sort_k, const char* s1_k, const char* s2_k, uint32_t tokens, uint32_t topk, uint32_t experts,
               uint32_t used, uint32_t dim, uint32_t inter, int seed, bool one_expert_all = false) {
  // (one code object a stage-1 kernel: compile time)
  rt::module& s1 = GC.lds_weights ? (GC.gated ? *M().lds : *M().lds_g1u0) : GC.gated ? *M().s1 : *M().s1_g1u0;
  rt::module& s2 = GC.lds_weights ? s1 : *M().s2;
  check_moe_run(
      [&](hk::moe_workspace& ws, const hk::moe_args& a) {
        return hk::launch_fused_moe<SC, GC>(*M().sort.dev, {*M().sort.m, sort_k}, {s1, s1_k}, {s2, s2_k}, ws, a);
      },
      GC.gated, GC.act, tokens, topk, experts, used, dim, inter, seed, 1, one_expert_all);
}

// The sorting, then both GEMM stages in one dispatch (HIPASM_MOE_FUSED_KERNEL), launched twice
// on one workspace, its workgroups on `threads` worker threads (2: a stage-2 workgroup polls
// while the stage-1 ones it waits for run on the other thread).
template <hk::moe_sorting_config SC, hk::moe_gemm_config C1, hk::moe_gemm_config C2>
void check_moe_fused(rt::module& m, const char* kernel, uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t used,
                     uint32_t dim, uint32_t inter, int seed, unsigned threads = 2) {
  INFO(kernel << " on " << threads << " threads");
  rt::launch_options o;
  o.threads = threads;
  check_moe_run(
      [&](hk::moe_workspace& ws, const hk::moe_args& a) {
        return hk::launch_fused_moe<SC, C1, C2>(*M().sort.dev, {*M().sort.m, "moe_sort_64"}, {m, kernel}, ws, a, o);
      },
      C1.gated, C1.act, tokens, topk, experts, used, dim, inter, seed, 2);
}
}  // namespace

TEST_CASE("moe_sorting: aiter's layout, token order, padding, empty experts", "[kernels][moe]") {
  check_sorting<cfg::sort_64>("moe_sort_64", 1, 1, 8, 8, 1);     // one token, one slot
  check_sorting<cfg::sort_64>("moe_sort_64", 1, 8, 64, 64, 2);   // one token, 56 empty experts
  check_sorting<cfg::sort_64>("moe_sort_64", 37, 2, 8, 8, 3);    // a tail of the 32-row blocks
  check_sorting<cfg::sort_64>("moe_sort_64", 70, 4, 64, 10, 4);  // 54 experts without tokens
  check_sorting<cfg::sort_64>("moe_sort_64", 9, 3, 17, 17, 5);   // experts not a multiple of 4
  check_sorting<cfg::sort_256>("moe_sort_256", 100, 8, 256, 256, 6);  // 7 LDS chunks of 16 tokens
  check_sorting<cfg::sort_256>("moe_sort_256", 33, 6, 160, 40, 7);
  check_sorting<cfg::sort_256>("moe_sort_256", 16, 2, 8, 8, 8);      // exactly one chunk
}

TEST_CASE("moe_sorting: debug_log records each expert's count and start (decoded on the host)", "[kernels][moe]") {
  // the same results as without the log, and the records the C++ reference predicts
  check_sorting<cfg::sort_256_log>("moe_sort_256_log", 100, 8, 256, 256, 6);
  check_sorting<cfg::sort_256_log>("moe_sort_256_log", 33, 6, 160, 40, 7);  // 120 experts without tokens
  check_sorting<cfg::sort_256_log>("moe_sort_256_log", 12, 2, 70, 70, 9, true);  // ids out of range
}

TEST_CASE("moe_sorting: expert ids out of range are not routed", "[kernels][moe]") {
  check_sorting<cfg::sort_64>("moe_sort_64", 12, 2, 8, 8, 9, true);
}

TEST_CASE("moe_sorting: prefill's routing (several count trips and chunks, tails)", "[kernels][moe]") {
  // 2100 ids: four trips of 8 x 64 and a tail of 52; ids out of range in each
  check_sorting<cfg::sort_64>("moe_sort_64", 700, 3, 64, 64, 10, true);
  // 8192 ids: 8 trips of 8 x 128; 52 chunks of 20 tokens, the last of 4
  check_sorting<cfg::sort_128_c20>("moe_sort_128_c20", 1024, 8, 128, 128, 11, true);
  check_sorting<cfg::sort_128_c20>("moe_sort_128_c20", 333, 5, 100, 37, 12);  // 63 experts without tokens
}

TEST_CASE("moe_sorting: bad launches are refused", "[kernels][moe]") {
  rt::device& d = *M().sort.dev;
  hk::moe_sorting_args a{.tokens = 4, .topk = 2, .experts = 65};
  CHECK_THROWS_WITH(hk::launch_moe_sorting<cfg::sort_64>(d, *M().sort.m, "moe_sort_64", a),
                    Catch::Contains("65 experts, the kernel takes up to 64"));
  a.experts = 8;
  a.topk = 9;
  CHECK_THROWS_WITH(hk::launch_moe_sorting<cfg::sort_64>(d, *M().sort.m, "moe_sort_64", a), Catch::Contains("topk"));
  a.topk = 2;
  a.tokens = 0;
  CHECK_THROWS_WITH(hk::launch_moe_sorting<cfg::sort_64>(d, *M().sort.m, "moe_sort_64", a), Catch::Contains("tokens"));
  hk::moe_stage_args s{.tokens = 4, .topk = 2, .experts = 8, .dim = 72, .inter = 32};
  CHECK_THROWS_WITH(hk::launch_moe_stage1<cfg::gemm_g1u1>(d, *M().s1, "moe_s1_g1u1", s), Catch::Contains("multiples of 16"));
}

TEST_CASE("moe: gated SiLU, top-k weighted sum, one token and tails", "[kernels][moe]") {
  // 1 token; dim and inter tails of the 64-column workgroups (2 waves x 32)
  check_moe<cfg::sort_64, cfg::gemm_g1u1>("moe_sort_64", "moe_s1_g1u1", "moe_s2", 1, 2, 8, 8, 80, 48, 11);
  // 40 tokens over 8 experts: blocks of 32 with tails, K loop of several groups
  check_moe<cfg::sort_64, cfg::gemm_g1u1>("moe_sort_64", "moe_s1_g1u1", "moe_s2", 40, 2, 8, 8, 64, 96, 12);
  // 64 experts, top-8, most experts empty, K not a multiple of the load group (dim 48)
  check_moe<cfg::sort_64, cfg::gemm_g1u1>("moe_sort_64", "moe_s1_g1u1", "moe_s2", 9, 8, 64, 20, 48, 32, 13);
  // top-1
  check_moe<cfg::sort_64, cfg::gemm_g1u1>("moe_sort_64", "moe_s1_g1u1", "moe_s2", 5, 1, 16, 16, 32, 64, 14);
}

TEST_CASE("moe: one expert takes every token", "[kernels][moe]") {
  // expert 5 in every token's slot 0 (45 rows: a whole block and a tail), experts 6 and 7 empty;
  // weights straight and through LDS
  check_moe<cfg::sort_64, cfg::gemm_g1u1>("moe_sort_64", "moe_s1_g1u1", "moe_s2", 45, 2, 8, 6, 64, 96, 15, true);
  check_moe<cfg::sort_64, cfg::gemm_g1u1_lds>("moe_sort_64", "moe_s1_g1u1_lds", "moe_s2_lds", 45, 2, 8, 6, 144, 64, 16, true);
}

TEST_CASE("moe: g1u0 (GELU, erf form, of the gate alone)", "[kernels][moe]") {
  check_moe<cfg::sort_64, cfg::gemm_g1u0>("moe_sort_64", "moe_s1_g1u0", "moe_s2_g1u0", 7, 2, 8, 8, 64, 80, 21);
  // (three register sets: software_pipeline's loop leaves at each of its three copies) stage 1's K
  // 21 slices: 11 groups of 2; stage 2's 8: 4 groups
  check_moe<cfg::sort_64, cfg::gemm_g1u0>("moe_sort_64", "moe_s1_g1u0", "moe_s2_g1u0", 5, 2, 8, 8, 336, 128, 23);
}

TEST_CASE("moe: weights through LDS, K ranges ending inside a line, GELU (tanh)", "[kernels][moe]") {
  // 1 token; dim and inter tails of the 64-column workgroups
  check_moe<cfg::sort_64, cfg::gemm_g1u1_lds>("moe_sort_64", "moe_s1_g1u1_lds", "moe_s2_lds", 1, 2, 8, 8, 80, 48, 31);
  // 40 tokens top-2 over 8 experts: padding rows; dim 208 = 13 slices, stage 1's K halves
  // [0, 112) and [112, 208) end inside a group's line (x's slices past the end read zeros)
  check_moe<cfg::sort_64, cfg::gemm_g1u1_lds>("moe_sort_64", "moe_s1_g1u1_lds", "moe_s2_lds", 40, 2, 8, 8, 208, 80, 32);
  // 64 experts, top-8, most experts empty, K shorter than a group (dim 48)
  check_moe<cfg::sort_64, cfg::gemm_g1u1_lds>("moe_sort_64", "moe_s1_g1u1_lds", "moe_s2_lds", 9, 8, 64, 20, 48, 32, 33);
  // many groups in three sets (the loop leaves at each of its copies): stage 1's K halves of
  // dim 1040, 33 and 32 slices (9 and 8 groups of 4), stage 2's of inter 400, 13 and 12 (4 and 3)
  check_moe<cfg::sort_64, cfg::gemm_g1u1_lds>("moe_sort_64", "moe_s1_g1u1_lds", "moe_s2_lds", 5, 2, 8, 8, 1040, 400, 35);
  // g1u0 with two lines a row and group (unroll 8): the K halves end inside the second line
  check_moe<cfg::sort_64, cfg::gemm_g1u0_lds>("moe_sort_64", "moe_s1_g1u0_lds", "moe_s2_g1u0_lds", 37, 3, 16, 16, 208, 96, 34);
}

// Regression: slices past a wave's K range once loaded with the range's end marked in the
// soffset (k), which the timing model's traffic count then ignored (voffset + offset only;
// record.cpp now checks soffset too): every such load touched lines 2 GiB past W or x. Now
// they load through a V# of range 0. The HBM traffic of stage 1 stays within the data it must
// move (x, all of W1, h, out, the ids).
TEST_CASE("moe: stage 1 loads past a wave's K range touch no memory", "[kernels][moe]") {
  constexpr auto GC = cfg::gemm_g1u1_lds;
  const uint32_t tokens = 40, topk = 2, experts = 8, dim = 208, inter = 80;
  const routing r = make_routing(tokens, topk, experts, 41);
  rt::device& d = *M().sort.dev;
  std::vector<uint16_t> x(size_t(tokens) * dim, bf16(0.5f)), w1(size_t(experts) * 2 * inter * dim, bf16(0.25f));
  rt::buffer<uint16_t> X(d, x), W1(d, w1);
  rt::buffer<float> O(d, std::vector<float>(size_t(tokens) * dim, 0.0f)), TW(d, r.w);
  rt::buffer<int> TI(d, r.ids);
  hk::moe_workspace ws(d, tokens, topk, experts, inter);
  hk::launch_moe_sorting<cfg::sort_64>(d, *M().sort.m, "moe_sort_64",
                                       {.sorted_token_ids = ws.sorted_token_ids.addr(),
                                        .sorted_weights = ws.sorted_weights.addr(),
                                        .sorted_expert_ids = ws.sorted_expert_ids.addr(),
                                        .num_valid_ids = ws.num_valid_ids.addr(), .topk_ids = TI.addr(),
                                        .topk_weights = TW.addr(), .tokens = tokens, .topk = topk, .experts = experts});
  rt::profile_options p;
  p.device = hipasm::test::test_device();
  rt::launch_options o;
  o.profile = &p;
  auto rep = hk::launch_moe_stage1<GC>(d, *M().lds, "moe_s1_g1u1_lds",
                                       {.out = O.addr(), .h = ws.h.addr(), .x = X.addr(), .w = W1.addr(),
                                        .sorted_token_ids = ws.sorted_token_ids.addr(),
                                        .sorted_weights = ws.sorted_weights.addr(),
                                        .sorted_expert_ids = ws.sorted_expert_ids.addr(),
                                        .num_valid_ids = ws.num_valid_ids.addr(), .tokens = tokens, .topk = topk,
                                        .experts = experts, .dim = dim, .inter = inter},
                                       o);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK("checker: " << msg);
  REQUIRE(rep.profile);
  const uint64_t need = (x.size() + w1.size() + size_t(ws.max_blocks) * hk::moe_block_m * inter) * 2 +
                        size_t(tokens) * dim * 4 + size_t(ws.max_blocks) * (hk::moe_block_m + 1) * 4 + 8;
  INFO("HBM bytes " << rep.profile->hbm_bytes << ", data " << need);
  CHECK(rep.profile->hbm_bytes <= need + need / 8);
}

TEST_CASE("moe fused: both stages in one dispatch (counters, waits, tails)", "[kernels][moe]") {
  using cfg::gemm_g1u1;
  // 1 token; dim and inter tails of the 64-column workgroups; 6 experts without tokens
  check_moe_fused<cfg::sort_64, gemm_g1u1, gemm_g1u1>(*M().fused, "moe_fused_g1u1", 1, 2, 8, 8, 80, 48, 51);
  // 40 tokens top-2 over 8 experts: several blocks a workgroup (max_workgroups 4), so stage-2
  // workgroups wait before each of their blocks; also on one thread (every wait met at once)
  check_moe_fused<cfg::sort_64, gemm_g1u1, gemm_g1u1>(*M().fused, "moe_fused_g1u1", 40, 2, 8, 8, 64, 96, 52);
  check_moe_fused<cfg::sort_64, gemm_g1u1, gemm_g1u1>(*M().fused, "moe_fused_g1u1", 40, 2, 8, 8, 64, 96, 52, 1);
  // 64 experts, top-8, most experts empty, K shorter than a load group (dim 48)
  check_moe_fused<cfg::sort_64, gemm_g1u1, gemm_g1u1>(*M().fused, "moe_fused_g1u1", 9, 8, 64, 20, 48, 32, 53);
  // top-1
  check_moe_fused<cfg::sort_64, gemm_g1u1, gemm_g1u1>(*M().fused, "moe_fused_g1u1", 5, 1, 16, 16, 32, 64, 54);
}

TEST_CASE("moe fused: g1u0, weights through LDS, the bench's 8-wave layout", "[kernels][moe]") {
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_lds, cfg::gemm_g1u1_lds>(*M().fused, "moe_fused_g1u0_lds", 37, 3, 16, 16,
                                                                        208, 96, 61);
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_lds, cfg::gemm_g1u1_lds>(*M().fused, "moe_fused_g1u0_lds", 1, 8, 64, 64,
                                                                        48, 32, 62);
  // K of stage 1 over 8 waves (dim 272: 17 slices, ranges ending inside a line), 33 tokens top-2
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_8w, cfg::down_8w>(*M().fused_8w, "moe_fused_8w", 33, 2, 16, 12, 272, 160, 63);
  // stage 2's K (inter 336: 21 slices) over 4 waves, ranges ending inside a line
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_8w, cfg::down_8w_long_k>(*M().fused_8w, "moe_fused_8w_long_k", 20, 2, 8, 8,
                                                                         96, 336, 64);
  // stage 2 as 8 column waves of the whole K (inter 208: 13 slices, a group past its end), dim
  // 272 a tail of the 256-column workgroup; 1 token top-8 of 64 experts (56 without tokens), and 45
  // tokens top-2 of 16 experts, 4 of them without tokens
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_8w, cfg::down_8w_mid_k>(*M().fused_8w, "moe_fused_8w_mid_k", 1, 8, 64, 64,
                                                                        272, 208, 65);
  check_moe_fused<cfg::sort_64, cfg::gemm_g1u0_8w, cfg::down_8w_mid_k>(*M().fused_8w, "moe_fused_8w_mid_k", 45, 2, 16, 12,
                                                                        272, 208, 66);
}

TEST_CASE("moe fused: a sampled profile is refused (the waited-for workgroups would not run)", "[kernels][moe]") {
  rt::device& d = *M().sort.dev;
  hk::moe_workspace ws(d, 4, 2, 8, 32);
  rt::profile_options p;
  p.device = hipasm::test::test_device();
  p.sample_cus = 8;
  rt::launch_options o;
  o.profile = &p;
  CHECK_THROWS_WITH((hk::launch_moe_fused<cfg::gemm_g1u1, cfg::gemm_g1u1>(
                        d, *M().fused, "moe_fused_g1u1", ws,
                        {.tokens = 4, .topk = 2, .experts = 8, .dim = 64, .inter = 32}, o)),
                    Catch::Contains("sample_cus"));
}
