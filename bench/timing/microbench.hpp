// The timing model's microbenchmarks as hipasm kernels (microbench.hip makes them HIP kernels).
//
// Each kernel reproduces one figure of a T<n> source (docs/timing-model.md, Sources;
// the figure and its tolerance are in tests/sim/timing/test_timing_microbench.cpp). Every kernel
// takes (u64* buf, u32 n) so one host harness launches them all. Profile one with e.g.
//   hipasm-sim profile build/bench/timing/timing_microbench.co mfma_dep_32x32x8_bf16 \
//     --grid 1 --block 64 --arg out=/dev/null:64 --arg u32=0
//
// A benchmark repeats identical instructions on purpose and never reads most results, so all
// of them are built with the optional passes off (`raw`): no cse/dse/dce (which would merge or
// drop the repeats), no expression folding, no scheduling (the order is the measurement).
// Registers are pinned where the benchmark's figure depends on them (the accumulators the
// report shows, the scalar chase's s[2:3]); the waits are written out. The operands whose
// values the timing does not depend on are left unwritten (.allow_undefined()).
#pragma once
#include <hipasm/hipasm.hpp>

namespace hipasm::microbench {

inline constexpr kernel_options raw{.cse = false, .dse = false, .dce = false, .fold = false, .schedule = false};

using buf_t = arg<uint64_t*>;
using n_t = arg<unsigned>;

// ---- VALU and transcendental rates (T3): 64 ops, one wave. ------------------------------
constexpr int valu_ops = 64;
// Independent v_fma_f32 on 8 rotating accumulators.
constexpr void valu_fma(builder J, buf_t, n_t) {
  auto x = J.thread_id_x();
  auto acc = J.vgpr<f32>(8).allow_undefined();
  for (int i = 0; i < valu_ops; ++i) J.v_fma_f32(acc[i % 8], x, x, acc[i % 8]);
}
// One dependent chain of v_add_u32.
constexpr void valu_chain(builder J, buf_t, n_t) {
  auto x = J.thread_id_x();
  auto acc = J.vgpr<u32>().allow_undefined();
  for (int i = 0; i < valu_ops; ++i) J.v_add_u32(acc, acc, x);
}
// valu_chain with s_setprio 3 first in waves 4-7 of the workgroup (ISA S_SETPRIO: priority before
// age in issue arbitration): in an 8-wave group waves i and i + 4 share a SIMD, so the younger wave's
// chain goes first.
constexpr void valu_chain_prio(builder J, buf_t, n_t) {
  auto x = J.thread_id_x();
  auto w = J.sgpr<u32>();
  J.v_readfirstlane_b32(w, x);
  J.If(w >= 256u, [&] { J.s_setprio(3); });
  auto acc = J.vgpr<u32>().allow_undefined();
  for (int i = 0; i < valu_ops; ++i) J.v_add_u32(acc, acc, x);
}
// Independent v_exp_f32 (quarter rate).
constexpr void trans_exp(builder J, buf_t, n_t) {
  auto x = J.thread_id_x();
  auto r = J.vgpr<f32>(8);
  for (int i = 0; i < valu_ops; ++i) J.v_exp_f32(r[i % 8], x);
}

// ---- MFMA dependent latency (one accumulator) and throughput (four) (T4). ---------------
enum class mfma_shape { bf16_32x32x8, bf16_16x16x16, f16_4x4x4, fp8_32x32x16, fp8_16x16x32, i8_16x16x32,
                        f32_32x32x2, f32_16x16x4, f64_16x16x4 };
constexpr int mfma_count = 32;
// The accumulator's registers of a shape.
constexpr int mfma_acc_regs(mfma_shape s) {
  switch (s) {
    case mfma_shape::bf16_32x32x8: case mfma_shape::fp8_32x32x16: case mfma_shape::f32_32x32x2: return 16;
    case mfma_shape::f64_16x16x4: return 8;
    default: return 4;
  }
}
// A and B: one VGPR each for the f32 shapes, two otherwise (the f64 one: one f64 each).
template <mfma_shape S>
constexpr void mfma(builder J, const gpr<f32>& acc, const gpr<u32>& a, const gpr<u32>& b) {
  if constexpr (S == mfma_shape::bf16_32x32x8) J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc);
  else if constexpr (S == mfma_shape::bf16_16x16x16) J.v_mfma_f32_16x16x16_bf16(acc, a, b, acc);
  else if constexpr (S == mfma_shape::f16_4x4x4) J.v_mfma_f32_4x4x4_16b_f16(acc, a, b, acc);
  else if constexpr (S == mfma_shape::fp8_32x32x16) J.v_mfma_f32_32x32x16_fp8_fp8(acc, a, b, acc);
  else if constexpr (S == mfma_shape::fp8_16x16x32) J.v_mfma_f32_16x16x32_fp8_fp8(acc, a, b, acc);
  else if constexpr (S == mfma_shape::i8_16x16x32) J.v_mfma_i32_16x16x32_i8(acc.as<i32>(), a, b, acc.as<i32>());
  else if constexpr (S == mfma_shape::f32_32x32x2) J.v_mfma_f32_32x32x2_f32(acc, a, b, acc);
  else if constexpr (S == mfma_shape::f32_16x16x4) J.v_mfma_f32_16x16x4_f32(acc, a, b, acc);
  else J.v_mfma_f64_16x16x4_f64(acc.as<f64>(), a, b, acc.as<f64>());
}
constexpr bool mfma_f32_inputs(mfma_shape s) { return s == mfma_shape::f32_32x32x2 || s == mfma_shape::f32_16x16x4; }
// `Accs` accumulators (a0.., one after the other), MFMA i on accumulator i % Accs: 1 is a
// dependent chain (the latency), 4 independent ones (the throughput). A 2-pass producer
// (4x4x4) needs 2 wait states before its result is SrcC again: the hazard pass adds them.
template <mfma_shape S, int Accs>
constexpr void mfma_bench(builder J, buf_t, n_t) {
  constexpr int n = mfma_acc_regs(S), ab = mfma_f32_inputs(S) ? 1 : 2;
  auto acc = J.agpr<f32>(4 * n).pin(0).allow_undefined();
  auto a = J.vgpr<u32>(ab).allow_undefined(), b = J.vgpr<u32>(ab).allow_undefined();
  for (int i = 0; i < mfma_count; ++i) mfma<S>(J, acc.slice((i % Accs) * n, n), a, b);
}

