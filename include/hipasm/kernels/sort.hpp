// Bitonic sort of rows of 32-bit keys (f32, i32 or u32), ascending or descending, optionally
// with a 32-bit payload (values given, or each element's index in its row: an argsort, as the
// MoE token sort needs). One row per wave (capacity 64 x per_lane) or per workgroup (capacity
// 64 x per_lane x waves); a row may be any length 1..capacity (a run-time argument).
//
// Order. With a payload, keys are mapped to unsigned integers whose order is the wanted one (u32:
// itself; i32: the sign bit flipped; f32: IEEE 754 totalOrder, -NaN < -inf < ... < -0 < +0 < ...
// < +inf < +NaN, NaN payloads kept bit for bit; descending: the complement), the sort runs
// ascending on them and they are mapped back at the store. Keys alone are not mapped: u32 sort on
// unsigned compares, i32 and f32 on signed ones, descending by the network's direction; an f32's
// signed order is totalOrder once its negative keys are g(k) = k ^ 0x7fffffff (the identity on
// the others, its own inverse), applied only in the loaded 1 KiB pieces that hold a negative
// key and, at the store, the pieces (from 16 a lane, in the load's layout after the transpose)
// or lanes that do (three VALU a key each way where there are, three a piece and one a row for
// the checks: cheaper than mapping every key when few are negative). So -0 and +0 are ordered (-0 first ascending),
// NaNs with the sign bit clear (the default NaN of GPU arithmetic, 0x7fc00000) sort after +inf
// (last ascending, first descending, like torch.sort), a negative NaN before -inf. With a
// payload the order is (key, payload as u32): equal keys come out by ascending payload, in
// both directions, so with index payloads the result is the stable sort. Padding: elements
// past the row's end are (max, max) in the mapped order: they sort last and are not stored
// (an equal real element is identical to a pad, so nothing real is lost).
//
// Network: the bitonic sorter in its all-ascending form: stage s (runs of 2^s, s = 1 .. T, T
// the row's index bits) first compares e with its mirror e ^ (2^s - 1), then e with e ^ 2^d
// for d = s-2 .. 0, the minimum always to the lower index (no direction masks). Element e of a
// wave is register r = e % per_lane of lane e / per_lane. Inside a lane a pair is v_min_u32 +
// v_max_u32, v_min_f64 + v_max_f64 for index payloads (key and index packed as one positive
// normal f64 whose order is theirs), a 64-bit compare and four v_cndmask for values; keys take
// the loop's register steps two at a time, six min/max/min3/med3/max3 for four registers where
// two steps' compare-exchanges take eight (reg_pair). Across
// lanes (xor 2^d, or the mirror: lane xor 2^k-1 and registers reversed) the partner copies come
// by ds_swizzle / ds_bpermute (keys: up to 15 in flight; pairs: 8 registers before one wait;
// the network is VALU-bound, DPP moves would take VALU slots), and the lane keeps the minimum
// or the maximum: v_med3_u32 / _i32 against the upper-lane mask, v_min_f64 / v_max_f64 under
// the lower / upper lanes' EXEC, or a compare and two selects. Across the waves of a workgroup
// the distances >= 64 x per_lane go through LDS (write, barrier, read the partner wave's copy;
// register-major, conflict-free). The stages
// 1 .. log2(per_lane) (register-only) are Batcher's odd-even merge sort, unrolled (from 16 a
// lane started on the loaded pieces that have arrived); the others are one run-time loop over s
// whose mirror step has code per s and whose xor steps are the chain T-2 .. 0 entered at s-2
// (each step's code exists once: compile time grows with T, not T^2). Memory: dwordx4 pieces
// of 1 KiB (the load's element order is not the network's: a sort may start from any
// permutation), stores from 16 a lane through an LDS transpose back to that layout. A row per
// wave: ceil(rows / 8192) consecutive rows a wave (32 a lane: 6080 waves, rows w, w + 6080, ..),
// the next row's loads issued before the network of this one.
//
// Device side:  constexpr hipasm::kernels::sort_config cfg{.key = sort_key::f32, .payload =
//                   sort_payload::index, .per_lane = 8, .waves = 4};
//               HIPASM_SORT_KERNEL(sort_f32_2048, cfg)
// Host side:    hipasm::kernels::launch_sort<cfg>(dev, module, "sort_f32_2048",
//                   {.keys_out, .vals_out, .keys_in, .vals_in, .len, .rows});
// Rows are dense: row i at element i * len of keys (and values); out may be in.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "../hipasm.hpp"

