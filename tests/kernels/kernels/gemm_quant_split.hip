// test_gemm_quant.cpp's split-K kernels (their own code object: the other one is the slowest
// test compile): f32 partial sums into workspace slices, then `<name>_to_bf16`.
#include <hipasm/kernels/gemm_quant.hpp>

#include "gemm_quant_configs.hpp"

HIPASM_GEMM_QUANT_KERNEL(gq_i8_token_split, gq_configs::i8_token_split)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_tensor_split, gq_configs::fp8_tensor_split)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_split, gq_configs::fp8_block_split)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_split128, gq_configs::fp8_block_split128)
HIPASM_GEMM_QUANT_KERNEL(gq_fp8_block_split64, gq_configs::fp8_block_split64)
