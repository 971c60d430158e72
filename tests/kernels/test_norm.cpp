// HIPASM_TEST_KERNELS: norm.hip
// rmsnorm and layernorm (include/hipasm/kernels/) in hipasm-sim against a C++ reference in
// double on bf16 and f16 data: tails, one row, several waves, fused residual add, inf/NaN rows;
// the checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/layernorm.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

#include "norm_configs.hpp"

namespace {
using hipasm::test::bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("norm");
  return s;
}
void no_diagnostics(const rt::launch_report& rep, const char* k) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(k << " checker: " << d);
}
// The element type's bits as a value and back (round to nearest even): bf16, or f16 through
// the host compiler's _Float16.
double f(uint16_t b, bool f16) {
  return f16 ? double(std::bit_cast<_Float16>(b)) : std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}
uint16_t enc(double d, bool f16) { return f16 ? std::bit_cast<uint16_t>(static_cast<_Float16>(d)) : bf16(d); }
std::vector<uint16_t> randoms(size_t n, double lo, double hi, int seed, bool f16) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = enc(u(rng), f16);
  return v;
}
// got against want (double): NaN where want is NaN, else within 1 ulp of a result computed
// from f32 values (rel 2^-7 for bf16, 2^-10 for f16) plus an absolute slack for cancellation.
void check_close(uint16_t got, double want, double abs_slack, int row, int col, bool f16) {
  const double g = f(got, f16);
  INFO("row " << row << " col " << col << " got " << g << " want " << want);
  if (std::isnan(want)) {
    CHECK(std::isnan(g));
  } else if (std::isinf(want)) {
    CHECK(g == want);
  } else {
    CHECK(std::fabs(g - want) <= std::fabs(want) * (f16 ? 0x1p-10 : 0x1p-7) + abs_slack);
  }
}

enum class kind { rms, layer };
template <kind K, hk::norm_config C>
void run_norm(const char* name, uint32_t rows, int seed, double lo, double hi,
              void (*edit)(std::vector<uint16_t>&, int hidden) = nullptr) {
  const int H = C.hidden;
  constexpr bool h = C.f16;
  auto in = randoms(size_t(rows) * H, lo, hi, seed, h);
  if (edit) edit(in, H);
  auto res = randoms(size_t(rows) * H, -1, 1, seed + 1, h);
  auto w = randoms(H, 0.5, 1.5, seed + 2, h);
  auto b = randoms(H, -0.5, 0.5, seed + 3, h);
  const float eps = K == kind::rms ? 1e-6f : 1e-5f;
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> X(d, in), R(d, res), W(d, w), B(d, b), Y(d, in.size()), RO(d, in.size());
  rt::launch_report rep;
  if constexpr (K == kind::rms)
    rep = hk::launch_rmsnorm<C>(d, *S().m, name,
                                {.out = Y.addr(), .residual_out = RO.addr(), .in = X.addr(), .residual = R.addr(),
                                 .weight = W.addr(), .eps = eps, .rows = rows});
  else
    rep = hk::launch_layernorm<C>(d, *S().m, name,
                                  {.out = Y.addr(), .residual_out = RO.addr(), .in = X.addr(), .residual = R.addr(),
                                   .weight = W.addr(), .bias = B.addr(), .eps = eps, .rows = rows});
  no_diagnostics(rep, name);
  auto y = Y.download();
  auto ro = RO.download();
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<double> x(H);
    for (int i = 0; i < H; ++i) {
      // the kernel adds in f32: round the sum as it does
      x[i] = C.residual ? double(static_cast<float>(f(in[r * H + i], h) + f(res[r * H + i], h))) : f(in[r * H + i], h);
      if (C.residual) {
        INFO("residual_out");
        check_close(ro[r * H + i], x[i], 0, int(r), i, h);
      }
    }
    double scale = 0, mean = 0, slack = 0;
    if constexpr (K == kind::rms) {
      double ss = 0;
      for (double v : x) ss += v * v;
      scale = 1.0 / std::sqrt(ss / H + eps);
      slack = 1e-6;
    } else {
      for (double v : x) mean += v;
      mean /= H;
      double var = 0;
      for (double v : x) var += (v - mean) * (v - mean);
      scale = 1.0 / std::sqrt(var / H + eps);
      slack = 1e-3;  // bias + (x - mean) * scale * w: cancellation near 0
    }
    for (int i = 0; i < H; ++i) {
      double want = K == kind::rms ? x[i] * scale * f(w[i], h) : (x[i] - mean) * scale * f(w[i], h) + f(b[i], h);
      check_close(y[r * H + i], want, slack, int(r), i, h);
    }
  }
  if (!C.residual) {  // residual_out untouched
    for (uint16_t v : ro) REQUIRE(v == 0);
  }
}
}  // namespace

