#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_FUSED_KERNEL(moe_quant_fused_rt2, moe_quant_bench::s1, moe_quant_bench::s2_rt2)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_quant_fused_rt2_w4, moe_quant_bench::s1_w4, moe_quant_bench::s2_rt2_w4)
