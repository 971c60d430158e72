// Fused MoE (mixture of experts) on bf16: token sorting by expert, then two grouped GEMMs over
// the sorted blocks, as aiter's fused_moe (moe_sorting + fmoe / the 2-stage CK MoE):
//
//   for each token t and slot k (expert e = topk_ids[t][k], weight w = topk_weights[t][k]):
//     h = act(x[t] . W1[e][gate rows]) (* x[t] . W1[e][up rows] when gated)   [inter]
//     out[t] += w * (h . W2[e]^T)                                             [dim]
//   act = SiLU, GELU (erf) or GELU (tanh) (moe_gemm_config::act); x [tokens][dim] bf16, W1
//   [experts][2 * inter (gated) or inter][dim] bf16 (gate rows first, then up), W2
//   [experts][dim][inter] bf16, out [tokens][dim] f32.
//
// 1. moe_sorting (one workgroup): aiter's layout, so that its output also feeds aiter's fmoe
//    asm kernels. sorted_token_ids: per expert in increasing expert order, its (token, slot)
//    pairs in increasing token order, each `token | slot << 24`, padded with `tokens | topk <<
//    24` to a multiple of block_m; experts without tokens get no block (aiter's
//    SkipExpertsWithZeroTokens). sorted_weights: the pairs' topk_weights (0 for padding).
//    sorted_expert_ids: the expert of each block of block_m entries. num_valid_ids: {entries
//    incl. padding, tokens}. Expert ids outside [0, experts) are not routed (dropped).
//    Counting: LDS atomics per expert; starts: an exclusive workgroup scan of the padded counts
//    (one lane per expert, helpers/scan.hpp); order: chunks of tokens scattered into an LDS
//    matrix [expert][token] of slot + 1 bytes, each expert's lane walks its row in token order
//    (4 tokens a ds_read_b32) and writes its routed entries over the padding value, which every
//    entry got first (coalesced stores); weights: a gather over the sorted entries at the end.
// 2. moe_stage1: grid (ceil(inter / (32 waves)), y): a workgroup takes a block of 32
//    sorted rows (one expert), each wave 32 columns n of inter: v_mfma_f32_32x32x8_bf16 (on
//    gfx950 the double-K v_mfma_f32_32x32x16_bf16: one MFMA a lane's 16 bytes, not two) with
//    the weight rows as A (32 n) and the gathered token rows as B (32 tokens), so a lane holds
//    4 consecutive n of one token: h = act(gate) * up stored as bf16 (dwordx2) into the
//    intermediate [blocks * 32][inter] at the sorted row. The MFMA operands are 16 bytes a
//    lane (a row's 8 consecutive k, the same k permutation for A and B as gemm_bf16), `unroll`
//    16-element slices a load group, two groups in flight. Tokens come straight from global
//    memory (padding rows' token is past x's V#: zeros, no lines). Weights either the same way
//    (32 rows x 32 bytes a load) or, with lds_weights, as whole 128-byte lines (8 rows a
//    dwordx4) into the wave's own swizzled LDS tile and back in the MFMA layout.
//    Stage 1 also zeroes out (the workgroups share it).
// 3. moe_stage2: grid (ceil(dim / (32 waves)), y): the same loop with W2's rows (32 of
//    dim a wave) and the block's intermediate rows, then out[token][d] += w * acc as f32
//    buffer atomics (padding tokens are past out's V#: dropped).
// The grids' y covers min(max blocks, max_workgroups / grid x) rows; each workgroup loops over
// the blocks y, y + grid_y, ... below num_valid_ids[0] / 32 (the worst-case block count is
// mostly empty: few workgroups find nothing to do).
// 4. moe_fused: the two GEMMs (2 and 3) in one dispatch (a 1-D grid: stage 1's workgroups, then stage
//    2's, each with its own configuration of one workgroup size): a stage-2 workgroup waits
//    for the zeroing of out and, before each block, for the stage-1 workgroups of that block
//    (counters in memory, agent-scope release/acquire), so the second dispatch and the ramp
//    down of stage 1 / up of stage 2 overlap with work.
// dim and inter must be multiples of 16 (whole 16-element slices; the host API checks).
// Speed (bench/kernels/bench_moe.cpp): the weights are the traffic (each routed expert's W1
// and W2 once). A direct load touches 32 lines (a lane's row, 32 bytes of it), 4 cycles each
// on the CU's address path (docs/timing-model.md); lds_weights touches 8, which took the
// 32-token rows from address-path-bound to near the HBM stream (both stages). k_split cuts
// the load round trips per wave. Not done: h kept in LDS (aiter's fmoe: a workgroup takes a
// slice of inter for both GEMMs, adding its share of out): it would save h's round trip, which
// is only the blocks' real rows (padding rows are neither stored nor loaded): a small share of
// the weights' traffic.
//
// Device side:  HIPASM_MOE_SORTING_KERNEL(name, sorting_cfg), HIPASM_MOE_STAGE1_KERNEL(name,
//               gemm_cfg), HIPASM_MOE_STAGE2_KERNEL(name, gemm_cfg), HIPASM_MOE_FUSED_KERNEL(name,
//               stage1_cfg, stage2_cfg)
// Host side:    kernels/moe_launch.hpp (launch_moe_sorting, launch_moe_stage1/2, launch_moe_fused,
//               launch_fused_moe).
#pragma once
#include <bit>
#include <cstdint>
#include <string_view>

#include "../helpers/arrival.hpp"
#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "activation.hpp"

namespace hipasm::kernels {

// The routing's block size: the MFMA's 32 columns (aiter's fmoe uses 32 too).
inline constexpr uint32_t moe_block_m = 32;
// moe_sorting_config::debug_log's tags (record lane l of wave w: expert 64 w + l)
inline constexpr int moe_log_count = 1, moe_log_start = 2, moe_log_total = 3;

struct moe_sorting_config {
  uint32_t max_experts = 256;  // experts (a run-time argument) <= max_experts <= 64 * waves
  uint32_t waves = 4;          // one workgroup of 64 * waves lanes, one expert a lane
  uint32_t chunk_tokens = 0;   // tokens per LDS matrix pass (0: as many as 32 KiB hold, <= 256)
  bool debug_log = false;      // records (helpers/debug_log.hpp) into the kernel's last argument
                               // (a debug_log_buffer; null and unread when false): each expert
                               // lane's count (tag moe_log_count) and padded start (moe_log_start),
                               // each wave's padded total (moe_log_total, an SGPR: once a wave)

  constexpr uint32_t threads() const { return 64 * waves; }
  // (at least one dword a wave: the counts are also workgroup_scan's scratch)
  constexpr uint32_t experts_padded() const { return (max_experts > waves ? max_experts + 3 : waves + 3) / 4 * 4; }
  constexpr uint32_t chunk() const {
    if (chunk_tokens) return chunk_tokens;
    uint32_t s = 32768 / experts_padded() / 16 * 16;
    return s > 256 ? 256 : s;
  }
  // bytes from one expert's matrix row to the next: the row and a pad that makes it an odd number
  // of dwords (the expert lanes' ds_read_b32 of their rows then hit 32 different banks; rows
  // chunk() apart, a multiple of 16 bytes, all hit the same bank)
  constexpr uint32_t row_pitch() const { return chunk() + (chunk() / 4 % 2 == 0 ? 4 : 8); }
  // the matrix, rounded up to whole 16-byte stores of every lane (zeroed without a condition)
  constexpr uint32_t matrix_bytes() const {
    const uint32_t b = experts_padded() * row_pitch(), step = 16 * threads();
    return (b + step - 1) / step * step;
  }
};

struct moe_gemm_config {
  uint32_t waves = 4;    // 32 columns (stage 1: of inter; stage 2: of dim) a wave
  uint32_t unroll = 4;   // 16-element K slices a load group (two groups in flight)
  bool gated = true;     // W1 holds gate and up rows (aiter's g1u1): h = act(gate) * up; else act(gate)
  activation act = activation::silu;  // stage 1's act: silu, gelu (erf) or gelu_tanh (activation.hpp)
  uint32_t k_split = 1;  // waves sharing a column block, each a K range (more loads in flight
                         // for few tokens): stage 1 adds their sums through LDS, stage 2's atomics add them

