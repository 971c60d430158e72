// Multi-head latent attention decode (DeepSeek V2/V3 with the absorbed query; aiter's
// mla_decode_fwd, FlashMLA): H query heads attend one shared latent KV head whose rows are
// 576 elements (kv_lora_rank 512 + rope 64); the keys are the whole rows, the values their
// first 512 elements. 1 to 4 query tokens a sequence (speculative decoding), causal among
// them at the end of the KV; a batch of variable KV lengths in a paged cache.
//
//   out[t][h][d] = sum_j softmax_j(scale q[t][h] . kv[j]) kv[j][d],  d < 512,
//   j < kv_len - qo_len + (t - qo_start) + 1   (query token t of its sequence)
//
// Layouts (aiter's mla_decode_fwd, aiter/mla.py; bf16 as uint16_t bits):
//   q            [total_q][H][576] bf16 (q_fp8: e4m3fn, value = fp8 x q_scale)   qo_indptr [batch + 1] i32 (token offsets)
//   kv           [num_pages][page_size][576] bf16, or fp8 e4m3 (the target's: e4m3fnuz on
//                gfx942, e4m3fn on gfx950) with one f32 scale for the tensor (kv_scale)
//   kv_indptr    [batch + 1] i32: sequence b's pages are kv_indices[kv_indptr[b] .. kv_indptr[b + 1])
//   kv_indices   i32 page numbers; kv_last_page_lens [batch] i32: the tokens of each sequence's
//                last page (kv_len = (pages - 1) * page_size + last; no page: kv_len 0)
//   out          [total_q][H][512] bf16;  lse [total_q][H] f32 (natural log of the row's sum of
//                exp(scale q.k); -inf for a row that sees no key, whose out is 0)
//   split KV (num_splits > 1): part_out [total_q][num_splits][H][512] f32 (part_bf16: bf16) and part_lse
//                [total_q][num_splits][H] f32 (each split's normalized output and LSE; aiter's
//                logits / attn_lse), combined by the second kernel (mla_decode_combine)
//
// Work split: workgroup (split, sequence, row group) of C.waves waves takes 16 * waves query
// rows (row r of a sequence: token r / H, head r % H; H a multiple of 16, so each wave's 16
// rows are 16 heads of one token) against the split's KV blocks of 16 rows: every KV row is
// read from memory once for all of them. The blocks go to LDS by LDS-DMA (buffer_load_dword /
// dwordx4 ... lds, a row a wave at a time, the page's offset in soffset: rows may be anywhere),
// into a ring of prefetch + 1 buffers (prefetch blocks in flight while one is computed), one
// barrier a block; the page-table entries by a vector load, one block ahead (v_readlane gives
// the DMA's SGPRs); the split's f32 partials stored through the LDS (row-contiguous). Each wave, per
// block (v_mfma_f32_16x16x16_bf16; the LDS reads a few ahead of their MFMAs):
//   S^T = K Q^T    36 MFMAs: A = 16 KV rows x 16 dims (a ds_read_b128 feeds two: lane group g
//                  reads dims 32 c + 8 g .. + 7, and Q's registers hold the same dims), B = Q^T
//                  (the wave's 16 query rows, 72 VGPRs for the whole kernel); on gfx950 18
//                  v_mfma_f32_16x16x32_bf16 instead, one a ds_read_b128;
//   online softmax per query row (a lane holds 4 keys of one row; the row's max across the 4
//                  lane groups by two xor shuffles; base 2 with scale log2 e folded in; the
//                  reference max moves only when a score passes it by more than 8, attn_fwd's and
//                  paged_attn_decode's rule);
//   O^T += V^T P^T 32 MFMAs: A = V^T read transposed from the row-major block (lds_transpose.hpp's
//                  reads: ds_read_b64_tr_b16 on gfx950; on gfx942 four ds_read_b32 feed two
//                  tiles, the even and the odd dims of 32, split by v_perm_b32), B = P^T in
//                  bf16, the S^T accumulator's own layout.
// split_dims: 2 or 4 waves share 16 query rows (16 heads and one token: aiter's and the MLA
// challenge's shape, a wave of its own would leave three SIMDs idle) and split the dims: each
// computes S^T over 36 / waves 16-dim slices of the keys (ds_read_b64), the partial scores are
// summed through LDS in wave order (the same sum, so the same softmax, in every wave), and each
// accumulates 512 / waves dims of O.
// fp8 KV: the DMA brings the fp8 rows to an LDS ring of their own; each wave widens the rows it
// loaded to bf16 (exact) into a bf16 buffer (a second barrier a block), then the block runs as
// above. The scale multiplies the scores' scale and the output. split_dims on a target with the
// transposing reads and v_cvt_scalef32_pk_bf16_fp8 (gfx950) widens no rows: each wave reads its
// MFMA operands as fp8 from the ring and converts them in registers (exact): K 8 dims a lane
// (ds_read_b64) for a 16x16x32 MFMA, its S dims being its O dims plus 64 / waves rope dims; V^T
// by ds_read_b64_tr_b8 (rows 8 (grp / 2) .. + 7 of a dim, the group's 4 rows a dword of it).
// 16 rows a wave on such a target (bf16 Q) widens none either: K as fp8 from the ring (8 dims a
// lane, ds_read_b64) converted for a 16x16x32 bf16 MFMA, and O^T over block pairs as q_fp8's below
// (its tr_b8 V^T reads converted, P^T of both blocks in bf16) by v_mfma_f32_16x16x32_bf16.
// q_fp8 (gfx950, fp8 KV): fp8 Q (e4m3fn, its scale folded into the scores' by the
// launch), no widening: S^T from the fp8 ring by 4 v_mfma_f32_16x16x128_f8f6f4 (a lane 32 dims of
// a row, two ds_read_b128) and 2 v_mfma_f32_16x16x32_fp8_fp8 (the rope dims); P rounded to e4m3
// (p <= 2^8); O^T by v_mfma_f32_16x16x32_fp8_fp8 over two blocks (a lane group's 4 keys of each: one
// ds_read_b64_tr_b8 a tile whose lane pairs address either block's rows), run every second block.
// q_fp8 split_dims: S^T over the wave's 512 / waves dims by v_mfma_f32_16x16x128_f8f6f4 (two
// ds_read_b128 a lane) and a rope chunk of 32 by a 16x16x32 fp8 (4 waves: waves 2 and 3 against
// zeros); O^T by v_mfma_f32_16x16x32_fp8_fp8 on the V^T tr_b8 reads as they come, P^T in e4m3 in
// the lane group's dword of them (zeros in the other): no conversions in the loop.
//
// Device side:  HIPASM_MLA_DECODE_KERNEL(mla_h16, (hipasm::kernels::mla_decode_config{.waves = 1}))
//               HIPASM_MLA_DECODE_COMBINE_KERNEL(mla_combine)
// Host side:    launch_mla_decode (mla_decode_launch.hpp).
#pragma once
#include <cstdint>
#include <limits>
#include <string_view>

#include "../helpers/arrival.hpp"
#include "../helpers/lds_transpose.hpp"
#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"

namespace hipasm::kernels {

enum class mla_kv_cache { bf16, fp8 };

struct mla_decode_config {
  uint32_t waves = 1;       // waves a workgroup, 16 query rows each (1 to 8)
  // true: the waves share 16 query rows and split the dims instead (S: 36 / waves 16-dim
  // slices of the 576 and a sum of the waves' partial scores through LDS; O: 512 / waves dims
  // each): 2 or 4 waves
  bool split_dims = false;
  uint32_t page_size = 1;   // KV rows a page: a power of two, 1 to 1024
  uint32_t prefetch = 2;    // KV blocks in flight while one is computed (LDS buffers: prefetch + 1)
  mla_kv_cache kv_cache = mla_kv_cache::bf16;
  // true (gfx950, fp8 KV): Q in fp8 (OCP e4m3fn) with a per-tensor scale
  // (mla_decode_args::q_scale), both products on fp8 MFMAs straight from the fp8 rows the DMA
  // brought (no widening), P rounded to e4m3 (aiter's a8w8 form); false: bf16 Q
  bool q_fp8 = false;
  // true: the split partials part_out in bf16 ([total_q][num_splits][H][512], combined by
  // HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL's kernel): half the bytes the split's epilogue writes
  // and the combination reads (an output of 512 dims rounded once more, as the out it becomes);
  // (with split_dims, the fused combination reads them too)
  bool part_bf16 = false;

