// The dynamic_quant benchmarks' configurations: LLM hidden sizes (4096, 8192) and MLP
// intermediate sizes (14336, 18944: the down projection's input), bf16 rows to fp8 and int8;
// rmsnorm + residual add + fp8 quantization at 4096 / 8192; fp8 with a scale per 1x128 block at
// DeepSeek-V3's hidden size 7168 (7 waves: two whole steps) and dense intermediate size 18432.
#pragma once
#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

namespace bench_cfg {
using hipasm::kernels::quant_type;
using hipasm::kernels::dynamic_quant_config;
constexpr dynamic_quant_config fp8_4096{.d = 4096, .type = quant_type::fp8, .waves = 4};
constexpr dynamic_quant_config i8_4096{.d = 4096, .type = quant_type::i8, .waves = 4};
constexpr dynamic_quant_config fp8_8192{.d = 8192, .type = quant_type::fp8, .waves = 8};
constexpr dynamic_quant_config fp8_14336{.d = 14336, .type = quant_type::fp8, .waves = 8};
constexpr dynamic_quant_config i8_18944{.d = 18944, .type = quant_type::i8, .waves = 16};
constexpr dynamic_quant_config fp8_block128_7168{.d = 7168, .type = quant_type::fp8, .waves = 7, .block = 128};
constexpr dynamic_quant_config fp8_block128_18432{.d = 18432, .type = quant_type::fp8, .waves = 12, .block = 128};
// rmsnorm fused with the quantization (rmsnorm_quant), with the residual add
using hipasm::kernels::norm_config;
constexpr norm_config rq_4096_res{.hidden = 4096, .residual = true, .waves = 4};
constexpr norm_config rq_8192_res{.hidden = 8192, .residual = true, .waves = 8};
}  // namespace bench_cfg
