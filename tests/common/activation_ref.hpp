// The gate activations (include/hipasm/kernels/activation.hpp) in double, from their formulas.
#pragma once
#include <cmath>

#include <hipasm/kernels/activation.hpp>

namespace hipasm::test {
inline double act_ref(hipasm::kernels::activation a, double g) {
  switch (a) {
    case hipasm::kernels::activation::silu: return g / (1.0 + std::exp(-g));
    case hipasm::kernels::activation::gelu: return 0.5 * g * (1.0 + std::erf(g / std::sqrt(2.0)));
    case hipasm::kernels::activation::gelu_tanh:
      return 0.5 * g * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (g + 0.044715 * g * g * g)));
  }
  return 0;
}
}  // namespace hipasm::test
