// Launch checks and the kernarg segment: typed explicit arguments checked against the code
// object's metadata and placed at their offsets, hidden arguments (block counts, group
// sizes, remainders, ...) filled the way the HIP runtime fills them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "elf.hpp"
#include "error.hpp"

namespace hipasm::sim {

// A grid (in workgroups) or a workgroup (in work-items).
struct LaunchDims {
  uint32_t x = 1, y = 1, z = 1;
};

// One explicit argument as its bytes, in the kernel's argument order.
struct ArgBytes {
  const void* data = nullptr;
  size_t size = 0;
};

// Throws sim::error for an empty grid or block, a block larger than the kernel allows, a grid
// whose work-item count overflows 32 bits, or more LDS than gfx942 has.
void check_launch(const KernelInfo& k, LaunchDims grid_blocks, LaunchDims block, uint32_t dynamic_lds);

enum class kernarg_layout {
  full,           // the whole segment (.kernarg_segment_size bytes), hidden arguments filled
  explicit_only,  // up to the end of the last explicit argument (what hipModuleLaunchKernel takes)
};

// Throws sim::error when the argument count or an argument's size differs from the metadata.
std::vector<uint8_t> build_kernarg(const KernelInfo& k, LaunchDims grid_blocks, LaunchDims block,
                                   std::span<const ArgBytes> args, uint32_t dynamic_lds,
                                   kernarg_layout layout);

// A host that passes a longer argument buffer than the metadata describes (aiter's asm kernels
// take a KernelArgs struct 16 bytes past .kernarg_segment_size): `segment` grows to `bytes`
// with zeros. Throws sim::error past 1 MiB.
void extend_kernarg(const KernelInfo& k, std::vector<uint8_t>& segment, uint32_t bytes);

}  // namespace hipasm::sim
