// HIPASM_TEST_KERNELS: gemm_quant.hip gemm_quant_split.hip
// The quantized GEMMs (include/hipasm/kernels/gemm_quant.hpp) in hipasm-sim against plain C++:
// fp8 decoded here from the target's format's definition (gfx942 e4m3fnuz, gfx950 OCP e4m3fn:
// tests/common/narrow_float_ref.hpp), int8 exactly;
// products summed in double, scaled per tensor, per token or per 128x128 block, rounded to
// bf16. Full tiles, M/N/K tails, K below a tile, K not a multiple of 4, the extreme fp8 and
// int8 values, negative scales, results past bf16's range (infinities) and NaN inputs; split K
// into 2 to 4 ranges (some empty), each scale type. The checker must report nothing, and stores
// past C must be dropped.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/gemm_quant_launch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gemm_quant_configs.hpp"

namespace rt = hipasm::rt;
using hipasm::kernels::gemm_quant_config;
using hipasm::kernels::gemm_quant_kernel_ref;
using hipasm::kernels::quant_scale;
using hipasm::kernels::quant_type;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("gemm_quant");
  return s;
}
rt::module& split_module() {
  static std::unique_ptr<rt::module> m = S().load("gemm_quant_split");
  return *m;
}

// fp8 in the target's format (gfx942 e4m3fnuz, gfx950 OCP e4m3fn), narrow_float_ref.hpp
const hipasm::test::minifloat& fp8_format() {
  static const hipasm::test::minifloat f = hipasm::test::f8_formats_of(hipasm::test::test_arch()).fp8;
  return f;
}
double fp8_value(uint8_t b) { return hipasm::test::decode(fp8_format(), b); }
// the codes of +-the largest value and of NaN
uint8_t fp8_max(bool neg = false) { return uint8_t(hipasm::test::encode(fp8_format(), neg ? -1e30 : 1e30, true)); }
uint8_t fp8_nan() { return uint8_t(fp8_format().nan_code(false)); }
double elem_value(quant_type t, uint8_t b) { return t == quant_type::fp8 ? fp8_value(b) : double(int8_t(b)); }

