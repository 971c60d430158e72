// HIPASM_TEST_KERNELS: softmax.hip
// softmax rows (include/hipasm/kernels/softmax.hpp) in hipasm-sim against a C++ reference in
// double: bf16 and f32, tails, a short row, one row, a vocabulary-sized row, -inf/+inf/NaN; the
// checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/softmax.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "softmax_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
using hipasm::test::bf16;
using hipasm::test::from_bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("softmax");
  return s;
}

// values as f32 (bf16 configs: rounded to bf16), edited by `edit(row values, cols)`
template <hk::softmax_config C>
void run_softmax(const char* name, uint32_t rows, int seed, double lo, double hi,
                 const std::function<void(std::vector<float>&, int)>& edit = {}) {
  const int N = C.cols;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<float> v(size_t(rows) * N);
  for (auto& x : v) x = C.bf16 ? float(from_bf16(bf16(u(rng)))) : float(u(rng));
  if (edit) edit(v, N);
  using E = hk::softmax_elem<C>;
  std::vector<E> in(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (C.bf16) in[i] = bf16(v[i]);
    else in[i] = v[i];
  }
  rt::device& d = *S().dev;
  rt::buffer<E> X(d, in), Y(d, in.size());
  auto rep = hk::launch_softmax<C>(d, *S().m, name, {.out = Y.addr(), .in = X.addr(), .rows = rows});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  auto y = Y.download();
  for (uint32_t r = 0; r < rows; ++r) {
    const float* x = &v[size_t(r) * N];
    double m = -INFINITY, s = 0;
    for (int i = 0; i < N; ++i)
      if (!std::isnan(x[i])) m = std::max(m, double(x[i]));
    double spread = 0;  // the largest |x - max| of the row
    for (int i = 0; i < N; ++i) {
      s += std::exp(double(x[i]) - m);
      if (std::isfinite(double(x[i]) - m)) spread = std::max(spread, m - double(x[i]));
    }
    for (int i = 0; i < N; ++i) {
      const double want = C.log ? double(x[i]) - m - std::log(s) : std::exp(double(x[i]) - m) / s;
      const double got = C.bf16 ? from_bf16(uint16_t(y[size_t(r) * N + i])) : double(y[size_t(r) * N + i]);
      INFO(name << " row " << r << " col " << i << " got " << got << " want " << want);
      if (C.log && !std::isnan(want)) {
        // x - max and the result round by 2^-24 of themselves; ln of the sum is off by the
        // sum's relative error (each exp's: 2 |x - max| 2^-24 + 2e-6) plus v_log_f32's ulp
        const double tol = (std::fabs(double(x[i]) - m) + std::fabs(want)) * 0x1p-23 + 2 * spread * 0x1p-24 + 4e-6;
        if (std::isinf(want)) CHECK(got == want);  // a -inf entry
        else CHECK(std::fabs(got - want) <= tol + (C.bf16 ? std::fabs(want) * 0x1p-8 : 0));
      } else if (std::isnan(want)) {
        CHECK(std::isnan(got));
      } else if (want == 0) {  // a -inf entry
        CHECK(got == 0);
      } else if (C.bf16) {
        CHECK(std::fabs(got - want) <= want * 0x1p-7 + 0x1p-126);
      } else {
        // x - max and its product with log2(e) round by up to |x - max| 2^-24 each: that much
        // relative error in the result (softmax.hpp), plus v_exp_f32's and the division's ulps;
        // results below 2^-126 may flush to 0
        const double arg_err = 2 * std::fabs(double(x[i]) - m) * 0x1p-24;
        CHECK(std::fabs(got - want) <= (arg_err + 2e-6) * want + 0x1p-126);
      }
    }
  }
}
}  // namespace

TEST_CASE("softmax bf16: tail over one wave, one row and several", "[kernels][softmax]") {
  run_softmax<cfg::sm_bf16_1000>("sm_bf16_1000", 1, 1, -10, 10);
  run_softmax<cfg::sm_bf16_1000>("sm_bf16_1000", 6, 2, -30, 30);
}
TEST_CASE("softmax f32: tail over two waves", "[kernels][softmax]") {
  run_softmax<cfg::sm_f32_1000>("sm_f32_1000", 5, 3, -20, 20);
}
TEST_CASE("softmax bf16: 8192 over 4 waves, negative rows (the tail's zeros must not win the max)",
          "[kernels][softmax]") {
  run_softmax<cfg::sm_bf16_8192>("sm_bf16_8192", 3, 4, -50, -40);
  run_softmax<cfg::sm_f32_1000>("sm_f32_1000", 3, 5, -50, -40);
}
TEST_CASE("softmax f32: a 6-element row, a 32000-element row", "[kernels][softmax]") {
  run_softmax<cfg::sm_f32_6>("sm_f32_6", 9, 6, -5, 5);
  run_softmax<cfg::sm_f32_32000>("sm_f32_32000", 2, 7, -15, 15);
}
TEST_CASE("softmax: -inf entries give 0; all -inf, +inf or NaN rows give NaN; ties", "[kernels][softmax]") {
  auto edit = [](std::vector<float>& v, int N) {
    const float inf = INFINITY;
    for (int i = 0; i < N; i += 3) v[i] = -inf;  // row 0: a third -inf
    for (int i = 0; i < N; ++i) v[N + i] = -inf; // row 1: all -inf
    v[2 * N + 17] = inf;                          // row 2: +inf
    v[3 * N + N - 1] = NAN;                       // row 3: NaN in the tail step
    for (int i = 0; i < N; ++i) v[4 * N + i] = 1.0f;  // row 4: all equal
    v[5 * N + 3] = v[5 * N + 900] = 80.0f;        // row 5: a tie at a large value
  };
  run_softmax<cfg::sm_bf16_1000>("sm_bf16_1000", 6, 8, -10, 10, edit);
  run_softmax<cfg::sm_f32_1000>("sm_f32_1000", 6, 9, -10, 10, edit);
}
TEST_CASE("log-softmax: tails, wide ranges, -inf entries, all -inf / +inf / NaN rows", "[kernels][softmax]") {
  run_softmax<cfg::lsm_f32_1000>("lsm_f32_1000", 5, 10, -20, 20);
  run_softmax<cfg::lsm_f32_1000>("lsm_f32_1000", 2, 11, -80, -40);
  run_softmax<cfg::lsm_bf16_8192>("lsm_bf16_8192", 3, 12, -30, 30);
  auto edit = [](std::vector<float>& v, int N) {
    for (int i = 0; i < N; i += 3) v[i] = -INFINITY;   // row 0: a third -inf
    for (int i = 0; i < N; ++i) v[N + i] = -INFINITY;  // row 1: all -inf
    v[2 * N + 17] = INFINITY;                          // row 2: +inf
    v[3 * N + N - 1] = NAN;                            // row 3: NaN in the tail step
    for (int i = 0; i < N; ++i) v[4 * N + i] = 1.0f;   // row 4: all equal: -ln N
  };
  run_softmax<cfg::lsm_f32_1000>("lsm_f32_1000", 5, 13, -10, 10, edit);
}
TEST_CASE("softmax launch: bad arguments are clear errors", "[kernels][softmax]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_softmax<cfg::sm_f32_6>(d, *S().m, "sm_f32_6", {.out = 8, .in = 8, .rows = 0}),
                    Catch::Contains("rows must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_softmax<cfg::sm_f32_6>(d, *S().m, "sm_f32_6", {.out = 0, .in = 8, .rows = 1}),
                    Catch::Contains("null"));
}
