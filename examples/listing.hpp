// A kernel as the build made it, read from the code object's asm listing: the .s that
// hipasm_add_code_object writes beside the code object (<target>.s) and assembles into it. Its
// body is hipasm's asm (the "; file:line" comments and register names included) between clang's
// own lines, and its AMDGPU metadata block (.amdgpu_metadata, the YAML of the code object's
// note) holds the register and LDS counts the code object declares. Reading them here instead
// of compiling the kernel again on the host (hipasm::asm_text / usage, clang only) keeps the
// examples' host code plain C++20, for any host compiler.
#pragma once
#include <cstddef>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace examples {

struct kernel_listing {
  std::string body;               // the kernel's lines from its entry label to its end
  std::size_t instructions = 0;   // lines of the body that are instructions
  // The SGPRs the code uses (the descriptor's .amdhsa_next_free_sgpr: the highest used + 1),
  // and the metadata's counts: .sgpr_count (those plus the ones the hardware reserves: VCC,
  // FLAT_SCRATCH, XNACK_MASK; LLVM's AMDGPUUsage, "sgpr_count"), .vgpr_count, .agpr_count and
  // .group_segment_fixed_size (static LDS bytes).
  long sgprs = 0, sgpr_count = 0, vgprs = 0, agprs = 0, lds_bytes = 0;
};

namespace detail {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// An instruction line: not blank, a comment, a label or an assembler directive.
inline bool is_instruction(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == ';' || line.front() == '.') return false;
  const std::string_view code = trim(line.substr(0, line.find(';')));
  return !code.empty() && code.back() != ':';
}

}  // namespace detail

// The kernel `kernel` of the listing at `path`. Throws std::runtime_error naming the file when
// it cannot be read or lacks the kernel's code or metadata.
inline kernel_listing read_listing(const std::string& path, const std::string& kernel) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read the asm listing " + path);
  kernel_listing k;
  std::map<std::string, std::string> meta;  // the kernel's metadata keys (".vgpr_count") and values
  enum { before, code, after, metadata } state = before;
  bool in_descriptor = false;
  std::string next_free_sgpr;
  std::map<std::string, std::string> entry;  // the metadata entry being read
  auto end_entry = [&] {
    if (entry[".name"] == kernel) meta = entry;
    entry.clear();
  };
  for (std::string line; std::getline(f, line);) {
    const std::string_view t = detail::trim(line);
    if (state == before) {
      // "vector_add:                             ; @vector_add"
      if (line.rfind(kernel + ":", 0) == 0) state = code;
    } else if (state == code) {
      // the code ends where clang switches to the descriptor's section or marks the end
      if (t.rfind(".section", 0) == 0 || t.rfind(".Lfunc_end", 0) == 0 || t.rfind(".size", 0) == 0) {
        state = after;
      } else if (!t.empty() && t != ";;#ASMSTART" && t != ";;#ASMEND" && t.rfind("; %bb.", 0) != 0) {
        // (clang's markers around each asm statement, and its name of the entry block); one
        // indent, labels flush left (clang indents an asm statement's first line once more)
        const bool label = t.front() != ';' && detail::trim(t.substr(0, t.find(';'))).back() == ':';
        k.body += label ? "" : "\t";
        k.body += t;
        k.body += '\n';
        k.instructions += detail::is_instruction(t);
      }
    }
    if (state == after && t == ".amdhsa_kernel " + kernel) in_descriptor = true;
    if (in_descriptor) {
      // "\t\t.amdhsa_next_free_sgpr 6"
      if (t == ".end_amdhsa_kernel") in_descriptor = false;
      const std::string_view key = ".amdhsa_next_free_sgpr ";
      if (t.rfind(key, 0) == 0) next_free_sgpr = std::string(t.substr(key.size()));
    }
    if (state != before && t == ".amdgpu_metadata") {
      state = metadata;
    } else if (state == metadata) {
      if (t == ".end_amdgpu_metadata") break;
      // A kernel's keys: "  - .agpr_count: 0" starts its entry, "    .vgpr_count: 4" follows;
      // deeper lines (its .args) are skipped.
      std::string_view key_line = line;
      if (key_line.rfind("  - .", 0) == 0) {
        end_entry();
        key_line.remove_prefix(4);
      } else if (key_line.rfind("    .", 0) == 0) {
        key_line.remove_prefix(4);
      } else {
        continue;
      }
      const std::size_t colon = key_line.find(':');
      if (colon == std::string_view::npos) continue;
      entry[std::string(key_line.substr(0, colon))] = std::string(detail::trim(key_line.substr(colon + 1)));
    }
  }
  end_entry();
  if (k.body.empty()) throw std::runtime_error(path + " has no code of kernel " + kernel);
  auto to_long = [&](const std::string& text, const char* key) {
    long v = 0;
    std::istringstream in(text);
    if (!(in >> v) || !in.eof())
      throw std::runtime_error(path + ": " + kernel + "'s " + key + " is not a number: " + text);
    return v;
  };
  auto number = [&](const char* key) {
    const auto it = meta.find(key);
    if (it == meta.end()) throw std::runtime_error(path + ": the metadata of kernel " + kernel + " has no " + key);
    return to_long(it->second, key);
  };
  if (next_free_sgpr.empty())
    throw std::runtime_error(path + ": the descriptor of kernel " + kernel + " has no .amdhsa_next_free_sgpr");
  k.sgprs = to_long(next_free_sgpr, ".amdhsa_next_free_sgpr");
  k.sgpr_count = number(".sgpr_count");
  k.vgprs = number(".vgpr_count");
  k.agprs = number(".agpr_count");
  k.lds_bytes = number(".group_segment_fixed_size");
  return k;
}

}  // namespace examples
