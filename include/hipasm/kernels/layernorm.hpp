// Layernorm of bf16 rows with an optional fused residual add (f32 math):
//   x = in (+ residual);  residual_out = bf16(x) (with the residual add);
//   out = bf16((x - mean(x)) / sqrt(var(x) + eps) * weight + bias)   (biased variance)
// The mean and variance are two reductions over the row held in registers (no E[x^2] - mean^2
// cancellation); one pass over memory (norm.hpp).
//
// Device side:  HIPASM_LAYERNORM_KERNEL(layernorm_4096, cfg)   (cfg: a constexpr norm_config)
// Host side:    hipasm::kernels::launch_layernorm<cfg>(dev, module, "layernorm_4096",
//                   {.out, .residual_out, .in, .residual, .weight, .bias, .eps, .rows});
// Layouts and limits as rmsnorm.hpp.
#pragma once
#include "norm.hpp"

namespace hipasm::kernels {

template <norm_config C>
constexpr void layernorm(builder J, arg<uint16_t*> out, arg<uint16_t*> residual_out, arg<const uint16_t*> in,
                         arg<const uint16_t*> residual, arg<const uint16_t*> weight, arg<const uint16_t*> bias,
                         arg<float> eps) {
  const gpr<dtype::u64> b = bias;
  detail::norm_rows<detail::norm_kind::layer, C>(J, out, residual_out, in, residual, weight, &b, eps);
}

}  // namespace hipasm::kernels

#define HIPASM_LAYERNORM_KERNEL(NAME, CFG)                                                                    \
  extern "C" __attribute__((global)) void NAME(uint16_t* out, uint16_t* residual_out, const uint16_t* in,     \
                                               const uint16_t* residual, const uint16_t* weight,              \
                                               const uint16_t* bias, float eps) {                             \
    HIPASM_KERNEL_BODY((hipasm::kernels::detail::preloaded<hipasm::kernels::layernorm<CFG>>), out, residual_out, in, residual, weight, bias, eps); \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include "norm_host.hpp"
namespace hipasm::kernels {
struct layernorm_args {
  uint64_t out = 0, residual_out = 0, in = 0, residual = 0, weight = 0, bias = 0;  // device addresses
  float eps = 1e-5f;
  uint32_t rows = 0;
};
template <norm_config C>
rt::launch_report launch_layernorm(rt::device& dev, rt::module& m, std::string_view kernel, const layernorm_args& a,
                                   const rt::launch_options& opts = {}) {
  detail::check_norm_launch(C, a.rows, a.out, a.in, a.weight, C.residual ? a.residual : 1,
                            C.residual ? a.residual_out : 1, a.bias);
  rt::kernel_args args;
  args.add(a.out).add(a.residual_out).add(a.in).add(a.residual).add(a.weight).add(a.bias).add(a.eps);
  return dev.launch(m, kernel, {a.rows, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
