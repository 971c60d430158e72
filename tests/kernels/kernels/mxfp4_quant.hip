#include <hipasm/kernels/mxfp4_quant.hpp>

#include "mxfp4_quant_configs.hpp"

HIPASM_MXFP4_QUANT_KERNEL(mx_bf16_7168, cfg::mx_bf16_7168)
HIPASM_MXFP4_QUANT_KERNEL(mx_bf16_96_ocp, cfg::mx_bf16_96_ocp)
HIPASM_MXFP4_QUANT_KERNEL(mx_f32_160, cfg::mx_f32_160)
HIPASM_MXFP4_QUANT_KERNEL(mx_f32_160_ocp, cfg::mx_f32_160_ocp)
HIPASM_MXFP4_QUANT_KERNEL(mx_bf16_224_up, cfg::mx_bf16_224_up)
HIPASM_MXFP4_QUANT_KERNEL(mx_f32_160_up, cfg::mx_f32_160_up)
