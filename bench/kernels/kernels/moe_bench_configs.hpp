// The moe bench's kernel configurations, shared by moe.hip, moe_sorting.hip and bench_moe.cpp.
#pragma once
#include <hipasm/kernels/moe.hpp>

namespace moe_bench {
constexpr hipasm::kernels::moe_sorting_config sort{.max_experts = 256, .waves = 4};
constexpr hipasm::kernels::moe_gemm_config g1u1{.waves = 4, .unroll = 4, .gated = true};
constexpr hipasm::kernels::moe_gemm_config g1u0{.waves = 4, .unroll = 4, .gated = false};
}  // namespace moe_bench