  static constexpr uint32_t dk = 576, dv = 512, bn = 16;  // key and value dims, KV rows a block
  constexpr uint32_t threads() const { return 64 * waves; }
  constexpr uint32_t rows() const { return split_dims ? 16 : 16 * waves; }
  constexpr uint32_t elem_bytes() const { return kv_cache == mla_kv_cache::bf16 ? 2 : 1; }
  constexpr uint32_t row_bytes() const { return dk * elem_bytes(); }
  // LDS rows. A DMA'd row: its wave instructions' bytes (256 a piece, the last one past the
  // row into padding: no lanes masked off) plus 16 (rows 4 dwords apart in the banks: the 16
  // rows of a K read); the fp8 path's widened bf16 rows: 1152 + 16. bf16 rows the MFMAs read
  // from the DMA ring (not split_dims): 1280 + 48, row r 16 ((r & 1) + (r >> 3)) bytes further
  // (row_skew): no bank conflicts in the K reads' ds_read_b128 lane groups (0-3 with 20-23, 4-7
  // with 16-19, ...: docs/timing-model.md, from pyhip's docs/mem_latency.md) nor in the V^T
  // reads' ds_read_b32 (rows 4 apart).
  static constexpr uint32_t dma_row_stride(uint32_t row_bytes) { return (row_bytes + 255) / 256 * 256 + 16; }
  static constexpr uint32_t wide_row_stride = dk * 2 + 16;
  // (split_dims: its K reads are ds_read_b64, which no skew of this form frees of conflicts)
  constexpr bool row_skew() const { return kv_cache == mla_kv_cache::bf16 && !split_dims; }
  constexpr uint32_t row_stride() const { return dma_row_stride(row_bytes()) + (row_skew() ? 32 : 0); }
  // q_fp8 on 16 rows a wave: the PV product of two blocks a fp8 MFMA (split_dims: fp8 Q widened
  // to bf16 in registers once, the fp8 split_dims path's MFMAs)
  constexpr bool pv_pairs() const { return q_fp8 && !split_dims; }
  // (pv_pairs: one more, the block whose PV waits for the next one's)
  constexpr uint32_t dma_buffers() const { return prefetch + 1 + (pv_pairs() ? 1 : 0); }
  // (fp8 on gfx950 allocates no bf16 buffer, bf16 Q on 16 rows a wave one more DMA buffer instead:
  // an upper bound there)
  constexpr uint32_t lds_bytes() const {
    return dma_buffers() * (bn * row_stride() + (pv_pairs() ? 64 : 0)) + (kv_cache == mla_kv_cache::fp8 && !pv_pairs() ? bn * wide_row_stride : 0) +
           (split_dims ? waves * 1024 : 0);
  }
};

namespace detail {
constexpr const char* mla_decode_config_error(const mla_decode_config& c) {
  if (c.waves < 1 || c.waves > 8) return "mla_decode: waves must be 1 to 8 (16 query rows each)";
  if (c.page_size < 1 || c.page_size > 1024 || (c.page_size & (c.page_size - 1)) != 0)
    return "mla_decode: page_size must be a power of two, 1 to 1024";
  if (c.prefetch < 1 || c.prefetch > 4) return "mla_decode: prefetch must be 1 to 4 blocks";
  if (c.split_dims && c.waves != 2 && c.waves != 4) return "mla_decode: split_dims takes 2 or 4 waves";
  if (c.q_fp8 && c.kv_cache != mla_kv_cache::fp8) return "mla_decode: q_fp8 takes kv_cache = mla_kv_cache::fp8";
  if (c.lds_bytes() > 160 * 1024) return "mla_decode: the KV block buffers exceed 160 KiB of LDS (lower prefetch)";
  return nullptr;
}
// q_fp8 takes gfx950: the OCP e4m3 MFMAs v_mfma_f32_16x16x128_f8f6f4 and v_mfma_f32_16x16x32_fp8_fp8
// (gfx942's fp8 MFMAs are fnuz, a different format) and the transposing read ds_read_b64_tr_b8.
constexpr bool mla_decode_fp8q_target_ok() {
  return active_target::desc.find("v_mfma_f32_16x16x128_f8f6f4") != nullptr && hipasm::detail::features().has_ds_read_tr;
}
constexpr uint32_t mla_log2(uint32_t x) {
  uint32_t r = 0;
  while ((1u << r) < x) ++r;
  return r;
}
}  // namespace detail

template <mla_decode_config C>
constexpr void mla_decode_body(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<float*> part_o,
                               arg<float*> part_lse, arg<const uint16_t*> q_ptr, arg<const void*> kv_ptr,
                               arg<const int*> qo_indptr, arg<const int*> kv_indptr, arg<const int*> kv_indices,
                               arg<const int*> kv_last, arg<unsigned> num_heads, arg<unsigned> num_splits,
                               arg<float> scale_log2, arg<float> kv_scale, arg<unsigned> kv_bytes,
                               arg<unsigned> num_indices, arg<unsigned*> counters, arg<unsigned> fused) {
  static_assert(detail::mla_decode_config_error(C) == nullptr,
                std::string_view(detail::mla_decode_config_error(C) ? detail::mla_decode_config_error(C) : ""));
  using dtype::u32;
  using dtype::i32;
  using dtype::f32;
  using dtype::u64;
  constexpr uint32_t W = C.waves, BN = C.bn, DK = C.dk, DV = C.dv, T = C.threads();
  constexpr bool SD = C.split_dims;
  constexpr uint32_t PEB = C.part_bf16 ? 2 : 4;     // a split partial's element bytes
  constexpr uint32_t NKS = SD ? 36 / W : 36;        // 16-dim slices of the keys a wave
  constexpr uint32_t NVT = SD ? 32 / W : 32;        // 16-dim tiles of O a wave
  constexpr uint32_t DVW = 16 * NVT;                // O dims a wave
  constexpr bool F8 = C.kv_cache == mla_kv_cache::fp8;
  constexpr bool TR = hipasm::detail::features().has_ds_read_tr;
  // S^T = K Q^T by v_mfma_f32_16x16x32_bf16 where the target has it (gfx950: twice the work of a
  // 16x16x16 in the same cycles), a 32-dim chunk an MFMA (not split_dims: its slices are 16 dims)
  constexpr bool K32 = !SD && active_target::desc.find("v_mfma_f32_16x16x32_bf16") != nullptr;
  // fp8 split_dims where the target has the transposing reads and the scaled converts (gfx950):
  // each wave converts the few fp8 operands it reads from the DMA ring to bf16 in registers (K
  // by ds_read_b32, V^T by ds_read_b64_tr_b8) instead of widening whole rows to a bf16 buffer:
  // no bf16 buffer, no second barrier a block, no LDS round trip before the MFMAs.
  constexpr bool DIRECT = F8 && SD && TR && hipasm::detail::features().has_mx_convert;
  // q_fp8: fp8 Q; S^T by 4 v_mfma_f32_16x16x128_f8f6f4 (dims 0-511) and 2 v_mfma_f32_16x16x32_fp8_fp8
  // (the rope dims), K read as fp8 from the DMA ring; O^T by v_mfma_f32_16x16x32_fp8_fp8 on P^T in
  // e4m3 (its second 4 keys zero) and V^T by ds_read_b64_tr_b8 (no widening, no second barrier)
  constexpr bool F8Q = C.pv_pairs();
  // q_fp8 split_dims (DIRECT's V^T reads): S^T by v_mfma_f32_16x16x128_f8f6f4 on the wave's
  // DVW dims of the fp8 rows and fp8 Q (two ds_read_b128 a lane) and a 16x16x32 fp8 on a rope
  // chunk; O^T by v_mfma_f32_16x16x32_fp8_fp8 on the raw tr_b8 V^T reads and P^T in e4m3
  constexpr bool QW = C.q_fp8 && SD;  // (S by fp8 MFMAs on fp8 Q, PV on P^T in e4m3)
  static_assert(!QW || DIRECT, "mla_decode q_fp8 split_dims: the target's fp8 converts and transposing reads (gfx950)");
  // bf16 Q, fp8 KV, 16 rows a wave where the target has the transposing reads and the scaled
  // converts (gfx950): no widened rows (no bf16 buffer, no second barrier, half the LDS reads):
  // K read as fp8 from the DMA ring (8 dims a lane, ds_read_b64) and converted in registers for a
  // v_mfma_f32_16x16x32_bf16; O^T over block pairs as q_fp8's (its V^T tr_b8 reads, converted)
  // by v_mfma_f32_16x16x32_bf16 on P^T in bf16: half the PV MFMA passes of a 16x16x16 a block
  constexpr bool DR = F8 && !SD && !C.q_fp8 && TR && hipasm::detail::features().has_mx_convert;
  constexpr bool PAIRS = F8Q || DR;  // the PV product of two blocks an MFMA
  constexpr bool WIDE = F8 && !DIRECT && !F8Q && !DR;  // fp8 rows widened to a bf16 buffer
  constexpr uint32_t QB = C.q_fp8 ? 1 : 2;     // Q's element bytes
  constexpr uint32_t ROWB = C.row_bytes();                                   // a KV row in memory
  constexpr uint32_t RS = C.row_stride();                                    // a DMA'd row in LDS
  constexpr uint32_t RSB = WIDE ? C.wide_row_stride : RS;                   // a row the MFMAs read
  constexpr bool SKEW = C.row_skew();  // row r of a block 16 ((r & 1) + (r >> 3)) bytes further
  constexpr uint32_t ROWS_PER_WAVE = BN / W;                                 // (W divides 16)
  static_assert(BN % W == 0 || W > BN, "");
  constexpr uint32_t P = C.page_size, LP = detail::mla_log2(P);
  constexpr uint32_t IDX = P >= BN ? 1 : BN / P;  // page-table entries a block
  constexpr uint32_t NB = C.prefetch + 1 + (PAIRS ? 1 : 0);  // (DR: within lds_bytes(), which counts a bf16 buffer)
  constexpr float NEG_INF = -std::numeric_limits<float>::infinity();
  constexpr uint32_t PAST = 0xffffe000u;  // an soffset past any KV buffer (the launch keeps kv_bytes below it)
  constexpr math_opts flush{.flush_denormals = true};
  static_assert(W == 1 || W == 2 || W == 4 || W == 8, "hipasm mla_decode: waves must be 1, 2, 4 or 8");
  static_assert(C.lds_bytes() <= active_target::desc.lds_bytes,
                "hipasm mla_decode: the KV block buffers exceed the target's LDS (gfx942: 64 KiB; lower prefetch)");
  J.workgroup_size(T);

  auto split = J.workgroup_id_x();
  auto seq = J.workgroup_id_y();
  auto rgrp = J.workgroup_id_z();
  auto tid = J.thread_id_x();
  auto w = wave_id(J);
  auto lane = J.vgpr<u32>(), col = J.vgpr<u32>(), grp = J.vgpr<u32>();
  lane = tid & 63u;
  col = lane & 15u;
  grp = lane >> 4;

  // ---- the sequence: its query rows and KV length -----------------------------------------
  auto boff = J.sgpr<u32>();
  boff = seq << 2;
  auto qse = J.sgpr<u32>(2).aligned(2), pse = J.sgpr<u32>(2).aligned(2), lastp = J.sgpr<u32>();
  J.s_load_dwordx2(qse, qo_indptr, boff);
  J.s_load_dwordx2(pse, kv_indptr, boff);
  J.s_load_dword(lastp, kv_last, boff);
  J.s_waitcnt(lgkmcnt(0));
  auto qlen = J.sgpr<u32>(), nrows = J.sgpr<u32>(), r0 = J.sgpr<u32>();
  qlen = qse[1] - qse[0];
  nrows = qlen * num_heads;
  r0 = rgrp * C.rows();
  J.If(r0 >= nrows, [&] { J.Return(); });
  auto npages = J.sgpr<u32>(), kvlen = J.sgpr<u32>();
  npages = pse[1] - pse[0];
  kvlen = select(npages == 0u, 0u, gpr<u32>(((npages - 1u) << LP) + lastp));
  // this split's blocks [kb0, kb1) of the sequence's ceil(kv_len / 16)
  auto nblk = J.sgpr<u32>(), per = J.sgpr<u32>(), kb0 = J.sgpr<u32>(), kb1 = J.sgpr<u32>();
  nblk = (kvlen + (BN - 1)) >> detail::mla_log2(BN);
  per = (nblk + num_splits - 1u) / num_splits;
  kb0 = min(split * per, nblk);
  kb1 = min(kb0 + per, nblk);
  auto kend = J.sgpr<u32>();  // the split's end key
  kend = min(kb1 << detail::mla_log2(BN), kvlen);

  // ---- this wave's 16 rows: token tok (of the sequence), heads h0 .. h0 + 15 ----------------
  auto wrow = J.sgpr<u32>(), tok = J.sgpr<u32>(), h0 = J.sgpr<u32>();
  if constexpr (SD) wrow = r0 + 0u;
  else wrow = r0 + (w << 4);
  tok = wrow / num_heads;
  h0 = wrow - tok * num_heads;
  // ---- the KV buffer and the page table ------------------------------------------------------
  auto KVb = make_buffer(J, kv_ptr, kv_bytes);
  auto nidx = J.sgpr<u32>();
  nidx = num_indices << 2;
  auto IB = make_buffer(J, kv_indices, nidx);
  // The page-table entries of 4 blocks by one vector load into a VGPR: lane l holds the entry
  // of key 16 b + l of the group's first block b (lanes 16 q .. + 15: block b + q's rows; every
  // lane of them the block's one entry when a page holds whole blocks; entries past the table
  // read 0, never used for a row). The group of the split's blocks 4 g .. 4 g + 3 is loaded
  // with the DMA of block 4 g - 4 (the first two before Q's loads), so each wait for a block's
  // DMA covers its entries and leaves the prefetch - 1 younger blocks' DMAs in flight (an entry
  // load one block ahead left one), but one at a group's first block (the wait the checker can
  // prove for the group's registers). Scalar loads (lgkmcnt: SMEM returns out of
  // order, and an LDS wait while one is in flight waits for it too) left a memory latency exposed
  // every block. The DMA takes this wave's rows' entries (rows w, w + W, ...) by v_readlane.
  constexpr uint32_t NE = IDX == 1 ? 1 : ROWS_PER_WAVE;
  auto pidx = J.sgpr<u32>(NE).named("pages");
  auto pv = J.vgpr<u32>().named("page_entries"), pn = J.vgpr<u32>().named("next_page_entries");
  auto read_pages = [&](const gpr<u32>& q16) {  // (block q of the group in pv: lanes q16 ..)
    if constexpr (IDX == 1) {
      pidx[0] = readlane(pv, q16);
    } else {
      for (uint32_t i = 0; i < NE; ++i) pidx[i] = readlane(pv, gpr<u32>(q16 + (w + W * i)));
    }
  };
  auto load_group = [&](const gpr<u32>& dst, const gpr<u32>& kg) {  // blocks kg .. kg + 3
    auto voff = J.vgpr<u32>();
    auto off = J.sgpr<u32>();
    voff = (((kg << detail::mla_log2(BN)) + lane) >> LP) << 2;
    off = pse[0] << 2;
    IB.load(dst, at(voff) + at(off));
  };
  {
    auto kg = J.sgpr<u32>();
    kg = kb0 + 0u;
    load_group(pv, kg);
    kg = kb0 + 4u;
    load_group(pn, kg);
  }
  // Q: the sequence's rows, sized to them (a wave past them loads zeros and stores nothing)
  auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
  nrec = nrows * (DK * QB);
  auto Qb = make_buffer(J, q_ptr, nrec);
  shift = qse[0] * num_heads * (DK * QB);
  Qb.shift_base(shift);
  // lane (col, grp): dims 32 c + 8 grp .. + 7 of row wrow + col in dwords 4 c .. 4 c + 3
  // (split_dims: dims 16 (NKS w + c) + 4 grp .. + 3 in dwords 2 c, 2 c + 1)
  // DIRECT: wave w's S dims are its O dims (DVW w .. + DVW - 1) in DVW / 32 chunks of 32 (a
  // 16x16x32 MFMA each) and 64 / W of the rope dims (512 + (64 / W) w ..): one more chunk of 32
  // (2 waves) or one slice of 16 (4 waves)
  constexpr uint32_t ROPE = 64 / W, DKC = DVW / 32 + (ROPE == 32 ? 1 : 0);
  constexpr bool ROPE16 = ROPE == 16;
  constexpr uint32_t QNC = DVW / 128;  // (QW: 128-dim chunks a wave)
  constexpr uint32_t NQ = F8Q ? 10 : QW ? 2 * QNC + 1 : DIRECT ? DKC + (ROPE16 ? 1 : 0) : SD ? NKS : DK / 32;  // Q's loads
  auto qv = J.vgpr<u32>(F8Q ? DK / 16 : QW ? 8 * QNC + 2 : SD ? 2 * NKS : DK / 8).aligned(4).named("q");
  // bf16 rows, 16 a wave, without transposing reads (gfx942): Q loaded row-contiguous (a load
  // 8 rows x 128 bytes: 8 lines on the CU's address path, not 16 rows x 64 bytes' 16), then
  // put in the MFMA layout in place through the LDS (after the first blocks' DMAs)
  constexpr bool QSTAGE = !F8 && !SD && !TR;
  {
    auto qoff = J.vgpr<u32>();
    if constexpr (F8Q) {
      // lane (col, grp): dims 128 c + 32 grp .. + 31 in dwords 8 c .. 8 c + 7 (c < 4: a 16x16x128
      // operand's 32 bytes, the K reads' order), rope dims 512 + 32 m + 8 grp .. + 7 in dwords
      // 32 + 2 m, + 1 (a 16x16x32 operand's 8)
      qoff = (col + wrow) * DK + (grp << 5);
      for (uint32_t c = 0; c < 4; ++c) {
        Qb.load(qv.slice(8 * c, 4), at(qoff) + static_cast<int64_t>(128 * c));
        Qb.load(qv.slice(8 * c + 4, 4), at(qoff) + static_cast<int64_t>(128 * c + 16));
      }
      qoff = (col + wrow) * DK + (grp << 3);
      for (uint32_t m = 0; m < 2; ++m) Qb.load(qv.slice(32 + 2 * m, 2), at(qoff) + static_cast<int64_t>(DV + 32 * m));
    } else if constexpr (DIRECT) {
      // lane (col, grp): dims 32 c + 8 grp .. + 7 of a chunk in dwords 4 c .. 4 c + 3
      static_assert(ROPE16 || ROPE == 32, "");
      if constexpr (QW) {
        // fp8: lane (col, grp) dims DVW w + 128 c + 32 grp .. + 31 in dwords 8 c .. + 7 (a
        // 16x16x128 operand's 32 bytes), then the rope chunk w % 2's dims 512 + 32 (w % 2) + 8 grp
        // .. + 7 (a 16x16x32 operand's 8; 4 waves: zeros in waves 2 and 3)
        qoff = (col + wrow) * DK + (grp << 5) + w * DVW;
        for (uint32_t c = 0; c < QNC; ++c) {
          Qb.load(qv.slice(8 * c, 4), at(qoff) + static_cast<int64_t>(128 * c));
          Qb.load(qv.slice(8 * c + 4, 4), at(qoff) + static_cast<int64_t>(128 * c + 16));
        }
        qoff = (col + wrow) * DK + (grp << 3) + ((w & 1u) << 5);
        if constexpr (W == 4) qoff = select(w < 2u, qoff, 0x80000000u);
        Qb.load(qv.slice(8 * QNC, 2), at(qoff) + static_cast<int64_t>(DV));
      } else {
      qoff = (col + wrow) * (DK * 2) + (grp << 4) + w * (DVW * 2);
      for (uint32_t c = 0; c < DVW / 32; ++c) Qb.load(qv.slice(4 * c, 4), at(qoff) + static_cast<int64_t>(64 * c));
      qoff = (col + wrow) * (DK * 2) + (grp << (ROPE16 ? 3 : 4)) + w * (ROPE * 2);
      Qb.load(qv.slice(4 * (DVW / 32), ROPE16 ? 2 : 4), at(qoff) + static_cast<int64_t>(DV * 2));
      }
    } else if constexpr (SD) {
      qoff = (col + wrow) * (DK * 2) + (grp << 3) + w * (32 * NKS);
      for (uint32_t c = 0; c < NKS; ++c) Qb.load(qv.slice(2 * c, 2), at(qoff) + static_cast<int64_t>(32 * c));
    } else if constexpr (QSTAGE) {
      // load 2 e + h: lane l takes row 2 (l / 8) + h, bytes 128 e + 16 (l % 8)
      qoff = (((lane >> 3) << 1) + wrow) * (DK * 2) + ((lane & 7u) << 4);
      for (uint32_t e = 0; e < DK / 64; ++e)
        for (uint32_t h = 0; h < 2; ++h)
          Qb.load(qv.slice(8 * e + 4 * h, 4), at(qoff) + static_cast<int64_t>(128 * e + DK * 2 * h));
    } else {
      qoff = (col + wrow) * (DK * 2) + (grp << 4);
      for (uint32_t c = 0; c < DK / 32; ++c) Qb.load(qv.slice(4 * c, 4), at(qoff) + static_cast<int64_t>(64 * c));
    }
  }
  // the last key + 1 this lane's row sees: kv_len - qlen + tok + 1, and the split's end
  auto lim = J.vgpr<i32>();
  {
    auto l1 = J.sgpr<i32>();
    l1 = kvlen.as<i32>() - qlen.as<i32>() + tok.as<i32>() + 1;
    l1 = min(l1, kend.as<i32>());
    lim = l1 - (grp << 2).as<i32>();  // key 4 grp + i of a block at k0 is seen iff k0 + i < lim
  }

  // ---- LDS: the DMA ring (and the fp8 path's two bf16 buffers) -----------------------------
  lds_pool pool(J);
  // (q_fp8: buffers 64 bytes further apart than their rows, so that a PV pair's V^T reads of the
  // two blocks' rows 4 grp .. + 3 take the two halves of the banks)
  constexpr uint32_t BSTR = BN * RS + (PAIRS ? 64 : 0);  // a DMA buffer's bytes
  const lds_ref ring = pool.alloc(NB * BSTR);
  constexpr lds_layout LB{.rows = BN, .cols = DK, .elem_bytes = 2, .row_pad = RSB - DK * 2};
  constexpr lds_layout LR{.rows = NB * BN, .cols = DK, .elem_bytes = 2, .row_pad = RSB - DK * 2};
  lds_ref wide = ring;
  if constexpr (WIDE) wide = pool.alloc(BN * RSB);
  lds_ref sx{};  // split_dims: the waves' partial scores, 1 KiB each
  if constexpr (SD) sx = pool.alloc(W * 1024);
  const lds_view KV(wide, F8 ? LB : LR);   // the bf16 rows the MFMAs read

  // Block kb's rows of this wave (w, w + W, ...) into DMA buffer `buf` (an SGPR, 0 .. NB - 1);
  // rows at or past the split's end load zeros (an offset past the buffer). Every wave issues
  // DMA_LOADS loads a block, whatever the block (constant wait counts). A row in pieces: 1 KiB
  // (buffer_load_dwordx4 ... lds, 16 bytes a lane) where the target has it and the row has that
  // many bytes left, else 256 (buffer_load_dword ... lds); the last piece's lanes past the row
  // fill the padding (their bytes are the next row's or zeros). M0 (the LDS address) is set once
  // a row: the pieces' offset: fields move both addresses (buffer.hpp's load_lds sets M0 a load).
  constexpr bool X4 = hipasm::detail::features().has_lds_dma_x4;
  constexpr uint32_t N1K = X4 ? ROWB / 1024 : 0;                       // 1 KiB pieces
  constexpr uint32_t N256 = (ROWB - 1024 * N1K + 255) / 256;          // 256-byte pieces after them
  constexpr uint32_t DMA_PER_ROW = N1K + N256;
  static_assert(1024 * N1K + 256 * N256 <= RS, "");
  auto lane4 = J.vgpr<u32>(), lane16 = J.vgpr<u32>();
  lane4 = lane << 2;
  lane16 = lane << 4;
  auto dma = [&](const gpr<u32>& kb, const gpr<u32>& buf) {
    auto k0 = J.sgpr<u32>(), lbase = J.sgpr<u32>();
    k0 = kb << detail::mla_log2(BN);
    lbase = buf * BSTR + ring.offset;
    builder& b = *J.self();
    for (uint32_t i = 0; i < ROWS_PER_WAVE; ++i) {
      auto rr = J.sgpr<u32>(), key = J.sgpr<u32>(), roff = J.sgpr<u32>();
      rr = w + W * i;
      key = k0 + rr;
      roff = ((pidx[IDX == 1 ? 0 : i] << LP) + (key & (P - 1))) * ROWB;
      roff = select(key < kend, roff, PAST);
      if constexpr (SKEW) {
        auto lr = J.sgpr<u32>();
        lr = rr * RS + (((rr & 1u) + (rr >> 3)) << 4);  // (rr < 16)
        J.s_add_u32(m0, lr, lbase);
      } else {
        J.s_mul_i32(m0, rr, static_cast<int32_t>(RS));
        J.s_add_u32(m0, m0, lbase);
      }
      for (uint32_t j = 0; j < DMA_PER_ROW; ++j) {
        const bool big = j < N1K;
        const uint32_t at_byte = big ? 1024 * j : 1024 * N1K + 256 * (j - N1K);
        modifiers mm;
        mm.offset = static_cast<int32_t>(at_byte);
        mm.offen = true;
        mm.lds = true;
        const hipasm::detail::O op = big ? hipasm::detail::feature_op("buffer_load_dwordx4", isa::f_lds_dma)
                                         : hipasm::detail::buffer_load_op(narrow::none, 1, true);
        b.emit(op, {hipasm::detail::as_arg((big ? lane16 : lane4).to_operand()), KVb.desc,
                    hipasm::detail::as_arg(roff.to_operand())}, mm);
      }
    }
  };
  constexpr uint32_t DMA_LOADS = ROWS_PER_WAVE * DMA_PER_ROW;

  // ---- state -----------------------------------------------------------------------------
  auto o = J.vgpr<f32>(4 * NVT).aligned(4).named("o");  // O^T: tile d, dims (DVW w) + 16 d + 4 grp + i
  o.fill(0.0f);
  auto m = J.vgpr<f32>().named("m"), l = J.vgpr<f32>().named("l");
  m = NEG_INF;
  l = 0.0f;
  auto sc = J.vgpr<f32>();  // the scores' scale (log2 e folded in; fp8: the KV scale too)
  if constexpr (F8) sc = scale_log2 * kv_scale;
  else sc = scale_log2 + 0.0f;

  auto kb = J.sgpr<u32>().named("kb"), buf = J.sgpr<u32>(), nbuf = J.sgpr<u32>(), rbuf = J.sgpr<u32>();
  auto s = J.vgpr<f32>(4).aligned(4), s2 = J.vgpr<f32>(4).aligned(4);
  auto pb = J.vgpr<u32>(DR ? 4 : 2).aligned(2);  // (DR: the two blocks' P^T in bf16)
  // q_fp8: the PV product of two blocks a 16x16x32 MFMA (k: 4 keys of each a lane group), run
  // at the pair's second block (the last one of an odd count alone, against zeros); pp: the
  // first block's p (f32: rescaled with O when the reference max moves), pbuf: its buffer
  auto pp = J.vgpr<f32>(PAIRS ? 4 : 1);
  auto pbuf = J.sgpr<u32>(), par = J.sgpr<u32>();
  if constexpr (PAIRS) pp.fill(0.0f);
  auto va = J.vgpr<u32>(2).aligned(2), va2 = J.vgpr<u32>(2).aligned(2);
  // (without transposing reads: v_perm_b32 selectors of the low and the high halves of two dwords)
  auto plo = J.sgpr<u32>(), phi = J.sgpr<u32>();
  if constexpr (!TR) {
    plo = 0x05040100u;
    phi = 0x07060302u;
  }

  // fp8: widen this wave's rows of DMA buffer buf to bf16 buffer rbuf (16 fp8 a lane and step)
  // Lane l takes row l % RPW of the wave's rows (w + W r) and the 16-byte chunks
  // l / RPW + (64 / RPW) k, k < STEPS (a chunk past the row's 36: masked off); three steps'
  // reads in flight before their conversions (exact: to_bf16x4) and writes.
  auto widen = [&] {
    if constexpr (F8) {
      constexpr uint32_t CH = DK / 16, RPW = ROWS_PER_WAVE, G = 64 / RPW, STEPS = (CH + G - 1) / G, BATCH = 3;
      auto sa = J.vgpr<u32>(), da = J.vgpr<u32>(), g = J.vgpr<u32>();
      {
        auto r = J.vgpr<u32>();
        r = (lane & (RPW - 1)) * W + w;
        g = lane >> detail::mla_log2(RPW);
        sa = (r + nbuf * BN) * RS + (g << 4) + ring.offset;
        da = (r + rbuf * BN) * RSB + (g << 5) + wide.offset;
      }
      auto raw = J.vgpr<u32>(4 * BATCH).aligned(4), wd = J.vgpr<u32>(8).aligned(4);
      for (uint32_t k0 = 0; k0 < STEPS; k0 += BATCH) {
        const uint32_t k1 = k0 + BATCH < STEPS ? k0 + BATCH : STEPS;
        auto step = [&](uint32_t k, auto&& body) {  // a step whose last chunks are past the row: masked
          if ((k + 1) * G > CH) J.If(g < CH - k * G, body);
          else body();
        };
        for (uint32_t k = k0; k < k1; ++k)
          step(k, [&] { J.ds_read_b128(raw.slice(4 * (k - k0), 4), sa, {.offset = static_cast<int32_t>(16 * G * k)}); });
        J.s_waitcnt(lgkmcnt(0));
        for (uint32_t k = k0; k < k1; ++k)
          step(k, [&] {
            for (int d = 0; d < 4; ++d)
              wd.slice(2 * d, 2) = to_bf16x4(raw[4 * (k - k0) + d].template as<dtype::fp8x4>()).template as<u32>();
            J.ds_write_b128(da, wd.slice(0, 4), {.offset = static_cast<int32_t>(32 * G * k)});
            J.ds_write_b128(da, wd.slice(4, 4), {.offset = static_cast<int32_t>(32 * G * k + 16)});
          });
      }
    }
  };

  // block kb (in KV view buffer rbuf): S, softmax, PV
  // LDS reads by raw ds instructions from per-lane byte addresses set once a block (their
  // offset: fields carry the chunk / tile), a few in flight ahead of the MFMAs that use them.
  // K: lane (col, grp) reads row col, bytes 64 c + 16 grp (dims 32 c + 8 grp ..) of chunk c.
  // V^T tile d: with ds_read_b64_tr_b16 (gfx950) lane s of group grp addresses row 4 grp + s / 4,
  // dims 16 d + 4 (s % 4) and receives rows 4 grp .. + 3 of dim 16 d + s; else a pair of tiles
  // d: four ds_read_b32 (rows 4 grp + n, dims 32 d + 2 col and + 1), the low halves joined into
  // tile 2 d's operand (its row col: dim 32 d + 2 col), the high ones into tile 2 d + 1's (a
  // third fewer instructions than four ds_read_u16 and two joins a tile).
  // K chunks, V^T tiles (pairs) a ring holds (q_fp8: all 6 chunks' reads at once, 8 tiles: a tile's
  // MFMA is 4 passes, its read's latency 3 of them)
  // (bf16 rows from the DMA ring without transposing reads (gfx942): 6 and 6, the K reads right
  // after a block's barrier meet the other waves' in the LDS)
  constexpr bool DEEP = !F8 && !SD && !TR;
  // (DR: 4 and 4, 2 dwords a chunk: bf16 Q's 72 VGPRs and O's 128 leave few)
  constexpr uint32_t KR = F8Q ? 6 : DEEP ? 6 : 4, VR = F8Q ? 8 : DEEP ? 6 : 4;
  auto kring = J.vgpr<u32>(QW ? 8 * QNC + 2 : (F8Q ? 8 : DR ? 2 : 4) * KR).aligned(4).named("kring");
  auto vraw = J.vgpr<u32>(TR ? 2 * VR : 4 * VR).aligned(2).named("vraw");
  // DIRECT: 4 fp8 (a dword) to 4 bf16 (two dwords; v_cvt_scalef32_pk_bf16_fp8 at scale 1, exact);
  // godd: the lanes of groups 1 and 3 (their V^T rows in the high dword of a tr_b8 read)
  // (DR: two of 4 dwords in turn, K's 8 dims of a chunk or V^T's 8 rows of a tile)
  auto kw = J.vgpr<u32>(DIRECT ? 4 : DR ? 8 : 1).aligned(4);
  auto vsel = J.vgpr<u32>();
  auto godd = J.sgpr<u64>();
  auto one = J.sgpr<u32>();
  if constexpr (DR) one = 0x3f800000u;
  if constexpr (DIRECT) {
    one = 0x3f800000u;
    auto g1 = J.vgpr<u32>();
    g1 = grp & 1u;
    J.v_cmp_ne_u32(godd, g1, 0u);
  }
  auto cvt4 = [&](const gpr<u32>& dst, const gpr<u32>& src) {
    if constexpr (DIRECT || DR) {
      modifiers hi;
      hi.op_sel = 1;  // (src0's high word)
      J.v_cvt_scalef32_pk_bf16_fp8(dst[0], src, one);
      J.v_cvt_scalef32_pk_bf16_fp8(dst[1], src, one, hi);
    }
  };
  auto compute = [&](auto&& after_k_reads) {
    auto kaddr = J.vgpr<u32>(), vaddr = J.vgpr<u32>(), kaddr2 = J.vgpr<u32>();
    if constexpr (PAIRS) {
      // K: lane (col, grp) the fp8 of Q's dims of row col (kaddr2: the rope dims; DR: kaddr
      // alone, dims 32 c + 8 grp .. + 7 of chunk c). V^T by
      // ds_read_b64_tr_b8: the lane pair (2 r, 2 r + 1) of a group addresses row 4 grp + r % 4
      // (of the pair's first block for r < 4, else of this one), dims 16 d + 8 (lane & 1): lane s
      // receives rows 4 grp .. + 3 of dim 16 d + s of the two blocks in bytes 0-3 and 4-7, P^T's
      // keys of its lane group (a block alone: the same rows twice, against P^T's zeros)
      if constexpr (DR) {
        kaddr = col * RS + rbuf * BSTR + (grp << 3) + wide.offset;
      } else {
        kaddr = col * RS + rbuf * BSTR + (grp << 5) + wide.offset;
        kaddr2 = col * RS + rbuf * BSTR + (grp << 3) + (DV + wide.offset);
      }
      auto l16 = J.vgpr<u32>(), vb = J.vgpr<u32>();
      auto b0 = J.sgpr<u32>();
      l16 = lane & 15u;
      b0 = select(par != 0u, pbuf, rbuf);
      vb = select(l16 < 8u, gpr<u32>(b0 + 0u), gpr<u32>(rbuf + 0u));
      vaddr = ((grp << 2) + ((l16 >> 1) & 3u)) * RS + vb * BSTR + ((l16 & 1u) << 3) + wide.offset;
    } else if constexpr (DIRECT) {
      // K: lane (col, grp) the fp8 of Q's dims of row col (kaddr2: the rope chunk or slice).
      // V^T: ds_read_b64_tr_b8 gives lane s of a group rows r0 .. r0 + 7 of dim 16 d + s
      // (r0 = 8 (grp / 2): lane s addresses row r0 + s / 2, dims + 8 (s % 2)); the group's rows
      // 4 grp .. + 3 are its dword grp % 2.
      if constexpr (QW) {
        kaddr = (col + rbuf * BN) * RS + (grp << 5) + w * DVW + wide.offset;
        kaddr2 = (col + rbuf * BN) * RS + (grp << 3) + ((w & 1u) << 5) + (DV + wide.offset);
      } else {
      kaddr = (col + rbuf * BN) * RS + (grp << 3) + w * DVW + wide.offset;
      kaddr2 = (col + rbuf * BN) * RS + (grp << (ROPE16 ? 2 : 3)) + w * ROPE + (DV + wide.offset);
      }
      auto l16 = J.vgpr<u32>();
      l16 = lane & 15u;
      vaddr = (((grp >> 1) << 3) + (l16 >> 1) + rbuf * BN) * RS + ((l16 & 1u) << 3) + w * DVW + wide.offset;
    } else if constexpr (SD) kaddr = (col + rbuf * BN) * RSB + (grp << 3) + w * (32 * NKS) + wide.offset;
    else kaddr = (col + rbuf * BN) * RSB + (grp << 4) + wide.offset;
    if constexpr (SKEW) kaddr = kaddr + (((col & 1u) + (col >> 3)) << 4);
    if constexpr (DIRECT || PAIRS) {
    } else if constexpr (TR) {
      auto l16 = J.vgpr<u32>();
      l16 = lane & 15u;
      vaddr = ((grp << 2) + (l16 >> 2) + rbuf * BN) * RSB + ((l16 & 3u) << 3) + wide.offset;
      if constexpr (SKEW) vaddr = vaddr + ((((l16 >> 2) & 1u) + (grp >> 1)) << 4);  // (row 4 grp + l16 / 4)
    } else {
      vaddr = ((grp << 2) + rbuf * BN) * RSB + (col << 2) + wide.offset;
      if constexpr (SKEW) vaddr = vaddr + ((grp >> 1) << 4);  // (rows 4 grp + n: n & 1 in the offset)
    }
    if constexpr (SD && !DIRECT) vaddr = vaddr + w * (DVW * 2);
    // V units: a tile (transposing reads) or a pair of tiles (ds_read_b32)
    constexpr uint32_t NK = F8Q ? 6 : DIRECT ? NQ : SD ? NKS : DK / 32, NV = TR ? NVT : NVT / 2;
    auto read_k = [&](uint32_t c) {
      if constexpr (F8Q) {  // (chunks 0-3: 32 bytes, two reads; 4, 5: the rope's 8 bytes)
        if (c < 4) {
          J.ds_read_b128(kring.slice(8 * (c % KR), 4), kaddr, {.offset = static_cast<int32_t>(128 * c)});
          J.ds_read_b128(kring.slice(8 * (c % KR) + 4, 4), kaddr, {.offset = static_cast<int32_t>(128 * c + 16)});
        } else {
          J.ds_read_b64(kring.slice(8 * (c % KR), 2), kaddr2, {.offset = static_cast<int32_t>(32 * (c - 4))});
        }
      } else if constexpr (DR) {
        J.ds_read_b64(kring.slice(2 * (c % KR), 2), kaddr, {.offset = static_cast<int32_t>(32 * c)});
      } else if constexpr (DIRECT) {
        if (c < DVW / 32) J.ds_read_b64(kring.slice(4 * (c % KR), 2), kaddr, {.offset = static_cast<int32_t>(32 * c)});
        else if (ROPE16) J.ds_read_b32(kring[4 * (c % KR)], kaddr2, {.offset = 0});
        else J.ds_read_b64(kring.slice(4 * (c % KR), 2), kaddr2, {.offset = 0});
      }
      else if constexpr (SD) J.ds_read_b64(kring.slice(4 * (c % KR), 2), kaddr, {.offset = static_cast<int32_t>(32 * c)});
      else J.ds_read_b128(kring.slice(4 * (c % KR), 4), kaddr, {.offset = static_cast<int32_t>(64 * c)});
    };
    auto read_v = [&](uint32_t d) {
      if constexpr (DIRECT || PAIRS) {
        J.ds_read_b64_tr_b8(vraw.slice(2 * (d % VR), 2), vaddr, {.offset = static_cast<int32_t>(16 * d)});
      } else if constexpr (TR) {
        J.ds_read_b64_tr_b16(vraw.slice(2 * (d % VR), 2), vaddr, {.offset = static_cast<int32_t>(32 * d)});
      } else {
        // (pair d: rows 4 grp + n, dims 32 d + 2 col and + 1, a dword each)
        for (uint32_t n = 0; n < 4; ++n)
          J.ds_read_b32(vraw[4 * (d % VR) + n], vaddr,
                        {.offset = static_cast<int32_t>(n * RSB + (SKEW ? 16 * (n & 1) : 0) + 64 * d)});
      }
    };
    constexpr uint32_t VPI = TR ? 1 : 4;  // LDS instructions a V^T tile
    if constexpr (QW) {
      for (uint32_t c = 0; c < QNC; ++c) {
        J.ds_read_b128(kring.slice(8 * c, 4), kaddr, {.offset = static_cast<int32_t>(128 * c)});
        J.ds_read_b128(kring.slice(8 * c + 4, 4), kaddr, {.offset = static_cast<int32_t>(128 * c + 16)});
      }
      J.ds_read_b64(kring.slice(8 * QNC, 2), kaddr2, {.offset = 0});
      after_k_reads();
      for (uint32_t c = 0; c < QNC; ++c) {
        J.s_waitcnt(lgkmcnt(2 * (QNC - 1 - c) + 1));
        J.v_mfma_f32_16x16x128_f8f6f4(c % 2 == 0 ? s : s2, kring.slice(8 * c, 8), qv.slice(8 * c, 8), 0);
      }
      J.s_waitcnt(lgkmcnt(0));
      if constexpr (QNC == 1) J.v_mfma_f32_16x16x32_fp8_fp8(s2, kring.slice(8 * QNC, 2), qv.slice(8 * QNC, 2), 0);
      else J.v_mfma_f32_16x16x32_fp8_fp8(s, kring.slice(8 * QNC, 2), qv.slice(8 * QNC, 2), s);
    } else {
    for (uint32_t c = 0; c + 1 < KR && c < NK; ++c) read_k(c);
    after_k_reads();  // (q_fp8: the next DMA under the K reads' latency)
    }
    for (uint32_t c = 0; c < (QW ? 0 : NK); ++c) {
      if (c + KR - 1 < NK) read_k(c + KR - 1);
      const uint32_t younger = (c + KR - 1 < NK ? KR - 1 : NK - 1 - c);
      auto& acc = c % 2 == 0 ? s : s2;
      if constexpr (F8Q) {  // (the younger chunks' reads: two a 128-dim chunk, one a rope chunk)
        uint32_t n = 0;
        for (uint32_t e = c + 1; e <= c + younger; ++e) n += e < 4 ? 2 : 1;
        J.s_waitcnt(lgkmcnt(n));
        if (c < 4) {
          auto kc8 = kring.slice(8 * (c % KR), 8);
          if (c < 2) J.v_mfma_f32_16x16x128_f8f6f4(acc, kc8, qv.slice(8 * c, 8), 0);
          else J.v_mfma_f32_16x16x128_f8f6f4(acc, kc8, qv.slice(8 * c, 8), acc);
        } else {
          J.v_mfma_f32_16x16x32_fp8_fp8(acc, kring.slice(8 * (c % KR), 2), qv.slice(32 + 2 * (c - 4), 2), acc);
        }
        continue;
      }
      J.s_waitcnt(lgkmcnt(younger));
      if constexpr (DR) {  // (the lane's 8 dims 32 c + 8 grp .. + 7, as Q's registers: the 16x16x32 operand's k = 8 grp ..)
        auto kb4 = kw.slice(4 * (c % 2), 4);
        cvt4(kb4.slice(0, 2), kring[2 * (c % KR)]);
        cvt4(kb4.slice(2, 2), kring[2 * (c % KR) + 1]);
        if (c < 2) J.v_mfma_f32_16x16x32_bf16(acc, kb4, qv.slice(4 * c, 4), 0);
        else J.v_mfma_f32_16x16x32_bf16(acc, kb4, qv.slice(4 * c, 4), acc);
        continue;
      }
      auto kc = kring.slice(4 * (c % KR), 4);
      if constexpr (DIRECT) {
        cvt4(kw.slice(0, 2), kring[4 * (c % KR)]);
        if (c + 1 == NK && ROPE16) {
          J.v_mfma_f32_16x16x16_bf16(acc, kw.slice(0, 2), qv.slice(4 * c, 2), acc);
        } else {
          cvt4(kw.slice(2, 2), kring[4 * (c % KR) + 1]);
          if (c < 2) J.v_mfma_f32_16x16x32_bf16(acc, kw, qv.slice(4 * c, 4), 0);
          else J.v_mfma_f32_16x16x32_bf16(acc, kw, qv.slice(4 * c, 4), acc);
        }
        continue;
      }
      if constexpr (SD) {
        if (c < 2) J.v_mfma_f32_16x16x16_bf16(acc, kc.slice(0, 2), qv.slice(2 * c, 2), 0);
        else J.v_mfma_f32_16x16x16_bf16(acc, kc.slice(0, 2), qv.slice(2 * c, 2), acc);
        continue;
      }
      if constexpr (K32) {  // (the lane's 8 dims 32 c + 8 grp .. + 7: the 16x16x32 operand's k = 8 grp ..)
        if (c < 2) J.v_mfma_f32_16x16x32_bf16(acc, kc, qv.slice(4 * c, 4), 0);
        else J.v_mfma_f32_16x16x32_bf16(acc, kc, qv.slice(4 * c, 4), acc);
        continue;
      }
      if (c < 2) J.v_mfma_f32_16x16x16_bf16(acc, kc.slice(0, 2), qv.slice(4 * c, 2), 0);
      else J.v_mfma_f32_16x16x16_bf16(acc, kc.slice(0, 2), qv.slice(4 * c, 2), acc);
      J.v_mfma_f32_16x16x16_bf16(acc, kc.slice(2, 2), qv.slice(4 * c + 2, 2), acc);
    }
    for (int i = 0; i < 4; ++i) s[i] = s[i] + s2[i];
    if constexpr (SD) {  // the waves' partial scores summed in wave order (the same sum in every wave)
      auto xa = J.vgpr<u32>();
      xa = lane16 + sx.offset;
      xa = xa + w * 1024u;
      J.ds_write_b128(xa, s.template as<u32>(), {.offset = 0});
      xa = lane16 + sx.offset;
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      auto part = J.vgpr<f32>(4 * W).aligned(4);
      for (uint32_t v = 0; v < W; ++v) J.ds_read_b128(part.slice(4 * v, 4).template as<u32>(), xa, {.offset = static_cast<int32_t>(1024 * v)});
      J.s_waitcnt(lgkmcnt(0));
      for (int i = 0; i < 4; ++i) {
        s[i] = part[i] + part[4 + i];
        for (uint32_t v = 2; v < W; ++v) s[i] = s[i] + part[4 * v + i];
      }
    }
    // O^T += V^T P^T
    auto pv = [&] {
      for (uint32_t d = 0; d < NV; ++d) {
        if (d + VR - 1 < NV) read_v(d + VR - 1);
        const uint32_t younger = (d + VR - 1 < NV ? VR - 1 : NV - 1 - d) * VPI;
        J.s_waitcnt(lgkmcnt(younger));
        if constexpr (F8Q || QW) {
          J.v_mfma_f32_16x16x32_fp8_fp8(o.slice(4 * d, 4), vraw.slice(2 * (d % VR), 2), pb, o.slice(4 * d, 4));
        } else if constexpr (DR) {  // (rows 4 grp .. + 3 of the pair's first block, then of this one: k = 8 grp ..)
          auto v4 = kw.slice(4 * (d % 2), 4);
          cvt4(v4.slice(0, 2), vraw[2 * (d % VR)]);
          cvt4(v4.slice(2, 2), vraw[2 * (d % VR) + 1]);
          J.v_mfma_f32_16x16x32_bf16(o.slice(4 * d, 4), v4, pb, o.slice(4 * d, 4));
        } else if constexpr (DIRECT) {
          J.v_cndmask_b32(vsel, vraw[2 * (d % VR)], vraw[2 * (d % VR) + 1], godd);
          cvt4(va, vsel);
          J.v_mfma_f32_16x16x16_bf16(o.slice(4 * d, 4), va, pb, o.slice(4 * d, 4));
        } else if constexpr (TR) {
          J.v_mfma_f32_16x16x16_bf16(o.slice(4 * d, 4), vraw.slice(2 * (d % VR), 2), pb, o.slice(4 * d, 4));
        } else {  // pair d: the low halves (even dims) to tile 2 d, the high halves to tile 2 d + 1
          auto r = vraw.slice(4 * (d % VR), 4);
          for (uint32_t h = 0; h < 2; ++h) {
            auto vh = h == 0 ? va : va2;
            J.v_perm_b32(vh[0], r[1], r[0], h == 0 ? plo : phi);
            J.v_perm_b32(vh[1], r[3], r[2], h == 0 ? plo : phi);
            J.v_mfma_f32_16x16x16_bf16(o.slice(4 * (2 * d + h), 4), vh, pb, o.slice(4 * (2 * d + h), 4));
          }
        }
      }
    };
    // scores of keys k0 + 4 grp + i, masked past the row's last key
    auto rel = J.vgpr<i32>();
    rel = lim - (kb << detail::mla_log2(BN)).as<i32>();
    for (int i = 0; i < 4; ++i) {
      s[i] = s[i] * sc;
      s[i] = select(rel > i, s[i], NEG_INF);
    }
    auto mx = J.vgpr<f32>();
    mx = max3(s[0], s[1], s[2]);
    mx = max(mx, s[3]);
    mx = max(mx, shuffle_xor(J, mx, 16, {.all_lanes_active = true}));
    mx = max(mx, shuffle_xor(J, mx, 32, {.all_lanes_active = true}));
    // the reference max moves when the row max passes it by more than 8 (p <= 2^8)
    auto grow = J.sgpr<u64>();
    auto mlim = J.vgpr<f32>();
    mlim = m + 8.0f;
    J.v_cmp_gt_f32(grow, mx, mlim);
    J.If((grow.lo() | grow.hi()) != 0u, [&] {
      auto mn = J.vgpr<f32>(), alpha = J.vgpr<f32>();
      mn = max(m, mx);
      alpha = exp2(select(m == NEG_INF, 0.0f, gpr<f32>(m - mn)), flush);  // (no key yet: O and l are 0)
      l = l * alpha;
      for (uint32_t i = 0; i < 4 * NVT; ++i) o[i] = o[i] * alpha;
      if constexpr (PAIRS)
        for (int i = 0; i < 4; ++i) pp[i] = pp[i] * alpha;  // (the pending block's p)
      m = mn;
    });
    // the first V^T tiles' reads under the softmax
    if constexpr (!PAIRS)
      for (uint32_t d = 0; d + 1 < VR && d < NV; ++d) read_v(d);
    auto nm = J.vgpr<f32>();
    nm = select(m == NEG_INF, 0.0f, gpr<f32>(0.0f - m));
    for (int i = 0; i < 4; ++i) s[i] = exp2(s[i] + nm, flush);  // (masked: 2^-inf = 0)
    l = l + ((s[0] + s[1]) + (s[2] + s[3]));
    if constexpr (F8Q) {
      // p <= 2^8 < 448, e4m3's largest (the reference max moves by 8 at most)
      modifiers hi;
      hi.op_sel = 4;  // op_sel:[0,0,1]: the high word (the low one kept)
      auto pk = [&](const gpr<u32>& d, auto&& x) {
        J.v_cvt_pk_fp8_f32(d, x[0], x[1]);
        J.v_cvt_pk_fp8_f32(d, x[2], x[3], hi);
      };
      auto last = J.sgpr<u32>();
      last = kb + 1u;
      J.If(par != 0u || last == kb1, [&] {
        for (uint32_t d = 0; d + 1 < VR && d < NV; ++d) read_v(d);
        J.If(par != 0u, [&] {
          pk(pb[0], pp);
          pk(pb[1], s);
        }, [&] {
          pk(pb[0], s);
          pb[1] = 0u;
        });
        pv();
      }, [&] {
        for (int i = 0; i < 4; ++i) pp[i] = s[i] + 0.0f;
      });
      return;
    } else if constexpr (DR) {
      // P^T of the pair's first block (pp) and this one in bf16; a block alone: zeros for the second
      auto last = J.sgpr<u32>();
      last = kb + 1u;
      J.If(par != 0u || last == kb1, [&] {
        for (uint32_t d = 0; d + 1 < VR && d < NV; ++d) read_v(d);
        J.If(par != 0u, [&] {
          pb[0] = cvt_bf16x2(pp[0], pp[1], bf16_round::nearest_even_finite).as<u32>();
          pb[1] = cvt_bf16x2(pp[2], pp[3], bf16_round::nearest_even_finite).as<u32>();
          pb[2] = cvt_bf16x2(s[0], s[1], bf16_round::nearest_even_finite).as<u32>();
          pb[3] = cvt_bf16x2(s[2], s[3], bf16_round::nearest_even_finite).as<u32>();
        }, [&] {
          pb[0] = cvt_bf16x2(s[0], s[1], bf16_round::nearest_even_finite).as<u32>();
          pb[1] = cvt_bf16x2(s[2], s[3], bf16_round::nearest_even_finite).as<u32>();
          pb[2] = 0u;
          pb[3] = 0u;
        });
        pv();
      }, [&] {
        for (int i = 0; i < 4; ++i) pp[i] = s[i] + 0.0f;
      });
      return;
    } else if constexpr (QW) {
      // P^T in e4m3 (p <= 2^8) in the dword of the lane group's V^T rows in the tr_b8 read (even
      // groups 0, odd 1), zeros in the other: a 16x16x32 fp8 MFMA a tile, no V conversion
      modifiers hi;
      hi.op_sel = 4;  // op_sel:[0,0,1]: the high word (the low one kept)
      auto t = J.vgpr<u32>(), zv = J.vgpr<u32>();
      J.v_cvt_pk_fp8_f32(t, s[0], s[1]);
      J.v_cvt_pk_fp8_f32(t, s[2], s[3], hi);
      zv = 0u;
      J.v_cndmask_b32(pb[0], t, zv, godd);
      J.v_cndmask_b32(pb[1], zv, t, godd);
    } else {
      pb[0] = cvt_bf16x2(s[0], s[1], bf16_round::nearest_even_finite).as<u32>();
      pb[1] = cvt_bf16x2(s[2], s[3], bf16_round::nearest_even_finite).as<u32>();
    }
    pv();
  };

  // ---- the loop: iteration i issues the DMA of block i and computes block kb = i - prefetch
  // (DMA buffer i % NB, the one block i - NB = kb - 1 (q_fp8: kb - 2, the PV pair before this one) was computed from: every wave is past that
  // compute at the iteration's barrier). The first prefetch blocks' DMAs are issued before the
  // loop; the DMAs of its last prefetch iterations are past the split's end (zeros, never read).
  J.If(kb0 < kb1, [&] {
    auto i = J.sgpr<u32>().named("i"), iend = J.sgpr<u32>(), inext = J.sgpr<u32>();
    i = kb0 + 0u;
    iend = kb1 + C.prefetch;
    kb = kb0 + 0u;
    nbuf = 0u;  // DMA buffer of block kb
    if constexpr (PAIRS) {
      par = 0u;  // (block kb - kb0 odd: the second of a PV pair)
      pbuf = 0u;
    }
    rbuf = 0u;  // KV view buffer of block kb (bf16 and DIRECT: nbuf; fp8 widened: 0)
    J.s_waitcnt(vmcnt(NQ + 1));  // the first group's page entries (the second's and Q's loads in flight)
    // the first prefetch blocks' DMAs (fresh buffers: no barrier; prefetch <= 4: the first group).
    // QSTAGE: only the first block's before the loop, the others' at its first iteration (before
    // that iteration's own): the address path, busy with Q's loads, brings the block the first
    // barrier waits for sooner
    constexpr bool DEFER = QSTAGE && C.prefetch >= 2 && C.prefetch <= 3;
    constexpr uint32_t NPRE = DEFER ? 1 : C.prefetch;
    auto q16 = J.sgpr<u32>();
    for (uint32_t p = 0; p < NPRE; ++p) {
      q16 = 16u * p;
      read_pages(q16);
      buf = p;
      dma(i, buf);
      i = i + 1u;
    }
    if constexpr (QSTAGE) {
      // Q's 128-byte columns e through the wave's 2 KiB of DMA buffer C.prefetch (no DMA writes
      // it before the loop's first barrier): row r at 128 r, its 16-byte piece p at
      // (p + 2 (r & 3)) % 8: neither the writes' (rows 2 (l / 8) + h) nor the reads' (rows col,
      // pieces 4 q + grp) 8-lane groups meet on a bank
      static_assert(16 * 128 * W <= BSTR, "");
      auto wa0 = J.vgpr<u32>(), wa1 = J.vgpr<u32>(), ra0 = J.vgpr<u32>(), ra1 = J.vgpr<u32>(), r = J.vgpr<u32>();
      auto slot = J.sgpr<u32>();
      slot = w * 2048u + (C.prefetch * BSTR + ring.offset);
      r = (lane >> 3) << 1;
      wa0 = (r << 7) + ((((lane & 7u) + ((r & 3u) << 1)) & 7u) << 4) + slot;
      r = r + 1u;
      wa1 = (r << 7) + ((((lane & 7u) + ((r & 3u) << 1)) & 7u) << 4) + slot;
      ra0 = (col << 7) + (((grp + ((col & 3u) << 1)) & 7u) << 4) + slot;
      ra1 = (col << 7) + (((grp + ((col & 3u) << 1) + 4u) & 7u) << 4) + slot;
      for (uint32_t e = 0; e < DK / 64; ++e) {
        const uint32_t younger = 2 * (DK / 64 - 1 - e) + NPRE * DMA_LOADS;
        J.s_waitcnt(vmcnt(younger < 63 ? younger : 63));
        J.ds_write_b128(wa0, qv.slice(8 * e, 4), {.offset = 0});
        J.ds_write_b128(wa1, qv.slice(8 * e + 4, 4), {.offset = 0});
        J.ds_read_b128(qv.slice(8 * e, 4), ra0, {.offset = 0});
        J.ds_read_b128(qv.slice(8 * e + 4, 4), ra1, {.offset = 0});
      }
      J.s_waitcnt(lgkmcnt(0));  // (before the first barrier: the loop's first DMA writes the buffer)
    }
    if constexpr (DEFER) {
      J.s_waitcnt(vmcnt(0));  // (block kb0's DMA, no younger one in flight)
      i = kb0 + C.prefetch;
    }
    buf = C.prefetch;
    J.While([&] { return i < iend; }, [&] {
      // block kb's DMA done: blocks kb + 1 .. i - 1's in flight (prefetch 1: nothing); a group's
      // entries, loaded before the DMA of the block 4 before its first, are older than those
      constexpr uint32_t ahead = (C.prefetch - 1) * DMA_LOADS;
      J.s_waitcnt(vmcnt(ahead < 63 ? ahead : 63));
      // QSTAGE: no DMA past the split's end (iterations i >= kb1): the last blocks wait for all
      if constexpr (QSTAGE) J.If(i > kb1, [&] { J.s_waitcnt(vmcnt(0)); });
      q16 = ((i - kb0) & 3u) << 4;
      J.If(q16 == 0u, [&] {  // block i starts a group: the next one's entries to pn
        // (loaded 4 blocks' DMAs ago; the wait the checker can prove: one DMA younger)
        // (QSTAGE: its DMAs conditional, the checker proves none younger; the DMA of block i - 1,
        // issued a block ago, has mostly landed)
        if constexpr (QSTAGE) J.s_waitcnt(vmcnt(0));
        else if constexpr (ahead > DMA_LOADS) J.s_waitcnt(vmcnt(DMA_LOADS));
        pv = pn + 0u;
        inext = i + 4u;
        load_group(pn, inext);
      });
      read_pages(q16);
      if constexpr (WIDE) {
        J.s_barrier();  // (every wave past its compute of block kb - 1, which read the bf16 rows)
        widen();
        J.s_waitcnt(lgkmcnt(0));
      }
      J.s_barrier();
      if constexpr (PAIRS) {
        compute([&] { dma(i, buf); });
      } else if constexpr (QSTAGE) {
        if constexpr (DEFER) {
          J.If(i == kb0 + C.prefetch, [&] {
            auto b1 = J.sgpr<u32>(), k1 = J.sgpr<u32>(), q1 = J.sgpr<u32>();
            for (uint32_t p = 1; p < C.prefetch; ++p) {
              q1 = 16u * p;
              read_pages(q1);
              b1 = p;
              k1 = kb0 + p;
              dma(k1, b1);
            }
            read_pages(q16);
          });
        }
        J.If(i < kb1, [&] { dma(i, buf); });
        compute([] {});
      } else {
        dma(i, buf);
        compute([] {});
      }
      i = i + 1u;
      kb = kb + 1u;
      buf = buf + 1u;
      buf = select(buf == NB, 0u, buf);
      nbuf = nbuf + 1u;
      nbuf = select(nbuf == NB, 0u, nbuf);
      if constexpr (PAIRS) {
        pbuf = rbuf + 0u;
        par = par ^ 1u;
      }
      if constexpr (!WIDE) rbuf = nbuf + 0u;  // (fp8 widened: the one bf16 buffer)
    });
  });

  // ---- epilogue: the row's sum over the 4 lane groups, O / l, LSE -----------------------------
  // The lane's O in units of 4 dims q < NVT (of its wave's DVW): with transposing reads tile q,
  // dims 16 q + 4 grp + i (o[4 q + i]); without, (pair e = q / 2, h = q % 2) dims 32 e + 8 grp +
  // 4 h + i, k = 4 h + i in tile 2 e + k % 2, row k / 2. A unit's f32 byte offset in the row:
  // (grp << UG) + uoff(q).
  constexpr uint32_t UG = TR ? 4 : 5;
  auto ureg = [&](uint32_t q, uint32_t i) {
    if constexpr (TR) return o[4 * q + i];
    const uint32_t k = 4 * (q % 2) + i;
    return o[4 * (2 * (q / 2) + k % 2) + k / 2];
  };
  auto uoff = [](uint32_t q) { return TR ? 64 * q : 128 * (q / 2) + 16 * (q % 2); };
  auto lt = J.vgpr<f32>(), inv = J.vgpr<f32>(), lse = J.vgpr<f32>();
  lt = l + shuffle_xor(J, l, 16, {.all_lanes_active = true});
  lt = lt + shuffle_xor(J, lt, 32, {.all_lanes_active = true});
  inv = select(lt > 0.0f, rcp(lt, flush), 0.0f);  // (l >= 1 when a key was seen)
  if constexpr (F8) inv = inv * kv_scale;
  lse = log2(lt, flush);  // (0: -inf)
  lse = select(lt > 0.0f, gpr<f32>((m + lse) * 0.69314718055994530942f), NEG_INF);
  auto rrow = J.vgpr<u32>();
  rrow = col + wrow;  // the lane's row of the sequence
  // fused split combination: one wave combines the split partials of the 16 rows heads h0 ..
  // h0 + 15 of token tt (of the batch), four rows at a time (lane: row 4 q + grp, dims 64 j +
  // 4 col .. + 3 of load j: a load's lanes 4 rows x 256 contiguous bytes), CS splits' loads in
  // flight together, folded in split order (the combination kernel's sum: deterministic);
  // lse -inf (no key) weighs 0.
  auto combine_rows = [&](gpr<u32> tt_, gpr<u32> h0_, gpr<u32> q0, gpr<u32> q1) {
    constexpr uint32_t CS = 4;
    constexpr float LOG2E = 1.44269504088896340736f;
    auto base = J.sgpr<u32>(), recs = J.sgpr<u32>();
    base = (tt_ * num_splits) * num_heads + h0_;  // (token tt, split 0, head h0)'s partial row
    recs = ((num_splits - 1u) * num_heads + 16u) * (DV * PEB);
    auto Cb = make_buffer(J, part_o, recs);
    Cb.shift_base(base * (DV * PEB));
    recs = ((num_splits - 1u) * num_heads + 16u) << 2;
    auto CLb = make_buffer(J, part_lse, recs);
    CLb.shift_base(base << 2);
    auto obase = J.sgpr<u32>();
    obase = tt_ * num_heads + h0_;
    auto Ob = make_buffer(J, o_ptr, 16u * (DV * 2));
    Ob.shift_base(obase * (DV * 2));
    auto Lb = make_buffer(J, lse_ptr, 64u);
    Lb.shift_base(obase << 2);
    auto x = J.vgpr<f32>(32 * CS).aligned(4), acc = J.vgpr<f32>(32).aligned(4), ls = J.vgpr<f32>(CS);
    auto cm = J.vgpr<f32>(), cl = J.vgpr<f32>();
    auto voff = J.vgpr<u32>(), loff = J.vgpr<u32>(), crow = J.vgpr<u32>();
    auto q = J.sgpr<u32>(), sp = J.sgpr<u32>(), sk = J.sgpr<u32>(), so = J.sgpr<u32>(), lo = J.sgpr<u32>();
    q = q0 + 0u;
    J.While([&] { return q < q1; }, [&] {
      acc.fill(0.0f);
      cm = NEG_INF;
      cl = 0.0f;
      crow = (q << 2) + grp;
      voff = (crow << (PEB == 4 ? 11 : 10)) + (col << (PEB == 4 ? 4 : 3));
      loff = crow << 2;
      sp = 0u;
      J.While([&] { return sp < num_splits; }, [&] {
        for (uint32_t k = 0; k < CS; ++k) {
          sk = sp + k;
          so = select(sk < num_splits, gpr<u32>(sk * num_heads * (DV * PEB)), 0x80000000u);
          lo = select(sk < num_splits, gpr<u32>((sk * num_heads) << 2), 0x80000000u);
          CLb.load(ls[k], at(loff) + at(lo), {.sc1 = true});
          for (uint32_t j = 0; j < 8; ++j) {
            if constexpr (PEB == 4) Cb.load(x.slice(32 * k + 4 * j, 4), at(voff) + at(so) + static_cast<int64_t>(256 * j), {.sc1 = true});
            else Cb.load(x.slice(32 * k + 4 * j, 2), at(voff) + at(so) + static_cast<int64_t>(128 * j), {.sc1 = true});
          }
        }
        J.s_waitcnt(vmcnt(0));
        if constexpr (PEB == 2) {  // (4 bf16 in 2 dwords to 4 f32, the high ones first: in place)
          auto xu = x.template as<u32>();
          for (uint32_t i = 0; i < 32 * CS; i += 4) {
            xu[i + 3] = xu[i + 1] & 0xffff0000u;
            xu[i + 2] = xu[i + 1] << 16;
            xu[i + 1] = xu[i] & 0xffff0000u;
            xu[i] = xu[i] << 16;
          }
        }
        for (uint32_t k = 0; k < CS; ++k) {
          sk = sp + k;
          J.If(sk < num_splits, [&] {
            auto mn = J.vgpr<f32>(), ms = J.vgpr<f32>(), a = J.vgpr<f32>(), b = J.vgpr<f32>();
            mn = max(cm, ls[k]);
            ms = select(mn == NEG_INF, 0.0f, mn);  // (no split with a key yet: both weights 0)
            a = exp2((cm - ms) * LOG2E, flush);
            b = exp2((ls[k] - ms) * LOG2E, flush);
            cl = cl * a + b;
            for (uint32_t i = 0; i < 32; ++i) acc[i] = acc[i] * a + x[32 * k + i] * b;
            cm = mn + 0.0f;
          });
        }
        sp = sp + CS;
      });
      auto inv = J.vgpr<f32>(), lv = J.vgpr<f32>();
      inv = select(cl > 0.0f, rcp(cl, flush), 0.0f);
      auto ov = J.vgpr<u32>(2), ooff = J.vgpr<u32>();
      ooff = (crow << 10) + (col << 3);
      for (uint32_t j = 0; j < 8; ++j) {
        ov[0] = cvt_bf16x2(acc[4 * j] * inv, acc[4 * j + 1] * inv, bf16_round::nearest_even_finite).template as<u32>();
        ov[1] = cvt_bf16x2(acc[4 * j + 2] * inv, acc[4 * j + 3] * inv, bf16_round::nearest_even_finite).template as<u32>();
        Ob.store(ov, at(ooff) + static_cast<int64_t>(128 * j));
      }
      lv = select(cl > 0.0f, gpr<f32>(cm + log(cl, flush)), NEG_INF);
      loff = select(col == 0u, gpr<u32>(crow << 2), 0x80000000u);
      Lb.store(lv, at(loff));
      q = q + 1u;
    });
  };
  constexpr uint32_t SRS = 256, SREG = 16 * SRS;  // (the f32 partial's LDS staging, below)
  // The one-split output's buffers (O [token][H][512] bf16, LSE) and the lane's offset in O.
  struct out_buffers { buffer O, L; gpr<u32> off; };
  auto make_out = [&] {
    auto Ob = make_buffer(J, o_ptr, nrows * (DV * 2));
    auto Lb = make_buffer(J, lse_ptr, nrows * 4u);
    auto sh = J.sgpr<u32>();
    sh = qse[0] * num_heads;
    Ob.shift_base(sh * (DV * 2));
    Lb.shift_base(sh << 2);
    auto ooff = J.vgpr<u32>();
    ooff = rrow * (DV * 2) + (grp << (UG - 1));
    if constexpr (SD) ooff = ooff + w * (DVW * 2);
    return out_buffers{Ob, Lb, ooff};
  };
  // The split partial's buffers: [token][split][H][512] of PEB-byte elements and [token][split][H]
  // f32; the wave's rows are heads h0 .. h0 + 15 of token tok (rows past the sequence's: dropped by
  // the V# range). tt: the token's row.
  struct part_buffers { buffer O, L; gpr<u32> tt; };
  auto make_part = [&] {
    auto tt = J.sgpr<u32>(), pbase = J.sgpr<u32>(), recs = J.sgpr<u32>();
    tt = qse[0] + tok;
    pbase = (tt * num_splits + split) * num_heads + h0;  // the wave's first (token, split, head) row
    recs = select(tok < qlen, 16u * DV * PEB, 0u);
    auto Pb = make_buffer(J, part_o, recs);
    Pb.shift_base(pbase * (DV * PEB));
    recs = select(tok < qlen, 64u, 0u);
    auto PLb = make_buffer(J, part_lse, recs);
    PLb.shift_base(pbase << 2);
    return part_buffers{Pb, PLb, tt};
  };
  // The LSE store's offset of row `row` (4 bytes a row) in its buffer: one store a row (lane group
  // 0; with split_dims wave 0), the other lanes' dropped by the V# range
  auto lse_off = [&](auto row) {
    auto off = J.vgpr<u32>();
    off = select(grp == 0u, gpr<u32>(row << 2), 0x80000000u);
    if constexpr (SD) J.If(w != 0u, [&] { off = 0x80000000u; });
    return off;
  };
  // fused (split_dims only, the launch checks): the last split to write these 16 rows
  // combines them (helpers/arrival.hpp's memory order: sc1 stores and loads, the stores
  // complete before the count); tt: the token's row
  auto fused_tail = [&](gpr<u32> tt) {
    if constexpr (SD) J.If(fused != 0u, [&] {
      auto cnt = J.vgpr<u32>();
      cnt = ((tt * num_heads + h0) >> 4) << 2;  // (one counter a token's 16 heads)
      {
        // the workgroup counts once (its waves share the 16 rows), and each of its waves then
        // combines 4 of them: a quarter of the loads' round trips of one wave doing all 16
        static_assert(W == 4 || W == 2, "");
        J.s_waitcnt(vmcnt(0));
        J.s_barrier();  // (every wave's part written)
        auto one = J.vgpr<u32>(), old = J.vgpr<u32>().allow_undefined(), xa = J.vgpr<u32>();
        auto arrived = J.sgpr<u32>();
        xa = sx.offset;
        J.If(w == 0u, [&] {
          one = 1u;
          J.If(lane == 0u, [&] { J.global_atomic_add(old, cnt, one, counters, {.sc1 = true}); });
          J.s_waitcnt(vmcnt(0));
          J.If(lane == 0u, [&] { J.ds_write_b32(xa, old, {.offset = 0}); });
          J.s_waitcnt(lgkmcnt(0));
        });
        J.s_barrier();
        J.ds_read_b32(old, xa, {.offset = 0});
        J.s_waitcnt(lgkmcnt(0));
        J.v_readfirstlane_b32(arrived, old);
        J.If(arrived == num_splits - 1u, [&] {
          auto q0 = J.sgpr<u32>(), q1 = J.sgpr<u32>();
          q0 = w * (4u / W);
          q1 = q0 + (4u / W);
          combine_rows(tt, h0, q0, q1);
          J.If(w == 0u, [&] {
            auto zero = J.vgpr<u32>();
            zero = 0u;
            J.If(lane == 0u, [&] { J.global_store_dword(cnt, zero, counters, {.sc1 = true}); });
          });
        });
      }
    });
  };
  if constexpr (PEB == 2) {
    // part_bf16: O / l to bf16 once for both the one-split output and the bf16 partial (the
    // same values; a conversion in each path doubled what the compiler builds), 4 units at a
    // time, each group's stores (a uniform branch to the output's or the partial's) leaving
    // while the next group converts
    const out_buffers out = make_out();
    auto Ob = out.O, Lb = out.L;
    auto ooff = out.off;
    const part_buffers part = make_part();
    auto Pb = part.O, PLb = part.L;
    constexpr bool STAGE = W * SREG <= NB * BN * RS;
    constexpr uint32_t BRS = 128;
    auto wa = J.vgpr<u32>(4), ra = J.vgpr<u32>(4), poff = J.vgpr<u32>();
    if constexpr (STAGE) {
      // Through the LDS as the f32 partial (below), in bf16 rows of 128 bytes: row r's 8-byte
      // unit k at unit (k + f(r)) % 16, f(r) = 8 ((r >> 1) & 1) + 2 (r >> 2): no 16-lane group
      // of the writes (16 rows, one unit) or of the reads (rows 4 j .. + 3, units 4 m .. + 3)
      // meets on a bank
      J.s_waitcnt(vmcnt(0));  // (the DMAs past the split's end still write the ring)
      J.s_barrier();          // (every wave past its last compute)
      auto rot = J.vgpr<u32>(), wbase = J.vgpr<u32>();
      rot = ((col << 2) & 8u) + ((col >> 2) << 1);
      wbase = col * BRS + w * SREG + ring.offset;
      for (uint32_t t = 0; t < 4; ++t) wa[t] = wbase + ((((grp << (UG - 4)) + (uoff(t) / 16)) + rot) & 15u) * 8u;
      rot = (lane >> 2) + ((lane << 2) & 8u);
      wbase = (lane & 3u) * BRS + w * SREG + ring.offset;
      for (uint32_t j = 0; j < 4; ++j) ra[j] = wbase + ((rot + 2 * j) & 15u) * 8u;  // (rows l % 4 + 4 j)
      poff = (lane & 3u) * (DV * 2) + ((lane >> 2) << 3);
    } else {
      poff = col * (DV * 2) + (grp << (UG - 1));
    }
    if constexpr (SD) poff = poff + w * (DVW * 2);
    auto ob = J.vgpr<u32>(8).aligned(2), pr = J.vgpr<u32>(8).aligned(2);
    for (uint32_t g = 0; g < NVT / 4; ++g) {
      for (uint32_t t = 0; t < 4; ++t) {
        const uint32_t q = 4 * g + t;
        ob[2 * t] = cvt_bf16x2(ureg(q, 0) * inv, ureg(q, 1) * inv, bf16_round::nearest_even_finite).template as<u32>();
        ob[2 * t + 1] = cvt_bf16x2(ureg(q, 2) * inv, ureg(q, 3) * inv, bf16_round::nearest_even_finite).template as<u32>();
      }
      J.If(num_splits == 1u, [&] {
        for (uint32_t t = 0; t < 4; ++t) Ob.store(ob.slice(2 * t, 2), at(ooff) + static_cast<int64_t>(uoff(4 * g + t) / 2));
      }, [&] {
        if constexpr (STAGE) {
          for (uint32_t t = 0; t < 4; ++t) J.ds_write_b64(wa[t], ob.slice(2 * t, 2), {.offset = 0});
          // (a wave's LDS accesses are in order: the reads see the writes, the next group's
          // writes come after these reads)
          for (uint32_t j = 0; j < 4; ++j)
            J.ds_read_b64(pr.slice(2 * j, 2), ra[j], {.offset = static_cast<int32_t>(4 * BRS * j)});
          J.s_waitcnt(lgkmcnt(0));
          // (a lane's 4 dims in 8 bytes: a store's lanes 4 rows x 128 contiguous bytes)
          for (uint32_t j = 0; j < 4; ++j)
            Pb.store(pr.slice(2 * j, 2), at(poff) + static_cast<int64_t>(4 * DV * 2 * j + 128 * g), {.sc1 = true});
        } else {
          for (uint32_t t = 0; t < 4; ++t)
            Pb.store(ob.slice(2 * t, 2), at(poff) + static_cast<int64_t>(uoff(4 * g + t) / 2), {.sc1 = true});
        }
      });
    }
    J.If(num_splits == 1u, [&] {
      Lb.store(lse, at(lse_off(rrow)));
    }, [&] {
      PLb.store(lse, at(lse_off(col)), {.sc1 = true});
      fused_tail(part.tt);
    });
  } else {
    J.If(num_splits == 1u, [&] {
      const out_buffers out = make_out();
      auto Ob = out.O, Lb = out.L;
      auto ooff = out.off;
      auto ov = J.vgpr<u32>(2);
      for (uint32_t q = 0; q < NVT; ++q) {
        ov[0] = cvt_bf16x2(ureg(q, 0) * inv, ureg(q, 1) * inv, bf16_round::nearest_even_finite).template as<u32>();
        ov[1] = cvt_bf16x2(ureg(q, 2) * inv, ureg(q, 3) * inv, bf16_round::nearest_even_finite).template as<u32>();
        Ob.store(ov, at(ooff) + static_cast<int64_t>(uoff(q) / 2));
      }
      Lb.store(lse, at(lse_off(rrow)));
    }, [&] {
      const part_buffers part = make_part();
      auto Pb = part.O, PLb = part.L;
      auto tt = part.tt;
      auto poff = J.vgpr<u32>();
      // Through the LDS, 4 tiles (64 dims) at a time, so that a store's lanes write 4 rows x 256
      // contiguous bytes (8 lines) instead of 16 rows x 64 (16 lines: the CU's address path
      // takes a line at a time). The wave's 16 rows x 256 bytes at the ring's start, row r's
      // 16-byte chunk k at chunk (k + f(r)) % 16, f(r) = 2 (r & 3) (+ (r >> 2) & 1 without
      // transposing reads: its units' chunks are 2 grp + ..., not grp + ...); a read lane l takes
      // rows l % 4 + 4 j, chunk l / 4: neither the writes' nor the reads' 8-lane groups meet on a
      // bank (rows 272 bytes apart, unrotated, met two to a bank in both).
      if constexpr (W * SREG <= NB * BN * RS) {
        J.s_waitcnt(vmcnt(0));  // (the DMAs past the split's end still write the ring)
        J.s_barrier();          // (every wave past its last compute)
        auto wa = J.vgpr<u32>(4), ra = J.vgpr<u32>(2), rot = J.vgpr<u32>(), wbase = J.vgpr<u32>();
        rot = (col & 3u) << 1;
        if constexpr (!TR) rot = rot + ((col >> 2) & 1u);
        wbase = col * SRS + w * SREG + ring.offset;
        // (unit 4 g + t's chunk: (grp << (UG - 4)) + uoff(t) / 16)
        for (uint32_t t = 0; t < 4; ++t) wa[t] = wbase + ((((grp << (UG - 4)) + (uoff(t) / 16)) + rot) & 15u) * 16u;
        rot = (lane & 3u) << 1;
        wbase = (lane & 3u) * SRS + w * SREG + ring.offset;
        ra[0] = wbase + (((lane >> 2) + rot) & 15u) * 16u;  // (rows l % 4 + 4 j, j even)
        if constexpr (!TR) ra[1] = wbase + (((lane >> 2) + rot + 1u) & 15u) * 16u;  // (j odd)
        poff = (lane & 3u) * (DV * 4) + ((lane >> 2) << 4);
        if constexpr (SD) poff = poff + w * (DVW * 4);
        auto pw = J.vgpr<f32>(16).aligned(4), pr = J.vgpr<f32>(16).aligned(4);
        for (uint32_t g = 0; g < NVT / 4; ++g) {
          for (uint32_t t = 0; t < 4; ++t) {
            for (uint32_t i = 0; i < 4; ++i) pw[4 * t + i] = ureg(4 * g + t, i) * inv;
            J.ds_write_b128(wa[t], pw.slice(4 * t, 4).template as<u32>(), {.offset = 0});
          }
          // (a wave's LDS accesses are in order: the reads see the writes, the next group's
          // writes come after these reads)
          for (uint32_t j = 0; j < 4; ++j)
            J.ds_read_b128(pr.slice(4 * j, 4).template as<u32>(), ra[TR ? 0 : j % 2], {.offset = static_cast<int32_t>(4 * SRS * j)});
          J.s_waitcnt(lgkmcnt(0));
          for (uint32_t j = 0; j < 4; ++j)
            Pb.store(pr.slice(4 * j, 4), at(poff) + static_cast<int64_t>(4 * DV * 4 * j + 256 * g), {.sc1 = true});
        }
      } else {
        auto pv = J.vgpr<f32>(4);
        poff = col * (DV * 4) + (grp << UG);
        if constexpr (SD) poff = poff + w * (DVW * 4);
        for (uint32_t q = 0; q < NVT; ++q) {
          for (uint32_t i = 0; i < 4; ++i) pv[i] = ureg(q, i) * inv;
          Pb.store(pv, at(poff) + static_cast<int64_t>(uoff(q)), {.sc1 = true});
        }
      }
      PLb.store(lse, at(lse_off(col)), {.sc1 = true});
      fused_tail(tt);
    });
  }
}

// The kernel's entry: mla_decode_body, but nothing for a q_fp8 configuration on a target without
// its fp8 MFMAs (the macro's static_assert reports it, once)
template <mla_decode_config C>
constexpr void mla_decode_entry(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<float*> part_o,
                                arg<float*> part_lse, arg<const uint16_t*> q_ptr, arg<const void*> kv_ptr,
                                arg<const int*> qo_indptr, arg<const int*> kv_indptr, arg<const int*> kv_indices,
                                arg<const int*> kv_last, arg<unsigned> num_heads, arg<unsigned> num_splits,
                                arg<float> scale_log2, arg<float> kv_scale, arg<unsigned> kv_bytes,
                                arg<unsigned> num_indices, arg<unsigned*> counters, arg<unsigned> fused) {
  if constexpr (!C.q_fp8 || detail::mla_decode_fp8q_target_ok())
    mla_decode_body<C>(J, o_ptr, lse_ptr, part_o, part_lse, q_ptr, kv_ptr, qo_indptr, kv_indptr, kv_indices, kv_last,
                       num_heads, num_splits, scale_log2, kv_scale, kv_bytes, num_indices, counters, fused);
}

// The split combination: workgroup (head block, token) of 4 waves, G waves a head (G = 4 with 16
// or more splits, 2 with 2 to 15, else 1: mla_decode_combine_waves_per_head), a lane 8 of the 512
// dims (4 lane .. + 3 and 256 + 4 lane .. + 3: a load's lanes cover whole lines). Each wave folds
// splits sub, sub + G, ... (SB of them a round, their loads in flight together) as
// out = sum_s e^(lse_s - M) part_s / sum_s e^(lse_s - M); the head's first wave folds the G waves'
// (M, sum, out) through LDS. Splits with lse -inf (no key) weigh 0; a row with none: out 0, lse
// -inf. (A wave a head over every split left 16 rounds of load latency in a row at 64 splits, on
// as few CUs as heads / 4; 4 waves a head below 16 splits were slower than 2 on 128-head rows:
// a round of 8 splits per wave leaves most of their loads past num_splits.)
inline constexpr uint32_t mla_decode_combine_g4_from = 16, mla_decode_combine_g2_from = 2;  // split counts
// (bf16 partials: a wave a head over 2 splits, both loads in flight together, with half the
// workgroups; 2 waves a head from 3: a wave a head was slower at 8 splits)
inline constexpr uint32_t mla_decode_combine_b16_g2_from = 3;
constexpr uint32_t mla_decode_combine_waves_per_head(uint32_t num_splits, bool part_bf16 = false) {
  return num_splits >= mla_decode_combine_g4_from                                                     ? 4
         : num_splits >= (part_bf16 ? mla_decode_combine_b16_g2_from : mla_decode_combine_g2_from) ? 2
                                                                                                     : 1;
}
// the combination's workgroups along x (the grid is x by total_q); part_bf16: the kernel of
// HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL
constexpr uint32_t mla_decode_combine_groups(uint32_t num_heads, uint32_t num_splits, bool part_bf16 = false) {
  return (num_heads * mla_decode_combine_waves_per_head(num_splits, part_bf16) + 3) / 4;
}
// PB16: bf16 partials (mla_decode_config::part_bf16), a lane dims 8 lane .. + 7 (one 16-byte
// load a split)
template <bool PB16 = false>
constexpr void mla_decode_combine_body(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<const float*> part_o,
                                       arg<const float*> part_lse, arg<unsigned> num_heads, arg<unsigned> num_splits) {
  using dtype::u32;
  using dtype::f32;
  constexpr uint32_t DV = 512, EB = PB16 ? 2 : 4;  // (EB: a partial's element bytes)
  constexpr float NEG_INF = -std::numeric_limits<float>::infinity();
  constexpr float LOG2E = 1.44269504088896340736f;
  constexpr math_opts flush{.flush_denormals = true};
  J.workgroup_size(256);
  auto hb = J.workgroup_id_x(), tq = J.workgroup_id_y();
  auto tid = J.thread_id_x();
  auto w = wave_id(J);
  auto lane = J.vgpr<u32>();
  lane = tid & 63u;
  auto glog = J.sgpr<u32>(), hlog = J.sgpr<u32>(), gsz = J.sgpr<u32>(), head = J.sgpr<u32>(), sub = J.sgpr<u32>();
  constexpr uint32_t G4 = mla_decode_combine_g4_from, G2 = PB16 ? mla_decode_combine_b16_g2_from : mla_decode_combine_g2_from;
  glog = select(num_splits >= G4, 2u, gpr<u32>(select(num_splits >= G2, 1u, 0u)));
  hlog = select(num_splits >= G4, 0u, gpr<u32>(select(num_splits >= G2, 1u, 2u)));  // (log2 of 4 / G)
  gsz = select(num_splits >= G4, 4u, gpr<u32>(select(num_splits >= G2, 2u, 1u)));
  head = (hb << hlog) + (w >> glog);
  sub = w & (gsz - 1u);
  auto row = J.sgpr<u32>(), recs = J.sgpr<u32>();
  row = tq * num_heads + head;  // of out / lse
  recs = select(head < num_heads, gpr<u32>(num_splits * num_heads * (DV * EB)), 0u);  // (a wave past the heads: none)
  auto Pb = make_buffer(J, part_o, recs);
  auto sh = J.sgpr<u32>();
  sh = (tq * num_splits * num_heads + head) * (DV * EB);
  Pb.shift_base(sh);
  recs = select(head < num_heads, gpr<u32>(num_splits * num_heads * 4u), 0u);
  auto PLb = make_buffer(J, part_lse, recs);
  sh = (tq * num_splits * num_heads + head) << 2;
  PLb.shift_base(sh);
  // SB of the wave's splits a round (splits past num_splits: offsets past the V#s, lse 0 and ignored)
  constexpr int SB = 8;
  auto acc = J.vgpr<f32>(8).aligned(4), x = J.vgpr<f32>(PB16 ? 4 : 8 * SB).aligned(4);
  auto xb = J.vgpr<u32>(PB16 ? 4 * SB : 4).aligned(4);  // (PB16: a split's 8 bf16 in 4 dwords)
  acc.fill(0.0f);
  auto m = J.vgpr<f32>(), l = J.vgpr<f32>(), ls = J.vgpr<f32>(SB);
  m = NEG_INF;
  l = 0.0f;
  // fold (m2, l2, x2 scaled by e^m2) into (m, l, acc) where m2 is finite
  auto fold = [&](gpr<f32> m2, gpr<f32> l2, auto xi) {
    J.If(m2 > NEG_INF, [&] {
      auto mn = J.vgpr<f32>(), a = J.vgpr<f32>(), b = J.vgpr<f32>();
      mn = max(m, m2);
      a = exp2((m - mn) * LOG2E, flush);  // (m -inf: 0)
      b = exp2((m2 - mn) * LOG2E, flush);
      l = l * a + l2 * b;
      for (int i = 0; i < 8; ++i) acc[i] = acc[i] * a + xi(i) * b;
      m = mn;
    });
  };
  auto s = J.sgpr<u32>(), sk = J.sgpr<u32>(), poff = J.sgpr<u32>(), loff = J.sgpr<u32>();
  auto voff = J.vgpr<u32>(), zero = J.vgpr<u32>();
  auto one = J.vgpr<f32>();
  voff = lane << 4;  // (dims 4 lane .. + 3 and 256 + 4 lane .. + 3: each load 8 whole lines; PB16: 8 lane .. + 7)
  zero = 0u;
  one = 1.0f;
  s = sub + 0u;
  J.While([&] { return s < num_splits; }, [&] {
    for (int k = 0; k < SB; ++k) {
      sk = s + (gsz * static_cast<uint32_t>(k));
      poff = select(sk < num_splits, gpr<u32>(sk * num_heads * (DV * EB)), 0x80000000u);
      loff = select(sk < num_splits, gpr<u32>(sk * num_heads * 4u), 0x80000000u);
      PLb.load(ls[k], at(zero) + at(loff));
      if constexpr (PB16) {
        Pb.load(xb.slice(4 * k, 4), at(voff) + at(poff));
      } else {
        Pb.load(x.slice(8 * k, 4), at(voff) + at(poff));
        Pb.load(x.slice(8 * k + 4, 4), at(voff) + at(poff) + (DV * 2));
      }
    }
    J.s_waitcnt(vmcnt(0));
    for (int k = 0; k < SB; ++k) {
      sk = s + (gsz * static_cast<uint32_t>(k));
      if constexpr (PB16)
        J.If(sk < num_splits, [&] {
          fold(ls[k], one, [&](int i) {
            return i % 2 ? (xb[4 * k + i / 2] & 0xffff0000u).template as<f32>() : (xb[4 * k + i / 2] << 16u).template as<f32>();
          });
        });
      else
        J.If(sk < num_splits, [&] { fold(ls[k], one, [&](int i) { return x[8 * k + i]; }); });
    }
    s = s + (gsz * static_cast<uint32_t>(SB));
  });
  // the G waves of a head: each's (m, l, acc) to LDS, the first wave folds the others'
  J.If(glog != 0u, [&] {
    lds_pool pool(J);
    const lds_ref red = pool.alloc(4 * (DV * 4 + 16));
    constexpr uint32_t RW = DV * 4 + 16;  // a wave's region: acc (lane 32 bytes), then m and l
    auto wa = J.vgpr<u32>();
    auto ml = J.vgpr<f32>(2).aligned(2);
    wa = (lane << 5) + red.offset;
    wa = wa + w * RW;
    J.ds_write_b128(wa, acc.slice(0, 4).template as<u32>(), {.offset = 0});
    J.ds_write_b128(wa, acc.slice(4, 4).template as<u32>(), {.offset = 16});
    auto ma = J.vgpr<u32>();
    ma = w * RW + (DV * 4) + red.offset;
    ml[0] = m + 0.0f;
    ml[1] = l + 0.0f;
    J.If(lane == 0u, [&] { J.ds_write_b64(ma, ml.template as<u32>(), {.offset = 0}); });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    J.If(sub == 0u, [&] {
      auto y = J.vgpr<f32>(8).aligned(4), ml2 = J.vgpr<f32>(2).aligned(2);
      for (uint32_t j = 1; j < 4; ++j) {
        J.If(gsz > j, [&] {
          J.ds_read_b128(y.slice(0, 4).template as<u32>(), wa, {.offset = static_cast<int32_t>(RW * j)});
          J.ds_read_b128(y.slice(4, 4).template as<u32>(), wa, {.offset = static_cast<int32_t>(RW * j + 16)});
          J.ds_read_b64(ml2.template as<u32>(), ma, {.offset = static_cast<int32_t>(RW * j)});
          J.s_waitcnt(lgkmcnt(0));
          fold(ml2[0], ml2[1], [&](int i) { return y[i]; });
        });
      }
    });
  });
  J.If(sub != 0u || head >= num_heads, [&] { J.Return(); });
  auto inv = J.vgpr<f32>(), lse = J.vgpr<f32>();
  inv = select(l > 0.0f, rcp(l, flush), 0.0f);
  auto Ob = make_buffer(J, o_ptr, DV * 2);
  Ob.shift_base(row * (DV * 2));
  auto ov = J.vgpr<u32>(4).aligned(4);
  for (int i = 0; i < 4; ++i)
    ov[i] = cvt_bf16x2(acc[2 * i] * inv, acc[2 * i + 1] * inv, bf16_round::nearest_even_finite).as<u32>();
  auto oo = J.vgpr<u32>();
  if constexpr (PB16) {
    oo = lane << 4;
    Ob.store(ov, at(oo));
  } else {
    oo = lane << 3;
    Ob.store(ov.slice(0, 2), at(oo));
    Ob.store(ov.slice(2, 2), at(oo) + static_cast<int64_t>(DV));
  }
  lse = select(l > 0.0f, gpr<f32>(m + log(l, flush)), NEG_INF);
  auto Lb = make_buffer(J, lse_ptr, 4u);
  Lb.shift_base(row << 2);
  auto lo = J.vgpr<u32>();
  lo = select(lane == 0u, 0u, 0x80000000u);
  Lb.store(lse, at(lo));
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME of configuration CFG (a parenthesized mla_decode_config);
// arguments in the order of mla_decode_body (see mla_decode_launch.hpp).
// A q_fp8 configuration built for a target other than gfx950: a compile error on this line.
#define HIPASM_MLA_DECODE_KERNEL(NAME, CFG)                                                                            \
  static_assert(::hipasm::kernels::detail::mla_decode_config_error(CFG) == nullptr, /* (at the user's line) */       \
                std::string_view(::hipasm::kernels::detail::mla_decode_config_error(CFG)                             \
                                     ? ::hipasm::kernels::detail::mla_decode_config_error(CFG)                       \
                                     : ""));                                                                         \
  static_assert(!::hipasm::device_pass || !(CFG).q_fp8 || ::hipasm::kernels::detail::mla_decode_fp8q_target_ok(),   \
                "mla_decode q_fp8: the target has no OCP e4m3 MFMA (v_mfma_f32_16x16x128_f8f6f4, gfx950 only; "      \
                "gfx942's fp8 is fnuz)");                                                                            \
  extern "C" __attribute__((global)) void NAME(uint16_t* o, float* lse, float* part_o, float* part_lse,                 \
                                               const uint16_t* q, const void* kv, const int* qo_indptr,                 \
                                               const int* kv_indptr, const int* kv_indices, const int* kv_last,         \
                                               unsigned num_heads, unsigned num_splits, float scale_log2,               \
                                               float kv_scale, unsigned kv_bytes, unsigned num_indices,                 \
                                               unsigned* counters, unsigned fused) {                                    \
    constexpr auto fn = &::hipasm::kernels::mla_decode_entry<CFG>;                                                    \
    HIPASM_KERNEL_BODY(fn, o, lse, part_o, part_lse, q, kv, qo_indptr, kv_indptr, kv_indices, kv_last, num_heads,    \
                       num_splits, scale_log2, kv_scale, kv_bytes, num_indices, counters, fused);                     \
  }
// The split combination kernel NAME (one per code object suffices: it has no configuration).
#define HIPASM_MLA_DECODE_COMBINE_KERNEL(NAME)                                                                         \
  extern "C" __attribute__((global)) void NAME(uint16_t* o, float* lse, const float* part_o, const float* part_lse,     \
                                               unsigned num_heads, unsigned num_splits) {                              \
    constexpr auto fn = &::hipasm::kernels::mla_decode_combine_body<false>;                                           \
    HIPASM_KERNEL_BODY(fn, o, lse, part_o, part_lse, num_heads, num_splits);       \
  }
// The combination kernel NAME of bf16 partials (configurations with part_bf16; the part_o
// argument's bytes are bf16).
#define HIPASM_MLA_DECODE_COMBINE_BF16_KERNEL(NAME)                                                                    \
  extern "C" __attribute__((global)) void NAME(uint16_t* o, float* lse, const float* part_o, const float* part_lse,     \
                                               unsigned num_heads, unsigned num_splits) {                              \
    constexpr auto fn = &::hipasm::kernels::mla_decode_combine_body<true>;                                            \
    HIPASM_KERNEL_BODY(fn, o, lse, part_o, part_lse, num_heads, num_splits);                                         \
  }
