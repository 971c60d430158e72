// Quantized fused MoE: fp8 (e4m3 in the target's format: fnuz on gfx942, OCP e4m3fn on gfx950)
// with DeepSeek-style block scales, or int8 per token x per channel, on moe.hpp's sorted routing
// (moe_sorting: aiter's layout), as aiter's a8w8 block-scale MoE (its intermediate re-quantized
// per 1x128 between the GEMMs):
//
//   x  fp8 [tokens][dim] with xs f32 [dim / 128][tokens] (1x128 blocks: dynamic_quant.hpp's
//      .block = 128 layout, which aiter passes its asm kernels' activation scales in)
//   W1 fp8 [experts][2 * inter (g1u1: gate rows, then up) or inter][dim], w1s f32
//      [experts][rows / 128][dim / 128] (one scale per 128x128 block)
//   W2 fp8 [experts][dim][inter], w2s f32 [experts][dim / 128][inter / 128]
//   per sorted row (token t, expert e, routing weight w):
//     g[n] = sum_kb (sum_{k in kb} x[t][k] W1[e][n][k]) * xs[kb][t] * w1s[e][n / 128][kb]  (up likewise)
//     h = act(g) * up (g1u1) or act(g) (act: silu, gelu, gelu_tanh), re-quantized per 1x128 block of inter:
//       hs = max(amax / qmax, 1 / (512 * qmax)), hq = sat(rne(h * (1 / hs)))   (dynamic_quant's rule;
//       qmax the format's largest: 240 fnuz, 448 OCP, 127 int8)
//     out[t][d] += w * sum_kb (sum_{k in kb} hq[k] W2[e][d][k]) * hs[kb] * w2s[e][d / 128][kb]
//   out f32 [tokens][dim] (stage 1 zeroes it, stage 2 adds with f32 atomics).
//
// 1. moe_quant_stage1: grid (inter / 128, y): a workgroup takes a block of 32 sorted rows (one
//    expert) and 128 columns of inter (4 column waves of 32, each with k_split waves over the
//    K blocks of dim); v_mfma_f32_32x32x16_fp8_fp8 with the weight rows as A (32 n) and the
//    gathered token rows as B (32 tokens), as moe.hpp's bf16 stages: a lane's 16-byte load
//    holds 16 consecutive k of its row, fed to two MFMAs (the same k permutation for both
//    operands); on a target with the double-K MFMA (gfx950's v_mfma_f32_32x32x64_f8f6f4,
//    v_mfma_i32_32x32x32_i8; gemm_quant's choice) two loads (fp8) or one (i8) feed one MFMA,
//    half the MFMAs in the same passes. Each 128-element K block's products go to their own registers (the block's
//    first MFMA adds 0), then acc += part * (xs[kb][token] * w1s[e][n / 128][kb]) (a lane's
//    16 accumulator registers share one token column: one x scale a lane, the weight scale
//    uniform: the wave's 32 rows lie in one 128-row block). One K block a load group, two
//    groups in flight (software_pipeline); the weights through a swizzled LDS tile per wave
//    (lds_weights: a load takes 8 rows x 128 bytes, 8 whole lines, where the MFMA layout's 32
//    rows x 32 bytes touch 32: the CU's address path bounded a decode row at half the HBM rate)
//    and read back into the registers they came in. k_split parts add through LDS. The intermediate is
//    re-quantized in the kernel: the workgroup's 128 columns are exactly one scale block of a
//    row, so the row's amax is the max over the 4 column waves' lanes of that token (LDS), and
//    stage 1 stores hq fp8 [max_blocks * 32][inter] and hs f32 [inter / 128][max_blocks * 32]
//    at the sorted row (padding rows: no hq stores). Stage 1 also zeroes out.
// 2. moe_quant_stage2: grid (ceil(dim / (32 waves row_tiles)), y): W2's rows (32 row_tiles of dim
//    a wave; 2 tiles share each hq load) against the block's hq rows, the same block-scaled K loop
//    (K = inter), then out[token][d] += w * acc (f32 buffer atomics; padding rows' token is past
//    out's V#: dropped). A block's sorted rows (and the fused kernel's counter) load while the
//    block before it computes.
// int8 (.type = quant_type::i8; tested on gfx942 and gfx950): x int8 with xs f32
// [tokens] (per token), W1 int8 with w1s f32 [experts][rows] and W2 with w2s f32 [experts][dim]
// (per channel): the same kernels on
// v_mfma_i32_32x32x16_i8 (exact i32 per K block, converted and summed in f32); stage 1 scales
// g and up by xs[t] * w1s[e][n] (a lane's token scale times its registers' channel scales),
// re-quantizes h to int8 per 1x128 block (qmax 127, nearest even, dynamic_quant's rule), and
// stage 2 takes hs per K block and w2s[e][d] * w in its epilogue.
// 3. moe_quant_fused: both in one dispatch, moe.hpp's scheme (stage-2 workgroups wait on counters
//    for their block's stage-1 workgroups): they run on the CUs stage 1's last round leaves idle.
// 4. moe_quant_onepass: aiter's fmoe scheme, one workgroup a (block, 128 columns of inter): stage
//    1 for its columns, then (its h through LDS; W2's first tiles in flight since its K loop) W2's
//    128 columns of them against its h for all of dim, out += through f32 atomics (inter / 128
//    times stage 2's: one set a K block); no workgroup waits on another's h (workgroup 0 only
//    zeroes out), so with every workgroup resident at once (decode) the CUs stream weights to the
//    end without stage 2's waits and stage boundary.
// dim and inter must be multiples of 128 (whole scale blocks; the host API checks). x is
// quantized beforehand (dynamic_quant.hpp's kernel: a launch of its own, as aiter's asm kernels
// take x already quantized); h is re-quantized inside stage 1 (no launch, no bf16 round trip).
// Speed (bench/kernels/bench_moe_quant.cpp, MI300X model): decode reads each routed expert's
// weights once, at ~90% of the model's HBM rate on DeepSeek V3's 1- and 4-token rows. Not done:
// K split over workgroups for stage 1 when few blocks leave CUs idle (2 experts: 64 of 304 CUs).
//
// Device side:  HIPASM_MOE_QUANT_STAGE1_KERNEL(name, cfg), HIPASM_MOE_QUANT_STAGE2_KERNEL(name, cfg),
//               HIPASM_MOE_QUANT_FUSED_KERNEL(name, stage1_cfg, stage2_cfg),
//               HIPASM_MOE_QUANT_ONEPASS_KERNEL(name, stage1_cfg)
// Host side:    kernels/moe_quant_launch.hpp.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "dynamic_quant.hpp"
#include "gemm_quant.hpp"
#include "moe.hpp"

namespace hipasm::kernels {

struct moe_quant_config {
  quant_type type = quant_type::fp8;  // fp8 with block scales, or i8 per token x per channel
  uint32_t waves = 4;                 // column waves (32 columns each); stage 1: 4 (one 128-column h scale block)
  uint32_t k_split = 1;               // waves sharing a column block, each a range of the K blocks
  bool gated = true;                  // stage 1: W1 holds gate and up rows (g1u1); else act(gate) (g1u0)
  activation act = activation::silu;  // stage 1's act: silu, gelu (erf) or gelu_tanh (activation.hpp)
  uint32_t max_workgroups = 1216;     // the grid's size at most (workgroups loop over the blocks)
  bool lds_weights = true;            // weight tiles through LDS: a load takes 8 rows x 128 bytes (8
                                      // whole lines) in place of 32 rows x 32 bytes (32 lines: the CU's
                                      // address path, 4 cycles a line, bounds a decode row's stream)
  uint32_t pipeline = 2;              // K blocks whose loads are in flight: 2, or 3 (two ahead while one
                                      // computes, its MFMAs interleaved with the loads: more bytes in
                                      // flight a wave, 24 (g1u1) or 16 more VGPRs a set)
  uint32_t row_tiles = 1;             // stage 2: 32-row tiles of dim a wave, 1 or 2 (2: each h load
                                      // feeds both, twice the weight bytes in flight a wave and half
                                      // the workgroups a block: decode rows with a short K = inter)

  constexpr uint32_t threads() const { return 64 * waves * k_split; }
  constexpr uint32_t cols() const { return 32 * waves * row_tiles; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + cols() - 1) / cols(); }
  constexpr uint32_t grid_y(uint32_t n, uint32_t max_blocks) const {
    const uint32_t y = max_workgroups / grid_x(n);
    return y < 1 ? 1 : y > max_blocks ? max_blocks : y;
  }
  // LDS: the k_split partial sums ([part - 1][col][operand][register][lane]) and the amax exchange
  constexpr uint32_t reduce_bytes(uint32_t nw) const { return (k_split - 1) * waves * nw * 16 * 64 * 4; }
  constexpr uint32_t amax_bytes() const { return waves * 64 * 4; }
  // the waves' weight tiles (32 rows x 128 bytes each, one operand at a time); stage 1's k_split
  // sums share their region (a barrier between the two uses)
  constexpr uint32_t staging_bytes() const { return lds_weights ? waves * k_split * 32 * 128 : 0; }
  constexpr uint32_t shared_bytes(uint32_t nw) const {
    return staging_bytes() > reduce_bytes(nw) ? staging_bytes() : reduce_bytes(nw);
  }
};

