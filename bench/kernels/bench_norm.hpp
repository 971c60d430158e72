// bench_kernel_rmsnorm / bench_kernel_layernorm: tokens x hidden shapes, with and without the
// fused residual add. aiter has no asm kernel for a single-GPU norm (its allreduce_*norm code
// objects fuse a multi-GPU all-reduce): aiter_us=none.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/layernorm.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include "bench_common.hpp"
#include "kernels/norm_bench_configs.hpp"

namespace bench {
template <bool Layer, hipasm::kernels::norm_config C>
void norm_row(const char* kernel, const std::string& name, uint32_t rows) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const std::string shape =
      std::to_string(rows) + "x" + std::to_string(C.hidden) + (C.residual ? "+residual" : "") + (C.f16 ? " f16" : "");
  if (!selected(shape)) return;
  const size_t n = size_t(rows) * C.hidden;
  // 1.0 in bf16 / f16: timing does not depend on values
  const uint16_t one = C.f16 ? 0x3c00 : 0x3f80;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(n, one)), R(d, std::vector<uint16_t>(n, one)),
      Y(d, n), RO(d, n), W(d, std::vector<uint16_t>(C.hidden, one)), B(d, std::vector<uint16_t>(C.hidden, 0));
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(rows);
  rt::launch_options o;
  o.profile = &p;
  rt::launch_report rep;
  if constexpr (Layer)
    rep = hipasm::kernels::launch_layernorm<C>(d, m, name, {.out = Y.addr(), .residual_out = RO.addr(), .in = X.addr(),
                                                            .residual = R.addr(), .weight = W.addr(), .bias = B.addr(), .rows = rows}, o);
  else
    rep = hipasm::kernels::launch_rmsnorm<C>(d, m, name, {.out = Y.addr(), .residual_out = RO.addr(), .in = X.addr(),
                                                          .residual = R.addr(), .weight = W.addr(), .rows = rows}, o);
  // in + out (+ residual in and out) + weight (+ bias)
  const double bytes = double(n) * 2 * (C.residual ? 4 : 2) + double(C.hidden) * 2 * (Layer ? 2 : 1);
  print_line(kernel, shape, from(rep), 0, bytes);
}

template <bool Layer>
int norm_main(const char* kernel) {
  const std::string k = kernel;
  for (uint32_t rows : {1u, 32u, 4096u}) {
    norm_row<Layer, bench_cfg::h4096>(kernel, k + "_4096", rows);
    norm_row<Layer, bench_cfg::h4096_res>(kernel, k + "_4096_res", rows);
    norm_row<Layer, bench_cfg::h8192>(kernel, k + "_8192", rows);
    norm_row<Layer, bench_cfg::h8192_res>(kernel, k + "_8192_res", rows);
    norm_row<Layer, bench_cfg::h4096_f16>(kernel, k + "_4096_f16", rows);
  }
  return 0;
}
}  // namespace bench
