// Launch checks and the kernarg segment: typed explicit arguments checked against the code
// object's metadata and placed at their offsets, hidden arguments (block counts, group
// sizes, remainders, ...) filled the way the HIP runtime fills them.
#pragma once
#include <cstdint>
#include <vector>

#include "elf.hpp"
#include "hipasm/sim/launcher.hpp"

namespace hipasm::sim {

// Throws rt::error for an empty grid or block, a block larger than the kernel allows, a grid
// whose work-item count overflows 32 bits, or more LDS than gfx942 has.
void check_launch(const KernelInfo& k, rt::dim3 grid_blocks, rt::dim3 block, uint32_t dynamic_lds);

enum class kernarg_layout {
  full,           // the whole segment (.kernarg_segment_size bytes), hidden arguments filled
  explicit_only,  // up to the end of the last explicit argument (what hipModuleLaunchKernel takes)
};

// Throws rt::error when the argument count or an argument's size differs from the metadata.
std::vector<uint8_t> build_kernarg(const KernelInfo& k, rt::dim3 grid_blocks, rt::dim3 block,
                                   const rt::kernel_args& args, uint32_t dynamic_lds,
                                   kernarg_layout layout);

// A host that passes a longer argument buffer than the metadata describes (aiter's asm kernels
// take a KernelArgs struct 16 bytes past .kernarg_segment_size): `segment` grows to `bytes`
// with zeros. Throws rt::error past 1 MiB.
void extend_kernarg(const KernelInfo& k, std::vector<uint8_t>& segment, uint32_t bytes);

}  // namespace hipasm::sim
