// The moe_quant bench's kernel configurations, shared by moe_quant*.hip and bench_moe_quant.cpp.
#pragma once
#include <hipasm/kernels/moe_quant.hpp>

namespace moe_quant_bench {
// stage 1: 4 column waves (one h scale block), K (model_dim) over 2 waves each
constexpr hipasm::kernels::moe_quant_config s1{.waves = 4, .k_split = 2, .gated = true};
// stage 2: 8 column waves of the whole K (inter_dim): 256 columns of dim a workgroup (fewer,
// longer workgroups than 4 x 2: 109.7 against 110.6 us on the 1-token DeepSeek V3 row)
constexpr hipasm::kernels::moe_quant_config s2{.waves = 8, .k_split = 1};
// int8 per token x per channel: the same layouts
constexpr hipasm::kernels::moe_quant_config s1_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2, .gated = true};
constexpr hipasm::kernels::moe_quant_config s2_i8{.type = hipasm::kernels::quant_type::i8, .waves = 4, .k_split = 2};
}  // namespace moe_quant_bench
