// HIPASM_TEST_KERNELS: paged_attn_decode.hip
// Paged-attention decode (include/hipasm/kernels/paged_attn_decode.hpp) in hipasm-sim against a
// plain C++ reference: K and V gathered through the block table from aiter's cache layouts,
// scores and softmax in double. Several batches, context lengths that are not multiples of the
// block size (1 included) and differ per sequence, GQA 1/4/8, shuffled block tables, NaN in
// every cache slot past a context (masking), large-magnitude scores, the split (combined in the
// kernel by the last workgroup of a sequence and KV head; launched twice on one workspace, whose
// counters must be left zero) and without; the checker must stay silent.
// The fp8 cache (pa_kv_cache::fp8_per_token, aiter's pertokenFp8 layouts: K [blocks][kv heads]
// [D/16][block][16], V [blocks][kv heads][block/16][D][16] fp8 bytes, f32 scales [blocks][kv
// heads][block] for K and V; e4m3fnuz bytes on gfx942, OCP e4m3fn on gfx950): the reference
// decodes the bytes itself (tests/common/narrow_float_ref.hpp, not the kernel's conversion), every
// byte value but NaN drawn (zeros, denormals, +-the largest),
// per-token scales over a 2^8 range and some zero; unused slots hold NaN bytes and NaN scales.
//
// Tolerance, |got - want| <= 2^-8 (max |v| + |want|): the kernel rounds the probabilities to
// bf16 for the P.V MFMA (relative 2^-9 each: at most 2^-9 max|v| on the weighted mean, whose
// denominator stays f32) and the output to bf16 (2^-9 |want|); the f32 scores and sums add
// ~2^-20. Twice that bound. With fp8, v is the scaled value (fp8 * its scale): the kernel folds
// the V scale into the bf16 probability (the same relative 2^-9); S is exact but for q elements
// below ~2^-10 of their head's largest (the kernel's two fp8 terms of Q), each off by at most
// 2^-18 of that largest: far inside the bound. Q as one fp8 term (aiter's) fails 5 of 6 fp8 cases.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"
#include "narrow_float_ref.hpp"

#include <hipasm/kernels/paged_attn_decode.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "paged_attn_configs.hpp"

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

namespace {
using hipasm::test::bf16;
using hipasm::test::from_bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("paged_attn_decode");
  return s;
}
constexpr uint16_t bf16_nan = 0x7fc0;
// fp8 in the target's format (gfx942 e4m3fnuz, gfx950 OCP e4m3fn), narrow_float_ref.hpp
const hipasm::test::minifloat& fp8_format() {
  static const hipasm::test::minifloat f = hipasm::test::f8_formats_of(hipasm::test::test_arch()).fp8;
  return f;
}
double fp8_value(uint8_t b) { return hipasm::test::decode(fp8_format(), b); }

struct pa_case {
  std::vector<uint32_t> ctx;     // context length per sequence
  uint32_t num_kv_heads = 2;
  double qk_range = 1.0;         // q and k uniform in [-r, r]
  double scale = 0;              // 0: 1 / sqrt(head_dim)
  uint32_t partition_blocks = 0; // 0: the launch's choice
  uint32_t extra_blocks = 3;     // unused cache blocks (NaN)
  int q_spread = 0;              // > 0: each q element also times 2^-u, u uniform in 0..q_spread,
                                 // and the second head of each KV head all zero (the fp8 kernel's
                                 // Q split scales each head by its largest element)
  int seed = 1;
};

