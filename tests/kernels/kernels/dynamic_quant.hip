#include <hipasm/kernels/dynamic_quant.hpp>

#include "dynamic_quant_configs.hpp"

HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_1004, cfg::dq_fp8_bf16_1004)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_bf16_1004, cfg::dq_i8_bf16_1004)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_f32_1000, cfg::dq_fp8_f32_1000)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_f32_4096, cfg::dq_i8_f32_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_8192, cfg::dq_fp8_bf16_8192)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_i8_bf16_12, cfg::dq_i8_bf16_12)
HIPASM_DYNAMIC_QUANT_KERNEL(dq_fp8_bf16_14336, cfg::dq_fp8_bf16_14336)
