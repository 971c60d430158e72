// The moe_fp4 bench's kernel configurations, shared by moe_fp4.hip and bench_moe_fp4.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>
#include <hipasm/kernels/moe_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace moe_fp4_bench {
using hipasm::kernels::moe_fp4_config;
// DeepSeek-R1: 256 routed experts + the shared one, a lane an expert
constexpr hipasm::kernels::moe_sorting_config sort{.max_experts = 257, .waves = 5};
// x's quantization in the sorting's workgroup size (one dispatch: HIPASM_MOE_FP4_PROLOGUE_KERNEL)
constexpr hipasm::kernels::mxfp4_quant_config quant{.d = 7168, .waves = 5};
// stage 1: 2 column waves (64 columns of inter) x K (7168: 28 steps) over 4 waves
// (x gathered after the sorting into the sorted rows' preshuffled layout: moe_fp4_gather, 4 waves)
constexpr moe_fp4_config s1{.waves = 2, .k_split = 4, .w_shuffled = true, .x_gathered = true};
constexpr uint32_t gather_waves = 4;
constexpr moe_fp4_config s1_raw{.waves = 2, .k_split = 4};
// stage 2: 4 column waves (128 columns of dim), the whole K (inter) a wave
constexpr moe_fp4_config s2{.waves = 4, .stages = 3, .w_shuffled = true};
constexpr moe_fp4_config s2_raw{.waves = 4};
// both stages in one dispatch where an expert averages fewer than fused_below_per_expert routed
// rows (the blocks mostly padding: the weights' stream bounds it), 2 waves a workgroup each (4
// workgroups a CU: stage 2's weight loads go out while stage 1 runs); measured: 257 experts at
// 4/64/256 tokens and 33 at 64 (17.5 rows an expert: 169.3 us fused, 240.3 as two stages) take it,
// 33 at 256 (70 rows: 522.8 fused, 494.1 as two stages) does not
constexpr moe_fp4_config s1_fused{.waves = 1, .k_split = 2, .w_shuffled = true};
constexpr moe_fp4_config s2_fused{.waves = 2, .w_shuffled = true};
constexpr uint32_t fused_below_per_expert = 32;
}  // namespace moe_fp4_bench
