// The MXFP4 MoE kernels' test configurations, shared by the moe_fp4*.hip sources and test_moe_fp4.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>
#include <hipasm/kernels/moe_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace fp4_moe_cfg {
using hipasm::kernels::moe_fp4_config;
// DeepSeek-R1's 257 experts (256 routed + the shared one): a lane an expert over 5 waves
inline constexpr hipasm::kernels::moe_sorting_config sort_257{.max_experts = 257, .waves = 5};
// row-major weights: stage 1's K over 2 waves (sums through LDS), a few workgroups looping over
// the blocks; stage 2 as 2 column waves
inline constexpr moe_fp4_config raw_s1{.waves = 2, .k_split = 2, .max_workgroups = 6};
inline constexpr moe_fp4_config raw_s2{.waves = 2, .max_workgroups = 16};
// preshuffled weights: three register sets (K steps not a multiple of 3), stage 2's K over 2 waves
inline constexpr moe_fp4_config shuf_s1{.waves = 4, .stages = 3, .w_shuffled = true};
inline constexpr moe_fp4_config shuf_s2{.waves = 1, .k_split = 2, .stages = 3, .w_shuffled = true};
// stage 1 on x gathered into the sorted rows' layout (moe_fp4_gather_kernel of 3 waves, 2 parts:
// K steps not a multiple of the 6 waves of a block), k_split 2
inline constexpr moe_fp4_config gath_s1{.waves = 2, .k_split = 2, .w_shuffled = true, .x_gathered = true,
                                         .act = hipasm::kernels::activation::gelu};  // (GELU, erf)
inline constexpr uint32_t gather_waves = 3, gather_parts = 2;
// several consecutive blocks of an expert a workgroup: stage 1 two (x gathered, k_split 2), stage
// 2 three (groups not aligned to an expert's blocks); row-major: two each, a few workgroups
// looping over the groups
inline constexpr moe_fp4_config gath_s1_b2{.waves = 2, .k_split = 2, .blocks = 2, .w_shuffled = true, .x_gathered = true};
inline constexpr moe_fp4_config shuf_s2_b3{.waves = 2, .blocks = 3, .w_shuffled = true};
inline constexpr moe_fp4_config raw_s1_b2{.waves = 2, .blocks = 2, .max_workgroups = 6};
inline constexpr moe_fp4_config raw_s2_b2{.waves = 2, .blocks = 2, .max_workgroups = 16};
// stage 2's rows stored (rows_out) and summed over top-k by the reduce (moe_fp4_reduce_kernel of
// reduce_waves: a row of 512 over 2 workgroups, the second half idle), two 32-column tiles a wave
// (col_tiles), two blocks; and the same tiles adding into out (atomics)
inline constexpr moe_fp4_config shuf_s2_rows{.waves = 2, .blocks = 2, .w_shuffled = true, .col_tiles = 2, .rows_out = true};
inline constexpr moe_fp4_config shuf_s2_ct2{.waves = 1, .stages = 3, .blocks = 1, .w_shuffled = true, .col_tiles = 2};
inline constexpr uint32_t reduce_waves = 1;
// stage 1's token fragments loaded once a workgroup and shared through LDS (x_lds): 4 waves of
// one block, three register sets (K steps past the end: zeros); 8 waves of two blocks (runs of
// one block: the second's pieces zeros); 8 waves of one block (waves 4..7 load nothing)
inline constexpr moe_fp4_config gath_s1_xl{.waves = 4, .stages = 3, .w_shuffled = true, .x_gathered = true, .x_lds = true};
inline constexpr moe_fp4_config gath_s1_xl_b2{.waves = 8, .blocks = 2, .w_shuffled = true, .x_gathered = true, .x_lds = true};
inline constexpr moe_fp4_config gath_s1_xl_8w{.waves = 8, .w_shuffled = true, .x_gathered = true, .x_lds = true};
// the activations' quantization (aiter's rule, the default) for the tests' two widths
inline constexpr hipasm::kernels::mxfp4_quant_config quant_512{.d = 512};
inline constexpr hipasm::kernels::mxfp4_quant_config quant_1024{.d = 1024};
// both stages in one dispatch (4 waves a workgroup each): row-major (stage 2 as 4 column waves),
// preshuffled (stage 2's K over 2 waves)
inline constexpr moe_fp4_config raw_s2_4w{.waves = 4, .max_workgroups = 16};
inline constexpr moe_fp4_config shuf_s2_4w{.waves = 2, .k_split = 2, .stages = 3, .w_shuffled = true};
// the prologue (sorting and quantization in one dispatch): the quantization in the sorting's 5 waves
inline constexpr hipasm::kernels::mxfp4_quant_config quant_512_w5{.d = 512, .waves = 5};
}  // namespace fp4_moe_cfg
