// The library's flash attention forward: O = softmax(scale * Q K^T) V per head, bf16 Q/K/V/O (or
// f16: config dtype; or fp8 Q/K/V on gfx950: see fp8 below), f32 log-sum-exp, online softmax,
// variable sequence lengths, GQA/MQA, causal or not.
//
//   // a .hip file compiled by hipasm_add_code_object:
//   HIPASM_ATTN_FWD_KERNEL(my_attn, (hipasm::kernels::attn_fwd_config{.head_dim = 128, .causal = true}))
//   // host (hipasm-sim or a real MI300, the same call): launch_attn_fwd (attn_fwd_launch.hpp)
//
// Layout (flash-attention's / aiter's varlen API): the sequences of a batch are packed along
// the token axis; Q and O are [total_q, num_q_heads, head_dim], K and V [total_k, num_kv_heads,
// head_dim] (row-major, of the dtype), LSE [num_q_heads, total_q] f32 (natural log of the row's sum of
// exp(scale * s)). Sequence b is tokens cu_seqlens_q[b] .. cu_seqlens_q[b + 1] - 1 (and the
// same for k). Query head h reads kv head h / (num_q_heads / num_kv_heads).
//
// Causal masks are aligned bottom-right (flash-attention >= 2.1 and aiter, for seqlen_q !=
// seqlen_k): query i of a sequence sees keys j <= i + seqlen_k - seqlen_q. When seqlen_q >
// seqlen_k the first seqlen_q - seqlen_k queries see no key: their output is 0 and their LSE
// -inf (log of an empty sum). A sequence with seqlen_k = 0 gives the same for every query.
// With top_left the mask is aligned top-left (aiter's mask type 1): query i sees keys j <= i
// (every query sees key 0 when seqlen_k > 0).
//
// Logit soft-capping (Gemma 2; config soft_cap > 0): each score s = scale * q.k becomes
// soft_cap * tanh(s / soft_cap) before the mask and the softmax (and the LSE is of those):
// 6 VALU a score (math.hpp's tanh to an absolute 2^-22, {.absolute_error}; the relative form
// costs 16 and the softmax of scores of order cap does not need it).
//
// Schedule: one workgroup = `waves` waves, 32 queries each (BM = 32 * waves queries of one head of
// one sequence); grid (num_q_heads, grid_y, batch): without a causal mask workgroup (h, y, b)
// computes one query tile (grid_y = q_tiles = ceil(max_seqlen_q / BM)); with it, in the order
// longest first (aiter's fmha_v3_fwd pairs a short and a long tile per workgroup instead: equal
// work, but its last round of workgroups runs on part of the device; longest first, the shortest
// tiles fill the last round; 8 waves with up to 8 tiles a head: an XCD takes its heads in groups
// of about the workgroups it runs at once, longest first within a group: a head's tiles run
// together and read K and V once into the XCD's L2). Q is loaded and O stored in whole rows
// through LDS (a lane's own query row in the MFMA layout would make every load and store touch 32
// cache lines). Each wave
// keeps its Q rows in VGPRs and computes S^T = K Q^T with v_mfma_f32_32x32x8_bf16 (keys are the
// MFMA's rows, so each lane holds the scores of one query: the row max and sum are per-lane work
// and one exchange between the two lane halves), then O^T += V^T P^T (P^T is the S^T accumulator
// converted to bf16 in place: no data movement). K tiles go to LDS by DMA (copy_tile, XOR swizzled
// rows); V tiles through VGPRs, transposed per lane (transpose_per_lane) and written as V^T rows,
// so one ds_read_b128 feeds two MFMAs. Both are double-buffered, one barrier per tile, and the
// loop is software-pipelined (see step): QK of tile t runs with the softmax of tile t - 1 between
// its MFMAs and PV of tile t - 1 with the softmax of tile t, so the VALU work issues in the matrix
// core's shadow (at 8 waves, 253 VGPRs: two waves per SIMD). The MFMA's k order is permuted (as in
// gemm_bf16.hpp): for the QK^T products lane half h reads dims 16p + 8h .. 16p + 8h + 7 of both
// operands; for PV, V^T's columns are stored with bits 2 and 3 of the key index swapped so that a
// b128 read gives the keys the S^T accumulator's registers hold.
//
// gfx950 (MI355X; as aiter's gfx950 fmha_v3_fwd): the double-K MFMA v_mfma_f32_32x32x16_bf16
// for both products; V tiles by 16-byte LDS-DMA as they are in memory (K's layout) and read as
// V^T by ds_read_b64_tr_b16 (no transpose in VGPRs, no V^T writes); P by v_cvt_pk_bf16_f32. The
// double-rate MFMAs make QK^T as short as PV, so 20 of a tile's 32 exponentials run beside
// QK^T (the softmax tail) instead of PV (the head). With 8 waves the two waves of a SIMD
// ping-pong half an iteration apart (one's QK^T beside the other's PV and softmax head; three
// K and V buffers in gfx950's 160 KiB of LDS; see step).
//
// f16 (dtype = f16): the f16 MFMAs (v_mfma_f32_32x32x8_f16; gfx950 v_mfma_f32_32x32x16_f16), the
// bf16 ones' lane layouts; P (<= 256, see softmax_head) and O rounded to nearest even
// (detail::attn_pack2: gfx950 v_cvt_pk_f16_f32, gfx942 v_cvt_f16_f32 and its SDWA high-half form).
//
// fp8 (gfx950; config dtype = attn_dtype::fp8, HIPASM_ATTN_FWD_FP8_KERNEL): OCP e4m3fn Q/K/V
// with per-tensor f32 descales, bf16 O. Both products on v_mfma_f32_32x32x64_f8f6f4 (a lane
// half's 32 k of an operand are 32 consecutive dims of Q and K, read as two b128: the MFMA's k
// order permuted alike for A and B); V^T by ds_read_b64_tr_b8 (see the V^T addresses); P rounded
// to e4m3 by v_cvt_pk_fp8_f32 (p <= 2^8 < 448: the reference max moves by 2^8 at most), its sum
// l in f32 from the unrounded p (the LSE exact to f32). The launch folds the q and k descales
// into the softmax scale; v's multiplies 1 / l.
//
// Softmax in base 2: c = scale * log2(e) (the launch computes it), p = 2^(s c - m c) by a bare
// v_exp_f32 (argument <= 0), the running max m and sum l per query; tiles past the last one
// fully inside the mask (the causal diagonal, the seqlen_k tail) are masked by a comparison.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "attn_varlen.hpp"
#include "gemm_bf16.hpp"  // detail::gemm_tile_layout

namespace hipasm::kernels {

struct attn_fwd_config {
  uint32_t head_dim = 128;  // 64 or 128
  bool causal = false;      // causal mask, aligned bottom-right (or top-left: top_left)
  bool top_left = false;    // causal: query i sees keys j <= i (not j <= i + seqlen_k - seqlen_q)
  attn_dtype dtype = attn_dtype::bf16;  // Q, K, V and O: bf16 or f16; or fp8 Q, K, V (OCP e4m3fn with
                                        // per-tensor f32 descales, gfx950 only; HIPASM_ATTN_FWD_FP8_KERNEL)
  uint32_t waves = 8;       // waves per workgroup, 32 queries each
  uint32_t bn = 64;         // keys per tile (a multiple of 32)
  uint32_t xcds = 8;        // XCDs the dispatcher deals workgroups to (MI300X: 8; 1: no remap)
  float soft_cap = 0;       // > 0: logit soft-capping (Gemma 2), scores s -> soft_cap tanh(s / soft_cap)

