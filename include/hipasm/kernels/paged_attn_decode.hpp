// Paged-attention decode: one query token per sequence against a bf16 or fp8 KV cache in blocks
// (vLLM's paged_attention_v2 split, aiter's asm cache layouts), GQA, bf16 out.
//
//   out[s][h][d] = sum_t softmax_t(scale * q[s][h] . K[s][t]) V[s][t][d],  t < context_lens[s]
//   (fp8: K[s][t] = k_scale(t) * the fp8 values, V[s][t] = v_scale(t) * the fp8 values)
//
// Layouts (bf16 as uint16_t bits; those of aiter's pa_fwd_asm, csrc/py_itfs_cu/asm_pa.cu):
//   q            [seqs][num_kv_heads * gqa][head_dim], q_stride bytes from one sequence to the next
//   k_cache      [num_blocks][num_kv_heads][head_dim / 8][block_size][8]      (vLLM's key cache)
//   v_cache      [num_blocks][num_kv_heads][block_size / 8][head_dim][8]      (aiter's shuffled V)
//                kv_block_stride bytes from one block to the next (>= num_kv_heads * block_size *
//                head_dim * 2; a cache that interleaves K and V gives a larger one)
//   fp8 cache (pa_kv_cache::fp8_per_token, aiter's pertokenFp8; e4m3 bytes in the target's format,
//   16 a chunk):
//   k_cache      [num_blocks][num_kv_heads][head_dim / 16][block_size][16]
//   v_cache      [num_blocks][num_kv_heads][block_size / 16][head_dim][16]
//   k_scales, v_scales [num_blocks][num_kv_heads][block_size] f32
//   block_tables [seqs][bt_stride] i32, context_lens [seqs] i32 (>= 1), out [seqs][heads][head_dim]
//   part_out, part_ml, counters: the split's workspace (paged_attn_workspace_for); the counters
//                must be zero before the first launch, each launch leaves them zero
//
// Work split: workgroup (kv head, sequence, partition) of C.waves waves handles partition_blocks
// KV blocks of one sequence for the gqa query heads of one KV head, so K and V are read once for
// all of them. Wave w takes the partition's blocks w, w + waves, ... and double-buffers them in
// registers (the next block's 16-byte K and 8-byte V loads are in flight while this one is
// computed; the block numbers come from a VGPR of the wave's block-table entries). Per 16-token
// tile:
//   S = K . Q^T    D/16 v_mfma_f32_16x16x16_bf16: A = 16 tokens x 16 dims of K (a lane's 16-byte
//                  K chunk feeds two MFMAs; the dims are permuted the same way in Q), B = Q^T with
//                  the gqa heads in columns 0..gqa-1 (the others zero);
//   online softmax per head (column): a lane holds 4 tokens of one head; exp2 with the scale *
//                  log2(e) folded in; the running max moves only when a score passes it by more
//                  than 8 (then the 4 lane groups' max by xor_reduce(0x30) and the rescaling);
//   O^T += V^T . P^T  D/16 MFMAs: A = 16 dims x 16 tokens of V (one 8-byte load), B = P^T in bf16,
//                  which is the S tile's own register layout (no shuffle).
// fp8: S on D/16 v_mfma_f32_16x16x32_fp8_fp8, the K bytes as they are against Q split once into
// two fp8 terms per head (qh + ql = Q * 2^(k - e), exact but for elements below ~2^-10 of their
// head's largest: 2^-18 of it at most); V widened to bf16 exactly (to_bf16x4) in the S MFMAs'
// shadow; the K scales on the scores, the V scales on the probabilities (l sums the bare ones),
// the next block's loads in the P.V MFMAs' shadow.
// Tokens past the context in the last tile get -inf scores and zeroed V (a NaN in an unused cache
// slot cannot leak in). The waves combine through LDS (max, sum, O); a sequence whose context fits
// one partition writes bf16 out directly, else each wave writes its dims of the partition's
// partial result, and the last wave of a (sequence, kv head, wave) to finish combines them over
// the partitions in partition order, in the same kernel (helpers/arrival.hpp).
//
// Device side:  constexpr hipasm::kernels::paged_attn_decode_config cfg{.head_dim = 128, .block_size = 16, .gqa = 8};
//               HIPASM_PAGED_ATTN_DECODE_KERNEL(pa_d128_g8, cfg)
// Host side:    hipasm::kernels::launch_paged_attn_decode<cfg>(dev, module, "pa_d128_g8", {...});
#pragma once
#include <cstdint>
#include <array>
#include <bit>
#include <limits>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"

