// HIPASM_TEST_KERNELS: mxfp4_quant.hip
// HIPASM_TEST_ARCHS: gfx950
// mxfp4_quant rows (include/hipasm/kernels/mxfp4_quant.hpp) in hipasm-sim on gfx950 against a C++
// reference written from the OCP MX v1.0 spec (section 6.3: shared_exp = floor(log2(amax)) -
// emax_elem, emax_elem 2 for e2m1, the E8M0 scale's range -127..127; elements V / X rounded to
// nearest even, normal numbers clamped to +-6; formats from tests/common/narrow_float_ref.hpp)
// and from aiter's description of its rounding (aiter/utility/fp4_utils.py dynamic_mxfp4_quant:
// amax's significand rounded to a power of two, up from 1.75, before the log2) and of its RoundUp
// mode (the smallest power of two >= amax / 6), bit for bit:
// every scale byte and every fp4 nibble, bf16 and f32 inputs, the three rules; random blocks over a
// wide range of magnitudes, and edge rows: zeros (and -0), tiny values (bf16 subnormals), huge
// values near bf16's / f32's largest, amaxes on the rounding's boundary, saturation, rounding
// ties, NaN and +-inf (the block's scale E8M0 NaN 0xff), rows that end mid-workgroup. gfx942 has
// no such conversions: tests/core/negative/mxfp4_quant_gfx942.hip. The checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/mxfp4_quant.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "mxfp4_quant_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;
namespace ht = hipasm::test;

