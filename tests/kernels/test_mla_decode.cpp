// HIPASM_TEST_KERNELS: mla_decode.hip
// MLA decode (include/hipasm/kernels/mla_decode.hpp) in hipasm-sim against plain C++ (softmax
// attention in double from the same bf16 / fp8 inputs: keys the 576-element KV rows, values
// their first 512): 16 to 128 heads, 1 to 4 query tokens (causal at the end of the KV), empty and
// 1-row KV sequences, lengths not a multiple of the 16-row block, pages of 1, 4 and 64 rows in a
// shuffled cache whose unused rows are NaN, several KV splits (the combination kernel), fp8 KV
// in the target's format (decoded here by narrow_float_ref.hpp) with a per-tensor scale.
// The checker must report nothing.
//
// Tolerance (attn_fwd's): |O - ref| <= 2^-7 max|V| + 2^-8 |ref|, |LSE - ref| <= 1e-3 (|ref| + 1):
// P is rounded to bf16 before the PV product (2^-9 of sum p |v| <= 2^-9 max|V|), O to bf16
// (2^-9 |O|), split outputs are f32.
// fp8 Q (q_fp8, gfx950): Q given in e4m3fn with a scale (the reference takes the same values: no
// rounding of its own); the kernel rounds P to e4m3 (3 mantissa bits: 2^-4 of p, or 2^-10 absolute
// below e4m3's normals, in the kernel's units where the row's reference max has p = 1 and so in
// units of the true max, which the kernel's lags by at most 8 bits) before the PV product, so
// |O - ref| <= sum_j (2^-4 p_j + 2^-10) |v_j| / sum_j p_j + 2^-8 |ref| + 2^-10 max|V| (p_j: the
// reference's, relative to the row's max).
#include <catch2/catch.hpp>

#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/mla_decode_launch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {

hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("mla_decode");
  return s;
}
using hipasm::test::bf16;
using hipasm::test::from_bf16;

const hipasm::test::minifloat& fp8_format() {
  static const hipasm::test::minifloat f = hipasm::test::f8_formats_of(hipasm::test::test_arch()).fp8;
  return f;
}

constexpr uint32_t DK = 576, DV = 512;

struct problem {
  std::vector<int> qlens, kvlens;
  uint32_t heads = 16, splits = 1;
  float q_range = 2.0f;
  float key_ramp = 0.0f;  // KV row j scaled by 1 + key_ramp j (row maxima that grow along the keys)
  bool fused = false;     // the combination in the attention kernel (counters), run twice
};

constexpr float q8_scale = 0x1p-7f;  // fp8 Q: value = e4m3 x 2^-7 (|q| up to 448 / 128 = 3.5)