namespace detail {
constexpr const char* moe_quant_config_error(const moe_quant_config& c, bool stage1) {
  if (c.type == quant_type::bf8) return "moe_quant: fp8 (block scales) or i8 (per token x per channel), not bf8";
  if (c.waves < 1 || c.waves > 16) return "moe_quant: 1 to 16 column waves";
  if (c.k_split < 1 || c.waves * c.k_split > 16) return "moe_quant: k_split from 1, waves * k_split <= 16";
  if (128 % c.cols() != 0 && c.cols() % 128 != 0) return "moe_quant: 32 * waves * row_tiles must divide 128 or be a multiple of it";
  if (c.pipeline < 2 || c.pipeline > 3) return "moe_quant: pipeline 2 or 3 (K blocks in flight)";
  if (c.row_tiles < 1 || c.row_tiles > 2) return "moe_quant: row_tiles 1 or 2";
  if (stage1 && c.row_tiles != 1) return "moe_quant stage 1: row_tiles 1 (its two weight operands are gate and up)";
  if (stage1 && c.waves != 4)
    return "moe_quant stage 1: 4 column waves (a workgroup's 128 columns of inter are one scale block of h)";
  if (c.shared_bytes(stage1 && c.gated ? 2 : 1) + c.amax_bytes() > 65536)
    return "moe_quant: the k_split partial sums or the weight tiles exceed 64 KiB of LDS";
  return nullptr;
}
template <moe_quant_config C, bool Stage1>
constexpr void moe_quant_check_config() {
  static_assert(moe_quant_config_error(C, Stage1) == nullptr,
                std::string_view(moe_quant_config_error(C, Stage1) ? moe_quant_config_error(C, Stage1) : ""));
}

// A wave of a stage's workgroup: lane (the MFMA column: the block's row), half (the k group),
// column group col (32 * row_tiles output columns from col0), and its K blocks [kb_begin, kb_end).
struct moe_quant_wave {
  gpr<dtype::u32> tid, lane, half, wave, col, part, kb_begin, kb_end, col0;
  buffer sid;
};
template <moe_quant_config C>
constexpr moe_quant_wave moe_quant_wave_setup(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> nkb,
                                              arg<const unsigned*> sorted_token_ids) {
  using dtype::u32;
  moe_quant_wave r{J.thread_id_x(), J.vgpr<u32>(), J.vgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(),
                   J.sgpr<u32>(),   J.sgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(), {}};
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x16_fp8_fp8");
  static_assert(AT.a_row().mask == AT.c_col().mask && AT.a_k().shift == AT.c_row().shift);
  r.lane = r.tid & AT.a_row().mask;
  r.half = (r.tid >> AT.a_k().shift) & AT.a_k().mask;
  r.wave = readfirstlane(r.tid) >> 6u;
  r.col = r.wave % C.waves;
  r.part = r.wave / C.waves;
  if constexpr (C.k_split > 1) {
    auto per = J.sgpr<u32>();
    per = (nkb + (C.k_split - 1u)) / C.k_split;
    r.kb_begin = min(gpr<u32>(r.part * per), nkb);
    r.kb_end = min(gpr<u32>(r.kb_begin + per), nkb);
  } else {
    r.kb_begin = 0u;
    r.kb_end = nkb + 0u;
  }
  r.col0 = wg_x * C.cols() + r.col * (32u * C.row_tiles);
  r.sid = make_buffer(J, sorted_token_ids, 0xffffffffu);
  return r;
}

// The block-scaled K loop of one wave: acc[w] (32 x 32 f32) += sum over the K blocks kb in
// [kb_begin, kb_end) of (W_w rows (32 from byte wrow[w] / row_bytes) . X rows (at xoff)^T over
// the block) * xs(lane's row, kb) * ws_w(kb). X's scale of block kb at xsoff + kb * xs_stride,
// W_w's at byte ws_off[w] + 4 kb of WS. One K block (4 slices of 32 bytes) a load group,
// C.pipeline groups in flight (software_pipeline). Groups at or past kb_end load through V#
// copies of range 0 (zeros; no memory touched): the pipeline's loads may run past the count.
// XsBlock / WsBlock: the x / W scales are per K block (loaded with the group; else the block's
// products add unscaled, the scales come in the epilogue). int8: i32 products, converted.
template <moe_quant_config C, int NW, bool XsBlock, bool WsBlock>
constexpr void moe_quant_k_loop(builder J, const moe_quant_wave& wv, buffer X, gpr<dtype::u32> xoff, buffer XS,
                                gpr<dtype::u32> xsoff, gpr<dtype::u32> xs_stride, buffer W,
                                std::array<gpr<dtype::u32>, 2> wrow, gpr<dtype::u32> row_bytes, buffer WS,
                                std::array<gpr<dtype::u32>, 2> ws_off, std::array<gpr<dtype::f32>, 2> acc,
                                uint32_t lds_offset) {
  using dtype::u32;
  using dtype::f32;
  constexpr int P = static_cast<int>(C.pipeline);
  constexpr uint32_t U = 4;  // 32-byte slices a K block
  gpr<u32> fx[3], fw[3][2];
  gpr<f32> sx[3], sw[3];
  for (int s = 0; s < P; ++s) {
    fx[s].rebind(J.vgpr<u32>(U, 4));
    for (int w = 0; w < NW; ++w) fw[s][w].rebind(J.vgpr<u32>(U, 4));
    if constexpr (XsBlock) sx[s].rebind(J.vgpr<f32>());
    if constexpr (WsBlock) sw[s].rebind(J.vgpr<f32>(NW));
  }
  constexpr bool I8 = C.type == quant_type::i8;
  constexpr dtype part_t = I8 ? dtype::i32 : dtype::f32;
  // the target's double-K MFMA of the type when it has one (gfx950: fp8 v_mfma_f32_32x32x64_f8f6f4,
  // a lane's 16 k in each 32-byte half of a 64-byte slice; i8 v_mfma_i32_32x32x32_i8, 16
  // consecutive k): one MFMA a slice of SL 32-byte loads (the k permutation is the same for both
  // operands), half the MFMAs of the 32x32x16 ones in the same passes
  constexpr const mfma_atom* DKA = find_mfma_atom(gemm_quant_double_k_mfma(C.type));
  constexpr uint32_t SL = gemm_quant_double_k_slice(C.type) / 32;
  static_assert(U % SL == 0);
  // one set of a K block's products, the operands' in turn (gate's scaled into acc before up's
  // MFMAs: 16 VGPRs fewer, for a third load group in flight)
  auto part = J.vgpr<part_t>(16).aligned(4);
  std::array<gpr<u32>, 2> wso{};
  if constexpr (WsBlock)
    for (int w = 0; w < NW; ++w) {
      wso[w].rebind(J.vgpr<u32>());
      wso[w] = ws_off[w] + 0u;
    }
  buffer Xk{J.sgpr<u32>(4).aligned(4)}, Wk{J.sgpr<u32>(4).aligned(4)}, XSk{J.sgpr<u32>(4).aligned(4)},
      WSk{J.sgpr<u32>(4).aligned(4)};
  Xk.desc = X.desc;
  Wk.desc = W.desc;
  XSk.desc = XS.desc;
  WSk.desc = WS.desc;
  const gpr<u32> kend = wv.kb_end;
  auto clip = [&](const buffer& B, const buffer& src, const gpr<u32>& k) { B.desc[2] = select(k < kend, src.desc[2], 0u); };
  // W's offsets: direct, lane's row and 16 bytes of a 32-byte slice (the MFMA layout); through
  // LDS, load r of a block: row 8r + l / 8, bytes 16 (l % 8) of the block's 128-byte line
  // (l = tid % 64), stored into the wave's tile (16-byte chunks XOR-swizzled by row % 8: the
  // MFMA-layout ds_read_b128s hit distinct banks) and read back as slice p = 32p + 16 half.
  constexpr bool LW = C.lds_weights;
  std::array<gpr<u32>, 2> woff{};
  gpr<u32> wo[2][4];
  const lds_view V(lds_ref{lds_offset, C.staging_bytes() ? C.staging_bytes() : 16},
                   lds_layout{.rows = C.waves * C.k_split * 32, .cols = 64, .elem_bytes = 2, .swz_chunk = 16,
                              .swz_groups = 8, .swz_row_div = 1});
  lds_addr st{}, rd[4]{};
  if constexpr (!LW) {
    for (int w = 0; w < NW; ++w) {
      woff[w].rebind(J.vgpr<u32>());
      woff[w] = wrow[w] + wv.lane * row_bytes + (wv.half << 4u);
    }
  } else {
    auto l64 = J.vgpr<u32>(), c8 = J.vgpr<u32>(), trow = J.vgpr<u32>(), rrow = J.vgpr<u32>();
    l64 = wv.tid & 63u;
    c8 = (l64 & 7u) << 3u;
    trow = wv.wave * 32u + (l64 >> 3u);
    st = V.addr(trow, multiple_of(c8, 8));
    for (int w = 0; w < NW; ++w)
      for (uint32_t r = 0; r < 4; ++r) {
        wo[w][r].rebind(J.vgpr<u32>());
        wo[w][r] = wrow[w] + ((l64 >> 3u) + 8u * r) * row_bytes + (c8 << 1u);
      }
    rrow = wv.wave * 32u + wv.lane;
    for (uint32_t p = 0; p < 4; ++p) {
      auto c = J.vgpr<u32>();
      c = (wv.half << 3u) + 16u * p;
      rd[p] = V.addr(rrow, multiple_of(c, 8));
    }
  }
  auto kb = J.sgpr<u32>(), kbyte = J.sgpr<u32>(), kxs = J.sgpr<u32>(), kws = J.sgpr<u32>();
  auto zero = J.vgpr<u32>();
  zero = 0u;
  kb = wv.kb_begin + 0u;
  auto load_group = [&](int set) {
    clip(Xk, X, kb);
    clip(Wk, W, kb);
    clip(XSk, XS, kb);
    clip(WSk, WS, kb);
    kbyte = kb << 7u;
    kxs = kb * xs_stride;
    kws = kb << 2u;
    for (uint32_t s = 0; s < U; ++s) {
      Xk.load(fx[set][s], at(xoff) + at(kbyte) + static_cast<int32_t>(32 * s));
      for (int w = 0; w < NW; ++w) {
        if constexpr (LW) Wk.load(fw[set][w][s], at(wo[w][s]) + at(kbyte));
        else Wk.load(fw[set][w][s], at(woff[w]) + at(kbyte) + static_cast<int32_t>(32 * s));
      }
    }
    if constexpr (XsBlock) XSk.load(sx[set], at(xsoff) + at(kxs));
    if constexpr (WsBlock)
      for (int w = 0; w < NW; ++w) WSk.load(sw[set][w], at(wso[w]) + at(kws));
    kb = kb + 1u;
  };
  auto compute = [&](int set) {
    const gpr<u32>* f = fw[set];
    if constexpr (LW) {
      // through the wave's tile, one operand after the other (a wave's DS accesses run in order)
      for (int w = 0; w < NW; ++w) {
        for (uint32_t r = 0; r < 4; ++r) V.store(fw[set][w][r], st, static_cast<int32_t>(8 * r), 0);
        for (uint32_t p = 0; p < 4; ++p) V.load(fw[set][w][p], rd[p]);  // (back into the loaded registers)
      }
      J.s_waitcnt(lgkmcnt(0));
    }
    auto sc = J.vgpr<f32>();
    auto pf = J.vgpr<f32>();
    for (int w = 0; w < NW; ++w) {
      if constexpr (DKA != nullptr) {
        // the double-K MFMA: SL consecutive 32-byte slices (adjacent registers) a MFMA
        for (uint32_t q = 0; q < U / SL; ++q) {
          const auto a = f[w].flat().slice(4 * SL * q, 4 * SL), b = fx[set].flat().slice(4 * SL * q, 4 * SL);
          if (q == 0) mfma_run(J, *DKA, part, a, b, 0);
          else mfma_run(J, *DKA, part, a, b, part);
        }
      } else {
        for (uint32_t s = 0; s < U; ++s)
          for (int h = 0; h < 2; ++h) {
            const auto a = f[w][s].slice(2 * h, 2), b = fx[set][s].slice(2 * h, 2);
            if constexpr (I8) {
              if (s == 0 && h == 0) J.v_mfma_i32_32x32x16_i8(part, a, b, 0);
              else J.v_mfma_i32_32x32x16_i8(part, a, b, part);
            } else {
              if (s == 0 && h == 0) J.v_mfma_f32_32x32x16_fp8_fp8(part, a, b, 0);
              else J.v_mfma_f32_32x32x16_fp8_fp8(part, a, b, part);
            }
          }
      }
      if constexpr (XsBlock && WsBlock) sc = sx[set] * sw[set][w];
      const gpr<f32> scale = XsBlock && WsBlock ? sc : sx[set];
      for (uint32_t r = 0; r < 16; ++r) {
        if constexpr (I8) {
          J.v_cvt_f32_i32(pf, part[r]);
          if constexpr (XsBlock) J.v_fmac_f32(acc[w][r], pf, scale);
          else acc[w][r] = acc[w][r] + pf;
        } else {
          J.v_fmac_f32(acc[w][r], part[r], scale);
        }
      }
    }
  };
  auto groups = J.sgpr<u32>();
  groups = kend - wv.kb_begin;
  software_pipeline(J, groups.as<dtype::i32>(), P, [&](const gpr<dtype::i32>&, int set) { load_group(set); },
                    [&](const gpr<dtype::i32>&, int set) { compute(set); }, {.interleave = P > 2, .overrun = P > 2});
  J.s_waitcnt(vmcnt(0));
}

template <moe_quant_config C>
constexpr void moe_quant_zero_out(builder J, gpr<dtype::u32> tid, gpr<dtype::u32> g, gpr<dtype::u32> groups,
                                  arg<float*> out, arg<unsigned> tokens, arg<unsigned> dim, const moe_sync* sync) {
  using dtype::u32;
  constexpr uint32_t T = C.threads();
  auto zb = J.sgpr<u32>();
  zb = (tokens * dim) << 2u;
  auto O = make_buffer(J, out, zb);
  moe_zero_out(J, O, zb, g, moe_zero_groups(J, tokens, dim, groups, T), T, tid, sync);
}

// ---- 1. stage 1: h = act(x . gate) (* x . up), re-quantized per 1x128 -----------------------
struct moe_quant_no_after {
  constexpr void operator()(const moe_quant_wave&, gpr<dtype::u32>, gpr<dtype::u32>, gpr<dtype::u32>) const {}
};
template <moe_quant_config C, class After = moe_quant_no_after, class Before = moe_quant_no_after>
// Workgroup (wg_x, wg_y) of a grid (inter / 128, grid_blocks); lds_offset: the k_split sums and
// weight tiles (C.shared_bytes), then the amax exchange; sync: the fused kernel's counters.
// before: called after a block's K loop (the one pass: its down slice's first weight loads, in
// flight through the epilogue); h_lds >= 0: hq and hs go to that LDS tile too (moe_quant_down's
// layout: the one pass reads them there, with no wait for the stores).
constexpr void moe_quant_stage1(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, uint32_t lds_offset,
                                const moe_sync* sync, gpr<dtype::u64> hq, arg<float*> hs, arg<float*> out, arg<const uint8_t*> x,
                                arg<const float*> xs, arg<const uint8_t*> w1, arg<const float*> w1s,
                                arg<const unsigned*> sorted_token_ids, arg<const unsigned*> sorted_expert_ids,
                                arg<const unsigned*> num_valid_ids, arg<unsigned> tokens, arg<unsigned> dim,
                                arg<unsigned> inter, arg<unsigned> grid_blocks, arg<unsigned> max_blocks,
                                bool zero = true, After after = {}, Before before = {}, int32_t h_lds = -1,
                                bool warm_weights = false) {
  using dtype::u32;
  using dtype::f32;
  constexpr uint32_t NW = C.gated ? 2 : 1;
  constexpr bool I8 = C.type == quant_type::i8;
  const uint32_t red = lds_offset, amx = lds_offset + (C.shared_bytes(NW) + 15) / 16 * 16;
  auto nkb = J.sgpr<u32>();
  nkb = dim >> 7u;
  const auto wv = moe_quant_wave_setup<C>(J, wg_x, nkb, sorted_token_ids);
  const gpr<u32> tid = wv.tid, lane = wv.lane, half = wv.half;
  if (zero) {
    auto gx = J.sgpr<u32>(), g = J.sgpr<u32>(), n = J.sgpr<u32>();
    gx = inter >> 7u;
    g = wg_y * gx + wg_x;
    n = gx * grid_blocks;
    moe_quant_zero_out<C>(J, tid, g, n, out, tokens, dim, sync);
  }
  const gpr<u32> n0 = wv.col0;
  auto xb = J.sgpr<u32>(), xsb = J.sgpr<u32>(), rows = J.sgpr<u32>(), hb = J.sgpr<u32>(), hsb = J.sgpr<u32>();
  xb = tokens * dim;
  if constexpr (I8) xsb = tokens << 2u;  // per token
  else xsb = (nkb * tokens) << 2u;       // [dim / 128][tokens]
  auto X = make_buffer(J, x, xb);
  auto XS = make_buffer(J, xs, xsb);
  rows = max_blocks * moe_block_m;
  hb = rows * inter;
  hsb = ((inter >> 7u) * rows) << 2u;
  auto H = make_buffer(J, hq, hb);
  auto HS = make_buffer(J, hs, hsb);
  auto xs_stride = J.sgpr<u32>();
  xs_stride = tokens << 2u;
  auto eb = J.sgpr<u32>(), esb = J.sgpr<u32>();
  eb = inter * dim * NW;
  if constexpr (I8) esb = (inter * NW) << 2u;  // per channel: [rows]
  else esb = ((inter >> 7u) * nkb * NW) << 2u;  // [rows / 128][dim / 128]

  detail::moe_for_blocks(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk, gpr<u32> expert) {
    auto so = detail::moe_row_offset(blk, lane), tok = J.vgpr<u32>(), t = J.vgpr<u32>();
    wv.sid.load(tok, at(so));
    auto wbase = J.sgpr<dtype::u64>(), sbase = J.sgpr<dtype::u64>();
    wbase = w1 + mul_wide(expert, eb);
    sbase = w1s + mul_wide(expert, esb);
    auto W = make_buffer(J, wbase, eb);
    auto WS = make_buffer(J, sbase, esb);
    std::array<gpr<u32>, 2> wrow{}, wso{};
    for (uint32_t w = 0; w < NW; ++w) {
      wrow[w].rebind(J.sgpr<u32>());
      wso[w].rebind(J.sgpr<u32>());
      if (w == 0) wrow[w] = n0 * dim;
      else wrow[w] = (n0 + inter) * dim;
      if (w == 0) wso[w] = ((n0 >> 7u) * nkb) << 2u;
      else wso[w] = (((n0 + inter) >> 7u) * nkb) << 2u;
    }
    // warm_weights (the one pass): the first K block's weight lines (the K loop's first loads:
    // lds_weights' 8 rows a load) fetched while the block's token ids come: a dword a lane
    // touches the same lines, into one register kept until the K loop has waited for them (the
    // fused kernel's stage 1 without: the lines' second pass through the address path cost
    // more than the wait where few CUs are busy)
    const bool warm_up = C.lds_weights && warm_weights;
    auto warm = J.vgpr<u32>();
    if (warm_up) {
      auto wa = J.vgpr<u32>(), l64 = J.vgpr<u32>();
      l64 = tid & 63u;
      for (uint32_t w = 0; w < NW; ++w)
        for (uint32_t r = 0; r < 4; ++r) {
          wa = wrow[w] + ((l64 >> 3u) + 8u * r) * dim + ((l64 & 7u) << 4u) + (wv.kb_begin << 7u);
          W.load(warm, at(wa));
        }
      J.s_waitcnt(vmcnt(4 * NW));
    } else {
      J.s_waitcnt(vmcnt(0));
    }
    t = tok & 0xffffffu;
    auto xoff = J.vgpr<u32>(), xsoff = J.vgpr<u32>();
    xoff = t * dim + (half << 4u);  // padding (t = tokens): past x's V#, zeros
    xsoff = select(t < tokens, gpr<u32>(t << 2u), 0x80000000u);
    std::array<gpr<f32>, 2> acc{};
    for (uint32_t w = 0; w < NW; ++w) {
      acc[w].rebind(J.vgpr<f32>(16).aligned(4));
      acc[w].fill(0.0f);
    }
    moe_quant_k_loop<C, NW, !I8, !I8>(J, wv, X, xoff, XS, xsoff, xs_stride, W, wrow, dim, WS, wso, acc, red);
    if (warm_up) warm = warm | 0u;  // (its loads are complete: the K loop waited)
    before(wv, blk, expert, t);
    auto lane64 = J.vgpr<u32>();
    lane64 = tid & 63u;
    if constexpr (C.k_split > 1) {
      if constexpr (C.lds_weights) J.s_barrier();  // every wave is done with its weight tile
      moe_k_split_leave<C.waves, NW>(J, wv.part, wv.col, lane64, red, acc);
    }
    // part 0: the other parts' sums, h, and the lane's |h| maximum into the exchange
    const gpr<f32> hv = acc[0];
    auto m = J.vgpr<f32>();
    J.If(wv.part == 0u, [&] {
      if constexpr (C.k_split > 1) moe_k_split_add<C.k_split, C.waves, NW>(J, wv.col, lane64, red, acc);
      if constexpr (I8) {
        // acc * xs[token] * w1s[e][row]: the lane's rows n + 8q + 4 half + 0..3 (a dwordx4 each q)
        auto xsv = J.vgpr<f32>();
        auto cs = J.vgpr<f32>(4, 4);
        auto co = J.vgpr<u32>();
        XS.load(xsv, at(xsoff));
        for (uint32_t w = 0; w < NW; ++w) {
          for (uint32_t q = 0; q < 4; ++q) {
            co = ((w == 0 ? n0 : gpr<u32>(n0 + inter)) + 8u * q + (half << 2u)) << 2u;
            WS.load(cs[q], at(co));
          }
          J.s_waitcnt(vmcnt(0));
          for (uint32_t q = 0; q < 4; ++q)
            for (uint32_t j = 0; j < 4; ++j) acc[w][4 * q + j] = acc[w][4 * q + j] * (cs[q][j] * xsv);
        }
      }
      for (uint32_t r = 0; r < 16; ++r) {
        if constexpr (C.gated) hv[r] = detail::activate<C.act>(acc[0][r]) * acc[1][r];
        else hv[r] = detail::activate<C.act>(acc[0][r]);
      }
      m = max3(abs(hv[0]), abs(hv[1]), abs(hv[2]));
      for (uint32_t r = 3; r + 1 < 16; r += 2) m = max3(m, abs(hv[r]), abs(hv[r + 1]));
      m = max3(m, abs(hv[15]), 0.0f);
      auto la = J.vgpr<u32>();
      la = ((wv.col << 6u) + (tid & 63u)) << 2u;
      J.ds_write_b32(la, m, {.offset = static_cast<int32_t>(amx)});
    });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    J.If(wv.part == 0u, [&] {
      // the row's maximum over the 4 column waves' two lane halves of this token
      auto t8 = J.vgpr<f32>(8);
      auto ra = J.vgpr<u32>();
      ra = lane << 2u;
      for (uint32_t c = 0; c < 8; ++c) J.ds_read_b32(t8[c], ra, {.offset = static_cast<int32_t>(amx + 128 * c)});
      J.s_waitcnt(lgkmcnt(0));
      m = max3(t8[0], t8[1], t8[2]);
      m = max3(m, t8[3], t8[4]);
      m = max3(m, t8[5], t8[6]);
      m = max(m, t8[7]);
      constexpr float qmax = dynamic_quant_qmax(C.type);
      auto scale = J.vgpr<f32>(), inv = J.vgpr<f32>();
      scale = m / qmax;
      scale = max(scale, dynamic_quant_min_scale(C.type));
      inv = 1.0f / scale;
      // hq: token row blk * 32 + lane, columns n0 + 8q + 4 half + 0..3: 4 bytes a dword
      auto hrow = J.vgpr<u32>(), ho = J.vgpr<u32>();
      hrow = blk * moe_block_m + lane;
      auto hoff = J.vgpr<u32>();
      hoff = select(t < tokens, gpr<u32>(hrow * inter + n0 + (half << 2u)), 0x80000000u);
      auto y = J.vgpr<f32>(4);
      auto la = J.vgpr<u32>(), pk = J.vgpr<u32>();
      // (h_lds: the tile's row lane, bytes 32 col + 8q + 4 half; padding rows too, their h 0)
      if (h_lds >= 0) la = lane * 144u + (wv.col << 5u) + (half << 2u);
      for (uint32_t q = 0; q < 4; ++q) {
        for (uint32_t j = 0; j < 4; ++j) y[j] = hv[4 * q + j] * inv;
        if constexpr (I8) pk = cvt_i8x4(y[0], y[1], y[2], y[3]);
        else pk = cvt_fp8x4(y[0], y[1], y[2], y[3]).as<u32>();
        if (h_lds >= 0) J.ds_write_b32(la, pk, {.offset = h_lds + static_cast<int32_t>(8 * q)});
        ho = select(t < tokens, gpr<u32>(hoff + 8u * q), 0x80000000u);
        H.store(pk, at(ho));
      }
      if (h_lds >= 0) {
        J.If((wv.col | half) == 0u, [&] {
          la = lane << 2u;
          J.ds_write_b32(la, scale, {.offset = h_lds + 32 * 144});
        });
        J.s_waitcnt(lgkmcnt(0));
      }
      // hs[n0 / 128][row]: column wave 0's first half
      J.If(wv.col == 0u, [&] {
        auto so2 = J.vgpr<u32>();
        so2 = select(half == 0u, gpr<u32>(((wg_x * rows + hrow) << 2u)), 0x80000000u);
        HS.store(scale, at(so2));
      });
    });
    // the exchange and partial sums are read before the next block writes them (the one pass:
    // and the h tile written before its down slice reads it)
    J.s_barrier();
    after(wv, blk, expert, t);
    if (sync) moe_signal(J, *sync, tid, val<u32>((blk << 2u) + moe_sync_blocks));
  });
}

