// bench_kernel_act_and_mul [AITER_DIR]: tokens x d, x [tokens][2d] bf16 -> out [tokens][d].
// aiter's silu_and_mul / gelu_and_mul / gelu_tanh_and_mul are HIP (csrc/kernels/activation_kernels.cu);
// hsa/gfx942 has no asm counterpart: aiter_us=none. hbm_pct: hbm_gbps (bytes reaching HBM) over the model's 4000 GB/s.
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/act_and_mul.hpp>

#include "bench_common.hpp"
#include "kernels/act_and_mul_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::act_and_mul_config C>
void row(const char* name, uint32_t tokens) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  const std::string shape = std::to_string(tokens) + "x" + std::to_string(C.d);
  if (!selected(shape)) return;
  const size_t n = size_t(tokens) * C.d;
  rt::buffer<uint16_t> X(d, std::vector<uint16_t>(2 * n, 0x3f80)), Y(d, n);  // 1.0: timing does not depend on values
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(hipasm::kernels::act_and_mul_groups(C, tokens));
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_act_and_mul<C>(d, m, name, {.out = Y.addr(), .in = X.addr(), .tokens = tokens}, o);
  print_line(name, shape, from(rep), 0, double(n) * 2 * 3, true);  // 2d in, d out
}
}  // namespace

int main() {
  for (uint32_t tokens : {1u, 32u, 1024u, 4096u, 16384u}) {
    row<bench_cfg::silu_14336>("silu_and_mul_14336", tokens);
    row<bench_cfg::silu_18944>("silu_and_mul_18944", tokens);
  }
  row<bench_cfg::silu_11008>("silu_and_mul_11008", 4096);
  row<bench_cfg::gelu_4096>("gelu_and_mul_4096", 4096);
  row<bench_cfg::gelu_tanh_14336>("gelu_tanh_and_mul_14336", 4096);
  return 0;
}
