// The library's flash attention backward (FlashAttention-2's): from Q, K, V, O, dO (bf16, or f16:
// config dtype) and
// the forward's LSE, dQ, dK and dV of O = softmax(scale * Q K^T) V; variable sequence lengths,
// GQA/MQA (dK, dV summed over the query heads of a kv head), causal or not.
//
//   // a .hip file compiled by hipasm_add_code_object:
//   HIPASM_ATTN_BWD_KERNELS(my_bwd, (hipasm::kernels::attn_bwd_config{.head_dim = 128, .causal = true}))
//   // host: launch_attn_bwd (attn_bwd_launch.hpp) runs its kernels
//
// Layout: attn_fwd.hpp's (packed varlen): Q, O, dO, dQ [total_q, num_q_heads, head_dim], K, V,
// dK, dV [total_k, num_kv_heads, head_dim] of the dtype; LSE [num_q_heads, total_q] f32 as attn_fwd
// writes it (natural log; -inf for a row that sees no key). Causal masks are attn_fwd's:
// bottom-right aligned (query i sees keys j <= i + seqlen_k - seqlen_q). Workspaces: f32 delta
// [num_q_heads, total_q] (D = rowsum(dO * O)) and dq_acc [total_q, num_q_heads, head_dim]; with
// GQA/MQA dk_part and dv_part [total_k, num_q_heads, head_dim] of the dtype.
//
// Three kernels (the macro defines them as name_dot_do_o, name, name_convert_dq):
//  1. dot_do_o: D = rowsum(dO * O) per (token, head) row, and dq_acc = 0 (a stream over O, dO).
//  2. the main kernel: one workgroup of 4 waves per (key tile of BN = 128 keys, query head,
//     sequence), dispatched key tile slowest (causal: the longest first), looping over the query
//     tiles of BM = 32 rows (causal: from the first tile that sees a key of the block). With
//     GQA/MQA each query head's dK and dV are partial sums (dtype workspaces, convert_dq adds
//     them up): a workgroup per query head keeps the grid as large as with MHA. Wave w owns keys
//     32w .. 32w + 31; with S = Q K^T, P = 2^(S scale log2 e - LSE log2 e), dP = dO V^T,
//     dS = P (dP - D) (FlashAttention-2, Dao 2023, Algorithm 2):
//       dV^T += dO^T P, dK^T += Q^T dS (accumulators in AGPRs, one 32x32 block per 32 dims),
//       dQ (+)= dS K over the workgroup's keys, by buffer f32 atomics into dq_acc (dq =
//       atomic16: scaled, rounded to the dtype and added into dQ by packed 16-bit atomics,
//       under the next query tile's S MFMAs; dq_acc and convert_dq's dQ part not used).
//     S and dP have the keys as the MFMA's columns (B = the wave's K or V rows, held in VGPRs,
//     loaded as whole rows through LDS at the start; A = Q or dO rows from LDS): each lane holds
//     one key's scores, so the C layout of P and dS is directly the B operand of the dV^T and
//     dK^T products (contracting over the queries, as attn_fwd's P^T in O^T += V^T P^T). Their
//     A operands come from Q^T and dO^T tiles written transposed (attn_fwd's V^T units: 4
//     queries x 8 dims a lane, transpose_per_lane, b64 writes). dQ contracts over the keys: dS
//     goes to LDS (2-byte writes from the C layout, during the dK^T MFMAs) in the place of K^T,
//     which is in LDS only to give each wave its dQ B operands (K^T rows of its 32-dim block w,
//     all keys) once, kept in AGPRs. LDS operands are
//     b64 or b128 reads issued lds_lookahead MFMAs ahead; K^T, Q^T, dO^T and dS swizzle 8-byte
//     chunks (the b64 reads' 16-lane bank groups conflict-free). The query tile after next's Q, dO, LSE
//     and D are loaded at an iteration's end, then its dQ atomics (VMEM completes in order: the
//     wait for the loads leaves the atomics in flight); the next tile's Q, dO, Q^T, dO^T stores
//     and its LSE and D run under the dQ MFMAs. P's exponents run between the dP MFMAs, the
//     mask after them only on tiles where the wave has a masked key, P's rounding and dS
//     between the dV^T MFMAs (placed by hand, emit_cycles). Two barriers an iteration. At the
//     end dK and dV go through LDS as f32 (b128 writes from the accumulators; each wave its own
//     32 rows) to whole-row 16-byte stores, converted to the dtype in a loop.
//     gfx950: the double-K v_mfma_f32_32x32x16_bf16 (twice the rate) in every product, each
//     taking two successive 32x32x8 k-steps' operands side by side (two b64 LDS reads where a
//     k-step had one): half the MFMA cycles and power, so a higher clock at the same work.
//     keys_per_wave = 48: attn_bwd_m16.hpp's main kernel instead (16x16 MFMAs, 192 keys a
//     workgroup, query tiles of 16: a third fewer dQ atomics a key), the same arguments and launch.
//  3. convert_dq: dQ = dtype(scale dq_acc), and (GQA/MQA, on workgroups of their own in the same
//     launch) dK, dV = the sums of the partials over each kv head's query heads.
// Masked scores (the causal diagonal, keys past seqlen_k) are -inf before the exponent; a row
// with LSE = -inf (no visible key) has P = 0. Query rows past seqlen_q read zeros (Q, dO, LSE,
// D) and give dS = 0; their dQ atomics are dropped by the buffer range.
// f16 (dtype = f16): the f16 MFMAs (gfx942 v_mfma_f32_32x32x8_f16, gfx950 v_mfma_f32_32x32x16_f16,
// the bf16 ones' lane layouts); P, dS and the outputs rounded to nearest even (attn_pack2: gfx950
// v_cvt_pk_f16_f32, gfx942 v_cvt_f16_f32 and its SDWA high-half form), overflow to +-inf (f16's
// largest is 65504: inputs whose gradients exceed it need bf16); the GQA partials f16.
#pragma once
#include <cstdint>
#include <limits>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "attn_varlen.hpp"
#include "gemm_bf16.hpp"  // detail::gemm_tile_layout

namespace hipasm::kernels {

// How dQ is computed: by f32 atomics of the main kernel into dq_acc (converted by convert_dq:
// AMD's "a32"), or by a kernel of its own that recomputes S and dP with the queries stationary
// (no atomics, no dq_acc; FlashAttention-2's separate dQ pass), or (atomic16, AMD's "a16") by
// packed 16-bit atomics of the main kernel straight into dQ: each key tile's partial, scaled and
// rounded to the dtype, added in the dtype (global_atomic_pk_add_bf16 / _f16, two adjacent head
// dims of one query row a lane; no dq_acc, no convert_dq for dQ). Every partial sum of dQ is
// rounded to the dtype (a rounding a key tile: the error grows with seqlen_k / 128).
enum class attn_bwd_dq : uint8_t { atomic, recompute, atomic16 };

struct attn_bwd_config {
  uint32_t head_dim = 128;  // 64 or 128
  bool causal = false;      // causal mask, aligned bottom-right (or top-left: top_left), attn_fwd's
  bool top_left = false;    // causal: query i sees keys j <= i (not j <= i + seqlen_k - seqlen_q)
  attn_dtype dtype = attn_dtype::bf16;  // Q, K, V, O, dO, dQ, dK, dV (and the GQA partials): bf16 or f16
  attn_bwd_dq dq = attn_bwd_dq::atomic;
  uint32_t waves = 4;       // waves per workgroup, keys_per_wave keys each (4: the only count supported)
  uint32_t lds_lookahead = 4;  // LDS operand reads in flight ahead of the MFMAs (2..8; the 32x32 kernel's)
  // keys a wave: 32 (32x32 MFMAs, query tiles of 32), or 48 (attn_bwd_m16.hpp: 16x16 MFMAs, query
  // tiles of 16, 192 keys a workgroup: a third fewer dQ atomics a key; head_dim 128, dq atomic or
  // atomic16)
  uint32_t keys_per_wave = 32;

