// The moe_quant bench's kernel configurations, shared by moe_quant*.hip and bench_moe_quant.cpp.
#pragma once
#include <hipasm/kernels/moe_quant.hpp>

namespace moe_quant_bench {
// stage 1: 4 column waves (one h scale block), K (model_dim) over 2 waves each
constexpr hipasm::kernels::moe_quant_config s1{.waves = 4, .k_split = 2, .gated = true};
// stage 2: 4 column waves, K (inter_dim) over 2 waves each
constexpr hipasm::kernels::moe_quant_config s2{.waves = 4, .k_split = 2};
// int8 per token x per channel: the same layouts
constexpr hipasm::kernels::moe_quant_config s1_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2, .gated = true};
constexpr hipasm::kernels::moe_quant_config s2_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2};
}  // namespace moe_quant_bench
