// f32 division (correctly rounded) for every operand-class mix; see test_fdiv_sim.cpp.
#include <hipasm/kernel.hpp>

#include "expr_cases.hpp"

namespace fdiv_cases {
using namespace hipasm;
using namespace expr_cases;

// out[p] = a[p] / b[p]; vv per lane, ss / sv / vs wave-uniform operands (p = workgroup);
// vi / iv: a[p] / C or C / b[p] per lane with C a literal (3.0f) or inline constant (0.5f).
template <int MODE, int C = 0>
constexpr void fdiv(builder J, arg<float*> out, arg<const float*> a, arg<const float*> b) {
  constexpr float cval = C == 0 ? 3.0f : 0.5f;
  auto p = J.vgpr<u32>();
  bool lane = MODE == vv || MODE == vi || MODE == si;
  if (lane) p = J.workgroup_id_x() * 64 + J.thread_id_x();
  else p = J.workgroup_id_x();
  auto w = J.workgroup_id_x();
  gpr<f32> r = [&] {
    if constexpr (MODE == vv) {
      auto x = load_v<f32>(J, a, p);
      auto y = load_v<f32>(J, b, p);
      J.s_waitcnt(vmcnt(0));
      return x / y;
    } else if constexpr (MODE == ss) {
      auto x = load_s<f32>(J, a, w);
      auto y = load_s<f32>(J, b, w);
      J.s_waitcnt(lgkmcnt(0));
      return x / y;
    } else if constexpr (MODE == sv) {
      auto x = load_s<f32>(J, a, w);
      auto y = load_v<f32>(J, b, p);
      J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
      return x / y;
    } else if constexpr (MODE == vs) {
      auto x = load_v<f32>(J, a, p);
      auto y = load_s<f32>(J, b, w);
      J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
      return x / y;
    } else if constexpr (MODE == vi) {  // a / C
      auto x = load_v<f32>(J, a, p);
      J.s_waitcnt(vmcnt(0));
      return x / cval;
    } else {  // si (here: C / b)
      auto y = load_v<f32>(J, b, p);
      J.s_waitcnt(vmcnt(0));
      return cval / y;
    }
  }();
  auto o = J.vgpr<u64>();
  o = out + (p << 2);
  J.global_store_dword(o, r, off);
}
}  // namespace fdiv_cases

#define KD(NAME, MODE, C)                                                                         \
  extern "C" __attribute__((global)) void fdiv_##NAME(float* out, const float* a, const float* b) { \
    HIPASM_KERNEL_BODY((fdiv_cases::fdiv<expr_cases::MODE, C>), out, a, b);                      \
  }
KD(vv, vv, 0) KD(ss, ss, 0) KD(sv, sv, 0) KD(vs, vs, 0) KD(vlit, vi, 0) KD(vinl, vi, 1) KD(litv, si, 0)
KD(inlv, si, 1)

// The same a[p] / b[p] compiled by clang itself (no hipasm): its own v_div_scale ... sequence,
// an outside reference for the simulator's division instructions.
extern "C" __attribute__((global)) void fdiv_clang(float* out, const float* a, const float* b) {
  const unsigned p = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  out[p] = a[p] / b[p];
}
