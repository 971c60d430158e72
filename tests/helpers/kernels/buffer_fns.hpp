// Buffer-resource kernels (tests/helpers/test_buffer.cpp runs them in hipasm-sim against C++;
// buffer_kernels.hip wraps them into HIP kernels). One wave-64 workgroup per 64 elements,
// gid = workgroup * 64 + lane.
#pragma once
#include <cstdint>

#include <hipasm/hipasm.hpp>

namespace buffer_fns {
using namespace hipasm;

constexpr gpr<u32> gid(builder J) {
  auto g = J.vgpr<u32>().named("gid");
  g = J.workgroup_id_x() * 64 + J.thread_id_x();
  return g;
}

// Tail tile: W dwords per lane from in (a V# of exactly n dwords) to out (a V# of n dwords)
// and, unguarded, to seen (a V# over all lanes: what the loads returned).
template <int W>
constexpr void copy_tail(builder J, arg<uint32_t*> out, arg<uint32_t*> seen, arg<const uint32_t*> in, arg<unsigned> n,
                         arg<unsigned> lanes_total) {
  auto bytes = J.sgpr<u32>();
  bytes = n << 2;
  auto I = make_buffer(J, in, bytes);
  auto O = make_buffer(J, out, bytes);
  auto all = J.sgpr<u32>();
  all = lanes_total * (W * 4);
  auto S = make_buffer(J, seen, all);
  auto v = J.vgpr<u32>(W);
  auto voff = J.vgpr<u32>();
  voff = gid(J) * (W * 4);
  I.load(v, voff);
  J.s_waitcnt(vmcnt(0));
  O.store(v, voff);
  S.store(v, voff);
}

// Constant offsets (folded or not): out[gid * 8 + k] = in[gid + K_k / 4] for eight constants
// K_k, through the expression `voff + K` (an rvalue: peeled) and an SGPR term.
constexpr void offsets(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                       arg<unsigned> sbase) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto g = J.thread_id_x();  // one workgroup: below 1024, so voff + K provably does not wrap
  auto voff = J.vgpr<u32>().named("voff");
  voff = g << 2;
  auto v = J.vgpr<u32>(8);
  I.load(v[0], voff + 0);
  I.load(v[1], voff + 4092);          // largest offset: field
  I.load(v[2], voff + 4096);          // soffset 4096, offset:0
  I.load(v[3], voff + 8200);          // soffset 8192, offset:8
  I.load(v[4], voff + (65536 + 12));  // soffset 65536, offset:12
  I.load(v[5], (voff + 64) - 64);     // peels -64 of the outer sub: voff + 64 register, -64 in a v_add
  I.load(v[6], at(voff) + sbase + 16);  // VGPR + SGPR + constant
  I.load(v[7], sbase + 8, at(voff));  // an SGPR expression (s_add peeled) and a VGPR term
  J.s_waitcnt(vmcnt(0));
  auto o = J.vgpr<u32>();
  o = g << 5;
  for (int k = 0; k < 8; ++k) O.store(v[k], o + 4 * k);
}

