// The sort kernel's test configurations, shared by sort.hip and test_sort.cpp: f32 / i32 / u32
// keys, both directions, no payload / values / indices, 1-32 elements per lane, a row per wave
// and per workgroup (2 to 16 waves: the cross-wave steps through LDS).
#pragma once
#include <hipasm/kernels/sort.hpp>

namespace cfg {
using hipasm::kernels::sort_config;
using hipasm::kernels::sort_key;
using hipasm::kernels::sort_payload;
constexpr sort_config f32_asc_4{.key = sort_key::f32, .per_lane = 4};
constexpr sort_config f32_desc_idx_8_rows{.key = sort_key::f32, .descending = true, .payload = sort_payload::index,
                                          .per_lane = 8, .waves = 2, .row_per_wave = true};
constexpr sort_config i32_asc_val_2_wg4{.key = sort_key::i32, .payload = sort_payload::values, .per_lane = 2, .waves = 4};
constexpr sort_config u32_desc_16_wg2{.key = sort_key::u32, .descending = true, .per_lane = 16, .waves = 2};
constexpr sort_config f32_asc_idx_4_wg16{.key = sort_key::f32, .payload = sort_payload::index, .per_lane = 4, .waves = 16};
constexpr sort_config i32_desc_val_16_wg8{.key = sort_key::i32, .descending = true, .payload = sort_payload::values,
                                          .per_lane = 16, .waves = 8};
constexpr sort_config u32_asc_1{.key = sort_key::u32, .per_lane = 1};
// i32 argsort (f64-packed pairs) with 2 a lane across 4 waves
constexpr sort_config i32_desc_idx_2_wg4{.key = sort_key::i32, .descending = true, .payload = sort_payload::index,
                                         .per_lane = 2, .waves = 4};
// 32 a lane, a row per wave (2048 elements): keys only and f32 argsort (f64-packed pairs)
constexpr sort_config f32_asc_32_rows{.key = sort_key::f32, .per_lane = 32, .waves = 2, .row_per_wave = true};
constexpr sort_config f32_asc_idx_32_rows{.key = sort_key::f32, .payload = sort_payload::index, .per_lane = 32,
                                          .waves = 2, .row_per_wave = true};
// the store's LDS transpose a row per wave in two passes (16 a lane) with values; the 1 KiB-piece
// loads with lane-major stores across 4 waves (8 a lane)
constexpr sort_config i32_desc_val_16_rows{.key = sort_key::i32, .descending = true, .payload = sort_payload::values,
                                           .per_lane = 16, .waves = 2, .row_per_wave = true};
constexpr sort_config f32_asc_8_wg4{.key = sort_key::f32, .per_lane = 8, .waves = 4};
// keys without a payload on the network's own compares: f32 descending across 2 waves (signed,
// the network descending, g on negative keys), i32 ascending 32 a lane a row per wave (the
// transposed store), i32 descending 8 a lane a row per wave (lane-major stores)
constexpr sort_config f32_desc_16_wg2{.key = sort_key::f32, .descending = true, .per_lane = 16, .waves = 2};
constexpr sort_config i32_asc_32_rows{.key = sort_key::i32, .per_lane = 32, .waves = 2, .row_per_wave = true};
constexpr sort_config i32_desc_8_rows{.key = sort_key::i32, .descending = true, .per_lane = 8, .waves = 2,
                                      .row_per_wave = true};
}  // namespace cfg