// Runs one case and checks every output element; returns the number of partitions used.
template <hk::paged_attn_decode_config C>
uint32_t run_case(const char* name, const pa_case& pc) {
  constexpr int D = C.head_dim, BS = C.block_size, G = C.gqa;
  constexpr bool F8 = C.kv_cache == hk::pa_kv_cache::fp8_per_token;
  using elem = std::conditional_t<F8, uint8_t, uint16_t>;
  constexpr int X = 16 / sizeof(elem);  // elements of a 16-byte chunk: the layouts' innermost dimension
  const uint32_t seqs = static_cast<uint32_t>(pc.ctx.size()), KVH = pc.num_kv_heads, H = KVH * G;
  std::mt19937 rng(pc.seed);
  std::uniform_real_distribution<double> uq(-pc.qk_range, pc.qk_range), uv(-1.0, 1.0);
  const uint32_t max_ctx = *std::max_element(pc.ctx.begin(), pc.ctx.end());
  const uint32_t max_blocks = (max_ctx + BS - 1) / BS;
  uint32_t used = 0;
  for (uint32_t c : pc.ctx) used += (c + BS - 1) / BS;
  const uint32_t num_blocks = used + pc.extra_blocks;
  // a shuffled assignment of physical blocks to (sequence, logical block)
  std::vector<uint32_t> perm(num_blocks);
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), rng);
  const uint32_t bt_stride = max_blocks + 1;  // a padded table row
  std::vector<int> bt(size_t(seqs) * bt_stride, 0x7fffffff);  // entries past a context: never read
  for (uint32_t s = 0, next = 0; s < seqs; ++s)
    for (uint32_t b = 0; b < (pc.ctx[s] + BS - 1) / BS; ++b) bt[size_t(s) * bt_stride + b] = static_cast<int>(perm[next++]);

  // caches in aiter's layouts, all NaN, then each sequence's tokens written
  const size_t block_elems = size_t(KVH) * BS * D;
  const elem unused = F8 ? static_cast<elem>(fp8_format().nan_code(false)) : bf16_nan;
  std::vector<elem> kc(num_blocks * block_elems, unused), vc(num_blocks * block_elems, unused);
  auto k_at = [&](uint32_t blk, uint32_t h, uint32_t t, uint32_t d) -> elem& {  // [blk][h][D/X][BS][X]
    return kc[blk * block_elems + (size_t(h) * (D / X) + d / X) * BS * X + t * X + d % X];
  };
  auto v_at = [&](uint32_t blk, uint32_t h, uint32_t t, uint32_t d) -> elem& {  // [blk][h][BS/X][D][X]
    return vc[blk * block_elems + (size_t(h) * (BS / X) + t / X) * D * X + d * X + t % X];
  };
  // fp8 scales [blk][h][BS] (NaN where unused); a bf16 cache has none (1 in the reference)
  std::vector<float> ksc(F8 ? size_t(num_blocks) * KVH * BS : 0, NAN), vsc(ksc.size(), NAN);
  auto scale_at = [&](std::vector<float>& v, uint32_t blk, uint32_t h, uint32_t t) -> double {
    return F8 ? v[(size_t(blk) * KVH + h) * BS + t] : 1.0;
  };
  // fp8 bytes: every value but NaN, 1 in 8 from the edges (zeros, smallest denormal, largest
  // denormal, smallest normal, +-the largest); scales 2^-3..2^4 / the largest (K: times the q/k
  // range), 1 in 29 zero
  const double fp8_max = fp8_format().max_finite();
  const uint8_t top = static_cast<uint8_t>(hipasm::test::encode(fp8_format(), fp8_max, true));
  const uint8_t edges[] = {0x00, 0x01, 0x81, 0x07, 0x08, 0x88, top, static_cast<uint8_t>(top | 0x80)};
  std::vector<uint8_t> codes;  // every code but NaN's
  for (int b = 0; b < 256; ++b)
    if (!std::isnan(fp8_value(static_cast<uint8_t>(b)))) codes.push_back(static_cast<uint8_t>(b));
  std::uniform_int_distribution<int> ubyte(0, 254), uedge(0, 7), uexp(-3, 4), u29(0, 28);
  auto fp8_draw = [&]() -> uint8_t {
    if (ubyte(rng) < 32) return edges[uedge(rng)];
    return codes[static_cast<size_t>(ubyte(rng)) % codes.size()];
  };
  auto scale_draw = [&](double range) {
    return u29(rng) == 0 ? 0.0f : static_cast<float>(std::ldexp(range / fp8_max, uexp(rng)));
  };
  for (uint32_t s = 0; s < seqs; ++s)
    for (uint32_t t = 0; t < pc.ctx[s]; ++t) {
      const uint32_t blk = static_cast<uint32_t>(bt[size_t(s) * bt_stride + t / BS]);
      for (uint32_t h = 0; h < KVH; ++h) {
        for (uint32_t d = 0; d < D; ++d) {
          if constexpr (F8) {
            k_at(blk, h, t % BS, d) = fp8_draw();
            v_at(blk, h, t % BS, d) = fp8_draw();
          } else {
            k_at(blk, h, t % BS, d) = bf16(uq(rng));
            v_at(blk, h, t % BS, d) = bf16(uv(rng));
          }
        }
        if constexpr (F8) {
          ksc[(size_t(blk) * KVH + h) * BS + t % BS] = scale_draw(pc.qk_range);
          vsc[(size_t(blk) * KVH + h) * BS + t % BS] = scale_draw(1.0);
        }
      }
    }
  auto kv_value = [](elem e) { return F8 ? fp8_value(static_cast<uint8_t>(e)) : from_bf16(e); };
  std::vector<uint16_t> q(size_t(seqs) * H * D);
  std::uniform_int_distribution<int> uspread(0, pc.q_spread);
  for (size_t i = 0; i < q.size(); ++i)
    q[i] = pc.q_spread == 0 ? bf16(uq(rng)) : (i / D) % H % G == 1 ? bf16(0.0) : bf16(std::ldexp(uq(rng), -uspread(rng)));
  const double scale = pc.scale != 0 ? pc.scale : 1.0 / std::sqrt(double(D));

  rt::device& dev = *S().dev;
  rt::buffer<uint16_t> Q(dev, q), O(dev, std::vector<uint16_t>(q.size(), 0xffff));
  rt::buffer<elem> K(dev, kc), V(dev, vc);
  rt::buffer<float> KS(dev, F8 ? ksc : std::vector<float>(1)), VS(dev, F8 ? vsc : std::vector<float>(1));
  rt::buffer<int> BT(dev, bt), CL(dev, std::vector<int>(pc.ctx.begin(), pc.ctx.end()));
  const uint32_t pb = pc.partition_blocks ? pc.partition_blocks : hk::paged_attn_partition_blocks<C>(seqs, KVH, max_ctx);
  const uint32_t parts = hk::paged_attn_partitions(max_ctx, BS, pb);
  const auto ws = hk::paged_attn_workspace_for<C>(seqs, KVH, parts);
  rt::buffer<float> PO(dev, ws.part_out_bytes / 4), PM(dev, ws.part_ml_bytes / 4);
  rt::buffer<uint32_t> CNT(dev, std::vector<uint32_t>(ws.counter_bytes / 4, 0u));
  // twice on the same workspace: the first launch must leave the counters zero for the second
  for (int launch = 0; launch < 2; ++launch) {
    O.upload(std::vector<uint16_t>(q.size(), 0xffff));
    auto rep = hk::launch_paged_attn_decode<C>(
        dev, *S().m, name,
        {.out = O.addr(), .q = Q.addr(), .k_cache = K.addr(), .v_cache = V.addr(), .block_tables = BT.addr(),
         .context_lens = CL.addr(), .k_scales = F8 ? KS.addr() : 0, .v_scales = F8 ? VS.addr() : 0,
         .part_out = PO.addr(), .part_ml = PM.addr(), .counters = CNT.addr(), .seqs = seqs,
         .num_kv_heads = KVH, .bt_stride = bt_stride, .max_context = max_ctx, .scale = static_cast<float>(scale),
         .partition_blocks = pb});
    for (const auto& msg : rep.attn.diagnostics) FAIL_CHECK(name << " checker: " << msg);
    REQUIRE(rep.partitions == parts);
    const auto cnt = CNT.download();
    CHECK(std::count(cnt.begin(), cnt.end(), 0u) == static_cast<long>(cnt.size()));
  }
  const auto o = O.download();
  size_t bad = 0;
  for (uint32_t s = 0; s < seqs; ++s)
    for (uint32_t h = 0; h < H; ++h) {
      const uint32_t kvh = h / G;
      std::vector<double> sc(pc.ctx[s]);
      double mx = -INFINITY, vmax = 0;
      for (uint32_t t = 0; t < pc.ctx[s]; ++t) {
        const uint32_t blk = static_cast<uint32_t>(bt[size_t(s) * bt_stride + t / BS]);
        double dot = 0;
        for (uint32_t d = 0; d < D; ++d) dot += from_bf16(q[(size_t(s) * H + h) * D + d]) * kv_value(k_at(blk, kvh, t % BS, d));
        sc[t] = dot * scale_at(ksc, blk, kvh, t % BS) * scale;
        mx = std::max(mx, sc[t]);
      }
      double sum = 0;
      for (auto& x : sc) sum += (x = std::exp(x - mx));
      for (uint32_t d = 0; d < D; ++d) {
        double want = 0;
        for (uint32_t t = 0; t < pc.ctx[s]; ++t) {
          const uint32_t blk = static_cast<uint32_t>(bt[size_t(s) * bt_stride + t / BS]);
          const double v = kv_value(v_at(blk, kvh, t % BS, d)) * scale_at(vsc, blk, kvh, t % BS);
          want += sc[t] * v;
          vmax = std::max(vmax, std::fabs(v));
        }
        want /= sum;
        const double got = from_bf16(o[(size_t(s) * H + h) * D + d]);
        const bool ok = std::fabs(got - want) <= 0x1p-8 * (vmax + std::fabs(want));
        if (!ok && bad++ < 8)
          FAIL_CHECK(name << " seq " << s << " (context " << pc.ctx[s] << ") head " << h << " dim " << d << ": got " << got
                          << " want " << want << " (partitions " << parts << ")");
      }
    }
  CHECK(bad == 0);
  return parts;
}
}  // namespace

