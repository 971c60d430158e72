// Host launch of the MXFP4 GEMM (gemm_fp4.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI355X (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_FP4_KERNEL(...) for gfx950
//   gemm_fp4_launch(*dev, *mod, {"gemm_fp4_32x64", cfg}, C, A, B, sa, sb, M, N, K);
//
// C (M x N bf16), A (M x K/2 bytes), B (N x K/2 bytes), sa (M x K/32 E8M0 bytes), sb (N x K/32);
// device addresses. K must be a multiple of gemm_fp4_k_step (256), else an rt::error.
#pragma once
#include <cstdint>
#include <string>

#include "gemm_fp4.hpp"
#include <hipasm/sim/launcher.hpp>

namespace hipasm::kernels {

struct gemm_fp4_kernel_ref {
  std::string name;        // the kernel's symbol in the module
  gemm_fp4_config config;  // the configuration it was compiled with
};

inline rt::launch_report gemm_fp4_launch(rt::device& dev, rt::module& mod, const gemm_fp4_kernel_ref& k, uint64_t c,
                                         uint64_t a, uint64_t b, uint64_t sa, uint64_t sb, uint32_t M, uint32_t N,
                                         uint32_t K, const rt::launch_options& opts = {}) {
  if (M == 0 || N == 0 || K == 0) throw rt::error("gemm_fp4: M, N and K must be at least 1");
  if (K % gemm_fp4_k_step != 0)
    throw rt::error("gemm_fp4: K must be a multiple of " + std::to_string(gemm_fp4_k_step) + " (the kernel's K step), got " +
                    std::to_string(K));
  if (uint64_t(M) * K / 2 >= (1ull << 31) || uint64_t(N) * K / 2 >= (1ull << 31) || uint64_t(M) * N * 2 >= (1ull << 31))
    throw rt::error("gemm_fp4: each tensor must be below 2 GiB (32-bit buffer offsets)");
  if (!c || !a || !b || !sa || !sb) throw rt::error("gemm_fp4: a null tensor address");
  const gemm_fp4_config& cf = k.config;
  rt::kernel_args args;
  args.add(c).add(a).add(b).add(sa).add(sb).add(M).add(N).add(K);
  return dev.launch(mod, k.name, {cf.grid_x(N), cf.grid_y(M), 1}, {cf.threads(), 1, 1}, args, opts);
}

}  // namespace hipasm::kernels