  uint32_t max_workgroups = 1216;  // the grid's size at most: a workgroup loops over the blocks
                                   // y, y + grid_y, ... (most of the worst-case blocks are empty)
  bool lds_weights = false;  // weight tiles through LDS: a load takes 8 rows x 128 bytes (8 whole
                             // lines) in place of 32 rows x 32 bytes (32 lines); unroll 4 or 8
  uint32_t pipeline = 2;     // load groups in flight (register sets of X and W fragments): 2, or 3
                             // (software_pipeline's depth 3, each group's MFMAs interleaved with
                             // the loads of the group two ahead: unroll * (1 + NW) * 4 more VGPRs)

  constexpr uint32_t threads() const { return 64 * waves * k_split; }
  // LDS of a stage with nw weight operands: the waves' weight tiles (32 rows x 16 unroll bf16
  // each) and stage 1's k_split partial sums share one region (a barrier between the two uses)
  constexpr uint32_t staging_bytes(uint32_t nw) const { return lds_weights ? waves * k_split * nw * 32 * unroll * 32 : 0; }
  constexpr uint32_t reduce_bytes(uint32_t nw) const { return (k_split - 1) * waves * nw * 16 * 64 * 4; }
  constexpr uint32_t lds_bytes(uint32_t nw) const {
    return staging_bytes(nw) > reduce_bytes(nw) ? staging_bytes(nw) : reduce_bytes(nw);
  }
  constexpr uint32_t cols() const { return 32 * waves; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + cols() - 1) / cols(); }
  constexpr uint32_t grid_y(uint32_t n, uint32_t max_blocks) const {
    const uint32_t y = max_workgroups / grid_x(n);
    return y < 1 ? 1 : y > max_blocks ? max_blocks : y;
  }
};

// Sizes of the sorted buffers for a run (aiter's bound: every expert may add block_m - 1 pads).
constexpr uint32_t moe_max_padded(uint32_t tokens, uint32_t topk, uint32_t experts) {
  return tokens * topk + experts * moe_block_m - topk;
}
constexpr uint32_t moe_max_blocks(uint32_t tokens, uint32_t topk, uint32_t experts) {
  return (moe_max_padded(tokens, topk, experts) + moe_block_m - 1) / moe_block_m;
}

