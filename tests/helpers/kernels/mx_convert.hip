// Kernels of test_mx_convert_sim.cpp (gfx950 only: the OCP MX conversions): one wave, lane l
// converts its own values with its own E8M0 scale (a VGPR) and with the kernel's (an SGPR).
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace mx {

// n dwords at byte offset base of p into a new n-dword tuple (n a multiple of 4)
constexpr gpr<f32> load_n(builder J, arg<const float*> p, const gpr<u32>& base, int n) {
  auto v = J.vgpr<f32>(n);
  for (int k = 0; k < n / 4; ++k) {
    modifiers m;
    m.offset = 16 * k;
    J.global_load_dwordx4(v.slice(4 * k, 4), base, p, m);
  }
  J.s_waitcnt(vmcnt(0));
  return v;
}
constexpr void store_n(builder J, arg<unsigned*> p, const gpr<u32>& base, const gpr<u32>& v, int n) {
  for (int k = 0; k < n; ++k) {
    modifiers m;
    m.offset = 4 * k;
    J.global_store_dword(base, v.at(k), p, m);
  }
}
constexpr gpr<u32> lane_scale(builder J, arg<const unsigned*> scales) {
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto s = J.vgpr<u32>();
  J.global_load_dword(s, o, scales);
  J.s_waitcnt(vmcnt(0));
  return s;
}

// in: 8 f32 a lane; out: 10 dwords a lane: fp4x8 (lane's scale), fp4x8 (kernel's scale), the
// first back to 8 f32
constexpr void fp4_k(builder J, arg<unsigned*> out, arg<const float*> in, arg<const unsigned*> scales,
                     arg<unsigned> kscale) {
  auto base = J.vgpr<u32>();
  base = J.thread_id_x() * 32u;
  auto x = load_n(J, in, base, 8);
  auto s = lane_scale(J, scales);
  auto r = J.vgpr<u32>(10);
  auto p = cvt_fp4x8(x, s);
  r[0] = p.as<u32>();
  r[1] = cvt_fp4x8(x, kscale).as<u32>();
  auto back = to_f32x8(p, s);
  for (int i = 0; i < 8; ++i) r[2 + i] = back[i].as<u32>();
  auto ob = J.vgpr<u32>();
  ob = J.thread_id_x() * 40u;
  store_n(J, out, ob, r, 10);
}

// in: 32 f32 a lane (16 even values, then 16 odd); out: 38 dwords a lane: the 6-dword pack,
// then the 32 values back
template <dtype T>
constexpr void fp6_k(builder J, arg<unsigned*> out, arg<const float*> in, arg<const unsigned*> scales) {
  auto base = J.vgpr<u32>();
  base = J.thread_id_x() * 128u;
  auto x = load_n(J, in, base, 32);
  auto s = lane_scale(J, scales);
  auto p = cvt_fp6x32<T>(x.slice(0, 16), x.slice(16, 16), s);
  auto back = to_f32x32(p, s);
  auto ob = J.vgpr<u32>();
  ob = J.thread_id_x() * 152u;
  store_n(J, out, ob, p.template as<u32>(), 6);
  auto ob2 = J.vgpr<u32>();
  ob2 = ob + 24u;
  store_n(J, out, ob2, back.template as<u32>(), 32);
}

}  // namespace mx

extern "C" __attribute__((global)) void mx_fp4(unsigned* out, const float* in, const unsigned* scales, unsigned kscale) {
  HIPASM_KERNEL_BODY(mx::fp4_k, out, in, scales, kscale);
}
extern "C" __attribute__((global)) void mx_fp6(unsigned* out, const float* in, const unsigned* scales) {
  HIPASM_KERNEL_BODY(mx::fp6_k<dtype::fp6>, out, in, scales);
}
extern "C" __attribute__((global)) void mx_bf6(unsigned* out, const float* in, const unsigned* scales) {
  HIPASM_KERNEL_BODY(mx::fp6_k<dtype::bf6>, out, in, scales);
}
