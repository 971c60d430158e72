// HIPASM_TEST_KERNELS: moe_fp4.hip moe_fp4_shuffled.hip moe_fp4_fused.hip
// HIPASM_TEST_ARCHS: gfx950
// The MXFP4 MoE (include/hipasm/kernels/moe_fp4.hpp: x quantized, moe_sorting, stage 1 with the
// intermediate re-quantized, stage 2 with the routing weights) in hipasm-sim on gfx950 against a
// plain C++ reference: fp4 e2m1 and E8M0 from the OCP MX v1.0 spec (tests/common/
// narrow_float_ref.hpp), aiter's scale rule for x and h (a block's amax rounded up from 1.75 2^e,
// floor(log2) - 2; test_mxfp4_quant.cpp), the sums in double. The kernel's f32 sums and its SiLU
// (<= 16 ulp, helpers/math.hpp) move h by a little; where that little can move an element of h to
// the neighbouring fp4 value (or a block's amax to the next scale), the reference allows that
// element either value (every candidate between the extremes of h's interval at either scale);
// elsewhere h must match exactly, and out within the f32 rounding of its sums and atomics.
// Routing: the shared expert (the last id, weight 1) takes every token (blocks with a tail),
// routed experts drawn from a subset (experts without tokens), tied weights, token counts not a
// multiple of 32, DeepSeek-R1's 257 experts with top-9; weights row-major and preshuffled
// (moe_fp4_preshuffle). The checker must report nothing.
#include <catch2/catch.hpp>

#include "activation_ref.hpp"
#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/moe_fp4_launch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "moe_fp4_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;
namespace ht = hipasm::test;

namespace {
struct mods {
  ht::kernel_sim sim{"moe_fp4"};
  std::unique_ptr<rt::module> shuf = sim.load("moe_fp4_shuffled");
  std::unique_ptr<rt::module> fused = sim.load("moe_fp4_fused");
};
mods& M() {
  static mods m;
  return m;
}

double e2m1(unsigned code) { return ht::decode(ht::e2m1, code & 15u); }
double e8m0(uint8_t e) { return std::ldexp(1.0, int(e) - 127); }
// the same values from tables (the reference's inner loops read every weight of every routed
// expert for every token: decoding each time was most of the test's time)
struct mx_tables {
  double fp4[16], scale[256];
  mx_tables() {
    for (unsigned c = 0; c < 16; ++c) fp4[c] = e2m1(c);
    for (unsigned e = 0; e < 256; ++e) scale[e] = e8m0(uint8_t(e));
  }
};
const mx_tables& mx_table() {
  static const mx_tables t;
  return t;
}

// aiter's scale rule of a block's amax (test_mxfp4_quant.cpp's aiter_even_code)
uint8_t aiter_code(double amax) {
  if (amax == 0) return 0;
  int e = std::ilogb(amax);
  if (std::ldexp(amax, -e) >= 1.75) ++e;
  return uint8_t(std::clamp(e - 2, -127, 127) + 127);
}
// v in e2m1 at scale code c, nearest even, saturated; the value it stands for
double mx_value(double v, uint8_t c) {
  return e2m1(ht::encode(ht::e2m1, std::ldexp(v, 127 - int(c)), true)) * e8m0(c);
}

struct mx_rows {  // rows x K fp4 (two a byte, even k low) and rows x K/32 scales
  uint32_t rows = 0, K = 0;
  std::vector<uint8_t> q, s;
  double value(uint32_t r, uint32_t k) const {
    const unsigned b = q[size_t(r) * (K / 2) + k / 2];
    const mx_tables& t = mx_table();
    return t.fp4[k % 2 ? b >> 4 : b & 15u] * t.scale[s[size_t(r) * (K / 32) + k / 32]];
  }
};
mx_rows random_weights(std::mt19937& g, uint32_t rows, uint32_t K) {
  mx_rows w{rows, K, std::vector<uint8_t>(size_t(rows) * K / 2), std::vector<uint8_t>(size_t(rows) * K / 32)};
  std::uniform_int_distribution<int> byte(0, 255), sc(123, 127);  // scales 2^-4 .. 1
  for (auto& b : w.q) b = uint8_t(byte(g));
  for (auto& b : w.s) b = uint8_t(sc(g));
  return w;
}

struct routing {
  std::vector<int> ids;
  std::vector<float> w;
};
// per token: topk - 1 distinct routed experts of the first `used` (weights in (0.05, 1), every
// third token's all equal: ties), then the shared expert `experts - 1` with weight 1; with drop,
// every fourth token's first slot an id outside [0, experts) (-1 or experts: not routed)
routing make_routing(uint32_t tokens, uint32_t topk, uint32_t experts, uint32_t used, int seed, bool drop = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.05f, 1.0f);
  routing r;
  std::vector<int> all(used);
  std::iota(all.begin(), all.end(), 0);
  for (uint32_t t = 0; t < tokens; ++t) {
    std::shuffle(all.begin(), all.end(), rng);
    const float tie = u(rng);
    for (uint32_t k = 0; k + 1 < topk; ++k) {
      r.ids.push_back(all[k]);
      r.w.push_back(t % 3 == 0 ? tie : u(rng));
    }
    r.ids.push_back(int(experts - 1));
    r.w.push_back(1.0f);
    if (drop && t % 4 == 1) r.ids[size_t(t) * topk] = t % 8 == 1 ? -1 : int(experts);
  }
  return r;
}


