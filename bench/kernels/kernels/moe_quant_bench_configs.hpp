// The moe_quant bench's kernel configurations, shared by moe_quant*.hip and bench_moe_quant.cpp.
#pragma once
#include <hipasm/kernels/moe_quant.hpp>

namespace moe_quant_bench {
// stage 1: 4 column waves (one h scale block), K (model_dim) over 2 waves each
constexpr hipasm::kernels::moe_quant_config s1{.waves = 4, .k_split = 2, .gated = true};
// one pass (stage 1 and its down slice a workgroup, launch_moe_quant_onepass): 4 waves of the
// whole K (256 threads: two workgroups a CU at 176 VGPRs, so a decode grid is resident at once;
// s1's 8 waves: one a CU, 4 tokens of DeepSeek V3 in two rounds, 327.5 against 297.7 us; three K
// blocks in flight: 298.5); where moe_quant_onepass_suits (op_per_cu a CU), else the fused
// kernel (int8 at 1 token: 63.5 against 47.4 us, 64 workgroups; at 32 tokens 235.1 against
// 177.8 us, 8 rows an expert: the down slices' atomics)
constexpr hipasm::kernels::moe_quant_config op{.waves = 4, .k_split = 1, .gated = true};
constexpr hipasm::kernels::moe_quant_config op_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 1, .gated = true};
constexpr uint32_t op_per_cu = 2;
// stage 2: 8 column waves of the whole K (inter_dim): 256 columns of dim a workgroup (fewer,
// longer workgroups than 4 x 2: 109.7 against 110.6 us on the 1-token DeepSeek V3 row)
constexpr hipasm::kernels::moe_quant_config s2{.waves = 8, .k_split = 1};
// the same with two 32-row tiles a wave (512 columns of dim a workgroup, twice the weight bytes in
// flight) where that still gives every CU a stage-2 workgroup: ceil(dim / 512) x routed experts
// at least the CUs (bench_moe_quant.cpp); with fewer, CUs idle (1 token: 9 experts)
constexpr hipasm::kernels::moe_quant_config s2_rt2{.waves = 8, .k_split = 1, .row_tiles = 2};
// the fused rt2 kernel in 4-wave workgroups (stage 1 of the whole K a wave, stage 2 4 waves x 2
// row tiles: 256 columns of dim): two a CU, so stage 1's 16 x 33 workgroups of DeepSeek V3 at 32
// tokens run in one round on the MI300X (bench_moe_quant.cpp picks it)
constexpr hipasm::kernels::moe_quant_config s1_w4{.waves = 4, .k_split = 1, .gated = true};
constexpr hipasm::kernels::moe_quant_config s2_rt2_w4{.waves = 4, .k_split = 1, .row_tiles = 2};
// int8 per token x per channel: the same layouts
constexpr hipasm::kernels::moe_quant_config s1_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2, .gated = true};
// stage 2 for int8: 4 column waves x 2 where 8 x 1 would leave most CUs without a workgroup (1
// token of the 6144-dim row: 47.3 against 53.4 us), else 8 x 1 (32 tokens: 177.0 against 185.9 us)
constexpr hipasm::kernels::moe_quant_config s2_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2};
constexpr hipasm::kernels::moe_quant_config s2_i8_wide{.type = hipasm::kernels::quant_type::i8, .waves = 8, .k_split = 1};
// the int8 fused kernel in 4-wave workgroups (rt2_w4's layout: stage 1 of the whole K a wave,
// stage 2 4 waves x 2 row tiles): two a CU
constexpr hipasm::kernels::moe_quant_config s1_i8_w4{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 1, .gated = true};
constexpr hipasm::kernels::moe_quant_config s2_i8_rt2_w4{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 1, .row_tiles = 2};
// the wide one when it makes at least this many stage-2 workgroups (ceil(dim / 256) x routed experts)
constexpr uint32_t wide_min_groups = 128;
}  // namespace moe_quant_bench
