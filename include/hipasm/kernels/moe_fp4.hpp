// MXFP4 (a4w4) fused MoE on gfx950: the bf16 MoE's flow (moe.hpp) with fp4 e2m1 activations and
// weights, each block of 32 consecutive k of a row with one E8M0 scale (OCP MX v1.0), as aiter's
// a4w4 fused_moe (QuantType.per_1x32; AMD's 2026 MI355X MoE challenge, gpu-mode reference-kernels
// problems/amd_202602/moe-mxfp4):
//
//   xq, xs  = mxfp4_quant(x)                       x [tokens][dim] bf16 (mxfp4_quant.hpp, aiter's rule)
//   for each token t and slot k (expert e = topk_ids[t][k], weight w = topk_weights[t][k]):
//     g, u  = xq[t] . W1[e][n], xq[t] . W1[e][inter + n]     (n < inter, f32 sums of the MX products)
//     h     = mxfp4(act(g) * u)                   per 32 consecutive n of the token (aiter_even rule)
//     out[t][d] += w * (h . W2[e][d])             (d < dim)
//   W1 [experts][2 * inter][dim / 2] fp4 bytes (gate rows, then up rows), its scales
//   [experts][2 * inter][dim / 32]; W2 [experts][dim][inter / 2], scales [experts][dim][inter / 32]
//   (the raw layout of the challenge's gate_up_weight / down_weight); out [tokens][dim] f32.
//   Elements 2i and 2i + 1 of a row share byte i (2i in the low nibble), as mxfp4_quant writes them.
//
// 1. mxfp4_quant (mxfp4_quant.hpp) and moe_sorting (moe.hpp, aiter's layout; experts = 257 needs
//    a sorting configuration of max_experts >= 257, e.g. 5 waves).
// 2. moe_fp4_stage1: grid (inter / (32 waves), y): a workgroup takes a block of 32 sorted rows
//    (one expert), each wave 32 columns n of inter (the gate rows n and the up rows inter + n as
//    two A operands of v_mfma_scale_f32_32x32x64_f8f6f4, the block's 32 token rows of xq as B),
//    with gemm_fp4.hpp's operand layout: a step of 256 k, lane l loads 64 bytes of row l % 32 (k
//    group l / 32: four dwordx4) and its 4 scale bytes (a dword), MFMA s takes dwordx4 s and scale
//    byte s (op_sel / op_sel_hi). A lane then holds h of its token (l % 32) at n = 8q + 4 (l / 32)
//    + j: the block of 32 n's amax is the maximum over the lane and lane l ^ 32 (a permlane swap),
//    its E8M0 code aiter's (mxfp4_quant.hpp, aiter_even), the elements converted in pairs
//    (v_cvt_scalef32_pk_fp4_f32: one byte), two bytes a store (u16) into hq, the scale into hs,
//    at the sorted row in gemm_fp4_preshuffle_b's layout (each block of 32 sorted rows a row block:
//    per 256-k step a 4 KiB run of the 64 lanes' fragments and a 256-byte run of their scale
//    dwords), so that stage 2 loads 1 KiB a dwordx4 (8 lines, not 32); padding rows store nothing.
//    Why MXFP4 and not bf16 for h: the scaled MFMAs take fp8/fp6/fp4 operands only, so a bf16 h
//    would need W2 converted to bf16 in registers (8 conversions a byte pair) or a bf16 MFMA at a
//    quarter of the rate, and h at 4.25 bits an element is the smallest round trip; aiter's a4w4
//    stage 2 takes h quantized the same way.
//    k_split waves share a column block, each a range of K steps; parts 1.. add their sums through
//    LDS into part 0 (SiLU needs the whole sum). Stage 1 also zeroes out (as moe.hpp's).
// 3. moe_fp4_stage2: grid (dim / (32 waves col_tiles), y): each wave col_tiles x 32 rows d of W2
//    (the MFMA's B operand) against the block's 32 rows of h (A, its runs), K = inter, so that a
//    lane holds one column d of 16 rows (their tokens and weights by ds_bpermute); out[token][d]
//    += w * acc as f32 buffer atomics, an instruction's lanes on 2 lines of out (padding rows'
//    token is past out's V#: dropped; k_split parts each add their own sums). With rows_out the
//    sums go to y[slot][token] (stores, no atomics) and moe_fp4_reduce_kernel adds each token's
//    rows into out after.
// A workgroup loops over the blocks y, y + grid_y, ... below num_valid_ids[0] / 32 (moe.hpp's
// moe_for_blocks). Tokens come straight from global memory (padding rows are past xq's V#: zeros,
// no lines), or with x_gathered from moe_fp4_gather_kernel's copy of x's sorted rows in
// gemm_fp4_preshuffle_b's layout (written once after the sorting; a dwordx4 then touches 8 lines
// in place of 32, as stage 2's loads of h). With blocks B > 1 a workgroup takes groups of B
// consecutive blocks (y, y + grid_y, ...), each group as runs of one expert's blocks (the sorting
// pads each expert to whole blocks, so an expert's blocks are adjacent): a wave keeps B blocks'
// sums, and each weight fragment it loads feeds B blocks' MFMAs (a block past the run: loads past
// the V#, nothing stored). dim and inter must be multiples of 256 (whole K steps of both GEMMs, whole column
// blocks of the workgroups; the challenge pads them so); the launcher checks.
// w_shuffled: W1, W2 and their scales come per expert in gemm_fp4_preshuffle_b's layout (the rows
// of each expert a B matrix: moe_fp4_preshuffle, moe_fp4_launch.hpp): a weight load then touches
// 8 lines (one 1 KiB run) in place of 32 (32 rows x 16 bytes), a scale load 2 in place of 32.
// A block's first weight step goes out before its waits (the token ids; in the fused kernel
// stage 2's wait for stage 1), so a stage-2 workgroup streams its weights while stage 1 runs.
// 4. moe_fp4_prologue_kernel: the sorting (workgroup 0) and x's quantization (the others) in one
//    dispatch. 5. moe_fp4_fused_kernel: both stages in one dispatch, stage-2 workgroups waiting
//    for each block's stage-1 workgroups on moe.hpp's counters (as moe_fused_kernel; blocks 1).
// 6. moe_fp4_gather_kernel: x's sorted rows for an x_gathered stage 1 (after the prologue); with
//    x_lds stage 1's waves load a step's token fragments once a workgroup (a dwordx4 and a scale
//    dword each), write them to LDS and read every block's back after a barrier.
// 7. moe_fp4_reduce_kernel: out = the sum over top-k of stage 2's rows (rows_out).
// Speed (bench/kernels/bench_moe_fp4.cpp, MI355X model): the weights are the traffic where the
// blocks are mostly padding (decode); with full blocks the address path (4 cycles a line) and the
// loads' latency bound both stages (a wave's lines a step over its MFMAs: hence x_gathered,
// x_lds, blocks, col_tiles), and stage 2's f32 atomics (a lane an operation at the L2) are a
// floor of their own (rows_out). Not done: the sorting over several workgroups.
//
// Device side:  HIPASM_MOE_FP4_STAGE1_KERNEL(name, cfg), HIPASM_MOE_FP4_STAGE2_KERNEL(name, cfg),
//               HIPASM_MOE_FP4_PROLOGUE_KERNEL(name, sort_cfg, quant_cfg),
//               HIPASM_MOE_FP4_GATHER_KERNEL(name, waves, parts), HIPASM_MOE_FP4_REDUCE_KERNEL(name, waves),
//               HIPASM_MOE_FP4_FUSED_KERNEL(name, stage1_cfg, stage2_cfg)
//               (built for gfx950; another target is a compile error on the macro's line)
// Host side:    kernels/moe_fp4_launch.hpp.
#pragma once
#include <bit>
#include <cstdint>
#include <string_view>

#include "../helpers/arrival.hpp"
#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "gemm_fp4.hpp"
#include "moe.hpp"
#include "mxfp4_quant.hpp"

namespace hipasm::kernels {

struct moe_fp4_config {
  uint32_t waves = 2;      // 32 output columns a wave (stage 1: of inter; stage 2: of dim)
  uint32_t k_split = 1;    // waves sharing a column block, each a range of the K steps
  uint32_t stages = 2;     // register sets of a step's fragments (loads run stages - 1 steps ahead)
  bool w_shuffled = false; // weights and scales per expert in gemm_fp4_preshuffle_b's layout
  uint32_t blocks = 1;     // consecutive 32-row blocks of one expert a workgroup takes together:
                           // each weight fragment loaded feeds that many blocks' MFMAs
  bool x_gathered = false; // stage 1 reads x as moe_fp4_gather_kernel leaves it (the sorted rows
                           // in gemm_fp4_preshuffle_b's layout: 8 lines a dwordx4, not 32)
  uint32_t max_workgroups = 4096;  // the grid's size at most (y: min(max blocks, this / grid x))
  uint32_t col_tiles = 1;  // stage 2: 32-column tiles of dim a wave (each token fragment loaded
                           // feeds that many tiles' MFMAs); stage 1: 1
  bool x_lds = false;      // stage 1 (x_gathered, k_split 1, waves >= 4 blocks): each step's token
                           // fragments loaded once a workgroup (a dwordx4 and a scale dword a
                           // wave) and shared through LDS, not loaded by every column wave
  bool rows_out = false;   // stage 2: each (token, slot) row's weighted sums stored (no atomics)
                           // into y [topk][tokens][dim] f32 at row slot * tokens + token;
                           // moe_fp4_reduce_kernel then sums a token's rows into out
  activation act = activation::silu;  // stage 1: h = mxfp4(act(gate) * up); silu, gelu (erf) or gelu_tanh

