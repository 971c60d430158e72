// HIPASM_TEST_KERNELS: gemm_bf16.hip
// The library's bf16 GEMM (include/hipasm/kernels/gemm_bf16.hpp) in hipasm-sim against plain
// C++ (bf16 inputs, the products summed in double): full tiles, M/N/K tails, K smaller than a
// tile, odd K, 1x1x1, f32 and bf16 output; the layouts A M x K or K x M (a_km), B N x K or
// K x N (b_kn). The checker must report nothing.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/gemm_bf16_launch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
using hipasm::kernels::gemm_bf16_config;
using hipasm::kernels::gemm_bf16_kernel_ref;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("gemm_bf16");
  return s;
}

using hipasm::test::bf16;
using hipasm::test::from_bf16;

// Runs kernel `even` (and `odd` for an odd K) on random M x K and N x K bf16 inputs and
// compares with the reference: |got - ref| <= K * 2^-22 * sum|a*b| (f32 accumulation, a
// rounding per add) + the output's rounding (2^-8 |ref| for bf16).
// With `rest`: launch_gemm_bf16_balanced(even, rest) over `cus` CUs.
void run(const gemm_bf16_kernel_ref& even, const gemm_bf16_kernel_ref* odd, uint32_t M, uint32_t N, uint32_t K,
         const gemm_bf16_kernel_ref* rest = nullptr, uint32_t cus = 0) {
  INFO(even.name << " M=" << M << " N=" << N << " K=" << K << (rest ? " balanced" : ""));
  rt::device& d = *S().dev;
  std::mt19937 rng(M * 7919u + N * 104729u + K);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<uint16_t> a(size_t(M) * K), b(size_t(N) * K);
  for (auto& x : a) x = bf16(u(rng));
  for (auto& x : b) x = bf16(u(rng));
  const bool out_bf16 = even.config.out_bf16;
  // a (M x K) and b (N x K) as the kernel stores them: K x M with a_km, K x N with b_kn
  std::vector<uint16_t> a_st = a, b_st = b;
  if (even.config.a_km)
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t k = 0; k < K; ++k) a_st[size_t(k) * M + m] = a[size_t(m) * K + k];
  if (even.config.b_kn)
    for (uint32_t n = 0; n < N; ++n)
      for (uint32_t k = 0; k < K; ++k) b_st[size_t(k) * N + n] = b[size_t(n) * K + k];
  // Poisoned output (and one guard element past it): dropped stores must leave it.
  const size_t cn = size_t(M) * N + 1;
  rt::buffer<uint16_t> A(d, a_st), B(d, b_st);
  rt::buffer<uint32_t> Cf(d, std::vector<uint32_t>(out_bf16 ? 1 : cn, 0x7fc00001u));
  rt::buffer<uint16_t> Ch(d, std::vector<uint16_t>(out_bf16 ? cn : 1, 0x7fc1u));
  const uint64_t c = out_bf16 ? Ch.addr() : Cf.addr();
  auto rep = rest ? hipasm::kernels::launch_gemm_bf16_balanced(d, *S().m, even, *rest, c, A.addr(), B.addr(), M, N, K, cus, odd)
                  : hipasm::kernels::launch_gemm_bf16(d, *S().m, even, c, A.addr(), B.addr(), M, N, K, odd);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  std::vector<float> got(cn);
  uint32_t guard_ok;
  if (out_bf16) {
    auto h = Ch.download();
    for (size_t i = 0; i < cn; ++i) got[i] = from_bf16(h[i]);
    guard_ok = h[cn - 1] == 0x7fc1u;
  } else {
    auto f = Cf.download();
    for (size_t i = 0; i < cn; ++i) std::memcpy(&got[i], &f[i], 4);
    guard_ok = f[cn - 1] == 0x7fc00001u;
  }
  CHECK(guard_ok);
  int bad = 0;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < K; ++k) {
        double p = double(from_bf16(a[size_t(m) * K + k])) * from_bf16(b[size_t(n) * K + k]);
        ref += p;
        mag += std::fabs(p);
      }
      // (bf16_atomics: each part's sum and each atomic add's result rounded to bf16: 2 S roundings
      // of values bounded by mag)
      const double parts = even.config.bf16_atomics ? 2.0 * even.config.split_k : 0.0;
      const double tol = K * std::ldexp(mag, -22) + (out_bf16 ? std::ldexp(std::fabs(ref), -8) : 0.0) +
                         parts * std::ldexp(mag, -8) + 1e-30;
      const float g = got[size_t(m) * N + n];
      if (!(std::fabs(g - ref) <= tol) && ++bad <= 5)
        FAIL_CHECK("C[" << m << "][" << n << "] = " << g << ", expected " << ref << " (tolerance " << tol << ")");
    }
  CHECK(bad == 0);
}