namespace {
using ht::bf16;
using ht::from_bf16;
ht::kernel_sim& S() {
  static ht::kernel_sim s("mxfp4_quant");
  return s;
}

// The block's E8M0 code by the OCP spec (section 6.3): NaN (0xff) when an element is NaN or
// infinite (the shared exponent of an infinite or NaN maximum is not a number), else
// shared_exp = floor(log2(max |V_i|)) - emax_elem (2 for e2m1), clamped to the scale's exponent
// range -127..127, biased by 127; amax 0: the smallest scale, code 0.
uint8_t ocp_code(const float* x) {
  double amax = 0;
  for (int i = 0; i < 32; ++i) {
    if (!std::isfinite(x[i])) return 0xff;
    amax = std::max(amax, std::fabs(double(x[i])));
  }
  if (amax == 0) return 0;
  return uint8_t(std::clamp(std::ilogb(amax) - 2, -127, 127) + 127);  // (ilogb: floor(log2), exact)
}
// aiter's rule (fp4_utils.py dynamic_mxfp4_quant, read as a description): amax's significand
// rounded to the nearest power of two with the step up from 1.75 (adding a quarter of the
// mantissa field's range, 0x200000, then dropping the mantissa), then floor(log2) - 2, clamped
// to -127..127, biased by 127; NaN / inf as the spec says.
uint8_t aiter_even_code(const float* x) {
  double amax = 0;
  for (int i = 0; i < 32; ++i) {
    if (!std::isfinite(x[i])) return 0xff;
    amax = std::max(amax, std::fabs(double(x[i])));
  }
  if (amax == 0) return 0;
  int e = std::ilogb(amax);
  if (std::ldexp(amax, -e) >= 1.75) ++e;
  return uint8_t(std::clamp(e - 2, -127, 127) + 127);
}
// aiter's RoundUp (f32_to_mx_e8m0_scale's RoundUp mode in fp4_utils.py, read as a description):
// the smallest power of two >= amax / 6, the quotient an f32; its biased exponent is bumped by one
// when any mantissa bit is set (a subnormal quotient: code 1). NaN / inf as the spec says.
uint8_t aiter_round_up_code(const float* x) {
  float amax = 0;
  for (int i = 0; i < 32; ++i) {
    if (!std::isfinite(x[i])) return 0xff;
    amax = std::max(amax, std::fabs(x[i]));
  }
  const float q = amax / 6.0f;
  if (q == 0) return 0;
  if (q < std::numeric_limits<float>::min()) return 1;
  const int e = std::ilogb(q);
  return uint8_t(e + 127 + (std::ldexp(1.0f, e) != q ? 1 : 0));
}
uint8_t block_code(const float* x, hk::mx_scale_rule rule) {
  return rule == hk::mx_scale_rule::ocp              ? ocp_code(x)
         : rule == hk::mx_scale_rule::aiter_round_up ? aiter_round_up_code(x)
                                                     : aiter_even_code(x);
}
// An element: x / 2^(code - 127) in e2m1, nearest even, saturated; a NaN scale: +-6 by x's sign
// bit (the conversion instruction's result, the spec leaves them unspecified).
uint8_t element(float x, uint8_t code) {
  if (code == 0xff) return std::signbit(x) ? 0xf : 0x7;
  return uint8_t(ht::encode(ht::e2m1, std::ldexp(double(x), 127 - int(code)), true));
}

// rows of random blocks (each block's magnitude 2^[elo, ehi], random signs and zeros), edited by
// `edit(values, d)`; bf16 configs read the bf16 rounding of the values
template <hk::mxfp4_quant_config C>
void run_mx(const char* name, uint32_t rows, int seed, int elo, int ehi,
            const std::function<void(std::vector<float>&, int)>& edit = {}) {
  const int D = C.d;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ue(elo, ehi);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<float> v(size_t(rows) * D);
  for (size_t b = 0; b < v.size() / 32; ++b) {
    const int e = ue(rng);
    for (int i = 0; i < 32; ++i) v[32 * b + i] = float(std::ldexp(u(rng), e));
  }
  if (edit) edit(v, D);
  using In = hk::mxfp4_quant_in<C>;
  std::vector<In> in(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if constexpr (C.f32_in) in[i] = v[i];
    else {
      in[i] = bf16(v[i]);
      v[i] = float(from_bf16(in[i]));  // the reference reads what the kernel reads
    }
  }
  rt::device& d = *S().dev;
  rt::buffer<In> X(d, in);
  rt::buffer<uint8_t> Q(d, std::vector<uint8_t>(v.size() / 2, 0x5a)), Sc(d, std::vector<uint8_t>(v.size() / 32, 0x5a));
  auto rep = hk::launch_mxfp4_quant<C>(d, *S().m, name, {.q = Q.addr(), .scales = Sc.addr(), .in = X.addr(), .rows = rows});
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(name << " checker: " << msg);
  const auto q = Q.download();
  const auto sc = Sc.download();
  int bad = 0;
  for (size_t b = 0; b < v.size() / 32 && bad < 10; ++b) {
    const float* x = &v[32 * b];
    const uint8_t want = block_code(x, C.rule);
    if (sc[b] != want) {
      ++bad;
      FAIL_CHECK(name << " row " << b / (D / 32) << " block " << b % (D / 32) << " scale " << int(sc[b]) << " want "
                      << int(want));
    }
    for (int i = 0; i < 32 && bad < 10; ++i) {
      const uint8_t byte = q[16 * b + i / 2], got = (i % 2) ? byte >> 4 : byte & 0xf;
      const uint8_t e = element(x[i], want);
      if (got != e) {
        ++bad;
        FAIL_CHECK(name << " row " << b / (D / 32) << " block " << b % (D / 32) << " i " << i << " x " << x[i]
                        << " code " << int(want) << " got 0x" << std::hex << int(got) << " want 0x" << int(e));
      }
    }
  }
  CHECK(bad == 0);
}

// Edge blocks: block k of the tensor (k modulo the number of blocks) gets edge values k, the
// other blocks stay random.
void edge_blocks(std::vector<float>& v, int) {
  const size_t nb = v.size() / 32;
  auto blk = [&](size_t k) { return &v[32 * (k % nb)]; };
  float* r;
  r = blk(0);  // zeros, both signs
  for (int i = 0; i < 32; ++i) r[i] = (i % 3) ? 0.0f : -0.0f;
  r = blk(1);  // tiny: bf16 subnormals and 1e-30 (code 0; elements flush to +-0)
  for (int i = 0; i < 32; ++i) r[i] = float((i % 2 ? -1 : 1) * std::ldexp(double(i % 5 + 1), -133 - i % 3));
  r[7] = 1e-30f;
  r = blk(2);  // near bf16's largest (3.39e38): aiter rounds up to 2^128 (code 253), OCP code 252
  for (int i = 0; i < 32; ++i) r[i] = float(std::ldexp(1.0 + (i % 8) / 8.0, 120 + i % 8));
  r[5] = float(from_bf16(0x7f7f));
  r[6] = -float(from_bf16(0x7f7f));
  r = blk(3);  // amax 1.75 * 2^3 exactly: aiter rounds it to 2^4 (code 129: 14 / 4 -> 4), OCP
               // keeps 2^3 (code 128: 14 / 2 = 7 saturates to 6)
  for (int i = 0; i < 32; ++i) r[i] = float((i % 2 ? -1 : 1) * i * 0.4375);
  r[31] = -14.0f;
  r = blk(4);  // amax just below 1.75 * 2^3 (bf16's neighbour 13.9375): both rules 2^3 (code 128)
  for (int i = 0; i < 32; ++i) r[i] = float(i * 0.4);
  r[20] = 13.9375f;
  r = blk(5);  // ties at scale 1 (amax 4.0: code 127): 0.25 -> 0, 0.75 -> 1, 1.25 -> 1, 1.75 -> 2,
               // 2.5 -> 2, 3.5 -> 4, 5 -> 4 (both rules: 4 is a power of two)
  {
    const float ties[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, -0.25f, -0.75f, -2.5f, -3.5f, 4.0f, 0.0f};
    for (int i = 0; i < 32; ++i) r[i] = ties[i % 12];
  }
  r = blk(6);  // NaN
  r[9] = NAN;
  r = blk(7);  // +inf
  r[0] = INFINITY;
  r = blk(8);  // -inf in the last element
  r[31] = -INFINITY;
  r = blk(9);  // one huge entry among small ones: the small ones flush to 0
  for (int i = 0; i < 32; ++i) r[i] = float(i - 16) * 1e-3f;
  r[17] = 3e5f;
  r = blk(10);  // -NaN and -0
  r[0] = -NAN;
  r[1] = -0.0f;
  r = blk(11);  // amax 6 exactly: every rule gives code 127 (RoundUp: 6 / 6 = 1, no bump)
  for (int i = 0; i < 32; ++i) r[i] = float(i % 13) * 0.25f;
  r[12] = -6.0f;
  r = blk(12);  // amax just above 6 (bf16's 6.03125): RoundUp code 128, the others 127
  for (int i = 0; i < 32; ++i) r[i] = float(i % 13) * 0.25f;
  r[3] = 6.03125f;
}
}  // namespace

