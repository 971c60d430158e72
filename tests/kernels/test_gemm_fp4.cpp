// HIPASM_TEST_KERNELS: gemm_fp4.hip
// HIPASM_TEST_ARCHS: gfx950
// The MXFP4 GEMM (include/hipasm/kernels/gemm_fp4.hpp) in hipasm-sim on gfx950 against a plain C++
// reference written from the OCP Microscaling Formats v1.0 spec: fp4 e2m1 (section 5.3.3: 1 sign,
// 2 exponent bits of bias 1, 1 mantissa bit; exponent 0 subnormal: 0, 0.5; then 1, 1.5, 2, 3, 4, 6)
// and the E8M0 scale (section 5.4.1: 2^(e - 127), 0xff NaN), each block of 32 k of a row with its
// scale, summed in double. The kernel's f32 sums differ from that by at most one f32 rounding a
// 64-k MFMA step (an accumulation into C, 2^-24 relative to the partial sum, which is at most
// the sum of |products|, `mag`), its bf16 store by half a bf16 ulp (2^-9 relative); the check is
// |got - ref| <= 2^-8 |ref| + (K / 64 + 1) 2^-23 mag. Shapes with tails in M and N (C's stores
// past them dropped: a canary around C), random codes with all-zero blocks (+0 and -0 codes) and
// scales near 1, and extreme scales (2 .. 252, their product near 1: A's 127 + d, B's 127 - d per
// k block); each configuration (K split over wave groups, B preshuffled, A through LDS); the end-to-end flow bf16 ->
// mxfp4_quant -> gemm_fp4. The checker must report nothing. K not a multiple of 256 is a launch
// error; gfx942 a compile error (tests/core/negative/gemm_fp4_gfx942.hip).
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/gemm_fp4_launch.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gemm_fp4_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;
namespace ht = hipasm::test;

namespace {

ht::kernel_sim& S() {
  static ht::kernel_sim s("gemm_fp4");
  return s;
}

// OCP MX v1.0, 5.3.3: e2m1 code -> value (sign bit 3, exponent bits 2:1 bias 1, mantissa bit 0)
double e2m1(unsigned code) {
  const unsigned e = (code >> 1) & 3, m = code & 1;
  const double mag = e == 0 ? 0.5 * m : std::ldexp(1.0 + 0.5 * m, int(e) - 1);
  return code & 8 ? -mag : mag;
}
// OCP MX v1.0, 5.4.1: E8M0 -> 2^(e - 127); 0xff NaN
double e8m0(uint8_t e) { return e == 0xff ? std::nan("") : std::ldexp(1.0, int(e) - 127); }

struct mx_matrix {  // rows x K fp4 (two a byte, even k low) and rows x K/32 scales
  uint32_t rows = 0, K = 0;
  std::vector<uint8_t> q, s;
  unsigned code(uint32_t r, uint32_t k) const {
    const unsigned b = q[size_t(r) * (K / 2) + k / 2];
    return k % 2 ? b >> 4 : b & 15u;
  }
  double value(uint32_t r, uint32_t k) const {
    // (tables of e2m1 and e8m0: the reference decodes every element for every product)
    static const struct tables {
      double fp4[16], scale[256];
      tables() {
        for (unsigned c = 0; c < 16; ++c) fp4[c] = e2m1(c);
        for (unsigned e = 0; e < 256; ++e) scale[e] = e8m0(uint8_t(e));
      }
    } t;
    return t.fp4[code(r, k)] * t.scale[s[size_t(r) * (K / 32) + k / 32]];
  }
};

// random codes, a block in 8 all zero (+0 or -0 codes); scale bytes by `scale(row, block)`
template <class Scale>
mx_matrix random_mx(std::mt19937& g, uint32_t rows, uint32_t K, Scale scale) {
  mx_matrix x{rows, K, std::vector<uint8_t>(size_t(rows) * K / 2), std::vector<uint8_t>(size_t(rows) * K / 32)};
  std::uniform_int_distribution<int> byte(0, 255), eighth(0, 7);
  for (auto& b : x.q) b = uint8_t(byte(g));
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t kb = 0; kb < K / 32; ++kb) {
      x.s[size_t(r) * (K / 32) + kb] = scale(r, kb);
      if (eighth(g) == 0) {
        const uint8_t z = eighth(g) < 4 ? 0x00 : 0x88;
        for (uint32_t i = 0; i < 16; ++i) x.q[size_t(r) * (K / 2) + kb * 16 + i] = z;
      }
    }
  return x;
}