TEST_CASE("rmsnorm: tail (1000 = 512 + 488), one wave", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_1000>("rms_1000", 7, 1, -3, 3);
}
TEST_CASE("rmsnorm: one row, a 2-element row", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_1000>("rms_1000", 1, 2, -100, 100);
  run_norm<kind::rms, cfg::rms_2>("rms_2", 5, 3, -2, 2);
}
TEST_CASE("rmsnorm: fused residual add, tail over 2 waves and 3 steps", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_res_3000>("rms_res_3000", 3, 4, -3, 3);
}
TEST_CASE("rmsnorm: fused residual add, 4096 over 4 waves", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_res_4096>("rms_res_4096", 4, 5, -8, 8);
}
TEST_CASE("rmsnorm: inf and NaN inputs poison their row only", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_1000>("rms_1000", 3, 6, -3, 3, [](std::vector<uint16_t>& v, int H) {
    v[5] = 0x7f80;           // +inf in row 0: inf * 0 -> NaN where x is finite... the reference says
    v[H + 17] = 0x7fc0;      // NaN in row 1
    for (int i = 0; i < H; ++i) v[2 * H + i] = 0;  // an all-zero row: 0 * rsqrt(eps) = 0
  });
}
TEST_CASE("layernorm: tail, one wave; rows far from zero mean", "[kernels][norm]") {
  run_norm<kind::layer, cfg::ln_1000>("ln_1000", 5, 7, -2, 6);
  run_norm<kind::layer, cfg::ln_1000>("ln_1000", 2, 8, 100, 104);
}
TEST_CASE("layernorm: fused residual add, tail over 2 waves", "[kernels][norm]") {
  run_norm<kind::layer, cfg::ln_res_3000>("ln_res_3000", 3, 9, -3, 3);
}
TEST_CASE("layernorm: 8192 over 4 waves, a constant row", "[kernels][norm]") {
  run_norm<kind::layer, cfg::ln_8192>("ln_8192", 2, 10, -3, 3, [](std::vector<uint16_t>& v, int H) {
    for (int i = 0; i < H; ++i) v[H + i] = 0x4040;  // 3.0: variance 0, out = bias
  });
}
TEST_CASE("rmsnorm f16: tail over 2 waves, fused residual add; inf, NaN and overflowing rows", "[kernels][norm]") {
  run_norm<kind::rms, cfg::rms_f16_1000>("rms_f16_1000", 5, 11, -3, 3);
  run_norm<kind::rms, cfg::rms_f16_1000>("rms_f16_1000", 3, 12, -3, 3, [](std::vector<uint16_t>& v, int H) {
    v[5] = 0x7c00;       // +inf in row 0
    v[H + 17] = 0x7e00;  // NaN in row 1
    for (int i = 0; i < H; ++i) v[2 * H + i] = 0x7bff;  // 65504 (f16's largest) everywhere: x^2 stays f32
  });
  // large values: the squares sum far past f16 range, in f32
  run_norm<kind::rms, cfg::rms_f16_res_3000>("rms_f16_res_3000", 3, 13, -60000, 60000);
}
TEST_CASE("layernorm f16: tail, rows far from zero mean; 8192 over 4 waves", "[kernels][norm]") {
  run_norm<kind::layer, cfg::ln_f16_1000>("ln_f16_1000", 4, 14, -2, 6);
  run_norm<kind::layer, cfg::ln_f16_1000>("ln_f16_1000", 2, 15, 1000, 1004);
  run_norm<kind::layer, cfg::ln_f16_res_8192>("ln_f16_res_8192", 2, 16, -3, 3);
}
TEST_CASE("norm launch: bad arguments are clear errors", "[kernels][norm]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_rmsnorm<cfg::rms_1000>(d, *S().m, "rms_1000", {.out = 8, .in = 8, .weight = 8, .rows = 0}),
                    Catch::Contains("rows must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_rmsnorm<cfg::rms_res_4096>(d, *S().m, "rms_res_4096",
                                                          {.out = 8, .in = 8, .weight = 8, .rows = 1}),
                    Catch::Contains("null"));
  CHECK_THROWS_WITH(hk::launch_rmsnorm<cfg::rms_1000>(d, *S().m, "rms_1000",
                                                      {.out = 8, .in = 8, .weight = 8, .rows = 3000000}),
                    Catch::Contains("4 GiB"));
}