void run(const hk::mla_decode_kernel_ref& k, const problem& pr) {
  const uint32_t B = static_cast<uint32_t>(pr.qlens.size()), H = pr.heads, P = k.config.page_size;
  const bool f8 = k.config.kv_cache == hk::mla_kv_cache::fp8, f8q = k.config.q_fp8;
  INFO(k.name << " heads=" << H << " splits=" << pr.splits << " batch=" << B);
  for (uint32_t b = 0; b < B; ++b) INFO("seq " << b << ": q " << pr.qlens[b] << " kv " << pr.kvlens[b]);
  const auto [cq, max_q] = hipasm::test::pack_seqlens(pr.qlens);
  const uint32_t tq = static_cast<uint32_t>(cq[B]);
  // pages: each sequence's from a shuffled pool with 3 spare pages (their rows NaN)
  std::vector<int> kv_indptr(B + 1, 0), last(B, 0);
  for (uint32_t b = 0; b < B; ++b) {
    const int np = (pr.kvlens[b] + int(P) - 1) / int(P);
    kv_indptr[b + 1] = kv_indptr[b] + np;
    last[b] = np ? pr.kvlens[b] - (np - 1) * int(P) : 0;
  }
  const uint32_t total_pages = kv_indptr[B] + 3;
  std::mt19937 rng(tq * 7919u + total_pages * 131u + H + pr.splits * 17u + P);
  std::vector<int> pool(total_pages);
  std::iota(pool.begin(), pool.end(), 0);
  std::shuffle(pool.begin(), pool.end(), rng);
  std::vector<int> indices(pool.begin(), pool.begin() + kv_indptr[B]);
  if (indices.empty()) indices.push_back(0);
  // KV values (double) of each cache row; unused rows NaN
  const size_t rows = size_t(total_pages) * P;
  std::vector<double> kvv(rows * DK, NAN);
  std::vector<uint16_t> kv16(rows * DK, 0x7fc0);
  std::vector<uint8_t> kv8(rows * DK, f8 ? static_cast<uint8_t>(hipasm::test::encode(fp8_format(), NAN, false)) : 0);
  const float kv_scale = f8 ? 0.0625f : 1.0f;
  std::uniform_real_distribution<float> u1(-1.0f, 1.0f), uq(-pr.q_range, pr.q_range);
  const double fp8_max = hipasm::test::decode(fp8_format(), fp8_format().special == hipasm::test::minifloat::fnuz ? 0x7f : 0x7e);
  for (uint32_t b = 0; b < B; ++b)
    for (int j = 0; j < pr.kvlens[b]; ++j) {
      const size_t r = size_t(indices[kv_indptr[b] + j / int(P)]) * P + j % int(P);
      const double ramp = 1.0 + pr.key_ramp * j;
      for (uint32_t e = 0; e < DK; ++e) {
        if (f8) {
          const uint8_t c = static_cast<uint8_t>(hipasm::test::encode(fp8_format(), u1(rng) * fp8_max * 0.5 * ramp, true));
          kv8[r * DK + e] = c;
          kvv[r * DK + e] = hipasm::test::decode(fp8_format(), c) * kv_scale;
        } else {
          const uint16_t h = bf16(u1(rng) * ramp);
          kv16[r * DK + e] = h;
          kvv[r * DK + e] = from_bf16(h);
        }
      }
    }
  std::vector<uint16_t> q(size_t(tq) * H * DK + 1);
  for (auto& x : q) x = bf16(uq(rng));
  // fp8 Q: e4m3 codes of values in +-q_range, qv their values (bf16 Q: the bf16's)
  std::vector<uint8_t> q8(f8q ? q.size() : 1);
  std::vector<double> qv(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    if (f8q) {
      q8[i] = static_cast<uint8_t>(hipasm::test::encode(fp8_format(), uq(rng) / q8_scale, true));
      qv[i] = hipasm::test::decode(fp8_format(), q8[i]) * q8_scale;
    } else {
      qv[i] = from_bf16(q[i]);
    }
  }
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> Q(d, q), KV16(d, f8 ? std::vector<uint16_t>(1) : kv16);
  rt::buffer<uint8_t> KV8(d, f8 ? kv8 : std::vector<uint8_t>(1)), Q8(d, q8);
  rt::buffer<int> CQ(d, cq), KP(d, kv_indptr), KI(d, indices), KL(d, last.empty() ? std::vector<int>{0} : last);
  rt::buffer<uint16_t> O(d, std::vector<uint16_t>(size_t(tq) * H * DV + 1, 0x7fc1u));
  rt::buffer<uint32_t> L(d, std::vector<uint32_t>(size_t(tq) * H + 1, 0x7fc00001u));
  const auto ws = hk::mla_decode_workspace_for(tq, H, pr.splits, k.config.part_bf16);
  rt::buffer<uint32_t> PO(d, std::vector<uint32_t>(ws.part_o_bytes / 4 + 1, 0x7fc00002u));
  rt::buffer<uint32_t> PL(d, std::vector<uint32_t>(ws.part_lse_bytes / 4 + 1, 0x7fc00003u));
  const double scale = 1.0 / std::sqrt(double(DK));
  hk::mla_decode_args a{.o = O.addr(), .lse = L.addr(), .q = Q.addr(), .kv = f8 ? KV8.addr() : KV16.addr(),
                        .qo_indptr = CQ.addr(), .kv_indptr = KP.addr(), .kv_indices = KI.addr(),
                        .kv_last_page_lens = KL.addr(), .batch = B, .max_seqlen_q = max_q, .num_heads = H,
                        .total_q = tq, .kv_bytes = rows * DK * (f8 ? 1 : 2),
                        .num_indices = static_cast<uint32_t>(indices.size()), .softmax_scale = float(scale),
                        .num_kv_splits = pr.splits, .part_o = PO.addr(), .part_lse = PL.addr(), .kv_scale = kv_scale,
                        .q_scale = f8q ? q8_scale : 1.0f};
  if (f8q) a.q = Q8.addr();
  const uint64_t ncnt = hk::mla_decode_counters_for(tq, H);
  rt::buffer<uint32_t> CN(d, std::vector<uint32_t>(ncnt + 1, 0u));
  if (pr.fused) a.counters = CN.addr();
  // (fused: a second launch sees the counters the first left, which must be zero again)
  for (int run = 0; run < (pr.fused ? 2 : 1); ++run) {
    if (run == 1) O.upload(std::vector<uint16_t>(size_t(tq) * H * DV + 1, 0x7fc1u));
    auto rep = hk::launch_mla_decode(d, *S().m, k, a);
    for (const auto& diag : rep.attn.diagnostics) FAIL_CHECK("checker: " << diag);
    for (const auto& diag : rep.combine.diagnostics) FAIL_CHECK("checker (combine): " << diag);
    if (pr.fused)
      for (uint32_t c : CN.download()) CHECK(c == 0u);
  }
  const auto o = O.download();
  const auto l = L.download();
  CHECK(o.back() == 0x7fc1u);
  CHECK(l.back() == 0x7fc00001u);
  int bad = 0;
  std::vector<double> sc, ref(DV), perr(DV);
  for (uint32_t b = 0; b < B; ++b) {
    const int sq = pr.qlens[b], sk = pr.kvlens[b];
    auto row_of = [&](int j) { return size_t(indices[kv_indptr[b] + j / int(P)]) * P + j % int(P); };
    for (int t = 0; t < sq; ++t)
      for (uint32_t h = 0; h < H; ++h) {
        const size_t qi = (size_t(cq[b] + t) * H + h);
        const int visible = std::clamp(sk - sq + t + 1, 0, sk);
        sc.assign(visible, 0.0);
        double mx = -INFINITY;
        for (int j = 0; j < visible; ++j) {
          const double* kr = &kvv[row_of(j) * DK];
          double dot = 0;
          for (uint32_t e = 0; e < DK; ++e) dot += qv[qi * DK + e] * kr[e];
          sc[j] = dot * scale;
          mx = std::max(mx, sc[j]);
        }
        double sum = 0, vmax = 0;
        for (int j = 0; j < visible; ++j) sum += (sc[j] = std::exp(sc[j] - mx));
        std::fill(ref.begin(), ref.end(), 0.0);
        std::fill(perr.begin(), perr.end(), 0.0);
        for (int j = 0; j < visible; ++j) {
          const double* vr = &kvv[row_of(j) * DK];
          const double p_err = std::ldexp(sc[j], -4) + std::ldexp(1.0, -10);  // (P in e4m3)
          for (uint32_t e = 0; e < DV; ++e) {
            ref[e] += sc[j] * vr[e];
            perr[e] += p_err * std::fabs(vr[e]);
            vmax = std::max(vmax, std::fabs(vr[e]));
          }
        }
        const double lse_ref = visible ? mx + std::log(sum) : -INFINITY;
        float lse_got;
        std::memcpy(&lse_got, &l[qi], 4);
        const bool lse_ok = visible ? std::fabs(lse_got - lse_ref) <= 1e-3 * (std::fabs(lse_ref) + 1)
                                    : (std::isinf(lse_got) && lse_got < 0);
        if (!lse_ok && ++bad <= 5)
          FAIL_CHECK("LSE seq " << b << " token " << t << " head " << h << " = " << lse_got << ", expected " << lse_ref);
        for (uint32_t e = 0; e < DV; ++e) {
          const double r = visible ? ref[e] / sum : 0.0;
          const float got = from_bf16(o[qi * DV + e]);
          const double tol = f8q ? (visible ? perr[e] / sum : 0.0) + std::ldexp(std::fabs(r), -8) + std::ldexp(vmax, -10)
                                 : std::ldexp(vmax, -7) + std::ldexp(std::fabs(r), -8);
          if (!(std::fabs(got - r) <= tol) && ++bad <= 5)
            FAIL_CHECK("O seq " << b << " token " << t << " head " << h << " dim " << e << " = " << got
                                << ", expected " << r);
        }
      }
  }
  CHECK(bad == 0);
}