float f32_of_bf16(uint16_t h) {
  uint32_t u = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct problem {
  uint32_t M, N, K;
  std::vector<uint8_t> a, b;
  std::vector<float> sa, sb;
};

// Random data: any fp8 code but NaN (the whole range, subnormals included) or any int8, and
// scales of either sign in [1/4, 4].
problem random_problem(const gemm_quant_config& c, uint32_t M, uint32_t N, uint32_t K) {
  problem p{M, N, K, {}, {}, {}, {}};
  std::mt19937 rng(M * 7919u + N * 104729u + K * 31u + uint32_t(c.scale));
  std::uniform_int_distribution<int> byte(0, 255);
  auto draw = [&] {
    uint8_t x;
    do x = uint8_t(byte(rng));
    while (c.type == quant_type::fp8 && std::isnan(fp8_value(x)));
    return x;
  };
  p.a.resize(size_t(M) * K);
  p.b.resize(size_t(N) * K);
  for (auto& x : p.a) x = draw();
  for (auto& x : p.b) x = draw();
  std::uniform_real_distribution<float> mag(-2.0f, 2.0f);
  std::bernoulli_distribution neg(0.3);
  auto scale = [&] { return (neg(rng) ? -1.0f : 1.0f) * std::exp2(mag(rng)); };
  p.sa.resize(hipasm::kernels::gemm_quant_sa_count(c, M, K));
  p.sb.resize(hipasm::kernels::gemm_quant_sb_count(c, N, K));
  for (auto& x : p.sa) x = scale();
  for (auto& x : p.sb) x = scale();
  return p;
}

// A split_k kernel's module (gemm_quant_split.hip) and split count (0: the launch's pick).
struct split_run {
  rt::module* mod = nullptr;
  uint32_t splits = 0;
};

// launch_gemm_quant_balanced: `k` the big tiles, `rest` the rows left, balanced over `cus` CUs.
struct balanced_run {
  const gemm_quant_kernel_ref* rest = nullptr;
  uint32_t cus = 0;
};

// Runs `k` (or `any_k` for a K not a multiple of 4) and compares with the reference:
// |got - ref| <= K * 2^-22 * sum|a*b*scales| (f32 accumulation) + 2^-8 |ref| (bf16 output)
// (+ splits * 2^-22 * sum|a*b*scales| for int8 split K: each split's sum rounded to f32 and
// scaled, the splits added in f32); a reference past bf16's largest finite value must come
// out as that sign's infinity, a NaN reference as NaN.
void run(const gemm_quant_kernel_ref& k, const gemm_quant_kernel_ref* any_k, const problem& p, split_run sp = {},
         balanced_run br = {}) {
  const gemm_quant_config& c = k.config;
  const uint32_t M = p.M, N = p.N, K = p.K;
  rt::device& d = *S().dev;
  const uint32_t splits = !c.split_k ? 1
                          : sp.splits ? sp.splits
                                      : hipasm::kernels::gemm_quant_splits(c, M, N, K, d.compute_units());
  INFO(k.name << " M=" << M << " N=" << N << " K=" << K << " splits=" << splits);
  const size_t cn = size_t(M) * N + 1;  // one guard element past C
  rt::buffer<uint8_t> A(d, p.a), B(d, p.b);
  rt::buffer<float> SA(d, p.sa), SB(d, p.sb);
  rt::buffer<uint16_t> Cb(d, std::vector<uint16_t>(cn, 0x7fc1u));
  auto rep = br.rest ? hipasm::kernels::launch_gemm_quant_balanced(d, *S().m, k, *br.rest, Cb.addr(), A.addr(), B.addr(),
                                                                   SA.addr(), SB.addr(), M, N, K, br.cus)
                     : hipasm::kernels::launch_gemm_quant(d, sp.mod ? *sp.mod : *S().m, k, Cb.addr(), A.addr(), B.addr(),
                                                          SA.addr(), SB.addr(), M, N, K, any_k, nullptr, sp.splits);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const auto h = Cb.download();
  CHECK(h[cn - 1] == 0x7fc1u);
  const uint32_t kblocks = (K + 127) / 128;
  double value[256];  // elem_value of every code (decoding in the loop below was most of the test's time)
  for (unsigned b = 0; b < 256; ++b) value[b] = elem_value(c.type, uint8_t(b));
  const double bf16_max = std::ldexp(255.0 / 128, 127), bf16_overflow = std::ldexp(511.0 / 256, 127);
  int bad = 0;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double ref = 0, mag = 0;
      for (uint32_t kb = 0; kb < kblocks; ++kb) {
        double part = 0, part_mag = 0;
        for (uint32_t kk = kb * 128; kk < K && kk < kb * 128 + 128; ++kk) {
          const double x = value[p.a[size_t(m) * K + kk]] * value[p.b[size_t(n) * K + kk]];
          part += x;
          part_mag += std::fabs(x);
        }
        double s = 1;
        if (c.scale == quant_scale::block128) s = double(p.sa[size_t(kb) * M + m]) * p.sb[size_t(n / 128) * kblocks + kb];
        ref += part * s;
        mag += part_mag * std::fabs(s);
      }
      double s = 1;
      if (c.scale == quant_scale::per_token) s = double(p.sa[m]) * p.sb[n];
      if (c.scale == quant_scale::per_tensor) s = double(p.sa[0]) * p.sb[0];
      ref *= s;
      mag *= std::fabs(s);
      const float g = f32_of_bf16(h[size_t(m) * N + n]);
      bool ok;
      if (std::isnan(ref)) ok = std::isnan(g);
      else if (std::fabs(ref) >= bf16_overflow) ok = std::isinf(g) && (g > 0) == (ref > 0);
      else if (std::fabs(ref) > bf16_max) ok = std::isinf(g) || std::fabs(g) == float(bf16_max);  // rounding boundary
      else ok = std::fabs(g - ref) <= (c.type == quant_type::fp8 ? K * std::ldexp(mag, -22) : 0.0) +
                                           (splits > 1 ? splits * std::ldexp(mag, -22) : 0.0) +
                                           std::ldexp(std::fabs(ref), -8) + std::ldexp(mag, -40) + 1e-38;
      if (!ok && ++bad <= 5) FAIL_CHECK("C[" << m << "][" << n << "] = " << g << ", expected " << ref);
    }
  CHECK(bad == 0);
}

void run_random(const gemm_quant_kernel_ref& k, const gemm_quant_kernel_ref* any_k, uint32_t M, uint32_t N, uint32_t K,
                split_run sp = {}, balanced_run br = {}) {
  run(k, any_k, random_problem(k.config, M, N, K), sp, br);
}

