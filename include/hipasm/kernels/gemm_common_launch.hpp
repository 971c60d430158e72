// Host side shared by gemm_bf16_launch.hpp and gemm_quant_launch.hpp: split-K with bf16
// output's second launch (gemm_common.hpp's gemm_sum_to_bf16_kernel, defined as
// `<gemm name>_to_bf16` next to the GEMM by its macro).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "gemm_common.hpp"
#include <hipasm/sim/launcher.hpp>

namespace hipasm::detail {

// C (count bf16) = the sum of `slices` f32 slices of count elements at ws, rounded; its report
// (diagnostics, counts, profile times) is added to the GEMM's `rep`: the GEMM's time includes
// the pass.
inline void gemm_launch_to_bf16(rt::device& dev, rt::module& mod, const std::string& gemm_name, uint64_t c,
                                uint64_t ws, uint32_t count, uint32_t slices, const rt::launch_options& opts,
                                rt::launch_report& rep) {
  rt::kernel_args args;
  args.add(c).add(ws).add(count).add(slices);
  rt::launch_report conv = dev.launch(mod, gemm_name + "_to_bf16",
                                      {(count + gemm_to_bf16_per_group - 1) / gemm_to_bf16_per_group, 1, 1},
                                      {gemm_to_bf16_threads, 1, 1}, args, opts);
  rep.diagnostics.insert(rep.diagnostics.end(), conv.diagnostics.begin(), conv.diagnostics.end());
  rep.warnings.insert(rep.warnings.end(), conv.warnings.begin(), conv.warnings.end());
  rep.instructions += conv.instructions;
  rep.lane_operations += conv.lane_operations;
  if (rep.profile && conv.profile) {
    auto p = std::make_shared<rt::profile>(*rep.profile);
    p->time_us += conv.profile->time_us;
    p->time_us_peak += conv.profile->time_us_peak;
    p->time_us_sustained += conv.profile->time_us_sustained;
    p->dispatch_overhead_us += conv.profile->dispatch_overhead_us;
    p->flops += conv.profile->flops;
    p->tflops = p->flops / (p->time_us * 1e6);
    p->hbm_bytes += conv.profile->hbm_bytes;
    p->hbm_gbps = double(p->hbm_bytes) / (p->time_us * 1e3);
    if (std::getenv("HIPASM_GEMM_TO_BF16_TIME")) std::fprintf(stderr, "to_bf16 pass: %.2f us\n", conv.profile->time_us);
    rep.profile = p;
  }
}

}  // namespace hipasm::detail
