// Removes blocks no path from the entry reaches, renumbering successors and branch labels.
// Block order is kept, so a reachable block's fall-through successor (the next block) is
// reachable too and stays next.
// remove_branches_to_next drops an `s_branch` to the block that follows it (what a
// Break/Continue/Return under a per-lane If leaves before the If's join, and a Break whose
// loop exit is next), once the unreachable blocks between are gone.
#pragma once
#include "../vec.hpp"

#include "common.hpp"

namespace hipasm {

constexpr void remove_unreachable_blocks(function& fn) {
  const std::size_t nb = fn.blocks.size();
  if (nb == 0) return;
  vec<uint8_t> reached(nb, 0);
  vec<uint32_t> work{0};
  reached[0] = 1;
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : fn.blocks[b].succs)
      if (s < nb && !reached[s]) {
        reached[s] = 1;
        work.push_back(s);
      }
  }
  vec<uint32_t> new_id(nb, ~0u);
  uint32_t n = 0;
  for (std::size_t b = 0; b < nb; ++b)
    if (reached[b]) new_id[b] = n++;
  if (n == nb) return;
  vec<block> kept;
  kept.reserve(n);
  for (std::size_t b = 0; b < nb; ++b) {
    if (!reached[b]) continue;
    block& blk = fn.blocks[b];
    for (uint32_t& s : blk.succs) s = new_id[s];
    for (instr& in : blk.instrs)
      for (int i = 0; i < in.num_operands; ++i)
        if (in.ops[i].k == operand::kind::label && in.ops[i].value < nb) in.ops[i].value = new_id[in.ops[i].value];
    kept.push_back(std::move(blk));
  }
  fn.blocks = std::move(kept);
}

// Returns how many branches it removed. `branch_op`: the target's s_branch opcode.
constexpr uint32_t remove_branches_to_next(function& fn, int branch_op) {
  uint32_t removed = 0;
  const std::size_t nb = fn.blocks.size();
  for (std::size_t b = 0; b + 1 < nb; ++b) {
    vec<instr>& ins = fn.blocks[b].instrs;
    if (ins.empty()) continue;
    const instr& last = ins.data()[ins.size() - 1];
    if (static_cast<int>(last.op) != branch_op || last.num_operands != 1 || last.ops[0].k != operand::kind::label ||
        last.ops[0].value != b + 1)
      continue;
    ins.pop_back();
    ++removed;
  }
  return removed;
}

}  // namespace hipasm
