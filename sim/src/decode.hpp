// gfx942/gfx950 instruction decoder: bytes of .text -> Inst (operands, modifiers, classes, LLVM text).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <tuple>

#include "core.hpp"

namespace hipasm::sim {

// Instructions as VGPR index mode rewrites them (operands offset by M0[7:0]), made on first
// use and kept with their Program so the checker can hold their addresses like any other.
struct IndexedInsts {
  std::mutex mu;
  std::map<std::tuple<const Inst*, uint8_t, uint8_t>, std::unique_ptr<Inst>> made;  // (inst, index, mask)
};

// A decoded code section: one Inst per instruction, plus an index by address.
struct Program {
  uint64_t base = 0;                 // vaddr of code[0]
  std::vector<Inst> insts;           // in address order
  std::vector<int32_t> index;        // (pc - base) / 4 -> position in insts, or -1
  bool bound = false;                // handlers looked up (bind_handlers)
  std::unique_ptr<IndexedInsts> indexed = std::make_unique<IndexedInsts>();
  const Inst* at(uint64_t pc) const {
    uint64_t off = pc - base;
    if (pc < base || (off & 3) || off / 4 >= index.size()) return nullptr;
    int32_t i = index[off / 4];
    return i < 0 ? nullptr : &insts[size_t(i)];
  }
};

// The longest instruction: gfx950's v_mfma_scale_* (v_mfma_ld_scale_b32 + the MFMA).
inline constexpr size_t kMaxInstBytes = 16;

// Decodes one instruction at `bytes` (at least 4 bytes, up to kMaxInstBytes read) with the
// target's opcode table. Never throws for unknown encodings: returns an Inst with mnemonic ""
// and text "<unknown 0x...>" instead, so a whole section can be decoded and only what
// executes must be known.
Inst decode_one(std::span<const uint8_t> bytes, uint64_t pc, const Target& target = target_gfx942());

// Decodes a whole section. Instructions past an s_endpgm that are not valid (padding,
// data) are kept as unknown entries.
Program decode_program(std::span<const uint8_t> code, uint64_t base,
                       const Target& target = target_gfx942());

// Binds handlers from the Registry. Throws sim::error naming the first instruction reachable
// from `entry` (following branches) that is unknown or has no handler.
void bind_handlers(Program& prog, uint64_t entry);

// Every instruction reachable from `entry` (as bind_handlers follows them) that is an unknown
// encoding or has no semantics, in address order, without throwing (hipasm-sim info --decode).
// `reachable` (if given) receives how many instructions were reached.
std::vector<const Inst*> unsupported_reachable(const Program& prog, uint64_t entry, size_t* reachable = nullptr);

// decode_program + handler binding, cached by code bytes and base address (a process-wide
// LRU of recent code sections), so launching a kernel again does not decode it again.
// Still checks every instruction reachable from `entry` on each call.
std::shared_ptr<const Program> decoded_program(std::span<const uint8_t> code, uint64_t base,
                                               uint64_t entry, const Target& target);
// The same for a loaded kernel (its code, entry and target).
std::shared_ptr<const Program> decoded_program(const KernelImage& image);

}  // namespace hipasm::sim
