// HIPASM_TEST_KERNELS: attn_bwd.hip
// Flash attention backward (include/hipasm/kernels/attn_bwd.hpp) in hipasm-sim against plain C++:
// the forward (P, O, LSE) and the backward (dP, D, dS, dQ, dK, dV) written from the math in double
// from the same bf16 inputs (O rounded to bf16 and LSE to f32, as the forward hands them over).
// Head dim 64 and 128, causal (bottom-right, rows that see no key) and not, seqlen not a multiple
// of the tiles, seqlen 1, GQA and MQA, varlen batches; dQ by atomics and by the recompute kernel
// (config dq = recompute: dq_acc not given, its guard not written); f16 (config dtype) in both
// modes. The checker must report nothing.
//
// Tolerance per element: 2^-7 of the sum of the absolute values of its terms (P and dS are
// rounded to bf16 before their products: 2^-9 relative each, dP and D carry f32 rounding; with
// GQA, dK and dV are sums of per-query-head partials rounded to bf16: 2^-9 of each) plus 2^-8
// of |ref| (the bf16 output) plus 1e-6, plus for dQ and dK the f32 sums' error in dS = P (dP - D)
// carried through (2^-20 of P (sum |dO V| + sum |dO O|) a score: dP - D cancels where a row sees
// one key, and the reference's dS is then 0). f16 (2^-11 relative a rounding): 2^-10 of the sum and
// of |ref|, which the bf16 roundings' 2^-9 would exceed, and f16 inputs of more precision than
// bf16 holds (a bf16 read of them fails).
// dQ by packed 16-bit atomics (config dq = atomic16): each key tile's partial q_t is rounded to
// the dtype (unit roundoff u: bf16 2^-8, f16 2^-11) and added to dQ in the dtype, each sum
// rounded again: with n key tiles (128 keys each), |error| <= u sum_t |q_t| (the partials) +
// u sum_t |s_t| (the running sums, each at most sum_t |q_t| (1 + u)^n), and sum_t |q_t| is at
// most the sum of the absolute values of dQ's terms: (n + 1) u (1 + 2^-6) of that sum is added
// to dQ's tolerance (the first add, onto zero, is exact: one spare u).
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/attn_bwd_launch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
using hipasm::kernels::attn_bwd_config;
using hipasm::kernels::attn_bwd_kernel_ref;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("attn_bwd");
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

struct problem {
  std::vector<int> seqlens_q, seqlens_k;
  uint32_t hq = 2, hkv = 2;
  float value_range = 1.0f;  // Q and K uniform in [-r, r]
};

