// The all-reduce configurations of tests/kernels/test_all_reduce.cpp.
#pragma once
#include <hipasm/kernels/all_reduce.hpp>

namespace cfg {
using hipasm::kernels::all_reduce_config;
using hipasm::kernels::all_reduce_type;
using hipasm::kernels::all_reduce_algo;
constexpr all_reduce_config ar_bf16_2{.ranks = 2, .type = all_reduce_type::bf16, .max_groups = 2};
constexpr all_reduce_config ar_bf16_4{.ranks = 4, .type = all_reduce_type::bf16};
constexpr all_reduce_config ar_bf16_8{.ranks = 8, .type = all_reduce_type::bf16};
constexpr all_reduce_config ar_f32_2{.ranks = 2, .type = all_reduce_type::f32, .max_groups = 3};
constexpr all_reduce_config ar_f32_8{.ranks = 8, .type = all_reduce_type::f32};
constexpr all_reduce_config ar_bf16_4_inplace{.ranks = 4, .type = all_reduce_type::bf16, .in_place = true};
constexpr all_reduce_config ar_f32_8_inplace{.ranks = 8, .type = all_reduce_type::f32, .in_place = true, .waves = 2};
constexpr all_reduce_config ar2_bf16_4{.ranks = 4, .type = all_reduce_type::bf16, .algo = all_reduce_algo::two_shot,
                                      .max_groups = 2};
constexpr all_reduce_config ar2_bf16_8{.ranks = 8, .type = all_reduce_type::bf16, .algo = all_reduce_algo::two_shot};
constexpr all_reduce_config ar2_f32_2_inplace{.ranks = 2, .type = all_reduce_type::f32, .in_place = true,
                                             .algo = all_reduce_algo::two_shot, .max_groups = 3};
constexpr all_reduce_config ar2_bf16_8_inplace{.ranks = 8, .type = all_reduce_type::bf16, .in_place = true,
                                              .algo = all_reduce_algo::two_shot};
using hipasm::kernels::all_reduce_rmsnorm_config;
constexpr all_reduce_rmsnorm_config arn_2_2048{.ranks = 2, .hidden = 2048, .waves = 4, .max_groups = 2};
constexpr all_reduce_rmsnorm_config arn_8_8192{.ranks = 8, .hidden = 8192, .waves = 4};
constexpr all_reduce_rmsnorm_config arnq_4_4096{.ranks = 4, .hidden = 4096, .waves = 4, .max_groups = 2};
}  // namespace cfg
