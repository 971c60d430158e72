// Rotating buffers as C++ values: a ring of register handles or LDS allocations whose
// rotation is a compile-time index shift, so a C++ loop (or loops.hpp's software_pipeline)
// ping-pongs buffers without a single move instruction.
//
//   auto bufs = make_ring(J.vgpr<u32>(8), J.vgpr<u32>(8));     // or LDS: make_ring(J.lds<float>(256), ...)
//   for (int k = 0; k < 4; ++k) { load(bufs[1]); compute(bufs[0]); bufs.rotate(); }
//
// (Register handles alias, so a ring holds the same registers the handles name; gpr::rebind
// and swap_handles (registers.hpp) do the same for two named handles.)
#pragma once

namespace hipasm {

template <class T, int N>
struct ring {
  static_assert(N >= 1, "a ring holds at least one buffer");
  T items[N];
  int head = 0;

  // Buffer i counted from the current head (any integer; taken modulo N).
  constexpr T& operator[](int i) { return items[((head + i) % N + N) % N]; }
  constexpr const T& operator[](int i) const { return items[((head + i) % N + N) % N]; }
  // Buffer 0 becomes what was buffer `by`.
  constexpr void rotate(int by = 1) { head = ((head + by) % N + N) % N; }
  static constexpr int size() { return N; }
};

template <class T, class... U>
constexpr ring<T, 1 + static_cast<int>(sizeof...(U))> make_ring(const T& first, const U&... rest) {
  return ring<T, 1 + static_cast<int>(sizeof...(U))>{{first, static_cast<const T&>(rest)...}, 0};
}

}  // namespace hipasm
