// HIPASM_TEST_KERNELS: rotary.hip
// The rotary kernel (include/hipasm/kernels/rotary.hpp) in hipasm-sim against a C++ reference in
// double on bf16 data: NeoX and GPT-J, head_dim 64/128, partial rotary, f32 and bf16 caches, in
// place and out of place, positions out of the cache's range, inf/NaN inputs; the checker must
// stay silent.
#include <catch2/catch.hpp>

#include "kernel_test.hpp"

#include <hipasm/kernels/rotary.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;
namespace hk = hipasm::kernels;

#include "rotary_configs.hpp"

namespace {
using hipasm::test::bf16;
hipasm::test::kernel_sim& S() {
  static hipasm::test::kernel_sim s("rotary");
  return s;
}
double f(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

enum class place { in_place, out_of_place };

// positions: token i gets pos[i]; a position outside [0, rows) must read cos = sin = 0.
// per: tokens per workgroup (0: the launch's pick).
template <hk::rotary_config C>
void run_rotary(const char* name, uint32_t tokens, uint32_t cache_rows, place pl, int seed,
                void (*edit)(std::vector<uint16_t>& q, std::vector<int64_t>& pos) = nullptr, uint32_t per = 1) {
  using CE = hk::rotary_cache_elem<C>;
  const int D = C.head_dim, R = C.rot_dim;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-4, 4);
  std::vector<uint16_t> q(size_t(tokens) * C.heads_q * D), k(size_t(tokens) * C.heads_k * D);
  for (auto& x : q) x = bf16(u(rng));
  for (auto& x : k) x = bf16(u(rng));
  std::vector<int64_t> pos(tokens);
  for (uint32_t t = 0; t < tokens; ++t) pos[t] = int64_t(rng() % cache_rows);
  if (edit) edit(q, pos);
  // the cache: cos / sin of pos * theta_i, stored in CE (bf16 rounded for bf16 caches)
  std::vector<CE> cache(size_t(cache_rows) * R);
  std::vector<double> cache_val(cache.size());
  for (uint32_t p = 0; p < cache_rows; ++p)
    for (int i = 0; i < R / 2; ++i) {
      const double th = p * std::pow(10000.0, -2.0 * i / R);
      for (int h = 0; h < 2; ++h) {
        const double v = h ? std::sin(th) : std::cos(th);
        const size_t at = size_t(p) * R + h * (R / 2) + i;
        if constexpr (C.cache_f32) {
          cache[at] = float(v);
          cache_val[at] = float(v);
        } else {
          cache[at] = bf16(v);
          cache_val[at] = f(bf16(v));
        }
      }
    }
  rt::device& d = *S().dev;
  rt::buffer<uint16_t> Q(d, q), K(d, k.empty() ? std::vector<uint16_t>(1) : k), QO(d, q.size()),
      KO(d, k.empty() ? 1 : k.size());
  rt::buffer<int64_t> P(d, pos);
  rt::buffer<CE> CS(d, cache);
  const bool in = pl == place::in_place;
  auto rep = hk::launch_rotary<C>(d, *S().m, name,
                                  {.q_out = in ? Q.addr() : QO.addr(), .k_out = in ? K.addr() : KO.addr(),
                                   .q = Q.addr(), .k = K.addr(), .positions = P.addr(), .cos_sin = CS.addr(),
                                   .cache_rows = cache_rows, .tokens = tokens, .tokens_per_group = per});
  for (const auto& diag : rep.diagnostics) FAIL_CHECK(name << " checker: " << diag);
  auto check = [&](const std::vector<uint16_t>& x, const std::vector<uint16_t>& got, int heads, const char* which) {
    for (uint32_t t = 0; t < tokens; ++t) {
      const bool valid = pos[t] >= 0 && pos[t] < int64_t(cache_rows);
      for (int h = 0; h < heads; ++h) {
        const size_t base = (size_t(t) * heads + h) * D;
        std::vector<double> want(D);
        for (int e = R; e < D; ++e) want[e] = f(x[base + e]);
        for (int i = 0; i < R / 2; ++i) {
          const double c = valid ? cache_val[size_t(pos[t]) * R + i] : 0;
          const double s = valid ? cache_val[size_t(pos[t]) * R + R / 2 + i] : 0;
          const int i1 = C.neox ? i : 2 * i, i2 = C.neox ? i + R / 2 : 2 * i + 1;
          // the kernel's f32 products and sum, each rounded (a fused multiply-add rounds once:
          // the bound below covers both)
          const double x1 = f(x[base + i1]), x2 = f(x[base + i2]);
          want[i1] = x1 * c - x2 * s;
          want[i2] = x2 * c + x1 * s;
        }
        for (int e = 0; e < D; ++e) {
          const double g = f(got[base + e]);
          INFO(which << " token " << t << " head " << h << " dim " << e << " got " << g << " want " << want[e]);
          if (std::isnan(want[e])) CHECK(std::isnan(g));
          else if (std::isinf(want[e])) CHECK(g == want[e]);
          else if (e >= R) CHECK(got[base + e] == x[base + e]);  // copied bit for bit
          else CHECK(std::fabs(g - want[e]) <= std::fabs(want[e]) * 0x1p-8 + 1e-5);
        }
      }
    }
  };
  check(q, in ? Q.download() : QO.download(), C.heads_q, "q");
  if (C.heads_k > 0) check(k, in ? K.download() : KO.download(), C.heads_k, "k");
}
}  // namespace

