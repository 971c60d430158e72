// Asm listings (hipasm's .s, or any assembler input) matched to a decoded kernel: each
// instruction's "; file:line" comment, for the profile's hot spots and the checker's findings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "decode.hpp"

namespace hipasm::sim {

// The instructions of a kernel's asm listing with their "; file:line" comments.
struct AsmLine {
  std::string mnemonic;  // without _e32/_e64/_dpp/_sdwa
  std::string source;
};

// The instruction lines of KERNEL's body in the listing at PATH. Throws sim::error when the file
// cannot be read or has no label "KERNEL:".
std::vector<AsmLine> asm_source_lines(const std::string& path, const std::string& kernel);

// The source of each instruction of `prog` (by index; empty before `entry` and where the listing
// has none), walking the listing and the code from `entry` (KernelImage::listing_entry: the
// descriptor's, where the listing starts, also with kernarg preloading) together by mnemonic
// (s_nop padding the assembler added for alignment is in the code only). Returns false, with
// `mismatch` saying where, when the listing is not of this code.
bool match_asm_listing(const Program& prog, uint64_t entry, const std::vector<AsmLine>& lines,
                       std::vector<std::string>& sources, std::string& mismatch);

}  // namespace hipasm::sim
