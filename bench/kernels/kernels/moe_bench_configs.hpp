// The moe bench's kernel configurations, shared by moe.hip, moe_sorting.hip and bench_moe.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>

namespace moe_bench {
constexpr hipasm::kernels::moe_sorting_config sort{.max_experts = 256, .waves = 4};
// stage 1: K (model_dim, 2048-7168) over 8 waves of a column block (more loads in flight)
constexpr hipasm::kernels::moe_gemm_config g1u1{.waves = 1, .unroll = 4, .gated = true, .k_split = 4, .lds_weights = true};
constexpr hipasm::kernels::moe_gemm_config g1u0{.waves = 1, .unroll = 4, .gated = false, .k_split = 8, .lds_weights = true};
// stage 2: K (inter_dim) is short; stage 1's workgroup size (8 waves: one dispatch)
constexpr hipasm::kernels::moe_gemm_config down_fused{.waves = 4, .unroll = 4, .k_split = 2, .lds_weights = true};
constexpr hipasm::kernels::moe_gemm_config down_g1u1{.waves = 2, .unroll = 4, .k_split = 2, .lds_weights = true};
}  // namespace moe_bench
