// Fat binaries: clang offload bundles ("__CLANG_OFFLOAD_BUNDLE__", what `clang++ -x hip
// --offload-arch=gfx942 --offload-arch=gfx950 --offload-device-only` writes and
// hipModuleLoadData accepts) holding one code object per target. The reader validates the
// header and every entry against the file (untrusted input: one-line sim::error, never a crash)
// and picks the code object of one target, as HIP's runtime picks the device's.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hipasm::sim {

struct BundleEntry {
  std::string id;  // "hipv4-amdgcn-amd-amdhsa--gfx942", "host-x86_64-unknown-linux-gnu-"
  uint64_t offset = 0, size = 0;
  // The processor of a hip/hipv4 amdgcn entry ("gfx942", features dropped); "" otherwise.
  std::string processor() const;
};

// An uncompressed offload bundle starts with the magic; a compressed one ("CCOB") is refused
// by read_offload_bundle with its own message.
bool is_offload_bundle(std::span<const uint8_t> bytes);
// The entries, in file order. Throws sim::error on a truncated or inconsistent bundle.
std::vector<BundleEntry> read_offload_bundle(std::span<const uint8_t> bytes);

// The code object to load for `target` ("gfx942", "gfx950"): `bytes` itself when it is not a
// bundle (an ELF: the loader checks its target), else the bundle's entry for that processor.
// Throws sim::error "the fat binary has no gfx950 code object (it has: gfx942)" and the like.
std::span<const uint8_t> select_code_object(std::span<const uint8_t> bytes, std::string_view target);

}  // namespace hipasm::sim
