// The sort benchmark's configurations, shared by the .hip and the program: rows of 512 sorted by
// a wave each (argsort, f32 keys with index payloads), 2048 by a 4-wave workgroup (keys only),
// 4096 and 8192 by 8 and 16 waves (argsort; the MoE token sort's i32 expert ids).
#pragma once
#include <hipasm/kernels/sort.hpp>

namespace bench_cfg {
using hipasm::kernels::sort_config;
using hipasm::kernels::sort_key;
using hipasm::kernels::sort_payload;
constexpr sort_config sort_wave512_idx{.key = sort_key::f32, .payload = sort_payload::index, .per_lane = 8, .waves = 4,
                                       .row_per_wave = true};
// 2048 a row per wave: 6080 waves in 4-wave groups, 5 a CU (8-wave groups: 2.5 a CU, 48.2 us
// instead of 41.4; 2-wave groups: 3040, past the bench's 8-CU sampling threshold)
constexpr sort_config sort_wave2048{.key = sort_key::f32, .per_lane = 32, .waves = 4, .row_per_wave = true,
                                    .waves_per_simd = 5};
constexpr sort_config sort_wg2048{.key = sort_key::f32, .per_lane = 8, .waves = 4};
constexpr sort_config sort_wg4096_idx{.key = sort_key::f32, .descending = true, .payload = sort_payload::index,
                                      .per_lane = 8, .waves = 8};
constexpr sort_config sort_wg8192_i32_idx{.key = sort_key::i32, .payload = sort_payload::index, .per_lane = 8, .waves = 16};
}  // namespace bench_cfg
