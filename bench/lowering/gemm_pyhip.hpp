// pyhip's tests/codegen/asm/test_gemm.py gemm_kernel, re-expressed in hipasm as a kernel
// author would write it (the same loaders, swizzles, prologue, software-pipelined K loop
// with its ds_read/ds_write/buffer_load placement, LDS-staged bf16 write-out and the
// tb_swizzle block remapping), to compare instruction counts with pyhip's output
// (bench/lowering/README.md). Configuration: mfma 16x16x16 bf16, waves 2x2 of 64x64 each
// (a 128x128 tile per workgroup of 256 threads), row-major A (M x K) and B (N x K), bf16 C.
// K and N are compile-time (as in pyhip), M is an argument.
#pragma once
#include <hipasm/kernel.hpp>

namespace bench_lowering {
using namespace hipasm;

// The V# of a raw buffer of `bytes` bytes at `ptr` (pyhip's J.Buffer).
constexpr gpr<u32> make_buffer(builder J, const gpr<u64>& ptr, const gpr<u32>& bytes) {
  auto r = J.sgpr<u32>(4).named("vsharp");
  J.s_mov_b64(r.slice(0, 2).as<u64>(), ptr);
  r[2] = bytes;
  r[3] = 0x00020000u;
  return r;
}

template <unsigned K, unsigned N>
struct gemm_shape {
  static constexpr unsigned mfma_MN = 16, mfma_K = 32, wave_M = 64, wave_N = 64, waves_M = 2, waves_N = 2;
  static constexpr unsigned waves = waves_M * waves_N;
  static constexpr unsigned wg_M = wave_M * waves_M, wg_N = wave_N * waves_N, wg_K = mfma_K * 2;
  static constexpr unsigned nCM = wave_M / mfma_MN, nCN = wave_N / mfma_MN, nCK = 2;
  static constexpr unsigned row_bytes = wg_K * 2, stride_bytes = K * 2;
  static constexpr unsigned lanes_per_row = row_bytes / 16;          // 8
  static constexpr unsigned rows_per_fetch = waves * 64 / lanes_per_row;  // 32
  static constexpr unsigned prefetches = wg_M / rows_per_fetch;      // 4 (A and B alike)
  static constexpr unsigned lds_bytes = wg_M * wg_K * 2;              // per operand
  static_assert(K % wg_K == 0 && wg_M == wg_N);
};

// MFMA_DW4Loader: the workgroup fetches wg_M rows of row_bytes in dwordx4 per lane into
// registers, then writes them to LDS with a row XOR swizzle.
template <class S>
struct dw4_loader {
  builder J;
  gpr<u32> rsrc, regs, voffset, soffset, ds_vaddr;
  constexpr dw4_loader(builder j, const gpr<u64>& ptr, const gpr<u32>& bytes, const gpr<u32>& tid)
      : J(j), rsrc(make_buffer(j, ptr, bytes)), regs(j.vgpr<u32>(S::prefetches, 4).named("prefetch")),
        voffset(j.vgpr<u32>().named("prefetch_voffset")), soffset(j.sgpr<u32>().named("prefetch_soffset")),
        ds_vaddr(j.vgpr<u32>(S::prefetches).named("ds_write_vaddr")) {
    voffset = (tid % S::lanes_per_row) * 16 + (tid / S::lanes_per_row) * S::stride_bytes;
    for (unsigned i = 0; i < S::prefetches; ++i) {
      auto col = tid % S::lanes_per_row;
      auto row = tid / S::lanes_per_row + i * S::rows_per_fetch;
      auto swz = (row ^ col) % S::lanes_per_row;
      ds_vaddr[i] = row * S::row_bytes + swz * 16;
    }
  }
  constexpr void reset_offset(const gpr<u32>& koff) { soffset = koff; }
  constexpr void prefetch(unsigned i) {
    J.buffer_load_dwordx4(regs[i], voffset, rsrc, soffset, {.offen = true});
    soffset = soffset + S::rows_per_fetch * S::stride_bytes;
  }
  constexpr void ds_write(unsigned i, unsigned lds_base) {
    J.ds_write_b128(ds_vaddr[i], regs[i], {.offset = static_cast<int>(lds_base)});
  }
};

// pyhip's emit(generator, cycles): the MFMAs of one K half, handed out a few at a time.
template <class S>
struct mfma_stream {
  builder J;
  gpr<f32> C;
  gpr<bf16x2> A, B;
  unsigned k = 0, next = 0;
  static constexpr unsigned total = S::nCM * S::nCN * 2;
  constexpr void emit(unsigned cycles = 1u << 30) {
    for (unsigned c = 0; c < cycles && next < total; c += 16, ++next) {
      const unsigned half = next / (S::nCM * S::nCN), mn = next % (S::nCM * S::nCN);
      const unsigned m = mn / S::nCN, n = mn % S::nCN;
      J.v_mfma_f32_16x16x16_bf16(C[m * S::nCN + n], B[n * S::nCK + k].slice(half * 2, 2),
                                 A[m * S::nCK + k].slice(half * 2, 2), C[m * S::nCN + n]);
    }
  }
};

// f32 pair -> packed bf16 pair, rounded to nearest even (gfx942 has no v_cvt_pk_bf16_f32).
constexpr void cvt_pk_bf16(builder J, const gpr<u32>& d, const gpr<u32>& lo, const gpr<u32>& hi, const gpr<u32>& k7fff,
                           const gpr<u32>& sel) {
  auto a = J.vgpr<u32>(), b = J.vgpr<u32>();
  J.v_bfe_u32(a, lo, 16, 1);
  J.v_add3_u32(a, lo, a, k7fff);
  J.v_bfe_u32(b, hi, 16, 1);
  J.v_add3_u32(b, hi, b, k7fff);
  J.v_perm_b32(d, b, a, sel);  // the high halves of b and a
}

template <unsigned K, unsigned N>
constexpr void gemm_kernel(builder J, arg<const unsigned short*> pA_, arg<const unsigned short*> pB_,
                           arg<unsigned short*> pC_, arg<int> M_) {
  using S = gemm_shape<K, N>;
  constexpr unsigned M01 = 8, GroupNum = 8, N0 = (N + S::wg_N - 1) / S::wg_N;
  auto M = J.sgpr<u32>().named("M");
  M = M_.as<u32>();
  auto pA = J.sgpr<u64>().named("pA"), pB = J.sgpr<u64>().named("pB"), pC = J.sgpr<u64>().named("pC");
  pA = pA_;
  pB = pB_;
  pC = pC_;
  auto block_1d_id = J.workgroup_id_x();
  auto tid = J.thread_id_x();

  // ---- tb_swizzle (pyhip's loaders.py): block id -> (blk_m, blk_n)
  auto M0 = J.sgpr<u32>().named("M0");
  M0 = (M + (S::wg_M - 1)) / S::wg_M;
  auto group_size = J.sgpr<u32>();
  group_size = (M0 * N0 + (GroupNum - 1)) / GroupNum;
  auto big_group_num = J.sgpr<u32>();
  big_group_num = GroupNum - (group_size * GroupNum - M0 * N0);
  auto group_id_y = J.sgpr<u32>(), group_id_x = J.sgpr<u32>();
  group_id_y = block_1d_id / GroupNum;
  group_id_x = block_1d_id - group_id_y * GroupNum;
  auto remap = J.sgpr<u32>();
  remap = group_id_x * group_size + group_id_y;
  J.If(group_id_x > big_group_num, [&] { remap = remap + (big_group_num - group_id_x); });
  auto idx_M0 = J.sgpr<u32>(), idx_N0 = J.sgpr<u32>();
  idx_M0 = remap / N0;
  idx_N0 = remap - idx_M0 * N0;
  auto M0_tmp = J.sgpr<u32>(), M0_mod_M01 = J.sgpr<u32>();
  M0_tmp = M0 / M01;
  M0_mod_M01 = M0 - M0_tmp * M01;
  auto M01_adapt = J.sgpr<u32>();
  M01_adapt = M0_mod_M01;
  J.If(idx_M0 < M0 - M0_mod_M01, [&] { M01_adapt = M01; });
  auto idx_M00 = J.sgpr<u32>(), idx_M01 = J.sgpr<u32>(), local = J.sgpr<u32>();
  idx_M00 = idx_M0 / M01;
  idx_M01 = idx_M0 - idx_M00 * M01;
  local = idx_N0 + idx_M01 * N0;
  auto blk_n = J.sgpr<u32>().named("blk_n"), blk_m = J.sgpr<u32>().named("blk_m");
  blk_n = local / M01_adapt;
  blk_m = (local - blk_n * M01_adapt) + idx_M00 * M01;

  pA = pA + blk_m * (S::wg_M * K * 2);
  pB = pB + blk_n * (S::wg_N * K * 2);
  pC = pC + (blk_m * (S::wg_M * N * 2) + blk_n * (S::wg_N * 2));

  auto min_M1 = J.sgpr<u32>();
  J.s_min_u32(min_M1, blk_m * S::wg_M + S::wg_M, M);
  auto actual_wg_M = J.sgpr<u32>();
  actual_wg_M = min_M1 - blk_m * S::wg_M;

  auto a_bytes = J.sgpr<u32>(), b_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>();
  a_bytes = actual_wg_M * (K * 2);
  b_bytes = S::wg_N * K * 2;
  c_bytes = actual_wg_M * (N * 2);
  dw4_loader<S> loaderA(J, pA, a_bytes, tid), loaderB(J, pB, b_bytes, tid);
  auto buff_c = make_buffer(J, pC, c_bytes);

  // ---- UGEMM.run
  const unsigned ldsA = J.lds<unsigned>(S::lds_bytes / 4, 16).offset, ldsB = J.lds<unsigned>(S::lds_bytes / 4, 16).offset;
  auto lane = J.vgpr<u32>().named("lane_id");
  lane = tid % 64;
  auto warp_id = J.sgpr<u32>().named("warp_id");
  J.v_readfirstlane_b32(warp_id, tid / 64);
  auto warp_offset_m = J.sgpr<u32>(), warp_offset_n = J.sgpr<u32>();
  warp_offset_m = (warp_id / S::waves_N) * S::wave_M;
  warp_offset_n = (warp_id % S::waves_N) * S::wave_N;
  auto readA = J.vgpr<u32>(S::nCM * S::nCK).named("ds_readA_vaddr");
  auto readB = J.vgpr<u32>(S::nCN * S::nCK).named("ds_readB_vaddr");
  for (unsigned m = 0; m < S::nCM; ++m)
    for (unsigned k = 0; k < S::nCK; ++k) {
      auto row = lane % S::mfma_MN + warp_offset_m + m * S::mfma_MN;
      auto col = lane / S::mfma_MN + (k * S::mfma_K * 2) / 16;
      auto swz = (row ^ col) % S::lanes_per_row;
      readA[m * S::nCK + k] = row * S::row_bytes + swz * 16;
    }
  for (unsigned n = 0; n < S::nCN; ++n)
    for (unsigned k = 0; k < S::nCK; ++k) {
      auto row = lane % S::mfma_MN + warp_offset_n + n * S::mfma_MN;
      auto col = lane / S::mfma_MN + (k * S::mfma_K * 2) / 16;
      auto swz = (row ^ col) % S::lanes_per_row;
      readB[n * S::nCK + k] = row * S::row_bytes + swz * 16;
    }
  auto C = J.agpr<f32>(S::nCM * S::nCN, 4).named("mfma_C");
  auto A = J.vgpr<bf16x2>(S::nCM * S::nCK, 4).named("mfma_A");
  auto B = J.vgpr<bf16x2>(S::nCN * S::nCK, 4).named("mfma_B");
  auto ds_readA = [&](unsigned m, unsigned k) { J.ds_read_b128(A[m * S::nCK + k], readA[m * S::nCK + k], {.offset = static_cast<int>(ldsA)}); };
  auto ds_readB = [&](unsigned n, unsigned k) { J.ds_read_b128(B[n * S::nCK + k], readB[n * S::nCK + k], {.offset = static_cast<int>(ldsB)}); };

  auto k_offset = J.sgpr<u32>().named("k_offset");
  k_offset = 0;
  loaderA.reset_offset(k_offset);
  loaderB.reset_offset(k_offset);
  for (unsigned r = 0; r < S::prefetches; ++r) loaderA.prefetch(r);
  for (unsigned r = 0; r < S::prefetches; ++r) loaderB.prefetch(r);
  C.fill(0.0f);

  k_offset = k_offset + S::wg_K * 2;
  loaderA.reset_offset(k_offset);
  loaderB.reset_offset(k_offset);
  constexpr unsigned pending = 2 * S::prefetches - 1;
  for (unsigned r = 0; r < S::prefetches; ++r) {
    J.s_waitcnt(vmcnt(pending));
    loaderA.ds_write(r, ldsA);
    loaderA.prefetch(r);
  }
  for (unsigned r = 0; r < S::prefetches; ++r) {
    J.s_waitcnt(vmcnt(pending));
    loaderB.ds_write(r, ldsB);
    loaderB.prefetch(r);
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  for (unsigned m = 0; m < S::nCM; ++m) ds_readA(m, 0);
  for (unsigned n = 0; n < S::nCN; ++n) ds_readB(n, 0);
  J.s_waitcnt(lgkmcnt(0));

  auto cur_k = J.sgpr<u32>().named("cur_k");
  cur_k = 0;
  J.While([&] { return cur_k < K / S::wg_K; }, [&] {
    k_offset = k_offset + S::wg_K * 2;
    loaderA.reset_offset(k_offset);
    loaderB.reset_offset(k_offset);
    mfma_stream<S> mfma0{J, C, A, B, 0}, mfma1{J, C, A, B, 1};
    J.s_waitcnt(lgkmcnt(0));
    for (unsigned m = 0; m < S::nCM; ++m) {
      ds_readA(m, 1);
      mfma0.emit(32);
    }
    for (unsigned n = 0; n < S::nCN; ++n) {
      ds_readB(n, 1);
      mfma0.emit(32);
    }
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    auto both = [&](unsigned cycles) {
      mfma0.emit(cycles);
      if (mfma0.next == mfma0.total) mfma1.emit(cycles);
    };
    for (unsigned r = 0; r < S::prefetches; ++r) {
      both(16);
      J.s_waitcnt(vmcnt(pending));
      loaderA.ds_write(r, ldsA);
      both(32);
      loaderA.prefetch(r);
      both(128);
    }
    for (unsigned r = 0; r < S::prefetches; ++r) {
      both(16);
      J.s_waitcnt(vmcnt(pending));
      loaderB.ds_write(r, ldsB);
      both(32);
      loaderB.prefetch(r);
      both(128);
    }
    mfma0.emit();
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    for (unsigned m = 0; m < S::nCM; ++m) {
      ds_readA(m, 0);
      mfma1.emit(32);
    }
    for (unsigned n = 0; n < S::nCN; ++n) {
      ds_readB(n, 0);
      mfma1.emit(32);
    }
    mfma1.emit();
    cur_k = cur_k + 1;
  });

  // ---- write-out: C through LDS (each wave its own mfma_MN x wave_N f32 block, swizzled),
  // converted to bf16, stored in rows of dwordx2 per lane.
  J.s_waitcnt(vmcnt(0));
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
  const unsigned lds_out = ldsA;  // (pyhip frees ldsA/ldsB and allocates again: the same place)
  constexpr unsigned out_lanes_per_row = S::wave_N * 4 / 16;  // 16
  constexpr unsigned rows_per_read = 64 / out_lanes_per_row;  // 4
  auto lds_warp_offset = J.sgpr<u32>();
  lds_warp_offset = warp_id * (S::mfma_MN * S::wave_N * 4);
  auto vdata = J.vgpr<u32>(4), vbf16 = J.vgpr<u32>(2);
  auto k7fff = J.vgpr<u32>();
  k7fff = 0x7fffu;
  auto sel = J.sgpr<u32>();
  sel = 0x07060302u;
  for (unsigned m = 0; m < S::nCM; ++m) {
    for (unsigned n = 0; n < S::nCN; ++n) {
      auto row = lane % S::mfma_MN;
      auto col = lane / S::mfma_MN + n * (S::mfma_MN * 4 / 16);
      auto swz = (row ^ col) % out_lanes_per_row;
      auto vaddr_w = J.vgpr<u32>();
      vaddr_w = row * (S::wave_N * 4) + lds_warp_offset + swz * 16;
      J.ds_write_b128(vaddr_w, C[m * S::nCN + n].template as<u32>(), {.offset = static_cast<int>(lds_out)});
    }
    auto voffset = J.vgpr<u32>();
    voffset = (lane % out_lanes_per_row) * 8 + (lane / out_lanes_per_row + m * S::mfma_MN + warp_offset_m) * (N * 2) +
              warp_offset_n * 2;
    for (unsigned r = 0; r < S::mfma_MN; r += rows_per_read) {
      auto row = lane / out_lanes_per_row + r;
      auto col = lane % out_lanes_per_row;
      auto swz = (row ^ col) % out_lanes_per_row;
      auto vaddr_r = J.vgpr<u32>();
      vaddr_r = swz * 16 + row * (S::wave_N * 4) + lds_warp_offset;
      J.ds_read_b128(vdata, vaddr_r, {.offset = static_cast<int>(lds_out)});
      J.s_waitcnt(lgkmcnt(0));
      cvt_pk_bf16(J, vbf16[0], vdata[0], vdata[1], k7fff, sel);
      cvt_pk_bf16(J, vbf16[1], vdata[2], vdata[3], k7fff, sel);
      J.buffer_store_dwordx2(vbf16, voffset, buff_c, 0, {.offen = true});
      voffset = voffset + rows_per_read * (N * 2);
    }
  }
}

}  // namespace bench_lowering
