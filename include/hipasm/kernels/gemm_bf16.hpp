// The library's bf16 GEMM: C = A * B^T, A M x K and B N x K row-major bf16 (the layout of
// aiter's bf16 asm GEMM and of LLM weights), f32 accumulation, C M x N row-major in f32 or bf16.
//
//   // a .hip file compiled by hipasm_add_code_object:
//   HIPASM_GEMM_BF16_KERNEL(my_gemm, (hipasm::gemm_bf16_config{}))
//   // host (hipasm-sim or a real MI300, the same call):
//   hipasm::gemm_bf16_launch(dev, module, "my_gemm", cfg, C, A, B, M, N, K);
//
// Any M, N, K >= 1. Tail tiles need no branch: A's V# ends at M*K elements, B's at N*K, C's at
// M*N, so overhanging rows load zeros and their stores are dropped (buffer.hpp); columns past K
// (loads) and past N (stores) take an offset past every V#.
//
// Schedule (one workgroup = WM x WN waves computing a BM x BN tile): the K loop double-buffers
// the A and B tiles in LDS (`stages` buffers); iteration i issues the LDS-DMA loads of tile
// i + stages - 1 (copy_tile direct:
// buffer_load_dword ... lds, no VGPR staging), then reads tile i from LDS (ds_read_b128, an XOR
// swizzle makes the 32 rows an MFMA reads conflict-free) and runs the MFMAs (v_mfma_f32_32x32x8
// bf16: each wave a (BM/WM) x (BN/WN) block of 32x32 accumulators), the LDS reads of the next
// K slice interleaved with the MFMAs of this one; then an s_waitcnt vmcnt for tile i + 1 (younger tiles stay in flight) and one s_barrier.
// The MFMA's k order within a 16-element slice is permuted the same way for A and B (lane half
// h reads elements 8h..8h+7: MFMA 2p takes 8h..8h+3, 2p+1 8h+4..8h+7), which leaves the sum
// unchanged and lets one ds_read_b128 feed two MFMAs.
//
// An odd K (rows not dword-aligned) cannot use the dword DMA: the configuration's
// `odd_k = true` variant copies tiles element by element through VGPRs (slow; launch picks
// the variant the run-time K needs when both are compiled: see gemm_bf16_launch).
#pragma once
#include <cstdint>
#include <string_view>

#include "../hipasm.hpp"

namespace hipasm {

struct gemm_bf16_config {
  uint32_t bm = 128, bn = 128, bk = 64;  // workgroup tile
  uint32_t wm = 2, wn = 2;               // waves along M and N
  bool out_bf16 = false;                 // C in bf16 (round to nearest even) or f32
  bool odd_k = false;                    // K may be odd (element-wise tile copies)
  uint32_t stages = 2;                   // LDS tile buffers: loads run stages - 1 tiles ahead

  constexpr uint32_t threads() const { return 64 * wm * wn; }
  constexpr uint32_t grid_x(uint32_t n) const { return (n + bn - 1) / bn; }
  constexpr uint32_t grid_y(uint32_t m) const { return (m + bm - 1) / bm; }
};

namespace detail {

constexpr const char* gemm_bf16_config_error(const gemm_bf16_config& c) {
  if (c.wm == 0 || c.wn == 0 || c.wm * c.wn > 16) return "gemm_bf16: 1 to 16 waves (wm * wn)";
  if (c.bm % (32 * c.wm) != 0 || c.bn % (32 * c.wn) != 0)
    return "gemm_bf16: bm must be a multiple of 32 * wm and bn of 32 * wn (32x32 MFMA blocks)";
  if (c.bk % 16 != 0 || c.bk > 256) return "gemm_bf16: bk must be a multiple of 16 up to 256";
  if ((c.bm / c.wm / 32) * (c.bn / c.wn / 32) * 16 > 256) return "gemm_bf16: more than 256 accumulator VGPRs per wave";
  if (c.stages < 2 || c.stages > 4) return "gemm_bf16: 2 to 4 stages (LDS tile buffers)";
  if (c.stages * (c.bm + c.bn) * c.bk * 2 > 65536) return "gemm_bf16: the tile buffers (stages x A and B tiles) exceed 64 KiB of LDS";
  if (!c.odd_k && c.stages > 2 && ((c.bm * c.bk * 2) % (256 * c.wm * c.wn) != 0 || (c.bn * c.bk * 2) % (256 * c.wm * c.wn) != 0))
    return "gemm_bf16: with more than 2 stages each tile must be whole DMA steps (4 bytes a lane) for the vmcnt count";
  if (!c.odd_k && (c.stages - 2) * ((c.bm + c.bn) * c.bk * 2 / (256 * c.wm * c.wn)) > 63)
    return "gemm_bf16: the loads of stages - 2 tiles in flight exceed vmcnt's 63";
  return nullptr;
}

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
  constexpr uint32_t OUT_EB = C.out_bf16 ? 2 : 4;

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
  auto n0 = J.sgpr<u32>(), m0 = J.sgpr<u32>();
  n0 = J.workgroup_id_x() * BN;
  m0 = J.workgroup_id_y() * BM;
  // The tiles' origins (byte offsets of element (m0, k0) and (n0, k0)), advanced by BK each step.
  auto a_org = J.sgpr<u32>(), b_org = J.sgpr<u32>();
  a_org = m0 * row_bytes;
  b_org = n0 * row_bytes;
  auto k_left = J.sgpr<u32>();  // K - k0 of the tile being loaded (its valid columns)
  k_left = K;

