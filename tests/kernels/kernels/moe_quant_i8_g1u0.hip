#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_STAGE1_KERNEL(moe_i8_s1_g1u0, cfg::i8_s1_g1u0)
