// Semantics of the gfx942 memory instructions: SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF.
//
// Memory instructions execute functionally at issue: results are in the registers when the
// handler returns. The checker (checker.cpp) models completion separately, from the pending
// record it made at issue, so a read before the right s_waitcnt is reported even though the
// simulated value is already there.
//
// Modelling choices (see memory.hpp for faults and alignment):
// - FLAT addresses whose high 32 bits are kSharedApertureHi go to the wave's LDS (low 32 bits
//   = LDS offset), kPrivateApertureHi to the lane's private segment, anything else to device
//   memory.
// - Scratch (SCRATCH and private FLAT): lane L's private byte `off` lives at
//   Wave::scratch_base + L * scratch_lane_stride + off; off must be < scratch_lane_stride.
// - MUBUF: V# = base[47:0], stride[61:48], swizzle_enable bit 63, num_records dword 2,
//   add_tid_enable dword3 bit 23. Address = base + offset, offset = soffset + inst_offset
//   + voffset + stride * index (index = vindex [+ lane id]), computed without wrapping (the
//   ISA's sums of 32-bit fields; LLVM: "vaddr + soffset + offset must not overflow").
//   Range check (CDNA3 ISA "Range Checking", as AMD's kernels use it): structured buffer
//   (IDXEN and stride != 0): index < num_records; raw buffer (everything else, also a strided
//   V# without IDXEN): offset + 4k + 4 <= num_records for dword k of a dword/x2/x3/x4 access,
//   offset + size <= num_records for a sub-dword access, typed (format) access or atomic (all
//   or nothing); ADD_TID_ENABLE without IDXEN (private buffer): no check. Out of range is
//   defined behaviour: loads return 0 (LDS-DMA writes 0 to LDS), stores and atomics do
//   nothing (returning atomics return 0). In range but outside any allocation stays a fault.
//   Swizzled resources are rejected (error).
// - LDS-DMA (global_load_lds_*, buffer_load_* lds): each active lane's value, widened to a
//   dword as a VGPR load would, goes to LDS at M0 + inst_offset + 4 * lane (gfx950's
//   dwordx3/x4 forms: 12 / 16 bytes at M0 + inst_offset + 12 / 16 * lane); for buffer_load
//   M0[17:0] (CDNA3 ISA "Memory Buffer Load to LDS": LDS_offset is those 18 bits), the sum
//   exact. (docs/design.md "Memory offsets" lists which sums wrap.)
// - ds_bpermute reads 0 from an inactive source lane; ds_permute: the highest active lane
//   writing a slot wins, unwritten slots read 0. ds_swizzle: bitmask, quad-permute, rotate
//   and FFT modes of the gfx9 ISA, inactive source lanes read 0.
// - GDS forms are errors (compute kernels on gfx942 do not have GDS); ds_gws_* are in exec_gws.cpp.
// - Typed buffer ops (buffer_load/store_format_*, _d16, _d16_hi): the format from V# word 3
//   (see buffer_format: the data and number formats, the packed 10/11-bit layouts, the store
//   conversions); the V# DST_SEL fields are ignored (identity swizzle); components the format
//   lacks load as 0 (w: 1); out of range (whole element) loads 0, stores nothing; unsupported
//   formats, stores of fewer components than the format has, and 32-bit integer formats with
//   d16 are errors.
// - ds_append/ds_consume: LDS counter at M0 + offset, +/- popcount(EXEC), every active lane
//   gets the pre-op value. ds_condxchg32_rtn_b64, ds_wrap_rtn_b32 as the ISA pseudocode.
// - s_scratch_load/store_*: the wave's unswizzled view of its private segment, translated to
//   the per-lane layout above (see s_scratch). s_atc_probe/s_atc_probe_buffer: no-ops.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "checker.hpp"
#include "core.hpp"
#include "memory.hpp"

namespace hipasm::sim {
namespace {

template <class F>
inline void for_active(uint64_t exec, F&& f) {
  while (exec) {
    int lane = std::countr_zero(exec);
    exec &= exec - 1;
    f(lane);
  }
}

enum class D16 : uint8_t { None, Lo, Hi };

// Shape of a load/store element: `bytes` per element (1, 2 or 4), `dwords` elements of 4
// bytes when bytes == 4, sign extension, d16 half.
struct Elem {
  uint8_t bytes = 4;
  uint8_t dwords = 1;
  bool sign = false;
  D16 d16 = D16::None;
  constexpr size_t size() const { return bytes == 4 ? 4u * dwords : bytes; }
};

// Widen a loaded sub-dword value as the VGPR load does (zero/sign extend to 32 or, for d16,
// to 16 bits).
inline uint32_t widen(const Elem& e, uint32_t raw) {
  if (e.bytes == 1) return e.sign ? uint32_t(int32_t(int8_t(raw))) : (raw & 0xff);
  if (e.bytes == 2) return e.sign ? uint32_t(int32_t(int16_t(raw))) : (raw & 0xffff);
  return raw;
}

inline void write_elem(Wave& w, const Operand& d, int lane, const Elem& e, uint32_t value) {
  if (e.d16 == D16::None) {
    write_u32(w, d, lane, value);
    return;
  }
  uint32_t old = read_u32(w, d, lane);
  uint32_t v16 = value & 0xffff;
  write_u32(w, d, lane, e.d16 == D16::Lo ? ((old & 0xffff0000u) | v16) : ((old & 0xffffu) | (v16 << 16)));
}

// One lane's loaded element (the bytes at p) into the destination VGPRs: DS and FLAT loads.
template <Elem E>
inline void load_elem(Wave& w, const Inst& in, int lane, const uint8_t* p) {
  if constexpr (E.bytes == 4) {
    for (int k = 0; k < E.dwords; ++k) {
      uint32_t v;
      std::memcpy(&v, p + 4 * k, 4);
      write_u32(w, in.dst[0], lane, v, k);
    }
  } else {
    uint32_t raw = 0;
    std::memcpy(&raw, p, E.bytes);
    write_elem(w, in.dst[0], lane, E, widen(E, raw));
  }
}

// Store data of one lane, element k (dword k or the sub-dword value).
inline uint32_t store_value(const Wave& w, const Operand& src, int lane, const Elem& e, int k) {
  uint32_t v = read_u32(w, src, lane, k);
  if (e.d16 == D16::Hi) v >>= 16;
  return v;
}

// ---- Atomics -----------------------------------------------------------------------------

enum class Atom : uint8_t {
  Swap, CmpSwap /* data0 = new, data1 = compare (FLAT/MUBUF) */, CmpSt /* DS: data0 = compare,
  data1 = new */, Add, Sub, RSub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec, MskOr,
  FAdd, FMin, FMax, FCmpSt, PkAddF16, PkAddBF16,
};

inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t b32(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t b64(double f) { return std::bit_cast<uint64_t>(f); }

inline uint16_t f32_to_bf16(float f) {
  uint32_t b = b32(f);
  if (std::isnan(f)) return uint16_t((b >> 16) | 0x40);
  b += 0x7fff + ((b >> 16) & 1);  // round to nearest even
  return uint16_t(b >> 16);
}

template <class T>
T atom_apply(Atom op, T old, T d0, T d1) {
  using S = std::make_signed_t<T>;
  constexpr bool wide = sizeof(T) == 8;
  switch (op) {
    case Atom::Swap: return d0;
    case Atom::CmpSwap: return old == d1 ? d0 : old;
    case Atom::CmpSt: return old == d0 ? d1 : old;
    case Atom::Add: return T(old + d0);
    case Atom::Sub: return T(old - d0);
    case Atom::RSub: return T(d0 - old);
    case Atom::SMin: return S(old) < S(d0) ? old : d0;
    case Atom::UMin: return old < d0 ? old : d0;
    case Atom::SMax: return S(old) > S(d0) ? old : d0;
    case Atom::UMax: return old > d0 ? old : d0;
    case Atom::And: return old & d0;
    case Atom::Or: return old | d0;
    case Atom::Xor: return old ^ d0;
    case Atom::Inc: return old >= d0 ? T(0) : T(old + 1);
    case Atom::Dec: return (old == 0 || old > d0) ? d0 : T(old - 1);
    case Atom::MskOr: return (old & ~d0) | d1;
    case Atom::FAdd:
      if constexpr (wide) return b64(f64(old) + f64(d0));
      else return b32(f32(uint32_t(old)) + f32(uint32_t(d0)));
    case Atom::FMin:
      if constexpr (wide) return b64(std::fmin(f64(old), f64(d0)));
      else return b32(std::fmin(f32(uint32_t(old)), f32(uint32_t(d0))));
    case Atom::FMax:
      if constexpr (wide) return b64(std::fmax(f64(old), f64(d0)));
      else return b32(std::fmax(f32(uint32_t(old)), f32(uint32_t(d0))));
    case Atom::FCmpSt:
      if constexpr (wide) return f64(old) == f64(d0) ? d1 : old;
      else return f32(uint32_t(old)) == f32(uint32_t(d0)) ? d1 : old;
    case Atom::PkAddF16:
      if constexpr (!wide) {
        uint32_t r = 0;
        for (int h = 0; h < 2; ++h) {
          _Float16 a = std::bit_cast<_Float16>(uint16_t(old >> (16 * h)));
          _Float16 b = std::bit_cast<_Float16>(uint16_t(d0 >> (16 * h)));
          r |= uint32_t(std::bit_cast<uint16_t>(_Float16(a + b))) << (16 * h);
        }
        return T(r);
      }
      return old;
    case Atom::PkAddBF16:
      if constexpr (!wide) {
        uint32_t r = 0;
        for (int h = 0; h < 2; ++h) {
          float a = f32(uint32_t(uint16_t(old >> (16 * h))) << 16);
          float b = f32(uint32_t(uint16_t(d0 >> (16 * h))) << 16);
          r |= uint32_t(f32_to_bf16(a + b)) << (16 * h);
        }
        return T(r);
      }
      return old;
  }
  return old;
}

// Device atomics: atomic across worker threads (std::atomic_ref on the aligned host word).
template <class T>
T device_atomic(uint8_t* p, Atom op, T d0, T d1) {
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, atom_apply<T>(op, old, d0, d1), std::memory_order_acq_rel)) {
  }
  return old;
}

// Whether an atomic returns the old value: the decoder gives it a destination (sc0/glc).
inline bool returns(const Inst& in) { return in.num_dst > 0 && in.dst[0].kind != Operand::None; }

// ---- SMEM --------------------------------------------------------------------------------

uint64_t smem_address(const Wave& w, const Inst& in) {
  uint64_t base = read_scalar64(w, in.src[0]) & 0xffff'ffff'ffffull;
  int64_t off = in.mod.offset;
  if (in.src[1].kind != Operand::None) off += read_scalar(w, in.src[1]);
  return base + uint64_t(off);
}

template <int N>
void s_load(Wave& w, const Inst& in) {
  uint64_t addr = smem_address(w, in);
  require_aligned(in, "scalar load", addr, 4 * N, -1, 4);
  DeviceView dv(w, in);
  const uint8_t* p = dv.at(addr, 4 * N, -1, false);
  for (int k = 0; k < N; ++k) {
    uint32_t v;
    std::memcpy(&v, p + 4 * k, 4);
    write_scalar(w, in.dst[0], v, k);
  }
}

template <int N>
void s_store(Wave& w, const Inst& in) {
  uint64_t addr = smem_address(w, in);
  require_aligned(in, "scalar store", addr, 4 * N, -1, 4);
  DeviceView dv(w, in);
  uint8_t* p = dv.at(addr, 4 * N, -1, true);
  for (int k = 0; k < N; ++k) {
    uint32_t v = read_scalar(w, in.src[2], k);
    std::memcpy(p + 4 * k, &v, 4);
  }
}

struct Rsrc {
  uint64_t base = 0;
  uint32_t stride = 0, num_records = 0;
  bool swizzle = false, add_tid = false;
};

Rsrc read_rsrc(const Wave& w, const Operand& op) {
  uint32_t d0 = read_scalar(w, op, 0), d1 = read_scalar(w, op, 1);
  Rsrc r;
  r.base = d0 | (uint64_t(d1 & 0xffff) << 32);
  r.stride = (d1 >> 16) & 0x3fff;
  r.swizzle = (d1 >> 31) & 1;
  r.num_records = read_scalar(w, op, 2);
  r.add_tid = (read_scalar(w, op, 3) >> 23) & 1;
  return r;
}

template <int N, bool Store>
void s_buffer(Wave& w, const Inst& in) {
  Rsrc r = read_rsrc(w, in.src[0]);
  uint64_t off = uint64_t(int64_t(in.mod.offset) +
                          (in.src[1].kind != Operand::None ? int64_t(read_scalar(w, in.src[1])) : 0));
  off &= 0xffff'ffffull;
  require_aligned(in, Store ? "scalar buffer store" : "scalar buffer load", r.base + off, 4 * N, -1, 4);
  uint64_t limit = r.stride ? uint64_t(r.num_records) * r.stride : r.num_records;
  DeviceView dv(w, in);
  for (int k = 0; k < N; ++k) {
    uint64_t o = off + 4u * k;
    bool in_range = o + 4 <= limit;
    if constexpr (Store) {
      if (!in_range) continue;
      uint32_t v = read_scalar(w, in.src[2], k);
      std::memcpy(dv.at(r.base + o, 4, -1, true), &v, 4);
    } else {
      uint32_t v = 0;
      if (in_range) std::memcpy(&v, dv.at(r.base + o, 4, -1, false), 4);
      write_scalar(w, in.dst[0], v, k);
    }
  }
}

// Scalar atomics: data in sdata (src[2]; cmpswap: {new, compare}); with glc the old value
// returns to sdata (dst[0]). Buffer forms address through the V# and do nothing out of range.
template <class T, Atom Op, bool Buffer>
void s_atomic(Wave& w, const Inst& in) {
  constexpr int dw = sizeof(T) / 4;
  uint64_t addr;
  bool in_range = true;
  if constexpr (Buffer) {
    Rsrc r = read_rsrc(w, in.src[0]);
    uint64_t off = uint64_t(uint32_t(int64_t(in.mod.offset) +
                                     (in.src[1].kind != Operand::None ? int64_t(read_scalar(w, in.src[1])) : 0)));
    uint64_t limit = r.stride ? uint64_t(r.num_records) * r.stride : r.num_records;
    in_range = off + sizeof(T) <= limit;
    addr = r.base + off;
  } else {
    addr = smem_address(w, in);
  }
  auto data = [&](int which) {
    uint64_t lo = read_scalar(w, in.src[2], which * dw);
    if constexpr (dw == 2) lo |= uint64_t(read_scalar(w, in.src[2], which * dw + 1)) << 32;
    return T(lo);
  };
  T old = 0;
  if (in_range) {
    require_aligned(in, "scalar atomic", addr, sizeof(T), -1, sizeof(T));
    DeviceView dv(w, in);
    old = device_atomic<T>(dv.at(addr, sizeof(T), -1, true), Op, data(0),
                           Op == Atom::CmpSwap ? data(1) : T(0));
  }
  if (returns(in)) {
    write_scalar(w, in.dst[0], uint32_t(old), 0);
    if constexpr (dw == 2) write_scalar(w, in.dst[0], uint32_t(uint64_t(old) >> 32), 1);
  }
}

void s_nop_mem(Wave&, const Inst&) {}  // cache write-back/invalidate/discard: nothing to model

// ---- DS ----------------------------------------------------------------------------------

void check_no_gds(const Inst& in) {
  if (in.mod.gds) fail(in, "GDS is not available to compute kernels on gfx942");
}

inline size_t ds_align(size_t n) { return n >= 4 ? 4 : n; }

template <Elem E>
void ds_read(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr size_t n = E.size();
  uint32_t lane_addr[kLanes];
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, "LDS read", addr, n, lane, ds_align(n));
    const uint8_t* p = lds_at(w, in, addr, n, lane);
    load_elem<E>(w, in, lane, p);
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, n, LdsAccess::Read);
}

