// Kernels of test_lanes_partial_sim.cpp: shuffle_xor / shuffle_xor_into where lanes are off (a
// partial wave at the top level, a per-lane If): a lane whose partner is off reads 0, and a
// lane that is off keeps its destination. out[64 g + lane], g the workgroup.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace lp {

constexpr gpr<u32> byte_offset(builder J) {
  auto o = J.vgpr<u32>().named("o");
  o = (J.workgroup_id_x() * 64u + J.thread_id_x()) << 2u;
  return o;
}
constexpr gpr<u32> input(builder J) {
  auto x = J.vgpr<u32>();
  x = J.workgroup_id_x() * 1000u + lane_id(J) * 7u + 3u;
  return x;
}

// Top level (launched with a partial wave): y = x of lane ^ M (Into: shuffle_xor_into a register
// that held a sentinel).
template <unsigned M, bool Into>
constexpr void top_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = input(J);
  auto y = J.vgpr<u32>();
  y = 0xdeadbeefu;
  if constexpr (Into) shuffle_xor_into(J, y, x, M);
  else y = shuffle_xor(J, x, M);
  J.global_store_dword(o, y, out);
}
// Under a per-lane If (lanes with lane % 3 == 1 off): the same; the lanes off keep the sentinel.
template <unsigned M, bool Into>
constexpr void if_k(builder J, arg<unsigned*> out) {
  auto o = byte_offset(J);
  auto x = input(J);
  auto y = J.vgpr<u32>();
  y = 0xdeadbeefu;
  auto lane = lane_id(J);
  J.If(lane % 3u != 1u, [&] {
    if constexpr (Into) shuffle_xor_into(J, y, x, M);
    else y = shuffle_xor(J, x, M);
  });
  J.global_store_dword(o, y, out);
}

}  // namespace lp

#define LP(M)                                                                                                \
  extern "C" __attribute__((global)) void top_##M(unsigned* out) { HIPASM_KERNEL_BODY((lp::top_k<M, false>), out); } \
  extern "C" __attribute__((global)) void top_into_##M(unsigned* out) { HIPASM_KERNEL_BODY((lp::top_k<M, true>), out); } \
  extern "C" __attribute__((global)) void if_##M(unsigned* out) { HIPASM_KERNEL_BODY((lp::if_k<M, false>), out); } \
  extern "C" __attribute__((global)) void if_into_##M(unsigned* out) { HIPASM_KERNEL_BODY((lp::if_k<M, true>), out); }
LP(1) LP(4) LP(8) LP(16) LP(31) LP(32) LP(48)
