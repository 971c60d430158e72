// HIPASM_KERNARG_PRELOAD
// hipasm.ops.fused_moe's kernels (python/hipasm/ops.py), linked into the ops code object with
// ops.hip: the sorting and the two GEMM stages (launched one after the other). Names:
//   moe_sorting_e<max_experts>_w<waves>
//   moe_stage<1|2>_g<gated 0/1>_w<waves>_k<k_split>_m<max_workgroups>
// tokens, topk, experts (<= max_experts), dim and inter are run-time arguments.
#include <hipasm/kernels/moe.hpp>

namespace ops_cfg {
using namespace hipasm::kernels;
constexpr moe_sorting_config moe_sort_64{.max_experts = 64, .waves = 1};
constexpr moe_sorting_config moe_sort_256{.max_experts = 256, .waves = 4};
constexpr moe_gemm_config moe_g1u1{.waves = 2, .unroll = 2, .gated = true, .max_workgroups = 1216};
}  // namespace ops_cfg

HIPASM_MOE_SORTING_KERNEL(moe_sorting_e64_w1, ops_cfg::moe_sort_64)
HIPASM_MOE_SORTING_KERNEL(moe_sorting_e256_w4, ops_cfg::moe_sort_256)
HIPASM_MOE_STAGE1_KERNEL(moe_stage1_g1_w2_k1_m1216, ops_cfg::moe_g1u1)
HIPASM_MOE_STAGE2_KERNEL(moe_stage2_g1_w2_k1_m1216, ops_cfg::moe_g1u1)
