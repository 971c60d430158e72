// HIPASM_TEST_KERNELS: attn_fwd_fp8.hip
// HIPASM_TEST_ARCHS: gfx950
// The fp8 flash attention forward (attn_fwd.hpp, dtype fp8: OCP e4m3fn Q/K/V with per-tensor
// descales, bf16 O) in hipasm-sim on gfx950 against plain C++: softmax attention in double of
// the dequantized inputs (each code decoded from the e4m3fn definition, narrow_float_ref.hpp,
// times its tensor's descale). Causal and not, tails, seqlen_q != seqlen_k, GQA, varlen batches
// with 1-token and empty sequences, large scores, row maxima that grow along the keys, top-left
// masks with soft-capping; the checker must report nothing.
//
// Tolerance: |O - ref| <= 2^-4 max|V| + 2^-8 |ref| per element, |LSE - ref| <= 1e-3 (|ref| + 1).
// The kernel rounds P to e4m3 before the PV product (relative error 2^-4 per term, all terms
// >= 0: at most 2^-4 of sum p |v| <= 2^-4 max|V| after the division by the f32 sum), O to bf16
// (2^-9 |O|); the scores are exact products of the codes summed in f32.
#include <catch2/catch.hpp>

#include "attn_fwd_check.hpp"
#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/attn_fwd_launch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
using hipasm::kernels::attn_dtype;
using hipasm::kernels::attn_fwd_config;
using hipasm::kernels::attn_fwd_kernel_ref;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("attn_fwd_fp8");
  return s;
}

using hipasm::test::from_bf16;

using problem = hipasm::test::attn_fwd_problem;

constexpr double kCodeMax = 400;  // the codes' magnitude the descales map the largest value to (e4m3fn: 448)

uint8_t to_fp8(double x) { return static_cast<uint8_t>(hipasm::test::encode(hipasm::test::e4m3fn, x, true)); }
// (a table of the 256 codes: the reference decodes every element many times)
double from_fp8(uint8_t c) {
  static const std::array<double, 256> t = [] {
    std::array<double, 256> v{};
    for (unsigned b = 0; b < 256; ++b) v[b] = hipasm::test::decode(hipasm::test::e4m3fn, b);
    return v;
  }();
  return t[c];
}

