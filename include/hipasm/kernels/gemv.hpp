// GEMV: y = A x (+ bias), A row-major [M][K] bf16 or f32, x [K] bf16 or f32, f32 accumulation,
// y [M] f32 or bf16 (bias of y's type). Memory bound: A is read once, in wide loads.
//
// A wave owns `rows` rows; each lane loads `unroll` chunks of vec_bytes (16: dwordx4) of each
// row per loop trip (K split across the 64 lanes, lane l at byte l * vec_bytes of a 64-lane
// step), the matching x chunk once for all the rows, then multiplies in f32 (bf16 is widened by
// a shift or a mask: exact). With k_split, the workgroup's waves share the same rows and take
// interleaved steps of K (more waves in flight for short, wide matrices: decode's 4096 x 4096),
// their partial sums meet in LDS. At the end each row's lane partials are summed by DPP
// (wave_reduce on all rows at once: their steps interleave) and lanes 0..rows-1 store one row
// each. Tails: each row has its own buffer resource of exactly K elements (the K tail reads
// zeros: 0 * 0 adds nothing, whatever the other row's values), rows past M get an empty one and
// their stores are dropped (buffer range checks, no branch).
// K must be a multiple of vec_bytes / sizeof(A element) (the launch checks it): each row then
// starts on a vec_bytes boundary; vec_bytes 4 (bf16: even K) and 2 (bf16: any K) cover the
// rest, at a lower rate.
//
// Device side:  constexpr hipasm::kernels::gemv_config cfg{.rows = 4, .waves = 4};
//               HIPASM_GEMV_KERNEL(gemv_bf16, cfg)
// Host side:    hipasm::kernels::launch_gemv<cfg>(dev, module, "gemv_bf16", {.y, .a, .x, .bias, .m, .k});
// Or both layouts of work, picked per launch by M (the K split for short matrices):
//               HIPASM_GEMV_KERNELS(gemv_bf16, cfg)   (gemv_bf16 and gemv_bf16_ksplit)
//               hipasm::kernels::launch_gemv_auto<cfg>(dev, module, "gemv_bf16", {...});
// The arguments are preloaded into SGPRs when the code object is built with KERNARG_PRELOAD
// (hipasm_add_code_object), else loaded.
#pragma once
#include <cstdint>
#include <array>
#include <type_traits>
#include <utility>

#include "../hipasm.hpp"
#include "rows.hpp"