  constexpr uint32_t threads() const { return 64 * waves * k_split; }
  constexpr uint32_t cols() const { return 32 * waves * col_tiles; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + cols() - 1) / cols(); }
  constexpr uint32_t grid_y(uint32_t n, uint32_t max_blocks) const {
    const uint32_t y = max_workgroups / grid_x(n);
    return y < 1 ? 1 : y > max_blocks ? max_blocks : y;
  }
  // the grid's rows for max_blocks blocks: groups of `blocks`
  constexpr uint32_t groups(uint32_t max_blocks) const { return (max_blocks + blocks - 1) / blocks; }
  // stage 1's LDS: the k_split parts 1.. leave their gate and up sums (each block's) for part 0
  constexpr uint32_t lds_bytes() const { return (k_split - 1) * waves * 2 * blocks * 16 * 64 * 4; }
  // x_lds: a block's step in LDS (4 KiB of fragments, 256 bytes of scales), `stages` sets
  static constexpr uint32_t x_lds_block = 4096 + 256;
  constexpr uint32_t x_lds_bytes() const { return x_lds ? stages * blocks * x_lds_block : 0; }
  // a step's loads a lane (stage 1: two weight fragments and each block's tokens, each 4 dwordx4
  // and a scale)
  constexpr uint32_t loads(int nw) const { return 5 * (nw + blocks); }
};