// An MFMA-only loop (the report's bound: test_timing_microbench): n trips of 32 independent
// 32x32x8 bf16 MFMAs on four accumulators, nothing else but the loop's scalar count and branch.
constexpr void mfma_loop(builder J, buf_t, n_t n) {
  auto acc = J.agpr<f32>(64).pin(0).allow_undefined();
  auto a = J.vgpr<u32>(2).allow_undefined(), b = J.vgpr<u32>(2).allow_undefined();
  auto i = J.sgpr<u32>();
  J.For(i, 0u, n, [&] {
    for (int k = 0; k < mfma_count; ++k) mfma<mfma_shape::bf16_32x32x8>(J, acc.slice((k % 4) * 16, 16), a, b);
  });
}

// ---- MFMA + VALU co-execution (T4): 16x16x16 bf16 (16 cycles), rotating accumulators. ----
enum class coexec { mfma_3valu_mfma_exp, mfma_mfma_3valu_exp, mfma_exp, mfma_4valu };
template <coexec C>
constexpr void coexec_bench(builder J, buf_t, n_t) {
  auto acc = J.agpr<f32>(16).pin(0).allow_undefined();
  auto a = J.vgpr<u32>(2).allow_undefined(), b = J.vgpr<u32>(2).allow_undefined();
  auto x = J.thread_id_x();
  auto v = J.vgpr<f32>(4).allow_undefined();
  auto mf = [&](int i) { J.v_mfma_f32_16x16x16_bf16(acc.slice((i % 4) * 4, 4), a, b, acc.slice((i % 4) * 4, 4)); };
  auto valu = [&](int k) { for (int j = 0; j < k; ++j) J.v_add_f32(v[j], x, v[j]); };
  auto exp = [&] { J.v_exp_f32(v[3], x); };
  for (int g = 0; g < 16; ++g) {
    if constexpr (C == coexec::mfma_3valu_mfma_exp) { mf(2 * g); valu(3); mf(2 * g + 1); exp(); }
    else if constexpr (C == coexec::mfma_mfma_3valu_exp) { mf(2 * g); mf(2 * g + 1); valu(3); exp(); }
    else if constexpr (C == coexec::mfma_exp) { mf(g); exp(); }
    else { mf(g); valu(4); }
  }
}

