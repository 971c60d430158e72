// The host reference of an lds_view's element placement (test_lds.cpp, test_lds_high_sim.cpp):
// rows x cols elements of eb bytes, pad bytes after each row, and an XOR swizzle of `chunk`-byte
// pieces of a row by (row / row_div) % groups.
#pragma once
#include <cstdint>

namespace hipasm::test {

struct lds_layout {
  uint32_t rows, cols, eb, pad = 0, chunk = 0, groups = 1, row_div = 1;
};
// Byte offset of element (r, c) inside the view.
inline uint32_t lds_byte_of(const lds_layout& L, uint32_t r, uint32_t c) {
  uint32_t in_row = c * L.eb;
  if (L.chunk) {
    uint32_t chunk_index = in_row / L.chunk;
    chunk_index ^= (r / L.row_div) % L.groups;
    in_row = chunk_index * L.chunk + in_row % L.chunk;
  }
  return r * (L.cols * L.eb + L.pad) + in_row;
}
// The value the roundtrip kernels store at element (r, c).
inline uint32_t lds_value_of(const lds_layout& L, uint32_t r, uint32_t c) {
  return L.eb == 4 ? (r << 12) | c : ((r << 8) | c);
}

}  // namespace hipasm::test