// rk: with a recompute kernel, the launcher of the pair (k atomic) runs the mode it picks
void run(const attn_bwd_kernel_ref& k, const problem& pr, const attn_bwd_kernel_ref* rk = nullptr) {
  const uint32_t D = k.config.head_dim, B = static_cast<uint32_t>(pr.seqlens_q.size());
  INFO(k.name << " hq=" << pr.hq << " hkv=" << pr.hkv << " batch=" << B);
  for (uint32_t b = 0; b < B; ++b) INFO("seq " << b << ": q " << pr.seqlens_q[b] << " k " << pr.seqlens_k[b]);
  const auto [cq, max_q] = hipasm::test::pack_seqlens(pr.seqlens_q);
  const auto [ck, max_k] = hipasm::test::pack_seqlens(pr.seqlens_k);
  const size_t tq = cq[B], tk = ck[B];
  const uint32_t hq = pr.hq, hkv = pr.hkv, group = hq / hkv;
  std::mt19937 rng(tq * 7919u + tk * 131u + D + hq * 17u + hkv);
  std::uniform_real_distribution<float> uq(-pr.value_range, pr.value_range), u1(-1.0f, 1.0f);
  const attn_dtype dt = k.config.dtype;
  const bool a16 = k.config.dq == hipasm::kernels::attn_bwd_dq::atomic16;
  std::vector<uint16_t> q(tq * hq * D + 1), kk(tk * hkv * D + 1), v(tk * hkv * D + 1), dout(tq * hq * D + 1);
  for (auto& x : q) x = enc(uq(rng), dt);
  for (auto& x : kk) x = enc(uq(rng), dt);
  for (auto& x : v) x = enc(u1(rng), dt);
  for (auto& x : dout) x = enc(u1(rng), dt);
  const double scale = 1.0 / std::sqrt(double(D));
  const float scale_f = static_cast<float>(scale);
  // (the inputs decoded once: the reference reads each element many times)
  auto decoded = [&](const std::vector<uint16_t>& x) {
    std::vector<double> r(x.size());
    for (size_t i = 0; i < x.size(); ++i) r[i] = dec(x[i], dt);
    return r;
  };
  const std::vector<double> qd = decoded(q), dod = decoded(dout), kd = decoded(kk), vd = decoded(v);
  auto Q = [&](size_t t, uint32_t h, uint32_t e) { return qd[(t * hq + h) * D + e]; };
  auto dO = [&](size_t t, uint32_t h, uint32_t e) { return dod[(t * hq + h) * D + e]; };
  auto K = [&](size_t t, uint32_t h, uint32_t e) { return kd[(t * hkv + h) * D + e]; };
  auto V = [&](size_t t, uint32_t h, uint32_t e) { return vd[(t * hkv + h) * D + e]; };

  // ---- reference: forward, then backward, per (sequence, query head) ----
  std::vector<uint16_t> o(tq * hq * D + 1, 0);
  std::vector<float> lse(tq * hq + 1, 0);
  std::vector<double> dq(tq * hq * D, 0), dq_abs(tq * hq * D, 0), dk(tk * hkv * D, 0), dk_abs(tk * hkv * D, 0),
      dv(tk * hkv * D, 0), dv_abs(tk * hkv * D, 0), dq_f32(tq * hq * D, 0), dk_f32(tk * hkv * D, 0),
      dv_f32(tk * hkv * D, 0);
  for (uint32_t b = 0; b < B; ++b) {
    const int sq = pr.seqlens_q[b], sk = pr.seqlens_k[b];
    for (uint32_t h = 0; h < hq; ++h) {
      const uint32_t hk = h / group;
      std::vector<double> P(size_t(sq) * sk, 0.0), dS(size_t(sq) * sk, 0.0), dS_f32(size_t(sq) * sk, 0.0);
      for (int i = 0; i < sq; ++i) {
        const size_t ti = cq[b] + i;
        const int visible = k.config.causal ? std::clamp(i + (k.config.top_left ? 0 : sk - sq) + 1, 0, sk) : sk;
        double mx = -INFINITY;
        for (int j = 0; j < visible; ++j) {
          double dot = 0;
          for (uint32_t e = 0; e < D; ++e) dot += Q(ti, h, e) * K(ck[b] + j, hk, e);
          P[size_t(i) * sk + j] = dot * scale;
          mx = std::max(mx, dot * scale);
        }
        double sum = 0;
        for (int j = 0; j < visible; ++j) sum += std::exp(P[size_t(i) * sk + j] - mx);
        const double l = visible ? mx + std::log(sum) : -INFINITY;
        lse[size_t(h) * tq + ti] = static_cast<float>(l);
        for (int j = 0; j < visible; ++j) P[size_t(i) * sk + j] = std::exp(P[size_t(i) * sk + j] - l);
        for (uint32_t e = 0; e < D; ++e) {
          double acc = 0;
          for (int j = 0; j < visible; ++j) acc += P[size_t(i) * sk + j] * V(ck[b] + j, hk, e);
          o[(ti * hq + h) * D + e] = enc(acc, dt);
        }
        // D = rowsum(dO * O) with the O the backward reads (16-bit)
        double Di = 0, Di_abs = 0;
        for (uint32_t e = 0; e < D; ++e) {
          Di += dO(ti, h, e) * dec(o[(ti * hq + h) * D + e], dt);
          Di_abs += std::fabs(dO(ti, h, e) * dec(o[(ti * hq + h) * D + e], dt));
        }
        for (int j = 0; j < visible; ++j) {
          double dp = 0, dp_abs = 0;
          for (uint32_t e = 0; e < D; ++e) {
            dp += dO(ti, h, e) * V(ck[b] + j, hk, e);
            dp_abs += std::fabs(dO(ti, h, e) * V(ck[b] + j, hk, e));
          }
          dS[size_t(i) * sk + j] = P[size_t(i) * sk + j] * (dp - Di);
          dS_f32[size_t(i) * sk + j] = std::ldexp(P[size_t(i) * sk + j] * (dp_abs + Di_abs), -20);
        }
      }
      const int key_tiles = (sk + 127) / 128;
      for (int i = 0; i < sq; ++i)
        for (uint32_t e = 0; e < D; ++e) {
          const size_t at = ((cq[b] + i) * size_t(hq) + h) * D + e;
          for (int j = 0; j < sk; ++j) {
            const double t = dS[size_t(i) * sk + j] * K(ck[b] + j, hk, e) * scale;
            dq[at] += t, dq_abs[at] += std::fabs(t);
            dq_f32[at] += dS_f32[size_t(i) * sk + j] * std::fabs(K(ck[b] + j, hk, e)) * scale;
          }
          if (a16)  // (the dtype's partial sums: see the top)
            dq_f32[at] += std::ldexp(dq_abs[at], dt == attn_dtype::f16 ? -11 : -8) * (key_tiles + 1) * (1 + 1.0 / 64);
        }
      for (int j = 0; j < sk; ++j)
        for (uint32_t e = 0; e < D; ++e) {
          const size_t at = ((ck[b] + j) * size_t(hkv) + hk) * D + e;
          for (int i = 0; i < sq; ++i) {
            const double tk_ = dS[size_t(i) * sk + j] * Q(cq[b] + i, h, e) * scale;
            const double tv = P[size_t(i) * sk + j] * dO(cq[b] + i, h, e);
            dk[at] += tk_, dk_abs[at] += std::fabs(tk_);
            dk_f32[at] += dS_f32[size_t(i) * sk + j] * std::fabs(Q(cq[b] + i, h, e)) * scale;
            dv[at] += tv, dv_abs[at] += std::fabs(tv);
          }
        }
    }
  }

  rt::device& d = *S().dev;
  rt::buffer<uint16_t> Qd(d, q), Kd(d, kk), Vd(d, v), Od(d, o), dOd(d, dout);
  rt::buffer<float> Ld(d, lse);
  rt::buffer<int> CQ(d, cq), CK(d, ck);
  // Poisoned outputs and workspaces with a guard element: every real element must be written,
  // the guard not.
  rt::buffer<uint16_t> dQd(d, std::vector<uint16_t>(tq * hq * D + 1, 0x7fc1u));
  rt::buffer<uint16_t> dKd(d, std::vector<uint16_t>(tk * hkv * D + 1, 0x7fc1u));
  rt::buffer<uint16_t> dVd(d, std::vector<uint16_t>(tk * hkv * D + 1, 0x7fc1u));
  rt::buffer<uint32_t> acc(d, std::vector<uint32_t>(tq * hq * D + 1, 0x7fc00001u));
  bool rc = k.config.dq == hipasm::kernels::attn_bwd_dq::recompute;
  rt::buffer<uint32_t> delta(d, std::vector<uint32_t>(tq * hq + 1, 0x7fc00001u));
  rt::buffer<uint16_t> dKp(d, std::vector<uint16_t>(tk * hq * D + 1, 0x7fc1u));
  rt::buffer<uint16_t> dVp(d, std::vector<uint16_t>(tk * hq * D + 1, 0x7fc1u));
  hipasm::kernels::attn_bwd_args a{.dq = dQd.addr(), .dk = dKd.addr(), .dv = dVd.addr(), .q = Qd.addr(),
                                   .k = Kd.addr(), .v = Vd.addr(), .o = Od.addr(), .d_o = dOd.addr(),
                                   .lse = Ld.addr(), .dq_acc = rc || a16 ? 0 : acc.addr(), .delta = delta.addr(),
                                   .dk_part = dKp.addr(), .dv_part = dVp.addr(), .cu_seqlens_q = CQ.addr(), .cu_seqlens_k = CK.addr(), .batch = B,
                                   .max_seqlen_q = max_q, .max_seqlen_k = max_k, .num_q_heads = hq,
                                   .num_kv_heads = hkv, .softmax_scale = scale_f};
  if (rk) {  // (the mode the pair's launcher picks: dq_acc only for the atomic one)
    rc = hipasm::kernels::attn_bwd_dq_for(S().m->target(), a, k.config.causal) == hipasm::kernels::attn_bwd_dq::recompute;
    a.dq_acc = rc ? 0 : acc.addr();
  }
  auto rep = rk ? hipasm::kernels::launch_attn_bwd(d, *S().m, k, *rk, a) : hipasm::kernels::launch_attn_bwd(d, *S().m, k, a);
  for (const auto* r : {&rep.dot_do_o, &rep.main, &rep.convert_dq, &rep.dq})
    for (const auto& diag : r->diagnostics) FAIL_CHECK("checker: " << diag);
  CHECK((rep.dq.instructions > 0) == rc);  // the dQ kernel ran in the recompute mode only
  const auto gq = dQd.download(), gk = dKd.download(), gv = dVd.download();
  CHECK(gq.back() == 0x7fc1u);
  CHECK(gk.back() == 0x7fc1u);
  CHECK(gv.back() == 0x7fc1u);
  if (rc || a16) CHECK(acc.download() == std::vector<uint32_t>(tq * hq * D + 1, 0x7fc00001u));  // (not touched)
  else CHECK(acc.download().back() == 0x7fc00001u);
  CHECK(delta.download().back() == 0x7fc00001u);
  CHECK(dKp.download().back() == 0x7fc1u);
  CHECK(dVp.download().back() == 0x7fc1u);
  int bad = 0;
  auto cmp = [&](const char* what, const std::vector<uint16_t>& got, const std::vector<double>& ref,
                 const std::vector<double>& abs, const std::vector<double>& f32err, uint32_t heads) {
    for (size_t x = 0; x < ref.size(); ++x) {
      const double g = dec(got[x], dt);
      const double tol = (dt == attn_dtype::f16 ? std::ldexp(abs[x], -10) + std::ldexp(std::fabs(ref[x]), -10)
                                                : std::ldexp(abs[x], -7) + std::ldexp(std::fabs(ref[x]), -8)) +
                         1e-6 + f32err[x];
      if (!(std::fabs(g - ref[x]) <= tol) && ++bad <= 8)
        FAIL_CHECK(what << " token " << x / (heads * D) << " head " << x / D % heads << " dim " << x % D << " = " << g
                        << ", expected " << ref[x] << " (tolerance " << tol << ")");
    }
  };
  cmp("dQ", gq, dq, dq_abs, dq_f32, hq);
  cmp("dK", gk, dk, dk_abs, dk_f32, hkv);
  cmp("dV", gv, dv, dv_abs, dv_f32, hkv);
  CHECK(bad == 0);
}

