// The library's MXFP4 GEMM (gfx950): C = A * B^T, A M x K and B N x K in fp4 e2m1 (OCP MX v1.0),
// two elements a byte (element 2i in the low nibble of byte i: mxfp4_quant.hpp's output), each
// block of 32 consecutive k of a row with one E8M0 scale 2^(e - 127); C M x N row-major bf16
// (round to nearest even) of the f32 sums:
//   C[m][n] = sum_k e2m1(A[m][k]) 2^(sa[m][k/32] - 127) * e2m1(B[n][k]) 2^(sb[n][k/32] - 127)
// sa [M][K/32], sb [N][K/32] bytes, unshuffled (mxfp4_quant's layout).
//
//   // a .hip file compiled for gfx950 by hipasm_add_code_object:
//   HIPASM_GEMM_FP4_KERNEL(my_gemm, (hipasm::kernels::gemm_fp4_config{.bm = 32, .bn = 64, .wn = 2}))
//   // host (hipasm-sim or a real MI355X, the same call): gemm_fp4_launch.hpp
//
// gfx950 only (v_mfma_scale_f32_32x32x64_f8f6f4): built for another target the macro's line is
// a compile error. Any M, N >= 1; K a multiple of 256 (gemm_fp4_k_step: a step is one 128-byte
// line of each row; the launcher rejects another K). Tails in M and N need no branch (buffer.hpp):
// A's V# ends at M*K/2 bytes, B's at N*K/2, the scales' at their tensors' ends, so overhanging
// rows load zeros (an fp4 zero at scale byte 0: a zero product) and C's stores past N take an
// offset past its V#, those past M fall past its end.
//
// Schedule (by default no LDS for the operands). Each wave computes a (bm / wm) x (bn / wn) block of 32x32
// MFMA blocks, loading its A and B fragments straight from global memory into the MFMAs'
// registers. An fp4 operand of the 32x32x64 MFMA is 32 consecutive k a lane (lane l: row l % 32,
// k block l / 32), the scale the lane's own row and k block (mfma_atom.hpp, CDNA4 ISA 7.2.1).
// A step of 256 k: lane group g = l / 32 loads bytes 64g .. 64g + 63 of its row's 128-byte line
// (four dwordx4) and its 4 scale bytes (one dword: blocks 4g .. 4g + 3); MFMA s (s = 0..3) takes
// dwordx4 s of every lane and scale byte s (op_sel / op_sel_hi), i.e. the k blocks s and 4 + s of
// the step. A and B take the same permutation of k, which leaves the dot product unchanged.
// The loads of step t + stages - 1 go out before the MFMAs of step t (`stages` register sets,
// `stages` steps a loop trip; a step count that is not a multiple of it ends with steps past K,
// whose loads are zeros).
// b_shuffled: B and its scales come preshuffled (gemm_fp4_preshuffle_b, host side): per 32-row
// block and step, the four dwordx4 of the 64 lanes as four consecutive 1 KiB runs and the 64
// lanes' scale dwords as one 256-byte run (with the row-major layout a load touches 32 lines of
// 128 bytes, with this one 8 (the data) or 2 (the scales): the CU's address path takes 4 cycles
// a line). Its rows padded with zeros to a multiple of 32.
// a_lds: the K group's lanes load A's tile by rows (a dwordx4 a lane: 8 lines an instruction)
// into VGPRs one step ahead, store it to one of two LDS buffers (16-byte chunks XOR-swizzled by
// row), and after a barrier each wave reads its fragments there; with scale_windows A's scales
// come by windows of 8 steps through LDS as well (loaded a window ahead; a step reads its
// dwords there), else a scattered dword a step like B's.
// ab_lds (the large-M tile, e.g. 256x256 of 2 x 2 waves of 128x128): A and B row-major both
// through LDS, each load used once a workgroup (the CU's address path, 4 cycles a 128-byte line,
// bounds the direct loads: a 256x256 step's 512 lines take as long as its 256 MFMAs on 4
// SIMDs). Lane q loads 16-byte chunk q % 8 of rows q / 8 + 8 W u of a step's tiles into VGPRs
// one step ahead; they go to one of two LDS buffers (chunks XOR-swizzled by row % 8) while the
// other is read. The scales come by windows of 8 steps (a row's 64 bytes, loaded a window
// ahead, spread over the even steps of the window before) into one LDS window per operand, stored after a
// window's last step between two barriers; each step reads its scale dwords there (8-byte chunks
// swizzled by (row / 4) % 8: a read's 64 lanes hit 64 banks). Staging: two VGPR sets, a step's
// tiles loaded three steps ahead. A step (2 a loop trip): the 4 slices' MFMAs (slice s: the
// 64-k MFMA s of every block, its fragments 16 bytes a lane and block) each with the next
// slice's reads; among slices 0 and 1 the next step's stores into the other buffer, among slice
// 2's the loads three steps ahead; half of slice 3, a barrier, the other half with the next
// step's scale and slice-0 reads. Accumulators in AGPRs (up to 256: one wave a SIMD). C goes out
// 64 columns of a row a store (blocks paired by v_permlane32_swap_b32). groups > 0: persistent
// workgroups walking their tiles, the next tile's first loads and window in flight over the
// current one's last steps and C stores.
// wk > 1: the workgroup's waves split K as well (wave group kw takes the steps kw, kw + wk, ...;
// a_lds: a contiguous range of ceil(steps / wk), every group the same count of loop trips),
// their sums added through LDS at the end by group 0, which stores C: more loads in flight a
// CU for small M, where the C tiles leave CUs idle.
#pragma once
#include <cstdint>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "gemm_common.hpp"

namespace hipasm::kernels {

// K elements a step (a 128-byte line of each row): K must be a multiple of it.
inline constexpr uint32_t gemm_fp4_k_step = 256;

struct gemm_fp4_config {
  uint32_t bm = 32, bn = 64;  // workgroup tile
  uint32_t wm = 1, wn = 2;    // waves along M and N
  uint32_t wk = 1;            // wave groups along K (their sums added through LDS)
  uint32_t stages = 2;        // register sets of a step's fragments: loads run stages - 1 steps ahead
  bool b_shuffled = false;    // B and its scales in gemm_fp4_preshuffle_b's layout (one 1 KiB run a load)
  bool a_lds = false;         // A's tile through LDS (row-wise loads: 8 lines a dwordx4), two stages
  bool scale_windows = true;  // a_lds: A's scales by windows of 8 steps through LDS (else a dword a step)
  bool ab_lds = false;        // the large-M tile: A and B (row-major) through two LDS buffers, both
                              // scales by windows, accumulators in AGPRs (see "ab_lds" above)
  uint32_t groups = 0;        // ab_lds: > 0 (the device's CUs; a multiple of 8 keeps each XCD's
                              // tiles together): at most `groups` workgroups, each walking its
                              // tiles one after another (K a multiple of 2048: the next tile's
                              // first loads run during a tile's last steps and its C stores)

  constexpr uint32_t tiles(uint32_t m, uint32_t n) const { return grid_x(n) * grid_y(m); }

  constexpr uint32_t threads() const { return 64 * wm * wn * wk; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + bn - 1) / bn; }
  constexpr uint32_t grid_y(uint32_t m) const { return (m + bm - 1) / bm; }
  // LDS of the K groups' sums (wk > 1)
  constexpr uint32_t lds_bytes() const { return (wk - 1) * wm * wn * 64 * (bm / wm) * (bn / wn) / 64 * 4; }
};

