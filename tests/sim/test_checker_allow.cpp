// Per-rule checker control and the findings summary, with checker/checker_allow.s: the four
// rules AMD's production kernels break (valu-sgpr-valu, salu-m0, mfma-read, mfma-waw), each
// once per loop iteration, 3 iterations, 4 single-wave workgroups.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "hipasm/rt/launcher.hpp"

namespace rt = hipasm::rt;

namespace {

const std::vector<std::string> kRules = {"hazard mfma-read", "hazard mfma-waw", "hazard salu-m0",
                                         "hazard valu-sgpr-valu"};

struct Run {
  std::unique_ptr<rt::device> dev = rt::device::open(rt::backend::sim);
  std::unique_ptr<rt::module> mod =
      dev->load_file(std::string(HIPASM_SIM_TEST_DIR) + "/sim_checker_allow_kernels.co");
  rt::buffer<uint32_t> out{*dev, 64 * 4};

  rt::launch_report launch(std::vector<std::string> allow, unsigned threads = 1) {
    out.upload(std::vector<uint32_t>(64 * 4, 0));
    rt::kernel_args args;
    args.add(out.addr());
    rt::launch_options opts;
    opts.allow = std::move(allow);
    opts.threads = threads;
    rt::launch_report r = dev->launch(*mod, "amd_patterns", {4, 1, 1}, {64, 1, 1}, args, opts);
    // The run went to the end: every lane stored lane 1's v1 (4).
    auto got = out.download();
    CHECK(std::count(got.begin(), got.begin() + 64, 4u) == 64);
    return r;
  }
};

std::string tag_of(const std::string& line) {
  auto a = line.find(": ["), b = line.find("] ", a);
  return a == std::string::npos || b == std::string::npos ? line : line.substr(a + 3, b - a - 3);
}
std::vector<std::string> tags(const std::vector<std::string>& lines) {
  std::vector<std::string> t;
  for (auto& l : lines) t.push_back(tag_of(l));
  std::sort(t.begin(), t.end());
  return t;
}

}  // namespace

TEST_CASE("checker allow: strict by default; every finding counted with its first wave", "[checker]") {
  Run r;
  rt::launch_report rep = r.launch({});
  CHECK(tags(rep.diagnostics) == kRules);
  CHECK(rep.warnings.empty());
  REQUIRE(rep.findings.size() == 4);
  for (const rt::checker_finding& f : rep.findings) {
    INFO(f.message);
    CHECK(f.count == 12);  // 3 iterations x 4 waves
    CHECK(f.first_workgroup == 0);
    CHECK(f.first_wave == 0);
    CHECK_FALSE(f.allowed);
    CHECK(f.message.find(f.instruction) != std::string::npos);
  }
  std::map<std::string, std::string> inst;
  for (auto& f : rep.findings) inst[f.rule] = f.instruction;
  CHECK(inst["hazard valu-sgpr-valu"] == "v_mov_b32_e32 v16, s20");
  CHECK(inst["hazard salu-m0"] == "buffer_load_dword v1, s[8:11], 0 offen lds");
  CHECK(inst["hazard mfma-read"] == "v_accvgpr_read_b32 v8, a3");
  CHECK(inst["hazard mfma-waw"] == "v_accvgpr_write_b32 a0, v1");
}

TEST_CASE("checker allow: one rule allowed becomes a warning, the others stay errors", "[checker]") {
  Run r;
  for (const std::string& rule : kRules) {
    for (const std::string& name : {rule, rule.substr(7)}) {  // the tag, or the hazard id alone
      INFO("allow " << name);
      rt::launch_report rep = r.launch({name});
      CHECK(tags(rep.warnings) == std::vector<std::string>{rule});
      auto rest = kRules;
      rest.erase(std::find(rest.begin(), rest.end(), rule));
      CHECK(tags(rep.diagnostics) == rest);
      for (auto& f : rep.findings) CHECK(f.allowed == (f.rule == rule));
    }
  }
}

TEST_CASE("checker allow: 'all' makes every finding a warning; results do not depend on threads", "[checker]") {
  Run r;
  rt::launch_report one = r.launch({"all"}, 1);
  rt::launch_report two = r.launch({"all"}, 2);
  CHECK(one.diagnostics.empty());
  CHECK(tags(one.warnings) == kRules);
  CHECK(one.warnings == two.warnings);
  REQUIRE(one.findings.size() == two.findings.size());
  for (size_t i = 0; i < one.findings.size(); ++i) {
    CHECK(one.findings[i].count == two.findings[i].count);
    CHECK(one.findings[i].first_workgroup == two.findings[i].first_workgroup);
    CHECK(one.findings[i].message == two.findings[i].message);
  }
}

TEST_CASE("checker allow: an unknown rule name is an error before the run", "[checker]") {
  Run r;
  CHECK_THROWS_WITH(r.launch({"valu-sgpr-vlau"}),
                    Catch::Contains("unknown checker rule 'valu-sgpr-vlau'") && Catch::Contains("hazard valu-sgpr-valu"));
}

TEST_CASE("checker allow: the summary groups the findings by rule, then pc", "[checker]") {
  Run r;
  rt::launch_report rep = r.launch({"mfma-read"});
  std::string s = rt::checker_summary(rep);
  INFO(s);
  auto at = [&](const std::string& x) { return s.find(x); };
  CHECK(at("hazard mfma-read (warning): 1 instruction, 12 occurrences\n") != std::string::npos);
  CHECK(at("hazard salu-m0 (error): 1 instruction, 12 occurrences\n") != std::string::npos);
  CHECK(at("12x  first workgroup 0 wave 0  v_accvgpr_read_b32 v8, a3\n") != std::string::npos);
  // rules in order, each followed by its pcs
  CHECK(at("hazard mfma-read") < at("v_accvgpr_read_b32 v8, a3"));
  CHECK(at("v_accvgpr_read_b32 v8, a3") < at("hazard mfma-waw"));
  CHECK(at("hazard mfma-waw") < at("hazard salu-m0"));
  CHECK(at("hazard salu-m0") < at("hazard valu-sgpr-valu"));
  CHECK(rt::checker_summary(rt::launch_report{}).empty());
}