using hk::mla_decode_config;
using hk::mla_kv_cache;
const hk::mla_decode_kernel_ref w1{"mla_w1", mla_decode_config{.waves = 1}, "mla_combine"};
const hk::mla_decode_kernel_ref w2_p1{"mla_w2_p1", mla_decode_config{.waves = 2, .page_size = 1, .prefetch = 1}, "mla_combine"};
const hk::mla_decode_kernel_ref w4_pg4{"mla_w4_pg4", mla_decode_config{.waves = 4, .page_size = 4}, "mla_combine"};
const hk::mla_decode_kernel_ref w1_pg64{"mla_w1_pg64", mla_decode_config{.waves = 1, .page_size = 64}, "mla_combine"};
const hk::mla_decode_kernel_ref w1_fp8{"mla_w1_fp8", mla_decode_config{.waves = 1, .prefetch = 1, .kv_cache = mla_kv_cache::fp8}, "mla_combine"};
const hk::mla_decode_kernel_ref w4_fp8{"mla_w4_fp8", mla_decode_config{.waves = 4, .prefetch = 1, .kv_cache = mla_kv_cache::fp8}, "mla_combine"};

const hk::mla_decode_kernel_ref sd4{"mla_sd4", mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 1}, "mla_combine"};
const hk::mla_decode_kernel_ref sd2_fp8{"mla_sd2_fp8", mla_decode_config{.waves = 2, .split_dims = true, .prefetch = 1, .kv_cache = mla_kv_cache::fp8}, "mla_combine"};
const hk::mla_decode_kernel_ref sd4_fp8_pg16{"mla_sd4_fp8_pg16", mla_decode_config{.waves = 4, .split_dims = true, .page_size = 16, .prefetch = 2, .kv_cache = mla_kv_cache::fp8}, "mla_combine"};
const hk::mla_decode_kernel_ref w8_pg16{"mla_w8_pg16", mla_decode_config{.waves = 8, .page_size = 16, .prefetch = 1}, "mla_combine"};

}  // namespace