  constexpr uint32_t threads() const { return 64 * waves; }
  constexpr uint32_t bm() const { return 32 * waves; }
  constexpr uint32_t q_tiles(uint32_t max_seqlen_q) const { return (max_seqlen_q + bm() - 1) / bm(); }
  constexpr uint32_t grid_y(uint32_t max_seqlen_q) const {
    return q_tiles(max_seqlen_q) > 0 ? q_tiles(max_seqlen_q) : 1;
  }
  // K and V^T, two buffers each (the 64 KiB check; gfx950 with 8 waves takes three each, in 160 KiB)
  constexpr uint32_t elem_bytes() const { return dtype == attn_dtype::fp8 ? 1 : 2; }
  constexpr uint32_t lds_bytes() const { return 2 * 2 * bn * head_dim * elem_bytes(); }
};

namespace detail {

constexpr const char* attn_fwd_config_error(const attn_fwd_config& c) {
  if (c.head_dim != 64 && c.head_dim != 128) return "attn_fwd: head_dim must be 64 or 128";
  if (c.waves == 0 || c.waves > 16) return "attn_fwd: 1 to 16 waves";
  if (c.xcds == 0 || c.xcds > 64) return "attn_fwd: xcds (XCDs the workgroups are dealt to) must be 1 to 64";
  if (c.bn != 32 && c.bn != 64 && c.bn != 128) return "attn_fwd: bn (keys per tile) must be 32, 64 or 128";
  if (c.top_left && !c.causal) return "attn_fwd: top_left aligns the causal mask: it needs causal = true";
  if (!(c.soft_cap >= 0) || c.soft_cap > 1e30f) return "attn_fwd: soft_cap must be 0 (off) or positive and finite";
  if (c.lds_bytes() > 65536) return "attn_fwd: the K and V tiles (2 x 2 x bn x head_dim elements) exceed 64 KiB of LDS";
  if (c.bm() * c.head_dim * 2 > 65536)
    return "attn_fwd: the Q / O tile (32 x waves rows x head_dim, 2 bytes each) exceeds 64 KiB of LDS";
  if (c.dtype == attn_dtype::fp8) {
    if (c.head_dim != 128) return "attn_fwd: fp8 takes head_dim 128";
    // (bn 128: the scores, K and O of a lane exceed 256 VGPRs)
    if (c.bn != 64) return "attn_fwd: fp8 takes bn (keys per tile) 64 (one 64-key MFMA of P)";
    if (c.waves > 8)
      return "attn_fwd: fp8 takes 1 to 8 waves (a K / V tile, 64 x 128 bytes, in whole 16-byte DMA steps)";
  }
  return nullptr;
}

// The Q and O tiles staged in LDS: BM rows of head_dim 16-bit elements, 16-byte chunks XOR-swizzled by
// row % 8 (the accesses of one column by 32 rows, Q's reads and O's writes, spread over the banks).
constexpr lds_layout attn_qo_layout(const attn_fwd_config& c) {
  return {.rows = c.bm(), .cols = c.head_dim, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
}

// Bits 2 and 3 of a key index swapped: V^T column of key j (see the header comment).
constexpr uint32_t attn_key_col(uint32_t j) { return (j & ~12u) | ((j >> 1) & 4u) | ((j << 1) & 8u); }

// fp8 Q/K/V take gfx950: the OCP e4m3fn MFMA v_mfma_f32_32x32x64_f8f6f4, the transposing LDS
// reads (V^T) and 16-byte LDS-DMA (gfx942's fp8 MFMAs are fnuz, a different format).
constexpr bool attn_fwd_fp8_target_ok() {
  return find_mfma_atom("v_mfma_f32_32x32x64_f8f6f4") != nullptr && hipasm::detail::features().has_ds_read_tr &&
         hipasm::detail::features().has_lds_dma_x4;
}

// fp8: the Q and K/V tiles in LDS, rows of head_dim bytes, 16-byte chunks XOR-swizzled by row % 8.
constexpr lds_layout attn_fp8_layout(uint32_t rows, uint32_t cols) {
  return {.rows = rows, .cols = cols, .elem_bytes = 1, .swz_chunk = 16, .swz_groups = 8};
}

// The kernel for every dtype: In the Q/K/V element (uint16_t bf16 or f16, uint8_t fp8); v_descale
// (fp8) multiplies O (the q and k descales are in scale_log2).
template <attn_fwd_config C, class In>
constexpr void attn_fwd_body(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<const In*> q_ptr,
                             arg<const In*> k_ptr, arg<const In*> v_ptr, arg<const int*> cu_q, arg<const int*> cu_k,
                             arg<unsigned> num_q_heads, arg<unsigned> num_kv_heads, arg<unsigned> batch,
                             arg<unsigned> q_tiles, arg<float> scale_log2, arg<float> v_descale) {
  static_assert(detail::attn_fwd_config_error(C) == nullptr,
                std::string_view(detail::attn_fwd_config_error(C) ? detail::attn_fwd_config_error(C) : ""));
  constexpr bool F8 = C.dtype == attn_dtype::fp8;
  constexpr uint32_t EB = C.elem_bytes();  // bytes of a Q/K/V element
  static_assert(sizeof(In) == EB);
  constexpr uint32_t D = C.head_dim, BN = C.bn, T = C.threads(), BM = C.bm();
  constexpr int DB = static_cast<int>(D / 32);   // 32-dim blocks of O^T
  constexpr int KB = static_cast<int>(BN / 32);  // 32-key blocks of S^T
  constexpr int DS = static_cast<int>(D / 16);   // 16-dim slices of QK^T
  constexpr int NS = static_cast<int>(BN / 16);  // 16-key slices of PV
  constexpr float NEG_INF = -std::numeric_limits<float>::infinity();
  // Causal grouping (8 waves: one workgroup a CU): the query tiles of a group of heads, about the
  // workgroups an XCD runs at once (MI355X 32 CUs, MI300X 38); only for heads of up to 8 tiles:
  // with longer ones the last group's longest tiles start late, and K and V reads weigh less
  // against the tiles' work. (The 4-wave fp8 kernel, two workgroups a CU, lost with groups of 64
  // on two of its three short rows: longest first there.)
  constexpr bool group_heads = C.xcds > 1 && C.waves == 8;
  constexpr uint32_t group_tiles = 32, group_max_q_tiles = 8;

  // ---- the workgroup's sequence, head and query rows ----------------------------------------
  // Workgroup id -> (query tile y, head, batch). Causal: longest first (the dispatch order is
  // the query tiles from the last, each for every head and sequence: the CUs that finish early
  // take the shorter tiles, the last round is short); with heads x batch a multiple of the XCDs,
  // an XCD runs all tiles of its heads (the dispatcher deals workgroups round-robin). Else the
  // dispatcher's round-robin is undone (xcds > 1): each XCD gets a contiguous range of the
  // logical order (query tile fastest, then head): the query tiles of a head share its K and V
  // in one L2, and an XCD's heads are consecutive ones (their rows spread over the L2 channels).
  auto head = J.sgpr<u32>(), bidx = J.sgpr<u32>(), y = J.sgpr<u32>();
  if constexpr (C.causal) {
    auto hb = J.sgpr<u32>(), id = J.sgpr<u32>(), nhb = J.sgpr<u32>();
    nhb = num_q_heads * batch;
    id = J.workgroup_id_x() + num_q_heads * (J.workgroup_id_y() + q_tiles * J.workgroup_id_z());
    auto longest_first = [&] {
      y = q_tiles - 1u - id / nhb;
      hb = id % nhb;
    };
    if constexpr (group_heads) {
      // With heads x batch a multiple of the XCDs and short heads: XCD r (dealt every xcds-th
      // workgroup) runs heads r, r + xcds, ... in groups of about group_tiles tiles, a group's
      // tiles longest first: the tiles of a head run at once and read its K and V through one L2
      // (longest first over the whole grid ran them a round apart, each reading K and V from HBM).
      J.If(nhb % C.xcds == 0u && q_tiles <= group_max_q_tiles, [&] {
        auto r = J.sgpr<u32>(), k = J.sgpr<u32>(), gh = J.sgpr<u32>(), g = J.sgpr<u32>(), w = J.sgpr<u32>(),
             gn = J.sgpr<u32>(), nh = J.sgpr<u32>();
        r = id % C.xcds;
        k = id / C.xcds;  // the XCD's k-th workgroup
        nh = nhb / C.xcds;
        gh = group_tiles / q_tiles;  // heads a group
        g = k / (gh * q_tiles);
        w = k % (gh * q_tiles);
        gn = min(gh, nh - g * gh);  // (the last group: the heads left)
        y = q_tiles - 1u - w / gn;
        hb = r + C.xcds * (g * gh + w % gn);
      }).Else(longest_first);
    } else {
      longest_first();
    }
    head = hb % num_q_heads;
    bidx = hb / num_q_heads;
  } else if constexpr (C.xcds > 1) {
    auto n = J.sgpr<u32>(), id = J.sgpr<u32>(), lid = J.sgpr<u32>(), r = J.sgpr<u32>();
    n = num_q_heads * q_tiles * batch;
    id = J.workgroup_id_x() + num_q_heads * (J.workgroup_id_y() + q_tiles * J.workgroup_id_z());
    r = id % C.xcds;                                   // the XCD
    lid = r * (n / C.xcds) + min(r, n % C.xcds) + id / C.xcds;  // its range's start + rank
    y = lid % q_tiles;
    r = lid / q_tiles;
    head = r % num_q_heads;
    bidx = r / num_q_heads;
  } else {
    head = J.workgroup_id_x();
    y = J.workgroup_id_y();
    bidx = J.workgroup_id_z();
  }
  auto [qse, kse, totq, sq, sk] = detail::varlen_sequence(J, cu_q, cu_k, batch, bidx);
  auto m0 = J.sgpr<i32>();

  auto [kv_head, q_stride, kv_stride] = detail::varlen_heads<D, EB>(J, head, num_q_heads, num_kv_heads);
  // Buffers from this sequence's first token and this head, sized to the sequence: rows past it
  // read zeros and their stores are dropped.
  // (fp8: O, bf16, has rows twice as long as Q's)
  auto o_stride = J.sgpr<u32>();
  auto [Qb, Ob] = [&] {
    auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
    nrec = sq.as<u32>() * q_stride;
    auto Qb = make_buffer(J, q_ptr, nrec);
    if constexpr (F8) {
      shift = qse[0] * q_stride + head * D;
      Qb.shift_base(shift);
      auto nreco = J.sgpr<u32>(), shifto = J.sgpr<u32>();
      o_stride = num_q_heads * (D * 2);
      nreco = sq.as<u32>() * o_stride;
      auto Ob = make_buffer(J, o_ptr, nreco);
      shifto = qse[0] * o_stride + head * (D * 2);
      Ob.shift_base(shifto);
      return std::array<buffer, 2>{Qb, Ob};
    } else {
      auto Ob = make_buffer(J, o_ptr, nrec);
      shift = qse[0] * q_stride + head * (D * 2);
      Qb.shift_base(shift);
      Ob.shift_base(shift);
      return std::array<buffer, 2>{Qb, Ob};
    }
  }();
  const auto& ostride = [&]() -> const auto& {
    if constexpr (F8) return o_stride;
    else return q_stride;
  }();
  auto [Kb, Vb] = detail::varlen_kv_buffers<D, EB>(J, sk, kse[0], kv_stride, kv_head, k_ptr, v_ptr);
  auto [Lb] = detail::varlen_row_buffers(J, sq, head, totq, qse[0], lse_ptr);

  // The query tile: rows m0 .. m0 + BM - 1 of the sequence.
  auto query_tile = [&] {
  // ---- tiles: [0, n_full) need no mask, [n_full, n_tiles) are masked --------------------------
  auto n_tiles = J.sgpr<i32>(), n_full = J.sgpr<i32>();
  if constexpr (C.causal) {
    auto diag = J.sgpr<i32>(), kend = J.sgpr<i32>();
    if constexpr (C.top_left) diag = 0;
    else diag = sk - sq;
    kend = min(sk, m0 + static_cast<int32_t>(BM) + diag);  // keys any row of the tile sees
    kend = max(kend, 0);
    n_tiles = ((kend + static_cast<int32_t>(BN - 1)).as<u32>() / BN).as<i32>();
    kend = min(sk, m0 + diag + 1);  // keys every row of the tile sees
    kend = max(kend, 0);
    n_full = (kend.as<u32>() / BN).as<i32>();
    n_tiles = max(n_tiles, 0);
  } else {
    n_tiles = ((sk + static_cast<int32_t>(BN - 1)).as<u32>() / BN).as<i32>();
    n_full = (sk.as<u32>() / BN).as<i32>();
  }

  auto tid = J.thread_id_x();
  // The lane fields of the one MFMA atom: l32 the row of K (A) and the column of Q^T (B), half
  // the k group; of S^T and O^T (C/D), l32 the column (query) and half the 4-row group.
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
  static_assert(AT.a_row().mask == AT.b_col().mask && AT.b_col().mask == AT.c_col().mask &&
                AT.a_k().shift == AT.c_row().shift);
  auto lane = J.vgpr<u32>(), wave = J.vgpr<u32>(), l32 = J.vgpr<u32>(), half = J.vgpr<u32>();
  lane = tid & 63u;
  wave = tid >> 6;
  l32 = lane & AT.a_row().mask;
  half = lane >> AT.a_k().shift;

  // Whole-row transfers between the wave's 32 rows of Q or O in memory and in an LDS tile
  // (detail::attn_qo_layout): in instruction k < DS lane L moves 16-byte chunk L % CPR of row
  // RPI k + L / CPR, i.e. 8 whole cache lines, where a load or store in the MFMA layout (a
  // lane's 16 or 8 bytes of its own query's row) touches 32 and queues them on the address path.
  // each(k, LDS row, LDS column, byte offset in Q / O).
  // elem: the tensor's element bytes (std::integral_constant), stride: its bytes a token.
  auto whole_rows = [&](auto elem, const auto& stride, auto&& each) {  // (from tid: see the epilogue)
    constexpr uint32_t E = decltype(elem)::value, EPC = 16 / E;  // element bytes, elements a chunk
    constexpr uint32_t CPR = D * E / 16, RPI = 64 / CPR, NI = 32 / RPI;  // chunks a row, rows an instruction
    auto srow = J.vgpr<u32>(), scol = J.vgpr<u32>(), goff = J.vgpr<u32>();
    srow = (tid >> 6) * 32u + ((tid & 63u) >> hipasm::detail::log2u(CPR));
    scol = (tid & (CPR - 1)) << hipasm::detail::log2u(EPC);
    if constexpr (E == 1) goff = (srow + m0.as<u32>()) * stride + scol;
    else goff = (srow + m0.as<u32>()) * stride + (scol << hipasm::detail::log2u(E));
    for (uint32_t k = 0; k < NI; ++k) {
      each(static_cast<int>(k), srow + k * RPI, multiple_of(scol, EPC), goff);
      if (k + 1 < NI) goff = goff + stride * RPI;
    }
  };
  lds_pool pool(J);

  // ---- Q rows of this wave: lane (i, h) holds dims 16p + 8h .. + 7 of query i, p < D / 16;
  // through LDS (whole_rows), which the K/V tiles reuse after a barrier ----
  // fp8: lane (i, h) holds dims 64p + 32h .. + 31 of query i (an MFMA's 32 k), p < D / 64
  constexpr int NQS = F8 ? static_cast<int>(D / 64) : DS;  // QK^T slices (MFMAs a 32-key block)
  auto qf = J.vgpr<u32>(NQS, F8 ? 8 : 4);
  pool.scope([&] {
    if constexpr (F8) {
      const lds_view QS = pool.view(detail::attn_fp8_layout(BM, D));
      auto part = [&](int k) { return qf[k / 2].slice(4 * (k % 2), 4); };  // (16-byte staging pieces)
      const std::integral_constant<uint32_t, 1> e1;
      whole_rows(e1, q_stride, [&](int k, const auto&, const auto&, const auto& goff) { Qb.load(part(k), at(goff)); });
      J.s_waitcnt(vmcnt(0));
      whole_rows(e1, q_stride,
                 [&](int k, const auto& row, const auto& col, const auto&) { QS.store(part(k), row, col); });
      J.s_waitcnt(lgkmcnt(0));  // (each wave reads only the rows it wrote)
      auto qr = J.vgpr<u32>(), qc = J.vgpr<u32>();
      qr = wave * 32u + l32;
      for (int p = 0; p < NQS; ++p)
        for (int e = 0; e < 2; ++e) {
          qc = (half << 5) + static_cast<uint32_t>(64 * p + 16 * e);
          QS.load(qf[p].slice(4 * e, 4), qr, multiple_of(qc, 16));
        }
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      return;
    }
    const lds_view QS = pool.view(detail::attn_qo_layout(C));
    const std::integral_constant<uint32_t, 2> e2;
    whole_rows(e2, q_stride, [&](int k, const auto&, const auto&, const auto& goff) { Qb.load(qf[k], at(goff)); });
    J.s_waitcnt(vmcnt(0));
    whole_rows(e2, q_stride, [&](int k, const auto& row, const auto& col, const auto&) { QS.store(qf[k], row, col); });
    J.s_waitcnt(lgkmcnt(0));  // (each wave reads only the rows it wrote)
    auto c8 = J.vgpr<u32>();
    c8 = half << 3;
    const lds_addr qa = QS.addr(wave * 32u + l32, multiple_of(c8, 8));
    for (int p = 0; p < DS; ++p) QS.load(qf[p], qa, 0, 16 * p);
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
  });

  // ---- LDS: two K tiles (BN x D) and two V^T tiles (D x BN), each pair one view of twice the
  // rows; the loop body is emitted once: the buffer it reads and the one it fills are chosen at
  // run time (read addresses moved by one buffer each tile, the K DMA by lds_shift, the V^T
  // writes by their row coordinate) ------------------------------------------------------------
  constexpr lds_layout LK = F8 ? detail::attn_fp8_layout(BN, D) : detail::gemm_tile_layout(BN, D),
                       LV = detail::gemm_tile_layout(D, BN);
  constexpr lds_layout LK2 = F8 ? detail::attn_fp8_layout(2 * BN, D) : detail::gemm_tile_layout(2 * BN, D),
                       LV2 = detail::gemm_tile_layout(2 * D, BN);
  // gfx950 (transposing LDS reads and 16-byte LDS-DMA): V tiles are stored as they are in
  // memory, [key][dim] in K's layout, by DMA like K, and read as V^T by ds_read_b64_tr_b16
  constexpr bool TR = hipasm::detail::features().has_ds_read_tr && hipasm::detail::features().has_lds_dma_x4;
  static_assert(TR || !F8);
  // PP (gfx950, 8 waves: two a SIMD): the two waves of a SIMD run half an iteration apart
  // (ping-pong; see step), which takes three K and three V buffers (gfx950's 160 KiB of LDS)
  constexpr bool PP = TR && C.waves == 8;
  constexpr uint32_t NBUF = PP ? 3 : 2;
  const lds_ref kref = pool.alloc(NBUF * LK.bytes()), vref = pool.alloc(TR ? NBUF * LK.bytes() : LV2.bytes());
  const lds_view K0(kref, LK), KK(kref, LK2), VV(vref, LV2), V0(vref, LK);
  constexpr uint32_t KBUF = LK.bytes(), VBUF = TR ? LK.bytes() : LV.bytes();  // bytes between the two buffers
  (void)LV;
  (void)V0;

  // V tile units: 4 keys x 8 dims (four 16-byte loads, one 4x8 transpose, eight 8-byte LDS
  // writes); unit u = key quad u % (BN / 4), dim chunk u / (BN / 4).
  constexpr uint32_t units = BN * D / 32, US = TR ? 0 : (units + T - 1) / T;
  constexpr bool partial_units = units % T != 0;
  constexpr int USR = TR ? 1 : static_cast<int>(US);  // (TR: no units; the registers stay unused)
  auto vstage = J.vgpr<u32>(USR, 16);
  auto vtr = J.vgpr<u32>(TR ? 1 : 16);
  auto voff = J.vgpr<u32>(USR, 4);
  auto vrow = J.vgpr<u32>(USR).named("vt_row");  // V^T row of the unit's dims (+ D: buffer 1)
  auto vcol = J.vgpr<u32>(USR).named("vt_col");
  for (uint32_t s = 0; s < US; ++s) {
    auto u = J.vgpr<u32>(), jq = J.vgpr<u32>(), dc = J.vgpr<u32>();
    u = tid + s * T;
    jq = u % (BN / 4);
    dc = u / (BN / 4);
    voff[s][0] = (jq * 4u) * kv_stride + (dc << 4);
    for (int r = 1; r < 4; ++r) voff[s][r] = voff[s][0] + kv_stride * static_cast<uint32_t>(r);  // (no v_mul_lo_u32 a key)
    jq = jq << 2;
    vcol[s] = (jq & ~12u) | ((jq >> 1) & 4u) | ((jq << 1) & 8u);  // detail::attn_key_col
    vrow[s] = dc << 3;
  }
  auto unit_active = [&](uint32_t s, auto&& body) {
    if constexpr (partial_units) {
      if ((s + 1) * T > units) {
        J.If(tid < units - s * T, body);
        return;
      }
    }
    body();
  };

  auto korg = J.sgpr<u32>();   // byte offset of key tile kt (V loads it, K loads tile kt + 1)
  auto kofs = J.sgpr<u32>();
  auto knext = J.sgpr<u32>();  // 0 or KBUF: the K buffer being filled
  auto vnext = J.sgpr<u32>();  // TR: 0 or VBUF, the V buffer being filled
  // TR: K and V tiles by buffer_load_dwordx4 ... lds (copy_tile's direct path, its per-lane
  // offsets computed once here instead of at every load): step i of wave w fills LDS bytes
  // (i T + 64 w) 16 .. + 1023 of the tile; lane t's 16 bytes are the tile's byte 16 t of step
  // 0 moved by i RPS rows, where RPS (rows a step) is a multiple of the swizzle's 8-row
  // period: one global offset a lane, + i RPS rows in soffset
  constexpr uint32_t DMA_STEP = T * 16, RPS = DMA_STEP / LK.row_stride(), DMA_STEPS = LK.bytes() / DMA_STEP;
  constexpr bool DMA_OWN = TR && DMA_STEP % (8 * LK.row_stride()) == 0 && LK.bytes() % DMA_STEP == 0;
  auto dma_goff = J.vgpr<u32>(), dma_wave = J.sgpr<u32>(), dma_rows = J.sgpr<u32>();
  if constexpr (DMA_OWN) {
    static_assert(LK.swz_chunk == 16 && LK.swz_groups == 8 && LK.swz_row_div == 1);
    auto q = J.vgpr<u32>(), row = J.vgpr<u32>();
    q = (tid & 63u) << 4;  // the lane's byte in its wave's 1024 (the wave's part: M0)
    q = q + ((tid >> 6) << 10);
    row = q >> hipasm::detail::log2u(LK.row_stride());
    dma_goff = row * kv_stride + ((q & (LK.row_stride() - 1)) ^ ((row & 7u) << 4));
    J.v_readfirstlane_b32(dma_wave, tid);
    dma_wave = (dma_wave >> 6) << 10;
    dma_rows = kv_stride * RPS;
  }
  auto dma_tile = [&](const buffer& B, const gpr<u32>& ofs, const lds_view& V, const gpr<u32>& shift) {
    auto m = J.sgpr<u32>(), so = J.sgpr<u32>();
    m = dma_wave + shift;
    for (uint32_t i = 0; i < DMA_STEPS; ++i) {
      if (i == 0) so = ofs + 0u;
      else so = so + dma_rows;
      B.load_lds_x4(at(m) + static_cast<int64_t>(V.base + i * DMA_STEP), at(so) + at(dma_goff));
    }
  };
  auto load_k = [&](const gpr<u32>& ofs) {
    if constexpr (DMA_OWN) {
      dma_tile(Kb, ofs, K0, knext);
      return;
    }
    const tile_copy_opts o{.threads = T, .vec_bytes = TR ? 16u : 4u, .direct = true, .wait = false};
    copy_tile(J, Kb, at(ofs), kv_stride, K0, o, lds_shift{knext});
  };
  auto load_v = [&] {
    if constexpr (DMA_OWN) {
      dma_tile(Vb, korg, V0, vnext);
      return;
    }
    if constexpr (TR) {
      const tile_copy_opts o{.threads = T, .vec_bytes = 16, .direct = true, .wait = false};
      copy_tile(J, Vb, at(korg), kv_stride, V0, o, lds_shift{vnext});
      return;
    }
    for (uint32_t s = 0; s < US; ++s)
      unit_active(s, [&] {
        for (int r = 0; r < 4; ++r) Vb.load(vstage[s].slice(4 * r, 4), at(voff[s][r]) + at(korg));
      });
  };
  auto write_v = [&] {
    J.s_waitcnt(vmcnt(0));
    if constexpr (TR) return;
    for (uint32_t s = 0; s < US; ++s)
      unit_active(s, [&] {
        transpose_per_lane(J, 4, 8, 2, vstage[s], vtr);  // row e of vtr: dim 8 dc + e, keys 4 jq .. + 3
        for (int e = 0; e < 8; ++e) VV.store(vtr.slice(2 * e, 2), multiple_of(vrow[s], 8) + e, multiple_of(vcol[s], 4));
      });
  };

  // LDS read addresses: K rows l32 + 32 kb, dims 16p + 8h; V^T rows l32 + 32 db, keys 16p + 8h.
  // Their registers are this kernel's own (moved in place between the buffers).
  auto c8 = J.vgpr<u32>();
  c8 = half << 3;
  // TR: V^T through ds_read_b64_tr_b16: lane s of 16-lane group g (half h = g / 2) addresses
  // key row 4 h + s / 4 (+ 16 p + 8 r: slice p, read r), dims 32 db + 16 (g % 2) + 4 (s % 4),
  // and receives keys 4 h .. + 3 (+ 16 p + 8 r) of dim 32 db + 16 (g % 2) + s = 32 db + l32:
  // reads r = 0, 1 give A's k 0-3 and 4-7 of lane half h, keys 16 p + 4 h + 8 r .. + 3, the
  // keys of the S^T accumulator registers the B operand takes (see mfma_pv). The swizzle XORs
  // chunk bits 0-2 with the row's low 3 bits, fixed per lane (16 p + 8 r keeps them), and bit 2
  // of the chunk is bit 0 of db: one register for even db, one for odd; db / 2 is an offset.
  // fp8: K rows l32 + 32 kb, dims 64 (p / 2) + 32 h + 16 (p % 2) (two b128 reads a slice); V^T
  // through ds_read_b64_tr_b8, one address a 32-dim block (see below)
  constexpr int NVA = F8 ? DB : TR ? 2 : NS, NKA = F8 ? 2 * NQS : DS;
  lds_addr k_addr[NKA], v_addr[NVA];
  gpr<u32> k_reg[NKA], v_reg[NVA];
  auto own = [&](lds_addr& a, gpr<u32>& r) {
    r.rebind(J.vgpr<u32>());
    r = hipasm::detail::u32_view(J.self(), a.reg);
    a.reg = r.to_operand();
  };
  for (int p = 0; p < NKA; ++p) {
    auto c = J.vgpr<u32>();
    if constexpr (F8) c = (half << 5) + static_cast<uint32_t>(64 * (p / 2) + 16 * (p % 2));
    else c = c8 + 16 * p;
    k_addr[p] = KK.addr(l32, multiple_of(c, F8 ? 16 : 8));
    own(k_addr[p], k_reg[p]);
  }
  // fp8 (ds_read_b64_tr_b8: lane s of 16-lane group g receives byte s of the 8 bytes that lanes
  // 2n + s / 8 of the group address, n = 0 .. 7): P^T's lane half h holds, in byte b of its
  // register v (of one 64-key block), key 32 (v / 4) + 8 (v % 4) + 4 h + b (softmax_tail); so
  // read m (registers 2m, 2m + 1) of that block takes keys 16 m + 8 (n / 4) + 4 h + n % 4:
  // lane s addresses key row 8 (n / 4) + 4 h + n % 4 (n = s / 2; + 16 m in offset:) and dims
  // 32 db + 16 (g % 2) + 8 (s % 2), and receives dim 32 db + l32. The swizzle XORs the chunk
  // (bits 1, 2: db) with the row's low bits: one register a block.
  if constexpr (F8) {
    auto vr = J.vgpr<u32>(), vc = J.vgpr<u32>(), n = J.vgpr<u32>();
    n = (lane & 15u) >> 1;
    vr = ((n >> 2) << 3) + (half << 2) + (n & 3u);
    for (int db = 0; db < DB; ++db) {
      vc = ((lane & 16u) + ((lane & 1u) << 3)) + 32u * static_cast<uint32_t>(db);
      v_addr[db] = V0.addr(vr, multiple_of(vc, 8));
      v_reg[db].rebind(J.vgpr<u32>());
      v_reg[db] = hipasm::detail::u32_view(J.self(), v_addr[db].reg) + static_cast<uint32_t>(v_addr[db].k);
    }
  } else if constexpr (TR) {
    auto vr = J.vgpr<u32>(), vc = J.vgpr<u32>();
    vr = (half << 2) + ((lane & 15u) >> 2);
    for (int e = 0; e < 2; ++e) {
      vc = ((lane & 16u) + ((lane & 3u) << 2)) + 32u * static_cast<uint32_t>(e);
      v_addr[e] = V0.addr(vr, multiple_of(vc, 4));
      v_reg[e].rebind(J.vgpr<u32>());
      v_reg[e] = hipasm::detail::u32_view(J.self(), v_addr[e].reg) + static_cast<uint32_t>(v_addr[e].k);
    }
  } else {
    for (int p = 0; p < NS; ++p) {
      auto c = J.vgpr<u32>();
      c = c8 + 16 * p;
      v_addr[p] = VV.addr(l32, multiple_of(c, 8));
      own(v_addr[p], v_reg[p]);
    }
  }

  // ---- per-query state ---------------------------------------------------------------------
  auto o = J.vgpr<f32>(DB, 16).named("o");
  o.fill(0.0f);
  // m c: the reference max the exponents subtract (base-2 units; see softmax_head), l the sum
  auto mc = J.vgpr<f32>().named("m_c"), lrow = J.vgpr<f32>().named("l");
  mc = NEG_INF;
  lrow = 0.0f;
  // Keys of a tile this lane's query may see: column c of register (kb, r) is key
  // 32 kb + 8 (r / 4) + 4 h + r % 4; it is visible if that is below lim - k0 (lim: the row's
  // end, causal diagonal and seqlen_k), i.e. 32 kb + 8 (r / 4) + r % 4 < lim - 4 h - k0.
  auto lim_h = J.vgpr<i32>();
  if constexpr (C.causal) {
    auto qi = J.vgpr<i32>();
    if constexpr (C.top_left) qi = (wave * 32u + l32).as<i32>() + (m0 + 1);
    else qi = (wave * 32u + l32).as<i32>() + (m0 + sk - sq + 1);
    lim_h = min(qi, sk);
  } else {
    lim_h = sk + 0;
  }
  lim_h = lim_h - (half * AT.c_row().stride).as<i32>();

  auto s = J.vgpr<f32>(KB, 16).named("s");     // tile t's scores (the QK accumulator)
  auto pe = J.vgpr<f32>(KB, 16).named("p_f32");  // tile t - 1's 2^(s c - m c)
  if constexpr (F8) pe.aligned(2);  // (packed pairs: softmax_tail)
  // the same in 16-bit pairs: PV's B operand (fp8: 64 keys a row, 4 a register)
  auto pb = J.vgpr<u32>(F8 ? KB / 2 : KB, 8).named("p");
  // V^T reads: a ring of VR b128 slots, each feeding the two MFMAs of one (16-key slice,
  // 32-dim block) item of PV; VR - 1 reads ahead (the registers a second full slice would
  // take are what lets the pipelined loop fit 256 VGPRs at 8 waves)
  constexpr int VR = F8 ? 3 : 4, NV = F8 ? static_cast<int>(BN / 64) * DB : NS * DB;
  // K reads: a ring of KR slots of KB b128 each, KR - 1 k-slices ahead (TR: the registers the
  // V^T staging no longer takes hide the LDS latency behind two slices' MFMAs)
  // (fp8: every slice's reads issued at once)
  constexpr int KR = F8 ? NQS + 1 : TR ? 3 : 2, KSL = KR < NQS ? KR : NQS;
  auto kf = J.vgpr<u32>(KSL * KB, F8 ? 8 : 4), vf = J.vgpr<u32>(VR, F8 ? 8 : 4);
  // kt: the key tile of the iteration, k0 its first key
  auto kt = J.sgpr<i32>(), k0 = J.sgpr<i32>();
  auto tile_bytes = J.sgpr<u32>();
  tile_bytes = kv_stride * BN;
  // Byte offset and first key of key tile `k`; the tile after the last one (the last
  // iteration's prefetch) is not read (an offset past the buffer).
  auto tile_offset = [&](gpr<u32>& dst, const gpr<i32>& k) {
    dst = select(k >= n_tiles, 0x80000000u, gpr<u32>(k.as<u32>() * tile_bytes));
  };
  auto tile_key = [&](const gpr<i32>& k) { k0 = k * static_cast<int32_t>(BN); };

  auto read_k = [&](int p) {
    if constexpr (F8) {
      for (int kb = 0; kb < KB; ++kb)
        for (int e = 0; e < 2; ++e) KK.load(kf[(p % KR) * KB + kb].slice(4 * e, 4), k_addr[2 * p + e], 32 * kb, 0);
      return;
    }
    for (int kb = 0; kb < KB; ++kb) KK.load(kf[(p % KR) * KB + kb], k_addr[p], 32 * kb, 0);
  };
  constexpr const mfma_atom* F8A = find_mfma_atom("v_mfma_f32_32x32x64_f8f6f4");  // (fp8 e4m3: cbsz = blgp = 0)
  // gfx950's double-K atom (v_mfma_f32_32x32x16_bf16: lane half h holds k 8h..8h+7) takes both
  // halves of a slice in one MFMA: its k order is the two 32x32x8 MFMAs' in sequence, for A and
  // B alike (QK: the b128 reads; PV: V^T's slot and the two 8-key groups of P it pairs with).
  constexpr const mfma_atom* DK = detail::attn_dk_atom<C.dtype>();
  auto mfma_qk = [&](int p) {
    if constexpr (F8) {
      for (int kb = 0; kb < KB; ++kb)
        if (p == 0) mfma_run(J, *F8A, s[kb], kf[kb], qf[0], 0);
        else mfma_run(J, *F8A, s[kb], kf[(p % KR) * KB + kb], qf[p], s[kb]);
      return;
    } else if constexpr (DK != nullptr) {
      for (int kb = 0; kb < KB; ++kb)
        if (p == 0) mfma_run(J, *DK, s[kb], kf[kb], qf[0], 0);  // (the tile's first product starts from 0)
        else mfma_run(J, *DK, s[kb], kf[(p % KR) * KB + kb], qf[p], s[kb]);
      return;
    }
    for (int e = 0; e < 2; ++e)
      for (int kb = 0; kb < KB; ++kb)
        if (p == 0 && e == 0)  // the first product of the tile starts from 0 (no accumulator reset)
          detail::attn_mfma_x8<C.dtype>(J, s[kb], kf[kb].slice(0, 2), qf[0].slice(0, 2), 0);
        else
          detail::attn_mfma_x8<C.dtype>(J, s[kb], kf[(p % 2) * KB + kb].slice(2 * e, 2), qf[p].slice(2 * e, 2), s[kb]);
  };
  constexpr uint32_t LPI = F8 ? 4 : TR ? 2 : 1;  // LDS reads a PV item
  auto read_v = [&](int i) {  // item i: slice i / DB, block i % DB (fp8: 64-key block i / DB)
    if constexpr (F8) {
      const int c = i / DB, db = i % DB;
      for (int m = 0; m < 4; ++m)
        J.ds_read_b64_tr_b8(vf[i % VR].slice(2 * m, 2), v_reg[db],
                            {.offset = static_cast<int32_t>(LK.row_stride() * 16 * (4 * c + m))});
      return;
    } else if constexpr (TR) {
      const int p = i / DB, db = i % DB;
      for (int r = 0; r < 2; ++r)
        J.ds_read_b64_tr_b16(vf[i % VR].slice(2 * r, 2), v_reg[db % 2],
                             {.offset = static_cast<int32_t>(LK.row_stride() * (16 * p + 8 * r) + 128 * (db / 2))});
      return;
    }
    VV.load(vf[i % VR], v_addr[i / DB], 32 * (i % DB), 0);
  };
  auto mfma_pv = [&](int i) {
    const int p = i / DB, db = i % DB;
    if constexpr (F8) {
      mfma_run(J, *F8A, o[db], vf[i % VR], pb[p], o[db]);
      return;
    } else if constexpr (DK != nullptr) {  // 8-key groups 2p, 2p + 1: P registers 4 (p % 2) .. + 3 of block p / 2
      mfma_run(J, *DK, o[db], vf[i % VR], pb[p / 2].slice(4 * (p % 2), 4), o[db]);
      return;
    }
    for (int e = 0; e < 2; ++e) {
      const int g = 2 * p + e;  // 8-key group: S^T block g / 4, registers 4 (g % 4) ..
      detail::attn_mfma_x8<C.dtype>(J, o[db], vf[i % VR].slice(2 * e, 2), pb[g / 4].slice(2 * (g % 4), 2), o[db]);
    }
  };

  // Online softmax (base 2), split in the two halves the MFMAs of the next phase hide:
  // head (tile t: new reference max, alpha = 2^(m_old c - m c), pe = 2^(s c - m c)) and
  // tail (tile t - 1: l = l alpha + sum pe, pb = bf16(pe)); O *= alpha at the start of the
  // next iteration, when alpha != 1. The row max needs
  // the other lane half's (ds_bpermute): it is taken before the head's interleave.
  auto mx = J.vgpr<f32>(), nmsc = J.vgpr<f32>(), alpha = J.vgpr<f32>(), psum = J.vgpr<f32>();
  // Soft-capped scores are tanh(s scale / cap) (the launch passes scale / cap as scale_log2);
  // the softmax then scales them by cap log2 e instead of scale log2 e.
  auto cap_log2 = J.sgpr<f32>().named("cap_log2e");
  if constexpr (C.soft_cap > 0) cap_log2 = C.soft_cap * 1.44269504088896340736f;
  auto score_scale = [&]() -> const auto& {
    if constexpr (C.soft_cap > 0) return cap_log2;
    else return scale_log2;
  };
  auto row_max = [&] {
    mx = max3(s[0][0], s[0][1], s[0][2]);
    for (int i = 3; i < 16 * KB; i += 2) {
      if (i + 1 < 16 * KB) mx = max3(mx, s[i / 16][i % 16], s[(i + 1) / 16][(i + 1) % 16]);
      else mx = max(mx, s[i / 16][i % 16]);
    }
    mx = max(mx, shuffle_xor(J, mx, 32, {.all_lanes_active = true}));  // (full waves, uniform flow)
  };
  // The reference max moves only when the row max grows past it by more than 2^8 (p <= 256,
  // exact in f32 and as precise in bf16): O and l are rescaled (by alpha = 2^(m_old c - m c))
  // only then, by a per-lane If that the waves skip when no lane moved (the usual case after
  // the first tiles). O / l and the LSE (m c + log2 l) do not depend on the reference.
  // gfx950 (TR): the last ND exponentials of a tile move from the head to the tail: the head
  // runs beside PV's MFMAs and the tail beside QK^T's, which gfx950's double-rate MFMAs make
  // as short as PV's; with all 16 KB in the head the PV phase is VALU-bound (v_exp_f32 is
  // 16 cycles a wave) while the VALU idles under QK^T (aiter's gfx950 fmha_v3_fwd splits them
  // between its two MFMA phases alike). The ping-pong (PP) moves one more: its PV phase runs
  // at the higher priority, and the tail's wave takes the matrix core when that one is done.
  constexpr int NE = 16 * KB, ND = TR ? (PP ? NE * 21 / 32 : NE * 5 / 8) : 0;
  auto softmax_head = [&] {
    mx = mx * score_scale();
    mx = select(mx > mc + 8.0f, mx, mc);  // the new reference: -inf while the row saw no key
    nmsc = select(mx == NEG_INF, 0.0f, -mx);  // -m c; a row that saw no key yet: 0 (p = 0)
    // (exponents <= 8, results summed against >= 1: the bare v_exp_f32, math.hpp's flush_denormals)
    alpha = exp2(mc + nmsc, {.flush_denormals = true});
    mc = mx;
    for (int kb = 0; kb < KB; ++kb)
      for (int r = 0; r < 16; ++r) {
        if (16 * kb + r >= NE - ND) {  // (deferred: the exponent kept in pe)
          J.v_fma_f32(pe[kb][r], s[kb][r], score_scale(), nmsc);
          continue;
        }
        J.v_fma_f32(s[kb][r], s[kb][r], score_scale(), nmsc);  // s c - m c
        pe[kb][r] = exp2(s[kb][r], {.flush_denormals = true});
      }
  };
  auto softmax_tail = [&] {
    for (int i = NE - ND; i < NE; ++i) pe[i / 16][i % 16] = exp2(pe[i / 16][i % 16], {.flush_denormals = true});
    if constexpr (F8) {  // (two sums in one packed register: half the adds; fp8's VALU is the bound)
      auto ps2 = J.vgpr<f32>(2).aligned(2);
      J.v_pk_add_f32(ps2, pe[0].slice(0, 2), pe[0].slice(2, 2));
      for (int i = 4; i < 16 * KB; i += 2) J.v_pk_add_f32(ps2, ps2, pe[i / 16].slice(i % 16, 2));
      psum = ps2[0] + ps2[1];
    } else {
      psum = pe[0][0] + pe[0][1];
      for (int i = 2; i < 16 * KB; ++i) psum = psum + pe[i / 16][i % 16];
    }
    lrow = lrow * alpha + psum;
    if constexpr (F8) {  // p <= 2^8: within e4m3's 448; 4 keys a register (see the V^T reads)
      modifiers hi;
      hi.op_sel = 4;  // op_sel:[0,0,1]: the high word (the low one kept)
      for (int kb = 0; kb < KB; ++kb)
        for (int r = 0; r < 16; r += 4) {
          auto d = pb[kb / 2][4 * (kb % 2) + r / 4];
          J.v_cvt_pk_fp8_f32(d, pe[kb][r], pe[kb][r + 1]);
          J.v_cvt_pk_fp8_f32(d, pe[kb][r + 2], pe[kb][r + 3], hi);
        }
      return;
    }
    for (int kb = 0; kb < KB; ++kb)
      for (int r = 0; r < 16; r += 2) {
        if constexpr (C.dtype == attn_dtype::f16)  // (in place)
          detail::attn_pack2<C.dtype>(J, pb[kb][r / 2], pe[kb][r], pe[kb][r + 1]);
        else if constexpr (isa::find_instr("v_cvt_pk_bf16_f32") >= 0)  // (in place: no copy from a temporary)
          J.v_cvt_pk_bf16_f32(pb[kb][r / 2], pe[kb][r], pe[kb][r + 1]);
        else
          pb[kb][r / 2] = cvt_bf16x2(pe[kb][r], pe[kb][r + 1], bf16_round::nearest_even_finite).as<u32>();
      }
  };

  // Iteration t (0 .. n_tiles - 1; software-pipelined, as aiter's fmha_v3_fwd): loads K(t + 1)
  // and V(t); S(t) = K(t) Q^T with the softmax tail of tile t - 1 between its MFMAs; the mask
  // and row max of S(t); O^T += V^T(t - 1) P^T(t - 1) with the softmax head of tile t between
  // its MFMAs; V(t) written (transposed) to LDS; one barrier. Iteration 0 has no tile t - 1
  // (QK and the head alone), and after the last one the tail and PV of tile n_tiles - 1 run
  // alone: no MFMA multiplies a P of zeros or a tile past the end.
  // kdir, vdir: from the buffer being read to the other one (bytes: +-KBUF, +-VBUF)
  // vrdir: the V^T write rows' move (+-D)
  auto kdir = J.sgpr<u32>(), vdir = J.sgpr<u32>(), vrdir = J.sgpr<u32>();
  // O *= alpha of tile t - 1 (after PV(t - 2), before PV(t - 1)); v_mul_f32, not v_pk_mul_f32
  auto rescale_o = [&] {
    J.If(alpha != 1.0f, [&] {
      for (int db = 0; db < DB; ++db)
        for (int r = 0; r < 16; ++r) o[db][r] = o[db][r] * alpha;
    });
  };
  auto read_v_ahead = [&] {  // the first VR - 1 V^T reads of a PV phase
    for (int i = 0; i + 1 < VR && i < NV; ++i) read_v(i);
  };
  auto qk = [&] {  // S^T(t) = K(t) Q^T
    for (int p = 0; p + 1 < KR && p < NQS; ++p) read_k(p);
    for (int p = 0; p < NQS; ++p) {
      const int later = KR - 2 < NQS - 1 - p ? KR - 2 : NQS - 1 - p;  // reads issued after slice p's
      J.s_waitcnt(lgkmcnt(static_cast<uint32_t>((F8 ? 2 * KB : KB) * later)));
      if (p + KR - 1 < NQS) read_k(p + KR - 1);
      mfma_qk(p);
    }
  };
  auto mask_and_max = [&] {
    if constexpr (C.soft_cap > 0)  // (before the mask: masked scores stay -inf)
      for (int kb = 0; kb < KB; ++kb)
        for (int r = 0; r < 16; ++r) {
          s[kb][r] = s[kb][r] * scale_log2;
          s[kb][r] = tanh(s[kb][r], {.absolute_error = true});  // (the scores' softmax needs no more)
        }
    J.If(kt >= n_full, [&] {
      auto rel = J.vgpr<i32>();
      rel = lim_h - k0;
      for (int kb = 0; kb < KB; ++kb)
        for (int r = 0; r < 16; ++r) s[kb][r] = select(rel > 32 * kb + 8 * (r / 4) + r % 4, s[kb][r], NEG_INF);
    });
    if constexpr (!TR) row_max();  // (TR: between PV's MFMAs, before the head)
  };
  auto pv = [&] {  // O^T += V^T(t - 1) P^T(t - 1) (after read_v_ahead)
    for (int i = 0; i < NV; ++i) {
      if (i + VR - 1 < NV) read_v(i + VR - 1);
      J.s_waitcnt(lgkmcnt(LPI * static_cast<uint32_t>(VR - 1 < NV - 1 - i ? VR - 1 : NV - 1 - i)));
      mfma_pv(i);
    }
  };
  // Ping-pong (PP): waves 4-7 pass one barrier more at the start and waves 0-3 one more at the
  // end, and each iteration has two barriers (after QK^T and the softmax tail; after PV): the
  // two waves of a SIMD alternate the phases instead of running each alike at once (the older
  // wave's priority would run it ahead and leave the younger one alone at the iteration's end).
  // Phase g of waves 0-3 is phase g - 1 of waves 4-7, so a tile DMA'd in an iteration is
  // complete (vmcnt(0) before the iteration's last barrier) one phase later for waves 4-7:
  // K(t + 2) is loaded in iteration t (first read in iteration t + 2) and V(t) is read after
  // iteration t + 1's middle barrier; a buffer is refilled three tiles on (its last reader,
  // a wave of 4-7, two phases behind the first writer).
  auto ring_next = [&](gpr<u32>& x) {  // 0 -> BUF -> 2 BUF -> 0 (KBUF = VBUF under PP)
    x = x + KBUF;
    x = select(x == NBUF * KBUF, 0u, x);
  };
  auto kr = J.sgpr<u32>(), vr = J.sgpr<u32>(), grp = J.sgpr<u32>();  // PP: K, V read buffers (bytes)
  auto max_head = [&] {
    if constexpr (TR) row_max();
    softmax_head();
  };
  // iteration t: `pipelined` false for t = 0
  auto step = [&](bool pipelined) {
    auto ktn = J.sgpr<i32>();
    ktn = kt + 1;
    if constexpr (PP) {
      auto k2 = J.sgpr<i32>();
      k2 = kt + 2;
      tile_offset(kofs, k2);
      tile_offset(korg, kt);
    } else {
      tile_offset(kofs, ktn);
    }
    load_k(kofs);
    load_v();
    if constexpr (PP) {
      J.s_setprio(0);
      if (pipelined) {
        rescale_o();
        interleave(J, qk, softmax_tail);
      } else {
        qk();
      }
      J.s_setprio(1);
      J.s_barrier();
      read_v_ahead();
      mask_and_max();
      if (pipelined) interleave(J, pv, max_head);
      else max_head();
      J.s_waitcnt(vmcnt(0));
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      // every ring one buffer on
      kdir = select(kr == 2 * KBUF, 0u - 2 * KBUF, KBUF);
      vdir = select(vr == 2 * KBUF, 0u - 2 * KBUF, KBUF);
      for (int p = 0; p < NKA; ++p) k_reg[p] = k_reg[p] + kdir;
      for (int p = 0; p < NVA; ++p) v_reg[p] = v_reg[p] + vdir;
      ring_next(kr);
      ring_next(vr);
      ring_next(knext);
      ring_next(vnext);
      kt = ktn;
      tile_key(kt);
      return;
    }
    if (pipelined) {
      rescale_o();
      interleave(
          J,
          [&] {
            qk();
            read_v_ahead();
          },
          softmax_tail);
    } else {
      qk();
    }
    mask_and_max();
    if (pipelined) interleave(J, pv, max_head);
    else max_head();
    write_v();
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    // swap the buffers: reads to the one just filled, fills to the one just read
    for (int p = 0; p < NKA; ++p) k_reg[p] = k_reg[p] + kdir;
    for (int p = 0; p < NVA; ++p) v_reg[p] = v_reg[p] + vdir;
    for (uint32_t s = 0; s < US; ++s) vrow[s] = vrow[s] + vrdir;
    if constexpr (TR) vnext = vnext ^ VBUF;
    knext = knext - kdir;
    kdir = 0u - kdir;
    vdir = 0u - vdir;
    if constexpr (!TR) vrdir = 0u - vrdir;
    kt = ktn;
    tile_key(kt);
    korg = kofs;
  };

  // prologue: K(0) into K buffer 0; V(0) goes to V buffer 0 in iteration 0 (read from there
  // in iteration 1)
  J.If(n_tiles > 0, [&] {
    kt = 0;
    tile_offset(korg, kt);
    knext = 0u;
    load_k(korg);
    if constexpr (PP) {  // K(0), K(1) into buffers 0, 1; V(0) to buffer 0, read (iteration 1) from there
      auto k1 = J.sgpr<i32>();
      k1 = kt + 1;
      knext = KBUF;
      tile_offset(kofs, k1);
      load_k(kofs);
      J.s_waitcnt(vmcnt(0));
      J.s_barrier();
      knext = 2 * KBUF;
      vnext = 0u;
      kr = 0u;
      vr = 2 * KBUF;
      for (int p = 0; p < NVA; ++p) v_reg[p] = v_reg[p] + 2 * KBUF;
      J.v_readfirstlane_b32(grp, tid);
      grp = grp >> 8;  // 1: waves 4-7
      J.If(grp != 0u, [&] { J.s_barrier(); });
      tile_key(kt);
      step(false);
      J.While([&] { return kt < n_tiles; }, [&] { step(true); });
      rescale_o();
      softmax_tail();
      J.s_barrier();
      read_v_ahead();
      pv();
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      J.If(grp == 0u, [&] { J.s_barrier(); });
      return;
    }
    J.s_waitcnt(vmcnt(0));
    J.s_barrier();
    knext = KBUF;
    kdir = KBUF;
    for (int p = 0; p < NVA; ++p) v_reg[p] = v_reg[p] + VBUF;
    vdir = 0u - VBUF;
    vnext = 0u;
    if constexpr (!TR) vrdir = D;
    tile_key(kt);
    step(false);
    J.While([&] { return kt < n_tiles; }, [&] { step(true); });
    rescale_o();
    softmax_tail();
    read_v_ahead();
    pv();
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (the epilogue stages O in the LDS the other waves' PV reads)
  });

  // ---- epilogue: O = O^T / l, LSE = ln 2 (m c + log2 l) ---------------------------------------
  // O goes through LDS (the K/V tiles' space: the loop's last barrier left it unused) so that
  // each store writes whole rows: a lane's registers hold 8-byte pieces of one query's row, and
  // stored directly every instruction would touch 32 cache lines (16 per wave-row of the tile
  // instead of 2; the L2 channels queue them at the end of every tile).
  // (the lane ids again, in new registers: the register allocator keeps a register from its
  // first definition to its last use, and these need not live through the loop)
  auto e_wave = J.vgpr<u32>(), e_l32 = J.vgpr<u32>(), e_half = J.vgpr<u32>();
  e_wave = tid >> 6;
  e_l32 = tid & AT.c_col().mask;
  e_half = (tid >> AT.c_row().shift) & AT.c_row().mask;
  auto ltot = J.vgpr<f32>(), inv = J.vgpr<f32>();
  ltot = lrow + shuffle_xor(J, lrow, 32, {.all_lanes_active = true});
  inv = select(ltot > 0.0f, rcp(ltot, {.flush_denormals = true}), 0.0f);  // (l >= 1: the max's p is >= 1)
  if constexpr (F8) inv = inv * v_descale;
  pool.free(vref);
  pool.free(kref);
  const lds_view OS = pool.view(detail::attn_qo_layout(C));
  {
    auto orow = J.vgpr<u32>(), ocol = J.vgpr<u32>();
    orow = e_wave * 32u + e_l32;
    ocol = e_half * AT.c_row().stride;
    auto ov = J.vgpr<u32>(2);
    for (int db = 0; db < DB; ++db)
      for (int g = 0; g < 4; ++g) {
        // registers 4g .. 4g + 3: dims 32 db + 8 g + 4 h .. + 3
        for (int c = 0; c < 2; ++c)
          detail::attn_pack2<F8 ? attn_dtype::bf16 : C.dtype>(J, ov[c], o[db][4 * g + 2 * c] * inv,
                                                                o[db][4 * g + 2 * c + 1] * inv);  // (fp8: O bf16)
        OS.store(ov, orow, multiple_of(ocol, 4) + (32 * db + 8 * g));
      }
  }
  {
    auto ob = J.vgpr<u32>(4);
    J.s_waitcnt(lgkmcnt(0));  // (each wave reads only the rows it wrote)
    const std::integral_constant<uint32_t, 2> e2;
    whole_rows(e2, ostride, [&](int, const auto& row, const auto& col, const auto& goff) {
      OS.load(ob, row, col);
      J.s_waitcnt(lgkmcnt(0));
      Ob.store(ob, at(goff));
    });
  }
  auto qrow = J.vgpr<u32>();
  qrow = e_wave * 32u + e_l32 + m0.as<u32>();
  auto lse = J.vgpr<f32>();
  auto loff = J.vgpr<u32>();
  lse = log2(ltot, {.flush_denormals = true});  // (l >= 1, or 0: -inf)
  lse = (mc + lse) * 0.69314718055994530942f;
  loff = qrow << 2;
  J.If(e_half != 0u, [&] { loff = 0x80000000u; });  // one store per query
  Lb.store(lse, at(loff));
  };  // query_tile

  m0 = (y * BM).as<i32>();
  J.If(m0 < sq, query_tile);
}

}  // namespace detail

template <attn_fwd_config C>
constexpr void attn_fwd_kernel(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<const uint16_t*> q_ptr,
                               arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr, arg<const int*> cu_q,
                               arg<const int*> cu_k, arg<unsigned> num_q_heads, arg<unsigned> num_kv_heads,
                               arg<unsigned> batch, arg<unsigned> q_tiles, arg<float> scale_log2) {
  static_assert(C.dtype != attn_dtype::fp8, "attn_fwd_kernel takes 16-bit Q/K/V: an fp8 configuration is "
                                            "attn_fwd_fp8_kernel (HIPASM_ATTN_FWD_FP8_KERNEL)");
  detail::attn_fwd_body<C, uint16_t>(J, o_ptr, lse_ptr, q_ptr, k_ptr, v_ptr, cu_q, cu_k, num_q_heads, num_kv_heads,
                                     batch, q_tiles, scale_log2, scale_log2);
}

// fp8 (OCP e4m3fn) Q/K/V, bf16 O: scale_log2 = softmax scale x q descale x k descale x log2 e
// (launch_attn_fwd folds them), v_descale multiplies O. gfx950 only.
template <attn_fwd_config C>
constexpr void attn_fwd_fp8_kernel(builder J, arg<uint16_t*> o_ptr, arg<float*> lse_ptr, arg<const uint8_t*> q_ptr,
                                   arg<const uint8_t*> k_ptr, arg<const uint8_t*> v_ptr, arg<const int*> cu_q,
                                   arg<const int*> cu_k, arg<unsigned> num_q_heads, arg<unsigned> num_kv_heads,
                                   arg<unsigned> batch, arg<unsigned> q_tiles, arg<float> scale_log2,
                                   arg<float> v_descale) {
  static_assert(C.dtype == attn_dtype::fp8,
                "attn_fwd_fp8_kernel takes fp8 Q/K/V: its configuration needs .dtype = attn_dtype::fp8");
  if constexpr (detail::attn_fwd_fp8_target_ok())  // (else a compile error at the macro's line)
    detail::attn_fwd_body<C, uint8_t>(J, o_ptr, lse_ptr, q_ptr, k_ptr, v_ptr, cu_q, cu_k, num_q_heads, num_kv_heads,
                                      batch, q_tiles, scale_log2, v_descale);
}

}  // namespace hipasm::kernels

// The configuration's error, if any, as a compile error at the line of the macro that expands it.
#define HIPASM_ATTN_FWD_CONFIG_CHECK(cfg)                                                                          \
  static_assert(::hipasm::kernels::detail::attn_fwd_config_error(cfg) == nullptr, /* (at the user's line) */     \
                std::string_view(::hipasm::kernels::detail::attn_fwd_config_error(cfg)                           \
                                     ? ::hipasm::kernels::detail::attn_fwd_config_error(cfg)                     \
                                     : ""))

// Defines the HIP kernel `name` of configuration `cfg` (parenthesized); arguments in the order
// of attn_fwd_kernel (see attn_fwd_launch.hpp).
#define HIPASM_ATTN_FWD_KERNEL(name, cfg)                                                                           \
  HIPASM_ATTN_FWD_CONFIG_CHECK(cfg);                                                                             \
  constexpr auto name##_hipasm_fn = &::hipasm::kernels::attn_fwd_kernel<cfg>;                                   \
  extern "C" __attribute__((global)) void name(uint16_t* o, float* lse, const uint16_t* q, const uint16_t* k,   \
                                               const uint16_t* v, const int* cu_q, const int* cu_k, unsigned hq, \
                                               unsigned hkv, unsigned batch, unsigned q_tiles, float scale_log2) {\
    HIPASM_KERNEL_BODY(name##_hipasm_fn, o, lse, q, k, v, cu_q, cu_k, hq, hkv, batch, q_tiles, scale_log2);     \
  }

// The fp8 kernel `name` of configuration `cfg` (.dtype = attn_dtype::fp8): attn_fwd_fp8_kernel's
// arguments (fp8 Q/K/V, a trailing v_descale). Built for a target other than gfx950, a compile
// error on this line.
#define HIPASM_ATTN_FWD_FP8_KERNEL(name, cfg)                                                                       \
  static_assert(!::hipasm::device_pass || ::hipasm::kernels::detail::attn_fwd_fp8_target_ok(),                   \
                "attn_fwd fp8: the target has no OCP e4m3 MFMA (v_mfma_f32_32x32x64_f8f6f4, gfx950 only; "        \
                "gfx942's fp8 is fnuz)");                                                                        \
  HIPASM_ATTN_FWD_CONFIG_CHECK(cfg);                                                                             \
  constexpr auto name##_hipasm_fn = &::hipasm::kernels::attn_fwd_fp8_kernel<cfg>;                               \
  extern "C" __attribute__((global)) void name(uint16_t* o, float* lse, const uint8_t* q, const uint8_t* k,     \
                                               const uint8_t* v, const int* cu_q, const int* cu_k, unsigned hq,  \
                                               unsigned hkv, unsigned batch, unsigned q_tiles, float scale_log2, \
                                               float v_descale) {                                                \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, o, lse, q, k, v, cu_q, cu_k, hq, hkv, batch, q_tiles, scale_log2,      \
                       v_descale);                                                                               \
  }