namespace hipasm::kernels {

enum class sort_key : uint8_t { f32, i32, u32 };
enum class sort_payload : uint8_t { none, values, index };

struct sort_config {
  sort_key key = sort_key::f32;
  bool descending = false;
  sort_payload payload = sort_payload::none;
  int per_lane = 8;           // elements per lane: 1, 2, 4, 8, 16 or 32 (more: more steps in registers)
  int waves = 1;              // waves per workgroup, 1..16
  bool row_per_wave = false;  // true: each wave sorts a row; false: the workgroup sorts one row
  // Waves of this kernel a SIMD must hold by registers (builder::require_waves_per_simd; 0: any).
  // The strided row-per-wave grid (32 a lane: 6080 waves, 5 a SIMD) is sized for 5.
  int waves_per_simd = 0;
};
constexpr int sort_capacity(const sort_config& c) { return 64 * c.per_lane * (c.row_per_wave ? 1 : c.waves); }
// A row per wave: at most sort_max_waves(c) waves. <= 16 a lane: 8192 (all resident at once on
// the 304 CUs' 9728 wave slots while a wave holds <= 64 VGPRs), each sorting ceil(rows / 8192)
// consecutive rows; 32 a lane: 6080 (5 a SIMD at the keys' 93 VGPRs), wave w sorting rows w,
// w + waves, .. (4096 waves of 2 consecutive rows would leave a third of the SIMDs sorting 8
// rows where the mean is 6.7; strided rows cost the 16-a-lane configurations, so only 32 a lane
// strides). 6080 waves are 20 a CU: in groups of 1, 2 or 4 waves every CU gets as many (8
// would give 2.5 groups a CU)
constexpr bool sort_strided(const sort_config& c) { return c.per_lane >= 32; }
constexpr uint32_t sort_max_waves(const sort_config& c) { return sort_strided(c) ? 6080u : 8192u; }
constexpr uint32_t sort_rows_per_wave(const sort_config& c, uint32_t rows) {
  return c.row_per_wave && !sort_strided(c) ? (rows + sort_max_waves(c) - 1) / sort_max_waves(c) : 1u;
}
constexpr int sort_rows_per_group(const sort_config& c) { return c.row_per_wave ? c.waves : 1; }
// the grid (workgroups) for `rows` rows
constexpr uint32_t sort_groups(const sort_config& c, uint32_t rows) {
  if (!c.row_per_wave) return rows;
  const uint32_t per = sort_rows_per_wave(c, rows);
  uint32_t waves = (rows + per - 1) / per;
  if (waves > sort_max_waves(c)) waves = sort_max_waves(c);
  return (waves + static_cast<uint32_t>(c.waves) - 1) / static_cast<uint32_t>(c.waves);
}
// LDS of the cross-wave steps: one copy of the row (two would save a barrier a step but halve
// the workgroups a CU holds, which costs more)
constexpr bool sort_cross_waves(const sort_config& c) { return !c.row_per_wave && c.waves > 1; }
constexpr uint32_t sort_lds_region(const sort_config& c) {
  return static_cast<uint32_t>(sort_capacity(c)) * (c.payload == sort_payload::none ? 4u : 8u);
}

namespace detail {
// key bits k -> d, the unsigned integer whose ascending order is the configuration's order, and
// back
template <sort_config C>
constexpr void sort_map_key(builder J, gpr<dtype::u32> d, const gpr<dtype::u32>& k, bool back) {
  if constexpr (C.key == sort_key::u32) {
    if (C.descending) d = ~k;
    else d = k | 0u;
  } else if constexpr (C.key == sort_key::i32) {
    d = k ^ (C.descending ? 0x7fffffffu : 0x80000000u);
  } else {
    // ascending: k ^ (sign(k) | 0x80000000), back: k' ^ ~(sign(k') & 0x7fffffff) (the sign bit
    // flips); descending: k ^ ~(sign(k) | 0x80000000) both ways (the sign bit stays). Three
    // instructions each (xnor takes the complement)
    auto s = J.vgpr<dtype::u32>();
    J.v_ashrrev_i32(s, 31, k);
    if (C.descending || !back) J.v_or_b32(s, 0x80000000u, s);
    else J.v_and_b32(s, 0x7fffffff, s);
    if (C.descending || back) J.v_xnor_b32(d, k, s);
    else J.v_xor_b32(d, k, s);
  }
}
// g(k) = k ^ 0x7fffffff for negative k, else k (an involution), in place: f32 bits whose signed
// order is IEEE 754 totalOrder (-NaN < -inf < .. < -0 < +0 < .. < +inf < +NaN)
constexpr void sort_flip_negative(builder J, gpr<dtype::u32> k) {
  auto s = J.vgpr<dtype::u32>();
  J.v_ashrrev_i32(s, 31, k);
  J.v_lshrrev_b32(s, 1, s);
  J.v_xor_b32(k, k, s);
}
}  // namespace detail

template <sort_config C>
constexpr void sort(builder J, arg<uint32_t*> keys_out, arg<uint32_t*> vals_out, arg<const uint32_t*> keys_in,
                    arg<const uint32_t*> vals_in, arg<unsigned> len, arg<unsigned> rows) {
  static_assert(C.per_lane >= 1 && C.per_lane <= 32 && std::has_single_bit(static_cast<unsigned>(C.per_lane)),
                "hipasm sort: per_lane must be 1, 2, 4, 8, 16 or 32");
  static_assert(C.waves >= 1 && C.waves <= 16 && std::has_single_bit(static_cast<unsigned>(C.waves)),
                "hipasm sort: waves must be a power of two 1..16");
  static_assert(!sort_cross_waves(C) || sort_lds_region(C) <= 65536,
                "hipasm sort: a workgroup row of this capacity does not fit in 64 KiB of LDS: fewer waves or "
                "per_lane (or no payload)");
  if constexpr (C.waves_per_simd > 0) J.require_waves_per_simd(C.waves_per_simd);  // (the config's waves_per_simd)
  constexpr int N = C.per_lane, NB = std::countr_zero(static_cast<unsigned>(N));
  constexpr int B = 6 + NB;  // index bits of a wave's elements
  constexpr int W = C.waves;
  constexpr bool P = C.payload != sort_payload::none;
  constexpr bool F = C.payload == sort_payload::index;  // the pair is an f64 (below)
  constexpr bool X = sort_cross_waves(C);
  constexpr int WB = X ? std::countr_zero(static_cast<unsigned>(W)) : 0;
  // Keys without a payload are sorted as they are: u32 on unsigned, i32 and f32 on signed
  // compares (f32: negative keys turned by g(k) = k ^ 0x7fffffff, the identity on the others,
  // so a piece or lane without negatives costs nothing), descending by the network's direction
  // (the maximum to the lower index). Pairs keep the mapped unsigned order (sort_map_key).
  constexpr bool KS = !P && C.key != sort_key::u32;  // signed compares
  constexpr bool KD = !P && C.descending;            // the network descends
  // what a lane's "upper" mask (0 / ~0) is xored with to keep the wanted side by v_med3: the
  // maximum against ~0 / INT_MAX, the minimum against 0 / INT_MIN
  constexpr uint32_t keep_c = KS ? (KD ? 0x7fffffffu : 0x80000000u) : (KD ? 0xffffffffu : 0u);
  constexpr bool KF = !P && C.key == sort_key::f32;  // negative keys mapped by g
  // the keys' compare opcodes (by enum: a lookup by name costs string compares in the constant
  // evaluator)
  constexpr target_op op_min = KS ? target_op::v_min_i32 : target_op::v_min_u32,
                      op_max = KS ? target_op::v_max_i32 : target_op::v_max_u32,
                      op_min3 = KS ? target_op::v_min3_i32 : target_op::v_min3_u32,
                      op_max3 = KS ? target_op::v_max3_i32 : target_op::v_max3_u32,
                      op_med3 = KS ? target_op::v_med3_i32 : target_op::v_med3_u32;

  auto lane = lane_id(J);
  auto wave = wave_id(J);
  // a row per wave: rows row, row + step, .. below end (sort_max_waves), the next row's loads
  // issued before this row's network (in flight while it runs)
  auto step = J.sgpr<dtype::u32>(), row = J.sgpr<dtype::u32>(), end = J.sgpr<dtype::u32>();
  if constexpr (C.row_per_wave) {
    row = J.workgroup_id_x() * static_cast<uint32_t>(W) + wave;
    if constexpr (sort_strided(C)) {
      step = select(rows < sort_max_waves(C), rows, sort_max_waves(C));  // the grid's waves
      step = (step + static_cast<uint32_t>(W - 1)) & ~static_cast<uint32_t>(W - 1);
      end = rows | 0u;
    } else {
      static_assert(std::has_single_bit(sort_max_waves(C)));
      auto per = J.sgpr<dtype::u32>();
      per = (rows + (sort_max_waves(C) - 1u)) >> static_cast<uint32_t>(std::countr_zero(sort_max_waves(C)));
      row = row * per;
      end = select(row + per < rows, row + per, rows);
      step = 1u;
    }
  } else {
    row = J.workgroup_id_x();
  }
  auto row_bytes = J.sgpr<dtype::u32>(), valid = J.sgpr<dtype::u32>(), row_off = J.sgpr<dtype::u32>();
  row_bytes = len << 2u;
  // Loads and stores in 16-byte pieces that tile the wave's slice: register j*V + c of lane l
  // is element j*64V + V*l + c (a dwordx4 covers 1 KiB: 8 lines, where N contiguous elements a
  // lane touched 64 lines at N = 32). Which element sits where at the start does not matter to a
  // sort: the network takes register r of lane l as element l*N + r (lane-major); only the index
  // payload and the padding use the loaded element's place, and the store goes back to this
  // layout through LDS (below).
  constexpr int V = N < 4 ? N : 4;
  auto first = J.vgpr<dtype::u32>(), voff = J.vgpr<dtype::u32>();
  if constexpr (X) first = lane * static_cast<uint32_t>(V) + wave * static_cast<uint32_t>(64 * N);
  else first = lane * static_cast<uint32_t>(V);
  voff = first << 2u;
  auto place = [](int r) { return static_cast<uint32_t>(r / V * 64 * V + r % V); };  // minus first

  auto raw = J.vgpr<dtype::u32>(N), rawv = J.vgpr<dtype::u32>(C.payload == sort_payload::values ? N : 1);
  // row r's keys (and values) into raw, when `load` (rows past the last: nothing loaded)
  auto load_row = [&](const gpr<dtype::u32>& r, const cond& load) {
    auto v = J.sgpr<dtype::u32>(), off = J.sgpr<dtype::u32>();
    v = select(load && r < rows, row_bytes, 0u);
    off = r * row_bytes;
    buffer KI = make_buffer(J, keys_in, v);
    KI.shift_base(off);
    for (int i = 0; i < N; i += V) KI.load(raw.slice(i, V), voff + 4 * place(i));
    if constexpr (C.payload == sort_payload::values) {
      buffer VI = make_buffer(J, vals_in, v);
      VI.shift_base(off);
      for (int i = 0; i < N; i += V) VI.load(rawv.slice(i, V), voff + 4 * place(i));
    }
  };
  load_row(row, row < rows);
  // piece m of the row in raw: a load a piece (keys only; with values all at once), arriving in
  // order. The first row's pieces (nothing after them): vmcnt(pieces after m); a prefetched row
  // is in by the loop's end (wait_for) and these counts then wait for the stores issued after it
  constexpr bool staged = C.payload != sort_payload::values && N >= 16;  // (at 8 a lane staging does not pay)
  auto wait_piece = [&](int m) {
    if constexpr (!staged) {
      if (m == 0) J.s_waitcnt(vmcnt(0));
    } else {
      J.s_waitcnt(vmcnt(static_cast<uint32_t>(N / V - 1 - m)));
    }
  };

  // the cross-wave steps' LDS: a copy of the row
  constexpr uint32_t ES = P ? 8u : 4u;  // LDS bytes of an element (cross-wave steps)
  constexpr uint32_t RS = 64u * W * ES;  // LDS bytes of a register of the workgroup
  uint32_t lds_base = 0;
  auto wa = J.vgpr<dtype::u32>();  // this lane's LDS address
  if constexpr (X) {
    lds_base = J.lds<uint32_t>(sort_lds_region(C) / 4, 1024).offset;  // (1 KiB: the transposes' swizzle)
    // register-major (register r of lane l of wave w at (r * 64 W + 64 w + l) elements): one
    // access (a register of every lane) covers consecutive elements, no bank conflicts
    wa = (wave * 64u + lane) * ES;
  }

  // The store: the sorted slice is lane-major (lane l holds elements l*N .. l*N + N-1), stored in
  // the load's layout (a dwordx4 a 1 KiB piece) after a transpose through LDS when N > 4: a pass
  // writes the N registers of the lanes that hold GP pieces (ds_write_b128) and every lane reads
  // its 16 bytes of each (ds_read_b128). Addresses XOR-swizzled (16-byte chunk ^= 128-byte line
  // % 8): the writes' lanes (stride 4N bytes) and the reads' (stride 16) hit distinct banks in
  // each 8-lane group. A row per wave: GP = 2 pieces a pass (2 KiB of LDS a wave); a workgroup
  // row: its cross-wave region, each wave its slice, in one pass.
  constexpr bool TR = N >= 16;
  constexpr int G = N / 4 > 0 ? N / 4 : 1;                  // 1 KiB pieces of a wave's slice
  constexpr int GP = X ? G : (G < 2 ? G : 2);               // pieces a pass
  constexpr uint32_t pass_lanes = static_cast<uint32_t>(GP * 256 / (N > 4 ? N : 4));  // lanes holding them
  uint32_t tr_lds = 0;
  auto tr_write = J.vgpr<dtype::u32>(), tr_read = J.vgpr<dtype::u32>();
  auto voff_lm = J.vgpr<dtype::u32>();  // no transpose: lane l's N elements from l*N
  if constexpr (!TR) voff_lm = (X ? lane * static_cast<uint32_t>(N) + wave * static_cast<uint32_t>(64 * N)
                                  : lane * static_cast<uint32_t>(N)) << 2u;
  if constexpr (TR) {
    auto wave_off = J.sgpr<dtype::u32>();
    if constexpr (X) {
      tr_lds = lds_base;
      wave_off = wave * static_cast<uint32_t>(64 * N * 4);
    } else {
      tr_lds = J.lds<uint32_t>(static_cast<uint32_t>(W * GP * 256), 1024).offset;
      wave_off = wave * static_cast<uint32_t>(GP * 1024);
    }
    auto swz = [&](const gpr<dtype::u32>& rel) {
      auto a = J.vgpr<dtype::u32>();
      a = rel ^ (((rel >> 7u) & 7u) << 4u);
      return a;
    };
    auto rel = J.vgpr<dtype::u32>();
    rel = (lane & (pass_lanes - 1u)) * static_cast<uint32_t>(N * 4);
    wave_off = wave_off + tr_lds;
    tr_write = swz(rel) + wave_off;
    rel = lane << 4u;
    tr_read = swz(rel) + wave_off;
  }
  std::array<gpr<dtype::u32>, (TR ? N / 4 : 1)> wq{};  // the writes' addresses (a row's, set at its store)
  // the registers to store: outb (a block: no transpose) or outv (any registers: the transpose
  // writes them in pairs, ds_write2_b32, so that mapping the keys back needs no second copy)
  gpr<dtype::u32> outb{};
  std::array<gpr<dtype::u32>, N> outv{};
  // (fix_piece(j, t): on piece j's registers t in the load's layout, before their store)
  auto store_slice = [&](const arg<uint32_t*>& out, auto&& fix_piece) {
    buffer O = make_buffer(J, out, valid);
    O.shift_base(row_off);
    if constexpr (!TR) {
      for (int i = 0; i < N; i += 4) O.store(outb.slice(i, N - i < 4 ? N - i : 4), voff_lm + 4 * i);
    } else {
      for (int k = 0; k < G / GP; ++k) {
        auto write = [&] {
          for (int q = 0; q < N / 4; ++q)
            for (int c = 0; c < 4; c += 2) J.ds_write2_b32(wq[q], outv[4 * q + c], outv[4 * q + c + 1], {.offset = c, .offset1 = c + 1});
        };
        if constexpr (pass_lanes >= 64) {
          write();
        } else {
          auto m = J.sgpr<dtype::u32>(2);
          const uint64_t bits = ((uint64_t{1} << pass_lanes) - 1) << (k * pass_lanes);
          m[0] = static_cast<uint32_t>(bits);
          m[1] = static_cast<uint32_t>(bits >> 32);
          with_exec_mask(J, m.template as<dtype::u64>(), write);
        }
        auto t = J.vgpr<dtype::u32>(4 * GP);
        for (int p = 0; p < GP; ++p)
          J.ds_read_b128(t.slice(4 * p, 4), tr_read, {.offset = p * 1024});
        J.s_waitcnt(lgkmcnt(0));
        for (int p = 0; p < GP; ++p) fix_piece(k * GP + p, t.slice(4 * p, 4));
        for (int p = 0; p < GP; ++p) O.store(t.slice(4 * p, 4), voff + 4 * place(4 * (k * GP + p)));
      }
    }
  };

  auto sort_row = [&](auto&& prefetch) {
  valid = select(row < rows, row_bytes, 0u);  // rows past the last: nothing stored
  row_off = row * row_bytes;
  // element r: a register (key) or an aligned pair whose u64 order is the element order:
  // (value, key) with values; with indices the f64 bits 2^-1022 * (1 + (key << 20 | index) / 2^52)
  // (exponent 1: a positive normal double, so the f64 order is the u64 order and v_min_f64 /
  // v_max_f64 compare-exchange a pair in two instructions, bits kept)
  std::array<gpr<dtype::u32>, N> el{};
  std::array<bool, N> on_raw{};  // (keys) el[r] is still raw[r]: its first compare-exchange writes fresh registers
  auto fresh = [&] { return P ? J.vgpr<dtype::u32>(2).aligned(2) : J.vgpr<dtype::u32>(); };
  // piece m (registers V m .. V m + V-1, one load): keys mapped, pairs made
  auto map_piece = [&](int m) {
    for (int r = V * m; r < V * (m + 1); ++r) {
      el[r].rebind(fresh());
      if constexpr (F) {
        auto key = J.vgpr<dtype::u32>();
        detail::sort_map_key<C>(J, key, raw[r], false);
        el[r][0] = (key << 20u) | (first + place(r));
        J.v_alignbit_b32(el[r][1], 1u, key, 12u);
      } else if constexpr (P) {
        detail::sort_map_key<C>(J, el[r][1], raw[r], false);
        el[r][0] = rawv[r] | 0u;
      } else {
        el[r].rebind(raw[r]);  // (consumed by the first compare-exchanges: on_raw)
        on_raw[r] = true;
      }
    }
    // f32: g on the piece's negative keys, in place, in the lanes that hold any (the rest skip)
    if constexpr (KF) {
      auto lo = J.vgpr<dtype::i32>();
      lo = V >= 3 ? min3(raw[V * m].template as<dtype::i32>(), raw[V * m + 1].template as<dtype::i32>(),
                         raw[V * m + 2].template as<dtype::i32>())
           : V == 2 ? min(raw[V * m].template as<dtype::i32>(), raw[V * m + 1].template as<dtype::i32>())
                    : raw[V * m].template as<dtype::i32>() + 0;
      if constexpr (V == 4) lo = min(lo, raw[V * m + 3].template as<dtype::i32>());
      J.If(lo < 0, [&] {
        for (int r = V * m; r < V * (m + 1); ++r) detail::sort_flip_negative(J, raw[r]);
      });
    }
  };
  // a partial row: the elements past its end (loaded as 0) become pads, the maximum (max, max)
  // in the mapped order: they sort last and are not stored (an equal real element is identical
  // to a pad; with indices a pad's index >= len puts it after every real element). Set before
  // the mapping, as the key bits that map to ~0 (and value ~0), once the whole row is in; a full
  // row skips this (a wave-uniform branch)
  constexpr uint32_t pad_key = C.key == sort_key::u32 ? (C.descending ? 0u : 0xffffffffu)
                               : C.key == sort_key::i32 ? (C.descending ? 0x80000000u : 0x7fffffffu)
                                                        : (C.descending ? 0xffffffffu : 0x7fffffffu);
  auto pad_row = [&] {
    J.If(len < static_cast<uint32_t>(sort_capacity(C)), [&] {
      J.s_waitcnt(vmcnt(0));
      for (int r = 0; r < N; ++r) {
        auto in_row = first + place(r) < len;
        raw[r] = select(in_row, raw[r], pad_key);
        if constexpr (C.payload == sort_payload::values) rawv[r] = select(in_row, rawv[r], 0xffffffffu);
      }
    });
  };

  // per-lane-bit constants: ~0 in the lanes whose bit b is set (the upper lane of a pair). (Keys
  // at 32 a lane made them at each lane step while the register steps held 93 VGPRs, two VALU a
  // step; with the paired register steps 86 + these 6 fit 5 waves a SIMD)
  std::array<gpr<dtype::u32>, 6> upper_v{};
  std::array<gpr<dtype::u64>, 6> upper_s{}, lower_s{};
  gpr<dtype::u64> full_exec{};  // (argsorts: EXEC after a lane step's halves; the network runs on every lane)
  if constexpr (F) full_exec.rebind(exec_mask(J));
  for (int lb = 0; lb < 6; ++lb) {
    if constexpr (P) {
      constexpr uint32_t pat[5] = {0xaaaaaaaau, 0xccccccccu, 0xf0f0f0f0u, 0xff00ff00u, 0xffff0000u};
      auto m = J.sgpr<dtype::u32>(2);
      m[0] = lb < 5 ? pat[lb] : 0u;
      m[1] = lb < 5 ? pat[lb] : 0xffffffffu;
      upper_s[lb].rebind(m.template as<dtype::u64>());
      if constexpr (F) {
        auto n = J.sgpr<dtype::u32>(2);
        n[0] = ~(lb < 5 ? pat[lb] : 0u);
        n[1] = ~(lb < 5 ? pat[lb] : 0xffffffffu);
        lower_s[lb].rebind(n.template as<dtype::u64>());
      }
    } else {
      auto v = J.vgpr<dtype::u32>();
      J.v_bfe_i32(v, lane, static_cast<uint32_t>(lb), 1u);
      if constexpr (keep_c != 0) v = v ^ keep_c;
      upper_v[lb].rebind(v);
    }
  }

  // compare-exchange of registers i and j of every lane: the minimum to i, the maximum to j.
  // The results go to lo / hi (fresh unless given).
  auto cx_into = [&](int i, int j, gpr<dtype::u32> lo, gpr<dtype::u32> hi) {
    if constexpr (F) {
      J.v_min_f64(lo.template as<dtype::f64>(), el[i].template as<dtype::f64>(), el[j].template as<dtype::f64>());
      J.v_max_f64(hi.template as<dtype::f64>(), el[i].template as<dtype::f64>(), el[j].template as<dtype::f64>());
    } else if constexpr (P) {
      auto m = J.sgpr<dtype::u64>();
      J.v_cmp_lt_u64(m, el[j].template as<dtype::u64>(), el[i].template as<dtype::u64>());
      for (int h = 0; h < 2; ++h) J.v_cndmask_b32(lo[h], el[i][h], el[j][h], m);
      for (int h = 0; h < 2; ++h) J.v_cndmask_b32(hi[h], el[j][h], el[i][h], m);
    } else {
      J.emit(KD ? op_max : op_min, {lo, el[i], el[j]});
      J.emit(KD ? op_min : op_max, {hi, el[i], el[j]});
    }
    el[i].rebind(lo);
    el[j].rebind(hi);
  };
  // (the maximum in place: the pair's first register is free for the next pair's minimum, ~16 VGPRs fewer
  // at 32 a lane than two fresh ones)
  auto cx_reg = [&](int i, int j) {
    const bool raw_j = on_raw[j];
    on_raw[i] = on_raw[j] = false;
    cx_into(i, j, fresh(), raw_j ? fresh() : el[j]);
  };
  // one register: keep the maximum where `upper` (~0 lanes up_v / lane mask up_s), else the
  // minimum, in place: a compare and two selects (payload) or v_med3 against the mask
  auto keep1 = [&](int r, const gpr<dtype::u32>& p, const gpr<dtype::u32>& up_v, const gpr<dtype::u64>& up_s) {
    if constexpr (P) {
      auto m = J.sgpr<dtype::u64>(), mx = J.sgpr<dtype::u64>();
      J.v_cmp_lt_u64(m, p.template as<dtype::u64>(), el[r].template as<dtype::u64>());
      J.s_xor_b64(mx, m, up_s);  // take the partner: lower lanes if smaller, upper if larger
      J.v_cndmask_b32(el[r][0], el[r][0], p[0], mx);
      J.v_cndmask_b32(el[r][1], el[r][1], p[1], mx);
    } else {
      J.emit(op_med3, {el[r], el[r], p, up_v});
    }
  };
  // registers regs[0 .. n) of a lane whose partner copies p hold the other elements of their
  // pairs, as keep1 (lo_s: the complement of up_s). f64: v_min_f64 in the lower lanes,
  // v_max_f64 in the upper (two VALU ops where keep1 takes three)
  // A lane step (`lanes`) has lanes in both halves under the full EXEC, so EXEC is set to each
  // half and back (three s_mov_b64, no branch); a wave step's halves are the whole wave or
  // nothing, and with_exec_mask skips the empty one (bench_kernel_sort argsorts 0.5-2% faster)
  auto keep = [&](const int* regs, int n, const gpr<dtype::u32>* p, const gpr<dtype::u32>& up_v,
                  const gpr<dtype::u64>& up_s, const gpr<dtype::u64>& lo_s, bool lanes) {
    if constexpr (F) {
      auto minmax = [&](bool mx) {
        for (int q = 0; q < n; ++q) {
          auto e = el[regs[q]].template as<dtype::f64>();
          if (mx) J.v_max_f64(e, e, p[q].template as<dtype::f64>());
          else J.v_min_f64(e, e, p[q].template as<dtype::f64>());
        }
      };
      if (lanes) {
        set_exec(J, lo_s);
        minmax(false);
        set_exec(J, up_s);
        minmax(true);
        set_exec(J, full_exec);
      } else {
        with_exec_mask(J, lo_s, [&] { minmax(false); });
        with_exec_mask(J, up_s, [&] { minmax(true); });
      }
    } else {
      for (int q = 0; q < n; ++q) keep1(regs[q], p[q], up_v, up_s);
    }
  };

  // The bitonic sorter in its all-ascending form: stage s (runs of 2^s, s = 1 .. T) first
  // compares e with its mirror e ^ (2^s - 1) in the run, then e with e ^ 2^d for d = s-2 .. 0,
  // the minimum always to the lower index. No direction masks: a register pair's order is known
  // at compile time, a lane pair's by one lane (or wave) bit. Stages 1 .. NB (a lane's
  // registers sorted ascending) are replaced by Batcher's odd-even merge sort, unrolled: the
  // same result in fewer compare-exchanges (32 a lane: 191 instead of 240, 8: 19 instead of 24)
  // sort: the register stages start on the pieces that have arrived (each compare-exchange at
  // the level of the last piece it depends on, in network order within a level), so the first
  // row's network runs while the rest of it loads (all waves wait for their first row at once)
  struct oem_cx {
    int i = 0, j = 0, level = 0;
  };
  std::array<oem_cx, N * N> cxs{};
  int ncx = 0;
  {
    std::array<int, N> level{};
    for (int r = 0; r < N; ++r) level[r] = r / V;
    for (int p = 1; p < N; p <<= 1)
      for (int k = p; k >= 1; k >>= 1)
        for (int j = k % p; j + k < N; j += 2 * k)
          for (int i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
              const int a = i + j, b = i + j + k, l = level[a] > level[b] ? level[a] : level[b];
              cxs[ncx++] = {a, b, l};
              level[a] = level[b] = l;
            }
  }
  pad_row();
  for (int m = 0; m < N / V; ++m) {
    wait_piece(m);
    map_piece(m);
    for (int c = 0; c < ncx; ++c)
      if (cxs[c].level == m) cx_reg(cxs[c].i, cxs[c].j);
    if (m == N / V - 1) {
      for (int r = 0; r < N; ++r)  // (keys with no compare-exchange in registers: one a lane)
        if (on_raw[r]) {
          auto c = fresh();
          c = raw[r] | 0u;
          el[r].rebind(c);
          on_raw[r] = false;
        }
      prefetch();  // (raw is free)
    }
  }

  // Stages NB+1 .. T (T: the index bits of the row): a run-time loop. Stage s's mirror step
  // (lane and register bits, or wave, lane and register bits) has its code per s; its other
  // steps d = s-2 .. 0 are the chain of steps T-2 .. 0 entered at s-2 (each step's code exists
  // once: compile time grows with T, not T^2).
  constexpr int T = B + WB;
  auto s = J.sgpr<dtype::u32>().named("stage");
  J.For(s, static_cast<uint32_t>(NB + 1), static_cast<uint32_t>(T + 1), [&] {
    std::array<gpr<dtype::u32>, N> canon = el;

    // lane xor `mask` (its top bit lb): register r meets the partner lane's register r ^ rx, in place
    auto lane_step = [&](uint32_t mask, int lb, int rx) {
      // The partner copies come by ds_swizzle / ds_bpermute even where a DPP move reaches: the
      // network is VALU-bound and the LDS unit otherwise idle. Keys: software-pipelined, up
      // to 15 exchanges (lgkmcnt's limit) in flight and 4 registers kept at a time once theirs
      // are in (lgkmcnt(the later ones)), so the keeping overlaps the later exchanges. Pairs: 8
      // (16 exchanges) then wait (the EXEC switches of v_min_f64 / v_max_f64 are per chunk)
      constexpr int CK = P ? 8 : 4;  // registers a keep
      // a mirror step's registers in the order 0, N-1, 1, N-2, ..: a pair's two registers are
      // exchanged before the chunk holding both (CK even) writes them in place
      std::array<int, N> order{};
      for (int q = 0; q < N; ++q) order[q] = rx == 0 ? q : q % 2 == 0 ? q / 2 : N - 1 - q / 2;
      std::array<gpr<dtype::u32>, N> pk{};
      gpr<dtype::u32> up{};
      up.rebind(upper_v[lb]);
      int issued = 0;
      auto issue = [&](int q) {
        const int r = order[q];
        if constexpr (P) {
          pk[q].rebind(J.vgpr<dtype::u32>(2).aligned(2));
          shuffle_xor_into(J, pk[q][0], el[r ^ rx][0], mask, {.wait = false, .lds = true});
          shuffle_xor_into(J, pk[q][1], el[r ^ rx][1], mask, {.wait = false, .lds = true});
        } else {
          pk[q].rebind(shuffle_xor(J, el[r ^ rx], mask, {.wait = false, .lds = true}));
        }
      };
      for (int q0 = 0; q0 < N; q0 += CK) {
        const int q1 = q0 + CK < N ? q0 + CK : N;
        for (; issued < (P ? q1 : N) && (P || issued + 1 - q0 <= 15); ++issued) issue(issued);
        J.s_waitcnt(lgkmcnt(P ? 0u : static_cast<uint32_t>(issued - q1)));
        keep(order.data() + q0, q1 - q0, pk.data() + q0, up, upper_s[lb], lower_s[lb], true);
      }
    };
    // wave xor `wmask` (its top bit wb) through LDS (write, barrier, read the partner's copy):
    // a mirror (wmask > 1 or mirror) also reverses the lanes and registers, in place
    auto cross_step = [&](uint32_t wmask, int wb, bool mirror) {
      if constexpr (X) {
        J.s_barrier();  // the previous step's reads are done
        auto ra = J.vgpr<dtype::u32>();
        for (int r = 0; r < N; ++r) {
          if constexpr (P) J.ds_write_b64(wa, el[r], {.offset = static_cast<int32_t>(lds_base + r * RS)});
          else J.ds_write_b32(wa, el[r], {.offset = static_cast<int32_t>(lds_base + r * RS)});
        }
        J.s_waitcnt(lgkmcnt(0));
        J.s_barrier();
        // the partner's first element (a mirror: its last, read backwards)
        const uint32_t flip = mirror ? wmask * 64 + 63 : wmask * 64;
        ra = wa ^ (flip * ES);
        std::array<gpr<dtype::u32>, N> p{};
        for (int r = 0; r < N; ++r) {
          p[r].rebind(fresh());
          const int pr = mirror ? N - 1 - r : r;
          if constexpr (P) J.ds_read_b64(p[r], ra, {.offset = static_cast<int32_t>(lds_base + pr * RS)});
          else J.ds_read_b32(p[r], ra, {.offset = static_cast<int32_t>(lds_base + pr * RS)});
        }
        auto up = J.sgpr<dtype::u32>();  // ~0 in the upper wave of the pair
        up = 0u - ((wave >> static_cast<uint32_t>(wb)) & 1u);
        if constexpr (keep_c != 0) up = up ^ keep_c;
        auto u2 = J.sgpr<dtype::u32>(2), l2 = J.sgpr<dtype::u32>(2);  // (the same as lane masks)
        if constexpr (P) {
          u2[0] = up;
          u2[1] = up;
        }
        if constexpr (F) {
          l2[0] = ~up;
          l2[1] = ~up;
        }
        J.s_waitcnt(lgkmcnt(0));
        std::array<int, N> regs{};
        for (int r = 0; r < N; ++r) regs[r] = r;
        keep(regs.data(), N, p.data(), up, u2.template as<dtype::u64>(), l2.template as<dtype::u64>(), false);
      }
    };
    auto plain_step = [&](int d) {
      if (d >= B) cross_step(1u << (d - B), d - B, false);
      else lane_step(1u << (d - NB), d - NB, 0);
    };
    // stage k's mirror step: bits 0 .. k-1 flipped
    auto mirror_step = [&](int k) {
      if (k > B) cross_step((1u << (k - B)) - 1u, k - 1 - B, true);
      else lane_step((1u << (k - NB)) - 1u, k - 1 - NB, N - 1);
    };
    std::array<label, 16> entry{}, mirror{};
    for (int d = T - 2; d >= NB; --d) entry[d] = J.make_label();
    for (int k = NB + 1; k <= T; ++k) mirror[k - 1] = J.make_label();
    label reg_steps = J.make_label();
    for (int k = NB + 1; k < T; ++k) J.Jump(mirror[k - 1], s == static_cast<uint32_t>(k));
    for (int k = T; k > NB; --k) {  // (s == T falls into its mirror step)
      J.place(mirror[k - 1]);
      mirror_step(k);
      J.Jump(k - 2 >= NB ? entry[k - 2] : reg_steps);
    }
    for (int d = T - 2; d >= NB; --d) {
      J.place(entry[d]);
      plain_step(d);
    }
    J.place(reg_steps);
    // the register steps: pair (i, i + 2^d), the minimum to i. The last one writes the loop's
    // registers (per_lane 2: its pair's are still read by the step: the minimum goes through a
    // temporary)
    auto reg_step = [&](int d) {
      for (int i = 0; i < N; ++i)
        if (!(i & (1 << d))) {
          const int j = i | (1 << d);
          const bool last = d == 0, reads_canon = last && el[i].id == canon[i].id;
          auto lo = last && !reads_canon ? canon[i] : fresh(), hi = last ? canon[j] : el[j];  // (the maximum in place)
          cx_into(i, j, lo, hi);
          if (reads_canon) canon[i] = lo;
          el[i].rebind(last ? canon[i] : lo);
        }
    };
    // Keys: steps d and d-1 at once, six instructions for a group (a0, b0, a1, b1) = registers
    // (i, i + h, i + 2h, i + 3h), h = 2^(d-1), where two compare-exchanges each take eight.
    // The group is bitonic (a subsequence of one), so step d leaves every element of (a0, b0)
    // <= every one of (a1, b1): with mb = min(b0, b1) and Mb = max(b0, b1) the sorted group is
    // min3(a0, a1, mb), med3(a0, a1, mb), med3(a0, a1, Mb), max3(a0, a1, Mb) (min(a0, a1) <=
    // Mb and mb <= max(a0, a1) make each median the step-(d-1) result): six VALU where two
    // plain steps take eight
    auto reg_pair = [&](int d) {
      // (descending: the maximum to the lower index)
      constexpr target_op lo = KD ? op_max : op_min, hi = KD ? op_min : op_max,
                          lo3 = KD ? op_max3 : op_min3, hi3 = KD ? op_min3 : op_max3;
      const int h = 1 << (d - 1);
      const bool last = d == 1;
      for (int i = 0; i < N; ++i) {
        if (i & (3 * h)) continue;
        const int pos[4] = {i, i + h, i + 2 * h, i + 3 * h};
        const auto a0 = el[pos[0]], a1 = el[pos[2]];
        auto mb = J.vgpr<dtype::u32>(), Mb = J.vgpr<dtype::u32>();
        J.emit(lo, {mb, el[pos[1]], el[pos[3]]});
        J.emit(hi, {Mb, el[pos[1]], el[pos[3]]});
        // each result goes to its place's register (the last pair: the loop's), in place: b0's and
        // b1's are free now; a0's and a1's are read by every result, so only the last one can take
        // theirs and an earlier one that would goes to a temporary (copied below if it is the
        // loop's). Intervals are whole (regalloc.hpp): fresh registers a group would add up
        const target_op op[4] = {lo3, op_med3, op_med3, hi3};
        std::array<gpr<dtype::u32>, 4> home{};
        for (int q = 0; q < 4; ++q) home[q].rebind(last ? canon[pos[q]] : el[pos[q]]);
        auto reads = [&](int q) { return home[q].id == a0.id || home[q].id == a1.id; };
        int order[4], n = 0, late = -1;
        for (int q = 0; q < 4; ++q)
          if (!reads(q)) order[n++] = q;
        for (int q = 0; q < 4; ++q)
          if (reads(q)) order[n++] = late = q;
        std::array<gpr<dtype::u32>, 4> y{};
        for (int k = 0; k < 4; ++k) {
          const int q = order[k];
          y[q].rebind(!reads(q) || q == late ? home[q] : fresh());
          J.emit(op[q], {y[q], a0, a1, q < 2 ? mb : Mb});
        }
        for (int q = 0; q < 4; ++q) el[pos[q]].rebind(y[q]);
      }
    };
    int d = NB - 1;
    if constexpr (!P)
      for (; d >= 1; d -= 2) reg_pair(d);
    for (; d >= 0; --d) reg_step(d);
    // (every register is the loop's again; a copy where not)
    for (int r = 0; r < N; ++r)
      if (el[r].id != canon[r].id) {
        canon[r] = el[r];
        el[r].rebind(canon[r]);
      }
  });

  // back to the key bits; the first len elements are stored (pads: out of range, dropped)
  // (in place with a transpose)
  if constexpr (!TR) outb.rebind(J.vgpr<dtype::u32>(N));
  // f32 keys: g back on the negative keys. Without a transpose, in the lanes whose lowest
  // element is negative; with one, on the pieces (in the load's layout) that hold a negative:
  // the sorted row's negative keys are a prefix (descending: a suffix), so piece j has one if
  // its first (last) element, register 0 (N-1) of lane j 256 / N (+ 256 / N - 1), is negative
  // (8192 x 2048 keys with half of them negative: the flips of the pieces without one skipped)
  gpr<dtype::u32> neg_lanes{};  // (a lane mask)
  if constexpr (KF && !TR) {
    auto lowest = el[KD ? N - 1 : 0].template as<dtype::i32>();
    J.If(lowest < 0, [&] {
      for (int r = 0; r < N; ++r) detail::sort_flip_negative(J, el[r]);
    });
  } else if constexpr (KF) {
    neg_lanes.rebind(J.sgpr<dtype::u32>(2));
    J.v_cmp_gt_i32(neg_lanes.template as<dtype::u64>(), 0, el[KD ? N - 1 : 0].template as<dtype::i32>());
  }
  auto flip_piece = [&](int j, gpr<dtype::u32> t) {  // (t by value: the bytecode interpreter)
    if constexpr (KF && TR) {
      const int lane_of = j * (256 / N) + (KD ? 256 / N - 1 : 0);
      J.If((neg_lanes[lane_of / 32] & (1u << (lane_of % 32))) != 0u, [&] {
        for (int c = 0; c < 4; ++c) detail::sort_flip_negative(J, t[c]);
      });
    }
  };
  for (int r = 0; r < N; ++r) {
    if constexpr (F) outv[r].rebind(J.vgpr<dtype::u32>());
    else if constexpr (P) outv[r].rebind(el[r][1]);
    else outv[r].rebind(el[r]);
    if constexpr (F) J.v_alignbit_b32(outv[r], el[r][1], el[r][0], 20u);
    if constexpr (!P) {
      if constexpr (!TR) outb[r] = outv[r] | 0u;
    } else if constexpr (!TR) {
      detail::sort_map_key<C>(J, outb[r], outv[r], true);
    } else {
      detail::sort_map_key<C>(J, outv[r], outv[r], true);
    }
  }
  if constexpr (X && TR) J.s_barrier();  // (the last cross-wave step's reads are done: the transposes reuse its LDS)
  if constexpr (TR) {
    wq[0].rebind(tr_write);
    for (int q = 1; q < N / 4; ++q) {
      wq[q].rebind(J.vgpr<dtype::u32>());
      wq[q] = tr_write ^ static_cast<uint32_t>(16 * q);
    }
  }
  store_slice(keys_out, flip_piece);
  if constexpr (P) {
    if constexpr (!TR) outb.rebind(J.vgpr<dtype::u32>(N));
    for (int r = 0; r < N; ++r) {
      if constexpr (!TR) {
        if constexpr (F) outb[r] = el[r][0] & 0xfffffu;
        else outb[r] = el[r][0] | 0u;
      } else {
        outv[r].rebind(el[r][0]);
        if constexpr (F) outv[r] = outv[r] & 0xfffffu;
      }
    }
    store_slice(vals_out, [](int, gpr<dtype::u32>) {});
  }
  };
  if constexpr (C.row_per_wave) {
    J.While([&] { return row < end; }, [&] {
      sort_row([&] {
        auto next = J.sgpr<dtype::u32>();
        next = row + step;
        J.If(next < end, [&] { load_row(next, next < end); });
      });
      J.wait_for(raw, rawv);  // the next row's (the stores may stay in flight)
      row = row + step;
    });
  } else {
    sort_row([] {});
  }
}

}  // namespace hipasm::kernels

