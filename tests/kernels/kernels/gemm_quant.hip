// HIPASM_KERNARG_PRELOAD (arguments from the preloaded SGPRs, as in the benchmarks; gemm_quant_split.hip loads them)
// test_gemm_quant.cpp's kernels: the quantized GEMMs in the configurations the tests run
// (gemm_quant_configs.hpp: the same configurations on the host).
#include <hipasm/kernels/gemm_quant.hpp>

#include "gemm_quant_configs.hpp"

HIPASM_GEMM_QUANT_KERNEL(gq_fp8_tensor, gq_configs::fp8_tensor)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_token, gq_configs::fp8_token)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block, gq_configs::fp8_block)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_small, gq_configs::fp8_block_small)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_bk64, gq_configs::fp8_block_bk64)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_token_anyk, gq_configs::fp8_token_anyk)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_anyk, gq_configs::fp8_block_anyk)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token, gq_configs::i8_token)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_s3, gq_configs::i8_token_s3)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_tensor_anyk, gq_configs::i8_tensor_anyk)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_a2, gq_configs::i8_token_a2)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_a2, gq_configs::fp8_block_a2)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_single, gq_configs::i8_token_single)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_single, gq_configs::fp8_block_single)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_single128, gq_configs::fp8_block_single128)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_w64, gq_configs::fp8_block_w64)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_w160, gq_configs::i8_token_w160)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_w8, gq_configs::fp8_block_w8)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_token_w8, gq_configs::fp8_token_w8)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_w8, gq_configs::i8_token_w8)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_w8_256, gq_configs::i8_token_w8_256)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_w8_n256, gq_configs::i8_token_w8_n256)
HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_96_agpr, gq_configs::i8_token_96_agpr)
// gfx950's 160 KiB of LDS: 256x256 tiles with two buffers (128 KiB; gfx942: a compile error)
#if defined(__gfx950__)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_token_256_agpr, gq_configs::fp8_token_256_agpr)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_tensor_256_agpr, gq_configs::fp8_tensor_256_agpr)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_token_256_persist, gq_configs::fp8_token_256_persist)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_tensor_256_persist, gq_configs::fp8_tensor_256_persist)
#endif
