#include "buffer_fns.hpp"
using namespace buffer_fns;
extern "C" __global__ void copy_tail1(uint32_t* o, uint32_t* s, const uint32_t* i, unsigned n, unsigned t) { HIPASM_KERNEL_BODY(copy_tail<1>, o, s, i, n, t); }
extern "C" __global__ void copy_tail2(uint32_t* o, uint32_t* s, const uint32_t* i, unsigned n, unsigned t) { HIPASM_KERNEL_BODY(copy_tail<2>, o, s, i, n, t); }
extern "C" __global__ void copy_tail3(uint32_t* o, uint32_t* s, const uint32_t* i, unsigned n, unsigned t) { HIPASM_KERNEL_BODY(copy_tail<3>, o, s, i, n, t); }
extern "C" __global__ void copy_tail4(uint32_t* o, uint32_t* s, const uint32_t* i, unsigned n, unsigned t) { HIPASM_KERNEL_BODY(copy_tail<4>, o, s, i, n, t); }
extern "C" __global__ void offsets_k(uint32_t* o, const uint32_t* i, unsigned b, unsigned s) { HIPASM_KERNEL_BODY(offsets, o, i, b, s); }
extern "C" __global__ void narrow_k(uint32_t* o, uint8_t* so, const uint8_t* i, unsigned b) { HIPASM_KERNEL_BODY(narrow_widths, o, so, i, b); }
extern "C" __global__ void lds_dma0(uint32_t* o, const uint32_t* i, unsigned b) { HIPASM_KERNEL_BODY(lds_dma<0>, o, i, b); }
extern "C" __global__ void lds_dma64(uint32_t* o, const uint32_t* i, unsigned b) { HIPASM_KERNEL_BODY(lds_dma<64>, o, i, b); }
extern "C" __global__ void lds_dma5000(uint32_t* o, const uint32_t* i, unsigned b) { HIPASM_KERNEL_BODY(lds_dma<5000>, o, i, b); }
extern "C" __global__ void advance_k(uint32_t* o, uint32_t* o2, const uint32_t* i, unsigned b, unsigned s) { HIPASM_KERNEL_BODY(advance, o, o2, i, b, s); }
extern "C" __global__ void structured_k(uint32_t* o, const uint32_t* i, unsigned r) { HIPASM_KERNEL_BODY(structured, o, i, r); }
extern "C" __global__ void peel_k(uint32_t* o, const uint32_t* i, unsigned b) { HIPASM_KERNEL_BODY(peel_patterns, o, i, b); }
extern "C" __global__ void wrap_k(uint32_t* o, const uint32_t* i, unsigned b, unsigned k) { HIPASM_KERNEL_BODY(wrap_offsets, o, i, b, k); }
extern "C" __global__ void lds_dma_sgpr_k(uint32_t* o, const uint32_t* i, unsigned b, unsigned s) { HIPASM_KERNEL_BODY(lds_dma_sgpr, o, i, b, s); }