  lds_pool pool(J);
  constexpr lds_layout LA = detail::gemm_tile_layout(BM, BK), LB = detail::gemm_tile_layout(BN, BK);
  constexpr int S = static_cast<int>(C.stages);
  lds_view As[S], Bs[S];
  for (int i = 0; i < S; ++i) As[i] = pool.view(LA);
  for (int i = 0; i < S; ++i) Bs[i] = pool.view(LB);
  // The DMA loads one tile issues per wave (copy_tile direct: 4 bytes per lane each, whole steps).
  constexpr uint32_t tile_loads = (BM + BN) * BK * 2 / (4 * T);

  auto cols_valid = J.sgpr<u32>();
  // Issues the loads of the tile at (a_org, b_org) into LDS buffer `buf`, then steps on.
  auto load_tile = [&](int buf) {
    J.s_max_i32(cols_valid, k_left, 0);
    if constexpr (!C.odd_k) {
      const tile_copy_opts o{.threads = T, .vec_bytes = 4, .direct = true, .wait = false};
      copy_tile(J, A, at(a_org), row_bytes, As[buf], o, cols_valid);
      copy_tile(J, B, at(b_org), row_bytes, Bs[buf], o, cols_valid);
    } else {
      // Element by element through VGPRs: lane t moves elements t, t + T, ... of each tile.
      auto copy_elems = [&](const buffer& G, const gpr<u32>& org, const lds_view& V, uint32_t rows) {
        for (uint32_t e0 = 0; e0 < rows * BK; e0 += T) {
          auto e = J.vgpr<u32>();
          e = tid + e0;
          auto r = J.vgpr<u32>(), c = J.vgpr<u32>(), off = J.vgpr<u32>();
          r = e / BK;
          c = e % BK;
          off = r * row_bytes + (c << 1);
          J.If(c >= cols_valid, [&] { off = 0x80000000u; });
          auto v = J.vgpr<u32>();
          G.load(v, at(off) + at(org), {.width = narrow::u16});
          J.s_waitcnt(vmcnt(0));
          V.store(v, r, c, {.width = narrow::u16});
        }
      };
      copy_elems(A, a_org, As[buf], BM);
      copy_elems(B, b_org, Bs[buf], BN);
    }
    a_org = a_org + BK * 2;
    b_org = b_org + BK * 2;
    k_left = k_left - BK;
  };

  // This lane's LDS read addresses: row (wave block + lane % 32), column 8 * (lane / 32).
  auto lane = J.vgpr<u32>(), wave = J.vgpr<u32>();
  lane = tid & 63u;
  wave = tid >> 6;
  auto a_row = J.vgpr<u32>(), b_row = J.vgpr<u32>(), kcol = J.vgpr<u32>();
  a_row = (wave % C.wm) * WTM + (lane & 31u);
  b_row = (wave / C.wm) * WTN + (lane & 31u);
  kcol = (lane >> 5) << 3;
  // Per slice p: the address of column kcol + 16p (a swizzled view recomputes a column
  // displacement that crosses chunks, so each slice gets its address once, outside the loop);
  // buffer i's is buffer 0's moved by the distance of the two views.
  lds_addr a_addr[KS], b_addr[KS];
  for (int p = 0; p < KS; ++p) {
    auto ca = J.vgpr<u32>();
    ca = kcol + 16 * p;
    a_addr[p] = As[0].addr(a_row, multiple_of(ca, 8));
    b_addr[p] = Bs[0].addr(b_row, multiple_of(ca, 8));
  }
  auto moved = [](lds_addr a, int64_t d) {
    a.k += d;
    return a;
  };
  auto a_d = [&](int buf) { return static_cast<int64_t>(As[buf].base) - As[0].base; };
  auto b_d = [&](int buf) { return static_cast<int64_t>(Bs[buf].base) - Bs[0].base; };

