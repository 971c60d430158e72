// Kernels of test_interleave.cpp (compiled by interleave.hip, built on the host by the test to
// read the merged order).
#pragma once
#include <hipasm/hipasm.hpp>

namespace il_test {
using namespace hipasm;

// One wave. in (per lane l, 48 dwords at l*48): A pairs a[0..15], B pairs b[0..15], then x
// data (8 dwords) and LDS data (4 dwords). Stream 0: eight 32x32x8 bf16 MFMAs, MFMA i into
// acc[i % 2] from a[2i..2i+1], b[2i..2i+1]. Stream 1: two global_load_dwordx4, two
// ds_read_b64, one ds_write_b64, and a v_add_f32 that reads acc[0] (so it must follow the
// last MFMA into acc[0]). out per lane (64 dwords at l*64): acc[0] (16), acc[1] (16), x (8),
// y (4), sum (1), the LDS dwords the ds_write wrote (2).
template <bool Interleaved>
constexpr void order_kernel(builder J, arg<float*> out, arg<const uint32_t*> in) {
  auto lane = J.thread_id_x();
  auto voff = J.vgpr<u32>();
  voff = lane * 192;  // 48 dwords per lane
  auto a = J.vgpr<u32>(16), b = J.vgpr<u32>(16);
  for (int k = 0; k < 4; ++k) J.global_load_dwordx4(a.slice(4 * k, 4), voff, in, {.offset = 16 * k});
  for (int k = 0; k < 4; ++k) J.global_load_dwordx4(b.slice(4 * k, 4), voff, in, {.offset = 64 + 16 * k});
  auto ldsd = J.vgpr<u32>(4);
  J.global_load_dwordx4(ldsd, voff, in, {.offset = 160});
  auto lds = J.lds<uint32_t>(64 * 8, 16);
  auto laddr = J.vgpr<u32>();
  laddr = lane * 16 + lds.offset;
  J.s_waitcnt(vmcnt(0));
  J.ds_write_b128(laddr, ldsd);
  J.s_waitcnt(lgkmcnt(0));
  auto acc = J.vgpr<f32>(2, 16);
  acc.fill(0.0f);
  auto x0 = J.vgpr<u32>(4), x1 = J.vgpr<u32>(4);
  auto y0 = J.vgpr<u32>(2), y1 = J.vgpr<u32>(2);
  auto sum = J.vgpr<f32>();
  auto waddr = J.vgpr<u32>();
  waddr = lane * 8 + (lds.offset + 64 * 16);
  auto mfmas = [&] {
    for (int i = 0; i < 8; ++i)
      J.v_mfma_f32_32x32x8_bf16(acc[i % 2], a.slice(2 * i, 2), b.slice(2 * i, 2), acc[i % 2]);
  };
  auto loads = [&] {
    J.global_load_dwordx4(x0, voff, in, {.offset = 128});  // G0
    J.global_load_dwordx4(x1, voff, in, {.offset = 144});  // G1
    J.ds_read_b64(y0, laddr);                               // R0
    J.ds_read_b64(y1, laddr, {.offset = 8});                // R1
    J.ds_write_b64(waddr, a.slice(0, 2));                   // W0
    J.v_add_f32(sum, 1.0f, acc[0][0]);                      // V: reads acc[0]
  };
  if constexpr (Interleaved) {
    interleave(J, mfmas, loads);
  } else {
    mfmas();
    loads();
  }
  J.s_waitcnt(vmcnt(0) | lgkmcnt(0));
  auto w = J.vgpr<u32>(2);
  J.ds_read_b64(w, waddr);
  J.s_waitcnt(lgkmcnt(0));
  auto o = J.vgpr<u32>();
  o = lane * 256;
  for (int k = 0; k < 8; ++k) J.global_store_dwordx4(o, acc.flat().slice(4 * k, 4), out, {.offset = 16 * k});
  J.global_store_dwordx4(o, x0, out, {.offset = 128});
  J.global_store_dwordx4(o, x1, out, {.offset = 144});
  J.global_store_dwordx2(o, y0, out, {.offset = 160});
  J.global_store_dwordx2(o, y1, out, {.offset = 168});
  J.global_store_dword(o, sum, out, {.offset = 176});
  J.global_store_dwordx2(o, w, out, {.offset = 180});
}

// A GEMM-like main loop: per step, sixteen 32x32x8 bf16 MFMAs into a 2x2 grid of 32x32
// accumulators (acc[2r + c] += A[r][k] * B[c][k], k 0-3) on buffers loaded two steps before
// (software_pipeline, depth 3, ring of three register buffers), eight global_load_dwordx4 per
// step. in: per step 8 KB laid out [j][lane][4 dwords]; j 0-3 hold the A pairs (pair p =
// 4r + k at buffer dwords 2p), j 4-7 the B pairs (pair 4c + k at dwords 16 + 2p). Every wave
// reads the same data; out[(wave * 64 + 16 t + reg) * 64 + lane] = acc[t].
template <bool Interleaved, int Steps>
constexpr void loop_kernel(builder J, arg<float*> out, arg<const uint32_t*> in) {
  auto tid = J.thread_id_x();
  auto lane = J.vgpr<u32>();
  lane = tid & 63;
  auto vo = J.vgpr<u32>(), vo2 = J.vgpr<u32>();
  vo = lane * 16;
  vo2 = vo + 4096;
  auto p = J.sgpr<u64>();
  p = in;
  gpr<u32> bufs[3] = {J.vgpr<u32>(32), J.vgpr<u32>(32), J.vgpr<u32>(32)};
  auto acc = J.vgpr<f32>(4, 16);
  acc.fill(0.0f);
  software_pipeline(
      J, Steps, 3,
      [&](const gpr<i32>&, int buf) {
        auto r = bufs[buf];
        for (int k = 0; k < 4; ++k) J.global_load_dwordx4(r.slice(4 * k, 4), vo, p, {.offset = 1024 * k});
        for (int k = 0; k < 4; ++k) J.global_load_dwordx4(r.slice(16 + 4 * k, 4), vo2, p, {.offset = 1024 * k});
        p = p + 8192;
      },
      [&](const gpr<i32>&, int buf) {
        auto r = bufs[buf];
        for (int k = 0; k < 4; ++k)
          for (int t = 0; t < 4; ++t)
            J.v_mfma_f32_32x32x8_bf16(acc[t], r.slice(2 * (4 * (t / 2) + k), 2), r.slice(16 + 2 * (4 * (t % 2) + k), 2),
                                      acc[t]);
      },
      {.interleave = Interleaved});
  auto o = J.vgpr<u32>(4);
  o[0] = (tid >> 6) * (64 * 64 * 4) + lane * 4;
  for (int t = 1; t < 4; ++t) o[t] = o[0] + 4096 * t;
  for (int r = 0; r < 64; ++r) J.global_store_dword(o[r / 16], acc.flat()[r], out, {.offset = (r % 16) * 256});
}

// Stream 0: four MFMAs, a ds_read_b32 into x, s_waitcnt lgkmcnt(0), two more MFMAs. Stream 1:
// three v_add_f32 that depend on nothing of stream 0, then one that reads x. The independent
// ones belong between the first MFMAs (the s_waitcnt orders only against memory operations);
// the one reading x after the s_waitcnt (not merely after the ds_read).
constexpr void wait_order_kernel(builder J, arg<float*> out) {
  auto lane = J.thread_id_x();
  auto a = J.vgpr<u32>(2), b = J.vgpr<u32>(2);
  a.fill(0x3f803f80u);
  b.fill(0x3f803f80u);
  auto acc = J.vgpr<f32>(16);
  acc.fill(0.0f);
  auto lds = J.lds<uint32_t>(64, 4);
  auto laddr = J.vgpr<u32>();
  laddr = lane * 4 + lds.offset;
  J.ds_write_b32(laddr, a[0]);
  J.s_waitcnt(lgkmcnt(0));
  auto x = J.vgpr<f32>(), y = J.vgpr<f32>(3), z = J.vgpr<f32>();
  y.fill(1.0f);
  interleave(
      J,
      [&] {
        for (int i = 0; i < 4; ++i) J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc);
        J.ds_read_b32(x, laddr);
        J.s_waitcnt(lgkmcnt(0));
        for (int i = 0; i < 2; ++i) J.v_mfma_f32_32x32x8_bf16(acc, a, b, acc);
      },
      [&] {
        for (int i = 0; i < 3; ++i) J.v_add_f32(y[i], 2.0f, y[i]);
        J.v_add_f32(z, 3.0f, x);
      });
  auto o = J.vgpr<u32>();
  o = lane * 84;
  for (int k = 0; k < 4; ++k) J.global_store_dwordx4(o, acc.slice(4 * k, 4), out, {.offset = 16 * k});
  for (int k = 0; k < 3; ++k) J.global_store_dword(o, y[k], out, {.offset = 64 + 4 * k});
  J.global_store_dword(o, z, out, {.offset = 76});
}

}  // namespace il_test

