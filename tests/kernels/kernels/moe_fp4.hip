// test_moe_fp4.cpp's kernels (gfx950): the sorting for 257 experts, the activations' quantization
// and the stage kernels on row-major weights (moe_fp4_configs.hpp).
#include <hipasm/kernels/moe.hpp>
#include <hipasm/kernels/moe_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include "moe_fp4_configs.hpp"

HIPASM_MOE_SORTING_KERNEL(moe_sort_257, fp4_moe_cfg::sort_257)
HIPASM_MXFP4_QUANT_KERNEL(quant_512, fp4_moe_cfg::quant_512)
HIPASM_MXFP4_QUANT_KERNEL(quant_1024, fp4_moe_cfg::quant_1024)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_raw, fp4_moe_cfg::raw_s1)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_raw, fp4_moe_cfg::raw_s2)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_raw_b2, fp4_moe_cfg::raw_s1_b2)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_raw_b2, fp4_moe_cfg::raw_s2_b2)
HIPASM_MOE_FP4_PROLOGUE_KERNEL(moe_fp4_prologue_512, fp4_moe_cfg::sort_257, fp4_moe_cfg::quant_512_w5)
