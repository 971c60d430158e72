// bench_kernel_gemv [AITER_DIR]: y = A x on the decode shapes of Llama-3 8B/70B (M x K: the QKV,
// O, MLP and LM-head projections at batch 1). aiter has no asm GEMV: aiter_us=none.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <hipasm/kernels/gemv.hpp>

#include "bench_common.hpp"
#include "kernels/gemv_bench_configs.hpp"

namespace {
using namespace bench;
namespace hk = hipasm::kernels;
// how: 0 the launch's pick (launch_gemv_auto), 1 rows per wave, 2 the K split
template <hk::gemv_config C>
void row(const char* name, uint32_t M, uint32_t K, int how = 0) {
  auto dp = fresh_device();  // (bench_common.hpp: a device per run, buffers first)
  rt::device& d = *dp;
  using TA = hk::gemv_a_elem<C>;
  using TX = hk::gemv_x_elem<C>;
  const bool ksplit = how == 2 || (how == 0 && hk::gemv_uses_k_split(C, M));
  const std::string shape = std::to_string(M) + "x" + std::to_string(K) + (C.a_f32 ? "_f32" : "_bf16") +
                            (ksplit ? "_ksplit" : "_rows") + (how == 0 ? "" : "_forced");
  if (!selected(shape)) return;
  rt::buffer<TA> A(d, std::vector<TA>(size_t(M) * K, TA{}));
  rt::buffer<TX> X(d, std::vector<TX>(K, TX{}));
  rt::buffer<float> Y(d, M);
  const auto mp = d.load_file(HIPASM_BENCH_CO);
  rt::module& m = *mp;
  const uint32_t per = uint32_t(ksplit ? hk::gemv_rows_per_group(hk::gemv_ksplit_config(C)) : hk::gemv_rows_per_group(C));
  rt::profile_options p = profile_for((M + per - 1) / per);
  rt::launch_options o;
  o.profile = &p;
  const hk::gemv_args args{.y = Y.addr(), .a = A.addr(), .x = X.addr(), .m = M, .k = K};
  const std::string split_name = std::string(name) + "_ksplit";
  auto rep = how == 0   ? hk::launch_gemv_auto<C>(d, m, name, args, o)
             : how == 1 ? hk::launch_gemv<C>(d, m, name, args, o)
                        : hk::launch_gemv<hk::gemv_ksplit_config(C)>(d, m, split_name, args, o);
  const double bytes = double(M) * K * sizeof(TA) + double(K) * sizeof(TX) + double(M) * 4;
  print_line("gemv", shape, from(rep), 0, bytes, true);
}
}  // namespace

// One row per shape, the configuration launch_gemv_auto picks; HIPASM_BENCH_GEMV_BOTH=1 adds
// both configurations forced (shape suffix _forced).
int main() {
  const bool both = std::getenv("HIPASM_BENCH_GEMV_BOTH") != nullptr;
  const uint32_t shapes[][2] = {{4096, 4096},  {6144, 4096},  {28672, 4096}, {4096, 14336},
                                {10240, 8192}, {8192, 8192},  {57344, 8192}, {8192, 28672}, {128256, 4096}};
  for (auto [M, K] : shapes) {
    row<bench_cfg::gemv_bf16>("gemv_bf16", M, K);
    if (both)
      for (int how : {1, 2}) row<bench_cfg::gemv_bf16>("gemv_bf16", M, K, how);
  }
  row<bench_cfg::gemv_f32>("gemv_f32", 4096, 4096);
  row<bench_cfg::gemv_f32>("gemv_f32", 28672, 4096);
  return 0;
}