// The whole layer on the simulator (configurations S1 / S2, their kernels in `m`) against the
// reference; x bf16 in [-1, 1) with a row of zeros.
// mode: the four launches (launch_moe_fp4); prologue: the sorting and the quantization in one
// dispatch, then the stages; fused: the prologue, then both stages in one dispatch (s1_name),
// launched twice on two worker threads (a stage-2 workgroup polls while the stage-1 ones it
// waits for run on the other; the counters must be back to 0 for the second launch and after it)
// gathered: the prologue, x gathered (moe_fp4_gather), the stages (launch_moe_fp4's 4-dispatch
// form for an x_gathered stage 1); with a rows_out S2, stage 2's rows and the reduce
// (moe_fp4_reduce) after it. drop: some slots' ids outside [0, experts) (make_routing).
enum class mode { four, prologue, fused, gathered };
template <hk::moe_fp4_config S1, hk::moe_fp4_config S2, hk::mxfp4_quant_config QC, mode MODE = mode::four>
void check(rt::module& m, const char* s1_name, const char* s2_name, const char* quant_name, uint32_t tokens,
           uint32_t topk, uint32_t experts, uint32_t used, uint32_t inter, int seed, bool drop = false) {
  constexpr uint32_t dim = uint32_t(QC.d);
  INFO("tokens " << tokens << " topk " << topk << " experts " << experts << " used " << used << " dim " << dim
                 << " inter " << inter << " " << s1_name);
  static_assert(S1.w_shuffled == S2.w_shuffled);
  const routing r = make_routing(tokens, topk, experts, used, seed, drop);
  std::mt19937 g(seed + 1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> x(size_t(tokens) * dim);
  for (auto& v : x) v = ht::bf16(u(g));
  std::fill(x.begin(), x.begin() + std::min<size_t>(dim, x.size()), uint16_t(0));  // token 0: zeros
  const mx_rows w1 = random_weights(g, experts * 2 * inter, dim), w2 = random_weights(g, experts * dim, inter);
  rt::device& d = *M().sim.dev;
  const hk::gemm_fp4_b_shuffled w1d = S1.w_shuffled ? hk::moe_fp4_preshuffle(w1.q, w1.s, experts, 2 * inter, dim)
                                                    : hk::gemm_fp4_b_shuffled{w1.q, w1.s};
  const hk::gemm_fp4_b_shuffled w2d = S1.w_shuffled ? hk::moe_fp4_preshuffle(w2.q, w2.s, experts, dim, inter)
                                                    : hk::gemm_fp4_b_shuffled{w2.q, w2.s};
  rt::buffer<uint16_t> X(d, x);
  rt::buffer<uint8_t> W1(d, w1d.q), W1S(d, w1d.scales), W2(d, w2d.q), W2S(d, w2d.scales);
  constexpr size_t pad = 64;  // canaries past out
  rt::buffer<float> O(d, std::vector<float>(size_t(tokens) * dim + pad, 7.0f)), TW(d, r.w);
  rt::buffer<int> TI(d, r.ids);
  hk::moe_fp4_workspace ws(d, tokens, topk, experts, dim, inter, S1.x_gathered);
  const hk::moe_fp4_args args{.out = O.addr(), .x = X.addr(), .w1 = W1.addr(), .w1_scales = W1S.addr(),
                              .w2 = W2.addr(), .w2_scales = W2S.addr(), .topk_ids = TI.addr(),
                              .topk_weights = TW.addr(), .tokens = tokens, .topk = topk, .experts = experts,
                              .dim = dim, .inter = inter};
  std::vector<rt::launch_report> rep;
  if constexpr (MODE == mode::fused) {
    rt::launch_options o;
    o.threads = 2;
    for (int launch = 0; launch < 2; ++launch) {
      INFO("launch " << launch);
      rep.push_back(hk::launch_moe_fp4<QC, fp4_moe_cfg::sort_257, S1, S2>(d, {*M().sim.m, quant_name}, {m, s1_name}, ws,
                                                                          args, o));
      for (uint32_t c : ws.counters.download()) REQUIRE(c == 0u);
    }
  } else if constexpr (MODE == mode::gathered && S2.rows_out) {
    ws.allocate_rows(d, tokens, topk, dim);
    // (y's rows start as NaN: a row the reduce takes that stage 2 did not write shows)
    const std::vector<float> nan(size_t(tokens) * topk * dim, std::numeric_limits<float>::quiet_NaN());
    ws.y->upload(nan);
    rep.push_back(hk::launch_moe_fp4<QC, fp4_moe_cfg::sort_257, fp4_moe_cfg::gather_waves, fp4_moe_cfg::gather_parts, S1, S2,
                                     fp4_moe_cfg::reduce_waves>(d, {*M().sim.m, quant_name}, {m, "moe_fp4_gather"},
                                                                {m, s1_name}, {m, s2_name}, {m, "moe_fp4_reduce"}, ws, args));
  } else if constexpr (MODE == mode::gathered) {
    rep.push_back(hk::launch_moe_fp4<QC, fp4_moe_cfg::sort_257, fp4_moe_cfg::gather_waves, fp4_moe_cfg::gather_parts, S1, S2>(
        d, {*M().sim.m, quant_name}, {m, "moe_fp4_gather"}, {m, s1_name}, {m, s2_name}, ws, args));
  } else if constexpr (MODE == mode::prologue) {  // the sorting and the quantization in one dispatch, then the stages
    rep.push_back(hk::launch_moe_fp4_prologue<fp4_moe_cfg::sort_257, QC>(d, *M().sim.m, quant_name, ws, args));
    hk::moe_fp4_stage_args s{.out = O.addr(), .hq = ws.hq.addr(), .hs = ws.hs.addr(), .xq = ws.xq.addr(),
                             .xs = ws.xs.addr(), .w = W1.addr(), .w_scales = W1S.addr(),
                             .sorted_token_ids = ws.sorted_token_ids.addr(), .sorted_weights = ws.sorted_weights.addr(),
                             .sorted_expert_ids = ws.sorted_expert_ids.addr(), .num_valid_ids = ws.num_valid_ids.addr(),
                             .tokens = tokens, .topk = topk, .experts = experts, .dim = dim, .inter = inter};
    rep.push_back(hk::launch_moe_fp4_stage1<S1>(d, m, s1_name, s));
    s.w = W2.addr();
    s.w_scales = W2S.addr();
    rep.push_back(hk::launch_moe_fp4_stage2<S2>(d, m, s2_name, s));
  } else {
    rep.push_back(hk::launch_moe_fp4<QC, fp4_moe_cfg::sort_257, S1, S2>(
        d, {*M().sim.m, quant_name}, {*M().sim.m, "moe_sort_257"}, {m, s1_name}, {m, s2_name}, ws, args));
  }
  for (const auto& rp : rep)
    for (const auto& msg : rp.diagnostics) FAIL_CHECK("checker: " << msg);
  const auto out = O.download();

  // x quantized as the reference does it
  std::vector<double> xv(size_t(tokens) * dim);
  for (uint32_t t = 0; t < tokens; ++t)
    for (uint32_t b = 0; b < dim / 32; ++b) {
      double amax = 0;
      for (uint32_t i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(ht::from_bf16(x[size_t(t) * dim + 32 * b + i])));
      const uint8_t c = aiter_code(amax);
      for (uint32_t i = 0; i < 32; ++i) {
        const size_t j = size_t(t) * dim + 32 * b + i;
        xv[j] = mx_value(ht::from_bf16(x[j]), c);
      }
    }
  int bad = 0, loose = 0;
  std::vector<double> hq(inter), dev(inter), hlo(inter), hhi(inter), href(inter);
  for (uint32_t t = 0; t < tokens && bad < 10; ++t) {
    std::vector<double> want(dim, 0.0), tol(dim, 0.0);
    for (uint32_t k = 0; k < topk; ++k) {
      const uint32_t e = uint32_t(r.ids[t * topk + k]);
      if (e >= experts) continue;  // (not routed)
      const double wt = r.w[t * topk + k];
      for (uint32_t n = 0; n < inter; ++n) {
        double gs = 0, us = 0, gm = 0, um = 0;
        for (uint32_t c = 0; c < dim; ++c) {
          const double xc = xv[size_t(t) * dim + c];
          const double a = xc * w1.value(e * 2 * inter + n, c), b = xc * w1.value(e * 2 * inter + inter + n, c);
          gs += a;
          us += b;
          gm += std::fabs(a);
          um += std::fabs(b);
        }
        // the kernel's f32 sums: one rounding a 64-k MFMA step (test_gemm_fp4.cpp's bound)
        const double dg = (dim / 64 + 1) * std::ldexp(gm, -23), du = (dim / 64 + 1) * std::ldexp(um, -23);
        href[n] = hipasm::test::act_ref(S1.act, gs) * us;
        hlo[n] = hhi[n] = href[n];
        for (double gg : {gs - dg, gs + dg})
          for (double uu : {us - du, us + du}) {
            const double h = hipasm::test::act_ref(S1.act, gg) * uu;
            hlo[n] = std::min(hlo[n], h);
            hhi[n] = std::max(hhi[n], h);
          }
        // the activation's ulps (math.hpp: silu <= 16, the gelus <= 40)
        const double slack = std::ldexp(std::fabs(href[n]), S1.act == hk::activation::silu ? -18 : -17) + 1e-30;
        hlo[n] -= slack;
        hhi[n] += slack;
      }
      for (uint32_t b = 0; b < inter / 32; ++b) {
        double amax = 0, alo = 0, ahi = 0;
        for (uint32_t i = 32 * b; i < 32 * b + 32; ++i) {
          amax = std::max(amax, std::fabs(href[i]));
          ahi = std::max({ahi, std::fabs(hlo[i]), std::fabs(hhi[i])});
          alo = std::max(alo, hlo[i] > 0 ? hlo[i] : hhi[i] < 0 ? -hhi[i] : 0.0);
        }
        const uint8_t c = aiter_code(amax);
        for (uint32_t i = 32 * b; i < 32 * b + 32; ++i) {
          hq[i] = mx_value(href[i], c);
          dev[i] = 0;
          for (uint8_t cc : {aiter_code(alo), aiter_code(ahi)})
            for (double v : {hlo[i], hhi[i]}) dev[i] = std::max(dev[i], std::fabs(mx_value(v, cc) - hq[i]));
          if (dev[i] > 0) ++loose;
        }
      }
      for (uint32_t c = 0; c < dim; ++c) {
        double s = 0, mag = 0, dv = 0;
        for (uint32_t n = 0; n < inter; ++n) {
          const double wv = w2.value(e * dim + c, n);
          s += hq[n] * wv;
          mag += std::fabs(hq[n] * wv);
          dv += dev[n] * std::fabs(wv);
        }
        want[c] += wt * s;
        tol[c] += wt * (dv + (inter / 64 + 2 + topk) * std::ldexp(mag, -23));
      }
    }
    for (uint32_t c = 0; c < dim && bad < 10; ++c) {
      const double got = out[size_t(t) * dim + c];
      if (!(std::fabs(got - want[c]) <= tol[c] + 1e-30)) {
        ++bad;
        FAIL_CHECK("out[" << t << "][" << c << "] = " << got << ", want " << want[c] << " (tolerance " << tol[c] << ")");
      }
    }
  }
  INFO("elements of h with a rounding or scale near a boundary: " << loose);
  CHECK(bad == 0);
  for (size_t i = size_t(tokens) * dim; i < out.size(); ++i) REQUIRE(out[i] == 7.0f);  // nothing past out
}
}  // namespace