// ---- LDS (T5): issue interval by bank-conflict degree, latency, b64/b128, stores. --------
constexpr int lds_ops = 32;
// 32 reads of `Dwords` (1, 2, 4) per lane at lane * `Stride` dwords, back to back, one wait.
template <int Dwords, int Stride>
constexpr void lds_read_bench(builder J, buf_t, n_t) {
  J.lds_bytes(65536);
  auto addr = J.vgpr<u32>();
  J.v_mul_u32_u24(addr, 4 * Stride, J.thread_id_x());
  auto d = J.vgpr<u32>(Dwords);
  for (int i = 0; i < lds_ops; ++i) {
    if constexpr (Dwords == 1) J.ds_read_b32(d, addr);
    else if constexpr (Dwords == 2) J.ds_read_b64(d, addr);
    else J.ds_read_b128(d, addr);
  }
  J.s_waitcnt(lgkmcnt(0));
}
// Latency: read, wait, 32 times (conflict-free).
template <int Dwords>
constexpr void lds_latency_bench(builder J, buf_t, n_t) {
  J.lds_bytes(65536);
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, Dwords == 1 ? 2 : 4, J.thread_id_x());
  auto d = J.vgpr<u32>(Dwords);
  for (int i = 0; i < lds_ops; ++i) {
    if constexpr (Dwords == 1) J.ds_read_b32(d, addr);
    else J.ds_read_b128(d, addr);
    J.s_waitcnt(lgkmcnt(0));
  }
}
// Stores: 32 conflict-free writes, one wait.
template <int Dwords>
constexpr void lds_write_bench(builder J, buf_t, n_t) {
  J.lds_bytes(65536);
  auto x = J.thread_id_x();
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, Dwords == 1 ? 2 : 4, x);
  auto d = J.vgpr<u32>(4).allow_undefined();
  for (int i = 0; i < lds_ops; ++i) {
    if constexpr (Dwords == 1) J.ds_write_b32(addr, x);
    else J.ds_write_b128(addr, d);
  }
  J.s_waitcnt(lgkmcnt(0));
}

// ---- Atomics to one address from many lanes (histograms). A wave adds 1 to bin(lane) 32 times:
// one_hot (every lane the same bin), uniform16 (16 bins, 4 lanes each: lane mod 16), distinct
// (64 bins, one lane each), random256 (a hash of the lane picks one of 256 bins: what random data
// does; some bins get 2 or 3 lanes). LDS: ds_add_u32 (or ds_add_rtn_u32) back to back, one wait; global:
// global_atomic_add at buf + 4 * bin (returning with sc0 if Rtn), one wait; Packed: the same
// bins with global_atomic_pk_add_bf16 (each lane adds two bf16 elements to its dword).
enum class hist { one_hot, uniform16, distinct, random256 };
constexpr int atomic_ops = 32;
template <hist H>
constexpr void hist_bin_bytes(builder J, const gpr<u32>& addr) {
  if constexpr (H == hist::one_hot) J.v_mov_b32(addr, 0);
  else if constexpr (H == hist::uniform16) {
    J.v_and_b32(addr, 15, J.thread_id_x());
    J.v_lshlrev_b32(addr, 2, addr);
  } else if constexpr (H == hist::random256) {  // bin = the top 8 bits of lane * 2^32 / phi
    auto k = J.sgpr<u32>();
    J.s_mov_b32(k, 0x9E3779B1u);
    J.v_mul_lo_u32(addr, k, J.thread_id_x());
    J.v_lshrrev_b32(addr, 24, addr);
    J.v_lshlrev_b32(addr, 2, addr);
  } else J.v_lshlrev_b32(addr, 2, J.thread_id_x());
}
template <hist H, bool Global, bool Rtn, bool Packed = false>
constexpr void atomic_bench(builder J, buf_t buf, n_t) {
  static_assert(!Packed || (Global && !Rtn));
  if constexpr (!Global) J.lds_bytes(65536);
  auto addr = J.vgpr<u32>();
  hist_bin_bytes<H>(J, addr);
  auto one = J.vgpr<u32>();
  J.v_mov_b32(one, 1);
  auto old = J.vgpr<u32>(8);
  for (int i = 0; i < atomic_ops; ++i) {
    if constexpr (Packed) J.global_atomic_pk_add_bf16(addr, one, buf);
    else if constexpr (Global && Rtn) J.global_atomic_add(old[i % 8], addr, one, buf);
    else if constexpr (Global) J.global_atomic_add(addr, one, buf);
    else if constexpr (Rtn) J.ds_add_rtn_u32(old[i % 8], addr, one);
    else J.ds_add_u32(addr, one);
  }
  if constexpr (Global) J.s_waitcnt(vmcnt(0));
  else J.s_waitcnt(lgkmcnt(0));
}