const attn_bwd_kernel_ref k128{"bwd_d128", attn_bwd_config{.head_dim = 128, .causal = false, .waves = 4}};
const attn_bwd_kernel_ref k128c{"bwd_d128_causal", attn_bwd_config{.head_dim = 128, .causal = true, .waves = 4}};
const attn_bwd_kernel_ref k64{"bwd_d64", attn_bwd_config{.head_dim = 64, .causal = false, .waves = 4}};
const attn_bwd_kernel_ref k64c{"bwd_d64_causal", attn_bwd_config{.head_dim = 64, .causal = true, .waves = 4}};
constexpr auto RC = hipasm::kernels::attn_bwd_dq::recompute;
const attn_bwd_kernel_ref k128tl{"bwd_d128_tl", attn_bwd_config{.head_dim = 128, .causal = true, .top_left = true}};
const attn_bwd_kernel_ref r64tl{"bwd_d64_tl_rc", attn_bwd_config{.head_dim = 64, .causal = true, .top_left = true, .dq = RC}};
const attn_bwd_kernel_ref r128{"bwd_d128_rc", attn_bwd_config{.head_dim = 128, .causal = false, .dq = RC}};
const attn_bwd_kernel_ref r128c{"bwd_d128_causal_rc", attn_bwd_config{.head_dim = 128, .causal = true, .dq = RC}};
const attn_bwd_kernel_ref r64{"bwd_d64_rc", attn_bwd_config{.head_dim = 64, .causal = false, .dq = RC}};
const attn_bwd_kernel_ref r64c{"bwd_d64_causal_rc", attn_bwd_config{.head_dim = 64, .causal = true, .dq = RC}};
constexpr auto F16 = attn_dtype::f16;
const attn_bwd_kernel_ref h128{"bwd_d128_f16", attn_bwd_config{.head_dim = 128, .causal = false, .dtype = F16}};
const attn_bwd_kernel_ref h128c{"bwd_d128_causal_f16", attn_bwd_config{.head_dim = 128, .causal = true, .dtype = F16}};
const attn_bwd_kernel_ref hr128{"bwd_d128_f16_rc", attn_bwd_config{.head_dim = 128, .causal = false, .dtype = F16, .dq = RC}};
const attn_bwd_kernel_ref hr64c{"bwd_d64_causal_f16_rc",
                                attn_bwd_config{.head_dim = 64, .causal = true, .dtype = F16, .dq = RC}};
