#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_FUSED_KERNEL(moe_q_fused, cfg::q_s1, cfg::q_s2_8w)
