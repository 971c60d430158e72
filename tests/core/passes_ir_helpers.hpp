// Host-side helpers of the pass tests: printing, running llvm-mc-22, checking a result.
#pragma once
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "hipasm/emit.hpp"
#include "hipasm/pipeline.hpp"
#include "hipasm/verify.hpp"
#include "passes_ir_build.hpp"

namespace hipasm::test {

inline std::string to_text(const function& fn, bool comments = false) {
  size_sink s;
  emit_options opt;
  opt.comments = comments;
  print_function(s, fn, target_isa(), opt);
  std::string out(s.n, '\0');
  array_sink a{out.data()};
  print_function(a, fn, target_isa(), opt);
  return out;
}

inline std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

// How many instructions of fn are `mnemonic`.
inline std::size_t count(const function& fn, std::string_view mnemonic) {
  std::size_t n = 0;
  for (const auto& b : fn.blocks)
    for (const auto& in : b.instrs)
      if (target_isa()[in.op].name == mnemonic) ++n;
  return n;
}

// Assembles text with llvm-mc-22 for the target: returns the assembler's diagnostics ("" = ok).
inline std::string assemble_errors(const std::string& text, const std::string& tag) {
  const std::string path = "/tmp/hipasm_test_" + tag + "_" + std::to_string(::getpid()) + ".s";
  std::ofstream(path) << text;
  std::string errs = run("llvm-mc-22 -arch=amdgcn -mcpu=" + std::string(active_target::name) + " -filetype=null " + path + " 2>&1");
  std::remove(path.c_str());
  return errs;
}

// A compiled function is clean: no pipeline error, the independent allocation and hazard
// verifiers agree, and llvm-mc-22 assembles its text.
inline void check_clean(const pipeline_state& st, const std::string& tag) {
  INFO(st.error.view());
  REQUIRE_FALSE(st.error.failed);
  const auto va = verify_allocation(st.fn, target_isa());
  INFO(va.view());
  CHECK_FALSE(va.failed);
  const auto vh = verify_hazards(st.fn, target_isa(), *active_target::desc.hazard_rules);
  INFO(vh.view());
  CHECK_FALSE(vh.failed);
  const std::string text = to_text(st.fn, true);
  INFO(text);
  CHECK(assemble_errors(text, tag) == "");
}

// Wait states given by the s_nops right before the first line containing `consumer`.
inline int nops_before(const std::string& text, const std::string& consumer) {
  std::vector<std::string> lines;
  std::size_t p = 0;
  while (p < text.size()) {
    const auto e = text.find('\n', p);
    lines.push_back(text.substr(p, e == std::string::npos ? std::string::npos : e - p));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  std::size_t i = 0;
  while (i < lines.size() && lines[i].find(consumer) == std::string::npos) ++i;
  REQUIRE(i < lines.size());
  int waits = 0;
  std::smatch m;
  const std::regex nop("^\\s*s_nop (\\d+)");
  while (i-- > 0 && std::regex_search(lines[i], m, nop)) waits += std::stoi(m[1].str()) + 1;
  return waits;
}
}  // namespace hipasm::test
