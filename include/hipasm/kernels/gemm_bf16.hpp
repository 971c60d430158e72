// The library's bf16 GEMM: C = A * B^T, A M x K and B N x K row-major bf16 (the layout of
// aiter's bf16 asm GEMM and of LLM weights), f32 accumulation, C M x N row-major in f32 or bf16.
//
//   // a .hip file compiled by hipasm_add_code_object:
//   HIPASM_GEMM_BF16_KERNEL(my_gemm, (hipasm::kernels::gemm_bf16_config{}))
//   // host (hipasm-sim or a real MI300, the same call):
//   hipasm::kernels::launch_gemm_bf16(dev, module, "my_gemm", cfg, C, A, B, M, N, K);
//
// Any M, N, K >= 1. Tail tiles need no branch: A's V# ends at M*K elements, B's at N*K, C's at
// M*N, so overhanging rows load zeros and their stores are dropped (buffer.hpp); columns past K
// (loads) and past N (stores) take an offset past every V#.
//
// Configurations (bench/kernels measures them on the timing model): large shapes
// {.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1} (8 waves,
// 128 accumulator VGPRs each, 64 KiB LDS: one workgroup a CU, 2 waves per SIMD; a 128-byte line
// per row and load halves the CU address-path cycles of bk = 32); mid-size {} (128x128x32, two
// LDS buffers, two tiles ahead, 2 workgroups per CU); small M or N {.bm = 64, .bn = 64, .bk =
// 64, .split_k = 2 or 4}. A grid of 256x256 tiles whose last round over the CUs is part-filled
// (MI300X's 304 CUs: 8192^2 is 1024 tiles, 3.4 rounds) runs through launch_gemm_bf16_balanced:
// the whole rounds' rows in 256x256 tiles, the rows left in {.bm = 128, .bn = 256, .bk = 64,
// .wm = 2, .wn = 4, .lds_buffers = 1} tiles (two tiles ahead), a second dispatch whose round
// takes half the time. Workgroups are ordered per XCD in bands of 1024 rows of C
// (gemm_common.hpp gemm_tile_order); each walks K from its first tile.
//
// Schedule (one workgroup = WM x WN waves computing a BM x BN tile; the HipKittens / aiter shape:
// big tiles, loads through VGPRs ahead of the LDS stores). v_mfma_f32_32x32x8 bf16: each wave a
// (BM/WM) x (BN/WN) block of 32x32 accumulators; a K step is BK/16 slices of 16 elements, each
// slice 2 x (blocks) MFMAs (one a block where the target has v_mfma_f32_32x32x16_bf16: gfx950).
// While the MFMAs of a slice run, the interleaver (helpers/interleave.hpp) places among them
// the LDS reads of the next slice (ds_read_b128; an XOR swizzle makes the rows an MFMA reads
// conflict-free) and the copies' stores and loads (copy_tile_load / copy_tile_store,
// helpers/tile_copy.hpp). The MFMA's k order within a slice is permuted the same way for A and
// B (lane half h reads elements 8h..8h+7: MFMA 2p takes 8h..8h+3, 2p+1 8h+4..8h+7), which leaves
// the sum unchanged and lets one ds_read_b128 feed two MFMAs (or the double-K one).
//  - Two LDS buffers: step k computes on buffer k % 2 (tile k); among its first slice's MFMAs
//    go the stores of tile k + 1 (in VGPRs, loaded during step k - 1) into the other buffer and
//    the loads of tile k + 1 + ahead into the same VGPRs. One s_waitcnt and one s_barrier end a
//    step.
//  - One LDS buffer (the 256x256x64 tile: 64 KiB): slices 0 .. BK/16 - 2 run with the next
//    slice's reads, and among the second-to-last one's MFMAs the wait for tile k + 1's loads and
//    their column-tail masks (copy_tile_prepare). Barrier 1 (every wave has read the last
//    slice) frees the buffer; the stores of tile k + 1 issue at once and 3/4 of the last slice's
//    MFMAs cover them and the loads of tile k + 1 + ahead; barrier 2 makes tile k + 1 visible,
//    and the last quarter covers the reads of its slice 0. With 2 waves a SIMD the older wave
//    runs ahead to each barrier and the younger one's MFMAs fill the pipe while it waits.
//
// K tails: a chunk past K loads zeros (its offset moved past the V#), the chunk that straddles K
// is masked word by word (copy_tile_load's column tail), so any even K runs at full speed. An
// odd K (rows not dword-aligned) needs the configuration's `odd_k = true` variant: the same
// pipeline with each element loaded on its own (buffer_load_ushort, pairs joined at the LDS
// store; launch picks the variant the run-time K needs when both are compiled: see
// launch_gemm_bf16).
#pragma once
#include <cstdint>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "gemm_common.hpp"