namespace detail {

constexpr const char* moe_sorting_config_error(const moe_sorting_config& c) {
  if (c.waves < 1 || c.waves > 16) return "moe_sorting: 1 to 16 waves";
  if (c.max_experts < 1 || c.max_experts > c.threads()) return "moe_sorting: max_experts must be 1 .. 64 * waves (a lane per expert)";
  if (c.chunk() < 4 || c.chunk() % 4 != 0) return "moe_sorting: chunk_tokens must be a multiple of 4 (a dword of the matrix row)";
  if (c.matrix_bytes() + 4 * c.experts_padded() > 65536) return "moe_sorting: the LDS matrix (experts x (chunk_tokens + pad) bytes) exceeds 64 KiB";
  return nullptr;
}
constexpr const char* moe_gemm_config_error(const moe_gemm_config& c) {
  if (c.waves < 1 || c.waves > 16) return "moe gemm: 1 to 16 waves";
  if (c.unroll < 1 || c.unroll > 8) return "moe gemm: unroll must be 1 .. 8 slices";
  if (c.unroll * (c.gated ? 3 : 2) > 31) return "moe gemm: more than 31 loads a group (vmcnt)";
  if (c.k_split < 1 || c.waves * c.k_split > 16) return "moe gemm: k_split from 1, waves * k_split <= 16";
  if (c.reduce_bytes(c.gated ? 2 : 1) > 65536) return "moe gemm: the k_split partial sums exceed 64 KiB of LDS";
  if (c.pipeline < 2 || c.pipeline > 3) return "moe gemm: pipeline 2 or 3 (load groups in flight)";
  if (c.lds_weights && c.unroll % 4 != 0) return "moe gemm: lds_weights loads whole 128-byte lines: unroll 4 or 8";
  if (c.staging_bytes(c.gated ? 2 : 1) > 65536) return "moe gemm: the LDS weight tiles (waves * k_split * 32 rows x 16 unroll bf16, twice if gated) exceed 64 KiB";
  return nullptr;
}

// A wave of a stage's workgroup: its lanes, its column group (wave % waves: 32 output columns
// from col0) and K range [k_begin, k_end) (part wave / waves of k_split, whole 16-element
// slices), and the sorted token ids (both stages read the block's rows from them).
template <moe_gemm_config C>
struct moe_wave {
  gpr<dtype::u32> tid, lane, half;  // lane: the MFMA column (the block's row) tid % 32; half: tid / 32 % 2
  gpr<dtype::u32> wave, col, part, k_begin, k_end, col0;
  buffer sid;
};
template <moe_gemm_config C>
constexpr moe_wave<C> moe_wave_setup(builder J, gpr<dtype::u32> wg_x, arg<unsigned> K,
                                     arg<const unsigned*> sorted_token_ids) {
  using dtype::u32;
  moe_wave<C> r{J.thread_id_x(), J.vgpr<u32>(), J.vgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(),
                J.sgpr<u32>(),   J.sgpr<u32>(), J.sgpr<u32>(), {}};
  // (the atom's lane fields: A's row / B's column / C's column, and the k group / C's row group)
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
  static_assert(AT.a_row().mask == AT.c_col().mask && AT.a_k().shift == AT.c_row().shift);
  r.lane = r.tid & AT.a_row().mask;
  r.half = (r.tid >> AT.a_k().shift) & AT.a_k().mask;
  r.wave = readfirstlane(r.tid) >> 6u;
  r.col = r.wave % C.waves;
  r.part = r.wave / C.waves;
  if constexpr (C.k_split > 1) {
    auto per = J.sgpr<u32>();
    per = ((K + (16u * C.k_split - 1u)) / (16u * C.k_split)) * 16u;
    r.k_begin = min(gpr<u32>(r.part * per), K);
    r.k_end = min(gpr<u32>(r.k_begin + per), K);
  } else {
    r.k_begin = 0u;
    r.k_end = K + 0u;
  }
  r.col0 = wg_x * C.cols() + (r.col << 5u);
  r.sid = make_buffer(J, sorted_token_ids, 0xffffffffu);
  return r;
}

// k_split > 1: the sums of K parts 1.. go through LDS into part 0's accumulators (the MoE
// stages' shared step), laid out [part - 1][col][w][register][lane] from byte `red` (NW blocks of
// 32 x 32 f32 a wave: (k_split - 1) * waves * NW * 4 KiB). moe_k_split_leave: parts 1.. write
// theirs, then a barrier; moe_k_split_add (part 0, after it): adds them in part order.
template <uint32_t WAVES, uint32_t NW>
constexpr void moe_k_split_leave(builder J, gpr<dtype::u32> part, gpr<dtype::u32> col, gpr<dtype::u32> lane, uint32_t red,
                                 std::array<gpr<dtype::f32>, 2> acc) {
  constexpr uint32_t per_wave = NW * 16 * 64 * 4;
  auto la = J.vgpr<dtype::u32>();
  J.If(part != 0u, [&] {
    la = ((part - 1u) * WAVES + col) * per_wave + (lane << 2u);
    for (uint32_t w = 0; w < NW; ++w)
      for (uint32_t r = 0; r < 16; ++r)
        J.ds_write_b32(la, acc[w][r], {.offset = static_cast<int32_t>(red + (w * 16 + r) * 256)});
  });
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
}
template <uint32_t K_SPLIT, uint32_t WAVES, uint32_t NW>
constexpr void moe_k_split_add(builder J, gpr<dtype::u32> col, gpr<dtype::u32> lane, uint32_t red,
                               std::array<gpr<dtype::f32>, 2> acc) {
  constexpr uint32_t per_wave = NW * 16 * 64 * 4;
  auto la = J.vgpr<dtype::u32>();
  auto t = J.vgpr<dtype::f32>(16);
  for (uint32_t p = 1; p < K_SPLIT; ++p) {
    la = ((p - 1u) * WAVES + col) * per_wave + (lane << 2u);
    for (uint32_t w = 0; w < NW; ++w) {
      for (uint32_t r = 0; r < 16; ++r)
        J.ds_read_b32(t[r], la, {.offset = static_cast<int32_t>(red + (w * 16 + r) * 256)});
      J.s_waitcnt(lgkmcnt(0));
      for (uint32_t r = 0; r < 16; ++r) acc[w][r] = acc[w][r] + t[r];
    }
  }
}

// The K loop of one wave: acc[w] (32 x 32 f32) += W_w (32 rows from byte wrow[w], K) . X (32
// rows at xoff, K)^T over k in [k_begin, k_end). The MFMA operands of a 16-element slice: lane
// half h holds elements 8h..8h+7 of its row (the first MFMA takes 8h..8h+3, the second
// 8h+4..8h+7, the same for both operands, which leaves each sum unchanged). X loads them
// straight from memory (16 bytes a lane; padding rows are past X's V#: no lines touched).
// Slices at or past k_end load through copies of the V#s whose range is 0 (zeros, no lines
// touched, whatever the offset: k goes in the soffset, and a past-the-end marker there relied
// on soffset being range-checked, which the timing model's traffic count once missed).
// W, direct (C.lds_weights false): the same, 32 rows x 32 bytes a load (32 lines). Through
// LDS: 8 rows x 128 bytes a load (8 whole lines: a quarter of the CU address-path cycles),
// stored into the wave's own LDS tile (no barrier: one wave's DS accesses run in order) with
// an XOR swizzle that makes the MFMA-layout ds_read_b128s conflict-free. Groups of U slices,
// C.pipeline in flight; slices at or past k_end load zeros (the slice straddling it; with LDS at
// pipeline 2 the loop also runs whole pairs of groups; software_pipeline's loops compute exactly
// the groups, and at pipeline 3 load up to two past them: zeros, no memory touched).
// NW: weight operands (2: gate and up).
template <moe_gemm_config C, int NW>
constexpr void moe_k_loop(builder J, const moe_wave<C>& wv, buffer X, gpr<dtype::u32> xoff, buffer W,
                          std::array<gpr<dtype::u32>, 2> wrow, gpr<dtype::u32> row_bytes,
                          std::array<gpr<dtype::f32>, 2> acc, uint32_t lds_offset) {
  using dtype::u32;
  constexpr uint32_t U = C.unroll;
  const gpr<u32> K = wv.k_end;
  constexpr int P = static_cast<int>(C.pipeline);
  gpr<u32> fx[P], fw[P][2];
  for (int s = 0; s < P; ++s) {
    fx[s].rebind(J.vgpr<u32>(U, 4));
    for (int w = 0; w < NW; ++w) fw[s][w].rebind(J.vgpr<u32>(U, 4));
  }
  // V# copies for the loop: the range of X / W, or 0 from k_end on
  buffer Xk{J.sgpr<u32>(4).aligned(4)}, Wk{J.sgpr<u32>(4).aligned(4)};
  Xk.desc = X.desc;
  Wk.desc = W.desc;
  auto clip = [&](const buffer& B, const buffer& src, const gpr<u32>& k) { B.desc[2] = select(k < K, src.desc[2], 0u); };
  auto kx = J.sgpr<u32>(), ks = J.sgpr<u32>();
  kx = wv.k_begin + 0u;
  auto load_x = [&](int set) {
    for (uint32_t s = 0; s < U; ++s) {
      clip(Xk, X, kx);
      ks = kx << 1u;
      Xk.load(fx[set][s], at(xoff) + at(ks));
      kx = kx + 16u;
    }
  };
  // the MFMAs of a group: W fragments `f` (fw[set] or, through LDS, the ones read back)
  // (a target with the double-K MFMA, gfx950's v_mfma_f32_32x32x16_bf16: a lane's 8 k of a slice
  // are one MFMA's operand, half the MFMAs in the same passes)
  constexpr const mfma_atom* DKA = find_mfma_atom("v_mfma_f32_32x32x16_bf16");
  auto compute = [&](int set, gpr<u32>* f) {
    for (uint32_t s = 0; s < U; ++s) {
      if constexpr (DKA != nullptr) {
        for (int w = 0; w < NW; ++w) mfma_run(J, *DKA, acc[w], f[w][s], fx[set][s], acc[w]);
        continue;
      }
      for (int h = 0; h < 2; ++h)
        for (int w = 0; w < NW; ++w)
          J.v_mfma_f32_32x32x8_bf16(acc[w], f[w][s].slice(2 * h, 2), fx[set][s].slice(2 * h, 2), acc[w]);
    }
  };
  auto groups = J.sgpr<u32>(), it = J.sgpr<u32>();  // (it: pipeline 2 through LDS)
  groups = (K - wv.k_begin + (16u * U - 1u)) / (16u * U);
  it = 0u;
  if constexpr (!C.lds_weights) {
    std::array<gpr<u32>, 2> woff{};
    for (int w = 0; w < NW; ++w) {
      woff[w].rebind(J.vgpr<u32>());
      woff[w] = wrow[w] + wv.lane * row_bytes + (wv.half << 4u);
    }
    // X and W of a group under one offset
    auto load_group = [&](int set) {
      for (uint32_t s = 0; s < U; ++s) {
        clip(Xk, X, kx);
        clip(Wk, W, kx);
        ks = kx << 1u;
        Xk.load(fx[set][s], at(xoff) + at(ks));
        for (int w = 0; w < NW; ++w) Wk.load(fw[set][w][s], at(woff[w]) + at(ks));
        kx = kx + 16u;
      }
    };
    // pipeline 2, double-buffered: group g + 1's loads issued before the wait for group g
    // (exactly `groups` groups, the last one's epilogue apart); 3: the wait for g leaves g + 1
    // in flight, g's MFMAs interleaved with g + 2's loads, which run up to two groups past the
    // end (zeros; no epilogue copies). The helper counts the loads and waits.
    software_pipeline(J, groups.as<i32>(), P, [&](const gpr<i32>&, int set) { load_group(set); },
                      [&](const gpr<i32>&, int set) { compute(set, fw[set]); }, {.interleave = P > 2, .overrun = P > 2});
  } else {
    // The wave's tile: rows [wave][w][32] x U * 16 columns; 16-byte chunks XOR-swizzled by row % 8.
    const lds_view V(lds_ref{lds_offset, C.staging_bytes(NW)},
                     lds_layout{.rows = C.waves * C.k_split * NW * 32, .cols = 16 * U, .elem_bytes = 2,
                                .swz_chunk = 16, .swz_groups = 8, .swz_row_div = 1});
    // Load step s = 4j + r of operand w: rows 8r + l / 8, columns 64j + 8 (l % 8) of the group
    // (l = tid % 64): the LDS store displacements (8r rows, 64j columns) fold into offset:.
    auto l64 = J.vgpr<u32>(), c8 = J.vgpr<u32>(), trow = J.vgpr<u32>();
    l64 = wv.tid & 63u;
    c8 = (l64 & 7u) << 3u;
    trow = wv.wave * (NW * 32u) + (l64 >> 3u);
    const lds_addr st = V.addr(trow, multiple_of(c8, 8));
    gpr<u32> wo[2][4];
    for (int w = 0; w < NW; ++w)
      for (uint32_t r = 0; r < 4; ++r) {
        wo[w][r].rebind(J.vgpr<u32>());
        wo[w][r] = wrow[w] + ((l64 >> 3u) + 8u * r) * row_bytes + (c8 << 1u);
      }
    // Read-back: slice p at row lane, column 16p + 8 half (slices p and p + 4: 128 bytes apart, folded).
    lds_addr rd[4];
    auto rrow = J.vgpr<u32>();
    rrow = wv.wave * (NW * 32u) + wv.lane;
    for (uint32_t p = 0; p < 4 && p < U; ++p) {
      auto c = J.vgpr<u32>();
      c = (wv.half << 3u) + 16u * p;
      rd[p] = V.addr(rrow, multiple_of(c, 8));
    }
    gpr<u32> fr[2];  // the fragments read back (one group)
    for (int w = 0; w < NW; ++w) fr[w].rebind(J.vgpr<u32>(U, 4));
    // (a group at or past k_end loads zeros; chunks past k_end of the group that straddles it
    // load other columns' weights: X's slices there are zeros)
    auto kw = J.sgpr<u32>(), kwb = J.sgpr<u32>();
    kw = wv.k_begin + 0u;
    auto load_w = [&](int set) {
      clip(Wk, W, kw);
      kwb = kw << 1u;
      for (uint32_t j = 0; j < U / 4; ++j)
        for (int w = 0; w < NW; ++w)
          for (uint32_t r = 0; r < 4; ++r)
            Wk.load(fw[set][w][4 * j + r], at(wo[w][r]) + at(kwb) + static_cast<int32_t>(128 * j));
      kw = kw + 16u * U;
    };
    auto lds_round = [&](int set) {
      for (int w = 0; w < NW; ++w)
        for (uint32_t s = 0; s < U; ++s)
          V.store(fw[set][w][s], st, static_cast<int32_t>(32 * w + 8 * (s % 4)), static_cast<int32_t>(64 * (s / 4)));
      for (int w = 0; w < NW; ++w)
        for (uint32_t p = 0; p < U; ++p) V.load(fr[w][p], rd[p % 4], 32 * w, static_cast<int32_t>(64 * (p / 4)));
    };
    if constexpr (P > 2) {
      // Per group g (set g % 3): the wait for it leaves g + 1 in flight, then into LDS and back
      // and the MFMAs, interleaved with g + 2's loads (software_pipeline: `groups` computes, the
      // loads up to two groups past them, zeros).
      software_pipeline(J, groups.as<i32>(), P,
                        [&](const gpr<i32>&, int set) {
                          load_w(set);
                          load_x(set);
                        },
                        [&](const gpr<i32>&, int set) {
                          lds_round(set);
                          J.s_waitcnt(lgkmcnt(0));
                          compute(set, fr);
                        },
                        {.interleave = true, .overrun = true});
    } else {
      // Per group g (set g % 2): wait for it (g + 1 stays in flight), into LDS and back, the W
      // loads of g + 2 into the freed staging, the MFMAs, then g + 2's X loads (into the X set
      // the MFMAs read): in issue order W(g+1) X(g+1) W(g+2) X(g+2) stay outstanding.
      constexpr int group_loads = static_cast<int>(U) * (1 + NW);
      load_w(0);
      load_x(0);
      load_w(1);
      load_x(1);
      J.While([&] { return it < groups; },
              [&] {
                for (int set = 0; set < 2; ++set) {
                  J.s_waitcnt(vmcnt(group_loads));
                  lds_round(set);
                  load_w(set);
                  J.s_waitcnt(lgkmcnt(0));
                  compute(set, fr);
                  load_x(set);
                }
                it = it + 2u;
              });
    }
  }
  J.s_waitcnt(vmcnt(0));
}

// Byte offset of lane's row of block blk in the sorted arrays (ids, weights).
constexpr gpr<dtype::u32> moe_row_offset(gpr<dtype::u32> blk, gpr<dtype::u32> lane) {
  return ((blk * moe_block_m) << 2u) + (lane << 2u);
}

// body(blk, expert) for the blocks y, y + grid_y, ... below num_valid_ids[0] / 32 (wave-uniform).
template <class Body>
constexpr void moe_for_blocks(builder J, gpr<dtype::u32> y, arg<const unsigned*> sorted_expert_ids,
                              arg<const unsigned*> num_valid_ids, arg<unsigned> grid_y, Body body) {
  using dtype::u32;
  auto nblk = J.sgpr<u32>(), blk = J.sgpr<u32>(), expert = J.sgpr<u32>(), off = J.sgpr<u32>();
  // the first block's expert loads with the block count (y < the worst-case count: in bounds)
  blk = y + 0u;
  off = blk << 2u;
  J.s_load_dword(nblk, num_valid_ids, 0);
  J.s_load_dword(expert, sorted_expert_ids, off);
  J.s_waitcnt(lgkmcnt(0));
  nblk = nblk >> static_cast<uint32_t>(std::countr_zero(moe_block_m));
  // (next: unwritten when there is no next block; the loop ends then and its copy is unused)
  auto next = J.sgpr<u32>().allow_undefined(), nb = J.sgpr<u32>();
  J.While([&] { return blk < nblk; },
          [&] {
            // the next block's expert loads while this block computes (its wait: the body's
            // own lgkmcnt waits or the one below)
            nb = blk + grid_y;
            J.If(nb < nblk, [&] {
              off = nb << 2u;
              J.s_load_dword(next, sorted_expert_ids, off);
            });
            body(blk, expert);
            J.s_waitcnt(lgkmcnt(0));
            expert = next + 0u;
            blk = nb + 0u;
          });
}

}  // namespace detail

