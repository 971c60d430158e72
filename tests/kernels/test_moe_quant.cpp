// HIPASM_TEST_KERNELS: moe_quant_s1.hip moe_quant_s1_g1u0.hip moe_quant_s2.hip moe_quant_i8.hip moe_quant_i8_g1u0.hip moe_quant_fused.hip moe_quant_rt2.hip moe_quant_onepass.hip moe_sorting.hip
// The quantized fused MoE (include/hipasm/kernels/moe_quant.hpp: fp8 block scales, int8 per token
// x per channel) in hipasm-sim against plain C++ on the same quantized values (fp8 e4m3 of the
// run's target, fnuz on gfx942 and OCP e4m3fn on gfx950 where the kernels take the double-K MFMAs,
// decoded from the format's definition, tests/common/narrow_float_ref.hpp; int8 exactly), on
// moe_sorting's routing (moe.hpp), as two kernels and as one dispatch:
//  - stage 1: g and up summed in double per 128-element K block, scaled by the block's x and
//    W1 scales; h = act(g) * up (or act(g)); each 1x128 block of h re-quantized: the kernel's
//    scale must be max(amax / qmax, 1 / (512 * qmax)) (qmax: the format's largest finite value,
//    240 fnuz, 448 OCP; 127 int8) and each fp8 value the nearest to h / scale
//    (or, where f32 and double sums straddle a rounding boundary, as near);
//  - stage 2: out[t] = sum over the token's slots of w * (the kernel's hq, hs) . W2 with W2's
//    block scales, in double.
// Random routing with experts without tokens, one expert taking every token, tied routing
// weights and tied rows, tokens not a multiple of 32, K splits with an empty part, column tails
// of stage 2's workgroups (one or two 32-row tiles a wave), weights through LDS and straight into the MFMA layout, 2 and 3 K
// blocks in flight; the one-dispatch kernels (fused, one pass) on 2 worker threads, launched
// twice (their counters back to 0); the checker must stay silent and nothing lands past out.
#include <catch2/catch.hpp>

#include "activation_ref.hpp"
#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/moe_quant_launch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "moe_configs.hpp"
#include "moe_quant_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
struct mods {
  hipasm::test::kernel_sim sort{"moe_sorting"};
  std::unique_ptr<rt::module> s1 = sort.load("moe_quant_s1");
  std::unique_ptr<rt::module> s1_g1u0 = sort.load("moe_quant_s1_g1u0");
  std::unique_ptr<rt::module> s2 = sort.load("moe_quant_s2");
  std::unique_ptr<rt::module> i8 = sort.load("moe_quant_i8");
  std::unique_ptr<rt::module> i8_g1u0 = sort.load("moe_quant_i8_g1u0");
  std::unique_ptr<rt::module> fused = sort.load("moe_quant_fused");
  std::unique_ptr<rt::module> rt2 = sort.load("moe_quant_rt2");
  std::unique_ptr<rt::module> onepass = sort.load("moe_quant_onepass");
};
mods& M() {
  static mods m;
  return m;
}

const hipasm::test::minifloat& fp8() {
  static const hipasm::test::minifloat f = hipasm::test::f8_formats_of(hipasm::test::test_arch()).fp8;
  return f;
}
// (a table of the 256 codes: the reference decodes every weight for every token)
double f8(uint8_t b) {
  static const std::array<double, 256> t = [] {
    std::array<double, 256> v{};
    for (unsigned c = 0; c < 256; ++c) v[c] = hipasm::test::decode(fp8(), c);
    return v;
  }();
  return t[b];
}
uint8_t to_f8(double v) { return uint8_t(hipasm::test::encode(fp8(), v, true)); }

struct routing {
  std::vector<int> ids;
  std::vector<float> w;
};
enum class route { random, one_expert_all, ties };
// topk distinct experts per token among the first `used`; one_expert_all: expert used - 1 in
// every token's slot 0; ties: every weight 1 / topk
routing make_routing(uint32_t tokens, uint32_t topk, uint32_t used, route kind, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.05f, 1.0f);
  routing r;
  std::vector<int> all(used);
  std::iota(all.begin(), all.end(), 0);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    if (kind == route::one_expert_all) std::swap(all[0], *std::find(all.begin(), all.end(), int(used - 1)));
    for (uint32_t k = 0; k < topk; ++k) {
      r.ids.push_back(all[k]);
      r.w.push_back(kind == route::ties ? 1.0f / float(topk) : u(rng));
    }
  }
  return r;
}