  auto acc = J.vgpr<f32>(TM * TN, 16);
  acc.fill(0.0f);
  // Fragments of slice p: A block i (ds_read_b128 = two MFMAs' operands), B block j.
  auto fa = J.vgpr<u32>(2 * TM, 4), fb = J.vgpr<u32>(2 * TN, 4);
  auto read_slice = [&](int buf, int p) {
    const int s = p % 2;
    for (int i = 0; i < TM; ++i) As[buf].load(fa[s * TM + i], moved(a_addr[p], a_d(buf)), 32 * i, 0);
    for (int j = 0; j < TN; ++j) Bs[buf].load(fb[s * TN + j], moved(b_addr[p], b_d(buf)), 32 * j, 0);
  };
  auto mfma_slice = [&](int p) {
    const int s = p % 2;
    for (int h = 0; h < 2; ++h)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          J.v_mfma_f32_32x32x8_bf16(acc[i * TN + j], fa[s * TM + i].slice(2 * h, 2), fb[s * TN + j].slice(2 * h, 2),
                                    acc[i * TN + j]);
  };
  // The oldest tile in flight visible to every wave: the DMA's vmcnt, the loads of the `ahead`
  // younger tiles may stay in flight (the odd-K copy waited for its loads: its ds_writes).
  auto tile_visible = [&](uint32_t ahead) {
    if constexpr (C.odd_k) J.s_waitcnt(lgkmcnt(0));
    else J.s_waitcnt(vmcnt(static_cast<int>(ahead * tile_loads)));
    J.s_barrier();
  };
  // One K step on LDS buffer `buf`: prefetch the next tile into the other buffer, the MFMAs of
  // this one with the reads of slice p + 1 interleaved into those of slice p.
  auto step = [&](int buf) {
    load_tile((buf + S - 1) % S);
    read_slice(buf, 0);
    for (int p = 0; p < KS; ++p) {
      J.s_waitcnt(lgkmcnt(0));
      if (p + 1 < KS) interleave(J, [&] { mfma_slice(p); }, [&] { read_slice(buf, p + 1); });
      else mfma_slice(p);
    }
    tile_visible(S - 2);
  };

  auto k_tiles = J.sgpr<u32>();
  k_tiles = (K + (BK - 1)) / BK;
  for (int i = 0; i + 1 < S; ++i) load_tile(i);
  tile_visible(S - 2);
  auto it = J.sgpr<u32>();
  it = 0u;
  // `stages` steps per trip (the LDS buffer is a compile-time choice); a tile count that is not
  // a multiple ends with steps on all-zero tiles (their loads are past K: zeros).
  J.While([&] { return it < k_tiles; },
          [&] {
            for (int i = 0; i < S; ++i) step(i);
            it = it + static_cast<uint32_t>(S);
          });

  // Epilogue: accumulator register r of lane l of block (i, j) is C[32i + 8(r/4) + 4(l/32) + r%4]
  // [32j + l%32] of the wave's block. Columns past N take an offset past C's V#; rows past M
  // are past its end already.
  auto c_off = J.vgpr<u32>(TN);
  auto crow = J.vgpr<u32>();
  crow = a_row - (lane & 31u) + m0 + ((lane >> 5) << 2);  // the lane's first row
  auto n_bytes = J.sgpr<u32>();
  n_bytes = N * OUT_EB;
  for (int j = 0; j < TN; ++j) {
    auto col = J.vgpr<u32>();
    col = b_row + (n0 + 32 * j);
    c_off[j] = crow * n_bytes + col * OUT_EB;
    J.If(col >= N, [&] { c_off[j] = 0x80000000u; });
  }
  auto srow = J.sgpr<u32>();
  for (int i = 0; i < TM; ++i)
    for (int r = 0; r < 16; ++r) {
      srow = n_bytes * static_cast<uint32_t>(32 * i + 8 * (r / 4) + r % 4);
      for (int j = 0; j < TN; ++j) {
        if constexpr (C.out_bf16) {
          auto h = cvt_bf16x2(acc[i * TN + j][r], acc[i * TN + j][r]);
          Cb.store(h, at(c_off[j]) + at(srow), {.width = narrow::u16});
        } else {
          Cb.store(acc[i * TN + j][r], at(c_off[j]) + at(srow));
        }
      }
    }
}

}  // namespace hipasm

// Defines the HIP kernel `name` (C, A, B, M, N, K) of configuration `cfg` (parenthesized).
#define HIPASM_GEMM_BF16_KERNEL(name, cfg)                                                                   \
  constexpr auto name##_hipasm_fn = &::hipasm::gemm_bf16_kernel<cfg>;                                    \
  extern "C" __attribute__((global)) void name(void* c, const uint16_t* a, const uint16_t* b, unsigned m, \
                                               unsigned n, unsigned k) {                                 \
    HIPASM_KERNEL_BODY(name##_hipasm_fn, c, a, b, m, n, k);                                              \
  }
