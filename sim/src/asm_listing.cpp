#include "asm_listing.hpp"

#include <algorithm>
#include <fstream>
#include <string_view>

#include "error.hpp"

#include <cstdio>

namespace hipasm::sim {

// Instruction lines of KERNEL's body in an asm listing: mnemonic and "; file:line" comment.
// hipasm prints a line's location where it changes (and after each label): a line without
// one has the location of the line before, up to the next label or inline-asm boundary;
// empty where there is none (clang's own code). Directives, labels, comments and blank lines
// are not instructions.
std::vector<AsmLine> asm_source_lines(const std::string& path, const std::string& kernel) {
  std::ifstream in(path);
  if (!in) throw sim::error("asm listing " + path + ": cannot read");
  std::vector<AsmLine> out;
  std::string line;
  bool inside = false;
  std::string current;  // the location of the lines that print none
  while (std::getline(in, line)) {
    const size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    std::string_view t(line);
    t.remove_prefix(b);
    if (!inside) {
      if (t.substr(0, kernel.size() + 1) == kernel + ":") inside = true;
      continue;
    }
    const size_t colon = t.find(':');
    const bool label = t[0] != ';' && colon != std::string_view::npos && t.find_first_of(" \t") > colon;
    if (t[0] == ';' || t[0] == '.' || t.substr(0, 2) == "//" || t[0] == '#' || label) {
      // the function's end (clang's and hipasm's .s), or the kernel descriptor's section that
      // follows each kernel of a hand-written one
      if (t.substr(0, 6) == ".Lfunc" || t.substr(0, 6) == ".size\t" || t.substr(0, 6) == ".size " ||
          t.substr(0, 8) == ".section")
        break;
      if (label || t.substr(0, 4) == ";;#A") current.clear();  // (;;#ASMSTART, ;;#ASMEND)
      continue;
    }
    std::string src;
    const size_t c = t.find(';');
    if (c != std::string_view::npos) {
      std::string_view cm = t.substr(c + 1);
      const size_t s = cm.find_first_not_of(' ');
      if (s != std::string_view::npos) cm.remove_prefix(s);
      // "file.cpp:12" possibly followed by more text
      const size_t e = cm.find_first_of(" \t");
      std::string_view tok = cm.substr(0, e);
      const size_t k = tok.rfind(':');
      if (k != std::string_view::npos && k + 1 < tok.size() &&
          std::all_of(tok.begin() + std::ptrdiff_t(k + 1), tok.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        src = std::string(tok);
    }
    if (src.empty()) src = current;
    else current = src;
    std::string mn(t.substr(0, t.find_first_of(" \t;")));
    for (const char* suffix : {"_e32", "_e64", "_dpp", "_sdwa"})
      if (mn.size() > 4 && mn.ends_with(suffix)) mn.resize(mn.size() - 4);
    out.push_back({mn, src});
  }
  if (!inside) throw sim::error("asm listing " + path + " has no label '" + kernel + ":'");
  return out;
}

bool match_asm_listing(const Program& prog, uint64_t entry, const std::vector<AsmLine>& lines,
                       std::vector<std::string>& sources, std::string& mismatch) {
  sources.assign(prog.insts.size(), {});
  size_t j = 0;
  while (j < prog.insts.size() && prog.insts[j].pc < entry) ++j;
  for (size_t k = 0; k < lines.size() && j < prog.insts.size();) {
    if (prog.insts[j].mnemonic == lines[k].mnemonic) {
      sources[j++] = lines[k++].source;
    } else if (prog.insts[j].mnemonic == "s_nop") {
      ++j;
    } else {
      char pc[24];
      std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(prog.insts[j].pc));
      mismatch = std::string(pc) + " (" + prog.insts[j].mnemonic + " in the code, " + lines[k].mnemonic +
                 " in the listing)";
      return false;
    }
  }
  return true;
}

}  // namespace hipasm::sim
