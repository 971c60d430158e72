// HIPASM_TEST_KERNELS: attn_fwd.hip
// Flash attention forward (include/hipasm/kernels/attn_fwd.hpp) in hipasm-sim against plain C++
// (softmax attention in double from the same bf16 inputs): head dim 64 and 128, causal and not,
// seqlen not a multiple of the tile, seqlen_q != seqlen_k (bottom-right causal alignment, rows
// that see no key), GQA and MQA, varlen batches with 1-token and empty sequences, large scores.
// The checker must report nothing.
//
// Tolerance: |O - ref| <= 2^-7 max|V| + 2^-8 |ref| per element, |LSE - ref| <= 1e-3 (|ref| + 1).
// P is rounded to bf16 before the PV product (relative error 2^-9 per term, all terms >= 0:
// at most 2^-9 of sum p |v| <= 2^-9 max|V|), O is rounded to bf16 (2^-9 |O|), the rest is f32.
// f16 (config dtype; f16 inputs of more precision than bf16 holds): 2^-11 a rounding, checked to
// 2^-9 max|V| + 2^-10 |ref| (which an output rounded to bf16 exceeds).
#include <catch2/catch.hpp>

#include "attn_fwd_check.hpp"
#include "kernel_test.hpp"

#include <hipasm/kernels/attn_fwd_launch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
using hipasm::kernels::attn_fwd_config;
using hipasm::kernels::attn_fwd_kernel_ref;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("attn_fwd");
  return s;
}

using hipasm::test::bf16;
using hipasm::test::from_bf16;
using hipasm::kernels::attn_dtype;

// The 16-bit encoding of `dt` (round to nearest even) and back.
uint16_t enc(double x, attn_dtype dt) {
  return dt == attn_dtype::f16 ? std::bit_cast<uint16_t>(static_cast<_Float16>(x)) : bf16(x);
}
double dec(uint16_t b, attn_dtype dt) {
  return dt == attn_dtype::f16 ? double(std::bit_cast<_Float16>(b)) : from_bf16(b);
}

using problem = hipasm::test::attn_fwd_problem;

void run(const attn_fwd_kernel_ref& k, const problem& pr) {
  const uint32_t D = k.config.head_dim, B = static_cast<uint32_t>(pr.seqlens_q.size());
  INFO(k.name << " hq=" << pr.hq << " hkv=" << pr.hkv << " batch=" << B << " range=" << pr.value_range);
  for (uint32_t b = 0; b < B; ++b) INFO("seq " << b << ": q " << pr.seqlens_q[b] << " k " << pr.seqlens_k[b]);
  const auto [cq, max_q] = hipasm::test::pack_seqlens(pr.seqlens_q);
  const std::vector<int> ck = hipasm::test::pack_seqlens(pr.seqlens_k).cu;
  const size_t tq = cq[B], tk = ck[B];
  std::mt19937 rng(tq * 7919u + tk * 131u + D + pr.hq * 17u + pr.hkv);
  std::uniform_real_distribution<float> uq(-pr.value_range, pr.value_range), uv(-1.0f, 1.0f);
  const attn_dtype dt = k.config.dtype;
  std::vector<uint16_t> q(tq * pr.hq * D), kk(tk * pr.hkv * D + 1), v(tk * pr.hkv * D + 1);
  for (auto& x : q) x = enc(uq(rng) + pr.qk_offset, dt);
  for (uint32_t b = 0; b < B; ++b)
    for (int j = 0; j < pr.seqlens_k[b]; ++j)
      for (size_t e = 0; e < size_t(pr.hkv) * D; ++e)
        kk[(size_t(ck[b] + j) * pr.hkv) * D + e] = enc(uq(rng) * (1.0f + pr.key_ramp * float(j)) - pr.qk_offset, dt);
  for (auto& x : v) x = enc(uv(rng), dt);
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> Q(d, q), K(d, kk), V(d, v);
  rt::buffer<int> CQ(d, cq), CK(d, ck);
  // Poisoned outputs with a guard element: every real element must be written, the guard not.
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(tq * pr.hq * D + 1, 0x7fc1u));
  rt::buffer<uint32_t> L(d, std::vector<uint32_t>(tq * pr.hq + 1, 0x7fc00001u));
  const float scale = 1.0f / std::sqrt(float(D));
  hipasm::kernels::attn_fwd_args a{.o = O.addr(), .lse = L.addr(), .q = Q.addr(), .k = K.addr(), .v = V.addr(),
                          .cu_seqlens_q = CQ.addr(), .cu_seqlens_k = CK.addr(), .batch = B, .max_seqlen_q = max_q,
                          .num_q_heads = pr.hq, .num_kv_heads = pr.hkv, .softmax_scale = scale};
  auto rep = hipasm::kernels::launch_attn_fwd(d, *S().m, k, a);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  const auto o = O.download();
  const auto l = L.download();
  CHECK(o.back() == 0x7fc1u);
  CHECK(l.back() == 0x7fc00001u);
  const hipasm::test::attn_fwd_layout g{cq, ck, pr.hq, pr.hkv, D, scale};
  // (the inputs decoded once: the reference reads each element many times)
  auto decoded = [&](const std::vector<uint16_t>& x) {
    std::vector<double> r(x.size());
    for (size_t i = 0; i < x.size(); ++i) r[i] = dec(x[i], dt);
    return r;
  };
  const std::vector<double> qd = decoded(q), kd = decoded(kk), vd = decoded(v);
  const int bad = hipasm::test::check_attn_fwd(
      k.config, g, [&](size_t i) { return qd[i]; }, [&](size_t i) { return kd[i]; },
      [&](size_t i) { return vd[i]; }, [&](size_t i) { return dec(o[i], dt); }, l, [&](double ref) {
        return dt == attn_dtype::f16 ? std::ldexp(1.0, -9) + std::ldexp(std::fabs(ref), -10)
                                     : std::ldexp(1.0, -7) + std::ldexp(std::fabs(ref), -8);
      });
  CHECK(bad == 0);
}

