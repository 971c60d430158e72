#include <hipasm/kernels/sort.hpp>

#include "sort_bench_configs.hpp"

HIPASM_SORT_KERNEL(sort_wave512_idx, bench_cfg::sort_wave512_idx)
HIPASM_SORT_KERNEL(sort_wg2048, bench_cfg::sort_wg2048)
HIPASM_SORT_KERNEL(sort_wave2048, bench_cfg::sort_wave2048)
HIPASM_SORT_KERNEL(sort_wg4096_idx, bench_cfg::sort_wg4096_idx)
HIPASM_SORT_KERNEL(sort_wg8192_i32_idx, bench_cfg::sort_wg8192_i32_idx)
