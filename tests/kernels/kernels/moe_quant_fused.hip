#include <hipasm/kernels/moe_quant.hpp>

#include "moe_quant_configs.hpp"

HIPASM_MOE_QUANT_FUSED_KERNEL(moe_q_fused, cfg::q_s1, cfg::q_s2_8w)
// gfx950's 160 KiB of LDS: stage 1 over 4 K parts (16 waves: 96 KiB of partial sums; gfx942: a
// compile error), stage 2 in 8 column waves x 2
#if defined(__gfx950__)
HIPASM_MOE_QUANT_FUSED_KERNEL(moe_q_fused_16w, cfg::q_s1_16w, cfg::q_s2_16w)
#endif