// ---- 2. stage 2: out[token] += w * (h . W2^T), block-scaled -----------------------------------
template <moe_quant_config C>
// Workgroup (wg_x, wg_y) of a grid (ceil(dim / cols), grid_blocks); lds_offset: the weight tiles;
// sync: the fused kernel's counters.
constexpr void moe_quant_stage2(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, uint32_t lds_offset,
                                const moe_sync* sync, arg<float*> out, gpr<dtype::u64> hq, gpr<dtype::u64> hs,
                                arg<const uint8_t*> w2, arg<const float*> w2s, arg<const unsigned*> sorted_token_ids,
                                arg<const float*> sorted_weights, arg<const unsigned*> sorted_expert_ids,
                                arg<const unsigned*> num_valid_ids, arg<unsigned> tokens, arg<unsigned> dim,
                                arg<unsigned> inter, arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  using dtype::u32;
  using dtype::f32;
  const uint32_t lds = lds_offset;
  auto nkb = J.sgpr<u32>();
  nkb = inter >> 7u;
  const auto wv = moe_quant_wave_setup<C>(J, wg_x, nkb, sorted_token_ids);
  const gpr<u32> lane = wv.lane, half = wv.half;
  const gpr<u32> d0 = wv.col0;
  auto SWb = make_buffer(J, sorted_weights, 0xffffffffu);
  auto rows = J.sgpr<u32>(), hb = J.sgpr<u32>(), hsb = J.sgpr<u32>();
  rows = max_blocks * moe_block_m;
  hb = rows * inter;
  hsb = (nkb * rows) << 2u;
  auto H = make_buffer(J, hq, hb);
  auto HS = make_buffer(J, hs, hsb);
  auto hs_stride = J.sgpr<u32>();
  hs_stride = rows << 2u;
  auto ob = J.sgpr<u32>(), orow = J.sgpr<u32>();
  orow = dim << 2u;
  ob = tokens * orow;
  auto O = make_buffer(J, out, ob);
  auto eb = J.sgpr<u32>(), esb = J.sgpr<u32>();
  eb = dim * inter;
  constexpr bool I8 = C.type == quant_type::i8;
  if constexpr (I8) esb = dim << 2u;  // per channel: [dim]
  else esb = ((dim >> 7u) * nkb) << 2u;  // [dim / 128][inter / 128]

  // A block's sorted rows, routing weights and (fused) counter load while the block before it
  // computes: a block then waits for one round trip (its K loop's), not two. (The first block's
  // before the loop; the last's loads a block below max_blocks again, unused.)
  auto ntok = J.vgpr<u32>(), nso = J.vgpr<u32>();
  auto nwt = J.vgpr<f32>();
  gpr<u32> npoll, npz, pso, got, miss, nb, mb1;
  if (sync) {
    npoll.rebind(J.vgpr<u32>());
    npz.rebind(J.vgpr<u32>());
    pso.rebind(J.vgpr<u32>());
    got.rebind(J.sgpr<u32>());
    miss.rebind(J.sgpr<u32>());
  }
  nb.rebind(J.sgpr<u32>());
  mb1.rebind(J.sgpr<u32>());
  mb1 = max_blocks - 1u;
  auto prefetch = [&] {  // block nb's
    nso = detail::moe_row_offset(nb, lane);
    wv.sid.load(ntok, at(nso));
    SWb.load(nwt, at(nso));
    if (sync) {
      pso = (nb << 2u) + moe_sync_blocks;
      J.global_load_dword(npoll, pso, sync->counters, {.sc1 = true});
    }
  };
  nb = min(wg_y, mb1);
  prefetch();
  if (sync) {  // (out's zeroing count, for the first block)
    pso = moe_sync_zeroed;
    J.global_load_dword(npz, pso, sync->counters, {.sc1 = true});
  }
  detail::moe_for_blocks(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk, gpr<u32> expert) {
    auto t = J.vgpr<u32>();
    auto wt = J.vgpr<f32>();
    J.s_waitcnt(vmcnt(0));
    t = ntok & 0xffffffu;
    wt = nwt + 0.0f;
    if (sync) {
      // out zeroed and the block's h stored: the early polls' counts, else moe_wait's polls;
      // an acquire either way
      const gpr<u32> producers = sync->producers, zeroers = sync->zeroers;
      got = readfirstlane(npoll);
      miss = producers - min(got, producers);
      got = readfirstlane(npz);
      miss = miss + (zeroers - min(got, zeroers));
      J.If(
          miss != 0u,
          [&] {
            const val<u32> counter = (blk << 2u) + moe_sync_blocks;
            moe_wait(J, *sync, &counter);
          },
          [&] { J.buffer_inv({.sc1 = true}); });
      npz = zeroers;  // (met from here on)
    }
    nb = min(gpr<u32>(blk + grid_blocks), mb1);
    prefetch();
    auto hrow = J.vgpr<u32>(), hoff = J.vgpr<u32>(), hsoff = J.vgpr<u32>();
    hrow = blk * moe_block_m + lane;
    hoff = select(t < tokens, gpr<u32>(hrow * inter + (half << 4u)), hb);  // padding: past h's V#
    hsoff = hrow << 2u;
    auto wbase = J.sgpr<dtype::u64>(), sbase = J.sgpr<dtype::u64>();
    wbase = w2 + mul_wide(expert, eb);
    sbase = w2s + mul_wide(expert, esb);
    auto W = make_buffer(J, wbase, eb);
    auto WS = make_buffer(J, sbase, esb);
    // the wave's row tiles d0 + 32w (rows past dim: past the V#, zeros; a 64-row pair lies in
    // one 128-row scale block)
    constexpr int NW = static_cast<int>(C.row_tiles);
    std::array<gpr<u32>, 2> wrow{}, wso{};
    for (int w = 0; w < NW; ++w) {
      wrow[w].rebind(J.sgpr<u32>());
      wso[w].rebind(J.sgpr<u32>());
      wrow[w] = (d0 + 32u * w) * inter;
      wso[w] = (((d0 + 32u * w) >> 7u) * nkb) << 2u;
    }
    std::array<gpr<f32>, 2> acc{};
    for (int w = 0; w < NW; ++w) {
      acc[w].rebind(J.vgpr<f32>(16).aligned(4));
      acc[w].fill(0.0f);
    }
    moe_quant_k_loop<C, NW, true, !I8>(J, wv, H, hoff, HS, hsoff, hs_stride, W, wrow, inter, WS, wso, acc, lds);
    auto obase = J.vgpr<u32>(), oo = J.vgpr<u32>(), dq = J.vgpr<u32>();
    obase = t * orow;  // padding: token = tokens, past the V#
    for (int w = 0; w < NW; ++w) {
      const gpr<f32> v = acc[w];
      if constexpr (I8) {
        // * w2s[e][d]: the lane's rows d0 + 32w + 8q + 4 half + 0..3 (a dwordx4 each q; past dim: zeros)
        auto cs = J.vgpr<f32>(4, 4);
        auto co = J.vgpr<u32>();
        for (uint32_t q = 0; q < 4; ++q) {
          co = (d0 + (32u * w + 8u * q) + (half << 2u)) << 2u;
          WS.load(cs[q], at(co));
        }
        J.s_waitcnt(vmcnt(0));
        for (uint32_t q = 0; q < 4; ++q)
          for (uint32_t j = 0; j < 4; ++j) v[4 * q + j] = v[4 * q + j] * (cs[q][j] * wt);
      } else {
        for (uint32_t r = 0; r < 16; ++r) v[r] = v[r] * wt;
      }
      for (uint32_t q = 0; q < 4; ++q) {
        dq = (d0 + (32u * w + 8u * q)) + (half << 2u);
        oo = select(dq < dim, gpr<u32>(obase + (dq << 2u)), 0x80000000u);
        for (uint32_t j = 0; j < 4; ++j) O.atomic_add_f32(v[4 * q + j], at(oo) + 4 * j);
      }
    }
  });
  J.s_waitcnt(vmcnt(0));  // (the unused prefetch)
  if (sync) {
    moe_stage2_done(J, *sync, wv.wave, wv.tid, num_valid_ids);
  }
}

