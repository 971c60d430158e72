// test_moe_fp4.cpp's kernels (gfx950): both stages in one dispatch (moe_fp4_configs.hpp).
#include <hipasm/kernels/moe_fp4.hpp>

#include "moe_fp4_configs.hpp"

HIPASM_MOE_FP4_FUSED_KERNEL(moe_fp4_fused_raw, fp4_moe_cfg::raw_s1, fp4_moe_cfg::raw_s2_4w)
HIPASM_MOE_FP4_FUSED_KERNEL(moe_fp4_fused_shuf, fp4_moe_cfg::shuf_s1, fp4_moe_cfg::shuf_s2_4w)