TEST_CASE("mla_decode: 16 heads, one query token, empty / 1-row / partial-block KV", "[mla]") {
  run(w1, {.qlens = {1, 1, 1, 1}, .kvlens = {1, 0, 37, 100}});
}

TEST_CASE("mla_decode: 4 query tokens, causal at the end of the KV (a token that sees no key)", "[mla]") {
  run(w1, {.qlens = {4, 4, 4}, .kvlens = {50, 3, 16}});
}

TEST_CASE("mla_decode: KV splits and the combination (empty splits, mixed query lengths)", "[mla]") {
  run(w2_p1, {.qlens = {1, 2, 4}, .kvlens = {70, 33, 5}, .heads = 32, .splits = 3});
  run(w1, {.qlens = {1, 1}, .kvlens = {200, 0}, .heads = 16, .splits = 5, .q_range = 3.0f, .key_ramp = 0.02f});
  // 40 splits: the combination's 4 waves a head, each over 10 splits in two rounds, many empty
  // (a sequence of no key at all: every wave's splits empty)
  run(w1, {.qlens = {1, 2, 1}, .kvlens = {900, 300, 0}, .heads = 16, .splits = 40, .key_ramp = 0.01f});
}

TEST_CASE("mla_decode: pages of 4 and 64 rows, 64 and 128 heads", "[mla]") {
  run(w4_pg4, {.qlens = {2, 1}, .kvlens = {45, 18}, .heads = 64, .splits = 2});
  run(w4_pg4, {.qlens = {1}, .kvlens = {23}, .heads = 128});
  run(w1_pg64, {.qlens = {1, 3, 1}, .kvlens = {130, 64, 1}, .heads = 16, .splits = 1});
  run(w1_pg64, {.qlens = {1}, .kvlens = {150}, .heads = 16, .splits = 4});
}

TEST_CASE("mla_decode: 8 waves (128 rows: 32 heads x 4 tokens, 128 heads), pages of one block", "[mla]") {
  run(w8_pg16, {.qlens = {4, 1}, .kvlens = {40, 16}, .heads = 32, .splits = 2});
  run(w8_pg16, {.qlens = {1}, .kvlens = {33}, .heads = 128});
  // 128 heads over 9 splits: the combination's 2 waves a head (the bench's h128 rows)
  run(w8_pg16, {.qlens = {1, 1}, .kvlens = {300, 70}, .heads = 128, .splits = 9});
}

