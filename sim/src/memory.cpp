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

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

Memory::Memory() : impl_(std::make_unique<Impl>()) {}

Memory::~Memory() {
  for (auto& [base, a] : impl_->allocs) ::operator delete[](a.data, std::align_val_t(kHostAlign));
}

uint64_t Memory::alloc(size_t bytes, size_t align) {
  if (align == 0 || (align & (align - 1)) != 0)
    throw sim::error("device alloc: alignment " + std::to_string(align) + " is not a power of two");
  if (bytes > (size_t(1) << 40))
    throw sim::error("device alloc: " + std::to_string(bytes) + " bytes is more than the simulator allows (1 TiB)");
  std::unique_lock lock(impl_->mu);
  uint64_t base = align_up(impl_->next, std::max<uint64_t>(align, 4096));
  // Host storage of at least one byte so a zero-size allocation still has a unique address.
  auto* data = static_cast<uint8_t*>(
      ::operator new[](std::max<size_t>(bytes, 1), std::align_val_t(kHostAlign)));
  std::memset(data, 0, std::max<size_t>(bytes, 1));
  impl_->allocs.emplace(base, Impl::Allocation{base, bytes, data});
  impl_->next = align_up(base + std::max<uint64_t>(bytes, 1), 4096) + kGuardBytes;
  return base;
}

void Memory::free(uint64_t addr) {
  std::unique_lock lock(impl_->mu);
  auto it = impl_->allocs.find(addr);
  if (it == impl_->allocs.end())
    throw sim::error("device free: " + hex(addr) + " is not the start of a live allocation");
  ::operator delete[](it->second.data, std::align_val_t(kHostAlign));
  impl_->allocs.erase(it);
}

const Memory::Impl::Allocation* Memory::Impl::find(uint64_t addr, size_t n) const {
  std::shared_lock lock(mu);
  auto it = allocs.upper_bound(addr);
  if (it == allocs.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  if (addr - a.base > a.size || n > a.size - (addr - a.base)) return nullptr;
  if (n == 0 && addr - a.base == a.size && a.size != 0) return nullptr;
  return &a;
}

std::string Memory::Impl::explain(uint64_t addr, size_t n) const {
  std::shared_lock lock(mu);
  auto it = allocs.upper_bound(addr);
  if (it != allocs.begin()) {
    const Allocation& a = std::prev(it)->second;
    if (addr < a.base + a.size)  // starts inside, runs past the end
      return "runs " + std::to_string(addr + n - (a.base + a.size)) + " bytes past the end of the " +
             std::to_string(a.size) + "-byte allocation at " + hex(a.base);
    if (addr < a.base + a.size + kGuardBytes)
      return (addr == a.base + a.size ? std::string("starts right at the end")
                                      : "starts " + std::to_string(addr - (a.base + a.size)) + " bytes past the end") +
             " of the " + std::to_string(a.size) + "-byte allocation at " + hex(a.base);
  }
  if (it != allocs.end() && it->second.base - addr <= kGuardBytes)
    return std::to_string(it->second.base - addr) + " bytes before the " +
           std::to_string(it->second.size) + "-byte allocation at " + hex(it->second.base);
  return "outside any allocation";
}

void Memory::read(uint64_t addr, void* dst, size_t n) const {
  const Impl::Allocation* a = impl_->find(addr, n);
  if (!a)
    throw sim::error("device read of " + std::to_string(n) + " bytes at " + hex(addr) + ": " +
                    impl_->explain(addr, n));
  if (n) std::memcpy(dst, a->data + (addr - a->base), n);
}

void Memory::write(uint64_t addr, const void* src, size_t n) {
  const Impl::Allocation* a = impl_->find(addr, n);
  if (!a)
    throw sim::error("device write of " + std::to_string(n) + " bytes at " + hex(addr) + ": " +
                    impl_->explain(addr, n));
  if (n) std::memcpy(a->data + (addr - a->base), src, n);
}

uint8_t* Memory::translate(uint64_t addr, size_t n) {
  const Impl::Allocation* a = impl_->find(addr, n);
  return a ? a->data + (addr - a->base) : nullptr;
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

uint8_t* DeviceView::at(uint64_t addr, size_t n, int lane, bool write) {
  if (addr >= lo_ && addr + n <= hi_ && addr + n >= addr) return data_ + (addr - lo_);
  const Memory::Impl::Allocation* a = mem_.impl().find(addr, n);
  if (!a)
    memory_fault(in_, write ? "device write" : "device read", addr, n, lane,
                 mem_.impl().explain(addr, n));
  lo_ = a->base;
  hi_ = a->base + a->size;
  data_ = a->data;
  return data_ + (addr - lo_);
}

uint8_t* lds_at(const Wave& w, const Inst& in, uint64_t addr, size_t n, int lane) {
  if (addr > w.lds_size || n > w.lds_size - addr)
    memory_fault(in, "LDS access", addr, n, lane,
                 "outside the workgroup's " + std::to_string(w.lds_size) + "-byte LDS allocation");
  return w.lds + addr;
}

}  // namespace hipasm::sim
