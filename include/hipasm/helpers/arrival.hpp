// The last of several waves to finish, in one kernel: each wave that wrote its part of a
// result counts itself in at a u32 counter in global memory, and the one that arrives last
// runs the code that combines the parts (split-K's sum, a split softmax's rescaling), then
// zeroes the counter for the next launch. No second kernel (and no second dispatch).
//
//   stores of this wave's part with {.sc1 = true}
//   if_last_arrival(J, counters, counter_off, arrivals, [&] {
//     loads of every part with {.sc1 = true}, combined in a fixed order (deterministic)
//   });
//
// `counters` is a global pointer (an arg<T*> or an SGPR pair), `counter_off` the VGPR byte
// offset of this wave's counter there (read in the first active lane only: the counting and the
// zeroing are that lane's; any value in the others), `arrivals` how many
// waves count in at it (wave-uniform: a constant, an SGPR or an argument). The counters must be
// zero before the first launch; each launch leaves them zero. Memory order: the wave's stores
// are complete (vmcnt(0)) before its atomic and the atomic's result returns before the last
// wave reads; the parts and counters are device-coherent (sc1: a monotonic agent-scope access
// in the LLVM AMDGPU memory model for gfx942), so the parts need no buffer_wbl2 / buffer_inv.
#pragma once
#include <source_location>

#include "../builder.hpp"
#include "lanes.hpp"

namespace hipasm {

template <class Ptr, class N, class F>
constexpr void if_last_arrival(builder J, const Ptr& counters, const gpr<dtype::u32>& counter_off, const N& arrivals,
                               F&& last, std::source_location l = std::source_location::current()) {
  using dtype::u32;
  // (copies: a lambda may not capture a constexpr function's reference parameters by reference)
  const Ptr base = counters;
  const gpr<u32> off = counter_off;
  auto body = last;
  J.s_waitcnt(vmcnt(0), no_modifiers, l);  // this wave's part is written
  // (old: the first active lane writes it and v_readfirstlane reads that lane's; the other
  // lanes' are never read)
  auto one = J.vgpr<u32>(l), old = J.vgpr<u32>(l).allow_undefined();
  one = val<u32>(1u, l);
  J.If(lane_rank(J, l) == 0u, [&] { J.global_atomic_add(old, off, one, base, {.sc1 = true}, l); }, l);
  J.s_waitcnt(vmcnt(0), no_modifiers, l);
  auto arrived = J.sgpr<u32>(l);
  const auto last_one = arrivals - 1u;
  J.v_readfirstlane_b32(arrived, old, no_modifiers, l);
  J.If(arrived == last_one, [&] {
    body();
    auto zero = J.vgpr<u32>(l);
    zero = val<u32>(0u, l);
    // (the rank again, not a VGPR kept live across the caller's body)
    J.If(lane_rank(J, l) == 0u, [&] { J.global_store_dword(off, zero, base, {.sc1 = true}, l); }, l);
  }, l);
}

}  // namespace hipasm