// ---- one pass: a stage-1 workgroup's h columns times W2's slice of them, into out ------------
// After stage 1 of (block blk, column block cb = the workgroup's 128 columns of inter), every
// wave of it takes 32-row tiles of dim (wave, wave + waves, ...): out[token][d] += w *
// hs[cb][row] * w2s[e][d / 128][cb] * (hq[row][cb's 128] . W2[e][d][cb's 128]) (int8: w2s[e][d]
// per channel). hq and hs come through an LDS tile (stage 1's h_lds: 32 rows of 128 bytes at a
// 144-byte stride, so a half's 16-byte reads spread over the banks, then the rows' 32 scales):
// no round trip through memory, so prefetch (stage 1's `before`, after its K loop) puts the first
// C.pipeline tiles' loads, the routing weight and out's zeroing count in flight through stage
// 1's epilogue (all the CUs reach it together: the HBM would idle). One K block a tile (through
// the wave's LDS tile: a tile's 32 rows x 128 bytes are 32 whole lines, 8 a load); a tile's
// compute reloads its registers with the tile C.pipeline ahead. The workgroup's first block
// waits for out's zeroing (counters: met long before, after stage 1's K loop).
template <moe_quant_config C>
struct moe_quant_down {
  static constexpr uint32_t WV = C.waves * C.k_split, U = 4, h_stride = 144, h_bytes = 32 * h_stride + 32 * 4;
  static constexpr int P = static_cast<int>(C.pipeline);
  static constexpr bool I8 = C.type == quant_type::i8;
  uint32_t lds_offset = 0;
  int32_t h_lds = 0;
  moe_sync sync;
  arg<float*> out;
  arg<const uint8_t*> w2;
  arg<const float*> w2s, sorted_weights;
  arg<unsigned> tokens, dim, inter;
  gpr<dtype::u32> cb, zero_wait;
  // (bound by prefetch)
  buffer W{}, WS{}, Wk{}, WSk{};
  lds_view V{};
  lds_addr st{}, rd[4]{};
  gpr<dtype::u32> wo[4], fw[3], cs[3], nkb, d0, rb, sb, vzero, co, li, vz;
  gpr<dtype::f32> sw[3], wt;

