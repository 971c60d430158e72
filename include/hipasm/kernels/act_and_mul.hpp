// Gated activations of bf16 rows (f32 math), vLLM's / aiter's silu_and_mul, gelu_and_mul and
// gelu_tanh_and_mul:
//   out[t][i] = act(x[t][i]) * x[t][d + i]      x [tokens][2d] (gate, then up), out [tokens][d]
//   act: silu (x * sigmoid(x)), gelu (erf form, x * Phi(x)), gelu_tanh (0.5 x (1 + tanh(...)))
// computed by math.hpp's silu / gelu_erf / gelu_tanh (their error bounds are there: <= 16 / 40
// ulp of f32 where the result is >= 2^-20), the product rounded once to f32, then to bf16 by
// round to nearest even. Edge values as the formulas give them in IEEE f32 (PyTorch's too): NaN
// in either half gives NaN; act(+inf) = +inf; act(-inf) = -inf * 0 = NaN; 0 * inf = NaN.
//
// A workgroup of C.waves waves handles C.steps * 8 * 64 * C.waves consecutive elements of one
// token's output (a "block"); the grid is tokens x blocks. Each lane issues all its 16-byte
// loads first (8 bf16 of the gate and 8 of the up half per step), then computes and stores each
// step as its loads arrive (J.wait_for). A row's tail: the gate, up and out buffer resources
// each end at their half row (buffer.hpp, TAIL TILES), so lanes past d load zeros and their
// stores are dropped, with no branch.
//
// Device side:  constexpr hipasm::kernels::act_and_mul_config cfg{.d = 14336, .act = hipasm::kernels::activation::silu};
//               HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_14336, cfg)
// Host side:    hipasm::kernels::launch_act_and_mul<cfg>(dev, module, "silu_and_mul_14336", {.out, .in, .tokens});
// Tensors row-major bf16 (uint16_t bits); tokens * 2d * 2 bytes below 4 GiB (32-bit row offsets).
#pragma once
#include <cstdint>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

enum class activation : uint8_t { silu, gelu, gelu_tanh };

struct act_and_mul_config {
  int d = 0;                          // output elements per token (the input row is 2d); even
  activation act = activation::silu;  // silu_and_mul, gelu_and_mul (erf), gelu_tanh_and_mul
  int waves = 4;                      // waves per workgroup, 1..16
  int steps = 2;                      // 16-byte loads per lane and half: 8 * steps elements a lane
};
constexpr int act_and_mul_block(const act_and_mul_config& c) { return 8 * 64 * c.waves * c.steps; }
constexpr uint32_t act_and_mul_blocks(const act_and_mul_config& c) {
  return static_cast<uint32_t>((c.d + act_and_mul_block(c) - 1) / act_and_mul_block(c));
}

namespace detail {
template <activation A>
constexpr gpr<dtype::f32> activate(const gpr<dtype::f32>& g) {
  if constexpr (A == activation::silu) return silu(g);
  else if constexpr (A == activation::gelu) return gelu_erf(g);
  else return gelu_tanh(g);
}
}  // namespace detail

template <act_and_mul_config C>
constexpr void act_and_mul(builder J, arg<uint16_t*> out, arg<const uint16_t*> in) {
  static_assert(C.d > 0 && C.d % 2 == 0,
                "hipasm act_and_mul: d must be a positive even element count (the up half then starts on a dword, "
                "and a bf16 pair is the smallest range-checked access)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm act_and_mul: waves must be 1..16");
  static_assert(C.steps >= 1 && C.steps <= 8, "hipasm act_and_mul: steps must be 1..8");
  constexpr int K = C.steps;
  constexpr int step_bytes = 8 * 64 * C.waves * 2;
  constexpr uint32_t half_bytes = static_cast<uint32_t>(C.d) * 2u;

  auto t = J.thread_id_x();
  auto voff = J.vgpr<dtype::u32>();
  voff = t << 4u;  // 16 bytes (8 elements) per lane and step
  auto row = J.sgpr<dtype::u32>(), col = J.sgpr<dtype::u32>(), orow = J.sgpr<dtype::u32>();
  row = J.workgroup_id_x() * (2u * half_bytes);
  orow = J.workgroup_id_x() * half_bytes;
  col = J.workgroup_id_y() * static_cast<uint32_t>(K * step_bytes);
  // each resource is its half row from this block's first element on: the row's end bounds it
  buffer G = detail::row_buffer(J, in, row, half_bytes);
  buffer U = detail::row_buffer(J, in, row, half_bytes);
  U.shift_base(half_bytes);
  buffer Y = detail::row_buffer(J, out, orow, half_bytes);
  G.advance(col);
  U.advance(col);
  Y.advance(col);

  auto gv = J.vgpr<dtype::u32>(4 * K), uv = J.vgpr<dtype::u32>(4 * K), yv = J.vgpr<dtype::u32>(4 * K);
  for (int k = 0; k < K; ++k) {
    G.load(gv.slice(4 * k, 4), voff + k * step_bytes);
    U.load(uv.slice(4 * k, 4), voff + k * step_bytes);
  }
  for (int k = 0; k < K; ++k) {
    J.wait_for(gv.slice(4 * k, 4), uv.slice(4 * k, 4));
    auto y = J.vgpr<dtype::f32>(8);
    for (int j = 0; j < 8; ++j) {
      const int i = 4 * k + j / 2;
      auto g = to_f32(gv[i].template as<dtype::bf16x2>(), j % 2);
      auto u = to_f32(uv[i].template as<dtype::bf16x2>(), j % 2);
      y[j] = detail::activate<C.act>(g) * u;
    }
    // (nearest even without the NaN check: a NaN here is an input's, bf16 with its low half
    // zero, or the arithmetic's quiet 0x7fc00000; adding 0x7fff never carries it into an inf)
    for (int p = 0; p < 4; ++p)
      yv[4 * k + p] = cvt_bf16x2(y[2 * p], y[2 * p + 1], bf16_round::nearest_even_finite).template as<dtype::u32>();
    Y.store(yv.slice(4 * k, 4), voff + k * step_bytes);
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr act_and_mul_config).
#define HIPASM_ACT_AND_MUL_KERNEL(NAME, CFG)                                                            \
  extern "C" __attribute__((global)) void NAME(uint16_t* out, const uint16_t* in) {                   \
    HIPASM_KERNEL_BODY((hipasm::kernels::act_and_mul<CFG>), out, in);                                  \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/sim/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/sim/launcher.hpp>
namespace hipasm::kernels {
struct act_and_mul_args {
  uint64_t out = 0, in = 0;  // device addresses: out [tokens][d], in [tokens][2d]
  uint32_t tokens = 0;
};
// Launches the kernel built from C (named `kernel` in module m): a grid of tokens x blocks.
template <act_and_mul_config C>
rt::launch_report launch_act_and_mul(rt::device& dev, rt::module& m, std::string_view kernel,
                                     const act_and_mul_args& a, const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm act_and_mul launch: tokens must be >= 1");
  if (!a.out || !a.in) throw std::invalid_argument("hipasm act_and_mul launch: in or out is null");
  if (static_cast<uint64_t>(a.tokens) * static_cast<uint64_t>(C.d) * 4u >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm act_and_mul launch: the input must be below 4 GiB (32-bit row offsets), got " +
                                std::to_string(a.tokens) + " x 2 x " + std::to_string(C.d));
  rt::kernel_args args;
  args.add(a.out).add(a.in);
  return dev.launch(m, kernel, {a.tokens, act_and_mul_blocks(C), 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1},
                    args, opts);
}
}  // namespace hipasm::kernels
#endif
