// Shared by the row-wise kernels (norm.hpp, softmax.hpp): a buffer resource over one row.
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::kernels::detail {

// A buffer resource over one row of a row-major [rows][cols] tensor: a lane past its
// end loads zeros and its stores are dropped (buffer.hpp, TAIL TILES).
constexpr buffer row_buffer(builder J, const gpr<dtype::u64>& base, const val<dtype::u32>& row_byte_offset,
                            uint32_t row_bytes) {
  buffer b = make_buffer(J, base, row_bytes);
  b.shift_base(row_byte_offset);
  return b;
}

}  // namespace hipasm::kernels::detail