// ---- Memory latency by pointer chasing (T6): buf holds a chain of 64-bit pointers; lane 0
// only (launch with block 1). 128 steps: the host lays the chain over 64 distinct 128-byte
// lines, walked twice.
constexpr int chase_steps = 128;
template <bool NonTemporal>
constexpr void chase_bench(builder J, buf_t buf, n_t) {
  auto p = J.vgpr<u64>();
  p = buf;
  for (int i = 0; i < chase_steps; ++i) {
    J.global_load_dwordx2(p, p, off, {.nt = NonTemporal});
    J.s_waitcnt(vmcnt(0));
  }
}
// The same chase through the scalar cache (s_load, T1: 16 KiB per 2 CUs; one wave). The
// pointer stays in s[2:3] (pinned: the test finds the chase's loads by that text).
constexpr void chase_scalar(builder J, buf_t, n_t) {
  auto p = J.sgpr<u64>().pin(2);
  J.s_load_dwordx2(p, J.kernarg_ptr(), 0);
  J.s_waitcnt(lgkmcnt(0));
  for (int i = 0; i < chase_steps; ++i) {
    J.s_load_dwordx2(p, p, 0);
    J.s_waitcnt(lgkmcnt(0));
  }
}

// ---- Streaming read / copy bandwidth (T1, T6): each wave of a 256-lane workgroup reads
// 8 x 1 KiB (dwordx4 per lane) at buf + (workgroup * 4 + wave) KiB + i * 4 KiB; the copy
// writes it back at buf + n.
constexpr int stream_reads = 8;
template <bool Copy>
constexpr void stream_bench(builder J, buf_t buf, n_t n) {
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, 4, J.thread_id_x());
  auto base = J.sgpr<u32>();
  J.s_lshl_b32(base, J.workgroup_id_x(), 15);  // workgroup * 4 waves * 8 KiB
  J.v_add_u32(addr, base, addr);
  auto d = J.vgpr<u32>(4 * stream_reads);
  for (int i = 0; i < stream_reads; ++i) {
    J.global_load_dwordx4(d.slice(4 * i, 4), addr, buf);
    J.v_add_u32(addr, 0x1000, addr);
  }
  J.s_waitcnt(vmcnt(0));
  if constexpr (Copy) {
    J.v_add_u32(addr, n, addr);
    J.v_subrev_u32(addr, stream_reads * 0x1000, addr);
    for (int i = 0; i < stream_reads; ++i) {
      J.global_store_dwordx4(addr, d.slice(4 * i, 4), buf);
      J.v_add_u32(addr, 0x1000, addr);
    }
    J.s_waitcnt(vmcnt(0));
  }
}

// ---- Streaming beside matrix cores (the clock's fixed point, test_timing): each wave of a
// 256-lane workgroup reads 4 x 1 KiB (dwordx4 per lane) a trip while four accumulators take 8
// 32x32x8 bf16 MFMAs, n trips; workgroup g's trip t reads buf + (g * n + t) * 16 KiB. The
// MFMA share of a trip depends on HBM bytes per cycle, so on the clock.
constexpr void stream_mfma(builder J, buf_t buf, n_t n) {
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, 4, J.thread_id_x());
  auto base = J.sgpr<u32>();
  J.s_mul_i32(base, J.workgroup_id_x(), n);
  J.s_lshl_b32(base, base, 14);  // (workgroup * n) * 4 waves * 4 KiB
  J.v_add_u32(addr, base, addr);
  auto acc = J.agpr<f32>(64).pin(0).allow_undefined();
  auto a = J.vgpr<u32>(2).allow_undefined(), b = J.vgpr<u32>(2).allow_undefined();
  auto d = J.vgpr<u32>(16);
  auto i = J.sgpr<u32>();
  J.For(i, 0u, n, [&] {
    auto p = J.vgpr<u32>();
    J.v_mov_b32(p, addr);
    for (int k = 0; k < 4; ++k) {
      J.global_load_dwordx4(d.slice(4 * k, 4), p, buf);
      J.v_add_u32(p, 0x1000, p);
    }
    for (int k = 0; k < 8; ++k) mfma<mfma_shape::bf16_32x32x8>(J, acc.slice((k % 4) * 16, 16), a, b);
    J.s_waitcnt(vmcnt(0));
    J.v_add_u32(addr, 0x4000, addr);
  });
}

