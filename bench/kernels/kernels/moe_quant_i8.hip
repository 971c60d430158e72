#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_STAGE1_KERNEL(moe_quant_i8_s1, moe_quant_bench::s1_i8)
HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_quant_i8_s2, moe_quant_bench::s2_i8)