namespace detail {
inline constexpr std::string_view gemm_fp4_mfma = "v_mfma_scale_f32_32x32x64_f8f6f4";
constexpr bool gemm_fp4_target_ok() { return find_mfma_atom(gemm_fp4_mfma) != nullptr; }

// ab_lds: LDS bytes (two buffers of the A and B tiles, one scale window of each) and a lane's
// 16-byte tile chunks of A and B a step (= its 8-byte window chunks)
constexpr uint32_t gemm_fp4_ab_lds_bytes(const gemm_fp4_config& c) { return 320 * (c.bm + c.bn); }

constexpr const char* gemm_fp4_config_error(const gemm_fp4_config& c) {
  if (c.wm == 0 || c.wn == 0 || c.wk == 0 || c.wm * c.wn * c.wk > 16) return "gemm_fp4: 1 to 16 waves (wm * wn * wk)";
  if (c.groups != 0 && !c.ab_lds) return "gemm_fp4: groups (persistent workgroups) is for ab_lds";
  if (c.ab_lds) {
    if (c.wk != 1 || c.stages != 2 || c.b_shuffled || c.a_lds)
      return "gemm_fp4: ab_lds takes wk = 1, two stages, B row-major (no b_shuffled) and no a_lds (it stages A and B itself)";
    if (c.bm % (32 * c.wm) != 0 || c.bn % (32 * c.wn) != 0)
      return "gemm_fp4: bm must be a multiple of 32 * wm and bn of 32 * wn (32x32 MFMA blocks)";
    const uint32_t w = c.wm * c.wn, t = 64 * w, tm = c.bm / c.wm / 32, tn = c.bn / c.wn / 32;
    if (w % 4 != 0) return "gemm_fp4: ab_lds takes a multiple of 4 waves (the scale windows' swizzle)";
    if ((c.bm * 8) % t != 0 || (c.bn * 8) % t != 0)
      return "gemm_fp4: ab_lds: the A and B tiles' 16-byte chunks (bm * 8, bn * 8) must be whole steps of the workgroup's lanes";
    if (gemm_fp4_ab_lds_bytes(c) > active_target::desc.lds_bytes)
      return "gemm_fp4: ab_lds: two buffers of the A and B tiles and their scale windows (320 (bm + bn) bytes) exceed the target's LDS";
    if (tm * tn * 16 > 256) return "gemm_fp4: ab_lds: a wave's accumulators exceed 256 AGPRs";
    const uint32_t q = (c.bm + c.bn) * 8 / t;  // tile chunks a lane (and window chunks)
    if (9 * (tm + tn) + 8 * q + 24 > 256)  // (two fragment sets, staging, window chunks, offsets)
      return "gemm_fp4: ab_lds: a wave's fragments, staging and window chunks exceed 256 VGPRs: more waves or a smaller tile";
    if (2 * q > 63) return "gemm_fp4: ab_lds: a step's loads and a window's exceed vmcnt's 63";
    return nullptr;
  }
  if (c.bm % (32 * c.wm) != 0 || c.bn % (32 * c.wn) != 0)
    return "gemm_fp4: bm must be a multiple of 32 * wm and bn of 32 * wn (32x32 MFMA blocks)";
  const uint32_t tm = c.bm / c.wm / 32, tn = c.bn / c.wn / 32;
  if (c.stages < 2 || c.stages > 6) return "gemm_fp4: 2 to 6 stages (register sets of a step's fragments)";
  // (a_lds adds two staging sets of the A tile's chunks and a window's, with their offsets)
  const uint32_t aq = c.a_lds ? c.bm * 8 / (64 * c.wm * c.wn) : 0;
  if (tm * tn * 16 + c.stages * (tm + tn) * 17 + 12 * aq > 248)
    return "gemm_fp4: a wave's accumulators, `stages` sets of fragments (and a_lds's staging) exceed 248 VGPRs: fewer stages, more waves or a smaller tile";
  if (5 * (tm + tn) * c.stages > 63) return "gemm_fp4: the loads of `stages` steps exceed vmcnt's 63";
  if (c.lds_bytes() > 65536) return "gemm_fp4: the K groups' sums exceed 64 KiB of LDS";
  if (!c.a_lds && !c.scale_windows) return "gemm_fp4: scale_windows = false is for a_lds (A's scales without LDS windows)";
  if (c.a_lds) {
    if (c.stages != 2) return "gemm_fp4: a_lds takes two stages (the A tile's two LDS buffers)";
    if ((c.bm * 8) % (64 * c.wm * c.wn) != 0)
      return "gemm_fp4: a_lds: the A tile's 16-byte chunks (bm * 8) must be whole dwordx4 steps of the K group's lanes";
    if (c.wk * 2 * c.bm * (128 + 72) > 65536) return "gemm_fp4: a_lds: the A tile and scale buffers exceed 64 KiB of LDS";
  }
  return nullptr;
}

}  // namespace detail