TEST_CASE("mla_decode: bf16 split partials (part_bf16) and their combination", "[mla]") {
  const hk::mla_decode_kernel_ref w8_b16{"mla_w8_b16", mla_decode_config{.waves = 8, .prefetch = 2, .part_bf16 = true}, "mla_combine_b16"};
  const hk::mla_decode_kernel_ref w2_pg4_b16{
      "mla_w2_pg4_b16", mla_decode_config{.waves = 2, .page_size = 4, .prefetch = 1, .part_bf16 = true}, "mla_combine_b16"};
  const hk::mla_decode_kernel_ref w8_fp8_b16{
      "mla_w8_fp8_b16", mla_decode_config{.waves = 8, .prefetch = 1, .kv_cache = mla_kv_cache::fp8, .part_bf16 = true},
      "mla_combine_b16"};
  // 128 heads over 2 and 9 splits (the combination's 2 waves a head), 32 heads x 4 tokens (rows
  // past a sequence's tokens)
  run(w8_b16, {.qlens = {1, 1}, .kvlens = {300, 70}, .heads = 128, .splits = 2, .key_ramp = 0.01f});
  run(w8_b16, {.qlens = {1}, .kvlens = {200}, .heads = 128, .splits = 9, .q_range = 3.0f});
  run(w8_b16, {.qlens = {4, 1}, .kvlens = {40, 16}, .heads = 32, .splits = 2});
  // 40 splits (4 waves a head, two rounds, many empty; a sequence of no key)
  run(w2_pg4_b16, {.qlens = {1, 2, 1}, .kvlens = {900, 300, 0}, .heads = 32, .splits = 40, .key_ramp = 0.01f});
  run(w2_pg4_b16, {.qlens = {1, 2, 4}, .kvlens = {70, 33, 5}, .heads = 32, .splits = 3});
  run(w8_fp8_b16, {.qlens = {1, 1}, .kvlens = {150, 17}, .heads = 128, .splits = 3});
  // waves splitting the dims (each stores its dims of the 16 rows' partials), the combination by
  // the second kernel and fused (the last split reads the bf16 partials)
  const hk::mla_decode_kernel_ref sd4_b16{
      "mla_sd4_b16", mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 1, .part_bf16 = true}, "mla_combine_b16"};
  const hk::mla_decode_kernel_ref sd2_fp8_b16{
      "mla_sd2_fp8_b16",
      mla_decode_config{.waves = 2, .split_dims = true, .page_size = 4, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .part_bf16 = true},
      "mla_combine_b16"};
  run(sd4_b16, {.qlens = {1, 4, 1}, .kvlens = {300, 37, 0}, .heads = 16, .splits = 5, .key_ramp = 0.01f});
  run(sd4_b16, {.qlens = {1, 2}, .kvlens = {100, 17}, .heads = 32, .splits = 1, .q_range = 3.0f});
  run(sd2_fp8_b16, {.qlens = {1, 3}, .kvlens = {200, 45}, .heads = 16, .splits = 9});
  run(sd4_b16, {.qlens = {1, 1, 1, 4}, .kvlens = {100, 0, 1, 37}, .heads = 16, .splits = 3, .key_ramp = 0.02f, .fused = true});
  run(sd2_fp8_b16, {.qlens = {2, 1}, .kvlens = {50, 17}, .heads = 32, .splits = 4, .fused = true});
}

TEST_CASE("mla_decode: fp8 KV (the target's e4m3) with a per-tensor scale", "[mla]") {
  run(w1_fp8, {.qlens = {1, 4}, .kvlens = {40, 21}, .heads = 16, .splits = 2});
  run(w4_fp8, {.qlens = {1}, .kvlens = {33}, .heads = 64});
  // 16 rows a wave over pages of 16 (gfx950: the PV product over block pairs): splits of odd and
  // even block counts (a pair's block alone at a split's end), a partial page, an empty sequence,
  // one key, growing row maxima
  const hk::mla_decode_kernel_ref w2_fp8_pg16_p2{
      "mla_w2_fp8_pg16_p2", mla_decode_config{.waves = 2, .page_size = 16, .prefetch = 2, .kv_cache = mla_kv_cache::fp8},
      "mla_combine"};
  run(w2_fp8_pg16_p2, {.qlens = {4, 1, 2, 1}, .kvlens = {150, 0, 33, 1}, .heads = 16, .splits = 3, .key_ramp = 0.02f});
  run(w2_fp8_pg16_p2, {.qlens = {1, 3}, .kvlens = {77, 200}, .heads = 32, .splits = 1, .q_range = 3.0f});
  run(w2_fp8_pg16_p2, {.qlens = {2}, .kvlens = {64}, .heads = 16, .splits = 2});
  const hk::mla_decode_kernel_ref w4_fp8_p2_b16{
      "mla_w4_fp8_p2_b16", mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .part_bf16 = true},
      "mla_combine_b16"};
  run(w4_fp8_p2_b16, {.qlens = {4, 4, 1}, .kvlens = {300, 19, 50}, .heads = 16, .splits = 5, .key_ramp = 0.01f});
  run(w4_fp8_p2_b16, {.qlens = {4}, .kvlens = {96}, .heads = 16, .splits = 1, .q_range = 3.0f});
}