namespace il_test {
// The lowering's scalar constants (builder.hpp's scalar_constants: cvt_bf16x2's rounding bias
// and byte selector in SGPRs) inside recorded streams and around them. One wave; in: x, y (f32)
// at lane * 8 bytes; out per lane (8 dwords at lane * 32): a = (x, y) in stream A, b = (y, x)
// and f = (2x, 2y) in the main code between recording A and merging, c = (x + 1, y) in stream B,
// d = (x, x) in a per-lane If (lanes < 32; 0 elsewhere), e = (y, y) after it.
constexpr void consts_kernel(builder J, arg<uint32_t*> out, arg<const uint32_t*> in) {
  auto lane = J.thread_id_x();
  auto io = J.vgpr<u32>(), xy = J.vgpr<u32>(2);
  io = lane * 8;
  J.global_load_dwordx2(xy, io, in);
  J.s_waitcnt(vmcnt(0));
  auto x = xy[0].as<f32>(), y = xy[1].as<f32>();
  auto r = J.vgpr<u32>(8);
  constexpr auto rne = bf16_round::nearest_even_finite;
  auto sa = record(J, [&] { r[0] = cvt_bf16x2(x, y, rne).as<u32>(); });
  r[1] = cvt_bf16x2(y, x, rne).as<u32>();  // (stream A's constants were cut out with it)
  r[5] = cvt_bf16x2(x * 2.0f, y * 2.0f, rne).as<u32>();
  auto sb = record(J, [&] { r[2] = cvt_bf16x2(x + 1.0f, y, rne).as<u32>(); });  // (the main code's, before the merge)
  interleave(J, sb, sa);
  r[3] = 0u;
  J.If(lane < 32u, [&] { r[3] = cvt_bf16x2(x, x, rne).as<u32>(); });
  r[4] = cvt_bf16x2(y, y, rne).as<u32>();
  r[6] = 0u;
  r[7] = 0u;
  auto o = J.vgpr<u32>();
  o = lane * 32;
  J.global_store_dwordx4(o, r.slice(0, 4), out);
  J.global_store_dwordx4(o, r.slice(4, 4), out, {.offset = 16});
}
}  // namespace il_test
constexpr void il_consts(hipasm::builder J, hipasm::arg<uint32_t*> out, hipasm::arg<const uint32_t*> in) { il_test::consts_kernel(J, out, in); }
constexpr void il_wait_order(hipasm::builder J, hipasm::arg<float*> out) { il_test::wait_order_kernel(J, out); }
constexpr void il_order_on(hipasm::builder J, hipasm::arg<float*> out, hipasm::arg<const uint32_t*> in) { il_test::order_kernel<true>(J, out, in); }
constexpr void il_order_off(hipasm::builder J, hipasm::arg<float*> out, hipasm::arg<const uint32_t*> in) { il_test::order_kernel<false>(J, out, in); }
constexpr void il_loop_on(hipasm::builder J, hipasm::arg<float*> out, hipasm::arg<const uint32_t*> in) { il_test::loop_kernel<true, 16>(J, out, in); }
constexpr void il_loop_off(hipasm::builder J, hipasm::arg<float*> out, hipasm::arg<const uint32_t*> in) { il_test::loop_kernel<false, 16>(J, out, in); }
