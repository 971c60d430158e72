#include <hipasm/kernels/moe.hpp>

#include "moe_bench_configs.hpp"

HIPASM_MOE_SORTING_KERNEL(moe_sorting, moe_bench::sort)
// (the MI355X rows' 257 experts: gfx950 only, the MI300X code object as before)
#if defined(__gfx950__)
HIPASM_MOE_SORTING_KERNEL(moe_sorting_257, moe_bench::sort_257)
#endif