  // tile `it` of the wave (rows of dim from (it * WV + wave) * 32) into set `set`
  constexpr void load(builder J, const moe_quant_wave& wv, const gpr<dtype::u32>& it, int set) {
    using dtype::u32;
    d0 = (it * WV + wv.wave) << 5u;
    Wk.desc[2] = select(d0 < dim, W.desc[2], 0u);  // past the wave's tiles: zeros, no lines
    WSk.desc[2] = select(d0 < dim, WS.desc[2], 0u);
    rb = d0 * inter;
    for (uint32_t r = 0; r < 4; ++r) Wk.load(fw[set][r], at(wo[r]) + at(rb));
    if constexpr (I8) {
      // w2s[e][d]: the lane's rows d0 + 8q + 4 half + 0..3
      for (uint32_t q = 0; q < 4; ++q) {
        co = (d0 + 8u * q + (wv.half << 2u)) << 2u;
        WSk.load(cs[set][q], at(co));
      }
    } else {
      sb = (((d0 >> 7u) * nkb + cb) << 2u);
      WSk.load(sw[set], at(vzero) + at(sb));
    }
  }
  static constexpr uint32_t loads_a_tile = I8 ? 8 : 5;

  constexpr void prefetch(builder J, const moe_quant_wave& wv, gpr<dtype::u32> blk, gpr<dtype::u32> expert) {
    using dtype::u32;
    using dtype::f32;
    static_assert(C.lds_weights, "moe_quant one pass: the weight tiles go through LDS (lds_weights)");
    nkb.rebind(J.sgpr<u32>());
    nkb = inter >> 7u;
    auto eb = J.sgpr<u32>(), esb = J.sgpr<u32>();
    eb = dim * inter;
    if constexpr (I8) esb = dim << 2u;
    else esb = ((dim >> 7u) * nkb) << 2u;
    auto wbase = J.sgpr<dtype::u64>(), sbase = J.sgpr<dtype::u64>();
    wbase = w2 + mul_wide(expert, eb);
    sbase = w2s + mul_wide(expert, esb);
    W = make_buffer(J, wbase, eb);
    WS = make_buffer(J, sbase, esb);
    Wk = buffer{J.sgpr<u32>(4).aligned(4)};
    WSk = buffer{J.sgpr<u32>(4).aligned(4)};
    Wk.desc = W.desc;
    WSk.desc = WS.desc;
    V = lds_view(lds_ref{lds_offset, C.staging_bytes()},
                 lds_layout{.rows = WV * 32, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8,
                            .swz_row_div = 1});
    {
      auto l64 = J.vgpr<u32>(), c8 = J.vgpr<u32>(), trow = J.vgpr<u32>(), rrow = J.vgpr<u32>();
      l64 = wv.tid & 63u;
      c8 = (l64 & 7u) << 3u;
      trow = wv.wave * 32u + (l64 >> 3u);
      st = V.addr(trow, multiple_of(c8, 8));
      for (uint32_t r = 0; r < 4; ++r) {
        wo[r].rebind(J.vgpr<u32>());
        wo[r] = ((l64 >> 3u) + 8u * r) * inter + (cb << 7u) + (c8 << 1u);
      }
      rrow = wv.wave * 32u + wv.lane;
      for (uint32_t p = 0; p < 4; ++p) {
        auto c = J.vgpr<u32>();
        c = (wv.half << 3u) + 16u * p;
        rd[p] = V.addr(rrow, multiple_of(c, 8));
      }
    }
    for (int s = 0; s < P; ++s) {
      fw[s].rebind(J.vgpr<u32>(U, 4));
      if constexpr (I8) cs[s].rebind(J.vgpr<u32>(4, 4));
      else sw[s].rebind(J.vgpr<f32>());
    }
    d0.rebind(J.sgpr<u32>());
    rb.rebind(J.sgpr<u32>());
    sb.rebind(J.sgpr<u32>());
    li.rebind(J.sgpr<u32>());
    vzero.rebind(J.vgpr<u32>());
    co.rebind(J.vgpr<u32>());
    vz.rebind(J.vgpr<u32>());
    wt.rebind(J.vgpr<f32>());
    vzero = 0u;
    // the routing weight and out's zeroing count, then the first tiles
    auto SWb = make_buffer(J, sorted_weights, 0xffffffffu);
    auto so = J.vgpr<u32>();
    so = (blk * moe_block_m + wv.lane) << 2u;
    SWb.load(wt, at(so));
    so = moe_sync_zeroed;
    J.global_load_dword(vz, so, sync.counters, {.sc1 = true});
    li = 0u;
    for (int s = 0; s < P; ++s) {
      load(J, wv, li, s);
      li = li + 1u;
    }
  }