// C = A B^T on the simulator (kernel `name` of `cfg`) vs the reference; C surrounded by canaries
void run_check(const char* name, const hk::gemm_fp4_config& cfg, const mx_matrix& a, const mx_matrix& b) {
  const uint32_t M = a.rows, N = b.rows, K = a.K;
  rt::device& d = *S().dev;
  // (b_shuffled: B and its scales through gemm_fp4_preshuffle_b)
  const hk::gemm_fp4_b_shuffled bs =
      cfg.b_shuffled ? hk::gemm_fp4_preshuffle_b(b.q, b.s, N, K) : hk::gemm_fp4_b_shuffled{b.q, b.s};
  rt::buffer<uint8_t> A(d, a.q), B(d, bs.q), SA(d, a.s), SB(d, bs.scales);
  constexpr size_t pad = 256;  // canary elements before and after C
  rt::buffer<uint16_t> Cbuf(d, std::vector<uint16_t>(size_t(M) * N + 2 * pad, 0x7e5a));
  auto rep = hk::launch_gemm_fp4(d, *S().m, {name, cfg}, Cbuf.addr() + 2 * pad, A.addr(), B.addr(), SA.addr(), SB.addr(),
                                 M, N, K);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  const auto c = Cbuf.download();
  for (size_t i = 0; i < pad; ++i) {
    REQUIRE(c[i] == 0x7e5a);
    REQUIRE(c[pad + size_t(M) * N + i] == 0x7e5a);
  }
  int bad = 0;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N && bad < 10; ++n) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < K; ++k) {
        const double p = a.value(m, k) * b.value(n, k);
        ref += p;
        mag += std::fabs(p);
      }
      const double got = ht::from_bf16(c[pad + size_t(m) * N + n]);
      const double tol = std::ldexp(std::fabs(ref), -8) + (K / 64 + 1) * std::ldexp(mag, -23);
      if (!(std::fabs(got - ref) <= tol)) {
        ++bad;
        FAIL_CHECK(name << " " << M << "x" << N << "x" << K << " C[" << m << "][" << n << "] = " << got << ", want " << ref
                        << " (tolerance " << tol << ")");
      }
    }
}

template <const hk::gemm_fp4_config& CFG>
void random_case(const char* name, uint32_t M, uint32_t N, uint32_t K, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> near1(123, 131);  // scales 2^-4 .. 2^4
  auto s = [&](uint32_t, uint32_t) { return uint8_t(near1(g)); };
  const mx_matrix a = random_mx(g, M, K, s), b = random_mx(g, N, K, s);
  run_check(name, CFG, a, b);
}

}  // namespace

TEST_CASE("gemm_fp4: random MXFP4, tails in M and N", "[kernels][gemm_fp4]") {
  random_case<fp4_configs::f4_32x64>("f4_32x64", 32, 64, 256, 1);     // one tile, one step
  random_case<fp4_configs::f4_32x64>("f4_32x64", 70, 100, 512, 2);    // tails, two steps
  random_case<fp4_configs::f4_32x64>("f4_32x64", 5, 130, 768, 3);     // odd step count
  random_case<fp4_configs::f4_64x128>("f4_64x128", 96, 256, 256, 4);  // full tiles
  random_case<fp4_configs::f4_64x128>("f4_64x128", 33, 129, 1024, 5);
  random_case<fp4_configs::f4_64x128>("f4_64x128", 1, 1, 256, 6);     // one element
}

TEST_CASE("gemm_fp4: B preshuffled", "[kernels][gemm_fp4]") {
  random_case<fp4_configs::f4_32x128_bs>("f4_32x128_bs", 32, 128, 256, 41);
  random_case<fp4_configs::f4_32x128_bs>("f4_32x128_bs", 20, 200, 1536, 42);  // 6 steps over 4 sets, N % 32 = 8
  random_case<fp4_configs::f4_64x128_bs_k2>("f4_64x128_bs_k2", 100, 130, 768, 43);
  random_case<fp4_configs::f4_64x128_bs_k2>("f4_64x128_bs_k2", 64, 31, 512, 44);
}

