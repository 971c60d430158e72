// bench_kernel_gemm_fp8 [AITER_DIR]: the library's fp8 (e4m3fnuz) GEMM with 128x128 block
// scales against aiter's fp8gemm_blockscale asm kernels (bench_gemm_quant.hpp): DeepSeek-V3
// shapes of aiter's a8w8_blockscale_bpreshuffle_tuned_gemm_dsv3.csv (K 7168; aiter tuned them
// on 80 CUs, the kernel and split-K of that row run here on the MI300X model) and 4096^3,
// 8192^3 (aiter's 128x128 kernel); the six shapes of AMD's 2025 MI300X fp8 challenge (aiter's
// fastest tile on each); and with per-token and per-tensor scales on 4096^3 and 8192^3 (rows
// gemm_fp8_token, gemm_fp8_tensor; no aiter counterpart).
// bench_kernel_gemm_fp8_mi355x [AITER_DIR] (the same source built for gfx950, HIPASM_TARGET_GFX950):
// fp8 in OCP e4m3fn on the MI355X model, the double-K MFMA, against aiter's gfx950
// fp8gemm_blockscale asm kernels on the rows of aiter/configs/a8w8_blockscale_bpreshuffle_tuned_gemm.csv
// with cu_num 256 that pick an asm kernel (its kernel and split-K), 8192^3 with block scales
// (aiter's 128x128) and per-token and per-tensor rows on 8192^3 (no aiter counterpart).
#include "bench_gemm_quant.hpp"
#include "gemm_quant_bench_configs.hpp"

namespace {
// aiter's fp8gemm_blockscale asm kernels (hsa/gfx942 and hsa/gfx950 fp8gemm_blockscale)
const char* const k32 = "_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_32x128E";
const char* const k48 = "_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_48x128E";
const char* const k64 = "_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_64x128E";
const char* const k80 = "_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_80x128E";
const char* const k96 = "_ZN5aiter42fp8gemm_bf16_blockscale_BpreShuffle_96x128E";
const char* const k128 = "_ZN5aiter43fp8gemm_bf16_blockscale_BpreShuffle_128x128E";
using hipasm::kernels::quant_scale;
constexpr quant_scale tok = quant_scale::per_token, ten = quant_scale::per_tensor;
}  // namespace

// MI355X (gfx950 code object): aiter's MI355X tuning rows (M, N, K, kernel, split-K)
int main_mi355x(int argc, char** argv) {
  const std::vector<bench::quant_shape> shapes = {
      {16, 512, 7168, k32, 7},      {32, 512, 7168, k64, 7},      {64, 512, 7168, k48, 8},
      {128, 512, 7168, k64, 8},     {256, 512, 7168, k32, 7},     {512, 512, 7168, k64, 8},
      {1024, 512, 7168, k80, 4},    {1536, 512, 7168, k96, 4},    {4096, 512, 7168, k64, 1},
      {8192, 512, 7168, k128, 1},   {16, 1536, 7168, k48, 8},     {32, 1536, 7168, k48, 8},
      {64, 1536, 7168, k48, 8},     {128, 1536, 7168, k64, 8},    {256, 1536, 7168, k64, 5},
      {512, 1536, 7168, k80, 3},    {1024, 1536, 7168, k64, 1},   {1536, 1536, 7168, k80, 1},
      {8192, 8192, 8192, k128, 1},
      // per-token and per-tensor scales (aiter's gfx950 fp8 asm GEMMs take block scales)
      {8192, 8192, 8192, nullptr, 1, tok}, {8192, 8192, 8192, nullptr, 1, ten}};
  const std::vector<hipasm::kernels::gemm_quant_kernel_ref> ours = {
      {"gemm_fp8_block_128x128_w8", gq_bench::fp8_block_128x128_w8},
      {"gemm_fp8_block_64x128", gq_bench::fp8_block_64x128},
      {"gemm_fp8_block_32x128", gq_bench::fp8_block_32x128},
      {"gemm_fp8_block_32x64", gq_bench::fp8_block_32x64},
      {"gemm_fp8_block_64x128_split", gq_bench::fp8_block_64x128_split},
      {"gemm_fp8_block_32x128_split", gq_bench::fp8_block_32x128_split},
      {"gemm_fp8_block_32x64_split", gq_bench::fp8_block_32x64_split},
      {"gemm_fp8_block_32x32", gq_bench::fp8_block_32x32},
      {"gemm_fp8_block_32x32_split", gq_bench::fp8_block_32x32_split},
      {"gemm_fp8_block_64x64", gq_bench::fp8_block_64x64},
      {"gemm_fp8_block_64x64_split", gq_bench::fp8_block_64x64_split},
      {"gemm_fp8_token_256x256_agpr", gq_bench::fp8_token_256x256_agpr},
      {"gemm_fp8_tensor_256x256_agpr", gq_bench::fp8_tensor_256x256_agpr},
      {"gemm_fp8_token_256x256_persist", gq_bench::fp8_token_256x256_persist},
      {"gemm_fp8_tensor_256x256_persist", gq_bench::fp8_tensor_256x256_persist}};
  return bench::run_quant_bench(argc, argv, "gemm_fp8", aiter_asm::Family::fp8bs, HIPASM_BENCH_CO, ours, shapes);
}