// ---- 1. sorting ---------------------------------------------------------------------------------
template <moe_sorting_config C>
constexpr void moe_sorting_kernel(builder J, arg<unsigned*> sorted_token_ids, arg<float*> sorted_weights,
                                  arg<unsigned*> sorted_expert_ids, arg<unsigned*> num_valid_ids,
                                  arg<const int*> topk_ids, arg<const float*> topk_weights, arg<unsigned> tokens,
                                  arg<unsigned> topk, arg<unsigned> experts, arg<unsigned*> debug_buf) {
  static_assert(detail::moe_sorting_config_error(C) == nullptr,
                std::string_view(detail::moe_sorting_config_error(C) ? detail::moe_sorting_config_error(C) : ""));
  using dtype::u32;
  constexpr uint32_t T = C.threads(), S = C.chunk(), EP = C.experts_padded(), PITCH = C.row_pitch();
  constexpr uint32_t LOG_BM = std::countr_zero(moe_block_m);
  auto cnt_lds = J.lds<uint32_t>(EP, 16);
  auto mat_lds = J.lds_bytes(C.matrix_bytes(), 16);
  const int32_t CNT = static_cast<int32_t>(cnt_lds.offset), MAT = static_cast<int32_t>(mat_lds.offset);

  auto tid = J.thread_id_x();
  auto n = J.sgpr<u32>(), nbytes = J.sgpr<u32>();
  n = tokens * topk;
  nbytes = n << 2u;
  auto IDS = make_buffer(J, topk_ids, nbytes);
  auto TW = make_buffer(J, topk_weights, nbytes);
  auto zero = J.vgpr<u32>();
  zero = 0u;
  auto ta = J.vgpr<u32>();  // this lane's dword in the counts: its expert's
  ta = tid << 2u;

  // counts per expert (LDS atomics), CU ids a lane per trip (their loads in flight together: a
  // trip waits for memory once). Each id adds as_u32(in range and routed): an id past n (read
  // as 0 past the V#) or of no expert (>= experts: dropped) adds 0, at its clamped address.
  J.If(tid < EP, [&] { J.ds_write_b32(ta, zero, {.offset = CNT}); });
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  {
    constexpr int CU = 8;
    auto i = J.vgpr<u32>(), io = J.vgpr<u32>();
    auto e = J.vgpr<u32>(CU);
    i = tid;
    J.While([&] { return i < n; },
            [&] {
              io = i << 2u;
              for (int u = 0; u < CU; ++u) IDS.load(e[u], at(io) + static_cast<int32_t>(4 * T * u));
              J.s_waitcnt(vmcnt(0));
              for (int u = 0; u < CU; ++u) {
                auto add = u == 0 ? as_u32(e[u] < experts) : as_u32(e[u] < experts && i + T * u < n);
                J.ds_add_u32(min(e[u], EP - 1u) << 2u, add, {.offset = CNT});
              }
              i = i + CU * T;
            });
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();

  // the expert's padded count and its start: an exclusive workgroup scan of the padded counts
  // (helpers/scan.hpp; lanes at or past `experts` count 0), its total the padded entries
  auto start = J.vgpr<u32>(), pad = J.vgpr<u32>();
  auto total = J.sgpr<u32>();
  {
    auto p = J.vgpr<u32>();
    J.ds_read_b32(p, ta, {.offset = CNT});
    J.s_waitcnt(lgkmcnt(0));
    pad = select(tid < experts, gpr<u32>((p + (moe_block_m - 1)) & ~(moe_block_m - 1)), 0u);
    // (the scratch is the counts' first dwords: every wave has read its count at the barrier)
    auto sc = workgroup_scan(J, reduce::sum, pad, cnt_lds, static_cast<int>(C.waves),
                             {.exclusive = true, .all_lanes_active = true, .barrier_before = true});
    start = sc.value;
    total = sc.total;
    if constexpr (C.debug_log) {
      auto dbg = make_debug_log(J, debug_buf);
      J.If(tid < experts, [&] {
        dbg(moe_log_count, p);
        dbg(moe_log_start, start);
      });
      dbg(moe_log_total, total);
    }
  }
  // (experts past `experts` read counts that were zeroed: they add nothing; their own lanes
  // must not write anything)
  auto tb = J.sgpr<u32>();  // the entries' bytes: every access to sorted_token_ids is bounded by them
  tb = total << 2u;
  auto SID = make_buffer(J, sorted_token_ids, tb);
  auto SE = make_buffer(J, sorted_expert_ids, 0xffffffffu);
  auto NV = make_buffer(J, num_valid_ids, 8u);
  J.If(tid < experts, [&] {
    auto b = J.vgpr<u32>(), bend = J.vgpr<u32>(), bo = J.vgpr<u32>();
    b = start >> LOG_BM;
    bend = (start + pad) >> LOG_BM;
    J.While([&] { return b < bend; },
            [&] {
              bo = b << 2u;
              SE.store(tid, at(bo));
              b = b + 1u;
            });
  });
  J.If(tid == 0u, [&] {
    auto nv = J.vgpr<u32>(2).aligned(2);
    nv[0] = total + 0u;
    nv[1] = tokens + 0u;
    NV.store(nv, at(zero));
  });

  // every entry the padding value first, 16 bytes a lane (coalesced: the expert lanes' own
  // stores of it, one entry at a time to 64 places, took 9 of 17 us at 32 tokens); the walk
  // below writes the routed entries over it once these stores completed (the barrier)
  {
    auto pv = J.vgpr<u32>(4).aligned(4);
    pv[0] = tokens | (topk << 24u);
    for (int q = 1; q < 4; ++q) pv[q] = pv[0] + 0u;
    auto p = J.vgpr<u32>();
    p = tid << 4u;
    J.While([&] { return p < tb; },
            [&] {
              SID.store(pv, at(p));  // (the last one's dwords past the entries: dropped)
              p = p + 16u * T;
            });
    J.s_waitcnt(vmcnt(0));
    J.s_barrier();
  }

  // the entries in token order: per chunk of S tokens, the LDS matrix [expert][token] of
  // slot + 1 bytes (0: not routed, rows PITCH apart), each expert's lane walking its row
  auto pos = J.vgpr<u32>(), ma = J.vgpr<u32>();  // pos: the byte offset of the lane's next entry
  pos = start << 2u;
  ma = tid << 4u;
  auto z4 = J.vgpr<u32>(4).aligned(4);
  for (int q = 0; q < 4; ++q) z4[q] = 0u;
  auto t0 = J.sgpr<u32>(), rows = J.sgpr<u32>(), m = J.sgpr<u32>();
  t0 = 0u;
  J.While([&] { return t0 < tokens; },
          [&] {
            for (uint32_t o = 0; o < C.matrix_bytes(); o += 16 * T)
              J.ds_write_b128(ma, z4, {.offset = MAT + static_cast<int32_t>(o)});
            J.s_waitcnt(lgkmcnt(0));
            J.s_barrier();
            rows = min(gpr<u32>(tokens - t0), S);
            m = rows * topk;
            {
              auto i = J.vgpr<u32>(), io = J.vgpr<u32>(), e = J.vgpr<u32>(), r = J.vgpr<u32>(), sl = J.vgpr<u32>();
              auto base = J.sgpr<u32>();
              base = (t0 * topk) << 2u;
              i = tid;
              J.While([&] { return i < m; },
                      [&] {
                        io = i << 2u;
                        IDS.load(e, at(io) + at(base));
                        r = i / topk;
                        sl = i - r * topk + 1u;
                        J.s_waitcnt(vmcnt(0));
                        J.If(e < experts, [&] {
                          io = e * PITCH + r;
                          J.ds_write_b8(io, sl, {.offset = MAT});
                        });
                        i = i + T;
                      });
            }
            J.s_waitcnt(lgkmcnt(0));
            J.s_barrier();
            J.If(tid < experts, [&] {
              auto r = J.sgpr<u32>();
              auto ra = J.vgpr<u32>(), w = J.vgpr<u32>(), wc = J.vgpr<u32>(), x = J.vgpr<u32>(), v = J.vgpr<u32>(),
                   nz = J.vgpr<u32>(), b8 = J.vgpr<u32>();
              auto tr = J.sgpr<u32>();
              ra = tid * PITCH;
              r = 0u;
              // each trip reads the next dword before its four entries (its latency under their
              // stores; the last trip's read, past the rows, stays in the row's zeros and pad)
              J.ds_read_b32(w, ra, {.offset = MAT});
              J.While([&] { return r < rows; },
                      [&] {
                        J.s_waitcnt(lgkmcnt(0));
                        wc = w + 0u;
                        ra = ra + 4u;
                        J.ds_read_b32(w, ra, {.offset = MAT});
                        // the dword's nonzero bytes q as bits 8q, visited lowest first (token
                        // order) by a per-lane loop: as many trips as the lane with the most of
                        // them, where a test a byte cost four uniform branches a dword
                        nz = ((((wc & 0x7f7f7f7fu) + 0x7f7f7f7fu) | wc) & 0x80808080u) >> 7u;
                        tr = t0 + r;
                        J.While([&] { return nz != 0u; },
                                [&] {
                                  J.v_ffbl_b32(b8, nz);  // 8q
                                  J.v_bfe_u32(x, wc, b8, 8);
                                  v = ((x - 1u) << 24u) | ((b8 >> 3u) + tr);
                                  SID.store(v, at(pos));
                                  pos = pos + 4u;
                                  nz = nz & (nz - 1u);
                                });
                        r = r + 4u;
                      });
            });
            J.s_barrier();  // the rows are read before the next chunk zeroes them
            t0 = t0 + S;
          });

  // the weights: a gather over the sorted entries (the ids written above are visible to the
  // workgroup after the stores complete and a barrier)
  J.s_waitcnt(vmcnt(0));
  J.s_barrier();
  {
    // eight entries a lane per trip (their loads in flight together); the V#s end at the
    // entries, so a trip's overhang reads 0 and stores nothing
    constexpr int GU = 8;
    auto SWg = make_buffer(J, sorted_weights, tb);
    auto p = J.vgpr<u32>(), tok = J.vgpr<u32>();
    auto po = J.vgpr<u32>(GU), id = J.vgpr<u32>(GU), wo = J.vgpr<u32>(GU), w = J.vgpr<u32>(GU);
    p = tid << 2u;
    J.While([&] { return p < tb; },
            [&] {
              for (int u = 0; u < GU; ++u) {
                po[u] = p + static_cast<uint32_t>(4 * T * u);
                SID.load(id[u], at(po[u]), {.sc0 = true, .sc1 = true});
              }
              J.s_waitcnt(vmcnt(0));
              for (int u = 0; u < GU; ++u) {
                tok = id[u] & 0xffffffu;
                wo[u] = select(tok < tokens, gpr<u32>((tok * topk + (id[u] >> 24u)) << 2u), 0x80000000u);
                TW.load(w[u], at(wo[u]));  // padding: past the V#, 0
              }
              J.s_waitcnt(vmcnt(0));
              for (int u = 0; u < GU; ++u) SWg.store(w[u], at(po[u]));
              p = p + static_cast<uint32_t>(4 * T * GU);
            });
  }
}

// ---- stage kernels' synchronisation (the fused kernel) ------------------------------------------
namespace detail {
// The fused kernel's counters (u32 at `counters`, zero between launches): [0] stage-1
// workgroups done zeroing out, [1] stage-2 workgroups done, [2 + b] stage-1 workgroups done
// with block b. A stage-2 workgroup waits for [0] and for each of its blocks' [2 + b]; the
// last one to finish (from [1]) sets them back to 0 for the next launch (every waiter has
// passed by then: it counted itself in [1] after its waits).
struct moe_sync {
  arg<unsigned*> counters;
  gpr<dtype::u32> producers;      // stage-1 workgroups a block waits for (stage 1's grid x)
  gpr<dtype::u32> zeroers;        // stage-1 workgroups that zero out (moe_zero_groups)
  gpr<dtype::u32> stage2_groups;
};
inline constexpr uint32_t moe_sync_zeroed = 0, moe_sync_done = 4, moe_sync_blocks = 8;  // byte offsets

// counters[byte_offset / 4] += 1 once every wave's stores are complete, as a release at agent
// scope (LLVM's gfx942 memory model: buffer_wbl2 sc1 writes this XCD's L2 back, then
// s_waitcnt vmcnt(0), then the atomic): each wave waits for its stores, a barrier, thread 0.
constexpr void moe_signal(builder J, const moe_sync& s, gpr<dtype::u32> tid, const val<dtype::u32>& byte_offset) {
  using dtype::u32;
  // (lambdas capture locals, not reference parameters: the constant interpreter)
  const arg<unsigned*> counters = s.counters;
  auto off = J.vgpr<u32>(), one = J.vgpr<u32>();
  off = byte_offset;
  one = 1u;
  J.s_waitcnt(vmcnt(0));
  J.s_barrier();
  J.If(tid == 0u, [&] {
    J.buffer_wbl2({.sc1 = true});
    J.s_waitcnt(vmcnt(0));
    J.global_atomic_add(off, one, counters);
  });
}

// Wait until out is zeroed (counter [0] >= zeroers) and, with block_offset, a
// block's h is stored (its counter >= producers), as an acquire at agent scope: sc1 loads
// (past the L1, and this XCD's L2 for lines other XCDs wrote), s_sleep between polls, then
// buffer_inv sc1 so that the loads after it see the other XCDs' data. Every wave polls; the
// two polls, and loads issued before, share a round trip (one s_waitcnt vmcnt(0)).
constexpr void moe_wait(builder J, const moe_sync& s, const val<dtype::u32>* block_offset) {
  using dtype::u32;
  const arg<unsigned*> counters = s.counters;
  const gpr<u32> producers = s.producers, zeroers = s.zeroers;
  const bool block = block_offset != nullptr;
  auto off = J.vgpr<u32>(), zoff = J.vgpr<u32>(), vb = J.vgpr<u32>(), vz = J.vgpr<u32>();
  auto missing = J.sgpr<u32>(), got = J.sgpr<u32>();
  if (block) off = *block_offset;
  zoff = moe_sync_zeroed;
  auto poll = [&] {
    if (block) J.global_load_dword(vb, off, counters, {.sc1 = true});
    J.global_load_dword(vz, zoff, counters, {.sc1 = true});
    J.s_waitcnt(vmcnt(0));
    got = readfirstlane(vz);
    missing = zeroers - min(got, zeroers);  // (0 once met)
    if (block) {
      got = readfirstlane(vb);
      missing = missing + (producers - min(got, producers));
    }
  };
  poll();
  J.While([&] { return missing != 0u; },
          [&] {
            J.s_sleep(1);
            poll();
          });
  J.buffer_inv({.sc1 = true});
}

// Stage-1 workgroups that zero out (the first of `groups`): a 16-byte store a thread, so that
// few wait for their stores before they count themselves (the fused kernel), all at most
// (threads: the stage's workgroup size; every MoE's stage 1).
constexpr gpr<dtype::u32> moe_zero_groups(builder J, arg<unsigned> tokens, arg<unsigned> dim, gpr<dtype::u32> groups,
                                          uint32_t threads) {
  auto z = J.sgpr<dtype::u32>();
  z = min(groups, gpr<dtype::u32>((((tokens * dim) << 2u) + (16u * threads - 1u)) / (16u * threads)));
  return z;
}

// out = 0 for stage 2's atomics (every MoE's stage 1): workgroup g of the first zg zeroes the
// 16-byte pieces g*T + tid + k*zg*T of out's zb bytes, then (the fused kernels) counts itself
// done, after its stores.
constexpr void moe_zero_out(builder J, buffer O, gpr<dtype::u32> zb, gpr<dtype::u32> g, gpr<dtype::u32> zg,
                            uint32_t T, gpr<dtype::u32> tid, const moe_sync* sync) {  // (O by value: a lambda reads it)
  using dtype::u32;
  auto gstep = J.sgpr<u32>();
  gstep = zg * (16u * T);
  J.If(g < zg, [&] {
    auto zo = J.vgpr<u32>();
    auto z4 = J.vgpr<u32>(4).aligned(4);
    for (int q = 0; q < 4; ++q) z4[q] = 0u;
    zo = (g * T + tid) << 4u;
    J.While([&] { return zo < zb; },
            [&] {
              O.store(z4, at(zo));
              zo = zo + gstep;
            });
    if (sync) moe_signal(J, *sync, tid, val<u32>(moe_sync_zeroed));
  });
}

// A fused kernel's stage-2 workgroup counts itself done (after every wave's waits;
// helpers/arrival.hpp); the last one sets the counters of the blocks (below num_valid_ids[0] /
// 32) and [0] back to 0 ([1]: the helper), for the next launch.
constexpr void moe_stage2_done(builder J, const moe_sync& s, gpr<dtype::u32> wave, gpr<dtype::u32> tid,
                               arg<const unsigned*> num_valid_ids) {
  using dtype::u32;
  const moe_sync* sync = &s;
    J.s_barrier();
    J.If(wave == 0u, [&] {
      auto done = J.vgpr<u32>(), bytes = J.sgpr<u32>();
      done = moe_sync_done;
      if_last_arrival(J, sync->counters, done, sync->stage2_groups, [&] {
        moe_wait(J, *sync, nullptr);  // (a workgroup without blocks did not wait: the zeroing's counts are all in)
        J.s_load_dword(bytes, num_valid_ids, 0);
        J.s_waitcnt(lgkmcnt(0));
        bytes = ((bytes >> static_cast<uint32_t>(std::countr_zero(moe_block_m))) << 2u) + moe_sync_blocks;
        auto zero = J.vgpr<u32>(), i = J.vgpr<u32>();
        zero = 0u;
        i = tid << 2u;
        J.While([&] { return i < bytes; },
                [&] {
                  J.global_store_dword(i, zero, sync->counters);
                  i = i + 256u;
                });
      });
    });
}

// ---- 2. stage 1: h = act(x . gate) (* x . up) ---------------------------------------------------
// Workgroup (wg_x, wg_y) of a grid (grid x, grid_blocks); sync: the fused kernel's counters.
template <moe_gemm_config C>
constexpr void moe_stage1(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, uint32_t red_offset,
                          const moe_sync* sync, gpr<dtype::u64> h_out, arg<float*> out, arg<const uint16_t*> x,
                          arg<const uint16_t*> w1, arg<const unsigned*> sorted_token_ids,
                          arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                          arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid_blocks,
                          arg<unsigned> max_blocks) {
  using dtype::u32;
  using dtype::f32;
  constexpr uint32_t T = C.threads();
  const auto wv = detail::moe_wave_setup<C>(J, wg_x, dim, sorted_token_ids);
  const gpr<u32> tid = wv.tid, lane = wv.lane, half = wv.half;

  // out = 0 for stage 2's atomics: workgroup g of the first Z zeroes 16-byte pieces g*T + tid +
  // k*Z*T (the fused kernel: then counts itself done, after its stores)
  {
    auto zb = J.sgpr<u32>(), g = J.sgpr<u32>(), gx = J.sgpr<u32>();
    zb = (tokens * dim) << 2u;
    auto O = make_buffer(J, out, zb);
    gx = (inter + (C.cols() - 1u)) / C.cols();
    g = wg_y * gx + wg_x;
    moe_zero_out(J, O, zb, g, moe_zero_groups(J, tokens, dim, gpr<u32>(gx * grid_blocks), T), T, tid, sync);
  }
  const gpr<u32> n0 = wv.col0;  // the wave's first column of inter
  auto row_bytes = J.sgpr<u32>(), xb = J.sgpr<u32>();
  row_bytes = dim << 1u;
  xb = tokens * row_bytes;
  auto X = make_buffer(J, x, xb);
  auto hb = J.sgpr<u32>(), hrow = J.sgpr<u32>();
  hrow = inter << 1u;
  hb = max_blocks * moe_block_m * hrow;
  auto H = make_buffer(J, h_out, hb);

  constexpr uint32_t NW = C.gated ? 2 : 1;
  // k_split: the parts 1.. leave their sums at [part - 1][col][w][register][lane] for part 0
  // (lds_weights: in the LDS of the weight tiles, once every wave's K loop is done)

  detail::moe_for_blocks(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk, gpr<u32> expert) {
  // this lane's token row (column of the MFMA): x past its V# for padding
  auto so = detail::moe_row_offset(blk, lane), tok = J.vgpr<u32>();
  wv.sid.load(tok, at(so));
  J.s_waitcnt(vmcnt(0));
  auto xoff = J.vgpr<u32>();
  xoff = (tok & 0xffffffu) * row_bytes + (half << 4u);

  // the expert's W1: gate rows then up rows
  auto eb = J.sgpr<u32>();
  eb = inter * row_bytes * NW;
  auto wbase = J.sgpr<dtype::u64>();
  wbase = w1 + mul_wide(expert, eb);
  auto W = make_buffer(J, wbase, eb);
  std::array<gpr<u32>, 2> wrow{};  // the wave's first gate and up rows
  wrow[0].rebind(J.sgpr<u32>());
  wrow[0] = n0 * row_bytes;
  if constexpr (C.gated) {
    wrow[1].rebind(J.sgpr<u32>());
    wrow[1] = wrow[0] + inter * row_bytes;  // (gate rows past inter read up rows: unused columns)
  }
  std::array<gpr<f32>, 2> acc{};
  for (uint32_t w = 0; w < NW; ++w) {
    acc[w].rebind(J.vgpr<f32>(16).aligned(4));
    acc[w].fill(0.0f);
  }
  detail::moe_k_loop<C, NW>(J, wv, X, xoff, W, wrow, row_bytes, acc, red_offset);
  auto lane64 = J.vgpr<u32>();
  lane64 = tid & 63u;
  if constexpr (C.k_split > 1) {
    if constexpr (C.lds_weights) J.s_barrier();  // every wave is done with its weight tiles
    detail::moe_k_split_leave<C.waves, NW>(J, wv.part, wv.col, lane64, red_offset, acc);
  }
  // part 0: the other parts' sums, then h
  auto finish = [&] {
  if constexpr (C.k_split > 1) detail::moe_k_split_add<C.k_split, C.waves, NW>(J, wv.col, lane64, red_offset, acc);

  // lane: token column `lane`, rows n0 + 8q + 4 half + 0..3 (q = 0..3): 4 bf16 a dwordx2
  auto hoff = J.vgpr<u32>(), ho = J.vgpr<u32>(), nq = J.vgpr<u32>();
  hoff = (blk * moe_block_m + lane) * hrow;
  hoff = select((tok & 0xffffffu) < tokens, hoff, 0x80000000u);  // padding rows: no store (stage 2 skips them)
  auto hv = J.vgpr<f32>(4);
  auto pk = J.vgpr<dtype::bf16x2>(2).aligned(2);
  for (uint32_t q = 0; q < 4; ++q) {
    for (uint32_t j = 0; j < 4; ++j) {
      if constexpr (C.gated) hv[j] = detail::activate<C.act>(acc[0][4 * q + j]) * acc[1][4 * q + j];
      else hv[j] = detail::activate<C.act>(acc[0][4 * q + j]);
    }
    pk[0] = cvt_bf16x2(hv[0], hv[1]);
    pk[1] = cvt_bf16x2(hv[2], hv[3]);
    nq = (n0 + 8u * q) + (half << 2u);
    ho = select(nq < inter, gpr<u32>(hoff + (nq << 1u)), 0x80000000u);
    H.store(pk, at(ho));
  }
  };
  if constexpr (C.k_split > 1) {
    J.If(wv.part == 0u, finish);
    J.s_barrier();  // the partial sums are read before the next block writes them
  } else {
    finish();
  }
  if (sync) moe_signal(J, *sync, tid, val<u32>((blk << 2u) + moe_sync_blocks));
  });
}

// ---- 3. stage 2: out[token] += w * (h . W2^T) ------------------------------------------------------
// Workgroup (wg_x, wg_y) of a grid (grid x, grid_blocks); lds_offset: the weight tiles
// (lds_weights); sync: the fused kernel's counters.
template <moe_gemm_config C>
constexpr void moe_stage2(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, uint32_t lds_offset,
                          const moe_sync* sync, arg<float*> out, gpr<dtype::u64> h_in, arg<const uint16_t*> w2,
                          arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                          arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                          arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid_blocks,
                          arg<unsigned> max_blocks) {
  using dtype::u32;
  using dtype::f32;
  const auto wv = detail::moe_wave_setup<C>(J, wg_x, inter, sorted_token_ids);
  const gpr<u32> lane = wv.lane, half = wv.half;
  const gpr<u32> d0 = wv.col0;  // the wave's first column of dim

  auto SWb = make_buffer(J, sorted_weights, 0xffffffffu);
  auto hrow = J.sgpr<u32>(), hb = J.sgpr<u32>();
  hrow = inter << 1u;
  hb = max_blocks * moe_block_m * hrow;
  auto H = make_buffer(J, h_in, hb);
  auto ob = J.sgpr<u32>(), orow = J.sgpr<u32>();
  orow = dim << 2u;
  ob = tokens * orow;
  auto O = make_buffer(J, out, ob);
  auto eb = J.sgpr<u32>();
  eb = dim * hrow;

  detail::moe_for_blocks(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk, gpr<u32> expert) {
  // this lane's sorted row: its token and weight (written by the sorting: no wait)
  auto so = detail::moe_row_offset(blk, lane), tok = J.vgpr<u32>();
  auto wt = J.vgpr<f32>();
  wv.sid.load(tok, at(so));
  SWb.load(wt, at(so));
  if (sync) {  // out zeroed and the block's h stored (the polls in the round trip of the loads above)
    const val<u32> counter = (blk << 2u) + moe_sync_blocks;
    moe_wait(J, *sync, &counter);
  }
  auto hoff = J.vgpr<u32>();
  hoff = (blk * moe_block_m + lane) * hrow + (half << 4u);
  // padding rows load from past h's V# (no lines touched, zeros): with few tokens a block is
  // mostly padding
  J.s_waitcnt(vmcnt(0));
  hoff = select((tok & 0xffffffu) < tokens, hoff, hb);
  auto wbase = J.sgpr<dtype::u64>();
  wbase = w2 + mul_wide(expert, eb);
  auto W = make_buffer(J, wbase, eb);
  std::array<gpr<u32>, 2> wrow{};
  wrow[0].rebind(J.sgpr<u32>());
  wrow[0] = d0 * hrow;
  std::array<gpr<f32>, 2> acc{};
  acc[0].rebind(J.vgpr<f32>(16).aligned(4));
  acc[0].fill(0.0f);
  detail::moe_k_loop<C, 1>(J, wv, H, hoff, W, wrow, hrow, acc, lds_offset);

  // lane: token column `lane`, rows d0 + 8q + 4 half + 0..3 of dim
  auto obase = J.vgpr<u32>(), oo = J.vgpr<u32>(), dq = J.vgpr<u32>();
  obase = (tok & 0xffffffu) * orow;  // padding: token = tokens, past the V#
  // (in place: the atomics' data stays untouched until they complete, as the next block's
  // vmcnt(0) wait comes before its accumulators are zeroed; 16 VGPRs fewer: 4 waves a SIMD)
  const gpr<f32> v = acc[0];
  for (uint32_t r = 0; r < 16; ++r) v[r] = v[r] * wt;
  for (uint32_t q = 0; q < 4; ++q) {
    dq = (d0 + 8u * q) + (half << 2u);
    oo = select(dq < dim, gpr<u32>(obase + (dq << 2u)), 0x80000000u);
    for (uint32_t j = 0; j < 4; ++j) O.atomic_add_f32(v[4 * q + j], at(oo) + 4 * j);
  }
  });
  if (sync) {
    moe_stage2_done(J, *sync, wv.wave, wv.tid, num_valid_ids);
  }
}
}  // namespace detail

