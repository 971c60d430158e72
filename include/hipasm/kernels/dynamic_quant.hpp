// Per-token dynamic quantization of bf16 or f32 rows to fp8 (e4m3 in the target's format: gfx942's
// e4m3fnuz, max 240; gfx950's OCP e4m3fn, max 448) or int8, the A operand of gemm_quant.hpp's
// per_token GEMM, or to bf8 (e5m2, max 57344, for consumers of their own: gemm_quant takes fp8
// and int8) (q [tokens][d] row-major = A M x K, scale [tokens] f32 = sa):
//   amax     = max_i |x[t][i]|                       (NaN entries ignored: IEEE max)
//   scale[t] = max(amax / qmax, 1 / (512 qmax))      qmax fp8's / bf8's largest, or 127 (int8)
//   q[t][i]  = sat(rne(x[t][i] * (1 / scale[t])))    the reciprocal and the product in f32
// so q * scale ~ x. Block scales (.block = 128, fp8: DeepSeek's 1x128 activation quantization,
// the A operand and sa of gemm_quant's block128 GEMM): the same per 128 consecutive elements of a
// row, scale[t][b] over x[t][128 b .. 128 b + 127], stored [d / 128][tokens] (sa[kb][m], the
// layout gemm_quant block128 reads and aiter passes its asm GEMMs' x_scale in) or, with
// .scales_row_major, [tokens][d / 128]. The floor on the scale (vLLM's min_scaling_factor) keeps a zero or tiny row
// finite (scale 1 / (512 qmax), q = 0) and 1 / scale normal. Rounding: fp8 by v_cvt_pk_fp8_f32
// (nearest even) after saturation to +-qmax (cvt_fp8x4), bf8 likewise (cvt_bf8x4); int8 nearest
// even saturated to [-128, 127] (cvt_i8x4). Edge values: a NaN entry gives q = the format's NaN
// (FNUZ 0x80, OCP 0x7f; int8 -128) and
// leaves the scale alone; +-inf makes amax and the scale inf, 1 / scale 0, so the row's
// finite entries give 0 and the infinities 0 * inf = NaN.
//
// One workgroup of C.waves waves per row, the row in registers (16-byte loads: 8 bf16 or 4 f32 a
// lane and step; like norm.hpp), read once: |x| maxima two at a time (max3 with abs source
// modifiers), workgroup_reduce(max) over LDS, then every lane scales, converts and stores its
// bytes (8 or 4 a step: dwordx2 / dword). Tails: the row's buffer resources end at the row, so
// lanes past it load zeros (|0| never raises the maximum) and their stores are dropped. Block
// scales: a step's elements of a lane lie in one block (a step is a multiple of 128 elements),
// so the maxima are a butterfly over the block's 16 (bf16) or 32 (f32) lanes (group_reduce, all
// steps' at once), no LDS; the block's first lane stores its scale (the others', and those of
// blocks past the row, get offsets out of range: dropped).
//
// Device side:  constexpr hipasm::kernels::dynamic_quant_config cfg{.d = 4096, .type = hipasm::kernels::quant_type::fp8};
//               HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_4096, cfg)
//               constexpr hipasm::kernels::dynamic_quant_config blk{.d = 7168, .block = 128};  // 1x128 blocks
// Host side:    hipasm::kernels::launch_dynamic_quant<cfg>(dev, module, "quant_fp8_4096", {.q, .scale, .in, .tokens});
// Tensors row-major; tokens * d * input element size below 4 GiB.
#pragma once
#include <bit>
#include <cstdint>
#include <type_traits>

