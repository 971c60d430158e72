#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_onepass, moe_quant_bench::op)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_i8_onepass, moe_quant_bench::op_i8)
