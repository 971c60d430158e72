#include <hipasm/kernels/topk_softmax.hpp>

#include "topk_configs.hpp"

HIPASM_TOPK_SOFTMAX_KERNEL(tk_8x2, cfg::tk_8x2)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_64x8, cfg::tk_64x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_128x8, cfg::tk_128x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_256x8, cfg::tk_256x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_160x6, cfg::tk_160x6)
