// What a few instructions compute, as per-target data for the passes that rewrite by value
// (known-bits, vcc-compares, dce's wait test): an instruction's kind and, where the kind has
// one, a related instruction of the same target (a comparison's form with swapped sources, a
// subtraction's unit's AND). A pass reads `semantics[op]`, never a target's opcode enum, so
// a second target is a second table (`make_semantics` over its own opcode list).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace hipasm::isa {

enum class op_kind : uint8_t {
  none,
  mov,            // D = S0 (v_mov_b32, s_mov_b32)
  readfirstlane,  // D = S0 of the first active lane
  add,            // D = S0 + S1 (+ S2): every source a term (v_add_u32, s_add_u32, v_add3_u32)
  sub,            // D = S0 - S1
  band,           // D = S0 & S1
  bor,            // D = S0 | S1 (| S2)
  bxor,           // D = S0 ^ S1
  mul,            // D = low 32 bits of S0 * S1
  shl,            // D = S0 << S1 (SALU order)
  shl_rev,        // D = S1 << S0 (VALU "rev" order)
  lshr,           // D = S0 >> S1, logical
  lshr_rev,       // D = S1 >> S0, logical
  lshl_add,       // D = (S0 << S1) + S2
  lshl_or,        // D = (S0 << S1) | S2
  compare,        // a comparison (related: the one with its sources swapped)
  waitcnt,        // s_waitcnt itself (simm16 holds the counters), not the other wait forms
};

struct op_semantics {
  op_kind kind = op_kind::none;
  uint16_t related = 0xffff;  // sub: its unit's AND; compare: sources swapped; else none
};

// (opcode, kind, related opcode or 0xffff): a target's list.
struct op_semantics_entry {
  uint16_t op;
  op_kind kind;
  uint16_t related = 0xffff;
};

template <std::size_t N, std::size_t E>
constexpr std::array<op_semantics, N> make_semantics(const std::array<op_semantics_entry, E>& entries) {
  std::array<op_semantics, N> t{};
  for (const op_semantics_entry& e : entries) t[e.op] = op_semantics{e.kind, e.related};
  return t;
}

}  // namespace hipasm::isa
