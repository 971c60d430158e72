// bench_kernel_mxfp4_quant [AITER_DIR]: tokens x d bf16 rows -> MXFP4 (fp4 e2m1 pairs and an
// E8M0 scale per 32 elements) on the MI355X model (gfx950 only: the v_cvt_scalef32_* conversions).
// aiter's MXFP4 quantization is Triton (aiter/utility/fp4_utils.py dynamic_mxfp4_quant) and HIP
// (csrc/kernels/quant_kernels.cu); hsa/gfx950 has no asm counterpart: aiter_us=none.
// hbm_pct: hbm_gbps over the MI355X model's streaming bandwidth.
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/mxfp4_quant.hpp>

#include "bench_common.hpp"
#include "kernels/mxfp4_quant_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::mxfp4_quant_config C>
void row(const char* name, uint32_t tokens) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const std::string shape = std::to_string(tokens) + "x" + std::to_string(C.d);
  if (!selected(shape)) return;
  const size_t n = size_t(tokens) * C.d;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(n, 0x3f80));  // 1.0: timing does not depend on values
  rt::buffer<uint8_t> Q(d, n / 2), S(d, n / 32);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(hipasm::kernels::mxfp4_quant_groups(C, tokens), "mi355x");
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_mxfp4_quant<C>(d, m, name,
                                                    {.q = Q.addr(), .scales = S.addr(), .in = X.addr(), .rows = tokens}, o);
  print_line(name, shape, from(rep), 0, double(n) * 2.5 + double(n) / 32, true, "mi355x");  // bf16 in, fp4, E8M0
}
}  // namespace

int main() {
  for (uint32_t tokens : {1u, 32u, 4096u, 16384u}) {
    row<bench_cfg::mxfp4_4096>("quant_mxfp4_4096", tokens);
    row<bench_cfg::mxfp4_7168>("quant_mxfp4_7168", tokens);
  }
  return 0;
}
