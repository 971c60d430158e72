// HIPASM_TEST_KERNELS: topk_softmax.hip topk_softmax_loaded.hip
// topk_softmax (MoE routing, include/hipasm/kernels/topk_softmax.hpp) in hipasm-sim against a
// C++ reference: 7/8/30/64/128/160/256 experts (chunks of 1, 2 and 4 experts, masked tails),
// 1 to 32 lanes per token, top-2/3/5/6/8/20, renormalized or not, a partial last workgroup,
// ties (the lower expert first; -0 ties +0), -inf and NaN logits (NaN ranks after -inf); the
// kernels read preloaded arguments; the checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/topk_softmax.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "topk_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("topk_softmax");
  return s;
}
rt::module& loaded_module() {  // the same kernels, arguments not preloaded (on S()'s device)
  static std::unique_ptr<rt::module> m = S().dev->load_file(hipasm::test::code_object("topk_softmax_loaded"));
  return *m;
}

template <hk::topk_softmax_config C>
void run_topk(const char* name, uint32_t tokens, bool renorm, int seed,
              const std::function<void(std::vector<float>&)>& edit = {}, bool auto_pick = false,
              bool loaded = false) {
  const int E = C.experts, K = C.topk;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-6, 6);
  std::vector<float> x(size_t(tokens) * E);
  for (auto& v : x) v = u(rng);
  if (edit) edit(x);
  rt::device& d = *S().dev;
  rt::buffer<float> X(d, x), W(d, std::vector<float>(size_t(tokens) * K + 64, -7.0f));
  rt::buffer<int> I(d, std::vector<int>(size_t(tokens) * K + 64, -7));
  const hk::topk_softmax_args args{.weights = W.addr(), .indices = I.addr(), .logits = X.addr(), .tokens = tokens, .renormalize = renorm};
  rt::module& mod = loaded ? loaded_module() : *S().m;
  auto rep = auto_pick ? hk::launch_topk_softmax_auto<C>(d, mod, name, args) : hk::launch_topk_softmax<C>(d, mod, name, args);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  auto w = W.download();
  auto idx = I.download();
  for (uint32_t t = 0; t < tokens; ++t) {
    const float* r = &x[size_t(t) * E];
    double m = -INFINITY, s = 0;
    for (int e = 0; e < E; ++e)
      if (!std::isnan(r[e])) m = std::max(m, double(r[e]));
    for (int e = 0; e < E; ++e) s += std::exp(double(r[e]) - m);
    // experts by decreasing logit, the lower index first on ties; NaN never chosen
    std::vector<int> order(E);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (std::isnan(r[a]) || std::isnan(r[b])) return !std::isnan(r[a]) && std::isnan(r[b]);
      return r[a] > r[b];
    });
    double sel = 0;
    for (int i = 0; i < K; ++i) sel += std::exp(double(r[order[i]]) - m) / s;
    for (int i = 0; i < K; ++i) {
      INFO(name << " token " << t << " rank " << i);
      CHECK(idx[size_t(t) * K + i] == order[i]);
      double want = std::exp(double(r[order[i]]) - m) / s;
      if (renorm) want /= sel;
      const double got = w[size_t(t) * K + i];
      INFO("got " << got << " want " << want);
      if (std::isnan(want)) CHECK(std::isnan(got));
      else CHECK(std::fabs(got - want) <= want * 4e-6 + 1e-30);
    }
  }
  for (size_t i = size_t(tokens) * K; i < w.size(); ++i) {  // nothing written past the outputs
    REQUIRE(w[i] == -7.0f);
    REQUIRE(idx[i] == -7);
  }
}
}  // namespace

