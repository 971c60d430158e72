// The checker's gfx950 wait-state rules against LLVM: each kernel of checker/hazards950.ll
// makes llc-22 -mcpu=gfx950 pad a hazard with s_nop. Assembled as llc wrote it the checker
// must be silent; with that padding one wait state short it must report the rule, asking for
// exactly the wait states llc gave. (The gfx950 rows: XDL reads one more than gfx942, f64
// 16x16x4 19, the permlane swaps, the scaled converts whose result is not forwarded, the
// scaled MFMA's scale operands.) Also the 160 KiB LDS of a gfx950 workgroup.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "hipasm/rt/launcher.hpp"

namespace rt = hipasm::rt;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// llc-22's gfx950 assembly of checker/hazards950.ll (once per test run).
const std::string& llc_output() {
  static const std::string s = [] {
    const std::string out = std::string(HIPASM_SIM_TEST_DIR) + "/hazards950.s";
    const std::string cmd = "llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx950 \"" + std::string(HIPASM_SIM_SOURCE_DIR) +
                            "/checker/hazards950.ll\" -o \"" + out + "\" 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return slurp(out);
  }();
  return s;
}

rt::launch_report run_asm(const std::string& text, const std::string& kernel, const std::string& tag) {
  const std::string sp = std::string(HIPASM_SIM_TEST_DIR) + "/hazards950_" + tag + ".s", co = sp + ".co";
  std::ofstream(sp) << text;
  const std::string cmd = "clang++-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 \"" + sp + "\" -o \"" + co + "\" 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(co);
  std::vector<uint32_t> init(4096, 0x3f800000u);  // 1.0f everywhere
  rt::buffer<uint32_t> out(*dev, 4096), in(*dev, init);
  rt::kernel_args args;
  args.add(out.addr()).add(in.addr());
  return dev->launch(*mod, kernel, {1, 1, 1}, {64, 1, 1}, args);
}

// Position of the line of `kernel` that contains `what` (searching from `from`), or npos.
size_t find_in_kernel(const std::string& s, const std::string& kernel, const std::string& what) {
  const size_t k = s.find("\n" + kernel + ":");
  if (k == std::string::npos) return k;
  const size_t end = s.find("s_endpgm", k);
  const size_t p = s.find(what, k);
  return p < end ? s.rfind('\n', p) + 1 : std::string::npos;
}

struct Pad {
  size_t pos, len;  // the s_nop line to shorten
  int n;            // its count
};
// The s_nop llc put after (`after`) or before the line at `at`: after, the last of the first
// run of s_nop lines below it; before, the nearest s_nop line above it.
Pad pad_near(const std::string& s, size_t at, bool after) {
  std::regex nop(R"(^\s*s_nop (\d+)\s*$)");
  auto line_at = [&](size_t p) { return s.substr(p, s.find('\n', p) - p); };
  std::smatch m;
  Pad pad{std::string::npos, 0, -1};
  if (after) {
    size_t p = s.find('\n', at) + 1;
    for (; line_at(p).find("s_endpgm") == std::string::npos; p = s.find('\n', p) + 1)
      if (std::regex_match(line_at(p), nop)) break;
    for (;; p = s.find('\n', p) + 1) {
      std::string l = line_at(p);
      if (!std::regex_match(l, m, nop)) break;
      pad = {p, l.size(), std::stoi(m[1])};
    }
  } else {
    size_t p = at;
    while (p > 0) {
      p = s.rfind('\n', p - 2) + 1;
      std::string l = line_at(p);
      if (std::regex_match(l, m, nop)) return {p, l.size(), std::stoi(m[1])};
      if (l.find(':') != std::string::npos && l.find(';') != 0) break;  // the kernel's label
    }
  }
  return pad;
}
std::string shortened(std::string s, const Pad& p) {
  if (p.n > 0) s.replace(p.pos, p.len, "\ts_nop " + std::to_string(p.n - 1));
  else s.erase(p.pos, p.len + 1);
  return s;
}

