// Random straight-line streams over a few shared registers (VGPRs, SGPRs, VCC, SCC), merged by
// interleave(): the merge must mean the streams run one after the other. The same generator
// feeds a plain C++ interpreter in test_interleave.cpp.
#pragma once
#include <cstdint>

#include <hipasm/hipasm.hpp>

namespace il_fuzz {

constexpr int kStreams = 3, kOps = 16, kV = 8, kS = 8;
enum op_kind : uint8_t { v_add, v_mul, v_xor, v_cmp_gt, v_cndmask, s_add, s_addc, v_add_s, s_cselect, lds_w, lds_r, kinds };
constexpr int kSlots = 4;  // LDS dwords per lane
struct op {
  op_kind k;
  uint8_t d, a, b;
};
struct program {
  op ops[kStreams][kOps];
};

constexpr uint32_t next(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}
// Initial SGPR i: mixed bits, so that carries (SCC) come out either way.
constexpr uint32_t sgpr_init(uint32_t seed, int i) {
  uint32_t x = seed * 2654435761u + static_cast<uint32_t>(i) * 40503u + 12345u;
  x ^= x >> 13;
  x *= 2246822519u;
  return x ^ (x >> 16);
}
constexpr program generate(uint32_t seed) {
  program p{};
  uint32_t s = seed;
  for (int t = 0; t < kStreams; ++t)
    for (int i = 0; i < kOps; ++i) {
      op& o = p.ops[t][i];
      o.k = static_cast<op_kind>(next(s) % kinds);
      const bool sdst = o.k == s_add || o.k == s_addc || o.k == s_cselect;
      const bool ssrc = sdst || o.k == v_add_s;  // (lds_w/lds_r: a picks the slot, a % kSlots)
      o.d = static_cast<uint8_t>(next(s) % (sdst ? kS : kV));
      o.a = static_cast<uint8_t>(next(s) % (ssrc ? kS : kV));
      o.b = static_cast<uint8_t>(next(s) % (sdst ? kS : kV));
    }
  return p;
}

template <uint32_t Seed>
inline constexpr program program_of = generate(Seed);

// out per lane l (16 dwords at l*64): v[0..4], s[0..2], SCC, VCC bit of the lane.
template <uint32_t Seed, bool Interleaved>
constexpr void kernel(hipasm::builder J, hipasm::arg<uint32_t*> out) {
  using namespace hipasm;
  auto lane = J.thread_id_x();
  auto v = J.vgpr<u32>(kV);
  auto sr = J.sgpr<u32>(kS);
  for (int i = 0; i < kV; ++i) v[i] = lane * (2u * i + 3u) + (Seed * (i + 1)) % 1000u;
  for (int i = 0; i < kS; ++i) J.s_mov_b32(sr[i], sgpr_init(Seed, i));
  J.s_mov_b64(vcc, 0);
  auto lds = J.lds<uint32_t>(64 * kSlots);
  auto la = J.vgpr<u32>(kSlots);
  auto sink = J.vgpr<u32>(kSlots);
  sink.fill(0u);
  for (int k = 0; k < kSlots; ++k) {
    la[k] = lane * (4u * kSlots) + (lds.offset + 4u * k);
    J.ds_write_b32(la[k], v[k % kV]);  // slot k starts as v[k]
  }
  J.s_waitcnt(lgkmcnt(0));
  J.s_cmp_eq_u32(sr[0], sr[0]);  // SCC = 1
  auto stream = [&](int t) {
    for (int i = 0; i < kOps; ++i) {
      const int k = program_of<Seed>.ops[t][i].k, d = program_of<Seed>.ops[t][i].d;
      const int a = program_of<Seed>.ops[t][i].a, b = program_of<Seed>.ops[t][i].b;
      if (k == v_add) J.v_add_u32(v[d], v[a], v[b]);
      else if (k == v_mul) J.v_mul_lo_u32(v[d], v[a], v[b]);
      else if (k == v_xor) J.v_xor_b32(v[d], v[a], v[b]);
      else if (k == v_cmp_gt) J.v_cmp_gt_u32(vcc, v[a], v[b]);
      else if (k == v_cndmask) J.v_cndmask_b32(v[d], v[a], v[b], vcc);
      else if (k == s_add) J.s_add_u32(sr[d], sr[a], sr[b]);
      else if (k == s_addc) J.s_addc_u32(sr[d], sr[a], sr[b]);
      else if (k == v_add_s) J.v_add_u32(v[d], sr[a], v[b]);
      else if (k == s_cselect) J.s_cselect_b32(sr[d], sr[a], sr[b]);
      else if (k == lds_w) J.ds_write_b32(la[a % kSlots], v[b]);
      else if (k == lds_r) J.ds_read_b32(sink[d % kSlots], la[a % kSlots]);  // (read after the streams)
    }
  };
  if constexpr (Interleaved) {
    interleave(J, [&] { stream(0); }, [&] { stream(1); }, [&] { stream(2); });
  } else {
    for (int t = 0; t < kStreams; ++t) stream(t);
  }
  auto res = J.vgpr<u32>(kV + kS + 2 + 2 * kSlots);
  J.s_waitcnt(lgkmcnt(0));
  for (int k = 0; k < kSlots; ++k) res[kV + kS + 2 + kSlots + k] = sink[k];
  for (int k = 0; k < kSlots; ++k) J.ds_read_b32(res[kV + kS + 2 + k], la[k]);
  J.s_waitcnt(lgkmcnt(0));
  for (int i = 0; i < kV; ++i) res[i] = v[i];
  for (int i = 0; i < kS; ++i) res[kV + i] = sr[i];
  auto sc = J.sgpr<u32>();
  J.s_cselect_b32(sc, 1, 0);
  res[kV + kS] = sc;
  J.v_cndmask_b32(res[kV + kS + 1], 0, 1, vcc);
  auto o = J.vgpr<u32>();
  o = lane * 128u;
  for (int i = 0; i < kV + kS + 2 + 2 * kSlots; ++i) J.global_store_dword(o, res[i], out, {.offset = 4 * i});
}

}  // namespace il_fuzz

#define IL_FUZZ(seed) \
  constexpr void il_fuzz_##seed(hipasm::builder J, hipasm::arg<uint32_t*> o) { il_fuzz::kernel<seed, true>(J, o); }
IL_FUZZ(1)
IL_FUZZ(2)
IL_FUZZ(3)
IL_FUZZ(4)
IL_FUZZ(5)
IL_FUZZ(6)
IL_FUZZ(7)
IL_FUZZ(8)
