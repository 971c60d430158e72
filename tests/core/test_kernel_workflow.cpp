// HIPASM_TEST_KERNELS: workflow.hip
// The seeds' workflow end to end, in the simulator: run hipasm kernels as compiled, dump
// the asm (.s, as hipasm_add_code_object writes it), hand-edit it, assemble it the way
// hipasm_assemble does, load and run the edited code object. The simulator's own checker
// (its hazard table, sim/src/hazard_rules.cpp) finds nothing in hipasm's output and finds
// the hazards once the s_nops are edited out: both tables know these rules.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "hipasm/kernel.hpp"
#include "hipasm/rt/launcher.hpp"
#include "kernels/workflow_ir.hpp"
#include "passes_ir_helpers.hpp"

using namespace hipasm;
using namespace hipasm::test;

namespace {
const std::string dir = HIPASM_CORE_KERNEL_DIR;
const std::string stem = dir + "/core_" HIPASM_CORE_TEST_NAME "_workflow";

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
// hipasm_assemble's command (cmake/hipasm-tools.cmake).
std::string assemble(const std::string& text, const std::string& tag) {
  const std::string s = "/tmp/hipasm_wf_" + tag + "_" + std::to_string(::getpid()) + ".s";
  const std::string co = s.substr(0, s.size() - 2) + ".co";
  std::ofstream(s) << text;
  const std::string out = run("clang++-22 -target amdgcn-amd-amdhsa -mcpu=gfx942 " + s + " -o " + co + " 2>&1");
  INFO(out);
  REQUIRE(out.find("error") == std::string::npos);
  return co;
}
// The asm body of one kernel in the .s: between its label and its s_endpgm.
std::pair<std::size_t, std::size_t> body_of(const std::string& s, const std::string& kernel) {
  const auto b = s.find("\n" + kernel + ":");
  REQUIRE(b != std::string::npos);
  const auto e = s.find("s_endpgm", b);
  REQUIRE(e != std::string::npos);
  return {b, e};
}

struct run_result {
  std::vector<float> f;
  std::vector<int> i;
  std::vector<std::string> diagnostics;
};

run_result run_add(rt::device& dev, rt::module& m) {
  rt::buffer<int> out(dev, 64);
  rt::kernel_args args;
  args.add(out.addr());
  const auto rep = dev.launch(m, "wf_add", {1, 1, 1}, {64, 1, 1}, args);
  return {{}, out.download(), rep.diagnostics};
}
run_result run_hazard(rt::device& dev, rt::module& m) {
  rt::buffer<unsigned> in(dev, std::vector<unsigned>{37});
  rt::buffer<float> out(dev, 64);
  rt::kernel_args args;
  args.add(in.addr()).add(out.addr());
  const auto rep = dev.launch(m, "wf_hazard", {1, 1, 1}, {64, 1, 1}, args);
  return {out.download(), {}, rep.diagnostics};
}
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}
}  // namespace

TEST_CASE("workflow: compiled kernels run clean in the simulator (its checker agrees with the s_nops)") {
  auto dev = rt::device::open(rt::backend::sim);
  REQUIRE(dev);
  auto m = dev->load(read_bytes(stem + ".co"));
  const auto a = run_add(*dev, *m);
  INFO(joined(a.diagnostics));
  CHECK(a.diagnostics.empty());
  for (int t = 0; t < 64; ++t) CHECK(a.i[t] == t + 1);
  const auto h = run_hazard(*dev, *m);
  INFO(joined(h.diagnostics));
  CHECK(h.diagnostics.empty());
  for (int t = 0; t < 64; ++t) CHECK(h.f[t] == 37.0f + 8.0f);
}

TEST_CASE("workflow: the .s holds hipasm's text; edited by hand, re-assembled, it runs the edit") {
  const std::string s = read_file(stem + ".s");
  // The body in the .s is the host's asm_text of the same kernel.
  const std::string host = asm_text<wf_add_ir>("wf_add");
  const std::string first = host.substr(host.find('\t') + 1, host.find(';') - host.find('\t') - 1);
  CHECK(s.find(first) != std::string::npos);
  // Edit: x = tid + 5 instead of tid + 1.
  std::string edited = s;
  const auto [b, e] = body_of(edited, "wf_add");
  const std::string body = edited.substr(b, e - b);
  const std::string new_body = std::regex_replace(body, std::regex("v_add_u32 (v[0-9]+), 1, v0"), "v_add_u32 $1, 5, v0");
  REQUIRE(new_body != body);
  edited.replace(b, e - b, new_body);
  auto dev = rt::device::open(rt::backend::sim);
  REQUIRE(dev);
  auto m = dev->load(read_bytes(assemble(edited, "add")));
  const auto a = run_add(*dev, *m);
  CHECK(a.diagnostics.empty());
  for (int t = 0; t < 64; ++t) CHECK(a.i[t] == t + 5);
}

TEST_CASE("workflow: without hipasm's s_nops the simulator's checker reports the hazards") {
  std::string s = read_file(stem + ".s");
  const auto [b, e] = body_of(s, "wf_hazard");
  const std::string body = s.substr(b, e - b);
  REQUIRE(body.find("s_nop") != std::string::npos);
  const std::string no_nops = std::regex_replace(body, std::regex("\\n\\s*s_nop [0-9]+[^\\n]*"), "");
  s.replace(b, e - b, no_nops);
  auto dev = rt::device::open(rt::backend::sim);
  REQUIRE(dev);
  auto m = dev->load(read_bytes(assemble(s, "nonops")));
  const auto h = run_hazard(*dev, *m);
  INFO(joined(h.diagnostics));
  CHECK_FALSE(h.diagnostics.empty());
  const std::string all = joined(h.diagnostics);
  CHECK(all.find("global_load_dword") != std::string::npos);   // VALU SGPR -> VMEM
  CHECK(all.find("v_accvgpr_read_b32") != std::string::npos);  // MFMA -> VALU read
}

TEST_CASE("workflow: more rules of both tables (DPP, VCC, readfirstlane, SGPR, transcendental, MFMA SrcA/B)") {
  auto run2 = [](rt::device& dev, rt::module& m) {
    rt::buffer<float> out(dev, 64);
    rt::kernel_args args;
    args.add(out.addr());
    return dev.launch(m, "wf_hazard2", {1, 1, 1}, {64, 1, 1}, args).diagnostics;
  };
  auto dev = rt::device::open(rt::backend::sim);
  REQUIRE(dev);
  auto m = dev->load(read_bytes(stem + ".co"));
  const auto clean = run2(*dev, *m);
  INFO(joined(clean));
  CHECK(clean.empty());
  std::string s = read_file(stem + ".s");
  const auto [b, e] = body_of(s, "wf_hazard2");
  const std::string body = s.substr(b, e - b);
  s.replace(b, e - b, std::regex_replace(body, std::regex("\\n\\s*s_nop [0-9]+[^\\n]*"), ""));
  auto m2 = dev->load(read_bytes(assemble(s, "nonops2")));
  const std::string all = joined(run2(*dev, *m2));
  INFO(all);
  for (const char* consumer : {"v_mov_b32_dpp", "v_cndmask_b32", "v_readfirstlane_b32", "v_add_f32",
                               "v_mfma_f32_4x4x4_16b_f16"})
    CHECK(all.find(consumer) != std::string::npos);
}
