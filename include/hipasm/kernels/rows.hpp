// Shared by the row-wise kernels (norm.hpp, softmax.hpp, dynamic_quant.hpp): a buffer resource
// over one row, a row loaded into registers; and by the streaming kernels (those, rotary.hpp,
// gemv.hpp) the preloaded-arguments wrapper.
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::kernels::detail {

// A kernel whose arguments are preloaded into SGPRs when the code object is built with
// KERNARG_PRELOAD (hipasm_add_code_object), else loaded: its first loads go out without the
// kernarg load's latency (a streaming kernel's first round waits for nothing else).
template <auto Kernel>
inline constexpr auto preloaded = with_options<Kernel, kernel_options{.kernarg_preload = arg_preload::fitting}>;

// A buffer resource over one row of a row-major [rows][cols] tensor: a lane past its
// end loads zeros and its stores are dropped (buffer.hpp, TAIL TILES).
constexpr buffer row_buffer(builder J, const gpr<dtype::u64>& base, const val<dtype::u32>& row_byte_offset,
                            uint32_t row_bytes) {
  buffer b = make_buffer(J, base, row_bytes);
  b.shift_base(row_byte_offset);
  return b;
}

// A row in registers: lane t's 16 bytes of step k at byte 16 t + k * step_bytes (8 bf16 or 4 f32
// elements), all K loads issued, then waited for.
struct row_in_regs {
  gpr<dtype::u32> raw;  // the 4 K dwords as loaded
  gpr<dtype::f32> x;    // the elements as f32 (an f32 row: raw itself); element i of lane t is
                        // column E t + (i / E) step + i % E, E = 8 (bf16) or 4
};
template <int K, bool Bf16>
constexpr row_in_regs load_row(builder J, const buffer& X, const gpr<dtype::u32>& voff, int step_bytes) {
  auto raw = J.vgpr<dtype::u32>(4 * K);
  for (int k = 0; k < K; ++k) X.load(raw.slice(4 * k, 4), voff + k * step_bytes);
  J.s_waitcnt(vmcnt(0));
  auto x = Bf16 ? J.vgpr<dtype::f32>(8 * K) : raw.template as<dtype::f32>();
  if constexpr (Bf16)
    for (int i = 0; i < 8 * K; ++i) x[i] = to_f32(raw[i / 2].template as<dtype::bf16x2>(), i % 2);
  return {raw, x};
}

}  // namespace hipasm::kernels::detail