int main(int argc, char** argv) {
  if constexpr (bench::target_gfx950) return main_mi355x(argc, argv);
  const std::vector<bench::quant_shape> shapes = {
      {32, 3072, 7168, k32, 3},     {256, 3072, 7168, k96, 1},   {1024, 3072, 7168, k80, 1},
      {4096, 3072, 7168, k128, 1},  {32, 7168, 7168, k32, 1},    {256, 7168, 7168, k64, 1},
      {1024, 7168, 7168, k128, 1},  {4096, 7168, 7168, k128, 1}, {4096, 4096, 4096, k128, 1},
      {8192, 8192, 8192, k128, 1},
      // AMD's 2025 MI300X kernel challenge (gpu-mode reference-kernels, problems/amd fp8-mm; its
      // speed of light: 2614.9 TFLOP/s, printed by the bench). aiter's tables have no MI300X
      // row of these: aiter's fastest asm tile of its five (32..128 x 128, split 1 or 2) on the
      // model, GEMM_QUANT_BENCH_AITER
      {1024, 1536, 7168, k96, 1},   {1024, 4608, 7168, k128, 1}, {6144, 1536, 7168, k128, 1},
      {6144, 4608, 7168, k128, 1},  {1024, 7168, 256, k128, 1},  {6144, 7168, 256, k128, 1},
      // per-token and per-tensor scales: aiter has no fp8 asm GEMM of them for gfx942 (hsa/gfx942:
      // fp8gemm_blockscale and a block-scale flatmm only), so these rows compare with nothing
      {4096, 4096, 4096, nullptr, 1, tok}, {8192, 8192, 8192, nullptr, 1, tok},
      {4096, 4096, 4096, nullptr, 1, ten}, {8192, 8192, 8192, nullptr, 1, ten}};
  const std::vector<hipasm::kernels::gemm_quant_kernel_ref> ours = {{"gemm_fp8_block_256x128", gq_bench::fp8_block_256x128},
                                                          {"gemm_fp8_block_256x128_1", gq_bench::fp8_block_256x128_1},
                                                          {"gemm_fp8_block_128x128", gq_bench::fp8_block_128x128},
                                                          {"gemm_fp8_block_64x128", gq_bench::fp8_block_64x128},
                                                          {"gemm_fp8_block_128x128_w64x32", gq_bench::fp8_block_128x128_w64x32},
                                                          {"gemm_fp8_block_32x128", gq_bench::fp8_block_32x128},
                                                          {"gemm_fp8_block_64x128_split", gq_bench::fp8_block_64x128_split},
                                                          {"gemm_fp8_block_32x128_split", gq_bench::fp8_block_32x128_split},
                                                          {"gemm_fp8_block_32x64", gq_bench::fp8_block_32x64},
                                                          {"gemm_fp8_block_32x64_split", gq_bench::fp8_block_32x64_split},
                                                          {"gemm_fp8_token_256x256_1", gq_bench::fp8_token_256x256_1},
                                                          {"gemm_fp8_token_128x256_1", gq_bench::fp8_token_128x256_1},
                                                          {"gemm_fp8_token_256x128_1", gq_bench::fp8_token_256x128_1},
                                                          {"gemm_fp8_token_128x128", gq_bench::fp8_token_128x128},
                                                          {"gemm_fp8_tensor_256x256_1", gq_bench::fp8_tensor_256x256_1},
                                                          {"gemm_fp8_tensor_128x256_1", gq_bench::fp8_tensor_128x256_1},
                                                          {"gemm_fp8_tensor_256x128_1", gq_bench::fp8_tensor_256x128_1}};
  return bench::run_quant_bench(argc, argv, "gemm_fp8", aiter_asm::Family::fp8bs, HIPASM_BENCH_CO, ours, shapes);
}