TEST_CASE("paged_attn_decode: gqa 8, contexts 1..300 per sequence, split and not", "[kernels][paged_attn]") {
  pa_case c{.ctx = {1, 37, 300, 16, 129}, .num_kv_heads = 2, .partition_blocks = 19};
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) == 1);  // the whole context in one partition
  c.partition_blocks = 4;                                   // 5 partitions for the longest
  c.seed = 2;
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) == 5);
  c.partition_blocks = 8;
  c.seed = 3;
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) == 3);
}

TEST_CASE("paged_attn_decode: one sequence split by the launch's choice", "[kernels][paged_attn]") {
  pa_case c{.ctx = {1000}, .num_kv_heads = 1, .seed = 4};
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) > 1);
}

TEST_CASE("paged_attn_decode: gqa 4 and 1", "[kernels][paged_attn]") {
  pa_case c{.ctx = {5, 64, 77}, .num_kv_heads = 3, .partition_blocks = 4, .seed = 5};
  run_case<cfg::pa_d128_g4>("pa_d128_g4", c);
  c.ctx = {2, 33, 100, 1};
  c.num_kv_heads = 4;
  c.seed = 6;
  run_case<cfg::pa_d128_g1>("pa_d128_g1", c);
}

TEST_CASE("paged_attn_decode: gqa 16, and one wave (two items of 4 dims a lane in the combination)", "[kernels][paged_attn]") {
  // 16 heads x 32 dims of each of 4 waves, 8 heads x 64 dims of one wave: 128 items, lanes 0..63
  // take items r * 64 + lane; split (the partials' stores and the last arrival's loads per item)
  // and not
  pa_case c{.ctx = {3, 150, 64, 291}, .num_kv_heads = 2, .qk_range = 3.0, .scale = 0.5, .partition_blocks = 2, .seed = 40};
  CHECK(run_case<cfg::pa_d128_g16>("pa_d128_g16", c) == 10);
  c.partition_blocks = 0;
  c.seed = 41;
  run_case<cfg::pa_d128_g16>("pa_d128_g16", c);
  c.partition_blocks = 3;
  c.seed = 42;
  CHECK(run_case<cfg::pa_d64_g8_w1>("pa_d64_g8_w1", c) == 7);
  c.partition_blocks = 19;
  c.seed = 43;
  CHECK(run_case<cfg::pa_d64_g8_w1>("pa_d64_g8_w1", c) == 1);
}

