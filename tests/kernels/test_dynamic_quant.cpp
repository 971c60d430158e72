// HIPASM_TEST_KERNELS: dynamic_quant.hip dq_gemm.hip
// dynamic_quant rows (include/hipasm/kernels/dynamic_quant.hpp) in hipasm-sim against a C++
// model, bit for bit: the f32 scale (the division and the floor as written there) and every q byte
// (fp8 and bf8 in the target's formats, gfx942 FNUZ and gfx950 OCP, and int8, all round to
// nearest even, saturating), bf16 and f32 inputs, tails,
// a short row; zero, tiny and huge rows, NaN and +-inf entries, rounding ties; fp8 with a scale
// per 1x128 block of a row (DeepSeek's activations), both scale layouts. rmsnorm fused
// with it (rmsnorm.hpp rmsnorm_quant, with and without the residual add): the scale against a
// double reference, each q within the rounding of values that close, residual_out exact. End to
// end: activations and weights quantized per row feed gemm_quant's per_token GEMM (dq_gemm.hip),
// and activations quantized per 1x128 block its block128 GEMM (weights per 128x128 block on the
// host), whose C must be x w^T within the quantization's error bound. The checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/gemm_quant_launch.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "dynamic_quant_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
using hipasm::test::bf16;
using hipasm::test::from_bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("dynamic_quant");
  return s;
}

// fp8 / bf8 in the target's formats (gfx942 e4m3fnuz / e5m2fnuz, gfx950 OCP e4m3fn / e5m2),
// saturating, from the formats' definitions (narrow_float_ref.hpp)
const hipasm::test::f8_formats& F8() {
  static const hipasm::test::f8_formats f = hipasm::test::f8_formats_of(hipasm::test::test_arch());
  return f;
}
uint8_t fp8_model(float y) { return uint8_t(hipasm::test::encode(F8().fp8, y, true)); }
uint8_t bf8_model(float y) { return uint8_t(hipasm::test::encode(F8().bf8, y, true)); }
// the largest q: fp8 / bf8 the format's largest finite value
float qmax_of(hipasm::kernels::quant_type t) {
  return t == hipasm::kernels::quant_type::i8 ? 127.0f : float((t == hipasm::kernels::quant_type::bf8 ? F8().bf8 : F8().fp8).max_finite());
}
uint8_t i8_model(float y) {
  if (std::isnan(y)) return 0x80;
  return uint8_t(int8_t(std::nearbyint(std::clamp(y, -128.0f, 127.0f))));
}
// the value of a q byte (finite codes only)
double q_value(hipasm::kernels::quant_type t, uint8_t b) {
  if (t == hipasm::kernels::quant_type::i8) return int8_t(b);
  return hipasm::test::decode(t == hipasm::kernels::quant_type::bf8 ? F8().bf8 : F8().fp8, b);
}