// Sub-dword widths: per lane, byte offset b = gid * 4 + 1.
// out[gid*16 + 0..3] = u8, i8, u16 (at b-1), i16 (at b-1) loads
// out[..4..7] = d16 loads into a register holding 0xAAAA5555: u8_d16, i8_d16, u16_d16, u16_d16_hi
// out[..8..9] = u8_d16_hi, i8_d16_hi
// bytes: store_out[gid*8 + 1] = low byte of x, store_out[gid*8+2..3] = low short of x,
// store_out[gid*8+4] = byte 2 of x (byte_d16_hi), [6..7] = high short (short_d16_hi); x = in dword gid
constexpr void narrow_widths(builder J, arg<uint32_t*> out, arg<uint8_t*> store_out, arg<const uint8_t*> in,
                             arg<unsigned> in_bytes) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto B = make_buffer(J, store_out, 0x7ffffff0u);
  auto g = gid(J);
  auto b = J.vgpr<u32>();
  b = g << 2;
  auto r = J.vgpr<u32>(10);
  I.load(r[0], b + 1, {.width = narrow::u8});
  I.load(r[1], b + 1, {.width = narrow::i8});
  I.load(r[2], b, {.width = narrow::u16});
  I.load(r[3], b + 2, {.width = narrow::i16});
  for (int k = 4; k < 10; ++k) r[k] = 0xAAAA5555u;
  I.load(r[4], b + 1, {.width = narrow::u8_d16});
  I.load(r[5], b + 1, {.width = narrow::i8_d16});
  I.load(r[6], b + 2, {.width = narrow::u16_d16});
  I.load(r[7], b + 2, {.width = narrow::u16_d16_hi});
  I.load(r[8], b + 3, {.width = narrow::u8_d16_hi});
  I.load(r[9], b + 3, {.width = narrow::i8_d16_hi});
  auto x = J.vgpr<u32>();
  I.load(x, b);
  J.s_waitcnt(vmcnt(0));
  auto o = J.vgpr<u32>();
  o = g << 6;
  for (int k = 0; k < 10; ++k) O.store(r[k], o + 4 * k);
  auto so = J.vgpr<u32>();
  so = g << 3;
  B.store(x, so + 1, {.width = narrow::u8});
  B.store(x, so + 2, {.width = narrow::u16});
  B.store(x, so + 4, {.width = narrow::u8_d16_hi});
  B.store(x, so + 6, {.width = narrow::u16_d16_hi});
}

// Direct-to-LDS: each wave loads 64 dwords (in[gid + delta], delta a kernarg) to LDS at
// 512 + 256*wave... with a folded constant offset (K bytes), reads them back with ds_read
// and stores out[gid]. One workgroup of 256 lanes; in is a V# of in_bytes.
// After an LDS-DMA load: waits for it, reads LDS[tile + 4t] back and stores it to out[t].
constexpr void lds_readback(builder J, const buffer& O, uint32_t tile_offset) {
  J.s_waitcnt(vmcnt(0));
  auto t = J.thread_id_x();
  auto v = J.vgpr<u32>();
  auto la = J.vgpr<u32>();
  la = t << 2;
  J.ds_read_b32(v, la, {.offset = static_cast<int32_t>(tile_offset)});
  J.s_waitcnt(lgkmcnt(0));
  O.store(v, t << 2);
}
template <int K>
constexpr void lds_dma(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto pad = J.lds<uint32_t>(128);  // LDS not at 0
  (void)pad;
  auto tile = J.lds<uint32_t>(256, 16);
  auto t = J.thread_id_x();
  auto wave = J.sgpr<u32>();
  J.v_readfirstlane_b32(wave, t);
  wave = wave >> 6;
  auto woff = J.sgpr<u32>();
  woff = wave << 8;
  auto voff = J.vgpr<u32>();
  voff = t << 2;
  // the LDS address: a constant (the tile's offset) plus an SGPR (this wave's 256 bytes)
  I.load_lds(at(woff) + tile.offset, voff + K);
  lds_readback(J, O, tile.offset);
}

// advance: out[gid] = in[gid + s_skip_bytes/4] through a V# advanced by s_skip bytes (an
// SGPR), then a second advance by a constant 64 bytes: out2[gid] = in[gid + skip/4 + 16].
// Past the end (num_records clamped at 0) loads return 0.
constexpr void advance(builder J, arg<uint32_t*> out, arg<uint32_t*> out2, arg<const uint32_t*> in,
                       arg<unsigned> in_bytes, arg<unsigned> skip) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto O2 = make_buffer(J, out2, 0x7ffffff0u);
  auto g = gid(J);
  auto voff = J.vgpr<u32>();
  voff = g << 2;
  I.advance(skip);
  auto v = J.vgpr<u32>(2);
  I.load(v[0], voff);
  I.advance(64);
  I.load(v[1], voff);
  J.s_waitcnt(vmcnt(0));
  O.store(v[0], voff);
  O2.store(v[1], voff);
}

// Structured buffer: records of 12 bytes (3 dwords); out[gid] = record[gid].dword1, the
// V# holding `records` records (index >= records reads 0).
constexpr void structured(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> records) {
  auto I = make_buffer(J, in, records, {.stride = 12});
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto g = gid(J);
  auto v = J.vgpr<u32>();
  I.load_index(v, g, 4);
  J.s_waitcnt(vmcnt(0));
  O.store(v, g << 2);
}