struct problem {
  uint32_t tokens, topk, experts, dim, inter;
  bool gated, i8;
  std::vector<uint8_t> x, w1, w2;
  std::vector<float> xs, w1s, w2s;
};
// fp8: values in [-2, 2], block scales (x [dim / 128][tokens], W1 [E][rows / 128][dim / 128], W2
// [E][dim / 128][inter / 128]); i8: any of [-128, 127], scales per token (x [tokens]) and per
// channel (W1 [E][rows], W2 [E][dim])
problem make_problem(uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t dim, uint32_t inter, bool gated,
                     bool i8, bool tied_rows, int seed) {
  problem p{tokens, topk, experts, dim, inter, gated, i8, {}, {}, {}, {}, {}, {}};
  std::mt19937 rng(seed * 7 + 1);
  std::uniform_real_distribution<double> v(-2.0, 2.0), s(0.5, 2.0);
  std::uniform_int_distribution<int> b(0, 255);
  const double unit = i8 ? 64.0 : 1.0;  // (int8 values are ~64 times fp8's here: scales smaller)
  const uint32_t gu = gated ? 2 * inter : inter;
  p.x.resize(size_t(tokens) * dim);
  p.w1.resize(size_t(experts) * gu * dim);
  p.w2.resize(size_t(experts) * dim * inter);
  for (auto* t : {&p.x, &p.w1, &p.w2})
    for (auto& e : *t) e = i8 ? uint8_t(b(rng)) : to_f8(v(rng));
  if (tied_rows)  // tokens 1 and 2 as token 0 (equal rows: the same h, scales and sums)
    for (uint32_t t = 1; t < std::min(tokens, 3u); ++t) std::copy_n(p.x.begin(), dim, p.x.begin() + size_t(t) * dim);
  p.xs.resize(i8 ? tokens : size_t(dim / 128) * tokens);
  p.w1s.resize(i8 ? size_t(experts) * gu : size_t(experts) * (gu / 128) * (dim / 128));
  p.w2s.resize(i8 ? size_t(experts) * dim : size_t(experts) * (dim / 128) * (inter / 128));
  for (auto& f : p.xs) f = float(s(rng) / 64 / unit);
  for (auto& f : p.w1s) f = float(s(rng) / 16 / unit);
  for (auto& f : p.w2s) f = float(s(rng) / 16 / unit);
  return p;
}