namespace hipasm::kernels {

struct gemm_bf16_config {
  uint32_t bm = 128, bn = 128, bk = 32;  // workgroup tile
  uint32_t wm = 2, wn = 2;               // waves along M and N
  bool out_bf16 = false;                 // C in bf16 (round to nearest even) or f32
  bool odd_k = false;                    // K may be odd (element-wise global loads)
  uint32_t ahead = 2;                    // tiles whose loads are in flight (VGPR staging sets)
  uint32_t split_k = 1;                  // > 1: K split over split_k workgroups (grid z) whose f32
                                         // partial sums are atomic adds into C (zeroed first); with
                                         // out_bf16 into an f32 workspace that a second kernel
                                         // (gemm_bf16_to_bf16_kernel) rounds into C
  uint32_t lds_buffers = 2;              // 2: stores into one while the other computes; 1: a
                                         // bk = 64 tile of 256x256 (full 128-byte lines a row);
                                         // with ahead = 2 the loop body is two steps (staging sets)
  bool a_km = false;                     // A stored K x M row-major (M-contiguous; M even)
  bool b_kn = false;                     // B stored K x N row-major (N-contiguous; N even): C = A * B
  bool agpr_acc = false;                 // accumulators in AGPRs (up to 256: with one wave a SIMD
                                         // a wave has 512 registers, e.g. 4 waves of 128x128)
  bool k_tail = true;                    // false: K a multiple of bk (launch_gemm_bf16 checks), no
                                         // column-tail masks (VALU work every tile)
  bool bf16_atomics = false;             // split_k with out_bf16: each part's sums rounded to bf16
                                         // and added into C (zeroed first) by packed bf16 atomics
                                         // (gfx950; N even), as aiter's split-K kernels do: one
                                         // kernel, S roundings; else an f32 workspace and a pass

  constexpr uint32_t threads() const { return 64 * wm * wn; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + bn - 1) / bn; }
  constexpr uint32_t grid_y(uint32_t m) const { return (m + bm - 1) / bm; }
  constexpr uint32_t grid_z() const { return split_k; }
  constexpr uint32_t vec_bytes() const { return odd_k ? 4 : 16; }
  // LDS: two buffers of the A and B tiles.
  constexpr uint32_t lds_bytes() const { return lds_buffers * (bm + bn) * bk * 2; }
};

