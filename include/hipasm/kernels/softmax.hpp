// Softmax of the rows of a bf16 or f32 tensor (f32 math), out[r][i] = exp(x_i - max) / sum_j exp(x_j - max).
//
// One workgroup of C.waves waves per row, the row in registers (16-byte buffer loads: 8 bf16 or
// 4 f32 per lane and step), one read and one write of the row; the max and the sum are
// workgroup_reduce over LDS. A row's tail: lanes past its end load zeros (buffer range check),
// which are replaced by -inf before the max (exp then gives 0) and whose stores are dropped.
// Edge values, as the formula in IEEE f32 (and PyTorch) gives them: -inf entries give 0; a row
// of -inf only, a row holding +inf or a NaN gives NaN in the whole row.
// `.log = true`: log-softmax, out[r][i] = x_i - max - ln sum_j exp(x_j - max) (-inf entries give
// -inf; the same NaN rows).
//
// Device side:  constexpr hipasm::kernels::softmax_config cfg{.cols = 4096, .bf16 = true, .waves = 4};
//               HIPASM_SOFTMAX_KERNEL(softmax_4096, cfg)
// Host side:    hipasm::kernels::launch_softmax<cfg>(dev, module, "softmax_4096", {.out, .in, .rows});
// Tensors row-major [rows][cols]; rows * cols * element size below 4 GiB.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct softmax_config {
  int cols = 0;      // elements per row (bf16: even)
  bool bf16 = true;  // element type of in and out: bf16 (uint16_t bits) or f32
  int waves = 4;     // waves per workgroup (one row per workgroup), 1..16
  bool log = false;  // log-softmax: x - max - ln(sum e^(x - max)) (sampling, cross-entropy)
};
constexpr int softmax_lane_elems(const softmax_config& c) { return c.bf16 ? 8 : 4; }
constexpr int softmax_step(const softmax_config& c) { return softmax_lane_elems(c) * 64 * c.waves; }
constexpr int softmax_steps(const softmax_config& c) { return (c.cols + softmax_step(c) - 1) / softmax_step(c); }
template <softmax_config C>
using softmax_elem = std::conditional_t<C.bf16, uint16_t, float>;

