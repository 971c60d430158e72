// bench_kernel_dynamic_quant [AITER_DIR]: tokens x d bf16 rows -> fp8 / int8 q and f32 per-token
// scales, fp8 with a scale per 1x128 block (DeepSeek's activations, quant_fp8_block128_*), and
// rmsnorm (+ residual add) fused with it (rmsnorm_quant). aiter's dynamic per-token
// quant is HIP (csrc/kernels/quant_kernels.cu), its rmsnorm2d_fwd_with_dynamicquant CK; hsa/gfx942
// has no asm counterpart (its allreduce_rmsnorm_qnt fuses a multi-GPU all-reduce): aiter_us=none.
// hbm_pct: hbm_gbps (bytes reaching HBM) over the model's 4000 GB/s.
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include "bench_common.hpp"
#include "kernels/dynamic_quant_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::dynamic_quant_config C>
void row(const char* name, uint32_t tokens) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const std::string shape = std::to_string(tokens) + "x" + std::to_string(C.d);
  if (!selected(shape)) return;
  const size_t n = size_t(tokens) * C.d;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(n, 0x3f80));  // 1.0: timing does not depend on values
  rt::buffer<uint8_t> Q(d, n);
  const uint64_t scales = hipasm::kernels::dynamic_quant_scales(C, tokens);
  rt::buffer<float> S(d, scales);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(tokens);
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_dynamic_quant<C>(
      d, m, name, {.q = Q.addr(), .scale = S.addr(), .in = X.addr(), .tokens = tokens}, o);
  print_line(name, shape, from(rep), 0, double(n) * 3 + double(scales) * 4, true);  // bf16 in, 8-bit q, f32 scales
}
template <hipasm::kernels::norm_config C>
void rq_row(const char* name, uint32_t tokens) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const std::string shape = std::to_string(tokens) + "x" + std::to_string(C.hidden) + "+residual";
  if (!selected(shape)) return;
  const size_t n = size_t(tokens) * C.hidden;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(n, 0x3f80)), R(d, std::vector<uint16_t>(n, 0x3f80)), RO(d, n),
      W(d, std::vector<uint16_t>(C.hidden, 0x3f80));
  rt::buffer<uint8_t> Q(d, n);
  rt::buffer<float> S(d, tokens);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(tokens);
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_rmsnorm_quant<C>(d, m, name,
                                                      {.q = Q.addr(), .scale = S.addr(), .residual_out = RO.addr(),
                                                       .in = X.addr(), .residual = R.addr(), .weight = W.addr(), .rows = tokens},
                                                      o);
  // in, residual in and out (bf16), q, scales, weight
  print_line(name, shape, from(rep), 0, double(n) * 7 + double(tokens) * 4 + double(C.hidden) * 2, true);
}
}  // namespace

int main() {
  for (uint32_t tokens : {1u, 32u, 4096u, 16384u}) {
    row<bench_cfg::fp8_4096>("quant_fp8_4096", tokens);
    row<bench_cfg::fp8_8192>("quant_fp8_8192", tokens);
    row<bench_cfg::fp8_14336>("quant_fp8_14336", tokens);
  }
  for (uint32_t tokens : {32u, 4096u}) {
    row<bench_cfg::i8_4096>("quant_i8_4096", tokens);
    row<bench_cfg::i8_18944>("quant_i8_18944", tokens);
  }
  for (uint32_t tokens : {1u, 32u, 4096u, 16384u}) {
    row<bench_cfg::fp8_block128_7168>("quant_fp8_block128_7168", tokens);
    row<bench_cfg::fp8_block128_18432>("quant_fp8_block128_18432", tokens);
  }
  for (uint32_t tokens : {32u, 4096u, 16384u}) {
    rq_row<bench_cfg::rq_4096_res>("rmsnorm_quant_fp8_4096", tokens);
    rq_row<bench_cfg::rq_8192_res>("rmsnorm_quant_fp8_8192", tokens);
  }
  return 0;
}