namespace detail {
// ab_lds: the window slot of chunk u of q (slot k: its loads go out in step 2 k of the window before)
constexpr int gemm_fp4_window_slot(int u, int q) { return u * 4 / q; }

// The ab_lds tile (header comment): W = wm x wn waves, each a (bm / wm) x (bn / wn) block of
// 32x32 MFMA blocks with its accumulators in AGPRs.
template <gemm_fp4_config C>
constexpr void gemm_fp4_ab_lds(builder J, arg<void*> c_ptr, arg<const uint8_t*> a_ptr, arg<const uint8_t*> b_ptr,
                               arg<const uint8_t*> sa_ptr, arg<const uint8_t*> sb_ptr, arg<unsigned> M, arg<unsigned> N,
                               arg<unsigned> K) {
  constexpr const mfma_atom& AT = mfma_atom_of(gemm_fp4_mfma);
  constexpr int fp4 = 4;  // the cbsz / blgp code of e2m1
  static_assert(AT.a_k(fp4).shift == 5 && AT.a_row().mask == 31 && AT.b_col().mask == 31 && AT.a_regs(fp4) == 4);
  constexpr uint32_t W = C.wm * C.wn, T = 64 * W, WTM = C.bm / C.wm, WTN = C.bn / C.wn;
  constexpr int TM = static_cast<int>(WTM / 32), TN = static_cast<int>(WTN / 32);
  // a lane's 16-byte tile chunks of A and B a step, and 8-byte window chunks (the same counts:
  // a row's step is 8 chunks of 16 bytes, its window 8 chunks of 8)
  constexpr int AQ = static_cast<int>(C.bm * 8 / T), BQ = static_cast<int>(C.bn * 8 / T);
  constexpr uint32_t RS = T / 8;  // rows one chunk index u of all lanes covers

  auto a_bytes = J.sgpr<u32>(), b_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>(), sa_bytes = J.sgpr<u32>(),
       sb_bytes = J.sgpr<u32>();
  a_bytes = M * (K >> 1);
  b_bytes = N * (K >> 1);
  sa_bytes = M * (K >> 5);
  sb_bytes = N * (K >> 5);
  c_bytes = (M * N) << 1;
  auto A = make_buffer(J, a_ptr, a_bytes);
  auto B = make_buffer(J, b_ptr, b_bytes);
  auto SA = make_buffer(J, sa_ptr, sa_bytes);
  auto SB = make_buffer(J, sb_ptr, sb_bytes);
  auto Cb = make_buffer(J, c_ptr, c_bytes);

  auto tid = J.thread_id_x();
  auto lane = J.vgpr<u32>(), wave = J.vgpr<u32>();
  lane = tid & 63u;
  wave = tid >> 6;
  auto wmn = J.sgpr<u32>();
  J.v_readfirstlane_b32(wmn, wave);
  // The workgroup's tiles: linear ids lin, lin + G, ... below the tile count (groups = 0: one,
  // G the tile count), ordered per XCD (each XCD's workgroups a compact block of tiles sharing
  // their A and B rows in its L2: gemm_common.hpp, bands of 1024 rows of C as gemm_bf16's).
  // This tile's first rows of A and B (tm0, tn0) and the next one's (ntm0, ntn0; n_valid 0: none).
  auto tm0 = J.sgpr<u32>(), tn0 = J.sgpr<u32>(), wr0 = J.sgpr<u32>(), wc0 = J.sgpr<u32>();
  auto ntm0 = J.sgpr<u32>(), ntn0 = J.sgpr<u32>(), n_valid = J.sgpr<u32>();
  auto gx = J.sgpr<u32>(), gy = J.sgpr<u32>(), tiles = J.sgpr<u32>(), lin = J.sgpr<u32>(), G = J.sgpr<u32>();
  gx = (N + (C.bn - 1)) / C.bn;
  gy = (M + (C.bm - 1)) / C.bm;
  tiles = gx * gy;
  if constexpr (C.groups > 0) {
    lin = J.workgroup_id_x();
    G = min(tiles, C.groups);
  } else {
    lin = J.workgroup_id_y() * gx + J.workgroup_id_x();
    G = tiles;
  }
  auto tile_rows = [&](const gpr<u32>& l, gpr<u32>& om, gpr<u32>& on) {
    auto tx = J.sgpr<u32>(), ty = J.sgpr<u32>();
    gemm_tile_order_of(J, l, tiles, gx, gy, tx, ty, 8, C.bm >= 1024 ? 1 : 1024 / C.bm);
    om = ty * C.bm;
    on = tx * C.bn;
  };
  tile_rows(lin, tm0, tn0);
  auto next_tile = [&] {
    auto ln = J.sgpr<u32>();
    ln = lin + G;
    n_valid = as_u32(ln < tiles);
    tile_rows(ln, ntm0, ntn0);
  };
  next_tile();
  wr0 = (wmn % C.wm) * WTM;  // the wave's first row of the A and B tiles
  wc0 = (wmn / C.wm) * WTN;
  auto half_k = J.sgpr<u32>(), k32 = J.sgpr<u32>(), k_steps = J.sgpr<u32>();
  half_k = K >> 1;
  k32 = K >> 5;
  k_steps = K >> 8;

  // LDS: two buffers of each tile (rows of 128 bytes, 16-byte chunk c of row r at chunk c ^ (r % 8):
  // the 8 rows of a fragment read's phase hit distinct banks), one scale window of each (rows of
  // 64 bytes, step i's 8 bytes of row r at chunk i ^ ((r / 4) % 8): the 32 rows x 2 dwords of a
  // scale read hit 64 distinct banks). Bases above 64 KiB go in the address registers (a DS
  // offset is 16 bits).
  constexpr uint32_t ABUF = C.bm * 128, BBUF = C.bn * 128;
  // (aligned: the addresses' low bits below come by XOR)
  const uint32_t a_lds = J.lds_bytes(2 * ABUF, 128).offset, b_lds = J.lds_bytes(2 * BBUF, 128).offset;
  const uint32_t aw_lds = J.lds_bytes(C.bm * 64, 64).offset, bw_lds = J.lds_bytes(C.bn * 64, 64).offset;
  const int32_t bw_aw = static_cast<int32_t>(bw_lds - aw_lds);

  // Loads: lane q takes chunk q % 8 of rows q / 8 + RS u (u < AQ, BQ) of a step's tile, and of a
  // window (8 steps: the step q % 8) the 8 scale bytes of the same rows.
  auto qr = J.vgpr<u32>(), qc = J.vgpr<u32>();
  qr = tid >> 3;
  qc = tid & 7u;
  // (the row of chunk u is RS u rows further: an SGPR term a u, shared by A and B)
  constexpr int QM = AQ > BQ ? AQ : BQ;
  // (the lane's part is the same for A and B; the tiles' first rows are SGPR terms)
  auto a_g = J.vgpr<u32>(), a_w = J.vgpr<u32>();
  a_g = qr * half_k + (qc << 4);
  a_w = qr * k32 + (qc << 3);
  auto ao_g = J.sgpr<u32>(), bo_g = J.sgpr<u32>(), ao_w = J.sgpr<u32>(), bo_w = J.sgpr<u32>();
  auto nao_g = J.sgpr<u32>(), nbo_g = J.sgpr<u32>(), nao_w = J.sgpr<u32>(), nbo_w = J.sgpr<u32>();
  auto origins = [&] {
    ao_g = tm0 * half_k;
    bo_g = tn0 * half_k;
    ao_w = tm0 * k32;
    bo_w = tn0 * k32;
  };
  auto next_origins = [&] {
    nao_g = ntm0 * half_k;
    nbo_g = ntn0 * half_k;
    nao_w = ntm0 * k32;
    nbo_w = ntn0 * k32;
  };
  origins();
  next_origins();
  auto g_row = J.sgpr<u32>(QM), w_row = J.sgpr<u32>(QM), g_u = J.sgpr<u32>(QM), gb_u = J.sgpr<u32>(QM);
  for (int u = 0; u < QM; ++u) {
    g_row[u] = half_k * (RS * static_cast<uint32_t>(u));
    w_row[u] = k32 * (RS * static_cast<uint32_t>(u));
  }
  // their LDS places (RS u is a multiple of 32: the same swizzle for every u)
  auto at_st = J.vgpr<u32>(), bt_st = J.vgpr<u32>(), aw_st = J.vgpr<u32>();
  {
    auto x = J.vgpr<u32>(), y = J.vgpr<u32>();
    x = ((qc ^ (qr & 7u)) << 4) + (qr << 7);
    at_st = x + a_lds;
    bt_st = x + b_lds;
    y = ((qc ^ ((qr >> 2) & 7u)) << 3) + (qr << 6);
    aw_st = y + aw_lds;  // (B's window bw_aw bytes further)
  }
  // Reads: lane (r, g) = (l % 32, l / 32), of slice s (MFMA s of a step) chunk 4 g + s of row
  // 32 i + r of the wave's rows (block i); its scale dword g of the step's 8 bytes of that row.
  // (4 g + s) ^ (r % 8) = (4 g ^ (r % 8)) ^ s (s < 4): slice s's address is slice 0's ^ 16 s;
  // step t's scale address is the one of window step 0 ^ 8 (t % 8).
  auto ar = J.vgpr<u32>(), br = J.vgpr<u32>(), as_rd = J.vgpr<u32>(), bs_rd = J.vgpr<u32>();
  {
    auto r = J.vgpr<u32>(), g = J.vgpr<u32>(), ra = J.vgpr<u32>(), rb = J.vgpr<u32>();
    r = lane & 31u;
    g = lane >> 5;
    ra = r + wr0;
    rb = r + wc0;
    auto ch = J.vgpr<u32>(), sw = J.vgpr<u32>();
    ch = ((g << 2) ^ (r & 7u)) << 4;
    ar = (ra << 7) + ch + a_lds;
    br = (rb << 7) + ch + b_lds;
    sw = ((r >> 2) & 7u) << 3;
    as_rd = (ra << 6) + (g << 2) + sw + aw_lds;
    bs_rd = (rb << 6) + (g << 2) + sw + bw_lds;
  }

  auto stg = J.vgpr<u32>(2 * (AQ + BQ), 4);  // two steps' tile chunks (two sets)
  auto wst = J.vgpr<u32>(AQ + BQ, 2);       // a window's chunks
  auto fa = J.vgpr<u32>(2 * TM, 4), fb = J.vgpr<u32>(2 * TN, 4);  // a slice's fragments, two sets
  // a step's scale dwords: one set (the next step's are read among the last MFMAs once these
  // have read theirs: mfma_slice's order)
  auto sav = J.vgpr<u32>(TM), sbv = J.vgpr<u32>(TN);
  auto acc = J.agpr<f32>(TM * TN, 16);
  auto zero_acc = [&] {  // by MFMAs of zeros: 16 AGPRs an instruction
    auto z = J.vgpr<u32>(2);
    z.fill(0u);
    for (int b = 0; b < TM * TN; ++b) J.v_mfma_f32_32x32x8_bf16(acc[b], z, z, 0);
  };
  auto t_load = J.sgpr<u32>(), kofs = J.sgpr<u32>(), t_cur = J.sgpr<u32>();

  // the loads of step t_load's tiles into staging set `set`; t_load >= k_steps: the next tile's
  // step t_load - k_steps (no next tile: an offset past the V#s, zeros)
  auto issue_tile = [&](int set) {
    const int o = set * (AQ + BQ);
    auto tl = J.sgpr<u32>(), oa = J.sgpr<u32>(), ob = J.sgpr<u32>(), v = J.sgpr<u32>();
    tl = select(t_load >= k_steps, gpr<u32>(t_load - k_steps), t_load);
    v = select(t_load >= k_steps, n_valid, 1u);
    oa = select(t_load >= k_steps, nao_g, ao_g);
    ob = select(t_load >= k_steps, nbo_g, bo_g);
    kofs = select(v == 0u, 0x80000000u, gpr<u32>(tl << 7));
    for (int u = 0; u < AQ; ++u) g_u[u] = g_row[u] + kofs + oa;
    for (int u = 0; u < BQ; ++u) gb_u[u] = g_row[u] + kofs + ob;
    for (int u = 0; u < AQ; ++u) A.load(stg[o + u], at(a_g) + at(g_u[u]));  // (2^31 + terms past K: past the V#)
    for (int u = 0; u < BQ; ++u) B.load(stg[o + AQ + u], at(a_g) + at(gb_u[u]));
    t_load = t_load + 1u;
  };
  // (part 0: A's chunks, 1: B's, -1: both)
  auto store_tile = [&](int set, int buf, int part = -1) {
    const int o = set * (AQ + BQ);
    if (part != 1)
      for (int u = 0; u < AQ; ++u)
        J.ds_write_b128(at_st, stg[o + u], {.offset = static_cast<int32_t>(buf * ABUF + RS * 128 * u)});
    if (part != 0)
      for (int u = 0; u < BQ; ++u)
        J.ds_write_b128(bt_st, stg[o + AQ + u], {.offset = static_cast<int32_t>(buf * BBUF + RS * 128 * u)});
  };
  // The window of steps [start, start + 8) (steps from k_steps on: zeros). Its loads are spread
  // over the even steps of the 8 before it, slot k = 0..3 in step 2k (a window in one burst held
  // the address path for a step's worth of tile loads): A's chunks u with gemm_fp4_window_slot(u, AQ) == k,
  // B's with gemm_fp4_window_slot(u, BQ) == k (k < 0: all). Odd steps load none, so the loads after a
  // step's tile are the same count in every step of a parity (its vmcnt below is a constant).
  auto load_window = [&](const gpr<u32>& start, int k) {
    // (start >= k_steps: the next tile's window start - k_steps)
    auto offa = J.vgpr<u32>(), offb = J.vgpr<u32>();
    auto so = J.sgpr<u32>(), left = J.sgpr<u32>(), st = J.sgpr<u32>(), v = J.sgpr<u32>();
    st = select(start >= k_steps, gpr<u32>(start - k_steps), start);
    v = select(start >= k_steps, n_valid, 1u);
    so = (st << 3) + select(start >= k_steps, nao_w, ao_w);
    // (the lane's step st + qc is past K when qc >= left)
    left = select(v == 0u, 0u, gpr<u32>(max(k_steps, st) - st));
    // (past K: 2^31 plus a row term, still past the V#)
    offa = select(qc >= left, 0x80000000u, gpr<u32>(a_w + so));
    so = (st << 3) + select(start >= k_steps, nbo_w, bo_w);
    offb = select(qc >= left, 0x80000000u, gpr<u32>(a_w + so));
    auto loads = [&](int slot) {
      for (int u = 0; u < AQ; ++u)
        if (slot < 0 || gemm_fp4_window_slot(u, AQ) == slot) SA.load(wst[u], at(offa) + at(w_row[u]));
      for (int u = 0; u < BQ; ++u)
        if (slot < 0 || gemm_fp4_window_slot(u, BQ) == slot) SB.load(wst[AQ + u], at(offb) + at(w_row[u]));
    };
    if (k < 0) return loads(-1);
    // (step t_cur & 7 of 0, 2, 4, 6: one branch of the chain on every path)
    auto x = J.sgpr<u32>();
    x = t_cur & 7u;
    J.If(x == 0u, [&] { loads(0); }, [&] {
      J.If(x == 2u, [&] { loads(1); }, [&] { J.If(x == 4u, [&] { loads(2); }, [&] { loads(3); }); });
    });
  };
  // the fewest window loads of an even step
  constexpr int SLOT_LOADS = [] {
    int fewest = 1 << 30;
    for (int k = 0; k < 4; ++k) {
      int n = 0;
      for (int u = 0; u < AQ; ++u) n += gemm_fp4_window_slot(u, AQ) == k;
      for (int u = 0; u < BQ; ++u) n += gemm_fp4_window_slot(u, BQ) == k;
      fewest = n < fewest ? n : fewest;
    }
    return fewest;
  }();
  auto store_window = [&] {
    for (int u = 0; u < AQ; ++u) J.ds_write_b64(aw_st, wst[u], {.offset = static_cast<int32_t>(RS * 64 * u)});
    for (int u = 0; u < BQ; ++u) J.ds_write_b64(aw_st, wst[AQ + u], {.offset = bw_aw + static_cast<int32_t>(RS * 64 * u)});
  };
  // step t's scale dwords (its window's step t % 8)
  auto read_scales = [&](const gpr<u32>& t) {
    auto x = J.sgpr<u32>();
    auto ra = J.vgpr<u32>(), rb = J.vgpr<u32>();
    x = (t & 7u) << 3;
    ra = as_rd ^ x;
    rb = bs_rd ^ x;
    for (int i = 0; i < TM; ++i) J.ds_read_b32(sav[i], ra, {.offset = static_cast<int32_t>(32 * 64 * i)});
    for (int j = 0; j < TN; ++j) J.ds_read_b32(sbv[j], rb, {.offset = static_cast<int32_t>(32 * 64 * j)});
  };
  auto read_slice_at = [&](int buf, int set, const gpr<u32>& ra, const gpr<u32>& rb) {
    for (int i = 0; i < TM; ++i)
      J.ds_read_b128(fa[set * TM + i], ra, {.offset = static_cast<int32_t>(buf * ABUF + 32 * 128 * i)});
    for (int j = 0; j < TN; ++j)
      J.ds_read_b128(fb[set * TN + j], rb, {.offset = static_cast<int32_t>(buf * BBUF + 32 * 128 * j)});
  };
  auto read_slice = [&](int buf, int s) {
    if (s == 0) {
      read_slice_at(buf, 0, ar, br);
    } else {
      auto pa = J.vgpr<u32>(), pb = J.vgpr<u32>();
      pa = ar ^ static_cast<uint32_t>(16 * s);
      pb = br ^ static_cast<uint32_t>(16 * s);
      read_slice_at(buf, s % 2, pa, pb);
    }
  };
  // MFMAs [from, to) of slice s in the order i, j; the second half of the last slice (from =
  // TM TN / 2: its rows i >= TM / 2) in the order j, i, so that B's scale dwords free one by one
  // for the next step's (its first MFMAs take A's rows 0.., whose dwords the first half freed)
  auto mfma_slice = [&](int s, int from, int to) {
    const int set = s % 2;
    modifiers m;
    m.cbsz = fp4;
    m.blgp = fp4;
    m.op_sel = static_cast<uint8_t>((s & 1) * 3);  // scale byte s of both scale VGPRs
    if (s > 1) m.op_sel_hi = 3;
    const bool j_first = s == 3 && from == TM * TN / 2 && TM % 2 == 0;
    for (int q = from; q < to; ++q) {
      const int r = q - from, i = j_first ? TM / 2 + r % (TM / 2) : q / TN, j = j_first ? r / (TM / 2) : q % TN;
      mfma_run(J, AT, acc[i * TN + j], fa[set * TM + i], fb[set * TN + j], acc[i * TN + j], sav[i], sbv[j], m);
    }
  };

  // Prologue: tiles 0 and 1 and window 0 loading; window 0 and tile 0 into LDS, tile 2 loading
  // into staging set 0; step 0's scales and slice 0 read.
  t_load = 0u;
  t_cur = 0u;
  issue_tile(0);
  load_window(t_cur, -1);
  issue_tile(1);
  zero_acc();
  J.s_waitcnt(vmcnt(AQ + BQ));  // (tile 0 and the window)
  store_window();
  store_tile(0, 0);
  J.s_waitcnt(lgkmcnt(0));  // (set 0 and the window chunks are loaded again)
  issue_tile(0);
  J.s_barrier();
  read_scales(t_cur);
  read_slice(0, 0);
  // Step t on buffer p = t % 2 (tile t + 1 in staging set 1 - p, tile t + 2 in set p; its
  // scales and slice 0 read): the MFMAs of slice s with the reads of slice s + 1; among slice
  // 0's the wait for tile t + 1 and its stores into buffer 1 - p (read last in step t - 1, before
  // its barrier); among slice 2's the loads of tile t + 3 into set 1 - p, then (t even) the
  // step's slot of the next window's loads. Half of slice 3's MFMAs, (t % 8 = 7: a barrier,
  // every wave past its reads of the window, and the next window into LDS), a barrier, and the
  // other half with the reads of step t + 1's scales and slice 0 (no step starts waiting for
  // LDS). The loop runs 2 steps a trip (the step within the window, t % 8, picks the window's
  // branches: one copy of a step's MFMAs a parity keeps the kernel's code and compile small).
  constexpr int TL = AQ + BQ;  // a tile's loads
  constexpr int HALF = TM * TN / 2;
  auto step = [&](int p) {
    // In flight after tile t + 1's loads: tile t + 2's, and the window slot of whichever of
    // steps t - 2 and t - 1 is even. An even step waits for that slot too (issued just after
    // the tile it waits for): the count is the one of the first step, after the prologue.
    const int younger = TL + (p == 1 ? SLOT_LOADS : 0);
    for (int s = 0; s < 4; ++s) {
      J.s_waitcnt(lgkmcnt(0));
      interleave(J, [&] { mfma_slice(s, 0, s == 3 ? HALF : TM * TN); },
                 [&] {
                   if (s == 0) J.s_waitcnt(vmcnt(younger));
                   if (s < 2) store_tile(1 - p, 1 - p, s);
                   if (s == 2) issue_tile(1 - p);
                   if (s < 3) read_slice(p, s + 1);
                 });
      if (s == 2 && p == 0) load_window(gpr<u32>((t_cur | 7u) + 1u), 0);
    }
    if (p == 1) {
      J.If((t_cur & 7u) == 7u, [&] {
        // (after step 6's window slot: step 7's tile loads)
        J.s_barrier();
        J.s_waitcnt(vmcnt(TL));
        store_window();
      });
    }
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    t_cur = t_cur + 1u;
    interleave(J, [&] { mfma_slice(3, HALF, TM * TN); },
               [&] {
                 read_scales(t_cur);
                 read_slice(1 - p, 0);
               });
  };
  auto store_c = [&] {
    // Epilogue: accumulator register r of lane l of block (i, j) is C[32i + 8(r/4) + 4(l/32) + r%4]
    // [32j + l%32] of the wave's block; rows r and r + 1 (r even) in one conversion.
    constexpr mfma_lane_field CR = AT.c_row(), CC = AT.c_col();
    static_assert(CR.shift == 5 && CR.stride == 4 && CC.mask == 31);
    auto n_bytes = J.sgpr<u32>();
    n_bytes = N << 1;
    auto srow = J.sgpr<u32>(2);
    if constexpr (TN % 2 == 0) {
      // Blocks j and j + 1 a pair: v_permlane32_swap trades block j's lanes 32..63 (rows + 4)
      // with block j + 1's lanes 0..31, so that each register holds 64 consecutive columns of one
      // row (lane l column 64 (j / 2) + l): a 16-bit store is one 128-byte line, not two.
      auto p_off = J.vgpr<u32>(TN / 2);
      {
        auto col = J.vgpr<u32>(), crow0 = J.sgpr<u32>();
        crow0 = tm0 + wr0;
        for (int jp = 0; jp < TN / 2; ++jp) {
          col = lane + (tn0 + wc0 + 64u * static_cast<uint32_t>(jp));
          p_off[jp] = select(col >= N, 0x80000000u, gpr<u32>(crow0 * n_bytes + (col << 1)));  // (past N: dropped)
        }
      }
      detail::gemm_store_bf16_block_pairs<TM, TN>(J, Cb, p_off, n_bytes, [&](const gpr<f32>& x, int i, int j, int r) {
        J.v_accvgpr_read_b32(x, acc[i * TN + j][r]);
      });
      return;
    }
    auto crow = J.vgpr<u32>();
    crow = (tm0 + wr0) + ((lane >> CR.shift) * CR.stride);
    auto c_off = J.vgpr<u32>(TN);
    for (int j = 0; j < TN; ++j) {
      auto col = J.vgpr<u32>();
      col = (lane & CC.mask) + (tn0 + wc0 + 32u * static_cast<uint32_t>(j));
      c_off[j] = crow * n_bytes + (col << 1);
      J.If(col >= N, [&] { c_off[j] = 0x80000000u; });  // (past N: dropped)
    }
    auto x = J.vgpr<f32>(2);
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 16; r += 2) {
        for (int q = 0; q < 2; ++q) srow[q] = n_bytes * static_cast<uint32_t>(32 * i + 8 * ((r + q) / 4) + (r + q) % 4);
        for (int j = 0; j < TN; ++j) {
          J.v_accvgpr_read_b32(x[0], acc[i * TN + j][r]);
          J.v_accvgpr_read_b32(x[1], acc[i * TN + j][r + 1]);
          auto h = cvt_bf16x2(x[0], x[1]);
          Cb.store(h, at(c_off[j]) + at(srow[0]), {.width = narrow::u16});
          Cb.store(h, at(c_off[j]) + at(srow[1]), {.width = narrow::u16_d16_hi});
        }
      }
  };
  // A tile's end (t_cur reaches k_steps at a trip's end): its C stores, then the next tile
  // (whose first steps' loads and window are in flight or in LDS already).
  auto cur_valid = J.sgpr<u32>();
  cur_valid = 1u;
  J.While([&] { return cur_valid != 0u; }, [&] {
    step(0);
    step(1);
    J.If(t_cur >= k_steps, [&] {
      store_c();
      if constexpr (C.groups > 0) zero_acc();
      t_cur = t_cur - k_steps;
      t_load = t_load - k_steps;
      cur_valid = n_valid;
      lin = lin + G;
      tm0 = ntm0;
      tn0 = ntn0;
      origins();
      next_tile();
      next_origins();
    });
  });
  J.s_waitcnt(vmcnt(0));
  J.s_waitcnt(lgkmcnt(0));
}
}  // namespace detail

