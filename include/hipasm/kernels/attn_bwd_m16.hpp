// attn_bwd's main kernel on 16x16 MFMAs (config keys_per_wave 48; included by attn_bwd.hpp,
// whose header describes the algorithm, the layouts and the other kernels).
//
// Why a second main kernel: every query tile a workgroup visits adds its dQ partial over the
// workgroup's keys into dq_acc by f32 atomics, head_dim * 4 bytes a query row, so the atomics per
// (query, key) pair fall with the keys a workgroup holds (BN): 4 bytes at the 32x32 kernel's BN =
// 128, 2.67 at 192 (AMD's gfx942 fmha_v3_bwd: 4 waves x 48 keys on v_mfma_f32_16x16x16_bf16, read
// with llvm-objdump). The 32x32 kernel cannot hold more keys a wave: its query tile of 32 rows
// makes S and dP 16 registers a 32 keys. With query tiles of BM = 16 rows (16x16x16 MFMAs: A and
// B a lane's 4 k-consecutive elements of row / column lane % 16, k group lane / 16; C a lane's 4
// rows 4 (lane / 16) + i of column lane % 16) a wave holds 16 keys in 4 registers of S:
//   S, dP (16 x KPW):  C blocks kb (keys 16 kb ..); A = Q / dO rows from LDS (b128: dims 32p + 8g
//                      .. + 7, two k-steps), B = the wave's K / V rows in VGPRs (the same dims);
//   dV^T, dK^T (D x KPW, AGPRs): A = dO^T / Q^T (dims x 16 queries, written transposed, b64 reads),
//                      B = P / dS in S's C layout (its 4 rows are the k-step's 4 queries);
//   dQ (16 x D, + over the workgroup's keys): wave w its D / 4 dims: A = dS (LDS, b64 reads),
//                      B = K^T rows of the wave's dims (from LDS once, AGPRs).
// gfx950: S, dP and dQ on the double-K v_mfma_f32_16x16x32_bf16 (8 consecutive k a lane group).
// One iteration per query tile of 16 rows; the tile after next's Q and dO (and LSE and D) are
// loaded at an iteration's end (a load completes behind the atomics issued before it) and stored
// into LDS (rows and transposed) under the next iteration's dQ MFMAs. Two barriers an iteration
// (dS complete; every wave's reads of the tile done). dK, dV at the end through LDS as f32, half
// the dims at a time, converted in a loop to whole-row 16-byte stores.
#pragma once

