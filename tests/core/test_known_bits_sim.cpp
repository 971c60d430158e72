// HIPASM_TEST_KERNELS: bits_fuzz.hip
// The known-bits step (passes/known_bits.hpp) on 24 random straight-line integer programs
// (kernels/bits_random_programs.hpp: sums, XORs and ORs of shifted and scaled terms under
// masks, x - (x / 2^k) * 2^k, per-lane and uniform values, registers written once and updated
// in place), lowered with the DSL and run in hipasm-sim with the step on and off; every
// lane's output is compared with the program evaluated on the host. The kernels' asm shows
// the step rewrote: fewer instructions with it on than off in most programs, never more.
#include "kernels/bits_random_programs.hpp"
#include "kernels/lane_programs.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

lane_programs::kernels& K() {
  static lane_programs::kernels k("bits_fuzz");
  return k;
}

std::vector<uint32_t> lane_values() {
  std::vector<uint32_t> v = {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 0x7fffffff, 0x80000000,
                             0xffffffff, 0xfffffff8, 0x12345678, 0xdeadbeef};
  std::mt19937 rng(11);
  while (v.size() < 128) v.push_back(rng());
  return v;
}

// Instructions (VALU, SALU, global memory) of kernel `name` in the code object's asm.
int instructions_of(const std::string& text, const std::string& name) {
  return lane_programs::count_if_in(text, name, [](std::string_view i) {
    return i.starts_with("v_") || i.starts_with("s_") || i.starts_with("global_");
  });
}

}  // namespace

TEST_CASE("random integer programs: the known-bits step keeps every lane's result", "[known_bits][sim][fuzz]") {
  auto in = lane_values();
  const std::string& text = K().text;
  REQUIRE(!text.empty());
  int smaller = 0, total_on = 0, total_off = 0;
  for (uint32_t seed = 0; seed < 24; ++seed) {
    const kb_fuzz::program p = kb_fuzz::generate(seed);
    for (const char* which : {"kb_fuzz_", "kb_fuzz_ref_"})
      for (uint32_t n : {5u, 0xfffffff0u}) {
        INFO("n " << n);
        lane_programs::run_lanes(K(), which + std::to_string(seed), in, {n}, [&](size_t g) {
          return kb_fuzz::run(p, in[g], n, static_cast<uint32_t>(g % 64), static_cast<uint32_t>(g / 64));
        });
      }
    const int on = instructions_of(text, "kb_fuzz_" + std::to_string(seed));
    const int off = instructions_of(text, "kb_fuzz_ref_" + std::to_string(seed));
    INFO("seed " << seed);
    CHECK(on > 0);
    CHECK(on <= off);
    smaller += on < off;
    total_on += on;
    total_off += off;
  }
  INFO("instructions with the step " << total_on << ", without " << total_off << "; smaller in " << smaller);
  CHECK(smaller >= 8);  // the generator makes the rewritten shapes often
  WARN("known-bits fuzz: " << total_on << " instructions with the step, " << total_off << " without, " << smaller
                           << " of 24 programs smaller");
}

TEST_CASE("a sum whose carry is read keeps its value when a mask reads it", "[known_bits][sim]") {
  rt::device& d = *K().dev;
  for (uint32_t n : {0x7fffffffu, 0x80000000u, 5u, 0xfffffff9u}) {
    rt::buffer<uint32_t> I(d, std::vector<uint32_t>(128, 0)), out(d, std::vector<uint32_t>(128, 0xdeadu));
    rt::kernel_args a;
    a.add(out.ptr()).add(I.ptr()).add(n);
    rt::launch_report rep = d.launch(*K().mod, "kb_scc", {2, 1, 1}, {64, 1, 1}, a);
    for (const auto& msg : rep.diagnostics) FAIL_CHECK("checker: " << msg);
    auto got = out.download();
    for (uint32_t g = 0; g < 128; ++g) {
      const uint32_t wg = g / 64, s = n + 0x80000000u, t = s + wg;
      const uint32_t carry = t < s ? 1 : 0;
      INFO("n " << n << " workgroup " << wg);
      CHECK(got[g] == (t & 7) + 16 * carry);
    }
  }
}