namespace detail {
template <moe_gemm_config C>
constexpr void moe_check_config() {
  static_assert(moe_gemm_config_error(C) == nullptr,
                std::string_view(moe_gemm_config_error(C) ? moe_gemm_config_error(C) : ""));
}
// LDS of stage 1 (weight tiles, k_split sums) and stage 2 (weight tiles); the region at an offset
template <moe_gemm_config C>
inline constexpr uint32_t moe_stage1_lds = C.lds_bytes(C.gated ? 2 : 1);
template <moe_gemm_config C>
inline constexpr uint32_t moe_stage2_lds = C.lds_weights ? C.staging_bytes(1) : 0;
constexpr uint32_t moe_lds_offset(builder J, uint32_t bytes) { return bytes ? J.lds_bytes(bytes, 16).offset : 0; }
}  // namespace detail

template <moe_gemm_config C>
constexpr void moe_stage1_kernel(builder J, arg<uint16_t*> h_out, arg<float*> out, arg<const uint16_t*> x,
                                 arg<const uint16_t*> w1, arg<const unsigned*> sorted_token_ids,
                                 arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                 arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid_blocks,
                                 arg<unsigned> max_blocks) {
  detail::moe_check_config<C>();
  const uint32_t lds_offset = detail::moe_lds_offset(J, detail::moe_stage1_lds<C>);
  detail::moe_stage1<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), lds_offset, nullptr, h_out, out, x, w1,
                        sorted_token_ids, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);
}

