// HIPASM_TEST_KERNELS: norm_softmax.hip
// Small real kernels written with the helpers (softmax, rmsnorm, layernorm, top-1 MoE routing)
// run in hipasm-sim against C++ references in double; the checker must stay silent.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {
struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m = dev->load_file(hipasm::test::code_object("norm_softmax"));
};
sim& S() {
  static sim s;
  return s;
}
void no_diagnostics(const rt::launch_report& rep, const char* k) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(k << " checker: " << d);
}
std::vector<float> randoms(size_t n, float lo, float hi, int seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}
}  // namespace

TEST_CASE("softmax rows (wave_reduce max/sum, exp, rcp, cvt_bf16x2)", "[helpers][kernels]") {
  const int rows = 6, N = 256;
  auto in = randoms(rows * N, -20, 20, 1);
  in[3] = 80.0f;  // a large logit: the max subtraction keeps exp finite
  in[N + 7] = -1e30f;
  rt::device& d = *S().dev;
  rt::buffer<float> A(d, in), out(d, in.size());
  rt::buffer<uint32_t> ob(d, in.size() / 2);
  rt::kernel_args args;
  args.add(out.ptr()).add(ob.ptr()).add(A.ptr());
  no_diagnostics(d.launch(*S().m, "softmax4", {rows, 1, 1}, {64, 1, 1}, args), "softmax4");
  auto y = out.download();
  auto yb = ob.download();
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int i = 0; i < N; ++i) m = std::max(m, double(in[r * N + i]));
    for (int i = 0; i < N; ++i) s += std::exp(double(in[r * N + i]) - m);
    for (int i = 0; i < N; ++i) {
      double want = std::exp(double(in[r * N + i]) - m) / s;
      INFO("row " << r << " col " << i);
      INFO("got " << y[r * N + i] << " want " << want);
      // f32 x - max rounds by up to |x - max| 2^-24: that much relative error in exp
      double arg_err = std::fabs(double(in[r * N + i]) - m) * 0x1p-24;
      CHECK(std::fabs(y[r * N + i] - want) <= (arg_err + 5e-7) * want + 1e-37);
      // bf16 pairs: element (lane, k) is column lane + 64k; pair k/2 holds k and k+1
      int lane = i % 64, k = i / 64;
      uint32_t p = yb[r * N / 2 + (k / 2) * 64 + lane];
      float b = std::bit_cast<float>((k % 2 ? p >> 16 : p & 0xffff) << 16);
      CHECK(std::fabs(b - want) <= want * (1.0 / 256) + 1e-30);
    }
  }
}

TEST_CASE("rmsnorm rows (workgroup_reduce over 4 waves, rsqrt)", "[helpers][kernels]") {
  const int rows = 3, N = 512;
  auto in = randoms(rows * N, -3, 3, 2);
  auto w = randoms(N, 0.5f, 1.5f, 3);
  float eps = 1e-6f;
  rt::device& d = *S().dev;
  rt::buffer<float> A(d, in), W(d, w), out(d, in.size());
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr()).add(W.ptr()).add(eps);
  no_diagnostics(d.launch(*S().m, "rmsnorm2", {rows, 1, 1}, {256, 1, 1}, args), "rmsnorm2");
  auto y = out.download();
  for (int r = 0; r < rows; ++r) {
    double ss = 0;
    for (int i = 0; i < N; ++i) ss += double(in[r * N + i]) * in[r * N + i];
    double rs = 1.0 / std::sqrt(ss / N + eps);
    for (int i = 0; i < N; ++i) {
      double want = in[r * N + i] * rs * w[i];
      INFO("row " << r << " col " << i);
      CHECK(std::fabs(y[r * N + i] - want) <= 2e-6 * std::fabs(want) + 1e-7);
    }
  }
}

TEST_CASE("layernorm rows (paired wave_reduce of sum and sum of squares)", "[helpers][kernels]") {
  const int rows = 5, N = 256;
  auto in = randoms(rows * N, -2, 6, 4);
  rt::device& d = *S().dev;
  rt::buffer<float> A(d, in), out(d, in.size());
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr());
  no_diagnostics(d.launch(*S().m, "layernorm4", {rows, 1, 1}, {64, 1, 1}, args), "layernorm4");
  auto y = out.download();
  for (int r = 0; r < rows; ++r) {
    double s = 0, s2 = 0;
    for (int i = 0; i < N; ++i) {
      s += in[r * N + i];
      s2 += double(in[r * N + i]) * in[r * N + i];
    }
    double mean = s / N, var = s2 / N - mean * mean, rs = 1.0 / std::sqrt(var + 1e-5);
    for (int i = 0; i < N; ++i) {
      double want = (in[r * N + i] - mean) * rs;
      INFO("row " << r << " col " << i);
      CHECK(std::fabs(y[r * N + i] - want) <= 2e-5 * std::fabs(want) + 2e-5);
    }
  }
}

TEST_CASE("top-1 MoE routing over 16 experts (group_reduce, select)", "[helpers][kernels]") {
  const int tokens = 32;
  auto in = randoms(tokens * 16, -4, 4, 5);
  in[5 * 16 + 3] = in[5 * 16 + 9] = 7.0f;  // a tie: the lower expert wins
  rt::device& d = *S().dev;
  rt::buffer<float> A(d, in), prob(d, tokens);
  rt::buffer<uint32_t> ex(d, tokens);
  rt::kernel_args args;
  args.add(prob.ptr()).add(ex.ptr()).add(A.ptr());
  no_diagnostics(d.launch(*S().m, "top1", {tokens / 4, 1, 1}, {64, 1, 1}, args), "top1");
  auto p = prob.download();
  auto e = ex.download();
  for (int t = 0; t < tokens; ++t) {
    const float* x = &in[t * 16];
    int best = int(std::max_element(x, x + 16) - x);
    double s = 0;
    for (int i = 0; i < 16; ++i) s += std::exp(double(x[i]) - x[best]);
    INFO("token " << t);
    CHECK(e[t] == static_cast<uint32_t>(best));
    CHECK(std::fabs(p[t] - 1.0 / s) <= 4e-7 / s);
  }
}
