// LDS pool and view kernels (tests/helpers/test_lds.cpp runs them in hipasm-sim against C++;
// lds_kernels.hip wraps them). One workgroup of 256 lanes.
#pragma once
#include <cstdint>

#include <hipasm/hipasm.hpp>

namespace lds_fns {
using namespace hipasm;

constexpr void barrier(builder J) {
  J.s_waitcnt(lgkmcnt(0));
  J.s_barrier();
}

// Every element (r, c) of a view of layout LY gets a value made of r and c, written through
// the view with W-dword stores (lane t: chunk t + 256 j), read back through the view into
// out[chunk * W + w], and the raw LDS bytes of the view (pre-filled with 0xffffffff) dumped
// into dump[] (dword i = the view's byte 4i).
//   elem_bytes 4: value (r << 12) | c;  elem_bytes 2: (r << 8) | c per 16-bit element.
template <lds_layout LY, int W, bool PROMISE, uint32_t BASE_PAD>
constexpr void view_roundtrip(builder J, arg<uint32_t*> out, arg<uint32_t*> dump) {
  static_assert(LY.elem_bytes == 4 || LY.elem_bytes == 2);
  constexpr uint32_t eb = LY.elem_bytes, vel = W * 4 / eb, per_row = LY.cols / vel;
  constexpr uint32_t chunks = LY.rows * per_row, drow = 256 / per_row;
  static_assert(chunks % 256 == 0 && 256 % per_row == 0);
  lds_pool pool(J);
  if constexpr (BASE_PAD != 0) (void)pool.alloc(BASE_PAD, 4);
  auto V = pool.view(LY);
  auto O = make_buffer(J, out, chunks * W * 4);
  auto D = make_buffer(J, dump, LY.bytes());
  auto t = J.thread_id_x();
  auto la = J.vgpr<u32>().named("la");
  la = t << 2;
  auto ones = J.vgpr<u32>();
  ones = 0xffffffffu;
  // (the fill and the dump address bytes past 64 KiB, gfx950, by a register: offset: has 16 bits)
  auto raw_at = [&](uint32_t off) {
    auto fa = J.vgpr<u32>();
    fa = la + (V.base + off);
    return fa;
  };
  for (uint32_t off = 0; off < LY.bytes(); off += 1024) {
    if (V.base + off + 1024 > 65536) J.If(la < LY.bytes() - off, [&] { J.ds_write_b32(raw_at(off), ones); });
    else J.If(la < LY.bytes() - off, [&] { J.ds_write_b32(la, ones, {.offset = static_cast<int32_t>(V.base + off)}); });
  }
  barrier(J);
  auto row = J.vgpr<u32>().named("row");
  auto col = J.vgpr<u32>().named("col");
  row = t / per_row;
  col = (t % per_row) * vel;
  mem_offset colo = PROMISE ? multiple_of(col, vel & (0u - vel)) : mem_offset(col);  // (power of two)
  lds_addr a = V.addr(row, colo);
  for (uint32_t j = 0; j < chunks / 256; ++j) {
    auto v = J.vgpr<u32>(W);
    auto r = J.vgpr<u32>();
    r = row + j * drow;
    for (int w = 0; w < W; ++w) {
      if constexpr (eb == 4) {
        v[w] = (r << 12) | (col + w);
      } else {
        auto lo = J.vgpr<u32>();
        lo = (r << 8) | (col + 2 * w);
        v[w] = lo * 0x10001u + 0x10000u;
      }
    }
    V.store(v, a, static_cast<int32_t>(j * drow), 0);
  }
  barrier(J);
  auto ob = J.vgpr<u32>().named("ob");
  ob = t * (W * 4);
  for (uint32_t j = 0; j < chunks / 256; ++j) {
    auto v = J.vgpr<u32>(W);
    V.load(v, a, static_cast<int32_t>(j * drow), 0);
    J.s_waitcnt(lgkmcnt(0));
    O.store(v, ob + j * 256 * W * 4);
  }
  for (uint32_t off = 0; off < LY.bytes(); off += 1024) {
    J.If(la < LY.bytes() - off, [&] {
      auto v = J.vgpr<u32>();
      if (V.base + off + 1024 > 65536) J.ds_read_b32(v, raw_at(off));
      else J.ds_read_b32(v, la, {.offset = static_cast<int32_t>(V.base + off)});
      J.s_waitcnt(lgkmcnt(0));
      D.store(v, la + off);
    });
  }
}

// Pool: A (1024 B) and B (2048 B) live, A freed, C (512 B) reuses A's bytes; a scope holds
// D (4096 B) and frees it; E (4096 B) then reuses D's bytes. Writes the offsets to out[0..4]
// and, through the LDS, a phase-1 value from A and a phase-2 value from C (same bytes):
// out[8 + t] = t * 3 (A, phase 1), out[264 + t] = t * 5 + 1 (C, phase 2).
constexpr void pool_phases(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto O = make_buffer(J, out, 1024 * 4);
  auto t = J.thread_id_x();
  auto la = J.vgpr<u32>();
  la = t << 2;
  lds_ref A = pool.alloc(1024);
  lds_ref B = pool.alloc(2048);
  auto v = J.vgpr<u32>();
  v = t * 3;
  J.ds_write_b32(la, v, {.offset = static_cast<int32_t>(A.offset)});
  barrier(J);
  J.ds_read_b32(v, la, {.offset = static_cast<int32_t>(A.offset)});
  J.s_waitcnt(lgkmcnt(0));
  O.store(v, la + 32);
  barrier(J);  // every wave is done with A
  pool.free(A);
  lds_ref C = pool.alloc(512);
  auto w = J.vgpr<u32>();
  w = t * 5 + 1;
  J.If(t < 128, [&] { J.ds_write_b32(la, w, {.offset = static_cast<int32_t>(C.offset)}); });
  barrier(J);
  J.If(t < 128, [&] {
    J.ds_read_b32(w, la, {.offset = static_cast<int32_t>(C.offset)});
    J.s_waitcnt(lgkmcnt(0));
    O.store(w, la + 1056);
  });
  lds_ref D{}, E{};
  pool.scope([&] { D = pool.alloc(4096); });
  E = pool.alloc(4096);
  auto offs = J.vgpr<u32>(5);
  offs[0] = A.offset;
  offs[1] = B.offset;
  offs[2] = C.offset;
  offs[3] = D.offset;
  offs[4] = E.offset;
  auto z = J.vgpr<u32>();
  z = 0u;
  J.If(t == 0u, [&] {
    O.store(offs.slice(0, 4), z);
    O.store(offs[4], z + 16);
  });
}

// Constant offsets at the limits: a 64 KiB view of dwords (256 x 64); element (255, 63) is byte
// 65532, offset:65532 with a zero address register; read2 offsets up to 255 and past it.
constexpr void offset_limits(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 256, .cols = 64, .elem_bytes = 4});
  auto O = make_buffer(J, out, 256 * 4);
  auto t = J.thread_id_x();
  auto v = J.vgpr<u32>(2);
  v[0] = t + 7;
  v[1] = t + 9;
  J.If(t == 0u, [&] {
    V.store(v[0], 255, 63);  // byte 65532: a zero address register, offset:65532
    V.store(v, 3, 62);       // 8 bytes at 1016 (8-aligned): ds_write_b64 offset:1016
    V.store(v, 3, 61);       // at 1012 (4-aligned): ds_write2_b32 offset0:253 offset1:254
    V.store(v, 3, 63);       // at 1020: offset1 would be 256: v_add + ds_write2_b32 0/1
  });
  barrier(J);
  J.If(t == 0u, [&] {
    auto r = J.vgpr<u32>(8);
    r[1] = 0u;
    V.load(r[0], 255, 63);
    V.load(r.slice(2, 2), 3, 61);
    V.load(r.slice(4, 2), 3, 62);
    V.load(r.slice(6, 2), 3, 63);
    J.s_waitcnt(lgkmcnt(0));
    auto z = J.vgpr<u32>();
    z = 0u;
    O.store(r.slice(0, 4), z);
    O.store(r.slice(4, 4), z + 16);
  });
  // negative constants join the register: row - 1 with a register row (lanes 1..63)
  auto rr = J.vgpr<u32>();
  rr = t;
  J.If(t < 64u, [&] {
    J.If(t > 0u, [&] { V.store(rr, rr - 1, 5); });
  });
  barrier(J);
  J.If(t < 63u, [&] {
    auto x = J.vgpr<u32>();
    V.load(x, rr, 5);
    J.s_waitcnt(lgkmcnt(0));
    O.store(x, (t << 2) + 32 * 4);
  });
}