// Stage 1 (s1) then stage 2 (s2), or with `fused` both in one dispatch (HIPASM_MOE_QUANT_FUSED_KERNEL,
// s1 naming it) launched twice on 2 worker threads (out refilled with 7 between; the counters
// must be back to 0 after each).
template <hk::moe_quant_config C1, hk::moe_quant_config C2>
void check_moe_quant(rt::module& s1, const char* s1_name, rt::module& s2, const char* s2_name, uint32_t tokens,
                     uint32_t topk, uint32_t experts, uint32_t used, uint32_t dim, uint32_t inter, route kind, int seed,
                     bool fused = false, hk::moe_quant_rows grid_rows = {}, bool onepass = false) {
  INFO("tokens " << tokens << " topk " << topk << " experts " << experts << " used " << used << " dim " << dim
                 << " inter " << inter << (C1.gated ? " g1u1" : " g1u0") << " " << hk::activation_name(C1.act) << " routing " << int(kind));
  constexpr bool I8 = C1.type == hk::quant_type::i8;
  static_assert(C2.type == C1.type);
  const problem p = make_problem(tokens, topk, experts, dim, inter, C1.gated, I8, kind == route::ties, seed);
  // an element's value; the nearest code's value to y (fp8: the format's round to nearest even)
  auto val = [](uint8_t b) { return I8 ? double(int8_t(b)) : f8(b); };
  auto nearest = [](double y) { return I8 ? std::clamp(std::nearbyint(y), -128.0, 127.0) : f8(to_f8(y)); };
  const double qmax = I8 ? 127.0 : fp8().max_finite();
  const routing r = make_routing(tokens, topk, used, kind, seed);
  rt::device& d = *M().sort.dev;
  rt::buffer<uint8_t> X(d, p.x), W1(d, p.w1), W2(d, p.w2);
  rt::buffer<float> XS(d, p.xs), W1S(d, p.w1s), W2S(d, p.w2s), TW(d, r.w);
  rt::buffer<int> TI(d, r.ids);
  rt::buffer<float> O(d, std::vector<float>(size_t(tokens) * dim + 64, 7.0f));
  hk::moe_workspace ws(d, tokens, topk, experts, inter);
  hk::moe_quant_workspace qws(d, tokens, topk, experts, inter);
  auto rs = hk::launch_moe_sorting<cfg::sort_64>(
      d, *M().sort.m, "moe_sort_64",
      {.sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
       .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
       .topk_ids = TI.addr(), .topk_weights = TW.addr(), .tokens = tokens, .topk = topk, .experts = experts});
  for (const auto& msg : rs.diagnostics) FAIL_CHECK("sorting checker: " << msg);
  const hk::moe_quant_args a{.out = O.addr(), .x = X.addr(), .xs = XS.addr(), .w1 = W1.addr(), .w1s = W1S.addr(),
                             .w2 = W2.addr(), .w2s = W2S.addr(), .tokens = tokens, .topk = topk, .experts = experts,
                             .dim = dim, .inter = inter};
  if (onepass) {  // (s1 names it; grid_rows.stage1 its rows)
    rt::launch_options o;
    o.threads = 2;
    for (int launch = 0; launch < 2; ++launch) {
      O.upload(std::vector<float>(size_t(tokens) * dim + 64, 7.0f));
      auto r = hk::launch_moe_quant_onepass<C1>(d, s1, s1_name, ws, qws, a, grid_rows.stage1, o);
      for (const auto& msg : r.diagnostics) FAIL_CHECK("one-pass checker: " << msg);
      for (uint32_t c : ws.counters.download()) REQUIRE(c == 0u);
    }
  } else if (fused) {
    rt::launch_options o;
    o.threads = 2;
    for (int launch = 0; launch < 2; ++launch) {
      O.upload(std::vector<float>(size_t(tokens) * dim + 64, 7.0f));
      auto r = hk::launch_moe_quant_fused<C1, C2>(d, s1, s1_name, ws, qws, a, grid_rows, o);
      for (const auto& msg : r.diagnostics) FAIL_CHECK("fused checker: " << msg);
      for (uint32_t c : ws.counters.download()) REQUIRE(c == 0u);
    }
  } else {
    auto r1 = hk::launch_moe_quant_stage1<C1>(d, s1, s1_name, ws, qws, a);
    for (const auto& msg : r1.diagnostics) FAIL_CHECK("stage 1 checker: " << msg);
    auto r2 = hk::launch_moe_quant_stage2<C2>(d, s2, s2_name, ws, qws, a);
    for (const auto& msg : r2.diagnostics) FAIL_CHECK("stage 2 checker: " << msg);
  }

  const auto sid = ws.sorted_token_ids.download();
  const auto sw = ws.sorted_weights.download();
  const auto seid = ws.sorted_expert_ids.download();
  const uint32_t entries = ws.num_valid_ids.download()[0];
  // the fused launch's rows stop at the blocks the routing can fill: the sorting's are among them
  CHECK(entries / hk::moe_block_m <= hk::detail::moe_quant_busy_blocks(tokens, topk, experts));
  const auto hq = qws.hq.download();
  const auto hs = qws.hs.download();
  const auto out = O.download();
  const uint32_t rows = ws.max_blocks * hk::moe_block_m, nkb = dim / 128, nib = inter / 128;
  const uint32_t gu = C1.gated ? 2 * inter : inter;
  std::vector<double> want(size_t(tokens) * dim, 0.0), mag(size_t(tokens) * dim, 0.0);
  std::vector<double> h(inter);
  uint32_t routed = 0;
  for (uint32_t row = 0; row < entries; ++row) {
    const uint32_t t = sid[row] & 0xffffffu, e = seid[row / hk::moe_block_m];
    if (t >= tokens) continue;
    ++routed;
    INFO("sorted row " << row << " token " << t << " expert " << e);
    // stage 1 in double
    auto dot = [&](uint32_t n) {
      double sum = 0;
      for (uint32_t kb = 0; kb < nkb; ++kb) {
        double s = 0;
        for (uint32_t k = kb * 128; k < kb * 128 + 128; ++k)
          s += val(p.x[size_t(t) * dim + k]) * val(p.w1[(size_t(e) * gu + n) * dim + k]);
        sum += I8 ? s : s * p.xs[size_t(kb) * tokens + t] * p.w1s[(size_t(e) * (gu / 128) + n / 128) * nkb + kb];
      }
      return I8 ? sum * p.xs[t] * p.w1s[size_t(e) * gu + n] : sum;
    };
    for (uint32_t n = 0; n < inter; ++n) h[n] = C1.gated ? hipasm::test::act_ref(C1.act, dot(n)) * dot(inter + n) : hipasm::test::act_ref(C1.act, dot(n));
    for (uint32_t c = 0; c < nib; ++c) {
      double amax = 0;
      for (uint32_t n = c * 128; n < c * 128 + 128; ++n) amax = std::max(amax, std::fabs(h[n]));
      const double scale = std::max(amax / qmax, 1.0 / (512.0 * qmax));
      const double got_s = hs[size_t(c) * rows + row];
      INFO("h block " << c << " scale got " << got_s << " want " << scale);
      REQUIRE(std::fabs(got_s - scale) <= 1e-5 * scale);
      for (uint32_t n = c * 128; n < c * 128 + 128; ++n) {
        const double y = h[n] / got_s, q = val(hq[size_t(row) * inter + n]), want_q = nearest(y);
        INFO("h column " << n << " h / scale " << y << " got " << q << " nearest " << want_q);
        REQUIRE(std::fabs(q - y) <= std::fabs(want_q - y) + 1e-4 * (std::fabs(y) + 1.0));
      }
    }
    // stage 2 on the kernel's hq, hs
    const float wt = sw[row];
    for (uint32_t dd = 0; dd < dim; ++dd) {
      for (uint32_t kb = 0; kb < nib; ++kb) {
        double s = 0;
        for (uint32_t k = kb * 128; k < kb * 128 + 128; ++k)
          s += val(hq[size_t(row) * inter + k]) * val(p.w2[(size_t(e) * dim + dd) * inter + k]);
        const double ws2 = I8 ? p.w2s[size_t(e) * dim + dd] : p.w2s[(size_t(e) * nkb + dd / 128) * nib + kb];
        const double term = wt * s * hs[size_t(kb) * rows + row] * ws2;
        want[size_t(t) * dim + dd] += term;
        mag[size_t(t) * dim + dd] += std::fabs(term);
      }
    }
  }
  REQUIRE(routed == tokens * topk);
  for (uint32_t t = 0; t < tokens; ++t)
    for (uint32_t dd = 0; dd < dim; ++dd) {
      const size_t i = size_t(t) * dim + dd;
      INFO("token " << t << " column " << dd << " got " << out[i] << " want " << want[i]);
      REQUIRE(std::fabs(out[i] - want[i]) <= 1e-4 * mag[i] + 1e-6);
    }
  for (size_t i = size_t(tokens) * dim; i < out.size(); ++i) REQUIRE(out[i] == 7.0f);  // nothing past out
}
}  // namespace

