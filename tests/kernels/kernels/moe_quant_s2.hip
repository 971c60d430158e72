#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_q_s2, cfg::q_s2)