namespace detail {
constexpr const char* moe_fp4_config_error(const moe_fp4_config& c) {
  if (c.waves < 1 || c.waves > 8) return "moe_fp4: 1 to 8 waves (32 columns each: a workgroup's columns divide 256)";
  if ((c.waves & (c.waves - 1)) != 0) return "moe_fp4: waves must be a power of two (the column blocks divide dim and inter, multiples of 256)";
  if (c.k_split < 1 || c.waves * c.k_split > 16) return "moe_fp4: k_split from 1, waves * k_split <= 16";
  if (c.stages < 2 || c.stages > 3) return "moe_fp4: 2 or 3 stages (register sets of a step's fragments)";
  if (c.blocks < 1 || c.blocks > 4) return "moe_fp4: blocks from 1 to 4 (each block's accumulators and token fragments in VGPRs)";
  if (c.col_tiles < 1 || c.col_tiles > 2 || c.col_tiles * c.blocks > 4)
    return "moe_fp4: col_tiles 1 or 2, col_tiles * blocks <= 4 (the accumulators in VGPRs)";
  if (c.rows_out && c.k_split > 1) return "moe_fp4: rows_out stores each row's sums once: k_split 1";
  if (c.x_lds && (!c.x_gathered || c.k_split > 1 || c.waves < 4 * c.blocks))
    return "moe_fp4: x_lds takes x gathered, k_split 1 and waves >= 4 * blocks (a wave loads a fragment of a block)";
  if (c.loads(2) * c.stages > 63) return "moe_fp4: the loads of `stages` steps exceed vmcnt's 63";
  if (c.lds_bytes() > 163840) return "moe_fp4: the k_split partial sums exceed 160 KiB of LDS";
  return nullptr;
}
template <moe_fp4_config C>
constexpr void moe_fp4_check_config() {
  static_assert(moe_fp4_config_error(C) == nullptr,
                std::string_view(moe_fp4_config_error(C) ? moe_fp4_config_error(C) : ""));
}

// One wave's GEMM over a block: acc[w] (32 x 32 f32) += A_w . B^T over the wave's K steps, A_w
// 32 weight rows (expert buffers W / WS, row offsets a_off / sa_off of the lane, step strides by
// layout), B the block's 32 rows (buffers X / XS at x_off / xs_off, raw layout). Steps [kb, ke);
// loads of steps at or past ke take an offset past every V# (zeros).
// With blocks NB > 1 the B side is NB blocks (x_off[j] / xs_off[j]; a block not taken: an offset
// past the V# from 0x40000000, 0x80000000 added for steps past ke staying below 2^32), acc[w * NB
// + j] block j's sums of A_w: each weight fragment loaded feeds NB MFMAs.
// TR: the B side (X) is the MFMA's A operand (acc transposed: a lane holds column l % 32 of A_w,
// the rows of the block at 8q + 4 (l / 32) + i).
// xl (C.x_lds): the wave loads one piece of each step's X (xl->off / soff, set by before_x: a
// dwordx4 of one block, its scale dword), writes it to LDS (xl->wa / swa where xl->writer, the
// scale where xl->scale_writer: waves past 4 blocks' pieces load nothing, past the V#) and, after
// a barrier, reads every block's fragments back (xl->ra / rsa).
struct moe_fp4_xlds {
  uint32_t base;  // the LDS allocation's offset
  gpr<dtype::u32> off, soff, wa, swa, ra, rsa, writer, scale_writer;
};
template <moe_fp4_config C, int NW, bool XSH, bool TR = false, class BeforeX>
constexpr void moe_fp4_k_loop(builder J, buffer W, buffer WS, std::array<gpr<dtype::u32>, 2> a_off,
                              std::array<gpr<dtype::u32>, 2> sa_off, buffer X, buffer XS,
                              std::array<gpr<dtype::u32>, 4> x_off, std::array<gpr<dtype::u32>, 4> xs_off,
                              gpr<dtype::u32> kb, gpr<dtype::u32> ke, std::array<gpr<dtype::f32>, 8> acc,
                              BeforeX before_x, const moe_fp4_xlds* xl = nullptr) {
  using dtype::u32;
  constexpr bool XL = C.x_lds && !TR;
  constexpr const mfma_atom& AT = mfma_atom_of(gemm_fp4_mfma);
  constexpr int fp4 = 4;  // the cbsz / blgp code of e2m1
  static_assert(AT.a_k(fp4).shift == 5 && AT.a_row().mask == 31 && AT.b_col().mask == 31 && AT.a_regs(fp4) == 4);
  constexpr int ST = static_cast<int>(C.stages);
  constexpr int NB = static_cast<int>(C.blocks);
  constexpr int LOADS = XL ? 5 * NW + 2 : static_cast<int>(C.loads(NW));
  constexpr int WS_ = C.w_shuffled ? 1024 : 16;  // bytes between a weight fragment's dwordx4 s and s + 1
  // a step's fragments (16 dwords a lane: 64 bytes of a row) and scale dwords, `stages` sets
  auto fa = J.vgpr<u32>(ST * NW, 16), fx = J.vgpr<u32>(ST * NB, 16);
  auto sa = J.vgpr<u32>(ST * NW), sx = J.vgpr<u32>(ST * NB);
  auto xst = J.vgpr<u32>(XL ? ST : 1, 4), xss = J.vgpr<u32>(XL ? ST : 1);  // (x_lds: the wave's piece)
  auto t_load = J.sgpr<u32>(), kofs = J.sgpr<u32>(), sofs = J.sgpr<u32>(), wofs = J.sgpr<u32>(), wsofs = J.sgpr<u32>();
  auto my_steps = J.sgpr<u32>(), it = J.sgpr<u32>();
  t_load = kb + 0u;
  my_steps = ke - kb;
  // a step's weight loads, then its X loads (the same step, t_load; then the next)
  auto issue_w = [&](int set) {
    kofs = select(t_load >= ke, 0x80000000u, gpr<u32>(t_load << 7u));
    sofs = select(t_load >= ke, 0x80000000u, gpr<u32>(t_load << 3u));
    if constexpr (C.w_shuffled || XSH) {
      wofs = select(t_load >= ke, 0x80000000u, gpr<u32>(t_load << 12u));
      wsofs = select(t_load >= ke, 0x80000000u, gpr<u32>(t_load << 8u));
    }
    const auto& wk = C.w_shuffled ? wofs : kofs;
    const auto& wsk = C.w_shuffled ? wsofs : sofs;
    for (int w = 0; w < NW; ++w) {
      for (int s = 0; s < 4; ++s) W.load(fa[set * NW + w].slice(4 * s, 4), at(a_off[w]) + at(wk) + WS_ * s);
      WS.load(sa[set * NW + w], at(sa_off[w]) + at(wsk));
    }
  };
  auto issue_x = [&](int set) {
    if constexpr (XL) {
      X.load(xst[set], at(xl->off) + at(wofs));
      XS.load(xss[set], at(xl->soff) + at(wsofs));
      t_load = t_load + 1u;
      return;
    }
    for (int j = 0; j < NB; ++j) {
      for (int s = 0; s < 4; ++s)
        X.load(fx[set * NB + j].slice(4 * s, 4), at(x_off[j]) + at(XSH ? wofs : kofs) + (XSH ? 1024 : 16) * s);
      XS.load(sx[set * NB + j], at(xs_off[j]) + at(XSH ? wsofs : sofs));
    }
    t_load = t_load + 1u;
  };
  auto issue = [&](int set) {
    issue_w(set);
    issue_x(set);
  };
  auto mfmas = [&](int set) {
    for (int s = 0; s < 4; ++s) {
      modifiers m;
      m.cbsz = fp4;
      m.blgp = fp4;
      // scale byte s of both scale VGPRs (gemm_fp4.hpp): op_sel the low bit, op_sel_hi the high
      m.op_sel = static_cast<uint8_t>((s & 1) * 3);
      if (s > 1) m.op_sel_hi = 3;
      for (int w = 0; w < NW; ++w)
        for (int j = 0; j < NB; ++j) {
          if constexpr (TR)
            mfma_run(J, AT, acc[w * NB + j], fx[set * NB + j].slice(4 * s, 4), fa[set * NW + w].slice(4 * s, 4),
                     acc[w * NB + j], sx[set * NB + j], sa[set * NW + w], m);
          else
            mfma_run(J, AT, acc[w * NB + j], fa[set * NW + w].slice(4 * s, 4), fx[set * NB + j].slice(4 * s, 4),
                     acc[w * NB + j], sa[set * NW + w], sx[set * NB + j], m);
        }
    }
  };
  // the first step's weights go out before `before_x` (which may wait for memory: the block's
  // token rows, the fused kernel's counters) and sets x_off / xs_off (its waits leave nothing
  // older in flight, so the loop's counts hold)
  issue_w(0);
  before_x();
  issue_x(0);
  for (int p = 1; p + 1 < ST; ++p) issue(p);
  it = 0u;
  J.While([&] { return it < my_steps; },
          [&] {
            for (int p = 0; p < ST; ++p) {
              issue((p + ST - 1) % ST);
              J.s_waitcnt(vmcnt((ST - 1) * LOADS));  // step p's loads (the next ones' stay in flight)
              if constexpr (XL) {
                // the pieces into LDS set p; after the barrier every wave's are there, and set p's
                // previous reads (step p - ST) are done (each wave read them before the last barrier)
                constexpr int32_t SET = static_cast<int32_t>(NB * moe_fp4_config::x_lds_block);
                const int32_t so = static_cast<int32_t>(xl->base) + p * SET;
                J.If(xl->writer != 0u, [&] { J.ds_write_b128(xl->wa, xst[p], {.offset = so}); });
                J.If(xl->scale_writer != 0u, [&] { J.ds_write_b32(xl->swa, xss[p], {.offset = so}); });
                J.s_waitcnt(lgkmcnt(0));
                J.s_barrier();
                for (int j = 0; j < NB; ++j) {
                  const int32_t bo = so + j * static_cast<int32_t>(moe_fp4_config::x_lds_block);
                  for (int s = 0; s < 4; ++s) J.ds_read_b128(fx[p * NB + j].slice(4 * s, 4), xl->ra, {.offset = bo + 1024 * s});
                  J.ds_read_b32(sx[p * NB + j], xl->rsa, {.offset = bo + 4096});
                }
                J.s_waitcnt(lgkmcnt(0));
              }
              mfmas(p);
            }
            it = it + static_cast<uint32_t>(ST);
          });
  J.s_waitcnt(vmcnt(0));
}

// The wave's weight rows [row0, row0 + 32) of an expert's matrix (K / 2 bytes a row): the lane's
// data and scale offsets (row-major, or gemm_fp4_preshuffle_b's runs: row0 a multiple of 32).
template <moe_fp4_config C>
constexpr void moe_fp4_weight_offsets(builder J, gpr<dtype::u32> lane, gpr<dtype::u32> row0, arg<unsigned> K,
                                      gpr<dtype::u32> off, gpr<dtype::u32> soff) {
  using dtype::u32;
  if constexpr (C.w_shuffled) {
    // the row block's runs (K / 256 steps of 4 KiB, of scales 256 bytes), this lane's 16 bytes
    // (scale dword) of each
    off = (lane << 4u) + (row0 >> 5u) * (K << 4u);
    soff = (lane << 2u) + (row0 >> 5u) * K;
  } else {
    auto r = J.vgpr<u32>();
    r = (lane & 31u) + row0;
    off = r * (K >> 1u) + ((lane >> 5u) << 6u);
    soff = r * (K >> 5u) + ((lane >> 5u) << 2u);
  }
}

// A wave's place: its lane, column group (wave % waves) and K steps [kb, ke) of part wave / waves.
struct moe_fp4_wave {
  gpr<dtype::u32> tid, lane, wave, col, part, kb, ke;
};
template <moe_fp4_config C>
constexpr moe_fp4_wave moe_fp4_wave_setup(builder J, arg<unsigned> K) {
  using dtype::u32;
  moe_fp4_wave r{J.thread_id_x(), J.vgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>()};
  r.lane = r.tid & 63u;
  r.wave = readfirstlane(r.tid) >> 6u;
  r.col = r.wave % C.waves;
  r.part = r.wave / C.waves;
  auto steps = J.sgpr<u32>();
  steps = K >> 8u;
  if constexpr (C.k_split > 1) {
    auto per = J.sgpr<u32>();
    per = (steps + (C.k_split - 1u)) / C.k_split;
    r.kb = min(gpr<u32>(r.part * per), steps);
    r.ke = min(gpr<u32>(r.kb + per), steps);
  } else {
    r.kb = 0u;
    r.ke = steps + 0u;
  }
  return r;
}

// body(b0, expert, n) for the runs of the blocks of groups y, y + grid_y, ... (group g: the NB
// blocks [NB g, NB g + NB) below num_valid_ids[0] / 32): a run the longest stretch of a group's
// blocks of one expert (n of them; the sorting pads each expert to whole blocks, so its blocks are
// consecutive and a group holds one run of most experts). NB = 1: moe.hpp's moe_for_blocks (n
// unused). All wave-uniform.
template <uint32_t NB, class Body>
constexpr void moe_fp4_for_runs(builder J, gpr<dtype::u32> y, arg<const unsigned*> sorted_expert_ids,
                                arg<const unsigned*> num_valid_ids, arg<unsigned> grid_y, Body body) {
  using dtype::u32;
  if constexpr (NB == 1) {
    moe_for_blocks(J, y, sorted_expert_ids, num_valid_ids, grid_y, [&](gpr<u32> blk, gpr<u32> expert) { body(blk, expert, blk); });
  } else {
    auto nblk = J.sgpr<u32>(), g = J.sgpr<u32>(), b = J.sgpr<u32>(), bend = J.sgpr<u32>(), e = J.sgpr<u32>();
    auto n = J.sgpr<u32>(), still = J.sgpr<u32>(), idx = J.sgpr<u32>(), off = J.sgpr<u32>(), c = J.sgpr<u32>();
    std::array<gpr<u32>, NB> nx;
    for (uint32_t j = 1; j < NB; ++j) nx[j].rebind(J.sgpr<u32>());
    J.s_load_dword(nblk, num_valid_ids, 0);
    J.s_waitcnt(lgkmcnt(0));
    nblk = nblk >> static_cast<uint32_t>(std::countr_zero(moe_block_m));
    g = y + 0u;
    b = g * NB;
    J.While([&] { return b < nblk; },
            [&] {
              bend = min(gpr<u32>(b + NB), nblk);
              J.While([&] { return b < bend; },
                      [&] {
                        off = b << 2u;
                        J.s_load_dword(e, sorted_expert_ids, off);
                        for (uint32_t j = 1; j < NB; ++j) {  // (clamped: no read past the group)
                          idx = min(gpr<u32>(b + j), gpr<u32>(bend - 1u));
                          off = idx << 2u;
                          J.s_load_dword(nx[j], sorted_expert_ids, off);
                        }
                        J.s_waitcnt(lgkmcnt(0));
                        n = 1u;
                        still = 1u;
                        for (uint32_t j = 1; j < NB; ++j) {
                          c = select(gpr<u32>(b + j) < bend, nx[j], 0xffffffffu);
                          still = select(c == e, still, 0u);
                          n = n + still;
                        }
                        body(b, e, n);
                        b = b + n;
                      });
              g = g + grid_y;
              b = g * NB;
            });
  }
}

// ---- stage 1: h = mxfp4(act(x . gate) * (x . up)) ------------------------------------------------
// Workgroup (wg_x, wg_y) of a grid (inter / cols, grid_blocks); sync: the fused kernel's counters
// (moe.hpp's moe_sync: out's zeroing and each block's h counted there).
template <moe_fp4_config C>
constexpr void moe_fp4_stage1(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, const moe_sync* sync,
                              arg<uint8_t*> hq, arg<uint8_t*> hs, arg<float*> out, arg<const uint8_t*> xq,
                              arg<const uint8_t*> xs, arg<const uint8_t*> w1, arg<const uint8_t*> w1s,
                              arg<const unsigned*> sorted_token_ids, arg<const unsigned*> sorted_expert_ids,
                              arg<const unsigned*> num_valid_ids, arg<unsigned> tokens, arg<unsigned> dim,
                              arg<unsigned> inter, arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  static_assert(C.col_tiles == 1, "moe_fp4 stage 1: col_tiles 1 (a wave's gate and up tiles are its two)");
  using dtype::u32;
  using dtype::f32;
  constexpr uint32_t T = C.threads();
  const uint32_t red = C.k_split > 1 ? J.lds_bytes(C.lds_bytes(), 16).offset : 0;
  const uint32_t xlds = C.x_lds ? J.lds_bytes(C.x_lds_bytes(), 16).offset : 0;
  const auto wv = moe_fp4_wave_setup<C>(J, dim);
  const gpr<u32> tid = wv.tid, lane = wv.lane;

  // out = 0 for stage 2's atomics: workgroup g of the first Z zeroes 16-byte pieces g*T + tid + k*Z*T
  {
    auto zb = J.sgpr<u32>(), g = J.sgpr<u32>(), gx = J.sgpr<u32>();
    zb = (tokens * dim) << 2u;
    auto O = make_buffer(J, out, zb);
    gx = inter / C.cols();
    g = wg_y * gx + wg_x;
    moe_zero_out(J, O, zb, g, moe_zero_groups(J, tokens, dim, gpr<u32>(gx * grid_blocks), T), T, tid, sync);
  }
  auto n0 = J.sgpr<u32>();  // the wave's first column of inter
  n0 = wg_x * C.cols() + (wv.col << 5u);
  auto xrow = J.sgpr<u32>(), xb = J.sgpr<u32>(), xsb = J.sgpr<u32>();
  xrow = dim >> 1u;
  if constexpr (C.x_gathered) {  // a row block of 32 sorted rows a block (moe_fp4_gather_kernel)
    xb = max_blocks * (dim << 4u);
    xsb = max_blocks * dim;
  } else {
    xb = tokens * xrow;
    xsb = tokens * (dim >> 5u);
  }
  auto X = make_buffer(J, xq, xb);
  auto XS = make_buffer(J, xs, xsb);
  auto hrow = J.sgpr<u32>(), hb = J.sgpr<u32>(), hsrow = J.sgpr<u32>(), hsb = J.sgpr<u32>();
  hrow = inter >> 1u;
  hsrow = inter >> 5u;
  hb = max_blocks * moe_block_m * hrow;
  hsb = max_blocks * moe_block_m * hsrow;
  auto H = make_buffer(J, hq, hb);
  auto HS = make_buffer(J, hs, hsb);
  auto sid = make_buffer(J, sorted_token_ids, 0xffffffffu);
  // the expert's W1 (2 inter rows of dim / 2 bytes) and its scales
  auto eb = J.sgpr<u32>(), esb = J.sgpr<u32>();
  eb = inter * dim;
  esb = inter * (dim >> 4u);
  std::array<gpr<u32>, 2> a_off{J.vgpr<u32>(), J.vgpr<u32>()}, sa_off{J.vgpr<u32>(), J.vgpr<u32>()};
  {
    auto row0 = J.sgpr<u32>();
    row0 = n0 + 0u;  // the gate rows, then the up rows
    moe_fp4_weight_offsets<C>(J, lane, row0, dim, a_off[0], sa_off[0]);
    row0 = n0 + inter;
    moe_fp4_weight_offsets<C>(J, lane, row0, dim, a_off[1], sa_off[1]);
  }

  constexpr uint32_t NB = C.blocks;
  // x_lds: the wave's piece of each step, dwordx4 xsw of block xjw (moe_fp4_k_loop), and where
  // every wave reads the blocks' fragments back
  auto xjw = J.sgpr<u32>(), xsw = J.sgpr<u32>();
  xjw = select(wv.wave < 4u * NB, gpr<u32>(wv.wave >> 2u), NB);  // (NB: no piece, past any run)
  xsw = wv.wave & 3u;
  moe_fp4_xlds xl{xlds,          J.vgpr<u32>(), J.vgpr<u32>(), J.vgpr<u32>(), J.vgpr<u32>(),
                  J.vgpr<u32>(), J.vgpr<u32>(), J.sgpr<u32>(), J.sgpr<u32>()};
  if constexpr (C.x_lds) {
    xl.writer = select(wv.wave < 4u * NB, 1u, 0u);
    xl.wa = (lane << 4u) + (xjw * moe_fp4_config::x_lds_block + (xsw << 10u));
    xl.swa = (lane << 2u) + (xjw * moe_fp4_config::x_lds_block + 4096u);
    xl.ra = lane << 4u;
    xl.rsa = lane << 2u;
    xl.scale_writer = select(xsw == 0u, xl.writer, 0u);
  }
  moe_fp4_for_runs<NB>(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk0, gpr<u32> expert, gpr<u32> nrun) {
    // this lane's token row of each block j of the run (the MFMA's column l % 32): xq past its V#
    // for padding; a block past the run (j >= nrun) reads row 0 of the first (stored nowhere)
    auto so = J.vgpr<u32>();
    std::array<gpr<u32>, 4> tok, tv, x_off, xs_off;
    for (uint32_t j = 0; j < NB; ++j) {
      tok[j].rebind(J.vgpr<u32>());
      tv[j].rebind(J.vgpr<u32>());
      x_off[j].rebind(J.vgpr<u32>());
      xs_off[j].rebind(J.vgpr<u32>());
      so = ((blk0 * moe_block_m) << 2u) + ((lane & 31u) << 2u);
      if (j > 0) so = select(nrun > j, gpr<u32>(so + j * moe_block_m * 4u), so);
      sid.load(tok[j], at(so));
    }
    auto wbase = J.sgpr<dtype::u64>(), sbase = J.sgpr<dtype::u64>();
    wbase = w1 + mul_wide(expert, eb);
    sbase = w1s + mul_wide(expert, esb);
    auto W = make_buffer(J, wbase, eb);
    auto WS = make_buffer(J, sbase, esb);
    // acc[w * NB + j]: block j's gate (w 0) and up (w 1) sums
    std::array<gpr<f32>, 8> acc;
    for (uint32_t i = 0; i < 2 * NB; ++i) {
      acc[i].rebind(J.vgpr<f32>(16).aligned(4));
      acc[i].fill(0.0f);
    }
    moe_fp4_k_loop<C, 2, C.x_gathered>(J, W, WS, a_off, sa_off, X, XS, x_off, xs_off, wv.kb, wv.ke, acc, [&] {
      J.s_waitcnt(vmcnt(0));  // the token ids (and the first weights)
      for (uint32_t j = 0; j < NB; ++j) {
        tv[j] = tok[j] & 0xffffffu;
        if constexpr (C.x_gathered) {  // the block's runs, this lane's 16 bytes (scale dword) of each
          x_off[j] = (lane << 4u) + (blk0 + j) * (dim << 4u);
          xs_off[j] = (lane << 2u) + (blk0 + j) * dim;
        } else {
          x_off[j] = tv[j] * xrow + ((lane >> 5u) << 6u);
          xs_off[j] = tv[j] * (dim >> 5u) + ((lane >> 5u) << 2u);
        }
        if (j > 0) {  // past the run: no lines
          x_off[j] = select(nrun > j, x_off[j], 0x40000000u);
          xs_off[j] = select(nrun > j, xs_off[j], 0x40000000u);
        }
      }
      if constexpr (C.x_lds) {  // (a block past the run or no piece: zeros, no lines; NB 1: nrun is the block)
        auto has = J.sgpr<u32>();
        if constexpr (NB == 1)
          has = select(xjw == 0u, 1u, 0u);
        else
          has = select(nrun > xjw, 1u, 0u);
        xl.off = select(has != 0u, gpr<u32>((lane << 4u) + (blk0 + xjw) * (dim << 4u) + (xsw << 10u)), 0x40000000u);
        xl.soff = select(has != 0u, gpr<u32>((lane << 2u) + (blk0 + xjw) * dim), 0x40000000u);
      }
    }, C.x_lds ? &xl : nullptr);
    if constexpr (C.k_split > 1) {
      // the other parts' sums into part 0's accumulators: [part - 1][col][w NB + j][register][lane]
      constexpr uint32_t per_wave = 2 * NB * 16 * 64 * 4;
      auto la = J.vgpr<u32>();
      J.If(wv.part != 0u, [&] {
        la = ((wv.part - 1u) * C.waves + wv.col) * per_wave + (lane << 2u);
        for (uint32_t i = 0; i < 2 * NB; ++i)
          for (uint32_t r = 0; r < 16; ++r)
            J.ds_write_b32(la, acc[i][r], {.offset = static_cast<int32_t>(red + (i * 16 + r) * 256)});
      });
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
    }
    // block j of the run (blk0 + j, its token tv[j], sums acc[j] and acc[NB + j])
    auto finish = [&](uint32_t j) {
      auto blk = J.sgpr<u32>();
      blk = blk0 + j;
      const gpr<u32> t = tv[j];
      const gpr<f32> ag = acc[j], au = acc[NB + j];
      if constexpr (C.k_split > 1) {
        constexpr uint32_t per_wave = 2 * NB * 16 * 64 * 4;
        auto la = J.vgpr<u32>();
        auto pv = J.vgpr<f32>(16);
        for (uint32_t p = 1; p < C.k_split; ++p) {
          la = ((p - 1u) * C.waves + wv.col) * per_wave + (lane << 2u);
          for (uint32_t w = 0; w < 2; ++w) {
            const uint32_t i = w * NB + j;
            for (uint32_t r = 0; r < 16; ++r)
              J.ds_read_b32(pv[r], la, {.offset = static_cast<int32_t>(red + (i * 16 + r) * 256)});
            J.s_waitcnt(lgkmcnt(0));
            for (uint32_t r = 0; r < 16; ++r) acc[i][r] = acc[i][r] + pv[r];
          }
        }
      }
      // h of the lane's token at n0 + 8q + 4 (l / 32) + j (register 4q + j), into the gate sums
      const gpr<f32> h = ag;
      auto m = J.vgpr<u32>(), a = J.vgpr<u32>();
      m = 0u;
      for (uint32_t r = 0; r < 16; ++r) {
        h[r] = detail::activate<C.act>(ag[r]) * au[r];
        a = h[r].as<u32>() & 0x7fffffffu;
        m = max(m, a);
      }
      // the 32 n's amax (lanes l and l ^ 32), its E8M0 code by aiter's rule (mxfp4_quant.hpp,
      // aiter_even: amax's f32 bits + 0x200000, the exponent field, - 2), NaN / inf: 0xff
      auto amax = xor_reduce(J, reduce::max, m, 32, {.all_lanes_active = true});
      auto code = J.vgpr<u32>(), sc = J.vgpr<u32>();
      code = (amax + 0x200000u) >> 23u;
      code = max(code, 2u) - 2u;
      code = select(amax >= 0x7f800000u, 0xffu, code);
      sc = code << 23u;  // (the conversions read the scale as an f32's exponent field)
      // padding rows store nothing (stage 2 loads them as zeros)
      // h in gemm_fp4_preshuffle_b's layout, a block of 32 sorted rows its row block (stage 2
      // loads 1 KiB runs: 8 lines a dwordx4, not 32): the wave's 32 n are 16-byte chunk c =
      // (n0 / 32) % 8 of step n0 / 256 of row l % 32, at 4096 (blk * steps + step) + 1024 (c % 4) +
      // 16 (l % 32 + 32 (c / 4)), this lane's bytes 4q + 2 (l / 32) of it; the scale byte at
      // 256 (blk * steps + step) + 4 (l % 32 + 32 (c / 4)) + c % 4
      auto run = J.sgpr<u32>(), c = J.sgpr<u32>(), hb0 = J.sgpr<u32>(), hs0 = J.sgpr<u32>();
      run = blk * (inter >> 8u) + (n0 >> 8u);
      c = (n0 >> 5u) & 7u;
      hb0 = (run << 12u) + ((c & 3u) << 10u) + ((c >> 2u) << 9u);
      hs0 = (run << 8u) + ((c >> 2u) << 7u) + (c & 3u);
      auto ho = J.vgpr<u32>(), hso = J.vgpr<u32>();
      ho = select(t < tokens, gpr<u32>(((lane & 31u) << 4u) + ((lane >> 5u) << 1u) + hb0), 0x80000000u);
      hso = select(t < tokens && (lane >> 5u) == 0u, gpr<u32>(((lane & 31u) << 2u) + hs0), 0x80000000u);
      auto p = J.vgpr<u32>();
      for (uint32_t q = 0; q < 4; ++q) {
        p = 0u;
        for (uint32_t i = 0; i < 2; ++i) {
          modifiers mo;
          mo.op_sel = static_cast<uint8_t>(i << 2);  // destination byte i, the others kept
          J.v_cvt_scalef32_pk_fp4_f32(p, h[4 * q + 2 * i], h[4 * q + 2 * i + 1], sc.as<f32>(), mo);
        }
        H.store(p, at(ho) + static_cast<int32_t>(4 * q), {.width = narrow::u16});
      }
      HS.store(code, at(hso), {.width = narrow::u8});
    };
    auto finish_all = [&] {
      finish(0);
      for (uint32_t j = 1; j < NB; ++j) J.If(nrun > j, [&] { finish(j); });
    };
    if constexpr (C.k_split > 1) {
      J.If(wv.part == 0u, finish_all);
      J.s_barrier();  // the partial sums are read before the next block writes them
    } else {
      finish_all();
    }
    if (sync) moe_signal(J, *sync, tid, val<u32>((blk0 << 2u) + moe_sync_blocks));  // (blocks 1: one block)
  });
}

