// Dynamic MXFP4 quantization of bf16 or f32 rows (OCP Microscaling Formats v1.0, section 6.3):
// each block of 32 consecutive elements of a row gets one E8M0 scale 2^(code - 127) and 32 fp4
// e2m1 elements (largest 6), the A operand of an MXFP4 GEMM. gfx950 only (the v_cvt_scalef32_*
// conversions); on another target the kernel is a compile error naming the HIPASM_MXFP4_QUANT_KERNEL
// line.
//   amax     = max_i |x[i]| over the block (NaN and +-inf included, below)
//   code     = the scale's E8M0 code, by the configuration's rule:
//     ocp            shared_exp = floor(log2(amax)) - 2 (2: e2m1's largest exponent, emax_elem),
//                    clamped to [-127, 127] (finite f32 amaxes reach codes 0 .. 252): the spec's
//     aiter_even     the same of amax rounded to a power of two first, up from 1.75 2^e (the f32
//                    bits + 0x200000, the mantissa cleared; codes up to 253): aiter's
//                    dynamic_mxfp4_quant (aiter/utility/fp4_utils.py; Quark's "even" rounding,
//                    aiter's Even mode in csrc/include/mx_quant_utils.h). The default: the MXFP4
//                    GEMM flow is compared against aiter's, whose a4w4 GEMM test quantizes so.
//     aiter_round_up the smallest power of two >= amax / 6 (the quotient an f32; any of its
//                    mantissa bits set raises its exponent field by one, so a subnormal quotient
//                    gives code 1): aiter's RoundUp mode, its HIP quantization's default
//                    (fp4_f32_to_e8m0_scale in csrc/include/mx_quant_utils.h)
//              amax 0: code 0, the smallest scale (ocp / aiter_even: any amax below 2^-124).
//   q[i]     = x[i] / 2^(code - 127) to e2m1, nearest even, saturated to +-6 (the instruction's
//              rounding, the spec's "clamping normal numbers"); -0 keeps its sign (code 0x8).
// NaN or +-inf in a block: code 0xff, E8M0's NaN (the spec: the block's scale overflows, so the
// whole block reads as NaN), every rule; its elements are then what v_cvt_scalef32_pk_fp4 gives at
// scale 0xff, +-6 by each x's sign bit. (aiter's Triton kernel gives such blocks code 254.)
//
// Outputs: q [rows][d / 2] bytes, element 2i in the low nibble of byte i and 2i + 1 in the high
// one (v_cvt_scalef32_pk_fp4_* put src0 / the low half in bits 3:0, and aiter's packing,
// fp4_utils.pack_uint4 and the Triton kernel's evens | odds << 4, is the same); scales
// [rows][d / 32] E8M0 bytes, unshuffled (aiter's e8m0_shuffle preshuffles them for its asm GEMMs).
//
// Layout (like act_and_mul.hpp): lane groups of 8 consecutive elements (16 bf16 or 32 f32 bytes, 4
// fp4 bytes out), four lanes a block, numbered across the rows (d % 32 == 0: every block lies in
// one row, so the tensor is one sequence of blocks); workgroup w takes groups [w, w + 1) * steps *
// 64 * waves, a lane `steps` of them 64 * waves apart, all loads first. A block's amax is the
// maximum of the |x| bit patterns (ordered as the values; NaN above inf above every finite value),
// so NaN and inf need no test of their own; v_pk_max_u16 over bf16 pairs, then a quad butterfly
// (group_reduce 4). bf16 converts by v_cvt_scalef32_pk_fp4_bf16 (two elements a dword, no unpack),
// f32 by cvt_fp4x8. The block's first lane stores its scale byte (the others' offsets are out of
// range: dropped); the grid's last workgroup overhangs the tensor, its lanes past the end load
// zeros and their stores are dropped (buffer.hpp TAIL TILES).
//
// Device side:  constexpr hipasm::kernels::mxfp4_quant_config cfg{.d = 7168};
//               HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_7168, cfg)     // built for gfx950
// Host side:    hipasm::kernels::launch_mxfp4_quant<cfg>(dev, module, "quant_mxfp4_7168", {.q, .scales, .in, .rows});
// Tensors row-major; rows * d * input element size below 4 GiB.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../hipasm.hpp"

