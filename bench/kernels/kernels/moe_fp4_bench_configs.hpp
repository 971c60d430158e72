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
// x gathered after the sorting into the sorted rows' preshuffled layout (moe_fp4_gather: 4 waves,
// 7 workgroups a block, one 256-k step a wave at dim 7168)
constexpr uint32_t gather_waves = 4, gather_parts = 7;
// stage 1: 4 column waves (128 columns of inter), the whole K a wave, x gathered; stage 2: one
// column wave a workgroup (32 columns of dim), 3 register sets, at most 2048 workgroups (each loops
// over several blocks). Measured on the 33-expert layer at 256 tokens (MI355X model, stage 1 /
// stage 2 us): stage 1 with 2 waves x k_split 4: 165.3, 4 x 2: 143.6, 1 x 8: 192.9, 8 x 1: 130.8,
// 8 x 1 with 3 sets: 133.4, 8 x 1 at most 360 workgroups: 169.4, 4 x 1: 126.5; stage 2 with 4
// waves: 151.9, 2: 142.7, 8: 189.2, 1: 134.9, 1 at most 2048 workgroups: 132.6 (2 sets: 134.9), at
// most 8192: 135.9, 1 x k_split 2: 213.3. x_lds (the token fragments through LDS): 4 waves 111.7,
// 8 waves 120.3 (stage 2 with transposed sums: 102.9)
constexpr moe_fp4_config s1{.waves = 4, .w_shuffled = true, .x_gathered = true, .x_lds = true};
constexpr moe_fp4_config s1_raw{.waves = 2, .k_split = 4};
constexpr moe_fp4_config s2{.waves = 1, .stages = 3, .w_shuffled = true, .max_workgroups = 2048};
constexpr moe_fp4_config s2_raw{.waves = 4};
// two consecutive blocks of an expert a workgroup where an expert averages at least
// blocks_from_per_expert routed rows (each weight fragment feeds both blocks' MFMAs; with fewer
// rows most groups hold one block of an expert and the grid halves). Measured (us, stage 1 /
// stage 2, 8 column waves in stage 1): 1024 tokens 33 experts (279 rows an expert): 430.5 / 506.1
// one block, 371.8 / 493.2 two; 256 tokens (70 rows): 130.8 / 134.9 one block, 191.3 / 148.4 two;
// stage 1 with x_lds at 1024 tokens: 370.8 -> 236.4
constexpr moe_fp4_config s1_b2{.waves = 8, .blocks = 2, .w_shuffled = true, .x_gathered = true, .x_lds = true};
// Stage 2 there: two 32-column tiles a wave (col_tiles), its rows stored (rows_out) and summed by
// the reduce (moe_fp4_reduce_kernel, 4 waves). Measured at 1024 tokens (stage 2 us, transposed
// sums): atomics one tile 359.2, at most 3072 workgroups 336.5, two tiles at most 2048 290.1;
// rows_out two tiles 174.0 (+ 52.2 the reduce), at most 4096 workgroups 181.4, one block three
// register sets 231.5
constexpr moe_fp4_config s2_b2{.waves = 1, .blocks = 2, .w_shuffled = true, .max_workgroups = 2048, .col_tiles = 2,
                               .rows_out = true};
constexpr uint32_t reduce_waves = 4;
constexpr uint32_t blocks_from_per_expert = 128;
// both stages in one dispatch where an expert averages fewer than fused_below_per_expert routed
// rows (the blocks mostly padding: the weights' stream bounds it), 2 waves a workgroup each (4
// workgroups a CU: stage 2's weight loads go out while stage 1 runs); measured: 257 experts at
// 4/64/256 tokens and 33 at 64 (17.5 rows an expert: 169.3 us fused, 240.3 as two stages) take it,
// 33 at 256 (70 rows: 522.8 fused, 494.1 as two stages) does not
constexpr moe_fp4_config s1_fused{.waves = 1, .k_split = 2, .w_shuffled = true};
constexpr moe_fp4_config s2_fused{.waves = 2, .w_shuffled = true};
constexpr uint32_t fused_below_per_expert = 32;
}  // namespace moe_fp4_bench
