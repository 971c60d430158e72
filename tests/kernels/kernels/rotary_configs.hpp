// The rotary kernel's test configurations, shared by rotary.hip and test_rotary.cpp: both styles,
// head_dim 64/128, partial rotary (rot_dim < head_dim: the copy), f32 and bf16 caches, partial
// head steps, no key heads, a rot_dim whose lanes do not fill the workgroup (24: 3 lanes a head).
#pragma once
#include <hipasm/kernels/rotary.hpp>

namespace cfg {
using hipasm::kernels::rotary_config;
constexpr rotary_config neox_128{.head_dim = 128, .rot_dim = 128, .heads_q = 12, .heads_k = 2, .neox = true,
                                 .cache_f32 = true, .waves = 1};
constexpr rotary_config gptj_64{.head_dim = 64, .rot_dim = 64, .heads_q = 5, .heads_k = 3, .neox = false,
                                .cache_f32 = false, .waves = 1};
constexpr rotary_config neox_128_r64{.head_dim = 128, .rot_dim = 64, .heads_q = 32, .heads_k = 8, .neox = true,
                                     .cache_f32 = true, .waves = 2};
constexpr rotary_config gptj_128_r24{.head_dim = 128, .rot_dim = 24, .heads_q = 7, .heads_k = 0, .neox = false,
                                     .cache_f32 = true, .waves = 1};
constexpr rotary_config neox_64_r32_bf16{.head_dim = 64, .rot_dim = 32, .heads_q = 3, .heads_k = 1, .neox = true,
                                         .cache_f32 = false, .waves = 1};
}  // namespace cfg
