// HIPASM_TEST_KERNELS: pipeline_options.hip
// Per-kernel options (options.hpp): the optional passes turned off per kernel through
// with_options<fn, kernel_options{...}>, in HIPASM_KERNEL_BODY (run in the simulator against
// plain C++) and on the host (asm_text, pass_dump); the pass dump's sections.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>

#include <regex>
#include <string>
#include <vector>

#include "kernels/pipeline_options.hpp"

using namespace hipasm;
using namespace hipasm::test;
namespace rt = hipasm::rt;

namespace {
std::string co_path() {
  return std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME + "_pipeline_options.co";
}
int count(const std::string& s, const std::string& re) {
  std::regex r(re);
  return static_cast<int>(std::distance(std::sregex_iterator(s.begin(), s.end(), r), std::sregex_iterator()));
}
int instructions(const std::string& asm_text) { return count(asm_text, "(^|\n)\t[a-z]"); }
}  // namespace

TEST_CASE("kernel_options turn the optional passes off, results unchanged", "[options]") {
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(co_path());
  for (const char* k : {"po_default", "po_plain"}) {
    for (int n : {0, 5, -7, 2147483647}) {
      rt::buffer<int> out(*dev, 64);
      rt::kernel_args args;
      args.add(out.ptr()).add(n);
      rt::launch_report rep = dev->launch(*mod, k, {1, 1, 1}, {64, 1, 1}, args);
      INFO(k << " n=" << n);
      for (const auto& d : rep.diagnostics) FAIL_CHECK("checker: " << d);
      std::vector<int> got = out.download();
      for (int lane = 0; lane < 64; ++lane) {
        const uint32_t a = static_cast<uint32_t>(lane) * 3u + static_cast<uint32_t>(n);  // wraps
        CHECK(got[lane] == static_cast<int>(a + a));
      }
    }
  }
}

TEST_CASE("kernel_options on the host: asm_text shows each pass's work", "[options]") {
  const std::string def = asm_text<po_kernel>("po");
  const std::string plain = asm_text<po_kernel_plain>("po");
  const std::string no_cse = asm_text<po_kernel_no_cse>("po");
  INFO(def << "----\n" << plain);
  // Without dce the never-read xor stays; without dse the overwritten 1234 stays (a literal).
  CHECK(count(def, "v_xor_b32") == 0);
  CHECK(count(plain, "v_xor_b32") == 1);
  CHECK(count(def, "0x4d2") == 0);
  CHECK(count(plain, "0x4d2") == 1);
  CHECK(instructions(plain) > instructions(no_cse));
  // (cse's work itself: the repeated 3 * lane; total counts also move with the allocator's
  // copy coalescing, which happened to remove one copy more without cse)
  CHECK(count(no_cse, "v_lshl_add_u32") > count(def, "v_lshl_add_u32"));
}

TEST_CASE("with_options of a wrapped kernel: the new options replace the inner ones", "[options]") {
  // (rewrapping failed to compile: build_kernel got the wrapper where a function goes)
  constexpr auto rewrapped = with_options<po_kernel_no_cse, kernel_options{.cse = false, .dse = false, .dce = false}>;
  static_assert(detail::kernel_fn_of<rewrapped>() == detail::kernel_fn_of<po_kernel_no_cse>());
  static_assert(!detail::kernel_options_of<rewrapped>().dce);
  CHECK(asm_text<rewrapped>("po") == asm_text<with_options<detail::kernel_fn_of<po_kernel_no_cse>(),
                                                           kernel_options{.cse = false, .dse = false, .dce = false}>>("po"));
  CHECK(asm_text<with_options<po_kernel_plain, kernel_options{}>>("po") == asm_text<po_kernel>("po"));
}

TEST_CASE("pass_dump lists the IR after every step", "[options]") {
  const std::string d = pass_dump<po_kernel>("po");
  INFO(d);
  for (const char* step : {"built", "after remove-unreachable", "after a2v", "after split-registers", "after cse",
                           "after vcc-compares", "after dse", "after dce", "after waitcnt-check", "after regalloc", "after hazards"})
    CHECK(d.find(std::string(";; ==== ") + step + ":") != std::string::npos);
  // Virtual registers before allocation, physical ones after it.
  const auto ra = d.find(";; ==== after regalloc");
  REQUIRE(ra != std::string::npos);
  CHECK(std::regex_search(d.substr(0, ra), std::regex("%v[0-9]+")));
  CHECK_FALSE(std::regex_search(d.substr(ra), std::regex("%v[0-9]+")));
  // The counts shrink where the passes removed something.
  CHECK(std::regex_search(d, std::regex("after cse: [0-9]+ blocks, [0-9]+ instructions \\(-[0-9]+\\)")));
  // The last section is the kernel's asm.
  const auto h = d.find(";; ==== after hazards");
  const std::string last = d.substr(d.find('\n', h) + 1);
  CHECK(last == asm_text<po_kernel>("po"));

  const std::string p = pass_dump<po_kernel_plain>("po");
  CHECK(p.find(";; ==== cse: off (kernel_options)") != std::string::npos);
  CHECK(p.find(";; ==== dse: off (kernel_options)") != std::string::npos);
  CHECK(p.find(";; ==== dce: off (kernel_options)") != std::string::npos);
}