void run(const attn_fwd_kernel_ref& k, const problem& pr) {
  const uint32_t D = k.config.head_dim, B = static_cast<uint32_t>(pr.seqlens_q.size());
  INFO(k.name << " hq=" << pr.hq << " hkv=" << pr.hkv << " batch=" << B << " range=" << pr.value_range);
  for (uint32_t b = 0; b < B; ++b) INFO("seq " << b << ": q " << pr.seqlens_q[b] << " k " << pr.seqlens_k[b]);
  const auto [cq, max_q] = hipasm::test::pack_seqlens(pr.seqlens_q);
  const std::vector<int> ck = hipasm::test::pack_seqlens(pr.seqlens_k).cu;
  const size_t tq = cq[B], tk = ck[B];
  const int max_k = pr.seqlens_k.empty() ? 0 : *std::max_element(pr.seqlens_k.begin(), pr.seqlens_k.end());
  // per-tensor descales: the largest |value| of each tensor maps to a code near kCodeMax
  const double q_desc = (pr.value_range + std::fabs(pr.qk_offset)) / kCodeMax;
  const double k_desc = (pr.value_range * (1.0 + pr.key_ramp * std::max(max_k - 1, 0)) + std::fabs(pr.qk_offset)) / kCodeMax;
  const double v_desc = 0.75 / kCodeMax;  // V in [-0.75, 0.75]
  std::mt19937 rng(tq * 7919u + tk * 131u + D + pr.hq * 17u + pr.hkv);
  std::uniform_real_distribution<double> uq(-pr.value_range, pr.value_range), uv(-kCodeMax, kCodeMax);
  std::vector<uint8_t> q(tq * pr.hq * D), kk(tk * pr.hkv * D + 1), v(tk * pr.hkv * D + 1);
  for (auto& x : q) x = to_fp8((uq(rng) + pr.qk_offset) / q_desc);
  for (uint32_t b = 0; b < B; ++b)
    for (int j = 0; j < pr.seqlens_k[b]; ++j)
      for (size_t e = 0; e < size_t(pr.hkv) * D; ++e)
        kk[(size_t(ck[b] + j) * pr.hkv) * D + e] = to_fp8((uq(rng) * (1.0 + pr.key_ramp * j) - pr.qk_offset) / k_desc);
  for (auto& x : v) x = to_fp8(uv(rng));
  rt::device& d = *S().dev;
  rt::buffer<uint8_t> Q(d, q), K(d, kk), V(d, v);
  rt::buffer<int> CQ(d, cq), CK(d, ck);
  // Poisoned outputs with a guard element: every real element must be written, the guard not.
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(tq * pr.hq * D + 1, 0x7fc1u));
  rt::buffer<uint32_t> L(d, std::vector<uint32_t>(tq * pr.hq + 1, 0x7fc00001u));
  const float scale = 1.0f / std::sqrt(float(D));
  hipasm::kernels::attn_fwd_args a{.o = O.addr(), .lse = L.addr(), .q = Q.addr(), .k = K.addr(), .v = V.addr(),
                                   .cu_seqlens_q = CQ.addr(), .cu_seqlens_k = CK.addr(), .batch = B, .max_seqlen_q = max_q,
                                   .num_q_heads = pr.hq, .num_kv_heads = pr.hkv, .softmax_scale = scale,
                                   .q_descale = float(q_desc), .k_descale = float(k_desc), .v_descale = float(v_desc)};
  auto rep = hipasm::kernels::launch_attn_fwd(d, *S().m, k, a);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const auto o = O.download();
  const auto l = L.download();
  CHECK(o.back() == 0x7fc1u);
  CHECK(l.back() == 0x7fc00001u);
  // (the descales as the kernel gets them: f32)
  const double qd = float(q_desc), kd = float(k_desc), vd = float(v_desc);
  double vmax = 0;
  for (size_t i = 0; i + 1 < v.size(); ++i) vmax = std::max(vmax, std::fabs(from_fp8(v[i]) * vd));
  const hipasm::test::attn_fwd_layout g{cq, ck, pr.hq, pr.hkv, D, scale};
  const int bad = hipasm::test::check_attn_fwd(
      k.config, g, [&](size_t i) { return from_fp8(q[i]) * qd; }, [&](size_t i) { return from_fp8(kk[i]) * kd; },
      [&](size_t i) { return from_fp8(v[i]) * vd; }, [&](size_t i) { return double(from_bf16(o[i])); }, l,
      [&](double ref) { return std::ldexp(vmax, -4) + std::ldexp(std::fabs(ref), -8); });
  CHECK(bad == 0);
}

constexpr attn_fwd_config fp8(uint32_t waves, uint32_t bn, bool causal) {
  return {.head_dim = 128, .causal = causal, .dtype = attn_dtype::fp8, .waves = waves, .bn = bn};
}
const attn_fwd_kernel_ref w8{"attn_fp8_w8", fp8(8, 64, false)};
const attn_fwd_kernel_ref w8c{"attn_fp8_causal_w8", fp8(8, 64, true)};
const attn_fwd_kernel_ref w4c{"attn_fp8_causal_w4", fp8(4, 64, true)};
const attn_fwd_kernel_ref w4{"attn_fp8_w4", fp8(4, 64, false)};
const attn_fwd_kernel_ref tl_cap{"attn_fp8_tl_cap", {.head_dim = 128, .causal = true, .top_left = true, .dtype = attn_dtype::fp8, .waves = 4, .bn = 64,
                                                     .soft_cap = 30.0f}};

}  // namespace

