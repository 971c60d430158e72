// bench_kernel_gemv [AITER_DIR]: y = A x on the decode shapes of Llama-3 8B/70B (M x K: the QKV,
// O, MLP and LM-head projections at batch 1). aiter has no asm GEMV: aiter_us=none.
#include <cstdint>
#include <string>
#include <vector>

#include <hipasm/kernels/gemv.hpp>

#include "bench_common.hpp"
#include "kernels/gemv_bench_configs.hpp"

namespace {
using namespace bench;
template <hipasm::kernels::gemv_config C>
void row(rt::device& d, rt::module& m, const char* name, uint32_t M, uint32_t K) {
  using TA = hipasm::kernels::gemv_a_elem<C>;
  using TX = hipasm::kernels::gemv_x_elem<C>;
  const std::string shape = std::to_string(M) + "x" + std::to_string(K) + (C.a_f32 ? "_f32" : "_bf16") +
                            (C.k_split ? "_ksplit" : "_rows");
  if (!selected(shape)) return;
  rt::buffer<TA> A(d, std::vector<TA>(size_t(M) * K, TA{}));
  rt::buffer<TX> X(d, std::vector<TX>(K, TX{}));
  rt::buffer<float> Y(d, M);
  const uint32_t groups = (M + hipasm::kernels::gemv_rows_per_group(C) - 1) / hipasm::kernels::gemv_rows_per_group(C);
  rt::profile_options p = profile_for(groups);
  rt::launch_options o;
  o.profile = &p;
  auto rep = hipasm::kernels::launch_gemv<C>(d, m, name, {.y = Y.addr(), .a = A.addr(), .x = X.addr(), .m = M, .k = K}, o);
  const double bytes = double(M) * K * sizeof(TA) + double(K) * sizeof(TX) + double(M) * 4;
  print_line("gemv", shape, from(rep), 0, bytes, true);
}
}  // namespace

int main() {
  auto d = rt::device::open(rt::backend::sim);
  auto m = d->load_file(HIPASM_BENCH_CO);
  const uint32_t shapes[][2] = {{4096, 4096},  {6144, 4096},  {28672, 4096}, {4096, 14336},
                                {10240, 8192}, {8192, 8192},  {57344, 8192}, {8192, 28672}, {128256, 4096}};
  for (auto [M, K] : shapes) {
    row<bench_cfg::gemv_rows>(*d, *m, "gemv_rows", M, K);
    row<bench_cfg::gemv_ksplit>(*d, *m, "gemv_ksplit", M, K);
  }
  row<bench_cfg::gemv_f32>(*d, *m, "gemv_f32", 4096, 4096);
  row<bench_cfg::gemv_f32>(*d, *m, "gemv_f32", 28672, 4096);
  return 0;
}