TEST_CASE("mxfp4_quant of bf16 rows (aiter's rule): random blocks, rows that end mid-workgroup", "[kernels][mxfp4_quant]") {
  run_mx<cfg::mx_bf16_7168>("mx_bf16_7168", 1, 1, -10, 10);
  run_mx<cfg::mx_bf16_7168>("mx_bf16_7168", 3, 2, -130, 127);
  run_mx<cfg::mx_bf16_96_ocp>("mx_bf16_96_ocp", 7, 3, -20, 20);
}
TEST_CASE("mxfp4_quant of f32 rows: both rules, f32's whole range", "[kernels][mxfp4_quant]") {
  run_mx<cfg::mx_f32_160>("mx_f32_160", 9, 4, -149, 127);
  run_mx<cfg::mx_f32_160_ocp>("mx_f32_160_ocp", 9, 4, -149, 127);
}
TEST_CASE("mxfp4_quant edge blocks: zeros, tiny, huge, the rounding's boundary, ties, NaN, +-inf", "[kernels][mxfp4_quant]") {
  run_mx<cfg::mx_bf16_7168>("mx_bf16_7168", 2, 5, -3, 3, edge_blocks);
  run_mx<cfg::mx_bf16_96_ocp>("mx_bf16_96_ocp", 5, 6, -3, 3, edge_blocks);
  run_mx<cfg::mx_f32_160>("mx_f32_160", 3, 7, -3, 3, edge_blocks);
  run_mx<cfg::mx_f32_160_ocp>("mx_f32_160_ocp", 3, 8, -3, 3, edge_blocks);
  // f32 near its largest: aiter's rounding reaches 2^128 (code 253)
  run_mx<cfg::mx_f32_160>("mx_f32_160", 1, 9, -3, 3, [](std::vector<float>& v, int) {
    v[0] = 3.4e38f;
    v[40] = -std::ldexp(1.75f, 127);
    v[70] = std::ldexp(1.5f, 127);
  });
  run_mx<cfg::mx_f32_160_ocp>("mx_f32_160_ocp", 1, 9, -3, 3, [](std::vector<float>& v, int) { v[0] = 3.4e38f; });
}

TEST_CASE("mxfp4_quant with aiter's RoundUp rule: random blocks, the edge blocks", "[kernels][mxfp4_quant]") {
  run_mx<cfg::mx_bf16_224_up>("mx_bf16_224_up", 5, 10, -130, 127);
  run_mx<cfg::mx_f32_160_up>("mx_f32_160_up", 9, 11, -149, 127);
  run_mx<cfg::mx_bf16_224_up>("mx_bf16_224_up", 3, 12, -3, 3, edge_blocks);
  run_mx<cfg::mx_f32_160_up>("mx_f32_160_up", 3, 13, -3, 3, edge_blocks);
  run_mx<cfg::mx_f32_160_up>("mx_f32_160_up", 1, 14, -3, 3, [](std::vector<float>& v, int) { v[0] = 3.4e38f; });
}

TEST_CASE("mxfp4_quant launch: bad arguments are clear errors", "[kernels][mxfp4_quant]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_mxfp4_quant<cfg::mx_bf16_96_ocp>(d, *S().m, "mx_bf16_96_ocp", {.q = 8, .scales = 8, .in = 8, .rows = 0}),
                    Catch::Contains("rows must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_mxfp4_quant<cfg::mx_bf16_96_ocp>(d, *S().m, "mx_bf16_96_ocp", {.q = 8, .scales = 0, .in = 8, .rows = 1}),
                    Catch::Contains("null"));
  CHECK_THROWS_WITH(hk::launch_mxfp4_quant<cfg::mx_bf16_7168>(d, *S().m, "mx_bf16_7168", {.q = 8, .scales = 8, .in = 8, .rows = 1u << 20}),
                    Catch::Contains("below 4 GiB"));
}