// ---- stage 2: out[token] += w * (h . W2^T) ---------------------------------------------------------
// Workgroup (wg_x, wg_y) of a grid (dim / cols, grid_blocks); sync: the fused kernel's counters
// (each block waited for; the last workgroup sets them back to 0).
template <moe_fp4_config C, class HPtr>  // (h: arg<const uint8_t*>, or the fused kernel's arg<uint8_t*>)
constexpr void moe_fp4_stage2(builder J, gpr<dtype::u32> wg_x, gpr<dtype::u32> wg_y, const moe_sync* sync,
                              arg<float*> out, HPtr hq, HPtr hs,
                              arg<const uint8_t*> w2, arg<const uint8_t*> w2s, arg<const unsigned*> sorted_token_ids,
                              arg<const float*> sorted_weights, arg<const unsigned*> sorted_expert_ids,
                              arg<const unsigned*> num_valid_ids, arg<unsigned> tokens, arg<unsigned> dim,
                              arg<unsigned> inter, arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  using dtype::u32;
  using dtype::f32;
  const auto wv = moe_fp4_wave_setup<C>(J, inter);
  const gpr<u32> lane = wv.lane;
  constexpr uint32_t CT = C.col_tiles;
  auto d0 = J.sgpr<u32>();  // the wave's first column of dim
  d0 = wg_x * C.cols() + wv.col * (32u * CT);
  auto hrow = J.sgpr<u32>(), hb = J.sgpr<u32>(), hsrow = J.sgpr<u32>(), hsb = J.sgpr<u32>();
  hrow = inter >> 1u;
  hsrow = inter >> 5u;
  hb = max_blocks * moe_block_m * hrow;
  hsb = max_blocks * moe_block_m * hsrow;
  auto H = make_buffer(J, hq, hb);
  auto HS = make_buffer(J, hs, hsb);
  auto sid = make_buffer(J, sorted_token_ids, 0xffffffffu);
  auto SW = make_buffer(J, sorted_weights, 0xffffffffu);
  auto ob = J.sgpr<u32>(), orow = J.sgpr<u32>();
  orow = dim << 2u;
  if constexpr (C.rows_out)
    ob = 0x80000000u;  // y: below 2 GiB (the launcher checks); padding rows' offsets from 2^31
  else
    ob = tokens * orow;
  auto O = make_buffer(J, out, ob);
  auto eb = J.sgpr<u32>(), esb = J.sgpr<u32>();
  eb = dim * hrow;
  esb = dim * hsrow;
  std::array<gpr<u32>, 2> a_off{J.vgpr<u32>(), J.vgpr<u32>()}, sa_off{J.vgpr<u32>(), J.vgpr<u32>()};
  moe_fp4_weight_offsets<C>(J, lane, d0, inter, a_off[0], sa_off[0]);
  if constexpr (CT > 1) {
    auto row1 = J.sgpr<u32>();
    row1 = d0 + 32u;
    moe_fp4_weight_offsets<C>(J, lane, row1, inter, a_off[1], sa_off[1]);
  }
  // the epilogue's lane: column d0 + 32 w + l % 32 (bytes), the source lane of its rows (ds_bpermute)
  auto dcol = J.vgpr<u32>(), rsrc = J.vgpr<u32>();
  dcol = ((lane & 31u) + d0) << 2u;
  rsrc = (lane >> 5u) << 4u;

  constexpr uint32_t NB = C.blocks;
  moe_fp4_for_runs<NB>(J, wg_y, sorted_expert_ids, num_valid_ids, grid_blocks, [&](gpr<u32> blk0, gpr<u32> expert, gpr<u32> nrun) {
    // block j of the run: this lane's token and weight (a block past the run, j >= nrun: the
    // first block's, its h not loaded and nothing added)
    auto so = J.vgpr<u32>();
    std::array<gpr<u32>, 4> tok, t, x_off, xs_off;
    std::array<gpr<f32>, 4> wt;
    for (uint32_t j = 0; j < NB; ++j) {
      tok[j].rebind(J.vgpr<u32>());
      t[j].rebind(J.vgpr<u32>());
      wt[j].rebind(J.vgpr<f32>());
      x_off[j].rebind(J.vgpr<u32>());
      xs_off[j].rebind(J.vgpr<u32>());
      so = ((blk0 * moe_block_m) << 2u) + ((lane & 31u) << 2u);
      if (j > 0) so = select(nrun > j, gpr<u32>(so + j * moe_block_m * 4u), so);
      sid.load(tok[j], at(so));
      SW.load(wt[j], at(so));
    }
    auto wbase = J.sgpr<dtype::u64>(), sbase = J.sgpr<dtype::u64>();
    wbase = w2 + mul_wide(expert, eb);
    sbase = w2s + mul_wide(expert, esb);
    auto W = make_buffer(J, wbase, eb);
    auto WS = make_buffer(J, sbase, esb);
    std::array<gpr<f32>, 8> acc;
    for (uint32_t j = 0; j < NB * CT; ++j) acc[j].rebind(J.vgpr<f32>(16).aligned(4));
    // (the first weight step's loads go out before the wait for the block's h: in the fused
    // kernel they overlap stage 1). Transposed sums (h the MFMA's A operand): a lane holds one
    // column d of 16 rows, so an atomic instruction's 64 lanes touch 2 lines of out, not 32.
    moe_fp4_k_loop<C, static_cast<int>(CT), true, true>(J, W, WS, a_off, sa_off, H, HS, x_off, xs_off, wv.kb, wv.ke, acc, [&] {
      if (sync) {  // out zeroed and the block's h stored (the polls in the round trip of the loads above)
        const val<u32> counter = (blk0 << 2u) + moe_sync_blocks;  // (blocks 1: one block)
        moe_wait(J, *sync, &counter);
      }
      J.s_waitcnt(vmcnt(0));
      for (uint32_t j = 0; j < NB * CT; ++j) acc[j].fill(0.0f);  // (after the wait: the previous block's atomics read these registers)
      for (uint32_t j = 0; j < NB; ++j) {
        t[j] = tok[j] & 0xffffffu;
        // the block's runs of h (stage 1's layout: gemm_fp4_preshuffle_b's), this lane's 16 bytes
        // (scale dword) of each; padding rows: past h's V# (zeros, no lines)
        x_off[j] = select(t[j] < tokens, gpr<u32>((lane << 4u) + (blk0 + j) * (inter << 4u)), 0x40000000u);
        xs_off[j] = select(t[j] < tokens, gpr<u32>((lane << 2u) + (blk0 + j) * inter), 0x40000000u);
        if (j > 0) {  // past the run: no lines
          x_off[j] = select(nrun > j, x_off[j], 0x40000000u);
          xs_off[j] = select(nrun > j, xs_off[j], 0x40000000u);
        }
      }
    });
    // lane: column d0 + 32 w + l % 32 of tile w, register 4q + i the block's row 8q + 4 (l / 32) + i,
    // whose token and weight lane l % 32 of t / wt holds: fetched by ds_bpermute (lane rsrc / 4 +
    // 8q + i)
    auto obase = J.vgpr<u32>();
    auto ro = J.vgpr<u32>(16), rw = J.vgpr<u32>(16);
    auto add = [&](uint32_t j) {
      if constexpr (C.rows_out)  // y's row slot * tokens + token
        obase = select(t[j] < tokens, gpr<u32>(((tok[j] >> 24u) * tokens + t[j]) * orow), 0x80000000u);
      else
        obase = t[j] * orow;  // padding: token = tokens, past the V#
      for (uint32_t r = 0; r < 16; ++r) {
        const int32_t src = static_cast<int32_t>(4 * (8 * (r / 4) + r % 4));
        J.ds_bpermute_b32(ro[r], rsrc, obase, {.offset = src});
        J.ds_bpermute_b32(rw[r], rsrc, wt[j].as<u32>(), {.offset = src});
      }
      J.s_waitcnt(lgkmcnt(0));
      for (uint32_t r = 0; r < 16; ++r) ro[r] = ro[r] + dcol;
      for (uint32_t w = 0; w < CT; ++w) {
        const gpr<f32> v = acc[w * NB + j];
        for (uint32_t r = 0; r < 16; ++r) {
          v[r] = v[r] * rw[r].as<f32>();
          if constexpr (C.rows_out)
            O.store(v[r], at(ro[r]) + static_cast<int32_t>(128 * w));
          else
            O.atomic_add_f32(v[r], at(ro[r]) + static_cast<int32_t>(128 * w));
        }
      }
    };
    add(0);
    for (uint32_t j = 1; j < NB; ++j) J.If(nrun > j, [&] { add(j); });
  });
  if (sync) {
    moe_stage2_done(J, *sync, wv.wave, wv.tid, num_valid_ids);
  }
}
}  // namespace detail

