// Host launch of the quantized GEMMs (gemm_quant.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_QUANT_KERNEL(...)
//   gemm_quant_launch(*dev, *mod, {"gemm_fp8_token", cfg}, C, A, B, sa, sb, M, N, K);
//
// C (M x N bf16), A (M x K 8-bit), B (N x K 8-bit), sa / sb the f32 scales in the layout of the
// kernel's quant_scale (gemm_quant.hpp); device addresses. Give the kernel compiled with
// any_k = true as `any_k` to accept a K that is not a multiple of 4; without it such a K is an
// rt::error (the DMA tile copies need dword-aligned rows).
#pragma once
#include <cstdint>
#include <string>

#include "gemm_quant.hpp"
#include <hipasm/sim/launcher.hpp>

namespace hipasm {

struct gemm_quant_kernel_ref {
  std::string name;          // the kernel's symbol in the module
  gemm_quant_config config;  // the configuration it was compiled with
};

// Elements of the scale tensors a launch of `c` reads (the sizes the caller must allocate).
inline uint64_t gemm_quant_sa_count(const gemm_quant_config& c, uint32_t M, uint32_t K) {
  return c.scale == quant_scale::block128 ? uint64_t((K + 127) / 128) * M : c.scale == quant_scale::per_token ? M : 1;
}
inline uint64_t gemm_quant_sb_count(const gemm_quant_config& c, uint32_t N, uint32_t K) {
  return c.scale == quant_scale::block128 ? uint64_t((N + 127) / 128) * ((K + 127) / 128)
                                          : c.scale == quant_scale::per_token ? N : 1;
}

inline rt::launch_report gemm_quant_launch(rt::device& dev, rt::module& mod, const gemm_quant_kernel_ref& fast,
                                           uint64_t c, uint64_t a, uint64_t b, uint64_t sa, uint64_t sb, uint32_t M,
                                           uint32_t N, uint32_t K, const rt::launch_options& opts = {},
                                           const gemm_quant_kernel_ref* any_k = nullptr) {
  if (M == 0 || N == 0 || K == 0) throw rt::error("gemm_quant: M, N and K must be at least 1");
  if (uint64_t(M) * K >= (1ull << 31) || uint64_t(N) * K >= (1ull << 31) || uint64_t(M) * N * 2 >= (1ull << 31) ||
      gemm_quant_sa_count(fast.config, M, K) * 4 >= (1ull << 31))
    throw rt::error("gemm_quant: each tensor must be below 2 GiB (32-bit buffer offsets)");
  const gemm_quant_kernel_ref* k = &fast;
  if (K % 4 != 0 && !fast.config.any_k) {
    if (!any_k) throw rt::error("gemm_quant: K not a multiple of 4 needs a kernel compiled with any_k = true");
    if (any_k->config.type != fast.config.type || any_k->config.scale != fast.config.scale)
      throw rt::error("gemm_quant: the any_k kernel must have the same type and scales");
    k = any_k;
  }
  const gemm_quant_config& cf = k->config;
  rt::kernel_args args;
  args.add(c).add(a).add(b).add(sa).add(sb).add(M).add(N).add(K);
  return dev.launch(mod, k->name, {cf.grid_x(N), cf.grid_y(M), 1}, {cf.threads(), 1, 1}, args, opts);
}

}  // namespace hipasm