// The peeling of expressions that end in a three-source add: the lowering may emit
// v_add3_u32 / v_lshl_add_u32 / v_mad_u32_u24 with an immediate addend (made here by hand as
// an expression result). out[gid * 4 + k] = in[gid + K_k / 4]: K = 64 (lshl_add), 4 + 48
// (add3 with an SGPR 4), 32 (mad_u24), 4 + 8 (add3, operands swapped).
constexpr mem_offset as_result(builder J, target_op op, operand_arg a, operand_arg b, operand_arg c) {
  builder& B = *J.self();
  detail::reg_ref r = B.new_reg(reg_class::vgpr, 1, 1, B.cur_loc());
  uint32_t first = B.cur_index();
  B.emit(op, {detail::as_arg(detail::reg_op(r)), a, b, c});
  B.last_expr_ = {r.id, B.cur_block(), first, B.cur_index()};
  gpr<u32> g(r);
  return mem_offset(std::move(g));
}
constexpr void peel_patterns(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto g = J.thread_id_x();  // one workgroup: the sums provably do not wrap
  auto four = J.sgpr<u32>();
  four = 4u;
  auto voff = J.vgpr<u32>();
  voff = g << 2;
  auto v = J.vgpr<u32>(4);
  I.load(v[0], as_result(J, target_op::v_lshl_add_u32, g, 2, 64));
  I.load(v[1], as_result(J, target_op::v_add3_u32, voff, four, 48));
  I.load(v[2], as_result(J, target_op::v_mad_u32_u24, g, 4, 32));
  I.load(v[3], as_result(J, target_op::v_add3_u32, four, voff, 8));  // the VGPR second: swapped
  J.s_waitcnt(vmcnt(0));
  O.store(v, g << 4);
}

// LDS-DMA with an SGPR LDS address (s, a kernel argument: 0 here) and a folded constant of
// 64: M0 = s - 64 would be negative (the hardware reads M0[17:0]: LDS byte 0x3ffc0 + 64, far
// outside the LDS), so the 64 goes to soffset and M0 = s. out[t] = in[t + 16].
constexpr void lds_dma_sgpr(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                            arg<unsigned> s) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto tile = J.lds<uint32_t>(64);
  auto t = J.thread_id_x();
  auto voff = J.vgpr<u32>();
  voff = t << 2;
  I.load_lds(at(s) + tile.offset, voff + 64);
  lds_readback(J, O, tile.offset);
}

// Offsets whose register add wraps around 2^32 (issue 38): w = lane * 4 - k is below 0 for
// every lane, w + (k + 4) is lane * 4 + 4 again. The buffer access sums voffset, soffset and
// offset: without wrapping, so the constant must stay in the register (peeling it would make
// voffset = w, a huge offset: every lane out of range, reading 0).
//   out[lane * 4 + 0] = in[lane + 1]         k an SGPR (kernel argument), w + (k + 4) with k + 4 = 8196
//   out[lane * 4 + 1] = in[lane + 1]         k = 8192 a constant
//   out[lane * 4 + 2] = in[lane + 1]         k = 16: w wraps for lanes 0-3 only, the constant fits offset:
//   out[lane * 4 + 3] = in[lane + 2049]      lane * 4 + 8196: provably no wrap, folded (soffset + offset:)
constexpr void wrap_offsets(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes,
                            arg<unsigned> k) {
  auto I = make_buffer(J, in, in_bytes);
  auto O = make_buffer(J, out, 0x7ffffff0u);
  auto lane = J.thread_id_x();
  auto w = J.vgpr<u32>().named("w");
  w = (lane << 2) - k;
  auto w2 = J.vgpr<u32>().named("w2");
  w2 = (lane << 2) - 8192u;
  auto w3 = J.vgpr<u32>().named("w3");
  w3 = (lane << 2) - 16u;
  auto v = J.vgpr<u32>(4);
  I.load(v[0], w + 8196u);
  I.load(v[1], w2 + 8196u);
  I.load(v[2], w3 + 20u);
  I.load(v[3], (lane << 2) + 8196u);
  J.s_waitcnt(vmcnt(0));
  O.store(v, lane << 4);
}

}  // namespace buffer_fns