#include "../hipasm.hpp"
#include "gemm_quant.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct dynamic_quant_config {
  int d = 0;                          // elements per row, a multiple of 4 (q rows start on a dword)
  quant_type type = quant_type::fp8;  // fp8 (e4m3), bf8 (e5m2) (the target's 8-bit formats) or i8
  bool f32_in = false;                // input rows f32 (else bf16)
  int waves = 4;                      // waves per workgroup (one row per workgroup), 1..16
  int block = 0;                      // 0: one scale a row (per token); 128: one per 128 elements (fp8)
  bool scales_row_major = false;      // block scales [tokens][d / 128] (else [d / 128][tokens])
};
constexpr int dynamic_quant_lane_elems(const dynamic_quant_config& c) { return c.f32_in ? 4 : 8; }
constexpr int dynamic_quant_step(const dynamic_quant_config& c) { return dynamic_quant_lane_elems(c) * 64 * c.waves; }
constexpr int dynamic_quant_steps(const dynamic_quant_config& c) {
  return (c.d + dynamic_quant_step(c) - 1) / dynamic_quant_step(c);
}
// The largest q: fp8 / bf8 the target's formats' (a host launching another target's kernel names
// its fp8_format).
constexpr float dynamic_quant_qmax(quant_type t, fp8_format f = active_target::desc.fp8) {
  return t == quant_type::i8 ? 127.0f : std::bit_cast<float>(fp8_max_bits(f, t == quant_type::bf8));
}
// The smallest scale (vLLM's min_scaling_factor): 1 / (512 qmax).
constexpr float dynamic_quant_min_scale(quant_type t, fp8_format f = active_target::desc.fp8) {
  return 1.0f / (512.0f * dynamic_quant_qmax(t, f));
}
// f32 scales the kernel writes for `tokens` rows.
constexpr uint64_t dynamic_quant_scales(const dynamic_quant_config& c, uint32_t tokens) {
  return uint64_t(tokens) * uint64_t(c.block ? c.d / c.block : 1);
}
template <dynamic_quant_config C>
using dynamic_quant_in = std::conditional_t<C.f32_in, float, uint16_t>;

