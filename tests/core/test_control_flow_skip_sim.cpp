// HIPASM_TEST_KERNELS: cf_skip.hip
// Skipping code no lane runs (kernel_options::skip_idle_code, control_flow.hpp): after a
// per-lane If whose branch did Continue/Break, s_cbranch_execz past the rest of the loop body
// when that code is vector-only, and no branch when it has scalar work. Every kernel runs
// with the option on and off on inputs where every lane, some lanes and no lane leaves in a
// given iteration, against a host reference; the asm has exactly the expected extra
// s_cbranch_execz; with every lane continuing, the skipping kernel executes fewer
// instructions than with none.
#include "kernels/lane_programs.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

using lane_programs::count_in;
lane_programs::kernels& K() {
  static lane_programs::kernels k("cf_skip");
  return k;
}

using ref_fn = std::function<int32_t(int32_t)>;
int32_t cont_valu(int32_t v) {
  int32_t acc = 0;
  for (int i = 0; i < 4; ++i) {
    if ((v >> i) & 1) continue;
    acc = acc * 3 + i + v;
  }
  return acc;
}
int32_t cont_scalar(int32_t v) { return cont_valu(v) + 4 * 1000; }
int32_t cont_scalar_div(int32_t v) { return cont_valu(v) + 9000 / 3 + 9000 / 5 + 9000 / 7 + 9000 / 9; }
int32_t cont_nested(int32_t v) {
  int32_t acc = 0;
  for (int i = 0; i < 4; ++i) {
    if ((v >> i) & 2) {
      if ((v >> i) & 1) continue;
      acc += 5;
    }
    acc = acc * 3 + i;
  }
  return acc;
}
int32_t brk_valu(int32_t v) {
  int32_t acc = 0;
  for (int i = 0; i < 4; ++i) {
    if ((v >> i) & 1) break;
    acc = acc * 3 + i + v;
  }
  return acc;
}
int32_t cont_else(int32_t v) {
  int32_t acc = 0;
  for (int i = 0; i < 4; ++i) {
    if ((v >> i) & 1) continue;
    acc += 7;
    acc = acc * 3 + i;
  }
  return acc;
}

// Inputs: every lane's low four bits `all`, then per lane `all | (lane & mix)`, upper bits per lane.
std::vector<int32_t> inputs(int32_t low, int32_t per_lane_bits) {
  std::vector<int32_t> v;
  for (int g = 0; g < 128; ++g) v.push_back(low | (g & per_lane_bits) | (g << 8));
  return v;
}

uint64_t run(const std::string& kernel, const ref_fn& ref, const std::vector<int32_t>& in) {
  return lane_programs::run_lanes(K(), kernel, in, {}, [&](size_t g) { return ref(in[g]); });
}

struct kcase {
  const char* name;
  ref_fn ref;
  int extra_execz;  // s_cbranch_execz the option adds
};

}  // namespace

TEST_CASE("skip the rest of a loop body when no lane is left", "[control_flow][sim]") {
  const std::string& text = K().text;
  REQUIRE(!text.empty());
  const kcase cases[] = {{"cont_valu", cont_valu, 1},
                         {"cont_scalar", cont_scalar, 0},
                         {"cont_scalar_div", cont_scalar_div, 0},
                         {"mask_cont_scalar_div", cont_scalar_div, 0},
                         {"cont_nested", cont_nested, 2},
                         {"brk_valu", brk_valu, 1},
                         {"cont_else", cont_else, 1}};
  for (const kcase& c : cases) {
    INFO(c.name);
    const std::string on = std::string("skip_") + c.name, off = on + "_off";
    CHECK(count_in(text, on, "s_cbranch_execz") - count_in(text, off, "s_cbranch_execz") == c.extra_execz);
    // (bits 0..3 set in every lane, in some lanes, in none; mixtures per iteration)
    for (const auto& in : {inputs(0xf, 0), inputs(0x5, 0xa), inputs(0, 0xf), inputs(0, 0), inputs(0x9, 0x6)}) {
      run(on, c.ref, in);
      run(off, c.ref, in);
    }
  }
  // Every lane continues in every iteration: the skipping kernel runs none of the body's
  // instructions after the If; when some lane stays, both run the same code.
  const uint64_t all_on = run("skip_cont_valu", cont_valu, inputs(0xf, 0));
  const uint64_t all_off = run("skip_cont_valu_off", cont_valu, inputs(0xf, 0));
  const uint64_t some_on = run("skip_cont_valu", cont_valu, inputs(0x5, 0xa));
  const uint64_t some_off = run("skip_cont_valu_off", cont_valu, inputs(0x5, 0xa));
  INFO("wave-instructions: all continue " << all_on << " (off: " << all_off << "), some " << some_on << " (off: "
                                          << some_off << ")");
  CHECK(all_on < all_off);
  CHECK(some_on >= some_off);  // (+1 per iteration: the s_cbranch_execz not taken)
}