// Pairs (load2/store2): a 128 x 64 dword view holds r * 64 + c at (r, c) (written through
// the view, 4 dwords a lane a step). One wave; lane t's address p = (t >> 4, t & 15).
// out[t * 16 + ...]: 0-1 (0,0)+(0,1): read2_b32 0/1;  2-3 (0,0)+(4,0): read2st64_b32 0/4;
// 4-7 b64 pairs (0,0)+(8,0) (a 2-aligned column): read2st64_b64 0/4;  8-9 (0,0)+(63,0):
// read2st64_b32 0/63;  10-11 (1,1)+(60,3): no field fits: two ds_read_b32;  12-13 (2,0)+(2,5):
// read2_b32 128/133; then a store2 of (t, t+1) at (64,0)+(64,32) (16384 and 16512: neither
// form fits: 16384 moves into the address register, write2_b32 0/32), read back into 14-15.
constexpr void pair_cases(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 128, .cols = 64, .elem_bytes = 4});
  auto O = make_buffer(J, out, 64 * 16 * 4);
  auto t = J.thread_id_x();
  auto row = J.vgpr<u32>();
  auto col = J.vgpr<u32>();
  row = t >> 4;
  col = (t & 15) << 2;
  lds_addr w = V.addr(row, multiple_of(col, 4));
  for (int j = 0; j < 32; ++j) {
    auto v = J.vgpr<u32>(4);
    auto r = J.vgpr<u32>();
    r = row + 4 * j;
    for (int k = 0; k < 4; ++k) v[k] = (r << 6) + (col + k);
    V.store(v, w, 4 * j, 0);
  }
  barrier(J);
  auto r0 = J.vgpr<u32>();
  auto c0 = J.vgpr<u32>();
  r0 = t >> 4;
  c0 = t & 15;
  lds_addr p = V.addr(r0, c0);
  lds_addr p2 = V.addr(r0, multiple_of(c0 << 1, 2));
  auto x = J.vgpr<u32>(16);
  V.load2(x.slice(0, 2), p, 0, 0, 0, 1);
  V.load2(x.slice(2, 2), p, 0, 0, 4, 0);
  V.load2(x.slice(4, 4), p2, 0, 0, 8, 0);
  V.load2(x.slice(8, 2), p, 0, 0, 63, 0);
  V.load2(x.slice(10, 2), p, 1, 1, 60, 3);
  V.load2(x.slice(12, 2), p, 2, 0, 2, 5);
  auto y = J.vgpr<u32>(2);
  y[0] = t + 0u;
  y[1] = t + 1u;
  V.store2(y, p, 64, 0, 64, 32);
  barrier(J);
  V.load2(x.slice(14, 2), p, 64, 0, 64, 32);
  J.s_waitcnt(lgkmcnt(0));
  auto o = J.vgpr<u32>();
  o = t << 6;
  for (int k = 0; k < 16; k += 4) O.store(x.slice(k, 4), o + 4 * k);
}

