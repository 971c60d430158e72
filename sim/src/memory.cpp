// Device memory of the simulator: real, non-overlapping, never-reused addresses; checked
// access. See memory.hpp for the fault rules.
#include "memory.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>

namespace hipasm::sim {

namespace {
constexpr size_t kHostAlign = 256;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

Backing::Backing(size_t bytes, unsigned device, uint64_t base) : size(bytes), home(device), home_base(base) {
  // Host storage of at least one byte so a zero-size allocation still has a unique address.
  data = static_cast<uint8_t*>(::operator new[](std::max<size_t>(bytes, 1), std::align_val_t(kHostAlign)));
  std::memset(data, 0, std::max<size_t>(bytes, 1));
}
Backing::~Backing() { ::operator delete[](data, std::align_val_t(kHostAlign)); }

Memory::Memory(unsigned device) : impl_(std::make_unique<Impl>()) {
  if (device >= kMaxDevices)
    throw sim::error("device memory: device " + std::to_string(device) + " (the simulator has devices 0.." +
                     std::to_string(kMaxDevices - 1) + ")");
  impl_->device = device;
  impl_->next = kDeviceBase + device * kDeviceSpan;
  impl_->limit = impl_->next + kDeviceSpan;
}

Memory::~Memory() = default;

unsigned Memory::device() const { return impl_->device; }

uint64_t Memory::Impl::take_range(size_t bytes, size_t align) {
  uint64_t base = align_up(next, std::max<uint64_t>(align, 4096));
  const uint64_t end = align_up(base + std::max<uint64_t>(bytes, 1), 4096) + kGuardBytes;
  if (end > limit)
    throw sim::error("device alloc: " + std::to_string(bytes) + " bytes: device " + std::to_string(device) +
                     "'s address range is used up");
  next = end;
  return base;
}

uint64_t Memory::alloc(size_t bytes, size_t align) {
  if (align == 0 || (align & (align - 1)) != 0)
    throw sim::error("device alloc: alignment " + std::to_string(align) + " is not a power of two");
  if (bytes > (size_t(1) << 40))
    throw sim::error("device alloc: " + std::to_string(bytes) + " bytes is more than the simulator allows (1 TiB)");
  std::unique_lock lock(impl_->mu);
  const uint64_t base = impl_->take_range(bytes, align);
  auto b = std::make_shared<Backing>(bytes, impl_->device, base);
  impl_->allocs.emplace(base, Impl::Allocation{base, std::move(b), false});
  return base;
}

uint64_t Memory::map_peer(Memory& owner, uint64_t addr) {
  if (&owner == this)
    throw sim::error("map peer: device " + std::to_string(impl_->device) + " maps its own allocation " + hex(addr));
  std::shared_ptr<Backing> b;
  {
    std::shared_lock lock(owner.impl_->mu);
    auto it = owner.impl_->allocs.find(addr);
    if (it == owner.impl_->allocs.end() || it->second.peer)
      throw sim::error("map peer: " + hex(addr) + " is not the start of an allocation of device " +
                       std::to_string(owner.impl_->device));
    b = it->second.backing;
  }
  b->shared = true;
  std::unique_lock lock(impl_->mu);
  const uint64_t base = impl_->take_range(b->size, 4096);
  impl_->allocs.emplace(base, Impl::Allocation{base, b, true});
  return base;
}

void Memory::free(uint64_t addr) {
  std::unique_lock lock(impl_->mu);
  auto it = impl_->allocs.find(addr);
  if (it == impl_->allocs.end())
    throw sim::error("device free: " + hex(addr) + " is not the start of a live allocation");
  impl_->allocs.erase(it);  // the bytes live on while a peer still maps them
}

const Memory::Impl::Allocation* Memory::Impl::find(uint64_t addr, size_t n) const {
  std::shared_lock lock(mu);
  auto it = allocs.upper_bound(addr);
  if (it == allocs.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  if (addr - a.base > a.size() || n > a.size() - (addr - a.base)) return nullptr;
  if (n == 0 && addr - a.base == a.size() && a.size() != 0) return nullptr;
  return &a;
}

std::string Memory::Impl::explain(uint64_t addr, size_t n) const {
  std::shared_lock lock(mu);
  auto it = allocs.upper_bound(addr);
  if (it != allocs.begin()) {
    const Allocation& a = std::prev(it)->second;
    if (addr < a.base + a.size())  // starts inside, runs past the end
      return "runs " + std::to_string(addr + n - (a.base + a.size())) + " bytes past the end of the " +
             std::to_string(a.size()) + "-byte allocation at " + hex(a.base);
    if (addr < a.base + a.size() + kGuardBytes)
      return (addr == a.base + a.size() ? std::string("starts right at the end")
                                      : "starts " + std::to_string(addr - (a.base + a.size())) + " bytes past the end") +
             " of the " + std::to_string(a.size()) + "-byte allocation at " + hex(a.base);
  }
  if (it != allocs.end() && it->second.base - addr <= kGuardBytes)
    return std::to_string(it->second.base - addr) + " bytes before the " +
           std::to_string(it->second.size()) + "-byte allocation at " + hex(it->second.base);
  return "outside any allocation";
}

void Memory::read(uint64_t addr, void* dst, size_t n) const {
  const Impl::Allocation* a = impl_->find(addr, n);
  if (!a)
    throw sim::error("device read of " + std::to_string(n) + " bytes at " + hex(addr) + ": " +
                    impl_->explain(addr, n));
  if (n) std::memcpy(dst, a->data() + (addr - a->base), n);
}

void Memory::write(uint64_t addr, const void* src, size_t n) {
  const Impl::Allocation* a = impl_->find(addr, n);
  if (!a)
    throw sim::error("device write of " + std::to_string(n) + " bytes at " + hex(addr) + ": " +
                    impl_->explain(addr, n));
  if (n) std::memcpy(a->data() + (addr - a->base), src, n);
}

uint8_t* Memory::translate(uint64_t addr, size_t n) {
  const Impl::Allocation* a = impl_->find(addr, n);
  return a ? a->data() + (addr - a->base) : nullptr;
}

void memory_fault(const Inst& in, std::string_view what, uint64_t addr, size_t n, int lane,
                  std::string_view why) {
  std::string msg(what);
  msg += " of " + std::to_string(n) + (n == 1 ? " byte at " : " bytes at ") + hex(addr);
  if (lane >= 0) msg += " (lane " + std::to_string(lane) + ")";
  msg += ": ";
  msg += why;
  fail(in, msg);
}

uint8_t* DeviceView::slow(uint64_t addr, size_t n, int lane, bool write) {
  const Memory::Impl::Allocation* a = mem_.impl().find(addr, n);
  if (!a)
    memory_fault(in_, write ? "device write" : "device read", addr, n, lane,
                 mem_.impl().explain(addr, n));
  lo_ = a->base;
  hi_ = a->base + a->size();
  data_ = a->data();
  backing_ = a->backing.get();
  shared_ = peer_ && backing_->shared;
  if (shared_) report(addr, n, lane, write);
  return data_ + (addr - lo_);
}

void DeviceView::report(uint64_t addr, size_t n, int lane, bool write) {
  peer_->on_access(*wave_, in_, *backing_, addr - lo_, n, lane, write);
}

uint8_t* lds_at(const Wave& w, const Inst& in, uint64_t addr, size_t n, int lane) {
  if (addr > w.lds_size || n > w.lds_size - addr)
    memory_fault(in, "LDS access", addr, n, lane,
                 "outside the workgroup's " + std::to_string(w.lds_size) + "-byte LDS allocation");
  return w.lds + addr;
}

}  // namespace hipasm::sim
