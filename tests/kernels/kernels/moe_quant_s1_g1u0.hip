#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_STAGE1_KERNEL(moe_q_s1_g1u0, cfg::q_s1_g1u0)