// Swizzled reads by every addressing path: a 128 x 64 bf16 view (16-byte chunks x 8,
// the pattern repeats every 8 rows) holds (r << 8) | c at (r, c). One wave; lane t: r = t,
// c = (t % 8) * 8. 8 elements (4 dwords) per case into out[t * 28 + 4 * case]:
//  0: (5, c)          constant row, register column
//  1: (r + 3, c)      a row constant off the period: added to the register row
//  2: p + (3, 0)      a displacement off the period: recomputed
//  3: (7, 24)         all constant: the XOR done at compile time
//  4: p + (0, 8)      one chunk to the right: recomputed (the pattern XORs chunks)
//  5: p + (8, 0)      a whole period of rows: folded into offset:
//  6: p + (16, 0)     two periods: folded
constexpr void swz_reads(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8});
  auto O = make_buffer(J, out, 64 * 28 * 4);
  auto t = J.thread_id_x();
  {
    auto row = J.vgpr<u32>();
    auto col = J.vgpr<u32>();
    row = t >> 3;
    col = (t & 7) << 3;
    lds_addr w = V.addr(row, multiple_of(col, 8));
    for (int j = 0; j < 16; ++j) {
      auto v = J.vgpr<u32>(4);
      auto r = J.vgpr<u32>();
      r = row + 8 * j;
      for (int k = 0; k < 4; ++k) {
        auto lo = J.vgpr<u32>();
        lo = (r << 8) | (col + 2 * k);
        v[k] = lo * 0x10001u + 0x10000u;
      }
      V.store(v, w, 8 * j, 0);
    }
  }
  barrier(J);
  auto r = J.vgpr<u32>();
  auto c = J.vgpr<u32>();
  r = t + 0u;
  c = (t & 7) << 3;
  auto cm = multiple_of(c, 8);
  lds_addr p = V.addr(r, cm);
  auto x = J.vgpr<u32>(28);
  V.load(x.slice(0, 4), 5, cm);
  V.load(x.slice(4, 4), r + 3, cm);
  V.load(x.slice(8, 4), p, 3, 0);
  V.load(x.slice(12, 4), 7, 24);
  V.load(x.slice(16, 4), p, 0, 8);
  V.load(x.slice(20, 4), p, 8, 0);
  V.load(x.slice(24, 4), p, 16, 0);
  J.s_waitcnt(lgkmcnt(0));
  auto o = J.vgpr<u32>();
  o = t * 112u;
  for (int k = 0; k < 28; k += 4) O.store(x.slice(k, 4), o + 4 * k);
}

