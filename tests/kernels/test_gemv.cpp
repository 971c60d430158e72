// HIPASM_TEST_KERNELS: gemv.hip
// The GEMV kernel (include/hipasm/kernels/gemv.hpp) in hipasm-sim against a C++ reference in
// double: bf16/f32 A and x, f32/bf16 y, bias, K split over waves, M and K tails (M not a multiple
// of the rows a workgroup takes, K not a multiple of a loop trip, odd K with 2-byte loads),
// inf/NaN entries; the checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/gemv.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

#include "gemv_configs.hpp"

namespace {
using hipasm::test::bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("gemv");
  return s;
}
double val(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }
double val(float f) { return f; }
template <class T>
T make(double d) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(d);
  else return bf16(d);
}

template <hk::gemv_config C>
void run_gemv(const char* name, uint32_t M, uint32_t K, int seed,
              void (*edit)(std::vector<double>& a, std::vector<double>& x, uint32_t K) = nullptr, bool pick = false) {
  using TA = hk::gemv_a_elem<C>;
  using TX = hk::gemv_x_elem<C>;
  using TY = hk::gemv_y_elem<C>;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> ad(size_t(M) * K), xd(K), bd(M);
  for (auto& v : ad) v = u(rng);
  for (auto& v : xd) v = u(rng);
  for (auto& v : bd) v = u(rng) * 4;
  if (edit) edit(ad, xd, K);
  std::vector<TA> a(ad.size());
  std::vector<TX> x(K);
  std::vector<TY> b(M);
  for (size_t i = 0; i < a.size(); ++i) a[i] = make<TA>(ad[i]);
  for (size_t i = 0; i < K; ++i) x[i] = make<TX>(xd[i]);
  for (size_t i = 0; i < M; ++i) b[i] = make<TY>(bd[i]);
  rt::device& d = *S().dev;
  rt::buffer<TA> A(d, a);
  rt::buffer<TX> X(d, x);
  rt::buffer<TY> B(d, b), Y(d, M);
  const hk::gemv_args args{.y = Y.addr(), .a = A.addr(), .x = X.addr(), .bias = C.bias ? B.addr() : 0, .m = M, .k = K};
  auto rep = pick ? hk::launch_gemv_auto<C>(d, *S().m, name, args) : hk::launch_gemv<C>(d, *S().m, name, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(name << " checker: " << diag);
  auto y = Y.download();
  for (uint32_t r = 0; r < M; ++r) {
    double want = C.bias ? val(b[r]) : 0, mag = 0;
    for (uint32_t i = 0; i < K; ++i) {
      want += val(a[size_t(r) * K + i]) * val(x[i]);
      mag += std::fabs(val(a[size_t(r) * K + i]) * val(x[i]));
    }
    const double g = val(y[r]);
    INFO(name << " M " << M << " K " << K << " row " << r << " got " << g << " want " << want);
    if (std::isnan(want)) CHECK(std::isnan(g));
    else if (std::isinf(want)) CHECK(g == want);
    else  // f32 sums in a different order: K roundings of the magnitude; bf16 y: one more rounding
      CHECK(std::fabs(g - want) <= (mag + std::fabs(want)) * (K + 4) * 0x1p-24 + (C.y_bf16 ? std::fabs(want) * 0x1p-8 : 0));
  }
}
}  // namespace

TEST_CASE("gemv: bf16, M and K tails", "[kernels][gemv]") {
  run_gemv<cfg::bf16>("gemv_bf16", 8, 1024, 1);      // exact trips
  run_gemv<cfg::bf16>("gemv_bf16", 13, 1000, 2);     // M tail in the last wave, K tail
  run_gemv<cfg::bf16>("gemv_bf16", 3, 8, 3);         // one chunk of one lane
  run_gemv<cfg::bf16>("gemv_bf16", 1, 4104, 4);      // one row, 5 trips, a tail of 8
}
TEST_CASE("gemv: waves split K, bias, bf16 y", "[kernels][gemv]") {
  run_gemv<cfg::bf16_ksplit_bias>("gemv_bf16_ksplit_bias", 7, 5000, 5);
  run_gemv<cfg::bf16_ksplit_bias>("gemv_bf16_ksplit_bias", 2, 16, 6);  // most waves see only zeros
}
TEST_CASE("gemv: f32 A and x with bias; f32 A with bf16 x", "[kernels][gemv]") {
  run_gemv<cfg::f32>("gemv_f32", 5, 777 * 4, 7);
  run_gemv<cfg::f32>("gemv_f32", 3, 4, 8);
  run_gemv<cfg::f32_xbf16>("gemv_f32_xbf16", 9, 260, 9);
}
TEST_CASE("gemv: even and odd K with narrow loads", "[kernels][gemv]") {
  run_gemv<cfg::bf16_xf32_v4>("gemv_bf16_xf32_v4", 6, 1002, 10);
  run_gemv<cfg::bf16_v2>("gemv_bf16_v2", 5, 999, 11);
  run_gemv<cfg::bf16_v2>("gemv_bf16_v2", 4, 1, 12);
}
TEST_CASE("gemv: inf and NaN entries reach only their rows", "[kernels][gemv]") {
  run_gemv<cfg::bf16>("gemv_bf16", 9, 1000, 13, [](std::vector<double>& a, std::vector<double>&, uint32_t K) {
    a[K * 1 + 999] = INFINITY;   // the last element of row 1 (the K tail)
    a[K * 2 + 5] = NAN;
    a[K * 3 + 7] = INFINITY;     // inf - inf: NaN
    a[K * 3 + 8] = -INFINITY;
  });
}
// launch_gemv_auto: the K split while the rows layout has fewer workgroups than the GPU's 304
// CUs (cfg::bf16: 8 rows a workgroup, so up to 2424 rows), rows per wave from there.
TEST_CASE("gemv launch_gemv_auto: the K split for short M, rows per wave for tall M", "[kernels][gemv]") {
  CHECK(hk::gemv_uses_k_split(cfg::bf16, 1));
  CHECK(hk::gemv_uses_k_split(cfg::bf16, 2424));  // 303 workgroups of 8 rows
  CHECK(!hk::gemv_uses_k_split(cfg::bf16, 2425));  // 304
  CHECK(!hk::gemv_uses_k_split(hk::gemv_ksplit_config(cfg::bf16), 1));
  run_gemv<cfg::bf16>("gemv_bf16_pair", 13, 1000, 14, nullptr, true);   // gemv_bf16_pair_ksplit
  run_gemv<cfg::bf16>("gemv_bf16_pair", 2440, 24, 15, nullptr, true);   // gemv_bf16_pair
}
TEST_CASE("gemv launch: bad arguments are clear errors", "[kernels][gemv]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_gemv<cfg::bf16>(d, *S().m, "gemv_bf16", {.y = 8, .a = 8, .x = 8, .m = 4, .k = 1002}),
                    Catch::Contains("not a multiple of 8"));
  CHECK_THROWS_WITH(hk::launch_gemv<cfg::f32>(d, *S().m, "gemv_f32", {.y = 8, .a = 8, .x = 8, .m = 4, .k = 16}),
                    Catch::Contains("null"));
  CHECK_THROWS_WITH(hk::launch_gemv<cfg::bf16>(d, *S().m, "gemv_bf16", {.y = 8, .a = 8, .x = 8, .m = 0, .k = 16}),
                    Catch::Contains(">= 1"));
}