TEST_CASE("paged_attn_decode: large-magnitude scores", "[kernels][paged_attn]") {
  // q, k in [-4, 4], scale 1: scores spread over hundreds (a one-hot softmax, exp overflow
  // without the max), split into partitions whose maxima differ by far more than f32's range
  pa_case c{.ctx = {90, 200}, .num_kv_heads = 1, .qk_range = 4.0, .scale = 1.0, .partition_blocks = 4, .seed = 7};
  run_case<cfg::pa_d128_g8>("pa_d128_g8", c);
  c.partition_blocks = 0;
  c.qk_range = 2.0;
  c.scale = 0.5;
  c.seed = 8;
  run_case<cfg::pa_d128_g8>("pa_d128_g8", c);
}

TEST_CASE("paged_attn_decode: head_dim 64, block_size 32 (two tiles a block), 2 waves", "[kernels][paged_attn]") {
  pa_case c{.ctx = {1, 17, 33, 95}, .num_kv_heads = 2, .partition_blocks = 2, .seed = 9};
  run_case<cfg::pa_d64_g8_b32>("pa_d64_g8_b32", c);
  c.partition_blocks = 0;
  c.seed = 10;
  run_case<cfg::pa_d64_g8_b32>("pa_d64_g8_b32", c);
}

TEST_CASE("paged_attn_decode: more than 64 blocks a wave (the block-table VGPR reloaded)", "[kernels][paged_attn]") {
  // 2 waves, 32-token blocks: 4190 tokens are 131 blocks, 66 and 65 a wave, whose entries 64.. come from a
  // second load of the table; 4096 tokens are exactly 64 a wave (no reload); 1 token: one block
  pa_case c{.ctx = {4190, 4096, 1}, .num_kv_heads = 1, .partition_blocks = 131, .seed = 11};
  CHECK(run_case<cfg::pa_d64_g8_b32>("pa_d64_g8_b32", c) == 1);
}