namespace detail {

constexpr const char* gemm_bf16_config_error(const gemm_bf16_config& c) {
  if (c.wm == 0 || c.wn == 0 || c.wm * c.wn > 16) return "gemm_bf16: 1 to 16 waves (wm * wn)";
  if (c.bm % (32 * c.wm) != 0 || c.bn % (32 * c.wn) != 0)
    return "gemm_bf16: bm must be a multiple of 32 * wm and bn of 32 * wn (32x32 MFMA blocks)";
  if (c.bk % 16 != 0 || c.bk > 128) return "gemm_bf16: bk must be a multiple of 16 up to 128";
  if ((c.bm / c.wm / 32) * (c.bn / c.wn / 32) * 16 > (c.agpr_acc ? 256u : 192u))
    return c.agpr_acc ? "gemm_bf16: more than 256 accumulator AGPRs per wave"
                      : "gemm_bf16: more than 192 accumulator VGPRs per wave (agpr_acc takes up to 256 in AGPRs)";
  if (c.lds_buffers < 1 || c.lds_buffers > 2) return "gemm_bf16: 1 or 2 LDS buffers";
  if (c.split_k < 1 || c.split_k > 64) return "gemm_bf16: split_k from 1 to 64";
  if (c.lds_buffers == 1 && c.bk < 32) return "gemm_bf16: one LDS buffer needs bk >= 32 (two slices: the last one's MFMAs cover the stores)";
  if (c.lds_bytes() > active_target::desc.lds_bytes) return "gemm_bf16: the LDS buffers of the A and B tiles exceed the target's LDS (64 KiB gfx942, 160 KiB gfx950)";
  const uint32_t chunk_rows = c.threads() / (c.bk * 2 / c.vec_bytes());
  if (c.threads() % (c.bk * 2 / c.vec_bytes()) != 0 || c.bm % chunk_rows != 0 || c.bn % chunk_rows != 0)
    return "gemm_bf16: the tile copies must be whole steps (bm and bn multiples of the rows one step of all lanes covers)";
  if (c.ahead < 1 || c.ahead > 2) return "gemm_bf16: ahead must be 1 or 2 (tiles loading while one computes)";
  if (!c.k_tail && (c.odd_k || c.a_km || c.b_kn)) return "gemm_bf16: k_tail = false is for K-contiguous A and B (no odd_k, a_km, b_kn)";
  if (c.bf16_atomics && (c.split_k < 2 || !c.out_bf16)) return "gemm_bf16: bf16_atomics is for split_k > 1 with out_bf16";
  if (c.bf16_atomics && isa::find_instr("buffer_atomic_pk_add_bf16") < 0)
    return "gemm_bf16: bf16_atomics needs buffer_atomic_pk_add_bf16 (gfx950)";
  if (c.a_km && (c.bk / 8 * (c.bm / 2) % c.threads() != 0 || c.bk / 8 * (c.bm / 2) / c.threads() > 8))
    return "gemm_bf16: a_km: the A tile (bk x bm) must be 1 to 8 whole steps of 8x2 elements a lane";
  if (c.b_kn && (c.bk / 8 * (c.bn / 2) % c.threads() != 0 || c.bk / 8 * (c.bn / 2) / c.threads() > 8))
    return "gemm_bf16: b_kn: the B tile (bk x bn) must be 1 to 8 whole steps of 8x2 elements a lane";
  if ((c.a_km && c.threads() % (c.bm / 2) != 0) || (c.b_kn && c.threads() % (c.bn / 2) != 0))
    return "gemm_bf16: a_km / b_kn: bm / 2 (bn / 2) must divide the thread count (whole k-row groups a step)";
  if ((c.bm + c.bn) * c.bk * 2 / c.vec_bytes() / c.threads() * (c.odd_k ? 2 : 1) * c.ahead > 48)
    return "gemm_bf16: more than 48 staging loads per lane: use more waves, a smaller bk or ahead = 1";
  return nullptr;
}

// Elements gemm_bf16_to_bf16_kernel converts per workgroup (256 lanes x 2).
inline constexpr uint32_t gemm_to_bf16_threads = 256, gemm_to_bf16_per_group = 2 * gemm_to_bf16_threads;

// The LDS layout of one A or B tile: rows x bk bf16, 16-byte chunks XOR-swizzled so that the
// 8 lanes of a ds_read_b128 phase (8 consecutive rows, one chunk) hit distinct banks.
constexpr lds_layout gemm_tile_layout(uint32_t rows, uint32_t bk) {
  const uint32_t chunks = bk * 2 / 16;  // chunks per row
  const uint32_t groups = chunks >= 8 ? 8 : chunks;
  const uint32_t row_div = groups >= 8 ? 1 : 8 / groups;
  return {.rows = rows, .cols = bk, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = groups, .swz_row_div = row_div};
}

}  // namespace detail

