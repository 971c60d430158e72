// Device memory and LDS access for the memory-instruction semantics (exec_mem.cpp).
//
// Device memory (Memory, declared in core.hpp): every allocation gets a real, unique,
// never-reused address range from kDeviceBase upward (4 KiB-aligned or more), followed by a
// guard gap of at least kGuardBytes, so an access that runs off one buffer does not land in
// the next, and a use after free faults. Host storage is aligned like the device address (256 bytes), so naturally
// aligned device words are naturally aligned host words and atomics use std::atomic_ref.
//
// Faults (sim::error "0x<pc>: <text>: <what> ... at 0x<addr> (lane N): <why>"):
// - device access not entirely inside one live allocation (global/flat/buffer in range/SMEM);
// - LDS access outside [0, static + dynamic LDS size);
// - scratch access outside the lane's private segment;
// - misaligned where gfx942 faults or misbehaves in the modes ROCm sets:
//     * atomics (device or LDS) must be naturally aligned (4 or 8 bytes);
//     * DS loads/stores of 2 bytes need 2-byte, of 4 bytes or more (b32/b64/b96/b128 and
//       each element of read2/write2) 4-byte alignment;
//     * SMEM addresses must be 4-byte aligned (the hardware silently drops the low bits,
//       which is never what a kernel meant);
//     * global/flat/buffer/scratch loads and stores may be unaligned (unaligned mode).
#pragma once
#include <map>
#include <memory>
#include <shared_mutex>
#include <string_view>

#include "checker.hpp"
#include "core.hpp"

namespace hipasm::sim {

inline constexpr uint64_t kDeviceBase = 0x7f00'0000'0000ull;
inline constexpr uint64_t kGuardBytes = 64 * 1024;
// Device d of a multi-device run allocates from kDeviceBase + d * kDeviceSpan, so an address
// names its device (as a node's unified address space does) and a peer mapping never collides.
inline constexpr uint64_t kDeviceSpan = 0x40'0000'0000ull;  // 256 GiB

// The bytes of one allocation, shared by the owner's allocation and every peer mapping of it
// (Memory::map_peer). `shared` once a peer mapped it: only such bytes can be accessed by more
// than one device, so only their accesses reach the peer-visibility checker (peer.hpp).
struct Backing {
  uint8_t* data = nullptr;  // aligned host storage (operator new with align_val_t)
  size_t size = 0;
  unsigned home = 0;        // the device whose memory holds the bytes
  uint64_t home_base = 0;   // their address on that device
  bool shared = false;
  Backing(size_t bytes, unsigned device, uint64_t base);
  ~Backing();
  Backing(const Backing&) = delete;
  Backing& operator=(const Backing&) = delete;
};

struct Memory::Impl {
  struct Allocation {
    uint64_t base = 0;
    std::shared_ptr<Backing> backing;
    bool peer = false;  // a mapping of another device's allocation
    size_t size() const { return backing->size; }
    uint8_t* data() const { return backing->data; }
  };
  mutable std::shared_mutex mu;
  std::map<uint64_t, Allocation> allocs;  // by base address
  unsigned device = 0;
  uint64_t next = kDeviceBase, limit = kDeviceBase + kDeviceSpan;
  uint64_t take_range(size_t bytes, size_t align);  // under the unique lock

  // The allocation containing [addr, addr+n), or nullptr. Takes the shared lock.
  const Allocation* find(uint64_t addr, size_t n) const;
  // Why [addr, addr+n) is not accessible, for messages ("outside any allocation", "past the
  // end of the 4096-byte allocation at 0x... by 4 bytes", ...).
  std::string explain(uint64_t addr, size_t n) const;
};

// One instruction's view of device memory: caches the allocation of the last lane so a
// coalesced access looks the allocation table up once. Throws sim::error naming the
// instruction, the lane and the address.
// In a multi-device run with the peer-visibility checker (Dispatch::peer), every access to
// bytes a peer mapped is reported to it (peer.hpp); under the checker, every access is
// reported to its workgroup-scope race check (checker_mem_access).
class DeviceView {
 public:
  DeviceView(Memory& mem, const Inst& in) : mem_(mem), in_(in) {}
  DeviceView(const Wave& w, const Inst& in)
      : mem_(*w.dispatch->memory), in_(in), wave_(&w), peer_(w.dispatch->peer), check_(w.checker_state != nullptr) {}
  uint8_t* at(uint64_t addr, size_t n, int lane, bool write) {
    if (check_) [[unlikely]] checker_mem_access(*wave_, addr, uint32_t(n), write);
    if (addr >= lo_ && addr + n <= hi_ && addr + n >= addr) [[likely]] {
      if (shared_) [[unlikely]] report(addr, n, lane, write);
      return data_ + (addr - lo_);
    }
    return slow(addr, n, lane, write);
  }

