#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_FUSED_KERNEL(moe_quant_i8_fused_wide, moe_quant_bench::s1_i8, moe_quant_bench::s2_i8_wide)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_quant_i8_fused_w4, moe_quant_bench::s1_i8_w4, moe_quant_bench::s2_i8_rt2_w4)
