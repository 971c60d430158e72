// Outside oracles for the loader tests: what clang-22 and llvm-readobj-22 say about a code
// object, parsed from their text output (never from the loader under test).
//  - clang's `-S` output: the `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` directive blocks
//    (the kernel descriptor fields as the compiler chose them);
//  - `llvm-readobj-22 --notes --dyn-symbols`: the metadata note as YAML, and symbol values.
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace loader_oracle {

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open oracle file " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::vector<uint8_t> read_binary(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline std::string trim(std::string s) {
  const char* ws = " \t\r";
  s.erase(0, s.find_first_not_of(ws));
  s.erase(s.find_last_not_of(ws) + 1);
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    s = s.substr(1, s.size() - 2);
  return s;
}

// kernel name -> directive (without ".amdhsa_") -> value
using directives = std::map<std::string, std::map<std::string, uint64_t>>;

inline directives parse_amdhsa_directives(const std::string& asm_text) {
  directives out;
  std::istringstream in(asm_text);
  std::string line, current;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key, value;
    ls >> key >> value;
    if (key == ".amdhsa_kernel") {
      current = value;
      out[current];
    } else if (key == ".end_amdhsa_kernel") {
      current.clear();
    } else if (!current.empty() && key.rfind(".amdhsa_", 0) == 0) {
      size_t used = 0;
      const uint64_t v = std::stoull(value, &used, 0);
      if (used != value.size()) throw std::runtime_error("non-numeric directive: " + line);
      out[current][key.substr(8)] = v;
    }
  }
  return out;
}

struct md_arg {
  std::map<std::string, std::string> fields;  // ".offset" -> "0", ...
};
struct md_kernel {
  std::map<std::string, std::string> fields;
  std::vector<md_arg> args;
};

// The `amdhsa.kernels` list of llvm-readobj's YAML rendering of NT_AMDGPU_METADATA.
inline std::vector<md_kernel> parse_readobj_metadata(const std::string& text) {
  std::vector<md_kernel> kernels;
  std::istringstream in(text);
  std::string line;
  bool in_kernels = false, in_args = false;
  while (std::getline(in, line)) {
    if (line.rfind("amdhsa.kernels:", 0) == 0) {
      in_kernels = true;
      continue;
    }
    if (!in_kernels) continue;
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    if (indent == 0) break;  // amdhsa.target etc.
    std::string body = line.substr(indent);
    const bool item = body.rfind("- ", 0) == 0;
    if (item) body = body.substr(2);
    const size_t colon = body.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(body.substr(0, colon)), value = trim(body.substr(colon + 1));
    if (indent == 2 && item) {  // "  - .agpr_count: 0": a new kernel
      kernels.emplace_back();
      in_args = false;
    }
    if (kernels.empty()) continue;
    const size_t key_indent = item ? indent + 2 : indent;
    if (key_indent == 4) {
      in_args = key == ".args";
      if (!in_args) kernels.back().fields[key] = value;
    } else if (in_args && key_indent == 8) {
      if (item) kernels.back().args.emplace_back();
      if (!kernels.back().args.empty()) kernels.back().args.back().fields[key] = value;
    }
  }
  return kernels;
}

// "Name: add (1)" / "Value: 0x1B00" pairs of llvm-readobj --dyn-symbols.
inline std::map<std::string, uint64_t> parse_readobj_symbols(const std::string& text) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(text);
  std::string line, name;
  bool in_symbols = false;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.rfind("DynamicSymbols [", 0) == 0) in_symbols = true;
    if (!in_symbols) continue;
    if (t.rfind("Name: ", 0) == 0) {
      name = t.substr(6);
      if (const size_t paren = name.rfind(" ("); paren != std::string::npos) name = name.substr(0, paren);
    } else if (t.rfind("Value: ", 0) == 0 && !name.empty()) {
      out[name] = std::stoull(t.substr(7), nullptr, 0);
      name.clear();
    } else if (line.rfind("]", 0) == 0) {  // the list's own closing bracket (column 0)
      in_symbols = false;
    }
  }
  return out;
}

}  // namespace loader_oracle
