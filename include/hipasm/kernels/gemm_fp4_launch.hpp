// Host launch of the MXFP4 GEMM (gemm_fp4.hpp) through hipasm::rt: the same call drives
// hipasm-sim and a real MI355X (rt::device::open's backend).
//
//   auto mod = dev->load_file("gemm.co");   // built from HIPASM_GEMM_FP4_KERNEL(...) for gfx950
//   launch_gemm_fp4(*dev, *mod, {"gemm_fp4_32x64", cfg}, C, A, B, sa, sb, M, N, K);
//
// C (M x N bf16), A (M x K/2 bytes), B (N x K/2 bytes), sa (M x K/32 E8M0 bytes), sb (N x K/32);
// device addresses. K must be a multiple of gemm_fp4_k_step (256), else an rt::error. A kernel
// compiled with b_shuffled = true takes B and sb as gemm_fp4_preshuffle_b returns them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm_fp4.hpp"
#include <hipasm/rt/launcher.hpp>

namespace hipasm::kernels {

struct gemm_fp4_kernel_ref {
  std::string name;        // the kernel's symbol in the module
  gemm_fp4_config config;  // the configuration it was compiled with
};

// B (N x K/2 bytes) and its scales (N x K/32) in the layout of gemm_fp4_config::b_shuffled: rows
// padded with zeros to a multiple of 32; per 32-row block nb and 256-k step t, four runs of 1 KiB
// (s = 0..3), run s holding in its 16-byte slot l (lane l) bytes 64 (l / 32) + 16 s .. + 15 of the
// step's 128 bytes of row 32 nb + l % 32; then, per block and step, 64 scale dwords, dword l the
// scale bytes 4 (l / 32) .. + 3 of the step's 8 of that row.
struct gemm_fp4_b_shuffled {
  std::vector<uint8_t> q, scales;
};
inline gemm_fp4_b_shuffled gemm_fp4_preshuffle_b(const std::vector<uint8_t>& q, const std::vector<uint8_t>& scales,
                                                 uint32_t N, uint32_t K) {
  if (K == 0 || K % gemm_fp4_k_step != 0)
    throw std::invalid_argument("gemm_fp4_preshuffle_b: K must be a positive multiple of 256, got " + std::to_string(K));
  if (q.size() != size_t(N) * K / 2)
    throw std::invalid_argument("gemm_fp4_preshuffle_b: q must hold N * K / 2 bytes");
  if (scales.size() != size_t(N) * K / 32)
    throw std::invalid_argument("gemm_fp4_preshuffle_b: scales must hold N * K / 32 bytes");
  const uint32_t blocks = (N + 31) / 32, steps = K / gemm_fp4_k_step;
  gemm_fp4_b_shuffled r{std::vector<uint8_t>(size_t(blocks) * 32 * K / 2, 0), std::vector<uint8_t>(size_t(blocks) * 32 * K / 32, 0)};
  for (uint32_t nb = 0; nb < blocks; ++nb)
    for (uint32_t t = 0; t < steps; ++t)
      for (uint32_t l = 0; l < 64; ++l) {
        const uint32_t row = 32 * nb + l % 32;
        if (row >= N) continue;
        const size_t run = (size_t(nb) * steps + t) * 4096;
        for (uint32_t s = 0; s < 4; ++s)
          for (uint32_t b = 0; b < 16; ++b)
            r.q[run + 1024 * s + 16 * l + b] = q[size_t(row) * (K / 2) + 128 * t + 64 * (l / 32) + 16 * s + b];
        for (uint32_t b = 0; b < 4; ++b)
          r.scales[(size_t(nb) * steps + t) * 256 + 4 * l + b] = scales[size_t(row) * (K / 32) + 8 * t + 4 * (l / 32) + b];
      }
  return r;
}

inline rt::launch_report launch_gemm_fp4(rt::device& dev, rt::module& mod, const gemm_fp4_kernel_ref& k, uint64_t c,
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
  if (cf.groups > 0 && K % (8 * gemm_fp4_k_step) != 0)
    throw rt::error("gemm_fp4: a configuration with groups (persistent workgroups) takes K a multiple of " +
                    std::to_string(8 * gemm_fp4_k_step) + ", got " + std::to_string(K));
  rt::kernel_args args;
  args.add(c).add(a).add(b).add(sa).add(sb).add(M).add(N).add(K);
  // (groups: that many workgroups at most, each walking its tiles)
  const rt::dim3 grid = cf.groups > 0 ? rt::dim3{std::min(cf.tiles(M, N), cf.groups), 1, 1}
                                      : rt::dim3{cf.grid_x(N), cf.grid_y(M), 1};
  return dev.launch(mod, k.name, grid, {cf.threads(), 1, 1}, args, opts);
}

}  // namespace hipasm::kernels