namespace hipasm::kernels {

// How a block's amax becomes its shared exponent (see above).
enum class mx_scale_rule : uint8_t { aiter_even, ocp, aiter_round_up };

struct mxfp4_quant_config {
  int d = 0;                                       // elements per row, a multiple of 32 (whole blocks)
  bool f32_in = false;                             // input rows f32 (else bf16)
  mx_scale_rule rule = mx_scale_rule::aiter_even;  // aiter's rounding of amax (default), the OCP spec's
                                                   // or aiter's RoundUp
  int waves = 4;                                   // waves per workgroup, 1..16
  int steps = 4;                                   // lane groups (8 elements) per lane, 1..8
};
template <mxfp4_quant_config C>
using mxfp4_quant_in = std::conditional_t<C.f32_in, float, uint16_t>;
// Elements a workgroup covers, and the workgroups for `rows` rows.
constexpr uint64_t mxfp4_quant_span(const mxfp4_quant_config& c) {
  return 8u * 64u * uint64_t(c.waves) * uint64_t(c.steps);
}
constexpr uint32_t mxfp4_quant_groups(const mxfp4_quant_config& c, uint32_t rows) {
  return static_cast<uint32_t>((uint64_t(rows) * uint64_t(c.d) + mxfp4_quant_span(c) - 1) / mxfp4_quant_span(c));
}

namespace detail {
// The kernel's work as workgroup `group` of its grid (another kernel can run it on some of its
// workgroups: moe_fp4.hpp's prologue).
template <mxfp4_quant_config C>
constexpr void mxfp4_quant_group(builder J, gpr<dtype::u32> group, arg<uint8_t*> q, arg<uint8_t*> scales,
                                 arg<const mxfp4_quant_in<C>*> in, arg<unsigned> rows) {
  static_assert(active_target::desc.features.has_mx_convert,
                "hipasm mxfp4_quant: the target has no OCP MX conversions (v_cvt_scalef32_pk_fp4_*, gfx950 only)");
  static_assert(C.d > 0 && C.d % 32 == 0,
                "hipasm mxfp4_quant: d must be a positive multiple of 32 (whole MX blocks of 32 elements a row)");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm mxfp4_quant: waves must be 1..16");
  static_assert(C.steps >= 1 && C.steps <= 8, "hipasm mxfp4_quant: steps must be 1..8");
  if constexpr (!active_target::desc.features.has_mx_convert) return;  // (reported above, once)
  else {
  constexpr int K = C.steps, DW = C.f32_in ? 8 : 4;  // DW: input dwords of a lane group
  constexpr uint32_t lanes = 64u * static_cast<uint32_t>(C.waves), in_bytes = 4u * DW;
  constexpr uint32_t add = C.rule == mx_scale_rule::aiter_even ? 0x200000u : 0u;

  // the whole tensors (the launcher keeps the input below 4 GiB): groups of 8 elements
  auto groups = J.sgpr<dtype::u32>(), bytes = J.sgpr<dtype::u32>();
  groups = rows * static_cast<uint32_t>(C.d / 8);
  bytes = groups * in_bytes;
  buffer X = make_buffer(J, in, bytes);
  bytes = groups << 2u;
  buffer Q = make_buffer(J, q, bytes);
  bytes = groups >> 2u;
  buffer S = make_buffer(J, scales, bytes);

  auto t = J.thread_id_x();
  auto first = J.vgpr<dtype::u32>(), xoff = J.vgpr<dtype::u32>();
  first = group * (lanes * static_cast<uint32_t>(K)) + t;
  xoff = first * in_bytes;
  auto raw = J.vgpr<dtype::u32>(DW * K);
  for (int k = 0; k < K; ++k)
    for (int h = 0; h < DW / 4; ++h)
      X.load(raw.slice(DW * k + 4 * h, 4), xoff + static_cast<int>(k * lanes * in_bytes + 16u * h));

  // |x| bit patterns, their maximum a lane and step
  auto m = J.vgpr<dtype::u32>(K);
  for (int k = 0; k < K; ++k) {
    J.wait_for(raw.slice(DW * k, DW));
    auto a = J.vgpr<dtype::u32>(DW);
    if constexpr (C.f32_in) {
      for (int i = 0; i < 8; ++i) a[i] = raw[8 * k + i] & 0x7fffffffu;
      auto r = J.vgpr<dtype::u32>();
      r = max3(a[0], a[1], a[2]);
      r = max3(r, a[3], a[4]);
      r = max3(r, a[5], a[6]);
      m[k] = max(r, a[7]);
    } else {
      // bf16 pairs: the larger half of each (as u16), then the two halves as f32 bit patterns
      for (int i = 0; i < 4; ++i) a[i] = raw[4 * k + i] & 0x7fff7fffu;
      auto p = J.vgpr<dtype::u32>();
      J.v_pk_max_u16(p, a[0], a[1]);
      J.v_pk_max_u16(p, p, a[2]);
      J.v_pk_max_u16(p, p, a[3]);
      m[k] = max(p & 0xffff0000u, p << 16u);
    }
  }
  auto amax = group_reduce(J, reduce::max, m, 4, {.all_lanes_active = true});

  // the block's first lane stores its scale byte; the others' offsets are out of range
  auto sdrop = J.vgpr<dtype::u32>(), soff = J.vgpr<dtype::u32>();
  sdrop = ((t & 3u) + 0x7fffffffu) & 0x80000000u;
  soff = (first >> 2u) | sdrop;
  auto qoff = J.vgpr<dtype::u32>();
  qoff = first << 2u;
  for (int k = 0; k < K; ++k) {
    auto code = J.vgpr<dtype::u32>();
    if constexpr (C.rule == mx_scale_rule::aiter_round_up) {
      // the exponent field of amax / 6 (a correctly rounded f32 division), + 1 unless a power of 2
      auto qb = J.vgpr<dtype::u32>();
      qb = (amax[k].template as<dtype::f32>() / 6.0f).template as<dtype::u32>();
      code = (qb >> 23u) + as_u32((qb & 0x7fffffu) != 0u);
    } else {
      if constexpr (add != 0) code = (amax[k] + add) >> 23u;
      else code = amax[k] >> 23u;
      code = max(code, 2u) - 2u;
    }
    code = select(amax[k] >= 0x7f800000u, 0xffu, code);  // NaN or inf in the block: E8M0 NaN
    auto p = J.vgpr<dtype::u32>();
    if constexpr (C.f32_in) {
      p = cvt_fp4x8(raw.slice(8 * k, 8).template as<dtype::f32>(), code).template as<dtype::u32>();
    } else {
      auto sc = J.vgpr<dtype::u32>();
      sc = code << 23u;  // (the instructions read the scale as an f32's exponent field)
      for (int i = 0; i < 4; ++i) {
        modifiers mo;
        mo.op_sel = static_cast<uint8_t>(i << 2);  // destination byte i, the others kept
        J.v_cvt_scalef32_pk_fp4_bf16(p, raw[4 * k + i], sc, mo);
      }
    }
    Q.store(p, qoff + static_cast<int>(k * lanes * 4u));
    S.store(code, soff + static_cast<int>(k * lanes / 4u), {.width = narrow::u8});
  }
  }
}
}  // namespace detail

template <mxfp4_quant_config C>
constexpr void mxfp4_quant(builder J, arg<uint8_t*> q, arg<uint8_t*> scales, arg<const mxfp4_quant_in<C>*> in,
                           arg<unsigned> rows) {
  detail::mxfp4_quant_group<C>(J, J.workgroup_id_x(), q, scales, in, rows);
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr mxfp4_quant_config);
// built for a target without the MX conversions, a compile error on this line.
#define HIPASM_MXFP4_QUANT_KERNEL(NAME, CFG)                                                                       \
  static_assert(!::hipasm::device_pass || ::hipasm::active_target::desc.features.has_mx_convert, \
                "hipasm mxfp4_quant: the target has no OCP MX conversions (v_cvt_scalef32_pk_fp4_*, gfx950 only)");  \
  extern "C" __attribute__((global)) void NAME(uint8_t* q, uint8_t* scales,                                      \
                                               const ::hipasm::kernels::mxfp4_quant_in<CFG>* in, unsigned rows) {  \
    HIPASM_KERNEL_BODY((hipasm::kernels::mxfp4_quant<CFG>), q, scales, in, rows);                                  \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct mxfp4_quant_args {
  uint64_t q = 0, scales = 0, in = 0;  // device addresses: q [rows][d / 2], scales [rows][d / 32] bytes, in [rows][d]
  uint32_t rows = 0;
};
template <mxfp4_quant_config C>
rt::launch_report launch_mxfp4_quant(rt::device& dev, rt::module& m, std::string_view kernel, const mxfp4_quant_args& a,
                                     const rt::launch_options& opts = {}) {
  if (a.rows == 0) throw std::invalid_argument("hipasm mxfp4_quant launch: rows must be >= 1");
  if (!a.q || !a.scales || !a.in) throw std::invalid_argument("hipasm mxfp4_quant launch: q, scales or in is null");
  if (static_cast<uint64_t>(a.rows) * static_cast<uint64_t>(C.d) * (C.f32_in ? 4u : 2u) >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm mxfp4_quant launch: the input must be below 4 GiB (32-bit offsets), got " +
                                std::to_string(a.rows) + " x " + std::to_string(C.d));
  rt::kernel_args args;
  args.add(a.q).add(a.scales).add(a.in).add(a.rows);
  return dev.launch(m, kernel, {mxfp4_quant_groups(C, a.rows), 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args,
                    opts);
}
}  // namespace hipasm::kernels
#endif