  constexpr void run(builder J, moe_quant_wave wv, gpr<dtype::u32> t) {  // (wv by value: a lambda reads it)
    using dtype::u32;
    using dtype::f32;
    const gpr<u32> lane = wv.lane, half = wv.half;
    auto ob = J.sgpr<u32>(), orow = J.sgpr<u32>();
    orow = dim << 2u;
    ob = tokens * orow;
    auto O = make_buffer(J, out, ob);
    // the block's h columns of cb (the MFMA's B operand, in the K loop's k order) and scale
    auto ha = J.vgpr<u32>();
    ha = lane * h_stride + (half << 4u);
    auto fx = J.vgpr<u32>(U, 4);
    for (uint32_t s = 0; s < U; ++s) J.ds_read_b128(fx[s], ha, {.offset = h_lds + static_cast<int32_t>(32 * s)});
    auto hsv = J.vgpr<f32>();
    ha = lane << 2u;
    J.ds_read_b32(hsv, ha, {.offset = h_lds + static_cast<int32_t>(32 * h_stride)});
    // the routing weight and out's zeroing count (issued before the tiles), then the zeroing
    J.s_waitcnt(vmcnt(static_cast<uint32_t>(P) * loads_a_tile) | lgkmcnt(0));
    {
      const gpr<u32> zeroers = sync.zeroers;
      auto got = J.sgpr<u32>();
      got = readfirstlane(vz);
      got = zeroers - min(got, zeroers);
      // (an acquire: out's zeroed lines, stored by other XCDs, not from this XCD's L2)
      J.If(zero_wait != 0u, [&] { J.If(got != 0u, [&] { moe_wait(J, sync, nullptr); }, [&] { J.buffer_inv({.sc1 = true}); }); });
    }
    hsv = hsv * wt;
    auto ntile = J.sgpr<u32>(), tiles = J.sgpr<u32>();
    ntile = dim >> 5u;
    tiles = (ntile + (WV - 1u) - min(wv.wave, ntile)) / WV;  // (wave < ntile: dim >= 128 > 32 * ...)
    tiles = select(wv.wave < ntile, tiles, 0u);
    constexpr const mfma_atom* DKA = find_mfma_atom(gemm_quant_double_k_mfma(C.type));
    constexpr uint32_t SL = gemm_quant_double_k_slice(C.type) / 32;
    static_assert(U % SL == 0);
    constexpr dtype part_t = I8 ? dtype::i32 : dtype::f32;
    auto part = J.vgpr<part_t>(16).aligned(4);
    auto v = J.vgpr<f32>(16).aligned(4);
    auto obase = J.vgpr<u32>(), oo = J.vgpr<u32>();
    obase = t * orow;  // padding: token = tokens, past out's V#
    auto ci = J.sgpr<u32>();
    ci = 0u;
    // copy `set`: wait for tile ci (the P - 1 later ones in flight), compute it, load tile ci + P
    // into its registers
    auto step = [&](int set) {
      J.s_waitcnt(vmcnt(static_cast<uint32_t>(P - 1) * loads_a_tile));
      for (uint32_t r = 0; r < 4; ++r) V.store(fw[set][r], st, static_cast<int32_t>(8 * r), 0);
      for (uint32_t p = 0; p < 4; ++p) V.load(fw[set][p], rd[p]);
      J.s_waitcnt(lgkmcnt(0));
      if constexpr (DKA != nullptr) {
        for (uint32_t q = 0; q < U / SL; ++q) {
          const auto a = fw[set].flat().slice(4 * SL * q, 4 * SL), b = fx.flat().slice(4 * SL * q, 4 * SL);
          if (q == 0) mfma_run(J, *DKA, part, a, b, 0);
          else mfma_run(J, *DKA, part, a, b, part);
        }
      } else {
        for (uint32_t s = 0; s < U; ++s)
          for (int h = 0; h < 2; ++h) {
            const auto a = fw[set][s].slice(2 * h, 2), b = fx[s].slice(2 * h, 2);
            if constexpr (I8) {
              if (s == 0 && h == 0) J.v_mfma_i32_32x32x16_i8(part, a, b, 0);
              else J.v_mfma_i32_32x32x16_i8(part, a, b, part);
            } else {
              if (s == 0 && h == 0) J.v_mfma_f32_32x32x16_fp8_fp8(part, a, b, 0);
              else J.v_mfma_f32_32x32x16_fp8_fp8(part, a, b, part);
            }
          }
      }
      if constexpr (I8) {
        for (uint32_t q = 0; q < 4; ++q)
          for (uint32_t j = 0; j < 4; ++j) {
            J.v_cvt_f32_i32(v[4 * q + j], part[4 * q + j]);
            v[4 * q + j] = v[4 * q + j] * (cs[set][q].as<f32>()[j] * hsv);
          }
      } else {
        auto sc = J.vgpr<f32>();
        sc = sw[set] * hsv;
        for (uint32_t r = 0; r < 16; ++r) v[r] = part[r] * sc;
      }
      d0 = (ci * WV + wv.wave) << 5u;
      for (uint32_t q = 0; q < 4; ++q) {
        oo = obase + ((d0 + 8u * q + (half << 2u)) << 2u);
        for (uint32_t j = 0; j < 4; ++j) O.atomic_add_f32(v[4 * q + j], at(oo) + 4 * j);
      }
      load(J, wv, li, set);
      li = li + 1u;
      ci = ci + 1u;
    };
    J.While([&] { return ci < tiles; }, [&] {
      for (int k = 0; k < P; ++k) {
        if (k > 0) J.If(ci >= tiles, [&] { J.Break(); });
        step(k);
      }
    });
    J.s_waitcnt(vmcnt(0));
  }
};

