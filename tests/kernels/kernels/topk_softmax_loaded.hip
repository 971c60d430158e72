// The same kernels built without kernarg preloading: clang loads the arguments into the SGPRs
// the preloading kernels read them from (kernel_options::kernarg_preload in a TU without it).
#include <hipasm/kernels/topk_softmax.hpp>

#include "topk_configs.hpp"

HIPASM_TOPK_SOFTMAX_KERNEL(tk_128x8, cfg::tk_128x8)
HIPASM_TOPK_SOFTMAX_KERNEL(tk_256x8_l32, cfg::tk_256x8_l32)
