// test_moe_fp4.cpp's kernels (gfx950): the stage kernels on preshuffled weights (moe_fp4_configs.hpp).
#include <hipasm/kernels/moe_fp4.hpp>

#include "moe_fp4_configs.hpp"
// (and x gathered for an x_gathered stage 1)

HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_shuf, fp4_moe_cfg::shuf_s1)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_shuf, fp4_moe_cfg::shuf_s2)
HIPASM_MOE_FP4_GATHER_KERNEL(moe_fp4_gather, fp4_moe_cfg::gather_waves, fp4_moe_cfg::gather_parts)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_gath, fp4_moe_cfg::gath_s1)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_gath_b2, fp4_moe_cfg::gath_s1_b2)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_shuf_b3, fp4_moe_cfg::shuf_s2_b3)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_rows, fp4_moe_cfg::shuf_s2_rows)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_ct2, fp4_moe_cfg::shuf_s2_ct2)
HIPASM_MOE_FP4_REDUCE_KERNEL(moe_fp4_reduce, fp4_moe_cfg::reduce_waves)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_xl, fp4_moe_cfg::gath_s1_xl)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_xl_b2, fp4_moe_cfg::gath_s1_xl_b2)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_xl_8w, fp4_moe_cfg::gath_s1_xl_8w)