TEST_CASE("paged_attn_decode: more partitions than one trip of the combination", "[kernels][paged_attn]") {
  // 4 waves combine 16 partitions a trip (the maxima carried across trips); 2 blocks a partition:
  // 32, 2 and 16 partitions, and 1 (one block) unsplit; large scores, whose partition maxima differ widely
  pa_case c{.ctx = {1000, 37, 500, 9}, .num_kv_heads = 2, .qk_range = 3.0, .scale = 0.5, .partition_blocks = 2, .seed = 12};
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) == 32);
  // 1 block a partition: three waves of each workgroup without a block
  c.ctx = {200, 17};
  c.partition_blocks = 1;
  c.seed = 13;
  CHECK(run_case<cfg::pa_d128_g8>("pa_d128_g8", c) == 13);
}

TEST_CASE("paged_attn_decode: 8 waves (the benchmark's long-context kernel), split and not", "[kernels][paged_attn]") {
  // 8 waves combine 16 partitions a trip: 40 blocks in partitions of 2 are 20 (two trips); ragged contexts
  pa_case c{.ctx = {630, 3, 129, 250}, .num_kv_heads = 2, .partition_blocks = 2, .seed = 14};
  CHECK(run_case<cfg::pa_d128_g8_w8>("pa_d128_g8_w8", c) == 20);
  c.partition_blocks = 0;  // the launch's choice
  c.seed = 15;
  run_case<cfg::pa_d128_g8_w8>("pa_d128_g8_w8", c);
  c.partition_blocks = 40;  // unsplit
  c.seed = 16;
  CHECK(run_case<cfg::pa_d128_g8_w8>("pa_d128_g8_w8", c) == 1);
}

TEST_CASE("paged_attn_decode fp8 cache: gqa 8, contexts 1..300, split and not", "[kernels][paged_attn][fp8]") {
  // contexts shorter than a block (1, 5), one block exactly (16), tails (37, 129, 300)
  pa_case c{.ctx = {1, 37, 300, 16, 129, 5}, .num_kv_heads = 2, .partition_blocks = 19, .seed = 21};
  CHECK(run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c) == 1);
  c.partition_blocks = 4;  // 5 partitions for the longest
  c.seed = 22;
  CHECK(run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c) == 5);
  c.ctx = {1000, 3};  // the launch's choice (split)
  c.num_kv_heads = 1;
  c.partition_blocks = 0;
  c.seed = 23;
  CHECK(run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c) > 1);
}

TEST_CASE("paged_attn_decode fp8 cache: large-magnitude scores", "[kernels][paged_attn][fp8]") {
  // K scales up to 2^4 * 4 / 240 on bytes up to 240, q in [-4, 4], scale 1: scores in the hundreds
  pa_case c{.ctx = {90, 200, 7}, .num_kv_heads = 2, .qk_range = 4.0, .scale = 1.0, .partition_blocks = 4, .seed = 24};
  run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c);
}

TEST_CASE("paged_attn_decode fp8 cache: q over a wide range (Q split into two fp8 terms per head)", "[kernels][paged_attn][fp8]") {
  // a head's elements over 2^24 (its small ones below the fp8 terms' exact range), a zero head;
  // then q beyond fp8's 240 (up to 3000) and far below its normal range (up to 2^-40)
  pa_case c{.ctx = {70, 300, 16}, .num_kv_heads = 2, .qk_range = 2.0, .seed = 31, .q_spread = 24};
  run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c);
  c = pa_case{.ctx = {45, 130}, .num_kv_heads = 1, .qk_range = 3000.0, .scale = 1e-7, .partition_blocks = 3, .seed = 32, .q_spread = 3};
  run_case<cfg::pa_d128_g8_fp8>("pa_d128_g8_fp8", c);
  c = pa_case{.ctx = {45, 130}, .num_kv_heads = 1, .qk_range = 0x1p-40, .scale = 0x1p+40, .seed = 33, .q_spread = 6};
  run_case<cfg::pa_d64_g8_b32_fp8>("pa_d64_g8_b32_fp8", c);
}