namespace hipasm::kernels {

struct gemv_config {
  bool a_f32 = false;    // A: bf16 (uint16_t bits) or f32
  bool x_f32 = false;    // x: bf16 or f32
  bool y_bf16 = false;   // y (and bias): f32 or bf16
  bool bias = false;     // y += bias
  int rows = 4;          // rows per wave (per workgroup with k_split), 1..16
  int waves = 4;         // waves per workgroup, 1..16
  int unroll = 2;        // vec_bytes chunks of each row per lane per loop trip, 1..8
  int vec_bytes = 16;    // bytes of A per load: 16, 8, 4 (or 2 for bf16)
  bool k_split = false;  // the workgroup's waves split K of the same rows (else: each its own rows)
};
template <gemv_config C>
using gemv_a_elem = std::conditional_t<C.a_f32, float, uint16_t>;
template <gemv_config C>
using gemv_x_elem = std::conditional_t<C.x_f32, float, uint16_t>;
template <gemv_config C>
using gemv_y_elem = std::conditional_t<C.y_bf16, uint16_t, float>;
constexpr int gemv_a_bytes(const gemv_config& c) { return c.a_f32 ? 4 : 2; }
// A elements per load (K must be a multiple), rows per workgroup
constexpr int gemv_vec_elems(const gemv_config& c) { return c.vec_bytes / gemv_a_bytes(c); }
constexpr int gemv_rows_per_group(const gemv_config& c) { return c.k_split ? c.rows : c.rows * c.waves; }
// The K-split twin of a configuration (HIPASM_GEMV_KERNELS' NAME_ksplit).
constexpr gemv_config gemv_ksplit_config(gemv_config c) {
  c.k_split = true;
  return c;
}
// launch_gemv_auto's pick: the K split when the rows configuration has fewer workgroups than the
// GPU has CUs (short M: idle CUs; the split gives `waves` times as many workgroups), else rows
// per wave (the model, bench_kernel_gemv: 4096 x 14336 71.5 / 88.4%, 4096 x 4096 60.1 / 68.5%,
// 6144 x 4096 77.1 / 75.5%, taller matrices within 1% either way).
constexpr bool gemv_uses_k_split(const gemv_config& c, uint32_t m) {
  constexpr uint32_t cus = 304;  // MI300X
  const uint32_t per = static_cast<uint32_t>(gemv_rows_per_group(c));
  return !c.k_split && (m + per - 1) / per < cus;
}

template <gemv_config C>
constexpr void gemv(builder J, arg<gemv_y_elem<C>*> y, arg<const gemv_a_elem<C>*> a, arg<const gemv_x_elem<C>*> x,
                    arg<const gemv_y_elem<C>*> bias, arg<unsigned> m, arg<unsigned> k) {
  static_assert(C.rows >= 1 && C.rows <= 16, "hipasm gemv: rows must be 1..16");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm gemv: waves must be 1..16");
  static_assert(C.unroll >= 1 && C.unroll <= 8, "hipasm gemv: unroll must be 1..8");
  static_assert(C.vec_bytes == 16 || C.vec_bytes == 8 || C.vec_bytes == 4 || (C.vec_bytes == 2 && !C.a_f32),
                "hipasm gemv: vec_bytes must be 16, 8, 4 (or 2 for a bf16 A)");
  static_assert(C.rows * C.unroll * (C.vec_bytes < 4 ? 1 : C.vec_bytes / 4) <= 128,
                "hipasm gemv: rows * unroll * vec_bytes/4 must stay within 128 VGPRs of A");
  constexpr int R = C.rows, UF = C.unroll, AB = gemv_a_bytes(C), XB = C.x_f32 ? 4 : 2;
  constexpr int E = gemv_vec_elems(C);                    // A elements per lane per chunk
  constexpr int AD = C.vec_bytes < 4 ? 1 : C.vec_bytes / 4;  // dwords per A chunk
  constexpr int XD = (E * XB + 3) / 4;                    // dwords per x chunk
  constexpr uint32_t step_a = 64u * C.vec_bytes;          // bytes of a row per 64-lane chunk
  constexpr uint32_t step_x = 64u * E * XB;
  constexpr int WK = C.k_split ? C.waves : 1;             // waves sharing a row

  auto lane = lane_id(J);
  auto wave = wave_id(J);
  auto row0 = J.sgpr<dtype::u32>();
  if constexpr (C.k_split) row0 = J.workgroup_id_x() * static_cast<uint32_t>(R);
  else row0 = (J.workgroup_id_x() * static_cast<uint32_t>(C.waves) + wave) * static_cast<uint32_t>(R);
  auto row_bytes = J.sgpr<dtype::u32>();
  row_bytes = k * static_cast<uint32_t>(AB);

  // one buffer per row: exactly its K elements, or nothing past row M (built in the array's
  // initializer: a buffer, like a gpr, cannot be assigned into a default-constructed one)
  auto row_buffer_of = [&](int i) {
    auto r = J.sgpr<dtype::u32>();
    r = row0 + static_cast<uint32_t>(i);
    auto base = J.sgpr<dtype::u64>();
    base = a + mul_wide(r, row_bytes);
    auto n = J.sgpr<dtype::u32>();
    n = select(r < m, row_bytes, 0u);
    return make_buffer(J, base, n);
  };
  const auto A = [&]<size_t... I>(std::index_sequence<I...>) {
    return std::array<buffer, R>{row_buffer_of(static_cast<int>(I))...};
  }(std::make_index_sequence<R>{});
  auto xbytes = J.sgpr<dtype::u32>();
  xbytes = k * static_cast<uint32_t>(XB);
  buffer X = make_buffer(J, x, xbytes);

  auto va = J.vgpr<dtype::u32>(), vx = J.vgpr<dtype::u32>();
  va = lane * static_cast<uint32_t>(C.vec_bytes);
  vx = lane * static_cast<uint32_t>(E * XB);
  // this wave's first chunk (k_split: chunks wave, wave + W, ...) and the trip count
  auto ka = J.sgpr<dtype::u32>(), kx = J.sgpr<dtype::u32>(), trips = J.sgpr<dtype::u32>(), it = J.sgpr<dtype::u32>();
  constexpr uint32_t trip_elems = 64u * E * UF * WK;
  trips = (k + (trip_elems - 1)) / trip_elems;
  if constexpr (C.k_split) {
    ka = wave * (step_a * UF);
    kx = wave * (step_x * UF);
  } else {
    ka = 0u;
    kx = 0u;
  }
  it = 0u;

  auto acc = J.vgpr<dtype::f32>(R).fill(0.0f);
  auto av = J.vgpr<dtype::u32>(R * UF * AD);
  auto xv = J.vgpr<dtype::u32>(UF * XD);
  J.While([&] { return it < trips; }, [&] {
    for (int u = 0; u < UF; ++u) {
      for (int i = 0; i < R; ++i) {
        if constexpr (C.vec_bytes == 2)
          A[i].load(av.slice((i * UF + u) * AD, 1), at(va) + ka + static_cast<int>(u * step_a), {.width = narrow::u16});
        else
          A[i].load(av.slice((i * UF + u) * AD, AD), at(va) + ka + static_cast<int>(u * step_a));
      }
      for (int d = 0; d < XD; d += 4) {
        const int n = XD - d < 4 ? XD - d : 4;
        if constexpr (E * XB == 2)
          X.load(xv.slice(u * XD, 1), at(vx) + kx + static_cast<int>(u * step_x), {.width = narrow::u16});
        else
          X.load(xv.slice(u * XD + d, n), vx + kx + static_cast<int>(u * step_x + 4 * d));
      }
    }
    J.s_waitcnt(vmcnt(0));
    for (int u = 0; u < UF; ++u)
      for (int e = 0; e < E; ++e) {
        // x element e of chunk u as f32 (bf16 x: widened once for all rows)
        auto xe = C.x_f32 ? xv[u * XD + e].template as<dtype::f32>()
                          : to_f32(xv[u * XD + e / 2].template as<dtype::bf16x2>(), e % 2);
        for (int i = 0; i < R; ++i) {
          const int w = (i * UF + u) * AD;
          if constexpr (C.a_f32) {
            J.v_fmac_f32(acc[i], av[w + e].template as<dtype::f32>(), xe);
          } else {
            auto ae = to_f32(av[w + e / 2].template as<dtype::bf16x2>(), e % 2);
            J.v_fmac_f32(acc[i], ae, xe);
          }
        }
      }
    ka = ka + step_a * UF * WK;
    kx = kx + step_x * UF * WK;
    it = it + 1u;
  });

  // each row's sum over the lanes (and, k_split, the waves)
  auto sum = wave_reduce(J, reduce::sum, acc, {.all_lanes_active = true});
  auto out = J.vgpr<dtype::f32>();
  out = 0.0f;
  for (int i = 0; i < R; ++i) J.v_writelane_b32(out, sum[i], i);
  if constexpr (C.k_split) {
    // wave w writes its R partials at scratch[w][0..R); wave 0's lanes 0..R-1 add the columns
    auto scratch = J.lds<float>(R * C.waves, 16);
    auto la = J.vgpr<dtype::u32>();
    la = (wave * static_cast<uint32_t>(R) + lane) << 2u;
    J.If(lane < static_cast<uint32_t>(R), [&] { J.ds_write_b32(la, out, {.offset = static_cast<int32_t>(scratch.offset)}); });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    J.If(wave == 0u && lane < static_cast<uint32_t>(R), [&] {
      auto p = J.vgpr<dtype::f32>(C.waves);
      auto lb = J.vgpr<dtype::u32>();
      lb = lane << 2u;
      for (int w = 1; w < C.waves; ++w)
        J.ds_read_b32(p[w], lb, {.offset = static_cast<int32_t>(scratch.offset + 4u * R * w)});
      J.s_waitcnt(lgkmcnt(0));
      for (int w = 1; w < C.waves; ++w) out = out + p[w];
    });
  }
  // lanes 0..R-1 store rows row0 + lane (others: out of range, dropped)
  auto yb = J.sgpr<dtype::u32>();
  yb = m * static_cast<uint32_t>(C.y_bf16 ? 2 : 4);
  buffer Y = make_buffer(J, y, yb);
  auto yo = J.vgpr<dtype::u32>();
  yo = select(lane < static_cast<uint32_t>(R), (row0 + lane) * static_cast<uint32_t>(C.y_bf16 ? 2 : 4), 0x80000000u);
  if constexpr (C.k_split) yo = select(wave == 0u, yo, 0x80000000u);
  if constexpr (C.bias) {
    buffer Bv = make_buffer(J, bias, yb);
    auto bv = J.vgpr<dtype::u32>();
    if constexpr (C.y_bf16) {
      Bv.load(bv, yo, {.width = narrow::u16});
      J.s_waitcnt(vmcnt(0));
      out = out + to_f32(bv.template as<dtype::bf16x2>(), 0);
    } else {
      Bv.load(bv, yo);
      J.s_waitcnt(vmcnt(0));
      out = out + bv.template as<dtype::f32>();
    }
  }
  if constexpr (C.y_bf16) Y.store(cvt_bf16(out), yo, {.width = narrow::u16});
  else Y.store(out, yo);
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr gemv_config).
#define HIPASM_GEMV_KERNEL(NAME, CFG)                                                                        \
  extern "C" __attribute__((global)) void NAME(::hipasm::kernels::gemv_y_elem<CFG>* y,                       \
                                               const ::hipasm::kernels::gemv_a_elem<CFG>* a,                 \
                                               const ::hipasm::kernels::gemv_x_elem<CFG>* x,                 \
                                               const ::hipasm::kernels::gemv_y_elem<CFG>* bias, unsigned m,  \
                                               unsigned k) {                                                 \
    HIPASM_KERNEL_BODY((hipasm::kernels::detail::preloaded<hipasm::kernels::gemv<CFG>>), y, a, x, bias, m, k); \
  }

// NAME with CFG (rows per wave) and NAME_ksplit with gemv_ksplit_config(CFG): launch_gemv_auto
// picks one by M.
#define HIPASM_GEMV_KERNELS(NAME, CFG) \
  HIPASM_GEMV_KERNEL(NAME, CFG)        \
  HIPASM_GEMV_KERNEL(NAME##_ksplit, ::hipasm::kernels::gemv_ksplit_config(CFG))

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct gemv_args {
  uint64_t y = 0, a = 0, x = 0, bias = 0;  // device addresses (bias: only with config.bias)
  uint32_t m = 0, k = 0;
};
template <gemv_config C>
rt::launch_report launch_gemv(rt::device& dev, rt::module& mod, std::string_view kernel, const gemv_args& g,
                              const rt::launch_options& opts = {}) {
  if (g.m == 0 || g.k == 0) throw std::invalid_argument("hipasm gemv launch: m and k must be >= 1");
  if (!g.y || !g.a || !g.x || (C.bias && !g.bias))
    throw std::invalid_argument("hipasm gemv launch: a tensor the configuration reads or writes is null");
  if (g.k % gemv_vec_elems(C) != 0)
    throw std::invalid_argument("hipasm gemv launch: k = " + std::to_string(g.k) + " is not a multiple of " +
                                std::to_string(gemv_vec_elems(C)) + " (the configuration's vec_bytes / element size): "
                                "use a configuration with smaller vec_bytes");
  if (uint64_t(g.k) * (C.x_f32 ? 4u : 2u) * 64u >= (uint64_t{1} << 31) ||
      uint64_t(g.k) * gemv_a_bytes(C) >= (uint64_t{1} << 31))
    throw std::invalid_argument("hipasm gemv launch: k is too large for 32-bit offsets");
  rt::kernel_args args;
  args.add(g.y).add(g.a).add(g.x).add(g.bias).add(g.m).add(g.k);
  const uint32_t per = static_cast<uint32_t>(gemv_rows_per_group(C));
  return dev.launch(mod, kernel, {(g.m + per - 1) / per, 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args,
                    opts);
}
// The kernels of HIPASM_GEMV_KERNELS(kernel, C): kernel or kernel_ksplit, as gemv_uses_k_split picks.
template <gemv_config C>
rt::launch_report launch_gemv_auto(rt::device& dev, rt::module& mod, std::string_view kernel, const gemv_args& g,
                                   const rt::launch_options& opts = {}) {
  if (gemv_uses_k_split(C, g.m))
    return launch_gemv<gemv_ksplit_config(C)>(dev, mod, std::string(kernel) + "_ksplit", g, opts);
  return launch_gemv<C>(dev, mod, kernel, g, opts);
}
}  // namespace hipasm::kernels
#endif
