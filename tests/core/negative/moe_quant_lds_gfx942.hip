// EXPECT: moe_quant: the k_split partial sums or the weight tiles exceed the target's LDS
// Stage 1 over 4 K parts (the 3 parts' sums of g and up: 96 KiB) built for gfx942 (64 KiB of
// LDS): a compile error naming the problem (gfx950's 160 KiB hold it: tests/kernels moe_q_fused_16w).
#include <hipasm/kernels/moe_quant.hpp>

constexpr hipasm::kernels::moe_quant_config stage1{.waves = 4, .k_split = 4};

HIPASM_MOE_QUANT_STAGE1_KERNEL(stage1_16w, stage1)
