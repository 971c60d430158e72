// Kernels of test_lds_high_sim.cpp (gfx950: 160 KiB of LDS): every helper that takes an LDS
// region, with the region above 64 KiB or across it (a DS instruction's offset: has 16 bits).
// Each kernel first takes Pad bytes of LDS (J.lds), so its pool / scratch starts there.
#include <hipasm/hipasm.hpp>

#include "lds_fns.hpp"
#include "target_features_fns.hpp"

using namespace hipasm;

namespace lh {

constexpr void pad(builder J, uint32_t bytes) { (void)J.lds<uint32_t>(bytes / 4, 16); }

// workgroup_reduce of a pair (x, 3x) by sum (u32) and of x by max (f32), 4 waves:
// out[t] = sum x, out[256 + t] = sum 3x, out[512 + t] = max x (every lane the same).
template <uint32_t Pad>
constexpr void wg_reduce(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  pad(J, Pad);
  lds_ref s1 = J.lds<uint32_t>(8, 16), s2 = J.lds<uint32_t>(4, 16);
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto x = J.vgpr<u32>();
  J.global_load_dword(x, o, in);
  J.s_waitcnt(vmcnt(0));
  auto p = J.vgpr<u32>(2);
  p[0] = x;
  p[1] = x * 3u;
  auto r = workgroup_reduce(J, reduce::sum, p, s1, 4);
  auto m = workgroup_reduce(J, reduce::max, x.as<f32>(), s2, 4);
  auto v = J.vgpr<u32>(3);
  v[0] = r[0];
  v[1] = r[1];
  v[2] = m.as<u32>();
  for (int k = 0; k < 3; ++k) J.global_store_dword(o + static_cast<unsigned>(k) * 1024u, v[k], out);
}
// workgroup_scan (inclusive sum, u32), 4 waves, lanes with t % 5 == 2 off (a per-lane If):
// out[t] = the scan (the lanes off: 0), out[256 + t] = the total.
template <uint32_t Pad>
constexpr void wg_scan(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  pad(J, Pad);
  lds_ref s = J.lds<uint32_t>(4, 16);
  auto o = J.vgpr<u32>();
  o = J.thread_id_x() << 2u;
  auto x = J.vgpr<u32>();
  J.global_load_dword(x, o, in);
  J.s_waitcnt(vmcnt(0));
  auto y = J.vgpr<u32>(), tot = J.vgpr<u32>();
  y = 0u;
  tot = 0u;
  J.If(J.thread_id_x() % 5u != 2u, [&] {
    J.wave_uniform([&] {  // (every wave has lanes on: each reaches the barrier)
      auto r = workgroup_scan(J, reduce::sum, x, s, 4);
      y = r.value;
      tot = r.total;
    });
  });
  J.global_store_dword(o, y, out);
  J.global_store_dword(o + 1024u, tot, out);
}

// lds_fns::view_roundtrip / tf::transposed / tile_fns::tile_rt with their LDS Pad bytes up
template <lds_layout LY, int W, bool PROMISE, uint32_t Pad>
constexpr void view_rt(builder J, arg<uint32_t*> out, arg<uint32_t*> dump) {
  pad(J, Pad);
  lds_fns::view_roundtrip<LY, W, PROMISE, 0>(J, out, dump);
}
template <uint32_t EB, bool SWZ, uint32_t Pad>
constexpr void transposed(builder J, arg<unsigned*> out, arg<const unsigned*> in) {
  pad(J, Pad);
  tf::transposed<EB, SWZ>(J, out, in);
}
template <lds_layout LY, tile_copy_opts O, uint32_t Pad>
constexpr void tile(builder J, arg<uint32_t*> out, arg<const uint32_t*> in, arg<unsigned> in_bytes, arg<unsigned> ld_bytes,
                    arg<unsigned> origin) {
  pad(J, Pad);
  tile_fns::tile_rt<LY, O>(J, out, in, in_bytes, ld_bytes, origin);
}

// One lane stores 12 bytes (3 dwords, 4-byte aligned: a pair and one dword 8 bytes on) at byte
// Pad + 12 of the LDS, a constant address, and reads them back: out[0..2] = 11, 22, 33. With
// Pad = 65520 the dword 8 bytes on is at 65540: past offset:'s 16 bits.
template <uint32_t Pad>
constexpr void w3_const(builder J, arg<unsigned*> out) {
  pad(J, Pad);
  lds_pool pool(J);
  const lds_view V = pool.view({.rows = 1, .cols = 8, .elem_bytes = 4});
  J.If(J.thread_id_x() == 0u, [&] {
    auto v = J.vgpr<u32>(3), r = J.vgpr<u32>(3);
    v[0] = 11u;
    v[1] = 22u;
    v[2] = 33u;
    V.store(v, 0, 3);
    J.s_waitcnt(lgkmcnt(0));
    V.load(r, 0, 3);
    J.s_waitcnt(lgkmcnt(0));
    auto z = J.vgpr<u32>();
    z = 0u;
    J.global_store_dwordx3(z, r, out);
  });
}

constexpr lds_layout plain64{.rows = 64, .cols = 64, .elem_bytes = 4};
constexpr lds_layout w3{.rows = 64, .cols = 48, .elem_bytes = 4, .row_pad = 4};
constexpr lds_layout bf16_sw{.rows = 128, .cols = 64, .elem_bytes = 2, .swz_chunk = 16, .swz_groups = 8};

}  // namespace lh

