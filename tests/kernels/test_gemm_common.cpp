// HIPASM_TEST_KERNELS: gemm_common.hip
// kernels/gemm_common.hpp in hipasm-sim against plain C++: gemm_udiv_small's quotients (below
// 2^21, the divisor any) and gemm_tile_order_of with those divisions, the same tiles as with the
// exact ones and every tile once. The checker must report nothing.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace rt = hipasm::rt;

namespace {
// out[5 w ...]: (n0 + w) / d, then tile w's (tx, ty) by the small and the exact divisions
std::vector<uint32_t> run(rt::device& dev, rt::module& mod, uint32_t groups, uint32_t n0, uint32_t d, uint32_t gx, uint32_t gy) {
  rt::buffer<uint32_t> out(dev, std::vector<uint32_t>(5 * groups, 0xffffffffu));
  rt::kernel_args args;
  args.add(out.ptr()).add(n0).add(d).add(gx).add(gy);
  auto rep = dev.launch(mod, "gemm_common_k", {groups, 1, 1}, {64, 1, 1}, args);
  for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
  return out.download();
}
}  // namespace

TEST_CASE("gemm_udiv_small: exact below 2^21", "[gemm_common]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(hipasm::test::code_object("gemm_common"));
  constexpr uint32_t groups = 200;
  // (quotients at and next to multiples of d, near 2^21, d of 1, powers of two, primes, large)
  for (uint32_t d : {1u, 2u, 3u, 7u, 8u, 24u, 100u, 127u, 1000u, 4093u, 65536u, 1999999u})
    for (uint32_t n0 : {0u, 5u * d - 100u, (1u << 21) - groups, 1000000u}) {
      if (n0 > (1u << 21) - groups) continue;
      INFO("d " << d << " n0 " << n0);
      auto r = run(*dev, *mod, groups, n0, d, 1, 1);
      int bad = 0;
      for (uint32_t w = 0; w < groups && bad < 4; ++w)
        if (r[5 * w] != (n0 + w) / d) {
          ++bad;
          FAIL_CHECK((n0 + w) << " / " << d << ": got " << r[5 * w] << ", want " << (n0 + w) / d);
        }
    }
}

TEST_CASE("gemm_tile_order_of with the small divisions: the exact one's tiles", "[gemm_common]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(hipasm::test::code_object("gemm_common"));
  // (tile counts not a multiple of the 8 XCDs, a band of fewer than 8 rows, one column)
  for (auto [gx, gy] : {std::pair{1u, 1u}, {3u, 5u}, {16u, 8u}, {7u, 19u}, {1u, 37u}, {24u, 33u}}) {
    INFO("grid " << gx << " x " << gy);
    const uint32_t tiles = gx * gy;
    auto r = run(*dev, *mod, tiles, 0, 1, gx, gy);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t w = 0; w < tiles; ++w) {
      CHECK(r[5 * w + 1] == r[5 * w + 3]);
      CHECK(r[5 * w + 2] == r[5 * w + 4]);
      CHECK(r[5 * w + 1] < gx);
      CHECK(r[5 * w + 2] < gy);
      seen.insert({r[5 * w + 1], r[5 * w + 2]});
    }
    CHECK(seen.size() == tiles);
  }
}