TEST_CASE("topk_softmax: 8 experts top-2 (lanes past the experts masked), partial workgroup", "[kernels][topk]") {
  run_topk<cfg::tk_8x2>("tk_8x2", 7, false, 1);
  run_topk<cfg::tk_8x2>("tk_8x2", 1, true, 2);
}
TEST_CASE("topk_softmax: 64, 128, 256 experts top-8, renormalized or not", "[kernels][topk]") {
  run_topk<cfg::tk_64x8>("tk_64x8", 5, false, 3);
  run_topk<cfg::tk_128x8>("tk_128x8", 9, true, 4);
  run_topk<cfg::tk_256x8>("tk_256x8", 6, false, 5);
  run_topk<cfg::tk_256x8>("tk_256x8", 4, true, 6);
}
TEST_CASE("topk_softmax: 160 experts (3 per lane, a tail) top-6", "[kernels][topk]") {
  run_topk<cfg::tk_160x6>("tk_160x6", 7, true, 7);
}
TEST_CASE("topk_softmax: ties, -inf and NaN logits", "[kernels][topk]") {
  run_topk<cfg::tk_128x8>("tk_128x8", 4, false, 8, [](std::vector<float>& x) {
    for (int e : {100, 3, 77, 64}) x[e] = 9.0f;       // token 0: a 4-way tie at the top
    for (int e : {5, 6}) x[128 + e] = 8.0f;           // token 1: a tie inside the top 8
    for (int e = 0; e < 128; ++e) x[2 * 128 + e] = 1.5f;  // token 2: all equal
    x[3 * 128 + 10] = NAN;                            // token 3: NaN: never chosen, weights NaN
    x[3 * 128 + 11] = -INFINITY;
  });
  run_topk<cfg::tk_8x2>("tk_8x2", 2, true, 9, [](std::vector<float>& x) {
    for (int e = 0; e < 8; ++e) x[e] = -INFINITY;     // token 0: one finite logit
    x[5] = 0.25f;
  });
}
TEST_CASE("topk_softmax: one lane per token (all k in order), 1- and 2-expert chunks with tails", "[kernels][topk]") {
  run_topk<cfg::tk_8x8>("tk_8x8", 70, false, 11);
  run_topk<cfg::tk_8x8>("tk_8x8", 3, true, 12);
  run_topk<cfg::tk_8x2_l4>("tk_8x2_l4", 33, true, 13);
  run_topk<cfg::tk_7x3>("tk_7x3", 130, false, 14);
  run_topk<cfg::tk_30x5>("tk_30x5", 67, true, 15);
}
TEST_CASE("topk_softmax: 16 and 32 lanes per token (the row_bcast merge), k above 16", "[kernels][topk]") {
  run_topk<cfg::tk_128x8_l16>("tk_128x8_l16", 9, false, 16);
  run_topk<cfg::tk_128x8_l16>("tk_128x8_l16", 17, true, 17);
  run_topk<cfg::tk_256x8_l32>("tk_256x8_l32", 3, false, 18);
  run_topk<cfg::tk_256x8_l32>("tk_256x8_l32", 5, true, 19);
  run_topk<cfg::tk_160x6_l32>("tk_160x6_l32", 7, true, 20);
  run_topk<cfg::tk_128x20_l32>("tk_128x20_l32", 3, false, 21);
  run_topk<cfg::tk_128x20_l32>("tk_128x20_l32", 4, true, 22);
}
// Ties at the top, inside the k and everywhere; -0 and +0; NaN after -inf once the finite
// logits run out; a token of -inf only (every weight NaN, as the reference's 0/0).
template <hipasm::kernels::topk_softmax_config C>
void edge_tokens(const char* name, bool renorm, int seed) {
  constexpr int E = C.experts;
  run_topk<C>(name, 6, renorm, seed, [](std::vector<float>& x) {
    for (int e : {E - 1, 3 % E, (E / 2 + 5) % E, E / 2}) x[e] = 9.0f;  // token 0: a tie at the top
    for (int e : {5 % E, 6 % E}) x[E + e] = 8.0f;                      // token 1: a tie inside the k
    for (int e = 0; e < E; ++e) x[2 * E + e] = 1.5f;                   // token 2: all equal
    for (int e = 0; e < E; ++e) x[3 * E + e] = -1.0f - float(e % 5);   // token 3: -0 and +0 on top
    x[3 * E + E - 1] = -0.0f;
    x[3 * E + E / 3] = 0.0f;
    x[3 * E + 1] = -0.0f;
    for (int e = 0; e < E; ++e) x[4 * E + e] = e % 3 == 0 ? NAN : -INFINITY;  // token 4: NaN after -inf
    x[4 * E + E - 2] = 2.0f;
    for (int e = 0; e < E; ++e) x[5 * E + e] = -INFINITY;              // token 5: -inf only
  });
}
TEST_CASE("topk_softmax: the limits: 1 expert, 3 experts, 512 experts top-32", "[kernels][topk]") {
  run_topk<cfg::tk_1x1>("tk_1x1", 100, false, 61);
  run_topk<cfg::tk_3x2>("tk_3x2", 65, true, 62);
  run_topk<cfg::tk_512x32>("tk_512x32", 9, false, 63);
  run_topk<cfg::tk_512x32>("tk_512x32", 3, true, 64);
}
TEST_CASE("topk_softmax: ties, -0, NaN and -inf in every layout", "[kernels][topk]") {
  edge_tokens<cfg::tk_3x2>("tk_3x2", false, 40);
  edge_tokens<cfg::tk_512x32>("tk_512x32", true, 41);
  edge_tokens<cfg::tk_8x8>("tk_8x8", false, 31);
  edge_tokens<cfg::tk_8x2_l4>("tk_8x2_l4", true, 32);
  edge_tokens<cfg::tk_7x3>("tk_7x3", false, 33);
  edge_tokens<cfg::tk_30x5>("tk_30x5", true, 34);
  edge_tokens<cfg::tk_128x8>("tk_128x8", false, 35);
  edge_tokens<cfg::tk_128x8_l16>("tk_128x8_l16", true, 36);
  edge_tokens<cfg::tk_256x8_l32>("tk_256x8_l32", false, 37);
  edge_tokens<cfg::tk_160x6_l32>("tk_160x6_l32", true, 38);
  edge_tokens<cfg::tk_128x20_l32>("tk_128x20_l32", false, 39);
}
TEST_CASE("topk_softmax: launch_topk_softmax_auto picks the latency kernel for few tokens", "[kernels][topk]") {
  // 8 tokens per latency workgroup (32 lanes, 4 waves): 304 CUs hold 2432 tokens
  static_assert(hk::topk_lanes(hk::topk_latency_config(cfg::tk_128x8)) == 32 && hk::topk_lanes(cfg::tk_128x8) == 8);
  CHECK(hk::topk_softmax_uses_latency<cfg::tk_128x8>(2432));
  CHECK_FALSE(hk::topk_softmax_uses_latency<cfg::tk_128x8>(2433));
  run_topk<cfg::tk_128x8>("tk_auto_128x8", 21, true, 41, {}, true);
  run_topk<cfg::tk_128x8>("tk_auto_128x8", 2500, false, 42, {}, true);
}
TEST_CASE("topk_softmax: a code object built without kernarg preloading", "[kernels][topk]") {
  run_topk<cfg::tk_128x8>("tk_128x8", 11, true, 51, {}, false, true);
  run_topk<cfg::tk_256x8_l32>("tk_256x8_l32", 5, false, 52, {}, false, true);
}
TEST_CASE("topk_softmax launch: bad arguments are clear errors", "[kernels][topk]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_topk_softmax<cfg::tk_8x2>(d, *S().m, "tk_8x2", {.weights = 8, .indices = 8, .logits = 8}),
                    Catch::Contains("tokens must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_topk_softmax<cfg::tk_8x2>(d, *S().m, "tk_8x2", {.weights = 8, .logits = 8, .tokens = 1}),
                    Catch::Contains("null"));
}