template <Elem E>
void ds_write(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr size_t n = E.size();
  uint32_t lane_addr[kLanes];
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, "LDS write", addr, n, lane, ds_align(n));
    uint8_t* p = lds_at(w, in, addr, n, lane);
    if constexpr (E.bytes == 4) {
      for (int k = 0; k < E.dwords; ++k) {
        uint32_t v = read_u32(w, in.src[1], lane, k);
        std::memcpy(p + 4 * k, &v, 4);
      }
    } else {
      uint32_t v = store_value(w, in.src[1], lane, E, 0);
      std::memcpy(p, &v, E.bytes);
    }
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, n, LdsAccess::Write);
}

// gfx950 transposing LDS reads (ds_read_b64_tr_b{4,8,16}, ds_read_b96_tr_b6): every active
// lane reads its 8 (12) bytes; in each group of 16 lanes the 16 rows read are one flat list
// of elements (lane-major, Bits wide, from bit 0 up), and lane l of the group receives
// elements l, l + 16, l + 32, ... packed from bit 0 of its registers: the 16-lane transpose.
// For b16 this is destination lane l halfword n = source lane 4n + (l >> 2) % 4, halfword
// l % 4, the layout ROCm/rocm-systems PR #10175 checked on hardware; b4/b6/b8 follow the same
// rule (not hardware-verified). An inactive lane reads nothing (its elements are 0) and is
// not written.
template <int Bits, int Bytes>
void ds_read_tr(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr int per_lane = Bytes * 8 / Bits;  // elements a lane reads (and receives)
  uint32_t lane_addr[kLanes];
  uint32_t rows[kLanes][3] = {};
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, "LDS read", addr, Bytes, lane, Bytes == 12 ? 4 : 8);
    std::memcpy(rows[lane], lds_at(w, in, addr, Bytes, lane), Bytes);
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, Bytes, LdsAccess::Read);
  auto element = [&](int lane, int e) {
    const int bit = e * Bits;
    uint64_t v = rows[lane][bit / 32];
    if (bit % 32 + Bits > 32) v |= uint64_t(rows[lane][bit / 32 + 1]) << 32;
    return uint32_t(v >> (bit % 32)) & ((1u << Bits) - 1);
  };
  for_active(w.exec, [&](int lane) {
    uint32_t out[3] = {};
    for (int n = 0; n < per_lane; ++n) {
      const TrSource src = ds_read_tr_source(lane, n, per_lane);
      const uint64_t v = element(src.lane, src.element);
      const int bit = n * Bits;
      out[bit / 32] |= uint32_t(v << (bit % 32));
      if (bit % 32 + Bits > 32) out[bit / 32 + 1] |= uint32_t(v >> (32 - bit % 32));
    }
    for (int k = 0; k < Bytes / 4; ++k) write_u32(w, in.dst[0], lane, out[k], k);
  });
}

// ds_read2/write2: two elements of Dw dwords at offset0 * size and offset1 * size (st64: * 64).
template <int Dw, bool St64>
void ds_read2(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr uint32_t n = 4 * Dw, scale = St64 ? 64 * n : n;
  for_active(w.exec, [&](int lane) {
    for (int e = 0; e < 2; ++e) {
      uint32_t addr = ds_address2(w, in, lane, e, scale);
      require_aligned(in, "LDS read", addr, n, lane, 4);
      const uint8_t* p = lds_at(w, in, addr, n, lane);
      checker_lds_access(w, addr, n, LdsAccess::Read);
      for (int k = 0; k < Dw; ++k) {
        uint32_t v;
        std::memcpy(&v, p + 4 * k, 4);
        write_u32(w, in.dst[0], lane, v, e * Dw + k);
      }
    }
  });
}

template <int Dw, bool St64>
void ds_write2(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr uint32_t n = 4 * Dw, scale = St64 ? 64 * n : n;
  for_active(w.exec, [&](int lane) {
    for (int e = 0; e < 2; ++e) {
      uint32_t addr = ds_address2(w, in, lane, e, scale);
      require_aligned(in, "LDS write", addr, n, lane, 4);
      uint8_t* p = lds_at(w, in, addr, n, lane);
      checker_lds_access(w, addr, n, LdsAccess::Write);
      const Operand& src = in.src[1 + e];
      for (int k = 0; k < Dw; ++k) {
        uint32_t v = read_u32(w, src, lane, k);
        std::memcpy(p + 4 * k, &v, 4);
      }
    }
  });
}

// DS atomics on 32- or 64-bit values; Ret: the old value goes to vdst.
template <class T, Atom Op, bool Ret>
void ds_atomic(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr size_t n = sizeof(T);
  constexpr bool two = Op == Atom::CmpSt || Op == Atom::FCmpSt || Op == Atom::MskOr;
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    require_aligned(in, "LDS atomic", addr, n, lane, n);
    uint8_t* p = lds_at(w, in, addr, n, lane);
    checker_lds_access(w, addr, n, LdsAccess::Atomic);
    T d0, d1 = 0, old;
    if constexpr (n == 8) {
      d0 = read_u64(w, in.src[1], lane);
      if constexpr (two) d1 = read_u64(w, in.src[2], lane);
    } else {
      d0 = read_u32(w, in.src[1], lane);
      if constexpr (two) d1 = read_u32(w, in.src[2], lane);
    }
    std::memcpy(&old, p, n);  // one workgroup runs on one thread: plain RMW is atomic
    T nv = atom_apply<T>(Op, old, d0, d1);
    std::memcpy(p, &nv, n);
    if constexpr (Ret) {
      if constexpr (n == 8) write_u64(w, in.dst[0], lane, old);
      else write_u32(w, in.dst[0], lane, old);
    }
  });
}

