// Counts in a kernel's asm text (asm_text<fn>): the lines that are instructions (not labels,
// directives or comments), the s_nops among them and the wait states those s_nops give.
// Shared by test_sched_sim and bench/schedule_counts.
#pragma once
#include <cstddef>
#include <string>

namespace hipasm::test {

struct asm_counts {
  int instructions = 0, nops = 0, nop_states = 0;
};

inline asm_counts count_asm(const std::string& text) {
  asm_counts c;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t e = text.find('\n', at);
    if (e == std::string::npos) e = text.size();
    std::string l = text.substr(at, e - at);
    at = e + 1;
    const std::size_t k = l.find(';');
    if (k != std::string::npos) l = l.substr(0, k);
    std::size_t b = 0;
    while (b < l.size() && (l[b] == ' ' || l[b] == '\t')) ++b;
    if (b == l.size() || l[b] == '.' || l.back() == ':') continue;
    ++c.instructions;
    if (l.compare(b, 6, "s_nop ") == 0) {
      ++c.nops;
      c.nop_states += std::stoi(l.substr(b + 6)) + 1;
    }
  }
  return c;
}

}  // namespace hipasm::test
