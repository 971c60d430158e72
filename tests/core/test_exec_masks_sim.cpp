// HIPASM_TEST_KERNELS: exec_masks.hip
// Which lanes EXEC holds, run in hipasm-sim against plain C++ references:
//  - at kernel entry the last wave of a workgroup whose size is not a multiple of 64 has only
//    its own lanes on, so a DPP move without bound_ctrl whose source lane lies past the wave's
//    end does not write that lane (the destination keeps its earlier value, which liveness,
//    DCE and the allocator must keep: passes/liveness.hpp's all_lanes); with bound_ctrl it
//    writes 0;
//  - a mask handed out as a value (lane_mask of negated and combined conditions, under If,
//    nested If, at the top level of a partial wave) holds only lanes of EXEC, so set_exec of
//    it turns on no parked lane and no lane past the wave's end; If/Else/select/While on
//    negated combined conditions take the lanes C++ says.
// Each kernel runs with workgroups of 64, 20, 33 and 100 threads; the checker stays silent.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include "asm_counts.hpp"
#include "kernels/exec_masks_fn.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rt = hipasm::rt;

namespace {

struct sim {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod = dev->load_file(std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" +
                                                   HIPASM_CORE_TEST_NAME + "_exec_masks.co");
};
sim& S() {
  static sim s;
  return s;
}

constexpr uint32_t sentinel = 0xdeadbeefu;
const uint32_t block_sizes[] = {64, 20, 33, 100};

// Runs `kernel` on one workgroup of `threads` threads; out holds `per_thread` dwords for every
// lane of every wave (lanes past the workgroup's end included, so a stray write shows).
std::vector<uint32_t> run(const std::string& kernel, uint32_t threads, uint32_t per_thread, bool with_n) {
  rt::device& d = *S().dev;
  const uint32_t lanes = (threads + 63) / 64 * 64;
  rt::buffer<uint32_t> out(d, std::vector<uint32_t>(lanes * per_thread, sentinel));
  rt::kernel_args a;
  a.add(out.ptr());
  if (with_n) a.add(5u);
  const rt::launch_report rep = d.launch(*S().mod, kernel, {1, 1, 1}, {threads, 1, 1}, a);
  for (const auto& msg : rep.diagnostics) FAIL_CHECK(kernel << " checker: " << msg);
  return out.download();
}

// The source lane of a DPP control for destination lane l (gfx942 ISA, DPP_CTRL), all of
// them lanes of a full wave.
int dpp_source(uint16_t ctrl, int l) {
  const int row = l & ~15, in_row = l & 15;
  switch (ctrl) {
    case 0x140: return row | (15 - in_row);              // row_mirror
    case 0x141: return (l & ~7) | (7 - (l & 7));         // row_half_mirror
    case 0x1b: return (l & ~3) | (3 - (l & 3));          // quad_perm:[3,2,1,0]
    case 0x123: return row | ((in_row - 3) & 15);        // row_ror:3
    case 0x134: return (l + 1) & 63;                     // wave_rol:1
    case 0x13c: return (l - 1) & 63;                     // wave_ror:1
  }
  return -1;
}

}  // namespace

TEST_CASE("DPP at kernel entry in a partial wave keeps the lanes whose source is past its end", "[exec][dpp][sim]") {
  struct ctrl {
    const char* name;
    uint16_t code;
  };
  const ctrl ctrls[] = {{"row_mirror", 0x140}, {"row_half_mirror", 0x141}, {"quad_perm_rev", 0x1b},
                        {"row_ror3", 0x123},   {"wave_rol", 0x134},        {"wave_ror", 0x13c}};
  for (const ctrl& c : ctrls)
    for (bool bound : {false, true})
      for (uint32_t threads : block_sizes) {
        const std::string k = std::string("em_dpp_") + c.name + (bound ? "_bound" : "_nobound");
        INFO(k << " threads=" << threads);
        const std::vector<uint32_t> got = run(k, threads, 1, false);
        for (uint32_t t = 0; t < got.size(); ++t) {
          const uint32_t wave_lanes = std::min<uint32_t>(64, threads - t / 64 * 64);
          const int l = static_cast<int>(t % 64);
          const int src = dpp_source(c.code, l);
          uint32_t want = sentinel;
          if (t < threads)
            want = src < static_cast<int>(wave_lanes) ? static_cast<uint32_t>(src) : bound ? 0u : 1000u + l;
          INFO("thread " << t);
          CHECK(got[t] == want);
        }
      }
}