const attn_fwd_kernel_ref k128{"attn_d128", attn_fwd_config{.head_dim = 128, .causal = false, .waves = 4, .bn = 64}};
const attn_fwd_kernel_ref k128c{"attn_d128_causal", attn_fwd_config{.head_dim = 128, .causal = true, .waves = 4, .bn = 64}};
const attn_fwd_kernel_ref k128cw8{"attn_d128_causal_w8", attn_fwd_config{.head_dim = 128, .causal = true, .waves = 8, .bn = 64}};
const attn_fwd_kernel_ref k128w8{"attn_d128_w8", attn_fwd_config{.head_dim = 128, .causal = false, .waves = 8, .bn = 64}};
const attn_fwd_kernel_ref k128c32{"attn_d128_w4b32", attn_fwd_config{.head_dim = 128, .causal = true, .waves = 4, .bn = 32}};
const attn_fwd_kernel_ref k64{"attn_d64", attn_fwd_config{.head_dim = 64, .causal = false, .waves = 2, .bn = 32}};
const attn_fwd_kernel_ref k64c{"attn_d64_causal", attn_fwd_config{.head_dim = 64, .causal = true, .waves = 2, .bn = 32}};
const attn_fwd_kernel_ref k128cap{"attn_d128_cap30", attn_fwd_config{.head_dim = 128, .causal = false, .waves = 4, .bn = 64, .soft_cap = 30.0f}};
const attn_fwd_kernel_ref k128tl{"attn_d128_tl", attn_fwd_config{.head_dim = 128, .causal = true, .top_left = true, .waves = 4, .bn = 64}};
const attn_fwd_kernel_ref k64tl{"attn_d64_tl", attn_fwd_config{.head_dim = 64, .causal = true, .top_left = true, .waves = 2, .bn = 32}};
const attn_fwd_kernel_ref k64ccap{"attn_d64_causal_cap5", attn_fwd_config{.head_dim = 64, .causal = true, .waves = 2, .bn = 32, .soft_cap = 5.0f}};
constexpr auto F16 = attn_dtype::f16;
const attn_fwd_kernel_ref h128{"attn_d128_f16", attn_fwd_config{.head_dim = 128, .causal = false, .dtype = F16, .waves = 4, .bn = 64}};
const attn_fwd_kernel_ref h128cw8{"attn_d128_causal_w8_f16",
                                  attn_fwd_config{.head_dim = 128, .causal = true, .dtype = F16, .waves = 8, .bn = 64}};