// The finding of `rule`, whose "needs N wait states, has M" must have M == N - 1.
void expect_short_by_one(const rt::launch_report& rep, const std::string& rule) {
  bool found = false;
  for (const std::string& d : rep.diagnostics) {
    UNSCOPED_INFO(d);
    if (d.find("[hazard " + rule + "]") == std::string::npos) continue;
    std::smatch m;
    REQUIRE(std::regex_search(d, m, std::regex(R"(needs (\d+) wait states, has (\d+))")));
    CHECK(std::stoi(m[2]) == std::stoi(m[1]) - 1);
    found = true;
  }
  CHECK(found);
}

struct Case {
  const char* kernel;
  const char* anchor;  // the producer (after) or consumer (before) of the padded hazard
  bool after;
  const char* rule;
};
const Case kCases[] = {
    {"xdl_bf16", "v_mfma_f32_16x16x32_bf16", true, "mfma-read"},            // 4 passes: 8 (gfx942: 7)
    {"dgemm16", "v_mfma_f64_16x16x4_f64", true, "mfma-read"},               // 19 (gfx942: 11)
    {"f8f6f4_fp8", "v_mfma_f32_16x16x128_f8f6f4", true, "mfma-read"},       // FP8 input: 8 passes
    {"f8f6f4_fp4", "v_mfma_f32_16x16x128_f8f6f4", true, "mfma-read"},       // fp4 inputs: 4 passes
    {"scale_mfma", "v_mfma_scale_f32_16x16x128_f8f6f4", false, "valu-vgpr-mfma"},  // scale VGPRs
    {"scale_mfma", "v_mfma_scale_f32_16x16x128_f8f6f4", true, "mfma-read"},  // a store reads the result
    {"permlane_swap", "v_permlane32_swap_b32", false, "vgpr-permlane"},
    {"cvt_sr_fp8", "v_cvt_scalef32_sr_fp8_f32", true, "cvt-scale-forward"},  // byte 1
    {"cvt_sr_pk_fp4", "v_cvt_scalef32_sr_pk_fp4_f32", true, "cvt-scale-forward"},
};

}  // namespace

TEST_CASE("gfx950 checker: silent on llc-22's padding, reports it one wait state short", "[checker][gfx950]") {
  const std::string& s = llc_output();
  int i = 0;
  for (const Case& c : kCases) {
    INFO(c.kernel << " " << c.anchor << " " << c.rule);
    const size_t at = find_in_kernel(s, c.kernel, c.anchor);
    REQUIRE(at != std::string::npos);
    const Pad pad = pad_near(s, at, c.after);
    REQUIRE(pad.n >= 0);  // llc padded it
    const rt::launch_report ok = run_asm(s, c.kernel, "llc");
    for (const std::string& d : ok.diagnostics) UNSCOPED_INFO(d);
    CHECK(ok.diagnostics.empty());
    expect_short_by_one(run_asm(shortened(s, pad), c.kernel, std::to_string(i++)), c.rule);
  }
}

// LLVM's checkPermlaneHazards (gfx950): a v_cmpx writing EXEC needs 4 wait states before a
// permlane swap. llc-22 does not make a v_cmpx here, so one is put before the swap by hand.
TEST_CASE("gfx950 checker: v_cmpx then v_permlane32_swap needs 4 wait states", "[checker][gfx950]") {
  const std::string& s = llc_output();
  const size_t at = find_in_kernel(s, "permlane_swap", "v_permlane32_swap_b32");
  REQUIRE(at != std::string::npos);
  for (int nop : {3, 2}) {
    INFO("s_nop " << nop);
    std::string t = s;
    // all lanes stay active: v0 (a sum of lane id and loaded data) is never -1 here
    t.insert(at, "\tv_cmpx_ne_u32_e32 vcc, -1, v0\n\ts_nop " + std::to_string(nop) + "\n");
    const rt::launch_report rep = run_asm(t, "permlane_swap", "cmpx" + std::to_string(nop));
    if (nop == 3) {
      for (const std::string& d : rep.diagnostics) UNSCOPED_INFO(d);
      CHECK(rep.diagnostics.empty());
    } else {
      expect_short_by_one(rep, "cmpx-permlane");
    }
  }
}