template <moe_fp4_config C>
constexpr void moe_fp4_stage1_kernel(builder J, arg<uint8_t*> hq, arg<uint8_t*> hs, arg<float*> out,
                                     arg<const uint8_t*> xq, arg<const uint8_t*> xs, arg<const uint8_t*> w1,
                                     arg<const uint8_t*> w1s, arg<const unsigned*> sorted_token_ids,
                                     arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                     arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter,
                                     arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  detail::moe_fp4_check_config<C>();
  if constexpr (!detail::gemm_fp4_target_ok() || detail::moe_fp4_config_error(C) != nullptr) return;
  else
    detail::moe_fp4_stage1<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), nullptr, hq, hs, out, xq, xs, w1, w1s, sorted_token_ids, sorted_expert_ids, num_valid_ids,
                              tokens, dim, inter, grid_blocks, max_blocks);
}

template <moe_fp4_config C>
constexpr void moe_fp4_stage2_kernel(builder J, arg<float*> out, arg<const uint8_t*> hq, arg<const uint8_t*> hs,
                                     arg<const uint8_t*> w2, arg<const uint8_t*> w2s,
                                     arg<const unsigned*> sorted_token_ids, arg<const float*> sorted_weights,
                                     arg<const unsigned*> sorted_expert_ids, arg<const unsigned*> num_valid_ids,
                                     arg<unsigned> tokens, arg<unsigned> dim, arg<unsigned> inter,
                                     arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  detail::moe_fp4_check_config<C>();
  if constexpr (!detail::gemm_fp4_target_ok() || detail::moe_fp4_config_error(C) != nullptr) return;
  else
    detail::moe_fp4_stage2<C>(J, J.workgroup_id_x(), J.workgroup_id_y(), nullptr, out, hq, hs, w2, w2s, sorted_token_ids, sorted_weights, sorted_expert_ids,
                              num_valid_ids, tokens, dim, inter, grid_blocks, max_blocks);
}

