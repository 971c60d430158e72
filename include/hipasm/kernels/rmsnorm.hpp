// RMSnorm of bf16 rows with an optional fused residual add (f32 math):
//   x = in (+ residual);  residual_out = bf16(x) (with the residual add);
//   out = bf16(x / sqrt(mean(x^2) + eps) * weight)
// One workgroup of C.waves waves per row, the row in registers, one pass (norm.hpp).
//
// Device side (a .hip compiled by hipasm_add_code_object):
//   constexpr hipasm::kernels::norm_config cfg{.hidden = 4096, .residual = true, .waves = 4};
//   HIPASM_RMSNORM_KERNEL(rmsnorm_4096, cfg)
// Host side (either rt backend, the same call):
//   hipasm::kernels::launch_rmsnorm<cfg>(dev, module, "rmsnorm_4096",
//       {.out = ..., .residual_out = ..., .in = ..., .residual = ..., .weight = ..., .eps = 1e-6f, .rows = n});
// Tensors are row-major [rows][hidden] bf16 (uint16_t bits), weight [hidden]; without the
// residual add, residual / residual_out are not read or written (may be null). Rows: any count
// >= 1 (the grid); rows * hidden * 2 must stay below 4 GiB (32-bit row offsets).
//
// Fused with per-token dynamic quantization (aiter's rmsnorm2d_fwd_with_dynamicquant / _add_):
//   HIPASM_RMSNORM_QUANT_KERNEL(rmsnorm_fp8_4096, cfg, hipasm::kernels::quant_type::fp8)
//   hipasm::kernels::launch_rmsnorm_quant<cfg>(dev, module, "rmsnorm_fp8_4096",
//       {.q = ..., .scale = ..., .residual_out = ..., .in = ..., .residual = ..., .weight = ..., .eps, .rows});
// q [rows][hidden] fp8 (e4m3, the target's format) / int8 and scale [rows] f32 as dynamic_quant.hpp defines them,
// of the f32 y = x / sqrt(mean(x^2) + eps) * weight (never rounded to bf16): the A operand and
// per-token scales of gemm_quant.hpp. hidden must be a multiple of 4.
#pragma once
#include "norm.hpp"

namespace hipasm::kernels {

template <norm_config C>
constexpr void rmsnorm(builder J, arg<uint16_t*> out, arg<uint16_t*> residual_out, arg<const uint16_t*> in,
                       arg<const uint16_t*> residual, arg<const uint16_t*> weight, arg<float> eps) {
  detail::norm_rows<detail::norm_kind::rms, C>(J, out, residual_out, in, residual, weight, nullptr, eps);
}

template <norm_config C, quant_type Q>
constexpr void rmsnorm_quant(builder J, arg<uint8_t*> q, arg<float*> scale, arg<uint16_t*> residual_out,
                             arg<const uint16_t*> in, arg<const uint16_t*> residual, arg<const uint16_t*> weight,
                             arg<float> eps) {
  static_assert(C.hidden % 4 == 0, "hipasm rmsnorm_quant: hidden must be a multiple of 4 (each q row starts on a dword)");
  static_assert(Q != quant_type::bf8, "hipasm rmsnorm_quant: the output is fp8 (the target's e4m3: fnuz on gfx942, OCP on gfx950) or i8");
  constexpr auto out = Q == quant_type::fp8 ? detail::norm_out::fp8 : detail::norm_out::i8;
  const gpr<dtype::u64> s = scale;
  detail::norm_rows<detail::norm_kind::rms, C, out>(J, q, residual_out, in, residual, weight, nullptr, eps, &s);
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr norm_config).
#define HIPASM_RMSNORM_KERNEL(NAME, CFG)                                                                  \
  extern "C" __attribute__((global)) void NAME(uint16_t* out, uint16_t* residual_out, const uint16_t* in, \
                                               const uint16_t* residual, const uint16_t* weight, float eps) { \
    HIPASM_KERNEL_BODY((hipasm::kernels::detail::preloaded<hipasm::kernels::rmsnorm<CFG>>), out, residual_out, in, residual, weight, eps);     \
  }

// The fused rmsnorm + dynamic quantization kernel NAME: CFG a norm_config, TYPE a hipasm::kernels::quant_type.
#define HIPASM_RMSNORM_QUANT_KERNEL(NAME, CFG, TYPE)                                                        \
  extern "C" __attribute__((global)) void NAME(uint8_t* q, float* scale, uint16_t* residual_out,            \
                                               const uint16_t* in, const uint16_t* residual,               \
                                               const uint16_t* weight, float eps) {                        \
    HIPASM_KERNEL_BODY((hipasm::kernels::rmsnorm_quant<CFG, TYPE>), q, scale, residual_out, in, residual,  \
                       weight, eps);                                                                       \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include "norm_host.hpp"
namespace hipasm::kernels {
struct rmsnorm_args {
  uint64_t out = 0, residual_out = 0, in = 0, residual = 0, weight = 0;  // device addresses
  float eps = 1e-6f;
  uint32_t rows = 0;
};
// Launches the kernel built from C (named `kernel` in module m) over args.rows rows.
template <norm_config C>
rt::launch_report launch_rmsnorm(rt::device& dev, rt::module& m, std::string_view kernel, const rmsnorm_args& a,
                                 const rt::launch_options& opts = {}) {
  detail::check_norm_launch(C, a.rows, a.out, a.in, a.weight, C.residual ? a.residual : 1,
                            C.residual ? a.residual_out : 1, 1);
  rt::kernel_args args;
  args.add(a.out).add(a.residual_out).add(a.in).add(a.residual).add(a.weight).add(a.eps);
  return dev.launch(m, kernel, {a.rows, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
struct rmsnorm_quant_args {
  uint64_t q = 0, scale = 0, residual_out = 0, in = 0, residual = 0, weight = 0;  // device addresses
  float eps = 1e-6f;
  uint32_t rows = 0;
};
template <norm_config C>
rt::launch_report launch_rmsnorm_quant(rt::device& dev, rt::module& m, std::string_view kernel,
                                       const rmsnorm_quant_args& a, const rt::launch_options& opts = {}) {
  detail::check_norm_launch(C, a.rows, a.q, a.in, a.weight, C.residual ? a.residual : 1,
                            C.residual ? a.residual_out : 1, a.scale);
  rt::kernel_args args;
  args.add(a.q).add(a.scale).add(a.residual_out).add(a.in).add(a.residual).add(a.weight).add(a.eps);
  return dev.launch(m, kernel, {a.rows, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