TEST_CASE("paged_attn_decode fp8 cache: head_dim 64, block_size 32 (two tiles a block), 2 waves", "[kernels][paged_attn][fp8]") {
  pa_case c{.ctx = {1, 17, 33, 95, 64}, .num_kv_heads = 2, .partition_blocks = 2, .seed = 25};
  run_case<cfg::pa_d64_g8_b32_fp8>("pa_d64_g8_b32_fp8", c);
  c.partition_blocks = 0;
  c.seed = 26;
  run_case<cfg::pa_d64_g8_b32_fp8>("pa_d64_g8_b32_fp8", c);
}

TEST_CASE("paged_attn_decode fp8 cache: 3 blocks in flight, more than 64 blocks a wave", "[kernels][paged_attn][fp8]") {
  // 4190 tokens unsplit: 262 blocks, 66 and 65 a wave (the block-table VGPR reloaded); ragged others
  pa_case c{.ctx = {4190, 1, 77}, .num_kv_heads = 1, .partition_blocks = 262, .seed = 27};
  CHECK(run_case<cfg::pa_d128_g8_fp8_p3>("pa_d128_g8_fp8_p3", c) == 1);
  c.ctx = {300, 16, 2};
  c.num_kv_heads = 2;
  c.partition_blocks = 4;
  c.seed = 28;
  CHECK(run_case<cfg::pa_d128_g8_fp8_p3>("pa_d128_g8_fp8_p3", c) == 5);
}

TEST_CASE("paged_attn_decode fp8 cache: a launch without the scales is refused", "[kernels][paged_attn][fp8]") {
  rt::device& dev = *S().dev;
  rt::buffer<uint16_t> Q(dev, std::vector<uint16_t>(8 * 128, 0)), O(dev, std::vector<uint16_t>(8 * 128, 0));
  rt::buffer<uint8_t> K(dev, std::vector<uint8_t>(16 * 128, 0)), V(dev, std::vector<uint8_t>(16 * 128, 0));
  rt::buffer<float> KS(dev, std::vector<float>(16, 1.0f));
  rt::buffer<int> BT(dev, std::vector<int>{0}), CL(dev, std::vector<int>{5});
  hk::paged_attn_decode_args a{.out = O.addr(), .q = Q.addr(), .k_cache = K.addr(), .v_cache = V.addr(),
                               .block_tables = BT.addr(), .context_lens = CL.addr(), .k_scales = KS.addr(),
                               .seqs = 1, .num_kv_heads = 1, .bt_stride = 1, .max_context = 5, .scale = 0.1f};
  CHECK_THROWS_AS(hk::launch_paged_attn_decode<cfg::pa_d128_g8_fp8>(dev, *S().m, "pa_d128_g8_fp8", a), std::invalid_argument);
  a.v_scales = KS.addr();  // with both: it runs (the checker silent)
  const auto rep = hk::launch_paged_attn_decode<cfg::pa_d128_g8_fp8>(dev, *S().m, "pa_d128_g8_fp8", a);
  CHECK(rep.attn.diagnostics.empty());
}

TEST_CASE("paged_attn_decode: waves_per_simd holds the occupancy the configuration was tuned at", "[kernels][paged_attn]") {
  // The benchmark's bf16 kernel fits 3 waves a SIMD (168 VGPRs a lane); asking for 4 (128) is
  // a compile error that lists what is live where the registers ran out.
  using hipasm::kernels::paged_attn_decode_body;
  using hipasm::kernels::paged_attn_decode_config;
  constexpr paged_attn_decode_config three{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .waves_per_simd = 3};
  constexpr paged_attn_decode_config four{.head_dim = 128, .block_size = 16, .gqa = 8, .waves = 4, .waves_per_simd = 4};
  const auto ok = hipasm::detail::compile_kernel<&paged_attn_decode_body<three>>("pa_three");
  INFO(ok.error.view());
  REQUIRE_FALSE(ok.error.failed);
  CHECK(ok.usage.count(hipasm::reg_class::vgpr) <= 168);
  const auto over = hipasm::detail::compile_kernel<&paged_attn_decode_body<four>>("pa_four");
  REQUIRE(over.error.failed);
  const std::string msg(over.error.view());
  INFO(msg);
  CHECK(msg.find("kernel 'pa_four': out of VGPRs allocating") != std::string::npos);
  CHECK(msg.find(" of 128 in use (4 waves a SIMD, asked at ") != std::string::npos);  // (a 4-dword tuple may find no room first)
  CHECK(msg.find("paged_attn_decode.hpp:") != std::string::npos);
}