const gemm_quant_kernel_ref kFp8Tensor{"gq_fp8_tensor", gq_configs::fp8_tensor};
const gemm_quant_kernel_ref kFp8Token{"gq_fp8_token", gq_configs::fp8_token};
const gemm_quant_kernel_ref kFp8Block{"gq_fp8_block", gq_configs::fp8_block};
const gemm_quant_kernel_ref kFp8BlockSmall{"gq_fp8_block_small", gq_configs::fp8_block_small};
const gemm_quant_kernel_ref kFp8BlockBk64{"gq_fp8_block_bk64", gq_configs::fp8_block_bk64};
const gemm_quant_kernel_ref kFp8TokenAnyK{"gq_fp8_token_anyk", gq_configs::fp8_token_anyk};
const gemm_quant_kernel_ref kFp8BlockAnyK{"gq_fp8_block_anyk", gq_configs::fp8_block_anyk};
const gemm_quant_kernel_ref kI8Token{"gq_i8_token", gq_configs::i8_token};
const gemm_quant_kernel_ref kI8TokenS3{"gq_i8_token_s3", gq_configs::i8_token_s3};
const gemm_quant_kernel_ref kI8TensorAnyK{"gq_i8_tensor_anyk", gq_configs::i8_tensor_anyk};
const gemm_quant_kernel_ref kI8TokenA2{"gq_i8_token_a2", gq_configs::i8_token_a2};
const gemm_quant_kernel_ref kFp8BlockA2{"gq_fp8_block_a2", gq_configs::fp8_block_a2};
const gemm_quant_kernel_ref kI8TokenSingle{"gq_i8_token_single", gq_configs::i8_token_single};
const gemm_quant_kernel_ref kFp8BlockSingle{"gq_fp8_block_single", gq_configs::fp8_block_single};
const gemm_quant_kernel_ref kFp8BlockSingle128{"gq_fp8_block_single128", gq_configs::fp8_block_single128};
const gemm_quant_kernel_ref kFp8BlockW64{"gq_fp8_block_w64", gq_configs::fp8_block_w64};
const gemm_quant_kernel_ref kI8TokenW160{"gq_i8_token_w160", gq_configs::i8_token_w160};
const gemm_quant_kernel_ref kFp8BlockW8{"gq_fp8_block_w8", gq_configs::fp8_block_w8};
const gemm_quant_kernel_ref kFp8TokenW8{"gq_fp8_token_w8", gq_configs::fp8_token_w8};
const gemm_quant_kernel_ref kI8TokenW8{"gq_i8_token_w8", gq_configs::i8_token_w8};
const gemm_quant_kernel_ref kI8TokenW8x256{"gq_i8_token_w8_256", gq_configs::i8_token_w8_256};
const gemm_quant_kernel_ref kI8TokenW8N256{"gq_i8_token_w8_n256", gq_configs::i8_token_w8_n256};
const gemm_quant_kernel_ref kFp8BlockSplit64{"gq_fp8_block_split64", gq_configs::fp8_block_split64};
const gemm_quant_kernel_ref kI8TokenSplit{"gq_i8_token_split", gq_configs::i8_token_split};
const gemm_quant_kernel_ref kFp8TensorSplit{"gq_fp8_tensor_split", gq_configs::fp8_tensor_split};
const gemm_quant_kernel_ref kFp8BlockSplit{"gq_fp8_block_split", gq_configs::fp8_block_split};
const gemm_quant_kernel_ref kFp8BlockSplit128{"gq_fp8_block_split128", gq_configs::fp8_block_split128};
const gemm_quant_kernel_ref kI8Token96Agpr{"gq_i8_token_96_agpr", gq_configs::i8_token_96_agpr};
const gemm_quant_kernel_ref kFp8Token256Agpr{"gq_fp8_token_256_agpr", gq_configs::fp8_token_256_agpr};
const gemm_quant_kernel_ref kFp8Tensor256Agpr{"gq_fp8_tensor_256_agpr", gq_configs::fp8_tensor_256_agpr};
const gemm_quant_kernel_ref kFp8Token256Persist{"gq_fp8_token_256_persist", gq_configs::fp8_token_256_persist};
const gemm_quant_kernel_ref kFp8Tensor256Persist{"gq_fp8_tensor_256_persist", gq_configs::fp8_tensor_256_persist};

// The MFMA mnemonics of kernel `name` in the asm listing of code object `stem` (this run's
// target; hipasm_add_code_object writes <co stem>.s beside the .co): a label line "name:" up to
// its .end_amdhsa_kernel.
std::map<std::string, int> mfma_mnemonics(const std::string& stem, const std::string& name) {
  std::string path = hipasm::test::code_object(stem);
  path.replace(path.size() - 3, 3, ".s");
  std::ifstream f(path);
  REQUIRE(f.good());
  std::map<std::string, int> n;
  std::string line;
  bool in = false;
  while (std::getline(f, line)) {
    if (line.rfind(name + ":", 0) == 0) in = true;
    else if (in && line.find(".end_amdhsa_kernel") != std::string::npos) break;
    else if (in) {
      std::istringstream w(line);
      std::string m;
      if (w >> m && m.rfind("v_mfma_", 0) == 0) ++n[m];
    }
  }
  return n;
}

}  // namespace

TEST_CASE("gemm_quant fp8: per-tensor scales, full tiles and tails", "[gemm_quant]") {
  run_random(kFp8Tensor, nullptr, 128, 128, 256);
  run_random(kFp8Tensor, nullptr, 200, 130, 264);  // M, N tails; K: 3 tiles, the last 8 columns
}

TEST_CASE("gemm_quant fp8: per-token scales, tails, K below a tile, any K", "[gemm_quant]") {
  run_random(kFp8Token, &kFp8TokenAnyK, 150, 100, 200);
  run_random(kFp8Token, &kFp8TokenAnyK, 1, 1, 4);
  run_random(kFp8Token, &kFp8TokenAnyK, 70, 45, 37);  // any_k
  run_random(kFp8Token, &kFp8TokenAnyK, 3, 2, 1);
}

TEST_CASE("gemm_quant fp8: 128x128 block scales", "[gemm_quant]") {
  run_random(kFp8Block, nullptr, 130, 260, 392);  // 3 N blocks, 4 K blocks (the last 8 columns)
  run_random(kFp8BlockSmall, nullptr, 100, 200, 520);  // 5 K tiles on 3 stages; 64-column tiles
  run_random(kFp8BlockBk64, nullptr, 70, 300, 392);  // bk 64: 7 K tiles, 4 scale blocks
  run_random(kFp8Block, &kFp8BlockAnyK, 33, 150, 130);  // any_k (bk 64)
}