// Both stages in one dispatch (as moe.hpp's moe_fused_kernel): a 1-D grid, workgroups [0, n1)
// stage 1's grid (x fastest: inter / cols1 columns, grid1_y rows), [n1, n1 + n2) stage 2's (dim /
// cols2, grid2_y). Before each of its blocks a stage-2 workgroup waits (moe.hpp's moe_wait) for
// out's zeroing and for the stage-1 workgroups of that block; it never waits for a higher
// workgroup id: deadlock-free where a grid's workgroups are dispatched in increasing id order (the
// CP/SPI, hipasm-sim and its timing model do). The counters (moe_fp4_workspace::counters) are zero
// between launches; not for sampled profiles.
template <moe_fp4_config C1, moe_fp4_config C2>
constexpr void moe_fp4_fused_kernel(builder J, arg<float*> out, arg<uint8_t*> hq, arg<uint8_t*> hs, arg<const uint8_t*> xq,
                                    arg<const uint8_t*> xs, arg<const uint8_t*> w1, arg<const uint8_t*> w1s,
                                    arg<const uint8_t*> w2, arg<const uint8_t*> w2s, arg<const unsigned*> sorted_token_ids,
                                    arg<const float*> sorted_weights, arg<const unsigned*> sorted_expert_ids,
                                    arg<const unsigned*> num_valid_ids, arg<unsigned*> counters, arg<unsigned> tokens,
                                    arg<unsigned> dim, arg<unsigned> inter, arg<unsigned> grid1_y, arg<unsigned> grid2_y,
                                    arg<unsigned> max_blocks) {
  detail::moe_fp4_check_config<C1>();
  detail::moe_fp4_check_config<C2>();
  static_assert(C1.threads() == C2.threads(),
                "moe_fp4 fused: stage 1 and stage 2 share the workgroup size: waves * k_split must be equal");
  static_assert(C1.blocks == 1 && C2.blocks == 1, "moe_fp4 fused: one block a workgroup (its counters are a block's)");
  static_assert(!C2.rows_out, "moe_fp4 fused: stage 2 adds into out (rows_out needs moe_fp4_reduce_kernel after it)");
  if constexpr (!detail::gemm_fp4_target_ok() || detail::moe_fp4_config_error(C1) != nullptr ||
                detail::moe_fp4_config_error(C2) != nullptr)
    return;
  else {
    using dtype::u32;
    auto wg = J.workgroup_id_x();
    auto gx1 = J.sgpr<u32>(), gx2 = J.sgpr<u32>(), n1 = J.sgpr<u32>(), n2 = J.sgpr<u32>();
    gx1 = inter / C1.cols();
    gx2 = dim / C2.cols();
    n1 = gx1 * grid1_y;
    n2 = gx2 * grid2_y;
    const detail::moe_sync sync{counters, gx1, detail::moe_zero_groups(J, tokens, dim, n1, C1.threads()), n2};
    auto y = J.sgpr<u32>(), xw = J.sgpr<u32>(), w = J.sgpr<u32>();
    J.If(
        wg < n1,
        [&] {
          y = wg / gx1;
          xw = wg - y * gx1;
          detail::moe_fp4_stage1<C1>(J, xw, y, &sync, hq, hs, out, xq, xs, w1, w1s, sorted_token_ids, sorted_expert_ids,
                                     num_valid_ids, tokens, dim, inter, grid1_y, max_blocks);
        },
        [&] {
          w = wg - n1;
          y = w / gx2;
          xw = w - y * gx2;
          detail::moe_fp4_stage2<C2>(J, xw, y, &sync, out, hq, hs, w2, w2s, sorted_token_ids, sorted_weights,
                                     sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid2_y, max_blocks);
        });
  }
}

