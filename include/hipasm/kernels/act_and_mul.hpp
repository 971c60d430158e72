// Gated activations of bf16 rows (f32 math), vLLM's / aiter's silu_and_mul, gelu_and_mul and
// gelu_tanh_and_mul:
//   out[t][i] = act(x[t][i]) * x[t][d + i]      x [tokens][2d] (gate, then up), out [tokens][d]
//   act: silu (x * sigmoid(x)), gelu (erf form, x * Phi(x)), gelu_tanh (0.5 x (1 + tanh(...)))
// computed by math.hpp's silu / gelu_erf / gelu_tanh (their error bounds are there: <= 16 / 40
// ulp of f32 where the result is >= 2^-20), the product rounded once to f32, then to bf16 by
// round to nearest even. Edge values as the formulas give them in IEEE f32 (PyTorch's too): NaN
// in either half gives NaN; act(+inf) = +inf; act(-inf) = -inf * 0 = NaN; 0 * inf = NaN.
//
// The output is cut into lane groups of E consecutive elements of one row (E = 8, or 4 / 2 when
// d is not a multiple of 8 / 4: 16-, 8- or 4-byte accesses), numbered across the rows; workgroup
// w takes groups [w, w + 1) * C.steps * 64 * C.waves, a lane C.steps of them 64 * C.waves apart,
// so every workgroup moves the same bytes whatever d is (no half-empty blocks at row ends). A
// lane finds its group's token by a division by the constant d / E. It issues all its loads
// first (gate and up of every step), then computes and stores each step as its loads arrive
// (J.wait_for). The grid's last workgroup overhangs the tensor: its lanes past the end load
// zeros and their stores are dropped (the buffer range check, buffer.hpp TAIL TILES), no branch.
//
// Device side:  constexpr hipasm::kernels::act_and_mul_config cfg{.d = 14336, .act = hipasm::kernels::activation::silu};
//               HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_14336, cfg)
// Host side:    hipasm::kernels::launch_act_and_mul<cfg>(dev, module, "silu_and_mul_14336", {.out, .in, .tokens});
// Tensors row-major bf16 (uint16_t bits); tokens * 2d * 2 bytes below 4 GiB (32-bit row offsets).
#pragma once
#include <cstdint>

#include "../hipasm.hpp"
#include "activation.hpp"