const attn_fwd_kernel_ref h64c{"attn_d64_causal_f16", attn_fwd_config{.head_dim = 64, .causal = true, .dtype = F16, .waves = 2, .bn = 32}};

}  // namespace

TEST_CASE("attn_fwd: one sequence, seqlen a multiple of the tiles and not", "[attn]") {
  run(k128, {.seqlens_q = {128}, .seqlens_k = {128}});
  run(k128, {.seqlens_q = {100}, .seqlens_k = {150}});
  run(k64, {.seqlens_q = {77}, .seqlens_k = {45}});
}

TEST_CASE("attn_fwd: causal aligned top-left, seqlen_q == seqlen_k and not, varlen", "[attn]") {
  run(k128tl, {.seqlens_q = {150}, .seqlens_k = {150}});
  run(k128tl, {.seqlens_q = {40}, .seqlens_k = {200}});  // sq < sk: keys past 40 unseen
  run(k128tl, {.seqlens_q = {130}, .seqlens_k = {70}});  // sq > sk: every row sees key 0
  run(k64tl, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {5, 40, 1, 7}, .hq = 2, .hkv = 1});
}

TEST_CASE("attn_fwd: causal, seqlen_q == seqlen_k and not (bottom-right, rows that see no key)", "[attn]") {
  run(k128c, {.seqlens_q = {150}, .seqlens_k = {150}});
  run(k128c, {.seqlens_q = {40}, .seqlens_k = {200}});   // sq < sk
  run(k128c, {.seqlens_q = {130}, .seqlens_k = {70}});   // sq > sk: the first 60 rows see nothing
  run(k64c, {.seqlens_q = {90}, .seqlens_k = {90}});
  run(k64c, {.seqlens_q = {70}, .seqlens_k = {33}});
  run(k64c, {.seqlens_q = {150, 20}, .seqlens_k = {160, 20}});  // 3 query tiles: pairs (2, 0) and (1)
  run(k128c32, {.seqlens_q = {300, 45}, .seqlens_k = {290, 100}, .hq = 2, .hkv = 1});  // the bench's 4-wave tile
}

TEST_CASE("attn_fwd: causal, 8 waves, heads x batch a multiple of the XCDs (heads grouped on an XCD)", "[attn]") {
  // 17 heads x 8 sequences = 136 = 8 XCDs x 17 heads; 2 query tiles a head: groups of 16 heads
  // and a last one of 1 (every tile computed once; the last group's heads are in the last
  // sequence); short, 1-token and empty sequences
  run(k128cw8, {.seqlens_q = {257, 30, 1, 0, 40, 9, 3, 20}, .seqlens_k = {257, 30, 1, 3, 40, 9, 3, 20}, .hq = 17, .hkv = 1});
}

TEST_CASE("attn_fwd: GQA and MQA", "[attn]") {
  run(k128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(k64c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 4, .hkv = 1});
}