const gemm_bf16_kernel_ref kF32{"gemm_f32", gemm_bf16_config{}};
const gemm_bf16_kernel_ref kBf16{"gemm_bf16out", gemm_bf16_config{.out_bf16 = true}};
const gemm_bf16_kernel_ref kSmall{"gemm_small", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 16, .wm = 2, .wn = 1}};
const gemm_bf16_kernel_ref k256{"gemm_256", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 32, .wm = 2, .wn = 4}};
const gemm_bf16_kernel_ref k256s{"gemm_256s", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1}};
const gemm_bf16_kernel_ref kSplit{"gemm_split3", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .split_k = 3}};
const gemm_bf16_kernel_ref kOdd{"gemm_oddk", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .odd_k = true}};
const gemm_bf16_kernel_ref kSplitBf16{"gemm_split3_bf16", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .split_k = 3}};
const gemm_bf16_kernel_ref kNN{"gemm_nn", gemm_bf16_config{.b_kn = true}};
const gemm_bf16_kernel_ref kNNOdd{"gemm_nn_oddk", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .odd_k = true, .ahead = 1, .b_kn = true}};
const gemm_bf16_kernel_ref kTN{"gemm_tn", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .out_bf16 = true, .a_km = true, .b_kn = true}};
const gemm_bf16_kernel_ref kTT{"gemm_tt", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .split_k = 2, .a_km = true}};
const gemm_bf16_kernel_ref k128x256s{"gemm_128x256s", gemm_bf16_config{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .lds_buffers = 1}};
const gemm_bf16_kernel_ref k256sBf16{"gemm_256s_bf16", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = true, .ahead = 1, .lds_buffers = 1}};
const gemm_bf16_kernel_ref k128x256sBf16{"gemm_128x256s_bf16", gemm_bf16_config{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .out_bf16 = true, .lds_buffers = 1}};
const gemm_bf16_kernel_ref kBf16Odd{"gemm_oddk_bf16", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .odd_k = true}};
const gemm_bf16_kernel_ref k256nn{"gemm_256nn", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1, .b_kn = true}};

}  // namespace

TEST_CASE("gemm_bf16: full tiles", "[gemm]") {
  run(kF32, &kOdd, 128, 128, 64);
  run(kF32, &kOdd, 256, 128, 96);  // an odd tile count (3): the last step's tile is all zeros
}

TEST_CASE("gemm_bf16: M, N, K tails and K smaller than a tile", "[gemm]") {
  run(kF32, &kOdd, 200, 130, 72);
  run(kF32, &kOdd, 64, 96, 8);
  run(kF32, &kOdd, 1, 1, 2);
  run(kSmall, &kOdd, 100, 70, 50);
}

TEST_CASE("gemm_bf16: 256x256 tile of 8 waves, tails in M, N and K", "[gemm]") {
  run(k256, &kOdd, 256, 256, 64);
  run(k256, &kOdd, 300, 270, 32 * 3 + 6);  // an odd tile count; K % 8 = 6: a masked chunk
}

TEST_CASE("gemm_bf16: one LDS buffer, 256x256x64 (the large-shape configuration), tails", "[gemm]") {
  run(k256s, &kOdd, 256, 256, 128);
  run(k256s, &kOdd, 260, 300, 64 * 3 + 10);
}

TEST_CASE("gemm_bf16: gfx950, 256x256x64 with two LDS buffers (128 KiB), tails", "[gemm]") {
  if (hipasm::test::test_arch() != "gfx950") return;  // (64 KiB of LDS: the kernel is gfx950's only)
  const gemm_bf16_kernel_ref k256x2{"gemm_256x2", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 2}};
  run(k256x2, &kOdd, 256, 256, 128);
  run(k256x2, &kOdd, 260, 300, 64 * 3 + 10);  // an odd tile count; K % 8 = 2: a masked chunk
}

TEST_CASE("gemm_bf16: gfx950, 4 waves of 128x128 in AGPRs, two LDS buffers, bf16 out (blocks paired for whole-line stores), tails", "[gemm]") {
  if (hipasm::test::test_arch() != "gfx950") return;  // (128 KiB of LDS and v_permlane32_swap: gfx950's)
  const gemm_bf16_kernel_ref k{"gemm_256w4_bf16", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .out_bf16 = true, .ahead = 2,
                                                                   .lds_buffers = 2, .agpr_acc = true, .k_tail = false}};
  run(k, nullptr, 256, 256, 192);         // one tile, an odd tile count (3)
  run(k, nullptr, 270, 260, 64 * 4);      // M and N tails: pairs of blocks past N (column 256 + 4 on)
  run(k, nullptr, 300, 200, 64);          // N below a tile: the second block pair of each wave all past N
}