constexpr auto A16 = hipasm::kernels::attn_bwd_dq::atomic16;
const attn_bwd_kernel_ref m128{"bwd_d128_k48", attn_bwd_config{.head_dim = 128, .causal = false, .keys_per_wave = 48}};
const attn_bwd_kernel_ref m128c{"bwd_d128_causal_k48", attn_bwd_config{.head_dim = 128, .causal = true, .keys_per_wave = 48}};
const attn_bwd_kernel_ref m128tlh{"bwd_d128_tl_f16_k48",
                                  attn_bwd_config{.head_dim = 128, .causal = true, .top_left = true, .dtype = F16, .keys_per_wave = 48}};
const attn_bwd_kernel_ref ma128{"bwd_d128_a16_k48", attn_bwd_config{.head_dim = 128, .causal = false, .dq = A16, .keys_per_wave = 48}};
const attn_bwd_kernel_ref mha128c{"bwd_d128_causal_f16_a16_k48",
                                  attn_bwd_config{.head_dim = 128, .causal = true, .dtype = F16, .dq = A16, .keys_per_wave = 48}};
const attn_bwd_kernel_ref a128{"bwd_d128_a16", attn_bwd_config{.head_dim = 128, .causal = false, .dq = A16}};
const attn_bwd_kernel_ref a128c{"bwd_d128_causal_a16", attn_bwd_config{.head_dim = 128, .causal = true, .dq = A16}};
const attn_bwd_kernel_ref a64c{"bwd_d64_causal_a16", attn_bwd_config{.head_dim = 64, .causal = true, .dq = A16}};
const attn_bwd_kernel_ref ha128c{"bwd_d128_causal_f16_a16",
                                 attn_bwd_config{.head_dim = 128, .causal = true, .dtype = F16, .dq = A16}};

}  // namespace