// ---- Loads to LDS (T6: buffer_load_dword ... lds ~11 cycles/instr per CU): one wave, 32 loads
// of the same 256 bytes through a raw buffer resource on buf, LDS base 0, after one load that
// brings them into the L1 (so each completes at its start on the path + the L1 latency).
// The V# of 4 KiB of buf (raw, dword 3 for loads to LDS), its address loading (lgkmcnt).
constexpr auto lds_dma_srd(builder J) {
  auto srd = J.sgpr<u32>(4).aligned(4);
  J.s_load_dwordx2(srd.slice(0, 2), J.kernarg_ptr(), 0);
  J.s_mov_b32(srd[2], 0x1000);   // num_records
  J.s_mov_b32(srd[3], 0x27000);  // dword 3 of a raw buffer
  return srd;
}
constexpr void vmem_lds_dword(builder J, buf_t, n_t) {
  J.lds_bytes(65536);
  auto srd = lds_dma_srd(J);
  J.s_mov_b32(m0, 0);
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, 2, J.thread_id_x());
  J.s_waitcnt(lgkmcnt(0));
  J.buffer_load_dword_lds(addr, srd, 0, {.offen = true});
  J.s_waitcnt(vmcnt(0));
  for (int i = 0; i < lds_ops; ++i) J.buffer_load_dword_lds(addr, srd, 0, {.offen = true});
  J.s_waitcnt(vmcnt(0));
}

// ---- Loads to LDS beside LDS reads (test_timing): four waves, one per SIMD; each loads 16 x 256 B
// to its own 4 KiB of LDS (L1 hits after a warm-up load), waits for its first 4, then reads 32
// x 1 KiB (ds_read_b128) from the upper 32 KiB. Which port the loads' LDS writes take decides
// whether the reads of SIMDs 0-1 queue behind all of them (device.hpp lds_dma_one_port).
constexpr void lds_dma_beside_reads(builder J, buf_t, n_t) {
  J.lds_bytes(65536);
  auto srd = lds_dma_srd(J);
  auto base = J.sgpr<u32>();
  J.v_readfirstlane_b32(base, J.thread_id_x());  // 64 x the wave's index
  J.s_lshl_b32(base, base, 6);                     // its 4 KiB
  J.s_mov_b32(m0, base);
  auto addr = J.vgpr<u32>(), rd = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, 2, J.thread_id_x());
  J.v_lshlrev_b32(rd, 4, J.thread_id_x());
  J.v_add_u32(rd, 32768, rd);
  auto d = J.vgpr<u32>(4);
  J.s_waitcnt(lgkmcnt(0));
  J.buffer_load_dword_lds(addr, srd, 0, {.offen = true});
  J.s_waitcnt(vmcnt(0));
  for (int i = 0; i < 16; ++i) J.buffer_load_dword_lds(addr, srd, 0, {.offen = true});
  J.s_waitcnt(vmcnt(12));
  for (int i = 0; i < 32; ++i) J.ds_read_b128(d, rd);
  J.s_waitcnt(lgkmcnt(0));
  J.s_waitcnt(vmcnt(0));
}