TEST_CASE("gemm_bf16: 4 waves of 128x128, accumulators in AGPRs, two tiles ahead, tails", "[gemm]") {
  // (the launch reads the tile, the layouts and the output type: one or two LDS buffers alike)
  const gemm_bf16_kernel_ref k256w4{"gemm_256w4", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 2, .ahead = 2, .lds_buffers = 1, .agpr_acc = true}};
  run(k256w4, &kOdd, 256, 256, 192);
  run(k256w4, &kOdd, 270, 260, 64 * 4 + 14);  // an even tile count past the loop's trips; K % 8 = 6
}

TEST_CASE("gemm_bf16: no K tail (k_tail = false), tails in M and N; another K is an error", "[gemm]") {
  const gemm_bf16_kernel_ref nokt{"gemm_nokt", gemm_bf16_config{.k_tail = false}};
  const gemm_bf16_kernel_ref nokt256{"gemm_256s_nokt", gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1, .k_tail = false}};
  run(nokt, nullptr, 200, 130, 32 * 3);  // an odd tile count: the trip's second step loads past K
  run(nokt, nullptr, 128, 128, 32);
  run(nokt256, nullptr, 300, 260, 64 * 3);
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> a(d, 64 * 40), b(d, 64 * 40);
  rt::buffer<float> c(d, 64 * 64);
  CHECK_THROWS_WITH(hipasm::kernels::launch_gemm_bf16(d, *S().m, nokt, c.addr(), a.addr(), b.addr(), 64, 64, 40),
                    Catch::Matchers::Contains("K (40) must be a multiple of its bk (32)"));
}

TEST_CASE("gemm_bf16: gfx950, split-K with bf16 out by packed bf16 atomics (bf16_atomics), tails; an odd N is an error", "[gemm]") {
  if (hipasm::test::test_arch() != "gfx950") return;  // (buffer_atomic_pk_add_bf16: gfx950's)
  const gemm_bf16_kernel_ref k{"gemm_split3_pk", gemm_bf16_config{.bm = 64, .bn = 64, .bk = 32, .out_bf16 = true, .split_k = 3, .bf16_atomics = true}};
  run(k, nullptr, 64, 64, 32 * 3);
  run(k, nullptr, 100, 70, 32 * 7 + 6);  // M, N (even) and K tails
  run(k, nullptr, 10, 20, 40);           // two tiles: the third part's range is empty
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> a(d, 64 * 64), b(d, 64 * 64), c(d, 64 * 64);
  CHECK_THROWS_WITH(hipasm::kernels::launch_gemm_bf16(d, *S().m, k, c.addr(), a.addr(), b.addr(), 64, 63, 64),
                    Catch::Matchers::Contains("N (63) must be even"));
}

TEST_CASE("gemm_bf16: gfx950, 32x64 tiles (one wave row of 2 waves) with split-K 3 adding bf16 pairs: M under a tile, tails", "[gemm]") {
  if (hipasm::test::test_arch() != "gfx950") return;
  const gemm_bf16_kernel_ref k{"gemm_32x64_pk", gemm_bf16_config{.bm = 32, .bn = 64, .bk = 64, .wm = 1, .wn = 2, .out_bf16 = true, .split_k = 3, .bf16_atomics = true}};
  run(k, nullptr, 16, 128, 64 * 9);      // M = 16: half the tile's rows past M
  run(k, nullptr, 33, 70, 64 * 7 + 6);   // M, N (even) and K tails
  run(k, nullptr, 1, 2, 8);              // one row, one K tile: two parts' ranges empty
}

TEST_CASE("gemm_bf16: split-K (3 workgroups along K, f32 atomic adds), tile counts not a multiple of 3", "[gemm]") {
  run(kSplit, &kOdd, 64, 64, 32 * 3);
  run(kSplit, &kOdd, 100, 70, 32 * 7 + 6);
  run(kSplit, &kOdd, 10, 20, 40);  // two tiles: the third workgroup's range is empty
}

TEST_CASE("gemm_bf16: K not a multiple of a chunk (8 elements): the straddling chunk is masked", "[gemm]") {
  run(kF32, &kOdd, 130, 70, 34);
  run(kSmall, &kOdd, 64, 64, 10);
}

TEST_CASE("gemm_bf16: odd K and 1x1x1 through the odd_k variant", "[gemm]") {
  run(kF32, &kOdd, 1, 1, 1);
  run(kF32, &kOdd, 70, 45, 37);
  run(kF32, &kOdd, 65, 64, 99);  // several K tiles; the last element of A and B at an odd offset
}

TEST_CASE("gemm_bf16: bf16 output", "[gemm]") {
  run(kBf16, &kOdd, 130, 129, 40);
}

