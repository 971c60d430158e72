// The dynamic_quant benchmarks' configurations: LLM hidden sizes (4096, 8192) and MLP
// intermediate sizes (14336, 18944: the down projection's input), bf16 rows to fp8 and int8.
#pragma once
#include <hipasm/kernels/dynamic_quant.hpp>

namespace bench_cfg {
using hipasm::quant_type;
using hipasm::kernels::dynamic_quant_config;
constexpr dynamic_quant_config fp8_4096{.d = 4096, .type = quant_type::fp8, .waves = 4};
constexpr dynamic_quant_config i8_4096{.d = 4096, .type = quant_type::i8, .waves = 4};
constexpr dynamic_quant_config fp8_8192{.d = 8192, .type = quant_type::fp8, .waves = 8};
constexpr dynamic_quant_config fp8_14336{.d = 14336, .type = quant_type::fp8, .waves = 8};
constexpr dynamic_quant_config i8_18944{.d = 18944, .type = quant_type::i8, .waves = 16};
}  // namespace bench_cfg