namespace detail {

// q = sat(rne(x * inv)) of one row held as f32 in registers, E consecutive elements of a lane per
// step (element j of step k is column E * (64 waves k + thread) + j), K steps, stored (E bytes a
// lane and step); inv one register (the row's) or K (a step's, PerStep).
template <quant_type Q, int E, int K, int Waves, int D, bool PerStep = false>
constexpr void store_q(builder J, const gpr<dtype::f32>& x, const gpr<dtype::f32>& inv, const gpr<dtype::u32>& thread,
                       const gpr<dtype::u32>& row, const gpr<dtype::u64>& q) {
  auto qrow = J.sgpr<dtype::u32>();
  qrow = row * static_cast<uint32_t>(D);
  buffer Qb = row_buffer(J, q, qrow, static_cast<uint32_t>(D));
  auto qoff = J.vgpr<dtype::u32>();
  qoff = thread * static_cast<uint32_t>(E);
  auto qv = J.vgpr<dtype::u32>(E * K / 4);
  for (int k = 0; k < K; ++k) {
    for (int w = 0; w < E / 4; ++w) {
      auto y = J.vgpr<dtype::f32>(4);
      for (int j = 0; j < 4; ++j) y[j] = x[E * k + 4 * w + j] * inv[PerStep ? k : 0];
      if constexpr (Q == quant_type::fp8)
        qv[k * (E / 4) + w] = cvt_fp8x4(y[0], y[1], y[2], y[3]).template as<dtype::u32>();
      else if constexpr (Q == quant_type::bf8)
        qv[k * (E / 4) + w] = cvt_bf8x4(y[0], y[1], y[2], y[3]).template as<dtype::u32>();
      else
        qv[k * (E / 4) + w] = cvt_i8x4(y[0], y[1], y[2], y[3]);
    }
    Qb.store(qv.slice(k * (E / 4), E / 4), qoff + k * E * 64 * Waves);
  }
}

// Quantizes one row held as f32 in registers (store_q's layout): the maximum, the row's scale
// (stored to scales[row], one lane in range) and q. Every wave calls it.
template <quant_type Q, int E, int K, int Waves, int D>
constexpr void quantize_row(builder J, const gpr<dtype::f32>& x, const gpr<dtype::u32>& thread,
                            const gpr<dtype::u32>& row, const gpr<dtype::u64>& q, const gpr<dtype::u64>& scales) {
  constexpr int N = E * K;
  static_assert(N >= 4 && N % 4 == 0);
  auto m = J.vgpr<dtype::f32>();
  m = max3(abs(x[0]), abs(x[1]), abs(x[2]));
  for (int i = 3; i + 1 < N; i += 2) m = max3(m, abs(x[i]), abs(x[i + 1]));
  m = max3(m, abs(x[N - 1]), 0.0f);  // (N is even: the last element is left over)
  auto scratch = J.lds<float>(Waves, 16);
  auto amax = workgroup_reduce(J, reduce::max, m, scratch, Waves, {.all_lanes_active = true});
  constexpr float qmax = dynamic_quant_qmax(Q);
  auto scale = J.vgpr<dtype::f32>(), inv = J.vgpr<dtype::f32>();
  scale = amax / qmax;
  scale = max(scale, dynamic_quant_min_scale(Q));  // (v_max_f32: a NaN quotient gives the floor)
  inv = 1.0f / scale;
  // scales[row]: a 4-byte resource at the row's scale, so only thread 0's store (offset 0) lands
  buffer S = make_buffer(J, scales, 4u);
  auto srow = J.sgpr<dtype::u32>();
  srow = row * 4u;
  S.shift_base(srow);
  auto soff = J.vgpr<dtype::u32>();
  soff = thread << 2u;
  S.store(scale, soff);
  store_q<Q, E, K, Waves, D>(J, x, inv, thread, row, q);
}

// The same with a scale per block of B consecutive elements of the row (B a multiple of E and a
// step, 64 Waves E, a multiple of B: a lane's elements of a step lie in one block), stored
// [D / B][tokens] or (RowMajor) [tokens][D / B].
template <quant_type Q, int E, int K, int Waves, int D, int B, bool RowMajor>
constexpr void quantize_row_blocks(builder J, const gpr<dtype::f32>& x, const gpr<dtype::u32>& thread,
                                   const gpr<dtype::u32>& row, const gpr<dtype::u32>& tokens,
                                   const gpr<dtype::u64>& q, const gpr<dtype::u64>& scales) {
  constexpr int L = B / E;                      // lanes of a block
  constexpr uint32_t nb = D / B, bpk = 64u * Waves / L;  // blocks of the row, of a step
  static_assert(B % E == 0 && (64 * Waves) % L == 0 && L >= 2 && L <= 64 && (L & (L - 1)) == 0);
  auto m = J.vgpr<dtype::f32>(K);
  for (int k = 0; k < K; ++k) {
    const int o = E * k;
    auto r = J.vgpr<dtype::f32>();
    r = max3(abs(x[o]), abs(x[o + 1]), abs(x[o + 2]));
    for (int i = 3; i + 1 < E; i += 2) r = max3(r, abs(x[o + i]), abs(x[o + i + 1]));
    m[k] = max3(r, abs(x[o + E - 1]), 0.0f);  // (E is even: the last element is left over)
  }
  auto amax = group_reduce(J, reduce::max, m, L, {.all_lanes_active = true});
  constexpr float qmax = dynamic_quant_qmax(Q);
  auto scale = J.vgpr<dtype::f32>(K), inv = J.vgpr<dtype::f32>(K);
  for (int k = 0; k < K; ++k) {
    scale[k] = amax[k] / qmax;
    scale[k] = max(scale[k], dynamic_quant_min_scale(Q));  // (as quantize_row's)
    inv[k] = 1.0f / scale[k];
  }
  // the block's first lane stores; the others' offsets get bit 31 (out of range: dropped)
  auto bytes = J.sgpr<dtype::u32>();
  bytes = tokens * (nb * 4u);
  buffer S = make_buffer(J, scales, bytes);
  auto drop = J.vgpr<dtype::u32>(), tb = J.vgpr<dtype::u32>(), base = J.vgpr<dtype::u32>();
  drop = ((thread & static_cast<uint32_t>(L - 1)) + 0x7fffffffu) & 0x80000000u;
  tb = thread >> static_cast<uint32_t>(std::countr_zero(static_cast<unsigned>(L)));  // the block in the step
  auto step = J.sgpr<dtype::u32>();  // bytes between a lane's scales of consecutive steps
  if constexpr (RowMajor) {
    base = ((row * nb + tb) << 2u) | drop;
    step = bpk * 4u;
  } else {
    base = ((tb * tokens + row) << 2u) | drop;
    step = tokens * (bpk * 4u);
  }
  for (int k = 0; k < K; ++k) {
    auto off = J.vgpr<dtype::u32>();
    if (k == 0) off = base;
    else off = base + step * static_cast<uint32_t>(k);
    if (bpk * static_cast<uint32_t>(k + 1) > nb)  // blocks past the row's end
      off = select(thread < static_cast<uint32_t>(L) * (nb - bpk * static_cast<uint32_t>(k)), off, 0x80000000u);
    S.store(scale[k], off);
  }
  store_q<Q, E, K, Waves, D, true>(J, x, inv, thread, row, q);
}

}  // namespace detail