TEST_CASE("mla_decode: waves splitting the dims of 16 rows (partial scores summed through LDS)", "[mla]") {
  run(sd4, {.qlens = {1, 1, 1}, .kvlens = {100, 0, 1}, .heads = 16, .splits = 1, .q_range = 3.0f, .key_ramp = 0.02f});
  run(sd4, {.qlens = {4, 2}, .kvlens = {50, 17}, .heads = 32, .splits = 3});
  run(sd2_fp8, {.qlens = {1, 3}, .kvlens = {45, 30}, .heads = 16, .splits = 2});
  // 4 waves over fp8 rows in pages of 16: variable KV lengths (a partial page, an empty
  // sequence), 1 to 4 query tokens, 16 and 32 heads, splits
  run(sd4_fp8_pg16, {.qlens = {1, 4, 1, 2}, .kvlens = {100, 37, 0, 16}, .heads = 16, .splits = 3, .key_ramp = 0.01f});
  run(sd4_fp8_pg16, {.qlens = {4, 1}, .kvlens = {70, 5}, .heads = 32, .splits = 1, .q_range = 3.0f});
}

TEST_CASE("mla_decode: 3 and 4 blocks in flight (gfx950's LDS), page entries 4 blocks a load", "[mla]") {
  if (hipasm::test::test_arch() != "gfx950") return;
  const hk::mla_decode_kernel_ref w2_p3{"mla_w2_p3", mla_decode_config{.waves = 2, .prefetch = 3}, "mla_combine"};
  const hk::mla_decode_kernel_ref sd4_p4{
      "mla_sd4_fp8_p4", mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 4, .kv_cache = mla_kv_cache::fp8},
      "mla_combine"};
  // splits of 1 to 13 blocks (the loop's group of 4 blocks' entries changing mid-split), a
  // sequence shorter than the ring, an empty one
  run(w2_p3, {.qlens = {1, 2, 1}, .kvlens = {205, 40, 0}, .heads = 16, .splits = 2, .key_ramp = 0.01f});
  run(sd4_p4, {.qlens = {1, 4, 1}, .kvlens = {300, 77, 20}, .heads = 16, .splits = 3, .q_range = 3.0f});
  run(sd4_p4, {.qlens = {1}, .kvlens = {150}, .heads = 32, .splits = 1});
}

TEST_CASE("mla_decode: the combination fused into the attention kernel (the last split combines)", "[mla]") {
  // split_dims (the workgroup counts once, each wave combines 4 or 8 of the 16 rows): empty and
  // 1-row sequences, splits past a sequence's blocks (lse -inf partials), 4 tokens, 32 heads
  run(sd4, {.qlens = {1, 1, 1, 4}, .kvlens = {100, 0, 1, 37}, .heads = 16, .splits = 3, .key_ramp = 0.02f, .fused = true});
  run(sd4, {.qlens = {2, 1}, .kvlens = {50, 17}, .heads = 32, .splits = 2, .fused = true});
  run(sd2_fp8, {.qlens = {1, 3}, .kvlens = {45, 30}, .heads = 16, .splits = 4, .fused = true});
  // split boundaries: 16 splits of 1 or 0 blocks, and a split count not dividing the blocks
  run(sd4_fp8_pg16, {.qlens = {1, 4, 1}, .kvlens = {256, 33, 16}, .heads = 16, .splits = 16, .q_range = 3.0f, .fused = true});
  run(sd4_fp8_pg16, {.qlens = {1}, .kvlens = {161}, .heads = 32, .splits = 5, .fused = true});
}

