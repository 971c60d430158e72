#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_q_onepass, cfg::q_s1)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_q_onepass_g1u0, cfg::q_op_g1u0)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_i8_onepass, cfg::i8_s1)
