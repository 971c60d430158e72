// The library's quantized GEMMs: C = (A * B^T) scaled, A M x K and B N x K row-major 8-bit
// ("TN", the layout of aiter's a8w8 kernels), C M x N row-major bf16 (round to nearest even).
//
//   fp8 (e4m3 in the target's format, FNUZ or OCP: v_mfma_f32_32x32x16_fp8_fp8, or on a target with
//   it gfx950's double-K v_mfma_f32_32x32x64_f8f6f4 (detail::gemm_quant_double_k), f32
//   accumulation) or int8 (v_mfma_i32_32x32x16_i8, gfx950's v_mfma_i32_32x32x32_i8, exact i32
//   accumulation), with the scales (f32) of `quant_scale`:
//     per_tensor  C[m][n] = sum_k A[m][k] B[n][k] * sa[0] * sb[0]
//     per_token   C[m][n] = sum_k A[m][k] B[n][k] * sa[m] * sb[n]          (sa: M, sb: N)
//     block128    C[m][n] = sum_kb (sum_{k in block kb} A[m][k] B[n][k]) * sa[kb][m] * sb[n/128][kb]
//                 (DeepSeek-style: sa [ceil(K/128)][M], the layout aiter passes x_scale in;
//                 sb [ceil(N/128)][ceil(K/128)], one scale per 128x128 block of B; fp8 only)
//
//   // a .hip file compiled by hipasm_add_code_object:
//   HIPASM_GEMM_QUANT_KERNEL(my_gemm, (hipasm::kernels::gemm_quant_config{.type = hipasm::kernels::quant_type::fp8}))
//   // host (hipasm-sim or a real MI300, the same call): gemm_quant_launch.hpp
//
// Any M, N, K >= 1. Tails need no branch (buffer.hpp): A's V# ends at M*K bytes, B's at N*K,
// C's at M*N*2, the scales' at their tensors' ends, so overhanging rows load zeros and their
// stores are dropped; columns past K (loads) and N (stores) take an offset past every V#
// (int8 with the VGPR copies: B's only, A's columns past K multiply B's zeros).
// The tile copies are LDS-DMA dwords, so rows must be dword-aligned (K % 4 == 0); the `any_k`
// variant copies bytes through VGPRs instead (slow; launch_gemm_quant picks it for such a K).
//
// Schedule (one workgroup = wm x wn waves computing a bm x bn tile). Tile copies through VGPRs
// (the default): dwordx4 loads (a 128-byte line a row for bk = 128: the CU's address path
// moves 32 B/clk this way, 23 B/clk by LDS-DMA) `ahead` tiles before their LDS stores, which,
// like the loads, the interleaver places among the MFMAs; two LDS buffers, or one
// (lds_buffers = 1: tile k + 1 stored between two barriers while the last slice's MFMAs run,
// half the LDS, so 128x128x128 tiles fit two workgroups a CU; with 8 waves, one workgroup a CU,
// the wait for tile k + 1 and its column-tail masks go among the MFMAs before the first barrier
// and its stores right after it, as in gemm_bf16's one-buffer step; half of the second-to-last
// slice's MFMAs wait past the first barrier, to cover the stores' drain with MFMAs). The column
// tail's word masks are made once (the K walk's tiles are whole, empty or the one tail K % bk);
// with two LDS buffers they are applied in a branch that only a tile short of bk takes. The C tiles are dealt per
// XCD (gemm_common.hpp gemm_tile_order: bands of 8 tile rows, of 1024 rows of C for taller tiles). Each tile column starts its K walk
// at its own 128-byte line and wraps (the columns spread over the L2 channels, the workgroups of
// a column read their B rows in step). dma = true (or any_k): the K loop keeps `stages` LDS buffers of the A and
// B tiles (bk bytes a row) and loads stages - 1 tiles ahead by DMA. Each wave reads its 32-row fragments with ds_read_b128 (the 16-byte chunks XOR-swizzled so
// the 8 rows of a read phase hit distinct banks) and runs 32x32x16 MFMAs, the reads of the
// next 32-byte K slice interleaved with the MFMAs of this one (interleave.hpp). A lane's 16
// bytes of a slice feed two MFMAs (bytes 0-7 and 8-15): the same K permutation for A and B,
// which leaves the dot product unchanged. The double-K MFMAs take one MFMA a 32x32 block and
// slice: fp8's 64-byte slices, a lane's two reads of 16 bytes (the slice's two 32-byte parts) its
// 8 operand registers; i8's 32-byte slices, one read. With two LDS buffers (per_tensor,
// per_token) the step's barrier then stands among the last slice's MFMAs and the rest cover the
// next tile's first reads (READ_AHEAD), and slice 0 stores tile k + 1 and loads tile k + 2 in
// parts, each after the wait for its own loads (SPLIT_AB: A, then B; SPLIT4: halves of their
// rows), so that the address path never drains. agpr_acc keeps the accumulators in AGPRs (the
// epilogue reads each into a VGPR).
// Split K (split_k = true; small M, where the C tiles leave CUs idle): grid z of `splits`
// workgroups per tile, each over whole K tiles (block128: whole scale blocks), storing its f32
// sums into its slice of a workspace; the last workgroup of a tile to finish (a counter per tile
// and wave) adds the slices in order and rounds into C, in the same kernel.
// Block scales: bk divides 128, so 128 / bk K tiles make one scale block; their products
// accumulate into separate registers (the block's first MFMA of each 32x32 block adds 0), then each accumulator
// element takes acc += part * (sa[kb][row] * sb[n/128][kb]) (v_fmac; waves of one 32x32 block: v_pk_fma_f32 on pairs). The MFMAs compute C^T
// (B's fragment as the A operand), so a lane's 16 registers of a 32x32 block share one C row:
// one A scale a lane and 32-row block (a dword load, one v_mul by the B scale; the B scale an
// s_buffer_load, one per workgroup: bn divides 128), and the epilogue turns each block around
// through LDS. The scales are loaded at the start of the block's first step; with the VGPR
// copies and bk = 128 a block ahead (two sets), and block k's adds run in step k + 1: among its
// MFMAs when two sets of products fit the registers, else before its first slice's MFMAs.
#pragma once
#include <cstdint>
#include <string_view>

#include "../helpers/mfma.hpp"
#include "../hipasm.hpp"
#include "gemm_common.hpp"

namespace hipasm::kernels {

// fp8: e4m3; i8; bf8: e5m2 (the target's formats; bf8 is dynamic_quant's output only: the GEMMs
// take fp8 and i8)
enum class quant_type : uint8_t { fp8, i8, bf8 };
enum class quant_scale : uint8_t { per_tensor, per_token, block128 };

struct gemm_quant_config {
  quant_type type = quant_type::fp8;
  quant_scale scale = quant_scale::per_token;
  uint32_t bm = 128, bn = 128, bk = 128;  // workgroup tile (bk in elements = bytes)
  uint32_t wm = 2, wn = 2;                // waves along M and N
  bool any_k = false;                     // K need not be a multiple of 4 (byte-wise tile copies)
  bool dma = false;                       // tile copies by LDS-DMA into `stages` buffers (else through VGPRs)
  uint32_t stages = 2;                    // LDS-DMA / any_k: LDS tile buffers, loads run stages - 1 tiles ahead
  uint32_t ahead = 1;                     // VGPR copies: tiles whose loads are in flight (staging sets, 1 or 2)
  uint32_t lds_buffers = 2;               // VGPR copies: 2, or 1 (half the LDS: two workgroups a CU for 128x128x128)
  uint32_t lds_ahead = 1;                 // VGPR copies, 2 LDS buffers: K slices whose LDS reads run ahead
                                          // of the MFMAs (2: the reads' latency covered at 1 wave a SIMD)
  bool split_k = false;                   // VGPR copies: K may be split over `splits` workgroups (grid z, the
                                          // launch's run-time choice) writing f32 partial sums into slices of a
                                          // workspace, which `name_to_bf16` sums and rounds into C
  bool agpr_acc = false;                  // accumulators in AGPRs (per_tensor / per_token; up to 256: with one
                                          // wave a SIMD a wave has 512 registers, e.g. 4 waves of 128x128)
  uint32_t groups = 0;                    // > 0: persistent workgroups, at most `groups` (the device's CUs; a
                                          // multiple of 8 keeps each XCD's tiles together), each walking its C
                                          // tiles, the next tile's first K tiles loading under the current one's
                                          // last steps (the double-K MFMA's read-ahead step: gfx950)

  // The tiles go through VGPRs (dwordx4 loads, two LDS buffers, one tile ahead) unless dma or any_k.
  constexpr bool vgpr_loads() const { return !dma && !any_k; }

  constexpr uint32_t threads() const { return 64 * wm * wn; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + bn - 1) / bn; }
  constexpr uint32_t grid_y(uint32_t m) const { return (m + bm - 1) / bm; }
  constexpr uint32_t tiles(uint32_t m, uint32_t n) const { return grid_x(n) * grid_y(m); }
  // LDS of the A and B tile buffers
  constexpr uint32_t lds_bytes() const { return (vgpr_loads() ? lds_buffers : stages) * (bm + bn) * bk; }
};