TEST_CASE("attn_bwd: one sequence, seqlen a multiple of the tiles and not, seqlen 1", "[attn]") {
  run(k128, {.seqlens_q = {128}, .seqlens_k = {128}, .hq = 1, .hkv = 1});
  run(k128, {.seqlens_q = {70}, .seqlens_k = {150}});
  run(k64, {.seqlens_q = {77}, .seqlens_k = {45}});
  run(k128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
}

TEST_CASE("attn_bwd: causal, seqlen_q == seqlen_k and not (bottom-right, rows that see no key)", "[attn]") {
  run(k128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 1, .hkv = 1});
  run(k128c, {.seqlens_q = {40}, .seqlens_k = {170}, .hq = 1, .hkv = 1});  // sq < sk
  run(k128c, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 1, .hkv = 1});  // sq > sk: the first 40 rows see nothing
  run(k64c, {.seqlens_q = {90}, .seqlens_k = {90}});
}

TEST_CASE("attn_bwd: causal aligned top-left (atomic and recompute dQ), seqlen_q != seqlen_k, varlen", "[attn]") {
  run(k128tl, {.seqlens_q = {40}, .seqlens_k = {170}, .hq = 1, .hkv = 1});  // sq < sk: keys past 40 get dK = dV = 0
  run(k128tl, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 2, .hkv = 1});  // sq > sk
  run(r64tl, {.seqlens_q = {170}, .seqlens_k = {90}});
  run(r64tl, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {5, 40, 1, 7}, .hq = 2, .hkv = 1});
}

TEST_CASE("attn_bwd: GQA and MQA (dK, dV summed over the query heads)", "[attn]") {
  run(k128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(k64c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 3, .hkv = 1});
}