TEST_CASE("moe_quant fp8 block-scale g1u1: routing with empty experts, row tails", "[kernels][moe_quant]") {
  // 1 token top-2 of 8 experts; K of one scale block (k_split 2: the second part empty)
  check_moe_quant<cfg::q_s1, cfg::q_s2>(*M().s1, "moe_q_s1", *M().s2, "moe_q_s2", 1, 2, 8, 8, 128, 128, route::random, 1);
  // 37 tokens top-2 of 16 experts, 10 used: padding rows, 6 experts without tokens; dim 384
  // (3 K blocks: parts of 2 and 1; stage 2's 64-column workgroups over 6), inter 256
  check_moe_quant<cfg::q_s1, cfg::q_s2>(*M().s1, "moe_q_s1", *M().s2, "moe_q_s2", 37, 2, 16, 10, 384, 256, route::random, 2);
}

TEST_CASE("moe_quant fp8 block-scale g1u1: one expert takes every token, ties", "[kernels][moe_quant]") {
  // every token's slot 0 on expert 4 (45 rows: two blocks), the rest random
  check_moe_quant<cfg::q_s1, cfg::q_s2>(*M().s1, "moe_q_s1", *M().s2, "moe_q_s2", 45, 2, 8, 5, 256, 128, route::one_expert_all, 3);
  // equal routing weights and three equal token rows; top-1 of 4
  check_moe_quant<cfg::q_s1, cfg::q_s2>(*M().s1, "moe_q_s1", *M().s2, "moe_q_s2", 20, 1, 4, 4, 256, 256, route::ties, 4);
}

