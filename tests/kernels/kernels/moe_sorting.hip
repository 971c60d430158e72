#include <hipasm/kernels/moe.hpp>

#include "moe_configs.hpp"

HIPASM_MOE_SORTING_KERNEL(moe_sort_64, cfg::sort_64)
HIPASM_MOE_SORTING_KERNEL(moe_sort_256, cfg::sort_256)
HIPASM_MOE_SORTING_KERNEL(moe_sort_128_c20, cfg::sort_128_c20)
HIPASM_MOE_SORTING_KERNEL(moe_sort_256_log, cfg::sort_256_log)
