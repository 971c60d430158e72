// Host launch of the bf16 GEMM (gemm_bf16.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_BF16_KERNEL(...)
//   gemm_bf16_launch(*dev, *mod, {"gemm_even", cfg}, C.addr(), A.addr(), B.addr(), M, N, K);
//
// A split_k > 1 kernel runs split_k workgroups along z whose f32 partial sums are atomic adds:
// the launch zeroes C first. With out_bf16 the sums go to an f32 workspace (M x N floats: the
// `workspace` argument, or one the launch allocates) and `<name>_to_bf16` rounds them into C. Give the kernel compiled with odd_k = true as `odd` to accept any K; without it an odd K is
// an rt::error (the dword loads of the fast variant need dword-aligned rows).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gemm_bf16.hpp"
#include <hipasm/sim/launcher.hpp>

namespace hipasm::kernels {

struct gemm_bf16_kernel_ref {
  std::string name;          // the kernel's symbol in the module
  gemm_bf16_config config;   // the configuration it was compiled with
};

// C (M x N, f32 or bf16 as the kernel's config) = A (M x K bf16) * B (N x K bf16)^T; with the
// config's a_km, A is stored K x M (C = A^T-stored * ...), with b_kn, B is stored K x N (C = A * B).
inline rt::launch_report gemm_bf16_launch(rt::device& dev, rt::module& mod, const gemm_bf16_kernel_ref& even,
                                          uint64_t c, uint64_t a, uint64_t b, uint32_t M, uint32_t N, uint32_t K,
                                          const rt::launch_options& opts = {},
                                          const gemm_bf16_kernel_ref* odd = nullptr, uint64_t workspace = 0) {
  if (M == 0 || N == 0 || K == 0) throw rt::error("gemm_bf16: M, N and K must be at least 1");
  if (uint64_t(M) * K * 2 >= (1ull << 31) || uint64_t(N) * K * 2 >= (1ull << 31) ||
      uint64_t(M) * N * 4 >= (1ull << 31))
    throw rt::error("gemm_bf16: each tensor must be below 2 GiB (32-bit buffer offsets)");
  const gemm_bf16_config& ec = even.config;
  if (ec.a_km && M % 2 != 0) throw rt::error("gemm_bf16: A stored K x M (a_km) needs an even M (dword-aligned rows)");
  if (ec.b_kn && N % 2 != 0) throw rt::error("gemm_bf16: B stored K x N (b_kn) needs an even N (dword-aligned rows)");
  const gemm_bf16_kernel_ref* k = &even;
  // K-contiguous operands (A M x K, B N x K) with an odd K need the element-wise loads
  if (K % 2 != 0 && !(ec.a_km && ec.b_kn) && !ec.odd_k) {
    if (!odd) throw rt::error("gemm_bf16: odd K needs a kernel compiled with odd_k = true");
    if (odd->config.a_km != ec.a_km || odd->config.b_kn != ec.b_kn || odd->config.out_bf16 != ec.out_bf16 ||
        odd->config.split_k != ec.split_k)
      throw rt::error("gemm_bf16: the odd_k kernel must have the same layouts (a_km, b_kn), output type and split_k");
    k = odd;
  }
  const gemm_bf16_config& cf = k->config;
  const bool via_workspace = cf.split_k > 1 && cf.out_bf16;
  std::optional<rt::buffer<float>> own_ws;
  if (via_workspace && !workspace) workspace = own_ws.emplace(dev, size_t(M) * N).addr();
  const uint64_t sums = via_workspace ? workspace : c;
  if (cf.split_k > 1) {
    // the split-K partial sums are atomic adds: they start at zero (a host copy, outside the
    // kernel's time)
    const std::vector<uint32_t> zeros(size_t(M) * N, 0u);
    dev.copy_to_device(sums, zeros.data(), zeros.size() * 4);
  }
  rt::kernel_args args;
  args.add(sums).add(a).add(b).add(M).add(N).add(K);
  rt::launch_report rep = dev.launch(mod, k->name, {cf.grid_x(N), cf.grid_y(M), cf.grid_z()}, {cf.threads(), 1, 1}, args, opts);
  if (!via_workspace) return rep;
  // bf16 output of a split-K kernel: the rounding pass over the f32 sums
  const uint32_t count = M * N;
  rt::kernel_args cargs;
  cargs.add(c).add(workspace).add(count);
  rt::launch_report conv = dev.launch(mod, k->name + "_to_bf16",
                                      {(count + detail::gemm_to_bf16_per_group - 1) / detail::gemm_to_bf16_per_group, 1, 1},
                                      {detail::gemm_to_bf16_threads, 1, 1}, cargs, opts);
  rep.diagnostics.insert(rep.diagnostics.end(), conv.diagnostics.begin(), conv.diagnostics.end());
  rep.warnings.insert(rep.warnings.end(), conv.warnings.begin(), conv.warnings.end());
  rep.instructions += conv.instructions;
  rep.lane_operations += conv.lane_operations;
  if (rep.profile && conv.profile) {  // the GEMM's profile, its times including the rounding pass
    auto p = std::make_shared<rt::profile>(*rep.profile);
    p->time_us += conv.profile->time_us;
    p->time_us_peak += conv.profile->time_us_peak;
    p->time_us_sustained += conv.profile->time_us_sustained;
    rep.profile = p;
  }
  return rep;
}

}  // namespace hipasm::kernels
