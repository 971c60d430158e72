#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_STAGE2_KERNEL(moe_quant_s2, moe_quant_bench::s2)
