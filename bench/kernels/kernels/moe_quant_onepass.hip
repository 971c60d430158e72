#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_bench_configs.hpp"

HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_onepass, moe_quant_bench::s1)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_onepass_k1, moe_quant_bench::s1_k1)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_i8_onepass, moe_quant_bench::s1_i8)
HIPASM_MOE_QUANT_ONEPASS_KERNEL(moe_quant_i8_onepass_k1, moe_quant_bench::s1_i8_k1)