TEST_CASE("gemm_quant int8: per-token and per-tensor scales", "[gemm_quant]") {
  run_random(kI8Token, nullptr, 128, 128, 128);
  run_random(kI8Token, nullptr, 200, 300, 260);
  run_random(kI8TokenS3, nullptr, 150, 200, 392);  // 3 stages, 7 K tiles
  run_random(kI8TensorAnyK, &kI8TensorAnyK, 50, 70, 7);
  run_random(kI8TensorAnyK, &kI8TensorAnyK, 1, 1, 1);
}

// The VGPR copies start each workgroup's K walk at its tile column's 128-byte line (column index
// mod 16, mod the lines of K) and wrap around: with several columns and K of several lines the
// walks start at different lines and the K tail (a partial 16-byte chunk, a partial scale
// block) sits in the middle of most walks; two tiles in flight.
TEST_CASE("gemm_quant: VGPR copies two tiles ahead, K walks starting on each workgroup's line", "[gemm_quant]") {
  run_random(kI8TokenA2, nullptr, 130, 200, 644);  // 12 workgroups, 6 lines (the last 4 bytes)
  run_random(kI8TokenA2, nullptr, 64, 64, 1280);   // 10 lines, one workgroup
  run_random(kI8TokenA2, nullptr, 5, 3, 4);
  run_random(kFp8BlockA2, nullptr, 100, 260, 520);  // 10 workgroups, 5 scale blocks (the last 8 columns)
  run_random(kFp8BlockA2, nullptr, 200, 70, 1024);  // 8 scale blocks: an even walk
  run_random(kFp8Block, nullptr, 70, 600, 904);     // bk 64 (two tiles a block), 10 workgroups, 8 blocks
}

TEST_CASE("gemm_quant: one LDS buffer (one and two tiles ahead)", "[gemm_quant]") {
  run_random(kI8TokenSingle, nullptr, 130, 200, 644);
  run_random(kI8TokenSingle, nullptr, 7, 9, 12);
  run_random(kFp8BlockSingle, nullptr, 100, 260, 520);   // bk 64: two tiles a scale block
  run_random(kFp8BlockSingle128, nullptr, 100, 130, 904);  // bk 128: one tile a block, 8 blocks
  run_random(kFp8BlockSingle128, nullptr, 64, 64, 128);
}

// 128x160 tiles: 4 waves of 32x160 rows, a column tile that is not a power of two (N tails
// inside its fifth 32-column block), 18 staging loads a lane (two tiles ahead), arguments preloaded.
TEST_CASE("gemm_quant int8: 128x160 tiles, two tiles ahead, one LDS buffer", "[gemm_quant]") {
  run_random(kI8TokenW160, nullptr, 200, 330, 644);  // 2 x 3 tiles (the last 10 columns), 6 lines
  run_random(kI8TokenW160, nullptr, 128, 160, 1280);  // one full tile, 10 K tiles
  run_random(kI8TokenW160, nullptr, 3, 140, 20);
}

// 8 waves and one LDS buffer: each wave waits for the next tile's loads and masks its column
// tail among the MFMAs before the first barrier, then stores first after it (the masks must
// still zero the columns past K: a K tail inside a chunk); block and per-token scales, M and N
// tails, odd and even tile counts, one and two tiles ahead.
TEST_CASE("gemm_quant fp8: 8 waves and one LDS buffer (the next tile's wait before the first barrier)", "[gemm_quant]") {
  run_random(kFp8BlockW8, nullptr, 300, 200, 904);  // 2 x 2 tiles (M, N tails), 8 blocks (the last 8 columns)
  run_random(kFp8BlockW8, nullptr, 256, 128, 644);  // one full tile, 6 blocks (the last 4 bytes)
  run_random(kFp8BlockW8, nullptr, 20, 70, 520);    // 5 blocks (odd: the loop's last step on a zero tile)
  run_random(kFp8TokenW8, nullptr, 200, 100, 900);  // 2 x 2 tiles, 8 K tiles (the last 4 columns), two ahead
  run_random(kFp8TokenW8, nullptr, 130, 64, 520);   // 5 K tiles (odd; the last 8 columns)
  run_random(kFp8TokenW8, nullptr, 5, 3, 4);
}

// int8, 8 waves and one LDS buffer: half of the second-to-last slice's MFMAs run after the first
// barrier (its fragments held until the next tile's first reads); 256x256 loads the per-token
// scales in the epilogue. M, N and K tails (a K tail inside a 16-byte chunk: B's masks, made once
// for K % 128), odd and even tile counts, one K tile; an odd N (the epilogue's column pairs
// stored as two 16-bit halves, the one at column N - 1 alone).
TEST_CASE("gemm_quant int8: 8 waves and one LDS buffer, 256x128, 128x256 and 256x256 tiles", "[gemm_quant]") {
  run_random(kI8TokenW8, nullptr, 300, 200, 904);    // 2 x 2 tiles (M, N tails), 8 K tiles (the last 8 columns)
  run_random(kI8TokenW8, nullptr, 256, 128, 644);    // one full tile, 6 K tiles (the last 4 bytes)
  run_random(kI8TokenW8, nullptr, 20, 70, 100);      // K below a tile
  run_random(kI8TokenW8N256, nullptr, 200, 300, 648);  // 2 x 2 tiles (M, N tails), 6 K tiles (the last 8 columns)
  run_random(kI8TokenW8x256, nullptr, 270, 300, 520);  // 2 x 2 tiles, 5 K tiles (odd; the last 8 columns)
  run_random(kI8TokenW8x256, nullptr, 256, 256, 256);  // one full tile, 2 K tiles
  run_random(kI8TokenW8, nullptr, 300, 201, 520);      // odd N
  run_random(kI8TokenW8x256, nullptr, 100, 299, 392);  // odd N past a 64-column group's first half
}