template <moe_gemm_config C>
constexpr void moe_stage2_kernel(builder J, arg<float*> out, arg<const uint16_t*> h_in, arg<const uint16_t*> w2,
                                 arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                                 arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                 arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid_blocks,
                                 arg<unsigned> max_blocks) {
  detail::moe_check_config<C>();
  const uint32_t lds_offset = detail::moe_lds_offset(J, detail::moe_stage2_lds<C>);
  detail::moe_stage2<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), lds_offset, nullptr, out, h_in, w2, sorted_token_ids,
                        sorted_weights, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);
}

// ---- 4. both stages in one dispatch ------------------------------------------------------------
// A 1-D grid: workgroups [0, n1) are stage 1's grid (x fastest: stage 1's grid x over inter,
// grid1_y rows), [n1, n1 + n2) stage 2's (grid x over dim, grid2_y rows). Before each of its
// blocks b a stage-2 workgroup waits (detail::moe_wait) for out's zeroing by all n1 stage-1
// workgroups and for the stage-1 workgroups of b (b % grid1_y's row) to have stored b's h; it
// never waits for a higher workgroup id. Deadlock-free when the hardware dispatches a grid's
// workgroups in increasing id order (each XCD its own in order: a stage-2 workgroup becomes
// resident only after every stage-1 workgroup of its XCD, and stage-1 workgroups wait for
// nothing), as the CP/SPI do for a dispatch and as hipasm-sim (workgroups taken in order by
// its worker threads) and its timing model (in-order per-XCD queues) do. Not for sampled
// profiles (the waited-for workgroups would not run).
template <moe_gemm_config C1, moe_gemm_config C2>
constexpr void moe_fused_kernel(builder J, arg<float*> out, arg<uint16_t*> h, arg<const uint16_t*> x,
                                arg<const uint16_t*> w1, arg<const uint16_t*> w2, arg<const unsigned*> sorted_token_ids,
                                arg<const float*> sorted_weights, arg<const unsigned*> sorted_expert_ids,
                                arg<const unsigned*> num_valid_ids, arg<unsigned*> counters, arg<unsigned> tokens,
                                arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid1_y, arg<unsigned> grid2_y,
                                arg<unsigned> max_blocks) {
  detail::moe_check_config<C1>();
  detail::moe_check_config<C2>();
  static_assert(C1.threads() == C2.threads(),
                "moe fused: stage 1 and stage 2 share the workgroup size: waves * k_split must be equal");
  using dtype::u32;
  constexpr uint32_t lds1 = detail::moe_stage1_lds<C1>, lds2 = detail::moe_stage2_lds<C2>;
  const uint32_t lds_offset = detail::moe_lds_offset(J, lds1 > lds2 ? lds1 : lds2);  // (the stages share it)
  auto wg = J.workgroup_id_x();
  auto gx1 = J.sgpr<u32>(), gx2 = J.sgpr<u32>(), n1 = J.sgpr<u32>(), n2 = J.sgpr<u32>();
  gx1 = (inter + (C1.cols() - 1u)) / C1.cols();
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
        detail::moe_stage1<C1>(J, xw, y, lds_offset, &sync, h, out, x, w1, sorted_token_ids, sorted_expert_ids,
                               num_valid_ids, tokens, dim, inter, grid1_y, max_blocks);
      },
      [&] {
        w = wg - n1;
        y = w / gx2;
        xw = w - y * gx2;
        detail::moe_stage2<C2>(J, xw, y, lds_offset, &sync, out, h, w2, sorted_token_ids, sorted_weights,
                               sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid2_y, max_blocks);
      });
}

}  // namespace hipasm::kernels

