// One gfx942 instruction assembled by llvm-mc-22 (the oracle) and decoded by the simulator,
// ready to issue on a test wave. Shared by the unit tests that build waves by hand.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core.hpp"
#include "decode.hpp"

namespace simtest {

// Standard output of a shell command.
inline std::string shell_output(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

inline hipasm::sim::Inst assemble(const std::string& text) {
  using namespace hipasm::sim;
  std::string out = shell_output("echo '" + text + "' | llvm-mc-22 -arch=amdgcn -mcpu=gfx942 -show-encoding 2>&1");
  std::smatch m;
  std::regex re(R"(encoding: \[([^\]]*)\])");
  if (!std::regex_search(out, m, re)) FAIL("llvm-mc-22 did not encode '" << text << "': " << out);
  std::vector<uint8_t> bytes;
  std::stringstream hs(m[1].str());
  std::string tok;
  while (std::getline(hs, tok, ',')) bytes.push_back(uint8_t(std::stoul(tok, nullptr, 16)));
  while (bytes.size() < 12) bytes.push_back(0);
  Inst in = decode_one(bytes, 0);
  REQUIRE(!in.mnemonic.empty());
  in.exec = Registry::get().find(in.mnemonic);
  REQUIRE(in.exec != nullptr);
  return in;
}

}  // namespace simtest
