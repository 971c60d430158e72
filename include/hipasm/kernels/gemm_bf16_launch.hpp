// Host launch of the bf16 GEMM (gemm_bf16.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_BF16_KERNEL(...)
//   launch_gemm_bf16(*dev, *mod, {"gemm_even", cfg}, C.addr(), A.addr(), B.addr(), M, N, K);
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
#include "gemm_launch_common.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct gemm_bf16_kernel_ref {
  std::string name;          // the kernel's symbol in the module
  gemm_bf16_config config;   // the configuration it was compiled with
};

// C (M x N, f32 or bf16 as the kernel's config) = A (M x K bf16) * B (N x K bf16)^T; with the
// config's a_km, A is stored K x M (C = A^T-stored * ...), with b_kn, B is stored K x N (C = A * B).
inline rt::launch_report launch_gemm_bf16(rt::device& dev, rt::module& mod, const gemm_bf16_kernel_ref& even,
                                          uint64_t c, uint64_t a, uint64_t b, uint32_t M, uint32_t N, uint32_t K,
                                          const gemm_bf16_kernel_ref* odd = nullptr, uint64_t workspace = 0,
                                          const rt::launch_options& opts = {}) {
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
  if (!cf.k_tail && K % cf.bk != 0)
    throw rt::error("gemm_bf16: kernel '" + k->name + "' has no K tail (k_tail = false): K (" + std::to_string(K) +
                    ") must be a multiple of its bk (" + std::to_string(cf.bk) + ")");
  if (cf.bf16_atomics && N % 2 != 0)
    throw rt::error("gemm_bf16: kernel '" + k->name + "' adds bf16 pairs (bf16_atomics): N (" + std::to_string(N) +
                    ") must be even");
  const bool via_workspace = cf.split_k > 1 && cf.out_bf16 && !cf.bf16_atomics;
  std::optional<rt::buffer<float>> own_ws;
  if (via_workspace && !workspace) workspace = own_ws.emplace(dev, size_t(M) * N).addr();
  const uint64_t sums = via_workspace ? workspace : c;
  if (cf.split_k > 1) {
    // the split-K partial sums are atomic adds: they start at zero (a host copy, outside the
    // kernel's time)
    const std::vector<uint8_t> zeros(size_t(M) * N * (cf.bf16_atomics ? 2 : 4), 0u);
    dev.copy_to_device(sums, zeros.data(), zeros.size());
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
  rt::append_report(rep, conv, false);
  return rep;
}

// Rows of C that `big` should compute when the rest run with `rest` (a tile of fewer rows) in a
// second dispatch, on a device of `cus` CUs with one workgroup per CU (detail::gemm_balanced_rows).
constexpr uint32_t gemm_bf16_balanced_rows(const gemm_bf16_config& big, const gemm_bf16_config& rest, uint32_t M, uint32_t N,
                                           uint32_t cus) {
  return detail::gemm_balanced_rows(big.bm, big.bn, rest.bm, rest.bn, M, N, cus);
}

// launch_gemm_bf16 with C's rows split between `big` and `rest` (gemm_bf16_balanced_rows over
// `cus` CUs): rows [0, r) with big, [r, M) with rest, each a launch of its own on the
// sub-matrices (A's and C's rows offset). Both kernels must take A M x K (not a_km: a K x M A's
// rows are not a pointer offset), the same B layout and output type, and no split-K; an odd K
// runs `odd` alone (launch_gemm_bf16). The report: the first dispatch's, with both dispatches'
// times, operations and time-weighted MFMA busy fraction.
inline rt::launch_report launch_gemm_bf16_balanced(rt::device& dev, rt::module& mod, const gemm_bf16_kernel_ref& big,
                                                   const gemm_bf16_kernel_ref& rest, uint64_t c, uint64_t a, uint64_t b,
                                                   uint32_t M, uint32_t N, uint32_t K, uint32_t cus,
                                                   const gemm_bf16_kernel_ref* odd = nullptr,
                                                   const rt::launch_options& opts = {}) {
  const gemm_bf16_config &bc = big.config, &rc = rest.config;
  if (bc.a_km || rc.a_km) throw rt::error("launch_gemm_bf16_balanced: A must be stored M x K (no a_km)");
  if (bc.b_kn != rc.b_kn || bc.out_bf16 != rc.out_bf16)
    throw rt::error("launch_gemm_bf16_balanced: big and rest must have the same B layout (b_kn) and output type");
  if (bc.split_k != 1 || rc.split_k != 1) throw rt::error("launch_gemm_bf16_balanced: no split-K kernels");
  const uint32_t rows = K % 2 != 0 && !bc.b_kn ? M : gemm_bf16_balanced_rows(bc, rc, M, N, cus);
  const uint64_t out_eb = bc.out_bf16 ? 2 : 4;
  return detail::launch_rows_split(
      rows, M, [&](uint32_t m) { return launch_gemm_bf16(dev, mod, big, c, a, b, m, N, K, odd, 0, opts); },
      [&](uint32_t r) {
        return launch_gemm_bf16(dev, mod, rest, c + uint64_t(r) * N * out_eb, a + uint64_t(r) * K * 2, b, M - r, N, K, odd,
                                0, opts);
      });
}

}  // namespace hipasm::kernels