#define HIPASM_MOE_SORTING_KERNEL(NAME, CFG)                                                                   \
  extern "C" __attribute__((global)) void NAME(unsigned* sorted_token_ids, float* sorted_weights,              \
                                               unsigned* sorted_expert_ids, unsigned* num_valid_ids,           \
                                               const int* topk_ids, const float* topk_weights, unsigned tokens, \
                                               unsigned topk, unsigned experts, unsigned* debug_buf) {         \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_sorting_kernel<CFG>), sorted_token_ids, sorted_weights,           \
                       sorted_expert_ids, num_valid_ids, topk_ids, topk_weights, tokens, topk, experts,        \
                       debug_buf);                                                                             \
  }
#define HIPASM_MOE_STAGE1_KERNEL(NAME, CFG)                                                                     \
  extern "C" __attribute__((global)) void NAME(uint16_t* h, float* out, const uint16_t* x, const uint16_t* w1,  \
                                               const unsigned* sorted_token_ids, const unsigned* sorted_expert_ids, \
                                               const unsigned* num_valid_ids, unsigned tokens, unsigned dim,    \
                                               unsigned inter, unsigned grid_blocks, unsigned max_blocks) {     \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_stage1_kernel<CFG>), h, out, x, w1, sorted_token_ids,              \
                       sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);          \
  }
