// Reference suite, part 2: cross-lane operations, a wave bitonic sort, LDS transpose,
// global and LDS atomics (tests/sim/kernels/ref_wave.hip), compared with host references.
// Every launch requires an empty checker report.
#include "kernels/ref_host.hpp"

#include <algorithm>
#include <numeric>

using namespace refsuite;
namespace {
const std::string G = "wave";
}

TEST_CASE("reference: wave reduction with DPP (update_dpp, row_bcast, readlane)", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t groups = 3, block = 256, n = groups * block, waves = n / 64;
  std::vector<int32_t> in(n);
  std::mt19937 rng(101);
  for (auto& v : in) v = (int32_t)rng();
  in[0] = std::numeric_limits<int32_t>::max(), in[1] = std::numeric_limits<int32_t>::max();
  buffer<int32_t> din(*the_device(), in), dsums(*the_device(), waves);
  buffer<float> dmax(*the_device(), waves);
  kernel_args args;
  args.add(din.addr()).add(dsums.addr()).add(dmax.addr());
  run(G, "ref_reduce_dpp", {groups}, {block}, args);
  auto sums = dsums.download();
  auto maxes = dmax.download();
  mismatches m;
  for (uint32_t w = 0; w < waves; ++w) {
    uint32_t s = 0;
    float mx = -std::numeric_limits<float>::infinity();
    for (uint32_t l = 0; l < 64; ++l) {
      s += (uint32_t)in[w * 64 + l];
      mx = std::max(mx, (float)(in[w * 64 + l] % 1000) * 0.25f);
    }
    expect_exact(m, "sum", w, sums[w], (int32_t)s);
    expect_float(m, "max", w, maxes[w], mx);
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("reference: row prefix sum with mov_dpp row_shr and bound_ctrl, bank mask", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t n = 128;
  std::vector<int32_t> in(n);
  std::mt19937 rng(102);
  for (auto& v : in) v = (int32_t)(rng() % 2001) - 1000;
  buffer<int32_t> din(*the_device(), in), dout(*the_device(), n * 2);
  kernel_args args;
  args.add(din.addr()).add(dout.addr());
  run(G, "ref_scan_dpp", {1}, {n}, args);
  auto out = dout.download();
  mismatches m;
  std::vector<int32_t> scan(n);
  for (uint32_t l = 0; l < n; ++l) scan[l] = in[l] + ((l % 16) ? scan[l - 1] : 0);
  for (uint32_t l = 0; l < n; ++l) {
    expect_exact(m, "scan", l, out[l * 2], scan[l]);
    uint32_t bank = (l >> 2) & 3;  // DPP bank = 4 consecutive lanes of a row
    int32_t shifted = (bank == 0 || bank == 2) ? ((l % 16) ? scan[l - 1] : 0) : -1;
    expect_exact(m, "row_shr:1 bank_mask:0x5", l, out[l * 2 + 1], shifted);
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("reference: ds_bpermute butterfly sum, gather, ds_permute scatter, readfirstlane", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t n = 192;  // three waves in one workgroup
  std::vector<int32_t> in(n), perm(n);
  std::mt19937 rng(103);
  for (auto& v : in) v = (int32_t)rng();
  for (uint32_t w = 0; w < n / 64; ++w) {
    std::vector<int32_t> p(64);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng);
    for (uint32_t l = 0; l < 64; ++l) perm[w * 64 + l] = p[l] + 64 * (int32_t)(rng() % 4);  // high bits ignored
  }
  buffer<int32_t> din(*the_device(), in), dperm(*the_device(), perm), dout(*the_device(), n * 4);
  kernel_args args;
  args.add(din.addr()).add(dperm.addr()).add(dout.addr());
  run(G, "ref_bpermute", {1}, {n}, args);
  auto out = dout.download();
  mismatches m;
  for (uint32_t w = 0; w < n / 64; ++w) {
    uint32_t sum = 0;
    for (uint32_t l = 0; l < 64; ++l) sum += (uint32_t)in[w * 64 + l];
    std::vector<int32_t> scattered(64);
    for (uint32_t l = 0; l < 64; ++l) scattered[perm[w * 64 + l] & 63] = in[w * 64 + l];
    for (uint32_t l = 0; l < 64; ++l) {
      uint32_t i = w * 64 + l;
      expect_exact(m, "butterfly sum", i, out[i * 4 + 0], (int32_t)sum);
      expect_exact(m, "bpermute gather", i, out[i * 4 + 1], in[w * 64 + (perm[i] & 63)]);
      expect_exact(m, "permute scatter", i, out[i * 4 + 2], scattered[l]);
      expect_exact(m, "readfirstlane", i, out[i * 4 + 3], in[w * 64]);
    }
  }
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("reference: bitonic sort of one wave (64 keys), several waves", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t groups = 2, block = 128, n = groups * block;
  std::vector<int32_t> in(n);
  std::mt19937 rng(104);
  for (auto& v : in) v = (int32_t)(rng() % 100) - 50;  // many duplicates
  for (uint32_t l = 64; l < 128; ++l) in[l] = (int32_t)rng();
  in[5] = std::numeric_limits<int32_t>::min(), in[6] = std::numeric_limits<int32_t>::max();
  for (int descending : {0, 1}) {
    DYNAMIC_SECTION("descending=" << descending) {
      buffer<int32_t> din(*the_device(), in), dout(*the_device(), n);
      kernel_args args;
      args.add(din.addr()).add(dout.addr()).add(descending);
      run(G, "ref_bitonic_wave", {groups}, {block}, args);
      auto out = dout.download();
      mismatches m;
      for (uint32_t w = 0; w < n / 64; ++w) {
        std::vector<int32_t> want(in.begin() + w * 64, in.begin() + w * 64 + 64);
        if (descending) std::sort(want.begin(), want.end(), std::greater<>());
        else std::sort(want.begin(), want.end());
        for (uint32_t l = 0; l < 64; ++l) expect_exact(m, "sorted", w * 64 + l, out[w * 64 + l], want[l]);
      }
      REFSUITE_REQUIRE_NONE(m);
    }
  }
}

TEST_CASE("reference: LDS matrix transpose with barriers (2-D grid, ragged edges)", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t width = 100, height = 70;
  std::vector<float> in(width * height);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = (float)i * 0.5f - 7.0f;
  buffer<float> din(*the_device(), in), dout(*the_device(), std::vector<float>(width * height, -1.0f));
  kernel_args args;
  args.add(din.addr()).add(dout.addr()).add(width).add(height);
  run(G, "ref_transpose", {blocks_for(width, 32), blocks_for(height, 32)}, {32, 8}, args);
  auto out = dout.download();
  mismatches m;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) expect_float(m, "out", x * height + y, out[x * height + y], in[y * width + x]);
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("reference: global atomics (int, 64-bit, float; with and without return)", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t n = 1000;  // 4 workgroups of 256, the last one partial
  std::vector<int32_t> vals(n);
  std::mt19937 rng(105);
  for (auto& v : vals) v = (int32_t)rng();
  const int32_t imin = std::numeric_limits<int32_t>::min(), imax = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> counters = {0, 0, imin, imax, 0, -1, 0, -1, 0};
  buffer<int32_t> dvals(*the_device(), vals), dcnt(*the_device(), counters), dslots(*the_device(), n),
      dseen(*the_device(), n);
  buffer<int64_t> dsum64(*the_device(), std::vector<int64_t>{5});
  buffer<float> dfsum(*the_device(), std::vector<float>{0.5f});
  kernel_args args;
  args.add(dvals.addr()).add(dcnt.addr()).add(dslots.addr()).add(dsum64.addr()).add(dfsum.addr()).add(dseen.addr()).add(n);
  run(G, "ref_atomics_global", {blocks_for(n, 256)}, {256}, args);
  auto c = dcnt.download();
  auto slots = dslots.download();
  auto seen = dseen.download();
  uint32_t sum = 0, orv = 0, xorv = 0;
  int32_t mx = imin, mn = imax, andv = -1;
  uint64_t sum64 = 5;
  float fsum = 0.5f;
  for (uint32_t i = 0; i < n; ++i) {
    int32_t v = vals[i];
    sum += (uint32_t)v, mx = std::max(mx, v), mn = std::min(mn, v), orv |= 1u << (i % 31);
    andv &= ~(1 << (v & 15)), xorv ^= (uint32_t)v;
    sum64 += (uint64_t)v * 4294967296ull + 3;
    fsum += (float)(v & 255);
  }
  CHECK(c[0] == (int32_t)n);
  CHECK(c[1] == (int32_t)sum);
  CHECK(c[2] == mx);
  CHECK(c[3] == mn);
  CHECK(c[4] == (int32_t)orv);
  CHECK(c[5] == andv);
  CHECK(c[6] == (int32_t)xorv);
  CHECK(c[8] == (int32_t)n);
  CHECK(dsum64.download()[0] == (int64_t)sum64);
  CHECK(dfsum.download()[0] == fsum);
  // fetch_add with return: every old value 0..n-1 exactly once.
  std::vector<int32_t> s = slots;
  std::sort(s.begin(), s.end());
  std::vector<int32_t> iota_n(n);
  std::iota(iota_n.begin(), iota_n.end(), 0);
  CHECK(s == iota_n);
  // exchange: the values seen plus the final value are {-1, 0..n-1}, each once.
  std::vector<int32_t> chain = seen;
  chain.push_back(c[7]);
  std::sort(chain.begin(), chain.end());
  std::vector<int32_t> want_chain = {-1};
  want_chain.insert(want_chain.end(), iota_n.begin(), iota_n.end());
  CHECK(chain == want_chain);
}

TEST_CASE("reference: LDS atomics (histogram with ranks, max/min, float add)", "[reference]") {
  REFSUITE_REQUIRE_DEVICE();
  const uint32_t n = 1000, block = 256, groups = blocks_for(n, block);
  std::vector<uint32_t> data(n);
  std::mt19937 rng(106);
  for (auto& v : data) v = rng() % 5000 - ((rng() & 7) == 0 ? 100000u : 0u);
  buffer<uint32_t> ddata(*the_device(), data), dhist(*the_device(), std::vector<uint32_t>(64, 0)),
      dranks(*the_device(), n);
  buffer<int32_t> dext(*the_device(), std::vector<int32_t>{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()});
  buffer<float> dfsum(*the_device(), std::vector<float>{0.0f});
  kernel_args args;
  args.add(ddata.addr()).add(dhist.addr()).add(dext.addr()).add(dfsum.addr()).add(dranks.addr()).add(n);
  run(G, "ref_atomics_lds", {groups}, {block}, args);
  auto hist = dhist.download();
  auto ranks = dranks.download();
  auto ext = dext.download();
  std::vector<uint32_t> want_hist(64, 0);
  int32_t mx = std::numeric_limits<int32_t>::min(), mn = std::numeric_limits<int32_t>::max();
  float fsum = 0.0f;
  mismatches m;
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<std::vector<uint32_t>> r(64);
    for (uint32_t i = g * block; i < std::min(n, (g + 1) * block); ++i) {
      r[data[i] & 63].push_back(ranks[i]);
      want_hist[data[i] & 63]++;
      mx = std::max(mx, (int32_t)data[i]), mn = std::min(mn, (int32_t)data[i]);
      fsum += (float)(data[i] & 15);
    }
    for (uint32_t b = 0; b < 64; ++b) {  // ranks within a bin of a workgroup: 0..count-1
      std::sort(r[b].begin(), r[b].end());
      for (uint32_t j = 0; j < r[b].size(); ++j) expect_exact(m, "rank in bin " + std::to_string(b), g, r[b][j], j);
    }
  }
  for (uint32_t b = 0; b < 64; ++b) expect_exact(m, "hist", b, hist[b], want_hist[b]);
  expect_exact(m, "max", 0, ext[0], mx);
  expect_exact(m, "min", 0, ext[1], mn);
  expect_float(m, "fsum", 0, dfsum.download()[0], fsum);
  REFSUITE_REQUIRE_NONE(m);
}

TEST_CASE("reference: LDS kernels under random wave interleavings stay clean and agree", "[reference][determinism]") {
  REFSUITE_REQUIRE_DEVICE();
  // clang's barriers and waits are right, so no interleaving may produce a finding, and
  // every order-independent result must match the fixed-order run.
  const uint32_t width = 70, height = 33, n = 1000, block = 256;
  std::vector<float> in(width * height);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = (float)i;
  std::vector<uint32_t> data(n);
  std::mt19937 rng(107);
  for (auto& v : data) v = rng() % 3000;
  std::vector<float> ref_t;
  std::vector<uint32_t> ref_hist;
  std::vector<int32_t> ref_ext;
  for (uint64_t seed : {0ull, 1ull, 2ull, 3ull, 0x9e3779b97f4a7c15ull}) {
    launch_options o;
    o.seed = seed;
    buffer<float> din(*the_device(), in), dout(*the_device(), width * height);
    kernel_args ta;
    ta.add(din.addr()).add(dout.addr()).add(width).add(height);
    run(G, "ref_transpose", {blocks_for(width, 32), blocks_for(height, 32)}, {32, 8}, ta, o);
    buffer<uint32_t> dd(*the_device(), data), dh(*the_device(), std::vector<uint32_t>(64, 0)), dr(*the_device(), n);
    buffer<int32_t> de(*the_device(), std::vector<int32_t>{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()});
    buffer<float> df(*the_device(), std::vector<float>{0.0f});
    kernel_args aa;
    aa.add(dd.addr()).add(dh.addr()).add(de.addr()).add(df.addr()).add(dr.addr()).add(n);
    run(G, "ref_atomics_lds", {blocks_for(n, block)}, {block}, aa, o);
    if (seed == 0) {
      ref_t = dout.download(), ref_hist = dh.download(), ref_ext = de.download();
    } else {
      INFO("seed " << seed);
      CHECK(dout.download() == ref_t);
      CHECK(dh.download() == ref_hist);
      CHECK(de.download() == ref_ext);
    }
  }
}