TEST_CASE("mla_decode: fp8 Q (q_fp8, gfx950): fp8 MFMAs on the fp8 rows, P in e4m3", "[mla]") {
  if (hipasm::test::test_arch() != "gfx950") return;
  const hk::mla_decode_kernel_ref w1_fp8q{
      "mla_w1_fp8q", mla_decode_config{.waves = 1, .prefetch = 3, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true}, "mla_combine"};
  const hk::mla_decode_kernel_ref w4_fp8q_pg16{
      "mla_w4_fp8q_pg16", mla_decode_config{.waves = 4, .page_size = 16, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true},
      "mla_combine"};
  // empty, 1-row and partial-block sequences, 1 to 4 tokens (causal), splits, growing row maxima
  run(w1_fp8q, {.qlens = {1, 1, 4, 2}, .kvlens = {1, 0, 37, 100}, .heads = 16, .splits = 1, .key_ramp = 0.02f});
  run(w1_fp8q, {.qlens = {1, 3}, .kvlens = {200, 45}, .heads = 32, .splits = 3, .q_range = 3.0f});
  // 64 rows a workgroup (16 heads x 4 tokens, the bench's q4 rows; 64 heads), pages of 16 rows
  run(w4_fp8q_pg16, {.qlens = {4, 4, 1}, .kvlens = {150, 20, 33}, .heads = 16, .splits = 2, .key_ramp = 0.01f});
  run(w4_fp8q_pg16, {.qlens = {1, 2}, .kvlens = {70, 16}, .heads = 64, .splits = 1});
  // 16 rows on 2 or 4 waves splitting the dims (the bench's 1-token rows),
  // the combination by the second kernel and fused
  const hk::mla_decode_kernel_ref sd4_fp8q{
      "mla_sd4_fp8q", mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true},
      "mla_combine"};
  const hk::mla_decode_kernel_ref sd2_fp8q_pg16{
      "mla_sd2_fp8q_pg16",
      mla_decode_config{.waves = 2, .split_dims = true, .page_size = 16, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true},
      "mla_combine"};
  run(sd4_fp8q, {.qlens = {1, 1, 4, 2}, .kvlens = {1, 0, 37, 100}, .heads = 16, .splits = 1, .key_ramp = 0.02f});
  run(sd4_fp8q, {.qlens = {1, 3}, .kvlens = {200, 45}, .heads = 32, .splits = 3, .q_range = 3.0f});
  run(sd4_fp8q, {.qlens = {1, 1, 1, 4}, .kvlens = {100, 0, 1, 37}, .heads = 16, .splits = 3, .key_ramp = 0.02f, .fused = true});
  run(sd2_fp8q_pg16, {.qlens = {1, 3}, .kvlens = {45, 30}, .heads = 16, .splits = 4, .fused = true});
  run(sd2_fp8q_pg16, {.qlens = {1}, .kvlens = {161}, .heads = 32, .splits = 5});
  // bf16 split partials (the bench's rows of more than 4 splits): 16 rows on 4 waves splitting
  // the dims (fp8 and bf16 Q), 64 rows on 4 waves of 16
  const hk::mla_decode_kernel_ref sd4_fp8q_b16{
      "mla_sd4_fp8q_b16",
      mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true},
      "mla_combine_b16"};
  const hk::mla_decode_kernel_ref sd4_fp8_b16{
      "mla_sd4_fp8_b16", mla_decode_config{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = mla_kv_cache::fp8, .part_bf16 = true},
      "mla_combine_b16"};
  const hk::mla_decode_kernel_ref w4_fp8q_b16{
      "mla_w4_fp8q_b16", mla_decode_config{.waves = 4, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true, .part_bf16 = true},
      "mla_combine_b16"};
  run(sd4_fp8q_b16, {.qlens = {1, 1, 4, 2}, .kvlens = {300, 0, 37, 100}, .heads = 16, .splits = 6, .key_ramp = 0.02f});
  run(sd4_fp8q_b16, {.qlens = {1}, .kvlens = {50}, .heads = 32, .splits = 1, .q_range = 3.0f});
  run(sd4_fp8_b16, {.qlens = {1, 3}, .kvlens = {250, 45}, .heads = 16, .splits = 8, .q_range = 3.0f});
  run(sd4_fp8q_b16, {.qlens = {1, 4, 1}, .kvlens = {256, 33, 16}, .heads = 16, .splits = 2, .q_range = 3.0f, .fused = true});
  run(sd4_fp8_b16, {.qlens = {1}, .kvlens = {161}, .heads = 32, .splits = 4, .fused = true});
  run(w4_fp8q_b16, {.qlens = {4, 4, 1}, .kvlens = {300, 20, 33}, .heads = 16, .splits = 5, .key_ramp = 0.01f});
}

