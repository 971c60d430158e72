// bench_kernel_gemm_i8 [AITER_DIR]: the library's int8 GEMM with per-token scales against
// aiter's i8gemm asm kernels (bench_gemm_quant.hpp): shapes of aiter's
// a8w8_bpreshuffle_tuned_gemm.csv (MI300X rows, the kernel aiter tuned for each) and 4096^3,
// 8192^3 (aiter's 112x256 kernel, its choice for every large M in that table).
#include "bench_gemm_quant.hpp"
#include "gemm_quant_bench_configs.hpp"

int main(int argc, char** argv) {
  const char* k16 = "_ZN5aiter41I8gemm_bf16_perTokenI8_BpreShuffle_16x128E";
  const char* k48 = "_ZN5aiter41I8gemm_bf16_perTokenI8_BpreShuffle_48x128E";
  const char* k112 = "_ZN5aiter42I8gemm_bf16_perTokenI8_BpreShuffle_112x256E";
  const std::vector<bench::quant_shape> shapes = {
      {64, 1536, 5120, k16, 1},    {1024, 1536, 5120, k48, 1},  {4096, 1536, 5120, k112, 1},
      {256, 5120, 1280, k48, 1},   {1024, 5120, 1280, k112, 1}, {4096, 5120, 1280, k112, 1},
      {4096, 4096, 4096, k112, 1}, {8192, 8192, 8192, k112, 1}};
  const std::vector<hipasm::kernels::gemm_quant_kernel_ref> ours = {{"gemm_i8_token_128x256_1", gq_bench::i8_token_128x256_1},
                                                          {"gemm_i8_token_256x128_1", gq_bench::i8_token_256x128_1},
                                                          {"gemm_i8_token_256x128", gq_bench::i8_token_256x128},
                                                          {"gemm_i8_token_256x256_1", gq_bench::i8_token_256x256_1},
                                                          {"gemm_i8_token_128x256", gq_bench::i8_token_128x256},
                                                          {"gemm_i8_token_128x160", gq_bench::i8_token_128x160},
                                                          {"gemm_i8_token_128x128", gq_bench::i8_token_128x128},
                                                          {"gemm_i8_token_64x128", gq_bench::i8_token_64x128},
                                                          {"gemm_i8_token_32x128", gq_bench::i8_token_32x128},
                                                          {"gemm_i8_token_64x128_split", gq_bench::i8_token_64x128_split},
                                                          {"gemm_i8_token_32x128_split", gq_bench::i8_token_32x128_split}};
  return bench::run_quant_bench(argc, argv, "gemm_i8", aiter_asm::Family::i8, HIPASM_BENCH_CO, ours, shapes);
}
