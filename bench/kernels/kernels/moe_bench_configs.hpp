// The moe bench's kernel configurations, shared by moe.hip, moe_sorting.hip and bench_moe.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>

namespace moe_bench {
constexpr hipasm::kernels::moe_sorting_config sort{.max_experts = 256, .waves = 4};
// DeepSeek V3's 256 routed experts and the shared one (the MI355X rows of aiter's block-scale table)
constexpr hipasm::kernels::moe_sorting_config sort_257{.max_experts = 257, .waves = 5};
// stage 1: K (model_dim, 2048-7168) over 4 (g1u1: two weight tiles a wave, 32 KB of LDS) or
// 8 (g1u0) waves of a column block (more loads in flight). g1u1 in three register sets, both
// stages (more VGPRs, still 2 waves a SIMD); not for g1u0, whose VGPRs would pass 128 (3 waves
// a SIMD instead of 4, slower)
constexpr hipasm::kernels::moe_gemm_config g1u1{.waves = 1, .unroll = 4, .gated = true, .k_split = 4, .lds_weights = true, .pipeline = 3};
constexpr hipasm::kernels::moe_gemm_config g1u0{.waves = 1, .unroll = 4, .gated = false, .k_split = 8, .lds_weights = true};
// stage 2 (K: inter_dim) in stage 1's workgroup size (one dispatch): g1u0 8 waves, 4 column
// waves x 2 (short K), 8 x 1 (mid K) or 2 x 4 (long K, inter >= moe_bench::long_k: more
// workgroups, each K range still long), g1u1 4 waves
constexpr hipasm::kernels::moe_gemm_config down_fused{.waves = 4, .unroll = 4, .k_split = 2, .lds_weights = true};
constexpr hipasm::kernels::moe_gemm_config down_fused_long_k{.waves = 2, .unroll = 4, .k_split = 4, .lds_weights = true};
constexpr uint32_t long_k = 2048;
// inter from moe_bench::mid_k up to long_k: 8 column waves, each a column block's whole K (8 load
// groups and more a wave; no slower than 4 x 2)
constexpr hipasm::kernels::moe_gemm_config down_fused_mid_k{.waves = 8, .unroll = 4, .k_split = 1, .lds_weights = true};
constexpr uint32_t mid_k = 512;
constexpr hipasm::kernels::moe_gemm_config down_g1u1{.waves = 2, .unroll = 4, .k_split = 2, .lds_weights = true, .pipeline = 3};
}  // namespace moe_bench
