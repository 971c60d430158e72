// Host-side checks shared by the norm kernels' launch functions (rmsnorm.hpp, layernorm.hpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>

#include "norm.hpp"

namespace hipasm::kernels::detail {
inline void check_norm_launch(const norm_config& c, uint32_t rows, uint64_t out, uint64_t in, uint64_t weight,
                              uint64_t residual, uint64_t residual_out, uint64_t bias) {
  if (rows == 0) throw std::invalid_argument("hipasm norm launch: rows must be >= 1");
  if (!out || !in || !weight || !residual || !residual_out || !bias)
    throw std::invalid_argument("hipasm norm launch: a tensor the configuration reads or writes is null");
  if (static_cast<uint64_t>(rows) * static_cast<uint64_t>(c.hidden) * 2u >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm norm launch: rows * hidden * 2 bytes must be below 4 GiB (32-bit row offsets), got " +
                                std::to_string(rows) + " x " + std::to_string(c.hidden));
}
}  // namespace hipasm::kernels::detail
