// bench_kernel_softmax [AITER_DIR]: rows x cols, bf16 (4096, 8192) and f32 (a 32000 vocabulary).
// aiter has no asm row softmax (its topksoftmax is bench_kernel_topk_softmax): aiter_us=none.
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/softmax.hpp>

#include "bench_common.hpp"
#include "kernels/softmax_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::softmax_config C>
void row(const char* name, uint32_t rows) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  using E = hipasm::kernels::softmax_elem<C>;
  const std::string shape = std::to_string(rows) + "x" + std::to_string(C.cols) + (C.bf16 ? "_bf16" : "_f32");
  if (!selected(shape)) return;
  const size_t n = size_t(rows) * C.cols;
  rt::buffer<E> X(d, std::vector<E>(n, E{})), Y(d, n);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  rt::profile_options p = profile_for(rows);
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_softmax<C>(d, m, name, {.out = Y.addr(), .in = X.addr(), .rows = rows}, o);
  print_line("softmax", shape, from(rep),
             0, double(n) * sizeof(E) * 2);
}
}  // namespace

int main() {
  for (uint32_t rows : {1u, 32u, 4096u}) {
    row<bench_cfg::sm_bf16_4096>("softmax_bf16_4096", rows);
    row<bench_cfg::sm_bf16_8192>("softmax_bf16_8192", rows);
  }
  for (uint32_t rows : {1u, 32u, 1024u}) row<bench_cfg::sm_f32_32000>("softmax_f32_32000", rows);
  return 0;
}