 private:
  uint8_t* slow(uint64_t addr, size_t n, int lane, bool write);
  void report(uint64_t addr, size_t n, int lane, bool write);
  Memory& mem_;
  const Inst& in_;
  const Wave* wave_ = nullptr;
  PeerObserver* peer_ = nullptr;
  uint64_t lo_ = 1, hi_ = 0;  // cached [lo_, hi_) (empty)
  uint8_t* data_ = nullptr;
  Backing* backing_ = nullptr;
  bool shared_ = false;       // peer_ and the cached allocation's bytes are shared
  bool check_ = false;        // the wave runs under the checker (checker_mem_access)
};

// The LDS byte address a DS instruction accesses for `lane`, one computation for the data
// and for the checker's definedness shadow: the address VGPR plus the instruction offset,
// 32 bits wide (the sum wraps: clang's code relies on it, e.g. v0 = -16 * lane with
// offset:1008). ds_read2/write2/wrxchg2 element e: offset0 or offset1 times `scale` (the
// element size, st64: 64 times it).
inline uint32_t ds_address(const Wave& w, const Inst& in, int lane) {
  return read_u32(w, in.src[0], lane) + uint32_t(in.mod.offset);
}
inline uint32_t ds_address2(const Wave& w, const Inst& in, int lane, int e, uint32_t scale) {
  return read_u32(w, in.src[0], lane) + uint32_t(e == 0 ? in.mod.offset : in.mod.offset1) * scale;
}
// ds_read/write_addtid_b32: offset + M0[15:0] + 4 * lane (the ISA's pseudocode).
inline uint32_t ds_addtid_address(const Wave& w, const Inst& in, int lane) {
  return uint32_t(in.mod.offset) + (w.m0 & 0xffff) + 4u * uint32_t(lane);
}

// gfx950's transposing LDS reads (ds_read_b64_tr_b*, ds_read_b96_tr_b6): the lane whose row
// holds element k of `lane`'s result, and that element's index in the row (per_lane elements a
// row). The 16 rows of a 16-lane group are one list; lane l of the group gets l, l + 16, ...
struct TrSource {
  int lane, element;
};
inline TrSource ds_read_tr_source(int lane, int k, int per_lane) {
  const int flat = k * 16 + (lane & 15);
  return {(lane & ~15) + flat / per_lane, flat % per_lane};
}

// Byte pointer into the wave's workgroup LDS for [addr, addr+n); throws when outside.
uint8_t* lds_at(const Wave& w, const Inst& in, uint64_t addr, size_t n, int lane);

// Throws "0x<pc>: <text>: <what> of N bytes at 0x<addr> (lane L): <why>".
[[noreturn]] void memory_fault(const Inst& in, std::string_view what, uint64_t addr, size_t n,
                               int lane, std::string_view why);

// Alignment check helper: throws memory_fault when addr % align != 0.
inline void require_aligned(const Inst& in, std::string_view what, uint64_t addr, size_t n,
                            int lane, size_t align) {
  if (align > 1 && (addr & (align - 1)) != 0)
    memory_fault(in, what, addr, n, lane,
                 "misaligned (needs " + std::to_string(align) + "-byte alignment)");
}

// The lane ds_swizzle_b32 with offset `off` (its 16-bit offset field) reads for lane `i`
// (bitmask, quad-permute, rotate and FFT modes); exec_mem.cpp, shared with the checker.
int ds_swizzle_source_lane(uint32_t off, int i);

}  // namespace hipasm::sim
