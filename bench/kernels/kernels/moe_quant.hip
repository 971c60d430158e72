#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_STAGE1_KERNEL(moe_quant_s1, moe_quant_bench::s1)