TEST_CASE("moe_quant fp8 block-scale g1u0, GELU (erf)", "[kernels][moe_quant]") {
  check_moe_quant<cfg::q_s1_g1u0, cfg::q_s2>(*M().s1_g1u0, "moe_q_s1_g1u0", *M().s2, "moe_q_s2", 33, 3, 8, 8, 256, 256, route::random, 5);
}

TEST_CASE("moe_quant int8 per token x per channel: g1u1 and g1u0 (GELU, tanh)", "[kernels][moe_quant]") {
  // 1 token; one expert taking every token with 45 (two blocks); 37 tokens, 6 experts without tokens
  check_moe_quant<cfg::i8_s1, cfg::i8_s2>(*M().i8, "moe_i8_s1", *M().i8, "moe_i8_s2", 1, 2, 8, 8, 128, 128, route::random, 11);
  check_moe_quant<cfg::i8_s1, cfg::i8_s2>(*M().i8, "moe_i8_s1", *M().i8, "moe_i8_s2", 45, 2, 8, 5, 384, 256,
                                          route::one_expert_all, 12);
  check_moe_quant<cfg::i8_s1_g1u0, cfg::i8_s2>(*M().i8_g1u0, "moe_i8_s1_g1u0", *M().i8, "moe_i8_s2", 37, 2, 16, 10, 256,
                                               256, route::ties, 13);
}

TEST_CASE("moe_quant fused: both stages in one dispatch (counters, waits, relaunch)", "[kernels][moe_quant]") {
  auto& f = *M().fused;
  // 1 token; 37 tokens with padding rows and empty experts (blocks looped over: stage-2
  // workgroups wait before each); one expert taking every token
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w>(f, "moe_q_fused", f, "", 1, 2, 8, 8, 128, 128, route::random, 21, true);
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w>(f, "moe_q_fused", f, "", 37, 2, 16, 10, 384, 256, route::random, 22, true);
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w>(f, "moe_q_fused", f, "", 45, 2, 8, 5, 256, 128, route::one_expert_all, 23,
                                           true);
}

TEST_CASE("moe_quant stage 2 with two row tiles a wave: fp8, int8, fused", "[kernels][moe_quant]") {
  auto& m = *M().rt2;
  // 37 tokens top-2 of 16 experts, 10 used (padding rows, experts without tokens); dim 384: the
  // second workgroup's 256 rows end past dim (a wave with one tile in, one wholly past, two past)
  check_moe_quant<cfg::q_s1, cfg::q_s2_rt2>(*M().s1, "moe_q_s1", m, "moe_q_s2_rt2", 37, 2, 16, 10, 384, 256, route::random, 31);
  // one expert taking every token (45 rows: two blocks); the per-channel scales of both tiles
  check_moe_quant<cfg::i8_s1, cfg::i8_s2_rt2>(*M().i8, "moe_i8_s1", m, "moe_i8_s2_rt2", 45, 2, 8, 5, 384, 256,
                                              route::one_expert_all, 32);
  // both stages in one dispatch: 1 token at dim 128 (one workgroup of 256 rows, half past dim);
  // 37 tokens as above, blocks looped over
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w_rt2>(m, "moe_q_fused_rt2", m, "", 1, 2, 8, 8, 128, 128, route::random, 33, true);
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w_rt2>(m, "moe_q_fused_rt2", m, "", 37, 2, 16, 10, 384, 256, route::random, 34, true);
  // in 4-wave workgroups (the MI300X bench's 32-token DeepSeek V3 row): the same, and one expert
  // taking every token
  check_moe_quant<cfg::q_s1_w4, cfg::q_s2_rt2>(m, "moe_q_fused_rt2_w4", m, "", 37, 2, 16, 10, 384, 256, route::random, 35,
                                               true);
  check_moe_quant<cfg::q_s1_w4, cfg::q_s2_rt2>(m, "moe_q_fused_rt2_w4", m, "", 45, 2, 8, 5, 256, 128,
                                               route::one_expert_all, 36, true);
  // int8 (the MI300X bench's 32-token int8 row)
  check_moe_quant<cfg::i8_s1_w4, cfg::i8_s2_rt2>(m, "moe_i8_fused_rt2_w4", m, "", 37, 2, 16, 10, 384, 256, route::random,
                                                 37, true);
  check_moe_quant<cfg::i8_s1_w4, cfg::i8_s2_rt2>(m, "moe_i8_fused_rt2_w4", m, "", 45, 2, 8, 5, 256, 128,
                                                 route::one_expert_all, 38, true);
}