TEST_CASE("gemm_bf16: an odd K without an odd_k kernel is an error", "[gemm]") {
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> A(d, std::vector<uint16_t>(9, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16(d, *S().m, kF32, A.addr(), A.addr(), A.addr(), 3, 3, 3), rt::error);
}

TEST_CASE("gemm_bf16: B stored K x N (C = A * B), tails in M, N and K, odd K", "[gemm]") {
  run(kNN, &kNNOdd, 128, 128, 64);
  run(kNN, &kNNOdd, 200, 130, 72);   // M, N tails; K not a multiple of the tile
  run(kNN, &kNNOdd, 70, 46, 37);     // odd K: A's element-wise variant, B unchanged
  run(kNN, &kNNOdd, 2, 2, 1);
  run(k256nn, &kNNOdd, 260, 300, 64 * 3 + 10);
}

TEST_CASE("gemm_bf16: A stored K x M (a_km), with B K x N and bf16 out, or B N x K and split-K", "[gemm]") {
  run(kTN, nullptr, 64, 64, 64);
  run(kTN, nullptr, 100, 70, 99);  // both operands K-major: an odd K needs no odd_k variant
  run(kTT, nullptr, 130, 66, 64 * 5 + 6);
}

TEST_CASE("gemm_bf16: a K-major operand with an odd row length is an error", "[gemm]") {
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> A(d, std::vector<uint16_t>(64, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16(d, *S().m, kNN, A.addr(), A.addr(), A.addr(), 4, 3, 4), rt::error);
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16(d, *S().m, kTN, A.addr(), A.addr(), A.addr(), 3, 4, 4), rt::error);
}

TEST_CASE("gemm_bf16: split-K with bf16 output (f32 workspace, then the rounding kernel)", "[gemm]") {
  run(kSplitBf16, nullptr, 64, 64, 32 * 3);
  run(kSplitBf16, nullptr, 33, 45, 32 * 7 + 6);  // M x N odd: the rounding pass's last pair is half past C
  run(kSplitBf16, nullptr, 10, 20, 40);          // the third workgroup's K range is empty
}

TEST_CASE("gemm_bf16: an odd_k kernel of another output type or layout is an error", "[gemm]") {
  // (before: the f32 odd_k kernel ran for a bf16-out launch and wrote 4-byte elements into C)
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> A(d, std::vector<uint16_t>(64, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16(d, *S().m, kBf16, A.addr(), A.addr(), A.addr(), 3, 3, 3, &kOdd), rt::error);
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16(d, *S().m, kNN, A.addr(), A.addr(), A.addr(), 4, 4, 3, &kOdd), rt::error);
}

TEST_CASE("gemm_bf16: balanced rows: whole rounds of big tiles, the rows left in smaller tiles", "[gemm]") {
  using hipasm::kernels::gemm_bf16_balanced_rows;
  const gemm_bf16_config big = k256s.config, rest = k128x256s.config;
  // 8192^2 on 304 CUs: 1024 big tiles are 4 rounds (the last 112 of 304 CUs busy); 28 tile rows
  // (896 tiles) are 3 rounds and the 4 rows left 256 tiles of 128x256, one round of half a big tile
  CHECK(gemm_bf16_balanced_rows(big, rest, 8192, 8192, 304) == 28 * 256);
  // 4096^2: 256 big tiles fill less than a round: no split
  CHECK(gemm_bf16_balanced_rows(big, rest, 4096, 4096, 304) == 4096);
  // 6 tiles on 2 CUs (3 rounds): 4 in 2 rounds, the 88 rows left one round of 2 smaller tiles
  CHECK(gemm_bf16_balanced_rows(big, rest, 600, 300, 2) == 512);
  // the same grid on 6 CUs: one round, no split
  CHECK(gemm_bf16_balanced_rows(big, rest, 600, 300, 6) == 600);
}

TEST_CASE("gemm_bf16: balanced rows launch, f32 and bf16 out, tails in M, N and K", "[gemm]") {
  run(k256s, &kOdd, 600, 300, 64 * 2 + 10, &k128x256s, 2);  // rows 0..511 256x256, 512..599 128x256 (an M tail)
  run(k256s, &kOdd, 600, 300, 37, &k128x256s, 2);           // odd K: the odd_k kernel alone
  run(k256sBf16, &kBf16Odd, 520, 260, 64 + 6, &k128x256sBf16, 1);  // 6 big tiles on 1 CU: rows 0..511 in 4, the 8 left in 2 small tiles
}

TEST_CASE("gemm_bf16: balanced rows launch: a K x M A or different output types are errors", "[gemm]") {
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> A(d, std::vector<uint16_t>(64, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16_balanced(d, *S().m, k256s, k128x256sBf16, A.addr(), A.addr(), A.addr(), 4, 4, 4, 2),
                  rt::error);
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_bf16_balanced(d, *S().m, kTN, kTN, A.addr(), A.addr(), A.addr(), 4, 4, 4, 2), rt::error);
}