// ds_wrxchg2(st64)_rtn: two exchanges at offset0/offset1 (x size, st64: x 64 x size); the
// old values return to vdst (two elements).
template <class T, bool St64>
void ds_wrxchg2(Wave& w, const Inst& in) {
  check_no_gds(in);
  constexpr uint32_t n = sizeof(T), scale = St64 ? 64 * n : n;
  for_active(w.exec, [&](int lane) {
    for (int e = 0; e < 2; ++e) {
      uint32_t addr = ds_address2(w, in, lane, e, scale);
      require_aligned(in, "LDS atomic", addr, n, lane, n);
      uint8_t* p = lds_at(w, in, addr, n, lane);
      checker_lds_access(w, addr, n, LdsAccess::Atomic);
      T old, nv;
      std::memcpy(&old, p, n);
      if constexpr (n == 8) nv = read_u64(w, in.src[1 + e], lane);
      else nv = read_u32(w, in.src[1 + e], lane);
      std::memcpy(p, &nv, n);
      for (uint32_t k = 0; k < n / 4; ++k)
        write_u32(w, in.dst[0], lane, uint32_t(uint64_t(old) >> (32 * k)), int(e * (n / 4) + k));
    }
  });
}

// ds_read/write_addtid_b32: the address comes from the lane id, not a VGPR:
// offset + M0[15:0] + 4 * lane (the ISA's pseudocode MEM[{offset1, offset0} + M0[15:0] +
// laneID * 4]).
template <bool Write>
void ds_addtid(Wave& w, const Inst& in) {
  check_no_gds(in);
  uint32_t lane_addr[kLanes];
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_addtid_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, Write ? "LDS write" : "LDS read", addr, 4, lane, 4);
    uint8_t* p = lds_at(w, in, addr, 4, lane);
    if constexpr (Write) {
      uint32_t v = read_u32(w, in.src[Write ? 1 : 0], lane);
      std::memcpy(p, &v, 4);
    } else {
      uint32_t v;
      std::memcpy(&v, p, 4);
      write_u32(w, in.dst[0], lane, v);
    }
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, 4, Write ? LdsAccess::Write : LdsAccess::Read);
}

void ds_nop(Wave&, const Inst&) {}

template <bool Backward>
void ds_permute(Wave& w, const Inst& in) {
  uint32_t tmp[kLanes];
  uint32_t addr[kLanes];
  uint64_t exec = w.exec;
  for_active(exec, [&](int lane) {
    addr[lane] = ((read_u32(w, in.src[0], lane) + uint32_t(in.mod.offset)) >> 2) & 63;
    tmp[lane] = read_u32(w, in.src[1], lane);
  });
  uint32_t out[kLanes];
  if constexpr (Backward) {
    for_active(exec, [&](int lane) {
      uint32_t s = addr[lane];
      out[lane] = (exec >> s) & 1 ? tmp[s] : 0;
    });
  } else {
    std::fill(std::begin(out), std::end(out), 0u);
    for_active(exec, [&](int lane) { out[addr[lane]] = tmp[lane]; });
  }
  for_active(exec, [&](int lane) { write_u32(w, in.dst[0], lane, out[lane]); });
}

}  // namespace

int ds_swizzle_source_lane(uint32_t off, int i) {
  if (off >= 0xe000) {  // FFT
    uint32_t mask = off & 0x1f;
    uint32_t j = std::bit_cast<uint32_t>(i & 0x1f);
    j = (__builtin_bitreverse32(j) >> 27);
    j >>= std::popcount(mask);
    j |= uint32_t(i) & mask;
    return int(j | (uint32_t(i) & 0x20));
  }
  if (off >= 0xc000) {  // rotate
    uint32_t mask = off & 0x1f;
    int32_t rot = int32_t((off >> 5) & 0x1f);
    if (off & 0x400) rot = -rot;
    uint32_t j = (uint32_t(i) & mask) | (uint32_t(i + rot) & ~mask & 0x1f);
    return int(j | (uint32_t(i) & 0x20));
  }
  if (off & 0x8000) {  // quad permute
    int sel = (off >> (2 * (i & 3))) & 3;
    return (i & ~3) | sel;
  }
  uint32_t and_mask = off & 0x1f, or_mask = (off >> 5) & 0x1f, xor_mask = (off >> 10) & 0x1f;
  uint32_t j = (((uint32_t(i) & 0x1f) & and_mask) | or_mask) ^ xor_mask;
  return int(j | (uint32_t(i) & 0x20));
}

namespace {

void ds_swizzle(Wave& w, const Inst& in) {
  uint32_t off = uint32_t(in.mod.offset) & 0xffff;
  uint64_t exec = w.exec;
  uint32_t src[kLanes];
  for_active(exec, [&](int lane) { src[lane] = read_u32(w, in.src[0], lane); });
  uint32_t out[kLanes];
  for_active(exec, [&](int lane) {
    int s = ds_swizzle_source_lane(off, lane);
    out[lane] = (exec >> s) & 1 ? src[s] : 0;
  });
  for_active(exec, [&](int lane) { write_u32(w, in.dst[0], lane, out[lane]); });
}

// ---- FLAT / GLOBAL / SCRATCH --------------------------------------------------------------

enum class Seg : uint8_t { Flat, Global, Scratch };

struct Target {
  enum Kind : uint8_t { Device, Lds, Private } kind = Device;
  uint64_t addr = 0;  // device address, LDS offset or private offset
};

template <Seg S>
Target flat_target(const Wave& w, const Inst& in, int lane) {
  int64_t off = in.mod.offset;
  if constexpr (S == Seg::Global) {
    if (in.src[2].kind != Operand::None)
      return {Target::Device, read_scalar64(w, in.src[2]) + uint64_t(read_u32(w, in.src[0], lane)) + uint64_t(off)};
    return {Target::Device, read_u64(w, in.src[0], lane) + uint64_t(off)};
  } else if constexpr (S == Seg::Scratch) {
    uint32_t o = uint32_t(off);
    if (in.src[2].kind != Operand::None) o += read_scalar(w, in.src[2]);
    if (in.src[0].kind != Operand::None) o += read_u32(w, in.src[0], lane);
    return {Target::Private, o};
  } else {
    uint64_t a = read_u64(w, in.src[0], lane) + uint64_t(off);
    uint32_t hi = uint32_t(a >> 32);
    if (hi == kSharedApertureHi) return {Target::Lds, uint32_t(a)};
    if (hi == kPrivateApertureHi) return {Target::Private, uint32_t(a)};
    return {Target::Device, a};
  }
}

// Resolves a target to host bytes; faults name the instruction. `lds_kind` tells the checker
// what an LDS access is.
struct FlatAccess {
  Wave& w;
  const Inst& in;
  DeviceView dv;
  bool went_vmem = false, went_lds = false;
  FlatAccess(Wave& wave, const Inst& inst) : w(wave), in(inst), dv(wave, inst) {}