TEST_CASE("attn_bwd: varlen batch with a 1-token and an empty sequence, large scores", "[attn]") {
  run(k128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
  run(k64, {.seqlens_q = {1, 40, 3}, .seqlens_k = {7, 1, 0}, .hq = 2, .hkv = 2, .value_range = 8.0f});
}

// The recompute dQ kernel (and the main kernel without its dQ path) on samples of the shapes
// above: query tiles of 128 with tails, causal both ways, GQA and MQA, varlen with empty and
// 1-token sequences, large scores.
TEST_CASE("attn_bwd recompute: tails, seqlen 1, causal both ways", "[attn]") {
  run(r128, {.seqlens_q = {70}, .seqlens_k = {150}});
  run(r64, {.seqlens_q = {177}, .seqlens_k = {45}});
  run(r128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
  run(r128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 1, .hkv = 1});
  run(r128c, {.seqlens_q = {40}, .seqlens_k = {170}, .hq = 1, .hkv = 1});
  run(r64c, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 1, .hkv = 1});  // the first 40 rows see nothing
}

TEST_CASE("attn_bwd recompute: GQA, MQA, varlen with a 1-token and an empty sequence, large scores", "[attn]") {
  run(r128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(r64c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 3, .hkv = 1});
  run(r128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
  run(r64, {.seqlens_q = {1, 40, 3}, .seqlens_k = {7, 1, 0}, .hq = 2, .hkv = 2, .value_range = 8.0f});
}

TEST_CASE("attn_bwd: the launcher of an atomic and a recompute kernel", "[attn]") {
  run(k128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 4, .hkv = 2}, &r128c);
  // The code object's target picks (the device here is opened without a GPU name): gfx950 code
  // runs the recompute mode on a non-causal shape, gfx942 code the atomic one.
  hipasm::kernels::attn_bwd_args a{.batch = 1, .max_seqlen_q = 100, .max_seqlen_k = 100, .num_q_heads = 2, .num_kv_heads = 1};
  CHECK((hipasm::kernels::attn_bwd_dq_for(S().m->target(), a, false) == RC) == (S().m->target() == "gfx950"));
  run(k128, {.seqlens_q = {100}, .seqlens_k = {100}, .hq = 2, .hkv = 1}, &r128);
}

// f16: the same shapes' kinds in both dQ modes (the bf16 reads, conversions and MFMAs all f16's)
TEST_CASE("attn_bwd f16: tails, seqlen 1, causal both ways, atomic and recompute dQ", "[attn]") {
  run(h128, {.seqlens_q = {70}, .seqlens_k = {150}});
  run(h128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
  run(h128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 1, .hkv = 1});
  run(h128c, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 1, .hkv = 1});  // the first 40 rows see nothing
  run(hr128, {.seqlens_q = {177}, .seqlens_k = {45}});
  run(hr64c, {.seqlens_q = {40}, .seqlens_k = {170}, .hq = 1, .hkv = 1});
}

TEST_CASE("attn_bwd f16: GQA, MQA, varlen with a 1-token and an empty sequence, large scores", "[attn]") {
  run(h128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(hr64c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 3, .hkv = 1});
  run(h128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
  run(hr128, {.seqlens_q = {1, 40, 3}, .seqlens_k = {7, 1, 0}, .hq = 2, .hkv = 2, .value_range = 8.0f});
  // the launcher's pick between the two modes (gfx950: recompute on this non-causal shape)
  run(h128, {.seqlens_q = {100}, .seqlens_k = {100}, .hq = 2, .hkv = 1}, &hr128);
}

// dQ by packed 16-bit atomics into dQ (no dq_acc given): tails of the query tiles (rows past
// seqlen_q), several key tiles adding into one row, causal both ways, GQA and MQA, varlen with
// 1-token and empty sequences, large scores, f16.
TEST_CASE("attn_bwd atomic16: tails, seqlen 1, several key tiles, causal", "[attn]") {
  run(a128, {.seqlens_q = {70}, .seqlens_k = {150}});
  run(a128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
  run(a128, {.seqlens_q = {45}, .seqlens_k = {420}, .hq = 1, .hkv = 1});  // 4 key tiles
  run(a128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 1, .hkv = 1});
  run(a128c, {.seqlens_q = {40}, .seqlens_k = {170}, .hq = 1, .hkv = 1});
  run(a128c, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 1, .hkv = 1});  // the first 40 rows see nothing
}