// launch_gemm_quant_balanced: the rows of whole rounds of 256x256 tiles, the rows left in 128x256
// tiles (a second dispatch on A's, C's and the per-token scales' rows from the split on). Over 4
// CUs, 640 x 300 is 3 x 2 big tiles (two rounds, the second part-filled): 512 rows in big tiles
// (one round), 128 in two 128x256 tiles (one round of half the area).
TEST_CASE("gemm_quant int8: C's rows balanced between 256x256 and 128x256 tiles", "[gemm_quant]") {
  using hipasm::kernels::detail::gemm_balanced_rows;
  CHECK(gemm_balanced_rows(256, 256, 128, 256, 640, 300, 4) == 512);
  CHECK(gemm_balanced_rows(256, 256, 128, 256, 8192, 8192, 304) == 28 * 256);
  CHECK(gemm_balanced_rows(256, 256, 128, 256, 4096, 4096, 304) == 4096);  // one round: no split
  run_random(kI8TokenW8x256, nullptr, 640, 300, 520, {}, {&kI8TokenW8N256, 4});
  run_random(kI8TokenW8x256, nullptr, 600, 300, 264, {}, {&kI8TokenW8N256, 4});  // the rest's rows with an M tail
  run_random(kI8TokenW8x256, nullptr, 640, 300, 520, {}, {&kI8TokenW8N256, 0});  // no CU count: one dispatch
  rt::device& d = *S().dev;
  rt::buffer<uint8_t> buf(d, 1 << 16);
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_quant_balanced(d, *S().m, kI8TokenW8x256, kFp8TokenW8, buf.addr(), buf.addr(),
                                                              buf.addr(), buf.addr(), buf.addr(), 64, 64, 64, 4),
                  rt::error);  // int8 with fp8
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_quant_balanced(d, *S().m, kFp8BlockW8, kFp8BlockW8, buf.addr(), buf.addr(),
                                                              buf.addr(), buf.addr(), buf.addr(), 64, 64, 128, 4),
                  rt::error);  // block128
}

// int8 with AGPR accumulators and one LDS buffer, 4 waves (one a SIMD): the stores and loads among
// the MFMAs past barrier 1, the per-token scales through LDS (row blocks read one ahead)
TEST_CASE("gemm_quant int8: 96x256 tiles, accumulators in AGPRs, one LDS buffer", "[gemm_quant]") {
  run_random(kI8Token96Agpr, nullptr, 150, 270, 644);  // 2 x 2 tiles (M, N tails), 6 K tiles (the last 4 bytes)
  run_random(kI8Token96Agpr, nullptr, 96, 256, 256);   // one full tile, 2 K tiles
  run_random(kI8Token96Agpr, nullptr, 192, 512, 384);  // 2 x 2 full tiles, 3 K tiles (an odd count)
}

// gfx950: fp8 on the double-K MFMA (v_mfma_f32_32x32x64_f8f6f4, one a 32x32 block and 64 k)
// wherever the configuration's slices allow it (bk a multiple of 64; one LDS buffer: two slices;
// block128: the VGPR budget with fragments twice as wide), else the 32x32x16 fp8 MFMA; int8 on
// v_mfma_i32_32x32x32_i8. The listing of each kernel names which it runs.
TEST_CASE("gemm_quant: gfx950 runs the double-K MFMAs where the configuration takes them", "[gemm_quant]") {
  if (hipasm::test::test_arch() != "gfx950") return;
  const std::string dk = "v_mfma_f32_32x32x64_f8f6f4", old = "v_mfma_f32_32x32x16_fp8_fp8";
  for (const char* k : {"gq_fp8_tensor", "gq_fp8_token", "gq_fp8_block_small", "gq_fp8_block_bk64", "gq_fp8_token_anyk",
                        "gq_fp8_block_anyk", "gq_fp8_token_w8", "gq_fp8_token_256_agpr", "gq_fp8_tensor_256_agpr"}) {
    INFO(k);
    const auto n = mfma_mnemonics("gemm_quant", k);
    CHECK(n.count(dk) == 1);
    CHECK(n.size() == 1);
  }
  for (const char* k : {"gq_fp8_token_256_persist", "gq_fp8_tensor_256_persist"}) {
    INFO(k);  // (the persistent epilogue zeroes the accumulators by bf16 MFMAs of zeros)
    const auto n = mfma_mnemonics("gemm_quant", k);
    CHECK(n.count(dk) == 1);
    CHECK(n.count("v_mfma_f32_32x32x8_bf16") == 1);
    CHECK(n.size() == 2);
  }
  for (const char* k : {"gq_fp8_block_split", "gq_fp8_block_split128", "gq_fp8_block_split64"}) {
    INFO(k);
    const auto n = mfma_mnemonics("gemm_quant_split", k);
    CHECK(n.count(dk) == 1);
    CHECK(n.size() == 1);
  }
  // one LDS buffer with bk 64 (one slice), block128 over the VGPR budget: the 32x32x16 MFMA
  for (const char* k : {"gq_fp8_block_single", "gq_fp8_block_w64", "gq_fp8_block_w8"}) {
    INFO(k);
    const auto n = mfma_mnemonics("gemm_quant", k);
    CHECK(n.count(old) == 1);
    CHECK(n.size() == 1);
  }
  // int8: v_mfma_i32_32x32x32_i8 (32-byte slices: one LDS buffer needs bk >= 64)
  for (const char* k : {"gq_i8_token", "gq_i8_token_s3", "gq_i8_tensor_anyk", "gq_i8_token_single", "gq_i8_token_w8"}) {
    INFO(k);
    const auto n = mfma_mnemonics("gemm_quant", k);
    CHECK(n.count("v_mfma_i32_32x32x32_i8") == 1);
    CHECK(n.size() == 1);
  }
}

