// The norm benchmarks' configurations (LLM hidden sizes), shared by the .hip and the programs.
#pragma once
#include <hipasm/kernels/norm.hpp>

namespace bench_cfg {
using hipasm::kernels::norm_config;
constexpr norm_config h4096{.hidden = 4096, .residual = false, .waves = 4};
constexpr norm_config h4096_res{.hidden = 4096, .residual = true, .waves = 4};
constexpr norm_config h8192{.hidden = 8192, .residual = false, .waves = 4};
constexpr norm_config h8192_res{.hidden = 8192, .residual = true, .waves = 4};
constexpr norm_config h4096_f16{.hidden = 4096, .residual = false, .waves = 4, .f16 = true};
}  // namespace bench_cfg
