// The act_and_mul benchmarks' configurations: LLM MLP intermediate sizes (Llama-3 8B 14336,
// Qwen2 7B 18944, Llama-2 7B 11008) and the gelu forms at 4096 / 14336.
#pragma once
#include <hipasm/kernels/act_and_mul.hpp>

namespace bench_cfg {
using hipasm::kernels::act_and_mul_config;
using hipasm::kernels::activation;
constexpr act_and_mul_config silu_11008{.d = 11008, .act = activation::silu};
constexpr act_and_mul_config silu_14336{.d = 14336, .act = activation::silu};
constexpr act_and_mul_config silu_18944{.d = 18944, .act = activation::silu};
constexpr act_and_mul_config gelu_4096{.d = 4096, .act = activation::gelu};
constexpr act_and_mul_config gelu_tanh_14336{.d = 14336, .act = activation::gelu_tanh};
}  // namespace bench_cfg
