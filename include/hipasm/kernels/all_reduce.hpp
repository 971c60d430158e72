// All-reduce across the GPUs of a node (2, 4 or 8; bf16 or f32; in place or not), one-shot or
// two-shot: every rank's output is the sum, in f32, of all ranks' elements in rank order 0, 1,
// ... (so every rank's output is the same, bit for bit), rounded once to the output type (bf16:
// nearest even).
//
//   out_r[i] = sum over ranks p of in_p[i]      i < count, every rank r
//
// - one-shot: every rank reads every rank's whole input through peer mappings and writes its
//   own output (the latency-bound sizes: one round of flags, every byte read R times).
// - two-shot: the tensor is cut into R segments; rank r reduces segment r (reads it from every
//   rank: a reduce-scatter) and writes the result into every rank's output (an all-gather), as
//   AMD's aiter all_reduce.co does; each byte crosses the links twice, then a second round of
//   flags tells every rank that its output is complete.
//
// A segment (one-shot: the tensor) is cut into slices of 64 * waves lanes of 16 bytes (8 bf16
// or 4 f32 elements a lane); workgroup g of every rank takes slices g, g + G, ... (G =
// min(slices, max_groups)). Synchronisation, per workgroup, follows LLVM's memory model for
// gfx942 at system scope (AMDGPUUsage, "Memory Model GFX942"; gfx950 uses the same code):
// - a signal: the workgroup's waves wait for their memory accesses and meet at s_barrier; thread
//   0 releases (buffer_wbl2 sc0 sc1, s_waitcnt vmcnt(0)) and stores `epoch` into this rank's
//   slot of the workgroup's flags in every rank's flag buffer (sc0 sc1 stores through the peer
//   mappings);
// - a wait: every wave polls its own rank's slots (sc0 sc1 loads, s_sleep between polls) until
//   every rank's holds `epoch` or more, then invalidates its caches (buffer_inv sc0 sc1).
// Start: a signal and a wait (every rank's input is ready). One-shot in place: a second round
// after the sums are in registers and before the input is overwritten (so in place takes at most
// max_groups slices: all_reduce_max_in_place). Two-shot: a second round after the all-gather's
// stores (every rank's output is complete when its kernel ends).
// The flag buffer of a rank (all_reduce_flag_bytes) holds 2 x 8 u32 slots a workgroup; zero it
// once; every launch passes an `epoch` greater than the last one's (1, 2, 3, ...). One-shot not
// in place: a rank's input must not change until every rank's launch finished.
//
// Also here: all_reduce_rmsnorm and all_reduce_rmsnorm_quant (fused residual add + RMSNorm, below).
//
// Device side:  constexpr hipasm::kernels::all_reduce_config cfg{.ranks = 8, .type = hipasm::kernels::all_reduce_type::bf16};
//               HIPASM_ALL_REDUCE_KERNEL(all_reduce_bf16_8, cfg)
// Host side:    hipasm::kernels::launch_all_reduce<cfg>(node, modules, "all_reduce_bf16_8", {...});
#pragma once
#include <array>
#include <cstdint>
#include <utility>

#include "../hipasm.hpp"
#include "dynamic_quant.hpp"