template <dynamic_quant_config C>
constexpr void dynamic_quant(builder J, arg<uint8_t*> q, arg<float*> scale, arg<const dynamic_quant_in<C>*> in,
                             arg<unsigned> tokens) {
  static_assert(C.d > 0 && C.d % 4 == 0,
                "hipasm dynamic_quant: d must be a positive multiple of 4 (each q row starts on a dword, as "
                "gemm_quant's A rows do)");
  static_assert(C.block == 0 || C.block == 128,
                "hipasm dynamic_quant: block must be 0 (a scale per token) or 128 (a scale per 1x128 block)");
  static_assert(C.block == 0 || C.type == quant_type::fp8,
                "hipasm dynamic_quant: block scales are for fp8 (gemm_quant's block128 A operand)");
  static_assert(C.block == 0 || C.d % 128 == 0, "hipasm dynamic_quant: with block = 128, d must be a multiple of 128");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm dynamic_quant: waves must be 1..16");
  static_assert(dynamic_quant_steps(C) <= 8,
                "hipasm dynamic_quant: the row does not fit in registers (more than 8 steps of a workgroup's 16-byte "
                "loads): use more waves");
  constexpr int E = dynamic_quant_lane_elems(C), K = dynamic_quant_steps(C);
  constexpr int step_bytes = dynamic_quant_step(C) * (C.f32_in ? 4 : 2);
  constexpr uint32_t row_bytes = static_cast<uint32_t>(C.d) * (C.f32_in ? 4u : 2u);

  auto t = J.thread_id_x();
  auto voff = J.vgpr<dtype::u32>();
  voff = t << 4u;
  auto row = J.sgpr<dtype::u32>();
  row = J.workgroup_id_x();
  auto in_row = J.sgpr<dtype::u32>();
  in_row = row * row_bytes;
  buffer X = detail::row_buffer(J, in, in_row, row_bytes);
  const auto row_regs = detail::load_row<K, !C.f32_in>(J, X, voff, step_bytes);
  if constexpr (C.block)
    detail::quantize_row_blocks<C.type, E, K, C.waves, C.d, C.block, C.scales_row_major>(J, row_regs.x, t, row, tokens,
                                                                                         q, scale);
  else
    detail::quantize_row<C.type, E, K, C.waves, C.d>(J, row_regs.x, t, row, q, scale);
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr dynamic_quant_config).
#define HIPASM_DYNAMIC_QUANT_KERNEL(NAME, CFG)                                                                         \
  extern "C" __attribute__((global)) void NAME(uint8_t* q, float* scale, const ::hipasm::kernels::dynamic_quant_in<CFG>* in, \
                                               unsigned tokens) {                                                         \
    HIPASM_KERNEL_BODY((hipasm::kernels::dynamic_quant<CFG>), q, scale, in, tokens);                                      \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct dynamic_quant_args {
  uint64_t q = 0, scale = 0, in = 0;  // device addresses: q [tokens][d] bytes, in [tokens][d], scale f32:
                                      // [tokens] (block 0), [d / 128][tokens] or [tokens][d / 128]
  uint32_t tokens = 0;
};
template <dynamic_quant_config C>
rt::launch_report launch_dynamic_quant(rt::device& dev, rt::module& m, std::string_view kernel,
                                       const dynamic_quant_args& a, const rt::launch_options& opts = {}) {
  if (a.tokens == 0) throw std::invalid_argument("hipasm dynamic_quant launch: tokens must be >= 1");
  if (!a.q || !a.scale || !a.in) throw std::invalid_argument("hipasm dynamic_quant launch: q, scale or in is null");
  if (static_cast<uint64_t>(a.tokens) * static_cast<uint64_t>(C.d) * (C.f32_in ? 4u : 2u) >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm dynamic_quant launch: the input must be below 4 GiB (32-bit row offsets), got " +
                                std::to_string(a.tokens) + " x " + std::to_string(C.d));
  rt::kernel_args args;
  args.add(a.q).add(a.scale).add(a.in).add(a.tokens);
  return dev.launch(m, kernel, {a.tokens, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
}
}  // namespace hipasm::kernels
#endif
