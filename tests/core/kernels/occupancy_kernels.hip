// Kernels that ask for an occupancy (builder::require_waves_per_simd): test_descriptor.cpp
// checks that the descriptor clang writes for them allows that many waves a SIMD.
#include "hipasm/kernel.hpp"
#include "occupancy_fns.hpp"

using namespace hipasm;
using namespace hipasm::test;

#define OCCUPANCY_KERNEL(name, V, A, S, W) \
  extern "C" __global__ void name(uint32_t* out) { HIPASM_KERNEL_BODY((occupancy_fn<V, A, S, W>), out); }

OCCUPANCY_KERNEL(occ_3_vgprs, 160, 0, 0, 3)          // 160 VGPRs held of the 168 that 3 waves allow
OCCUPANCY_KERNEL(occ_3_vgprs_agprs, 88, 72, 0, 3)    // 88 VGPRs + 72 AGPRs: accum_offset 92 (or 96) + 72 <= 168
OCCUPANCY_KERNEL(occ_5_vgprs, 90, 0, 0, 5)           // 96 a lane for 5 waves
OCCUPANCY_KERNEL(occ_8_sgprs, 8, 0, 80, 8)           // 64 VGPRs and 90 SGPRs (with VCC, FLAT_SCRATCH, XNACK_MASK) for 8
OCCUPANCY_KERNEL(occ_none_vgprs, 170, 0, 0, 0)       // no requirement: 2 waves a SIMD
