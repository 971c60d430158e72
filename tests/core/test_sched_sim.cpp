// HIPASM_TEST_KERNELS: sched.hip
// Scheduling (kernel_options::schedule, on by default, after allocation; schedule_virtual,
// before it): independent instructions written after a hazard fill its gap, so the hazard
// pass needs fewer s_nops (counted here with scheduling before allocation, by default and
// off); J.sched_barrier() keeps them out; every variant runs in
// hipasm-sim with the same results and a silent checker (which knows the wait-state rules
// independently of the library).
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "asm_counts.hpp"
#include "kernels/partial_defs_fn.hpp"
#include "kernels/sched_fn.hpp"

namespace rt = hipasm::rt;
using namespace hipasm;
using namespace hipasm::test::sched;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod =
      dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_sched.co");
};
sim& S() {
  static sim s;
  return s;
}

using counts = hipasm::test::asm_counts;
constexpr auto count = hipasm::test::count_asm;

void check(const rt::launch_report& rep, const char* kernel) {
  for (const auto& d : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << d);
}

}  // namespace

TEST_CASE("schedule: a DPP read's gap filled by later independent work", "[sched]") {
  const counts on = count(asm_text<fill_dpp_fn>("fill_dpp"));
  const counts off = count(asm_text<fill_dpp_off_fn>("fill_dpp_off"));
  const counts fenced = count(asm_text<fill_dpp_fenced_fn>("fill_dpp_fenced"));
  const counts def = count(asm_text<fill_dpp_default_fn>("fill_dpp_default"));
  CHECK(off.nops == 1);  // s_nop 1: the DPP source written by the instruction before
  CHECK(on.nops == 0);
  CHECK(fenced.nops == 1);  // nothing crosses the sched_barrier
  // After allocation alone the allocator has given the DPP's source register to the next
  // value: the filler would overwrite what the DPP reads, so nothing moves.
  CHECK(def.nops == 1);
  CHECK(on.instructions == off.instructions - 1);
  const pipeline_state st = detail::compile_kernel<fill_dpp_fn>("fill_dpp");
  CHECK(st.filled >= 1);
  rt::device& d = *S().dev;
  for (const char* k : {"fill_dpp", "fill_dpp_default", "fill_dpp_off", "fill_dpp_fenced"}) {
    rt::buffer<uint32_t> out(d, std::vector<uint32_t>(64, 0));
    rt::kernel_args a;
    a.add(out.ptr());
    check(d.launch(*S().mod, k, {1, 1, 1}, {64, 1, 1}, a), k);
    const auto o = out.download();
    for (uint32_t l = 0; l < 64; ++l) CHECK(o[l] == (l % 16 ? l : 0u) + ((l * 5 + 7) ^ 0x55u) + l * l);
  }
}

TEST_CASE("schedule: an MFMA result's and an MFMA operand's gaps filled", "[sched]") {
  const counts on = count(asm_text<fill_mfma_fn>("fill_mfma"));
  const counts off = count(asm_text<fill_mfma_off_fn>("fill_mfma_off"));
  CHECK(off.nops == 2);  // before the MFMA (its operands just written), before the read of its result
  CHECK(on.nops == 0);
  rt::device& d = *S().dev;
  for (const char* k : {"fill_mfma", "fill_mfma_off"}) {
    rt::buffer<float> out(d, std::vector<float>(64, 0.0f));
    rt::buffer<uint32_t> out2(d, std::vector<uint32_t>(64, 0));
    rt::kernel_args a;
    a.add(out.ptr()).add(out2.ptr());
    check(d.launch(*S().mod, k, {1, 1, 1}, {64, 1, 1}, a), k);
    const auto o = out.download();
    const auto o2 = out2.download();
    for (uint32_t l = 0; l < 64; ++l) {
      CHECK(o[l] == 2.0f + static_cast<float>(l));
      CHECK(o2[l] == ((l * 3) | 1) * (l + 9) - (l ^ 0x3cu));
    }
  }
}

TEST_CASE("schedule (default, after allocation): gaps filled where the registers allow", "[sched]") {
  // The reproducer kernel of partial_defs (run in hipasm-sim by test_partial_defs_sim): the
  // address computation written after the DPP add takes the s_nop's place.
  using namespace hipasm::test::partial;
  CHECK(count(asm_text<dpp_row_mask_fn>("dpp_row_mask")).nops == 0);
  CHECK(count(asm_text<with_options<dpp_row_mask_fn, kernel_options{.schedule = false}>>("dpp_row_mask")).nops == 1);
}