// The layer's first two launches in one dispatch: workgroup 0 sorts the routing (moe.hpp's
// moe_sorting_kernel), workgroups 1.. quantize x (mxfp4_quant.hpp, as workgroups 0.. of its grid).
// The two share the workgroup size (64 * sorting waves = 64 * quantization waves) and wait for
// nothing: the sorting's serial walk and the quantization's stream overlap, one dispatch less.
template <moe_sorting_config SC, mxfp4_quant_config QC>
constexpr void moe_fp4_prologue_kernel(builder J, arg<unsigned*> sorted_token_ids, arg<float*> sorted_weights,
                                       arg<unsigned*> sorted_expert_ids, arg<unsigned*> num_valid_ids,
                                       arg<const int*> topk_ids, arg<const float*> topk_weights, arg<unsigned> tokens,
                                       arg<unsigned> topk, arg<unsigned> experts, arg<unsigned*> debug_buf,
                                       arg<uint8_t*> xq, arg<uint8_t*> xs, arg<const uint16_t*> x) {
  static_assert(SC.threads() == 64u * static_cast<uint32_t>(QC.waves),
                "moe_fp4 prologue: the sorting's and the quantization's workgroups must be of one size (waves)");
  static_assert(!QC.f32_in, "moe_fp4 prologue: x is bf16");
  static_assert(!SC.debug_log, "moe_fp4 prologue: a sorting without debug_log");
  using dtype::u32;
  auto wg = J.workgroup_id_x();
  auto g = J.sgpr<u32>();
  J.If(
      wg == 0u,
      [&] {
        moe_sorting_kernel<SC>(J, sorted_token_ids, sorted_weights, sorted_expert_ids, num_valid_ids, topk_ids,
                               topk_weights, tokens, topk, experts, debug_buf);
      },
      [&] {
        g = wg - 1u;
        detail::mxfp4_quant_group<QC>(J, g, xq, xs, x, tokens);
      });
}

// x's rows in the sorted order for stage 1's x_gathered: each block of 32 sorted rows a row block
// of gemm_fp4_preshuffle_b's layout (per 256-k step a 4 KiB run of the MFMA lanes' 16-byte
// fragments, xg[(blk * steps + step) * 4096 + 1024 s + 16 (r + 32 g)] = xq[token(r)][128 step + 64 g
// + 16 s ...], and a 256-byte run of their scale dwords, xgs[(blk * steps + step) * 256 + 4 (r + 32
// g)] = xs[token(r)][8 step + 4 g ...]), so that each stage-1 wave loads 8 lines a dwordx4 in place
// of 32 (one row each) and the gather's 32 lines a row block happen once, not once per column wave.
// A load here takes 8 rows of 128 bytes (8 lines) and its store 8 lines; padding rows (token =
// tokens: past xq's V#) are stored as zeros. Grid (grid_blocks, PARTS): workgroup (x, p) takes the
// blocks x, x + grid_blocks, ... below num_valid_ids[0] / 32, its wave w the steps p WAVES + w,
// + PARTS WAVES, ... of each (PARTS spreads a block's address-path work over PARTS CUs).
template <uint32_t WAVES, uint32_t PARTS = 1>
constexpr void moe_fp4_gather_kernel(builder J, arg<uint8_t*> xg, arg<uint8_t*> xgs, arg<const uint8_t*> xq,
                                     arg<const uint8_t*> xs, arg<const unsigned*> sorted_token_ids,
                                     arg<const unsigned*> num_valid_ids, arg<unsigned> tokens, arg<unsigned> dim,
                                     arg<unsigned> grid_blocks, arg<unsigned> max_blocks) {
  static_assert(WAVES >= 1 && WAVES <= 16 && PARTS >= 1, "moe_fp4 gather: 1 to 16 waves, parts from 1");
  using dtype::u32;
  auto tid = J.thread_id_x();
  auto lane = J.vgpr<u32>();
  lane = tid & 63u;
  auto wave = J.sgpr<u32>();
  wave = (readfirstlane(tid) >> 6u) + J.workgroup_id_y() * WAVES;
  auto xrow = J.sgpr<u32>(), srow = J.sgpr<u32>(), b = J.sgpr<u32>(), steps = J.sgpr<u32>();
  xrow = dim >> 1u;
  srow = dim >> 5u;
  steps = dim >> 8u;
  b = tokens * xrow;
  auto X = make_buffer(J, xq, b);
  b = tokens * srow;
  auto XS = make_buffer(J, xs, b);
  b = max_blocks * (dim << 4u);
  auto G = make_buffer(J, xg, b);
  b = max_blocks * dim;
  auto GS = make_buffer(J, xgs, b);
  auto sid = make_buffer(J, sorted_token_ids, 0xffffffffu);
  // load q of a step: rows 8q + l / 8, bytes 16 (l % 8) of the row's 128 (g = l % 8 / 4, s = l % 4);
  // its place in the run: 1024 s + 512 g + 16 (l / 8) + 128 q
  auto dst = J.vgpr<u32>();
  dst = ((lane & 3u) << 10u) + (((lane >> 2u) & 1u) << 9u) + ((lane >> 3u) << 4u);
  auto nblk = J.sgpr<u32>(), blk = J.sgpr<u32>();
  J.s_load_dword(nblk, num_valid_ids, 0);
  J.s_waitcnt(lgkmcnt(0));
  nblk = nblk >> 5u;
  blk = J.workgroup_id_x() + 0u;
  auto so = J.vgpr<u32>(), tk = J.vgpr<u32>(4), xo = J.vgpr<u32>(4), ts = J.vgpr<u32>(), xso = J.vgpr<u32>();
  auto v = J.vgpr<u32>(16).aligned(4), sv = J.vgpr<u32>(), lo4 = J.vgpr<u32>();
  lo4 = lane << 2u;
  auto st = J.sgpr<u32>(), xs_step = J.sgpr<u32>(), gb = J.sgpr<u32>(), gsb = J.sgpr<u32>(), go = J.sgpr<u32>();
  J.While([&] { return blk < nblk; },
          [&] {
            for (uint32_t q = 0; q < 4; ++q) {
              so = ((blk * moe_block_m) << 2u) + ((8u * q) << 2u) + ((lane >> 3u) << 2u);
              sid.load(tk[q], at(so));
            }
            so = ((blk * moe_block_m) << 2u) + ((lane & 31u) << 2u);
            sid.load(ts, at(so));
            J.s_waitcnt(vmcnt(0));
            for (uint32_t q = 0; q < 4; ++q) xo[q] = (tk[q] & 0xffffffu) * xrow + ((lane & 7u) << 4u);
            xso = (ts & 0xffffffu) * srow + ((lane >> 5u) << 2u);
            gb = blk * (dim << 4u);
            gsb = blk * dim;
            st = wave + 0u;
            J.While([&] { return st < steps; },
                    [&] {
                      xs_step = st << 7u;
                      for (uint32_t q = 0; q < 4; ++q) X.load(v.slice(4 * q, 4), at(xo[q]) + at(xs_step));
                      xs_step = st << 3u;
                      XS.load(sv, at(xso) + at(xs_step));
                      J.s_waitcnt(vmcnt(0));
                      go = gb + (st << 12u);
                      for (uint32_t q = 0; q < 4; ++q)
                        G.store(v.slice(4 * q, 4), at(dst) + at(go) + static_cast<int32_t>(128 * q));
                      go = gsb + (st << 8u);
                      GS.store(sv, at(lo4) + at(go));
                      st = st + WAVES * PARTS;
                    });
            blk = blk + grid_blocks;
          });
}

