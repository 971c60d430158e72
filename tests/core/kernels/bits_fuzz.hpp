// The known-bits fuzz kernels (test_known_bits_sim.cpp): kb_fuzz::generate(Seed) lowered with
// the DSL; out[gid] = kb_fuzz::run() of that lane. Compiled with the known-bits step on (the
// default) and off (the reference lowering).
#pragma once
#include <hipasm/kernel.hpp>

#include "bits_random_programs.hpp"

namespace kb_fuzz {
using namespace hipasm;

template <uint32_t Seed>
constexpr void bits_kernel(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> n) {
  const program P = generate(Seed);
  auto gid = J.vgpr<u32>();
  gid = J.workgroup_id_x() * 64 + J.thread_id_x();
  auto p = J.vgpr<u64>();
  p = in + (gid << 2);
  gpr<u32> s[max_slots];
  s[0].rebind(J.vgpr<u32>().named("v"));
  J.global_load_dword(s[0], p, off);
  J.s_waitcnt(vmcnt(0));
  s[1].rebind(n.as<u32>());
  s[2].rebind(J.thread_id_x());
  s[3].rebind(J.workgroup_id_x());
  for (int i = fixed_slots; i < P.slots; ++i) s[i].rebind(P.uniform[i] ? J.sgpr<u32>() : J.vgpr<u32>());
  for (int i = 0; i < P.len; ++i) {
    const op o = P.ops[i];
    const gpr<u32>& a = s[o.a];
    const gpr<u32>& b = s[o.b];
    switch (o.k) {
      case k_add: s[o.d] = a + b; break;
      case k_sub: s[o.d] = a - b; break;
      case k_xor: s[o.d] = a ^ b; break;
      case k_or: s[o.d] = a | b; break;
      case k_and: s[o.d] = a & o.imm; break;
      case k_shl: s[o.d] = a << o.imm; break;
      case k_shr: s[o.d] = a >> o.imm; break;
      case k_mul: s[o.d] = a * o.imm; break;
      case k_mod: s[o.d] = a - (a / (1u << o.imm)) * (1u << o.imm); break;
      case k_add_imm: s[o.d] = a + o.imm; break;
    }
  }
  auto acc = J.vgpr<u32>();
  acc = 0;
  for (int i = fixed_slots; i < P.slots; ++i) acc = acc * 3 + s[i];
  auto q = J.vgpr<u64>();
  q = out + (gid << 2);
  J.global_store_dword(q, acc, off);
}

}  // namespace kb_fuzz