namespace detail {

// block128: VGPRs a wave holds for the accumulators, `sets` sets of a K block's products and
// the scales (two a 32-row block and set), and with the VGPR copies the staging and fragments
// (`frag` registers a 32-row fragment: 4 for the 32x32x16 fp8 MFMA, 8 for the double-K one).
constexpr uint32_t gemm_quant_block_vgprs(const gemm_quant_config& c, uint32_t sets, uint32_t frag = 4) {
  const uint32_t blocks = (c.bm / c.wm / 32) * (c.bn / c.wn / 32);
  const uint32_t own = blocks * 16 * (1 + sets) + (c.bm / c.wm / 32) * 2 * sets;
  if (!c.vgpr_loads()) return own;
  return own + c.ahead * (c.bm + c.bn) * c.bk / (4 * c.threads()) + (c.lds_ahead + 1) * (c.bm / c.wm + c.bn / c.wn) / 32 * frag;
}
// block128: register sets of a K block's products. Two with the VGPR copies and one tile a
// block (bk = 128) when they fit: the MFMAs of block k + 1 fill one set while the scaled adds
// of block k, interleaved with them, read the other.
constexpr uint32_t gemm_quant_part_sets(const gemm_quant_config& c) {
  return c.scale == quant_scale::block128 && c.vgpr_loads() && c.bk == 128 && gemm_quant_block_vgprs(c, 2) <= 208 ? 2 : 1;
}
// The double-K MFMA of a type (gfx950: twice the k of the 32x32x16 fp8 / i8 MFMA in the same
// passes, CDNA4 ISA 7.1.5.1): fp8 v_mfma_f32_32x32x64_f8f6f4 (a lane's 16 k in each half of a
// 64-byte slice), i8 v_mfma_i32_32x32x32_i8 (16 consecutive k a lane: one ds_read_b128 of a
// 32-byte slice), and its K slice in bytes.
constexpr const char* gemm_quant_double_k_mfma(quant_type t) {
  return t == quant_type::fp8 ? "v_mfma_f32_32x32x64_f8f6f4" : "v_mfma_i32_32x32x32_i8";
}
constexpr uint32_t gemm_quant_double_k_slice(quant_type t) { return t == quant_type::fp8 ? 64 : 32; }
// A target with the type's double-K MFMA, where the configuration takes it: bk a multiple of
// its slice (one LDS buffer needs two slices), block128's VGPRs within their budget with fp8
// fragments twice as wide (the same product sets). Else the 32x32x16 MFMA, two a 32-byte slice.
constexpr bool gemm_quant_double_k(const gemm_quant_config& c) {
  if (find_mfma_atom(gemm_quant_double_k_mfma(c.type)) == nullptr) return false;
  const uint32_t slice = gemm_quant_double_k_slice(c.type);
  if (c.bk % slice != 0 || (c.vgpr_loads() && c.lds_buffers == 1 && c.bk < 2 * slice)) return false;
  return c.scale != quant_scale::block128 || gemm_quant_block_vgprs(c, gemm_quant_part_sets(c), 8) <= 208;
}

constexpr const char* gemm_quant_config_error(const gemm_quant_config& c) {
  if (c.type == quant_type::bf8) return "gemm_quant: operands are fp8 (the target's e4m3: fnuz on gfx942, OCP on gfx950) or i8, not bf8";
  if (c.wm == 0 || c.wn == 0 || c.wm * c.wn > 16) return "gemm_quant: 1 to 16 waves (wm * wn)";
  if (c.bm % (32 * c.wm) != 0 || c.bn % (32 * c.wn) != 0)
    return "gemm_quant: bm must be a multiple of 32 * wm and bn of 32 * wn (32x32 MFMA blocks)";
  if (c.bk % 32 != 0 || c.bk > 512) return "gemm_quant: bk must be a multiple of 32 up to 512";
  if (c.stages < 2 || c.stages > 4) return "gemm_quant: 2 to 4 stages (LDS tile buffers)";
  if (c.vgpr_loads() && c.stages != 2)
    return "gemm_quant: stages is for the LDS-DMA and any_k copies (dma = true); the VGPR copies use two LDS buffers";
  if (!c.vgpr_loads() && c.stages * (c.bm + c.bn) * c.bk > active_target::desc.lds_bytes)
    return "gemm_quant: the tile buffers (stages x A and B tiles) exceed the target's LDS (64 KiB gfx942, 160 KiB gfx950)";
  if (c.vgpr_loads()) {
    const uint32_t chunks = c.bk / 16;  // 16-byte chunks a tile row
    if (c.threads() % chunks != 0 || c.bm % (c.threads() / chunks) != 0 || c.bn % (c.threads() / chunks) != 0)
      return "gemm_quant: the VGPR tile copies must be whole steps (bm and bn multiples of the rows 16 bytes a lane covers)";
    if (c.ahead < 1 || c.ahead > 2) return "gemm_quant: ahead must be 1 or 2 (tiles loading while one computes)";
    if ((c.bm + c.bn) * c.bk / 16 / c.threads() * c.ahead > 18)
      return "gemm_quant: more than 18 dwordx4 staging loads per lane (72 VGPRs): use more waves, a smaller bk or ahead = 1";
    if (c.lds_buffers < 1 || c.lds_buffers > 2) return "gemm_quant: 1 or 2 LDS buffers";
    if (c.lds_buffers * (c.bm + c.bn) * c.bk > active_target::desc.lds_bytes)
      return "gemm_quant: the LDS buffers of the A and B tiles exceed the target's LDS (64 KiB gfx942, 160 KiB gfx950)";
    if (c.lds_buffers == 1 && c.bk < 64) return "gemm_quant: one LDS buffer needs bk >= 64 (two slices: the last one's MFMAs cover the stores)";
    if (c.lds_ahead < 1 || c.lds_ahead > 2 || (c.lds_ahead == 2 && c.lds_buffers != 2))
      return "gemm_quant: lds_ahead is 1, or 2 with two LDS buffers";
  } else if (c.ahead != 1 || c.lds_buffers != 2 || c.lds_ahead != 1) {
    return "gemm_quant: ahead, lds_buffers and lds_ahead are for the VGPR copies (the LDS-DMA path runs stages - 1 tiles ahead)";
  } else if (c.split_k) {
    return "gemm_quant: split_k needs the VGPR copies (dma = false, any_k = false)";
  }
  if (c.groups != 0 && (c.scale == quant_scale::block128 || !c.vgpr_loads() || c.lds_buffers != 2 || c.ahead != 1 ||
                        c.lds_ahead != 1 || c.split_k))
    return "gemm_quant: groups (persistent workgroups) takes per_tensor or per_token scales, the VGPR copies with two LDS "
           "buffers, ahead = 1, lds_ahead = 1 and no split_k";
  if (c.groups != 0 && (c.type != quant_type::fp8 || !c.agpr_acc))
    return "gemm_quant: groups (persistent workgroups) is for fp8 with agpr_acc";
  const uint32_t blocks = (c.bm / c.wm / 32) * (c.bn / c.wn / 32);
  if (c.scale == quant_scale::block128) {
    if (c.type != quant_type::fp8) return "gemm_quant: block128 scales are for fp8 (int8 takes per_tensor or per_token)";
    if (c.agpr_acc) return "gemm_quant: agpr_acc is for per_tensor and per_token (block128's scaled adds run on the VALU)";
    if (128 % c.bk != 0 || (c.stages * c.bk) % 128 != 0)
      return "gemm_quant: block128 scales need bk to divide 128 and stages * bk to be a multiple of 128 (whole scale blocks per loop trip)";
    if (128 % c.bn != 0) return "gemm_quant: block128 scales need bn to divide 128 (one B scale per workgroup and K block)";
    const uint32_t sets = gemm_quant_part_sets(c);
    if (blocks * 16 * (1 + sets) + (c.bm / c.wm / 32) * 2 * sets > 224)
      return "gemm_quant: block128: more than 224 accumulator and scale VGPRs per wave";
    if ((c.vgpr_loads() ? c.lds_buffers : c.stages) * (c.bm + c.bn) * c.bk < 4096 * c.wm * c.wn)
      return "gemm_quant: block128: the tile buffers must hold 4 KiB a wave (the epilogue turns the accumulators around there)";
    if (c.vgpr_loads() && gemm_quant_block_vgprs(c, sets) > 208)
      return "gemm_quant: block128: accumulator, scale, fragment and staging VGPRs exceed 208 per wave: a smaller bk or dma = true";
  } else if (blocks * 16 > 256) {
    return c.agpr_acc ? "gemm_quant: more than 256 accumulator AGPRs per wave" : "gemm_quant: more than 256 accumulator VGPRs per wave";
  }
  if (!c.any_k && ((c.bm * c.bk) % (4 * c.threads()) != 0 || (c.bn * c.bk) % (4 * c.threads()) != 0))
    return "gemm_quant: each A and B tile must be whole DMA steps (4 bytes a lane of the workgroup) for the vmcnt counts";
  if (c.any_k && ((c.bm * c.bk) % c.threads() != 0 || (c.bn * c.bk) % c.threads() != 0))
    return "gemm_quant: any_k: each A and B tile must be whole steps of one byte a lane of the workgroup";
  // the waits: stages - 2 tiles in flight at a step's end, one (after the scales) with block128
  const uint32_t tiles_per_block = c.scale == quant_scale::block128 && c.bk <= 128 ? 128 / c.bk : 1;
  const uint32_t ahead = c.stages - 2 > tiles_per_block ? c.stages - 2 : tiles_per_block;
  if (c.dma && !c.any_k && ahead * ((c.bm + c.bn) * c.bk / (256 * c.wm * c.wn)) > 63)
    return "gemm_quant: the loads of the tiles in flight at a wait exceed vmcnt's 63";
  return nullptr;
}

// One A or B tile in LDS: rows x bk bytes, 16-byte chunks XOR-swizzled over up to 8 chunks so
// that the 8 lanes of a ds_read_b128 phase (8 consecutive rows, one chunk) hit distinct banks.
constexpr lds_layout gemm_quant_tile_layout(uint32_t rows, uint32_t bk) {
  const uint32_t groups = bk / 16 >= 8 ? 8 : bk / 16;
  return {.rows = rows, .cols = bk, .elem_bytes = 1, .swz_chunk = 16, .swz_groups = groups, .swz_row_div = 8 / groups};
}

}  // namespace detail

