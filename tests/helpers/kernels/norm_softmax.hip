// Small real kernels written with the helpers (the shapes issue 12's softmax / rmsnorm /
// layernorm / MoE-routing kernels take): test_kernels_sim.cpp checks them against C++.
#include <hipasm/hipasm.hpp>

using namespace hipasm;

namespace ks {

// softmax of each row of 64*K floats, one wave per row; out f32 and bf16 pairs.
template <int K>
constexpr void softmax_rows(builder J, arg<float*> out, arg<unsigned*> out_bf16, arg<const float*> in) {
  auto lane = lane_id(J);
  auto base = J.vgpr<u32>();
  base = (J.workgroup_id_x() * static_cast<unsigned>(64 * K) + lane) << 2u;
  auto x = J.vgpr<f32>(K);
  for (int k = 0; k < K; ++k) J.global_load_dword(x[k], base, in, {.offset = k * 256});
  J.s_waitcnt(vmcnt(0));
  auto m = J.vgpr<f32>();
  m = max3(x[0], x[1], x[2]);
  for (int k = 3; k < K; ++k) m = max(m, x[k]);
  auto mx = wave_reduce(J, reduce::max, m, {.all_lanes_active = true});
  auto e = J.vgpr<f32>(K);
  for (int k = 0; k < K; ++k) e[k] = exp(x[k] - mx);
  auto s = J.vgpr<f32>();
  s = e[0] + e[1];
  for (int k = 2; k < K; ++k) s = s + e[k];
  auto total = wave_reduce(J, reduce::sum, s, {.all_lanes_active = true});
  auto inv = J.vgpr<f32>();
  inv = rcp(total);
  for (int k = 0; k < K; ++k) {
    e[k] = e[k] * inv;
    J.global_store_dword(base, e[k], out, {.offset = k * 256});
  }
  auto ob = J.vgpr<u32>();
  ob = (J.workgroup_id_x() * static_cast<unsigned>(32 * K) + lane) << 2u;
  for (int k = 0; k < K; k += 2) {
    auto p = cvt_bf16x2(e[k], e[k + 1]);
    J.global_store_dword(ob, p.as<u32>(), out_bf16, {.offset = k * 128});
  }
}

// rmsnorm of rows of 256*K floats, a workgroup of 4 waves per row: y = x / sqrt(mean(x^2) + eps) * w
template <int K>
constexpr void rmsnorm_rows(builder J, arg<float*> out, arg<const float*> in, arg<const float*> w, arg<float> eps) {
  auto t = J.thread_id_x();
  auto base = J.vgpr<u32>(), wb = J.vgpr<u32>();
  base = (J.workgroup_id_x() * static_cast<unsigned>(256 * K) + t) << 2u;
  wb = t << 2u;
  auto x = J.vgpr<f32>(K), g = J.vgpr<f32>(K);
  for (int k = 0; k < K; ++k) {
    J.global_load_dword(x[k], base, in, {.offset = k * 1024});
    J.global_load_dword(g[k], wb, w, {.offset = k * 1024});
  }
  J.s_waitcnt(vmcnt(0));
  auto ss = J.vgpr<f32>();
  ss = x[0] * x[0];
  for (int k = 1; k < K; ++k) J.v_fmac_f32(ss, x[k], x[k]);
  auto scratch = J.lds<float>(4, 16);
  auto tot = workgroup_reduce(J, reduce::sum, ss, scratch, 4, {.all_lanes_active = true});
  auto r = J.vgpr<f32>();
  r = rsqrt(tot * (1.0f / static_cast<float>(256 * K)) + eps);
  for (int k = 0; k < K; ++k) {
    x[k] = x[k] * r * g[k];
    J.global_store_dword(base, x[k], out, {.offset = k * 1024});
  }
}

// layernorm statistics of rows of 64*K floats, one wave per row: mean and 1/sqrt(var + eps) from
// one paired reduction of (sum x, sum x^2); out = (x - mean) * rstd
template <int K>
constexpr void layernorm_rows(builder J, arg<float*> out, arg<const float*> in) {
  auto lane = lane_id(J);
  auto base = J.vgpr<u32>();
  base = (J.workgroup_id_x() * static_cast<unsigned>(64 * K) + lane) << 2u;
  auto x = J.vgpr<f32>(K);
  for (int k = 0; k < K; ++k) J.global_load_dword(x[k], base, in, {.offset = k * 256});
  J.s_waitcnt(vmcnt(0));
  auto st = J.vgpr<f32>(2);
  st[0] = x[0];
  st[1] = x[0] * x[0];
  for (int k = 1; k < K; ++k) {
    st[0] = st[0] + x[k];
    J.v_fmac_f32(st[1], x[k], x[k]);
  }
  auto sums = wave_reduce(J, reduce::sum, st, {.all_lanes_active = true});
  auto mean = J.vgpr<f32>(), rstd = J.vgpr<f32>();
  mean = sums[0] * (1.0f / static_cast<float>(64 * K));
  rstd = sums[1] * (1.0f / static_cast<float>(64 * K)) - mean * mean;
  rstd = rsqrt(rstd + 1e-5f);
  for (int k = 0; k < K; ++k) {
    x[k] = (x[k] - mean) * rstd;
    J.global_store_dword(base, x[k], out, {.offset = k * 256});
  }
}

// MoE routing (top-1 of a softmax over 16 experts per token, 4 tokens per wave: a group of 16
// lanes per token): the gate's probability and the expert index, as topk_softmax kernels do.
constexpr void top1_route(builder J, arg<float*> prob, arg<unsigned*> expert, arg<const float*> logits) {
  auto lane = lane_id(J);
  auto o = J.vgpr<u32>();
  o = (J.workgroup_id_x() * 64u + lane) << 2u;
  auto x = J.vgpr<f32>();
  J.global_load_dword(x, o, logits);
  J.s_waitcnt(vmcnt(0));
  auto m = group_reduce(J, reduce::max, x, 16, {.all_lanes_active = true});
  auto e = J.vgpr<f32>();
  e = exp(x - m);
  auto s = group_reduce(J, reduce::sum, e, 16, {.all_lanes_active = true});
  // the smallest lane index holding the maximum: select, then a group min
  auto idx = J.vgpr<u32>();
  idx = select(x == m, lane & 15u, 99u);
  auto best = group_reduce(J, reduce::min, idx, 16, {.all_lanes_active = true});
  J.If((lane & 15u) == 0u, [&] {
    auto p = J.vgpr<f32>();
    p = rcp(s);
    auto t = J.vgpr<u32>();
    t = (J.workgroup_id_x() * 4u + (lane >> 4u)) << 2u;
    J.global_store_dword(t, p, prob);
    J.global_store_dword(t, best, expert);
  });
}

}  // namespace ks

extern "C" __attribute__((global)) void softmax4(float* out, unsigned* ob, const float* in) { HIPASM_KERNEL_BODY((ks::softmax_rows<4>), out, ob, in); }
extern "C" __attribute__((global)) void rmsnorm2(float* out, const float* in, const float* w, float eps) { HIPASM_KERNEL_BODY((ks::rmsnorm_rows<2>), out, in, w, eps); }
extern "C" __attribute__((global)) void layernorm4(float* out, const float* in) { HIPASM_KERNEL_BODY((ks::layernorm_rows<4>), out, in); }
extern "C" __attribute__((global)) void top1(float* prob, unsigned* expert, const float* logits) { HIPASM_KERNEL_BODY(ks::top1_route, prob, expert, logits); }
