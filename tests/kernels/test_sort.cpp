// HIPASM_TEST_KERNELS: sort.hip
// The bitonic sort (include/hipasm/kernels/sort.hpp) in hipasm-sim against std::stable_sort with
// the documented order: f32 (IEEE totalOrder: NaNs by sign, -0 before +0), i32, u32, both
// directions, payloads (values: ties by value; indices: the stable sort), full and partial rows
// (padding), one element, duplicates, sorted and reversed inputs, a row per wave and per
// workgroup; the checker must stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/sort.hpp>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

#include "sort_configs.hpp"

namespace {
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("sort");
  return s;
}

// the documented order as an unsigned rank (reference side, written independently)
template <hk::sort_config C>
uint32_t rank(uint32_t k) {
  if constexpr (C.key == hk::sort_key::u32) return k;
  else if constexpr (C.key == hk::sort_key::i32) return k + 0x80000000u;
  else return (k >> 31) ? ~k : k | 0x80000000u;  // totalOrder on the bits
}

// non_negative: f32 >= +0 (and +inf, +NaN, denormals), i32 >= 0; sparse_negative: one key in
// 97 negative (f32: also -0 and -NaN), the rest as non_negative
enum class fill { random, few_values, sorted, reversed, specials, equal, non_negative, sparse_negative };

template <hk::sort_config C>
void run_sort(const char* name, uint32_t rows, uint32_t len, fill how, int seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys(size_t(rows) * len), vals(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    uint32_t k = rng();
    if (how == fill::few_values) k = rng() % 5 * 0x01010101u;  // many duplicates (f32: small normals)
    if (how == fill::equal) k = 0xc0490fdbu;
    if constexpr (C.key == hk::sort_key::f32) {
      if (how != fill::specials && how != fill::few_values && how != fill::equal) {
        float f = std::uniform_real_distribution<float>(-100, 100)(rng);
        std::memcpy(&k, &f, 4);
      }
    }
    if (how == fill::non_negative || how == fill::sparse_negative) {
      k &= 0x7fffffffu;
      if constexpr (C.key == hk::sort_key::f32) {
        const uint32_t sp[] = {0x00000000u, 0x7f800000u, 0x7fc00000u, 0x00000001u, 0x007fffffu};
        if (rng() % 11 == 0) k = sp[rng() % 5];
        else if (k > 0x7f800000u) k = rng() % 0x4f000000u;  // (NaN payloads only from sp)
      }
      if (how == fill::sparse_negative && rng() % 97 == 0) {
        k |= 0x80000000u;
        if (C.key == hk::sort_key::f32 && rng() % 4 == 0) k = rng() % 2 ? 0x80000000u : 0xffc00001u;
      }
    }
    keys[i] = k;
    vals[i] = rng() % 7;  // ties of (key, value) too
  }
  if (how == fill::specials) {
    const uint32_t sp[] = {0x7fc00000u, 0xffc00000u, 0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,
                           0x7fffffffu, 0xffffffffu, 0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u, 0x7f800001u};
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = (i % 3 == 0) ? sp[rng() % 13] : keys[i];
  }
  for (uint32_t r = 0; r < rows; ++r) {
    auto b = keys.begin() + size_t(r) * len, e = b + len;
    auto lt = [](uint32_t a, uint32_t c) { return rank<C>(a) < rank<C>(c); };
    if (how == fill::sorted) std::sort(b, e, lt);
    if (how == fill::reversed) std::sort(b, e, [&](uint32_t a, uint32_t c) { return lt(c, a); });
  }
  rt::device& d = *S().dev;
  rt::buffer<uint32_t> KI(d, keys), VI(d, vals), KO(d, keys.size()), VO(d, keys.size());
  auto rep = hk::launch_sort<C>(d, *S().m, name,
                                {.keys_out = KO.addr(), .vals_out = VO.addr(), .keys_in = KI.addr(), .vals_in = VI.addr(),
                                 .len = len, .rows = rows});
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(name << " checker: " << diag);
  auto ko = KO.download(), vo = VO.download();
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<uint32_t> idx(len);
    std::iota(idx.begin(), idx.end(), 0u);
    const size_t base = size_t(r) * len;
    auto pay = [&](uint32_t i) { return C.payload == hk::sort_payload::values ? vals[base + i] : i; };
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
      uint32_t ra = rank<C>(keys[base + a]), rb = rank<C>(keys[base + b]);
      if (ra != rb) return C.descending ? ra > rb : ra < rb;
      return C.payload != hk::sort_payload::none && pay(a) < pay(b);
    });
    for (uint32_t i = 0; i < len; ++i) {
      INFO(name << " row " << r << " of " << rows << " len " << len << " position " << i);
      REQUIRE(ko[base + i] == keys[base + idx[i]]);
      if (C.payload != hk::sort_payload::none) REQUIRE(vo[base + i] == pay(idx[i]));
    }
  }
}
}  // namespace

