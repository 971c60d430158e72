// Shared by the kernel-library tests: the test's code object (kernels/<stem>.hip, built for each
// target by hipasm_add_sim_test_folder; this run's target: sim_code_object.hpp) opened once on the
// simulator, and the bf16 encoding the C++ references use for inputs and expected values.
#pragma once
#include "sim_code_object.hpp"
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <hipasm/rt/profile.hpp>  // the launcher, with the profile's types

namespace hipasm::test {

struct kernel_sim {
  std::unique_ptr<hipasm::rt::device> dev = hipasm::rt::device::open(hipasm::rt::backend::sim);
  std::unique_ptr<hipasm::rt::module> m;
  explicit kernel_sim(const char* stem) : m(load(stem)) {}
  // Another code object of the test (kernels/<stem>.hip) on the same device.
  std::unique_ptr<hipasm::rt::module> load(const char* stem) const {
    return dev->load_file(hipasm::test::code_object(stem));
  }
};

// d rounded to f32, then to bf16 by round to nearest even; a NaN stays a (quiet) NaN.
inline uint16_t bf16(double d) {
  const float f = static_cast<float>(d);
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}
inline double from_bf16(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

// Sequences of the given lengths packed one after another (the attention kernels' varlen
// layout): their cu_seqlens (batch + 1 token offsets) and the longest length.
struct packed_seqlens {
  std::vector<int> cu;
  uint32_t max = 0;
};
inline packed_seqlens pack_seqlens(const std::vector<int>& lengths) {
  packed_seqlens p{std::vector<int>(lengths.size() + 1, 0)};
  for (size_t b = 0; b < lengths.size(); ++b) {
    p.cu[b + 1] = p.cu[b] + lengths[b];
    p.max = std::max<uint32_t>(p.max, lengths[b]);
  }
  return p;
}

}  // namespace hipasm::test