// rows of values drawn from [lo, hi] (bf16 configs: rounded to bf16), edited by `edit(values, d)`
template <hk::dynamic_quant_config C>
void run_dq(const char* name, uint32_t tokens, int seed, double lo, double hi,
            const std::function<void(std::vector<float>&, int)>& edit = {}) {
  const int D = C.d;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<float> v(size_t(tokens) * D);
  for (auto& x : v) x = C.f32_in ? float(u(rng)) : float(from_bf16(bf16(u(rng))));
  if (edit) edit(v, D);
  using In = hk::dynamic_quant_in<C>;
  std::vector<In> in(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (C.f32_in) in[i] = v[i];
    else in[i] = bf16(v[i]);
    if constexpr (!C.f32_in) v[i] = float(from_bf16(in[i]));  // the model reads what the kernel reads
  }
  rt::device& d = *S().dev;
  rt::buffer<In> X(d, in);
  rt::buffer<uint8_t> Q(d, std::vector<uint8_t>(v.size(), 0x5a));
  // scales: one a row, or one a block of 128 ([d / 128][tokens] or [tokens][d / 128])
  const int NB = C.block ? D / C.block : 1, B = C.block ? C.block : D;
  rt::buffer<float> Sc(d, std::vector<float>(size_t(tokens) * NB, -7.0f));
  auto rep = hk::launch_dynamic_quant<C>(d, *S().m, name, {.q = Q.addr(), .scale = Sc.addr(), .in = X.addr(), .tokens = tokens});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  const auto q = Q.download();
  const auto sc = Sc.download();
  const float qmax = qmax_of(C.type), floor_scale = 1.0f / (512.0f * qmax);
  int bad = 0;
  for (uint32_t t = 0; t < tokens && bad < 10; ++t)
    for (int b = 0; b < NB && bad < 10; ++b) {
      const float* x = &v[size_t(t) * D + size_t(b) * B];
      float amax = 0;
      for (int i = 0; i < B; ++i)
        if (!std::isnan(x[i])) amax = std::max(amax, std::fabs(x[i]));
      const float scale = std::max(amax / qmax, floor_scale);
      const float inv = 1.0f / scale;
      const float got_scale = sc[C.block == 0 || C.scales_row_major ? size_t(t) * NB + b : size_t(b) * tokens + t];
      if (std::bit_cast<uint32_t>(got_scale) != std::bit_cast<uint32_t>(scale)) {
        ++bad;
        FAIL_CHECK(name << " token " << t << " block " << b << " scale " << got_scale << " want " << scale << " (amax "
                        << amax << ")");
      }
      for (int i = 0; i < B && bad < 10; ++i) {
        const float y = x[i] * inv;
        const uint8_t want = C.type == hipasm::kernels::quant_type::fp8   ? fp8_model(y)
                             : C.type == hipasm::kernels::quant_type::bf8 ? bf8_model(y)
                                                                          : i8_model(y);
        const uint8_t got = q[size_t(t) * D + size_t(b) * B + i];
        if (got != want) {
          ++bad;
          FAIL_CHECK(name << " token " << t << " i " << b * B + i << " x " << x[i] << " x/scale " << y << " got 0x"
                          << std::hex << int(got) << " want 0x" << int(want));
        }
      }
    }
  CHECK(bad == 0);
}

// row r of the edge rows: 0 zeros, 1 tiny (below the scale floor), 2 one huge entry, 3 NaN
// entries (also in the last element), 4 +inf, 5 -inf, 6 rounding ties at scale 1, 7 all NaN,
// 8 bf16 subnormals (with 1x128 blocks: the rows' blocks, the ties at scale 1 in every block)
void edge_rows(std::vector<float>& v, int D, float qmax) {
  float* r[9];
  for (int k = 0; k < 9; ++k) r[k] = &v[size_t(k) * D];
  for (int i = 0; i < D; ++i) {
    r[0][i] = (i % 2) ? 0.0f : -0.0f;
    r[1][i] = float(from_bf16(bf16(1e-20 * (i % 7 - 3))));
    r[7][i] = NAN;
    r[8][i] = float(from_bf16(bf16(std::ldexp(double(i % 5 + 1), -135))));
  }
  r[2][D / 3] = 1e38f;
  r[3][0] = NAN;
  r[3][D / 2] = NAN;
  r[3][D - 1] = NAN;
  r[4][D - 2] = INFINITY;
  r[5][1] = -INFINITY;
  // scale 1: the row's maximum is qmax; fp8 ties 1 + 1/16 (-> 1), 1 + 3/16 (-> 1.25), 17 (-> 16),
  // 19 (-> 20); int8 ties +-2.5 (-> +-2), 3.5 (-> 4), 126.5 (-> 126)
  const float ties[] = {1.0625f, 1.1875f, -1.0625f, 17.0f, 19.0f, -19.0f, 2.5f, -2.5f, 3.5f, 0.5f, 126.5f, -126.5f};
  for (int i = 0; i < D; ++i) r[6][i] = ties[i % 12];
  r[6][D - 1] = qmax;
  for (int i = 127; i < D; i += 128) r[6][i] = qmax;  // (each 1x128 block's maximum too)
}
template <hk::dynamic_quant_config C>
void run_edges(const char* name, int seed) {
  run_dq<C>(name, 9, seed, -3, 3, [](std::vector<float>& v, int D) { edge_rows(v, D, qmax_of(C.type)); });
}
}  // namespace