// ---- Buffer range check in the traffic (test_timing): one wave, a raw V# of 256 bytes on buf;
// dword loads at 4 lane in range (256 B) and the same past the end by soffset 256 only (0 B),
// dwordx4 at 16 lane (256 B), and at 16 lane + 8 (lane 15 half in range: 248 B): 760 bytes.
constexpr void vmem_range_soffset(builder J, buf_t, n_t) {
  auto srd = J.sgpr<u32>(4).aligned(4);
  J.s_load_dwordx2(srd.slice(0, 2), J.kernarg_ptr(), 0);
  J.s_mov_b32(srd[2], 0x100);    // num_records
  J.s_mov_b32(srd[3], 0x20000);  // dword 3 of a raw buffer
  auto past = J.sgpr<u32>();
  J.s_movk_i32(past, 0x100);
  auto a4 = J.vgpr<u32>(), a16 = J.vgpr<u32>();
  J.v_lshlrev_b32(a4, 2, J.thread_id_x());
  J.v_lshlrev_b32(a16, 4, J.thread_id_x());
  auto d = J.vgpr<u32>(10);
  J.s_waitcnt(lgkmcnt(0));
  J.buffer_load_dword(d[0], a4, srd, 0, {.offen = true});
  J.buffer_load_dword(d[1], a4, srd, past, {.offen = true});
  J.buffer_load_dwordx4(d.slice(2, 4), a16, srd, 0, {.offen = true});
  J.buffer_load_dwordx4(d.slice(6, 4), a16, srd, 0, {.offen = true, .offset = 8});
  J.s_waitcnt(vmcnt(0));
}

// ---- Cache controls in the timing model (test_timing): buffer_wbl2 sc1 (a release) between a
// store and a load of the same 256 bytes, buffer_inv sc1 (an acquire) after the load's wait.
// They have no V# and move no data: 256 + 256 bytes of traffic.
constexpr void vmem_cache_controls(builder J, buf_t buf, n_t) {
  auto a = J.vgpr<u32>();
  J.v_lshlrev_b32(a, 2, J.thread_id_x());
  auto d = J.vgpr<u32>();
  J.v_mov_b32(d, 7);
  J.global_store_dword(a, d, buf);
  J.buffer_wbl2({.sc1 = true});
  J.s_waitcnt(vmcnt(0));
  auto r = J.vgpr<u32>();
  J.global_load_dword(r, a, buf);
  J.s_waitcnt(vmcnt(0));
  J.buffer_inv({.sc1 = true});
  J.s_waitcnt(vmcnt(0));
}

// ---- A counter one workgroup polls and another one sets (test_timing): workgroup 0 sleeps 4 x
// 6400 cycles, then adds 1 to buf[0] (an integer atomic); workgroup 1 polls buf[0] (sc1 loads,
// s_sleep between) until it is not 0. Run on one thread in order, the functional run records
// a single poll.
constexpr void poll_counter(builder J, buf_t buf, n_t) {
  auto zero = J.vgpr<u32>();
  J.v_mov_b32(zero, 0);
  J.If(
      J.workgroup_id_x() == 0u,
      [&] {
        for (int i = 0; i < 4; ++i) J.s_sleep(100);
        auto one = J.vgpr<u32>();
        J.v_mov_b32(one, 1);
        J.global_atomic_add(zero, one, buf);
      },
      [&] {
        auto v = J.vgpr<u32>();
        auto got = J.sgpr<u32>();
        auto poll = [&] {
          J.global_load_dword(v, zero, buf, {.sc1 = true});
          J.s_waitcnt(vmcnt(0));
          got = readfirstlane(v);
        };
        poll();
        J.While([&] { return got == 0u; },
                [&] {
                  J.s_sleep(1);
                  poll();
                });
        J.buffer_inv({.sc1 = true});
      });
}

// ---- Last arrival (helpers/arrival.hpp) of n workgroups: workgroup 0 counts in after 4 x 6400
// cycles of s_sleep, the others at once; the last to count in writes 1 to buf[1]. The returning
// atomic's old value says who is last: in the functional run on one thread (id order) that is
// workgroup n - 1, whose atomic saw every other addition.
constexpr void last_arrival(builder J, buf_t buf, n_t n) {
  auto zero = J.vgpr<u32>();
  J.v_mov_b32(zero, 0);
  J.If(J.workgroup_id_x() == 0u, [&] { for (int i = 0; i < 4; ++i) J.s_sleep(100); });
  if_last_arrival(J, buf, zero, n, [&] {
    auto one = J.vgpr<u32>(), at = J.vgpr<u32>();
    J.v_mov_b32(one, 1);
    J.v_mov_b32(at, 8);
    J.global_store_dword(at, one, buf);
  });
}