TEST_CASE("mla_decode: launch errors", "[mla]") {
  rt::device& d = *S().dev;
  rt::buffer<int> c(d, std::vector<int>{0, 1});
  hk::mla_decode_args a{.o = c.addr(), .lse = c.addr(), .q = c.addr(), .kv = c.addr(), .qo_indptr = c.addr(),
                        .kv_indptr = c.addr(), .kv_indices = c.addr(), .kv_last_page_lens = c.addr(), .batch = 1,
                        .max_seqlen_q = 1, .num_heads = 24, .total_q = 1, .kv_bytes = 8, .num_indices = 1,
                        .softmax_scale = 0.1f};
  CHECK_THROWS_AS(hk::launch_mla_decode(d, *S().m, w1, a), rt::error);  // 24 heads: not a multiple of 16
  a.num_heads = 16;
  a.max_seqlen_q = 5;
  CHECK_THROWS_AS(hk::launch_mla_decode(d, *S().m, w1, a), rt::error);
  a.max_seqlen_q = 1;
  a.num_kv_splits = 2;  // no workspace
  CHECK_THROWS_AS(hk::launch_mla_decode(d, *S().m, w1, a), rt::error);
  a.num_kv_splits = 1;
  a.q_scale = 0.5f;  // a q_scale for bf16 Q
  CHECK_THROWS_WITH(hk::launch_mla_decode(d, *S().m, w1, a), Catch::Matchers::Contains("q_fp8"));
  a.q_scale = 1.0f;
  a.counters = c.addr();  // the fused combination: split_dims only
  CHECK_THROWS_WITH(hk::launch_mla_decode(d, *S().m, w1, a), Catch::Matchers::Contains("split_dims"));
}

TEST_CASE("mla_decode: the default split count", "[mla]") {
  // MI355X (256 CUs, 160 KiB of LDS), 16 heads x 1 token on 4 waves splitting the dims (fp8,
  // prefetch 3: two workgroups a CU by LDS)
  constexpr mla_decode_config sd{.waves = 4, .split_dims = true, .prefetch = 3, .kv_cache = mla_kv_cache::fp8};
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, sd, 64, 1, 1024, 16) == 4);    // two a CU: 8 of 8 blocks
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, sd, 32, 1, 8192, 16) == 16);   // two a CU, 32 blocks each
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, sd, 256, 1, 1024, 16) == 2);   // 32 blocks each
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, sd, 4, 1, 1024, 16) == 32);    // short grid: 2 blocks each
  // MI300X (304 CUs, 64 KiB), 128 heads on 8 waves (one workgroup a CU)
  constexpr mla_decode_config r128{.waves = 8, .prefetch = 2};
  CHECK(hk::mla_decode_default_splits(304, 64 * 1024, r128, 8, 1, 1024, 128) == 8);   // at least 8 blocks a split
  CHECK(hk::mla_decode_default_splits(304, 64 * 1024, r128, 1, 1, 8192, 128) == 64);
  CHECK(hk::mla_decode_default_splits(304, 64 * 1024, r128, 128, 1, 1024, 128) == 2);
  CHECK(hk::mla_decode_default_splits(304, 64 * 1024, r128, 4, 1, 0, 128) == 1);      // no KV
  // fp8 Q, 64 rows on 4 waves: one workgroup a CU, at least 16 blocks a split
  constexpr mla_decode_config f8q{.waves = 4, .prefetch = 2, .kv_cache = mla_kv_cache::fp8, .q_fp8 = true};
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, f8q, 32, 1, 8192, 64) == 8);
  CHECK(hk::mla_decode_default_splits(256, 160 * 1024, f8q, 32, 1, 1024, 64) == 4);
}
