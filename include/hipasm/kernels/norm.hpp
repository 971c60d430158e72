// RMSnorm and layernorm over the rows of a bf16 or f16 tensor (rmsnorm.hpp and layernorm.hpp are
// the public entry points; this header is their shared body).
//
// One workgroup of `waves` waves per row; each lane holds its part of the row in registers
// (16-byte buffer loads, 8 elements each), so the row is read once and written once: the math
// is f32, the reductions are workgroup_reduce through LDS. f16 rows (norm_config::f16: every
// tensor f16) convert with v_cvt_f32_f16 in and cvt_f16x2 out (round to nearest even, overflow
// to inf: 2 VALU a pair where bf16's rounding with its NaN check takes 11). A row whose length is not a
// multiple of the 8 * 64 * waves elements a step covers ends in a tail step: the row's
// buffer resource is exactly the row, so the lanes past its end load zeros and their stores
// are dropped (buffer.hpp, TAIL TILES) with no branch.
//
// Fused residual add (config.residual): x = in + residual in f32; residual_out receives x
// rounded to bf16 and the norm is taken of the f32 x (vLLM's fused_add_rms_norm order).
//
// Fused dynamic quantization (norm_out::fp8 / i8; aiter's rmsnorm2d_fwd_with_dynamicquant): the
// f32 result y = norm(x) * weight (+ bias) is quantized per row as dynamic_quant.hpp does (the
// same code: scale = max(amax / qmax, 1 / (512 qmax)), q = sat(rne(y * (1 / scale)))), out is q
// (hidden bytes a row) and the row's f32 scale goes to scales[row].
#pragma once
#include <cstdint>

#include "../hipasm.hpp"
#include "dynamic_quant.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

// The compile-time configuration of a norm kernel.
struct norm_config {
  int hidden = 0;         // elements per row (even: a bf16 pair is the smallest access)
  bool residual = false;  // fused residual add: x = in + residual, residual_out = x
  int waves = 4;          // waves per workgroup (one row per workgroup), 1..16
  bool f16 = false;       // in, residual, weight, bias, out and residual_out are f16 (else bf16)
};

// Elements one workgroup step covers and the number of steps for a row.
constexpr int norm_step(const norm_config& c) { return 8 * 64 * c.waves; }
constexpr int norm_steps(const norm_config& c) { return (c.hidden + norm_step(c) - 1) / norm_step(c); }

