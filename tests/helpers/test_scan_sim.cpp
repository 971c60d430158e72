// HIPASM_TEST_KERNELS: scan.hip
// wave_scan / workgroup_scan (include/hipasm/helpers/scan.hpp) in hipasm-sim against plain C++:
// sum / max / min of f32, i32, u32 (negative values, values past 2^31), inclusive and
// exclusive, full and partial EXEC (random lanes, a whole wave off, one lane on, none), every
// workgroup wave count 1..16. The checker must report nothing.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> m =
      dev->load_file(hipasm::test::code_object("scan"));
};
sim& S() {
  static sim s;
  return s;
}

enum class ty { f32, i32, u32 };
enum class op { sum, max, min };

uint32_t identity(ty t, op o) {
  if (o == op::sum) return t == ty::f32 ? std::bit_cast<uint32_t>(0.0f) : 0u;
  if (t == ty::f32) return o == op::max ? 0xff800000u : 0x7f800000u;
  if (t == ty::i32) return o == op::max ? 0x80000000u : 0x7fffffffu;
  return o == op::max ? 0u : 0xffffffffu;
}
uint32_t combine(ty t, op o, uint32_t a, uint32_t b) {
  if (t == ty::f32) {
    float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
    return std::bit_cast<uint32_t>(o == op::sum ? x + y : o == op::max ? std::max(x, y) : std::min(x, y));
  }
  if (t == ty::i32) {
    int32_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
    return o == op::sum ? a + b : static_cast<uint32_t>(o == op::max ? std::max(x, y) : std::min(x, y));
  }
  return o == op::sum ? a + b : o == op::max ? std::max(a, b) : std::min(a, b);
}
// values whose f32 sums are exact in any order (integers), otherwise spread over the range
std::vector<uint32_t> values(ty t, op o, size_t n, std::mt19937& rng) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) {
    if (t == ty::f32) {
      float f = o == op::sum ? static_cast<float>(static_cast<int>(rng() % 2001) - 1000)
                             : std::ldexp(static_cast<float>(static_cast<int>(rng() % 20001) - 10000) + 0.5f, static_cast<int>(rng() % 40) - 20);
      x = std::bit_cast<uint32_t>(f);
    } else if (t == ty::i32 && o == op::sum) {
      x = static_cast<uint32_t>(static_cast<int32_t>(rng() % 200001) - 100000);
    } else {
      x = static_cast<uint32_t>(rng());  // i32: half negative; u32: half past 2^31
    }
  }
  return v;
}
// activity patterns over n lanes: all, random, whole wave 1 off, only the last lane of each
// wave, wave 0 off and random elsewhere, none
std::vector<std::vector<uint32_t>> patterns(size_t n, std::mt19937& rng) {
  std::vector<std::vector<uint32_t>> p(6, std::vector<uint32_t>(n, 1));
  for (size_t i = 0; i < n; ++i) {
    p[1][i] = rng() % 2;
    p[2][i] = (i / 64) % 4 != 1;
    p[3][i] = i % 64 == 63;
    p[4][i] = i / 64 == 0 ? 0 : rng() % 3 != 0;
    p[5][i] = 0;
  }
  return p;
}

// One launch: groups of `lanes` lanes (a wave: 64, a workgroup: 64 * waves) scanned over
// their active lanes; `elems` values a lane.
void run(const char* kernel, ty t, op o, uint32_t block, uint32_t group_lanes, uint32_t grid, uint32_t elems) {
  rt::device& d = *S().dev;
  std::mt19937 rng(1234 + block);
  const uint32_t n = block * grid, groups = n / group_lanes;
  auto in = values(t, o, 2 * n, rng);
  rt::buffer<uint32_t> I(d, in);
  for (const auto& act : patterns(n, rng)) {
    rt::buffer<uint32_t> A(d, act);
    const uint32_t out_n = 4 * n + 4 * groups;
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(out_n, 0xdeadbeefu));
    rt::kernel_args a;
    a.add(out.ptr()).add(I.ptr()).add(A.ptr()).add(n);
    auto rep = d.launch(*S().m, kernel, {grid, 1, 1}, {block, 1, 1}, a);
    for (const auto& diag : rep.diagnostics) FAIL_CHECK("checker: " << diag);
    auto got = out.download();
    int bad = 0;
    auto check = [&](size_t at, uint32_t expect, const char* what, size_t lane, uint32_t k) {
      if (got[at] != expect && ++bad <= 4)
        FAIL_CHECK(kernel << " " << what << " lane " << lane << " element " << k << ": got " << std::hex << got[at]
                          << " expected " << expect);
    };
    for (uint32_t k = 0; k < elems; ++k)
      for (uint32_t gi = 0; gi < groups; ++gi) {
        uint32_t acc = identity(t, o);
        for (uint32_t j = 0; j < group_lanes; ++j) {
          const size_t i = size_t(gi) * group_lanes + j;
          const size_t x = elems == 2 ? 2 * i + k : 2 * i;
          if (!act[i]) {  // inactive lanes are not written
            check(x, 0xdeadbeefu, "inactive inclusive", i, k);
            check(2 * n + x, 0xdeadbeefu, "inactive exclusive", i, k);
            continue;
          }
          check(2 * n + x, acc, "exclusive", i, k);
          acc = combine(t, o, acc, in[size_t(k) * n + i]);
          check(x, acc, "inclusive", i, k);
        }
        const size_t tb = 4 * size_t(n) + (elems == 2 ? 4 * size_t(gi) + k : 2 * size_t(gi));
        check(tb, acc, "total (inclusive)", gi, k);
        check(tb + elems, acc, "total (exclusive)", gi, k);
      }
    CHECK(bad == 0);
  }
}

}  // namespace

TEST_CASE("wave_scan: sum / max / min of f32, i32, u32, inclusive and exclusive, partial EXEC", "[scan]") {
  const struct { const char* k; ty t; op o; } cases[] = {
      {"wave_f32_sum", ty::f32, op::sum}, {"wave_f32_max", ty::f32, op::max}, {"wave_f32_min", ty::f32, op::min},
      {"wave_i32_sum", ty::i32, op::sum}, {"wave_i32_max", ty::i32, op::max}, {"wave_i32_min", ty::i32, op::min},
      {"wave_u32_sum", ty::u32, op::sum}, {"wave_u32_max", ty::u32, op::max}, {"wave_u32_min", ty::u32, op::min},
  };
  for (const auto& c : cases) run(c.k, c.t, c.o, 256, 64, 3, 2);
}

TEST_CASE("workgroup_scan: every wave count, the types and ops, partial EXEC", "[scan]") {
  for (uint32_t w = 1; w <= 16; ++w) {
    const std::string k = "wg_i32_sum_" + std::to_string(w);
    run(k.c_str(), ty::i32, op::sum, 64 * w, 64 * w, 2, 1);
  }
  run("wg_f32_sum_3", ty::f32, op::sum, 192, 192, 3, 1);
  run("wg_f32_max_5", ty::f32, op::max, 320, 320, 2, 1);
  run("wg_f32_min_16", ty::f32, op::min, 1024, 1024, 1, 1);
  run("wg_i32_max_8", ty::i32, op::max, 512, 512, 2, 1);
  run("wg_i32_min_2", ty::i32, op::min, 128, 128, 2, 1);
  run("wg_u32_sum_4", ty::u32, op::sum, 256, 256, 2, 1);
  run("wg_u32_max_15", ty::u32, op::max, 960, 960, 1, 1);
  run("wg_u32_min_16", ty::u32, op::min, 1024, 1024, 1, 1);
}