  uint8_t* at(const Target& t, size_t n, int lane, bool write, LdsAccess lds_kind) {
    switch (t.kind) {
      case Target::Lds: {
        if (!went_lds) checker_flat_target(w, went_vmem, true);  // before the race check uses its seq
        went_lds = true;
        uint8_t* p = lds_at(w, in, t.addr, n, lane);
        checker_lds_access(w, uint32_t(t.addr), uint32_t(n), lds_kind);
        return p;
      }
      case Target::Private: {
        went_vmem = true;
        if (t.addr + n > w.scratch_lane_stride)
          memory_fault(in, write ? "scratch write" : "scratch read", t.addr, n, lane,
                       "outside the lane's " + std::to_string(w.scratch_lane_stride) +
                           "-byte private segment");
        return dv.at(w.scratch_base + uint64_t(lane) * w.scratch_lane_stride + t.addr, n, lane, write);
      }
      default:
        went_vmem = true;
        return dv.at(t.addr, n, lane, write);
    }
  }
  ~FlatAccess() {
    if (went_vmem || went_lds) checker_flat_target(w, went_vmem, went_lds);
  }
};

template <Seg S, Elem E>
void flat_load(Wave& w, const Inst& in) {
  constexpr size_t n = E.size();
  FlatAccess fa(w, in);
  for_active(w.exec, [&](int lane) {
    Target t = flat_target<S>(w, in, lane);
    if (t.kind == Target::Lds) require_aligned(in, "LDS read", t.addr, n, lane, ds_align(n));
    const uint8_t* p = fa.at(t, n, lane, false, LdsAccess::Read);
    load_elem<E>(w, in, lane, p);
  });
}

template <Seg S, Elem E>
void flat_store(Wave& w, const Inst& in) {
  constexpr size_t n = E.size();
  FlatAccess fa(w, in);
  for_active(w.exec, [&](int lane) {
    Target t = flat_target<S>(w, in, lane);
    if (t.kind == Target::Lds) require_aligned(in, "LDS write", t.addr, n, lane, ds_align(n));
    uint8_t* p = fa.at(t, n, lane, true, LdsAccess::Write);
    if constexpr (E.bytes == 4) {
      for (int k = 0; k < E.dwords; ++k) {
        uint32_t v = read_u32(w, in.src[1], lane, k);
        std::memcpy(p + 4 * k, &v, 4);
      }
    } else {
      uint32_t v = store_value(w, in.src[1], lane, E, 0);
      std::memcpy(p, &v, E.bytes);
    }
  });
}

template <class T, Atom Op>
T read_atom_data(const Wave& w, const Operand& src, int lane, int which) {
  if constexpr (sizeof(T) == 8) {
    uint64_t lo = read_u32(w, src, lane, 2 * which), hi = read_u32(w, src, lane, 2 * which + 1);
    return T(lo | (hi << 32));
  } else {
    return T(read_u32(w, src, lane, which));
  }
}

template <Seg S, class T, Atom Op>
void flat_atomic(Wave& w, const Inst& in) {
  constexpr size_t n = sizeof(T);
  FlatAccess fa(w, in);
  bool ret = returns(in);
  for_active(w.exec, [&](int lane) {
    Target t = flat_target<S>(w, in, lane);
    T d0 = read_atom_data<T, Op>(w, in.src[1], lane, 0);
    T d1 = Op == Atom::CmpSwap ? read_atom_data<T, Op>(w, in.src[1], lane, 1) : T(0);
    require_aligned(in, "atomic", t.addr, n, lane, n);
    uint8_t* p = fa.at(t, n, lane, true, LdsAccess::Atomic);
    T old;
    if (t.kind == Target::Lds) {
      std::memcpy(&old, p, n);
      T nv = atom_apply<T>(Op, old, d0, d1);
      std::memcpy(p, &nv, n);
    } else {
      old = device_atomic<T>(p, Op, d0, d1);
    }
    if (ret) {
      if constexpr (n == 8) write_u64(w, in.dst[0], lane, old);
      else write_u32(w, in.dst[0], lane, old);
    }
  });
}

// LDS-DMA: global_load_lds_* and scratch_load_lds_* {ubyte,sbyte,ushort,sshort,dword}, and
// gfx950's global_load_lds_dwordx3/x4: lane l's n bytes (sub-dword: widened to a dword) go to
// LDS at M0 + inst_offset + l * max(n, 4), contiguously.
template <Seg S, Elem E>
void load_lds(Wave& w, const Inst& in) {
  constexpr size_t n = E.size(), out = n < 4 ? 4 : n;
  FlatAccess fa(w, in);
  uint32_t lds_base = w.m0 + uint32_t(in.mod.offset);
  for_active(w.exec, [&](int lane) {
    Target t = flat_target<S>(w, in, lane);
    const uint8_t* p = fa.at(t, n, lane, false, LdsAccess::Read);
    uint32_t v[4] = {};
    std::memcpy(v, p, n);
    v[0] = widen(E, v[0]);
    uint32_t la = lds_base + uint32_t(out) * uint32_t(lane);
    require_aligned(in, "LDS-DMA write", la, 4, lane, 4);
    uint8_t* q = lds_at(w, in, la, out, lane);
    checker_lds_access(w, la, out, LdsAccess::DmaWrite);
    std::memcpy(q, v, out);
  });
}

// ---- MUBUF -------------------------------------------------------------------------------

// How the V# range check applies to an access (CDNA3 ISA, "Range Checking"; see the header).
enum class BufRange : uint8_t {
  Raw,         // byte offset (soffset + voffset + inst_offset + stride * index) vs num_records
  Structured,  // IDXEN with a nonzero stride: index vs num_records (in records)
  Unchecked,   // ADD_TID_ENABLE without IDXEN: the private (scratch) buffer, no range check
};

struct BufAddr {
  uint64_t addr;    // device address of the first byte
  uint64_t offset;  // byte offset from the V# base (64-bit: the sum does not wrap)
  uint32_t index;
  BufRange range;
};

inline BufAddr buffer_address(const Wave& w, const Inst& in, const Rsrc& r, uint32_t soffset, int lane) {
  uint32_t index = 0, voff = 0;
  if (in.mod.idxen && in.mod.offen) {
    index = read_u32(w, in.src[0], lane, 0);
    voff = read_u32(w, in.src[0], lane, 1);
  } else if (in.mod.idxen) {
    index = read_u32(w, in.src[0], lane, 0);
  } else if (in.mod.offen) {
    voff = read_u32(w, in.src[0], lane, 0);
  }
  if (r.add_tid) index += uint32_t(lane);
  uint64_t offset = uint64_t(soffset) + uint64_t(voff) + uint64_t(uint32_t(in.mod.offset)) +
                    uint64_t(r.stride) * index;
  BufRange range = BufRange::Raw;
  if (r.add_tid && !in.mod.idxen) range = BufRange::Unchecked;
  else if (in.mod.idxen && r.stride != 0) range = BufRange::Structured;
  return {r.base + offset, offset, index, range};
}

// Whether the n bytes at byte `rel` of the access are in the V# range (raw: each dword of a
// multi-dword access on its own, the whole element otherwise).
inline bool buffer_in_range(const Rsrc& r, const BufAddr& a, uint64_t rel, size_t n) {
  switch (a.range) {
    case BufRange::Raw: return a.offset + rel + n <= r.num_records;
    case BufRange::Structured: return a.index < r.num_records;
    case BufRange::Unchecked: return true;
  }
  return false;
}

inline Rsrc buffer_rsrc(const Wave& w, const Inst& in) {
  Rsrc r = read_rsrc(w, in.src[2]);
  if (r.swizzle) fail(in, "swizzled buffer resources (swizzle_enable) are not supported by the simulator");
  return r;
}

inline uint32_t buffer_soffset(const Wave& w, const Inst& in) {
  return in.src[3].kind == Operand::None ? 0u : read_scalar(w, in.src[3]);
}

template <Elem E>
void buffer_load(Wave& w, const Inst& in) {
  constexpr size_t n = E.size();
  Rsrc r = buffer_rsrc(w, in);
  uint32_t so = buffer_soffset(w, in);
  DeviceView dv(w, in);
  if (in.mod.lds) {  // LDS-DMA: as load_lds (dwordx3/x4 only where the target has them)
    const auto& tg = target_of(w);  // (this file's Target is a flat address)
    if (!((tg.lds_dma_dwords >> E.dwords) & 1))
      fail(in, "LDS-DMA of " + std::to_string(E.dwords) + " dwords per lane does not exist on " + tg.name);
    constexpr size_t out = n < 4 ? 4 : n;
    // CDNA3 ISA "Memory Buffer Load to LDS": LDS_offset is M0[17:0]; the sum with the
    // offset: and the lane's bytes is exact (a negative M0 is a far address, not a wrap).
    uint32_t lds_base = (w.m0 & 0x3ffffu) + uint32_t(in.mod.offset);
    for_active(w.exec, [&](int lane) {
      BufAddr a = buffer_address(w, in, r, so, lane);
      uint32_t v[4] = {};
      if constexpr (n <= 4) {
        if (buffer_in_range(r, a, 0, n)) std::memcpy(v, dv.at(a.addr, n, lane, false), n);
      } else {
        for (int k = 0; k < E.dwords; ++k)  // raw range check per dword, as a VGPR load
          if (buffer_in_range(r, a, 4u * k, 4)) std::memcpy(&v[k], dv.at(a.addr + 4u * k, 4, lane, false), 4);
      }
      v[0] = widen(E, v[0]);
      uint32_t la = lds_base + uint32_t(out) * uint32_t(lane);
      require_aligned(in, "LDS-DMA write", la, 4, lane, 4);
      uint8_t* q = lds_at(w, in, la, out, lane);
      checker_lds_access(w, la, out, LdsAccess::DmaWrite);
      std::memcpy(q, v, out);
    });
    return;
  }
  for_active(w.exec, [&](int lane) {
    BufAddr a = buffer_address(w, in, r, so, lane);
    if constexpr (E.bytes == 4) {
      for (int k = 0; k < E.dwords; ++k) {
        uint32_t v = 0;
        if (buffer_in_range(r, a, 4u * k, 4)) std::memcpy(&v, dv.at(a.addr + 4u * k, 4, lane, false), 4);
        write_u32(w, in.dst[0], lane, v, k);
      }
    } else {
      uint32_t raw = 0;
      if (buffer_in_range(r, a, 0, n)) std::memcpy(&raw, dv.at(a.addr, n, lane, false), n);
      write_elem(w, in.dst[0], lane, E, widen(E, raw));
    }
  });
}

template <Elem E>
void buffer_store(Wave& w, const Inst& in) {
  constexpr size_t n = E.size();
  Rsrc r = buffer_rsrc(w, in);
  uint32_t so = buffer_soffset(w, in);
  DeviceView dv(w, in);
  for_active(w.exec, [&](int lane) {
    BufAddr a = buffer_address(w, in, r, so, lane);
    if constexpr (E.bytes == 4) {
      for (int k = 0; k < E.dwords; ++k) {
        if (!buffer_in_range(r, a, 4u * k, 4)) continue;
        uint32_t v = read_u32(w, in.src[1], lane, k);
        std::memcpy(dv.at(a.addr + 4u * k, 4, lane, true), &v, 4);
      }
    } else {
      if (!buffer_in_range(r, a, 0, n)) return;
      uint32_t v = store_value(w, in.src[1], lane, E, 0);
      std::memcpy(dv.at(a.addr, n, lane, true), &v, n);
    }
  });
}

template <class T, Atom Op>
void buffer_atomic(Wave& w, const Inst& in) {
  constexpr size_t n = sizeof(T);
  Rsrc r = buffer_rsrc(w, in);
  uint32_t so = buffer_soffset(w, in);
  DeviceView dv(w, in);
  bool ret = returns(in);
  for_active(w.exec, [&](int lane) {
    BufAddr a = buffer_address(w, in, r, so, lane);
    T old = 0;
    if (buffer_in_range(r, a, 0, n)) {
      require_aligned(in, "atomic", a.addr, n, lane, n);
      T d0 = read_atom_data<T, Op>(w, in.src[1], lane, 0);
      T d1 = Op == Atom::CmpSwap ? read_atom_data<T, Op>(w, in.src[1], lane, 1) : T(0);
      old = device_atomic<T>(dv.at(a.addr, n, lane, true), Op, d0, d1);
    }
    if (ret) {
      if constexpr (n == 8) write_u64(w, in.dst[0], lane, old);
      else write_u32(w, in.dst[0], lane, old);
    }
  });
}

// ---- MUBUF typed (format) loads and stores ------------------------------------------------
//
// The element layout comes from V# word 3: NUM_FORMAT [14:12], DATA_FORMAT [18:15] (gfx9).
// Data formats: 8, 16, 8_8, 16_16, 32, 8_8_8_8, 32_32, 16_16_16_16, 32_32_32, 32_32_32_32, and
// the packed dword formats 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10, whose names list the
// components from the most significant bits down (x is in the low bits, as drivers map
// R11G11B10_FLOAT to 10_11_11 and R10G10B10A2 to 2_10_10_10): 10_11_11 = x[10:0] y[21:11]
// z[31:22]; 11_11_10 = x[9:0] y[20:10] z[31:21]; 10_10_10_2 = x[1:0] y[11:2] z[21:12] w[31:22];
// 2_10_10_10 = x[9:0] y[19:10] z[29:20] w[31:30].
// Number formats, per component of b bits: UNORM raw / (2^b - 1); SNORM max(s / (2^(b-1) - 1),
// -1); USCALED / SSCALED the unsigned / signed integer converted to float (not normalized);
// UINT / SINT the integer; FLOAT: 16/32-bit IEEE, and for 10_11_11/11_11_10 the unsigned
// 11-bit (5-bit exponent, 6-bit mantissa) and 10-bit (5, 5) floats (bias 15, with denormals,
// infinity and NaN). Supported: UNORM/SNORM/USCALED/SSCALED up to 16-bit components and the
// packed formats, UINT/SINT everywhere (not 32-bit with d16), FLOAT for 16/32-bit components
// and 10_11_11/11_11_10. Anything else (RESERVED, 32-bit UNORM/SNORM/SCALED, FLOAT on the
// 10_10_10_2 layouts) is a sim::error naming the instruction and the format.
// Stores convert back: UINT/SINT keep the low bits; UNORM/SNORM scale, USCALED/SSCALED do not,
// all four clamp to the component's range and round to nearest even (NaN stores 0); unsigned
// small floats round to nearest even and clamp as EXT_packed_float defines (the ISA guide
// gives no rules): negative values and -inf store 0, finite values above the largest finite
// (65024 for 11-bit, 64512 for 10-bit) store the largest finite, +inf stores +inf, NaN a NaN.

struct BufFormat {
  int comps = 0, nfmt = 0, dfmt = 0;
  bool packed = false;             // one dword holding all components
  uint8_t bits[4] = {}, shift[4] = {};
  size_t bytes = 0;                // element size
};
enum : int { NF_UNORM = 0, NF_SNORM = 1, NF_USCALED = 2, NF_SSCALED = 3, NF_UINT = 4, NF_SINT = 5, NF_FLOAT = 7 };

const char* dfmt_name(uint32_t d) {
  static const char* n[16] = {"INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10",
                              "10_10_10_2", "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16",
                              "32_32_32", "32_32_32_32", "RESERVED_15"};
  return n[d & 15];
}
const char* nfmt_name(uint32_t f) {
  static const char* n[8] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "RESERVED_6", "FLOAT"};
  return n[f & 7];
}

