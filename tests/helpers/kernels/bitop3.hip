// Kernel of test_bitop3_sim.cpp (gfx950 only: v_bitop3_b32). Lane l reads a, b, c (3 dwords)
// and writes v_bitop3_b32 of them under several truth tables; the same sources each time, so
// CSE would merge the instructions if it did not tell the tables apart.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace b3 {

inline constexpr uint8_t tables[] = {0x96, 0xE8, 0x80, 0xCA, 0x00, 0xFF, 0x01, 0x7E};
inline constexpr int n_tables = sizeof(tables);

// out: per lane n_tables results with VGPR sources, then 0xCA with c the kernel argument (an SGPR)
// and 0x96 with b the inline constant 7
constexpr void k(builder J, arg<unsigned*> out, arg<const unsigned*> in, arg<unsigned> s) {
  auto base = J.vgpr<u32>();
  base = J.thread_id_x() * 12u;
  auto x = J.vgpr<u32>(3);
  J.global_load_dwordx3(x, base, in);
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<u32>(n_tables + 2);
  for (int i = 0; i < n_tables; ++i) J.v_bitop3_b32(r[i], x[0], x[1], x[2], {.bitop3 = tables[i]});
  J.v_bitop3_b32(r[n_tables], x[0], x[1], s, {.bitop3 = 0xCA});
  J.v_bitop3_b32(r[n_tables + 1], x[0], 7u, x[2], {.bitop3 = 0x96});
  auto ob = J.vgpr<u32>();
  ob = J.thread_id_x() * uint32_t(4 * (n_tables + 2));
  for (int i = 0; i < n_tables + 2; ++i) {
    modifiers m;
    m.offset = 4 * i;
    J.global_store_dword(ob, r[i], out, m);
  }
}

}  // namespace b3

extern "C" __attribute__((global)) void bitop3_k(unsigned* out, const unsigned* in, unsigned s) {
  HIPASM_KERNEL_BODY(b3::k, out, in, s);
}