TEST_CASE("moe_fp4: row-major weights, shared expert, tails, empty experts, ties", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 37 tokens top-3 (2 routed of the first 6 of 8, then the shared expert 8): the shared expert's
  // 37 rows in two blocks (a tail of 5), experts 6 and 7 without tokens
  check<raw_s1, raw_s2, quant_512>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "quant_512", 37, 3, 9, 6, 256, 1);
  // one token; top-1 (the shared expert alone); inter over two 256-k steps
  check<raw_s1, raw_s2, quant_512>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "quant_512", 1, 4, 9, 8, 256, 2);
  check<raw_s1, raw_s2, quant_512>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "quant_512", 5, 1, 3, 2, 512, 3);
}

TEST_CASE("moe_fp4: DeepSeek-R1's routing: 257 experts, top-9 with the shared expert", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 6 tokens of 8 routed experts each among 256, and the shared expert 256
  check<raw_s1, raw_s2, quant_512>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "quant_512", 6, 9, 257, 256, 256, 4);
}

TEST_CASE("moe_fp4: the sorting and the quantization in one dispatch (the prologue kernel)", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  check<raw_s1, raw_s2, quant_512_w5, mode::prologue>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "moe_fp4_prologue_512", 37, 3, 9,
                                      6, 256, 7);
  // 257 experts top-9; x over two quantization workgroups (a workgroup: 5 waves x 4 steps of 512
  // elements, 20 rows of 512) and a part of a third
  check<raw_s1, raw_s2, quant_512_w5, mode::prologue>(*M().sim.m, "moe_fp4_s1_raw", "moe_fp4_s2_raw", "moe_fp4_prologue_512",
                                                      45, 9, 257, 40, 256, 8);
}