BufFormat buffer_format(const Wave& w, const Inst& in, bool d16) {
  uint32_t w3 = read_scalar(w, in.src[2], 3);
  uint32_t dfmt = (w3 >> 15) & 15, nfmt = (w3 >> 12) & 7;
  BufFormat f;
  f.nfmt = int(nfmt);
  f.dfmt = int(dfmt);
  auto uniform = [&](int comps, int bits) {
    f.comps = comps;
    for (int k = 0; k < comps; ++k) { f.bits[k] = uint8_t(bits); f.shift[k] = uint8_t(k * bits); }
    f.bytes = size_t(comps) * bits / 8;
  };
  auto packed = [&](std::initializer_list<int> bits) {
    f.packed = true;
    f.bytes = 4;
    int sh = 0;
    for (int b : bits) { f.bits[f.comps] = uint8_t(b); f.shift[f.comps] = uint8_t(sh); sh += b; ++f.comps; }
  };
  switch (dfmt) {
    case 1: uniform(1, 8); break;
    case 2: uniform(1, 16); break;
    case 3: uniform(2, 8); break;
    case 4: uniform(1, 32); break;
    case 5: uniform(2, 16); break;
    case 6: packed({11, 11, 10}); break;
    case 7: packed({10, 11, 11}); break;
    case 8: packed({2, 10, 10, 10}); break;
    case 9: packed({10, 10, 10, 2}); break;
    case 10: uniform(4, 8); break;
    case 11: uniform(2, 32); break;
    case 12: uniform(4, 16); break;
    case 13: uniform(3, 32); break;
    case 14: uniform(4, 32); break;
    default: break;
  }
  bool ok = f.comps != 0;
  if (ok) {
    const int bits = f.bits[0];
    switch (nfmt) {
      case NF_UNORM: case NF_SNORM: case NF_USCALED: case NF_SSCALED: ok = f.packed || bits <= 16; break;
      case NF_UINT: case NF_SINT: ok = !(d16 && bits == 32); break;  // 32-bit int -> 16 bits: unmodelled
      case NF_FLOAT: ok = dfmt == 6 || dfmt == 7 || (!f.packed && bits >= 16); break;
      default: ok = false;
    }
  }
  if (!ok)
    fail(in, std::string("buffer format DATA_FORMAT=") + dfmt_name(dfmt) + " NUM_FORMAT=" + nfmt_name(nfmt) +
                 (d16 ? " (d16)" : "") + " is not supported by the simulator");
  return f;
}

inline float half_to_f32(uint32_t h) { return float(std::bit_cast<_Float16>(uint16_t(h))); }
inline uint32_t f32_to_half(float f) { return std::bit_cast<uint16_t>(_Float16(f)); }

// Unsigned small floats: 5-bit exponent (bias 15), `mbits` mantissa bits (6: 11-bit, 5: 10-bit).
float small_float_value(uint32_t raw, int mbits) {
  uint32_t e = raw >> mbits, m = raw & ((1u << mbits) - 1);
  if (e == 31) return m ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  if (e == 0) return std::ldexp(float(m), -14 - mbits);
  return std::ldexp(float(m | (1u << mbits)), int(e) - 15 - mbits);
}
uint32_t small_float_bits(float x, int mbits) {
  const uint32_t mmask = (1u << mbits) - 1, max_finite = (30u << mbits) | mmask;
  if (std::isnan(x)) return (31u << mbits) | mmask;
  if (!(x > 0)) return 0;  // negative, -0, -inf
  if (std::isinf(x)) return 31u << mbits;
  // Round to nearest even on the grid of the value's binade (the denormal grid below 2^-14).
  int e = std::max(std::ilogb(x), -14);
  float q = std::nearbyint(std::ldexp(x, mbits - e));  // exact scaling; RNE (default mode)
  float v = std::ldexp(q, e - mbits);
  if (v > small_float_value(max_finite, mbits)) return max_finite;
  if (v < std::ldexp(1.0f, -14)) return uint32_t(q);  // denormal (or 0)
  e = std::ilogb(v);
  return uint32_t(e + 15) << mbits | (uint32_t(std::ldexp(v, mbits - e)) & mmask);
}

// Component k (raw low bits[k] bits) as the VGPR sees it: 32 bits, or 16 for d16.
uint32_t format_load_value(const BufFormat& f, int k, uint32_t raw, bool d16) {
  const int bits = f.bits[k];
  uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  raw &= mask;
  int32_t sx = bits == 32 ? int32_t(raw) : int32_t(raw << (32 - bits)) >> (32 - bits);
  auto flt = [&](float v) { return d16 ? f32_to_half(v) : b32(v); };
  switch (f.nfmt) {
    case NF_UINT: return d16 ? (raw & 0xffff) : raw;
    case NF_SINT: return d16 ? (uint32_t(sx) & 0xffff) : uint32_t(sx);
    case NF_FLOAT:
      if (bits == 10 || bits == 11) return flt(small_float_value(raw, bits - 5));  // exact in f16 too
      if (bits == 16) return d16 ? raw : b32(half_to_f32(raw));
      return d16 ? f32_to_half(f32(raw)) : raw;
    case NF_UNORM: return flt(float(raw) / float(mask));
    case NF_USCALED: return flt(float(raw));
    case NF_SSCALED: return flt(float(sx));
    default: return flt(std::max(float(sx) / float(mask >> 1), -1.0f));  // SNORM
  }
}

// A component the format does not have: 0 for x, y, z; 1 (integer or float) for w.
uint32_t format_default(const BufFormat& f, int k, bool d16) {
  if (k != 3) return 0;
  if (f.nfmt == NF_UINT || f.nfmt == NF_SINT) return 1;
  return d16 ? 0x3c00u : b32(1.0f);
}

// One register component (32 bits, or 16 for d16) -> the format's raw bits for component k.
uint32_t format_store_value(const BufFormat& f, int k, uint32_t v, bool d16) {
  const int bits = f.bits[k];
  uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  switch (f.nfmt) {
    case NF_UINT: return (d16 ? (v & 0xffff) : v) & mask;  // low bits, no saturation
    case NF_SINT: return (d16 ? uint32_t(int32_t(int16_t(v))) : v) & mask;
    case NF_FLOAT:
      if (bits == 10 || bits == 11) return small_float_bits(d16 ? half_to_f32(v) : f32(v), bits - 5);
      if (bits == 16) return d16 ? (v & 0xffff) : f32_to_half(f32(v));
      return d16 ? b32(half_to_f32(v)) : v;
    default: {
      float x = d16 ? half_to_f32(v) : f32(v);
      if (std::isnan(x)) x = 0;
      const float umax = float(mask), smax = float(mask >> 1), smin = -smax - 1;
      switch (f.nfmt) {
        case NF_UNORM: return uint32_t(std::nearbyint(std::clamp(x, 0.0f, 1.0f) * umax)) & mask;
        case NF_SNORM: return uint32_t(int32_t(std::nearbyint(std::clamp(x, -1.0f, 1.0f) * smax))) & mask;
        case NF_USCALED: return uint32_t(std::clamp(std::nearbyint(x), 0.0f, umax)) & mask;
        default: return uint32_t(int32_t(std::clamp(std::nearbyint(x), smin, smax))) & mask;  // SSCALED
      }
    }
  }
}

// buffer_{load,store}_format_{x,xy,xyz,xyzw} (N components), _d16 (packed: two components per
// VGPR, the unused high half of a last odd component kept), _d16_hi_x (high half).
template <int N, bool D16, bool Hi, bool Store>
void buffer_format_op(Wave& w, const Inst& in) {
  if (in.mod.lds) fail(in, "LDS-DMA with a typed buffer instruction is not supported by the simulator");
  Rsrc r = buffer_rsrc(w, in);
  BufFormat f = buffer_format(w, in, D16);
  if (Store && N < f.comps)
    fail(in, std::string("storing ") + std::to_string(N) + " component(s) to the " +
                 std::to_string(f.comps) + "-component buffer format " + dfmt_name(uint32_t(f.dfmt)) +
                 " is not supported by the simulator (unwritten components are unspecified)");
  uint32_t so = buffer_soffset(w, in);
  DeviceView dv(w, in);
  const size_t eb = f.bytes;
  const Operand& reg = Store ? in.src[1] : in.dst[0];
  // Component k's raw bits sit at bit f.shift[k] of the element (byte-aligned unless packed).
  auto get = [&](const uint8_t* e, int k) {  // e: at least 16 bytes
    uint32_t v = 0;
    std::memcpy(&v, e + f.shift[k] / 8, 4);
    return v >> (f.shift[k] % 8);
  };
  for_active(w.exec, [&](int lane) {
    BufAddr a = buffer_address(w, in, r, so, lane);
    bool in_range = buffer_in_range(r, a, 0, eb);
    if constexpr (Store) {
      if (!in_range) return;
      uint8_t e[16] = {};
      uint32_t word = 0;
      for (int k = 0; k < f.comps; ++k) {
        uint32_t v;
        if constexpr (D16) {
          uint32_t d = read_u32(w, reg, lane, k / 2);
          v = (Hi || (k & 1)) ? d >> 16 : d & 0xffff;
        } else {
          v = read_u32(w, reg, lane, k);
        }
        uint32_t raw = format_store_value(f, k, v, D16);
        if (f.packed) word |= raw << f.shift[k];
        else std::memcpy(e + f.shift[k] / 8, &raw, f.bits[k] / 8);
      }
      if (f.packed) std::memcpy(e, &word, 4);
      std::memcpy(dv.at(a.addr, eb, lane, true), e, eb);
    } else {
      uint32_t vals[4];
      // Only the components loaded are read (the range check above covers the whole element).
      const size_t nread = f.packed ? 4 : size_t(std::min(N, f.comps)) * (f.bits[0] / 8);
      uint8_t e[16] = {};
      if (in_range) std::memcpy(e, dv.at(a.addr, nread, lane, false), nread);
      for (int k = 0; k < N; ++k) {
        if (!in_range) { vals[k] = 0; continue; }
        if (k >= f.comps) { vals[k] = format_default(f, k, D16); continue; }
        vals[k] = format_load_value(f, k, get(e, k), D16);
      }
      if constexpr (D16) {
        for (int d = 0; d < (N + 1) / 2; ++d) {
          uint32_t old = read_u32(w, reg, lane, d);
          uint32_t v;
          if (Hi) v = (old & 0xffffu) | (vals[0] << 16);
          else if (2 * d + 1 < N) v = vals[2 * d] | (vals[2 * d + 1] << 16);
          else v = (old & 0xffff0000u) | vals[2 * d];
          write_u32(w, reg, lane, v, d);
        }
      } else {
        for (int k = 0; k < N; ++k) write_u32(w, reg, lane, vals[k], k);
      }
    }
  });
}

