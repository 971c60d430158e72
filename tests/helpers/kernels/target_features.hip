// Kernels of test_target_features_sim.cpp (gfx942) and test_target_features_sim_gfx950.cpp
// (the same source compiled for gfx950): the helpers that choose by the target's features
// (permlane swaps in lane exchanges and reductions, transposing LDS reads, 16-byte LDS-DMA).
// Block 64 unless the test says otherwise; out[i] / in[i] per lane.
#include "target_features_fns.hpp"

#define LANES(NAME) \
  extern "C" __global__ void lanes_##NAME(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY((tf::lanes<tf::lk::NAME>), out, in); }
LANES(xor16_sum) LANES(xor32_sum) LANES(xor48_fmax) LANES(group32_sum) LANES(xor49_imin_partial) LANES(pair48_sum)
LANES(shuf16) LANES(shuf32) LANES(shuf32_into_self) LANES(shuf16_lds)

#define TR(NAME, EB, SWZ) \
  extern "C" __global__ void tr_##NAME(unsigned* out, const unsigned* in) { HIPASM_KERNEL_BODY((tf::transposed<EB, SWZ>), out, in); }
TR(b16, 2, false) TR(b16_swz, 2, true) TR(b8, 1, false) TR(b8_swz, 1, true)

#define DMA(NAME)                                                                                          \
  extern "C" __global__ void NAME(uint32_t* o, const uint32_t* i, unsigned b, unsigned ld, unsigned org) { \
    HIPASM_KERNEL_BODY(tf::NAME##_fn, o, i, b, ld, org);                                                   \
  }
DMA(dma16_f32_partial) DMA(dma16_bf16_pad) DMA(dma16_bf16_swz) DMA(dma16_wide_swz) DMA(dma16_pad8_fallback)
DMA(dma16_caller_waits)
