#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_q_s2_rt2, cfg::q_s2_rt2)
HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_i8_s2_rt2, cfg::i8_s2_rt2)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_q_fused_rt2, cfg::q_s1, cfg::q_s2_8w_rt2)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_q_fused_rt2_w4, cfg::q_s1_w4, cfg::q_s2_rt2)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_i8_fused_rt2_w4, cfg::i8_s1_w4, cfg::i8_s2_rt2)