// ---- DS: append/consume, condxchg32, wrap -------------------------------------------------

// ds_append / ds_consume: one LDS counter at M0 + offset; it goes up (down) by the number of
// active lanes and every active lane gets the value from before the instruction.
template <bool Append>
void ds_append_consume(Wave& w, const Inst& in) {
  check_no_gds(in);
  if (w.exec == 0) return;
  uint32_t addr = w.m0 + uint32_t(in.mod.offset);
  int lane0 = std::countr_zero(w.exec);
  require_aligned(in, "LDS atomic", addr, 4, lane0, 4);
  uint8_t* p = lds_at(w, in, addr, 4, lane0);
  checker_lds_access(w, addr, 4, LdsAccess::Atomic);
  uint32_t old, n = uint32_t(std::popcount(w.exec));
  std::memcpy(&old, p, 4);
  uint32_t nv = Append ? old + n : old - n;
  std::memcpy(p, &nv, 4);
  for_active(w.exec, [&](int lane) { write_u32(w, in.dst[0], lane, old); });
}

// ds_condxchg32_rtn_b64: two dwords; dword k is replaced by data[31:0 of half k] with bit 31
// cleared when bit 31 of that half is set; both old dwords return.
void ds_condxchg32(Wave& w, const Inst& in) {
  check_no_gds(in);
  uint32_t lane_addr[kLanes];
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, "LDS atomic", addr, 8, lane, 8);
    uint8_t* p = lds_at(w, in, addr, 8, lane);
    for (int k = 0; k < 2; ++k) {
      uint32_t old, d = read_u32(w, in.src[1], lane, k);
      std::memcpy(&old, p + 4 * k, 4);
      if (d >> 31) {
        uint32_t nv = d & 0x7fffffffu;
        std::memcpy(p + 4 * k, &nv, 4);
      }
      write_u32(w, in.dst[0], lane, old, k);
    }
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, 8, LdsAccess::Atomic);
}

// ds_wrap_rtn_b32: mem = mem >= data0 ? mem - data0 : mem + data1; the old value returns.
void ds_wrap(Wave& w, const Inst& in) {
  check_no_gds(in);
  uint32_t lane_addr[kLanes];
  for_active(w.exec, [&](int lane) {
    uint32_t addr = ds_address(w, in, lane);
    lane_addr[lane] = addr;
    require_aligned(in, "LDS atomic", addr, 4, lane, 4);
    uint8_t* p = lds_at(w, in, addr, 4, lane);
    uint32_t old, d0 = read_u32(w, in.src[1], lane), d1 = read_u32(w, in.src[2], lane);
    std::memcpy(&old, p, 4);
    uint32_t nv = old >= d0 ? old - d0 : old + d1;
    std::memcpy(p, &nv, 4);
    write_u32(w, in.dst[0], lane, old);
  });
  checker_lds_access_lanes(w, lane_addr, w.exec, 4, LdsAccess::Atomic);
}

// s_scratch_load/store_*: ADDR = SGPR[base] + inst_offset + (SGPR[soffset] or M0) * 64 (the
// ISA: a register offset counts 64-byte units, the immediate is a signed byte offset). ADDR is
// a byte address of the wave's (unswizzled) view of its private segment and must lie inside
// this wave's [FLAT_SCRATCH, FLAT_SCRATCH + 64 * stride) (the dispatcher sets FLAT_SCRATCH =
// s[102:103] = Wave::scratch_base); anything else is an error, like other scratch accesses.
// The hardware keeps private memory swizzled with element size 4 and index stride 64: wave-view
// byte W holds lane (W / 4) % 64's private byte (W / 256) * 4 + W % 4. The simulator stores
// each lane's bytes contiguously (lane L's byte `off` at scratch_base + L * stride + off), so
// every dword is translated: a scalar load sees what the lanes' vector scratch stores wrote,
// as on hardware. Addresses must be 4-byte aligned (as for other SMEM).
template <int N, bool Store>
void s_scratch(Wave& w, const Inst& in) {
  uint64_t base = read_scalar64(w, in.src[0]) & 0xffff'ffff'ffffull;
  int64_t off = in.mod.offset;
  if (in.src[1].kind != Operand::None) off += int64_t(read_scalar(w, in.src[1])) * 64;
  const uint64_t addr = base + uint64_t(off);
  const char* what = Store ? "scalar scratch store" : "scalar scratch load";
  require_aligned(in, what, addr, 4 * N, -1, 4);
  const uint64_t wave_bytes = uint64_t(w.scratch_lane_stride) * kLanes;
  if (addr < w.scratch_base || addr - w.scratch_base + 4 * N > wave_bytes)
  {
    char seg[96];
    std::snprintf(seg, sizeof seg, "outside the wave's %llu-byte private segment at 0x%llx (FLAT_SCRATCH)",
                  (unsigned long long)wave_bytes, (unsigned long long)w.scratch_base);
    memory_fault(in, what, addr, 4 * N, -1, seg);
  }
  DeviceView dv(w, in);
  for (int k = 0; k < N; ++k) {
    uint64_t wv = addr - w.scratch_base + 4u * k;
    uint64_t lane = (wv >> 2) & 63, lane_off = (wv >> 8) * 4;
    uint8_t* p = dv.at(w.scratch_base + lane * w.scratch_lane_stride + lane_off, 4, -1, Store);
    if constexpr (Store) {
      uint32_t v = read_scalar(w, in.src[2], k);
      std::memcpy(p, &v, 4);
    } else {
      uint32_t v;
      std::memcpy(&v, p, 4);
      write_scalar(w, in.dst[0], v, k);
    }
  }
}

// ---- Registration -----------------------------------------------------------------------

constexpr Elem U8{1, 1, false}, I8{1, 1, true}, U16{2, 1, false}, I16{2, 1, true};
constexpr Elem B32{4, 1}, B64{4, 2}, B96{4, 3}, B128{4, 4};
constexpr Elem U8_D16{1, 1, false, D16::Lo}, U8_D16_HI{1, 1, false, D16::Hi};
constexpr Elem I8_D16{1, 1, true, D16::Lo}, I8_D16_HI{1, 1, true, D16::Hi};
constexpr Elem B16_D16{2, 1, false, D16::Lo}, B16_D16_HI{2, 1, false, D16::Hi};
constexpr Elem ST8{1, 1}, ST16{2, 1}, ST8_HI{1, 1, false, D16::Hi}, ST16_HI{2, 1, false, D16::Hi};

const Registrar smem_handlers{
    {"s_load_dword", s_load<1>},           {"s_load_dwordx2", s_load<2>},
    {"s_load_dwordx4", s_load<4>},         {"s_load_dwordx8", s_load<8>},
    {"s_load_dwordx16", s_load<16>},       {"s_store_dword", s_store<1>},
    {"s_store_dwordx2", s_store<2>},       {"s_store_dwordx4", s_store<4>},
    {"s_buffer_load_dword", s_buffer<1, false>},   {"s_buffer_load_dwordx2", s_buffer<2, false>},
    {"s_buffer_load_dwordx4", s_buffer<4, false>}, {"s_buffer_load_dwordx8", s_buffer<8, false>},
    {"s_buffer_load_dwordx16", s_buffer<16, false>}, {"s_buffer_store_dword", s_buffer<1, true>},
    {"s_buffer_store_dwordx2", s_buffer<2, true>}, {"s_buffer_store_dwordx4", s_buffer<4, true>},
    {"s_dcache_wb", s_nop_mem},            {"s_dcache_inv", s_nop_mem},
    {"s_dcache_wb_vol", s_nop_mem},        {"s_dcache_inv_vol", s_nop_mem},
    {"s_dcache_discard", s_nop_mem},       {"s_dcache_discard_x2", s_nop_mem},
};

const Registrar gap_handlers{
    {"buffer_load_format_x", buffer_format_op<1, false, false, false>},
    {"buffer_load_format_xy", buffer_format_op<2, false, false, false>},
    {"buffer_load_format_xyz", buffer_format_op<3, false, false, false>},
    {"buffer_load_format_xyzw", buffer_format_op<4, false, false, false>},
    {"buffer_store_format_x", buffer_format_op<1, false, false, true>},
    {"buffer_store_format_xy", buffer_format_op<2, false, false, true>},
    {"buffer_store_format_xyz", buffer_format_op<3, false, false, true>},
    {"buffer_store_format_xyzw", buffer_format_op<4, false, false, true>},
    {"buffer_load_format_d16_x", buffer_format_op<1, true, false, false>},
    {"buffer_load_format_d16_xy", buffer_format_op<2, true, false, false>},
    {"buffer_load_format_d16_xyz", buffer_format_op<3, true, false, false>},
    {"buffer_load_format_d16_xyzw", buffer_format_op<4, true, false, false>},
    {"buffer_load_format_d16_hi_x", buffer_format_op<1, true, true, false>},
    {"buffer_store_format_d16_x", buffer_format_op<1, true, false, true>},
    {"buffer_store_format_d16_xy", buffer_format_op<2, true, false, true>},
    {"buffer_store_format_d16_xyz", buffer_format_op<3, true, false, true>},
    {"buffer_store_format_d16_xyzw", buffer_format_op<4, true, false, true>},
    {"buffer_store_format_d16_hi_x", buffer_format_op<1, true, true, true>},
    {"ds_append", ds_append_consume<true>}, {"ds_consume", ds_append_consume<false>},
    {"ds_condxchg32_rtn_b64", ds_condxchg32}, {"ds_wrap_rtn_b32", ds_wrap},
    {"s_scratch_load_dword", s_scratch<1, false>}, {"s_scratch_load_dwordx2", s_scratch<2, false>},
    {"s_scratch_load_dwordx4", s_scratch<4, false>}, {"s_scratch_store_dword", s_scratch<1, true>},
    {"s_scratch_store_dwordx2", s_scratch<2, true>}, {"s_scratch_store_dwordx4", s_scratch<4, true>},
    {"s_atc_probe", s_nop_mem}, {"s_atc_probe_buffer", s_nop_mem},
};