// Pads: 64 KiB exactly; 8 / 16 bytes below it (the region crosses 64 KiB); 128 KiB.
#define LH_WG(P)                                                                                                  \
  extern "C" __attribute__((global)) void wg_reduce_##P(unsigned* o, const unsigned* i) { HIPASM_KERNEL_BODY((lh::wg_reduce<P>), o, i); } \
  extern "C" __attribute__((global)) void wg_scan_##P(unsigned* o, const unsigned* i) { HIPASM_KERNEL_BODY((lh::wg_scan<P>), o, i); }
LH_WG(65536) LH_WG(65520) LH_WG(131072)
#define LH_VIEW(name, ...)                                    \
  constexpr auto name##_fn = &lh::view_rt<__VA_ARGS__>;       \
  extern "C" __attribute__((global)) void name(uint32_t* o, uint32_t* d) { HIPASM_KERNEL_BODY(name##_fn, o, d); }
LH_VIEW(rt_plain_b128_at64k, lh::plain64, 4, true, 65536)
LH_VIEW(rt_plain_b128_across, lh::plain64, 4, true, 57344)
LH_VIEW(rt_w3_across, lh::w3, 3, true, 61440)
LH_VIEW(rt_bf16_sw_at128k, lh::bf16_sw, 4, true, 131072)
LH_VIEW(rt_nopromise_at96k, lh::plain64, 4, false, 98304)
#define LH_TR(name, EB, SWZ, P) \
  extern "C" __attribute__((global)) void name(unsigned* o, const unsigned* i) { HIPASM_KERNEL_BODY((lh::transposed<EB, SWZ, P>), o, i); }
LH_TR(tr_b16_across, 2, false, 61440) LH_TR(tr_b16_swz_at96k, 2, true, 98304) LH_TR(tr_b8_at64k, 1, false, 65536)
#define LH_TILE(name, LY, THREADS, VEC, DIRECT, P)                                                          \
  constexpr auto name##_fn = &lh::tile<LY, tile_copy_opts{THREADS, VEC, DIRECT, true}, P>;                  \
  extern "C" __attribute__((global)) void name(uint32_t* o, const uint32_t* i, unsigned ib, unsigned ld, unsigned org) { \
    HIPASM_KERNEL_BODY(name##_fn, o, i, ib, ld, org);                                                        \
  }
LH_TILE(dma16_bf16_swz_across, tf::dma_bf16_swz, 128, 16, true, 57344)
LH_TILE(dma4_f32_at96k, tf::dma_f32_40, 256, 4, true, 98304)
LH_TILE(staged_bf16_pad_at128k, tf::dma_bf16_pad, 256, 16, false, 131072)
LH_TILE(staged_bf16_swz_across, tf::dma_bf16_swz, 256, 8, false, 61440)
extern "C" __attribute__((global)) void w3_const_edge(unsigned* o) { HIPASM_KERNEL_BODY((lh::w3_const<65520>), o); }