template <gemm_bf16_config C>
constexpr void gemm_bf16_kernel(builder J, arg<void*> c_ptr, arg<const uint16_t*> a_ptr, arg<const uint16_t*> b_ptr,
                                arg<unsigned> M, arg<unsigned> N, arg<unsigned> K) {
  // (the message is the problem: a C++26 computed static_assert message, as diagnostics.hpp uses)
  static_assert(detail::gemm_bf16_config_error(C) == nullptr,
                std::string_view(detail::gemm_bf16_config_error(C) ? detail::gemm_bf16_config_error(C) : ""));
  constexpr uint32_t BM = C.bm, BN = C.bn, BK = C.bk, T = C.threads();
  constexpr uint32_t WTM = BM / C.wm, WTN = BN / C.wn;  // a wave's block
  constexpr int TM = static_cast<int>(WTM / 32), TN = static_cast<int>(WTN / 32);
  constexpr int KS = static_cast<int>(BK / 16);  // 16-element slices per tile
  constexpr uint32_t OUT_EB = C.out_bf16 && (C.split_k == 1 || C.bf16_atomics) ? 2 : 4;  // (split-K: f32 sums)

  // Buffers sized to the tensors: the range check is the tail handling.
  auto a_bytes = J.sgpr<u32>(), b_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>();
  a_bytes = (M * K) << 1;
  b_bytes = (N * K) << 1;
  c_bytes = (M * N) * OUT_EB;
  auto A = make_buffer(J, a_ptr, a_bytes);
  auto B = make_buffer(J, b_ptr, b_bytes);
  auto Cb = make_buffer(J, c_ptr, c_bytes);
  auto row_bytes = J.sgpr<u32>();
  row_bytes = K << 1;

  auto tid = J.thread_id_x();
  // The C tile of this workgroup (tx, ty): detail::gemm_tile_order (each XCD's workgroups a
  // compact block of tiles).
  auto tx = J.sgpr<u32>(), ty = J.sgpr<u32>(), gx = J.sgpr<u32>(), gy = J.sgpr<u32>();
  gx = (N + (BN - 1)) / BN;
  gy = (M + (BM - 1)) / BM;
  // (bands of 1024 rows of C, as many tile rows as that is: each XCD's block of tiles then
  // reads the same 1024 rows of A whatever the tile)
  detail::gemm_tile_order(J, gx, gy, tx, ty, 8, BM >= 1024 ? 1 : 1024 / BM);
  auto n0 = J.sgpr<u32>(), m0 = J.sgpr<u32>();
  n0 = tx * BN;
  m0 = ty * BM;
  // Split K: workgroup z takes tiles [z * per, min((z + 1) * per, all)) of the K loop.
  auto k_tiles = J.sgpr<u32>(), k_begin = J.sgpr<u32>();
  k_tiles = (K + (BK - 1)) / BK;
  if constexpr (C.split_k > 1) {
    auto t0 = J.sgpr<u32>();
    detail::gemm_split_k_range(J, k_tiles, C.split_k, 1, t0);
    k_begin = t0 * BK;
  } else {
    k_begin = 0u;
  }
  // (Every workgroup walks K from its first tile: workgroups sharing an A or B tile load it
  // together, one L2 miss; starting each at another tile spread the L2 channels but made every
  // first tile a miss, measured slower on every bench shape.)
  auto k_cur = J.sgpr<u32>();  // first column of the next tile to load
  k_cur = k_begin;
  auto loaded = J.sgpr<u32>();  // tiles loaded so far (past k_tiles: zero tiles)
  loaded = 0u;
  // K-contiguous operands: (row, k) at row * K * 2 + k * 2; K-major ones (a_km, b_kn): at
  // k * stride + row * 2, stride M * 2 or N * 2.
  auto a_base = J.sgpr<u32>(), b_base = J.sgpr<u32>(), a_org = J.sgpr<u32>(), b_org = J.sgpr<u32>();
  auto a_stride = J.sgpr<u32>(), b_stride = J.sgpr<u32>();
  if constexpr (C.a_km) {
    a_stride = M << 1;
    a_base = m0 << 1;
  } else {
    a_base = m0 * row_bytes;
  }
  if constexpr (C.b_kn) {
    b_stride = N << 1;
    b_base = n0 << 1;
  } else {
    b_base = n0 * row_bytes;
  }

  lds_pool pool(J);
  constexpr lds_layout LA = detail::gemm_tile_layout(BM, BK), LB = detail::gemm_tile_layout(BN, BK);
  constexpr int NB = static_cast<int>(C.lds_buffers);
  lds_view As[2], Bs[2];
  for (int i = 0; i < NB; ++i) As[i] = pool.view(LA);
  for (int i = 0; i < NB; ++i) Bs[i] = pool.view(LB);

  const tile_copy_opts copy{.threads = T, .vec_bytes = C.vec_bytes(), .elem_loads = C.odd_k};
  // `ahead` staging sets: tile t goes through set t % ahead and LDS buffer t % 2.
  constexpr int AH = static_cast<int>(C.ahead);
  // (built in place: assigning a staging would copy its registers)
  auto staging = [&](const lds_view& V) { return make_tile_staging(J, V, row_bytes, copy, C.k_tail); };
  // K-major operands (A stored K x M, B stored K x N): 8 k-rows of one dword (two M / N
  // columns) a lane, transposed in registers into the same [row][k] layout (tile_copy.hpp)
  auto kstaging = [&](const lds_view& V, const gpr<u32>& stride) {
    return make_transposed_staging(J, V, stride, {.threads = T});
  };
  tile_staging sa[2] = {C.a_km ? tile_staging{} : staging(As[0]), AH > 1 && !C.a_km ? staging(As[0]) : tile_staging{}};
  tile_staging sb[2] = {C.b_kn ? tile_staging{} : staging(Bs[0]), AH > 1 && !C.b_kn ? staging(Bs[0]) : tile_staging{}};
  transposed_staging ka[2] = {C.a_km ? kstaging(As[0], a_stride) : transposed_staging{},
                              AH > 1 && C.a_km ? kstaging(As[0], a_stride) : transposed_staging{}};
  transposed_staging kb[2] = {C.b_kn ? kstaging(Bs[0], b_stride) : transposed_staging{},
                              AH > 1 && C.b_kn ? kstaging(Bs[0], b_stride) : transposed_staging{}};
  const int tile_loads = static_cast<int>(C.a_km ? ka[0].loads() : sa[0].loads()) +
                         static_cast<int>(C.b_kn ? kb[0].loads() : sb[0].loads());
  auto cols_valid = J.sgpr<u32>();
  auto past = J.vgpr<u32>();
  if constexpr (C.a_km || C.b_kn) past = 0x80000000u;
  // A K-major tile past the loop's range loads from offsets past the V# (zeros). Rows past K
  // read zeros (the V# ends at K rows); columns past M / N hold whatever the next row has,
  // which only reaches C's dropped rows / columns.
  auto load_kmajor = [&](const buffer& G, transposed_staging& st, const gpr<u32>& org) {
    auto g = select(loaded < k_tiles, st.goff, past);
    copy_tile_load(J, G, at(org), st, lane_offset{g});
  };
  // The loads of the next tile into staging set `set` (straight-line: interleavable).
  auto load_tile = [&](int set) {
    if constexpr (!C.k_tail) {  // whole tiles: one past K loads from past the V#s (zeros)
      a_org = select(loaded < k_tiles, gpr<u32>(a_base + (k_cur << 1)), 0x80000000u);
      b_org = select(loaded < k_tiles, gpr<u32>(b_base + (k_cur << 1)), 0x80000000u);
      copy_tile_load(J, A, at(a_org), sa[set]);
      copy_tile_load(J, B, at(b_org), sb[set]);
    } else {
      cols_valid = select(loaded < k_tiles, gpr<u32>(K - k_cur), 0u);
      if constexpr (C.a_km) a_org = a_base + k_cur * a_stride;
      else a_org = a_base + (k_cur << 1);
      if constexpr (C.b_kn) b_org = b_base + k_cur * b_stride;
      else b_org = b_base + (k_cur << 1);
      if constexpr (C.a_km) load_kmajor(A, ka[set], a_org);
      else copy_tile_load(J, A, at(a_org), sa[set], cols_valid);
      if constexpr (C.b_kn) load_kmajor(B, kb[set], b_org);
      else copy_tile_load(J, B, at(b_org), sb[set], cols_valid);
    }
    k_cur = k_cur + BK;
    loaded = loaded + 1u;
  };
  auto store_tile = [&](int set, int buf) {
    if constexpr (C.a_km) copy_tile_store(J, ka[set], As[buf]);
    else copy_tile_store(J, sa[set], As[buf]);
    if constexpr (C.b_kn) copy_tile_store(J, kb[set], Bs[buf]);
    else copy_tile_store(J, sb[set], Bs[buf]);
  };

  // This lane's LDS read addresses: row (wave block + the atom's lane row), column 8 * (k group)
  // of each 16-element slice (one read: the k of two MFMAs).
  constexpr const mfma_atom& AT = mfma_atom_of("v_mfma_f32_32x32x8_bf16");
  constexpr const mfma_atom* DK = find_mfma_atom("v_mfma_f32_32x32x16_bf16");
  constexpr int MPS = (DK != nullptr ? 1 : 2) * TM * TN;  // MFMAs of a 16-element slice
  lds_addr a_addr[KS], b_addr[KS];
  const detail::gemm_lane_place place =
      detail::gemm_lane_fragments(J, AT, tid, C.wm, WTM, WTN, 8, As[0], Bs[0], a_addr, b_addr);
  auto lane = place.lane, a_row = place.a_row, b_row = place.b_row;

  auto acc = C.agpr_acc ? J.agpr<f32>(TM * TN, 16) : J.vgpr<f32>(TM * TN, 16);
  // Fragments of slice p: A block i (ds_read_b128 = two MFMAs' operands), B block j.
  auto fa = J.vgpr<u32>(2 * TM, 4), fb = J.vgpr<u32>(2 * TN, 4);
  auto read_slice = [&](int buf, int p) {
    const int s = p % 2;
    const lds_addr pa = As[buf].translate(J, a_addr[p], As[0]), pb = Bs[buf].translate(J, b_addr[p], Bs[0]);
    for (int i = 0; i < TM; ++i) As[buf].load(fa[s * TM + i], pa, 32 * i, 0);
    for (int j = 0; j < TN; ++j) Bs[buf].load(fb[s * TN + j], pb, 32 * j, 0);
  };
  // MFMAs [from, to) of slice p's MPS (in the order h, i, j). A target with the double-K atom
  // (gfx950's v_mfma_f32_32x32x16_bf16: lane half h holds k 8h..8h+7, the ds_read_b128's
  // layout) takes a slice in one MFMA a block instead of two.
  auto mfma_part = [&](int p, int from, int to) {
    const int s = p % 2;
    for (int q = from; q < to; ++q) {
      const int h = q / (TM * TN), i = q / TN % TM, j = q % TN;
      if constexpr (DK != nullptr)
        mfma_run(J, *DK, acc[i * TN + j], fa[s * TM + i], fb[s * TN + j], acc[i * TN + j]);
      else
        mfma_run(J, AT, acc[i * TN + j], fa[s * TM + i].slice(2 * h, 2), fb[s * TN + j].slice(2 * h, 2),
                 acc[i * TN + j]);
    }
  };
  auto mfma_slice = [&](int p) { mfma_part(p, 0, MPS); };
  // One K step on LDS buffer `buf` (tile k; tiles k + 1 .. k + ahead loading into the staging
  // sets): the MFMAs of each slice with, interleaved, the reads of the next slice, and in the
  // first slice the stores of tile k + 1 into the other buffer and the loads of tile k + 1 +
  // ahead into the set tile k + 1 leaves. The wait for tile k + 1's loads stands before the
  // interleave: inside it the interleaver's model (a load's whole latency) would push the
  // stores to the end.
  // With two or more slices the barrier stands among the last slice's MFMAs (its fragments are
  // in registers), and the rest of them cover the reads of the next tile's slice 0: a step
  // starts with its operands read (one wave a SIMD has no other wave to fill that wait).
  constexpr bool READ_AHEAD = KS >= 2;
  // Slice 0's loads a stream of their own (below) where a slice has MFMAs to spread them among;
  // with one (gfx950's double-K MFMA on a 32x32 wave block) they stay behind the stores: the
  // separate stream measured slower there (bench_kernel_gemm_bf16_mi355x, 64x64 tiles)
  constexpr bool SEPARATE_LOADS = MPS >= 2;
  // One ds_write a staging load (K-contiguous operands, even K): slice 1 need not wait for them.
  // Waves of 8 or more 32x32 blocks (the large tiles); with one or two blocks a wave it measured
  // slower (bench_kernel_gemm_bf16, 64x64 tiles on 1024x6144x3072).
  constexpr bool STORES_LATE = !C.odd_k && !C.a_km && !C.b_kn && TM * TN >= 8;
  auto step = [&](int buf) {
    const int set = (buf + 1) % AH;  // tile k + 1's (the loop runs 2 steps a trip, AH divides 2)
    if constexpr (!READ_AHEAD) read_slice(buf, 0);
    J.s_waitcnt(vmcnt((AH - 1) * tile_loads));
    for (int p = 0; p < KS; ++p) {
      // (slice 1: its reads, issued in slice 0 before the stores of tile k + 1, done; the stores,
      // the last of them issued at slice 0's end, may still drain: LDS operations count in order)
      if (p == 1 && STORES_LATE) J.s_waitcnt(lgkmcnt(tile_loads < 15 ? tile_loads : 15));
      else J.s_waitcnt(lgkmcnt(0));
      const bool last = READ_AHEAD && p + 1 == KS;
      // (slice 0: the loads a stream of their own, each load right after the store that frees
      // its registers; behind all the stores, the address path drained while the LDS port
      // worked through them, and the last loads found no MFMA left to hide under)
      if (p == 0 && SEPARATE_LOADS)
        interleave(J, [&] { mfma_part(p, 0, last ? MPS / 2 : MPS); },
                   [&] {
                     if (p + 1 < KS) read_slice(buf, p + 1);
                     store_tile(set, 1 - buf);
                   },
                   [&] { load_tile(set); });
      else
        interleave(J, [&] { mfma_part(p, 0, last ? MPS / 2 : MPS); }, [&] {
          if (p + 1 < KS) read_slice(buf, p + 1);
          if (p == 0) {
            store_tile(set, 1 - buf);
            load_tile(set);
          }
        });
    }
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    if constexpr (READ_AHEAD) interleave(J, [&] { mfma_part(KS - 1, MPS / 2, MPS); }, [&] { read_slice(1 - buf, 0); });
  };

  // One LDS buffer (tile k in LDS, its slice 0 already read; tile k + 1 in the staging): the
  // slices' MFMAs with the reads of the next slice interleaved; after the last slice's reads
  // (its fragments in registers) a barrier frees the buffer; the stores of tile k + 1 issue
  // first (their masks were applied before the barrier: only the LDS port's drain stands between
  // the two barriers), then CUT of the last slice's MFMAs with the loads of tile k + 1 + ahead;
  // a barrier makes tile k + 1 visible, and the reads of its slice 0 run among the rest (so no
  // step starts waiting for LDS).
  constexpr int CUT = MPS * 3 / 4;  // MFMAs of the last slice before the second barrier
  // The wait for tile k + 1's loads (issued one step earlier) and its masks among the MFMAs
  // before the first barrier, where a step has the MFMAs to cover a load's latency (8 blocks of
  // 32x32 a wave: 4096 MFMA cycles a SIMD); a shorter step waits after the barrier instead.
  constexpr bool EARLY_WAIT = TM * TN >= 8 || AH > 1;
  auto prepare_tile = [&](int set) {
    if constexpr (!C.a_km) copy_tile_prepare(J, sa[set]);
    if constexpr (!C.b_kn) copy_tile_prepare(J, sb[set]);
  };
  // `set`: the staging set of tile k + 1 (ahead = 2: tile k + 2 still loading into the other).
  auto step_single = [&](int set) {
    for (int p = 0; p + 1 < KS; ++p) {
      J.s_waitcnt(lgkmcnt(0));
      interleave(J, [&] { mfma_slice(p); },
                 [&] {
                   read_slice(0, p + 1);
                   if (p + 2 == KS && EARLY_WAIT) {
                     J.s_waitcnt(vmcnt((AH - 1) * tile_loads));
                     prepare_tile(set);
                   }
                 });
    }
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    if constexpr (!EARLY_WAIT) J.s_waitcnt(vmcnt((AH - 1) * tile_loads));
    mfma_part(KS - 1, 0, 1);  // (the matrix core busy while the stores issue)
    store_tile(set, 0);
    interleave(J, [&] { mfma_part(KS - 1, 1, CUT); },
               [&] {
                 load_tile(set);
               });
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    interleave(J, [&] { mfma_part(KS - 1, CUT, MPS); }, [&] { read_slice(0, 0); });
  };

  // Prologue: tiles 0 .. ahead - 1 loading, tile 0 into buffer 0, tile ahead loading. Then
  // trips of one step per LDS buffer (the buffer a compile-time choice); an odd tile count with
  // two buffers ends with a step on an all-zero tile (its loads are past K: zeros).
  auto prologue = [&] {
    for (int i = 0; i < AH; ++i) load_tile(i);
    acc.fill(0.0f);  // (the TM x TN x 16 v_mov while the first loads are in flight)
    J.s_waitcnt(vmcnt((AH - 1) * tile_loads));
    store_tile(0, 0);
    load_tile(0);
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    if constexpr (C.lds_buffers == 1 || READ_AHEAD) read_slice(0, 0);
  };
  if constexpr (C.lds_buffers == 2) detail::gemm_k_trips(J, k_tiles, 2, prologue, step);
  else detail::gemm_k_trips(J, k_tiles, AH, prologue, [&](int i) { step_single((i + 1) % AH); });

  // Epilogue: accumulator register r of lane l of block (i, j) is C[32i + 8(r/4) + 4(l/32) + r%4]
  // [32j + l%32] of the wave's block. Columns past N take an offset past C's V#; rows past M
  // are past its end already.
  auto c_off = J.vgpr<u32>(TN);
  auto crow = J.vgpr<u32>();
  crow = a_row - (lane & AT.a_row().mask) + m0 + ((lane >> AT.c_row().shift) * AT.c_row().stride);  // the lane's first row
  auto n_bytes = J.sgpr<u32>();
  n_bytes = N * OUT_EB;
  for (int j = 0; j < TN; ++j) {
    auto col = J.vgpr<u32>();
    col = b_row + (n0 + 32 * j);
    c_off[j] = crow * n_bytes + col * OUT_EB;
    J.If(col >= N, [&] { c_off[j] = 0x80000000u; });
  }
  // (an AGPR accumulator goes to a VGPR first: VALU and stores take AGPRs no further)
  auto acc_value = [&](const gpr<f32>& a) -> gpr<f32> {
    if constexpr (!C.agpr_acc) return a;
    auto v = J.vgpr<f32>();
    J.v_accvgpr_read_b32(v, a);
    return v;
  };
  auto srow = J.sgpr<u32>();
  if constexpr (C.bf16_atomics) {
    // Registers 2q and 2q+1 hold rows R and R + 1 of the lane's column c. Even and odd lanes
    // swap one (DPP quad_perm [1,0,3,2]): an even lane then holds row R's columns c, c + 1, an
    // odd lane row R + 1's columns c - 1, c: one packed atomic each (N even: a pair never
    // straddles a row's end, and a column past N has its pair past N too).
    auto parity = J.vgpr<u32>();
    parity = lane & 1u;
    auto odd_adj = J.vgpr<u32>();
    odd_adj = select(parity == 0u, 0u, gpr<u32>(n_bytes - 2u));
    for (int j = 0; j < TN; ++j) c_off[j] = c_off[j] + odd_adj;
    for (int i = 0; i < TM; ++i)
      for (int q = 0; q < 8; ++q) {
        const int r0 = 2 * q;
        srow = n_bytes * static_cast<uint32_t>(32 * i + 8 * (r0 / 4) + r0 % 4);
        for (int j = 0; j < TN; ++j) {
          const gpr<f32> x0 = acc_value(acc[i * TN + j][r0]), x1 = acc_value(acc[i * TN + j][r0 + 1]);
          auto send = select(parity == 0u, x1, x0);
          auto recv = dpp_value(send, dpp::quad_perm(1, 0, 3, 2));
          auto lo = select(parity == 0u, x0, recv), hi = select(parity == 0u, recv, x1);
          Cb.atomic_pk_add_bf16(cvt_bf16x2(lo, hi), at(c_off[j]) + at(srow));
        }
      }
    return;
  }
  if constexpr (C.out_bf16 && C.split_k == 1 && TN % 2 == 0 && active_target::desc.features.has_permlane_swap) {
    // Blocks j and j + 1 a pair: v_permlane32_swap trades block j's lanes 32..63 (rows + 4) with
    // block j + 1's lanes 0..31, so that each register holds 64 consecutive columns of one row
    // (lane l column 64 (j / 2) + l of the wave's block): a 16-bit store is one 128-byte line,
    // not two (the CU's address path bounds this epilogue: one workgroup a CU has nothing else
    // to run meanwhile).
    auto p_off = detail::gemm_block_pair_offsets<TN>(
        J, N, n_bytes, [&](gpr<u32>& wrow) { wrow = a_row - (lane & AT.a_row().mask) + m0; },
        [&](gpr<u32>& col, int jp) { col = b_row + (lane & 32u) + (n0 + 64u * static_cast<uint32_t>(jp)); });
    detail::gemm_store_bf16_block_pairs<TM, TN>(J, Cb, p_off, n_bytes, [&](const gpr<f32>& x, int i, int j, int r) {
      if constexpr (C.agpr_acc) J.v_accvgpr_read_b32(x, acc[i * TN + j][r]);
      else J.v_mov_b32(x, acc[i * TN + j][r]);
    });
    return;
  }
  for (int i = 0; i < TM; ++i)
    for (int r = 0; r < 16; ++r) {
      srow = n_bytes * static_cast<uint32_t>(32 * i + 8 * (r / 4) + r % 4);
      for (int j = 0; j < TN; ++j) {
        const gpr<f32> x = acc_value(acc[i * TN + j][r]);
        if constexpr (C.split_k > 1) {
          Cb.atomic_add_f32(x, at(c_off[j]) + at(srow));
        } else if constexpr (C.out_bf16) {
          auto h = cvt_bf16x2(x, x);
          Cb.store(h, at(c_off[j]) + at(srow), {.width = narrow::u16});
        } else {
          Cb.store(x, at(c_off[j]) + at(srow));
        }
      }
    }
}

