// HIPASM_TEST_KERNELS: kernarg_preload.hip kernarg_noflag.hip
// HIPASM_TEST_KERNARG_PRELOAD: kernarg_preload.hip
// Kernarg preloading (kernel_options::kernarg_preload): the arguments clang preloads into
// user SGPRs are read there, with no s_load and no wait, and the workgroup ids follow them.
//  - clang-22's own preloading kernel runs in the simulator against C++ (the outside oracle of
//    the dispatch: SGPRs from the kernarg segment, execution from entry + 256);
//  - hipasm kernels with preloading on and off give the same results, in a translation unit
//    compiled with clang's preloading and in one without (where the wrapper's pins make clang
//    load the arguments itself: slower, still right);
//  - the asm of the preloading kernels has no s_load of a preloaded argument, and clang puts
//    nothing between its prologue and the kernel's asm (the pins cost no instruction);
//  - arguments that cannot be preloaded are loaded (fitting) or a compile error at the line
//    that reads them (all);
//  - the timing model predicts the preloading axpy faster than the loading one.
#include <catch2/catch.hpp>

#include <hipasm/rt/launcher.hpp>
#include <hipasm/rt/profile.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/kernarg_preload_fn.hpp"

namespace rt = hipasm::rt;
using namespace hipasm;
using namespace hipasm::test::preload;