namespace hipasm::kernels {

template <attn_bwd_config C>
constexpr void attn_bwd_kernel_m16(builder J, arg<float*> dq_acc_ptr, arg<uint16_t*> dk_ptr, arg<uint16_t*> dv_ptr,
                                   arg<const uint16_t*> q_ptr, arg<const uint16_t*> k_ptr, arg<const uint16_t*> v_ptr,
                                   arg<const uint16_t*> do_ptr, arg<const float*> lse_ptr, arg<const float*> delta_ptr,
                                   arg<const int*> cu_q, arg<const int*> cu_k, arg<unsigned> num_q_heads,
                                   arg<unsigned> num_kv_heads, arg<unsigned> batch, arg<unsigned> k_tiles,
                                   arg<float> scale_log2) {
  constexpr uint32_t D = C.head_dim, T = C.threads(), BN = C.bn(), KPW = C.keys_per_wave, W = C.waves;
  constexpr uint32_t BM = 16;
  constexpr int KB = static_cast<int>(KPW / 16);  // 16-key blocks a wave
  constexpr int DB = static_cast<int>(D / 16);    // 16-dim blocks (dV^T, dK^T rows)
  constexpr int DP = static_cast<int>(D / 32);    // 32-dim slices of S and dP (a b128 read: two MFMAs)
  constexpr int QB = DB / static_cast<int>(W);    // dQ dim blocks a wave
  constexpr bool A16 = C.dq == attn_bwd_dq::atomic16;  // dq_acc_ptr is dQ (the dtype)
  constexpr int NK = static_cast<int>(BN / 16);   // dQ k-steps (16 keys each)
  static_assert(D == 128 && W == 4 && QB >= 1);
  constexpr const mfma_atom& AT = mfma_atom_of(C.dtype == attn_dtype::f16 ? "v_mfma_f32_16x16x16_f16" : "v_mfma_f32_16x16x16_bf16");
  static_assert(AT.a_row().mask == 15 && AT.b_col().mask == 15 && AT.c_col().mask == 15 && AT.a_k().shift == 4 &&
                AT.c_row().shift == 4);
  auto mma = [&](const auto& d, const auto& a, const auto& b, const auto& c) { mfma_run(J, AT, d, a, b, c); };
  // gfx950's double-K atom (v_mfma_f32_16x16x32_bf16 / _f16, twice the rate; nullptr on a target
  // without it): S, dP and dQ take 8 consecutive k a lane group (one b128 read of Q / dO, two b64
  // reads of dS and K^T); dV^T and dK^T contract over the 16 queries (16x16x16)
  constexpr const mfma_atom* A32 = find_mfma_atom(C.dtype == attn_dtype::f16 ? "v_mfma_f32_16x16x32_f16" : "v_mfma_f32_16x16x32_bf16");
  constexpr bool dk2 = A32 != nullptr;
  constexpr int NKS = dk2 ? NK / 2 : NK, KR = dk2 ? 4 : 2;  // dQ's k-steps, and registers an operand
  auto mma2 = [&](const auto& d, const auto& a, const auto& b, const auto& c) {
    if constexpr (dk2) mfma_run(J, *A32, d, a, b, c);
  };
  // P and dS (MFMA operands) rounded half away from zero where the target has no single-instruction
  // nearest-even conversion (gfx942: 3 VALU a pair, not 5)
  constexpr bf16_round PR = isa::find_instr("v_cvt_pk_bf16_f32") >= 0 ? bf16_round::nearest_even_finite : bf16_round::half_away;

  auto [kt, head, bidx] = detail::attn_bwd_workgroup<C>(J, num_q_heads, batch, k_tiles);
  auto [qse, kse, totq, sq, sk] = detail::varlen_sequence(J, cu_q, cu_k, batch, bidx);
  auto n0 = J.sgpr<i32>();
  n0 = (kt * BN).template as<i32>();

  auto body = [&] {
  auto [q_stride, kv_stride, Qb, dOb, Ab, Kb, Vb, dKb, dVb, Lb, Db, dqbase] = detail::attn_bwd_main_buffers<C>(
      J, dq_acc_ptr, dk_ptr, dv_ptr, q_ptr, k_ptr, v_ptr, do_ptr, lse_ptr, delta_ptr, num_q_heads, num_kv_heads, head,
      qse[0], kse[0], totq, sq, sk);

  auto tid = J.thread_id_x();
  auto lane = J.vgpr<u32>(), l16 = J.vgpr<u32>(), grp = J.vgpr<u32>(), wave = J.sgpr<u32>();
  lane = tid & 63u;
  l16 = lane & 15u;
  grp = lane >> 4u;
  wave = wave_id(J);

  // ---- LDS: K^T (D x BN; then dS, BM x BN, in its place), Q and dO rows (BM x D), Q^T and dO^T
  // (D x BM). The b64-read tiles swizzle 8-byte chunks (16 rows of a column on distinct banks).
  const auto [KT, QS, OS, QO, SS, QT, OT, QOT] = detail::attn_bwd_main_lds<D, BM, BN>(J);

  auto kbase = J.vgpr<u32>();  // the lane's key in block 0 (of the workgroup's)
  kbase = wave * KPW + l16;
  // LDS read addresses: Q / dO rows l16, dims 8g (+ 32p)
  auto c8 = J.vgpr<u32>();
  c8 = grp << 3;
  const lds_addr q_addr = QS.addr(l16, multiple_of(c8, 8)), o_addr = OS.addr(l16, multiple_of(c8, 8));
  auto trow = J.vgpr<u32>();  // the lane's first query of a tile (C rows 4g + i)
  trow = grp << 2;

  // the mask: key j = n0 + KPW w + 16 kb + l16 visible to query i = m0 + 4g + r iff j < sk and
  // (causal) j <= i + sk - sq (top-left: j <= i)
  auto jkey = J.vgpr<i32>();
  jkey = kbase.as<i32>() + n0;
  auto key_ok = J.vgpr<u32>(KB);  // j < sk per block (0/1 for the mask's select)
  for (int kb = 0; kb < KB; ++kb) key_ok[kb] = select(jkey + 16 * kb < sk, 1u, 0u);

  auto s = J.vgpr<f32>(KB, 4).named("s"), dp = J.vgpr<f32>(KB, 4).named("dp");
  auto pb = J.vgpr<u32>(KB, 2).named("p"), dsb = J.vgpr<u32>(KB, 2).named("ds");
  auto m0 = J.sgpr<i32>(), m_first = J.sgpr<i32>();
  if constexpr (C.causal) {
    if constexpr (C.top_left) m_first = n0 + 0;
    else m_first = n0 - (sk - sq);
    m_first = max(m_first, 0);
    m_first = ((m_first.as<u32>() / BM) * BM).as<i32>();
  } else {
    m_first = 0;
  }

  // The Q and dO tiles of query tile m0 + 2 BM are loaded into VGPRs (stg) at the end of tile
  // m0's iteration. Units of 2 queries x 8 dims (two 16-byte loads, a 2x8 transpose per lane, two
  // b128 row writes and eight b32 transposed ones), one a thread: waves 0 and 1 Q's, 2 and 3 dO's
  // (unit u = tid % 128: query pair u % 8, dim chunk u / 8), so the stores are straight-line code
  // for every wave (run under the dQ MFMAs).
  static_assert(T == 256 && 8 * (D / 8) == 128);
  // (written under qtile == 0 or != 0: the checker does not relate the branches)
  auto stg = J.vgpr<u32>(8).named("qo_stage").allow_undefined();
  auto urow = J.vgpr<u32>(), ucol = J.vgpr<u32>(), uoff = J.vgpr<u32>(), qtile = J.sgpr<u32>();
  qtile = wave >> 1u;
  {
    auto u = J.vgpr<u32>(), jq = J.vgpr<u32>(), dc = J.vgpr<u32>();
    u = tid & 127u;
    jq = u & 7u;
    dc = u >> 3u;
    urow = qtile * BM + (jq << 1);  // row of QO (dO's rows follow Q's)
    ucol = dc << 3;
    uoff = (jq << 1) * q_stride + (dc << 4);
  }
  // this lane's LSE and D (queries m0 + 4g .. + 3), and the next tile's: loaded two tiles ahead
  // (a load completes after the atomics issued before it: one tile ahead, it would wait for the
  // previous tile's atomics), moved in after their last use
  auto lse = J.vgpr<f32>(4).named("lse"), dd = J.vgpr<f32>(4).named("delta");
  auto lse_n = J.vgpr<f32>(4).named("lse_next"), dd_n = J.vgpr<f32>(4).named("delta_next");
  auto prefetch = [&](const gpr<i32>& m) {
    auto qoff = J.sgpr<u32>();
    qoff = m.as<u32>() * q_stride;
    J.If(qtile == 0u, [&] {
      Qb.load(stg.slice(0, 4), at(uoff) + at(qoff));
      Qb.load(stg.slice(4, 4), at(uoff) + at(qoff) + at(q_stride));
    });
    J.If(qtile != 0u, [&] {
      dOb.load(stg.slice(0, 4), at(uoff) + at(qoff));
      dOb.load(stg.slice(4, 4), at(uoff) + at(qoff) + at(q_stride));
    });
  };
  auto load_rows = [&](const buffer& B, auto dst, const gpr<i32>& m) {
    auto loff = J.vgpr<u32>();
    loff = (m.as<u32>() + trow) << 2;
    B.load(dst, at(loff));
  };
  // The transposed tiles' rows (32 bytes, four a 128-byte bank line) are placed permuted within
  // aligned groups of 4: row r at (r & ~3) | ((r + r / 8) & 3). A b32 write's 32 lanes (rows 8 dc
  // + e of 4 dim chunks) then fill the 4 quarters of the bank line, not one (4-way conflicts), and
  // a b64 read's 16 rows 16 db .. + 15 are still those 16 rows.
  auto t_row = [&](const auto& r) {
    auto p = J.vgpr<u32>();
    p = (r & ~3u) | ((r + (r >> 3u)) & 3u);
    return p;
  };
  lds_addr ua_rows[2], ua_cols[8];
  {
    auto trw = J.vgpr<u32>(), tcl = J.vgpr<u32>();
    trw = qtile * D + ucol;
    tcl = urow & (BM - 1);
    for (int r = 0; r < 2; ++r) ua_rows[r] = QO.addr(at(urow) + r, multiple_of(ucol, 8));
    for (int e = 0; e < 8; ++e) ua_cols[e] = QOT.addr(t_row(trw + static_cast<uint32_t>(e)), multiple_of(tcl, 2));
  }
  // (the reads: rows 16 db + l16, whose place depends on l16 and on db's parity)
  auto trd = J.vgpr<u32>(2);
  for (int par = 0; par < 2; ++par) trd[par] = t_row(l16 + static_cast<uint32_t>(16 * par));
  auto store_tile = [&] {
    J.wait_for(stg);
    for (int r = 0; r < 2; ++r) QO.store(stg.slice(4 * r, 4), ua_rows[r]);
    auto vtr = J.vgpr<u32>(8);
    transpose_per_lane(J, 2, 8, 2, stg, vtr);  // vtr[e]: dim 8 dc + e, queries 2 jq, 2 jq + 1
    for (int e = 0; e < 8; ++e) QOT.store(vtr[e], ua_cols[e]);
  };
  // the first tiles' LSE, D, Q and dO loaded first: their latency runs under the K, V and K^T loads
  m0 = m_first;
  auto m1 = J.sgpr<i32>();
  m1 = m0 + static_cast<int32_t>(BM);
  load_rows(Lb, lse, m0);
  load_rows(Db, dd, m0);
  load_rows(Lb, lse_n, m1);
  load_rows(Db, dd_n, m1);
  prefetch(m0);

  // K and V rows of the wave's keys (B of S and dP): block kb, slice p: key 16 kb + l16 of the
  // wave's, dims 32p + 8g .. + 7 (16-byte loads: a load's 16 keys x 64 bytes)
  auto kf = J.vgpr<u32>(KB * DP, 4).named("k_rows"), vf = J.vgpr<u32>(KB * DP, 4).named("v_rows");
  {
    auto rkb = J.sgpr<u32>(KB);
    for (int kb = 0; kb < KB; ++kb) rkb[kb] = kv_stride * static_cast<uint32_t>(16 * kb);
    auto off = J.vgpr<u32>();
    off = (kbase + n0.as<u32>()) * kv_stride + (grp << 4);
    for (int kb = 0; kb < KB; ++kb)
      for (int p = 0; p < DP; ++p) {
        Kb.load(kf[kb * DP + p], at(off) + at(rkb[kb]) + 64 * p);
        Vb.load(vf[kb * DP + p], at(off) + at(rkb[kb]) + 64 * p);
      }
  }
  // K^T (dims x keys) for dQ's B operands, in units of 4 keys x 8 dims (four 16-byte loads, a 4x8
  // transpose per lane, eight b64 writes); unit bits: key quad low 3, dim chunk, key quad high
  {
    constexpr uint32_t KU = BN * D / 32, KS = KU / T;
    static_assert(KU % T == 0);
    auto kst = J.vgpr<u32>(KS, 16), ktr = J.vgpr<u32>(16), dc = J.vgpr<u32>(KS), kq = J.vgpr<u32>(KS);
    auto rk = J.sgpr<u32>(4);
    for (int r = 0; r < 4; ++r) rk[r] = kv_stride * static_cast<uint32_t>(r);
    for (uint32_t st = 0; st < KS; ++st) {
      auto u = J.vgpr<u32>(), koff = J.vgpr<u32>();
      u = tid + st * T;
      dc[st] = ((u >> 3) & (D / 8 - 1)) << 3;
      kq[st] = ((u & 7u) | ((u >> (3 + hipasm::detail::log2u(D / 8))) << 3)) << 2;
      koff = (kq[st] + n0.as<u32>()) * kv_stride + (dc[st] << 1);
      for (int r = 0; r < 4; ++r) Kb.load(kst[st].slice(4 * r, 4), at(koff) + at(rk[r]));
    }
    for (uint32_t st = 0; st < KS; ++st) {
      J.wait_for(kst[st]);
      transpose_per_lane(J, 4, 8, 2, kst[st], ktr);  // row e of ktr: dim dc + e, keys kq .. kq + 3
      for (int e = 0; e < 8; ++e) KT.store(ktr.slice(2 * e, 2), at(dc[st]) + e, multiple_of(kq[st], 4));
    }
  }
  auto dv = J.agpr<f32>(DB * KB, 4).named("dv_t"), dk = J.agpr<f32>(DB * KB, 4).named("dk_t");
  {
    auto z = J.vgpr<u32>(2);
    z.fill(0u);
    for (int i = 0; i < DB * KB; ++i) {
      mma(dv[i], z, z, 0);
      mma(dk[i], z, z, 0);
    }
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  // dQ's B operands: wave w's dim blocks QB w + j, K^T rows 16 (QB w + j) + l16, keys 16 ks + 4g
  // .. + 3 (once, into AGPRs; K^T's LDS then holds dS: the first iteration's barrier comes first)
  // (double-K: keys 32 ks + 8g .. + 7, two b64 reads)
  auto ktf = J.agpr<u32>(QB * NKS, KR).named("kt_frag");
  auto kc = J.vgpr<u32>(), bc = J.vgpr<u32>(QB);
  kc = grp << (dk2 ? 3 : 2);
  // row r, k-step ks of a dQ operand (K^T rows: dims, dS rows: queries) from view V
  auto dq_operand = [&](const lds_view& V, auto dst, auto row, int ks) {
    if constexpr (dk2) {
      V.load(dst.slice(0, 2), at(row), multiple_of(kc, 8) + 32 * ks);
      V.load(dst.slice(2, 2), at(row), multiple_of(kc, 8) + 32 * ks + 4);
    } else {
      V.load(dst, at(row), multiple_of(kc, 4) + 16 * ks);
    }
  };
  for (int j = 0; j < QB; ++j) {
    bc[j] = l16 + (wave * static_cast<uint32_t>(QB) + static_cast<uint32_t>(j)) * 16u;
    for (int ks = 0; ks < NKS; ++ks) dq_operand(KT, ktf[j * NKS + ks], bc[j], ks);
  }


  // dQ goes to dq_acc by atomics at the end of its iteration, after the prefetch of the tile
  // after next (VMEM completes in order: the wait for that prefetch leaves the atomics in flight)
  auto scale = J.vgpr<f32>(), scale2 = J.vgpr<f32>();  // the softmax scale, and times log2 e
  scale = scale_log2 * 0.69314718055994530942f;
  scale2 = scale_log2 + 0.0f;
  auto dq = J.vgpr<f32>(QB, 4).named("dq");
  auto aoff = J.vgpr<u32>(QB).named("dq_off");
  for (int j = 0; j < QB; ++j) {
    dq[j].fill(0.0f);
    aoff[j] = 0x80000000u;  // (past dq_acc: the prologue's atomics are dropped)
  }
  auto rowoff = J.sgpr<u32>(4);
  for (int r = 0; r < 4; ++r) rowoff[r] = (q_stride + q_stride) * static_cast<uint32_t>(r);
  auto dq_atomics = [&] {
    for (int j = 0; j < (A16 ? 0 : QB); ++j)
      for (int r = 0; r < 4; ++r) Ab.atomic_add_f32(dq[j][r], at(aoff[j]) + at(rowoff[r]));
  };
  // atomic16 (attn_bwd_kernel's scheme): register pair p (rows 4g + 2p, + 1 of dim 16 blk + l16)
  // is scaled, rounded to one dword and swapped with lane l16 ^ 1's (DPP quad_perm [1,0,3,2]); a
  // byte permute keeps, on an even lane, row 4g + 2p of its dims l16, l16 + 1, on an odd one row
  // 4g + 2p + 1 of dims l16 - 1, l16: one packed atomic a lane a pair (global: gfx942 has no
  // buffer form), sent under the next tile's S MFMAs (the last tile's after the loop). Rows past
  // seqlen_q hold dQ = 0: their offsets are clamped to the sequence's last row (adding 0).
  auto qodd = J.vgpr<u32>(), lcol = J.vgpr<u32>(A16 ? QB : 1), lim = J.vgpr<u32>(A16 ? QB : 1), psel = J.vgpr<u32>();
  auto lrow = J.vgpr<u32>();  // the lane's first row in a tile
  if constexpr (A16) {
    qodd = lane & 1u;
    lrow = trow + qodd;
    psel = select(qodd != 0u, 0x03020706u, 0x05040100u);
    auto sq1 = J.sgpr<u32>();
    sq1 = (sq - 1).template as<u32>() * q_stride;
    for (int j = 0; j < QB; ++j) {
      lcol[j] = (bc[j] - qodd) << 1;
      lim[j] = lcol[j] + sq1;
    }
  }
  auto dq_flush = [&] {
    for (int j = 0; j < QB; ++j)
      for (int p = 0; p < 2; ++p) {
        auto pk = J.vgpr<u32>(), nb = J.vgpr<u32>(), o = J.vgpr<u32>();
        detail::attn_pack2<C.dtype>(J, pk, dq[j][2 * p] * scale, dq[j][2 * p + 1] * scale);
        J.v_mov_b32(nb, pk, dpp::quad_perm(1, 0, 3, 2));
        J.v_perm_b32(dq[j][p].template as<u32>(), nb, pk, psel);  // (registers 2p, 2p + 1 read: p <= 2p)
        o = min(aoff[j] + (q_stride * static_cast<uint32_t>(2 * p)), lim[j]);
        if constexpr (C.dtype == attn_dtype::f16) J.global_atomic_pk_add_f16(o, dq[j][p].template as<u32>(), dqbase);
        else J.global_atomic_pk_add_bf16(o, dq[j][p].template as<u32>(), dqbase);
      }
  };
  // dS's addresses: row 4g + r, column key KPW w + 16 kb + l16
  lds_addr ds_at[4];
  for (int r = 0; r < 4; ++r) ds_at[r] = SS.addr(at(trow) + r, kbase);

  auto iteration = [&] {
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (the tiles are complete)
    auto mask_base = J.vgpr<i32>();
    if constexpr (C.top_left) mask_base = trow.as<i32>() + m0;
    else mask_base = trow.as<i32>() + (sk - sq + m0);
    auto qa = J.vgpr<u32>(DP, 4), oa = J.vgpr<u32>(DP, 4);
    // S (or dP) = A B^T over D: A rows from LDS (b128 a slice: two k-steps; every slice's read
    // issued ahead), B the wave's rows
    auto rows_reads = [&](lds_view V, lds_addr addr, auto ring) {
      for (int p = 0; p < DP; ++p) V.load(ring[p], addr, 0, 32 * p);
    };
    auto rows_prod = [&](auto ring, auto frags, auto acc, auto after) {
      for (int p = 0; p < DP; ++p) {
        J.wait_for(ring[p]);
        if constexpr (dk2) {
          for (int kb = 0; kb < KB; ++kb) {
            mma2(acc[kb], ring[p], frags[kb * DP + p], p == 0 ? operand_arg(0) : operand_arg(acc[kb]));
            after(p, kb);
          }
          continue;
        }
        for (int e = 0; e < 2; ++e)
          for (int kb = 0; kb < KB; ++kb) {
            if (p == 0 && e == 0) mma(acc[kb], ring[0].slice(0, 2), frags[kb * DP].slice(0, 2), 0);
            else mma(acc[kb], ring[p].slice(2 * e, 2), frags[kb * DP + p].slice(2 * e, 2), acc[kb]);
            after(p, e * KB + kb);
          }
      }
    };
    // P = 2^(S scale log2 e - LSE log2 e) (under the dP MFMAs: an exponent every other MFMA)
    auto softmax_p = [&] {
      J.wait_for(lse);
      auto lse2 = J.vgpr<f32>(4);
      for (int r = 0; r < 4; ++r) lse2[r] = lse[r] * 1.44269504088896340736f;
      for (int kb = 0; kb < KB; ++kb)
        for (int r = 0; r < 4; ++r) {
          J.v_fma_f32(s[kb][r], s[kb][r], scale2, -lse2[r]);
          s[kb][r] = exp2(s[kb][r], {.flush_denormals = true});
        }
    };
    // then the mask sets P = 0 (also on a row with no visible key: LSE -inf, every key masked,
    // whose exponent is NaN) on the tiles where the wave has a masked key (a branch: the wave's
    // last key past sk, or causal, past the diagonal of the tile's first query)
    auto mask_p = [&] {
      for (int kb = 0; kb < KB; ++kb) {
        auto rel = J.vgpr<i32>();
        if constexpr (C.causal) rel = select(key_ok[kb] == 0u, 1000000, gpr<i32>(jkey + 16 * kb - mask_base));
        else rel = select(key_ok[kb] == 0u, 1000000, -1000000);
        for (int r = 0; r < 4; ++r) s[kb][r] = select(rel > r, 0.0f, s[kb][r]);
      }
    };
    auto lim_w = J.sgpr<i32>();  // the last key the tile's first query sees
    if constexpr (!C.causal) lim_w = sk - 1;
    else if constexpr (C.top_left) lim_w = min(sk - 1, m0 + 0);
    else lim_w = min(sk - 1, m0 + (sk - sq));
    auto jw = J.sgpr<i32>();  // the wave's last key
    jw = n0 + (wave * KPW + (KPW - 1)).as<i32>();
    auto softmax_ds = [&](int kb) {  // dS = P (dP - D) of key block kb, rounded to the dtype, to LDS
      if (kb == 0) J.wait_for(dd);
      for (int r = 0; r < 4; ++r) dp[kb][r] = s[kb][r] * (dp[kb][r] - dd[r]);
      for (int r = 0; r < 4; r += 2)
        detail::attn_pack2<C.dtype>(J, dsb[kb][r / 2], dp[kb][r], dp[kb][r + 1], PR);
    };
    // dS of key block kb to LDS (K^T's place: every wave's dQ reads of the previous tile are done,
    // before this iteration's first barrier): row 4g + r, column key KPW w + 16 kb + l16
    auto store_ds = [&](int kb, int r) {
      SS.store(dsb[kb][r / 2], ds_at[r], 0, 16 * kb, {.width = r % 2 ? narrow::u16_d16_hi : narrow::u16});
    };
    auto pack_p = [&](int kb) {
      for (int r = 0; r < 4; r += 2)
        detail::attn_pack2<C.dtype>(J, pb[kb][r / 2], s[kb][r], s[kb][r + 1], PR);
    };
    // dV^T, dK^T: A = dO^T / Q^T rows 16 db + l16, queries 4g .. + 3 (b64 reads), every block's
    // in registers (read under S's MFMAs), so the products go key block by key block: P of block
    // kb + 1 and dS of block kb are made (and dS stored) under block kb's dV^T MFMAs
    auto oT = J.vgpr<u32>(DB, 2).named("do_t"), qT = J.vgpr<u32>(DB, 2).named("q_t");
    auto read_t = [&](lds_view V, auto dst) {
      for (int db = 0; db < DB; ++db) V.load(dst[db], at(trd[db % 2]) + 16 * (db - db % 2), multiple_of(trow, 4));
    };
    auto tprod = [&](auto aT, auto accs, auto b, int kb, auto after) {
      if (kb == 0) J.wait_for(aT);
      for (int db = 0; db < DB; ++db) {
        mma(accs[db * KB + kb], aT[db], b, accs[db * KB + kb]);
        after(db);
      }
    };
    rows_reads(QS, q_addr, qa);
    {
      instr_stream fl;  // (atomic16: the previous tile's dQ, under S's MFMAs)
      if constexpr (A16) fl = record(J, dq_flush);
      rows_prod(qa, kf, s, [&](int p, int i) {
        if constexpr (A16) emit_cycles(J, fl, dk2 ? 20 : 10);
        if (i != 0) return;
        if (p == 0) rows_reads(OS, o_addr, oa);
        if (p == 1) read_t(OT, oT);
      });
      if constexpr (A16) emit_all(J, fl);
    }
    {
      instr_stream sp = record(J, softmax_p);
      rows_prod(oa, vf, dp, [&](int p, int i) {
        if (p == 0 && i == 0) read_t(QT, qT);  // (into registers S's operands had)
        emit_cycles(J, sp, dk2 ? 12 : 6);
      });
      emit_all(J, sp);
    }
    J.If(jw > lim_w, mask_p);
    pack_p(0);
    auto mn = J.sgpr<i32>();
    mn = m0 + static_cast<int32_t>(2 * BM);
    J.wait_for(lse_n);
    for (int r = 0; r < 4; ++r) J.v_mov_b32(lse[r], lse_n[r]);
    load_rows(Lb, lse_n, mn);
    for (int kb = 0; kb < KB; ++kb) {
      instr_stream sd = record(J, [&] {
        if (kb + 1 < KB) pack_p(kb + 1);
        softmax_ds(kb);
      });
      tprod(oT, dv, pb[kb], kb, [&](int) { emit_cycles(J, sd, 16); });
      emit_all(J, sd);
    }
    J.wait_for(dd_n);
    for (int r = 0; r < 4; ++r) J.v_mov_b32(dd[r], dd_n[r]);
    load_rows(Db, dd_n, mn);
    for (int kb = 0; kb < KB; ++kb) tprod(qT, dk, dsb[kb], kb, [&](int db) { if (db < 4) store_ds(kb, db); });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();  // (dS complete; every wave's reads of this tile's Q, dO, Q^T, dO^T done)
    // dQ (+)= dS K over the workgroup's keys, with the next tile's stores
    // (every dS read issued first: the next tile's stores queue behind them)
    auto ta = J.vgpr<u32>(NKS, KR);
    instr_stream next_tile = record(J, store_tile);
    for (int ks = 0; ks < NKS; ++ks) dq_operand(SS, ta[ks], l16, ks);
    for (int ks = 0; ks < NKS; ++ks) {
      J.wait_for(ta[ks]);
      for (int j = 0; j < QB; ++j) {
        if constexpr (dk2) mma2(dq[j], ta[ks], ktf[j * NKS + ks], ks == 0 ? operand_arg(0) : operand_arg(dq[j]));
        else if (ks == 0) mma(dq[j], ta[0], ktf[j * NK], 0);
        else mma(dq[j], ta[ks], ktf[j * NK + ks], dq[j]);
      }
      emit_cycles(J, next_tile, dk2 ? 48 : 24);
    }
    emit_all(J, next_tile);
    // dq_acc (unscaled; convert_dq scales): row m0 + 4g + r, dim 16 blk + l16 (atomic16: dQ, the
    // lane's first row and dim)
    for (int j = 0; j < QB; ++j) {
      if constexpr (A16) aoff[j] = (lrow + m0.as<u32>()) * q_stride + lcol[j];
      else aoff[j] = (m0.as<u32>() + trow) * (q_stride + q_stride) + (bc[j] << 2);
    }
    prefetch(mn);
    dq_atomics();
  };

  store_tile();
  prefetch(m1);
  // (dropped: aoff is past dq_acc) both paths into the loop head end with the atomics; atomic16:
  // the first tile's S sends dq's zeros to its rows
  if constexpr (A16) {
    for (int j = 0; j < QB; ++j) aoff[j] = (lrow + m0.as<u32>()) * q_stride + lcol[j];
  } else {
    dq_atomics();
  }
  J.While([&] { return m0 < sq; }, [&] {
    iteration();
    m0 = m0 + static_cast<int32_t>(BM);
  });
  if constexpr (A16) J.If(m_first < sq, dq_flush);  // (the last tile's dQ)

  // ---- dK = scale (dK^T)^T, dV = (dV^T)^T through LDS as f32, half the dims at a time (48 KiB):
  // a lane's 4 consecutive dims of one key (C rows) one b128 write from the accumulators; each
  // wave reads back its own rows in a loop, 8 lanes a row, converts and stores 16 bytes a lane
  // (no unrolled conversion of every accumulator: the kernel's compile time) ----
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  constexpr uint32_t DH = D / 2;  // dims a half
  constexpr lds_layout LO{.rows = BN, .cols = DH, .elem_bytes = 4, .swz_chunk = 16, .swz_groups = 8};
  static_assert(LO.bytes() <= C.lds_bytes());
  const lds_view OUT(lds_ref{KT.base, LO.bytes()}, LO);
  constexpr uint32_t LPR = DH / 8, RPR = 64 / LPR;  // lanes a row (8 elements each), rows a pass
  constexpr int NP = 2;                              // passes a loop trip (their reads issued together)
  static_assert(KPW % (RPR * NP) == 0);
  auto orow = J.vgpr<u32>(), ocol = J.vgpr<u32>(), ooff = J.vgpr<u32>(), ostep = J.sgpr<u32>();
  ocol = (lane & (LPR - 1)) << 3;
  ostep = q_stride * RPR;
  auto scale2v = J.vgpr<f32>(2).aligned(2);  // the scale twice: a packed multiply's operand
  scale2v[0] = scale + 0.0f;
  scale2v[1] = scale + 0.0f;
  auto x = J.vgpr<f32>(NP, 8).aligned(2);
  auto y = J.vgpr<u32>(NP, 4);
  auto dcol = J.vgpr<u32>();
  dcol = grp << 2;
  for (int t = 0; t < 2; ++t)
    for (int h = 0; h < 2; ++h) {
      const auto& acc = t == 0 ? dk : dv;
      for (int db = 0; db < DB / 2; ++db)
        for (int kb = 0; kb < KB; ++kb)
          OUT.store(acc[(DB / 2 * h + db) * KB + kb], at(kbase) + 16 * kb, multiple_of(dcol, 4) + 16 * db);
      J.s_waitcnt(lgkmcnt(0));
      orow = wave * KPW + (lane >> static_cast<uint32_t>(hipasm::detail::log2u(LPR)));
      ooff = (orow + n0.as<u32>()) * q_stride + (ocol << 1) + static_cast<uint32_t>(2 * DH * h);
      detail::attn_bwd_rows_out<C.dtype, NP, RPR>(J, OUT, orow, ocol, ooff, ostep, KPW / RPR / NP, x, y, scale2v,
                                                   t == 0 ? dKb : dVb, t == 0);
      J.s_waitcnt(lgkmcnt(0));  // (the next half's writes after every read of this one)
    }
  };  // body

  J.If(n0 < sk, body);
}

}  // namespace hipasm::kernels