  constexpr uint32_t threads() const { return 64 * waves; }
  constexpr uint32_t bn() const { return keys_per_wave * waves; }  // keys per workgroup
  constexpr bool m16() const { return keys_per_wave != 32; }
  static constexpr uint32_t bm = 32;                     // queries per iteration (the 32x32 kernel)
  constexpr uint32_t k_tiles(uint32_t max_seqlen_k) const { return (max_seqlen_k + bn() - 1) / bn(); }
  constexpr uint32_t grid_x(uint32_t max_seqlen_k) const { return k_tiles(max_seqlen_k) > 0 ? k_tiles(max_seqlen_k) : 1; }
  // K^T (then dS in its place); the Q and dO row tiles; Q^T and dO^T (16-bit)
  constexpr uint32_t lds_bytes() const { return (bn() * head_dim + 4 * head_dim * (m16() ? 16 : bm)) * 2; }
  // dot_do_o / convert_dq: 256 threads, 8 elements each
  static constexpr uint32_t stream_threads = 256;
  constexpr uint32_t stream_rows() const { return stream_threads / (head_dim / 8); }  // (token, head) rows a workgroup
  // the recompute dQ kernel: BM = 32 queries a wave, key tiles of 32
  constexpr uint32_t dq_threads() const { return 64 * waves; }
  constexpr uint32_t dq_bm() const { return 32 * waves; }
  constexpr uint32_t dq_grid_x(uint32_t max_seqlen_q) const {
    return max_seqlen_q > 0 ? (max_seqlen_q + dq_bm() - 1) / dq_bm() : 1;
  }
};

namespace detail {

constexpr const char* attn_bwd_config_error(const attn_bwd_config& c) {
  if (c.head_dim != 64 && c.head_dim != 128) return "attn_bwd: head_dim must be 64 or 128";
  // (fewer waves: more dQ blocks and staging a wave than 256 VGPRs hold; more: K^T past the LDS)
  if (c.waves != 4) return "attn_bwd: waves must be 4 (128 keys a workgroup)";
  if (c.lds_lookahead < 2 || c.lds_lookahead > 8) return "attn_bwd: lds_lookahead must be 2 to 8";
  if (c.keys_per_wave != 32 && c.keys_per_wave != 48) return "attn_bwd: keys_per_wave must be 32 or 48";
  if (c.m16() && c.head_dim != 128) return "attn_bwd: keys_per_wave 48 needs head_dim 128";
  if (c.m16() && c.dq == attn_bwd_dq::recompute) return "attn_bwd: keys_per_wave 48 needs dq = atomic or atomic16";
  if (c.top_left && !c.causal) return "attn_bwd: top_left aligns the causal mask: it needs causal = true";
  if (c.lds_bytes() > 65536) return "attn_bwd: the K^T, Q, dO, Q^T, dO^T and dS tiles exceed 64 KiB of LDS (fewer waves)";
  if (c.dq == attn_bwd_dq::atomic16 &&
      isa::find_instr(c.dtype == attn_dtype::f16 ? "global_atomic_pk_add_f16" : "global_atomic_pk_add_bf16") < 0)
    return "attn_bwd: dq = atomic16 needs the target's global_atomic_pk_add_bf16 (f16: _f16)";
  return nullptr;
}

// A 16-bit tile read 8 bytes a lane (b64, 16-lane bank groups: rows l32 .. + 15 of one column):
// 8-byte chunks swizzled, 16 rows of a column on 16 distinct bank pairs (64-byte rows: two
// rows a 128-byte bank line, one pattern per row pair)
constexpr lds_layout attn_bwd_b64_layout(uint32_t rows, uint32_t cols) {
  const uint32_t row_bytes = cols * 2, per_line = row_bytes >= 128 ? 1 : 128 / row_bytes;
  return lds_layout{.rows = rows, .cols = cols, .elem_bytes = 2, .swz_chunk = 8, .swz_groups = 16 / per_line,
                    .swz_row_div = per_line};
}

// items 0 .. n - 1: read(i) fills ring slot i % ring, use(i) consumes it; reads run ring - 1
// items ahead (slot i % ring is refilled after use(i), before use(i + 1))
template <class R, class U>
constexpr void attn_bwd_pipelined(int n, int ring, R&& read, U&& use) {
  for (int i = 0; i + 1 < ring && i < n; ++i) read(i);
  for (int i = 0; i < n; ++i) {
    if (i + ring - 1 < n) read(i + ring - 1);
    use(i);
  }
}

// acc = A B over D dims, the rows of A in LDS view V at addr (b128 reads, RS in flight), B in
// frags (lane half h: dims 16p + 8h .. + 7 of slice p in frags[p]); k order: MFMA (p, e) takes
// dims 16p + 8h + 4e .. + 3 of both operands (one b128 read: two MFMAs, or one double-K).
// after(p) runs after slice p's MFMAs.
template <uint32_t D, int RS, attn_dtype T>
constexpr void attn_bwd_rows_prod(builder J, lds_view V, lds_addr addr, auto ring, auto frags, auto acc,
                                  auto after) {
  constexpr int DS = static_cast<int>(D / 16);
  constexpr const mfma_atom* DKA = attn_dk_atom<T>();
  attn_bwd_pipelined(DS, RS, [&](int p) { V.load(ring[p % RS], addr, 0, 16 * p); },
                     [&](int p) {
                       J.wait_for(ring[p % RS]);
                       if constexpr (DKA != nullptr) {
                         if (p == 0) mfma_run(J, *DKA, acc, ring[0], frags[0], 0);
                         else mfma_run(J, *DKA, acc, ring[p % RS], frags[p], acc);
                         after(p);
                         return;
                       }
                       for (int e = 0; e < 2; ++e) {
                         if (p == 0 && e == 0) attn_mfma_x8<T>(J, acc, ring[0].slice(0, 2), frags[0].slice(0, 2), 0);
                         else attn_mfma_x8<T>(J, acc, ring[p % RS].slice(2 * e, 2), frags[p].slice(2 * e, 2), acc);
                       }
                       after(p);
                     });
}

// accs[db] += A_db B (DB blocks of 32 rows, QG k-steps of 8): A = rows l32 + 32 db of LDS view
// V, columns trow + 8k .. + 3 (b64 reads, RT in flight; double-K: k-steps 2i and 2i + 1 side by
// side), B = bsrc's registers 2k, 2k + 1 (an S-shaped C layout as the B operand: its rows
// 8 (r / 4) + 4h + r % 4 are the k index). after(i) runs after MFMA i (item i: k-step pair i /
// DB, block i % DB). (by value: a constexpr lambda reads no reference parameter)
template <int DB, int QG, int RT, attn_dtype T>
constexpr void attn_bwd_t_prod(builder J, lds_view V, gpr<dtype::u32> l32, gpr<dtype::u32> trow,
                               auto ta, auto accs, gpr<dtype::u32> bsrc, auto after) {
  constexpr const mfma_atom* DKA = attn_dk_atom<T>();
  constexpr bool dk2 = DKA != nullptr;
  constexpr int NT = DB * QG / (dk2 ? 2 : 1);  // MFMAs of a product
  attn_bwd_pipelined(NT, RT,
                     [&](int i) {
                       if constexpr (!dk2) {
                         V.load(ta[i % RT], at(l32) + 32 * (i % DB), multiple_of(trow, 4) + 8 * (i / DB));
                         return;
                       }
                       for (int h = 0; h < 2; ++h)
                         V.load(ta[i % RT].slice(2 * h, 2), at(l32) + 32 * (i % DB),
                                multiple_of(trow, 4) + 8 * (2 * (i / DB) + h));
                     },
                     [&](int i) {
                       J.wait_for(ta[i % RT]);
                       if constexpr (dk2) mfma_run(J, *DKA, accs[i % DB], ta[i % RT], bsrc.slice(4 * (i / DB), 4), accs[i % DB]);
                       else attn_mfma_x8<T>(J, accs[i % DB], ta[i % RT], bsrc.slice(2 * (i / DB), 2), accs[i % DB]);
                       after(i);
                     });
}

// Rows staged through LDS view S: fragment f (ds 16-byte pieces a lane, rpi rows apart) stored at
// wa, read back at ra as whole row pieces (each wave reads only the rows it wrote: no barrier).
template <class View, class Frags>
constexpr void attn_bwd_rows_through_lds(builder J, const View& S, Frags f, lds_addr wa, lds_addr ra, int ds, uint32_t rpi) {
  J.wait_for(f);
  for (int k = 0; k < ds; ++k) S.store(f[k], wa, static_cast<int>(rpi) * k, 0);
  J.s_waitcnt(lgkmcnt(0));
  for (int p = 0; p < ds; ++p) S.load(f[p], ra, 0, 16 * p);
  J.s_waitcnt(lgkmcnt(0));
}

// The main kernels' LDS: K^T (D x BN; dS, BM x BN, takes its place once every wave holds its dQ
// operands from it), the Q and dO row tiles (BM x D; QO: Q's rows then dO's, one view: a lane's
// unit writes either by its row), Q^T and dO^T (D x BM; QOT likewise). Q^T, dO^T and dS are read
// 8 bytes a lane (b64, 16-lane bank groups: 16 rows of one column), so they swizzle 8-byte chunks:
// 16 rows of a column on 16 distinct bank pairs (rows under 128 bytes: one pattern a bank line).
struct attn_bwd_lds {
  lds_view KT, QS, OS, QO, SS, QT, OT, QOT;
};
template <uint32_t D, uint32_t BM, uint32_t BN>
constexpr attn_bwd_lds attn_bwd_main_lds(builder J) {
  lds_pool pool(J);
  constexpr lds_layout LKT = attn_bwd_b64_layout(D, BN), LR = gemm_tile_layout(BM, D), LR2 = gemm_tile_layout(2 * BM, D),
                       LT = attn_bwd_b64_layout(D, BM), LT2 = attn_bwd_b64_layout(2 * D, BM), LS = attn_bwd_b64_layout(BM, BN);
  constexpr uint32_t RB = LR.bytes();
  static_assert(LS.bytes() <= LKT.bytes());
  const lds_view KT = pool.view(LKT);
  const lds_ref rows = pool.alloc(2 * RB), tr = pool.alloc(2 * LT.bytes());
  return {KT,
          lds_view(lds_ref{rows.offset, RB}, LR),
          lds_view(lds_ref{rows.offset + RB, RB}, LR),
          lds_view(lds_ref{rows.offset, 2 * RB}, LR2),
          lds_view(lds_ref{KT.base, LS.bytes()}, LS),
          lds_view(lds_ref{tr.offset, LT.bytes()}, LT),
          lds_view(lds_ref{tr.offset + LT.bytes(), LT.bytes()}, LT),
          lds_view(tr, LT2)};
}

// Workgroup id (x fastest) -> key tile (slowest), then (head, sequence) rotated by the key
// tile: dispatched in that order, the causal grids' longest workgroups (the first key tiles
// see the most query tiles) go first and the short ones fill the last round, and an XCD (dealt
// workgroups round-robin) gets an equal share of each key tile, of different heads for
// successive key tiles (on the MI300X model, b4 h32 s2048 causal: 2100 us with the key tile
// fastest, 1484 key tile slowest, 1438 rotated). Without the causal imbalance the rotation
// goes: with heads x batch a multiple of the XCDs, a head's key tiles share an XCD and its L2
// (its Q, dO tiles and dq_acc rows). (The main kernels' mapping.)
template <attn_bwd_config C>
constexpr auto attn_bwd_workgroup(builder J, arg<unsigned> num_q_heads, arg<unsigned> batch, arg<unsigned> k_tiles) {
  auto kt = J.sgpr<u32>(), head = J.sgpr<u32>(), bidx = J.sgpr<u32>();
  auto id = J.sgpr<u32>(), hb = J.sgpr<u32>(), nhb = J.sgpr<u32>();
  nhb = num_q_heads * batch;
  id = J.workgroup_id_x() + k_tiles * (J.workgroup_id_y() + num_q_heads * J.workgroup_id_z());
  kt = id / nhb;
  if constexpr (C.causal) hb = (id + kt) % nhb;
  else hb = id % nhb;
  head = hb % num_q_heads;
  bidx = hb / num_q_heads;
  struct wg {
    decltype(kt) kt, head, bidx;
  };
  return wg{kt, head, bidx};
}

// The main kernels' buffers, from the sequence's first token and the head (query or kv), sized to
// the sequence: rows past it read zeros, their stores are dropped. dK and dV go to [total_k,
// num_q_heads, head_dim] tensors (the kernel's dk / dv: the outputs themselves when there is one
// query head a kv head, else the partial-sum workspaces convert_dq adds up). dqbase (atomic16):
// the sequence's and head's first dQ element (the atomics' base).
template <attn_bwd_config C, class Start, class Tot, class Len>
constexpr auto attn_bwd_main_buffers(builder J, arg<float*> dq_acc_ptr, arg<uint16_t*> dk_ptr, arg<uint16_t*> dv_ptr,
                                     arg<const uint16_t*> q_ptr, arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr,
                                     arg<const uint16_t*> do_ptr, arg<const float*> lse_ptr,
                                     arg<const float*> delta_ptr, arg<unsigned> num_q_heads,
                                     arg<unsigned> num_kv_heads, const gpr<dtype::u32>& head, const Start& q_start,
                                     const Start& k_start, const Tot& totq, const Len& sq, const Len& sk) {
  constexpr uint32_t D = C.head_dim;
  auto [kvh, q_stride, kv_stride] = varlen_heads<D>(J, head, num_q_heads, num_kv_heads);
  auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
  nrec = sq.template as<u32>() * q_stride;
  auto Qb = make_buffer(J, q_ptr, nrec), dOb = make_buffer(J, do_ptr, nrec);
  shift = q_start * q_stride + head * (D * 2);
  Qb.shift_base(shift);
  dOb.shift_base(shift);
  auto dqbase = J.sgpr<u64>();
  if constexpr (C.dq == attn_bwd_dq::atomic16) dqbase = dq_acc_ptr + mul_wide(shift, 1u);
  nrec = nrec + nrec;  // (f32)
  auto Ab = make_buffer(J, dq_acc_ptr, nrec);
  shift = shift + shift;
  Ab.shift_base(shift);
  auto [Kb, Vb] = varlen_kv_buffers<D>(J, sk, k_start, kv_stride, kvh, k_ptr, v_ptr);
  nrec = sk.template as<u32>() * q_stride;
  auto dKb = make_buffer(J, dk_ptr, nrec), dVb = make_buffer(J, dv_ptr, nrec);
  shift = k_start * q_stride + head * (D * 2);
  dKb.shift_base(shift);
  dVb.shift_base(shift);
  auto [Lb, Db] = varlen_row_buffers(J, sq, head, totq, q_start, lse_ptr, delta_ptr);
  struct bufs {
    decltype(q_stride) q_stride, kv_stride;
    buffer Qb, dOb, Ab, Kb, Vb, dKb, dVb, Lb, Db;
    decltype(dqbase) dqbase;
  };
  return bufs{q_stride, kv_stride, Qb, dOb, Ab, Kb, Vb, dKb, dVb, Lb, Db, dqbase};
}

// The main kernels' dK / dV epilogue loop: f32 rows the wave wrote into LDS view OUT, read back
// from row orow (RPR rows a pass, 8 elements a lane at column ocol; NP passes a loop trip, their
// reads issued together: one LDS latency a trip; trips trips), scaled by scale2 (two lanes of the
// scale: a packed multiply's operand) when scaled, rounded to the dtype and stored 16 bytes a lane
// into B at ooff (+ ostep a pass). orow and ooff advance. (By value: a constexpr lambda reads no
// reference parameter.)
template <attn_dtype T, int NP, uint32_t RPR>
constexpr void attn_bwd_rows_out(builder J, lds_view OUT, gpr<dtype::u32> orow, gpr<dtype::u32> ocol,
                                 gpr<dtype::u32> ooff, gpr<dtype::u32> ostep, uint32_t trips, auto x, auto y,
                                 gpr<dtype::f32> scale2, buffer B, bool scaled) {
  auto i = J.sgpr<u32>();
  i = 0u;
  J.While([&] { return i < trips; }, [&] {
    const lds_addr rd = OUT.addr(at(orow), multiple_of(ocol, 8));
    for (int p = 0; p < NP; ++p) {
      OUT.load(x[p].slice(0, 4), rd, static_cast<int>(RPR) * p, 0);
      OUT.load(x[p].slice(4, 4), rd, static_cast<int>(RPR) * p, 4);
    }
    for (int p = 0; p < NP; ++p) {
      J.wait_for(x[p]);
      for (int c = 0; c < 4; ++c) {
        if (scaled) J.v_pk_mul_f32(x[p].slice(2 * c, 2), x[p].slice(2 * c, 2), scale2);
        attn_pack2<T>(J, y[p][c], x[p][2 * c], x[p][2 * c + 1]);
      }
      B.store(y[p], at(ooff));
      ooff = ooff + ostep;
    }
    orow = orow + RPR * NP;
    i = i + 1u;
  });
}

}  // namespace detail

// dot_do_o: D[h][t] = sum_d dO[t][h][d] O[t][h][d] (f32), and dq_acc = 0 (dq = atomic16: dq_acc_ptr
// is dQ itself, of the dtype, zeroed); rows of (token, head) are consecutive in memory
// ([total_q, heads, head_dim]): a lane takes 8 elements of one row.
template <attn_bwd_config C>
constexpr void attn_bwd_dot_do_o_kernel(builder J, arg<float*> delta_ptr, arg<float*> dq_acc_ptr,
                                        arg<const uint16_t*> o_ptr, arg<const uint16_t*> do_ptr, arg<const int*> cu_q,
                                        arg<unsigned> num_q_heads, arg<unsigned> batch) {
  static_assert(detail::attn_bwd_config_error(C) == nullptr,
                std::string_view(detail::attn_bwd_config_error(C) ? detail::attn_bwd_config_error(C) : ""));
  constexpr uint32_t D = C.head_dim, LPR = D / 8, RPW = C.stream_rows();
  auto totq = J.sgpr<u32>(), toff = J.sgpr<u32>(), nrows = J.sgpr<u32>(), nrec = J.sgpr<u32>();
  toff = batch << 2;
  J.s_load_dword(totq, cu_q, toff);
  J.s_waitcnt(lgkmcnt(0));
  nrows = totq * num_q_heads;
  nrec = nrows * (D * 2);
  auto Ob = make_buffer(J, o_ptr, nrec), dOb = make_buffer(J, do_ptr, nrec);
  constexpr bool A16 = C.dq == attn_bwd_dq::atomic16;
  nrec = nrows * (D * (A16 ? 2 : 4));
  auto Ab = make_buffer(J, dq_acc_ptr, nrec);  // (recompute: dq_acc unused, its address may be 0)
  nrec = nrows << 2;
  auto Db = make_buffer(J, delta_ptr, nrec);
  auto tid = J.thread_id_x();
  auto row = J.vgpr<u32>(), col = J.vgpr<u32>(), off = J.vgpr<u32>();
  row = J.workgroup_id_x() * RPW + (tid >> hipasm::detail::log2u(LPR));
  col = (tid & (LPR - 1)) << 3;
  off = row * (D * 2) + (col << 1);
  auto o = J.vgpr<u32>(4), g = J.vgpr<u32>(4);
  Ob.load(o, at(off));
  dOb.load(g, at(off));
  if constexpr (C.dq == attn_bwd_dq::atomic) {
    auto z = J.vgpr<u32>(4);
    z.fill(0u);
    off = row * (D * 4) + (col << 2);
    Ab.store(z, at(off));
    Ab.store(z, at(off) + 16);
  } else if constexpr (A16) {
    auto z = J.vgpr<u32>(4);
    z.fill(0u);
    off = row * (D * 2) + (col << 1);
    Ab.store(z, at(off));
  }
  J.s_waitcnt(vmcnt(0));
  // 16-bit pairs: the low half is element 2i, the high half 2i + 1
  auto sum = J.vgpr<f32>(), a = J.vgpr<f32>(), b = J.vgpr<f32>();
  sum = 0.0f;
  for (int i = 0; i < 4; ++i) {
    if constexpr (C.dtype == attn_dtype::f16) {
      for (int e = 0; e < 2; ++e)
        sum = sum + to_f32(o[i].as<dtype::f16x2>(), e) * to_f32(g[i].as<dtype::f16x2>(), e);
      continue;
    }
    a = (o[i] << 16u).as<f32>();
    b = (g[i] << 16u).as<f32>();
    sum = sum + a * b;
    a = (o[i] & 0xffff0000u).as<f32>();
    b = (g[i] & 0xffff0000u).as<f32>();
    sum = sum + a * b;
  }
  for (uint32_t m = 1; m < LPR; m <<= 1) sum = sum + shuffle_xor(J, sum, m, {.all_lanes_active = true});
  // row r = token t * heads + head h -> delta[h][t]; one lane a row stores
  auto t = J.vgpr<u32>(), h = J.vgpr<u32>();
  t = row / num_q_heads;
  h = row - t * num_q_heads;
  off = (h * totq + t) << 2;
  // (lanes past the rows and all but the first of a row: past the buffer, their stores dropped)
  off = select(row >= nrows, 0x80000000u, off);
  off = select((tid & (LPR - 1)) != 0u, 0x80000000u, off);
  Db.store(sum, at(off));
}

// convert_dq: dQ = dtype(scale dq_acc), 8 elements a lane, on workgroups 0 .. dq_groups - 1; with
// GQA/MQA the next 2 red_groups workgroups (red_groups of dK, then as many of dV) sum the
// partials: dK[t][h][d] = sum over the G = num_q_heads / num_kv_heads query heads g of kv head h
// of dk_part[t][h G + g][d] (partial sums of the dtype, f32 adds), 8 elements a lane. One launch for
// both: they run after the main kernel, each a stream (a dispatch saved).
template <attn_bwd_config C>
constexpr void attn_bwd_convert_dq_kernel(builder J, arg<uint16_t*> dq_ptr, arg<const float*> dq_acc_ptr,
                                          arg<uint16_t*> dk_ptr, arg<uint16_t*> dv_ptr, arg<const uint16_t*> dk_part,
                                          arg<const uint16_t*> dv_part, arg<const int*> cu_q, arg<const int*> cu_k,
                                          arg<unsigned> num_q_heads, arg<unsigned> num_kv_heads, arg<unsigned> batch,
                                          arg<unsigned> dq_groups, arg<unsigned> red_groups, arg<float> scale) {
  static_assert(detail::attn_bwd_config_error(C) == nullptr,
                std::string_view(detail::attn_bwd_config_error(C) ? detail::attn_bwd_config_error(C) : ""));
  constexpr uint32_t D = C.head_dim, T = C.stream_threads;
  auto toff = J.sgpr<u32>(), nrec = J.sgpr<u32>();
  toff = batch << 2;
  auto wg = J.sgpr<u32>();
  wg = J.workgroup_id_x();
  J.If(wg < dq_groups, [&] {
    auto totq = J.sgpr<u32>(), n = J.sgpr<u32>();
    J.s_load_dword(totq, cu_q, toff);
    J.s_waitcnt(lgkmcnt(0));
    n = totq * num_q_heads * D;  // elements
    nrec = n * 4u;
    auto Ab = make_buffer(J, dq_acc_ptr, nrec);
    nrec = n * 2u;
    auto Qb = make_buffer(J, dq_ptr, nrec);
    auto e = J.vgpr<u32>(), off = J.vgpr<u32>();
    e = (wg * T + J.thread_id_x()) << 3u;
    off = e << 2u;
    auto a = J.vgpr<f32>(8);
    Ab.load(a.slice(0, 4), at(off));
    Ab.load(a.slice(4, 4), at(off) + 16);
    J.s_waitcnt(vmcnt(0));
    auto q = J.vgpr<u32>(4);
    for (int i = 0; i < 4; ++i) detail::attn_pack2<C.dtype>(J, q[i], a[2 * i] * scale, a[2 * i + 1] * scale);
    off = e << 1u;
    Qb.store(q, at(off));
  }).Else([&] {
    auto totk = J.sgpr<u32>(), n = J.sgpr<u32>(), grp = J.sgpr<u32>(), rg = J.sgpr<u32>();
    J.s_load_dword(totk, cu_k, toff);
    J.s_waitcnt(lgkmcnt(0));
    grp = num_q_heads / num_kv_heads;
    n = totk * num_kv_heads * D;  // output elements
    // the workgroup's place among the reduce's: dK's, then dV's (the pointers chosen, one copy of the code)
    rg = wg - dq_groups;
    auto src = J.sgpr<u64>(), dst = J.sgpr<u64>();
    J.s_cmp_lt_u32(rg, red_groups);
    J.s_cselect_b64(src, dk_part, dv_part);
    J.s_cselect_b64(dst, dk_ptr, dv_ptr);
    J.If(rg >= red_groups, [&] { rg = rg - red_groups; });
    nrec = n * 2u;
    auto out = make_buffer(J, dst, nrec);
    nrec = nrec * grp;
    auto in = make_buffer(J, src, nrec);
    auto e = J.vgpr<u32>(), r = J.vgpr<u32>(), off = J.vgpr<u32>();
    e = (rg * T + J.thread_id_x()) << 3u;
    r = e >> static_cast<uint32_t>(hipasm::detail::log2u(D));  // (token, kv head) row
    // the row's first query head: row r G of the partials
    off = (r * grp * D + (e & (D - 1))) << 1u;
    auto hstep = J.sgpr<u32>();
    hstep = D * 2;
    auto sum = J.vgpr<f32>(8);
    auto x = J.vgpr<u32>(4);
    auto y = J.vgpr<u32>(4);
    sum.fill(0.0f);
    auto g = J.sgpr<u32>();
    g = 0u;
    J.While([&] { return g < grp; }, [&] {
      in.load(x, at(off));
      J.s_waitcnt(vmcnt(0));
      for (int i = 0; i < 4; ++i) {
        if constexpr (C.dtype == attn_dtype::f16) {
          for (int e = 0; e < 2; ++e) sum[2 * i + e] = sum[2 * i + e] + to_f32(x[i].as<dtype::f16x2>(), e);
          continue;
        }
        sum[2 * i] = sum[2 * i] + (x[i] << 16u).as<f32>();
        sum[2 * i + 1] = sum[2 * i + 1] + (x[i] & 0xffff0000u).as<f32>();
      }
      off = off + hstep;
      g = g + 1u;
    });
    for (int i = 0; i < 4; ++i) detail::attn_pack2<C.dtype>(J, y[i], sum[2 * i], sum[2 * i + 1]);
    auto so = J.vgpr<u32>();
    so = e << 1u;
    out.store(y, at(so));
  });
}

template <attn_bwd_config C>
constexpr void attn_bwd_kernel_m16(builder J, arg<float*> dq_acc_ptr, arg<uint16_t*> dk_ptr, arg<uint16_t*> dv_ptr,
                                   arg<const uint16_t*> q_ptr, arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr,
                                   arg<const uint16_t*> do_ptr, arg<const float*> lse_ptr, arg<const float*> delta_ptr,
                                   arg<const int*> cu_q, arg<const int*> cu_k, arg<unsigned> num_q_heads,
                                   arg<unsigned> num_kv_heads, arg<unsigned> batch, arg<unsigned> k_tiles,
                                   arg<float> scale_log2);

template <attn_bwd_config C>
constexpr void attn_bwd_kernel(builder J, arg<float*> dq_acc_ptr, arg<uint16_t*> dk_ptr, arg<uint16_t*> dv_ptr,
                               arg<const uint16_t*> q_ptr, arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr,
                               arg<const uint16_t*> do_ptr, arg<const float*> lse_ptr, arg<const float*> delta_ptr,
                               arg<const int*> cu_q, arg<const int*> cu_k, arg<unsigned> num_q_heads,
                               arg<unsigned> num_kv_heads, arg<unsigned> batch, arg<unsigned> k_tiles,
                               arg<float> scale_log2) {
  static_assert(detail::attn_bwd_config_error(C) == nullptr,
                std::string_view(detail::attn_bwd_config_error(C) ? detail::attn_bwd_config_error(C) : ""));
  if constexpr (C.m16()) {
    attn_bwd_kernel_m16<C>(J, dq_acc_ptr, dk_ptr, dv_ptr, q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, cu_q, cu_k,
                           num_q_heads, num_kv_heads, batch, k_tiles, scale_log2);
    return;
  } else {
  constexpr uint32_t D = C.head_dim, T = C.threads(), BN = C.bn(), BM = C.bm, W = C.waves;
  constexpr int DB = static_cast<int>(D / 32);  // 32-dim blocks
  constexpr int DS = static_cast<int>(D / 16);  // 16-dim slices of S and dP (a b128 read: two MFMAs)
  constexpr int QG = static_cast<int>(BM / 8);  // 8-query k-steps of dV^T, dK^T
  // dQ items: wave w takes 32-dim blocks w % DB (and + W ...) over key part w / DB of KP
  constexpr int QBW = DB >= static_cast<int>(W) ? DB / static_cast<int>(W) : 1;  // dQ blocks per wave
  constexpr uint32_t KP = W > static_cast<uint32_t>(DB) ? W / DB : 1;             // key parts
  constexpr uint32_t KPK = BN / KP;                                               // keys per part
  // LDS operand reads in flight ahead of the MFMAs: b128 rows of Q / dO (RS), b64 ones (RT)
  constexpr int RS = C.lds_lookahead < DS ? static_cast<int>(C.lds_lookahead) : DS, RT = static_cast<int>(C.lds_lookahead);
  auto pipelined = [&](int n, int ring, auto read, auto use) { detail::attn_bwd_pipelined(n, ring, read, use); };
  constexpr bool RC = C.dq == attn_bwd_dq::recompute;  // no dQ here (attn_bwd_dq_kernel's)
  constexpr bool A16 = C.dq == attn_bwd_dq::atomic16;   // dq_acc_ptr is dQ (the dtype)

  auto [kt, head, bidx] = detail::attn_bwd_workgroup<C>(J, num_q_heads, batch, k_tiles);
  auto [qse, kse, totq, sq, sk] = detail::varlen_sequence(J, cu_q, cu_k, batch, bidx);
  auto n0 = J.sgpr<i32>();
  n0 = (kt * BN).template as<i32>();

  auto body = [&] {
  auto [q_stride, kv_stride, Qb, dOb, Ab, Kb, Vb, dKb, dVb, Lb, Db, dqbase] = detail::attn_bwd_main_buffers<C>(
      J, dq_acc_ptr, dk_ptr, dv_ptr, q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, num_q_heads, num_kv_heads, head,
      qse[0], kse[0], totq, sq, sk);

  auto tid = J.thread_id_x();
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
  // gfx950's double-K atom (v_mfma_f32_32x32x16_bf16, twice the rate): one takes the operands
  // of two successive 32x32x8 k-steps of the same accumulator, their registers side by side (A
  // and B alike: the products are the same, summed in one instruction)
  constexpr const mfma_atom* DKA = detail::attn_dk_atom<C.dtype>();
  constexpr bool dk2 = DKA != nullptr;
  constexpr int KW = dk2 ? 4 : 2;  // registers of a b64-read operand pair (one MFMA's)
  static_assert(AT.a_row().mask == AT.b_col().mask && AT.b_col().mask == AT.c_col().mask &&
                AT.a_k().shift == AT.c_row().shift);
  auto lane = J.vgpr<u32>(), l32 = J.vgpr<u32>(), half = J.vgpr<u32>(), wave = J.sgpr<u32>();
  lane = tid & 63u;
  l32 = lane & AT.a_row().mask;
  half = lane >> AT.a_k().shift;
  wave = wave_id(J);

  // ---- LDS: K^T (D x BN) for the whole kernel; per query tile Q and dO in rows (BM x D: the A
  // operands of S and dP) and transposed (D x BM: those of dV^T and dK^T), and dS (BM x BN: dQ's
  // A operand) over the row tiles once every wave's S and dP are done.
  const auto [KT, QS, OS, QO, SS, QT, OT, QOT] = detail::attn_bwd_main_lds<D, BM, BN>(J);

  // K and V rows of the wave's keys (S's and dP's B operands): lane (i, h) holds dims 16p + 8h
  // .. + 7 of key 32w + i (attn_fwd's k order: lane half h reads dims 16p + 8h .. of both operands)
  auto kf = J.vgpr<u32>(DS, 4), vf = J.vgpr<u32>(DS, 4);
  auto krow = J.vgpr<u32>();
  krow = wave * 32u + l32;
  {
    // whole rows through the wave's rows of K^T's LDS (before K^T is staged there), as the dQ
    // kernel's Q and dO (8 cache lines an instruction, not 32: the CU's address path)
    constexpr uint32_t CPR = D / 8, RPI = 64 / CPR;
    constexpr lds_layout LW{.rows = BN, .cols = D, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
    static_assert(32 / RPI == DS && LW.bytes() <= detail::attn_bwd_b64_layout(D, BN).bytes());
    const lds_view WS(lds_ref{KT.base, LW.bytes()}, LW);
    auto srow = J.vgpr<u32>(), scol = J.vgpr<u32>(), off = J.vgpr<u32>(), c8k = J.vgpr<u32>();
    srow = wave * 32u + (lane >> hipasm::detail::log2u(CPR));
    scol = (lane & (CPR - 1)) << 3;
    off = (srow + n0.as<u32>()) * kv_stride + (scol << 1);
    for (int k = 0; k < DS; ++k) {
      Kb.load(kf[k], at(off));
      Vb.load(vf[k], at(off));
      if (k + 1 < DS) off = off + kv_stride * RPI;
    }
    c8k = half << 3;
    const lds_addr wa = WS.addr(srow, multiple_of(scol, 8)), ra = WS.addr(krow, multiple_of(c8k, 8));
    auto rows_through_lds = [&] {
      for (auto f : {kf, vf}) detail::attn_bwd_rows_through_lds(J, WS, f, wa, ra, DS, RPI);
    };
    if constexpr (RC) {
      rows_through_lds();
    } else {
      // K^T (dims x keys) for dQ's operands, in units of 4 keys x 8 dims (the K rows again, from
      // L2: four 16-byte loads, one 4x8 transpose per lane, eight b64 writes; Q^T's units below),
      // loaded under the rows' LDS round trips, stored once every wave has read its rows back
      constexpr uint32_t KU = BN * D / 32, KS = KU / T;
      static_assert(KU % T == 0);
      auto kst = J.vgpr<u32>(KS, 16), ktr = J.vgpr<u32>(16), dc = J.vgpr<u32>(KS), kq = J.vgpr<u32>(KS);
      auto rk = J.sgpr<u32>(4);
      for (int r = 0; r < 4; ++r) rk[r] = kv_stride * static_cast<uint32_t>(r);
      for (uint32_t st = 0; st < KS; ++st) {
        auto u = J.vgpr<u32>(), koff = J.vgpr<u32>();
        u = tid + st * T;
        // unit bits: key quad low 3, dim chunk, key quad high: a b64 write's 16 lanes (8 quads of
        // rows dc + e, dc + 8 + e) on 16 distinct 8-byte chunks of K^T's swizzle, and a load's 64
        // lanes 8 key rows x 128 bytes (8 lines, as whole-row units)
        dc[st] = ((u >> 3) & (D / 8 - 1)) << 3;  // first dim
        kq[st] = ((u & 7u) | ((u >> (3 + hipasm::detail::log2u(D / 8))) << 3)) << 2;  // first key
        koff = (kq[st] + n0.as<u32>()) * kv_stride + (dc[st] << 1);
        for (int r = 0; r < 4; ++r) Kb.load(kst[st].slice(4 * r, 4), at(koff) + at(rk[r]));
      }
      rows_through_lds();
      for (uint32_t st = 0; st < KS; ++st) {
        J.wait_for(kst[st]);
        transpose_per_lane(J, 4, 8, 2, kst[st], ktr);  // row e of ktr: dim dc + e, keys kq .. kq + 3
        if (st == 0) J.s_barrier();  // (every wave has read its K and V rows back)
        for (int e = 0; e < 8; ++e) KT.store(ktr.slice(2 * e, 2), at(dc[st]) + e, multiple_of(kq[st], 4));
      }
    }
  }
  auto dv = J.agpr<f32>(DB, 16).named("dv_t"), dk = J.agpr<f32>(DB, 16).named("dk_t");
  {  // zeroed by MFMAs of zeros: 16 AGPRs an instruction (bf16's, whatever the dtype)
    auto z = J.vgpr<u32>(2);
    z.fill(0u);
    for (int db = 0; db < DB; ++db) {
      J.v_mfma_f32_32x32x8_bf16(dv[db], z, z, 0);
      J.v_mfma_f32_32x32x8_bf16(dk[db], z, z, 0);
    }
  }
  auto c8 = J.vgpr<u32>();
  c8 = half << 3;
  if constexpr (!RC) {
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
  }
  // dQ (+)= dS K: wave w: blocks (w % DB) + DB j ... over key part w / DB; A = dS rows l32, keys
  // 4h .. + 3 of the k-step (LDS), B = K^T rows 32 blk + l32, the same keys: the wave's B
  // operands are the same every query tile, read from K^T once into AGPRs (K^T's LDS then
  // holds dS; the first iteration's barrier comes before its dS stores)
  constexpr int NQ = static_cast<int>(KPK / 8);
  auto kpart = J.sgpr<u32>(), dblk = J.sgpr<u32>();
  if constexpr (RC) {
  } else if constexpr (KP > 1) {
    kpart = (wave / static_cast<uint32_t>(DB)) * KPK;
    dblk = wave % static_cast<uint32_t>(DB);
  } else {
    kpart = 0u;
    dblk = wave * static_cast<uint32_t>(QBW);
  }
  auto kc = J.vgpr<u32>(), bc = J.vgpr<u32>(QBW);
  if constexpr (!RC) kc = (half << 2) + kpart;
  // (AGPRs: MFMA sources and DS destinations both take them; double-K: k-steps 2i, 2i + 1 side by side)
  constexpr int NQM = NQ / (KW / 2);  // dQ MFMAs of a block
  auto ktf = J.agpr<u32>(QBW * NQM, KW).named("kt_frag");
  for (int j = 0; j < (RC ? 0 : QBW); ++j) {
    bc[j] = l32 + (dblk + static_cast<uint32_t>(j)) * 32u;
    for (int st = 0; st < NQ; ++st)
      if constexpr (dk2) KT.load(ktf[j * NQM + st / 2].slice(2 * (st % 2), 2), at(bc[j]), multiple_of(kc, 4) + 8 * st);
      else KT.load(ktf[j * NQ + st], at(bc[j]), multiple_of(kc, 4) + 8 * st);
  }

  // LDS read addresses: Q / dO rows l32, dims 8h (+ 16p); dS rows l32, keys 4h (+ 8 a k-step)
  const lds_addr q_addr = QS.addr(l32, multiple_of(c8, 8)), o_addr = OS.addr(l32, multiple_of(c8, 8));
  auto trow = J.vgpr<u32>();
  trow = half << 2;

  // the mask: key j = n0 + 32w + l32 visible to query i = m0 + 8 (r / 4) + 4h + r % 4 iff
  // j < sk and (causal) j <= i + sk - sq, i.e. 8 (r / 4) + r % 4 >= j - (sk - sq) - m0 - 4h
  auto jkey = J.vgpr<i32>();
  jkey = (krow.as<i32>() + n0);
  auto key_ok = J.vgpr<u32>();  // j < sk (as a 0/1 for the mask's select)
  key_ok = select(jkey < sk, 1u, 0u);

  auto s = J.vgpr<f32>(16).named("s"), dp = J.vgpr<f32>(16).named("dp");
  auto pb = J.vgpr<u32>(8).named("p"), dsb = J.vgpr<u32>(8).named("ds");
  auto m0 = J.sgpr<i32>(), m_first = J.sgpr<i32>();
  if constexpr (C.causal) {
    // the first query that sees key n0: n0 - (sk - sq) (top-left: n0)
    if constexpr (C.top_left) m_first = n0 + 0;
    else m_first = n0 - (sk - sq);
    m_first = max(m_first, 0);
    m_first = ((m_first.as<u32>() / BM) * BM).as<i32>();
  } else {
    m_first = 0;
  }

  // The Q and dO tiles of query tile m0 + 2 BM are loaded (into VGPRs, stg) at the end of the
  // iteration of tile m0: their latency hides behind the next one's MFMAs. Units of 4 queries x
  // 8 dims (four 16-byte loads, one 4x8 transpose per lane, four b128 row writes and eight b64
  // transposed ones: attn_fwd's V^T tile units); unit u: tile u / D (0 Q, 1 dO; a wave's units
  // are all of one tile), query quad u % 8, dim chunk u % D / 8.
  constexpr uint32_t units = 2 * D, US = (units + T - 1) / T;
  static_assert(D % 64 == 0 && BM == 32);
  // (written under t == 0 or t == 1, read under t < 2: the checker does not relate the branches)
  auto stg = J.vgpr<u32>(static_cast<int>(US), 16).named("qo_stage").allow_undefined();
  auto vtr = J.vgpr<u32>(16);
  auto urow = J.vgpr<u32>(static_cast<int>(US)), ucol = J.vgpr<u32>(static_cast<int>(US)),
       uoff = J.vgpr<u32>(static_cast<int>(US));
  for (uint32_t st = 0; st < US; ++st) {
    auto u = J.vgpr<u32>(), jq = J.vgpr<u32>(), dc = J.vgpr<u32>();
    u = tid + st * T;
    jq = u & 7u;
    dc = (u & (D - 1)) >> 3;
    urow[st] = (u / D) * BM + (jq << 2);  // row of QO (dO's rows follow Q's)
    ucol[st] = dc << 3;
    uoff[st] = (jq << 2) * q_stride + (dc << 4);
  }
  // wave-uniform: which tile step st's units load (0 Q, 1 dO, 2+: none)
  auto unit_tile = [&](uint32_t st) {
    auto t = J.sgpr<u32>();
    t = (wave * 64u + st * T) / D;
    return t;
  };
  // this lane's LSE and D (queries m0 + 8g + 4h .. + 3), loaded for the next tile right after
  // their last use in this one (P, dS)
  auto lse = J.vgpr<f32>(QG, 4).named("lse"), dd = J.vgpr<f32>(QG, 4).named("delta");
  auto rq = J.sgpr<u32>(4);  // the unit's 4 rows: r q_stride
  for (int r = 0; r < 4; ++r) rq[r] = q_stride * static_cast<uint32_t>(r);
  auto prefetch = [&](const gpr<i32>& m) {
    auto qoff = J.sgpr<u32>();
    qoff = m.as<u32>() * q_stride;
    for (uint32_t st = 0; st < US; ++st) {
      auto t = unit_tile(st);
      J.If(t == 0u, [&] {
        for (int r = 0; r < 4; ++r) Qb.load(stg[st].slice(4 * r, 4), at(uoff[st]) + at(qoff) + at(rq[r]));
      });
      J.If(t == 1u, [&] {
        for (int r = 0; r < 4; ++r) dOb.load(stg[st].slice(4 * r, 4), at(uoff[st]) + at(qoff) + at(rq[r]));
      });
    }
  };
  auto load_rows = [&](const buffer& B, auto dst, const gpr<i32>& m) {
    auto loff = J.vgpr<u32>();
    loff = (m.as<u32>() + trow) << 2;
    for (int g = 0; g < QG; ++g) B.load(dst[g], at(loff) + 32 * g);
  };

  // dQ of a tile goes to dq_acc by atomics at the end of its iteration, after the prefetch of
  // the tile after next: VMEM operations complete in order, so the wait for that prefetch does
  // not wait for the atomics (their L2 round trip)
  auto scale = J.vgpr<f32>();  // the softmax scale (scale_log2 / log2 e)
  scale = scale_log2 * 0.69314718055994530942f;
  auto dq = J.vgpr<f32>(QBW, 16).named("dq");
  auto aoff = J.vgpr<u32>(QBW).named("dq_off");
  for (int j = 0; j < (RC ? 0 : QBW); ++j) {
    dq[j].fill(0.0f);
    aoff[j] = 0x80000000u;  // (past dq_acc: the prologue's atomics are dropped)
  }
  auto rowoff = J.sgpr<u32>(16);
  for (int r = 0; r < (RC || A16 ? 0 : 16); ++r) rowoff[r] = (q_stride + q_stride) * static_cast<uint32_t>(8 * (r / 4) + r % 4);
  // atomic16: dQ's C layout has one head dim a lane (dim 32 blk + l32; register r: row 8 (r /
  // 4) + 4h + r % 4). Pair p = registers 2p, 2p + 1 (rows R, R + 1) is scaled and rounded to
  // one dword (R low, R + 1 high) and swapped with the other lane of the pair l32 ^ 1 (DPP
  // quad_perm [1,0,3,2]); a byte permute keeps, on an even lane, row R of its dims l32, l32 + 1,
  // on an odd one row R + 1 of dims l32 - 1, l32: one packed atomic (global_atomic_pk_add_bf16
  // / _f16: two 16-bit adds in a dword; gfx942 has no buffer_atomic_pk_add_bf16, llvm-mc
  // -mcpu=gfx942 rejects it, gfx950 has both) a lane a pair, half the a32 form's. A tile's dQ is sent during the next tile's S = Q K^T
  // (interleaved with its MFMAs, off the barrier's path; the last tile's after the loop), so
  // the first tile sends the zeros of dq's fill. Rows past seqlen_q (the last tile's) hold dQ
  // = 0 (their dS is 0): their atomics go to the sequence's last row instead (adding 0; global
  // atomics have no buffer range to drop them): the offsets clamped to that row's.
  auto qodd = J.vgpr<u32>(), lcol = J.vgpr<u32>(A16 ? QBW : 1), lim = J.vgpr<u32>(A16 ? QBW : 1), psel = J.vgpr<u32>();
  auto dlt = J.sgpr<u32>(A16 ? 8 : 1);  // pair p's rows past the lane's first, in bytes
  auto lrow = J.vgpr<u32>();            // the lane's first row in a tile
  if constexpr (A16) {
    qodd = lane & 1u;
    lrow = trow + qodd;
    psel = select(qodd != 0u, 0x03020706u, 0x05040100u);  // odd: the other's high half, its own; even: own low, the other's
    auto sq1 = J.sgpr<u32>();
    sq1 = (sq - 1).template as<u32>() * q_stride;
    for (int j = 0; j < QBW; ++j) {
      lcol[j] = (bc[j] - qodd) << 1;
      lim[j] = lcol[j] + sq1;
    }
    for (int p = 0; p < 8; ++p) dlt[p] = q_stride * static_cast<uint32_t>(8 * (p / 2) + 2 * (p % 2));
  }
  // (a16) pack and send the pending tile's dQ (aoff: its lane offsets)
  auto dq_flush = [&] {
    for (int j = 0; j < QBW; ++j)
      for (int p = 0; p < 8; ++p) {
        auto pk = J.vgpr<u32>(), nb = J.vgpr<u32>(), o = J.vgpr<u32>();
        detail::attn_pack2<C.dtype>(J, pk, dq[j][2 * p] * scale, dq[j][2 * p + 1] * scale);
        J.v_mov_b32(nb, pk, dpp::quad_perm(1, 0, 3, 2));
        J.v_perm_b32(dq[j][p].template as<u32>(), nb, pk, psel);  // (registers 2p, 2p + 1 read: p <= 2p)
        o = min(aoff[j] + dlt[p], lim[j]);
        if constexpr (C.dtype == attn_dtype::f16) J.global_atomic_pk_add_f16(o, dq[j][p].template as<u32>(), dqbase);
        else J.global_atomic_pk_add_bf16(o, dq[j][p].template as<u32>(), dqbase);
      }
  };
  auto dq_atomics = [&] {
    for (int j = 0; j < (RC || A16 ? 0 : QBW); ++j)
      for (int r = 0; r < 16; ++r) Ab.atomic_add_f32(dq[j][r], at(aoff[j]) + at(rowoff[r]));
  };

  // The staged tile (stg) into LDS (rows and transposed). Every unit is some wave's when 2 D
  // units divide among the threads (straight-line code: it runs under the dQ MFMAs); else the
  // waves past the units skip theirs.
  constexpr bool all_units = units % T == 0;
  // (the units' LDS addresses are the same every tile: computed once)
  struct unit_addrs {
    lds_addr rows[4], cols[8];
  };
  unit_addrs ua[US];
  for (uint32_t st = 0; st < US; ++st) {
    auto trw = J.vgpr<u32>(), tcl = J.vgpr<u32>();
    trw = unit_tile(st) * D + ucol[st];
    tcl = urow[st] & (BM - 1);
    for (int r = 0; r < 4; ++r) ua[st].rows[r] = QO.addr(at(urow[st]) + r, multiple_of(ucol[st], 8));
    for (int e = 0; e < 8; ++e) ua[st].cols[e] = QOT.addr(at(trw) + e, multiple_of(tcl, 4));
  }
  auto store_tile = [&] {
    for (uint32_t st = 0; st < US; ++st) {
      auto t = unit_tile(st);
      auto unit = [&] {
        J.wait_for(stg[st]);
        for (int r = 0; r < 4; ++r) QO.store(stg[st].slice(4 * r, 4), ua[st].rows[r]);
        transpose_per_lane(J, 4, 8, 2, stg[st], vtr);  // row e of vtr: dim 8 dc + e, queries 4 jq .. + 3
        for (int e = 0; e < 8; ++e) QOT.store(vtr.slice(2 * e, 2), ua[st].cols[e]);
      };
      if constexpr (all_units) unit();
      else J.If(t < 2u, unit);
    }
  };

  // dS's addresses (rows 8 (r / 4) + 4h + r % 4, column key 32w + l32): rows 16 apart share a
  // swizzle pattern, so 8 addresses serve the 16 rows
  lds_addr ds_at[2][4];
  for (int a = 0; a < (RC ? 0 : 2); ++a)
    for (int i = 0; i < 4; ++i) ds_at[a][i] = SS.addr(at(trow) + (8 * a + i), krow);

  // Iteration of tile m0: its Q, dO, Q^T and dO^T tiles are in LDS (stored during the previous
  // iteration's dQ MFMAs, or by the prologue), its LSE and D in lse and dd; the next tile's Q
  // and dO are staged in stg.
  auto iteration = [&] {
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (the tiles are complete)
    auto mask_base = J.vgpr<i32>();
    if constexpr (C.top_left) mask_base = trow.as<i32>() + m0;
    else mask_base = trow.as<i32>() + (sk - sq + m0);
    // ---- S = Q K^T; dP = dO V^T with the mask and P (VALU) between its MFMAs; dV^T += dO^T P
    // with dS between its; dK^T += Q^T dS (keys the columns of S and dP) ----
    // LDS operand reads run LA ahead of their MFMAs (a ring of LA registers): one MFMA (32
    // cycles) does not cover an LDS read's latency
    auto qa = J.vgpr<u32>(RS, 4), oa = J.vgpr<u32>(RS, 4);
    // k order: MFMA (p, e) takes dims 16p + 8h + 4e .. + 3 of both operands (one b128 read: two MFMAs)
    auto rows_prod = [&](lds_view V, lds_addr addr, auto ring, auto frags, auto acc, auto after) {
      detail::attn_bwd_rows_prod<D, RS, C.dtype>(J, V, addr, ring, frags, acc, after);
    };
    // P = 2^((S scale - LSE) log2 e) (under the dP MFMAs), then the mask sets P = 0 (also on a
    // row with no visible key: LSE -inf, every key masked, whose exponent is NaN), on the tiles
    // where the wave has a masked key (a branch after the product: the wave's last key past sk,
    // or causal, past the diagonal of the tile's first query). Rounded to the dtype for dV^T.
    auto softmax_p = [&] {
      for (int r = 0; r < 16; ++r) {
        const int g = r / 4, i = r % 4;
        if (i == 0) J.wait_for(lse[g]);
        J.v_fma_f32(s[r], s[r], scale, -lse[g][i]);
        s[r] = s[r] * 1.44269504088896340736f;
        s[r] = exp2(s[r], {.flush_denormals = true});
      }
    };
    auto mask_p = [&] {
      auto rel = J.vgpr<i32>();
      if constexpr (C.causal) rel = select(key_ok == 0u, 1000000, gpr<i32>(jkey - mask_base));
      else rel = select(key_ok == 0u, 1000000, -1000000);
      for (int r = 0; r < 16; ++r) s[r] = select(rel > 8 * (r / 4) + r % 4, 0.0f, s[r]);
    };
    auto pack_p = [&](int r0, int r1) {
      for (int r = r0; r < r1; r += 2) detail::attn_pack2<C.dtype>(J, pb[r / 2], s[r], s[r + 1]);
    };
    auto lim_w = J.sgpr<i32>();  // the last key the wave's first query sees
    if constexpr (!C.causal) lim_w = sk - 1;
    else if constexpr (C.top_left) lim_w = min(sk - 1, m0 + 0);
    else lim_w = min(sk - 1, m0 + (sk - sq));
    auto jw = J.sgpr<i32>();  // the wave's last key
    jw = n0 + (wave * 32u + 31u).as<i32>();
    auto softmax_ds = [&] {  // dS = P (dP - D), rounded to the dtype
      for (int g = 0; g < QG; ++g) J.wait_for(dd[g]);
      for (int r = 0; r < 16; ++r) dp[r] = s[r] * (dp[r] - dd[r / 4][r % 4]);
      for (int r = 0; r < 16; r += 2) detail::attn_pack2<C.dtype>(J, dsb[r / 2], dp[r], dp[r + 1]);
    };
    // A = dO^T / Q^T rows 32 db + l32, queries 8g + 4h .. + 3 (b64 reads); B = P / dS, the C
    // layout's registers 4g .. 4g + 3; item i: k-step i / DB, block i % DB
    auto ta = J.vgpr<u32>(RT, KW);
    constexpr int NT = DB * QG / (KW / 2);  // MFMAs of a product
    // (by value: a constexpr lambda reads no reference parameter)
    // after(i): issued after MFMA i (LDS stores placed by hand: the interleaver keeps every LDS
    // store below the earlier stream's LDS reads)
    auto tprod = [&](lds_view V, auto accs, gpr<u32> bsrc, auto after) {
      detail::attn_bwd_t_prod<DB, QG, RT, C.dtype>(J, V, l32, trow, ta, accs, bsrc, after);
    };
    // The VALU work runs in the MFMAs' shadow, placed by hand (emit_cycles after each MFMA step):
    // P reads only S (done) and LSE, dS only dP (done), P and D, none of them the products' results
    if constexpr (A16) {  // (the previous tile's dQ, under S's MFMAs)
      instr_stream fl = record(J, dq_flush);
      rows_prod(QS, q_addr, qa, kf, s, [&](int) { emit_cycles(J, fl, dk2 ? 28 : 56); });
      emit_all(J, fl);
    } else {
      rows_prod(QS, q_addr, qa, kf, s, [](int) {});
    }
    {
      instr_stream sp = record(J, softmax_p);
      rows_prod(OS, o_addr, oa, vf, dp, [&](int) { emit_cycles(J, sp, dk2 ? 28 : 56); });
      emit_all(J, sp);
    }
    J.If(jw > lim_w, mask_p);
    // dV^T's first DB MFMAs take P's registers 0 .. PS1 / 2 - 1: the rest is packed under them
    constexpr int PS1 = dk2 ? 8 : 4;
    pack_p(0, PS1);
    auto mn = J.sgpr<i32>();
    mn = m0 + static_cast<int32_t>(BM);
    load_rows(Lb, lse, mn);
    {
      instr_stream pk = record(J, [&] { pack_p(PS1, 16); });
      instr_stream sd = record(J, softmax_ds);
      tprod(OT, dv, pb, [&](int i) {
        if (i + 1 < DB) emit_cycles(J, pk, 24);
        else if (i + 1 == DB) emit_all(J, pk);
        else emit_cycles(J, sd, 24);
      });
      emit_all(J, sd);
    }
    load_rows(Db, dd, mn);
    // ---- dS to LDS (K^T's place: every wave's dQ reads of the previous tile are done, before
    // this iteration's first barrier) with dK^T's MFMAs: row q = 8 (r / 4) + 4h + r % 4, column
    // key 32w + l32 ----
    static_assert(16 % NT == 0);
    tprod(QT, dk, dsb, [&](int i) {
      if constexpr (RC) return;
      for (int r = 16 / NT * i; r < 16 / NT * (i + 1); ++r)
        SS.store(dsb[r / 2], ds_at[(r / 4) % 2][r % 4], 16 * (r / 8), 0, {.width = r % 2 ? narrow::u16_d16_hi : narrow::u16});
    });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (dS complete; every wave's reads of this tile's Q, dO, Q^T, dO^T done)
    // ---- dQ (+)= dS K (the B operands in ktf), with the next tile's stores into the free tiles
    // (placed by hand: the interleaver keeps LDS stores below the dQ stream's LDS reads) ----
    instr_stream next_tile;
    if constexpr (all_units && !RC) next_tile = record(J, store_tile);
    constexpr int share = 28;  // cycles of the next tile's work after each dQ MFMA (of 32)
    for (int j = 0; j < (RC ? 0 : QBW); ++j) {
      pipelined(NQM, RT,
                [&](int st) {
                  if constexpr (!dk2) {
                    SS.load(ta[st % RT], at(l32), multiple_of(kc, 4) + 8 * st);
                    return;
                  }
                  for (int h = 0; h < 2; ++h)
                    SS.load(ta[st % RT].slice(2 * h, 2), at(l32), multiple_of(kc, 4) + 8 * (2 * st + h));
                },
                [&](int st) {
                  J.wait_for(ta[st % RT]);
                  const auto b = ktf[j * NQM + st];
                  if constexpr (dk2) mfma_run(J, *DKA, dq[j], ta[st % RT], b, st == 0 ? operand_arg(0) : operand_arg(dq[j]));
                  else if (st == 0) detail::attn_mfma_x8<C.dtype>(J, dq[j], ta[0], b, 0);
                  else detail::attn_mfma_x8<C.dtype>(J, dq[j], ta[st % RT], b, dq[j]);
                  if constexpr (all_units) emit_cycles(J, next_tile, share);
                });
      // dq_acc (unscaled; convert_dq scales): row m0 + 8 (r / 4) + 4h + r % 4, dim 32 blk + l32
      // (atomic16: dQ, pair 0's row and first dim of the lane)
      if constexpr (A16) aoff[j] = (lrow + m0.as<u32>()) * q_stride + lcol[j];
      else aoff[j] = (m0.as<u32>() + trow) * (q_stride + q_stride) + (bc[j] << 2);
    }
    if constexpr (all_units && !RC) emit_all(J, next_tile);
    else store_tile();
    mn = m0 + static_cast<int32_t>(2 * BM);
    prefetch(mn);
    dq_atomics();
  };

  m0 = m_first;
  load_rows(Lb, lse, m0);
  load_rows(Db, dd, m0);
  prefetch(m0);
  store_tile();
  auto m1 = J.sgpr<i32>();
  m1 = m0 + static_cast<int32_t>(BM);
  prefetch(m1);
  // (dropped: aoff is past dq_acc) both paths into the loop head then end with a prefetch and
  // the atomics
  if constexpr (A16) {
    for (int j = 0; j < QBW; ++j) aoff[j] = (lrow + m0.as<u32>()) * q_stride + lcol[j];  // (the fill's zeros: valid rows)
  } else {
    dq_atomics();
  }
  J.While([&] { return m0 < sq; }, [&] {
    iteration();
    m0 = m0 + static_cast<int32_t>(BM);
  });
  if constexpr (A16) J.If(m_first < sq, dq_flush);  // (the last tile's dQ)

  // ---- dK = scale (dK^T)^T, dV = (dV^T)^T through LDS (the whole of it, free once every wave
  // is past its last tile's dQ reads): a wave writes its 32 keys' f32 rows straight from the
  // accumulators (lane: key 32w + l32, dims 32 db + 8 g + 4h .. + 3, b128 writes from AGPRs)
  // and, in a loop, reads them back 8 elements a lane, D / 8 lanes a row, converts them and
  // stores whole rows 16 bytes a lane: 8 lines an instruction where the C layout's 8-byte stores
  // touch 32 (the texture addresser's cycles per line), and no unrolled conversion of every
  // accumulator (the kernel's compile time). Each wave reads back only its own rows (LDS
  // operations complete in order: dV's writes follow dK's reads). ----
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  // [key][dim] f32: 16-byte chunks XOR key % 8 (a write's 8 keys a pass on distinct banks)
  constexpr lds_layout LO{.rows = BN, .cols = D, .elem_bytes = 4, .swz_chunk = 16, .swz_groups = 8};
  static_assert(LO.bytes() <= C.lds_bytes() && BN == 4 * BM);
  const lds_view OUT(lds_ref{KT.base, LO.bytes()}, LO);
  constexpr uint32_t LPR = D / 8, RPR = 64 / LPR;  // lanes a row (8 elements each), rows a pass
  // passes a loop trip: their reads issued together (one LDS latency a trip)
  constexpr int NP = 32 / RPR < 4 ? static_cast<int>(32 / RPR) : 4;
  auto orow = J.vgpr<u32>(), ocol = J.vgpr<u32>(), ooff = J.vgpr<u32>(), ostep = J.sgpr<u32>();
  ocol = (lane & (LPR - 1)) << 3;
  auto scale2 = J.vgpr<f32>(2).aligned(2);  // the scale twice: a packed multiply's operand
  scale2[0] = scale + 0.0f;
  scale2[1] = scale + 0.0f;
  ostep = q_stride * RPR;
  auto x = J.vgpr<f32>(NP, 8).aligned(2);
  auto y = J.vgpr<u32>(NP, 4);
  lds_addr wr[4];
  for (int g = 0; g < 4; ++g) wr[g] = OUT.addr(at(krow), multiple_of(trow, 4) + 8 * g);
  for (int t = 0; t < 2; ++t) {
    const auto& acc = t == 0 ? dk : dv;
    for (int db = 0; db < DB; ++db)
      for (int g = 0; g < 4; ++g) OUT.store(acc[db].slice(4 * g, 4), wr[g], 0, 32 * db);
    orow = wave * 32u + (lane >> static_cast<uint32_t>(hipasm::detail::log2u(LPR)));
    ooff = (orow + n0.as<u32>()) * q_stride + (ocol << 1);
    detail::attn_bwd_rows_out<C.dtype, NP, RPR>(J, OUT, orow, ocol, ooff, ostep, 32 / RPR / NP, x, y, scale2,
                                                 t == 0 ? dKb : dVb, t == 0);
  }
  };  // body

  J.If(n0 < sk, body);
  }
}


// The recompute dQ kernel (config dq = recompute; FlashAttention-2's separate dQ pass): one
// workgroup of 4 waves per (query tile of BM = 128 rows, query head, sequence), wave w owning
// queries 32w .. 32w + 31, looping over key tiles of 32 (causal: those its rows see). The
// main kernel's schedule with the roles of queries and keys swapped: each wave keeps its Q and
// dO rows in VGPRs (the B operands), the key tile's K and V rows are the A operands from LDS, so
// S^T = K Q^T and dP^T = V dO^T have the queries as the MFMA's columns: a lane holds one query's
// scores, its LSE and D are one register each. P^T = 2^(S^T scale log2 e - LSE log2 e) (the
// forward's softmax: no running max), dS^T = P^T (dP^T - D) in the C layout is the B operand of
// dQ^T += K^T dS^T (K^T from LDS, written transposed from the staged K rows as the main
// kernel's Q^T). K and V of the tile after next are loaded into VGPRs at an iteration's end;
// two barriers an iteration. The mask runs only on tiles with a masked key for some query of
// the wave. At the end dQ = dtype(scale dQ^T^T), stored from the C layout.
template <attn_bwd_config C>
constexpr void attn_bwd_dq_kernel(builder J, arg<uint16_t*> dq_ptr, arg<const uint16_t*> q_ptr,
                                  arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr, arg<const uint16_t*> do_ptr,
                                  arg<const float*> lse_ptr, arg<const float*> delta_ptr, arg<const int*> cu_q,
                                  arg<const int*> cu_k, arg<unsigned> num_q_heads, arg<unsigned> num_kv_heads,
                                  arg<unsigned> batch, arg<unsigned> q_tiles, arg<float> scale_log2) {
  static_assert(detail::attn_bwd_config_error(C) == nullptr,
                std::string_view(detail::attn_bwd_config_error(C) ? detail::attn_bwd_config_error(C) : ""));
  if constexpr (C.dq == attn_bwd_dq::recompute) {
  constexpr uint32_t D = C.head_dim, T = C.dq_threads(), BM = C.dq_bm(), BN = 32;
  constexpr int DB = static_cast<int>(D / 32), DS = static_cast<int>(D / 16), KG = static_cast<int>(BN / 8);
  constexpr int RS = C.lds_lookahead < DS ? static_cast<int>(C.lds_lookahead) : DS, RT = static_cast<int>(C.lds_lookahead);
  constexpr float NEG_INF = -std::numeric_limits<float>::infinity();
  constexpr const mfma_atom* DKA = detail::attn_dk_atom<C.dtype>();
  constexpr bool dk2 = DKA != nullptr;
  constexpr int KW = dk2 ? 4 : 2;

  // Workgroup id (x fastest) -> query tile (slowest), then (head, sequence); causal: the last
  // (longest) tiles first, the short ones fill the last round (attn_fwd's order)
  auto y = J.sgpr<u32>(), head = J.sgpr<u32>(), bidx = J.sgpr<u32>();
  {
    auto id = J.sgpr<u32>(), hb = J.sgpr<u32>(), nhb = J.sgpr<u32>();
    nhb = num_q_heads * batch;
    id = J.workgroup_id_x() + q_tiles * (J.workgroup_id_y() + num_q_heads * J.workgroup_id_z());
    if constexpr (C.causal) y = q_tiles - 1u - id / nhb;
    else y = id / nhb;
    hb = id % nhb;
    head = hb % num_q_heads;
    bidx = hb / num_q_heads;
  }
  auto [qse, kse, totq, sq, sk] = detail::varlen_sequence(J, cu_q, cu_k, batch, bidx);
  auto m0 = J.sgpr<i32>();
  m0 = (y * BM).as<i32>();

  auto body = [&] {
  auto [kvh, q_stride, kv_stride] = detail::varlen_heads<D>(J, head, num_q_heads, num_kv_heads);
  // buffers from the sequence's first token and the head, sized to the sequence: rows past it
  // read zeros (keys: masked; queries: dO = D = 0 give dS = 0), their stores are dropped
  auto nrec = J.sgpr<u32>(), shift = J.sgpr<u32>();
  nrec = sq.as<u32>() * q_stride;
  auto Qb = make_buffer(J, q_ptr, nrec), dOb = make_buffer(J, do_ptr, nrec), dQb = make_buffer(J, dq_ptr, nrec);
  shift = qse[0] * q_stride + head * (D * 2);
  Qb.shift_base(shift);
  dOb.shift_base(shift);
  dQb.shift_base(shift);
  auto [Kb, Vb] = detail::varlen_kv_buffers<D>(J, sk, kse[0], kv_stride, kvh, k_ptr, v_ptr);
  auto [Lb, Db] = detail::varlen_row_buffers(J, sq, head, totq, qse[0], lse_ptr, delta_ptr);

  auto tid = J.thread_id_x();
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
  auto lane = J.vgpr<u32>(), l32 = J.vgpr<u32>(), half = J.vgpr<u32>(), wave = J.sgpr<u32>();
  lane = tid & 63u;
  l32 = lane & AT.a_row().mask;
  half = lane >> AT.a_k().shift;
  wave = wave_id(J);

  // LDS: the key tile's K and V rows (K's then V's: one view, a unit writes either by its row)
  // and K^T (D x BN)
  lds_pool pool(J);
  constexpr lds_layout LR = detail::gemm_tile_layout(BN, D), LR2 = detail::gemm_tile_layout(2 * BN, D),
                       LT = detail::attn_bwd_b64_layout(D, BN);
  constexpr uint32_t RB = LR.bytes();
  // (the prologue's Q and dO rows, BM x D, in the same space first; 16-byte chunks XOR row % 8)
  constexpr lds_layout LQ{.rows = BM, .cols = D, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};
  static_assert(2 * RB + LT.bytes() <= LQ.bytes());
  const lds_ref all = pool.alloc(LQ.bytes());
  const lds_ref rows{all.offset, 2 * RB};
  const lds_view KS(lds_ref{rows.offset, RB}, LR), VS(lds_ref{rows.offset + RB, RB}, LR), KV(rows, LR2);
  const lds_view KT(lds_ref{all.offset + 2 * RB, LT.bytes()}, LT), QS(all, LQ);

  // the wave's Q and dO rows (the B operands of S^T, dP^T): lane (i, h) holds dims 16p + 8h ..
  // + 7 of query 32w + i; its LSE and D. Loaded as whole rows (instruction k: lane L 16-byte
  // chunk L % CPR of row RPI k + L / CPR, 8 cache lines where the MFMA layout's touch 32: the
  // CU's address path) through the wave's rows of LDS, as attn_fwd's Q.
  auto qf = J.vgpr<u32>(DS, 4), of = J.vgpr<u32>(DS, 4);
  auto qrow = J.vgpr<u32>();
  qrow = wave * 32u + l32;
  auto lse = J.vgpr<f32>(), dd = J.vgpr<f32>();
  {
    constexpr uint32_t CPR = D / 8, RPI = 64 / CPR;
    static_assert(32 / RPI == DS);
    auto srow = J.vgpr<u32>(), scol = J.vgpr<u32>(), off = J.vgpr<u32>(), c8q = J.vgpr<u32>();
    srow = wave * 32u + (lane >> hipasm::detail::log2u(CPR));
    scol = (lane & (CPR - 1)) << 3;
    off = (srow + m0.as<u32>()) * q_stride + (scol << 1);
    for (int k = 0; k < DS; ++k) {
      Qb.load(qf[k], at(off));
      dOb.load(of[k], at(off));
      if (k + 1 < DS) off = off + q_stride * RPI;
    }
    off = (qrow + m0.as<u32>()) << 2;
    Lb.load(lse, at(off));
    Db.load(dd, at(off));
    c8q = half << 3;
    const lds_addr wa = QS.addr(srow, multiple_of(scol, 8)), ra = QS.addr(qrow, multiple_of(c8q, 8));
    for (auto f : {qf, of}) detail::attn_bwd_rows_through_lds(J, QS, f, wa, ra, DS, RPI);
    J.s_barrier();  // (every wave's rows read: the key tiles take the space)
  }
  auto dq = J.agpr<f32>(DB, 16).named("dq_t");
  {  // zeroed by MFMAs of zeros: 16 AGPRs an instruction (bf16's, whatever the dtype)
    auto z = J.vgpr<u32>(2);
    z.fill(0u);
    for (int db = 0; db < DB; ++db) J.v_mfma_f32_32x32x8_bf16(dq[db], z, z, 0);
  }
  auto c8 = J.vgpr<u32>(), trow = J.vgpr<u32>();
  c8 = half << 3;
  trow = half << 2;
  const lds_addr k_addr = KS.addr(l32, multiple_of(c8, 8)), v_addr = VS.addr(l32, multiple_of(c8, 8));

  // keys the tile's rows see: [0, kend); the mask: key k0 + 8 (r / 4) + 4h + r % 4 is visible
  // to query i = m0 + 32w + l32 iff it is <= lim = min(i + sk - sq (causal), sk - 1)
  auto kend = J.sgpr<i32>(), n_tiles = J.sgpr<i32>();
  if constexpr (C.causal) {
    if constexpr (C.top_left) kend = min(sk, m0 + static_cast<int32_t>(BM));
    else kend = min(sk, m0 + static_cast<int32_t>(BM) + (sk - sq));
    kend = max(kend, 0);
  } else {
    kend = sk + 0;
  }
  n_tiles = ((kend + static_cast<int32_t>(BN - 1)).as<u32>() / BN).as<i32>();
  auto lim = J.vgpr<i32>();
  if constexpr (C.causal) {
    if constexpr (C.top_left) lim = qrow.as<i32>() + m0;
    else lim = qrow.as<i32>() + (m0 + (sk - sq));
    lim = min(lim, sk - 1);
  } else {
    lim = sk - 1 + 0;
  }
  lim = lim - (trow.as<i32>());
  // the wave's smallest lim (its first query's): a tile whose last key is at most that needs no mask
  auto lim_w = J.sgpr<i32>();
  if constexpr (C.causal) {
    if constexpr (C.top_left) lim_w = m0 + (wave * 32u).as<i32>();
    else lim_w = m0 + (wave * 32u).as<i32>() + (sk - sq);
    lim_w = min(lim_w, sk - 1);
  } else {
    lim_w = sk - 1;
  }
  // -LSE log2 e; a row with LSE = -inf (it sees no key): -inf, so P = 0 for every key
  auto nl = J.vgpr<f32>();
  J.wait_for(lse);
  J.wait_for(dd);
  nl = select(lse == NEG_INF, NEG_INF, lse * -1.44269504088896340736f);

  // K and V rows of a key tile go through VGPRs (stg) in units of 4 keys x 8 dims as the main
  // kernel's Q and dO units (tile u / D: 0 K, 1 V; K's also written transposed). The waves form
  // NG groups of TG threads, group g staging the tiles t with t % NG = g: each group's loads
  // have NG iterations to arrive (a tile is loaded when its group stored its previous one).
  constexpr uint32_t units = 2 * D, NG = 2, TG = T / NG, US = units / TG, UW = TG / 64;
  static_assert(D % 64 == 0 && units % TG == 0 && TG % 64 == 0);
  auto grp = J.sgpr<u32>();
  grp = wave / UW;
  auto stg = J.vgpr<u32>(static_cast<int>(US), 16).named("kv_stage").allow_undefined();
  auto vtr = J.vgpr<u32>(16);
  auto urow = J.vgpr<u32>(static_cast<int>(US)), ucol = J.vgpr<u32>(static_cast<int>(US)),
       uoff = J.vgpr<u32>(static_cast<int>(US));
  for (uint32_t st = 0; st < US; ++st) {
    auto u = J.vgpr<u32>(), jq = J.vgpr<u32>(), dc = J.vgpr<u32>();
    u = tid - grp * TG + st * TG;
    jq = u & 7u;
    dc = (u & (D - 1)) >> 3;
    urow[st] = (u / D) * BN + (jq << 2);
    ucol[st] = dc << 3;
    uoff[st] = (jq << 2) * kv_stride + (dc << 4);
  }
  auto unit_tile = [&](uint32_t st) {
    auto t = J.sgpr<u32>();
    t = ((wave % UW) * 64u + st * TG) / D;
    return t;
  };
  auto rk = J.sgpr<u32>(4);
  for (int r = 0; r < 4; ++r) rk[r] = kv_stride * static_cast<uint32_t>(r);
  auto prefetch = [&](const gpr<i32>& k) {
    auto koff = J.sgpr<u32>();
    koff = k.as<u32>() * kv_stride;
    for (uint32_t st = 0; st < US; ++st) {
      auto t = unit_tile(st);
      J.If(t == 0u, [&] {
        for (int r = 0; r < 4; ++r) Kb.load(stg[st].slice(4 * r, 4), at(uoff[st]) + at(koff) + at(rk[r]));
      });
      J.If(t == 1u, [&] {
        for (int r = 0; r < 4; ++r) Vb.load(stg[st].slice(4 * r, 4), at(uoff[st]) + at(koff) + at(rk[r]));
      });
    }
  };
  struct unit_addrs {
    lds_addr rows[4], cols[8];
  };
  unit_addrs ua[US];
  for (uint32_t st = 0; st < US; ++st) {
    auto trw = J.vgpr<u32>(), tcl = J.vgpr<u32>();
    trw = ucol[st];  // (K^T rows: the unit's dims; V units write none)
    tcl = urow[st] & (BN - 1);
    for (int r = 0; r < 4; ++r) ua[st].rows[r] = KV.addr(at(urow[st]) + r, multiple_of(ucol[st], 8));
    for (int e = 0; e < 8; ++e) ua[st].cols[e] = KT.addr(at(trw) + e, multiple_of(tcl, 4));
  }
  auto store_tile = [&] {
    for (uint32_t st = 0; st < US; ++st) {
      auto t = unit_tile(st);
      J.If(t < 2u, [&] {
        J.wait_for(stg[st]);
        for (int r = 0; r < 4; ++r) KV.store(stg[st].slice(4 * r, 4), ua[st].rows[r]);
        J.If(t == 0u, [&] {
          transpose_per_lane(J, 4, 8, 2, stg[st], vtr);  // row e of vtr: dim 8 dc + e, keys 4 jq .. + 3
          for (int e = 0; e < 8; ++e) KT.store(vtr.slice(2 * e, 2), ua[st].cols[e]);
        });
      });
    }
  };

  auto s = J.vgpr<f32>(16).named("s"), dp = J.vgpr<f32>(16).named("dp");
  auto dsb = J.vgpr<u32>(8).named("ds");
  auto ka = J.vgpr<u32>(RS, 4), va = J.vgpr<u32>(RS, 4), ta = J.vgpr<u32>(RT, KW);
  auto k0 = J.sgpr<i32>(), kt = J.sgpr<i32>();
  // P^T (f32, in s), under the dP^T MFMAs; then the mask, on the tiles that have a masked key
  // for some query of the wave (a branch after the product)
  auto softmax_p = [&] {
    for (int r = 0; r < 16; ++r) {
      J.v_fma_f32(s[r], s[r], scale_log2, nl);
      s[r] = exp2(s[r], {.flush_denormals = true});
    }
  };
  auto mask_p = [&] {
    auto rel = J.vgpr<i32>();
    rel = lim - k0;
    for (int r = 0; r < 16; ++r) s[r] = select(rel >= 8 * (r / 4) + r % 4, s[r], 0.0f);
  };
  auto softmax_ds = [&](int r0, int r1) {  // dS^T = P^T (dP^T - D), rounded to the dtype: rows r0 .. r1 - 1
    for (int r = r0; r < r1; ++r) dp[r] = s[r] * (dp[r] - dd);
    for (int r = r0; r < r1; r += 2) detail::attn_pack2<C.dtype>(J, dsb[r / 2], dp[r], dp[r + 1]);
  };
  // dQ^T's first DB MFMAs take dS^T's registers 0 .. DS1 / 2 - 1 (its first k-step or pair):
  // the rest of dS^T runs under them
  constexpr int DS1 = dk2 ? 8 : 4;
  auto iteration = [&] {
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (the tile is complete)
    detail::attn_bwd_rows_prod<D, RS, C.dtype>(J, KS, k_addr, ka, qf, s, [](int) {});
    {
      instr_stream sp = record(J, softmax_p);
      detail::attn_bwd_rows_prod<D, RS, C.dtype>(J, VS, v_addr, va, of, dp, [&](int) { emit_cycles(J, sp, dk2 ? 28 : 56); });
      emit_all(J, sp);
    }
    J.If(k0 + static_cast<int32_t>(BN - 1) > lim_w, mask_p);
    softmax_ds(0, 16);
    detail::attn_bwd_t_prod<DB, KG, RT, C.dtype>(J, KT, l32, trow, ta, dq, dsb, [](int) {});
    J.s_barrier();  // (every wave's reads of the tile done: its LDS is refilled)
    auto next = [&] {  // tile kt + 1 (this group's) into LDS; its tile kt + 1 + NG loaded
      store_tile();
      auto kn = J.sgpr<i32>();
      kn = k0 + static_cast<int32_t>((1 + NG) * BN);
      prefetch(kn);
    };
    if constexpr (NG == 1) {
      next();
    } else {
      auto owner = J.sgpr<u32>();
      owner = (kt.as<u32>() + 1u) & (NG - 1);
      J.If(owner == grp, next);
    }
  };
  k0 = (grp * BN).as<i32>();
  prefetch(k0);  // (each group its first tile)
  J.If(grp == 0u, [&] {
    store_tile();
    auto kn = J.sgpr<i32>();
    kn = static_cast<int32_t>(NG * BN);
    prefetch(kn);
  });
  k0 = 0;
  kt = 0;
  J.While([&] { return kt < n_tiles; }, [&] {
    iteration();
    k0 = k0 + static_cast<int32_t>(BN);
    kt = kt + 1;
  });

  // dQ = scale (dQ^T)^T: lane (i, h) holds dims 32 db + 8g + 4h .. + 3 of query 32w + i
  auto scale = J.vgpr<f32>();
  scale = scale_log2 * 0.69314718055994530942f;
  auto x = J.vgpr<f32>(4);
  auto y2 = J.vgpr<u32>(2);
  auto off = J.vgpr<u32>();
  off = (qrow + m0.as<u32>()) * q_stride + (half << 3);
  for (int db = 0; db < DB; ++db)
    for (int g = 0; g < 4; ++g) {
      for (int c = 0; c < 4; ++c) {
        J.v_accvgpr_read_b32(x[c], dq[db][4 * g + c]);
        x[c] = x[c] * scale;
      }
      for (int c = 0; c < 2; ++c) detail::attn_pack2<C.dtype>(J, y2[c], x[2 * c], x[2 * c + 1]);
      dQb.store(y2, at(off) + 2 * (32 * db + 8 * g));
    }
  };  // body

  J.If(m0 < sq, body);
  }
}

}  // namespace hipasm::kernels

#include "attn_bwd_m16.hpp"

// Defines the HIP kernels name_dot_do_o, name, name_convert_dq and name_dq of configuration `cfg`
// (parenthesized); arguments in the order of the kernel functions (see attn_bwd_launch.hpp).
#define HIPASM_ATTN_BWD_KERNELS(name, cfg) \
  HIPASM_ATTN_BWD_MAIN_KERNELS(name, cfg)  \
  HIPASM_ATTN_BWD_DQ_KERNEL(name, cfg)

// The same kernels in two invocations (both into the module the launcher gets): name_dot_do_o,
// name and name_convert_dq; and name_dq (dq = recompute's dQ kernel; with dq = atomic an empty
// kernel the launcher never runs).
#define HIPASM_ATTN_BWD_MAIN_KERNELS(name, cfg)                                                                     \
  constexpr auto name##_odo_hipasm_fn = &::hipasm::kernels::attn_bwd_dot_do_o_kernel<cfg>;                      \
  extern "C" __attribute__((global)) void name##_dot_do_o(float* delta, float* dq_acc, const uint16_t* o,       \
                                                          const uint16_t* dout, const int* cu_q, unsigned hq,   \
                                                          unsigned batch) {                                     \
    HIPASM_KERNEL_BODY(name##_odo_hipasm_fn, delta, dq_acc, o, dout, cu_q, hq, batch);                           \
  }                                                                                                              \
  constexpr auto name##_hipasm_fn = &::hipasm::kernels::attn_bwd_kernel<cfg>;                                   \
  extern "C" __attribute__((global)) void name(float* dq_acc, uint16_t* dk, uint16_t* dv, const uint16_t* q,    \
                                               const uint16_t* k, const uint16_t* v, const uint16_t* dout,      \
                                               const float* lse, const float* delta, const int* cu_q,           \
                                               const int* cu_k, unsigned hq, unsigned hkv, unsigned batch,      \
                                               unsigned k_tiles, float scale_log2) {                            \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, dq_acc, dk, dv, q, k, v, dout, lse, delta, cu_q, cu_k, hq, hkv, batch,   \
                       k_tiles, scale_log2);                                                                     \
  }                                                                                                              \
  constexpr auto name##_cvt_hipasm_fn = &::hipasm::kernels::attn_bwd_convert_dq_kernel<cfg>;                    \
  extern "C" __attribute__((global)) void name##_convert_dq(                                                    \
      uint16_t* dq, const float* dq_acc, uint16_t* dk, uint16_t* dv, const uint16_t* dk_part,                   \
      const uint16_t* dv_part, const int* cu_q, const int* cu_k, unsigned hq, unsigned hkv, unsigned batch,     \
      unsigned dq_groups, unsigned red_groups, float scale) {                                                   \
    HIPASM_KERNEL_BODY(name##_cvt_hipasm_fn, dq, dq_acc, dk, dv, dk_part, dv_part, cu_q, cu_k, hq, hkv, batch,    \
                       dq_groups, red_groups, scale);                                                            \
  }

#define HIPASM_ATTN_BWD_DQ_KERNEL(name, cfg)                                                                        \
  constexpr auto name##_dqk_hipasm_fn = &::hipasm::kernels::attn_bwd_dq_kernel<cfg>;                            \
  extern "C" __attribute__((global)) void name##_dq(uint16_t* dq, const uint16_t* q, const uint16_t* k,         \
                                                    const uint16_t* v, const uint16_t* dout, const float* lse,  \
                                                    const float* delta, const int* cu_q, const int* cu_k,       \
                                                    unsigned hq, unsigned hkv, unsigned batch, unsigned q_tiles, \
                                                    float scale_log2) {                                         \
    HIPASM_KERNEL_BODY(name##_dqk_hipasm_fn, dq, q, k, v, dout, lse, delta, cu_q, cu_k, hq, hkv, batch, q_tiles,  \
                       scale_log2);                                                                              \
  }