namespace {

const std::string kDir = std::string(HIPASM_CORE_KERNEL_DIR) + "/core_" + HIPASM_CORE_TEST_NAME;
const std::string kPreload = kDir + "_kernarg_preload";  // .co, .s
const std::string kNoFlag = kDir + "_kernarg_noflag";

// Offsets of the s_load_dword* instructions of an asm text (from the kernarg pointer s[0:1]).
std::vector<long> kernarg_load_offsets(const std::string& text) {
  std::vector<long> offs;
  const std::regex re(R"(s_load_dword\S*\s+s\S+,\s*s\[0:1\],\s*(0x[0-9a-f]+|\d+))");
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
    offs.push_back(std::stol((*it)[1].str(), nullptr, 0));
  return offs;
}
long count_of(const std::string& text, const std::string& what) {
  long n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// Per kernel of a compiled .s: the preload length of its descriptor, and the instructions
// clang put between the end of the preloading prologue (or the kernel's label) and the
// first asm statement.
struct compiled_kernel {
  int preload_length = -1;
  std::vector<std::string> before_asm;
};
std::map<std::string, compiled_kernel> read_asm(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::map<std::string, compiled_kernel> ks;
  std::string line, cur;
  bool collecting = false;
  const std::regex label(R"(^([A-Za-z_][A-Za-z0-9_]*):\s*;\s*@)"), preload(R"(\.amdhsa_kernel\s+(\S+))"),
      length(R"(\.amdhsa_user_sgpr_kernarg_preload_length\s+(\d+))"), insn(R"(^\s+([a-z][a-z0-9_]+)\b)");
  std::string kd;
  std::smatch m;
  while (std::getline(f, line)) {
    if (std::regex_search(line, m, label)) {
      cur = m[1];
      ks[cur];
      collecting = true;
      continue;
    }
    if (std::regex_search(line, m, preload)) kd = m[1];
    if (std::regex_search(line, m, length)) ks[kd].preload_length = std::stoi(m[1]);
    if (!collecting) continue;
    if (line.find(";;#ASMSTART") != std::string::npos) {
      collecting = false;
      continue;
    }
    if (std::regex_search(line, m, insn) && line.find('.') != 1) {
      // The preloading prologue (clang's s_loads, s_waitcnt, s_branch to the body) is skipped
      // by firmware that preloads: start over at its branch target.
      ks[cur].before_asm.push_back(m[1]);
      if (m[1] == "s_branch") ks[cur].before_asm.clear();
    }
  }
  return ks;
}

struct sim_device {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
};

std::vector<float> run_axpy(sim_device& s, const std::string& co, const std::string& kernel, const std::vector<float>& x,
                            const std::vector<float>& y0, float a, unsigned n, const rt::launch_options& opts = {},
                            rt::launch_report* report = nullptr) {
  auto mod = s.dev->load_file(co + ".co");
  rt::buffer<float> xb(*s.dev, x), yb(*s.dev, y0);
  rt::kernel_args args;
  args.add(yb.addr()).add(xb.addr()).add(a).add(n);
  const unsigned groups = (unsigned(y0.size()) + 63) / 64;
  const auto rep = s.dev->launch(*mod, kernel, {groups, 1, 1}, {64, 1, 1}, args, opts);
  for (const auto& d : rep.diagnostics) UNSCOPED_INFO(d);
  CHECK(rep.diagnostics.empty());
  if (report) *report = rep;
  return yb.download();
}

}  // namespace

TEST_CASE("kernarg preloading: clang's kernel and hipasm's, preloading on and off, against C++", "[preload][sim]") {
  const unsigned size = 320, n = 300;  // 5 workgroups of 64, the last 20 lanes past n
  std::vector<float> x(size), y0(size), want(size);
  const float a = 0.5f;  // exact products and sums: one rounding or two give the same
  for (unsigned i = 0; i < size; ++i) {
    x[i] = float(int(i * 7 % 61) - 30);
    y0[i] = float(int(i * 13 % 97) - 48);
    want[i] = i < n ? a * x[i] + y0[i] : y0[i];
  }
  sim_device s;
  for (const std::string& co : {kPreload, kNoFlag})
    for (const char* k : {"axpy_clang", "axpy_on_k", "axpy_off_k"}) {
      INFO(co << " " << k);
      CHECK(run_axpy(s, co, k, x, y0, a, n) == want);
    }
}

TEST_CASE("kernarg preloading: seven preloaded pointers, the rest loaded, workgroup ids after them", "[preload][sim]") {
  sim_device s;
  for (const std::string& co : {kPreload, kNoFlag})
    for (const char* k : {"wide_on_k", "wide_off_k"}) {
      INFO(co << " " << k);
      auto mod = s.dev->load_file(co + ".co");
      std::vector<std::unique_ptr<rt::buffer<int32_t>>> bufs;
      rt::kernel_args args;
      for (int j = 0; j < 8; ++j) {
        bufs.push_back(std::make_unique<rt::buffer<int32_t>>(*s.dev, std::vector<int32_t>(512, -1)));
        args.add(bufs.back()->addr());
      }
      const int32_t kval = 77;
      args.add(kval);
      const auto rep = s.dev->launch(*mod, k, {2, 2, 2}, {64, 1, 1}, args);
      for (const auto& d : rep.diagnostics) UNSCOPED_INFO(d);
      CHECK(rep.diagnostics.empty());
      for (int j = 0; j < 8; ++j) {
        const auto got = bufs[size_t(j)]->download();
        for (int gz = 0; gz < 2; ++gz)
          for (int gy = 0; gy < 2; ++gy)
            for (int gx = 0; gx < 2; ++gx)
              for (int lane = 0; lane < 64; ++lane) {
                const int g = gx + 2 * gy + 4 * gz;
                CHECK(got[size_t(lane + 64 * g)] == 1000 * j + kval + gx + 10 * gy + 100 * gz);
              }
      }
    }
}

TEST_CASE("kernarg preloading: a sub-dword argument, a struct and one after it are loaded", "[preload][sim]") {
  sim_device s;
  for (const std::string& co : {kPreload, kNoFlag})
    for (const char* k : {"mixed_on_k", "mixed_off_k"}) {
      INFO(co << " " << k);
      auto mod = s.dev->load_file(co + ".co");
      rt::buffer<int32_t> out(*s.dev, std::vector<int32_t>(64, 0));
      rt::kernel_args args;
      const two_ints st{3, -5};
      args.add(out.addr()).add(int16_t(1234)).add(int32_t(-7)).add(st).add(2.75f);
      const auto rep = s.dev->launch(*mod, k, {1, 1, 1}, {64, 1, 1}, args);
      for (const auto& d : rep.diagnostics) UNSCOPED_INFO(d);
      CHECK(rep.diagnostics.empty());
      const auto got = out.download();
      for (int lane = 0; lane < 64; ++lane) CHECK(got[size_t(lane)] == 1234 - 7 + 3 * -5 + 2 + lane);
    }
}

TEST_CASE("kernarg preloading: no s_load of a preloaded argument, the rest loaded", "[preload][asm]") {
  // axpy: all four arguments preloaded (s[2:3], s[4:5], s6, s7): no load, no lgkmcnt wait.
  const std::string on = asm_text<axpy_on>("axpy"), off = asm_text<axpy>("axpy");
  CHECK(kernarg_load_offsets(on).empty());
  CHECK(count_of(on, "lgkmcnt") == 0);
  CHECK(kernarg_load_offsets(off).size() >= 1);
  CHECK(count_of(off, "lgkmcnt") >= 1);
  CHECK(count_of(on, "s_load") == 0);
  // wide: p0..p6 preloaded (dwords 0..13); p7 (56) and k (64) loaded.
  auto wide_offs = kernarg_load_offsets(asm_text<wide_on>("wide"));
  std::sort(wide_offs.begin(), wide_offs.end());
  CHECK(wide_offs == std::vector<long>{56, 64});
  // mixed: out and a preloaded; the short (dword 2), the struct (16) and the float (24) loaded.
  auto mixed_offs = kernarg_load_offsets(asm_text<mixed_on>("mixed"));
  std::sort(mixed_offs.begin(), mixed_offs.end());
  CHECK(mixed_offs == std::vector<long>{8, 16, 24});

  const kernel_usage ua = usage<axpy_on>("axpy"), uw = usage<wide_on>("wide"), um = usage<mixed_on>("mixed");
  CHECK(ua.kernarg_preload_dwords == 6);
  CHECK(ua.preloaded_args == 4);
  CHECK(uw.kernarg_preload_dwords == 14);
  CHECK(uw.preloaded_args == 7);
  CHECK(um.kernarg_preload_dwords == 4);  // out, the short, a (clang preloads the short too)
  CHECK(um.preloaded_args == 2);
  CHECK(usage<axpy>("axpy").kernarg_preload_dwords == 0);
}

TEST_CASE("kernarg preloading: clang's descriptors, and no instruction of clang's before the kernel", "[preload][asm]") {
  const auto pre = read_asm(kPreload + ".s"), plain = read_asm(kNoFlag + ".s");
  // clang-22's layout, the one the builder predicts (kernel_usage::kernarg_preload_dwords).
  const std::map<std::string, int> want = {{"axpy_on_k", 6},  {"axpy_off_k", 6}, {"axpy_clang", 6}, {"wide_on_k", 14},
                                           {"wide_off_k", 14}, {"mixed_on_k", 4}, {"mixed_off_k", 4}};
  for (const auto& [k, len] : want) {
    INFO(k);
    REQUIRE(pre.count(k));
    REQUIRE(plain.count(k));
    CHECK(pre.at(k).preload_length == len);
    CHECK(plain.at(k).preload_length == 0);
  }
  CHECK(usage<axpy_on>("k").kernarg_preload_dwords == want.at("axpy_on_k"));
  CHECK(usage<wide_on>("k").kernarg_preload_dwords == want.at("wide_on_k"));
  CHECK(usage<mixed_on>("k").kernarg_preload_dwords == want.at("mixed_on_k"));
  // Preloading kernels in the preloading unit: the pins match clang's entry state exactly.
  for (const char* k : {"axpy_on_k", "wide_on_k", "mixed_on_k"}) {
    INFO(k);
    CHECK(pre.at(k).before_asm.empty());
    // Without clang's preloading the same pins make clang load the arguments (correct, slower).
    CHECK_FALSE(plain.at(k).before_asm.empty());
  }
  // Kernels without the option in the unit without preloading: nothing either (the workgroup
  // ids are pinned where clang has them).
  for (const char* k : {"axpy_off_k", "wide_off_k", "mixed_off_k"}) {
    INFO(k);
    CHECK(plain.at(k).before_asm.empty());
  }
}

TEST_CASE("kernarg preloading: the timing model predicts the preloading axpy faster", "[preload][timing]") {
  const unsigned size = 256;
  std::vector<float> x(size, 1.0f), y0(size, 2.0f);
  sim_device s;
  rt::profile_options popt;
  rt::launch_options opts;
  opts.profile = &popt;
  rt::launch_report on, off;
  run_axpy(s, kPreload, "axpy_on_k", x, y0, 3.0f, size, opts, &on);
  run_axpy(s, kNoFlag, "axpy_off_k", x, y0, 3.0f, size, opts, &off);
  REQUIRE(on.profile);
  REQUIRE(off.profile);
  UNSCOPED_INFO("axpy 256: preloaded " << on.profile->cycles << " cycles, " << on.profile->time_us << " us; loaded "
                                       << off.profile->cycles << " cycles, " << off.profile->time_us << " us");
  CHECK(on.profile->cycles < off.profile->cycles);
  WARN("axpy 256 elements: preloaded " << on.profile->cycles << " cycles (" << on.profile->time_us << " us), loaded "
                                       << off.profile->cycles << " cycles (" << off.profile->time_us << " us)");
}

// ---- kernarg_preload = all: an argument that cannot be preloaded is an error at its read ----
namespace {
// (each read is an instruction of its own line: the error names it)
constexpr int line_sub = __LINE__ + 2;
constexpr void reads_short(builder J, arg<int*> out, arg<short> s) {
  J.s_store_dword(s, out, 0);
}
constexpr int line_struct = __LINE__ + 2;
constexpr void reads_struct(builder J, arg<int*> out, arg<two_ints> st) {
  J.s_store_dword(st.field<int>(4), out, 0);
}
constexpr int line_far = __LINE__ + 3;
constexpr void reads_far(builder J, arg<int*> p0, arg<int*> p1, arg<int*> p2, arg<int*> p3, arg<int*> p4,
                         arg<int*> p5, arg<int*> p6, arg<int> k) {
  J.s_store_dword(k, p0, 0);
  (void)p1, (void)p2, (void)p3, (void)p4, (void)p5, (void)p6;
}
using c = char;
constexpr int line_many = __LINE__ + 3;
constexpr void reads_17th(builder J, arg<int*> out, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>,
                          arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c>, arg<c> last) {
  J.s_store_dword(last, out, 0);
}
constexpr void reads_fitting(builder J, arg<int*> out, arg<int> a) {
  auto v = J.sgpr<i32>();
  v = a + 1;
  J.s_store_dword(v, out, 0);
}
constexpr kernel_options all{.kernarg_preload = arg_preload::all};

void expect_preload_error(const build_result& r, int line, const std::string& why) {
  INFO(std::string(r.error.view()));
  REQUIRE(r.error.failed);
  CHECK(r.error.loc.line == uint32_t(line));
  CHECK_THAT(std::string(r.error.view()), Catch::Contains("kernarg_preload = arg_preload::all") &&
                                              Catch::Contains("cannot be preloaded") && Catch::Contains(why));
}
}  // namespace

TEST_CASE("kernarg_preload = all: an argument that cannot be preloaded fails at the line that reads it", "[preload][errors]") {
  expect_preload_error(build_kernel<reads_short>("k", all), line_sub, "smaller than a dword");
  expect_preload_error(build_kernel<reads_struct>("k", all), line_struct, "no struct");
  expect_preload_error(build_kernel<reads_far>("k", all), line_far, "the 14 preloadable dwords");
  expect_preload_error(build_kernel<reads_17th>("k", all), line_many, "at most 16 arguments");
  CHECK(build_kernel<reads_fitting>("k", all).error.ok());
  // fitting: the same kernels compile, the arguments loaded.
  kernel_options fitting{.kernarg_preload = arg_preload::fitting};
  CHECK(build_kernel<reads_short>("k", fitting).error.ok());
  CHECK(build_kernel<reads_struct>("k", fitting).error.ok());
  CHECK(build_kernel<reads_far>("k", fitting).error.ok());
  CHECK(build_kernel<reads_17th>("k", fitting).error.ok());
}