// Split-K with bf16 output, second kernel: C[i] = bf16(ws[i]) (round to nearest even) for i <
// count, 256 threads a workgroup, 2 elements a lane (two f32 loads, two 16-bit stores: any
// count; the tail's accesses fall past the V#s). Empty unless C.split_k > 1 && C.out_bf16
// (HIPASM_GEMM_BF16_KERNEL defines it for every configuration).
template <gemm_bf16_config C>
constexpr void gemm_bf16_to_bf16_kernel(builder J, arg<uint16_t*> c_ptr, arg<const float*> ws_ptr, arg<unsigned> count) {
  if constexpr (C.split_k > 1 && C.out_bf16) {
    auto ws_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>();
    ws_bytes = count << 2;
    c_bytes = count << 1;
    auto W = make_buffer(J, ws_ptr, ws_bytes);
    auto Cb = make_buffer(J, c_ptr, c_bytes);
    auto i = J.vgpr<u32>();
    i = (J.workgroup_id_x() * detail::gemm_to_bf16_per_group + (J.thread_id_x() << 1));
    auto v = J.vgpr<f32>(2);
    auto off = J.vgpr<u32>();
    off = i << 2;
    W.load(v[0], at(off));
    W.load(v[1], at(off) + 4);
    J.s_waitcnt(vmcnt(0));
    auto h = cvt_bf16x2(v[0], v[1]);
    auto co = J.vgpr<u32>();
    co = i << 1;
    Cb.store(h, at(co), {.width = narrow::u16});
    Cb.store(h, at(co) + 2, {.width = narrow::u16_d16_hi});
  }
}

}  // namespace hipasm::kernels

// Defines the HIP kernel `name` (C, A, B, M, N, K) of configuration `cfg` (parenthesized), and
// `name_to_bf16` (C, workspace, count): split-K with bf16 output's rounding pass (empty for the
// other configurations; launch_gemm_bf16 runs it).
#define HIPASM_GEMM_BF16_KERNEL(name, cfg)                                                                   \
  constexpr auto name##_hipasm_fn = &::hipasm::kernels::gemm_bf16_kernel<cfg>;                           \
  extern "C" __attribute__((global)) void name(void* c, const uint16_t* a, const uint16_t* b, unsigned m, \
                                               unsigned n, unsigned k) {                                 \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, c, a, b, m, n, k);                                              \
  }                                                                                                      \
  constexpr auto name##_to_bf16_hipasm_fn = &::hipasm::kernels::gemm_bf16_to_bf16_kernel<cfg>;           \
  extern "C" __attribute__((global)) void name##_to_bf16(uint16_t* c, const float* ws, unsigned count) { \
    HIPASM_KERNEL_BODY(name##_to_bf16_hipasm_fn, c, ws, count);                                          \
  }
