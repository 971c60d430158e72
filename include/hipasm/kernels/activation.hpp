// The gate activations of the library's gated kernels (act_and_mul, the MoE stage 1s): silu
// (x * sigmoid(x)), gelu (erf form, x * Phi(x): PyTorch's default and aiter's Gelu), gelu_tanh
// (0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))), computed by math.hpp's silu / gelu_erf /
// gelu_tanh (their error bounds are there).
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::kernels {

enum class activation : uint8_t { silu, gelu, gelu_tanh };

constexpr const char* activation_name(activation a) {
  return a == activation::silu ? "silu" : a == activation::gelu ? "gelu" : "gelu_tanh";
}

namespace detail {
template <activation A>
constexpr gpr<dtype::f32> activate(const val<dtype::f32>& g) {
  if constexpr (A == activation::silu) return silu(g);
  else if constexpr (A == activation::gelu) return gelu_erf(g);
  else return gelu_tanh(g);
}
}  // namespace detail

}  // namespace hipasm::kernels