TEST_CASE("attn_fwd fp8: one sequence, seqlen a multiple of the tiles and not", "[attn]") {
  run(w8, {.seqlens_q = {256}, .seqlens_k = {256}});
  run(w8, {.seqlens_q = {300}, .seqlens_k = {330}});
  run(w4, {.seqlens_q = {100}, .seqlens_k = {150}});
}

TEST_CASE("attn_fwd fp8: causal, seqlen_q == seqlen_k and not (bottom-right, rows that see no key)", "[attn]") {
  run(w8c, {.seqlens_q = {530}, .seqlens_k = {530}});
  run(w4c, {.seqlens_q = {40}, .seqlens_k = {200}});   // sq < sk
  run(w4c, {.seqlens_q = {130}, .seqlens_k = {70}});   // sq > sk: the first 60 rows see nothing
}

TEST_CASE("attn_fwd fp8: GQA and MQA", "[attn]") {
  run(w8, {.seqlens_q = {40}, .seqlens_k = {450}, .hq = 8, .hkv = 2});
  run(w4c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 4, .hkv = 1});
}

TEST_CASE("attn_fwd fp8: varlen batch with 1-token and empty sequences", "[attn]") {
  run(w8c, {.seqlens_q = {600, 257, 1, 0}, .seqlens_k = {600, 300, 40, 3}, .hq = 4, .hkv = 2});
  run(w8, {.seqlens_q = {1, 40, 3, 0}, .seqlens_k = {7, 1, 0, 5}, .hq = 2, .hkv = 2});
  run(w4, {.seqlens_q = {1, 90, 33}, .seqlens_k = {1, 90, 50}, .hq = 2, .hkv = 1});
}

TEST_CASE("attn_fwd fp8: large scores, row maxima that grow along the keys, scores far below 0", "[attn]") {
  run(w8, {.seqlens_q = {64}, .seqlens_k = {100}, .value_range = 4.0f});
  run(w8, {.seqlens_q = {70}, .seqlens_k = {400}, .value_range = 2.0f, .key_ramp = 0.05f});
  run(w4c, {.seqlens_q = {90}, .seqlens_k = {200}, .value_range = 3.0f, .key_ramp = 0.03f});
  run(w8c, {.seqlens_q = {300, 260}, .seqlens_k = {300, 0}, .qk_offset = 1.0f});
}

TEST_CASE("attn_fwd fp8: causal aligned top-left with soft-capping (scores past the cap and near it)", "[attn]") {
  run(tl_cap, {.seqlens_q = {40, 130}, .seqlens_k = {200, 70}, .value_range = 4.0f});  // sq < sk, sq > sk
  run(tl_cap, {.seqlens_q = {1, 90, 0}, .seqlens_k = {5, 300, 7}, .hq = 2, .hkv = 1, .value_range = 2.0f, .key_ramp = 0.05f});
}

TEST_CASE("attn_fwd fp8: launch errors", "[attn]") {
  rt::device& d = *S().dev;
  rt::buffer<int> c(d, std::vector<int>{0, 1});
  hipasm::kernels::attn_fwd_args a{.o = c.addr(), .lse = c.addr(), .q = c.addr(), .k = c.addr(), .v = c.addr(),
                                   .cu_seqlens_q = c.addr(), .cu_seqlens_k = c.addr(), .batch = 1, .max_seqlen_q = 1,
                                   .num_q_heads = 2, .num_kv_heads = 2, .softmax_scale = 0.1f, .v_descale = 0};
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_fwd(d, *S().m, w8, a), rt::error);  // a descale of 0
  a.v_descale = 1;
  a.q_descale = 2;
  const attn_fwd_kernel_ref bf16{"attn_fp8_w8", {.head_dim = 128}};  // (a bf16 configuration: descales rejected first)
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_fwd(d, *S().m, bf16, a), rt::error);
}
