#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_SORTING_KERNEL(moe_sorting, moe_bench::sort)
HIPASM_MOE_STAGE2_KERNEL(moe_stage2, moe_bench::down)
