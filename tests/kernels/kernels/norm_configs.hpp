// The norm kernels' test configurations, shared by norm.hip and test_norm.cpp: tails (hidden
// not a multiple of a step), one and several steps, 1/2/4 waves, with and without the fused
// residual add.
#pragma once
#include <hipasm/kernels/norm.hpp>

namespace cfg {
using hipasm::kernels::norm_config;
constexpr norm_config rms_1000{.hidden = 1000, .residual = false, .waves = 1};
constexpr norm_config rms_res_3000{.hidden = 3000, .residual = true, .waves = 2};
constexpr norm_config rms_res_4096{.hidden = 4096, .residual = true, .waves = 4};
constexpr norm_config rms_2{.hidden = 2, .residual = false, .waves = 1};
constexpr norm_config ln_1000{.hidden = 1000, .residual = false, .waves = 1};
constexpr norm_config ln_res_3000{.hidden = 3000, .residual = true, .waves = 2};
constexpr norm_config ln_8192{.hidden = 8192, .residual = false, .waves = 4};
// f16 rows
constexpr norm_config rms_f16_1000{.hidden = 1000, .residual = false, .waves = 2, .f16 = true};
constexpr norm_config rms_f16_res_3000{.hidden = 3000, .residual = true, .waves = 2, .f16 = true};
constexpr norm_config ln_f16_1000{.hidden = 1000, .residual = false, .waves = 1, .f16 = true};
constexpr norm_config ln_f16_res_8192{.hidden = 8192, .residual = true, .waves = 4, .f16 = true};
}  // namespace cfg
