// EXPECT: sgpr_write_in_lane_if.hip:16: error: kernel '[^']*': s_mov_b32 writes SGPR 'flag' \(declared at [^)]*sgpr_write_in_lane_if.hip:11\) inside the per-lane If at [^ ]*sgpr_write_in_lane_if.hip:15: .*J.wave_uniform
// An SGPR holds one value for the wave: written in a branch some lanes skip, those lanes see
// the write too (here every lane would store 1 once lane 0 took the branch). A raw mnemonic
// is checked like an expression: the error names the register, its line and the If's.
#include <hipasm/kernel.hpp>
using namespace hipasm;

constexpr void sgpr_in_branch(builder J, arg<int*> out) {
  auto tid = J.thread_id_x();
  auto p = J.vgpr<u64>();
  auto flag = J.sgpr<u32>().named("flag");
  p = out + (tid << 2);
  flag = 0u;
  auto v = J.vgpr<u32>();
  J.If(tid == 0u, [&] {
    J.s_mov_b32(flag, 1u);
  });
  v = flag;
  J.global_store_dword(p, v, off);
}
extern "C" __attribute__((global)) void sgpr_write_in_lane_if(int* out) { HIPASM_KERNEL_BODY(sgpr_in_branch, out); }