TEST_CASE("dynamic_quant fp8 / int8 of bf16 rows with a tail of half a lane's bytes", "[kernels][dynamic_quant]") {
  run_dq<cfg::dq_fp8_bf16_1004>("dq_fp8_bf16_1004", 1, 1, -4, 4);
  run_dq<cfg::dq_fp8_bf16_1004>("dq_fp8_bf16_1004", 6, 2, -300, 100);
  run_dq<cfg::dq_i8_bf16_1004>("dq_i8_bf16_1004", 6, 3, -2, 7);
}
TEST_CASE("dynamic_quant of f32 rows: a tail over two waves, 4096 over four", "[kernels][dynamic_quant]") {
  run_dq<cfg::dq_fp8_f32_1000>("dq_fp8_f32_1000", 5, 4, -20, 20);
  run_dq<cfg::dq_i8_f32_4096>("dq_i8_f32_4096", 3, 5, -1e-3, 1e-3);
}
TEST_CASE("dynamic_quant: 8192 (no tail), a 12-element row, 14336 (3.5 steps)", "[kernels][dynamic_quant]") {
  run_dq<cfg::dq_fp8_bf16_8192>("dq_fp8_bf16_8192", 3, 6, -1, 1);
  run_dq<cfg::dq_i8_bf16_12>("dq_i8_bf16_12", 7, 7, -50, 50);
  run_dq<cfg::dq_fp8_bf16_14336>("dq_fp8_bf16_14336", 2, 8, -8, 8);
}
TEST_CASE("dynamic_quant fp8 with a scale per 1x128 block: bf16 and f32, both scale layouts, rows ending mid-step",
          "[kernels][dynamic_quant]") {
  run_dq<cfg::dqb_fp8_bf16_7168>("dqb_fp8_bf16_7168", 3, 30, -4, 4);
  run_dq<cfg::dqb_fp8_bf16_7168>("dqb_fp8_bf16_7168", 2, 31, -3000, 100);
  run_dq<cfg::dqb_fp8_f32_640_rm>("dqb_fp8_f32_640_rm", 5, 32, -20, 20);
  run_dq<cfg::dqb_fp8_bf16_384>("dqb_fp8_bf16_384", 7, 33, -1e-3, 2e-3);
  // blocks of their own magnitudes: each block's scale follows its own maximum
  run_dq<cfg::dqb_fp8_bf16_7168>("dqb_fp8_bf16_7168", 2, 34, -1, 1, [](std::vector<float>& v, int) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(std::ldexp(double(v[i]), int(i / 128 % 40) - 20));
  });
}
TEST_CASE("dynamic_quant 1x128 blocks: zero, tiny, huge blocks; NaN, +-inf, -0; ties; subnormals", "[kernels][dynamic_quant]") {
  run_edges<cfg::dqb_fp8_bf16_7168>("dqb_fp8_bf16_7168", 35);
  run_edges<cfg::dqb_fp8_f32_640_rm>("dqb_fp8_f32_640_rm", 36);
  run_edges<cfg::dqb_fp8_bf16_384>("dqb_fp8_bf16_384", 37);
}
TEST_CASE("dynamic_quant bf8 (e5m2): tails, wide ranges, the edge rows", "[kernels][dynamic_quant]") {
  run_dq<cfg::dq_bf8_bf16_1004>("dq_bf8_bf16_1004", 4, 20, -300, 100);
  run_dq<cfg::dq_bf8_f32_4096>("dq_bf8_f32_4096", 3, 21, -1e-3, 2e-3);
  run_edges<cfg::dq_bf8_bf16_1004>("dq_bf8_bf16_1004", 22);
  run_edges<cfg::dq_bf8_f32_4096>("dq_bf8_f32_4096", 23);
}
TEST_CASE("dynamic_quant: zero, tiny, huge rows; NaN, +-inf entries; ties; subnormals", "[kernels][dynamic_quant]") {
  run_edges<cfg::dq_fp8_bf16_1004>("dq_fp8_bf16_1004", 9);
  run_edges<cfg::dq_i8_bf16_1004>("dq_i8_bf16_1004", 10);
  run_edges<cfg::dq_fp8_f32_1000>("dq_fp8_f32_1000", 11);
  run_edges<cfg::dq_i8_f32_4096>("dq_i8_f32_4096", 12);
  run_edges<cfg::dq_i8_bf16_12>("dq_i8_bf16_12", 13);
}
namespace {
// rmsnorm_quant: y = x / sqrt(mean(x^2) + eps) * w in double (x = in (+ residual) in f32). The
// kernel's f32 sum, rsqrt and products differ from it by a few ulps (rel below), so: scale
// within rel of max(amax / qmax, floor); each q between the quantizations of y (1 -+ rel) / scale.
template <hk::norm_config C, hipasm::kernels::quant_type Q>
void run_rq(const char* name, uint32_t rows, int seed, double lo, double hi) {
  const int H = C.hidden;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi), uw(0.5, 1.5);
  std::vector<uint16_t> in(size_t(rows) * H), res(in.size()), w(H);
  for (auto& x : in) x = bf16(u(rng));
  for (auto& x : res) x = bf16(u(rng));
  for (auto& x : w) x = bf16(uw(rng));
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> X(d, in), R(d, res), RO(d, std::vector<uint16_t>(in.size(), 0)), W(d, w);
  rt::buffer<uint8_t> Qb(d, std::vector<uint8_t>(in.size(), 0x5a));
  rt::buffer<float> Sc(d, std::vector<float>(rows, -7.0f));
  const float eps = 1e-6f;
  auto rep = hk::launch_rmsnorm_quant<C>(d, *S().m, name,
                                          {.q = Qb.addr(), .scale = Sc.addr(), .residual_out = RO.addr(), .in = X.addr(),
                                           .residual = R.addr(), .weight = W.addr(), .eps = eps, .rows = rows});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  const auto q = Qb.download();
  const auto sc = Sc.download();
  const auto ro = RO.download();
  const double qmax = qmax_of(Q), rel = 4e-6;
  int bad = 0;
  for (uint32_t r = 0; r < rows && bad < 10; ++r) {
    std::vector<float> x(H);
    double ss = 0;
    for (int i = 0; i < H; ++i) {
      x[i] = float(from_bf16(in[size_t(r) * H + i]));
      if (C.residual) {
        x[i] = x[i] + float(from_bf16(res[size_t(r) * H + i]));
        if (ro[size_t(r) * H + i] != bf16(x[i])) {
          ++bad;
          FAIL_CHECK(name << " row " << r << " residual_out " << i);
        }
      }
      ss += double(x[i]) * x[i];
    }
    const double rs = 1 / std::sqrt(ss / H + eps);
    std::vector<double> y(H);
    double amax = 0;
    for (int i = 0; i < H; ++i) amax = std::max(amax, std::fabs(y[i] = x[i] * rs * from_bf16(w[i])));
    const double scale = std::max(amax / qmax, double(1.0f / (512.0f * float(qmax))));
    if (std::fabs(sc[r] - scale) > rel * scale) {
      ++bad;
      FAIL_CHECK(name << " row " << r << " scale " << sc[r] << " want " << scale);
    }
    const float inv = 1.0f / sc[r];  // (the q bytes follow the scale the kernel wrote)
    for (int i = 0; i < H && bad < 10; ++i) {
      const uint8_t got = q[size_t(r) * H + i];
      auto quant = [&](double v) { return Q == hipasm::kernels::quant_type::fp8 ? fp8_model(float(v)) : i8_model(float(v)); };
      const double a = q_value(Q, quant(y[i] * inv * (1 - rel))), b = q_value(Q, quant(y[i] * inv * (1 + rel)));
      const double g = q_value(Q, got);
      if (g < std::min(a, b) || g > std::max(a, b)) {
        ++bad;
        FAIL_CHECK(name << " row " << r << " i " << i << " y/scale " << y[i] * inv << " got " << g << " want " << a
                        << " .. " << b);
      }
    }
  }
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE("rmsnorm_quant: rmsnorm fused with fp8 / int8 dynamic quantization, with the residual add",
          "[kernels][dynamic_quant]") {
  run_rq<cfg::rq_4096, hipasm::kernels::quant_type::fp8>("rq_fp8_4096", 3, 14, -2, 2);
  run_rq<cfg::rq_1004_res, hipasm::kernels::quant_type::i8>("rq_i8_1004_res", 5, 15, -3, 1);
  run_rq<cfg::rq_1004_res, hipasm::kernels::quant_type::fp8>("rq_fp8_1004_res", 4, 16, -1, 5);
}

namespace {
// C (bf16, [M][N]) against x w^T in double, within the quantization error: an element v
// quantized with scale s is off by at most |v| e + s a; x's scale of (m, k) is sx(m, k), w's
// sw(n, k). The bound sums |x| |w err| + |w| |x err| + their product over k, plus C's bf16 rounding.
template <class SX, class SW>
void check_within_quantization(const char* gemm_name, const std::vector<uint16_t>& x, const std::vector<uint16_t>& w,
                               const std::vector<uint16_t>& c, uint32_t M, uint32_t N, uint32_t K, double e, double a,
                               SX sx, SW sw) {
  int bad = 0;
  for (uint32_t m = 0; m < M && bad < 10; ++m)
    for (uint32_t n = 0; n < N && bad < 10; ++n) {
      double want = 0, bound = 0;
      for (uint32_t k = 0; k < K; ++k) {
        const double xv = from_bf16(x[size_t(m) * K + k]), wv = from_bf16(w[size_t(n) * K + k]);
        const double ex = std::fabs(xv) * e + sx(m, k) * a, ew = std::fabs(wv) * e + sw(n, k) * a;
        want += xv * wv;
        bound += std::fabs(xv) * ew + std::fabs(wv) * ex + ex * ew;
      }
      const double got = from_bf16(c[size_t(m) * N + n]);
      if (!(std::fabs(got - want) <= bound * 1.001 + std::fabs(want) * 0x1p-8)) {
        ++bad;
        FAIL_CHECK(gemm_name << " C[" << m << "][" << n << "] " << got << " want " << want << " +- " << bound);
      }
    }
  CHECK(bad == 0);
}

// x [M][K] and w [N][K] (bf16) quantized by dynamic_quant kernel DQ, C = gemm_quant(qx, qw, sx, sw)
// (bf16) against x w^T in double. Per element |q s - v| <= |v| e + s a (int8: half a step, e 0,
// a 1/2; fp8: e 2^-4 for normals, a half the subnormal step), so |C - x w^T| is at most the sum over
// k of |x| |w - qw sw| + |w| |x - qx sx| + their product, plus C's bf16 rounding (2^-8 relative).
template <hk::dynamic_quant_config DQ>
void run_dq_gemm(const char* dq_name, const char* gemm_name, const hipasm::kernels::gemm_quant_config& gc, uint32_t M,
                 uint32_t N, int seed) {
  constexpr uint32_t K = DQ.d;
  rt::device& d = *S().dev;
  static auto gm = d.load_file(hipasm::test::code_object("dq_gemm"));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(-4, 4), uw(-0.05, 0.05);
  std::vector<uint16_t> x(size_t(M) * K), w(size_t(N) * K);
  for (auto& v : x) v = bf16(ux(rng));
  for (auto& v : w) v = bf16(uw(rng));
  rt::buffer<uint16_t> X(d, x), W(d, w);
  rt::buffer<uint8_t> QX(d, x.size()), QW(d, w.size());
  rt::buffer<float> SX(d, M), SW(d, N);
  rt::buffer<uint16_t> C(d, std::vector<uint16_t>(size_t(M) * N, 0));
  for (const auto& rep : {hk::launch_dynamic_quant<DQ>(d, *S().m, dq_name, {.q = QX.addr(), .scale = SX.addr(), .in = X.addr(), .tokens = M}),
                          hk::launch_dynamic_quant<DQ>(d, *S().m, dq_name, {.q = QW.addr(), .scale = SW.addr(), .in = W.addr(), .tokens = N}),
                          hipasm::kernels::launch_gemm_quant(d, *gm, {gemm_name, gc}, C.addr(), QX.addr(), QW.addr(), SX.addr(),
                                                    SW.addr(), M, N, K)})
    for (const auto& msg : rep.diagnostics) FAIL_CHECK(gemm_name << " checker: " << msg);
  const auto c = C.download();
  const auto sx = SX.download(), sw = SW.download();
  const bool fp8 = DQ.type == hipasm::kernels::quant_type::fp8;
  // (a: half the subnormal step)
  const hipasm::test::minifloat& f8 = F8().fp8;
  const double sub_step = std::ldexp(1.0, 1 - f8.bias - f8.man_bits);
  const double e = fp8 ? 0x1p-4 : 0, a = fp8 ? sub_step / 2 : 0.5;
  check_within_quantization(gemm_name, x, w, c, M, N, K, e, a, [&](uint32_t m, uint32_t) { return double(sx[m]); },
                            [&](uint32_t n, uint32_t) { return double(sw[n]); });
}
}  // namespace

TEST_CASE("dynamic_quant feeds gemm_quant's per-token GEMM (int8, fp8): C = x w^T within the quantization error",
          "[kernels][dynamic_quant]") {
  run_dq_gemm<cfg::dq_i8_bf16_1024>("dq_i8_bf16_1024", "dq_gemm_i8", cfg::dq_gemm_i8, 100, 96, 17);
  run_dq_gemm<cfg::dq_fp8_bf16_1024>("dq_fp8_bf16_1024", "dq_gemm_fp8", cfg::dq_gemm_fp8, 70, 130, 18);
}

namespace {
// x [M][K] (bf16) quantized by the 1x128 block kernel DQ (scales [K / 128][M]), w [N][K] per
// 128x128 block on the host (scale max(amax / qmax, floor), q = fp8 of w / scale), C =
// gemm_quant block128 (bf16) against x w^T in double within run_dq_gemm's bound, each element's
// scales its own blocks'.
template <hk::dynamic_quant_config DQ>
void run_dqb_gemm(const char* dq_name, const char* gemm_name, const hipasm::kernels::gemm_quant_config& gc, uint32_t M,
                  uint32_t N, int seed) {
  constexpr uint32_t K = DQ.d, KB = K / 128;
  const uint32_t NB = (N + 127) / 128;
  rt::device& d = *S().dev;
  static auto gm = d.load_file(hipasm::test::code_object("dq_gemm"));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(-4, 4), uw(-0.05, 0.05);
  std::vector<uint16_t> x(size_t(M) * K), w(size_t(N) * K);
  for (size_t i = 0; i < x.size(); ++i) x[i] = bf16(std::ldexp(ux(rng), int(i % K / 128) * 3 - 3));  // blocks differ
  for (auto& v : w) v = bf16(uw(rng));
  const float qmax = qmax_of(DQ.type), floor_scale = 1.0f / (512.0f * qmax);
  std::vector<float> sw(size_t(NB) * KB);
  std::vector<uint8_t> qw(w.size());
  for (uint32_t nb = 0; nb < NB; ++nb)
    for (uint32_t kb = 0; kb < KB; ++kb) {
      float amax = 0;
      for (uint32_t n = 128 * nb; n < std::min(N, 128 * nb + 128); ++n)
        for (uint32_t k = 128 * kb; k < 128 * kb + 128; ++k) amax = std::max(amax, float(std::fabs(from_bf16(w[size_t(n) * K + k]))));
      const float s = sw[size_t(nb) * KB + kb] = std::max(amax / qmax, floor_scale);
      for (uint32_t n = 128 * nb; n < std::min(N, 128 * nb + 128); ++n)
        for (uint32_t k = 128 * kb; k < 128 * kb + 128; ++k) qw[size_t(n) * K + k] = fp8_model(float(from_bf16(w[size_t(n) * K + k])) / s);
    }
  rt::buffer<uint16_t> X(d, x);
  rt::buffer<uint8_t> QX(d, x.size()), QW(d, qw);
  rt::buffer<float> SX(d, size_t(KB) * M), SW(d, sw);
  rt::buffer<uint16_t> C(d, std::vector<uint16_t>(size_t(M) * N, 0));
  for (const auto& rep : {hk::launch_dynamic_quant<DQ>(d, *S().m, dq_name, {.q = QX.addr(), .scale = SX.addr(), .in = X.addr(), .tokens = M}),
                          hipasm::kernels::launch_gemm_quant(d, *gm, {gemm_name, gc}, C.addr(), QX.addr(), QW.addr(), SX.addr(),
                                                             SW.addr(), M, N, K)})
    for (const auto& msg : rep.diagnostics) FAIL_CHECK(gemm_name << " checker: " << msg);
  const auto c = C.download();
  const auto sx = SX.download();
  const hipasm::test::minifloat& f8 = F8().fp8;
  const double e = 0x1p-4, a = std::ldexp(1.0, 1 - f8.bias - f8.man_bits) / 2;  // (run_dq_gemm's)
  check_within_quantization(gemm_name, x, w, c, M, N, K, e, a,
                            [&](uint32_t m, uint32_t k) { return double(sx[size_t(k / 128) * M + m]); },
                            [&](uint32_t n, uint32_t k) { return double(sw[size_t(n / 128) * KB + k / 128]); });
}
}  // namespace

TEST_CASE("dynamic_quant's 1x128 blocks feed gemm_quant's block128 GEMM: C = x w^T within the quantization error",
          "[kernels][dynamic_quant]") {
  run_dqb_gemm<cfg::dqb_fp8_bf16_384>("dqb_fp8_bf16_384", "dq_gemm_fp8_block", cfg::dq_gemm_fp8_block, 70, 150, 19);
}

TEST_CASE("dynamic_quant launch: bad arguments are clear errors", "[kernels][dynamic_quant]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_dynamic_quant<cfg::dq_i8_bf16_12>(d, *S().m, "dq_i8_bf16_12", {.q = 8, .scale = 8, .in = 8, .tokens = 0}),
                    Catch::Contains("tokens must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_dynamic_quant<cfg::dq_i8_bf16_12>(d, *S().m, "dq_i8_bf16_12", {.q = 8, .scale = 0, .in = 8, .tokens = 1}),
                    Catch::Contains("null"));
}