TEST_CASE("masks handed out as values hold only lanes of EXEC", "[exec][exec_mask][sim]") {
  // Per case: for lane l of a wave with n lanes, whether it stores and what (a 64-bit mask
  // built from `in_mask`, or a 32-bit value).
  struct mask_case {
    const char* name;
    std::function<bool(int)> in_mask;  // lane_mask cases: the mask's lanes (those of a full wave)
  };
  const mask_case masks[] = {
      {"neg_and_in_if", [](int l) { return l < 10 && !(l < 5 && l > 1); }},
      {"neg_or_in_if", [](int l) { return l < 10 && !(l < 3 || l > 7); }},
      {"outer_in_if", [](int l) { return l < 10 && (l < 5 || l > 60); }},
      {"uniform_or_in_if", [](int l) { return l < 10; }},              // n = 5 > 3
      {"uniform_neg_in_if", [](int l) { return l < 10 && l >= 3; }},   // !(l < 3 && true)
      {"nested", [](int l) { return l < 32 && l >= 8 && !(l < 12 && l > 9); }},
      {"top_level", [](int l) { return !(l < 5 && l > 1); }},
      {"if_neg", [](int l) { return l < 10 && !(l < 5 && l > 1); }},
      {"else_neg", [](int l) { return l < 10 && l < 5 && l > 1; }},
  };
  for (const mask_case& c : masks)
    for (uint32_t threads : block_sizes) {
      INFO(c.name << " threads=" << threads);
      const std::vector<uint32_t> got = run(std::string("em_") + c.name, threads, 2, true);
      for (uint32_t t = 0; t < got.size() / 2; ++t) {
        const uint32_t w = t / 64, n = std::min<uint32_t>(64, threads > w * 64 ? threads - w * 64 : 0);
        uint64_t want_mask = 0;
        for (uint32_t l = 0; l < n; ++l)
          if (c.in_mask(static_cast<int>(l))) want_mask |= uint64_t{1} << l;
        const bool stores = (want_mask >> (t % 64)) & 1;
        INFO("thread " << t);
        CHECK(got[2 * t] == (stores ? static_cast<uint32_t>(want_mask) : sentinel));
        CHECK(got[2 * t + 1] == (stores ? static_cast<uint32_t>(want_mask >> 32) : sentinel));
      }
    }
}

TEST_CASE("select and While on negated combined conditions", "[exec][sim]") {
  for (uint32_t threads : block_sizes) {
    INFO("threads=" << threads);
    const std::vector<uint32_t> sel = run("em_select_neg", threads, 2, true);
    const std::vector<uint32_t> loop = run("em_while_neg", threads, 2, true);
    for (uint32_t t = 0; t < sel.size() / 2; ++t) {
      const int l = static_cast<int>(t % 64);
      const bool exists = t < threads;
      INFO("thread " << t);
      CHECK(sel[2 * t] == (exists && l < 10 ? (!(l < 5 && l > 1) ? 1u : 2u) : sentinel));
      CHECK(loop[2 * t] == (exists ? std::max(l & 3, 1) : sentinel));
      CHECK(sel[2 * t + 1] == sentinel);
      CHECK(loop[2 * t + 1] == sentinel);
    }
  }
}

TEST_CASE("a kernel that declares full waves lets a DPP move end the old value", "[exec][dpp]") {
  // builder::workgroup_size(64): every wave starts with all 64 lanes on, so v = lane + 1000
  // before a row_mirror move without bound_ctrl is dead (gone); without the declaration it
  // stays (a lane whose source is past a partial wave's end keeps it).
  using namespace hipasm::test::exec_masks;
  const std::string full = hipasm::asm_text<dpp_entry_fn<0x140, false, 64>>("k");
  const std::string partial = hipasm::asm_text<dpp_entry_fn<0x140, false>>("k");
  const std::string odd = hipasm::asm_text<dpp_entry_fn<0x140, false, 100>>("k");
  INFO(full << partial);
  CHECK(full.find("0x3e8") == std::string::npos);
  CHECK(partial.find("0x3e8") != std::string::npos);
  CHECK(odd.find("0x3e8") != std::string::npos);
  CHECK(hipasm::test::count_asm(full).instructions + 1 == hipasm::test::count_asm(partial).instructions);
  const std::vector<uint32_t> got = run("em_dpp_row_mirror_wg64", 64, 1, false);
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == static_cast<uint32_t>(dpp_source(0x140, static_cast<int>(l))));
}