TEST_CASE("rotary: NeoX, head_dim 128, f32 cache, partial head steps, in and out of place", "[kernels][rotary]") {
  run_rotary<cfg::neox_128>("rope_neox_128", 5, 64, place::out_of_place, 1);
  run_rotary<cfg::neox_128>("rope_neox_128", 3, 4096, place::in_place, 2);
}
TEST_CASE("rotary: GPT-J, head_dim 64, bf16 cache", "[kernels][rotary]") {
  run_rotary<cfg::gptj_64>("rope_gptj_64", 6, 100, place::out_of_place, 3);
  run_rotary<cfg::gptj_64>("rope_gptj_64", 2, 100, place::in_place, 4);
}
TEST_CASE("rotary: partial rotary (64 of 128) copies the rest out of place, leaves it in place", "[kernels][rotary]") {
  run_rotary<cfg::neox_128_r64>("rope_neox_128_r64", 3, 50, place::out_of_place, 5);
  run_rotary<cfg::neox_128_r64>("rope_neox_128_r64", 2, 50, place::in_place, 6);
  run_rotary<cfg::neox_64_r32_bf16>("rope_neox_64_r32_bf16", 4, 9, place::out_of_place, 7);
}
TEST_CASE("rotary: rot_dim 24 (3 lanes a head, idle lanes), no key heads", "[kernels][rotary]") {
  run_rotary<cfg::gptj_128_r24>("rope_gptj_128_r24", 4, 33, place::out_of_place, 8);
}
TEST_CASE("rotary: positions outside the cache read zeros; inf and NaN inputs", "[kernels][rotary]") {
  run_rotary<cfg::neox_128>("rope_neox_128", 6, 16, place::out_of_place, 9,
                            [](std::vector<uint16_t>& q, std::vector<int64_t>& pos) {
                              pos[0] = 16;                // one past the last row
                              pos[1] = -1;                // negative (high dword set)
                              pos[2] = int64_t(1) << 32;  // low dword 0, high dword 1
                              pos[4] = 0xffffffff;        // the largest row index (times the stride: past 2^32)
                              pos[5] = 0x80000000;
                              q[3 * 12 * 128 + 5] = 0x7f80;   // +inf (token 3)
                              q[3 * 12 * 128 + 200] = 0x7fc1;  // NaN
                            });
}
// A workgroup rotates several tokens (two in flight a wave): token counts that are not a multiple
// of tokens_per_group (a short last workgroup, one of a single token), odd and even counts per
// workgroup (the loop's two halves), partial head steps, the copy of unrotated dims, in place.
TEST_CASE("rotary: several tokens per workgroup, a short last workgroup", "[kernels][rotary]") {
  run_rotary<cfg::neox_128>("rope_neox_128", 7, 64, place::out_of_place, 11, nullptr, 3);
  run_rotary<cfg::neox_128>("rope_neox_128", 10, 4096, place::in_place, 12, nullptr, 4);
  run_rotary<cfg::gptj_64>("rope_gptj_64", 5, 100, place::out_of_place, 13, nullptr, 2);
  run_rotary<cfg::neox_128_r64>("rope_neox_128_r64", 9, 50, place::out_of_place, 14, nullptr, 4);
  run_rotary<cfg::neox_128_r64>("rope_neox_128_r64", 6, 50, place::in_place, 15, nullptr, 5);
  run_rotary<cfg::neox_64_r32_bf16>("rope_neox_64_r32_bf16", 11, 9, place::out_of_place, 16, nullptr, 3);
  run_rotary<cfg::gptj_128_r24>("rope_gptj_128_r24", 8, 33, place::out_of_place, 17, nullptr, 3);
  // one workgroup for every token
  run_rotary<cfg::gptj_64>("rope_gptj_64", 6, 100, place::in_place, 18, nullptr, 6);
}
// The first token's loads in either order: q and k first (up to rotary_cs_first_tokens tokens, or
// several tokens a workgroup), else its cos/sin row first.
TEST_CASE("rotary: one token a workgroup past rotary_cs_first_tokens (cos/sin first)", "[kernels][rotary]") {
  run_rotary<cfg::neox_128>("rope_neox_128", hk::rotary_cs_first_tokens + 5, 300, place::in_place, 21);
  run_rotary<cfg::gptj_64>("rope_gptj_64", hk::rotary_cs_first_tokens + 1, 300, place::out_of_place, 22);
}
TEST_CASE("rotary: positions outside the cache with several tokens per workgroup", "[kernels][rotary]") {
  run_rotary<cfg::neox_128>(
      "rope_neox_128", 5, 16, place::out_of_place, 19,
      [](std::vector<uint16_t>&, std::vector<int64_t>& pos) {
        pos[1] = 16;
        pos[2] = -1;
        pos[4] = int64_t(1) << 32;
      },
      2);
}
TEST_CASE("rotary launch: many tokens take several tokens per workgroup", "[kernels][rotary]") {
  CHECK(hk::rotary_tokens_per_group(1) == 1);
  CHECK(hk::rotary_tokens_per_group(2432) == 1);
  CHECK(hk::rotary_tokens_per_group(2433) == 2);
  CHECK(hk::rotary_tokens_per_group(4096) == 2);
  CHECK(hk::rotary_tokens_per_group(32768) == 14);
  // the pick (2 a workgroup, the last one alone) end to end
  run_rotary<cfg::gptj_64>("rope_gptj_64", 2501, 100, place::out_of_place, 20, nullptr, 0);
}
TEST_CASE("rotary launch: bad arguments are clear errors", "[kernels][rotary]") {
  rt::device& d = *S().dev;
  CHECK_THROWS_WITH(hk::launch_rotary<cfg::neox_128>(d, *S().m, "rope_neox_128",
                                                     {.q_out = 8, .k_out = 8, .q = 8, .k = 8, .positions = 8,
                                                      .cos_sin = 8, .cache_rows = 4, .tokens = 0}),
                    Catch::Contains("tokens must be >= 1"));
  CHECK_THROWS_WITH(hk::launch_rotary<cfg::neox_128>(d, *S().m, "rope_neox_128",
                                                     {.q_out = 8, .q = 8, .positions = 8, .cos_sin = 8,
                                                      .cache_rows = 4, .tokens = 1}),
                    Catch::Contains("null"));
  // one V# per tensor, lanes past the last head at offsets from 2^31: q must stay within 2 GiB
  // (12 heads of 256 bytes: 699051 tokens are 2^31 + 1024 bytes)
  CHECK_THROWS_WITH(hk::launch_rotary<cfg::neox_128>(d, *S().m, "rope_neox_128",
                                                     {.q_out = 8, .k_out = 8, .q = 8, .k = 8, .positions = 8,
                                                      .cos_sin = 8, .cache_rows = 4, .tokens = 699051}),
                    Catch::Contains("at most 2 GiB"));
}