namespace hipasm::kernels {

enum class all_reduce_type : uint8_t { bf16, f32 };
enum class all_reduce_algo : uint8_t { one_shot, two_shot };

struct all_reduce_config {
  int ranks = 8;                            // GPUs: 2, 4 or 8
  all_reduce_type type = all_reduce_type::bf16;
  bool in_place = false;                    // out is the rank's own input
  all_reduce_algo algo = all_reduce_algo::one_shot;
  int waves = 4;                            // waves per workgroup, 1..16
  int max_groups = 64;                      // workgroups at most (each waits for its peers:
                                            // all must be resident), 1..80
};
constexpr uint32_t all_reduce_elem_bytes(const all_reduce_config& c) { return c.type == all_reduce_type::bf16 ? 2u : 4u; }
// Elements a lane and a workgroup take.
constexpr uint32_t all_reduce_lane_elems(const all_reduce_config& c) { return 16u / all_reduce_elem_bytes(c); }
constexpr uint32_t all_reduce_group_elems(const all_reduce_config& c) {
  return all_reduce_lane_elems(c) * 64u * static_cast<uint32_t>(c.waves);
}
// Elements a rank reduces (two-shot: its segment), in slices that the workgroups take (slice
// g, g + groups, ...).
constexpr uint32_t all_reduce_segment(const all_reduce_config& c, uint32_t count) {
  return c.algo == all_reduce_algo::two_shot ? count / static_cast<uint32_t>(c.ranks) : count;
}
constexpr uint32_t all_reduce_slices(const all_reduce_config& c, uint32_t count) {
  return (all_reduce_segment(c, count) + all_reduce_group_elems(c) - 1) / all_reduce_group_elems(c);
}
constexpr uint32_t all_reduce_groups(const all_reduce_config& c, uint32_t count) {
  const uint32_t s = all_reduce_slices(c, count), m = static_cast<uint32_t>(c.max_groups);
  return s < m ? s : m;
}
// One-shot in place: every workgroup holds its one slice's sums until all ranks have read it.
constexpr uint32_t all_reduce_max_in_place(const all_reduce_config& c) {
  return all_reduce_group_elems(c) * static_cast<uint32_t>(c.max_groups);
}
// count must be a multiple of this: whole lanes (two-shot: of every segment).
constexpr uint32_t all_reduce_count_multiple(const all_reduce_config& c) {
  return all_reduce_lane_elems(c) * (c.algo == all_reduce_algo::two_shot ? static_cast<uint32_t>(c.ranks) : 1u);
}
// Bytes of a rank's flag buffer for `count` elements: 2 slots x 8 ranks of u32 a workgroup.
constexpr uint64_t all_reduce_flag_bytes(const all_reduce_config& c, uint32_t count) {
  return uint64_t(all_reduce_groups(c, count)) * 64u;
}

namespace detail {
// The kernel's address table: inputs [R], outputs [R], flag buffers [R], each as this rank
// reaches it (its own, or a peer mapping).
constexpr uint32_t all_reduce_table_input(int p) { return static_cast<uint32_t>(8 * p); }
template <int R>
constexpr uint32_t all_reduce_table_output(int p) { return static_cast<uint32_t>(8 * (R + p)); }
template <int R>
constexpr uint32_t all_reduce_table_flags(int p) { return static_cast<uint32_t>(8 * (2 * R + p)); }

// The workgroup's memory accesses are done (every wave waited and met at s_barrier); thread 0
// releases them and stores `epoch` at byte slot_off of every rank's flags.
template <int R>
constexpr void all_reduce_signal(builder J, arg<const uint64_t*> ptrs, const gpr<dtype::u32>& tid,
                                 const gpr<dtype::u32>& slot_off, arg<unsigned> epoch) {
  using dtype::u32;
  const arg<const uint64_t*> table = ptrs;
  const gpr<u32> off = slot_off;
  J.s_waitcnt(vmcnt(0));
  J.s_barrier();
  J.If(tid == 0u, [&] {
    J.buffer_wbl2({.sc0 = true, .sc1 = true});
    J.s_waitcnt(vmcnt(0));
    auto v = J.vgpr<u32>(), o = J.vgpr<u32>();
    v = epoch;
    o = off;
    // (the R flag buffers' addresses in one round trip)
    const auto f = [&]<size_t... I>(std::index_sequence<I...>) {
      auto load = [&](int p) {
        auto a = J.sgpr<dtype::u64>();
        J.s_load_dwordx2(a, table, all_reduce_table_flags<R>(p));
        return a;
      };
      return std::array<gpr<dtype::u64>, R>{load(static_cast<int>(I))...};
    }(std::make_index_sequence<R>{});
    J.s_waitcnt(lgkmcnt(0));
    for (int p = 0; p < R; ++p) J.global_store_dword(o, v, f[size_t(p)], {.sc0 = true, .sc1 = true});
  });
}

// Every wave waits until each rank's slot at byte phase_off + 4 * rank of this rank's flags
// holds epoch or more (all R slots loaded together, one round trip a poll), then invalidates its
// caches (the acquire).
template <int R>
constexpr void all_reduce_wait(builder J, const gpr<dtype::u64>& own_flags, const gpr<dtype::u32>& phase_off,
                               arg<unsigned> epoch) {
  using dtype::u32;
  const gpr<dtype::u64> base = own_flags;
  auto o = J.vgpr<u32>(), v = J.vgpr<u32>(R);
  auto low = J.sgpr<u32>();
  o = phase_off;
  auto poll = [&] {
    for (int p = 0; p < R; ++p) J.global_load_dword(v[p], o, base, {.offset = 4 * p, .sc0 = true, .sc1 = true});
    J.s_waitcnt(vmcnt(0));
    low = readfirstlane(v[0]);
    for (int p = 1; p < R; ++p) low = min(low, readfirstlane(v[p]));
  };
  poll();
  J.While([&] { return low < epoch; },
          [&] {
            J.s_sleep(1);
            poll();
          });
  J.buffer_inv({.sc0 = true, .sc1 = true});
}
// The kernels' common start: the thread and workgroup ids, this rank's own flag buffer (polled)
// and output, this workgroup's flag slots, and every rank's input address (one round trip).
template <int R>
struct all_reduce_start {
  gpr<dtype::u32> tid, g;
  gpr<dtype::u64> own, mine;
  gpr<dtype::u32> slot0, wait0;
  std::array<gpr<dtype::u64>, R> inputs;
};
constexpr gpr<dtype::u64> all_reduce_load_ptr(builder J, arg<const uint64_t*> ptrs, uint32_t at) {
  auto p = J.sgpr<dtype::u64>();
  J.s_load_dwordx2(p, ptrs, at);
  return p;
}
template <int R>
constexpr all_reduce_start<R> all_reduce_begin(builder J, arg<const uint64_t*> ptrs, arg<unsigned> rank) {
  using dtype::u32;
  auto tid = J.vgpr<u32>();
  tid = J.thread_id_x();
  auto g = J.sgpr<u32>();
  g = J.workgroup_id_x();
  auto own = J.sgpr<dtype::u64>(), mine = J.sgpr<dtype::u64>();
  auto roff = J.sgpr<u32>();
  roff = (rank << 3u) + static_cast<uint32_t>(16 * R);
  J.s_load_dwordx2(own, ptrs, roff);
  roff = (rank << 3u) + static_cast<uint32_t>(8 * R);
  J.s_load_dwordx2(mine, ptrs, roff);
  auto slot0 = J.vgpr<u32>(), wait0 = J.sgpr<u32>();
  slot0 = g * 64u + (rank << 2u);
  wait0 = g * 64u;
  const auto inputs = [&]<size_t... I>(std::index_sequence<I...>) {
    return std::array<gpr<dtype::u64>, R>{all_reduce_load_ptr(J, ptrs, all_reduce_table_input(static_cast<int>(I)))...};
  }(std::make_index_sequence<R>{});
  return {tid, g, own, mine, slot0, wait0, inputs};
}
}  // namespace detail

// ptrs: the address table (detail::all_reduce_table_*: every rank's input, output and flag
// buffer as this rank reaches them); count elements (a multiple of all_reduce_count_multiple);
// rank: this rank; epoch: this launch's flag value.
template <all_reduce_config C>
constexpr void all_reduce(builder J, arg<const uint64_t*> ptrs, arg<unsigned> count, arg<unsigned> rank,
                          arg<unsigned> epoch) {
  static_assert(C.ranks == 2 || C.ranks == 4 || C.ranks == 8, "hipasm all_reduce: ranks must be 2, 4 or 8");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm all_reduce: waves must be 1..16");
  static_assert(C.max_groups >= 1 && C.max_groups <= 80, "hipasm all_reduce: max_groups must be 1..80");
  using dtype::u32;
  using dtype::f32;
  constexpr int R = C.ranks;
  constexpr bool BF = C.type == all_reduce_type::bf16;
  constexpr bool TWO = C.algo == all_reduce_algo::two_shot;
  constexpr uint32_t lanes = 64u * static_cast<uint32_t>(C.waves);
  constexpr uint32_t GE = all_reduce_group_elems(C);

  const auto st = detail::all_reduce_begin<R>(J, ptrs, rank);
  const auto& [tid, g, own, mine, slot0, wait0, inputs] = st;
  // two-shot: every rank's output address too, in the same round trip
  const auto outputs = [&]<size_t... I>(std::index_sequence<I...>) {
    return std::array<gpr<dtype::u64>, sizeof...(I)>{
        detail::all_reduce_load_ptr(J, ptrs, detail::all_reduce_table_output<R>(static_cast<int>(I)))...};
  }(std::make_index_sequence<TWO ? R : 0>{});
  J.s_waitcnt(lgkmcnt(0));

  // start: every rank's inputs are ready
  detail::all_reduce_signal<R>(J, ptrs, tid, slot0, epoch);
  detail::all_reduce_wait<R>(J, own, wait0, epoch);

  // the slices of this rank's segment (one-shot: of the tensor) this workgroup takes
  auto seg = J.sgpr<u32>(), base = J.sgpr<u32>(), groups = J.sgpr<u32>(), slices = J.sgpr<u32>(), slice = J.sgpr<u32>();
  if constexpr (TWO) {
    seg = count / static_cast<uint32_t>(R);
    base = rank * seg * all_reduce_elem_bytes(C);
  } else {
    seg = count;
    base = 0u;
  }
  slices = (seg + (GE - 1u)) / GE;
  groups = min(slices, static_cast<uint32_t>(C.max_groups));
  auto seg_bytes = J.sgpr<u32>();
  seg_bytes = seg * all_reduce_elem_bytes(C);
  slice = g;
  auto rel = J.vgpr<u32>(), off = J.vgpr<u32>();
  auto in = J.vgpr<u32>(4 * R);
  auto sum = J.vgpr<f32>(BF ? 8 : 4);
  auto res = J.vgpr<u32>(4);
  // this lane's 16 bytes of every input, summed in rank order
  auto reduce = [&] {
    rel = (slice * lanes + tid) * 16u;
    off = rel + base;
    J.If(rel < seg_bytes, [&] {
      for (int p = 0; p < R; ++p) J.global_load_dwordx4(in.slice(4 * p, 4), off, inputs[size_t(p)]);
      J.s_waitcnt(vmcnt(0));
      for (int p = 0; p < R; ++p) {
        for (int j = 0; j < (BF ? 8 : 4); ++j) {
          auto x = BF ? to_f32(in[4 * p + j / 2].template as<dtype::bf16x2>(), j % 2)
                      : gpr<f32>(in[4 * p + j].template as<f32>());
          if (p == 0) sum[j] = x;
          else sum[j] = sum[j] + x;
        }
      }
      for (int k = 0; k < 4; ++k) {
        if constexpr (BF) res[k] = cvt_bf16x2(sum[2 * k], sum[2 * k + 1]).template as<u32>();
        else res[k] = sum[k].template as<u32>();
      }
    });
  };
  // one-shot: into this rank's output; two-shot: into every rank's
  auto store = [&] {
    J.If(rel < seg_bytes, [&] {
      if constexpr (TWO) {
        for (int p = 0; p < R; ++p) J.global_store_dwordx4(off, res, outputs[size_t(p)]);
      } else {
        J.global_store_dwordx4(off, res, mine);
      }
    });
  };
  auto slot1 = J.vgpr<u32>(), wait1 = J.sgpr<u32>();
  slot1 = slot0 + 32u;
  wait1 = wait0 + 32u;
  if constexpr (C.in_place && !TWO) {
    // one slice a workgroup (the launcher checks): every rank has read it (ours included)
    // before this rank overwrites its input
    reduce();
    detail::all_reduce_signal<R>(J, ptrs, tid, slot1, epoch);
    detail::all_reduce_wait<R>(J, own, wait1, epoch);
    store();
  } else {
    // (two-shot in place: segment r of every rank's buffer is read and written by rank r only)
    J.While([&] { return slice < slices; },
            [&] {
              reduce();
              store();
              slice = slice + groups;
            });
    if constexpr (TWO) {
      // every rank has written its segment into this rank's output
      detail::all_reduce_signal<R>(J, ptrs, tid, slot1, epoch);
      detail::all_reduce_wait<R>(J, own, wait1, epoch);
    }
  }
}


// ---- all-reduce fused with residual add and RMSNorm (aiter's allreduce_rmsnorm_N8192):
//   x = sum over ranks p of in_p (f32, rank order) + residual;  residual_out = bf16(x);
//   out = bf16(x / sqrt(mean(x^2) + eps) * weight)
// bf16 rows [rows][hidden]. One-shot: workgroup g of every rank takes rows g, g + G, ... (G =
// min(rows, max_groups)); a lane holds 8 elements of each of the row's steps of 8 * 64 * waves
// elements (the row in registers), reads them from every rank, adds, and the row's sum of
// squares is reduced through LDS. The start flags as all_reduce's (every rank's input is ready).
struct all_reduce_rmsnorm_config {
  int ranks = 8;       // 2, 4 or 8
  int hidden = 8192;   // a multiple of 8 * 64 * waves, at most 8 steps of it
  int waves = 4;       // 1..16
  int max_groups = 64; // 1..80
};
constexpr uint32_t all_reduce_rmsnorm_groups(const all_reduce_rmsnorm_config& c, uint32_t rows) {
  return rows < static_cast<uint32_t>(c.max_groups) ? rows : static_cast<uint32_t>(c.max_groups);
}
constexpr uint64_t all_reduce_rmsnorm_flag_bytes(const all_reduce_rmsnorm_config& c, uint32_t rows) {
  return uint64_t(all_reduce_rmsnorm_groups(c, rows)) * 64u;
}

namespace detail {
// The fused kernel; Q: the output's type, bf16 rows (Quant = false) or per-row dynamically
// quantized fp8 / i8 rows and their f32 scales (as rmsnorm_quant: dynamic_quant.hpp's quantize_row).
template <all_reduce_rmsnorm_config C, bool Quant, quant_type Q>
constexpr void all_reduce_rmsnorm_body(builder J, arg<const uint64_t*> ptrs, const gpr<dtype::u64>* scales,
                                       arg<uint16_t*> residual_out, arg<const uint16_t*> residual,
                                       arg<const uint16_t*> weight, arg<float> eps, arg<unsigned> rows,
                                       arg<unsigned> rank, arg<unsigned> epoch) {
  static_assert(C.ranks == 2 || C.ranks == 4 || C.ranks == 8, "hipasm all_reduce_rmsnorm: ranks must be 2, 4 or 8");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm all_reduce_rmsnorm: waves must be 1..16");
  static_assert(C.max_groups >= 1 && C.max_groups <= 80, "hipasm all_reduce_rmsnorm: max_groups must be 1..80");
  static_assert(C.hidden > 0 && C.hidden % (8 * 64 * C.waves) == 0 && C.hidden / (8 * 64 * C.waves) <= 8,
                "hipasm all_reduce_rmsnorm: hidden must be 1..8 steps of 8 * 64 * waves elements");
  using dtype::u32;
  using dtype::f32;
  constexpr int R = C.ranks;
  constexpr int K = C.hidden / (8 * 64 * C.waves);
  constexpr uint32_t step_bytes = 16u * 64u * static_cast<uint32_t>(C.waves);
  constexpr uint32_t row_bytes = static_cast<uint32_t>(C.hidden) * 2u;

  const auto st = detail::all_reduce_begin<R>(J, ptrs, rank);
  const auto& [tid, g, own, mine, slot0, wait0, inputs] = st;
  J.s_waitcnt(lgkmcnt(0));
  detail::all_reduce_signal<R>(J, ptrs, tid, slot0, epoch);
  detail::all_reduce_wait<R>(J, own, wait0, epoch);

  auto groups = J.sgpr<u32>(), row = J.sgpr<u32>();
  groups = min(rows, static_cast<uint32_t>(C.max_groups));
  row = g;
  auto lane_off = J.vgpr<u32>(), off = J.vgpr<u32>(), woff = J.vgpr<u32>();
  lane_off = tid << 4u;
  auto in = J.vgpr<u32>(4 * R), rv = J.vgpr<u32>(4), wv = J.vgpr<u32>(4 * K);
  auto x = J.vgpr<f32>(8 * K);
  auto sc = J.vgpr<f32>(), scale = J.vgpr<f32>();
  auto scratch = J.lds<float>(C.waves, 16);
  // the weight, once
  for (int k = 0; k < K; ++k) {
    woff = lane_off + static_cast<uint32_t>(k) * step_bytes;
    J.global_load_dwordx4(wv.slice(4 * k, 4), woff, weight);
  }
  J.While([&] { return row < rows; },
          [&] {
            for (int k = 0; k < K; ++k) {
              off = row * row_bytes + lane_off + static_cast<uint32_t>(k) * step_bytes;
              for (int p = 0; p < R; ++p) J.global_load_dwordx4(in.slice(4 * p, 4), off, inputs[size_t(p)]);
              J.global_load_dwordx4(rv, off, residual);
              J.s_waitcnt(vmcnt(0));
              for (int j = 0; j < 8; ++j) {
                const int e = 8 * k + j;
                for (int p = 0; p < R; ++p) {
                  auto v = to_f32(in[4 * p + j / 2].template as<dtype::bf16x2>(), j % 2);
                  if (p == 0) x[e] = v;
                  else x[e] = x[e] + v;
                }
                x[e] = x[e] + to_f32(rv[j / 2].template as<dtype::bf16x2>(), j % 2);
              }
              for (int i = 0; i < 4; ++i) rv[i] = cvt_bf16x2(x[8 * k + 2 * i], x[8 * k + 2 * i + 1]).template as<u32>();
              J.global_store_dwordx4(off, rv, residual_out);
            }
            sc = x[0] * x[0];
            for (int i = 1; i < 8 * K; ++i) J.v_fmac_f32(sc, x[i], x[i]);
            // (the scratch is rewritten each row: a barrier first, after every wave read the last)
            auto tot = workgroup_reduce(J, reduce::sum, sc, scratch, C.waves,
                                        {.all_lanes_active = true, .barrier_before = true});
            scale = rsqrt(tot * (1.0f / static_cast<float>(C.hidden)) + eps);
            if constexpr (Quant) {
              for (int i = 0; i < 8 * K; ++i) x[i] = x[i] * scale * to_f32(wv[i / 2].template as<dtype::bf16x2>(), i % 2);
              const gpr<u32> r = row;
              quantize_row<Q, 8, K, C.waves, C.hidden>(J, x, tid, r, mine, *scales);
            } else {
              for (int k = 0; k < K; ++k) {
                off = row * row_bytes + lane_off + static_cast<uint32_t>(k) * step_bytes;
                auto y = J.vgpr<u32>(4);
                for (int i = 0; i < 4; ++i) {
                  const int e = 8 * k + 2 * i;
                  auto a = x[e] * scale * to_f32(wv[4 * k + i].template as<dtype::bf16x2>(), 0);
                  auto b = x[e + 1] * scale * to_f32(wv[4 * k + i].template as<dtype::bf16x2>(), 1);
                  y[i] = cvt_bf16x2(a, b).template as<u32>();
                }
                J.global_store_dwordx4(off, y, mine);
              }
            }
            row = row + groups;
          });
}

}  // namespace detail

// ptrs: the address table (inputs [R], outputs [R]: this rank's out at `rank`, flags [R]).
template <all_reduce_rmsnorm_config C>
constexpr void all_reduce_rmsnorm(builder J, arg<const uint64_t*> ptrs, arg<uint16_t*> residual_out,
                                  arg<const uint16_t*> residual, arg<const uint16_t*> weight, arg<float> eps,
                                  arg<unsigned> rows, arg<unsigned> rank, arg<unsigned> epoch) {
  detail::all_reduce_rmsnorm_body<C, false, quant_type::fp8>(J, ptrs, nullptr, residual_out, residual, weight, eps,
                                                             rows, rank, epoch);
}
// The same with the result quantized per row (aiter's allreduce_rmsnorm_qnt without its smooth
// scale): out (this rank's, in the table) [rows][hidden] fp8 (the target's e4m3) or i8, and
// scales [rows] f32, as rmsnorm_quant makes them.
template <all_reduce_rmsnorm_config C, quant_type Q>
constexpr void all_reduce_rmsnorm_quant(builder J, arg<const uint64_t*> ptrs, arg<float*> scales,
                                        arg<uint16_t*> residual_out, arg<const uint16_t*> residual,
                                        arg<const uint16_t*> weight, arg<float> eps, arg<unsigned> rows,
                                        arg<unsigned> rank, arg<unsigned> epoch) {
  static_assert(Q != quant_type::bf8, "hipasm all_reduce_rmsnorm_quant: the output is fp8 (the target's e4m3) or i8");
  const gpr<dtype::u64> sc = scales;
  detail::all_reduce_rmsnorm_body<C, true, Q>(J, ptrs, &sc, residual_out, residual, weight, eps, rows, rank, epoch);
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr all_reduce_config).
#define HIPASM_ALL_REDUCE_KERNEL(NAME, CFG)                                                                  \
  extern "C" __attribute__((global)) void NAME(const uint64_t* ptrs, unsigned count, unsigned rank, unsigned epoch) { \
    HIPASM_KERNEL_BODY((hipasm::kernels::all_reduce<CFG>), ptrs, count, rank, epoch);                        \
  }

// The fused all-reduce + residual add + RMSNorm kernel NAME (CFG: an all_reduce_rmsnorm_config).
#define HIPASM_ALL_REDUCE_RMSNORM_KERNEL(NAME, CFG)                                                          \
  extern "C" __attribute__((global)) void NAME(const uint64_t* ptrs, uint16_t* residual_out,              \
                                               const uint16_t* residual, const uint16_t* weight, float eps, \
                                               unsigned rows, unsigned rank, unsigned epoch) {              \
    HIPASM_KERNEL_BODY((hipasm::kernels::all_reduce_rmsnorm<CFG>), ptrs, residual_out, residual, weight, eps, \
                       rows, rank, epoch);                                                                  \
  }

// The fused all-reduce + residual add + RMSNorm + per-row quantization kernel NAME (CFG: an
// all_reduce_rmsnorm_config, TYPE: hipasm::kernels::quant_type::fp8 or i8).
#define HIPASM_ALL_REDUCE_RMSNORM_QUANT_KERNEL(NAME, CFG, TYPE)                                             \
  extern "C" __attribute__((global)) void NAME(const uint64_t* ptrs, float* scales, uint16_t* residual_out, \
                                               const uint16_t* residual, const uint16_t* weight, float eps, \
                                               unsigned rows, unsigned rank, unsigned epoch) {              \
    HIPASM_KERNEL_BODY((hipasm::kernels::all_reduce_rmsnorm_quant<CFG, TYPE>), ptrs, scales, residual_out,    \
                       residual, weight, eps, rows, rank, epoch);                                           \
  }