// gfx950: 256x256 tiles of 4 waves (accumulators in AGPRs) with two LDS buffers (128 KiB), the
// next tile's slice 0 read among the last slice's MFMAs; M, N and K tails (a K tail inside a
// 16-byte chunk), odd and even tile counts, K below a tile.
TEST_CASE("gemm_quant fp8: gfx950, 256x256 tiles, accumulators in AGPRs, two LDS buffers of 128 KiB", "[gemm_quant]") {
  if (hipasm::test::test_arch() != "gfx950") return;  // (64 KiB of LDS: the kernels are gfx950's only)
  run_random(kFp8Token256Agpr, nullptr, 300, 270, 644);  // 2 x 2 tiles (M, N tails), 6 K tiles (the last 4 bytes)
  run_random(kFp8Token256Agpr, nullptr, 256, 256, 256);  // one full tile, 2 K tiles
  run_random(kFp8Tensor256Agpr, nullptr, 260, 300, 392);  // 4 K tiles (the last 8 columns)
  run_random(kFp8Tensor256Agpr, nullptr, 5, 3, 40);       // K below a tile
}

// gfx950: the same 256x256 tiles with persistent workgroups (2: each walks several tiles, the
// next tile's first K tiles loading under the current one's last steps): uneven tile counts a
// workgroup, M, N and K tails, odd K tile counts (a zero tile ends each tile's walk), one K tile
// (the walk padded to 4), one C tile (one workgroup).
TEST_CASE("gemm_quant fp8: gfx950, 256x256 tiles, persistent workgroups", "[gemm_quant]") {
  constexpr gemm_quant_config bad{.scale = hipasm::kernels::quant_scale::block128, .groups = 8};
  CHECK(hipasm::kernels::detail::gemm_quant_config_error(bad) != nullptr);
  if (hipasm::test::test_arch() != "gfx950") return;  // (the double-K MFMA's step and 128 KiB of LDS)
  run_random(kFp8Tensor256Persist, nullptr, 600, 530, 648);  // 3 x 3 tiles (5 and 4 a workgroup), 6 K tiles (the last 8 columns)
  run_random(kFp8Tensor256Persist, nullptr, 300, 600, 520);  // 2 x 3 tiles, 5 K tiles: a zero tile each
  run_random(kFp8Tensor256Persist, nullptr, 520, 260, 100);  // 3 x 2 tiles, one K tile
  run_random(kFp8Token256Persist, nullptr, 520, 300, 644);   // 3 x 2 tiles, 6 K tiles (the last 4 bytes)
  run_random(kFp8Token256Persist, nullptr, 300, 270, 392);   // 2 x 2 tiles, 4 K tiles (the last 8 columns)
  run_random(kFp8Token256Persist, nullptr, 5, 3, 40);        // one tile, K below a tile
}

// Every element one value: the largest and smallest magnitudes of the format.
problem filled(const gemm_quant_config& c, uint32_t M, uint32_t N, uint32_t K, uint8_t a, uint8_t b, float sa, float sb) {
  problem p{M, N, K, std::vector<uint8_t>(size_t(M) * K, a), std::vector<uint8_t>(size_t(N) * K, b), {}, {}};
  p.sa.assign(hipasm::kernels::gemm_quant_sa_count(c, M, K), sa);
  p.sb.assign(hipasm::kernels::gemm_quant_sb_count(c, N, K), sb);
  return p;
}

// block128 with one tile a scale block: block k's scaled adds run in step k + 1 (two sets of
// products, or one when two do not fit: 64x64 a wave) with scales loaded a block ahead; the
// accumulators hold C^T and the epilogue turns them around through LDS.
TEST_CASE("gemm_quant fp8: block scales added a block late, one or two product sets", "[gemm_quant]") {
  CHECK(hipasm::kernels::detail::gemm_quant_part_sets(kFp8BlockW64.config) == 1);
  CHECK(hipasm::kernels::detail::gemm_quant_part_sets(kFp8BlockA2.config) == 2);
  run_random(kFp8BlockW64, nullptr, 200, 260, 904);  // 8 blocks (the last 8 columns), M and N tails
  run_random(kFp8BlockW64, nullptr, 130, 140, 520);  // 5 blocks: the loop's last step on a zero tile
  run_random(kFp8BlockW64, nullptr, 64, 64, 128);    // one block
  run(kFp8BlockW64, nullptr, filled(kFp8BlockW64.config, 70, 90, 384, fp8_max(), fp8_max(true), 1e34f, 1e4f));  // -inf
}