TEST_CASE("moe_quant fused: rows of workgroups given", "[kernels][moe_quant]") {
  auto& f = *M().fused;
  // one row a stage (every block in turn, stage 2 waiting before each): 37 tokens, padding rows
  // and empty experts; more rows than blocks (capped), one expert taking every token
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w>(f, "moe_q_fused", f, "", 37, 2, 16, 10, 384, 256, route::random, 47, true,
                                           {1, 1});
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w>(f, "moe_q_fused", f, "", 45, 2, 8, 5, 256, 128, route::one_expert_all, 48,
                                           true, {2, 100});
  auto& m = *M().rt2;
  check_moe_quant<cfg::q_s1, cfg::q_s2_8w_rt2>(m, "moe_q_fused_rt2", m, "", 37, 2, 16, 10, 384, 256, route::random, 49,
                                               true, {3, 2});
}

TEST_CASE("moe_quant one pass: stage 1 and its down slice a workgroup (zeroing wait, relaunch)", "[kernels][moe_quant]") {
  auto& m = *M().onepass;
  // 1 token at dim 128 (one tile a wave for 4 of 8 waves); 37 tokens, padding rows and empty
  // experts, dim 384 (12 tiles over 8 waves: uneven), inter 256 (two column blocks a row)
  check_moe_quant<cfg::q_s1, cfg::q_s1>(m, "moe_q_onepass", m, "", 1, 2, 8, 8, 128, 128, route::random, 61, false, {}, true);
  check_moe_quant<cfg::q_s1, cfg::q_s1>(m, "moe_q_onepass", m, "", 37, 2, 16, 10, 384, 256, route::random, 62, false, {}, true);
  // one expert taking every token (two blocks), ties; one row of workgroups (each loops over every block)
  check_moe_quant<cfg::q_s1, cfg::q_s1>(m, "moe_q_onepass", m, "", 45, 2, 8, 5, 256, 128, route::one_expert_all, 63, false,
                                        {1, 0}, true);
  check_moe_quant<cfg::q_s1, cfg::q_s1>(m, "moe_q_onepass", m, "", 20, 1, 4, 4, 256, 256, route::ties, 64, false, {2, 0}, true);
  // g1u0, 4 waves, three tiles in flight
  check_moe_quant<cfg::q_op_g1u0, cfg::q_op_g1u0>(m, "moe_q_onepass_g1u0", m, "", 33, 3, 8, 8, 256, 256, route::random, 65,
                                                  false, {}, true);
  // int8 per token x per channel: per-channel W2 scales a tile
  check_moe_quant<cfg::i8_s1, cfg::i8_s1>(m, "moe_i8_onepass", m, "", 37, 2, 16, 10, 384, 256, route::random, 66, false, {},
                                          true);
  check_moe_quant<cfg::i8_s1, cfg::i8_s1>(m, "moe_i8_onepass", m, "", 45, 2, 8, 5, 256, 128, route::one_expert_all, 67,
                                          false, {}, true);
}

