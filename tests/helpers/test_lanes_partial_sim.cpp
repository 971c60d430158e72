// HIPASM_TEST_KERNELS: lanes_partial.hip
// shuffle_xor / shuffle_xor_into with lanes off, executed in hipasm-sim against plain C++: a
// partial wave at the top level (48 lanes: 48..63 do not exist) and a per-lane If (lanes with
// lane % 3 == 1 off). The helper's contract (lanes.hpp): a lane whose partner is off reads 0,
// a lane that is off keeps its destination. Masks 16 and 32 take the permlane swaps on gfx950
// and ds_swizzle / ds_bpermute on gfx942; the others DPP or the LDS forms on both.
#include "sim_code_object.hpp"
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

constexpr uint32_t kSentinel = 0xdeadbeefu;

std::vector<uint32_t> run(const std::string& kernel, uint32_t block) {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(hipasm::test::code_object("lanes_partial"));
  rt::buffer<uint32_t> out(*dev, std::vector<uint32_t>(2 * 64, 0x11111111u));
  rt::kernel_args args;
  args.add(out.ptr());
  rt::launch_report rep = dev->launch(*mod, kernel, {2, 1, 1}, {block, 1, 1}, args);
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
  return out.download();
}

// want(g, lane, on): the value lane `lane` of workgroup g must hold; on(l): lane l takes part.
void check(const std::string& kernel, uint32_t block, uint32_t mask, const std::function<bool(uint32_t)>& on) {
  const std::vector<uint32_t> got = run(kernel, block);
  int bad = 0;
  for (uint32_t g = 0; g < 2; ++g)
    for (uint32_t l = 0; l < block; ++l) {
      const uint32_t p = l ^ mask;
      const uint32_t want = !on(l) ? kSentinel : p < block && on(p) ? g * 1000u + p * 7u + 3u : 0u;
      if (got[g * 64 + l] != want && bad++ < 8)
        FAIL_CHECK(kernel << " workgroup " << g << " lane " << l << ": got " << std::hex << got[g * 64 + l]
                          << " want " << want);
    }
}

const uint32_t kMasks[] = {1, 4, 8, 16, 31, 32, 48};

}  // namespace

TEST_CASE("shuffle_xor in a partial wave: a partner past the wave's end reads 0", "[helpers][lanes]") {
  for (uint32_t m : kMasks) {
    check("top_" + std::to_string(m), 48, m, [](uint32_t) { return true; });
    check("top_into_" + std::to_string(m), 48, m, [](uint32_t) { return true; });
  }
}

TEST_CASE("shuffle_xor under a per-lane If: a partner that is off reads 0, a lane off keeps its value",
          "[helpers][lanes]") {
  auto on = [](uint32_t l) { return l % 3 != 1; };
  for (uint32_t m : kMasks) {
    check("if_" + std::to_string(m), 64, m, on);
    check("if_into_" + std::to_string(m), 64, m, on);
  }
}
