#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include "dynamic_quant_configs.hpp"

HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_1004, cfg::dq_fp8_bf16_1004)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_bf16_1004, cfg::dq_i8_bf16_1004)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_f32_1000, cfg::dq_fp8_f32_1000)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_f32_4096, cfg::dq_i8_f32_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_8192, cfg::dq_fp8_bf16_8192)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_bf16_12, cfg::dq_i8_bf16_12)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_14336, cfg::dq_fp8_bf16_14336)
HIPASM_RMSNORM_QUANT_KERNEL(rq_fp8_4096, cfg::rq_4096, hipasm::kernels::quant_type::fp8)
HIPASM_RMSNORM_QUANT_KERNEL(rq_i8_1004_res, cfg::rq_1004_res, hipasm::kernels::quant_type::i8)
HIPASM_RMSNORM_QUANT_KERNEL(rq_fp8_1004_res, cfg::rq_1004_res, hipasm::kernels::quant_type::fp8)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_bf16_1024, cfg::dq_i8_bf16_1024)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_1024, cfg::dq_fp8_bf16_1024)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_bf8_bf16_1004, cfg::dq_bf8_bf16_1004)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_bf8_f32_4096, cfg::dq_bf8_f32_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(dqb_fp8_bf16_7168, cfg::dqb_fp8_bf16_7168)
HIPASM_DYNAMIC_QUANT_KERNEL(dqb_fp8_f32_640_rm, cfg::dqb_fp8_f32_640_rm)
HIPASM_DYNAMIC_QUANT_KERNEL(dqb_fp8_bf16_384, cfg::dqb_fp8_bf16_384)