template <softmax_config C>
constexpr void softmax(builder J, arg<softmax_elem<C>*> out, arg<const softmax_elem<C>*> in) {
  static_assert(C.cols > 0 && (!C.bf16 || C.cols % 2 == 0),
                "hipasm softmax: cols must be positive (and even for bf16: a pair is the smallest range-checked access)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm softmax: waves must be 1..16");
  static_assert(softmax_steps(C) <= 8,
                "hipasm softmax: the row does not fit in registers (more than 8 steps of a workgroup's 16-byte "
                "loads): use more waves");
  constexpr int E = softmax_lane_elems(C), K = softmax_steps(C), N = E * K;
  constexpr int step_bytes = softmax_step(C) * (C.bf16 ? 2 : 4);
  constexpr uint32_t row_bytes = static_cast<uint32_t>(C.cols) * (C.bf16 ? 2u : 4u);

  auto t = J.thread_id_x();
  auto voff = J.vgpr<dtype::u32>();
  voff = t << 4u;
  auto row = J.sgpr<dtype::u32>();
  row = J.workgroup_id_x() * row_bytes;
  buffer X = detail::row_buffer(J, in, row, row_bytes);
  auto [raw, x] = detail::load_row<K, C.bf16>(J, X, voff, step_bytes);
  // element i of this lane is column E * lane + (i / E) * step + i % E
  if constexpr (C.cols % softmax_step(C) != 0) {
    auto eb = J.vgpr<dtype::u32>();
    eb = t * static_cast<uint32_t>(E);
    for (int i = 0; i < N; ++i) {
      const int first = (i / E) * softmax_step(C) + i % E;
      if (first + softmax_step(C) > C.cols)  // some lane's element i is past the row
        x[i] = select(eb < static_cast<uint32_t>(C.cols > first ? C.cols - first : 0), x[i],
                      -std::numeric_limits<float>::infinity());
    }
  }
  auto m = J.vgpr<dtype::f32>();
  static_assert(N >= 4);
  m = max3(x[0], x[1], x[2]);
  for (int i = 3; i + 1 < N; i += 2) m = max3(m, x[i], x[i + 1]);
  if (N % 2 == 0) m = max(m, x[N - 1]);
  auto scratch_max = J.lds<float>(C.waves, 16), scratch_sum = J.lds<float>(C.waves, 16);
  auto mx = workgroup_reduce(J, reduce::max, m, scratch_max, C.waves, {.all_lanes_active = true});
  // e^(x - max) with flush_denormals (math.hpp): the argument is <= 0, so no overflow, and
  // results below 2^-126 that flush are < 2^-126 of the row's sum (>= 1): 3 VALU against the
  // general exp's 12. Error: x - max and its product with log2 e rounded, <= 0.7 |x - max| ulp.
  // log-softmax keeps the differences (the result is x - max - ln sum): their exps only feed the sum
  auto s = J.vgpr<dtype::f32>();
  if constexpr (C.log) {
    for (int i = 0; i < N; ++i) x[i] = x[i] - mx;
    s = exp(x[0], {.flush_denormals = true}) + exp(x[1], {.flush_denormals = true});
    for (int i = 2; i < N; ++i) s = s + exp(x[i], {.flush_denormals = true});
  } else {
    for (int i = 0; i < N; ++i) x[i] = exp(x[i] - mx, {.flush_denormals = true});
    s = x[0] + x[1];
    for (int i = 2; i < N; ++i) s = s + x[i];
  }
  auto total = workgroup_reduce(J, reduce::sum, s, scratch_sum, C.waves, {.all_lanes_active = true});
  if constexpr (C.log) {
    // The sum is >= 1, so the log needs no denormal scaling: v_log_f32 and a multiply.
    auto log_sum = J.vgpr<dtype::f32>();
    log_sum = log(total, {.flush_denormals = true});
    for (int i = 0; i < N; ++i) x[i] = x[i] - log_sum;
  } else {
    auto inv = J.vgpr<dtype::f32>();
    inv = rcp(total);
    for (int i = 0; i < N; ++i) x[i] = x[i] * inv;
  }

  buffer Y = detail::row_buffer(J, out, row, row_bytes);
  for (int k = 0; k < K; ++k) {
    if constexpr (C.bf16) {
      // round to nearest even without cvt_bf16x2's NaN check: a NaN here is an input's (bf16:
      // low 16 bits zero) or one made by the arithmetic (the quiet 0x7fc00000), so adding
      // 0x7fff never carries it into an infinity
      for (int i = 0; i < 4; ++i)
        raw[4 * k + i] = cvt_bf16x2(x[8 * k + 2 * i], x[8 * k + 2 * i + 1], bf16_round::nearest_even_finite)
                             .template as<dtype::u32>();
      Y.store(raw.slice(4 * k, 4), voff + k * step_bytes);
    } else {
      Y.store(x.slice(4 * k, 4), voff + k * step_bytes);
    }
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr softmax_config).
#define HIPASM_SOFTMAX_KERNEL(NAME, CFG)                                                               \
  extern "C" __attribute__((global)) void NAME(::hipasm::kernels::softmax_elem<CFG>* out,              \
                                               const ::hipasm::kernels::softmax_elem<CFG>* in) {       \
    HIPASM_KERNEL_BODY((hipasm::kernels::detail::preloaded<hipasm::kernels::softmax<CFG>>), out, in);         \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct softmax_args {
  uint64_t out = 0, in = 0;  // device addresses
  uint32_t rows = 0;
};
template <softmax_config C>
rt::launch_report launch_softmax(rt::device& dev, rt::module& m, std::string_view kernel, const softmax_args& a,
                                 const rt::launch_options& opts = {}) {
  if (a.rows == 0) throw std::invalid_argument("hipasm softmax launch: rows must be >= 1");
  if (!a.out || !a.in) throw std::invalid_argument("hipasm softmax launch: in or out is null");
  if (static_cast<uint64_t>(a.rows) * static_cast<uint64_t>(C.cols) * (C.bf16 ? 2u : 4u) >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm softmax launch: the tensor must be below 4 GiB (32-bit row offsets), got " +
                                std::to_string(a.rows) + " x " + std::to_string(C.cols));
  rt::kernel_args args;
  args.add(a.out).add(a.in);
  return dev.launch(m, kernel, {a.rows, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
