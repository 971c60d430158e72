// Removes blocks no path from the entry reaches, renumbering successors and branch labels.
// Block order is kept, so a reachable block's fall-through successor (the next block) is
// reachable too and stays next.
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

}  // namespace hipasm
