// Host launch of the quantized GEMMs (gemm_quant.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI300 (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_QUANT_KERNEL(...)
//   launch_gemm_quant(*dev, *mod, {"gemm_fp8_token", cfg}, C, A, B, sa, sb, M, N, K);
//
// C (M x N bf16), A (M x K 8-bit), B (N x K 8-bit), sa / sb the f32 scales in the layout of the
// kernel's quant_scale (gemm_quant.hpp); device addresses. Give the kernel compiled with
// any_k = true as `any_k` to accept a K that is not a multiple of 4; without it such a K is an
// rt::error (the DMA tile copies need dword-aligned rows). Give one compiled with split_k = true
// as `split` to let the launch split K when the C tiles leave CUs idle (small M).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemm_launch_common.hpp"
#include "gemm_quant.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

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

// Split K for `c` on M x N x K (1 unless c.split_k): as many workgroups along K as the GPU's
// `cus` CUs run one a CU (a workgroup with the CU's SIMDs and address path to itself), each with
// at least 8 K units (whole tiles; block128: whole 128-column scale blocks); 1 when fewer than
// two splits fit. A grid that already gives half the CUs a workgroup is not split two a CU: the
// splits' f32 sums (written, then read by the last arrival) cost more than the idle CUs give
// (bench_kernel_gemm_fp8 / _i8 with GEMM_QUANT_BENCH_SPLITS=n compares the counts). Of those
// counts the largest that divides the units evenly, if one of 2 or more does: the parts' K walks
// end together, and where the loads of B bound the GEMM (decode M) the fewer CUs draw less power
// for the same HBM rate (bench_kernel_gemm_fp8 32x3072x7168: 4 splits of 56 K blocks ran faster
// than 6, which lowered the model's clock).
inline uint32_t gemm_quant_splits(const gemm_quant_config& c, uint32_t M, uint32_t N, uint32_t K, uint32_t cus = 304) {
  if (!c.split_k) return 1;
  const uint64_t tiles = uint64_t(c.grid_x(N)) * c.grid_y(M);
  const uint32_t unit = c.scale == quant_scale::block128 ? 128 : c.bk;
  const uint32_t units = (K + unit - 1) / unit;
  uint64_t s = cus / tiles;
  if (s > units / 8) s = units / 8;
  for (uint64_t e = s; e >= 2; --e)
    if (units % e == 0) {
      s = e;
      break;
    }
  return s < 2 ? 1 : uint32_t(s);
}

// Workspace of a split-K launch, in floats: the splits' f32 partial sums (splits x M x N), then
// one u32 counter per C tile and wave, which must be zero before the first launch (each launch
// leaves them zero).
inline uint64_t gemm_quant_workspace_count(const gemm_quant_config& c, uint32_t M, uint32_t N, uint32_t splits) {
  return uint64_t(splits) * M * N + uint64_t(c.grid_x(N)) * c.grid_y(M) * c.wm * c.wn;
}

