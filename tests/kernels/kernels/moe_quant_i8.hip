#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_STAGE1_KERNEL(moe_i8_s1, cfg::i8_s1)
HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_i8_s2, cfg::i8_s2)