namespace hipasm::kernels {

// The KV cache's element type: bf16, or fp8 e4m3 (the target's) with an f32 scale per token and KV head for
// K and for V (aiter's pertokenFp8: a cache value is fp8 * its token's scale).
enum class pa_kv_cache { bf16, fp8_per_token };

struct paged_attn_decode_config {
  int head_dim = 128;   // 32..256, a multiple of 32 (of 64 with an fp8 cache)
  int block_size = 16;  // tokens per KV-cache block, a multiple of 16
  int gqa = 8;          // query heads per KV head, 1..16
  int waves = 4;        // waves per workgroup: 1, 2, 4 or 8, dividing head_dim / 16
  int prefetch = 2;     // KV blocks a wave has in flight while it computes one, 1..4
  pa_kv_cache kv_cache = pa_kv_cache::bf16;
  // Waves of this kernel a SIMD must hold by registers (builder::require_waves_per_simd; 0: any):
  // a configuration tuned at an occupancy states it, and a change that costs a wave fails to compile.
  int waves_per_simd = 0;
};
// Bytes of one cache element.
constexpr uint32_t pa_kv_elem_bytes(const paged_attn_decode_config& c) { return c.kv_cache == pa_kv_cache::bf16 ? 2u : 1u; }
// LDS row of one (wave, head) in the waves' combination: D floats of O and 32 bytes of padding.
// Rows 32 bytes past a multiple of 128 (D * 4 is one): the ds_write_b128 of a lane group (heads
// c..c+3 at dims 4 grp, heads c+4..c+7 at 4 (grp + 1)) and the combination's skewed
// ds_read_b128 then hit distinct banks (16 bytes of padding gave 2-way conflicts).
constexpr uint32_t pa_lds_row_bytes(const paged_attn_decode_config& c) { return static_cast<uint32_t>(c.head_dim) * 4u + 32u; }

template <paged_attn_decode_config C>
constexpr void paged_attn_decode_body(builder J, arg<const int*> block_tables, arg<const int*> context_lens,
                                      arg<const uint16_t*> q, arg<const void*> k_cache,
                                      arg<const void*> v_cache, arg<unsigned> bt_stride,
                                      arg<unsigned> partition_blocks, arg<unsigned> q_stride,
                                      arg<unsigned> kv_block_stride, arg<uint16_t*> out, arg<float*> part_out,
                                      arg<float*> part_ml, arg<unsigned*> counters, arg<float> scale_log2e,
                                      arg<unsigned> num_kv_heads, arg<unsigned> max_partitions,
                                      arg<const float*> k_scales, arg<const float*> v_scales) {
  constexpr int D = C.head_dim, BS = C.block_size, G = C.gqa, W = C.waves;
  static_assert(D >= 32 && D <= 256 && D % 32 == 0, "hipasm paged_attn_decode: head_dim must be 32..256, a multiple of 32");
  static_assert(BS >= 16 && BS <= 256 && BS % 16 == 0, "hipasm paged_attn_decode: block_size must be a multiple of 16, at most 256");
  static_assert(G >= 1 && G <= 16, "hipasm paged_attn_decode: gqa must be 1..16 (the heads are the 16 columns of an MFMA tile)");
  static_assert((W == 1 || W == 2 || W == 4 || W == 8) && (D / 16) % W == 0,
                "hipasm paged_attn_decode: waves must be 1, 2, 4 or 8 and divide head_dim / 16");
  static_assert(C.prefetch >= 1 && C.prefetch <= 4, "hipasm paged_attn_decode: prefetch must be 1..4");
  if constexpr (C.waves_per_simd > 0) J.require_waves_per_simd(C.waves_per_simd);  // (the config's waves_per_simd)
  J.workgroup_size(64 * W);  // (paged_attn_decode_launch's; full waves: the DPP scale reads below)
  constexpr bool F8 = C.kv_cache == pa_kv_cache::fp8_per_token;
  static_assert(!F8 || D % 64 == 0, "hipasm paged_attn_decode: head_dim must be a multiple of 64 with an fp8 cache");
  constexpr int EB = static_cast<int>(pa_kv_elem_bytes(C));
  constexpr int CD = 16 / EB;           // dims of a lane's 16-byte K chunk (one token)
  constexpr int KL = D / (4 * CD);      // 16-byte K loads per lane and tile
  constexpr int NJ = D / 16;            // MFMAs per tile and product
  constexpr int VW = EB;                // dwords of a lane's V load (4 tokens of one dim) per MFMA
  constexpr int TILES = BS / 16;        // 16-token tiles per block
  constexpr int SLOT_LOADS = TILES * (KL + NJ + (F8 ? 2 : 0));  // (fp8: + the tile's K and V scales)
  constexpr int P = C.prefetch, R = P + 1;  // blocks in flight besides the current one; register slots
  constexpr uint32_t head_bytes = static_cast<uint32_t>(BS * D * EB);  // one KV head of one block
  constexpr uint32_t scale_bytes = static_cast<uint32_t>(BS * 4);      // its scales (fp8)
  constexpr uint32_t RS = pa_lds_row_bytes(C);
  constexpr float ninf = -std::numeric_limits<float>::infinity();
  // every exp2 argument is <= 8 (x - max; the tiles' max lags by up to 8): results in (0, 2^8],
  // the denormal ones negligible next to the sums they join, so the bare v_exp_f32 (math.hpp's
  // flush_denormals)
  constexpr math_opts flush{.flush_denormals = true};
  using dtype::u32;
  using dtype::u64;
  using dtype::f32;

  auto kvh = J.workgroup_id_x();
  auto seq = J.workgroup_id_y();
  auto part = J.workgroup_id_z();
  auto w = wave_id(J);
  auto lane = lane_id(J);
  auto col = J.vgpr<u32>().named("col");  // MFMA column / A row: head for results, token for K loads
  auto grp = J.vgpr<u32>().named("grp");  // lane group 0..3: 4 rows of a result, 4 k-slots of an operand
  // (the atom's lane fields: the 16 x 16 atoms' A row / B and C column, and the k group / C's
  // 4-row group)
  constexpr const mfma_atom& AT = mfma_atom_of(F8 ? "v_mfma_f32_16x16x32_fp8_fp8" : "v_mfma_f32_16x16x16_bf16");
  static_assert(AT.a_row().mask == AT.c_col().mask && AT.a_k().shift == AT.c_row().shift);
  col = lane & AT.a_row().mask;
  grp = lane >> AT.a_k().shift;

  // this (sequence, kv head)'s query heads: G rows of D
  auto head0 = J.sgpr<u32>();  // the first query head of this KV head
  head0 = kvh * static_cast<uint32_t>(G);
  auto qbase = J.sgpr<u64>();
  qbase = q + mul_wide(seq, q_stride) + mul_wide(head0, static_cast<uint32_t>(D * 2));
  auto bi = J.sgpr<u32>().named("bi");  // the block-table index of the wave's next block to issue
  auto jb = J.sgpr<u32>().named("jb");  // and its number among the wave's blocks (bi = first + w + W jb)
  auto bt_base = J.sgpr<u64>();
  bt_base = block_tables + mul_wide(seq, bt_stride * 4u);
  auto bt_bytes = J.sgpr<u32>();
  bt_bytes = bt_stride << 2u;
  buffer BT = make_buffer(J, bt_base, bt_bytes);  // the row (entries past it read 0, never used)
  // The wave's block-table entries in a VGPR, block jb in lane jb % 64 (read by v_readlane):
  // scalar loads of them one block ahead kept an SMEM load in flight through the loop, and
  // every lgkmcnt(0) of the softmax's LDS exchanges waited for it (SMEM returns out of order).
  auto btv = J.vgpr<u32>().named("btv");
  auto bt_lane = J.vgpr<u32>();
  bt_lane = lane * static_cast<uint32_t>(4 * W);
  auto first = J.sgpr<u32>().named("first");
  first = part * partition_blocks;
  bi = first + w;
  jb = 0u;
  BT.load(btv, at(bt_lane) + (bi << 2u));
  // the context length by a vector load too: no SMEM, so the wait for the arguments that are not
  // preloaded (kernel_options::kernarg_preload) comes after it
  auto ctxv = J.vgpr<u32>(), ctxo = J.vgpr<u32>();
  ctxo = seq << 2u;
  J.global_load_dword(ctxv, ctxo, context_lens);
  buffer Qb = make_buffer(J, qbase, static_cast<uint32_t>(G * D * 2));
  // Q in the order of the K chunks: the CD dims of chunk 4 jj + grp in dwords CD / 2 jj ..
  auto qv = J.vgpr<u32>(D / 8).aligned(4).named("q");
  {
    auto qoff = J.vgpr<u32>();
    qoff = col * static_cast<uint32_t>(D * 2) + grp * static_cast<uint32_t>(CD * 2);  // head col, dims CD (4 jj + grp) ..
    for (int jj = 0; jj < KL; ++jj)
      for (int h = 0; h < CD / 8; ++h) Qb.load(qv.slice(jj * (CD / 2) + 4 * h, 4), qoff + (jj * 8 * CD + 16 * h));
  }

  // the running state, set while the context length is in flight
  auto acc = J.vgpr<f32>(4 * NJ).aligned(4).named("o");  // O^T: dims 16 j + 4 grp + i, head col
  acc.fill(0.0f);
  auto m = J.vgpr<f32>().named("m");
  auto l = J.vgpr<f32>().named("l");
  m = ninf + 0.0f;
  l = 0.0f + 0.0f;

  // (the bases and lane offsets of the loads, also while the context length is in flight)
  buffer Kb = make_buffer(J, k_cache, head_bytes);
  buffer Vb = make_buffer(J, v_cache, head_bytes);
  // this KV head's part of block 0 of each array (a block adds phys * its stride)
  auto k_head = J.sgpr<u64>(), v_head = J.sgpr<u64>();
  {
    auto kv_head_off = J.sgpr<u32>();
    kv_head_off = kvh * head_bytes;
    k_head = k_cache + kv_head_off;
    v_head = v_cache + kv_head_off;
  }

  // lane offsets inside one KV head of a block
  auto koff = J.vgpr<u32>().named("koff");  // token col of the tile, 16-byte chunk 4 jj + grp
  koff = (grp * static_cast<uint32_t>(BS) + col) << 4u;
  auto voff = J.vgpr<u32>().named("voff");  // tokens 4 grp .. 4 grp + 3 of the tile, dim col
  if constexpr (F8) voff = col * 16u + (grp << 2u);  // [BS/16][D][16]
  else voff = ((grp >> 1u) * static_cast<uint32_t>(D) + col) * 16u + ((grp & 1u) << 3u);  // [BS/8][D][8]

  auto kbuf = J.vgpr<u32>(R * TILES * KL * 4).aligned(4).named("k");
  auto vbuf = J.vgpr<u32>(R * TILES * NJ * VW).aligned(VW).named("v");
  // fp8: a tile's K and V scale of token 4 grp + col % 4 per slot, one dword a lane (the quad's
  // lanes hold the 4 scales of their tokens 4 grp .., each read through DPP quad_perm by the
  // multiply that applies it: dwordx4 loads of the 4 took as much of the CU's address path as
  // the K and V loads together)
  buffer KSb{}, VSb{};
  auto ksc = J.vgpr<f32>(F8 ? R * TILES : 1).named("ks");
  auto vsc = J.vgpr<f32>(F8 ? R * TILES : 1).named("vs");
  auto scale_stride = J.sgpr<u32>(), soff = J.vgpr<u32>(), tq = J.vgpr<u32>();
  auto ks_head = J.sgpr<u64>(), vs_head = J.sgpr<u64>();
  if constexpr (F8) {
    KSb = make_buffer(J, k_scales, scale_bytes);
    VSb = make_buffer(J, v_scales, scale_bytes);
    scale_stride = num_kv_heads * scale_bytes;  // the scales are [blocks][kv heads][block_size] f32
    auto kv_scale_off = J.sgpr<u32>();
    kv_scale_off = kvh * scale_bytes;
    ks_head = k_scales + kv_scale_off;
    vs_head = v_scales + kv_scale_off;
    soff = ((grp << 2u) + (col & 3u)) << 2u;
    tq = (grp << 2u) + (col & 3u);  // the token of the lane's scales in its tile
  }
  J.wait_for(ctxv);
  auto ctx = J.sgpr<u32>().named("ctx");
  J.v_readfirstlane_b32(ctx, ctxv);
  auto nblk = J.sgpr<u32>().named("nblk");
  nblk = (ctx + static_cast<uint32_t>(BS - 1)) / static_cast<uint32_t>(BS);
  J.If(first >= nblk, [&] { J.Return(); });  // the whole workgroup: a partition past the context
  auto last = J.sgpr<u32>();
  last = first + partition_blocks;
  J.s_min_u32(last, last, nblk);

  auto cur_blk = J.sgpr<u32>();
  auto phys = J.sgpr<u32>().named("phys");  // the physical block number of the block to issue
  // the block's loads into `slot` (its bases written straight into the V#s: stride 0, so word 1
  // is the address's high half alone)
  auto issue = [&](int slot) {
    auto off = J.sgpr<u64>();
    off = mul_wide(phys, kv_block_stride);
    auto base_of = [](const buffer& b) { return b.desc.slice(0, 2).template as<u64>(); };
    base_of(Kb) = k_head + off;
    for (int u = 0; u < TILES; ++u)
      for (int jj = 0; jj < KL; ++jj)
        Kb.load(kbuf.slice(((slot * TILES + u) * KL + jj) * 4, 4), koff + (jj * 4 * BS * 16 + u * 256));
    base_of(Vb) = v_head + off;
    for (int u = 0; u < TILES; ++u)
      for (int j = 0; j < NJ; ++j)
        Vb.load(vbuf.slice(((slot * TILES + u) * NJ + j) * VW, VW), voff + (u * EB * D * 16 + j * 256));
    if constexpr (F8) {
      off = mul_wide(phys, scale_stride);
      base_of(KSb) = ks_head + off;
      base_of(VSb) = vs_head + off;
      for (int u = 0; u < TILES; ++u) {
        KSb.load(ksc[slot * TILES + u], soff + u * 64);
        VSb.load(vsc[slot * TILES + u], soff + u * 64);
      }
    }
  };
  // fp8: 4 fp8 (one dword) -> 4 bf16 (two dwords, same order), exact (convert.hpp's to_bf16x4:
  // to_f32x2 and the high halves)
  auto fp8x4_to_bf16 = [&](const gpr<u32>& raw) { return to_bf16x4(raw.template as<dtype::fp8x4>()).template as<u32>(); };

  // fp8: Q's two fp8 terms (dims 4 (i % 4) .. 4 (i % 4) + 3 of chunk 4 (i / 4) + grp in dword
  // i: the K chunks' order) and the scores' scale for this lane's head (set after the first issues)
  auto qh = J.vgpr<u32>(F8 ? D / 16 : 2).aligned(2).named("qh");
  auto ql = J.vgpr<u32>(F8 ? D / 16 : 2).aligned(2).named("ql");
  auto qs = J.vgpr<f32>().named("qs");
  auto s = J.vgpr<f32>(4).aligned(4).named("s");
  auto s2 = J.vgpr<f32>(4).aligned(4).named("s2");
  auto p = J.vgpr<u32>(2).aligned(2).named("p");
  // compute(slot, next): with OVERLAP (an fp8 cache, one tile a block) `next` (the next block's
  // loads) is emitted in the P.V MFMAs' shadow (interleave); else it is not used
  constexpr bool OVERLAP = F8 && TILES == 1;
  auto compute = [&](int slot, const auto& next_in) {
    auto next = next_in;  // (a local copy: the constant interpreter's lambdas capture locals, not reference parameters)
    for (int u = 0; u < TILES; ++u) {
      auto tok0 = J.sgpr<u32>();
      tok0 = cur_blk * static_cast<uint32_t>(BS) + static_cast<uint32_t>(16 * u);
      auto tile = [&] {
        // bf16: two accumulators halve the chain of dependent MFMAs (its latency is the wave's step
        // time); fp8: one (the conversions between the MFMAs cover their latency). The first MFMA
        // into each adds to 0.
        // K in chunks of CD dims (bf16: dims 4 h .. 4 h + 3 of chunk jj in dwords CD / 2 jj + 2 h, + 1;
        // fp8: dims 8 h .. 8 h + 7 of chunk jj in dwords 4 jj + 2 h, + 1)
        auto kraw = kbuf.slice((slot * TILES + u) * KL * 4, KL * 4);
        // V as bf16: tokens 4 grp, 4 grp + 1 of dim 16 j + col in dword 2 j, the next two in 2 j + 1
        // (fp8: the pair of dim 16 j + col in vp[j])
        auto vs = vbuf.slice((slot * TILES + u) * NJ * VW, NJ * VW);
        std::array<gpr<u32>, F8 ? NJ : 1> vp{};
        auto s_mfmas = [&] {
          if constexpr (F8) {  // 8 bytes of a K chunk against the same dims of qh, then of ql
            for (int t = 0; t < 2; ++t)
              for (int d = 0; d < D / 32; ++d) {
                const auto qt = t == 0 ? qh.slice(2 * d, 2) : ql.slice(2 * d, 2);
                if (t == 0 && d == 0) J.v_mfma_f32_16x16x32_fp8_fp8(s, kraw.slice(2 * d, 2), qt, 0);
                else J.v_mfma_f32_16x16x32_fp8_fp8(s, kraw.slice(2 * d, 2), qt, s);
              }
          } else {
            for (int jj = 0; jj < KL; ++jj)
              for (int h = 0; h < CD / 4; ++h) {
                auto& a = h % 2 == 0 ? s : s2;
                const int d = jj * (CD / 4) + h;
                if (d < 2) J.v_mfma_f32_16x16x16_bf16(a, kraw.slice(2 * d, 2), qv.slice(2 * d, 2), 0);
                else J.v_mfma_f32_16x16x16_bf16(a, kraw.slice(2 * d, 2), qv.slice(2 * d, 2), a);
              }
          }
        };
        if constexpr (F8) {  // V's conversions in the shadow of the MFMAs
          interleave(J, [&] {
            for (int j = 0; j < NJ; ++j) vp[j].rebind(fp8x4_to_bf16(vs[j]));
          }, s_mfmas);
        } else {
          s_mfmas();
        }
        auto vpair = [&](int j) { return F8 ? vp[j] : vs.slice(2 * j, 2); };
        const int si = F8 ? slot * TILES + u : 0;  // (bf16: unused registers)
        auto ks = ksc[si], vsu = vsc[si];
        if constexpr (F8)
          for (int i = 0; i < 4; ++i) {
            J.v_mul_f32(s[i], ks, s[i], dpp::quad_perm(i, i, i, i));  // token 4 grp + i's scale
            s[i] = s[i] * qs;
          }
        else
          for (int i = 0; i < 4; ++i) s[i] = (s[i] + s2[i]) * scale_log2e;
        // the last tile: tokens at or past the context get -inf and a zero V
        J.If(ctx - tok0 < 16u, [&] {
          auto valid = J.sgpr<u32>();
          valid = ctx - tok0;
          auto ln = lane_id(J);   // (lane ids are recomputed where they are needed, not held
          auto tb = J.vgpr<u32>();  // through the loop) the lane's first token: 4 grp
          tb = (ln >> 2u) & 0xfffffffcu;
          for (int i = 0; i < 4; ++i) s[i] = select(tb + static_cast<uint32_t>(i) < valid, s[i], ninf);
          auto mlo = J.vgpr<u32>(), mhi = J.vgpr<u32>();
          mlo = select<u32>(tb < valid, 0xffffu, 0u) | select<u32>(tb + 1u < valid, 0xffff0000u, 0u);
          mhi = select<u32>(tb + 2u < valid, 0xffffu, 0u) | select<u32>(tb + 3u < valid, 0xffff0000u, 0u);
          for (int j = 0; j < NJ; ++j) {
            auto v2 = vpair(j);
            v2[0] = v2[0] & mlo;
            v2[1] = v2[1] & mhi;
          }
          if constexpr (F8)  // (a NaN scale times p = 0 is NaN too)
            vsu = select(tq < valid, vsu, 0.0f);
        });
        auto mt = J.vgpr<f32>();
        mt = max3(s[0], s[1], s[2]);
        J.v_max_f32(mt, mt, s[3]);
        // The running max m moves only when a score passes it by more than 8 (log2 units; the
        // probabilities stay <= 2^8, far inside f32 and bf16, and O / l does not depend on m):
        // the 4 lane groups' max exchange (two LDS round trips) and the rescaling of O and l then
        // run in a few tiles of a sequence (the first always) instead of in every tile.
        auto mlim = J.vgpr<f32>();
        mlim = m + 8.0f;  // (-inf at the start: every score passes)
        auto grow = J.sgpr<u64>();
        J.v_cmp_gt_f32(grow, mt, mlim);
        J.If((grow.lo() | grow.hi()) != 0u, [&] {  // (wave-uniform: any lane)
          auto mx = xor_reduce(J, reduce::max, mt, 0x30, {.all_lanes_active = true});
          auto mn = J.vgpr<f32>();
          mn = max(m, mx);
          // the rescaling of O and l, but while every m is -inf (the first tile: O and l are 0)
          auto seen = J.sgpr<u64>();
          auto sninf = J.sgpr<f32>();  // (a VOP3 compare takes no literal)
          sninf = ninf;
          J.v_cmp_neq_f32(seen, sninf, m);
          J.If((seen.lo() | seen.hi()) != 0u, [&] {
            auto alpha = J.vgpr<f32>();
            alpha = exp2(m - mn, flush);
            l = l * alpha;
            for (int i = 0; i < 4 * NJ; ++i) acc[i] = acc[i] * alpha;
          });
          m = mn;
        });
        auto exps = [&] {
          for (int i = 0; i < 4; ++i) s[i] = exp2(s[i] - m, flush);
        };
        auto sum_and_pack = [&] {
          l = l + ((s[0] + s[1]) + (s[2] + s[3]));
          if constexpr (F8) {  // P^T with the V scales folded in (the sum l has the bare probabilities)
            auto pw = J.vgpr<f32>(4);
            for (int i = 0; i < 4; ++i) J.v_mul_f32(pw[i], vsu, s[i], dpp::quad_perm(i, i, i, i));
            p[0] = cvt_bf16x2(pw[0], pw[1], bf16_round::nearest_even_finite).template as<u32>();
            p[1] = cvt_bf16x2(pw[2], pw[3], bf16_round::nearest_even_finite).template as<u32>();
          } else {
            p[0] = cvt_bf16x2(s[0], s[1], bf16_round::nearest_even_finite).template as<u32>();
            p[1] = cvt_bf16x2(s[2], s[3], bf16_round::nearest_even_finite).template as<u32>();
          }
        };
        if constexpr (OVERLAP) {  // the packing of the first probabilities between the later v_exp_f32
          interleave(J, exps, sum_and_pack);
        } else {
          exps();
          sum_and_pack();
        }
        auto pv = [&] {
          for (int j = 0; j < NJ; ++j) J.v_mfma_f32_16x16x16_bf16(acc.slice(4 * j, 4), vpair(j), p, acc.slice(4 * j, 4));
        };
        if constexpr (OVERLAP) interleave(J, pv, next);
        else pv();
      };
      if constexpr (TILES == 1) tile();
      else J.If(tok0 < ctx, tile);
    }
  };

  // this wave's blocks: first + w + W k, k < n
  auto n = J.sgpr<u32>().named("n");
  n = (last - first + static_cast<uint32_t>(W - 1) - w) / static_cast<uint32_t>(W);
  auto k = J.sgpr<u32>().named("k");
  k = 0u;
  // The next block's number (phys, read from btv's lane jb % 64) and V# sizes, for issue().
  // Always issued, so that every wait count is a constant: a block past this wave's last gets a
  // V# of 0 bytes, its loads return 0 without touching memory.
  auto recs = J.sgpr<u32>(), srecs = J.sgpr<u32>();
  auto issue_next = [&](const auto& valid, bool reload) {
    recs = select<u32>(valid, head_bytes, 0u);
    Kb.set_records(recs);
    Vb.set_records(recs);
    if constexpr (F8) {
      constexpr uint32_t ratio = head_bytes / scale_bytes;  // (D: the scales' records from recs)
      if constexpr ((ratio & (ratio - 1)) == 0) srecs = recs >> static_cast<uint32_t>(std::countr_zero(ratio));
      else srecs = select<u32>(recs != 0u, scale_bytes, 0u);
      KSb.set_records(srecs);
      VSb.set_records(srecs);
    }
    auto jl = J.sgpr<u32>();  // the block's lane in btv
    jl = jb & 63u;
    if (reload)  // a wave with more than 64 blocks: the next 64 entries (rare: one wait per 64 blocks)
      J.If(jl == 0u, [&] {
        J.If(recs != 0u, [&] {
          BT.load(btv, at(bt_lane) + (bi << 2u));
          J.s_waitcnt(vmcnt(0));
        });
      });
    J.wait_for(btv);
    phys = readlane(btv, jl);
    bi = bi + static_cast<uint32_t>(W);
    jb = jb + 1u;
  };
  for (int i = 0; i < P; ++i) {
    issue_next(n > static_cast<uint32_t>(i), false);
    issue(i);
  }
  // fp8: Q as two fp8 terms, qh + ql = Q * 2^(k - e) (e: the exponent of the head's largest |q|,
  // which scales to [2^(k-1), 2^k), k = 7 with FNUZ fp8, 8 with OCP), for S on fp8 MFMAs against
  // the K bytes as they are (no widening of K: 32 VALU a tile). Exact: a bf16 has 8 significant bits, qh keeps 4 and the rest fits
  // ql's 4, but for elements below 2^-3 after scaling (below ~2^-10 of the head's largest), where
  // ql is denormal: there each is off by at most 2^-11 (2^-18 of the largest; OCP: 2^-9 of
  // 2^8, as its converts flush below the smallest denormal 2^-9). qs folds 2^(e - k)
  // back into the scores' scale. Set while the first blocks are in flight.
  if constexpr (F8) {
    J.wait_for(qv);
    auto xf = J.vgpr<f32>(D / 4).aligned(2);  // the lane's q elements as f32 (element 2 t + i: half i of dword t)
    for (int t = 0; t < D / 8; ++t) {
      J.v_lshlrev_b32(xf[2 * t], 16, qv[t]);
      J.v_and_b32(xf[2 * t + 1], 0xffff0000u, qv[t]);
    }
    auto amax = J.vgpr<f32>();
    amax = 0.0f + 0.0f;
    for (int t = 0; t < D / 8; ++t) J.v_max3_f32(amax, abs(xf[2 * t]), abs(xf[2 * t + 1]), amax);
    auto hmax = xor_reduce(J, reduce::max, amax, 0x30, {.all_lanes_active = true});
    auto e = J.vgpr<u32>(), ne = J.vgpr<u32>();
    J.v_frexp_exp_i32_f32(e, hmax);  // hmax < 2^e (0 and inf/NaN: 0)
    // k: the largest power of two of the target's fp8 (FNUZ 240: 7, OCP 448: 8)
    constexpr uint32_t k = ((fp8_max_bits(active_target::desc.fp8, false) >> 23) & 0xff) - 127;
    ne = k - e;
    e = e - k;
    J.v_ldexp_f32(qs, scale_log2e, e);
    auto sq = J.vgpr<f32>(2).aligned(2);  // 2^(k - e) twice: a packed multiply's operand
    J.v_ldexp_f32(sq[0], 1.0f, ne);
    sq[1] = sq[0] + 0.0f;
    for (int t = 0; t < D / 8; ++t) J.v_pk_mul_f32(xf.slice(2 * t, 2), xf.slice(2 * t, 2), sq);
    auto r = J.vgpr<f32>(8);
    for (int c = 0; c < D / 32; ++c) {  // 8 dims: bf16 dwords 4 c .. 4 c + 3 -> fp8 dwords 2 c, 2 c + 1
      auto xs = xf.slice(8 * c, 8);
      for (int hw = 0; hw < 2; ++hw) {
        auto h8 = cvt_fp8x4(xs[4 * hw], xs[4 * hw + 1], xs[4 * hw + 2], xs[4 * hw + 3], false);
        for (int wd = 0; wd < 2; ++wd) {
          auto back = to_f32x2(h8, wd);
          r[4 * hw + 2 * wd] = xs[4 * hw + 2 * wd] - back[0];
          r[4 * hw + 2 * wd + 1] = xs[4 * hw + 2 * wd + 1] - back[1];
        }
        qh[2 * c + hw] = h8.template as<u32>();
        ql[2 * c + hw] = cvt_fp8x4(r[4 * hw], r[4 * hw + 1], r[4 * hw + 2], r[4 * hw + 3], false).template as<u32>();
      }
    }
  }
  auto step = [&](int slot) {
    cur_blk = bi - static_cast<uint32_t>(P * W);  // (bi: block k + P's, jb = k + P)
    issue_next(jb < n, true);
    auto next = [&] { issue((slot + P) % R); };
    if constexpr (!OVERLAP) next();
    // this block's loads: only those of the blocks issued after it may be in flight (P, or P - 1
    // when the next block's are issued inside compute)
    J.s_waitcnt(vmcnt((OVERLAP ? P - 1 : P) * SLOT_LOADS));
    compute(slot, next);
    k = k + 1u;
  };
  J.While([&] { return k < n; }, [&] {
    for (int r = 0; r < R; ++r) {
      step(r);
      if (r + 1 < R) J.If(k >= n, [&] { J.Break(); });
    }
  });
  J.s_waitcnt(vmcnt(0));  // a wave with no block: its Q loads

  // combine the waves: rows (wave, head) of D floats of O, and (max, sum) [head][wave] (a head's
  // W pairs in W / 2 ds_read_b128)
  const uint32_t o_bytes = static_cast<uint32_t>(W * G) * RS;
  auto lds = J.lds_bytes(o_bytes + static_cast<uint32_t>(G * W * 8), 16);
  auto row = J.vgpr<u32>();
  row = (w * static_cast<uint32_t>(G) + col) * RS + lds.offset + (grp << 4u);  // dims 16 j + 4 grp ..
  auto ml = J.vgpr<f32>(2).aligned(2);
  ml[0] = m + 0.0f;
  ml[1] = l + 0.0f;
  auto mlw = J.vgpr<u32>();
  mlw = (col * static_cast<uint32_t>(W) + w) * 8u + (lds.offset + o_bytes);
  J.If(col < static_cast<uint32_t>(G), [&] {  // (the padding heads' columns are not stored)
    for (int j = 0; j < NJ; ++j) J.ds_write_b128(row, acc.slice(4 * j, 4), {.offset = static_cast<int32_t>((16 * j) * 4)});
    // a head's sum over the 4 lane groups' tokens: group 0 writes (max, its sum), the others add
    // theirs (one wave's LDS operations run in order; no cross-lane reduction and its two waits)
    J.If(grp == 0u, [&] { J.ds_write_b64(mlw, ml); }).Else([&] { J.ds_add_f32(mlw, l, {.offset = 4}); });
  });

  // Wave w finishes dims w DW .. w DW + DW - 1 of every head, as G CPW items of 4 dims: item
  // t = lane + 64 r (round r) is head t / CPW, chunk (t - 2 head) % CPW of its DW dims. Every
  // lane reads data of its own (the MFMA layout's 16 columns left half the lanes reading copies
  // of head G - 1), and the skew spreads a ds_read_b128's 8-lane groups (lanes 0-3 with 20-23,
  // ...) over the 32 banks: rows are 8 dwords past a multiple of 32, head h's chunk c starts at
  // bank 4 (2 h + c) % 32. (The items' addresses are computed while the writes drain.)
  constexpr int DW = D / W, CPW = DW / 4, RND = (G * CPW + 63) / 64;
  auto ih = J.vgpr<u32>(RND).named("ih");  // the item's head (>= G: no item, its stores dropped by the ranges)
  auto ic = J.vgpr<u32>(RND).named("ic");  // and chunk
  auto ihr = J.vgpr<u32>(RND);             // the head clamped to G - 1 for the reads
  auto mrow = J.vgpr<u32>(RND), crow = J.vgpr<u32>(RND);
  auto wdims = J.sgpr<u32>();  // this wave's first dim, in bytes of f32
  wdims = w * static_cast<uint32_t>(DW * 4);
  for (int r = 0; r < RND; ++r) {
    auto t = J.vgpr<u32>();
    t = lane + static_cast<uint32_t>(64 * r);
    ih[r] = t / static_cast<uint32_t>(CPW);
    ic[r] = (t + static_cast<uint32_t>(2 * CPW) - ((ih[r] << 1u) % static_cast<uint32_t>(CPW))) % static_cast<uint32_t>(CPW);
    J.v_min_u32(ihr[r], ih[r], static_cast<uint32_t>(G - 1));
    crow[r] = ihr[r] * RS + (ic[r] << 4u) + wdims + lds.offset;
    mrow[r] = ihr[r] * static_cast<uint32_t>(W * 8) + (lds.offset + o_bytes);
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  auto mls = J.vgpr<f32>(2 * W * RND).aligned(W == 1 ? 2 : 4);
  auto ov = J.vgpr<f32>(4 * W * RND).aligned(4);
  for (int r = 0; r < RND; ++r) {
    if constexpr (W == 1) J.ds_read_b64(mls.slice(2 * r, 2), mrow[r]);
    else
      for (int q = 0; q < W / 2; ++q) J.ds_read_b128(mls.slice(2 * (r * W + 2 * q), 4), mrow[r], {.offset = 16 * q});
    for (int v = 0; v < W; ++v) J.ds_read_b128(ov.slice(4 * (r * W + v), 4), crow[r], {.offset = static_cast<int32_t>(v * G * RS)});
  }
  J.s_waitcnt(lgkmcnt(0));
  auto M = J.vgpr<f32>(RND), L = J.vgpr<f32>(RND), f = J.vgpr<f32>();
  auto o = J.vgpr<f32>(4 * RND).aligned(4);
  for (int r = 0; r < RND; ++r) {
    const auto mr = [&](int v) { return mls[2 * (r * W + v)]; };
    M[r] = mr(0) + 0.0f;
    for (int v = 1; v < W; ++v) J.v_max_f32(M[r], M[r], mr(v));
    for (int v = 0; v < W; ++v) {
      f = exp2(mr(v) - M[r], flush);  // a wave without blocks: -inf, f = 0
      const auto lv = mls[2 * (r * W + v) + 1];
      if (v == 0) L[r] = lv * f;
      else J.v_fmac_f32(L[r], lv, f);
      for (int i = 0; i < 4; ++i) {
        const auto x = ov[4 * (r * W + v) + i];
        if (v == 0) o[4 * r + i] = x * f;
        else J.v_fmac_f32(o[4 * r + i], x, f);
      }
    }
  }
  // bf16 out of the items: o (4 floats a round) / sum
  auto store_out = [&](const gpr<f32>& ot, const gpr<f32>& sum) {
    auto outb = J.sgpr<u64>();
    outb = out + mul_wide(seq * num_kv_heads + kvh, static_cast<uint32_t>(G * D * 2));
    buffer Ob = make_buffer(J, outb, static_cast<uint32_t>(G * D * 2));
    auto wb = J.sgpr<u32>();
    wb = w * static_cast<uint32_t>(DW * 2);
    auto ob = J.vgpr<u32>(2).aligned(2);
    for (int r = 0; r < RND; ++r) {
      auto inv = J.vgpr<f32>();
      inv = rcp(sum[r]);
      auto ooff = J.vgpr<u32>();
      ooff = ih[r] * static_cast<uint32_t>(D * 2) + (ic[r] << 3u);
      ob[0] = cvt_bf16x2(ot[4 * r] * inv, ot[4 * r + 1] * inv).template as<u32>();
      ob[1] = cvt_bf16x2(ot[4 * r + 2] * inv, ot[4 * r + 3] * inv).template as<u32>();
      Ob.store(ob, at(ooff) + wb);
    }
  };
  J.If(nblk <= partition_blocks, [&] { store_out(o, L); }).Else([&] {
    // (the division here, not at the start: it sat between the context's arrival and the first
    // block's loads)
    auto nparts = J.sgpr<u32>().named("nparts");
    nparts = (nblk + partition_blocks - 1u) / partition_blocks;
    // The split, combined in this kernel. Partials partition-major, so that a V# of the
    // sequence's nparts partitions bounds the reads of the last wave (past them: zeros):
    //   part_out [seq][kv head][part][G][D] f32, part_ml [seq][kv head][wave][part][G] (max, sum).
    // Each wave writes its dims of O and its own copy of (max, sum), counts itself in at the
    // counter of its (sequence, kv head, wave), and the last of the nparts waves there combines
    // its dims over the partitions in partition order (helpers/arrival.hpp).
    constexpr uint32_t PB = static_cast<uint32_t>(G * D * 4), MB = static_cast<uint32_t>(G * 8);
    auto sk = J.sgpr<u32>();
    sk = seq * num_kv_heads + kvh;
    auto pob = J.sgpr<u64>(), pmb = J.sgpr<u64>();
    pob = part_out + mul_wide(sk * max_partitions, PB);
    auto wrow = J.sgpr<u32>();  // this wave's (max, sum) rows
    wrow = sk * static_cast<uint32_t>(W) + w;
    pmb = part_ml + mul_wide(wrow * max_partitions, MB);
    auto obytes = J.sgpr<u32>(), mbytes = J.sgpr<u32>();
    obytes = nparts * PB;
    mbytes = nparts * MB;
    buffer PO = make_buffer(J, pob, obytes);
    buffer PM = make_buffer(J, pmb, mbytes);
    auto jo = J.sgpr<u32>();  // this wave's dims, in bytes of f32
    jo = w * static_cast<uint32_t>(DW * 4);
    auto orow = J.vgpr<u32>(RND), mrow_g = J.vgpr<u32>(RND);  // an item's dims and (max, sum) in a partition
    for (int r = 0; r < RND; ++r) {
      orow[r] = ihr[r] * static_cast<uint32_t>(D * 4) + (ic[r] << 4u);
      mrow_g[r] = ihr[r] << 3u;
    }
    {
      auto sofs_o = J.sgpr<u32>(), sofs_m = J.sgpr<u32>();
      sofs_o = part * PB + jo;
      sofs_m = part * MB;
      auto mlo = J.vgpr<f32>(2).aligned(2);
      for (int r = 0; r < RND; ++r) {
        auto wo = J.vgpr<u32>(), wm = J.vgpr<u32>();  // lanes without an item: out of range; (max, sum) once a head
        wo = select(ih[r] < static_cast<uint32_t>(G), orow[r], 0x80000000u);
        wm = select(ih[r] < static_cast<uint32_t>(G) && ic[r] == 0u, mrow_g[r], 0x80000000u);
        PO.store(o.slice(4 * r, 4), at(wo) + sofs_o, {.sc1 = true});
        mlo[0] = M[r] + 0.0f;
        mlo[1] = L[r] + 0.0f;
        PM.store(mlo, at(wm) + sofs_m, {.sc1 = true});
      }
    }
    auto cnt = J.vgpr<u32>();
    cnt = wrow << 2u;
    if_last_arrival(J, counters, cnt, nparts, [&] {
      // online over chunks of CH partitions (their loads in flight together), in partition order
      constexpr int CH = [] {  // at most 16, with at most 60 loads and 120 VGPRs in flight
        int c = 16;
        if (60 / (2 * RND) < c) c = 60 / (2 * RND);
        if (120 / (6 * RND) < c) c = 120 / (6 * RND);
        return c;
      }();
      auto pv = J.vgpr<f32>(CH * 4 * RND).aligned(4);
      auto pm = J.vgpr<f32>(CH * 2 * RND).aligned(2);
      auto ot = J.vgpr<f32>(4 * RND).aligned(4);
      ot.fill(0.0f);
      auto Mt = J.vgpr<f32>(RND), Lt = J.vgpr<f32>(RND), cm = J.vgpr<f32>(), mn = J.vgpr<f32>(), a = J.vgpr<f32>();
      Mt.fill(ninf);
      Lt.fill(0.0f);
      auto c = J.sgpr<u32>(), co = J.sgpr<u32>(), cmo = J.sgpr<u32>(), rem = J.sgpr<u32>();
      c = 0u;
      // a chunk's partitions in groups of 4, each group's loads and arithmetic skipped when the
      // chunk ends before it (2 partitions: 16 loads and ~130 VALU of zeros before)
      constexpr int GS = 4, NG = (CH + GS - 1) / GS;
      auto groups = [&](const auto& body_in) {  // body(k0, k1): partitions k0 .. k1 - 1 of the chunk
        auto body = body_in;  // (a local copy: the constant interpreter's lambdas capture locals, not reference parameters)
        for (int g = 0; g < NG; ++g) {
          const int k0 = g * GS, k1 = k0 + GS < CH ? k0 + GS : CH;
          if (g == 0) body(k0, k1);
          else J.If(rem > static_cast<uint32_t>(k0), [&] { body(k0, k1); });
        }
      };
      J.While([&] { return c < nparts; }, [&] {
        co = c * PB + jo;
        cmo = c * MB;
        rem = nparts - c;
        groups([&](int k0, int k1) {
          for (int k = k0; k < k1; ++k)
            for (int r = 0; r < RND; ++r) {
              PO.load(pv.slice(4 * (k * RND + r), 4), at(orow[r]) + co + k * PB, {.sc1 = true});
              PM.load(pm.slice(2 * (k * RND + r), 2), at(mrow_g[r]) + cmo + k * MB, {.sc1 = true});
            }
        });
        J.s_waitcnt(vmcnt(0));
        for (int r = 0; r < RND; ++r) {
          const auto pmax = [&](int k) { return pm[2 * (k * RND + r)]; };
          cm = ninf + 0.0f;
          groups([&](int k0, int k1) {
            for (int k = k0; k < k1; ++k) {  // partitions past nparts left out
              a = select(rem > static_cast<uint32_t>(k), pmax(k), ninf);
              J.v_max_f32(cm, cm, a);
            }
          });
          J.v_max_f32(mn, Mt[r], cm);
          a = exp2(Mt[r] - mn, flush);  // the first chunk: -inf, a = 0
          Lt[r] = Lt[r] * a;
          for (int i = 0; i < 4; ++i) ot[4 * r + i] = ot[4 * r + i] * a;
          groups([&](int k0, int k1) {
            for (int k = k0; k < k1; ++k) {
              f = exp2(min(pmax(k) - mn, 0.0f), flush);  // past nparts: max 0 and the row 0 (the V#'s range), f finite
              J.v_fmac_f32(Lt[r], pm[2 * (k * RND + r) + 1], f);
              for (int i = 0; i < 4; ++i) J.v_fmac_f32(ot[4 * r + i], pv[4 * (k * RND + r) + i], f);
            }
          });
          Mt[r] = mn + 0.0f;
        }
        c = c + static_cast<uint32_t>(CH);
      });
      store_out(ot, Lt);
    });
  });
}

// The kernel: the arguments it needs first (up to kv_block_stride, 14 dwords) are preloaded into
// SGPRs when the code object is built with KERNARG_PRELOAD (hipasm_add_code_object), else loaded.
template <paged_attn_decode_config C>
inline constexpr auto paged_attn_decode =
    with_options<paged_attn_decode_body<C>, kernel_options{.kernarg_preload = arg_preload::fitting}>;

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr paged_attn_decode_config).
#define HIPASM_PAGED_ATTN_DECODE_KERNEL(NAME, CFG)                                                                   \
  extern "C" __attribute__((global)) void NAME(const int* block_tables, const int* context_lens, const uint16_t* q,  \
                                               const void* k_cache, const void* v_cache, unsigned bt_stride,         \
                                               unsigned partition_blocks, unsigned q_stride,                         \
                                               unsigned kv_block_stride, uint16_t* out, float* part_out,             \
                                               float* part_ml, unsigned* counters, float scale_log2e,                \
                                               unsigned num_kv_heads, unsigned max_partitions,                       \
                                               const float* k_scales, const float* v_scales) {                       \
    HIPASM_KERNEL_BODY((hipasm::kernels::paged_attn_decode<CFG>), block_tables, context_lens, q, k_cache, v_cache,   \
                       bt_stride, partition_blocks, q_stride, kv_block_stride, out, part_out, part_ml, counters,     \
                       scale_log2e, num_kv_heads, max_partitions, k_scales, v_scales);                               \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {

struct paged_attn_decode_args {
  uint64_t out = 0, q = 0, k_cache = 0, v_cache = 0, block_tables = 0, context_lens = 0;  // device addresses
  // an fp8 cache's scales, [num_blocks][num_kv_heads][block_size] f32 each (unused with bf16)
  uint64_t k_scales = 0, v_scales = 0;
  // the split's workspace (paged_attn_workspace_for), needed when it splits; the counters must be
  // zero before the first launch (each launch leaves them zero)
  uint64_t part_out = 0, part_ml = 0, counters = 0;
  uint32_t seqs = 0, num_kv_heads = 0;
  uint32_t bt_stride = 0;     // block-table entries from one sequence to the next
  uint32_t max_context = 0;   // the largest context length (sizes the partitions and the workspace)
  float scale = 0;            // the softmax scale, usually 1 / sqrt(head_dim)
  uint32_t q_stride = 0;      // bytes between sequences of q; 0: num_kv_heads * gqa * head_dim * 2
  uint32_t kv_block_stride = 0;  // bytes between cache blocks; 0: num_kv_heads * block_size * head_dim * element bytes
  uint32_t partition_blocks = 0;  // KV blocks per workgroup; 0: paged_attn_partition_blocks's choice
};

// Blocks per partition, from a cost estimate fitted to this kernel on the timing model's MI300X
// (bench_kernel_paged_attn_decode with HIPASM_PA_PARTITION_BLOCKS=N, head dim 128, gqa 8, 8 KV
// heads, times without the dispatch):
//   - a workgroup streams its blocks at ~7.5 GB/s per wave and block in flight (4 waves x 2: 60
//     GB/s, b8 ctx8192 unsplit: 4.2 MB a workgroup in 70 us), at most at the 67 GB/s of a CU's
//     address path (32 B/clk at 2.1 GHz, docs/timing-model.md; 8 waves, b1 ctx8192 on 16 and 32
//     workgroups: 33.5 MB in 36.1 / 20.8 us, 68 GB/s);
//   - the device at ~3900 GB/s (b8 ctx8192 and b32 ctx2048: 269.5 MB in ~70 us);
//   - each round of workgroups (8 waves a CU) ~1.5 us of first loads and of combining the waves;
//     a split ~2 us more and 0.05 us a partition (stores of the partials, the count, the last
//     wave's loads: b1 ctx8192 2-16 partitions, b8 ctx512 and ctx2048 2-4 partitions, 2.3-2.6 us).
// Each candidate (whole blocks a wave) is timed by
//   rounds (1.5 + split) + max(rounds x bytes a workgroup / its rate, bytes / the device's rate);
// the fastest wins, fewer partitions on a tie (with 4 waves the bench's short-batch rows split,
// the others do not).
template <paged_attn_decode_config C>
constexpr uint32_t paged_attn_partition_blocks(uint32_t seqs, uint32_t num_kv_heads, uint32_t max_context,
                                               uint32_t cus = 304) {
  const uint32_t blocks = (max_context + C.block_size - 1) / C.block_size;
  if (blocks == 0) return 1;
  const double groups = double(seqs) * num_kv_heads;
  // K and V of one block and KV head (fp8: and their scales)
  const bool f8 = C.kv_cache == pa_kv_cache::fp8_per_token;
  const double block_bytes = double(C.block_size) * C.head_dim * 2.0 * pa_kv_elem_bytes(C) + (f8 ? C.block_size * 8.0 : 0.0);
  // a block in flight streams at 7.5 GB/s per 8 KiB (its latency); an fp8 wave also computes at
  // most ~10.4 GB/s (a 16-token tile in ~850 cycles with K and V widened to bf16; S on fp8
  // MFMAs takes ~700, not refitted)
  double wg_gbps = 7.5 * C.waves * C.prefetch * block_bytes / 8192.0;
  if (f8 && wg_gbps > 10.4 * C.waves) wg_gbps = 10.4 * C.waves;
  if (wg_gbps > 67.0) wg_gbps = 67.0;
  const double device_gbps = 3900.0, round_us = 1.5, split_us = 2.0, part_us = 0.05;
  const double slots = double(cus) * (C.waves >= 8 ? 1 : 8 / C.waves);
  auto estimate = [&](uint32_t pb, uint32_t parts) {
    const double wgs = groups * parts;
    double rounds = 1;
    while (rounds * slots < wgs) rounds += 1;
    const double per_wg = rounds * pb * block_bytes / (wg_gbps * 1e3);
    const double device = groups * blocks * block_bytes / (device_gbps * 1e3);
    return rounds * (round_us + (parts > 1 ? split_us + part_us * parts : 0.0)) + (per_wg > device ? per_wg : device);
  };
  uint32_t best = blocks;
  double best_us = estimate(blocks, 1);
  const uint32_t w = static_cast<uint32_t>(C.waves);
  for (uint32_t pb = w; pb < blocks; pb += w) {
    const uint32_t parts = (blocks + pb - 1) / pb;
    const double us = estimate(pb, parts);
    if (us < best_us || (us == best_us && parts < (blocks + best - 1) / best)) best = pb, best_us = us;
  }
  return best;
}
constexpr uint32_t paged_attn_partitions(uint32_t max_context, uint32_t block_size, uint32_t partition_blocks) {
  const uint32_t blocks = (max_context + block_size - 1) / block_size;
  return (blocks + partition_blocks - 1) / partition_blocks;
}
// Workspace bytes (part_out, part_ml, counters) for seqs sequences of num_kv_heads KV heads and
// `partitions`: part_out [seqs][kv heads][partitions][gqa][head_dim] f32, part_ml [seqs][kv heads]
// [waves][partitions][gqa] (max, sum) f32, a u32 counter per (sequence, kv head, wave).
struct paged_attn_workspace {
  uint64_t part_out_bytes = 0, part_ml_bytes = 0, counter_bytes = 0;
};
template <paged_attn_decode_config C>
constexpr paged_attn_workspace paged_attn_workspace_for(uint32_t seqs, uint32_t num_kv_heads, uint32_t partitions) {
  const uint64_t groups = uint64_t(seqs) * num_kv_heads;
  return {groups * partitions * C.gqa * C.head_dim * 4, groups * C.waves * partitions * C.gqa * 8, groups * C.waves * 4};
}

struct paged_attn_decode_report {
  rt::launch_report attn;
  uint32_t partition_blocks = 0, partitions = 0;
};

// Launches NAME: grid kv heads x seqs x partitions, waves * 64 threads; a split context is
// combined in the same kernel. The same call for the simulator and the HIP backend.
template <paged_attn_decode_config C>
paged_attn_decode_report launch_paged_attn_decode(rt::device& dev, rt::module& m, std::string_view kernel,
                                                  const paged_attn_decode_args& a, const rt::launch_options& opts = {}) {
  auto fail = [](const std::string& s) { throw std::invalid_argument("hipasm paged_attn_decode launch: " + s); };
  if (a.seqs == 0 || a.num_kv_heads == 0) fail("seqs and num_kv_heads must be >= 1");
  if (a.max_context == 0) fail("max_context must be >= 1 (the largest context length)");
  if (!a.out || !a.q || !a.k_cache || !a.v_cache || !a.block_tables || !a.context_lens)
    fail("out, q, k_cache, v_cache, block_tables or context_lens is null");
  if (C.kv_cache == pa_kv_cache::fp8_per_token && (!a.k_scales || !a.v_scales))
    fail("an fp8 cache needs k_scales and v_scales ([num_blocks][num_kv_heads][block_size] f32)");
  const uint32_t blocks = (a.max_context + C.block_size - 1) / C.block_size;
  if (a.bt_stride < blocks)
    fail("bt_stride (" + std::to_string(a.bt_stride) + ") is below the blocks of max_context (" + std::to_string(blocks) + ")");
  if (!std::isfinite(a.scale)) fail("scale must be finite");
  const uint32_t heads = a.num_kv_heads * C.gqa;
  const uint64_t min_q_stride = uint64_t(heads) * C.head_dim * 2;
  const uint64_t min_block = uint64_t(a.num_kv_heads) * C.block_size * C.head_dim * pa_kv_elem_bytes(C);
  const uint32_t qs = a.q_stride ? a.q_stride : static_cast<uint32_t>(min_q_stride);
  const uint64_t kbs = a.kv_block_stride ? a.kv_block_stride : min_block;
  if (qs < min_q_stride) fail("q_stride is below num_kv_heads * gqa * head_dim * 2");
  if (kbs < min_block || kbs >= (1ull << 32))
    fail("kv_block_stride must be >= num_kv_heads * block_size * head_dim * element bytes and below 4 GiB");
  const uint32_t pb = a.partition_blocks ? a.partition_blocks
                                         : paged_attn_partition_blocks<C>(a.seqs, a.num_kv_heads, a.max_context);
  const uint32_t parts = paged_attn_partitions(a.max_context, C.block_size, pb);
  if (parts > 1) {
    if (!a.part_out || !a.part_ml || !a.counters)
      fail("the context is split in " + std::to_string(parts) + " partitions: part_out, part_ml and counters are needed (paged_attn_workspace_for)");
    const auto ws = paged_attn_workspace_for<C>(a.seqs, a.num_kv_heads, parts);
    if (ws.part_out_bytes >= (1ull << 32) || ws.part_ml_bytes >= (1ull << 32))
      fail("the workspace must be below 4 GiB (32-bit offsets)");
  }
  constexpr double log2e = 1.44269504088896340736;
  const float scale_log2e = static_cast<float>(double(a.scale) * log2e);
  paged_attn_decode_report r;
  r.partition_blocks = pb;
  r.partitions = parts;
  rt::kernel_args args;
  args.add(a.block_tables).add(a.context_lens).add(a.q).add(a.k_cache).add(a.v_cache).add(a.bt_stride).add(pb).add(qs)
      .add(static_cast<uint32_t>(kbs)).add(a.out).add(a.part_out).add(a.part_ml).add(a.counters).add(scale_log2e)
      .add(a.num_kv_heads).add(parts).add(a.k_scales).add(a.v_scales);
  r.attn = dev.launch(m, kernel, {a.num_kv_heads, a.seqs, parts}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args, opts);
  return r;
}
}  // namespace hipasm::kernels
#endif
