#include <hipasm/kernels/all_reduce.hpp>

#include "all_reduce_configs.hpp"

HIPASM_ALL_REDUCE_KERNEL(ar_bf16_2, cfg::ar_bf16_2)
HIPASM_ALL_REDUCE_KERNEL(ar_bf16_4, cfg::ar_bf16_4)
HIPASM_ALL_REDUCE_KERNEL(ar_bf16_8, cfg::ar_bf16_8)
HIPASM_ALL_REDUCE_KERNEL(ar_f32_2, cfg::ar_f32_2)
HIPASM_ALL_REDUCE_KERNEL(ar_f32_8, cfg::ar_f32_8)
HIPASM_ALL_REDUCE_KERNEL(ar_bf16_4_inplace, cfg::ar_bf16_4_inplace)
HIPASM_ALL_REDUCE_KERNEL(ar_f32_8_inplace, cfg::ar_f32_8_inplace)
HIPASM_ALL_REDUCE_KERNEL(ar2_bf16_4, cfg::ar2_bf16_4)
HIPASM_ALL_REDUCE_KERNEL(ar2_bf16_8, cfg::ar2_bf16_8)
HIPASM_ALL_REDUCE_KERNEL(ar2_f32_2_inplace, cfg::ar2_f32_2_inplace)
HIPASM_ALL_REDUCE_KERNEL(ar2_bf16_8_inplace, cfg::ar2_bf16_8_inplace)
HIPASM_ALL_REDUCE_RMSNORM_KERNEL(arn_2_2048, cfg::arn_2_2048)
HIPASM_ALL_REDUCE_RMSNORM_KERNEL(arn_8_8192, cfg::arn_8_8192)
HIPASM_ALL_REDUCE_RMSNORM_QUANT_KERNEL(arnq_fp8_4_4096, cfg::arnq_4_4096, hipasm::kernels::quant_type::fp8)
HIPASM_ALL_REDUCE_RMSNORM_QUANT_KERNEL(arnq_i8_4_4096, cfg::arnq_4_4096, hipasm::kernels::quant_type::i8)
