#include <hipasm/kernels/act_and_mul.hpp>

#include "act_and_mul_bench_configs.hpp"

HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_11008, bench_cfg::silu_11008)
HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_14336, bench_cfg::silu_14336)
HIPASM_ACT_AND_MUL_KERNEL(silu_and_mul_18944, bench_cfg::silu_18944)
HIPASM_ACT_AND_MUL_KERNEL(gelu_and_mul_4096, bench_cfg::gelu_4096)
HIPASM_ACT_AND_MUL_KERNEL(gelu_tanh_and_mul_14336, bench_cfg::gelu_tanh_14336)