#define HIPASM_S_ATOMICS(prefix, buffer)                                                    \
  {prefix "swap", s_atomic<uint32_t, Atom::Swap, buffer>},                                  \
  {prefix "cmpswap", s_atomic<uint32_t, Atom::CmpSwap, buffer>},                            \
  {prefix "add", s_atomic<uint32_t, Atom::Add, buffer>},                                    \
  {prefix "sub", s_atomic<uint32_t, Atom::Sub, buffer>},                                    \
  {prefix "smin", s_atomic<uint32_t, Atom::SMin, buffer>},                                  \
  {prefix "umin", s_atomic<uint32_t, Atom::UMin, buffer>},                                  \
  {prefix "smax", s_atomic<uint32_t, Atom::SMax, buffer>},                                  \
  {prefix "umax", s_atomic<uint32_t, Atom::UMax, buffer>},                                  \
  {prefix "and", s_atomic<uint32_t, Atom::And, buffer>},                                    \
  {prefix "or", s_atomic<uint32_t, Atom::Or, buffer>},                                      \
  {prefix "xor", s_atomic<uint32_t, Atom::Xor, buffer>},                                    \
  {prefix "inc", s_atomic<uint32_t, Atom::Inc, buffer>},                                    \
  {prefix "dec", s_atomic<uint32_t, Atom::Dec, buffer>},                                    \
  {prefix "swap_x2", s_atomic<uint64_t, Atom::Swap, buffer>},                               \
  {prefix "cmpswap_x2", s_atomic<uint64_t, Atom::CmpSwap, buffer>},                         \
  {prefix "add_x2", s_atomic<uint64_t, Atom::Add, buffer>},                                 \
  {prefix "sub_x2", s_atomic<uint64_t, Atom::Sub, buffer>},                                 \
  {prefix "smin_x2", s_atomic<uint64_t, Atom::SMin, buffer>},                               \
  {prefix "umin_x2", s_atomic<uint64_t, Atom::UMin, buffer>},                               \
  {prefix "smax_x2", s_atomic<uint64_t, Atom::SMax, buffer>},                               \
  {prefix "umax_x2", s_atomic<uint64_t, Atom::UMax, buffer>},                               \
  {prefix "and_x2", s_atomic<uint64_t, Atom::And, buffer>},                                 \
  {prefix "or_x2", s_atomic<uint64_t, Atom::Or, buffer>},                                   \
  {prefix "xor_x2", s_atomic<uint64_t, Atom::Xor, buffer>},                                 \
  {prefix "inc_x2", s_atomic<uint64_t, Atom::Inc, buffer>},                                 \
  {prefix "dec_x2", s_atomic<uint64_t, Atom::Dec, buffer>}

const Registrar smem_atomic_handlers{HIPASM_S_ATOMICS("s_atomic_", false),
                                     HIPASM_S_ATOMICS("s_buffer_atomic_", true)};

const Registrar ds_handlers{
    {"ds_read_b64_tr_b4", ds_read_tr<4, 8>},  {"ds_read_b64_tr_b8", ds_read_tr<8, 8>},
    {"ds_read_b64_tr_b16", ds_read_tr<16, 8>}, {"ds_read_b96_tr_b6", ds_read_tr<6, 12>},
    {"ds_read_b32", ds_read<B32>},      {"ds_read_b64", ds_read<B64>},
    {"ds_read_b96", ds_read<B96>},      {"ds_read_b128", ds_read<B128>},
    {"ds_read_u8", ds_read<U8>},        {"ds_read_i8", ds_read<I8>},
    {"ds_read_u16", ds_read<U16>},      {"ds_read_i16", ds_read<I16>},
    {"ds_read_u8_d16", ds_read<U8_D16>}, {"ds_read_u8_d16_hi", ds_read<U8_D16_HI>},
    {"ds_read_i8_d16", ds_read<I8_D16>}, {"ds_read_i8_d16_hi", ds_read<I8_D16_HI>},
    {"ds_read_u16_d16", ds_read<B16_D16>}, {"ds_read_u16_d16_hi", ds_read<B16_D16_HI>},
    {"ds_write_b8", ds_write<ST8>},     {"ds_write_b16", ds_write<ST16>},
    {"ds_write_b8_d16_hi", ds_write<ST8_HI>}, {"ds_write_b16_d16_hi", ds_write<ST16_HI>},
    {"ds_write_b32", ds_write<B32>},    {"ds_write_b64", ds_write<B64>},
    {"ds_write_b96", ds_write<B96>},    {"ds_write_b128", ds_write<B128>},
    {"ds_read2_b32", ds_read2<1, false>},   {"ds_read2_b64", ds_read2<2, false>},
    {"ds_read2st64_b32", ds_read2<1, true>}, {"ds_read2st64_b64", ds_read2<2, true>},
    {"ds_write2_b32", ds_write2<1, false>},   {"ds_write2_b64", ds_write2<2, false>},
    {"ds_write2st64_b32", ds_write2<1, true>}, {"ds_write2st64_b64", ds_write2<2, true>},
    {"ds_nop", ds_nop},
    {"ds_bpermute_b32", ds_permute<true>}, {"ds_permute_b32", ds_permute<false>},
    {"ds_swizzle_b32", ds_swizzle},
    {"ds_read_addtid_b32", ds_addtid<false>}, {"ds_write_addtid_b32", ds_addtid<true>},
    {"ds_wrxchg2_rtn_b32", ds_wrxchg2<uint32_t, false>}, {"ds_wrxchg2st64_rtn_b32", ds_wrxchg2<uint32_t, true>},
    {"ds_wrxchg2_rtn_b64", ds_wrxchg2<uint64_t, false>}, {"ds_wrxchg2st64_rtn_b64", ds_wrxchg2<uint64_t, true>},
};

// LLVM spells the returning forms ds_<op>_rtn_<type>: built below from (op, type) pairs.
#define HIPASM_DS_AT(op, type, T, A)                          \
  {"ds_" op "_" type, ds_atomic<T, Atom::A, false>},          \
  {"ds_" op "_rtn_" type, ds_atomic<T, Atom::A, true>}

const Registrar ds_atomic_handlers{
    HIPASM_DS_AT("add", "u32", uint32_t, Add),   HIPASM_DS_AT("sub", "u32", uint32_t, Sub),
    HIPASM_DS_AT("rsub", "u32", uint32_t, RSub), HIPASM_DS_AT("inc", "u32", uint32_t, Inc),
    HIPASM_DS_AT("dec", "u32", uint32_t, Dec),   HIPASM_DS_AT("min", "i32", uint32_t, SMin),
    HIPASM_DS_AT("max", "i32", uint32_t, SMax),  HIPASM_DS_AT("min", "u32", uint32_t, UMin),
    HIPASM_DS_AT("max", "u32", uint32_t, UMax),  HIPASM_DS_AT("and", "b32", uint32_t, And),
    HIPASM_DS_AT("or", "b32", uint32_t, Or),     HIPASM_DS_AT("xor", "b32", uint32_t, Xor),
    HIPASM_DS_AT("mskor", "b32", uint32_t, MskOr), HIPASM_DS_AT("cmpst", "b32", uint32_t, CmpSt),
    HIPASM_DS_AT("cmpst", "f32", uint32_t, FCmpSt), HIPASM_DS_AT("min", "f32", uint32_t, FMin),
    HIPASM_DS_AT("max", "f32", uint32_t, FMax),  HIPASM_DS_AT("add", "f32", uint32_t, FAdd),
    HIPASM_DS_AT("pk_add", "f16", uint32_t, PkAddF16), HIPASM_DS_AT("pk_add", "bf16", uint32_t, PkAddBF16),
    {"ds_wrxchg_rtn_b32", ds_atomic<uint32_t, Atom::Swap, true>},
    HIPASM_DS_AT("add", "u64", uint64_t, Add),   HIPASM_DS_AT("sub", "u64", uint64_t, Sub),
    HIPASM_DS_AT("rsub", "u64", uint64_t, RSub), HIPASM_DS_AT("inc", "u64", uint64_t, Inc),
    HIPASM_DS_AT("dec", "u64", uint64_t, Dec),   HIPASM_DS_AT("min", "i64", uint64_t, SMin),
    HIPASM_DS_AT("max", "i64", uint64_t, SMax),  HIPASM_DS_AT("min", "u64", uint64_t, UMin),
    HIPASM_DS_AT("max", "u64", uint64_t, UMax),  HIPASM_DS_AT("and", "b64", uint64_t, And),
    HIPASM_DS_AT("or", "b64", uint64_t, Or),     HIPASM_DS_AT("xor", "b64", uint64_t, Xor),
    HIPASM_DS_AT("mskor", "b64", uint64_t, MskOr), HIPASM_DS_AT("cmpst", "b64", uint64_t, CmpSt),
    HIPASM_DS_AT("cmpst", "f64", uint64_t, FCmpSt), HIPASM_DS_AT("min", "f64", uint64_t, FMin),
    HIPASM_DS_AT("max", "f64", uint64_t, FMax),  HIPASM_DS_AT("add", "f64", uint64_t, FAdd),
    {"ds_wrxchg_rtn_b64", ds_atomic<uint64_t, Atom::Swap, true>},
};

#define HIPASM_FLAT_LS(seg, prefix)                                                          \
  {prefix "_load_ubyte", flat_load<seg, U8>}, {prefix "_load_sbyte", flat_load<seg, I8>},    \
  {prefix "_load_ushort", flat_load<seg, U16>}, {prefix "_load_sshort", flat_load<seg, I16>}, \
  {prefix "_load_dword", flat_load<seg, B32>}, {prefix "_load_dwordx2", flat_load<seg, B64>}, \
  {prefix "_load_dwordx3", flat_load<seg, B96>}, {prefix "_load_dwordx4", flat_load<seg, B128>}, \
  {prefix "_load_ubyte_d16", flat_load<seg, U8_D16>},                                        \
  {prefix "_load_ubyte_d16_hi", flat_load<seg, U8_D16_HI>},                                  \
  {prefix "_load_sbyte_d16", flat_load<seg, I8_D16>},                                        \
  {prefix "_load_sbyte_d16_hi", flat_load<seg, I8_D16_HI>},                                  \
  {prefix "_load_short_d16", flat_load<seg, B16_D16>},                                       \
  {prefix "_load_short_d16_hi", flat_load<seg, B16_D16_HI>},                                 \
  {prefix "_store_byte", flat_store<seg, ST8>}, {prefix "_store_short", flat_store<seg, ST16>}, \
  {prefix "_store_byte_d16_hi", flat_store<seg, ST8_HI>},                                    \
  {prefix "_store_short_d16_hi", flat_store<seg, ST16_HI>},                                  \
  {prefix "_store_dword", flat_store<seg, B32>}, {prefix "_store_dwordx2", flat_store<seg, B64>}, \
  {prefix "_store_dwordx3", flat_store<seg, B96>}, {prefix "_store_dwordx4", flat_store<seg, B128>}