// Misuse (not in lds_kernels.hip: they must fail to build; test_lds.cpp checks the messages).
// 16 bytes of bf16 at a column register whose alignment is not promised: 2-byte aligned only.
constexpr void bad_unaligned(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 16, .cols = 64, .elem_bytes = 2});
  auto c = J.vgpr<u32>();
  c = J.thread_id_x();
  auto v = J.vgpr<u32>(4);
  V.load(v, 0, c);  // BAD_UNALIGNED_LINE
  (void)out;
}
// A swizzle whose XOR would leave the row: 64-byte rows, 16-byte chunks x 8 groups.
constexpr void bad_swizzle(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 16, .cols = 32, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8});
  auto v = J.vgpr<u32>();
  V.load(v, 0, 0);
  (void)out;
}
// Freeing a block twice.
constexpr void bad_free(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  lds_ref a = pool.alloc(256);
  pool.free(a);
  pool.free(a);
  (void)out;
}


// Two reads of a swizzled view at one row register (value_memo, lds.hpp): the row's XOR
// pattern is built once in a block. Built again when the row register is written in between
// (Mode 1), after an If (Mode 2: a new block), or inside a recorded stream (Mode 3: it runs
// where it is emitted).
template <int Mode>
constexpr void memo_rows(builder J, arg<uint32_t*> out) {
  lds_pool pool(J);
  auto V = pool.view({.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8});
  auto O = make_buffer(J, out, 64 * 32);
  auto t = J.thread_id_x();
  auto row = J.vgpr<u32>();
  auto c0 = J.vgpr<u32>();
  auto c1 = J.vgpr<u32>();
  row = t >> 3;
  c0 = (t & 7) << 3;
  c1 = (t & 3) << 3;
  auto a = J.vgpr<u32>(4);
  auto b = J.vgpr<u32>(4);
  V.load(a, row, multiple_of(c0, 8));
  if constexpr (Mode == 1) row = t >> 2;
  if constexpr (Mode == 2) J.If(t < 32u, [&] { J.v_mov_b32(c1, 0u); });
  if constexpr (Mode == 3) {
    auto s = record(J, [&] { V.load(b, row, multiple_of(c1, 8)); });
    emit_all(J, s);
  } else {
    V.load(b, row, multiple_of(c1, 8));
  }
  J.s_waitcnt(lgkmcnt(0));
  O.store(a, at(t << 5));
  O.store(b, at(t << 5) + 16);
}

}  // namespace lds_fns
