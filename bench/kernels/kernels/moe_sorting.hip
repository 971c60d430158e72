#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_SORTING_KERNEL(moe_sorting, moe_bench::sort)
HIPASM_MOE_SORTING_KERNEL(moe_sorting_257, moe_bench::sort_257)