TEST_CASE("gemm_fp4: A through LDS", "[kernels][gemm_fp4]") {
  random_case<fp4_configs::f4_64x128_al_k2>("f4_64x128_al_k2", 64, 128, 512, 51);
  random_case<fp4_configs::f4_64x128_al_k2>("f4_64x128_al_k2", 100, 150, 768, 52);  // 3 steps over 2 groups
  random_case<fp4_configs::f4_32x64_al_bs>("f4_32x64_al_bs", 45, 70, 1280, 53);     // 5 steps, tails
  random_case<fp4_configs::f4_32x64_al_bs>("f4_32x64_al_bs", 3, 64, 256, 54);
  // A's scales by windows of 8 steps: 18 steps (three windows, both LDS windows reused), and
  // 19 over 2 groups (10 and 9: each group's second window partly past its range)
  random_case<fp4_configs::f4_32x64_al_bs>("f4_32x64_al_bs", 40, 65, 4608, 55);
  random_case<fp4_configs::f4_64x128_al_k2>("f4_64x128_al_k2", 70, 40, 4864, 56);
  // one row of 4 waves (4 A chunks a lane over 8 rows each): tails in M and N, 9 steps (a second
  // window)
  random_case<fp4_configs::f4_64x128_w4_al_bs>("f4_64x128_w4_al_bs", 64, 128, 512, 59);
  random_case<fp4_configs::f4_64x128_w4_al_bs>("f4_64x128_w4_al_bs", 100, 150, 2304, 60);
  // the scales a dword a step instead
  random_case<fp4_configs::f4_32x64_al_nw>("f4_32x64_al_nw", 45, 70, 1280, 57);
  random_case<fp4_configs::f4_32x64_al_nw>("f4_32x64_al_nw", 33, 64, 2560, 58);
}

TEST_CASE("gemm_fp4: A and B through LDS (ab_lds)", "[kernels][gemm_fp4]") {
  random_case<fp4_configs::f4_128x128_ab>("f4_128x128_ab", 130, 200, 768, 72);  // tails, an odd step count
  random_case<fp4_configs::f4_128x128_ab>("f4_128x128_ab", 3, 5, 256, 73);      // one step, tiny
  // 18 steps: three scale windows (the last partly past K), the one LDS window stored twice
  random_case<fp4_configs::f4_128x128_ab>("f4_128x128_ab", 70, 150, 4608, 74);
  random_case<fp4_configs::f4_256x256_ab>("f4_256x256_ab", 260, 270, 768, 76);  // tails in M and N
  // 2 persistent workgroups over 2 x 2 tiles (two each: the next tile's first loads and window
  // during a tile's last steps), tails in M and N; one and two trips of 8 steps a tile
  random_case<fp4_configs::f4_128x128_ab_p>("f4_128x128_ab_p", 130, 200, 2048, 77);
  random_case<fp4_configs::f4_128x128_ab_p>("f4_128x128_ab_p", 150, 140, 4096, 78);
}

TEST_CASE("gemm_fp4: K split over wave groups", "[kernels][gemm_fp4]") {
  random_case<fp4_configs::f4_64x32_k3>("f4_64x32_k3", 64, 32, 768, 11);   // a step each
  random_case<fp4_configs::f4_64x32_k3>("f4_64x32_k3", 70, 45, 1024, 12);  // 2, 1, 1 steps
  random_case<fp4_configs::f4_64x32_k3>("f4_64x32_k3", 3, 33, 256, 13);    // groups 1, 2 without a step
}

TEST_CASE("gemm_fp4: extreme scales", "[kernels][gemm_fp4]") {
  // per k block a d in [-124, 124] (the ends included): A's scales 127 + d + x, B's 127 - d + y,
  // x and y in [-1, 1], clamped to 2 .. 252, so scale bytes from 2 to 252 occur while the
  // products stay near 1. (2 .. 252 keep every scaled element, 0.5 2^-125 .. 6 2^125, a normal
  // f32: scaling the elements, the products or the block sums then agree. Bytes 0, 1, 253 and
  // 254 put scaled elements outside f32's normal range, where hipasm-sim, which scales each
  // element in f32 (sim/src/exec_mfma.cpp), and the spec's dot product, which scales the block
  // sum (OCP MX v1.0 6.2), differ; what the hardware does there is not established.)
  const uint32_t M = 40, N = 70, K = 512;
  std::mt19937 g(21);
  std::uniform_int_distribution<int> dd(-124, 124), xx(-1, 1);
  std::vector<int> dk(K / 32);
  for (uint32_t kb = 0; kb < K / 32; ++kb) dk[kb] = kb == 0 ? 124 : kb == 1 ? -124 : dd(g);
  auto clamp = [](int v) { return uint8_t(v < 2 ? 2 : v > 252 ? 252 : v); };
  const mx_matrix a = random_mx(g, M, K, [&](uint32_t, uint32_t kb) { return clamp(127 + dk[kb] + xx(g)); });
  const mx_matrix b = random_mx(g, N, K, [&](uint32_t, uint32_t kb) { return clamp(127 - dk[kb] + xx(g)); });
  run_check("f4_32x64", fp4_configs::f4_32x64, a, b);
  run_check("f4_64x32_k3", fp4_configs::f4_64x32_k3, a, b);
  run_check("f4_32x128_bs", fp4_configs::f4_32x128_bs, a, b);
  run_check("f4_64x128_al_k2", fp4_configs::f4_64x128_al_k2, a, b);
}

