// HIPASM_TEST_KERNELS: act_and_mul.hip
// act_and_mul rows (include/hipasm/kernels/act_and_mul.hpp: silu / gelu (erf) / gelu_tanh of the
// gate times the up half) in hipasm-sim against a C++ reference in double: lane groups of 8, 4
// and 2 elements (d % 8 == 0, 4, 2) that cross workgroups and rows, the last workgroup past the
// tensor's end, a 6-element row, one token and several, +-inf / NaN / huge / tiny values; the
// checker must stay silent.
#include <catch2/catch.hpp>

#include "activation_ref.hpp"
#include "kernel_test.hpp"

#include <hipasm/kernels/act_and_mul.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "act_and_mul_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
using hipasm::test::bf16;
using hipasm::test::from_bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("act_and_mul");
  return s;
}

using hipasm::test::act_ref;

// in [tokens][2d] as bf16 values drawn from [lo, hi], edited by `edit(values, 2d)`
template <hk::act_and_mul_config C>
void run_aam(const char* name, uint32_t tokens, int seed, double lo, double hi,
             const std::function<void(std::vector<float>&, int)>& edit = {}) {
  const int D = C.d;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<float> v(size_t(tokens) * 2 * D);
  for (auto& x : v) x = float(from_bf16(bf16(u(rng))));
  if (edit) edit(v, 2 * D);
  std::vector<uint16_t> in(v.size());
  for (size_t i = 0; i < v.size(); ++i) in[i] = bf16(v[i]);
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> X(d, in), Y(d, std::vector<uint16_t>(size_t(tokens) * D, 0x1234));
  auto rep = hk::launch_act_and_mul<C>(d, *S().m, name, {.out = Y.addr(), .in = X.addr(), .tokens = tokens});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  auto y = Y.download();
  // math.hpp: silu within 16 ulp, the gelus within 40, where |act| >= 2^-20 (2^-38 absolute
  // below); one more rounding for the product; then bf16 nearest even of that f32 value. So the
  // result is the bf16 rounding of a value in [want (1 - rel) - abs, want (1 + rel) + abs].
  const double rel = (C.act == hk::activation::silu ? 17 : 41) * 0x1p-23, abs_act = 0x1p-38;
  int bad = 0;
  for (uint32_t t = 0; t < tokens && bad < 10; ++t)
    for (int i = 0; i < D && bad < 10; ++i) {
      const double g = v[size_t(t) * 2 * D + i], up = v[size_t(t) * 2 * D + D + i];
      const double want = act_ref(C.act, g) * up;
      const uint16_t got = y[size_t(t) * D + i];
      const double gv = from_bf16(got);
      bool ok;
      if (std::isnan(want)) {
        ok = std::isnan(gv);
      } else if (std::isinf(want)) {
        ok = gv == want;
      } else {
        const double slack = std::fabs(want) * rel + abs_act * std::fabs(up) + 0x1p-140;
        const double a = from_bf16(bf16(want - slack)), b = from_bf16(bf16(want + slack));
        ok = gv >= a && gv <= b;
      }
      if (!ok) {
        ++bad;
        FAIL_CHECK(name << " token " << t << " i " << i << " gate " << g << " up " << up << " got " << gv << " (0x"
                        << std::hex << got << std::dec << ") want " << want);
      }
    }
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE("act_and_mul silu: one token (one workgroup, past the end) and several", "[kernels][act_and_mul]") {
  run_aam<cfg::aam_silu_1000>("aam_silu_1000", 1, 1, -8, 8);
  run_aam<cfg::aam_silu_1000>("aam_silu_1000", 7, 2, -20, 20);
}
TEST_CASE("act_and_mul gelu (erf) in pairs, gelu_tanh in groups of 4 over 3 steps", "[kernels][act_and_mul]") {
  run_aam<cfg::aam_gelu_3002>("aam_gelu_3002", 5, 3, -6, 6);
  run_aam<cfg::aam_gelu_tanh_1004>("aam_gelu_tanh_1004", 6, 10, -6, 6);
}
TEST_CASE("act_and_mul gelu_tanh: whole blocks", "[kernels][act_and_mul]") {
  run_aam<cfg::aam_gelu_tanh_4096>("aam_gelu_tanh_4096", 3, 4, -6, 6);
}
TEST_CASE("act_and_mul: a 6-element row, a 14336-element row", "[kernels][act_and_mul]") {
  run_aam<cfg::aam_silu_6>("aam_silu_6", 9, 5, -5, 5);
  run_aam<cfg::aam_silu_14336>("aam_silu_14336", 2, 6, -10, 10);
}
TEST_CASE("act_and_mul: +-inf, NaN, huge and tiny values as the formulas give them", "[kernels][act_and_mul]") {
  // gate, up pairs across the row (both halves; the tail block too)
  auto edit = [](std::vector<float>& v, int W) {
    const int D = W / 2;
    const float inf = INFINITY;
    const float gates[] = {0.0f, -0.0f, inf, -inf, NAN, 1.0f, 1e30f, -1e30f, 1e-30f, -20.0f, -100.0f, 100.0f, 2.0f, 3.0f};
    const float ups[] = {inf, 1.0f, 2.0f, 2.0f, 1.0f, NAN, 1e30f, 1e30f, 3.0f, -1.0f, 5.0f, -inf, 0.0f, -0.0f};
    for (int r = 0; r < 2; ++r)
      for (int k = 0; k < 14; ++k) {
        const int i = (k * 71 + r * (D - 14)) % D;  // spread, and near the row's end in row 1
        v[size_t(r) * W + i] = gates[k];
        v[size_t(r) * W + D + i] = ups[k];
      }
  };
  run_aam<cfg::aam_silu_1000>("aam_silu_1000", 2, 7, -4, 4, edit);
  run_aam<cfg::aam_gelu_3002>("aam_gelu_3002", 2, 8, -4, 4, edit);
  run_aam<cfg::aam_gelu_tanh_1004>("aam_gelu_tanh_1004", 2, 11, -4, 4, edit);
  run_aam<cfg::aam_gelu_tanh_4096>("aam_gelu_tanh_4096", 2, 9, -4, 4, edit);
}
TEST_CASE("act_and_mul launch: bad arguments are clear errors", "[kernels][act_and_mul]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_act_and_mul<cfg::aam_silu_6>(d, *S().m, "aam_silu_6", {.out = 8, .in = 8, .tokens = 0}),
                    Catch::Contains("tokens must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_act_and_mul<cfg::aam_silu_6>(d, *S().m, "aam_silu_6", {.out = 0, .in = 8, .tokens = 1}),
                    Catch::Contains("null"));
  CHECK_THROWS_WITH(hk::launch_act_and_mul<cfg::aam_silu_14336>(d, *S().m, "aam_silu_14336",
                                                                 {.out = 8, .in = 8, .tokens = 80000}),
                    Catch::Contains("4 GiB"));
}