// C = the GEMM of `fast` (or `any_k`'s for a K not a multiple of 4). Split K: a `split` kernel
// (split_k = true, same type and scales) runs instead of `fast` when gemm_quant_splits picks more
// than one split for the device's CUs, or `splits` (> 0) does; a split_k `fast` always splits. Its workspace
// (gemm_quant_workspace_count floats) is `workspace`, or one the launch allocates and zeroes.
inline rt::launch_report launch_gemm_quant(rt::device& dev, rt::module& mod, const gemm_quant_kernel_ref& fast,
                                           uint64_t c, uint64_t a, uint64_t b, uint64_t sa, uint64_t sb, uint32_t M,
                                           uint32_t N, uint32_t K, const gemm_quant_kernel_ref* any_k = nullptr,
                                           const gemm_quant_kernel_ref* split = nullptr, uint32_t splits = 0,
                                           uint64_t workspace = 0, const rt::launch_options& opts = {}) {
  if (M == 0 || N == 0 || K == 0) throw rt::error("gemm_quant: M, N and K must be at least 1");
  if (uint64_t(M) * K >= (1ull << 31) || uint64_t(N) * K >= (1ull << 31) || uint64_t(M) * N * 2 >= (1ull << 31) ||
      gemm_quant_sa_count(fast.config, M, K) * 4 >= (1ull << 31))
    throw rt::error("gemm_quant: each tensor must be below 2 GiB (32-bit buffer offsets)");
  auto same_op = [&](const gemm_quant_kernel_ref& o) {
    return o.config.type == fast.config.type && o.config.scale == fast.config.scale;
  };
  const gemm_quant_kernel_ref* k = &fast;
  if (K % 4 != 0 && !fast.config.any_k) {
    if (!any_k) throw rt::error("gemm_quant: K not a multiple of 4 needs a kernel compiled with any_k = true");
    if (!same_op(*any_k)) throw rt::error("gemm_quant: the any_k kernel must have the same type and scales");
    k = any_k;
    if (splits > 1) throw rt::error("gemm_quant: split K needs a K that is a multiple of 4");
    splits = 1;
  } else {
    const gemm_quant_kernel_ref* sk = fast.config.split_k ? &fast : split;
    if (sk && !sk->config.split_k) throw rt::error("gemm_quant: the split kernel must be compiled with split_k = true");
    if (sk && !same_op(*sk)) throw rt::error("gemm_quant: the split kernel must have the same type and scales");
    if (splits == 0) splits = sk ? gemm_quant_splits(sk->config, M, N, K, dev.compute_units()) : 1;
    if (splits > 1 && !sk) throw rt::error("gemm_quant: split K needs a kernel compiled with split_k = true");
    if (sk && (splits > 1 || sk == &fast)) k = sk;
  }
  const gemm_quant_config& cf = k->config;
  const uint64_t ws_count = cf.split_k ? gemm_quant_workspace_count(cf, M, N, splits) : 0;
  if (ws_count * 4 >= (1ull << 31)) throw rt::error("gemm_quant: the split-K workspace must be below 2 GiB");
  std::optional<rt::buffer<float>> own_ws;
  if (cf.split_k && !workspace) {
    // (zeroed by a host copy, outside the kernel's time; the kernel keeps its counters zero)
    workspace = own_ws.emplace(dev, std::vector<float>(ws_count, 0.0f)).addr();
  }
  rt::kernel_args args;
  args.add(c).add(a).add(b).add(sa).add(sb).add(M).add(N).add(K).add(splits).add(workspace);
  // (groups: that many workgroups at most, each walking its tiles)
  const rt::dim3 grid = cf.groups > 0 ? rt::dim3{std::min(cf.tiles(M, N), cf.groups), 1, 1}
                                      : rt::dim3{cf.grid_x(N), cf.grid_y(M), cf.split_k ? splits : 1};
  return dev.launch(mod, k->name, grid, {cf.threads(), 1, 1}, args, opts);
}

// launch_gemm_quant with C's rows split between `big` and `rest` (detail::gemm_balanced_rows over
// `cus` CUs): rows [0, r) with big, [r, M) with rest, each a launch of its own on the
// sub-matrices (A's, C's and per-token sa's rows offset). A grid of big tiles whose last round is
// part-filled (MI300X: 8192^2 in 256x256 tiles, 3.4 rounds of 304) then ends with a round of
// smaller tiles. Both kernels: the same type and scales (per_token or per_tensor: block128's sa
// [K/128][M] has no row offset), no split_k, no groups, K a multiple of 4 unless any_k. The
// report: the first dispatch's, with both dispatches' times, operations and time-weighted MFMA
// busy fraction.
inline rt::launch_report launch_gemm_quant_balanced(rt::device& dev, rt::module& mod, const gemm_quant_kernel_ref& big,
                                                    const gemm_quant_kernel_ref& rest, uint64_t c, uint64_t a, uint64_t b,
                                                    uint64_t sa, uint64_t sb, uint32_t M, uint32_t N, uint32_t K, uint32_t cus,
                                                    const rt::launch_options& opts = {}) {
  const gemm_quant_config &bc = big.config, &rc = rest.config;
  if (bc.type != rc.type || bc.scale != rc.scale)
    throw rt::error("launch_gemm_quant_balanced: big and rest must have the same type and scales");
  if (bc.scale == quant_scale::block128)
    throw rt::error("launch_gemm_quant_balanced: block128 scales (sa [K/128][M] has no row offset): use launch_gemm_quant");
  if (bc.split_k || rc.split_k || bc.groups || rc.groups)
    throw rt::error("launch_gemm_quant_balanced: no split_k or persistent (groups) kernels");
  const uint32_t rows = detail::gemm_balanced_rows(bc.bm, bc.bn, rc.bm, rc.bn, M, N, cus);
  const uint64_t sa_row = bc.scale == quant_scale::per_token ? 4 : 0;
  return detail::launch_rows_split(
      rows, M,
      [&](uint32_t m) { return launch_gemm_quant(dev, mod, big, c, a, b, sa, sb, m, N, K, nullptr, nullptr, 0, 0, opts); },
      [&](uint32_t r) {
        return launch_gemm_quant(dev, mod, rest, c + uint64_t(r) * N * 2, a + uint64_t(r) * K, b, sa + r * sa_row, sb, M - r,
                                 N, K, nullptr, nullptr, 0, 0, opts);
      });
}

}  // namespace hipasm::kernels
