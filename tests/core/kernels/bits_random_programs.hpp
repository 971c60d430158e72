// Random straight-line integer programs for the known-bits fuzz test (test_known_bits_sim.cpp):
// sums, differences, XOR/OR of shifted and scaled terms, masks with small and random
// constants, x - (x / 2^k) * 2^k, over per-lane (VGPR) and uniform (SGPR) values, some
// registers written once and some updated in place, the shapes the known-bits pass
// rewrites (passes/known_bits.hpp) and their near misses (a term whose low bits are not all
// zero, a mask wider than the known zeros). One generator (constexpr, no library;
// lane_programs.hpp's rng) makes the same program for the kernel (bits_fuzz.hip) and for the
// host's reference (run() below).
#pragma once
#include <cstdint>

#include "lane_programs.hpp"

namespace kb_fuzz {

enum kind : uint8_t {
  k_add,       // d = a + b
  k_sub,       // d = a - b
  k_xor,       // d = a ^ b
  k_or,        // d = a | b
  k_and,       // d = a & imm
  k_shl,       // d = a << imm
  k_shr,       // d = a >> imm
  k_mul,       // d = a * imm
  k_mod,       // d = a - (a / 2^imm) * 2^imm
  k_add_imm,   // d = a + imm
};
struct op {
  kind k = k_add;
  uint8_t d = 0, a = 0, b = 0;
  uint32_t imm = 0;
};
// Slots: 0 the lane's input (VGPR), 1 the uniform argument n (SGPR), 2 the work-item id
// (VGPR), 3 the workgroup id (SGPR); then the program's registers.
constexpr int fixed_slots = 4, max_slots = 16, max_ops = 28;
struct program {
  op ops[max_ops]{};
  int len = 0;
  int slots = fixed_slots;
  bool uniform[max_slots]{false, true, false, true};
};

constexpr program generate(uint32_t seed) {
  lane_programs::rng g(seed);
  program p;
  p.len = 16 + static_cast<int>(g.next(max_ops - 15));
  for (int i = 0; i < p.len; ++i) {
    op o;
    o.k = static_cast<kind>(g.next(10));
    o.a = static_cast<uint8_t>(g.next(static_cast<uint32_t>(p.slots)));
    o.b = static_cast<uint8_t>(g.next(static_cast<uint32_t>(p.slots)));
    const uint32_t r = g.next(8);
    switch (o.k) {
      case k_and: o.imm = r < 5 ? (1u << (1 + g.next(8))) - 1 : (r < 7 ? g.next(256) : g.next(0xffffffffu)); break;
      case k_shl: o.imm = 1 + g.next(9); break;
      case k_shr: o.imm = 1 + g.next(9); break;
      case k_mul: o.imm = r < 5 ? 1u << (1 + g.next(8)) : 3 + g.next(200); break;
      case k_mod: o.imm = 1 + g.next(8); break;
      case k_add_imm: o.imm = r < 5 ? (1u << g.next(10)) : g.next(100000); break;
      default: break;
    }
    const bool binary = o.k == k_add || o.k == k_sub || o.k == k_xor || o.k == k_or;
    const bool uni = p.uniform[o.a] && (!binary || p.uniform[o.b]);
    // A new register, or an update of an earlier one of the same class (written again).
    const uint32_t w = g.next(4);
    int d = -1;
    if (w == 0 && p.slots > fixed_slots) {
      const int c = fixed_slots + static_cast<int>(g.next(static_cast<uint32_t>(p.slots - fixed_slots)));
      if (p.uniform[c] == uni) d = c;
    }
    if (d < 0 && p.slots < max_slots) {
      d = p.slots++;
      p.uniform[d] = uni;
    }
    if (d < 0) d = fixed_slots + (i % (max_slots - fixed_slots));
    if (p.uniform[d] != uni) {  // (a full file: make it a per-lane value's update)
      o.a = 0;
      o.k = k_add_imm;
      o.imm = 7;
      if (p.uniform[d]) o.a = 1;
    }
    o.d = static_cast<uint8_t>(d);
    p.ops[i] = o;
  }
  return p;
}

constexpr uint32_t apply(const op& o, uint32_t a, uint32_t b) {
  switch (o.k) {
    case k_add: return a + b;
    case k_sub: return a - b;
    case k_xor: return a ^ b;
    case k_or: return a | b;
    case k_and: return a & o.imm;
    case k_shl: return a << o.imm;
    case k_shr: return a >> o.imm;
    case k_mul: return a * o.imm;
    case k_mod: return a - (a >> o.imm << o.imm);
    case k_add_imm: return a + o.imm;
  }
  return 0;
}

// The program's result for one lane: every register folded into one value.
constexpr uint32_t run(const program& p, uint32_t v, uint32_t n, uint32_t tid, uint32_t wg) {
  uint32_t s[max_slots]{v, n, tid, wg};
  for (int i = 0; i < p.len; ++i) s[p.ops[i].d] = apply(p.ops[i], s[p.ops[i].a], s[p.ops[i].b]);
  uint32_t acc = 0;
  for (int i = fixed_slots; i < p.slots; ++i) acc = acc * 3 + s[i];
  return acc;
}

}  // namespace kb_fuzz
