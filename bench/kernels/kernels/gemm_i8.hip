// bench_kernel_gemm_i8's kernels: the library's int8 GEMM with per-token scales (the operation
// of aiter's i8gemm asm kernels), bf16 out, several workgroup tiles.
#include <hipasm/kernels/gemm_quant.hpp>

#include "gemm_quant_bench_configs.hpp"

HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_128x128, gq_bench::i8_token_128x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_64x128, gq_bench::i8_token_64x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_32x128, gq_bench::i8_token_32x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_256x128, gq_bench::i8_token_256x128)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_128x256, gq_bench::i8_token_128x256)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_64x128_split, gq_bench::i8_token_64x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_32x128_split, gq_bench::i8_token_32x128_split)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_128x160, gq_bench::i8_token_128x160)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_256x128_1, gq_bench::i8_token_256x128_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_256x256_1, gq_bench::i8_token_256x256_1)
HIPASM_GEMM_QUANT_KERNEL(gemm_i8_token_128x256_1, gq_bench::i8_token_128x256_1)