TEST_CASE("moe_fp4 fused: both stages in one dispatch (counters, waits, launched twice)", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 37 tokens top-3 of 9 experts (the shared one in two blocks); a few stage-1 workgroups
  // looping over the blocks (max_workgroups 6), so stage-2 workgroups wait before several blocks
  check<raw_s1, raw_s2_4w, quant_512_w5, mode::fused>(*M().fused, "moe_fp4_fused_raw", "", "moe_fp4_prologue_512", 37, 3,
                                                      9, 6, 256, 9);
  // one token of 257 experts top-9
  check<raw_s1, raw_s2_4w, quant_512_w5, mode::fused>(*M().fused, "moe_fp4_fused_raw", "", "moe_fp4_prologue_512", 1, 9,
                                                      257, 256, 512, 10);
  // preshuffled weights: three register sets, stage 2's K (two steps) over two waves
  check<shuf_s1, shuf_s2_4w, quant_512_w5, mode::fused>(*M().fused, "moe_fp4_fused_shuf", "", "moe_fp4_prologue_512", 20,
                                                        5, 17, 12, 512, 11);
}

TEST_CASE("moe_fp4: preshuffled weights, three register sets, stage 2's K over two waves", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // dim 1024: 4 K steps in sets of 3; inter 512: stage 2's K halves of one step each
  check<shuf_s1, shuf_s2, quant_1024>(*M().shuf, "moe_fp4_s1_shuf", "moe_fp4_s2_shuf", "quant_1024", 35, 5, 17, 12, 512, 5);
  // every token on the same routed experts (the first 2) with tied weights: 2-block experts
  check<shuf_s1, shuf_s2, quant_1024>(*M().shuf, "moe_fp4_s1_shuf", "moe_fp4_s2_shuf", "quant_1024", 33, 3, 5, 2, 256, 6);
}