namespace hipasm::kernels {

struct act_and_mul_config {
  int d = 0;                          // output elements per token (the input row is 2d); even
  activation act = activation::silu;  // silu_and_mul, gelu_and_mul (erf), gelu_tanh_and_mul
  int waves = 4;                      // waves per workgroup, 1..16
  int steps = 2;                      // lane groups per lane (a load of each half a group), 1..8
};
// Elements of a lane access (a row holds whole groups) and the elements a workgroup covers.
constexpr int act_and_mul_group(const act_and_mul_config& c) { return c.d % 8 == 0 ? 8 : c.d % 4 == 0 ? 4 : 2; }
constexpr uint64_t act_and_mul_span(const act_and_mul_config& c) {
  return uint64_t(act_and_mul_group(c)) * 64u * uint64_t(c.waves) * uint64_t(c.steps);
}
// Workgroups for `tokens` rows.
constexpr uint32_t act_and_mul_groups(const act_and_mul_config& c, uint32_t tokens) {
  return static_cast<uint32_t>((uint64_t(tokens) * uint64_t(c.d) + act_and_mul_span(c) - 1) / act_and_mul_span(c));
}

template <act_and_mul_config C>
constexpr void act_and_mul(builder J, arg<uint16_t*> out, arg<const uint16_t*> in, arg<unsigned> tokens) {
  static_assert(C.d > 0 && C.d % 2 == 0,
                "hipasm act_and_mul: d must be a positive even element count (the up half then starts on a dword, "
                "and a bf16 pair is the smallest range-checked access)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm act_and_mul: waves must be 1..16");
  static_assert(C.steps >= 1 && C.steps <= 8, "hipasm act_and_mul: steps must be 1..8");
  constexpr int K = C.steps, E = act_and_mul_group(C), W = E / 2;  // W: dwords per access
  constexpr uint32_t lanes = 64u * static_cast<uint32_t>(C.waves);
  constexpr uint32_t row_groups = static_cast<uint32_t>(C.d / E), half_bytes = static_cast<uint32_t>(C.d) * 2u;

  // the whole tensors: the range check cuts the last workgroup's overhang
  auto in_bytes = J.sgpr<dtype::u32>(), out_bytes = J.sgpr<dtype::u32>();
  out_bytes = tokens * half_bytes;
  in_bytes = out_bytes + out_bytes;
  buffer X = make_buffer(J, in, in_bytes);
  buffer Y = make_buffer(J, out, out_bytes);

  auto first = J.vgpr<dtype::u32>();
  first = J.workgroup_id_x() * (lanes * static_cast<uint32_t>(K)) + J.thread_id_x();
  auto xoff = J.vgpr<dtype::u32>(K), yoff = J.vgpr<dtype::u32>(K);
  auto gv = J.vgpr<dtype::u32>(W * K), uv = J.vgpr<dtype::u32>(W * K), yv = J.vgpr<dtype::u32>(W * K);
  for (int k = 0; k < K; ++k) {
    // group g of token g / row_groups: out at 2 E g bytes, its gate 2 d token bytes further
    auto g = J.vgpr<dtype::u32>(), tok = J.vgpr<dtype::u32>();
    g = first + static_cast<uint32_t>(k) * lanes;
    tok = g / row_groups;
    yoff[k] = g * static_cast<uint32_t>(2 * E);
    xoff[k] = yoff[k] + tok * half_bytes;
    X.load(gv.slice(W * k, W), xoff[k]);
    X.load(uv.slice(W * k, W), xoff[k] + static_cast<int>(half_bytes));
  }
  for (int k = 0; k < K; ++k) {
    J.wait_for(gv.slice(W * k, W), uv.slice(W * k, W));
    auto y = J.vgpr<dtype::f32>(E);
    for (int j = 0; j < E; ++j) {
      const int i = W * k + j / 2;
      auto g = to_f32(gv[i].template as<dtype::bf16x2>(), j % 2);
      auto u = to_f32(uv[i].template as<dtype::bf16x2>(), j % 2);
      y[j] = detail::activate<C.act>(g) * u;
    }
    // (nearest even without the NaN check: a NaN here is an input's, bf16 with its low half
    // zero, or the arithmetic's quiet 0x7fc00000; adding 0x7fff never carries it into an inf)
    for (int p = 0; p < W; ++p)
      yv[W * k + p] = cvt_bf16x2(y[2 * p], y[2 * p + 1], bf16_round::nearest_even_finite).template as<dtype::u32>();
    Y.store(yv.slice(W * k, W), yoff[k]);
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr act_and_mul_config).
#define HIPASM_ACT_AND_MUL_KERNEL(NAME, CFG)                                                            \
  extern "C" __attribute__((global)) void NAME(uint16_t* out, const uint16_t* in, unsigned tokens) {  \
    HIPASM_KERNEL_BODY((hipasm::kernels::act_and_mul<CFG>), out, in, tokens);                          \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct act_and_mul_args {
  uint64_t out = 0, in = 0;  // device addresses: out [tokens][d], in [tokens][2d]
  uint32_t tokens = 0;
};
// Launches the kernel built from C (named `kernel` in module m) over args.tokens rows.
template <act_and_mul_config C>
rt::launch_report launch_act_and_mul(rt::device& dev, rt::module& m, std::string_view kernel,
                                     const act_and_mul_args& a, const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm act_and_mul launch: tokens must be >= 1");
  if (!a.out || !a.in) throw std::invalid_argument("hipasm act_and_mul launch: in or out is null");
  if (static_cast<uint64_t>(a.tokens) * static_cast<uint64_t>(C.d) * 4u >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm act_and_mul launch: the input must be below 4 GiB (32-bit row offsets), got " +
                                std::to_string(a.tokens) + " x 2 x " + std::to_string(C.d));
  rt::kernel_args args;
  args.add(a.out).add(a.in).add(a.tokens);
  return dev.launch(m, kernel, {act_and_mul_groups(C, a.tokens), 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1},
                    args, opts);
}
}  // namespace hipasm::kernels
#endif