TEST_CASE("gemm_quant fp8: extreme values, negative scales, overflow to infinity, NaN", "[gemm_quant]") {
  const auto& c = kFp8Block.config;
  run(kFp8Block, nullptr, filled(c, 64, 64, 256, fp8_max(), fp8_max(true), 1.5f, -2.0f));  // max * -max
  run(kFp8Block, nullptr, filled(c, 64, 64, 256, 0x01, 0x81, -1.0f, 0.5f));  // the smallest subnormals, +-
  run(kFp8Token, nullptr, filled(kFp8Token.config, 40, 40, 64, 0x08, fp8_max(), 1.0f, 1.0f));  // smallest normal * max
  // max * max * 256 * 1e34 * 1e4: past bf16's range (+inf), and negative (-inf)
  run(kFp8Tensor, nullptr, filled(kFp8Tensor.config, 50, 60, 256, fp8_max(), fp8_max(), 1e34f, 1e4f));
  run(kFp8Block, nullptr, filled(c, 50, 60, 256, fp8_max(), fp8_max(), -1e34f, 1e4f));
  // a NaN in row 3 of A and column 5 of B: that row and that column are NaN
  problem p = random_problem(c, 40, 40, 256);
  p.a[3 * 256 + 17] = fp8_nan();
  p.b[5 * 256 + 200] = fp8_nan();
  run(kFp8Block, nullptr, p);
}

TEST_CASE("gemm_quant int8: extreme values (sums past 2^24), negative scales", "[gemm_quant]") {
  const auto& c = kI8Token.config;
  run(kI8Token, nullptr, filled(c, 64, 64, 2048, 0x80, 0x80, 1.0f, -0.5f));  // -128 * -128 * 2048 = 2^25
  run(kI8Token, nullptr, filled(c, 64, 64, 1024, 0x7f, 0x80, -3.0f, 1e30f));  // 127 * -128 * 1024 * -3e30
}

TEST_CASE("gemm_quant: a K not a multiple of 4 without an any_k kernel is an error", "[gemm_quant]") {
  rt::device& d = *S().dev;
  rt::buffer<uint8_t> A(d, std::vector<uint8_t>(64, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_quant(d, *S().m, kFp8Token, A.addr(), A.addr(), A.addr(), A.addr(), A.addr(), 3, 3, 6),
                  rt::error);
}

// Split K: workgroup z of `splits` takes ceil(units / splits) K units (tiles; block128: scale
// blocks of 1 or 2 tiles) and writes its f32 sums into workspace slice z, which the rounding
// pass adds up; a workgroup past the last unit writes zeros. Each case's K ends inside a tile.
TEST_CASE("gemm_quant: split K, each scale type, K/M/N tails, empty ranges", "[gemm_quant]") {
  rt::module& m = split_module();
  for (uint32_t s : {2u, 4u}) {
    run_random(kI8TokenSplit, nullptr, 70, 100, 644, {&m, s});     // 6 tiles: 3+3, 2+2+2+0
    run_random(kFp8TensorSplit, nullptr, 130, 70, 392, {&m, s});   // bk 64, one LDS buffer: 7 tiles
    run_random(kFp8BlockSplit, nullptr, 100, 260, 520, {&m, s});   // 5 blocks of 2 tiles: 3+2, 2+2+1+0
    run_random(kFp8BlockSplit128, nullptr, 40, 300, 904, {&m, s});  // 8 blocks, the last 8 columns
  }
  run_random(kI8TokenSplit, nullptr, 33, 65, 260, {&m, 3});  // 3 tiles, one each
  run_random(kI8TokenSplit, nullptr, 5, 7, 100, {&m, 4});    // 1 tile: three empty ranges
  run_random(kFp8TensorSplit, nullptr, 33, 20, 200, {&m, 1});  // one split: its own slice, rounded
  run_random(kFp8BlockSplit64, nullptr, 40, 150, 904, {&m, 3});  // 32x64 tiles (two waves): 2 x 3, 8 blocks
  run_random(kFp8BlockSplit64, nullptr, 32, 64, 2100, {&m, 0});  // the pick: 17 blocks, two splits
  // the launch's pick (fills the GPU: several splits for these few tiles)
  CHECK(hipasm::kernels::gemm_quant_splits(kFp8BlockSplit128.config, 40, 300, 2100) > 1);
  run_random(kFp8BlockSplit128, nullptr, 40, 300, 2100, {&m, 0});
  run_random(kI8TokenSplit, nullptr, 64, 64, 4096, {&m, 0});
}

TEST_CASE("gemm_quant: split K with infinities and NaN", "[gemm_quant]") {
  rt::module& m = split_module();
  const auto& c = kFp8BlockSplit128.config;
  run(kFp8BlockSplit128, nullptr, filled(c, 50, 60, 512, fp8_max(), fp8_max(), -1e34f, 1e4f), {&m, 4});  // each split's sum: -inf
  problem p = random_problem(c, 40, 40, 512);
  p.a[3 * 512 + 17] = fp8_nan();
  p.b[5 * 512 + 400] = fp8_nan();
  run(kFp8BlockSplit128, nullptr, p, {&m, 4});
}

// The pick: as many splits as the CUs run one a CU (304 on MI300X, 256 on MI355X), at least 8 K
// units each, or none when fewer than two fit; of those the largest count dividing the units.
TEST_CASE("gemm_quant: the split pick", "[gemm_quant]") {
  const auto& c = kFp8BlockSplit128.config;  // 32 x 128 tiles, 128-column K units
  CHECK(hipasm::kernels::gemm_quant_splits(kFp8BlockA2.config, 32, 128, 8192) == 1);  // not a split_k kernel
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 3072, 7168) == 7);                  // 24 tiles (12 fit), 56 units
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 7168, 7168) == 4);                  // 56 tiles (5 fit): 4 divide 56 units
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 3072, 7168, 144) == 4);             // 24 tiles (6 fit), 56 units: not 6 or 5, 4
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 3072, 6784, 120) == 5);             // 5 fit, 53 units: none divides, 5
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 3072, 2048) == 2);                  // 16 units
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 3072, 1024) == 1);                  // 8 units
  CHECK(hipasm::kernels::gemm_quant_splits(c, 512, 1280, 7168) == 1);                 // 160 tiles
  CHECK(hipasm::kernels::gemm_quant_splits(c, 32, 7168, 7168, 256) == 4);             // MI355X: 56 tiles (4 fit)
  const auto& c2 = kFp8TensorSplit.config;  // 64 x 64 x 64 tiles, 8 KiB of LDS
  CHECK(hipasm::kernels::gemm_quant_splits(c2, 256, 512, 4096) == 8);   // 32 tiles (9 fit), 64 units
  CHECK(hipasm::kernels::gemm_quant_splits(c2, 512, 512, 4096) == 4);   // 64 tiles
  CHECK(hipasm::kernels::gemm_quant_splits(c2, 640, 1280, 4096) == 1);  // 200 tiles: over half the CUs, not split two a CU
  CHECK(hipasm::kernels::gemm_quant_splits(c2, 640, 640, 1024) == 2);   // 100 tiles (3 fit), 16 units
}

