#include <hipasm/kernels/act_and_mul.hpp>

#include "act_and_mul_configs.hpp"

HIPASM_ACT_AND_MUL_KERNEL(aam_silu_1000, cfg::aam_silu_1000)
HIPASM_ACT_AND_MUL_KERNEL(aam_gelu_3002, cfg::aam_gelu_3002)
HIPASM_ACT_AND_MUL_KERNEL(aam_gelu_tanh_1004, cfg::aam_gelu_tanh_1004)
HIPASM_ACT_AND_MUL_KERNEL(aam_gelu_tanh_4096, cfg::aam_gelu_tanh_4096)
HIPASM_ACT_AND_MUL_KERNEL(aam_silu_6, cfg::aam_silu_6)
HIPASM_ACT_AND_MUL_KERNEL(aam_silu_14336, cfg::aam_silu_14336)