TEST_CASE("sort: f32 ascending in a wave, full and partial rows", "[kernels][sort]") {
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 3, 256, fill::random, 1);
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 2, 100, fill::random, 2);
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 1, 1, fill::random, 3);
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 2, 255, fill::sorted, 4);
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 2, 256, fill::reversed, 5);
}
TEST_CASE("sort: f32 NaN, inf, signed zeros (totalOrder), both directions", "[kernels][sort]") {
  run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 4, 200, fill::specials, 6);
  run_sort<cfg::f32_desc_idx_8_rows>("sort_f32_desc_idx_8_rows", 3, 512, fill::specials, 7);
}
TEST_CASE("sort: f32 descending argsort (indices), a row per wave, duplicates", "[kernels][sort]") {
  run_sort<cfg::f32_desc_idx_8_rows>("sort_f32_desc_idx_8_rows", 5, 300, fill::few_values, 8);
  run_sort<cfg::f32_desc_idx_8_rows>("sort_f32_desc_idx_8_rows", 2, 512, fill::random, 9);
}
TEST_CASE("sort: i32 key-value across 4 waves (LDS steps)", "[kernels][sort]") {
  run_sort<cfg::i32_asc_val_2_wg4>("sort_i32_asc_val_2_wg4", 2, 512, fill::random, 10);
  run_sort<cfg::i32_asc_val_2_wg4>("sort_i32_asc_val_2_wg4", 3, 333, fill::few_values, 11);
  run_sort<cfg::i32_asc_val_2_wg4>("sort_i32_asc_val_2_wg4", 1, 512, fill::reversed, 12);
}
TEST_CASE("sort: u32 descending, 16 per lane over 2 waves; one element per lane", "[kernels][sort]") {
  run_sort<cfg::u32_desc_16_wg2>("sort_u32_desc_16_wg2", 2, 2048, fill::random, 13);
  run_sort<cfg::u32_desc_16_wg2>("sort_u32_desc_16_wg2", 2, 1500, fill::few_values, 14);
  run_sort<cfg::u32_asc_1>("sort_u32_asc_1", 4, 64, fill::random, 15);
  run_sort<cfg::u32_asc_1>("sort_u32_asc_1", 3, 37, fill::reversed, 16);
}
TEST_CASE("sort: 16 waves x 4 and 8 waves x 16 (LDS steps) with payloads", "[kernels][sort]") {
  run_sort<cfg::f32_asc_idx_4_wg16>("sort_f32_asc_idx_4_wg16", 1, 4096, fill::random, 17);
  run_sort<cfg::f32_asc_idx_4_wg16>("sort_f32_asc_idx_4_wg16", 1, 3000, fill::specials, 18);
  run_sort<cfg::i32_desc_val_16_wg8>("sort_i32_desc_val_16_wg8", 1, 8192, fill::few_values, 19);
  run_sort<cfg::i32_desc_val_16_wg8>("sort_i32_desc_val_16_wg8", 1, 5001, fill::random, 20);
}
TEST_CASE("sort: 32 per lane, a row per wave: keys and argsort, tails, specials, equal keys", "[kernels][sort]") {
  run_sort<cfg::f32_asc_32_rows>("sort_f32_asc_32_rows", 3, 2048, fill::random, 21);
  run_sort<cfg::f32_asc_32_rows>("sort_f32_asc_32_rows", 2, 1999, fill::specials, 22);
  run_sort<cfg::f32_asc_32_rows>("sort_f32_asc_32_rows", 1, 1, fill::random, 23);
  run_sort<cfg::f32_asc_idx_32_rows>("sort_f32_asc_idx_32_rows", 3, 2048, fill::specials, 24);
  run_sort<cfg::f32_asc_idx_32_rows>("sort_f32_asc_idx_32_rows", 2, 1000, fill::few_values, 25);
  run_sort<cfg::f32_asc_idx_32_rows>("sort_f32_asc_idx_32_rows", 1, 2047, fill::reversed, 26);
  run_sort<cfg::f32_asc_idx_32_rows>("sort_f32_asc_idx_32_rows", 1, 3, fill::sorted, 27);
}
TEST_CASE("sort: i32 descending argsort across 4 waves, 2 a lane", "[kernels][sort]") {
  run_sort<cfg::i32_desc_idx_2_wg4>("sort_i32_desc_idx_2_wg4", 3, 512, fill::random, 33);
  run_sort<cfg::i32_desc_idx_2_wg4>("sort_i32_desc_idx_2_wg4", 2, 301, fill::few_values, 34);
  run_sort<cfg::i32_desc_idx_2_wg4>("sort_i32_desc_idx_2_wg4", 1, 1, fill::random, 35);
  run_sort<cfg::i32_desc_idx_2_wg4>("sort_i32_desc_idx_2_wg4", 2, 512, fill::equal, 36);
}
TEST_CASE("sort: argsort of all-equal keys is the identity (ties by ascending index)", "[kernels][sort]") {
  run_sort<cfg::f32_desc_idx_8_rows>("sort_f32_desc_idx_8_rows", 2, 512, fill::equal, 28);
  run_sort<cfg::f32_asc_idx_32_rows>("sort_f32_asc_idx_32_rows", 1, 1537, fill::equal, 29);
  run_sort<cfg::f32_asc_idx_4_wg16>("sort_f32_asc_idx_4_wg16", 1, 4095, fill::equal, 30);
}
TEST_CASE("sort: a row per wave, several rows a wave (more rows than waves), the next one prefetched", "[kernels][sort]") {
  // <= 16 a lane: ceil(rows / 8192) consecutive rows a wave: 3 (the last waves partly or wholly
  // past the last row); 32 a lane: 6080 waves, rows w and w + 6080 (2 rows the first 2113 waves)
  run_sort<cfg::f32_desc_idx_8_rows>("sort_f32_desc_idx_8_rows", 16389, 7, fill::specials, 31);
  run_sort<cfg::f32_asc_32_rows>("sort_f32_asc_32_rows", 8193, 33, fill::random, 32);
}
TEST_CASE("sort: stores through the LDS transpose (16 a lane, a row per wave, 2 passes) and 1 KiB-piece loads (8 a lane, 4 waves)", "[kernels][sort]") {
  run_sort<cfg::i32_desc_val_16_rows>("sort_i32_desc_val_16_rows", 5, 1024, fill::random, 37);
  run_sort<cfg::i32_desc_val_16_rows>("sort_i32_desc_val_16_rows", 3, 777, fill::few_values, 38);
  run_sort<cfg::i32_desc_val_16_rows>("sort_i32_desc_val_16_rows", 2, 1, fill::random, 39);
  run_sort<cfg::i32_desc_val_16_rows>("sort_i32_desc_val_16_rows", 2, 1024, fill::reversed, 40);
  run_sort<cfg::f32_asc_8_wg4>("sort_f32_asc_8_wg4", 3, 2048, fill::specials, 41);
  run_sort<cfg::f32_asc_8_wg4>("sort_f32_asc_8_wg4", 2, 1029, fill::random, 42);
  run_sort<cfg::f32_asc_8_wg4>("sort_f32_asc_8_wg4", 1, 2048, fill::equal, 43);
  run_sort<cfg::f32_asc_8_wg4>("sort_f32_asc_8_wg4", 2, 255, fill::sorted, 44);
}
TEST_CASE("sort: keys on signed compares and a descending network; f32 negatives mapped only where present", "[kernels][sort]") {
  for (fill f : {fill::random, fill::specials, fill::non_negative, fill::sparse_negative}) {
    run_sort<cfg::f32_asc_32_rows>("sort_f32_asc_32_rows", 3, 2048, f, 50 + int(f));
    run_sort<cfg::f32_asc_8_wg4>("sort_f32_asc_8_wg4", 2, 2000, f, 60 + int(f));
    run_sort<cfg::f32_desc_16_wg2>("sort_f32_desc_16_wg2", 2, 2048, f, 70 + int(f));
    run_sort<cfg::f32_asc_4>("sort_f32_asc_4", 3, 250, f, 80 + int(f));
    run_sort<cfg::i32_asc_32_rows>("sort_i32_asc_32_rows", 2, 2048, f, 90 + int(f));
    run_sort<cfg::i32_desc_8_rows>("sort_i32_desc_8_rows", 3, 512, f, 100 + int(f));
  }
  run_sort<cfg::f32_desc_16_wg2>("sort_f32_desc_16_wg2", 1, 1, fill::random, 110);
  run_sort<cfg::f32_desc_16_wg2>("sort_f32_desc_16_wg2", 2, 1377, fill::few_values, 111);
  run_sort<cfg::f32_desc_16_wg2>("sort_f32_desc_16_wg2", 1, 2048, fill::equal, 112);
  run_sort<cfg::i32_asc_32_rows>("sort_i32_asc_32_rows", 8193, 5, fill::sparse_negative, 113);
  run_sort<cfg::i32_asc_32_rows>("sort_i32_asc_32_rows", 2, 1999, fill::reversed, 114);
  run_sort<cfg::i32_desc_8_rows>("sort_i32_desc_8_rows", 2, 300, fill::sorted, 115);
  run_sort<cfg::u32_asc_1>("sort_u32_asc_1", 3, 64, fill::sparse_negative, 116);
  run_sort<cfg::u32_desc_16_wg2>("sort_u32_desc_16_wg2", 1, 2048, fill::non_negative, 117);
}
TEST_CASE("sort launch: bad arguments are clear errors", "[kernels][sort]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_sort<cfg::f32_asc_4>(d, *S().m, "sort_f32_asc_4",
                                                    {.keys_out = 8, .keys_in = 8, .len = 257, .rows = 1}),
                    Catch::Contains("len must be 1..256"));
  CHECK_THROWS_WITH(hk::launch_sort<cfg::f32_desc_idx_8_rows>(d, *S().m, "sort_f32_desc_idx_8_rows",
                                                              {.keys_out = 8, .keys_in = 8, .len = 4, .rows = 1}),
                    Catch::Contains("null"));
}