// The last workgroup of a tile zeroes its counters: a workspace serves launch after launch.
TEST_CASE("gemm_quant: split K reuses its workspace (counters left zero)", "[gemm_quant]") {
  rt::module& m = split_module();
  rt::device& d = *S().dev;
  const auto& k = kI8TokenSplit;
  const uint32_t M = 100, N = 70, K = 520, splits = 3;
  const uint64_t ws_count = hipasm::kernels::gemm_quant_workspace_count(k.config, M, N, splits);
  rt::buffer<float> ws(d, std::vector<float>(ws_count, 0.0f));
  for (int launch = 0; launch < 2; ++launch) {
    const problem p = random_problem(k.config, M, N, K + 4 * launch);  // (other data each time)
    rt::buffer<uint8_t> A(d, p.a), B(d, p.b);
    rt::buffer<float> SA(d, p.sa), SB(d, p.sb);
    rt::buffer<uint16_t> Cb(d, size_t(M) * N);
    auto rep = hipasm::kernels::launch_gemm_quant(d, m, k, Cb.addr(), A.addr(), B.addr(), SA.addr(), SB.addr(), M, N, p.K,
                                         nullptr, nullptr, splits, ws.addr());
    CHECK(rep.diagnostics.empty());
    const auto h = Cb.download();
    int bad = 0;
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t c = 0; c < N; ++c) {
        double ref = 0, mag = 0;
        for (uint32_t q = 0; q < p.K; ++q) {
          const double x = double(int8_t(p.a[size_t(r) * p.K + q])) * double(int8_t(p.b[size_t(c) * p.K + q]));
          ref += x;
          mag += std::fabs(x);
        }
        const double sc = double(p.sa[r]) * p.sb[c];
        ref *= sc;
        mag *= std::fabs(sc);
        if (std::fabs(f32_of_bf16(h[size_t(r) * N + c]) - ref) > std::ldexp(std::fabs(ref), -8) + splits * std::ldexp(mag, -22))
          ++bad;
      }
    CHECK(bad == 0);
    const auto w = ws.download();
    int counters_set = 0;
    for (uint64_t i = uint64_t(splits) * M * N; i < ws_count; ++i) counters_set += w[i] != 0.0f;
    CHECK(counters_set == 0);
  }
}

TEST_CASE("gemm_quant: split K without a split_k kernel is an error", "[gemm_quant]") {
  rt::device& d = *S().dev;
  rt::buffer<uint8_t> A(d, std::vector<uint8_t>(64, 0));
  CHECK_THROWS_AS(hipasm::kernels::launch_gemm_quant(d, *S().m, kFp8Token, A.addr(), A.addr(), A.addr(), A.addr(), A.addr(), 4, 4,
                                            8, nullptr, nullptr, 2),
                  rt::error);
}
