// The rotary benchmark's configurations (LLM attention shapes), shared by the .hip and the program.
#pragma once
#include <hipasm/kernels/rotary.hpp>

namespace bench_cfg {
using hipasm::kernels::rotary_config;
// Llama-3 8B: 32 query heads, 8 KV heads, head_dim 128, NeoX; bf16 cache (vLLM's cache dtype)
constexpr rotary_config rope_llama8b{.head_dim = 128, .rot_dim = 128, .heads_q = 32, .heads_k = 8, .neox = true,
                                     .cache_f32 = false, .waves = 4};
// Llama-3 70B: 64 / 8 heads, f32 cache
constexpr rotary_config rope_llama70b{.head_dim = 128, .rot_dim = 128, .heads_q = 64, .heads_k = 8, .neox = true,
                                      .cache_f32 = true, .waves = 4};
// GPT-J 6B: 16 heads of 256, rotary on the first 64 dims, interleaved
constexpr rotary_config rope_gptj6b{.head_dim = 256, .rot_dim = 64, .heads_q = 16, .heads_k = 16, .neox = false,
                                    .cache_f32 = true, .waves = 2};
}  // namespace bench_cfg