template <gemm_fp4_config C>
constexpr void gemm_fp4_kernel(builder J, arg<void*> c_ptr, arg<const uint8_t*> a_ptr, arg<const uint8_t*> b_ptr,
                               arg<const uint8_t*> sa_ptr, arg<const uint8_t*> sb_ptr, arg<unsigned> M, arg<unsigned> N,
                               arg<unsigned> K) {
  static_assert(detail::gemm_fp4_config_error(C) == nullptr,
                std::string_view(detail::gemm_fp4_config_error(C) ? detail::gemm_fp4_config_error(C) : ""));
  // (the macro's line reports a bad configuration or target first; the rest is not built)
  if constexpr (!detail::gemm_fp4_target_ok() || detail::gemm_fp4_config_error(C) != nullptr) return;
  else if constexpr (C.ab_lds) detail::gemm_fp4_ab_lds<C>(J, c_ptr, a_ptr, b_ptr, sa_ptr, sb_ptr, M, N, K);
  else {
  constexpr const mfma_atom& AT = mfma_atom_of(detail::gemm_fp4_mfma);
  constexpr int fp4 = 4;  // the cbsz / blgp code of e2m1
  // An fp4 lane: 32 consecutive k (16 bytes, element e at bits 4e), its k group l / 32, its row
  // l % 32; the step's layout above rests on these.
  static_assert(AT.ab_layout(0, fp4).elem[0].size == 32 && AT.ab_layout(0, fp4).elem[0].stride == 1);
  static_assert(AT.a_k(fp4).shift == 5 && AT.a_k(fp4).stride == 32 && AT.a_row().mask == 31);
  static_assert(AT.b_k(fp4).shift == 5 && AT.b_col().mask == 31 && AT.a_regs(fp4) == 4);
  constexpr uint32_t WTM = C.bm / C.wm, WTN = C.bn / C.wn, W = C.wm * C.wn;
  constexpr int TM = static_cast<int>(WTM / 32), TN = static_cast<int>(WTN / 32);
  constexpr bool AL = C.a_lds;
  // a step's loads a lane: 4 dwordx4 and a scale dword a block row (a_lds: A's 4 dwordx4 apart, AQ
  // chunks of the workgroup's A tile)
  constexpr bool SW = AL && C.scale_windows;
  constexpr int LOADS = AL ? 5 * TN + (SW ? 0 : TM) : 5 * (TM + TN);
  constexpr int AQ = AL ? static_cast<int>(C.bm * 8 / (64 * W)) : 0;

  auto a_bytes = J.sgpr<u32>(), b_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>(), sa_bytes = J.sgpr<u32>(),
       sb_bytes = J.sgpr<u32>();
  a_bytes = M * (K >> 1);
  auto n_pad = J.sgpr<u32>();  // preshuffled B: its rows padded to 32
  n_pad = (N + 31u) & ~31u;
  if constexpr (C.b_shuffled) b_bytes = n_pad * (K >> 1);
  else b_bytes = N * (K >> 1);
  sa_bytes = M * (K >> 5);
  if constexpr (C.b_shuffled) sb_bytes = n_pad * (K >> 5);
  else sb_bytes = N * (K >> 5);
  c_bytes = (M * N) << 1;
  auto A = make_buffer(J, a_ptr, a_bytes);
  auto B = make_buffer(J, b_ptr, b_bytes);
  auto SA = make_buffer(J, sa_ptr, sa_bytes);
  auto SB = make_buffer(J, sb_ptr, sb_bytes);
  auto Cb = make_buffer(J, c_ptr, c_bytes);

  auto tid = J.thread_id_x();
  auto lane = J.vgpr<u32>(), wave = J.vgpr<u32>();
  lane = tid & 63u;
  wave = tid >> 6;
  auto wave_s = J.sgpr<u32>(), kw = J.sgpr<u32>(), wmn = J.sgpr<u32>();
  J.v_readfirstlane_b32(wave_s, wave);
  kw = wave_s / W;   // K group
  wmn = wave_s % W;  // the wave's block within the tile
  auto m0 = J.sgpr<u32>(), n0 = J.sgpr<u32>();
  m0 = J.workgroup_id_y() * C.bm + (wmn % C.wm) * WTM;
  n0 = J.workgroup_id_x() * C.bn + (wmn / C.wm) * WTN;
  // The lane's fragment rows: A row m0 + 32i + l % 32, B row n0 + 32j + l % 32; byte 64 (l / 32)
  // of each step's line, scale dword 4 (l / 32) of each step's 8 bytes.
  auto kgrp = J.vgpr<u32>();
  kgrp = lane >> 5;
  auto a_off = J.vgpr<u32>(TM), b_off = J.vgpr<u32>(TN), sa_off = J.vgpr<u32>(TM), sb_off = J.vgpr<u32>(TN);
  auto half_k = J.sgpr<u32>(), k32 = J.sgpr<u32>();
  half_k = K >> 1;
  k32 = K >> 5;
  for (int i = 0; i < TM; ++i) {
    auto r = J.vgpr<u32>();
    r = (lane & 31u) + (m0 + 32u * static_cast<uint32_t>(i));
    a_off[i] = r * half_k + (kgrp << 6);
    sa_off[i] = r * k32 + (kgrp << 2);
  }
  for (int j = 0; j < TN; ++j) {
    auto r = J.vgpr<u32>();
    r = (lane & 31u) + (n0 + 32u * static_cast<uint32_t>(j));
    if constexpr (C.b_shuffled) {
      // the row block's runs (K / 256 steps of 4 KiB, of scales 256 bytes), this lane's 16 bytes
      // (scale dword) of each
      auto nb = J.sgpr<u32>();
      nb = (n0 >> 5) + static_cast<uint32_t>(j);
      b_off[j] = (lane << 4) + nb * (K << 4);
      sb_off[j] = (lane << 2) + nb * K;
    } else {
      b_off[j] = r * half_k + (kgrp << 6);
      sb_off[j] = r * k32 + (kgrp << 2);
    }
  }

  // steps of the whole K, the ones of this K group, the next step to load
  auto k_steps = J.sgpr<u32>(), my_steps = J.sgpr<u32>(), t_load = J.sgpr<u32>();
  k_steps = K >> 8;
  // (a_lds: every K group the same count, the barriers each step, and a contiguous range of
  // steps [t_load, t_lim), the scale windows below; else the steps kw, kw + wk, ... below k_steps)
  auto t_lim = J.sgpr<u32>();
  if constexpr (AL) {
    my_steps = (k_steps + (C.wk - 1)) / C.wk;
    t_load = kw * my_steps;
    t_lim = min(gpr<u32>(t_load + my_steps), k_steps);
  } else {
    my_steps = (k_steps + (C.wk - 1) - kw) / C.wk;
    t_load = kw;
    t_lim = k_steps;
  }
  constexpr int ST = static_cast<int>(C.stages);
  auto fa = J.vgpr<u32>(ST * TM, 16), fb = J.vgpr<u32>(ST * TN, 16);
  auto sav = J.vgpr<u32>(ST * TM), sbv = J.vgpr<u32>(ST * TN);
  auto acc = J.vgpr<f32>(TM * TN, 16);
  auto kofs = J.sgpr<u32>(), sofs = J.sgpr<u32>(), kofs_b = J.sgpr<u32>(), sofs_b = J.sgpr<u32>();
  constexpr int BS = C.b_shuffled ? 1024 : 16;  // bytes between B's dwordx4 s and s + 1
  // a_lds: the K group's lanes load its A tile (bm rows x the step's 128 bytes) by rows, lane q
  // of the group chunk q % 8 of row q / 8 (+ 8 W u, u < AQ), into staging set `set`; stored to
  // LDS buffer (kw, set) with the 16-byte chunks XOR-swizzled by row % 8 (the 8 rows of a
  // fragment read's lanes hit distinct banks). Fragment reads: lane (r, g) block i row
  // 32 i + r of the wave's rows, chunk 4 g + s.
  lds_pool apool(J);
  constexpr uint32_t ABUF = C.bm * 128;  // an A tile buffer
  const lds_view AV = apool.view(lds_layout{.rows = AL ? 2 * C.wk : 1, .cols = AL ? ABUF : 4, .elem_bytes = 1});
  // a_lds: A's scales by windows of 8 steps: at every 8th step of its range the K group loads the
  // next 8 steps' scale bytes of its bm rows (64 bytes a row, dwordx2 chunks by rows like the A
  // tile: a row's 64 bytes in one or two lines, where a scale dword a step took one line a row and
  // step) into one of two LDS windows (rows 72 bytes apart: the 32 rows of a scale read hit
  // distinct banks); each step reads its scale dwords from there.
  constexpr uint32_t WROW = 72, WBUF = C.bm * WROW;
  constexpr int WQ = SW ? static_cast<int>(C.bm * 8 / (64 * W)) : 0;  // window chunks a lane
  static_assert(WQ <= LOADS);  // (a step's first wait counts a window's loads among the newest)
  const lds_view WV = apool.view(lds_layout{.rows = SW ? 2 * C.wk : 1, .cols = SW ? WBUF : 4, .elem_bytes = 1});
  auto stage = J.vgpr<u32>(AL ? 2 * AQ : 1, 4);
  auto ag_off = J.vgpr<u32>(AL ? AQ : 1), aw_addr = J.vgpr<u32>(), ar_addr = J.vgpr<u32>(AL ? 4 : 1);
  auto abase = J.sgpr<u32>();
  if constexpr (AL) {
    auto q = J.vgpr<u32>(), sw = J.vgpr<u32>();
    q = lane + (wmn << 6);
    for (int u = 0; u < AQ; ++u)
      ag_off[u] = ((q >> 3) + (J.workgroup_id_y() * C.bm + 8 * W * static_cast<uint32_t>(u))) * half_k + ((q & 7u) << 4);
    sw = (q & 7u) ^ ((q >> 3) & 7u);
    abase = kw * (2 * ABUF);
    aw_addr = ((q >> 3) << 7) + (sw << 4) + abase;
    auto row0 = J.vgpr<u32>();
    row0 = (lane & 31u) + (wmn % C.wm) * WTM;
    for (uint32_t s = 0; s < 4; ++s)
      ar_addr[s] = (row0 << 7) + ((((lane >> 5) << 2) + s) ^ (lane & 7u)) * 16u + abase;
  }
  auto wst = J.vgpr<u32>(SW ? WQ : 1, 2);
  auto ws_off = J.vgpr<u32>(SW ? WQ : 1), wchunk = J.vgpr<u32>(), ww_addr = J.vgpr<u32>(), wr_addr = J.vgpr<u32>();
  auto wbuf = J.sgpr<u32>();
  if constexpr (SW) {
    auto q = J.vgpr<u32>();
    q = lane + (wmn << 6);
    wchunk = q & 7u;
    for (int u = 0; u < WQ; ++u)
      ws_off[u] = ((q >> 3) + (J.workgroup_id_y() * C.bm + 8 * W * static_cast<uint32_t>(u))) * k32 + (wchunk << 3);
    ww_addr = (q >> 3) * WROW + (wchunk << 3) + kw * (2 * WBUF);
    wr_addr = ((lane & 31u) + (wmn % C.wm) * WTM) * WROW + ((lane >> 5) << 2) + kw * (2 * WBUF);
  }
  const int32_t wregion = static_cast<int32_t>(WV.base);
  // the loads of the window of steps [start, start + 8) (those from t_lim on: zeros) into wst
  auto load_window = [&](const gpr<u32>& start) {
    auto tv = J.vgpr<u32>(), off = J.vgpr<u32>();
    tv = wchunk + start;
    for (int u = 0; u < WQ; ++u) {
      off = select(tv >= t_lim, 0x80000000u, gpr<u32>(ws_off[u] + (start << 3)));
      SA.load(wst[u], at(off));
    }
  };
  // wst (complete) into LDS window `wbuf`
  auto store_window = [&] {
    auto wa = J.vgpr<u32>();
    wa = ww_addr + wbuf;
    for (int u = 0; u < WQ; ++u)
      J.ds_write_b64(wa, wst[u], {.offset = wregion + static_cast<int32_t>(8 * W * WROW * u)});
  };
  // step `i` of the window's 8: the A scale dwords of set `set`
  auto read_scales = [&](int set, const gpr<u32>& i) {
    auto ra = J.vgpr<u32>();
    ra = wr_addr + gpr<u32>(wbuf + ((i & 7u) << 3));
    for (int ii = 0; ii < TM; ++ii)
      J.ds_read_b32(sav[set * TM + ii], ra, {.offset = wregion + static_cast<int32_t>(32 * WROW * ii)});
  };
  auto issue_a = [&](int set) {
    for (int u = 0; u < AQ; ++u) A.load(stage[set * AQ + u], at(ag_off[u]) + at(kofs));
  };
  const int32_t aregion = static_cast<int32_t>(AV.base);
  auto store_a = [&](int set) {
    for (int u = 0; u < AQ; ++u)
      J.ds_write_b128(aw_addr, stage[set * AQ + u], {.offset = aregion + static_cast<int32_t>(set * ABUF + 8 * W * 128 * u)});
  };
  auto read_a = [&](int set) {
    for (int i = 0; i < TM; ++i)
      for (int s = 0; s < 4; ++s)
        J.ds_read_b128(fa[set * TM + i].slice(4 * s, 4), ar_addr[s],
                       {.offset = aregion + static_cast<int32_t>(set * ABUF + 32 * 128 * i)});
  };
  // The loads of step t_load into register set `set` (past K: an offset past every V#, zeros).
  auto issue = [&](int set) {
    kofs = select(t_load >= t_lim, 0x80000000u, gpr<u32>(t_load << 7));
    sofs = select(t_load >= t_lim, 0x80000000u, gpr<u32>(t_load << 3));
    if constexpr (C.b_shuffled) {
      kofs_b = select(t_load >= t_lim, 0x80000000u, gpr<u32>(t_load << 12));
      sofs_b = select(t_load >= t_lim, 0x80000000u, gpr<u32>(t_load << 8));
    }
    const auto& kb = C.b_shuffled ? kofs_b : kofs;
    const auto& sb = C.b_shuffled ? sofs_b : sofs;
    if constexpr (AL) issue_a(set);  // (first: a step's A tile completes before its other loads)
    for (int j = 0; j < TN; ++j) {
      for (int s = 0; s < 4; ++s) B.load(fb[set * TN + j].slice(4 * s, 4), at(b_off[j]) + at(kb) + BS * s);
      SB.load(sbv[set * TN + j], at(sb_off[j]) + at(sb));
    }
    for (int i = 0; i < TM; ++i) {
      if constexpr (!AL)
        for (int s = 0; s < 4; ++s) A.load(fa[set * TM + i].slice(4 * s, 4), at(a_off[i]) + at(kofs) + 16 * s);
      if constexpr (!SW) SA.load(sav[set * TM + i], at(sa_off[i]) + at(sofs));
    }
    t_load = t_load + (AL ? 1u : C.wk);
  };
  auto mfmas = [&](int set) {
    for (int s = 0; s < 4; ++s) {
      modifiers m;
      m.cbsz = fp4;
      m.blgp = fp4;
      // scale byte s of both scale VGPRs: op_sel the low bit, op_sel_hi the high one (A's
      // scale bit 0 of each, B's bit 1)
      m.op_sel = static_cast<uint8_t>((s & 1) * 3);
      if (s > 1) m.op_sel_hi = 3;
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          mfma_run(J, AT, acc[i * TN + j], fa[set * TM + i].slice(4 * s, 4), fb[set * TN + j].slice(4 * s, 4),
                   acc[i * TN + j], sav[set * TM + i], sbv[set * TN + j], m);
    }
  };
  {
    auto it = J.sgpr<u32>(), ic = J.sgpr<u32>(), t_cur = J.sgpr<u32>();
    if constexpr (AL) {
      t_cur = t_load;  // (the step computing; t_load runs one ahead)
      if constexpr (SW) load_window(t_load);  // the first window (before the first tile: complete with it)
    }
    for (int p = 0; p + 1 < ST; ++p) issue(p);
    acc.fill(0.0f);
    it = 0u;
    J.While([&] { return it < my_steps; },
            [&] {
              for (int p = 0; p < ST; ++p) {
                if constexpr (AL) {
                  // step t: its A tile (issued before its B and scale loads) to LDS buffer p, then
                  // step t + 1's loads, a barrier, the A fragments read, step t's B and scales
                  J.s_waitcnt(vmcnt(LOADS));
                  store_a(p);
                  ic = it + static_cast<uint32_t>(p);
                  // a window's first step: the window (loaded 8 steps ago, or in the prologue) to
                  // LDS window (ic / 8) % 2 (read for the last time 16 steps ago, before a barrier
                  // since), the next window's loads after this step's others
                  wbuf = ((ic >> 3) & 1u) * WBUF;
                  if constexpr (SW) J.If((ic & 7u) == 0u, [&] {
                    // (the window's loads returned steps ago; the wait says so to the verifier,
                    // which cannot tell two window steps 8 apart, and drains step t's B early)
                    J.s_waitcnt(vmcnt(0));
                    store_window();
                    J.s_waitcnt(lgkmcnt(0));  // (wst is loaded again below)
                  });
                  issue(1 - p);
                  auto next = J.sgpr<u32>();
                  next = t_cur + 8u;
                  // the barrier, the A fragment and scale reads, the wait for step t's B and
                  // scales (the next step's loads, and a window's, stay in flight); one branch
                  // a case (the verifier follows the waits path by path)
                  auto rest = [&](int window_loads) {
                    J.s_waitcnt(lgkmcnt(0));
                    J.s_barrier();
                    read_a(p);
                    if constexpr (SW) read_scales(p, ic);
                    J.s_waitcnt(vmcnt(LOADS + AQ + window_loads));
                    J.s_waitcnt(lgkmcnt(0));
                  };
                  if constexpr (SW)
                    J.If((ic & 7u) == 0u, [&] {
                      load_window(next);
                      rest(WQ);
                    }, [&] { rest(0); });
                  else
                    rest(0);
                  t_cur = t_cur + 1u;
                } else {
                  issue((p + ST - 1) % ST);
                  J.s_waitcnt(vmcnt((ST - 1) * LOADS));  // step p's loads (the next ones' stay in flight)
                }
                mfmas(p);
              }
              it = it + static_cast<uint32_t>(ST);
            });
    J.s_waitcnt(vmcnt(0));
  }

  // Epilogue: accumulator register r of lane l of block (i, j) is C[32i + 8(r/4) + 4(l/32) + r%4]
  // [32j + l%32] of the wave's block (the atom's C layout).
  constexpr mfma_lane_field CR = AT.c_row(), CC = AT.c_col();
  static_assert(CR.shift == 5 && CR.stride == 4 && CC.mask == 31);
  auto store = [&] {
    auto crow = J.vgpr<u32>();
    crow = m0 + ((lane >> CR.shift) * CR.stride);
    auto c_off = J.vgpr<u32>(TN);
    auto n_bytes = J.sgpr<u32>();
    n_bytes = N << 1;
    for (int j = 0; j < TN; ++j) {
      auto col = J.vgpr<u32>();
      col = (lane & CC.mask) + (n0 + 32u * static_cast<uint32_t>(j));
      c_off[j] = crow * n_bytes + (col << 1);
      J.If(col >= N, [&] { c_off[j] = 0x80000000u; });  // (past N: dropped)
    }
    // Rows r and r + 1 (r even): one conversion, the low half stored to row r, the high to r + 1.
    auto srow = J.sgpr<u32>(2);
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 16; r += 2) {
        for (int q = 0; q < 2; ++q) srow[q] = n_bytes * static_cast<uint32_t>(32 * i + 8 * ((r + q) / 4) + (r + q) % 4);
        for (int j = 0; j < TN; ++j) {
          auto h = cvt_bf16x2(acc[i * TN + j][r], acc[i * TN + j][r + 1]);
          Cb.store(h, at(c_off[j]) + at(srow[0]), {.width = narrow::u16});
          Cb.store(h, at(c_off[j]) + at(srow[1]), {.width = narrow::u16_d16_hi});
        }
      }
  };
  if constexpr (C.wk == 1) {
    store();
  } else {
    // K groups 1 .. wk - 1 leave their sums in LDS (group kw, wave block w: 64 lanes x the
    // accumulators, dwordx4 chunk c of lane l at 1024 c + 16 l: 16 consecutive lanes a bank
    // sweep), group 0 adds them in group order and stores.
    constexpr uint32_t E = static_cast<uint32_t>(TM * TN * 16), SLOT = 64 * E * 4;
    // (a_lds: over the A tiles and windows, once every wave is past its last reads of them)
    constexpr bool ALIAS = AL && (C.wk - 1) * W * SLOT <= 2 * C.wk * ABUF;
    lds_pool pool(J);
    const lds_view R = pool.view(lds_layout{.rows = ALIAS ? 1 : (C.wk - 1) * W, .cols = ALIAS ? 4 : SLOT, .elem_bytes = 1});
    const int32_t region = static_cast<int32_t>(ALIAS ? AV.base : R.base);
    if constexpr (ALIAS) J.s_barrier();
    auto la = J.vgpr<u32>();
    auto slot = J.sgpr<u32>();
    J.If(kw != 0u, [&] {
      slot = ((kw - 1u) * W + wmn) * SLOT;
      la = (lane << 4) + slot;
      for (uint32_t c = 0; c < E / 4; ++c)
        J.ds_write_b128(la, acc[c / 4].slice(4 * (c % 4), 4), {.offset = region + static_cast<int32_t>(1024 * c)});
    });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    J.If(kw == 0u, [&] {
      auto t = J.vgpr<f32>(E);
      for (uint32_t g = 1; g < C.wk; ++g) {
        la = (lane << 4) + ((g - 1) * W * SLOT);
        slot = wmn * SLOT;
        la = la + slot;
        for (uint32_t c = 0; c < E / 4; ++c)
          J.ds_read_b128(t.slice(4 * c, 4), la, {.offset = region + static_cast<int32_t>(1024 * c)});
        J.s_waitcnt(lgkmcnt(0));
        for (uint32_t e = 0; e < E; ++e) acc[e / 16][e % 16] = acc[e / 16][e % 16] + t[e];
      }
      store();
    });
  }
  }
}

}  // namespace hipasm::kernels