#define HIPASM_FLAT_ATOMICS(seg, prefix)                                                     \
  {prefix "_atomic_swap", flat_atomic<seg, uint32_t, Atom::Swap>},                           \
  {prefix "_atomic_cmpswap", flat_atomic<seg, uint32_t, Atom::CmpSwap>},                     \
  {prefix "_atomic_add", flat_atomic<seg, uint32_t, Atom::Add>},                             \
  {prefix "_atomic_sub", flat_atomic<seg, uint32_t, Atom::Sub>},                             \
  {prefix "_atomic_smin", flat_atomic<seg, uint32_t, Atom::SMin>},                           \
  {prefix "_atomic_umin", flat_atomic<seg, uint32_t, Atom::UMin>},                           \
  {prefix "_atomic_smax", flat_atomic<seg, uint32_t, Atom::SMax>},                           \
  {prefix "_atomic_umax", flat_atomic<seg, uint32_t, Atom::UMax>},                           \
  {prefix "_atomic_and", flat_atomic<seg, uint32_t, Atom::And>},                             \
  {prefix "_atomic_or", flat_atomic<seg, uint32_t, Atom::Or>},                               \
  {prefix "_atomic_xor", flat_atomic<seg, uint32_t, Atom::Xor>},                             \
  {prefix "_atomic_inc", flat_atomic<seg, uint32_t, Atom::Inc>},                             \
  {prefix "_atomic_dec", flat_atomic<seg, uint32_t, Atom::Dec>},                             \
  {prefix "_atomic_add_f32", flat_atomic<seg, uint32_t, Atom::FAdd>},                        \
  {prefix "_atomic_pk_add_f16", flat_atomic<seg, uint32_t, Atom::PkAddF16>},                 \
  {prefix "_atomic_pk_add_bf16", flat_atomic<seg, uint32_t, Atom::PkAddBF16>},               \
  {prefix "_atomic_swap_x2", flat_atomic<seg, uint64_t, Atom::Swap>},                        \
  {prefix "_atomic_cmpswap_x2", flat_atomic<seg, uint64_t, Atom::CmpSwap>},                  \
  {prefix "_atomic_add_x2", flat_atomic<seg, uint64_t, Atom::Add>},                          \
  {prefix "_atomic_sub_x2", flat_atomic<seg, uint64_t, Atom::Sub>},                          \
  {prefix "_atomic_smin_x2", flat_atomic<seg, uint64_t, Atom::SMin>},                        \
  {prefix "_atomic_umin_x2", flat_atomic<seg, uint64_t, Atom::UMin>},                        \
  {prefix "_atomic_smax_x2", flat_atomic<seg, uint64_t, Atom::SMax>},                        \
  {prefix "_atomic_umax_x2", flat_atomic<seg, uint64_t, Atom::UMax>},                        \
  {prefix "_atomic_and_x2", flat_atomic<seg, uint64_t, Atom::And>},                          \
  {prefix "_atomic_or_x2", flat_atomic<seg, uint64_t, Atom::Or>},                            \
  {prefix "_atomic_xor_x2", flat_atomic<seg, uint64_t, Atom::Xor>},                          \
  {prefix "_atomic_inc_x2", flat_atomic<seg, uint64_t, Atom::Inc>},                          \
  {prefix "_atomic_dec_x2", flat_atomic<seg, uint64_t, Atom::Dec>},                          \
  {prefix "_atomic_add_f64", flat_atomic<seg, uint64_t, Atom::FAdd>},                        \
  {prefix "_atomic_min_f64", flat_atomic<seg, uint64_t, Atom::FMin>},                        \
  {prefix "_atomic_max_f64", flat_atomic<seg, uint64_t, Atom::FMax>}

const Registrar flat_handlers{
    HIPASM_FLAT_LS(Seg::Flat, "flat"),       HIPASM_FLAT_LS(Seg::Global, "global"),
    HIPASM_FLAT_LS(Seg::Scratch, "scratch"), HIPASM_FLAT_ATOMICS(Seg::Flat, "flat"),
    HIPASM_FLAT_ATOMICS(Seg::Global, "global"),
    {"global_load_lds_ubyte", load_lds<Seg::Global, U8>}, {"global_load_lds_sbyte", load_lds<Seg::Global, I8>},
    {"global_load_lds_ushort", load_lds<Seg::Global, U16>}, {"global_load_lds_sshort", load_lds<Seg::Global, I16>},
    {"global_load_lds_dword", load_lds<Seg::Global, B32>},
    {"global_load_lds_dwordx3", load_lds<Seg::Global, B96>}, {"global_load_lds_dwordx4", load_lds<Seg::Global, B128>},
    {"scratch_load_lds_ubyte", load_lds<Seg::Scratch, U8>}, {"scratch_load_lds_sbyte", load_lds<Seg::Scratch, I8>},
    {"scratch_load_lds_ushort", load_lds<Seg::Scratch, U16>}, {"scratch_load_lds_sshort", load_lds<Seg::Scratch, I16>},
    {"scratch_load_lds_dword", load_lds<Seg::Scratch, B32>},
};

const Registrar buffer_handlers{
    {"buffer_load_ubyte", buffer_load<U8>},     {"buffer_load_sbyte", buffer_load<I8>},
    {"buffer_load_ushort", buffer_load<U16>},   {"buffer_load_sshort", buffer_load<I16>},
    {"buffer_load_dword", buffer_load<B32>},    {"buffer_load_dwordx2", buffer_load<B64>},
    {"buffer_load_dwordx3", buffer_load<B96>},  {"buffer_load_dwordx4", buffer_load<B128>},
    {"buffer_load_ubyte_d16", buffer_load<U8_D16>}, {"buffer_load_ubyte_d16_hi", buffer_load<U8_D16_HI>},
    {"buffer_load_sbyte_d16", buffer_load<I8_D16>}, {"buffer_load_sbyte_d16_hi", buffer_load<I8_D16_HI>},
    {"buffer_load_short_d16", buffer_load<B16_D16>}, {"buffer_load_short_d16_hi", buffer_load<B16_D16_HI>},
    {"buffer_store_byte", buffer_store<ST8>},   {"buffer_store_short", buffer_store<ST16>},
    {"buffer_store_byte_d16_hi", buffer_store<ST8_HI>}, {"buffer_store_short_d16_hi", buffer_store<ST16_HI>},
    {"buffer_store_dword", buffer_store<B32>},  {"buffer_store_dwordx2", buffer_store<B64>},
    {"buffer_store_dwordx3", buffer_store<B96>}, {"buffer_store_dwordx4", buffer_store<B128>},
    {"buffer_atomic_swap", buffer_atomic<uint32_t, Atom::Swap>},
    {"buffer_atomic_cmpswap", buffer_atomic<uint32_t, Atom::CmpSwap>},
    {"buffer_atomic_add", buffer_atomic<uint32_t, Atom::Add>},
    {"buffer_atomic_sub", buffer_atomic<uint32_t, Atom::Sub>},
    {"buffer_atomic_smin", buffer_atomic<uint32_t, Atom::SMin>},
    {"buffer_atomic_umin", buffer_atomic<uint32_t, Atom::UMin>},
    {"buffer_atomic_smax", buffer_atomic<uint32_t, Atom::SMax>},
    {"buffer_atomic_umax", buffer_atomic<uint32_t, Atom::UMax>},
    {"buffer_atomic_and", buffer_atomic<uint32_t, Atom::And>},
    {"buffer_atomic_or", buffer_atomic<uint32_t, Atom::Or>},
    {"buffer_atomic_xor", buffer_atomic<uint32_t, Atom::Xor>},
    {"buffer_atomic_inc", buffer_atomic<uint32_t, Atom::Inc>},
    {"buffer_atomic_dec", buffer_atomic<uint32_t, Atom::Dec>},
    {"buffer_atomic_add_f32", buffer_atomic<uint32_t, Atom::FAdd>},
    {"buffer_atomic_pk_add_f16", buffer_atomic<uint32_t, Atom::PkAddF16>},
    {"buffer_atomic_pk_add_bf16", buffer_atomic<uint32_t, Atom::PkAddBF16>},  // gfx950
    {"buffer_atomic_swap_x2", buffer_atomic<uint64_t, Atom::Swap>},
    {"buffer_atomic_cmpswap_x2", buffer_atomic<uint64_t, Atom::CmpSwap>},
    {"buffer_atomic_add_x2", buffer_atomic<uint64_t, Atom::Add>},
    {"buffer_atomic_sub_x2", buffer_atomic<uint64_t, Atom::Sub>},
    {"buffer_atomic_smin_x2", buffer_atomic<uint64_t, Atom::SMin>},
    {"buffer_atomic_umin_x2", buffer_atomic<uint64_t, Atom::UMin>},
    {"buffer_atomic_smax_x2", buffer_atomic<uint64_t, Atom::SMax>},
    {"buffer_atomic_umax_x2", buffer_atomic<uint64_t, Atom::UMax>},
    {"buffer_atomic_and_x2", buffer_atomic<uint64_t, Atom::And>},
    {"buffer_atomic_or_x2", buffer_atomic<uint64_t, Atom::Or>},
    {"buffer_atomic_xor_x2", buffer_atomic<uint64_t, Atom::Xor>},
    {"buffer_atomic_inc_x2", buffer_atomic<uint64_t, Atom::Inc>},
    {"buffer_atomic_dec_x2", buffer_atomic<uint64_t, Atom::Dec>},
    {"buffer_atomic_add_f64", buffer_atomic<uint64_t, Atom::FAdd>},
    {"buffer_atomic_min_f64", buffer_atomic<uint64_t, Atom::FMin>},
    {"buffer_atomic_max_f64", buffer_atomic<uint64_t, Atom::FMax>},
    {"buffer_wbl2", s_nop_mem},  {"buffer_inv", s_nop_mem},
};

}  // namespace
}  // namespace hipasm::sim