// LDS of a stage (at one offset: the fused kernel's stages share it)
template <moe_quant_config C>
inline constexpr uint32_t moe_quant_stage1_lds = (C.shared_bytes(C.gated ? 2 : 1) + 15) / 16 * 16 + C.amax_bytes();
template <moe_quant_config C>
inline constexpr uint32_t moe_quant_stage2_lds = C.staging_bytes();
constexpr uint32_t moe_quant_lds_offset(builder J, uint32_t bytes) { return bytes ? J.lds_bytes(bytes, 16).offset : 0; }
}  // namespace detail

template <moe_quant_config C>
constexpr void moe_quant_stage1_kernel(builder J, arg<uint8_t*> hq, arg<float*> hs, arg<float*> out,
                                       arg<const uint8_t*> x, arg<const float*> xs, arg<const uint8_t*> w1,
                                       arg<const float*> w1s, arg<const unsigned*> sorted_token_ids,
                                       arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                       arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter,
                                       arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  detail::moe_quant_check_config<C, true>();
  const uint32_t lds = detail::moe_quant_lds_offset(J, detail::moe_quant_stage1_lds<C>);
  detail::moe_quant_stage1<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), lds, nullptr, hq, hs, out, x, xs, w1, w1s, sorted_token_ids, sorted_expert_ids, num_valid_ids,
                              tokens, dim, inter, grid_blocks, max_blocks);
}
template <moe_quant_config C>
constexpr void moe_quant_stage2_kernel(builder J, arg<float*> out, arg<const uint8_t*> hq, arg<const float*> hs,
                                       arg<const uint8_t*> w2, arg<const float*> w2s,
                                       arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                                       arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                       arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter,
                                       arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  detail::moe_quant_check_config<C, false>();
  const uint32_t lds = detail::moe_quant_lds_offset(J, detail::moe_quant_stage2_lds<C>);
  detail::moe_quant_stage2<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), lds, nullptr, out, hq, hs, w2, w2s, sorted_token_ids, sorted_weights, sorted_expert_ids,
                              num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);
}

// ---- both stages in one dispatch (moe.hpp's moe_fused_kernel scheme and counters) --------------
// A 1-D grid: workgroups [0, n1) are stage 1's grid (x fastest: inter / 128, grid1_y rows),
// [n1, n1 + n2) stage 2's (x over dim, grid2_y rows). A stage-2 workgroup waits, before each of
// its blocks, for out's zeroing and for the inter / 128 stage-1 workgroups of the block (counters
// at `counters`, zero between launches: the last stage-2 workgroup resets them); it never waits
// for a higher workgroup id (deadlock-free with in-order dispatch, as moe_fused_kernel).
template <moe_quant_config C1, moe_quant_config C2>
constexpr void moe_quant_fused_kernel(builder J, arg<float*> out, arg<uint8_t*> hq, arg<float*> hs,
                                      arg<const uint8_t*> x, arg<const float*> xs, arg<const uint8_t*> w1,
                                      arg<const float*> w1s, arg<const uint8_t*> w2, arg<const float*> w2s,
                                      arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                                      arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                      arg<unsigned*> counters, arg<unsigned> tokens, arg<unsigned> dim,
                                      arg<unsigned> inter, arg<unsigned> grid1_y, arg<unsigned> grid2_y,
                                      arg<unsigned> max_blocks) {
  detail::moe_quant_check_config<C1, true>();
  detail::moe_quant_check_config<C2, false>();
  static_assert(C1.type == C2.type, "moe_quant fused: stage 1 and stage 2 take the same quant_type");
  static_assert(C1.threads() == C2.threads(),
                "moe_quant fused: stage 1 and stage 2 share the workgroup size: waves * k_split must be equal");
  using dtype::u32;
  constexpr uint32_t lds1 = detail::moe_quant_stage1_lds<C1>, lds2 = detail::moe_quant_stage2_lds<C2>;
  const uint32_t lds = detail::moe_quant_lds_offset(J, lds1 > lds2 ? lds1 : lds2);
  auto wg = J.workgroup_id_x();
  auto gx1 = J.sgpr<u32>(), gx2 = J.sgpr<u32>(), n1 = J.sgpr<u32>(), n2 = J.sgpr<u32>();
  gx1 = inter >> 7u;
  gx2 = (dim + (C2.cols() - 1u)) / C2.cols();
  n1 = gx1 * grid1_y;
  n2 = gx2 * grid2_y;
  const detail::moe_sync sync{counters, gx1, detail::moe_zero_groups(J, tokens, dim, n1, C1.threads()), n2};
  auto y = J.sgpr<u32>(), xw = J.sgpr<u32>(), w = J.sgpr<u32>();
  J.If(
      wg < n1,
      [&] {
        y = wg / gx1;
        xw = wg - y * gx1;
        detail::moe_quant_stage1<C1>(J, xw, y, lds, &sync, hq, hs, out, x, xs, w1, w1s, sorted_token_ids,
                                     sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid1_y, max_blocks);
      },
      [&] {
        w = wg - n1;
        y = w / gx2;
        xw = w - y * gx2;
        detail::moe_quant_stage2<C2>(J, xw, y, lds, &sync, out, hq, hs, w2, w2s, sorted_token_ids, sorted_weights,
                                     sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid2_y, max_blocks);
      });
}

