// One-shot all-reduce across the GPUs of a node (2, 4 or 8; bf16 or f32; in place or not):
// every rank reads every rank's input through peer mappings and writes the sum, in f32, of all
// ranks' elements in rank order 0, 1, ... (so every rank's output is the same, bit for bit),
// rounded once to the output type (bf16: nearest even).
//
//   out[i] = sum over ranks p of in_p[i]      i < count
//
// The tensor is cut into slices of 64 * waves lanes of 16 bytes (8 bf16 or 4 f32 elements a
// lane); workgroup g of every rank takes slices g, g + G, ... (G = min(slices, max_groups)). In
// place, a tensor has at most max_groups slices (all_reduce_max_in_place). Synchronisation, per
// workgroup, follows LLVM's memory model for gfx942 at system scope (AMDGPUUsage, "Memory Model GFX942"; gfx950 uses the same code):
// - start: thread 0 makes what the rank's earlier kernels wrote visible to the node
//   (buffer_wbl2 sc0 sc1, s_waitcnt vmcnt(0)), then stores `epoch` into its slot of the flag
//   buffer of every rank (sc0 sc1 stores through the peer mappings); every wave polls its own
//   rank's slots (sc0 sc1 loads, s_sleep between polls) until all ranks' slots hold `epoch` or
//   more, then invalidates its caches (buffer_inv sc0 sc1) before it reads the inputs.
// - in place only (out is the rank's input, which the peers read): after the sums are in
//   registers, the workgroup's waves wait for their loads and meet at s_barrier, thread 0
//   releases and stores `epoch` into the second slot of every rank, and the waves wait for all
//   ranks' second slots (and buffer_inv) before they overwrite their input.
// The flag buffer of a rank (all_reduce_flag_bytes) holds 2 x 8 u32 slots a workgroup; zero it
// once; every launch passes an `epoch` greater than the last one's (1, 2, 3, ...). Without in
// place, a rank's input must not change until every rank's launch finished (the next
// all-reduce on other buffers, or in place, is fine).
//
// Device side:  constexpr hipasm::kernels::all_reduce_config cfg{.ranks = 8, .type = hipasm::kernels::all_reduce_type::bf16};
//               HIPASM_ALL_REDUCE_KERNEL(all_reduce_bf16_8, cfg)
// Host side:    hipasm::kernels::launch_all_reduce<cfg>(node, modules, "all_reduce_bf16_8", {...});
#pragma once
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::kernels {

enum class all_reduce_type : uint8_t { bf16, f32 };

struct all_reduce_config {
  int ranks = 8;                            // GPUs: 2, 4 or 8
  all_reduce_type type = all_reduce_type::bf16;
  bool in_place = false;                    // out is the rank's own input
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
// Slices of the tensor, and the workgroups that take them (slice g, g + groups, ...).
constexpr uint32_t all_reduce_slices(const all_reduce_config& c, uint32_t count) {
  return (count + all_reduce_group_elems(c) - 1) / all_reduce_group_elems(c);
}
constexpr uint32_t all_reduce_groups(const all_reduce_config& c, uint32_t count) {
  const uint32_t s = all_reduce_slices(c, count), m = static_cast<uint32_t>(c.max_groups);
  return s < m ? s : m;
}
// In place, every workgroup holds its one slice's sums until all ranks have read it.
constexpr uint32_t all_reduce_max_in_place(const all_reduce_config& c) {
  return all_reduce_group_elems(c) * static_cast<uint32_t>(c.max_groups);
}
// Bytes of a rank's flag buffer for `count` elements: 2 slots x 8 ranks of u32 a workgroup.
constexpr uint64_t all_reduce_flag_bytes(const all_reduce_config& c, uint32_t count) {
  return uint64_t(all_reduce_groups(c, count)) * 64u;
}

namespace detail {
// The rank's slot `phase` of workgroup g from rank `src`: byte offset in a flag buffer.
constexpr uint32_t all_reduce_slot(uint32_t g, uint32_t phase, uint32_t src) { return ((g * 2u + phase) * 8u + src) * 4u; }

// Thread 0 publishes what this workgroup wrote and read (the caller's s_waitcnt and s_barrier
// come first), then stores `epoch` into slot `phase` of rank `rank` in every rank's flags.
template <int R>
constexpr void all_reduce_signal(builder J, arg<const uint64_t*> flags, const gpr<dtype::u32>& tid,
                                 const gpr<dtype::u32>& slot_off, arg<unsigned> epoch) {
  using dtype::u32;
  const arg<const uint64_t*> table = flags;
  const gpr<u32> off = slot_off;
  J.If(tid == 0u, [&] {
    J.buffer_wbl2({.sc0 = true, .sc1 = true});
    J.s_waitcnt(vmcnt(0));
    auto v = J.vgpr<u32>(), o = J.vgpr<u32>();
    v = epoch;
    o = off;
    for (int p = 0; p < R; ++p) {
      auto f = J.sgpr<dtype::u64>();
      J.s_load_dwordx2(f, table, static_cast<uint32_t>(8 * p));
      J.s_waitcnt(lgkmcnt(0));
      J.global_store_dword(o, v, f, {.sc0 = true, .sc1 = true});
    }
  });
}

// Every wave waits until each rank's slot `phase` of this workgroup in this rank's flags holds
// epoch or more, then invalidates its caches (the acquire).
template <int R>
constexpr void all_reduce_wait(builder J, const gpr<dtype::u64>& own_flags, const gpr<dtype::u32>& phase_off,
                               arg<unsigned> epoch) {
  using dtype::u32;
  const gpr<dtype::u64> base = own_flags;
  auto o = J.vgpr<u32>(), v = J.vgpr<u32>();
  auto got = J.sgpr<u32>();
  for (int p = 0; p < R; ++p) {
    o = phase_off + static_cast<uint32_t>(4 * p);
    auto poll = [&] {
      J.global_load_dword(v, o, base, {.sc0 = true, .sc1 = true});
      J.s_waitcnt(vmcnt(0));
      got = readfirstlane(v);
    };
    poll();
    J.While([&] { return got < epoch; },
            [&] {
              J.s_sleep(1);
              poll();
            });
  }
  J.buffer_inv({.sc0 = true, .sc1 = true});
}
}  // namespace detail

// inputs: [ranks] addresses of every rank's input as this rank reaches it (its own at `rank`);
// flags: [ranks] addresses of every rank's flag buffer as this rank reaches it; out: this
// rank's output (its input when C.in_place); count elements (a multiple of 8 bf16 / 4 f32).
template <all_reduce_config C>
constexpr void all_reduce(builder J, arg<const uint64_t*> inputs, arg<const uint64_t*> flags, arg<unsigned*> out,
                          arg<unsigned> count, arg<unsigned> rank, arg<unsigned> epoch) {
  static_assert(C.ranks == 2 || C.ranks == 4 || C.ranks == 8, "hipasm all_reduce: ranks must be 2, 4 or 8");
  static_assert(C.waves >= 1 && C.waves <= 16, "hipasm all_reduce: waves must be 1..16");
  using dtype::u32;
  using dtype::f32;
  constexpr int R = C.ranks;
  constexpr bool BF = C.type == all_reduce_type::bf16;
  constexpr uint32_t lanes = 64u * static_cast<uint32_t>(C.waves);

  static_assert(C.max_groups >= 1 && C.max_groups <= 80, "hipasm all_reduce: max_groups must be 1..80");
  auto tid = J.vgpr<u32>();
  tid = J.thread_id_x();
  auto g = J.sgpr<u32>();
  g = J.workgroup_id_x();
  // this rank's own flag buffer (polled) and this workgroup's slots from rank `rank`
  auto own = J.sgpr<dtype::u64>();
  auto roff = J.sgpr<u32>();
  roff = rank << 3u;
  J.s_load_dwordx2(own, flags, roff);
  auto slot0 = J.vgpr<u32>(), wait0 = J.sgpr<u32>();
  slot0 = g * 64u + (rank << 2u);
  wait0 = g * 64u;
  J.s_waitcnt(lgkmcnt(0));

  // start: every rank's inputs are ready
  detail::all_reduce_signal<R>(J, flags, tid, slot0, epoch);
  detail::all_reduce_wait<R>(J, own, wait0, epoch);

  // this lane's 16 bytes of every input, summed in rank order
  auto bytes = J.sgpr<u32>(), groups = J.sgpr<u32>(), slice = J.sgpr<u32>();
  bytes = count * all_reduce_elem_bytes(C);
  groups = min((count + (all_reduce_group_elems(C) - 1u)) / all_reduce_group_elems(C),
               static_cast<uint32_t>(C.max_groups));
  slice = g;
  auto off = J.vgpr<u32>();
  auto in = J.vgpr<u32>(4 * R);
  auto sum = J.vgpr<f32>(BF ? 8 : 4);
  auto reduce = [&] {
    off = (slice * lanes + tid) * 16u;
    J.If(off < bytes, [&] {
      for (int p = 0; p < R; ++p) {
        auto ptr = J.sgpr<dtype::u64>();
        J.s_load_dwordx2(ptr, inputs, static_cast<uint32_t>(8 * p));
        J.s_waitcnt(lgkmcnt(0));
        J.global_load_dwordx4(in.slice(4 * p, 4), off, ptr);
      }
      J.s_waitcnt(vmcnt(0));
      for (int p = 0; p < R; ++p) {
        for (int j = 0; j < (BF ? 8 : 4); ++j) {
          auto x = BF ? to_f32(in[4 * p + j / 2].template as<dtype::bf16x2>(), j % 2)
                      : gpr<f32>(in[4 * p + j].template as<f32>());
          if (p == 0) sum[j] = x;
          else sum[j] = sum[j] + x;
        }
      }
    });
  };
  auto store = [&] {
    J.If(off < bytes, [&] {
      auto res = J.vgpr<u32>(4);
      for (int k = 0; k < 4; ++k) {
        if constexpr (BF) res[k] = cvt_bf16x2(sum[2 * k], sum[2 * k + 1]).template as<u32>();
        else res[k] = sum[k].template as<u32>();
      }
      J.global_store_dwordx4(off, res, out);
    });
  };
  if constexpr (C.in_place) {
    // one slice a workgroup (the launcher checks): every rank has read it (ours included)
    // before this rank overwrites its input
    reduce();
    J.s_waitcnt(vmcnt(0));
    J.s_barrier();
    auto slot1 = J.vgpr<u32>(), wait1 = J.sgpr<u32>();
    slot1 = slot0 + 32u;
    wait1 = wait0 + 32u;
    detail::all_reduce_signal<R>(J, flags, tid, slot1, epoch);
    detail::all_reduce_wait<R>(J, own, wait1, epoch);
    store();
  } else {
    auto slices = J.sgpr<u32>();
    slices = (count + (all_reduce_group_elems(C) - 1u)) / all_reduce_group_elems(C);
    J.While([&] { return slice < slices; },
            [&] {
              reduce();
              store();
              slice = slice + groups;
            });
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr all_reduce_config).
#define HIPASM_ALL_REDUCE_KERNEL(NAME, CFG)                                                                    \
  extern "C" __attribute__((global)) void NAME(const uint64_t* inputs, const uint64_t* flags, unsigned* out, \
                                               unsigned count, unsigned rank, unsigned epoch) {               \
    HIPASM_KERNEL_BODY((hipasm::kernels::all_reduce<CFG>), inputs, flags, out, count, rank, epoch);          \
  }