TEST_CASE("attn_fwd: varlen batch with a 1-token and an empty sequence", "[attn]") {
  run(k128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
  run(k64, {.seqlens_q = {1, 40, 3}, .seqlens_k = {7, 1, 0}, .hq = 2, .hkv = 2});
}

TEST_CASE("attn_fwd: large scores (softmax stability)", "[attn]") {
  run(k128, {.seqlens_q = {64}, .seqlens_k = {100}, .value_range = 16.0f});
  run(k64c, {.seqlens_q = {50}, .seqlens_k = {80}, .value_range = 30.0f});
}

TEST_CASE("attn_fwd: logit soft-capping (cap tanh(s / cap)), scores far past the cap and near it", "[attn]") {
  run(k128cap, {.seqlens_q = {64}, .seqlens_k = {100}, .value_range = 16.0f});  // |s| up to ~10^3: capped
  run(k128cap, {.seqlens_q = {70}, .seqlens_k = {300}, .value_range = 2.0f, .key_ramp = 0.05f});
  run(k64ccap, {.seqlens_q = {90, 1}, .seqlens_k = {120, 0}, .value_range = 3.0f});  // causal, an empty sequence
}

TEST_CASE("attn_fwd: row maxima that grow along the keys (the reference max moves, O and l rescaled)", "[attn]") {
  // the kernel moves its reference max only when a row's max grows by more than 2^8 in p:
  // here it grows by more than that every few tiles, and by less in between (p up to 2^8)
  run(k128, {.seqlens_q = {70}, .seqlens_k = {400}, .value_range = 2.0f, .key_ramp = 0.05f});
  run(k64c, {.seqlens_q = {90}, .seqlens_k = {200}, .value_range = 3.0f, .key_ramp = 0.03f});
}

TEST_CASE("attn_fwd: the bench's 8-wave tile (two waves per SIMD, 252 VGPRs)", "[attn]") {
  run(k128w8, {.seqlens_q = {300}, .seqlens_k = {330}});
  run(k128w8, {.seqlens_q = {20, 260}, .seqlens_k = {150, 64}, .hq = 3, .hkv = 1, .value_range = 2.0f, .key_ramp = 0.05f});
  // the bench's GQA row's 4 kv heads (each of 4 query heads), a key tail, the reference max moving
  run(k128w8, {.seqlens_q = {40}, .seqlens_k = {450}, .hq = 16, .hkv = 4, .value_range = 2.0f, .key_ramp = 0.05f});
}

TEST_CASE("attn_fwd: launch errors", "[attn]") {
  rt::device& d = *S().dev;
  rt::buffer<int> c(d, std::vector<int>{0, 1});
  hipasm::kernels::attn_fwd_args a{.o = c.addr(), .lse = c.addr(), .q = c.addr(), .k = c.addr(), .v = c.addr(),
                          .cu_seqlens_q = c.addr(), .cu_seqlens_k = c.addr(), .batch = 1, .max_seqlen_q = 1,
                          .num_q_heads = 3, .num_kv_heads = 2, .softmax_scale = 0.1f};
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_fwd(d, *S().m, k64, a), rt::error);  // 2 does not divide 3
  a.num_kv_heads = 1;
  a.softmax_scale = 0;
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_fwd(d, *S().m, k64, a), rt::error);
}

TEST_CASE("attn_fwd: causal, several query tiles (longest first), scores far below 0", "[attn]") {
  // With every real score far below 0, a key the mask should hide (past the diagonal, or past
  // seqlen_k: zeros, score 0) would move the reference max: LSE off by it. Query tiles run
  // longest first; the last iteration prefetches the key tile after the last one (not read).
  run(k128c, {.seqlens_q = {300}, .seqlens_k = {300}, .qk_offset = 1.0f});
  run(k64c, {.seqlens_q = {200, 70}, .seqlens_k = {230, 64}, .hq = 2, .hkv = 1, .qk_offset = 1.0f});
  // query tiles without a key in either pass (sq > sk: O = 0, LSE = -inf), and seqlen_k = 0
  run(k128c, {.seqlens_q = {300, 260}, .seqlens_k = {20, 0}, .qk_offset = 1.0f});
}

TEST_CASE("attn_fwd: the bench's causal 8-wave tile: tails, GQA, varlen", "[attn]") {
  run(k128cw8, {.seqlens_q = {600, 257, 1, 0}, .seqlens_k = {600, 300, 40, 3}, .hq = 4, .hkv = 2});
  run(k128cw8, {.seqlens_q = {530}, .seqlens_k = {530}, .hq = 2, .hkv = 1, .value_range = 2.0f, .key_ramp = 0.01f});
}

TEST_CASE("attn_fwd f16: tails, causal both ways, GQA, varlen, large scores, a moving row max", "[attn]") {
  run(h128, {.seqlens_q = {100}, .seqlens_k = {150}});
  run(h128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(h128, {.seqlens_q = {64}, .seqlens_k = {100}, .value_range = 16.0f});
  run(h128, {.seqlens_q = {70}, .seqlens_k = {400}, .value_range = 2.0f, .key_ramp = 0.05f});
  run(h64c, {.seqlens_q = {130}, .seqlens_k = {70}});  // the first 60 rows see nothing
  run(h64c, {.seqlens_q = {1, 40, 3, 0}, .seqlens_k = {7, 1, 0, 5}, .hq = 2, .hkv = 1});
  run(h128cw8, {.seqlens_q = {600, 257, 1, 0}, .seqlens_k = {600, 300, 40, 3}, .hq = 4, .hkv = 2});
  run(h128cw8, {.seqlens_q = {300}, .seqlens_k = {300}, .qk_offset = 1.0f});
}