// 160 KiB of LDS per workgroup on gfx950 (64 KiB on gfx942): the llc kernels use none, so
// dynamic LDS alone reaches the limit.
TEST_CASE("gfx950 launch: 160 KiB of LDS per workgroup", "[checker][gfx950]") {
  const std::string sp = std::string(HIPASM_SIM_TEST_DIR) + "/hazards950_lds.s", co = sp + ".co";
  std::ofstream(sp) << llc_output();
  REQUIRE(std::system(("clang++-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 \"" + sp + "\" -o \"" + co + "\" 2>&1").c_str()) == 0);
  auto dev = rt::device::open(rt::backend::sim);
  auto mod = dev->load_file(co);
  rt::buffer<uint32_t> out(*dev, 4096), in(*dev, 4096);
  rt::kernel_args args;
  args.add(out.addr()).add(in.addr());
  rt::launch_options o;
  o.dynamic_lds = 160 * 1024;
  CHECK(dev->launch(*mod, "cvt_sr_fp8", {1, 1, 1}, {64, 1, 1}, args, o).diagnostics.empty());
  o.dynamic_lds = 160 * 1024 + 4;
  CHECK_THROWS_WITH(dev->launch(*mod, "cvt_sr_fp8", {1, 1, 1}, {64, 1, 1}, args, o),
                    Catch::Contains("exceed 160 KiB (a gfx950 workgroup's most)"));
}

// AMD's gfx950 fmoe_bf16_blockscaleBf16_*_ps metadata lists its last by-value field at offset
// 436 of a 436-byte kernarg segment: such a code object loads, the segment reaching the end of
// the arguments; any other argument past the segment is still refused.
TEST_CASE("loader: a by-value argument past .kernarg_segment_size (aiter's fmoe metadata)", "[loader][gfx950]") {
  std::string s = llc_output();
  const size_t name = s.find("    .name:           cvt_sr_fp8\n");
  REQUIRE(name != std::string::npos);
  const size_t at = s.rfind("    .group_segment_fixed_size:", name);
  REQUIRE(s.find("    .kernarg_segment_size: 272\n", at) < name);
  for (const char* kind : {"by_value", "global_buffer"}) {
    INFO(kind);
    std::string t = s;
    const bool ok = std::string(kind) == "by_value";
    t.insert(at, std::string("      - .offset:         272\n        .size:           ") + (ok ? "4" : "8") +
                     "\n        .value_kind:     " + kind + "\n" + (ok ? "" : "        .address_space:  global\n"));
    const std::string sp = std::string(HIPASM_SIM_TEST_DIR) + "/hazards950_args_" + kind + ".s", co = sp + ".co";
    std::ofstream(sp) << t;
    REQUIRE(std::system(("clang++-22 -target amdgcn-amd-amdhsa -mcpu=gfx950 \"" + sp + "\" -o \"" + co + "\" 2>&1").c_str()) == 0);
    auto dev = rt::device::open(rt::backend::sim);
    if (!ok) {
      CHECK_THROWS_WITH(dev->load_file(co), Catch::Contains("at offset 272 size 8 lies outside the 272-byte kernarg segment"));
      continue;
    }
    auto mod = dev->load_file(co);
    rt::buffer<uint32_t> out(*dev, 4096), in(*dev, 4096);
    rt::kernel_args args;
    args.add(out.addr()).add(in.addr()).add(uint32_t(7));
    CHECK(dev->launch(*mod, "cvt_sr_fp8", {1, 1, 1}, {64, 1, 1}, args).diagnostics.empty());
  }
}