// The extern "C" __global__ kernel NAME for configuration CFG (a constexpr sort_config). Keys
// are 32-bit patterns (float / int / unsigned bits), values u32 (unused without a payload).
#define HIPASM_SORT_KERNEL(NAME, CFG)                                                                  \
  extern "C" __attribute__((global)) void NAME(uint32_t* keys_out, uint32_t* vals_out, const uint32_t* keys_in, \
                                               const uint32_t* vals_in, unsigned len, unsigned rows) { \
    HIPASM_KERNEL_BODY((hipasm::kernels::sort<CFG>), keys_out, vals_out, keys_in, vals_in, len, rows); \
  }

#if !defined(__HIP_DEVICE_COMPILE__) && __has_include(<hipasm/rt/launcher.hpp>)
#include <stdexcept>
#include <string>
#include <string_view>

#include <hipasm/rt/launcher.hpp>
namespace hipasm::kernels {
struct sort_args {
  uint64_t keys_out = 0, vals_out = 0, keys_in = 0, vals_in = 0;  // device addresses
  uint32_t len = 0;   // elements per row, 1..sort_capacity(config)
  uint32_t rows = 0;
};
template <sort_config C>
rt::launch_report launch_sort(rt::device& dev, rt::module& m, std::string_view kernel, const sort_args& a,
                              const rt::launch_options& opts = {}) {
  if (a.rows == 0) throw std::invalid_argument("hipasm sort launch: rows must be >= 1");
  if (a.len == 0 || a.len > static_cast<uint32_t>(sort_capacity(C)))
    throw std::invalid_argument("hipasm sort launch: len must be 1.." + std::to_string(sort_capacity(C)) +
                                " (the configuration's capacity), got " + std::to_string(a.len));
  if (!a.keys_out || !a.keys_in || (C.payload != sort_payload::none && !a.vals_out) ||
      (C.payload == sort_payload::values && !a.vals_in))
    throw std::invalid_argument("hipasm sort launch: a tensor the configuration reads or writes is null");
  if (uint64_t(a.rows) * a.len * 4u >= (uint64_t{1} << 32))
    throw std::invalid_argument("hipasm sort launch: rows * len * 4 bytes must be below 4 GiB (32-bit row offsets)");
  rt::kernel_args args;
  args.add(a.keys_out).add(a.vals_out).add(a.keys_in).add(a.vals_in).add(a.len).add(a.rows);
  return dev.launch(m, kernel, {sort_groups(C, a.rows), 1, 1}, {static_cast<uint32_t>(64 * C.waves), 1, 1}, args,
                    opts);
}
}  // namespace hipasm::kernels
#endif