template <gemm_quant_config C>
constexpr void gemm_quant_kernel(builder J, arg<void*> c_ptr, arg<const uint8_t*> a_ptr, arg<const uint8_t*> b_ptr,
                                 arg<const float*> sa_ptr, arg<const float*> sb_ptr, arg<unsigned> M, arg<unsigned> N,
                                 arg<unsigned> K, arg<unsigned> splits, arg<float*> ws_ptr) {
  static_assert(detail::gemm_quant_config_error(C) == nullptr,
                std::string_view(detail::gemm_quant_config_error(C) ? detail::gemm_quant_config_error(C) : ""));
  constexpr bool I8 = C.type == quant_type::i8;
  constexpr bool BLOCK = C.scale == quant_scale::block128, TOKEN = C.scale == quant_scale::per_token;
  constexpr uint32_t BM = C.bm, BN = C.bn, BK = C.bk, T = C.threads();
  constexpr uint32_t WTM = BM / C.wm, WTN = BN / C.wn;  // a wave's block
  constexpr int TM = static_cast<int>(WTM / 32), TN = static_cast<int>(WTN / 32);
  // gemm_quant_double_k (gfx950's v_mfma_f32_32x32x64_f8f6f4, v_mfma_i32_32x32x32_i8): one MFMA a
  // 32x32 block and slice (fp8: 64-byte slices); else 32-byte slices, two MFMAs a block
  constexpr bool DK = detail::gemm_quant_double_k(C);
  constexpr int SL = static_cast<int>(DK ? detail::gemm_quant_double_k_slice(C.type) / 32 : 1);  // 32-byte parts a slice
  constexpr int KS = static_cast<int>(BK / 32) / SL;  // K slices per tile
  constexpr int MPS = (DK ? 1 : 2) * TM * TN;         // MFMAs a slice
  constexpr bool VG = C.vgpr_loads();
  constexpr int S = VG ? static_cast<int>(C.lds_buffers) : static_cast<int>(C.stages);
  constexpr bool SPLIT = C.split_k;
  // groups: persistent workgroups (gemm_quant_config::groups), on the double-K read-ahead step
  constexpr bool PERSIST = C.groups > 0;
  static_assert(!PERSIST || (DK && !BLOCK && C.lds_ahead == 1 && KS >= 2),
                "gemm_quant: groups (persistent workgroups) needs the double-K MFMA's read-ahead step (gfx950, bk of two "
                "slices or more)");

  // Buffers sized to the tensors: the range check is the tail handling.
  auto a_bytes = J.sgpr<u32>(), b_bytes = J.sgpr<u32>(), c_bytes = J.sgpr<u32>();
  a_bytes = M * K;
  b_bytes = N * K;
  c_bytes = (M * N) << 1;
  auto A = make_buffer(J, a_ptr, a_bytes);
  auto B = make_buffer(J, b_ptr, b_bytes);
  auto k_blocks = J.sgpr<u32>();  // scale blocks along K (block128)
  k_blocks = (K + 127u) >> 7;
  // (C's and the scales' V#s are made after the first tile loads: nothing before needs them)
  auto sa_bytes = J.sgpr<u32>(), sb_bytes = J.sgpr<u32>();
  buffer Cb, SA, SB;
  auto make_late_buffers = [&] {
    Cb = make_buffer(J, c_ptr, c_bytes);
    if constexpr (BLOCK) {
      sa_bytes = (k_blocks * M) << 2;
      sb_bytes = (((N + 127u) >> 7) * k_blocks) << 2;
    } else if constexpr (TOKEN) {
      sa_bytes = M << 2;
      sb_bytes = N << 2;
    } else {
      sa_bytes = 4u;
      sb_bytes = 4u;
    }
    SA = make_buffer(J, sa_ptr, sa_bytes);
    SB = make_buffer(J, sb_ptr, sb_bytes);
  };

  auto tid = J.thread_id_x();
  auto n0 = J.sgpr<u32>(), m0 = J.sgpr<u32>();
  // The C tile of this workgroup (tx, ty): detail::gemm_tile_order (each XCD's workgroups a
  // compact block of tiles: they share their A and B rows in that XCD's L2).
  auto tx = J.sgpr<u32>(), ty = J.sgpr<u32>(), gx = J.sgpr<u32>(), gy = J.sgpr<u32>();
  gx = (N + (BN - 1)) / BN;
  gy = (M + (BM - 1)) / BM;
  // (bands of 8 tile rows; 1024 rows of C for taller tiles: 8 rows of 256 make the 256x128
  // tile's A and B miss the Infinity Cache on 8192^3, while 16 rows of 64 slow the 64-row tiles)
  constexpr uint32_t BAND = BM > 128 ? 1024 / BM : 8;
  // PERSIST: the workgroup's tiles are the linear ids lin, lin + G, ... below the tile count, in
  // the same order; (ntx, nty) the next one's (n_valid 0: none)
  auto tiles = J.sgpr<u32>(), lin = J.sgpr<u32>(), G = J.sgpr<u32>(), n_valid = J.sgpr<u32>();
  auto ntx = J.sgpr<u32>(), nty = J.sgpr<u32>();
  auto next_tile = [&] {
    auto ln = J.sgpr<u32>();
    ln = lin + G;
    n_valid = as_u32(ln < tiles);
    detail::gemm_tile_order_of(J, ln, tiles, gx, gy, ntx, nty, 8, BAND);
  };
  if constexpr (PERSIST) {
    tiles = gx * gy;
    lin = J.workgroup_id_x();
    G = min(tiles, C.groups);
    detail::gemm_tile_order_of(J, lin, tiles, gx, gy, tx, ty, 8, BAND);
    next_tile();
  } else {
    // (block128: the tile order's divisions by gemm_udiv_small, tile ids below 2^20 as
    // launch_gemm_quant keeps C below 2 GiB; the other scales keep the exact sequence, which
    // bench_kernel_gemm_i8's 4096x5120x1280 ran faster with: a lower phase clock of the model
    // on its 16-CU sample)
    detail::gemm_tile_order(J, gx, gy, tx, ty, 8, BAND, BLOCK);
  }
  n0 = tx * BN;
  m0 = ty * BM;
  auto a_org = J.sgpr<u32>(), b_org = J.sgpr<u32>();  // byte offsets of (m0, k0), (n0, k0)
  a_org = m0 * K;
  b_org = n0 * K;
  auto k_left = J.sgpr<u32>();  // K - k0 of the tile being loaded (its valid columns)
  k_left = K;
  auto row_bytes = J.sgpr<u32>();
  row_bytes = K;
  // block128: the tiles of one scale block (bk divides 128; the loop's trips start on blocks)
  constexpr int TB = BLOCK ? static_cast<int>(128 / BK) : 1;
  auto k_tiles = J.sgpr<u32>();  // block128: whole blocks (the tiles past K load zeros)
  if constexpr (BLOCK) k_tiles = k_blocks * static_cast<uint32_t>(TB);
  else k_tiles = (K + (BK - 1)) / BK;
  // Split K: workgroup z takes the tiles [t0, t0 + k_tiles) of the K walk, whole scale blocks
  // (TB tiles); a workgroup past the last tile computes zeros (its slice must be written).
  auto k_begin = J.sgpr<u32>();  // first column of this workgroup's K range
  if constexpr (SPLIT) {
    auto t0 = J.sgpr<u32>();
    detail::gemm_split_k_range(J, k_tiles, splits, static_cast<uint32_t>(TB), t0);
    k_begin = t0 * BK;
  } else {
    k_begin = 0u;
  }
  // VGPR copies, persistent kernels: each workgroup starts its K walk at a unit (a 128-byte
  // line, or a tile if larger) keyed to its tile column (one further per column, over 16 lines)
  // and wraps around: the columns spread over the L2 channels, and the workgroups of one column
  // read the same B rows in step. Non-persistent kernels (int8 and fp8) start every walk at
  // k_begin: the rotated starts read A's rows at 16 offsets, so the first tiles of a round share
  // no A lines in L2 and come from HBM together, which cost more than the channel spread gained
  // (bench_kernel_gemm_i8, bench_kernel_gemm_fp8).
  constexpr bool ROTATE = PERSIST;
  constexpr uint32_t UNIT = BK >= 128 ? BK : 128, NU = 16 * 128 / UNIT;
  auto k_cur = J.sgpr<u32>(), loaded = J.sgpr<u32>(), k_span = J.sgpr<u32>(), k_end = J.sgpr<u32>();
  auto first_unit = J.sgpr<u32>();
  if constexpr (VG) {
    k_span = k_tiles * BK;
    k_end = k_begin + k_span;
    if constexpr (ROTATE) {
      auto wg = J.sgpr<u32>();
      wg = tx;
      // (the units holding columns below K; an empty split range: 0, so at least 1)
      // (x % u for x < NU, a power of 2: x -= (2^s u) where it does not wrap, s = log2(NU) - 1 .. 0,
      // as unsigned minima; a division would be ~30 instructions before the first loads)
      auto nunits = J.sgpr<u32>(), sub = J.sgpr<u32>();
      nunits = max(gpr<u32>((min(k_span, gpr<u32>(K - k_begin)) + (UNIT - 1)) / UNIT), 1u);
      first_unit = wg % NU;
      for (uint32_t sh = NU / 2; sh >= 1; sh /= 2) {
        sub = first_unit - nunits * sh;
        first_unit = min(first_unit, sub);
      }
      k_cur = k_begin + first_unit * UNIT;
    } else {
      k_cur = k_begin;
    }
    loaded = 0u;
  }
  // PERSIST: the load cursor (a_org, b_org, k_cur, loaded) walks k_pad tiles of a C tile (K's,
  // then zero tiles to an even count, at least 4: the cursor moves on in the tile's step k_pad - 3,
  // after the previous tile's end set the next one's origins na_org, nb_org, nk_cur) and moves on
  // to the next C tile (no next tile: zeros), whose first tiles then load under this one's last steps.
  auto k_pad = J.sgpr<u32>(), units = J.sgpr<u32>(), na_org = J.sgpr<u32>(), nb_org = J.sgpr<u32>(),
       nk_cur = J.sgpr<u32>(), n_loaded = J.sgpr<u32>();
  auto next_origins = [&] {
    na_org = select(n_valid == 0u, 0u, gpr<u32>((nty * BM) * K));
    nb_org = select(n_valid == 0u, 0u, gpr<u32>((ntx * BN) * K));
    nk_cur = ((ntx % NU) % units) * UNIT;
    n_loaded = select(n_valid == 0u, k_pad, 0u);
  };
  if constexpr (PERSIST) {
    k_pad = max(gpr<u32>((k_tiles + 1u) & ~1u), 4u);
    units = max(gpr<u32>((K + (UNIT - 1)) / UNIT), 1u);
    next_origins();
  }

  lds_pool pool(J);
  constexpr lds_layout LA = detail::gemm_quant_tile_layout(BM, BK), LB = detail::gemm_quant_tile_layout(BN, BK);
  lds_view As[S > 2 ? S : 2], Bs[S > 2 ? S : 2];
  for (int i = 0; i < S; ++i) As[i] = pool.view(LA);
  for (int i = 0; i < S; ++i) Bs[i] = pool.view(LB);
  // PERSIST, per_token: the tile's row and column scales (BM + BN floats) in LDS for the epilogue,
  // loaded one a lane (psr, psc) a tile ahead, at the previous tile's end (their latency under the
  // K walk, not in the epilogue). AGPR accumulators, per_token, one tile: the same, loaded after
  // the first tiles (the epilogue's row scales, 16 TM VGPRs, do not fit beside the loop's).
  constexpr bool SCALES_LDS = TOKEN && (PERSIST || (C.agpr_acc && VG && !SPLIT));
  static_assert(!SCALES_LDS || (BM <= T && BN <= T),
                "gemm_quant: per_token scales through LDS (groups, agpr_acc) need bm and bn at most the workgroup's threads");
  // (each lane writes one row scale and one column scale: T of each)
  const uint32_t sc_lds = SCALES_LDS ? pool.view(lds_layout{.rows = 1, .cols = 8 * T, .elem_bytes = 1}).base : 0;
  constexpr uint32_t tile_loads = VG ? (BM + BN) * BK / (16 * T) : (BM + BN) * BK / (4 * T);  // loads per lane and tile
  // VGPR copies: tile k + 1's chunks (one dwordx4 a lane and step) wait in VGPRs while tile k computes
  const tile_copy_opts vcopy{.threads = T, .vec_bytes = 16};
  constexpr int AH = static_cast<int>(C.ahead);
  // int8: only B's columns past K are zeros (masked); A's there are whatever follows (the next
  // row, or zeros past the V#), exact products with B's zeros. fp8 masks both (0x80 is NaN).
  constexpr bool A_TAIL = !I8;
  // SPLIT4 (the double-K path's two-buffer step, one tile ahead, per_tensor / per_token; see
  // SPLIT_AB): each operand's tile is copied as two halves of its rows, staged in sta[0] and
  // sta[1] (stb: B's; the second staging set is free with one tile ahead), so that slice 0's
  // stores of tile k + 1 and loads of tile k + 2 go in four parts, each after its own wait.
  constexpr uint32_t STEP_ROWS = T / (BK / 16);  // rows one dwordx4 step of the workgroup covers
  constexpr bool SPLIT4 = DK && !BLOCK && VG && C.lds_buffers == 2 && C.ahead == 1 && C.lds_ahead == 1 && KS >= 2 &&
                          (BM / 2) % STEP_ROWS == 0 && (BN / 2) % STEP_ROWS == 0 && (BM / 2) % 8 == 0 &&
                          (BN / 2) % 8 == 0;
  // rows [q rows / 2, (q + 1) rows / 2) of a tile view (the swizzle repeats every 8 rows)
  auto half_view = [&](const lds_view& v, int q) {
    lds_view h = v;
    h.L.rows = v.L.rows / 2;
    h.base = v.base + static_cast<uint32_t>(q) * (v.L.rows / 2) * BK;
    return h;
  };
  tile_staging sta[2] = {VG ? make_tile_staging(J, SPLIT4 ? half_view(As[0], 0) : As[0], row_bytes, vcopy, A_TAIL) : tile_staging{},
                         AH > 1   ? make_tile_staging(J, As[0], row_bytes, vcopy, A_TAIL)
                         : SPLIT4 ? make_tile_staging(J, half_view(As[0], 1), row_bytes, vcopy, A_TAIL)
                                  : tile_staging{}};
  tile_staging stb[2] = {VG ? make_tile_staging(J, SPLIT4 ? half_view(Bs[0], 0) : Bs[0], row_bytes, vcopy, true) : tile_staging{},
                         AH > 1   ? make_tile_staging(J, Bs[0], row_bytes, vcopy, true)
                         : SPLIT4 ? make_tile_staging(J, half_view(Bs[0], 1), row_bytes, vcopy, true)
                                  : tile_staging{}};
  // PERM (int8, VGPR copies, blocks in pairs, one 64-row group of B a staging step): B's rows
  // staged with each 64-row group interleaved (LDS row c < 32 holds the group's row 2c, row
  // 32 + c its row 2c + 1), so that a lane's blocks j, j + 1 (j even) hold columns 2c, 2c + 1 of
  // the same C rows: the epilogue packs the two into one dword store, no lane exchange
  constexpr bool PERM = I8 && VG && !SPLIT && !BLOCK && !PERSIST && !SCALES_LDS && TN % 2 == 0 && !SPLIT4 &&
                        STEP_ROWS % 64 == 0 && WTN % 64 == 0 &&
                        (TOKEN || !active_target::desc.features.has_permlane_swap);
  if constexpr (PERM)
    for (auto& st : stb)
      if (st.steps) {
        auto prow = J.vgpr<u32>();
        prow = tid / st.cpr;
        prow = (prow & ~63u) | ((prow & 31u) << 1) | ((prow >> 5) & 1u);
        st.goff = prow * row_bytes + st.col0;
      }
  // SPLIT4: the second halves' origins (the first's + half the rows)
  auto a_half = J.sgpr<u32>(), b_half = J.sgpr<u32>(), a_ld2 = J.sgpr<u32>(), b_ld2 = J.sgpr<u32>();
  if constexpr (SPLIT4) {
    a_half = K * (BM / 2);
    b_half = K * (BN / 2);
  }

  // TAIL_BRANCH (two LDS buffers, whole-tile steps: not SPLIT4's parts, not the double-K
  // READ_AHEAD paths): the loads leave the tail masks to a branch before the tile's stores,
  // taken only when its cols_valid (tile_cols, of its staging set) is below BK: whole tiles
  // spend no VALU on them (16x512x7168, 32x32: 32 v_and of ~140 instructions a step).
  constexpr bool TAIL_BRANCH = VG && S == 2 && !SPLIT4 && !(DK && !BLOCK && C.lds_ahead == 1);
  // TAIL_BRANCH1 (one LDS buffer, fp8 per_tensor / per_token): the same, the branch before
  // barrier 1 (int8, which masks only B, measured slower with the branch than with the masks)
  constexpr bool TAIL_BRANCH1 = VG && S == 1 && !BLOCK && !I8;
  auto tile_cols = J.sgpr<u32>(2);
  auto cols_valid = J.sgpr<u32>(), a_ld = J.sgpr<u32>(), b_ld = J.sgpr<u32>();
  // (tm: the tail masks made once, below; int8's first tiles' loads, issued before them, make
  // their own)
  // (VGPR copies: `part` 0 the whole tile; 1 the cursor and A's loads, 2 B's loads and the
  // cursor's step; SPLIT4's quarters: 3 the cursor and A's first half, 4 A's second, 5 B's first,
  // 6 B's second and the cursor's step)
  auto load_tile = [&](int buf, const tile_tail_masks* tm = nullptr, int part = 0) {
    if constexpr (VG) {  // (straight-line: interleavable; buf: the staging set)
      auto load_a = [&](tile_staging& st, const gpr<u32>& org) {
        if constexpr (A_TAIL) {
          if (tm) copy_tile_load(J, A, at(org), st, cols_valid, *tm);
          else copy_tile_load(J, A, at(org), st, cols_valid);
        } else {
          copy_tile_load(J, A, at(org), st);
        }
      };
      auto load_b = [&](tile_staging& st, const gpr<u32>& org) {
        if (tm) copy_tile_load(J, B, at(org), st, cols_valid, *tm);
        else copy_tile_load(J, B, at(org), st, cols_valid);
      };
      if (part == 0 || part == 1 || part == 3) {
        k_left = K - k_cur;
        J.s_max_i32(cols_valid, k_left, 0);
        cols_valid = select(loaded < k_tiles, cols_valid, 0u);
        if constexpr (TAIL_BRANCH || TAIL_BRANCH1) tile_cols[buf] = cols_valid;
        a_ld = a_org + k_cur;
        b_ld = b_org + k_cur;
        if constexpr (SPLIT4) {
          a_ld2 = a_ld + a_half;
          b_ld2 = b_ld + b_half;
        }
        load_a(SPLIT4 ? sta[0] : sta[buf], a_ld);
      }
      if constexpr (SPLIT4)
        if (part == 0 || part == 1 || part == 4) load_a(sta[1], a_ld2);
      if (part == 1 || part == 3 || part == 4) return;
      if (part != 6) load_b(SPLIT4 ? stb[0] : stb[buf], b_ld);
      if constexpr (SPLIT4)
        if (part != 5) load_b(stb[1], b_ld2);
      if (part == 5) return;
      k_cur = k_cur + BK;
      k_cur = select(k_cur >= k_end, gpr<u32>(k_cur - k_span), k_cur);
      loaded = loaded + 1u;
      if constexpr (PERSIST) {  // (selects: the loads interleave with MFMAs)
        a_org = select(loaded >= k_pad, na_org, a_org);
        b_org = select(loaded >= k_pad, nb_org, b_org);
        k_cur = select(loaded >= k_pad, nk_cur, k_cur);
        loaded = select(loaded >= k_pad, n_loaded, loaded);
      }
      return;
    }
    J.s_max_i32(cols_valid, k_left, 0);
    if constexpr (!C.any_k) {
      const tile_copy_opts o{.threads = T, .vec_bytes = 4, .direct = true, .wait = false};
      copy_tile(J, A, at(a_org), row_bytes, As[buf], o, cols_valid);
      copy_tile(J, B, at(b_org), row_bytes, Bs[buf], o, cols_valid);
    } else {
      // Byte by byte through VGPRs, 8 loads in flight a lane (the LDS writes wait for them).
      auto copy_bytes = [&](const buffer& G, const gpr<u32>& org, const lds_view& V, uint32_t rows) {
        constexpr uint32_t batch = 8;
        const uint32_t total = rows * BK;
        for (uint32_t e0 = 0; e0 < total; e0 += batch * T) {
          const uint32_t n = (total - e0) / T < batch ? (total - e0) / T : batch;  // (total % T == 0: checked)
          auto v = J.vgpr<u32>(static_cast<int>(n));
          auto r = J.vgpr<u32>(static_cast<int>(n)), c = J.vgpr<u32>(static_cast<int>(n));
          for (uint32_t q = 0; q < n; ++q) {
            auto e = J.vgpr<u32>();
            e = tid + (e0 + q * T);
            r[q] = e / BK;
            c[q] = e % BK;
            auto off = J.vgpr<u32>();
            // past the K tail: an offset past the V# loads zero (a v_cndmask, not an If: a
            // branch per byte load made ~400 blocks, most of these kernels' compile time)
            off = select(c[q] >= cols_valid, 0x80000000u, gpr<u32>(r[q] * row_bytes + c[q]));
            G.load(v[q], at(off) + at(org), {.width = narrow::u8});
          }
          J.s_waitcnt(vmcnt(0));
          for (uint32_t q = 0; q < n; ++q) V.store(v[q], r[q], c[q], {.width = narrow::u8});
        }
      };
      copy_bytes(A, a_org, As[buf], BM);
      copy_bytes(B, b_org, Bs[buf], BN);
    }
    a_org = a_org + BK;
    b_org = b_org + BK;
    k_left = k_left - BK;
  };

  // VGPR copies: the first `ahead` tiles' loads go out before the rest of the setup (LDS
  // addresses, accumulators set to zero, scale offsets: ~100-200 instructions a wave, which
  // otherwise delayed the first tile's latency; no other VMEM instruction comes before them)
  // The K walk's tiles start at multiples of BK: cols_valid is BK or more, 0, or K % BK, whose
  // word masks (the same for every staging: one layout of BK columns) are made once: int8 after
  // the first tiles' loads (only B's masked: its own masks after A's loads delay less), fp8
  // before them (A and B masked: their own masks would come before each's loads).
  const tile_tail_masks tail = [&] {
    if constexpr (!VG) {
      return tile_tail_masks{};
    } else {
      constexpr bool DEFERRED = TAIL_BRANCH || TAIL_BRANCH1;
      if constexpr (!A_TAIL)
        for (int i = 0; i < AH; ++i) load_tile(i);
      // (deferred masks: the loads read only the layout, so the masks' VALU goes after them)
      tile_tail_masks layout;
      layout.cols = stb[0].view.L.cols;
      layout.cpr = stb[0].cpr;
      layout.vel = stb[0].vel;
      layout.words = stb[0].words;
      layout.deferred = true;
      if constexpr (A_TAIL && DEFERRED)
        for (int i = 0; i < AH; ++i) load_tile(i, &layout);
      auto k_tail = J.sgpr<u32>();
      k_tail = K % BK;
      tile_tail_masks t = make_tile_tail_masks(J, stb[0], k_tail);
      t.deferred = DEFERRED;
      if constexpr (A_TAIL && !DEFERRED)
        for (int i = 0; i < AH; ++i) load_tile(i, &t);
      return t;
    }
  }();
  make_late_buffers();

  // TAIL_BRANCH: the staged tile of set `set` (its loads complete) masked when it is the tail
  auto mask_tail = [&](int set) {
    if constexpr (TAIL_BRANCH || TAIL_BRANCH1)
      J.If(tile_cols[set] < BK, [&] {
        if constexpr (A_TAIL) copy_tile_mask_tail(J, sta[set], tail);
        copy_tile_mask_tail(J, stb[set], tail);
      });
  };

  // This lane's LDS read addresses: row (wave block + the atom's lane row), byte 16 * (k group)
  // of each 32-byte slice (one read: the k of two MFMAs).
  constexpr const mfma_atom& AT = mfma_atom_of(I8 ? "v_mfma_i32_32x32x16_i8" : "v_mfma_f32_32x32x16_fp8_fp8");
  lds_addr a_addr[KS * SL], b_addr[KS * SL];
  const detail::gemm_lane_place place =
      detail::gemm_lane_fragments(J, AT, tid, C.wm, WTM, WTN, 16, As[0], Bs[0], a_addr, b_addr);
  auto lane = place.lane, wave = place.wave, a_row = place.a_row, b_row = place.b_row;
  auto a_d = [&](int buf) { return static_cast<int64_t>(As[buf].base) - As[0].base; };
  auto b_d = [&](int buf) { return static_cast<int64_t>(Bs[buf].base) - Bs[0].base; };

  // The first row of this lane's accumulator rows (C row 32i + 8g + 4(lane/32) + r%4 + this,
  // g = r/4): 4 consecutive rows per g, one dwordx4 of row scales.
  // block128 computes C^T instead (B's fragment as the MFMA's A operand): lane l holds C row
  // 32i + l%32 (+ m0 + the wave's rows: mrow) at columns 32j + 8g + 4(l/32) + r%4, so one A
  // scale a lane and 32-row block scales all 16 registers of a block (the epilogue turns the
  // blocks around through LDS).
  auto crow = J.vgpr<u32>(), mrow = J.vgpr<u32>();
  crow = a_row - (lane & AT.a_row().mask) + m0 + ((lane >> AT.c_row().shift) * AT.c_row().stride);
  if constexpr (BLOCK) mrow = a_row + m0;
  // per_token: the row and column scales the epilogue multiplies by (VGPR copies: loaded here,
  // behind the first tiles, their latency hidden by the loop's; they were ~650 cycles of the
  // epilogue)
  auto rs = J.vgpr<f32>(TOKEN ? 4 * TM : 1, TOKEN ? 4 : 1);  // row scales
  auto cs = J.vgpr<f32>(TOKEN ? TN : 1).aligned(PERM && TOKEN ? 2 : 1);  // column scales (PERM: pairs)
  // (with the VGPR copies early, unless they and the accumulators pass 160 VGPRs: 256x256's
  // 64 + 2 scale VGPRs leave the staging and fragments too few; then in the epilogue)
  constexpr bool SCALES_EARLY = TOKEN && VG && !SCALES_LDS && TM * TN * 16 + 16 * TM + TN <= 160;
  // EARLY_RS0 (int8, the paired epilogue below, the scales too many to load early: 256x256's): the
  // column scales and block row 0's row scales (rs0) loaded here, the other row blocks' at the
  // epilogue's start, their latency under block row 0's conversions
  constexpr bool EARLY_RS0 = I8 && TOKEN && VG && !SCALES_LDS && !SCALES_EARLY && !SPLIT && !C.agpr_acc && TM > 1 &&
                             TN % 2 == 0 && 16 * TN <= 63 && !active_target::desc.features.has_permlane_swap &&
                             TM * TN * 16 + 16 + TN <= 160;
  // per_tensor: the two scales (SGPRs) loaded here too, their latency under the loop's, not
  // the epilogue's (with the VGPR copies, one slice read ahead: the loop's LDS waits are
  // lgkmcnt(0), which an SMEM load out of order in the count cannot fool)
  constexpr bool TENSOR_EARLY = !BLOCK && !TOKEN && VG && C.lds_ahead == 1;
  auto ts_a = J.sgpr<f32>(), ts_b = J.sgpr<f32>();
  if constexpr (TENSOR_EARLY) {
    J.s_buffer_load_dword(ts_a, SA.desc, 0);
    J.s_buffer_load_dword(ts_b, SB.desc, 0);
  }
  constexpr int token_scale_loads = SCALES_EARLY ? 4 * TM + TN : EARLY_RS0 ? 4 + TN : 0;
  auto rs0 = J.vgpr<f32>(EARLY_RS0 ? 4 : 1, EARLY_RS0 ? 4 : 1);
  auto load_token_scales = [&](int i_from, bool cols) {
    if (cols)
      for (int j = 0; j < TN; ++j) {  // (past N: zeros)
        if constexpr (PERM) SB.load(cs[j], at(gpr<u32>((b_row + (lane & 31u) + (n0 + 64 * (j / 2) + j % 2)) << 2)));
        else SB.load(cs[j], at(gpr<u32>((b_row + (n0 + 32 * j)) << 2)));
      }
    auto sa_row = J.vgpr<u32>();
    sa_row = crow << 2;
    for (int i = i_from; i < (EARLY_RS0 && cols ? 1 : TM); ++i)
      for (int g = 0; g < 4; ++g) SA.load(EARLY_RS0 && i == 0 ? rs0[g] : rs[4 * i + g], at(sa_row) + (32 * i + 8 * g) * 4);
  };
  if constexpr (SCALES_EARLY || EARLY_RS0) load_token_scales(0, true);
  auto psr = J.vgpr<f32>(), psc = J.vgpr<f32>();
  auto prefetch_scales = [&](const gpr<u32>& m, const gpr<u32>& n) {  // (rows and columns past M, N: zeros)
    SA.load(psr, at(gpr<u32>((tid + m) << 2)));
    SB.load(psc, at(gpr<u32>((tid + n) << 2)));
  };
  if constexpr (SCALES_LDS) prefetch_scales(m0, n0);
  constexpr dtype acc_t = I8 ? i32 : f32;
  auto acc = C.agpr_acc ? J.agpr<acc_t>(TM * TN, 16) : J.vgpr<acc_t>(TM * TN, 16);
  if constexpr (I8) acc.fill(0);
  else acc.fill(0.0f);
  // block128: the K block's products (their own registers; the block's first MFMA adds 0),
  // PS sets of them. VGPR copies with one tile a block (DEFER): block k's scaled adds run in
  // step k + 1, among its MFMAs (two sets), or before the MFMAs of its first slice (one).
  constexpr int PS = static_cast<int>(detail::gemm_quant_part_sets(C));
  constexpr bool DEFER = BLOCK && VG && TB == 1;
  auto part = J.vgpr<f32>(BLOCK ? PS * TM * TN : 1, BLOCK ? 16 : 1);
  // (the first step adds set PS - 1 times scl: zeros, before any block)
  if constexpr (DEFER)
    for (int b = 0; b < TM * TN; ++b) part[(PS - 1) * TM * TN + b].fill(0.0f);
  // fragment sets: the slice computing and the lds_ahead slices being read
  constexpr int RA = static_cast<int>(C.lds_ahead), FS = RA + 1;
  auto fa = J.vgpr<u32>(FS * TM, 4 * SL), fb = J.vgpr<u32>(FS * TN, 4 * SL);
  // (ops: 1 A's fragments, 2 B's, 3 both)
  auto read_slice = [&](int buf, int p, int ops = 3) {
    const int s = p % FS;
    if constexpr (DK) {
      // fp8's lane group g holds k 16g..16g+15 and 32+16g..32+16g+15 of its 64 (mfma_ab_layout_f8):
      // the lane's 16 bytes of the slice's two 32-byte parts; i8's k 16g..16g+15 of its 32: one
      if (ops & 1)
        for (int i = 0; i < TM; ++i)
          for (int q = 0; q < SL; ++q)
            As[buf].load(fa[s * TM + i].slice(4 * q, 4), detail::lds_moved(a_addr[SL * p + q], a_d(buf)), 32 * i, 0);
      if (ops & 2)
        for (int j = 0; j < TN; ++j)
          for (int q = 0; q < SL; ++q)
            Bs[buf].load(fb[s * TN + j].slice(4 * q, 4), detail::lds_moved(b_addr[SL * p + q], b_d(buf)), 32 * j, 0);
      return;
    }
    for (int i = 0; i < TM; ++i) As[buf].load(fa[s * TM + i], detail::lds_moved(a_addr[p], a_d(buf)), 32 * i, 0);
    for (int j = 0; j < TN; ++j) Bs[buf].load(fb[s * TN + j], detail::lds_moved(b_addr[p], b_d(buf)), 32 * j, 0);
  };
  constexpr const mfma_atom* DKA = DK ? find_mfma_atom(detail::gemm_quant_double_k_mfma(C.type)) : nullptr;
  // MFMAs [from, to) of slice p: half h = e / (TM * TN) (the k of bytes 8h..8h+7), then i, j
  // (the double-K MFMA: i, j)
  auto mfma_part = [&](int p, int from, int to, bool block_start, int ps) {
    const int s = p % FS;
    if constexpr (DK) {
      for (int e = from; e < to; ++e) {
        const int i = e / TN, j = e % TN;
        if constexpr (BLOCK) {
          auto pt = part[(ps * TM + i) * TN + j];
          if (block_start && p == 0) mfma_run(J, *DKA, pt, fb[s * TN + j], fa[s * TM + i], 0);
          else mfma_run(J, *DKA, pt, fb[s * TN + j], fa[s * TM + i], pt);
        } else {
          mfma_run(J, *DKA, acc[i * TN + j], fa[s * TM + i], fb[s * TN + j], acc[i * TN + j]);
        }
      }
      return;
    }
    for (int e = from; e < to; ++e) {
      const int h = e / (TM * TN), i = e % (TM * TN) / TN, j = e % TN;
      auto x = fa[s * TM + i].slice(2 * h, 2), y = fb[s * TN + j].slice(2 * h, 2);
      if constexpr (I8) {
        J.v_mfma_i32_32x32x16_i8(acc[i * TN + j], x, y, acc[i * TN + j]);
      } else if constexpr (BLOCK) {
        auto pt = part[(ps * TM + i) * TN + j];
        if (block_start && p == 0 && h == 0) J.v_mfma_f32_32x32x16_fp8_fp8(pt, y, x, 0);
        else J.v_mfma_f32_32x32x16_fp8_fp8(pt, y, x, pt);
      } else {
        J.v_mfma_f32_32x32x16_fp8_fp8(acc[i * TN + j], x, y, acc[i * TN + j]);
      }
    }
  };

  // halves [h_from, h_to) of slice p's MFMAs
  auto mfma_slice = [&](int p, bool block_start, int h_from = 0, int h_to = 2, int ps = 0) {
    mfma_part(p, h_from * MPS / 2, h_to * MPS / 2, block_start, ps);
  };

  // block128 state: the K block of the tile being computed, its A scales (row mrow + 32i: one
  // dword a lane and 32-row block) and B scale; offsets of sa[kb][m0 ...] and sb[n0 / 128][kb];
  // scl[2i] = scl[2i + 1] = sa * sb, what the products of block row i are scaled by. VGPR copies with one tile
  // a block: SS = 2 sets of sa and sb, block k + 1's loaded during block k (their latency, an
  // L2 miss, was a block's MFMAs).
  // (VGPR copies: kb wraps with the K walk, blocks_done counts the blocks computed)
  auto kb = J.sgpr<u32>(), sa_off = J.sgpr<u32>(), sb_off = J.sgpr<u32>(), sb_row = J.sgpr<u32>();
  auto blocks_done = J.sgpr<u32>(), kb_begin = J.sgpr<u32>(), kb_end = J.sgpr<u32>(), my_blocks = J.sgpr<u32>();
  constexpr int SS = DEFER ? 2 : 1;
  auto sbv = J.sgpr<f32>(SS);
  auto sav = J.vgpr<f32>(BLOCK ? SS * TM : 1), scl = J.vgpr<f32>(BLOCK ? 2 * TM : 2).aligned(2);
  if constexpr (DEFER) scl.fill(0.0f);
  auto sa_lane = J.vgpr<u32>();
  if constexpr (BLOCK) {
    if constexpr (VG) {
      // this workgroup's blocks [kb_begin, kb_end) (split K: a part of them)
      kb_begin = k_begin >> 7;
      my_blocks = k_tiles / static_cast<uint32_t>(TB);
      kb_end = kb_begin + my_blocks;
      if constexpr (ROTATE) {
        kb = kb_begin + first_unit;  // (UNIT = 128 = one block)
      } else {
        kb = kb_begin;
      }
      blocks_done = 0u;
    } else {
      kb = 0u;
    }
    sa_off = 0u;
    sb_row = ((n0 >> 7) * k_blocks) << 2;
    sa_lane = mrow << 2;
  }
  auto load_block_scales = [&](int set = 0) {
    if constexpr (VG) {
      // past the last block (the loop's zero tiles) both scales read 0: no 0 * inf
      sa_off = select(blocks_done >= my_blocks, 0x80000000u, gpr<u32>(kb * (M << 2)));
      for (int i = 0; i < TM; ++i) SA.load(sav[set * TM + i], at(sa_lane) + at(sa_off) + 32 * i * 4);
      sb_off = select(blocks_done >= my_blocks, 0x80000000u, gpr<u32>(sb_row + (kb << 2)));
      J.s_buffer_load_dword(sbv[set], SB.desc, sb_off);
      kb = kb + 1u;
      kb = select(kb >= kb_end, kb_begin, kb);
      blocks_done = blocks_done + 1u;
      return;
    }
    for (int i = 0; i < TM; ++i) SA.load(sav[i], at(sa_lane) + at(sa_off) + 32 * i * 4);
    // A step past the last K block (the unrolled loop's zero tiles) reads no B scale: 0.
    // (a select, not a branch: the VGPR path interleaves this with MFMAs)
    sb_off = select(kb >= k_blocks, 0x80000000u, gpr<u32>(sb_row + (kb << 2)));
    J.s_buffer_load_dword(sbv[0], SB.desc, sb_off);
    sa_off = sa_off + (M << 2);
    kb = kb + 1u;
  };
  // The block's scales (its loads complete) into scl; the scaled adds of product set ps, part
  // c of n (the adds split over n interleaved streams).
  auto block_scales = [&](int set = 0) {
    for (int i = 0; i < TM; ++i)
      for (int h = 0; h < 2; ++h) scl[2 * i + h] = sav[set * TM + i] * sbv[set];
  };
  constexpr int PE = TM * TN * 16;  // a product set's registers
  // (waves of one 32x32 block: pairs of accumulators by v_pk_fma_f32, two FMAs an issue, as
  // v_fmac_f32 one: the VALU of the K loop's step bounds these small split-K tiles. Larger wave
  // tiles keep v_fmac_f32, which co-issues with their MFMAs where packed FP32 does not
  // (docs/timing-model.md, MFMA: measured by pyhip on gfx950; bench_kernel_gemm_fp8
  // 1024x3072x7168, 128x128 of 64x32 waves: 59.07 -> 61.56 us packed))
  constexpr bool PACKED_ADDS = TM * TN == 1;
  auto scaled_adds = [&](int ps, int c = 0, int n = 1) {
    const int to = (c + 1) * PE / n;
    for (int e = c * PE / n; e < to;) {
      const int b = e / 16, r = e % 16;
      if (PACKED_ADDS && r % 2 == 0 && e + 1 < to) {
        J.v_pk_fma_f32(acc[b].slice(r, 2), part[ps * TM * TN + b].slice(r, 2), scl.slice(2 * (b / TN), 2),
                       acc[b].slice(r, 2));
        e += 2;
      } else {
        J.v_fmac_f32(acc[b][r], part[ps * TM * TN + b][r], scl[2 * (b / TN)]);
        ++e;
      }
    }
  };
  auto apply_block_scales = [&] {
    block_scales();
    scaled_adds(0);
  };

  // The oldest tile in flight visible to every wave; the `ahead` younger tiles stay in flight.
  auto tile_visible = [&](uint32_t ahead) {
    if constexpr (C.any_k) J.s_waitcnt(lgkmcnt(0));
    else J.s_waitcnt(vmcnt(static_cast<int>(ahead * tile_loads)));
    J.s_barrier();
  };
  auto step = [&](int buf) {
    const bool block_start = buf % TB == 0, block_end = buf % TB == TB - 1;
    if constexpr (BLOCK)
      if (block_start) load_block_scales();
    load_tile((buf + S - 1) % S);
    read_slice(buf, 0);
    for (int p = 0; p < KS; ++p) {
      J.s_waitcnt(lgkmcnt(0));
      if (p + 1 < KS) interleave(J, [&] { mfma_slice(p, block_start); }, [&] { read_slice(buf, p + 1); });
      else mfma_slice(p, block_start);
    }
    if constexpr (BLOCK)
      if (block_end) {
        // the scales (issued before the tile loads of the block's TB steps; any_k waited for all)
        if constexpr (!C.any_k) J.s_waitcnt(vmcnt(static_cast<int>(TB * tile_loads)));
        apply_block_scales();
      }
    tile_visible(S - 2);
  };

  // VGPR copies, the end of block k (step parity `parity`): its scales complete (issued before
  // the tile loads of the block's TB steps; two scale sets: in step k - 1, then that step's tile
  // loads, block k + 1's scales and this step's tile loads), then its scaled adds (DEFER: only
  // scl here, the adds in the next step)
  auto block_end_scales = [&](int parity) {
    J.s_waitcnt(vmcnt(static_cast<int>(SS > 1 ? 2 * tile_loads + TM : TB * tile_loads)));
    J.s_waitcnt(lgkmcnt(0));
    if constexpr (DEFER) block_scales(parity);
    else apply_block_scales();
  };
  // A slice's MFMAs and other work merged; DEFER with one product set: slice 0 first takes the
  // previous block's adds, before the MFMAs that overwrite its products.
  auto slice_interleave = [&](int p, auto mfmas, auto other) {
    if constexpr (DEFER && PS == 1)
      if (p == 0) {
        interleave(J, [&] { scaled_adds(0); }, mfmas, other);
        return;
      }
    interleave(J, mfmas, other);
  };

  // VGPR copies: step k computes on LDS buffer k % 2 (tile k, its slice 0 read first); tile
  // k + 1 waits in VGPRs. Among the MFMAs of slice 0 the interleaver places the reads of slice
  // 1, the block scales (block128, at a block's first step), the LDS stores of tile k + 1 into
  // the other buffer (read in step k - 1, freed by its barrier) and the loads of tile k + 2.
  // READ_AHEAD (the double-K MFMA, per_tensor / per_token, one slice read ahead, two or more
  // slices): the step's barrier stands among its last slice's MFMAs (its fragments are in
  // registers) and the rest of them cover the reads of the next tile's slice 0, as in
  // gemm_bf16: a step starts with its operands read (one wave a SIMD has no other wave to fill
  // that wait).
  constexpr bool READ_AHEAD = DK && !BLOCK && RA == 1 && KS >= 2;
  // SPLIT_AB (READ_AHEAD, one tile ahead): slice 0 waits for tile k + 1's A loads only, stores
  // them and issues tile k + 2's A loads among its first half of MFMAs (then slice 1's reads),
  // then waits for B's and does the same with B: the address path, which moves a 256x256x128
  // tile in about the MFMAs' time, never drains (it did between the last load of tile k + 1 and
  // the first of k + 2).
  constexpr bool SPLIT_AB = READ_AHEAD && AH == 1;
  auto step_vgpr = [&](int buf) {
    const bool block_start = buf % TB == 0, block_end = buf % TB == TB - 1;
    const int set = AH > 1 ? 1 - buf : 0;  // tile k + 1's staging set
    const int ps = PS > 1 ? buf : 0;        // block128: the product set this step fills
    if constexpr (!READ_AHEAD)
      for (int p = 0; p < RA && p < KS; ++p) read_slice(buf, p);
    // tile k + 1 in VGPRs (and older scale loads; two scale sets: this block's, issued in step
    // k - 1 right before tile k + 2, may stay in flight with it)
    if constexpr (SPLIT4) J.s_waitcnt(vmcnt(static_cast<int>(tile_loads - sta[0].loads())));  // (A's first half)
    else if constexpr (SPLIT_AB) J.s_waitcnt(vmcnt(static_cast<int>(stb[0].loads())));  // (A's, issued first)
    else J.s_waitcnt(vmcnt((AH - 1) * static_cast<int>(tile_loads + (SS > 1 ? TM : 0))));
    mask_tail(set);
    // the slices' other work spread out: slice 0 the scales and LDS stores, slice 1 (block128;
    // else 0) the next tile's loads, the last slices (two sets) the previous block's scaled adds
    constexpr int load_at = BLOCK && KS > 1 ? 1 : 0, adds_from = KS > 2 ? 2 : 0;
    for (int p = 0; p < KS; ++p) {
      const int s = p % FS;
      if constexpr (RA == 1) J.s_waitcnt(lgkmcnt(0));
      else J.wait_for(fa.slice(s * TM, TM), fb.slice(s * TN, TN));  // (slice p + 1's reads stay in flight)
      if constexpr (SPLIT4)
        if (p == 0) {
          // quarter q: wait for part q of tile k + 1 (the parts after it and tile k + 2's parts
          // before it stay in flight), store it, load its part of tile k + 2
          tile_staging* parts[4] = {&sta[0], &sta[1], &stb[0], &stb[1]};
          const lds_view dst[4] = {half_view(As[1 - buf], 0), half_view(As[1 - buf], 1), half_view(Bs[1 - buf], 0),
                                   half_view(Bs[1 - buf], 1)};
          for (int q = 0; q < 4; ++q) {
            if (q > 0) J.s_waitcnt(vmcnt(static_cast<int>(tile_loads - parts[q]->loads())));
            interleave(J, [&] { mfma_part(0, q * MPS / 4, (q + 1) * MPS / 4, block_start, ps); },
                       [&] {
                         copy_tile_store(J, *parts[q], dst[q]);
                         load_tile(0, &tail, 3 + q);
                         // slice 1's A fragments here, its B's after the next wait: 16 LDS
                         // ops outstanding would make that vmcnt wait (lgkmcnt 15) wait for LDS
                         if (q == 1) read_slice(buf, 1, 1);
                         if (q == 2) read_slice(buf, 1, 2);
                       });
          }
          continue;
        }
      if constexpr (SPLIT_AB && !SPLIT4)
        if (p == 0) {
          interleave(J, [&] { mfma_slice(0, block_start, 0, 1, ps); },
                     [&] {
                       copy_tile_store(J, sta[set], As[1 - buf]);
                       load_tile(0, &tail, 1);
                       read_slice(buf, 1);
                     });
          J.s_waitcnt(vmcnt(static_cast<int>(sta[0].loads())));  // (tile k + 1's B; k + 2's A in flight)
          interleave(J, [&] { mfma_slice(0, block_start, 1, 2, ps); },
                     [&] {
                       copy_tile_store(J, stb[set], Bs[1 - buf]);
                       load_tile(0, &tail, 2);
                     });
          continue;
        }
      auto mfmas = [&] { mfma_slice(p, block_start, 0, READ_AHEAD && p + 1 == KS ? 1 : 2, ps); };
      auto other = [&] {
        if (p + RA < KS) read_slice(buf, p + RA);
        if (p == 0) {
          if constexpr (BLOCK)
            if (block_start) load_block_scales(SS > 1 ? 1 - buf : 0);
          copy_tile_store(J, sta[set], As[1 - buf]);
          copy_tile_store(J, stb[set], Bs[1 - buf]);
        }
        if (p == load_at) load_tile(AH > 1 ? 1 - buf : 0, &tail);  // (set; read as a constant here: clang-22)
        if constexpr (PS > 1)  // the previous block's
          if (p >= adds_from) scaled_adds(1 - buf, p - adds_from, KS - adds_from);
      };
      slice_interleave(p, mfmas, other);
    }
    if constexpr (BLOCK)
      if (block_end) block_end_scales(buf);
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    if constexpr (READ_AHEAD)
      interleave(J, [&] { mfma_slice(KS - 1, block_start, 1, 2, ps); }, [&] { read_slice(1 - buf, 0); });
  };

  // One LDS buffer (tile k in it, its slice 0 read; tile k + 1 in VGPRs): the slices' MFMAs
  // with the next slice's reads interleaved; after the last slice's reads a barrier frees the
  // buffer; the stores of tile k + 1 and the loads of tile k + 1 + ahead run among the first
  // half of the last slice's MFMAs, a barrier makes tile k + 1 visible, and the reads of its
  // slice 0 run among the second half.
  // 8 waves (one workgroup a CU: its waves stop at the same barriers, no other workgroup's MFMAs
  // fill the matrix cores then): the wait for tile k + 1's loads and their column-tail masks
  // (copy_tile_prepare) among the MFMAs of the second-to-last slice, the stores first after
  // barrier 1 (one MFMA before them), 3/4 of the last slice's MFMAs before barrier 2, as
  // gemm_bf16's one-buffer step. With two workgroups a CU (4 waves) the other workgroup's MFMAs
  // cover a barrier, and the wait after barrier 1 measured faster (bench_kernel_gemm_fp8,
  // 4096x3072x7168).
  // (int8 tiles of 4 waves whose LDS holds one workgroup a CU, 128x160: EARLY too)
  constexpr bool EARLY = C.wm * C.wn >= 8 || C.agpr_acc || (I8 && 2 * C.lds_bytes() > active_target::desc.lds_bytes);
  // EARLY: LATE MFMAs of the second-to-last slice wait past barrier 1 (its fragments stay in
  // their registers until slice 0 of the next tile is read, after barrier 2), so that between
  // the barriers, where the CU's LDS stores of the next tile drain (48 KiB for 256x128x128: ~540
  // cycles), each wave has LATE + 2 TM TN - (those left after barrier 2) MFMAs to issue.
  constexpr int LATE = EARLY && KS > 1 ? MPS / 2 : 0;
  constexpr int POST = LATE + MPS;  // MFMAs after barrier 1
  // of them, after barrier 2: up to 3 (two waves a SIMD: 192 cycles of MFMAs over slice 0's read
  // latency); none when the one MFMA of a double-K 32x32 wave block issues before the stores
  // SOLO (AGPR accumulators, 4 waves: one wave a SIMD, no other wave's MFMAs between its own):
  // the stores interleaved with the MFMAs after barrier 1 too, and 8 MFMAs (256 cycles) over
  // slice 0's reads after barrier 2
  constexpr bool SOLO = EARLY && C.agpr_acc && C.wm * C.wn <= 4;
  constexpr int AFTER = SOLO ? (POST / 4 < 8 ? POST / 4 : 8)
                        : POST < 2 ? 0 : POST / 4 < 1 ? 1 : POST / 4 > 3 ? 3 : POST / 4;
  constexpr int CUT = POST - AFTER;
  // MFMA e of the post-barrier-1 run: the late ones of slice KS - 2, then slice KS - 1's
  auto mfma_post = [&](int from, int to, bool block_start, int ps) {
    for (int e = from; e < to; ++e) {
      if (e < LATE) mfma_part(KS - 2, MPS - LATE + e, MPS - LATE + e + 1, block_start, ps);
      else mfma_part(KS - 1, e - LATE, e - LATE + 1, block_start, ps);
    }
  };
  // PEEL (no block scales, one K range): the K walk's last trip unrolled after the loop: its
  // first step loads no tile (the ones it would load are past the end), its second only computes
  // (no wait for tiles, no stores, no barriers, no reads of a next tile), so the epilogue neither
  // waits for loads of tiles past the end nor for the other waves at two barriers.
  constexpr bool PEEL = VG && S == 1 && !BLOCK && !SPLIT && !PERSIST;
  auto step_last = [&] {
    for (int p = 0; p < KS; ++p) {
      J.s_waitcnt(lgkmcnt(0));
      if (p + 1 < KS) interleave(J, [&] { mfma_part(p, 0, MPS, false, 0); }, [&] { read_slice(0, p + 1); });
      else mfma_part(p, 0, MPS, false, 0);
    }
  };
  auto step_single = [&](int parity, bool no_load = false) {
    const bool block_start = parity % TB == 0, block_end = parity % TB == TB - 1;
    const int set = AH > 1 ? 1 - parity : 0;  // tile k + 1's staging set
    const int ps = PS > 1 ? parity : 0;        // block128: the product set this step fills
    // tile k + 1 in VGPRs (the block's scale loads, issued after it, may stay in flight)
    const int tile_wait = (AH - 1) * static_cast<int>(tile_loads) + (BLOCK && block_start ? TM : 0);
    auto load_next = [&] {
      if (!no_load) load_tile(set, &tail);
    };
    for (int p = 0; p + 1 < KS; ++p) {
      J.s_waitcnt(lgkmcnt(0));
      auto mfmas = [&] { mfma_part(p, 0, MPS - (p + 2 == KS ? LATE : 0), block_start, ps); };
      auto other = [&] {
        read_slice(0, p + 1);
        if constexpr (BLOCK)
          if (p == 0 && block_start) load_block_scales(SS > 1 ? 1 - parity : 0);
        if constexpr (PS > 1) scaled_adds(1 - parity, p, KS - 1);  // the previous block's
        if (EARLY && p + 2 == KS) {  // (after this step's scale loads: tile_wait counts them)
          J.s_waitcnt(vmcnt(tile_wait));
          if constexpr (!TAIL_BRANCH1) {
            copy_tile_prepare(J, sta[set]);
            copy_tile_prepare(J, stb[set]);
          }
        }
      };
      slice_interleave(p, mfmas, other);
    }
    if constexpr (EARLY) mask_tail(set);
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    if constexpr (EARLY) {
      if constexpr (SOLO) {
        interleave(J, [&] { mfma_post(0, CUT, block_start, ps); },
                   [&] {
                     copy_tile_store(J, sta[set], As[0]);
                     copy_tile_store(J, stb[set], Bs[0]);
                     load_next();
                   });
      } else {
        mfma_post(0, 1, block_start, ps);  // (the matrix core busy while the stores issue)
        copy_tile_store(J, sta[set], As[0]);
        copy_tile_store(J, stb[set], Bs[0]);
        interleave(J, [&] { mfma_post(1, CUT, block_start, ps); }, load_next);
      }
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      interleave(J, [&] { mfma_post(CUT, POST, block_start, ps); }, [&] { read_slice(0, 0); });
    } else {
      J.s_waitcnt(vmcnt(tile_wait));
      mask_tail(set);
      interleave(J, [&] { mfma_slice(KS - 1, block_start, 0, 1, ps); },
                 [&] {
                   copy_tile_store(J, sta[set], As[0]);
                   copy_tile_store(J, stb[set], Bs[0]);
                   load_next();
                 });
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      interleave(J, [&] { mfma_slice(KS - 1, block_start, 1, 2, ps); }, [&] { read_slice(0, 0); });
    }
    if constexpr (BLOCK)
      if (block_end) block_end_scales(parity);
  };

  // VGPR copies: tile 0 stored into LDS buffer 0, the next tiles loading
  auto vgpr_prologue = [&] {  // (the first `ahead` tiles' loads went out after the staging setup,
                              // then the per_token scales)
    // (two scale sets: the first block's, after the first tiles' loads (in the order each step
    // keeps: step_vgpr's first wait counts on it) and before the wait for tile 0, which then
    // covers the B scale's s_buffer_load: an L2 miss, ~650 cycles, that the lgkmcnt wait for
    // tile 0's LDS stores below waited for after the tile's own latency)
    if constexpr (SS > 1) load_block_scales(0);
    if constexpr (SPLIT4) {
      // tile 0 stored a quarter at a time as its loads arrive, each quarter's part of tile 1
      // loaded right after (the address path kept busy through tile 0's latency); the parts of
      // tile 0 after q, the per-token scales and tile 1's parts issued are the younger loads
      tile_staging* parts[4] = {&sta[0], &sta[1], &stb[0], &stb[1]};
      const lds_view dst[4] = {half_view(As[0], 0), half_view(As[0], 1), half_view(Bs[0], 0), half_view(Bs[0], 1)};
      int younger = static_cast<int>(token_scale_loads);
      for (int q = 1; q < 4; ++q) younger += static_cast<int>(parts[q]->loads());
      for (int q = 0; q < 4; ++q) {
        J.s_waitcnt(vmcnt(younger));
        copy_tile_store(J, *parts[q], dst[q]);
        load_tile(0, &tail, 3 + q);
        if (q + 1 < 4) younger += static_cast<int>(parts[q]->loads()) - static_cast<int>(parts[q + 1]->loads());
      }
      J.s_waitcnt(lgkmcnt(0));
      J.s_barrier();
      return;
    }
    J.s_waitcnt(vmcnt((AH - 1) * static_cast<int>(tile_loads) + token_scale_loads + (SS > 1 ? TM : 0)));
    {
      mask_tail(0);
      copy_tile_store(J, sta[0], As[0]);
      copy_tile_store(J, stb[0], Bs[0]);
    }
    load_tile(0, &tail);
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
  };
  // VGPR copies: two steps a trip (the parity a compile-time choice; an odd tile count ends with
  // a step on a zero tile: its loads are past K)
  if constexpr (PEEL) {
    vgpr_prologue();
    read_slice(0, 0);
    auto left = J.sgpr<u32>();  // tiles left (an odd count: the last trip's second step computes a zero tile)
    left = k_tiles;
    J.While([&] { return left > 2u; },
            [&] {
              step_single(0);
              step_single(1);
              left = left - 2u;
            });
    // PERM, 8 waves: the last two steps at s_setprio 2, the epilogues below it, so that the
    // older wave's epilogue takes the VALU turns the younger's last MFMAs leave (it delayed them)
    if constexpr (C.wm * C.wn == 8 && PERM) J.s_setprio(2);
    step_single(0, true);
    step_last();
    // 8 waves, two a SIMD: the younger (waves 4..7), whose MFMAs end last (the older wins the
    // issue ties), first at issue in the epilogue, where the older's epilogue has slack
    if constexpr (C.wm * C.wn == 8) {
      auto wave_s = J.sgpr<u32>();
      J.v_readfirstlane_b32(wave_s, wave);
      if constexpr (PERM) J.s_setprio(0);
      J.If(wave_s >= 4u, [&] { J.s_setprio(1); });
    }
  } else if constexpr (VG && S == 1) {
    detail::gemm_k_trips(
        J, k_tiles, 2,
        [&] {
          vgpr_prologue();
          read_slice(0, 0);
        },
        step_single);
  } else if constexpr (PERSIST) {
    // (the tile loop below, after the epilogue it runs a tile)
  } else if constexpr (VG && READ_AHEAD) {
    detail::gemm_k_trips(
        J, k_tiles, 2,
        [&] {
          vgpr_prologue();
          read_slice(0, 0);
        },
        step_vgpr);
  } else if constexpr (VG) {
    detail::gemm_k_trips(J, k_tiles, 2, vgpr_prologue, step_vgpr);
  } else {
    detail::gemm_k_loop(J, k_tiles, S, load_tile, tile_visible, step);
  }
  if constexpr (DEFER) scaled_adds(PS - 1);  // the last block's (a trip's second step fills set PS - 1)

  // block128: the accumulators hold C^T (lane l: C[32i + l%32][32j + 8(r/4) + 4(l/32) + r%4]);
  // each wave turns its blocks around through its own 4 KiB of the (now free) tile LDS: row-major
  // 32 x 32 f32, the 16-byte chunks of row m XOR-swizzled by m % 8 (the 8 lanes of a
  // ds_write_b128 phase write 8 rows' chunks: distinct banks; a ds_read_b32 reads one row: 32
  // distinct dwords).
  if constexpr (BLOCK) {
    J.s_waitcnt(lgkmcnt(0));  // (the loop's last reads: slice 0 of a tile past the end)
    J.s_barrier();            // every wave done with the tiles
    // write g: row m = l%32, columns 8g + 4(l/32) .. + 3 = chunk 2g + l/32, at chunk
    // (2g + l/32) ^ (m % 8); read (g, e): row 8g + 4(l/32) + e, column l%32 (its chunk
    // (l%32) / 4 ^ (4(l/32) + e)), the g part a constant offset
    const int32_t region = static_cast<int32_t>(As[0].base);
    auto wbase = J.vgpr<u32>(), sw = J.vgpr<u32>(), wa = J.vgpr<u32>(4), ra = J.vgpr<u32>(4);
    wbase = wave * 4096u;
    // (C^T: the atom's C column field is m, its row group the 4-column chunk parity)
    constexpr mfma_lane_field CM = AT.c_col(), CG = AT.c_row();
    sw = (lane >> CG.shift) ^ (lane & 7u);
    for (int g = 0; g < 4; ++g) wa[g] = wbase + ((lane & CM.mask) << 7) + ((sw ^ static_cast<uint32_t>(2 * g)) << 4);
    for (int e = 0; e < 4; ++e) {
      auto rr = J.vgpr<u32>();
      rr = ((lane >> CG.shift) * CG.stride) + static_cast<uint32_t>(e);  // the row (mod 8)
      ra[e] = wbase + (rr << 7) + ((((lane & CM.mask) >> 2) ^ rr) << 4) + ((lane & 3u) << 2);
    }
    for (int b = 0; b < TM * TN; ++b) {
      for (int g = 0; g < 4; ++g) J.ds_write_b128(wa[g], acc[b].slice(4 * g, 4), {.offset = region});
      for (int g = 0; g < 4; ++g)
        for (int e = 0; e < 4; ++e) J.ds_read_b32(acc[b][4 * g + e], ra[e], {.offset = region + 1024 * g});
    }
    J.s_waitcnt(lgkmcnt(0));
  }
  auto epilogue = [&] {
  // Epilogue: accumulator register r of lane l of block (i, j) is C[32i + 8(r/4) + 4(l/32) + r%4]
  // [32j + l%32] of the wave's block, scaled (per_tensor / per_token) and rounded to bf16.
  auto ts = J.vgpr<f32>();                                     // per_tensor: sa[0] * sb[0]
  auto c_off = J.vgpr<u32>(TN), w_off = J.vgpr<u32>(SPLIT ? TN : 1);  // C (bf16), split K's f32 slices
  auto n_bytes = J.sgpr<u32>(), n4_bytes = J.sgpr<u32>();
  n_bytes = N << 1;
  if constexpr (SPLIT) n4_bytes = N << 2;
  for (int j = 0; j < (PERM ? 0 : TN); ++j) {
    auto col = J.vgpr<u32>();
    col = b_row + (n0 + 32 * j);
    c_off[j] = crow * n_bytes + (col << 1);
    if constexpr (SPLIT) w_off[j] = crow * n4_bytes + (col << 2);
    J.If(col >= N, [&] {
      c_off[j] = 0x80000000u;
      if constexpr (SPLIT) w_off[j] = 0x80000000u;
    });
  }
  // LAZY_RS (one tile, int8 AGPR accumulators: the paired epilogue below): block row i's row
  // scales read from LDS while block row i - 1 converts, not all before the first (the waves'
  // reads of all of them took as long as the global loads they replace)
  constexpr bool LAZY_RS = SCALES_LDS && !PERSIST && I8 && TN % 2 == 0;
  auto sa_r = J.vgpr<u32>();
  auto read_rs = [&](int i) {
    for (int g = 0; g < 4; ++g) J.ds_read_b128(rs[4 * i + g], sa_r, {.offset = static_cast<int32_t>((32 * i + 8 * g) * 4)});
  };
  if constexpr (SCALES_LDS) {
    // this tile's scales (loaded at the previous tile's end) to LDS, every wave's there, read as
    // the lane's rows and columns; then the next tile's loads
    auto sa_w = J.vgpr<u32>(), sb_r = J.vgpr<u32>();
    sa_w = (tid << 2) + sc_lds;
    // (older than the next tile's first loads, the youngest here; says so to the verifier, which
    // also follows the K walk's zero trips)
    J.s_waitcnt(vmcnt(static_cast<int>(tile_loads)));
    J.ds_write_b32(sa_w, psr);
    J.ds_write_b32(sa_w, psc, {.offset = static_cast<int32_t>(4 * T)});
    J.s_waitcnt(lgkmcnt(0));
    J.s_barrier();
    sa_r = ((crow - m0) << 2) + sc_lds;
    sb_r = (b_row << 2) + (sc_lds + 4 * T);
    for (int j = 0; j < TN; ++j) J.ds_read_b32(cs[j], sb_r, {.offset = static_cast<int32_t>(32 * j * 4)});
    for (int i = 0; i < (LAZY_RS ? 1 : TM); ++i) read_rs(i);
    J.s_waitcnt(lgkmcnt(0));
    if constexpr (PERSIST) prefetch_scales(gpr<u32>(nty * BM), gpr<u32>(ntx * BN));
  } else if constexpr (TOKEN) {
    if constexpr (!SCALES_EARLY) {
      // (the loop's last loads and LDS reads, of tiles past the end, done first: their
      // registers then hold the scales)
      J.s_waitcnt(vmcnt(0));
      J.s_waitcnt(lgkmcnt(0));
      load_token_scales(EARLY_RS0 ? 1 : 0, !EARLY_RS0);
    }
    if constexpr (!EARLY_RS0) J.s_waitcnt(vmcnt(0));
  } else if constexpr (!BLOCK) {
    if constexpr (!TENSOR_EARLY) {
      J.s_buffer_load_dword(ts_a, SA.desc, 0);
      J.s_buffer_load_dword(ts_b, SB.desc, 0);
    }
    J.s_waitcnt(lgkmcnt(0));
    ts = ts_a;
    ts = ts * ts_b;
  }
  // Accumulator element (i, j, r) as its f32 value in C, scaled (per_tensor / per_token) into
  // v[q]; block128's accumulators are the values.
  // (four: the paired-block stores below hold rows r, r + 1 of blocks j, j + 1; not per-token:
  // its two-scale products made the 256x256 kernel's compile exceed 3 cpu s)
  constexpr bool PAIRED = !SPLIT && (!TOKEN || PERSIST) && TN % 2 == 0 && active_target::desc.features.has_permlane_swap;
  auto v = J.vgpr<f32>(PAIRED ? 4 : 2);
  auto va = J.vgpr<acc_t>(C.agpr_acc ? (PAIRED ? 4 : 2) : 1);  // (agpr_acc: an accumulator read into a VGPR, the VALU's operand)
  auto value = [&](int i, int j, int r, int q) {
    if constexpr (BLOCK) {
      return acc[i * TN + j][r];
    } else {
      auto scale_into = [&](auto x) {
        if constexpr (TOKEN) v[q] = x * (rs[4 * i + r / 4][r % 4] * cs[j]);
        else v[q] = x * ts;
      };
      auto a = [&] {
        if constexpr (!C.agpr_acc) return acc[i * TN + j][r];
        J.v_accvgpr_read_b32(va[q], acc[i * TN + j][r]);
        return va[q];
      }();
      if constexpr (I8) {
        J.v_cvt_f32_i32(v[q], a);
        scale_into(v[q]);
      } else {
        scale_into(a);
      }
      return v[q];
    }
  };
  // C row of accumulator register r of block row i (relative to the lane's first row)
  auto elem_row = [](int i, int r) { return static_cast<uint32_t>(32 * i + 8 * (r / 4) + r % 4); };
  // Rows r and r + 1 (r even): one conversion, the low half stored to row r, the high to r + 1.
  auto srow = J.sgpr<u32>(2);
  auto store_rows = [&](auto bf16_of) {  // bf16_of(i, j, r): rows r, r + 1 as bf16x2
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 16; r += 2) {
        for (int q = 0; q < 2; ++q) srow[q] = n_bytes * elem_row(i, r + q);
        for (int j = 0; j < TN; ++j) {
          auto h = bf16_of(i, j, r);
          Cb.store(h, at(c_off[j]) + at(srow[0]), {.width = narrow::u16});
          Cb.store(h, at(c_off[j]) + at(srow[1]), {.width = narrow::u16_d16_hi});
        }
      }
  };
  auto store_bf16 = [&](auto f32_of) {
    store_rows([&](int i, int j, int r) { return cvt_bf16x2(f32_of(i, j, r, 0), f32_of(i, j, r + 1, 1)); });
  };
  // PKS (per_tensor / per_token, VGPR accumulators, no permlane swap pairs, no split): rows r,
  // r + 1 of a column scaled as a pair by v_pk_mul_f32 (per_token: by their row scales, then by
  // the column's twice), rounded without cvt_bf16x2's NaN check: a NaN here is one the MFMAs or
  // the multiplies made (the quiet 0x7fc00000), which adding 0x7fff never carries into an
  // infinity (gfx942 rounds to bf16 in software: the NaN check was 4 of its 6 instructions a value).
  // Not covered: a NaN scale whose payload the multiply passes on with the top 8 mantissa bits
  // set (0x7fff8000 and up, e.g. an all-ones fill) carries into +-0.
  // (int8 with AGPR accumulators: each read into a VGPR first, the conversion's source)
  constexpr bool PKS = !PAIRED && !SPLIT && !BLOCK && (!C.agpr_acc || (I8 && !PERSIST));
  // The second v_pk_mul_f32 operand of PK and PKS: per_token each column scale twice (2 TN), else
  // the tensor scale twice.
  auto fill_scale_pairs = [&](gpr<f32>& s2) {
    if constexpr (TOKEN) {
      for (int j = 0; j < TN; ++j) {
        s2[2 * j] = cs[j] + 0.0f;
        s2[2 * j + 1] = cs[j] + 0.0f;
      }
    } else {
      s2[0] = ts + 0.0f;
      s2[1] = ts + 0.0f;
    }
  };
  if constexpr (PAIRED) {
    // Blocks j and j + 1 a pair: v_permlane32_swap trades block j's lanes 32..63 (rows + 4) with
    // block j + 1's lanes 0..31, so that each register holds 64 consecutive columns of one row
    // (lane l column 64 (j / 2) + l of the wave's block): a 16-bit store is one 128-byte line,
    // not two (the CU's address path bounds this epilogue).
    auto p_off = detail::gemm_block_pair_offsets<TN>(
        J, N, n_bytes, [&](gpr<u32>& wrow) { wrow = a_row - (lane & AT.a_row().mask) + m0; },
        [&](gpr<u32>& col, int jp) { col = b_row + (lane & 32u) + (n0 + 64u * static_cast<uint32_t>(jp)); });
    auto srows = J.sgpr<u32>(4);  // (rows R + q + 4 h, shared by the block pairs)
    // PK (persistent fp8, AGPR accumulators): the four values of a pair read, then scaled two
    // a v_pk_mul_f32 (per_token: rows r, r + 1 of a block a pair, by their row scales, then by
    // the block's column scale; the VALU bounds this epilogue, the MFMAs waiting); each block
    // row's accumulators zeroed for the next tile by MFMAs of zeros once read (the matrix core
    // is idle here, the VALU is not)
    constexpr bool PK = PERSIST && !I8 && !BLOCK && C.agpr_acc;
    static_assert(!PERSIST || PK);
    auto vp = J.vgpr<f32>(PK ? 4 : 2).aligned(2), s2 = J.vgpr<f32>(PK && TOKEN ? 2 * TN : 2).aligned(2);
    auto zero2 = J.vgpr<u32>(2);
    if constexpr (PK) {
      fill_scale_pairs(s2);
      zero2.fill(0u);
    }
    for (int i = 0; i < TM; ++i) {
      for (int r = 0; r < 16; r += 2) {
        for (int h = 0; h < 2; ++h)
          for (int q = 0; q < 2; ++q) srows[2 * h + q] = n_bytes * (elem_row(i, r) + static_cast<uint32_t>(q + 4 * h));
        for (int jp = 0; jp < TN / 2; ++jp) {
          const int j = 2 * jp;
          // (PK per_token: vp holds (j, r), (j, r + 1), (j + 1, r), (j + 1, r + 1): pairs of rows)
          constexpr int o1 = TOKEN ? 2 : 1, o2 = TOKEN ? 1 : 2;
          if constexpr (PK) {
            J.v_accvgpr_read_b32(vp[0], acc[i * TN + j][r]);
            J.v_accvgpr_read_b32(vp[o1], acc[i * TN + j + 1][r]);
            J.v_accvgpr_read_b32(vp[o2], acc[i * TN + j][r + 1]);
            J.v_accvgpr_read_b32(vp[3], acc[i * TN + j + 1][r + 1]);
            if constexpr (TOKEN) {
              auto rows = rs[4 * i + r / 4].slice(r % 4, 2);
              for (int h = 0; h < 2; ++h) {
                J.v_pk_mul_f32(vp.slice(2 * h, 2), vp.slice(2 * h, 2), rows);
                J.v_pk_mul_f32(vp.slice(2 * h, 2), vp.slice(2 * h, 2), s2.slice(2 * (j + h), 2));
              }
            } else {
              J.v_pk_mul_f32(vp.slice(0, 2), vp.slice(0, 2), s2);
              J.v_pk_mul_f32(vp.slice(2, 2), vp.slice(2, 2), s2);
            }
          }
          // (block128's values are the accumulators themselves, swapped in place: their last use)
          const gpr<f32> x0 = PK ? gpr<f32>(vp[0]) : value(i, j, r, 0), x1 = PK ? gpr<f32>(vp[o1]) : value(i, j + 1, r, 1),
                         x2 = PK ? gpr<f32>(vp[o2]) : value(i, j, r + 1, 2), x3 = PK ? gpr<f32>(vp[3]) : value(i, j + 1, r + 1, 3);
          J.v_permlane32_swap_b32(x0, x1);
          J.v_permlane32_swap_b32(x2, x3);
          // x0, x2: rows R, R + 1 (R = 32 i + 8 (r / 4) + r % 4); x1, x3: rows R + 4, R + 5
          auto lo = cvt_bf16x2(x0, x2), hi = cvt_bf16x2(x1, x3);
          Cb.store(lo, at(p_off[jp]) + at(srows[0]), {.width = narrow::u16});
          Cb.store(lo, at(p_off[jp]) + at(srows[1]), {.width = narrow::u16_d16_hi});
          Cb.store(hi, at(p_off[jp]) + at(srows[2]), {.width = narrow::u16});
          Cb.store(hi, at(p_off[jp]) + at(srows[3]), {.width = narrow::u16_d16_hi});
        }
      }
      if constexpr (PK)
        for (int j = 0; j < TN; ++j) J.v_mfma_f32_32x32x8_bf16(acc[i * TN + j], zero2, zero2, 0);
    }
  } else if constexpr (PKS) {
    auto vq = J.vgpr<f32>(2).aligned(2);
    auto s2 = J.vgpr<f32>(TOKEN ? 2 * TN : 2).aligned(2);
    fill_scale_pairs(s2);
    auto pair_bf16 = [&](int i, int j, int r) {
      auto a = acc[i * TN + j];
      if constexpr (I8 && C.agpr_acc) {
        J.v_accvgpr_read_b32(va[0], a[r]);
        J.v_cvt_f32_i32(vq[0], va[0]);
        J.v_accvgpr_read_b32(va[1], a[r + 1]);
        J.v_cvt_f32_i32(vq[1], va[1]);
      } else if constexpr (I8) {
        J.v_cvt_f32_i32(vq[0], a[r]);
        J.v_cvt_f32_i32(vq[1], a[r + 1]);
      }
      if constexpr (TOKEN) {
        auto rows = EARLY_RS0 && i == 0 ? rs0[r / 4].slice(r % 4, 2) : rs[4 * i + r / 4].slice(r % 4, 2);
        if constexpr (I8) J.v_pk_mul_f32(vq, vq, rows);
        else J.v_pk_mul_f32(vq, a.slice(r, 2), rows);
        J.v_pk_mul_f32(vq, vq, s2.slice(2 * j, 2));
      } else if constexpr (I8) {
        J.v_pk_mul_f32(vq, vq, s2);
      } else {
        J.v_pk_mul_f32(vq, a.slice(r, 2), s2);
      }
      return cvt_bf16x2(vq[0], vq[1], bf16_round::nearest_even_finite);
    };
    if constexpr (PERM) {
      // (PERM) blocks j, j + 1 (j even) hold columns 2c, 2c + 1 of a row at lane c: one dword
      // (bf16x2) a pair, each store 64 lanes' rows R and R + 4 (two whole 128-byte lines). An odd
      // N stores the halves apart (the dword at column N - 1 would write the next row's first).
      auto off = J.vgpr<u32>(2 * TN), offh = J.vgpr<u32>(2 * TN);  // (jp, r % 4); offh: the odd column's
      {
        auto col = J.vgpr<u32>(), p = J.vgpr<u32>();
        for (int jp = 0; jp < TN / 2; ++jp) {
          col = b_row + (lane & 31u) + (n0 + 64u * static_cast<uint32_t>(jp));
          p = crow * n_bytes + (col << 1);
          for (int q = 0; q < 4; ++q) off[4 * jp + q] = select(col >= N, 0x80000000u, gpr<u32>(p + n_bytes * static_cast<uint32_t>(q)));
          col = col + 1u;
          for (int q = 0; q < 4; ++q)
            offh[4 * jp + q] = select(col >= N, 0x80000000u, gpr<u32>(p + (n_bytes * static_cast<uint32_t>(q) + 2u)));
        }
      }
      auto n_odd = J.sgpr<u32>(), srg = J.sgpr<u32>();
      n_odd = N & 1u;
      auto dw = J.vgpr<dtype::bf16x2>(16 * TN / 2);
      // block rows below UNPK multiply with v_mul_f32 (4 a pair, not 2 v_pk_mul_f32): the older
      // wave converts them while the younger's last MFMAs run, which packed FP32 cannot co-issue
      // with (it waits for the matrix core to drain)
      constexpr int UNPK = TM / 2;
      auto pack = [&](int i, int jp, int r) {
        const int j0 = 2 * jp;
        for (int q = 0; q < 2; ++q) {
          auto a = acc[i * TN + j0 + q];
          if constexpr (C.agpr_acc) {
            J.v_accvgpr_read_b32(va[q], a[r]);
            J.v_cvt_f32_i32(vq[q], va[q]);
          } else {
            J.v_cvt_f32_i32(vq[q], a[r]);
          }
        }
        if (TOKEN && i < UNPK) {
          auto rsg = EARLY_RS0 && i == 0 ? rs0[r / 4] : rs[4 * i + r / 4];
          for (int q = 0; q < 2; ++q) {
            J.v_mul_f32(vq[q], vq[q], cs[j0 + q]);
            J.v_mul_f32(vq[q], vq[q], rsg[r % 4]);
          }
        } else if constexpr (TOKEN) {
          J.v_pk_mul_f32(vq, vq, cs.slice(j0, 2));
          // the row's scale in both halves (op_sel / op_sel_hi pick element e of the pair)
          const int e = r % 4;
          auto rsg = EARLY_RS0 && i == 0 ? rs0[r / 4] : rs[4 * i + r / 4];
          J.v_pk_mul_f32(vq, vq, rsg.slice(e & ~1, 2),
                         modifiers{.op_sel = static_cast<uint8_t>(e & 1 ? 0b10 : 0), .op_sel_hi = static_cast<uint8_t>(e & 1 ? 0b11 : 0b01)});
        } else {
          J.v_pk_mul_f32(vq, vq, s2);
        }
        return cvt_bf16x2(vq[0], vq[1], bf16_round::nearest_even_finite);
      };
      for (int i = 0; i < TM; ++i) {
        // (EARLY_RS0: the row scales of blocks 1.. went out before block row 0's stores)
        if constexpr (EARLY_RS0)
          if (i == 1) J.s_waitcnt(vmcnt(8 * TN));
        for (int r = 0; r < 16; ++r)
          for (int jp = 0; jp < TN / 2; ++jp) dw[r * (TN / 2) + jp] = pack(i, jp, r);
        auto stores = [&](bool halves) {
          for (int g = 0; g < 4; ++g) {
            srg = n_bytes * static_cast<uint32_t>(32 * i + 8 * g);
            for (int q = 0; q < 4; ++q)
              for (int jp = 0; jp < TN / 2; ++jp) {
                auto x = dw[(4 * g + q) * (TN / 2) + jp].template as<u32>();
                if (!halves) {
                  Cb.store(x, at(off[4 * jp + q]) + at(srg));
                } else {
                  Cb.store(x, at(off[4 * jp + q]) + at(srg), {.width = narrow::u16});
                  Cb.store(x, at(offh[4 * jp + q]) + at(srg), {.width = narrow::u16_d16_hi});
                }
              }
          }
        };
        J.If(n_odd == 0u, [&] { stores(false); }).Else([&] { stores(true); });
      }
    } else if constexpr (TN % 2 == 0) {
      // Blocks j and j + 1 a pair, as PAIRED's permlane swap but by ds_bpermute (lane l ^ 32):
      // A = (block j's lanes 0..31, block j + 1's 0..31 moved up) holds rows R, R + 1 of 64
      // consecutive columns, B = (block j's 32..63 moved down, block j + 1's 32..63) rows R + 4,
      // R + 5: each 16-bit store is one 128-byte line of a row, not two (the CU's address path,
      // 4 cycles a line, bounds this epilogue). RB row pairs a batch, their exchanges in flight
      // together.
      auto p_off = detail::gemm_block_pair_offsets<TN>(
          J, N, n_bytes, [&](gpr<u32>& wrow) { wrow = a_row - (lane & AT.a_row().mask) + m0; },
          [&](gpr<u32>& col, int jp) { col = b_row + (lane & 32u) + (n0 + 64u * static_cast<uint32_t>(jp)); });
      auto lo_half = J.sgpr<u64>();
      auto xa = J.vgpr<u32>();
      J.v_cmp_gt_u32(lo_half, 32u, lane);
      xa = (lane ^ 32u) << 2;
      constexpr int RB = TN >= 8 ? 1 : 8 / TN;  // row pairs a batch (8 / TN: 8 exchanges)
      // (hb bf16x2: the conversion's result computed straight into it, no copy)
      auto hb = J.vgpr<dtype::bf16x2>(RB * TN);
      auto ub = J.vgpr<u32>(RB * TN), ab = J.vgpr<u32>(2);
      // the pairs' offsets of rows 0, 1, 4, 5 (a VGPR each), the row pair's R in one SGPR: one
      // s_mul a row pair, not four (the VALU and SALU issue bounds this epilogue). Past N the
      // offsets keep bit 31 (5 rows of C are far below 2^31 bytes).
      auto q_off = J.vgpr<u32>(2 * TN);
      for (int jp = 0; jp < TN / 2; ++jp)
        for (int k = 0; k < 4; ++k) {
          constexpr uint32_t rows[4] = {0, 1, 4, 5};
          if (k == 0) q_off[4 * jp] = p_off[jp] + 0u;
          else q_off[4 * jp + k] = p_off[jp] + n_bytes * rows[k];
        }
      auto srow0 = J.sgpr<u32>();
      for (int i = 0; i < TM; ++i)
        for (int r0 = 0; r0 < 16; r0 += 2 * RB) {
          if constexpr (LAZY_RS)
            if (r0 == 0 && i + 1 < TM) read_rs(i + 1);  // (waited for with the first exchanges)
          // (EARLY_RS0: the row scales of blocks 1.. went out before block row 0's 16 TN stores)
          if constexpr (EARLY_RS0)
            if (r0 == 0 && i == 1) J.s_waitcnt(vmcnt(16 * TN));
          for (int b = 0; b < RB; ++b)
            for (int j = 0; j < TN; ++j) {
              hb[b * TN + j] = pair_bf16(i, j, r0 + 2 * b);
              J.ds_bpermute_b32(ub[b * TN + j], xa, hb[b * TN + j].template as<u32>());
            }
          J.s_waitcnt(lgkmcnt(0));
          for (int b = 0; b < RB; ++b) {
            srow0 = n_bytes * elem_row(i, r0 + 2 * b);
            for (int jp = 0; jp < TN / 2; ++jp) {
              const int j0 = b * TN + 2 * jp, j1 = j0 + 1;
              J.v_cndmask_b32(ab[0], ub[j1], hb[j0].template as<u32>(), lo_half);  // (lanes 0..31: block j's own)
              J.v_cndmask_b32(ab[1], hb[j1].template as<u32>(), ub[j0], lo_half);
              Cb.store(ab[0], at(q_off[4 * jp]) + at(srow0), {.width = narrow::u16});
              Cb.store(ab[0], at(q_off[4 * jp + 1]) + at(srow0), {.width = narrow::u16_d16_hi});
              Cb.store(ab[1], at(q_off[4 * jp + 2]) + at(srow0), {.width = narrow::u16});
              Cb.store(ab[1], at(q_off[4 * jp + 3]) + at(srow0), {.width = narrow::u16_d16_hi});
            }
          }
        }
    } else {
      store_rows(pair_bf16);
    }
  } else if constexpr (!SPLIT) {
    store_bf16(value);
  } else {
    // Split K, in the kernel: each workgroup stores its f32 sums into workspace slice z
    // ([splits][M][N] floats), then each wave counts itself in at its tile and wave position
    // (u32 counters after the slices); the last of the `splits` waves adds the slices up in
    // slice order (deterministic) and rounds into C (helpers/arrival.hpp: the counting and
    // the memory order).
    constexpr int E = TM * TN * 16;           // accumulator elements a lane
    constexpr int G = E >= 128 ? 1 : 128 / E;  // slices read a trip (128 loads in flight)
    auto slice_bytes = J.sgpr<u32>();
    slice_bytes = (M * N) << 2;
    auto Wz = make_buffer(J, ws_ptr, slice_bytes);
    Wz.shift_base(J.workgroup_id_z() * slice_bytes);
    auto wrow = J.sgpr<u32>(16 * TM);  // f32 row offsets
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 16; ++r) wrow[16 * i + r] = n4_bytes * elem_row(i, r);
    for (int i = 0; i < TM; ++i)
      for (int r = 0; r < 16; ++r)
        for (int j = 0; j < TN; ++j)
          Wz.store(value(i, j, r, r % 2), at(w_off[j]) + at(wrow[16 * i + r]), {.sc1 = true});
    auto wave_s = J.sgpr<u32>(), cnt = J.vgpr<u32>();
    J.v_readfirstlane_b32(wave_s, wave);
    cnt = (slice_bytes * splits) + (((J.workgroup_id_y() * ((N + (BN - 1)) / BN) + J.workgroup_id_x()) * (T / 64) + wave_s) << 2);
    if_last_arrival(J, ws_ptr, cnt, splits, [&] {
      auto Wall = make_buffer(J, ws_ptr, gpr<u32>(slice_bytes * splits));  // (past the last slice: zeros)
      // (pairs: v_pk_add_f32; a slice's column offsets in VGPRs, the row's in the load's SGPR:
      // one instruction a load, which with one wave a CU issue-bound the adds)
      auto sum = J.vgpr<f32>(E).aligned(2), t = J.vgpr<f32>(G * E).aligned(2);
      sum.fill(0.0f);
      auto sl = J.sgpr<u32>(), so = J.sgpr<u32>(G), own = J.sgpr<u32>(), past = J.sgpr<u32>();
      auto vs = J.vgpr<u32>(G * TN);
      sl = 0u;
      own = J.workgroup_id_z();
      past = slice_bytes * splits;
      // Slice g's adds wait only for its own loads (in order: vmcnt counts the D slices issued
      // after it), so they run while the later slices' loads are in flight; the wave's loads
      // past 63 in flight would stall its issue before any add (16x512x7168: 2000 cycles of
      // loads, then 500 of adds).
      // (D: slices whose loads stay in flight at an add; E > 63: all loads first, as vmcnt's 63
      // cannot count a slice)
      constexpr int D = E <= 63 ? 63 / E : G;
      // This wave's own slice is not read back (its loads go past the V#: zeros, no lines; the
      // address path, 4 cycles a line, bounds these reads): its values are added in its place.
      auto add_slice = [&](int g, int after) {
        J.s_waitcnt(vmcnt(after * E < 63 ? after * E : 63));
        for (int e = 0; e < E; e += 2) J.v_pk_add_f32(sum.slice(e, 2), sum.slice(e, 2), t.slice(g * E + e, 2));
        J.If(gpr<u32>(sl + static_cast<uint32_t>(g)) == own, [&] {
          for (int i = 0; i < TM; ++i)
            for (int r = 0; r < 16; ++r)
              for (int j = 0; j < TN; ++j) sum[(i * 16 + r) * TN + j] = sum[(i * 16 + r) * TN + j] + value(i, j, r, 0);
        });
      };
      J.While([&] { return sl < splits; },
              [&] {
                for (int g = 0; g < G; ++g) {
                  so[g] = select(gpr<u32>(sl + static_cast<uint32_t>(g)) == own, past,
                                 gpr<u32>((sl + static_cast<uint32_t>(g)) * slice_bytes));
                  // (a column past N stays past every V#: 0x80000000 plus a slice offset below 2^31)
                  for (int j = 0; j < TN; ++j) vs[g * TN + j] = w_off[j] + so[g];
                  for (int i = 0; i < TM; ++i)
                    for (int r = 0; r < 16; ++r)
                      for (int j = 0; j < TN; ++j)
                        Wall.load(t[g * E + (i * 16 + r) * TN + j], at(vs[g * TN + j]) + at(wrow[16 * i + r]),
                                  {.sc1 = true});
                  if (g >= D) add_slice(g - D, D);
                }
                for (int g = G > D ? G - D : 0; g < G; ++g) add_slice(g, G - 1 - g);
                sl = sl + static_cast<uint32_t>(G);
              });
      store_bf16([&](int i, int j, int r, int) { return sum[(i * 16 + r) * TN + j]; });
    });
  }
  };
  if constexpr (PERSIST) {
    // Tile after tile: the K walk of k_pad steps (its last steps store and load the next tile's
    // first K tiles and read its slice 0), the epilogue, the accumulators zeroed, the next tile.
    vgpr_prologue();
    read_slice(0, 0);
    auto cur_valid = J.sgpr<u32>(), it = J.sgpr<u32>();
    cur_valid = 1u;
    J.While([&] { return cur_valid != 0u; },
            [&] {
              it = 0u;
              J.While([&] { return it < k_pad; },
                      [&] {
                        step_vgpr(0);
                        step_vgpr(1);
                        it = it + 2u;
                      });
              epilogue();
              cur_valid = n_valid;
              lin = lin + G;
              n0 = ntx * BN;
              m0 = nty * BM;
              crow = a_row - (lane & AT.a_row().mask) + m0 + ((lane >> AT.c_row().shift) * AT.c_row().stride);
              next_tile();
              next_origins();
              // (the epilogue zeroed the accumulators)
            });
  } else {
    epilogue();
  }
}

}  // namespace hipasm::kernels

// Defines the HIP kernel `name` (C, A, B, sa, sb, M, N, K, splits, workspace) of configuration
// `cfg` (parenthesized); splits and workspace: cfg.split_k's (launch_gemm_quant passes them).
// The first 14 argument dwords (all but the workspace) are preloaded into SGPRs when the code
// object is built with KERNARG_PRELOAD (hipasm_add_code_object), else loaded: the first tile's
// loads go out without the ~650-cycle kernarg s_load before them.
#define HIPASM_GEMM_QUANT_KERNEL(name, cfg)                                                                    \
  constexpr auto name##_hipasm_fn =                                                                        \
      ::hipasm::with_options<&::hipasm::kernels::gemm_quant_kernel<cfg>,                                   \
                             ::hipasm::kernel_options{.kernarg_preload = ::hipasm::arg_preload::fitting}>;  \
  extern "C" __attribute__((global)) void name(void* c, const uint8_t* a, const uint8_t* b, const float* sa, \
                                               const float* sb, unsigned m, unsigned n, unsigned k,        \
                                               unsigned splits, float* ws) {                               \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, c, a, b, sa, sb, m, n, k, splits, ws);                            \
  }
