// One gfx942 instruction assembled by llvm-mc-22 (the oracle) and decoded by the simulator,
// ready to issue on a test wave, and llvm-mca-22's MFMA passes. Shared by the unit tests that
// build waves by hand and the tests of MFMA costs.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <map>
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

// The bytes llvm-mc-22 encodes `text` to for `cpu`, zero-padded to the longest instruction;
// empty if it does not encode.
inline std::vector<uint8_t> encode(const std::string& text, const char* cpu = "gfx942") {
  std::string out =
      shell_output("echo '" + text + "' | llvm-mc-22 -arch=amdgcn -mcpu=" + cpu + " -show-encoding 2>&1");
  std::smatch m;
  std::regex re(R"(encoding: \[([^\]]*)\])");
  if (!std::regex_search(out, m, re)) return {};
  std::vector<uint8_t> bytes;
  std::stringstream hs(m[1].str());
  std::string tok;
  while (std::getline(hs, tok, ',')) bytes.push_back(uint8_t(std::stoul(tok, nullptr, 16)));
  while (bytes.size() < hipasm::sim::kMaxInstBytes) bytes.push_back(0);
  return bytes;
}

inline hipasm::sim::Inst assemble(const std::string& text) {
  using namespace hipasm::sim;
  const std::vector<uint8_t> bytes = encode(text);
  if (bytes.empty()) FAIL("llvm-mc-22 did not encode '" << text << "'");
  Inst in = decode_one(bytes, 0);
  REQUIRE(!in.mnemonic.empty());
  in.exec = Registry::get().find(in.mnemonic);
  REQUIRE(in.exec != nullptr);
  return in;
}

// llvm-mca-22's reciprocal throughput (an MFMA's passes) of every MFMA/SMFMAC line of the
// assembly file `path` for `cpu`, by mnemonic.
inline std::map<std::string, int> mca_mfma_passes(const std::string& path, const char* cpu) {
  const std::string out = shell_output(std::string("llvm-mca-22 -mtriple=amdgcn -mcpu=") + cpu +
                                       " -instruction-info -iterations=1 " + path + " 2>&1");
  std::regex row(R"(^\s*\d+\s+\d+\s+([0-9.]+)\s+.*?\b((?:v_mfma|v_smfmac)\w*)\s)");
  std::map<std::string, int> mca;
  std::istringstream is(out);
  std::string line;
  while (std::getline(is, line)) {
    std::smatch m;
    if (std::regex_search(line, m, row)) mca[m[2]] = int(std::stod(m[1]));
  }
  return mca;
}

}  // namespace simtest