TEST_CASE("moe_fp4: x gathered into the sorted rows' layout for stage 1, GELU (erf)", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 37 tokens top-3 of 9 (the shared expert's two blocks with a tail, padding rows, empty
  // experts); dim 512: 2 K steps over the gather's 6 waves of a block (4 idle)
  check<gath_s1, shuf_s2, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath", "moe_fp4_s2_shuf",
                                                        "moe_fp4_prologue_512", 37, 3, 9, 6, 256, 12);
  // 257 experts top-9, inter 512
  check<gath_s1, shuf_s2, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath", "moe_fp4_s2_shuf",
                                                        "moe_fp4_prologue_512", 45, 9, 257, 40, 512, 13);
}

TEST_CASE("moe_fp4: several consecutive blocks of an expert a workgroup", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 100 tokens top-2 of 5 (one routed of 3, then the shared expert): the shared expert's 4 blocks
  // (a tail of 4 rows), the routed ones' 1-2 blocks each; stage 1 in groups of 2 blocks, stage 2
  // of 3: runs cut by the groups' ends and by the experts' (a group of 2 or 3 experts), padding rows
  check<gath_s1_b2, shuf_s2_b3, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath_b2", "moe_fp4_s2_shuf_b3",
                                                              "moe_fp4_prologue_512", 100, 2, 5, 3, 256, 14);
  // 37 tokens top-3 of 9 (experts of one block, of two with a tail, empty ones), inter 512
  check<gath_s1_b2, shuf_s2_b3, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath_b2", "moe_fp4_s2_shuf_b3",
                                                              "moe_fp4_prologue_512", 37, 3, 9, 6, 512, 15);
  // row-major weights, x as quantized, groups of 2 over a few workgroups looping
  check<raw_s1_b2, raw_s2_b2, quant_512>(*M().sim.m, "moe_fp4_s1_raw_b2", "moe_fp4_s2_raw_b2", "quant_512", 100, 2, 5, 3,
                                         256, 16);
}

