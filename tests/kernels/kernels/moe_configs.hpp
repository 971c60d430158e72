// The moe kernels' test configurations, shared by the moe_*.hip sources and test_moe.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>

namespace cfg {
using hipasm::kernels::moe_gemm_config;
using hipasm::kernels::moe_sorting_config;
constexpr moe_sorting_config sort_64{.max_experts = 64, .waves = 1};
constexpr moe_sorting_config sort_256{.max_experts = 256, .waves = 4, .chunk_tokens = 16};  // several chunks
// chunk / 4 odd: rows 28 bytes apart (the pad of 8 that keeps the row pitch an odd number of dwords)
constexpr moe_sorting_config sort_128_c20{.max_experts = 128, .waves = 2, .chunk_tokens = 20};
constexpr moe_sorting_config sort_256_log{.max_experts = 256, .waves = 4, .chunk_tokens = 16, .debug_log = true};
constexpr moe_gemm_config gemm_g1u1{.waves = 2, .unroll = 2, .gated = true, .k_split = 2, .max_workgroups = 4};  // K over 2 waves; blocks looped over
using hipasm::kernels::activation;
// (stage 1 of gemm_g1u0 with GELU (erf), of gemm_g1u1_lds with GELU (tanh); the others SiLU)
constexpr moe_gemm_config gemm_g1u0{.waves = 2, .unroll = 2, .gated = false, .act = activation::gelu, .pipeline = 3};  // three groups' sets
// weights through LDS: one line a row and group (unroll 4), two (unroll 8); K over 2 waves; g1u1
// in three sets (the bench's)
constexpr moe_gemm_config gemm_g1u1_lds{.waves = 2, .unroll = 4, .gated = true, .act = activation::gelu_tanh, .k_split = 2, .max_workgroups = 4,
                                        .lds_weights = true, .pipeline = 3};
constexpr moe_gemm_config gemm_g1u0_lds{.waves = 2, .unroll = 8, .gated = false, .k_split = 2, .lds_weights = true};
// the fused kernel's bench configuration (8 waves a workgroup in both stages)
constexpr moe_gemm_config gemm_g1u0_8w{.waves = 1, .unroll = 4, .gated = false, .k_split = 8, .lds_weights = true};
constexpr moe_gemm_config down_8w{.waves = 4, .unroll = 4, .k_split = 2, .lds_weights = true};
constexpr moe_gemm_config down_8w_long_k{.waves = 2, .unroll = 4, .k_split = 4, .lds_weights = true};
constexpr moe_gemm_config down_8w_mid_k{.waves = 8, .unroll = 4, .k_split = 1, .lds_weights = true};
}  // namespace cfg