TEST_CASE("attn_bwd atomic16: GQA, MQA, varlen with a 1-token and an empty sequence, large scores, f16", "[attn]") {
  run(a128, {.seqlens_q = {70}, .seqlens_k = {90}, .hq = 4, .hkv = 2});
  run(a64c, {.seqlens_q = {65}, .seqlens_k = {65}, .hq = 3, .hkv = 1});
  run(a128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
  run(a128, {.seqlens_q = {1, 40, 3}, .seqlens_k = {7, 1, 0}, .hq = 2, .hkv = 2, .value_range = 8.0f});
  run(ha128c, {.seqlens_q = {150}, .seqlens_k = {150}, .hq = 1, .hkv = 1});
  run(ha128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1});
}

// 48 keys a wave (192 a workgroup, query tiles of 16): tails of both, several key tiles, causal
// both ways with rows that see no key, GQA, varlen with a 1-token and an empty sequence, f16
TEST_CASE("attn_bwd 48 keys a wave: tails, several key tiles, causal both ways, GQA, varlen, f16", "[attn]") {
  run(m128, {.seqlens_q = {16}, .seqlens_k = {192}, .hq = 1, .hkv = 1});
  run(m128, {.seqlens_q = {70}, .seqlens_k = {250}, .hq = 4, .hkv = 2});
  run(m128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
  run(m128c, {.seqlens_q = {150}, .seqlens_k = {210}, .hq = 1, .hkv = 1});
  run(m128c, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 1, .hkv = 1});  // the first 40 rows see nothing
  run(m128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1, .value_range = 8.0f});
  run(m128tlh, {.seqlens_q = {40}, .seqlens_k = {200}, .hq = 1, .hkv = 1});
  run(m128tlh, {.seqlens_q = {100}, .seqlens_k = {60}, .hq = 2, .hkv = 1});
}

TEST_CASE("attn_bwd 48 keys a wave, atomic16: tails, several key tiles, causal, GQA, varlen, f16", "[attn]") {
  run(ma128, {.seqlens_q = {70}, .seqlens_k = {450}, .hq = 4, .hkv = 2});
  run(ma128, {.seqlens_q = {1}, .seqlens_k = {1}, .hq = 1, .hkv = 1});
  run(mha128c, {.seqlens_q = {150}, .seqlens_k = {210}, .hq = 1, .hkv = 1});
  run(mha128c, {.seqlens_q = {1, 90, 33, 0}, .seqlens_k = {1, 90, 50, 5}, .hq = 2, .hkv = 1, .value_range = 8.0f});
}

TEST_CASE("attn_bwd: launch errors", "[attn]") {
  rt::device& d = *S().dev;
  rt::buffer<int> c(d, std::vector<int>{0, 1});
  hipasm::kernels::attn_bwd_args a{.dq = c.addr(), .dk = c.addr(), .dv = c.addr(), .q = c.addr(), .k = c.addr(),
                                   .v = c.addr(), .o = c.addr(), .d_o = c.addr(), .lse = c.addr(),
                                   .dq_acc = c.addr(), .delta = c.addr(), .cu_seqlens_q = c.addr(),
                                   .cu_seqlens_k = c.addr(), .batch = 1, .max_seqlen_q = 1, .max_seqlen_k = 1,
                                   .num_q_heads = 3, .num_kv_heads = 2, .softmax_scale = 0.1f};
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, a), rt::error);  // 2 does not divide 3
  a.num_kv_heads = 1;
  a.softmax_scale = 0;
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, a), rt::error);
  a.softmax_scale = 0.1f;
  a.delta = 0;
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, a), rt::error);
  a.delta = c.addr();  // GQA (3 query heads, 1 kv head) without the partial-sum workspaces
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, a), rt::error);
  a.num_q_heads = 1;
  a.dq_acc = 0;  // dq_acc: needed by the atomic dQ only
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, a), rt::error);
  a.dq_acc = c.addr();  // a pair that is not an atomic and a recompute kernel of one mask
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k64, r64c, a), rt::error);
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, r64, k64, a), rt::error);
  CHECK_THROWS_AS(hipasm::kernels::launch_attn_bwd(d, *S().m, k128, hr128, a), rt::error);  // bf16 and f16
}