// Defines the HIP kernel `name` (C, A, B, sa, sb, M, N, K) of configuration `cfg`
// (parenthesized). Built for a target without the scaled MFMAs (gfx950's), or with a
// configuration gemm_fp4_config_error rejects, a compile error on this line. The arguments are preloaded into SGPRs when the code object is built with
// KERNARG_PRELOAD (hipasm_add_code_object).
#define HIPASM_GEMM_FP4_KERNEL(name, cfg)                                                                         \
  static_assert(!::hipasm::device_pass || ::hipasm::kernels::detail::gemm_fp4_target_ok(),  \
                "hipasm gemm_fp4: the target has no scaled MFMAs (v_mfma_scale_f32_32x32x64_f8f6f4, gfx950 only)"); \
  static_assert(::hipasm::kernels::detail::gemm_fp4_config_error(cfg) == nullptr,                               \
                std::string_view(::hipasm::kernels::detail::gemm_fp4_config_error(cfg)                          \
                                     ? ::hipasm::kernels::detail::gemm_fp4_config_error(cfg)                    \
                                     : ""));                                                                    \
  constexpr auto name##_hipasm_fn =                                                                           \
      ::hipasm::with_options<&::hipasm::kernels::gemm_fp4_kernel<cfg>,                                        \
                             ::hipasm::kernel_options{.kernarg_preload = ::hipasm::arg_preload::fitting}>;     \
  extern "C" __attribute__((global)) void name(void* c, const uint8_t* a, const uint8_t* b, const uint8_t* sa,    \
                                               const uint8_t* sb, unsigned m, unsigned n, unsigned k) {        \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, c, a, b, sa, sb, m, n, k);                                          \
  }
