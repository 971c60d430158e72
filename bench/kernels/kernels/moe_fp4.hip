// bench_moe_fp4's kernels (gfx950): the layer's sorting and quantization (one dispatch), x's gather and
// both stages (moe_fp4_bench_configs.hpp), weights preshuffled and row-major.
#include <hipasm/kernels/moe.hpp>
#include <hipasm/kernels/moe_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include "moe_fp4_bench_configs.hpp"

HIPASM_MOE_FP4_PROLOGUE_KERNEL(moe_fp4_prologue, moe_fp4_bench::sort, moe_fp4_bench::quant)
HIPASM_MOE_FP4_GATHER_KERNEL(moe_fp4_gather, moe_fp4_bench::gather_waves, moe_fp4_bench::gather_parts)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1, moe_fp4_bench::s1)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_b2, moe_fp4_bench::s1_b2)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2, moe_fp4_bench::s2)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_b2, moe_fp4_bench::s2_b2)
HIPASM_MOE_FP4_REDUCE_KERNEL(moe_fp4_reduce, moe_fp4_bench::reduce_waves)
HIPASM_MOE_FP4_STAGE1_KERNEL(moe_fp4_s1_raw, moe_fp4_bench::s1_raw)
HIPASM_MOE_FP4_STAGE2_KERNEL(moe_fp4_s2_raw, moe_fp4_bench::s2_raw)
HIPASM_MOE_FP4_FUSED_KERNEL(moe_fp4_fused, moe_fp4_bench::s1_fused, moe_fp4_bench::s2_fused)