#define HIPASM_MOE_STAGE2_KERNEL(NAME, CFG)                                                                     \
  extern "C" __attribute__((global)) void NAME(float* out, const uint16_t* h, const uint16_t* w2,               \
                                               const unsigned* sorted_token_ids, const float* sorted_weights,   \
                                               const unsigned* sorted_expert_ids, const unsigned* num_valid_ids, \
                                               unsigned tokens, unsigned dim, unsigned inter, unsigned grid_blocks, \
                                               unsigned max_blocks) {                                           \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_stage2_kernel<CFG>), out, h, w2, sorted_token_ids, sorted_weights, \
                       sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);          \
  }
// Both GEMM stages in one dispatch: stage 1 with STAGE1_CFG, stage 2 with STAGE2_CFG (the same
// waves * k_split); grid: launch_moe_fused (moe_launch.hpp).
#define HIPASM_MOE_FUSED_KERNEL(NAME, STAGE1_CFG, STAGE2_CFG)                                                  \
  extern "C" __attribute__((global)) void NAME(                                                                \
      float* out, uint16_t* h, const uint16_t* x, const uint16_t* w1, const uint16_t* w2,                      \
      const unsigned* sorted_token_ids, const float* sorted_weights, const unsigned* sorted_expert_ids,        \
      const unsigned* num_valid_ids, unsigned* counters, unsigned tokens, unsigned dim, unsigned inter,        \
      unsigned grid1_y, unsigned grid2_y, unsigned max_blocks) {                                               \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fused_kernel<STAGE1_CFG, STAGE2_CFG>), out, h, x, w1, w2,         \
                       sorted_token_ids, sorted_weights, sorted_expert_ids, num_valid_ids, counters, tokens,   \
                       dim, inter, grid1_y, grid2_y, max_blocks);                                              \
  }