TEST_CASE("moe_quant: the fused launch's busy blocks", "[kernels][moe_quant]") {
  // (tokens * topk + 31 experts hit) / 32, at most moe_max_blocks: 1 token top-9 of 33: 9 blocks;
  // 4 tokens: 33 (of 34); 32 tokens: 40 (of 42); 45 rows on 2 experts: 3; 8192 rows on 8: 263
  CHECK(hk::detail::moe_quant_busy_blocks(1, 9, 33) == 9);
  CHECK(hk::detail::moe_quant_busy_blocks(4, 9, 33) == 33);
  CHECK(hk::moe_max_blocks(4, 9, 33) == 34);
  CHECK(hk::detail::moe_quant_busy_blocks(32, 9, 33) == 40);
  CHECK(hk::detail::moe_quant_busy_blocks(45, 1, 2) == 3);
  CHECK(hk::detail::moe_quant_busy_blocks(1024, 8, 8) == 263);
  CHECK(hk::moe_max_blocks(1024, 8, 8) == 264);
}

TEST_CASE("moe_quant: where the one-pass kernel suits", "[kernels][moe_quant]") {
  // DeepSeek V3 EP8 (inter 2048, top-9 of 33), 2 workgroups a CU of 304: 1 token 16 x 9 = 144
  // workgroups (>= 76), 4 tokens 16 x 33 = 528 (<= 608); 32 tokens 16 x 40 = 640 (> 608)
  CHECK(hk::detail::moe_quant_onepass_suits(1, 9, 33, 2048, 304, 2));
  CHECK(hk::detail::moe_quant_onepass_suits(4, 9, 33, 2048, 304, 2));
  CHECK_FALSE(hk::detail::moe_quant_onepass_suits(32, 9, 33, 2048, 304, 2));
  CHECK_FALSE(hk::detail::moe_quant_onepass_suits(32, 9, 33, 2048, 304, 3));  // (fits: 8.7 rows an expert)
  // int8 6144/4096 top-2 of 8: 1 token 32 x 2 = 64 workgroups (< 76); 32 tokens 8 rows an expert
  CHECK_FALSE(hk::detail::moe_quant_onepass_suits(1, 2, 8, 4096, 304, 2));
  CHECK_FALSE(hk::detail::moe_quant_onepass_suits(32, 2, 8, 4096, 304, 2));
  CHECK(hk::detail::moe_quant_onepass_suits(8, 2, 8, 4096, 304, 2));  // 16 rows on 8: 2 an expert, 32 x 8 = 256
}

TEST_CASE("moe_quant: bad shapes are refused", "[kernels][moe_quant]") {
  rt::device& d = *M().sort.dev;
  hk::moe_workspace ws(d, 4, 2, 8, 192);
  hk::moe_quant_workspace qws(d, 4, 2, 8, 192);
  hk::moe_quant_args a{.tokens = 4, .topk = 2, .experts = 8, .dim = 256, .inter = 192};
  CHECK_THROWS_WITH(hk::launch_moe_quant_stage1<cfg::q_s1>(d, *M().s1, "moe_q_s1", ws, qws, a),
                    Catch::Contains("multiples of 128"));
  a.inter = 128;
  a.tokens = 40;  // (the workspaces hold 4 tokens' worst-case blocks)
  CHECK_THROWS_WITH(hk::launch_moe_quant_stage2<cfg::q_s2>(d, *M().s2, "moe_q_s2", ws, qws, a),
                    Catch::Contains("another shape"));
  // the fused kernel's workgroups wait for each other: a sampled profile would not run them all
  a.tokens = 4;
  hk::moe_workspace ws128(d, 4, 2, 8, 128);
  hk::moe_quant_workspace qws128(d, 4, 2, 8, 128);
  rt::profile_options p;
  p.device = hipasm::test::test_device();
  p.sample_cus = 8;
  rt::launch_options o;
  o.profile = &p;
  CHECK_THROWS_WITH((hk::launch_moe_quant_fused<cfg::q_s1, cfg::q_s2_8w>(d, *M().fused, "moe_q_fused", ws128, qws128, a, {}, o)),
                    Catch::Contains("sample_cus"));
  CHECK_THROWS_WITH((hk::launch_moe_quant_onepass<cfg::q_s1>(d, *M().onepass, "moe_q_onepass", ws128, qws128, a, 0, o)),
                    Catch::Contains("sample_cus"));
}
