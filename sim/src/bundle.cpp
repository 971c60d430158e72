#include "bundle.hpp"

#include <cstring>

#include "elf.hpp"
#include "error.hpp"

namespace hipasm::sim {

namespace {

constexpr std::string_view kMagic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view kCompressedMagic = "CCOB";

[[noreturn]] void fail(const std::string& what) { throw sim::error("offload bundle: " + what); }

uint64_t u64_at(std::span<const uint8_t> b, uint64_t at, const char* what) {
  if (at > b.size() || b.size() - at < 8)
    fail(std::string("truncated: ") + what + " at byte " + std::to_string(at) + " is past the end (" +
         std::to_string(b.size()) + " bytes)");
  uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

bool starts_with(std::span<const uint8_t> b, std::string_view s) {
  return b.size() >= s.size() && std::memcmp(b.data(), s.data(), s.size()) == 0;
}

}  // namespace

std::string BundleEntry::processor() const {
  // <kind>-<triple>-<target id>: the triple amdgcn-amd-amdhsa has an empty environment, so
  // the target ID follows "--" ("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-").
  for (std::string_view kind : {"hipv4-amdgcn-amd-amdhsa--", "hip-amdgcn-amd-amdhsa--"}) {
    if (!std::string_view(id).starts_with(kind)) continue;
    const std::string_view rest = std::string_view(id).substr(kind.size());
    return std::string(rest.substr(0, rest.find(':')));
  }
  return {};
}

bool is_offload_bundle(std::span<const uint8_t> bytes) {
  return starts_with(bytes, kMagic) || starts_with(bytes, kCompressedMagic);
}

std::vector<BundleEntry> read_offload_bundle(std::span<const uint8_t> b) {
  if (starts_with(b, kCompressedMagic))
    fail("compressed (clang --offload-compress); unbundle it with clang-offload-bundler first");
  if (!starts_with(b, kMagic)) fail("no __CLANG_OFFLOAD_BUNDLE__ magic");
  uint64_t at = kMagic.size();
  const uint64_t n = u64_at(b, at, "the entry count");
  at += 8;
  // Each entry takes at least 24 header bytes: a count past that is corrupt, not a big bundle.
  if (n == 0 || n > (b.size() - at) / 24)
    fail("entry count " + std::to_string(n) + " does not fit the file's " + std::to_string(b.size()) + " bytes");
  std::vector<BundleEntry> entries;
  for (uint64_t i = 0; i < n; ++i) {
    BundleEntry e;
    e.offset = u64_at(b, at, "an entry's offset");
    e.size = u64_at(b, at + 8, "an entry's size");
    const uint64_t id_len = u64_at(b, at + 16, "an entry's id length");
    at += 24;
    if (id_len == 0 || id_len > 1024 || id_len > b.size() - at)
      fail("entry " + std::to_string(i) + ": id of " + std::to_string(id_len) + " bytes does not fit the file");
    e.id.assign(reinterpret_cast<const char*>(b.data() + at), id_len);
    at += id_len;
    if (e.offset > b.size() || e.size > b.size() - e.offset)
      fail("entry '" + printable(e.id) + "' (bytes " + std::to_string(e.offset) + " + " + std::to_string(e.size) +
           ") is past the end of the file (" + std::to_string(b.size()) + " bytes)");
    for (const BundleEntry& other : entries)
      if (other.id == e.id) fail("two entries '" + printable(e.id) + "'");
    entries.push_back(std::move(e));
  }
  return entries;
}

std::span<const uint8_t> select_code_object(std::span<const uint8_t> bytes, std::string_view target) {
  if (!is_offload_bundle(bytes)) return bytes;
  const std::vector<BundleEntry> entries = read_offload_bundle(bytes);
  std::string have;
  for (const BundleEntry& e : entries) {
    const std::string p = e.processor();
    if (p.empty()) continue;  // the host entry
    if (p == target) {
      if (e.size == 0) fail("the " + std::string(target) + " entry is empty");
      return bytes.subspan(e.offset, e.size);
    }
    have += (have.empty() ? "" : ", ") + printable(p);
  }
  throw sim::error("the fat binary has no " + printable(target) + " code object (it has: " +
                  (have.empty() ? "none" : have) + ")");
}

}  // namespace hipasm::sim