namespace detail {

enum class norm_kind { rms, layer };
enum class norm_out { bf16, fp8, i8 };  // the output: bf16 rows, or quantized rows and scales

template <norm_config C>
constexpr void check_norm_config() {
  static_assert(C.hidden > 0 && C.hidden % 2 == 0,
                "hipasm norm kernels: hidden must be a positive even element count (a bf16 pair is the "
                "smallest access a row's tail can be range-checked with)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm norm kernels: waves must be 1..16");
  static_assert(norm_steps(C) <= 8,
                "hipasm norm kernels: the row does not fit in registers (more than 8 steps of 8*64*waves "
                "elements): use more waves");
}

// Element i (0, 1) of a register holding two bf16 / f16 as f32; two f32 as the pair.
template <bool F16>
constexpr gpr<dtype::f32> elem_f32(const gpr<dtype::u32>& pair, int i,
                                   std::source_location l = std::source_location::current()) {
  if constexpr (F16) return to_f32(pair.template as<dtype::f16x2>(), i, l);
  else return to_f32(pair.template as<dtype::bf16x2>(), i, l);
}
template <bool F16>
constexpr gpr<dtype::u32> elem_pair(const val<dtype::f32>& a, const val<dtype::f32>& b) {
  if constexpr (F16) return cvt_f16x2(a, b).template as<dtype::u32>();
  else return cvt_bf16x2(a, b).template as<dtype::u32>();
}

// The whole kernel: out (and residual_out) = norm(in (+ residual)) * weight (+ bias).
template <norm_kind Kind, norm_config C, norm_out Out = norm_out::bf16>
constexpr void norm_rows(builder J, const gpr<dtype::u64>& out, const gpr<dtype::u64>& residual_out,
                         const gpr<dtype::u64>& in, const gpr<dtype::u64>& residual,
                         const gpr<dtype::u64>& weight, const gpr<dtype::u64>* bias, const val<dtype::f32>& eps,
                         const gpr<dtype::u64>* scales = nullptr) {
  check_norm_config<C>();
  constexpr int K = norm_steps(C);
  constexpr int step_bytes = norm_step(C) * 2;
  constexpr uint32_t row_bytes = static_cast<uint32_t>(C.hidden) * 2u;
  constexpr bool tail = C.hidden % norm_step(C) != 0;

  auto t = J.thread_id_x();
  auto voff = J.vgpr<dtype::u32>();
  voff = t << 4u;  // 16 bytes (8 elements) per lane and step
  auto row = J.sgpr<dtype::u32>();
  row = J.workgroup_id_x() * row_bytes;

  buffer X = row_buffer(J, in, row, row_bytes);
  buffer W = make_buffer(J, weight, row_bytes);
  auto xv = J.vgpr<dtype::u32>(4 * K), wv = J.vgpr<dtype::u32>(4 * K);
  auto rv = J.vgpr<dtype::u32>(C.residual ? 4 * K : 1);
  auto bv = J.vgpr<dtype::u32>(Kind == norm_kind::layer ? 4 * K : 1);
  // (gpr's operator= emits a move: the optional resources are built in their initializers)
  const buffer R = C.residual ? row_buffer(J, residual, row, row_bytes) : X;
  const buffer B = Kind == norm_kind::layer ? make_buffer(J, *bias, row_bytes) : W;
  // Issue every load of the row first (the row's bytes in flight at once), the inputs before
  // the weights: the reduction needs only the inputs.
  for (int k = 0; k < K; ++k) {
    X.load(xv.slice(4 * k, 4), voff + k * step_bytes);
    if constexpr (C.residual) R.load(rv.slice(4 * k, 4), voff + k * step_bytes);
  }
  for (int k = 0; k < K; ++k) {
    W.load(wv.slice(4 * k, 4), voff + k * step_bytes);
    if constexpr (Kind == norm_kind::layer) B.load(bv.slice(4 * k, 4), voff + k * step_bytes);
  }

  // x in f32: element 8k + j of this lane is x[8k + j]
  auto x = J.vgpr<dtype::f32>(8 * K);
  // vector memory completes in order (gfx9): leave the weight (and bias) loads in flight
  J.s_waitcnt(vmcnt(static_cast<uint16_t>(Kind == norm_kind::layer ? 2 * K : K)));
  for (int i = 0; i < 8 * K; ++i) {
    x[i] = elem_f32<C.f16>(xv[i / 2], i % 2);
    if constexpr (C.residual) x[i] = x[i] + elem_f32<C.f16>(rv[i / 2], i % 2);
  }
  if constexpr (C.residual) {
    buffer RO = row_buffer(J, residual_out, row, row_bytes);
    for (int k = 0; k < K; ++k) {
      for (int i = 0; i < 4; ++i) rv[4 * k + i] = elem_pair<C.f16>(x[8 * k + 2 * i], x[8 * k + 2 * i + 1]);
      RO.store(rv.slice(4 * k, 4), voff + k * step_bytes);
    }
  }

  auto sc = J.vgpr<dtype::f32>();
  auto scale = J.vgpr<dtype::f32>();
  auto mean = J.vgpr<dtype::f32>();
  if constexpr (Kind == norm_kind::rms) {
    sc = x[0] * x[0];
    for (int i = 1; i < 8 * K; ++i) J.v_fmac_f32(sc, x[i], x[i]);
    auto scratch = J.lds<float>(C.waves, 16);
    auto tot = workgroup_reduce(J, reduce::sum, sc, scratch, C.waves, {.all_lanes_active = true});
    scale = rsqrt(tot * (1.0f / static_cast<float>(C.hidden)) + eps);
  } else {
    // Two passes over the registers (mean, then the squared deviations): no cancellation of
    // E[x^2] - mean^2 for rows far from zero mean.
    sc = x[0] + x[1];
    for (int i = 2; i < 8 * K; ++i) sc = sc + x[i];
    auto scratch = J.lds<float>(C.waves, 16), scratch2 = J.lds<float>(C.waves, 16);
    auto tot = workgroup_reduce(J, reduce::sum, sc, scratch, C.waves, {.all_lanes_active = true});
    mean = tot * (1.0f / static_cast<float>(C.hidden));
    auto eb = J.vgpr<dtype::u32>();
    if constexpr (tail) eb = t << 3u;  // this lane's first element in a step
    for (int i = 0; i < 8 * K; ++i) {
      x[i] = x[i] - mean;
      if constexpr (tail) {
        const int first = (i / 8) * norm_step(C) + (i % 8);  // element i's index minus 8 * lane
        if (first + 8 * 64 * C.waves > C.hidden)             // some lane's element i is past the row
          x[i] = select(eb < static_cast<uint32_t>(C.hidden > first ? C.hidden - first : 0), x[i], 0.0f);
      }
    }
    sc = x[0] * x[0];
    for (int i = 1; i < 8 * K; ++i) J.v_fmac_f32(sc, x[i], x[i]);
    auto var = workgroup_reduce(J, reduce::sum, sc, scratch2, C.waves, {.all_lanes_active = true});
    scale = rsqrt(var * (1.0f / static_cast<float>(C.hidden)) + eps);
  }

  if constexpr (!C.residual) J.s_waitcnt(vmcnt(0));
  else J.s_waitcnt(vmcnt(static_cast<uint16_t>(K)));  // the residual_out stores may still run
  if constexpr (Out != norm_out::bf16) {
    for (int i = 0; i < 8 * K; ++i) {
      x[i] = x[i] * scale * elem_f32<C.f16>(wv[i / 2], i % 2);
      if constexpr (Kind == norm_kind::layer) x[i] = x[i] + elem_f32<C.f16>(bv[i / 2], i % 2);
    }
    auto r = J.sgpr<dtype::u32>();
    r = J.workgroup_id_x();
    quantize_row<Out == norm_out::fp8 ? quant_type::fp8 : quant_type::i8, 8, K, C.waves, C.hidden>(J, x, t, r, out,
                                                                                                   *scales);
    return;
  }
  buffer Y = row_buffer(J, out, row, row_bytes);
  for (int k = 0; k < K; ++k) {
    auto y = J.vgpr<dtype::f32>(8);
    for (int j = 0; j < 8; ++j) {
      const int i = 8 * k + j;
      auto w = elem_f32<C.f16>(wv[i / 2], i % 2);
      y[j] = x[i] * scale * w;
      if constexpr (Kind == norm_kind::layer) y[j] = y[j] + elem_f32<C.f16>(bv[i / 2], i % 2);
    }
    for (int i = 0; i < 4; ++i) xv[4 * k + i] = elem_pair<C.f16>(y[2 * i], y[2 * i + 1]);
    Y.store(xv.slice(4 * k, 4), voff + k * step_bytes);
  }
}

}  // namespace detail
}  // namespace hipasm::kernels
