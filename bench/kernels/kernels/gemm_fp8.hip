// bench_kernel_gemm_fp8's kernels: the library's fp8 GEMM with 128x128 block scales (the
// operation of aiter's fp8gemm_blockscale asm kernels), bf16 out, several workgroup tiles; and
// with per-token and per-tensor scales.
#include <hipasm/kernels/gemm_quant.hpp>

#include "gemm_quant_bench_configs.hpp"

#if defined(__gfx950__)
// bench_kernel_gemm_fp8_mi355x's (MI355X): the double-K MFMA's tiles
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_128x128_w8, gq_bench::fp8_block_128x128_w8)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x128, gq_bench::fp8_block_64x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x128, gq_bench::fp8_block_32x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x64, gq_bench::fp8_block_32x64)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x128_split, gq_bench::fp8_block_64x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x128_split, gq_bench::fp8_block_32x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x64_split, gq_bench::fp8_block_32x64_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x32, gq_bench::fp8_block_32x32)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x32_split, gq_bench::fp8_block_32x32_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x64, gq_bench::fp8_block_64x64)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x64_split, gq_bench::fp8_block_64x64_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_256x256_agpr, gq_bench::fp8_token_256x256_agpr)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_tensor_256x256_agpr, gq_bench::fp8_tensor_256x256_agpr)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_256x256_persist, gq_bench::fp8_token_256x256_persist)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_tensor_256x256_persist, gq_bench::fp8_tensor_256x256_persist)
#else
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_128x128, gq_bench::fp8_block_128x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x128, gq_bench::fp8_block_64x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_128x128_w64x32, gq_bench::fp8_block_128x128_w64x32)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x128, gq_bench::fp8_block_32x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_256x128, gq_bench::fp8_block_256x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_256x128_1, gq_bench::fp8_block_256x128_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_64x128_split, gq_bench::fp8_block_64x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x128_split, gq_bench::fp8_block_32x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x64, gq_bench::fp8_block_32x64)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_block_32x64_split, gq_bench::fp8_block_32x64_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_128x128, gq_bench::fp8_token_128x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_256x128_1, gq_bench::fp8_token_256x128_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_256x256_1, gq_bench::fp8_token_256x256_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_token_128x256_1, gq_bench::fp8_token_128x256_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_tensor_256x128_1, gq_bench::fp8_tensor_256x128_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_tensor_256x256_1, gq_bench::fp8_tensor_256x256_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_fp8_tensor_128x256_1, gq_bench::fp8_tensor_128x256_1)
#endif