// ---- One L2 channel (sampling test): every lane of every wave reads the buffer's first dword,
// L1 bypassed (nt), 32 times: one line, so one L2 channel whatever the address-to-channel
// mapping (device.hpp), and every CU of an XCD queues on it (1 line/clk, T6 128 B/clk) while
// its own address path needs only 4 cycles per load (T6).
constexpr void l2_one_channel(builder J, buf_t buf, n_t) {
  auto addr = J.vgpr<u32>();
  J.v_mov_b32(addr, 0);
  auto d = J.vgpr<u32>(8);
  for (int i = 0; i < 32; ++i) J.global_load_dword(d[i % 8], addr, buf, {.nt = true});
  J.s_waitcnt(vmcnt(0));
}

// ---- A CU's queued stores beside another CU's load: workgroup 0 issues 64 stores of 1 KiB
// (8 lines each: 64 x 8 x 4 = 2048 cycles of its address path, T6), spread over its XCD's L2
// channels; workgroup 8 (the same XCD: round-robin dispatch over 8) sleeps 640 cycles (the 64 stores have issued), then loads
// one line (L1 bypassed) from elsewhere. Its load is due at once, long before most of the stores
// reach the L2: it must not queue behind them.
constexpr void stores_beside_load(builder J, buf_t buf, n_t) {
  auto off = J.vgpr<u32>();
  J.v_lshlrev_b32(off, 4, J.thread_id_x());
  J.If(
      J.workgroup_id_x() == 0u,
      [&] {
        auto d = J.vgpr<u32>(4);
        for (int i = 0; i < 4; ++i) J.v_mov_b32(d[i], i);
        auto addr = J.vgpr<u32>();
        for (int i = 0; i < 64; ++i) {
          J.v_add_u32(addr, uint32_t(i) * 1024u, off);
          J.global_store_dwordx4(addr, d, buf);
        }
      },
      [&] {
        J.If(J.workgroup_id_x() == 8u, [&] {
          J.s_waitcnt(lgkmcnt(0));  // the kernel arguments are in (the stores issue from then on)
          J.s_sleep(10);
          auto addr = J.vgpr<u32>();
          J.v_mov_b32(addr, 1u << 20);
          auto v = J.vgpr<u32>();
          J.global_load_dword(v, addr, buf, {.nt = true});
          J.s_waitcnt(vmcnt(0));
        });
      });
  J.s_waitcnt(vmcnt(0));
}

// ---- A power-of-two stride across the L2 channels: work-item t reads the dword at 2048 t (a
// line every 2 KiB, 64 lines per load), L1 bypassed (nt), 8 times. Channels interleaved every
// 128 or 256 B without a hash would put every line on one channel; the hash spreads them.
constexpr void l2_stride_2k(builder J, buf_t buf, n_t) {
  auto addr = J.vgpr<u32>();
  J.v_lshlrev_b32(addr, 11, J.thread_id_x());
  auto d = J.vgpr<u32>(8);
  for (int i = 0; i < 8; ++i) J.global_load_dword(d[i], addr, buf, {.nt = true});
  J.s_waitcnt(vmcnt(0));
}

// ---- Infinity Cache (MALL) bandwidth (T1 256 MB; 17 TB/s): workgroup g (grid a multiple of 8)
// reads its 64 KiB block (each wave 16 x 1 KiB, dwordx4 per lane), then the blocks of groups
// g^1 .. g^7, which run on the 7 other XCDs (round-robin dispatch): every XCD reads every block
// once, so all but the first read of a line miss the XCD's L2 and hit the device-wide MALL.
constexpr void mall_reread(builder J, buf_t buf, n_t) {
  auto wg = J.workgroup_id_x();
  auto lane_off = J.vgpr<u32>();
  J.v_lshlrev_b32(lane_off, 4, J.thread_id_x());
  auto block = J.sgpr<u32>();
  J.s_lshl_b32(block, wg, 16);
  auto addr = J.vgpr<u32>();
  J.v_add_u32(addr, block, lane_off);
  auto d = J.vgpr<u32>(64);
  auto block_reads = [&] {
    for (int i = 0; i < 16; ++i) {
      J.global_load_dwordx4(d.slice(4 * i, 4), addr, buf);
      J.v_add_u32(addr, 0x1000, addr);
    }
    J.s_waitcnt(vmcnt(0));
  };
  block_reads();
  for (unsigned x = 1; x < 8; ++x) {
    J.s_xor_b32(block, wg, x);
    J.s_lshl_b32(block, block, 16);
    J.v_add_u32(addr, block, lane_off);
    block_reads();
  }
}

}  // namespace hipasm::microbench
