// The mxfp4_quant benchmarks' configurations (gfx950): bf16 rows of LLM hidden sizes (4096;
// DeepSeek's 7168), aiter's scale rule (the default).
#pragma once
#include <hipasm/kernels/mxfp4_quant.hpp>

namespace bench_cfg {
using hipasm::kernels::mxfp4_quant_config;
constexpr mxfp4_quant_config mxfp4_4096{.d = 4096};
constexpr mxfp4_quant_config mxfp4_7168{.d = 7168};
}  // namespace bench_cfg