TEST_CASE("moe_fp4: stage 2's rows stored and reduced over top-k (rows_out), two column tiles a wave", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 37 tokens top-3 of 9 (the shared expert's two blocks with a tail, padding rows, empty experts),
  // slots not routed (ids -1 and 9: their rows left out of the sums)
  check<gath_s1, shuf_s2_rows, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath", "moe_fp4_s2_rows",
                                                             "moe_fp4_prologue_512", 37, 3, 9, 6, 256, 17, true);
  // one routed expert taking every token (top-2: it and the shared expert, 3 blocks each), inter 512
  check<gath_s1, shuf_s2_rows, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath", "moe_fp4_s2_rows",
                                                             "moe_fp4_prologue_512", 70, 2, 4, 1, 512, 18);
  // the atomics with two column tiles a wave, three register sets, some slots not routed
  check<gath_s1, shuf_s2_ct2, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_gath", "moe_fp4_s2_ct2",
                                                            "moe_fp4_prologue_512", 37, 3, 9, 6, 512, 20, true);
}

TEST_CASE("moe_fp4: stage 1's token fragments shared through LDS (x_lds)", "[kernels][moe_fp4]") {
  using namespace fp4_moe_cfg;
  // 37 tokens top-3 of 9 (the shared expert's two blocks with a tail, padding rows, empty
  // experts); dim 512: 2 K steps in sets of 3
  check<gath_s1_xl, shuf_s2_rows, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_xl", "moe_fp4_s2_rows",
                                                                "moe_fp4_prologue_512", 37, 3, 9, 6, 256, 21, true);
  // two blocks a workgroup: 100 tokens top-2 of 5 (the shared expert's 4 blocks with a tail of 4
  // rows, routed experts of 1-2 blocks: runs of one), inter 256 (one column block of 8 waves)
  check<gath_s1_xl_b2, shuf_s2_b3, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_xl_b2", "moe_fp4_s2_shuf_b3",
                                                                 "moe_fp4_prologue_512", 100, 2, 5, 3, 256, 22);
  // one routed expert taking every token, inter 512 (two column blocks)
  check<gath_s1_xl_b2, shuf_s2_rows, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_xl_b2", "moe_fp4_s2_rows",
                                                                   "moe_fp4_prologue_512", 70, 2, 4, 1, 512, 23);
  // 8 waves of one block (waves 4..7 load no piece), 257 experts top-9 (most experts empty), some
  // slots not routed
  check<gath_s1_xl_8w, shuf_s2_rows, quant_512_w5, mode::gathered>(*M().shuf, "moe_fp4_s1_xl_8w", "moe_fp4_s2_rows",
                                                                   "moe_fp4_prologue_512", 45, 9, 257, 40, 256, 24, true);
}

TEST_CASE("moe_fp4: bad launches are refused", "[kernels][moe_fp4]") {
  rt::device& d = *M().sim.dev;
  hk::moe_fp4_stage_args s{.tokens = 4, .topk = 2, .experts = 8, .dim = 512, .inter = 128};
  CHECK_THROWS_WITH(hk::launch_moe_fp4_stage1<fp4_moe_cfg::raw_s1>(d, *M().sim.m, "moe_fp4_s1_raw", s),
                    Catch::Contains("multiples of 256"));
  s.inter = 256;
  s.topk = 9;
  CHECK_THROWS_WITH(hk::launch_moe_fp4_stage2<fp4_moe_cfg::raw_s2>(d, *M().sim.m, "moe_fp4_s2_raw", s),
                    Catch::Contains("topk"));
  CHECK_THROWS_WITH(hk::launch_moe_fp4_stage2<fp4_moe_cfg::shuf_s2_rows>(d, *M().shuf, "moe_fp4_s2_rows", s),
                    Catch::Contains("rows_out needs y"));
  CHECK_THROWS_WITH(hk::launch_moe_fp4_reduce<1>(d, *M().shuf, "moe_fp4_reduce", {.tokens = 4, .topk = 2, .experts = 8, .dim = 6}),
                    Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(hk::moe_fp4_preshuffle(std::vector<uint8_t>(10), std::vector<uint8_t>(1), 1, 20, 256),
                    Catch::Contains("multiple of 32"));
}