// ---- one pass (aiter's fmoe scheme): stage 1 and its down-projection slice a workgroup --------
// A 1-D grid of 1 + inter / 128 x grid_y workgroups: workgroup 0 zeroes out; then (x fastest)
// workgroup (cb, y) runs stage 1 for
// the blocks y, y + grid_y, ... and after each, W2's columns of cb against the h it stored
// (moe_quant_down, h through LDS), adding into out. No workgroup waits for another's results: only the
// first atomics wait for out's zeroing (workgroup 0's, long done by then), and the last
// workgroup to finish sets the counters back to 0.
template <moe_quant_config C>
constexpr void moe_quant_onepass_kernel(builder J, arg<float*> out, arg<uint8_t*> hq, arg<float*> hs,
                                        arg<const uint8_t*> x, arg<const float*> xs, arg<const uint8_t*> w1,
                                        arg<const float*> w1s, arg<const uint8_t*> w2, arg<const float*> w2s,
                                        arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                                        arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                        arg<unsigned*> counters, arg<unsigned> tokens, arg<unsigned> dim,
                                        arg<unsigned> inter, arg<unsigned> grid_y, arg<unsigned> max_blocks) {
  detail::moe_quant_check_config<C, true>();
  using dtype::u32;
  using down_t = detail::moe_quant_down<C>;
  const uint32_t lds = detail::moe_quant_lds_offset(J, detail::moe_quant_stage1_lds<C> + down_t::h_bytes);
  const int32_t h_lds = static_cast<int32_t>(lds + detail::moe_quant_stage1_lds<C>);
  auto wg = J.workgroup_id_x();
  auto gx = J.sgpr<u32>(), n = J.sgpr<u32>(), y = J.sgpr<u32>(), cb = J.sgpr<u32>();
  gx = inter >> 7u;
  n = gx * grid_y;
  // workgroup 0 only zeroes out, while the others run stage 1 (one CU's stores: zeroing beside
  // its own work delayed the grid's last workgroup); the others wait only for it, a lower id
  // (the simulator runs a grid's workgroups in turn; hardware dispatches them in order), and
  // workgroup 1 + (cb + y * gx) takes column block cb of the blocks y, y + grid_y, ...
  auto one = J.sgpr<u32>();
  one = 1u;
  const detail::moe_sync sync{counters, gx, one, n};
  auto tid = J.thread_id_x();
  {
    auto zb = J.sgpr<u32>();
    zb = (tokens * dim) << 2u;
    auto O = make_buffer(J, out, zb);
    detail::moe_zero_out(J, O, zb, wg, one, C.threads(), tid, &sync);
  }
  J.If(wg != 0u, [&] {
    auto w = J.sgpr<u32>();
    w = wg - 1u;
    y = w / gx;
    cb = w - y * gx;
    auto first = J.sgpr<u32>();
    first = 1u;
    const gpr<dtype::u64> hq64 = hq;
    down_t dn{.lds_offset = lds, .h_lds = h_lds, .sync = sync, .out = out, .w2 = w2, .w2s = w2s,
              .sorted_weights = sorted_weights, .tokens = tokens, .dim = dim, .inter = inter, .cb = cb,
              .zero_wait = first};
    auto before = [&](const detail::moe_quant_wave& wv, gpr<u32> blk, gpr<u32> expert, gpr<u32>) {
      dn.prefetch(J, wv, blk, expert);
    };
    auto down = [&](const detail::moe_quant_wave& wv, gpr<u32>, gpr<u32>, gpr<u32> t) {
      dn.run(J, wv, t);
      first = 0u;
    };
    detail::moe_quant_stage1<C, decltype(down), decltype(before)>(J, cb, y, lds, nullptr, hq64, hs, out, x, xs, w1, w1s,
                                                                  sorted_token_ids, sorted_expert_ids, num_valid_ids,
                                                                  tokens, dim, inter, grid_y, max_blocks, false, down,
                                                                  before, h_lds, true);
  });
  // each wave counts itself done (after its zeroing wait); the last sets the zeroing count back
  // to 0 (no block counters here; the done count: the helper)
  auto done = J.vgpr<u32>();
  done = detail::moe_sync_done;
  auto waves = J.sgpr<u32>();
  waves = (n + 1u) * C.threads() / 64u;
  if_last_arrival(J, counters, done, waves, [&] {
    auto z = J.vgpr<u32>(), zo = J.vgpr<u32>();
    z = 0u;
    zo = detail::moe_sync_zeroed;
    J.global_store_dword(zo, z, counters, {.sc1 = true});
  });
}

}  // namespace hipasm::kernels

// One pass: HIPASM_MOE_QUANT_ONEPASS_KERNEL(name, stage1_cfg); grid: launch_moe_quant_onepass.
#define HIPASM_MOE_QUANT_ONEPASS_KERNEL(NAME, CFG)                                                              \
  extern "C" __attribute__((global)) void NAME(                                                                  \
      float* out, uint8_t* hq, float* hs, const uint8_t* x, const float* xs, const uint8_t* w1, const float* w1s, \
      const uint8_t* w2, const float* w2s, const unsigned* sorted_token_ids, const float* sorted_weights,         \
      const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, unsigned* counters, unsigned tokens,     \
      unsigned dim, unsigned inter, unsigned grid_y, unsigned max_blocks) {                                       \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_quant_onepass_kernel<CFG>), out, hq, hs, x, xs, w1, w1s, w2, w2s,    \
                       sorted_token_ids, sorted_weights, sorted_expert_ids, num_valid_ids, counters, tokens, dim, \
                       inter, grid_y, max_blocks);                                                               \
  }
#define HIPASM_MOE_QUANT_STAGE1_KERNEL(NAME, CFG)                                                                \
  extern "C" __attribute__((global)) void NAME(                                                                  \
      uint8_t* hq, float* hs, float* out, const uint8_t* x, const float* xs, const uint8_t* w1, const float* w1s, \
      const unsigned* sorted_token_ids, const unsigned* sorted_expert_ids, const unsigned* num_valid_ids,        \
      unsigned tokens, unsigned dim, unsigned inter, unsigned grid_blocks, unsigned max_blocks) {                \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_quant_stage1_kernel<CFG>), hq, hs, out, x, xs, w1, w1s,             \
                       sorted_token_ids, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks,      \
                       max_blocks);                                                                              \
  }
#define HIPASM_MOE_QUANT_STAGE2_KERNEL(NAME, CFG)                                                                \
  extern "C" __attribute__((global)) void NAME(                                                                  \
      float* out, const uint8_t* hq, const float* hs, const uint8_t* w2, const float* w2s,                       \
      const unsigned* sorted_token_ids, const float* sorted_weights, const unsigned* sorted_expert_ids,          \
      const unsigned* num_valid_ids, unsigned tokens, unsigned dim, unsigned inter, unsigned grid_blocks,        \
      unsigned max_blocks) {                                                                                     \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_quant_stage2_kernel<CFG>), out, hq, hs, w2, w2s, sorted_token_ids,  \
                       sorted_weights, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks,        \
                       max_blocks);                                                                              \
  }
// Both stages in one dispatch: stage 1 with STAGE1_CFG, stage 2 with STAGE2_CFG (the same
// waves * k_split); grid: launch_moe_quant_fused (moe_quant_launch.hpp).
#define HIPASM_MOE_QUANT_FUSED_KERNEL(NAME, STAGE1_CFG, STAGE2_CFG)                                              \
  extern "C" __attribute__((global)) void NAME(                                                                  \
      float* out, uint8_t* hq, float* hs, const uint8_t* x, const float* xs, const uint8_t* w1, const float* w1s, \
      const uint8_t* w2, const float* w2s, const unsigned* sorted_token_ids, const float* sorted_weights,         \
      const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, unsigned* counters, unsigned tokens,     \
      unsigned dim, unsigned inter, unsigned grid1_y, unsigned grid2_y, unsigned max_blocks) {                   \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_quant_fused_kernel<STAGE1_CFG, STAGE2_CFG>), out, hq, hs, x, xs, w1, \
                       w1s, w2, w2s, sorted_token_ids, sorted_weights, sorted_expert_ids, num_valid_ids,         \
                       counters, tokens, dim, inter, grid1_y, grid2_y, max_blocks);                              \
  }
