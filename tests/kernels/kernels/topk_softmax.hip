// HIPASM_KERNARG_PRELOAD (the kernels read their arguments from the preloaded SGPRs)
#include <hipasm/kernels/topk_softmax.hpp>

#include "topk_configs.hpp"

HIPASM_TOPK_SOFTMAX_KERNEL(tk_8x2, cfg::tk_8x2)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_8x8, cfg::tk_8x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_8x2_l4, cfg::tk_8x2_l4)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_7x3, cfg::tk_7x3)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_30x5, cfg::tk_30x5)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_64x8, cfg::tk_64x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_128x8, cfg::tk_128x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_128x8_l16, cfg::tk_128x8_l16)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_256x8, cfg::tk_256x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_256x8_l32, cfg::tk_256x8_l32)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_160x6, cfg::tk_160x6)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_160x6_l32, cfg::tk_160x6_l32)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_128x20_l32, cfg::tk_128x20_l32)