// out[t][c] = sum over the slots k of token t routed to an expert in [0, experts) of y[k][t][c]
// (stage 2's rows with rows_out: each already weighted), in slot order: the reduction over top-k
// without atomics (an f32 atomic costs the L2 a lane an operation). Grid (ceil(dim / (256
// WAVES)), tokens): a lane 4 consecutive c of token wg_y (a dwordx4 a slot, 4 slots a wait).
template <uint32_t WAVES>
constexpr void moe_fp4_reduce_kernel(builder J, arg<float*> out, arg<const float*> y, arg<const int*> topk_ids,
                                     arg<unsigned> tokens, arg<unsigned> topk, arg<unsigned> experts,
                                     arg<unsigned> dim) {
  static_assert(WAVES >= 1 && WAVES <= 16, "moe_fp4 reduce: 1 to 16 waves");
  using dtype::u32;
  using dtype::f32;
  auto t = J.workgroup_id_y();
  auto row = J.sgpr<u32>(), b = J.sgpr<u32>(), k = J.sgpr<u32>(), kk = J.sgpr<u32>(), idx = J.sgpr<u32>();
  auto off = J.sgpr<u32>();
  row = dim << 2u;
  b = tokens * row;
  auto O = make_buffer(J, out, b);
  b = b * topk;
  auto Y = make_buffer(J, y, b);
  auto c = J.vgpr<u32>();  // the lane's byte offset in a row; past the row: past every V#
  c = ((J.thread_id_x() << 2u) + J.workgroup_id_x() * (256u * WAVES)) << 2u;
  c = select(c < row, c, 0x80000000u);
  auto acc = J.vgpr<f32>(4).aligned(4), v = J.vgpr<f32>(16).aligned(4);
  acc.fill(0.0f);
  std::array<gpr<u32>, 4> id, yo;
  for (auto& r : id) r.rebind(J.sgpr<u32>());
  for (auto& r : yo) r.rebind(J.sgpr<u32>());
  k = 0u;
  J.While([&] { return k < topk; },
          [&] {
            for (uint32_t i = 0; i < 4; ++i) {  // (clamped: no read past the token's ids)
              idx = min(gpr<u32>(k + i), gpr<u32>(topk - 1u));
              off = (t * topk + idx) << 2u;
              J.s_load_dword(id[i], topk_ids, off);
            }
            J.s_waitcnt(lgkmcnt(0));
            for (uint32_t i = 0; i < 4; ++i) {
              kk = k + i;
              yo[i] = select(id[i] < experts, gpr<u32>((kk * tokens + t) * row), 0x80000000u);
              yo[i] = select(kk < topk, yo[i], 0x80000000u);
              Y.load(v.slice(4 * i, 4), at(c) + at(yo[i]));
            }
            J.s_waitcnt(vmcnt(0));
            for (uint32_t i = 0; i < 4; ++i)
              for (uint32_t e = 0; e < 4; ++e) acc[e] = acc[e] + v[4 * i + e];
            k = k + 4u;
          });
  off = t * row;
  O.store(acc, at(c) + at(off));
}

}  // namespace hipasm::kernels

#define HIPASM_MOE_FP4_TARGET_CHECK                                                                     \
  static_assert(!::hipasm::device_pass || ::hipasm::kernels::detail::gemm_fp4_target_ok(),             \
                "hipasm moe_fp4: the target has no scaled MFMAs (v_mfma_scale_f32_32x32x64_f8f6f4, gfx950 only)")
#define HIPASM_MOE_FP4_CONFIG_CHECK(CFG)                                                                \
  static_assert(::hipasm::kernels::detail::moe_fp4_config_error(CFG) == nullptr,                        \
                std::string_view(::hipasm::kernels::detail::moe_fp4_config_error(CFG)                    \
                                     ? ::hipasm::kernels::detail::moe_fp4_config_error(CFG)              \
                                     : ""))
// Stage 1 (h = mxfp4(act(gate) * up), out zeroed) of configuration CFG; grid: launch_moe_fp4_stage1.
#define HIPASM_MOE_FP4_STAGE1_KERNEL(NAME, CFG)                                                                  \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                                   \
  HIPASM_MOE_FP4_CONFIG_CHECK(CFG);                                                                              \
  extern "C" __attribute__((global)) void NAME(uint8_t* hq, uint8_t* hs, float* out, const uint8_t* xq,         \
                                               const uint8_t* xs, const uint8_t* w1, const uint8_t* w1s,        \
                                               const unsigned* sorted_token_ids, const unsigned* sorted_expert_ids, \
                                               const unsigned* num_valid_ids, unsigned tokens, unsigned dim,     \
                                               unsigned inter, unsigned grid_blocks, unsigned max_blocks) {      \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_stage1_kernel<CFG>), hq, hs, out, xq, xs, w1, w1s,              \
                       sorted_token_ids, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks,     \
                       max_blocks);                                                                              \
  }
// Stage 2 (out[token] += w * (h . W2^T)) of configuration CFG; grid: launch_moe_fp4_stage2.
#define HIPASM_MOE_FP4_STAGE2_KERNEL(NAME, CFG)                                                                  \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                                   \
  HIPASM_MOE_FP4_CONFIG_CHECK(CFG);                                                                              \
  extern "C" __attribute__((global)) void NAME(float* out, const uint8_t* hq, const uint8_t* hs, const uint8_t* w2, \
                                               const uint8_t* w2s, const unsigned* sorted_token_ids,            \
                                               const float* sorted_weights, const unsigned* sorted_expert_ids,  \
                                               const unsigned* num_valid_ids, unsigned tokens, unsigned dim,     \
                                               unsigned inter, unsigned grid_blocks, unsigned max_blocks) {      \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_stage2_kernel<CFG>), out, hq, hs, w2, w2s, sorted_token_ids,    \
                       sorted_weights, sorted_expert_ids, num_valid_ids, tokens, dim, inter, grid_blocks,       \
                       max_blocks);                                                                              \
  }
// The sorting (SORT_CFG, moe_sorting_config) and x's quantization (QUANT_CFG, mxfp4_quant_config
// of width dim, bf16) in one dispatch; grid: launch_moe_fp4_prologue.
#define HIPASM_MOE_FP4_PROLOGUE_KERNEL(NAME, SORT_CFG, QUANT_CFG)                                             \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                                 \
  extern "C" __attribute__((global)) void NAME(unsigned* sorted_token_ids, float* sorted_weights,              \
                                               unsigned* sorted_expert_ids, unsigned* num_valid_ids,           \
                                               const int* topk_ids, const float* topk_weights, unsigned tokens, \
                                               unsigned topk, unsigned experts, unsigned* debug_buf, uint8_t* xq, \
                                               uint8_t* xs, const uint16_t* x) {                              \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_prologue_kernel<SORT_CFG, QUANT_CFG>), sorted_token_ids,      \
                       sorted_weights, sorted_expert_ids, num_valid_ids, topk_ids, topk_weights, tokens, topk,  \
                       experts, debug_buf, xq, xs, x);                                                          \
  }
// Both stages in one dispatch (stage 1 with STAGE1_CFG, stage 2 with STAGE2_CFG, the same waves *
// k_split); grid: launch_moe_fp4_fused.
#define HIPASM_MOE_FP4_FUSED_KERNEL(NAME, STAGE1_CFG, STAGE2_CFG)                                             \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                                 \
  HIPASM_MOE_FP4_CONFIG_CHECK(STAGE1_CFG);                                                                     \
  HIPASM_MOE_FP4_CONFIG_CHECK(STAGE2_CFG);                                                                     \
  extern "C" __attribute__((global)) void NAME(                                                                \
      float* out, uint8_t* hq, uint8_t* hs, const uint8_t* xq, const uint8_t* xs, const uint8_t* w1,          \
      const uint8_t* w1s, const uint8_t* w2, const uint8_t* w2s, const unsigned* sorted_token_ids,             \
      const float* sorted_weights, const unsigned* sorted_expert_ids, const unsigned* num_valid_ids,           \
      unsigned* counters, unsigned tokens, unsigned dim, unsigned inter, unsigned grid1_y, unsigned grid2_y,    \
      unsigned max_blocks) {                                                                                   \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_fused_kernel<STAGE1_CFG, STAGE2_CFG>), out, hq, hs, xq, xs, w1, \
                       w1s, w2, w2s, sorted_token_ids, sorted_weights, sorted_expert_ids, num_valid_ids,        \
                       counters, tokens, dim, inter, grid1_y, grid2_y, max_blocks);                             \
  }
// out = the sums of stage 2's rows (rows_out) over top-k (moe_fp4_reduce_kernel, WAVES waves a
// workgroup); grid: launch_moe_fp4_reduce.
#define HIPASM_MOE_FP4_REDUCE_KERNEL(NAME, WAVES)                                                                \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                                 \
  extern "C" __attribute__((global)) void NAME(float* out, const float* y, const int* topk_ids, unsigned tokens, \
                                               unsigned topk, unsigned experts, unsigned dim) {                 \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_reduce_kernel<WAVES>), out, y, topk_ids, tokens, topk, experts, dim); \
  }
// x's sorted rows in stage 1's x_gathered layout (moe_fp4_gather_kernel, WAVES waves a
// workgroup, PARTS workgroups a block); grid: launch_moe_fp4_gather.
#define HIPASM_MOE_FP4_GATHER_KERNEL(NAME, WAVES, PARTS)                                                           \
  HIPASM_MOE_FP4_TARGET_CHECK;                                                                               \
  extern "C" __attribute__((global)) void NAME(uint8_t* xg, uint8_t* xgs, const uint8_t* xq, const uint8_t* xs, \
                                               const unsigned* sorted_token_ids, const unsigned* num_valid_ids, \
                                               unsigned tokens, unsigned dim, unsigned grid_blocks,          \
                                               unsigned max_blocks) {                                        \
    HIPASM_KERNEL_BODY((hipasm::kernels::moe_fp4_gather_kernel<WAVES, PARTS>), xg, xgs, xq, xs, sorted_token_ids,   \
                       num_valid_ids, tokens, dim, grid_blocks, max_blocks);                                 \
  }