TEST_CASE("gemm_fp4: bf16 -> mxfp4_quant -> gemm_fp4", "[kernels][gemm_fp4]") {
  // bf16 A (M x 512) and B (N x 512) quantized by the library's mxfp4_quant, then the GEMM of the
  // quantized operands against the reference of the same quantized values
  constexpr uint32_t K = fp4_configs::quant_512.d;
  const uint32_t M = 45, N = 97;
  std::mt19937 g(31);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> ue(-8, 8);
  rt::device& d = *S().dev;
  auto quantize = [&](uint32_t rows) {
    std::vector<uint16_t> x(size_t(rows) * K);
    for (size_t blk = 0; blk < x.size() / 32; ++blk) {
      const int e = ue(g);
      for (int i = 0; i < 32; ++i) x[32 * blk + i] = ht::bf16(std::ldexp(u(g), e));
    }
    rt::buffer<uint16_t> X(d, x);
    rt::buffer<uint8_t> Q(d, size_t(rows) * K / 2), Sc(d, size_t(rows) * K / 32);
    auto rep = hk::launch_mxfp4_quant<fp4_configs::quant_512>(
        d, *S().m, "quant_512", {.q = Q.addr(), .scales = Sc.addr(), .in = X.addr(), .rows = rows});
    for (const auto& msg : rep.diagnostics) FAIL_CHECK("quant_512 checker: " << msg);
    mx_matrix r{rows, K, Q.download(), Sc.download()};
    // the quantized values approximate the input (e2m1's largest relative step, 1 to 1.5 and
    // 4 to 6: half of it is a third of the value, plus the scale's step below the block maximum)
    for (size_t i = 0; i < x.size(); i += 97) {
      const double v = ht::from_bf16(x[i]), w = r.value(uint32_t(i / K), uint32_t(i % K));
      const double blk = std::ldexp(1.0, int(r.s[i / 32]) - 127);
      CHECK(std::fabs(v - w) <= std::fabs(v) / 3 + blk * 0.25);
    }
    return r;
  };
  const mx_matrix a = quantize(M), b = quantize(N);
  run_check("f4_32x64", fp4_configs::f4_32x64, a, b);
  run_check("f4_64x128", fp4_configs::f4_64x128, a, b);
  run_check("f4_64x128_bs_k2", fp4_configs::f4_64x128_bs_k2, a, b);
}

TEST_CASE("gemm_fp4 launch: bad arguments are clear errors", "[kernels][gemm_fp4]") {
  rt::device& d = *S().dev;
  const hk::gemm_fp4_kernel_ref k{"f4_32x64", fp4_configs::f4_32x64};
  CHECK_THROWS_WITH(hk::launch_gemm_fp4(d, *S().m, k, 8, 8, 8, 8, 8, 32, 64, 384),
                    Catch::Contains("K must be a multiple of 256") && Catch::Contains("got 384"));
  CHECK_THROWS_WITH(hk::launch_gemm_fp4(d, *S().m, k, 8, 8, 8, 8, 8, 0, 64, 256), Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(hk::launch_gemm_fp4(d, *S().m, k, 8, 8, 8, 8, 8, 1u << 20, 64, 1u << 13), Catch::Contains("2 GiB"));
  CHECK_THROWS_WITH(hk::launch_gemm_fp4(d, *S().m, {"f4_128x128_ab_p", fp4_configs::f4_128x128_ab_p}, 8, 8, 8, 8, 8, 64,
                                        64, 1024),
                    Catch::Contains("multiple of 2048") && Catch::Contains("got 1024"));
  CHECK_THROWS_WITH(hk::gemm_fp4_preshuffle_b(std::vector<uint8_t>(64), std::vector<uint8_t>(4), 1, 128),
                    Catch::Contains("K must be a positive multiple of 256"));
  CHECK_THROWS_WITH(hk::gemm_fp4_preshuffle_b(std::vector<uint8_t>(64), std::vector<uint8_t>(8), 1, 256),
                    Catch::Contains("q must hold N * K / 2 bytes"));
}
