// HIPASM_TEST_KERNELS: minmax_hip.hip
// min/max of two same-dtype registers (VGPRs, SGPRs, negations, expression results) in a HIP
// translation unit, where the HIP math header's global `template <class T> T max(T, T)` is
// visible (before the fix it was chosen and the kernel did not compile); executed in
// hipasm-sim against C++.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

TEST_CASE("min/max of same-dtype registers in a HIP source", "[expr][sim]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_minmax_hip.co");
  const uint32_t groups = 4, n = groups * 64;
  std::mt19937 rng(7);
  std::vector<float> fa(n), fb(n);
  std::vector<int32_t> ia(n), ib(n);
  const float fedge[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e30f, -1e30f, 3.5f, -2.25f};
  const int32_t iedge[] = {0, 1, -1, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), 5, -6};
  std::uniform_real_distribution<float> fd(-100.0f, 100.0f);
  for (uint32_t p = 0; p < n; ++p) {
    fa[p] = p < 64 ? fedge[p % 8] : fd(rng);
    fb[p] = p < 64 ? fedge[(p / 8) % 8] : fd(rng);
    ia[p] = p < 49 ? iedge[p % 7] : static_cast<int32_t>(rng());
    ib[p] = p < 49 ? iedge[p / 7] : static_cast<int32_t>(rng());
  }
  rt::buffer<float> A(*dev, fa), B(*dev, fb);
  rt::buffer<int32_t> I(*dev, ia), K(*dev, ib);
  rt::buffer<uint32_t> out(*dev, n * 8);
  rt::kernel_args args;
  args.add(out.ptr()).add(A.ptr()).add(B.ptr()).add(I.ptr()).add(K.ptr());
  auto rep = dev->launch(*mod, "minmax_hip", {groups, 1, 1}, {64, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
  auto got = out.download();
  auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  int bad = 0;
  for (uint32_t p = 0; p < n && bad < 8; ++p) {
    uint32_t g = p / 64;
    float x = fa[p], y = fb[p];
    int32_t i = ia[p], k = ib[p];
    uint32_t iu = static_cast<uint32_t>(i), ku = static_cast<uint32_t>(k);
    // v_max_f32/v_min_f32 of +0 and -0 may return either zero: compare zeros by value.
    auto same_f = [&](uint32_t got_bits, float want) {
      return got_bits == bits(want) || (want == 0.0f && std::bit_cast<float>(got_bits) == 0.0f);
    };
    bool ok = same_f(got[p * 8 + 0], std::max(x, y)) && same_f(got[p * 8 + 1], std::min(x, y)) &&
              same_f(got[p * 8 + 2], std::max(-x, -y)) && same_f(got[p * 8 + 3], std::min(-x, -y)) &&
              got[p * 8 + 4] == static_cast<uint32_t>(std::max(i, k)) &&
              got[p * 8 + 5] == static_cast<uint32_t>(std::min(i, k)) &&
              got[p * 8 + 6] == static_cast<uint32_t>(std::max(ia[g], ib[g])) - static_cast<uint32_t>(std::min(ia[g], ib[g])) &&
              got[p * 8 + 7] == std::max(iu + 1u, ku ^ 5u);
    if (!ok) {
      ++bad;
      FAIL_CHECK("p=" << p << " x=" << x << " y=" << y << " i=" << i << " k=" << k << " got "
                      << got[p * 8] << " " << got[p * 8 + 1] << " " << got[p * 8 + 2] << " " << got[p * 8 + 3] << " "
                      << got[p * 8 + 4] << " " << got[p * 8 + 5] << " " << got[p * 8 + 6] << " " << got[p * 8 + 7]);
    }
  }
  CHECK(bad == 0);
}
