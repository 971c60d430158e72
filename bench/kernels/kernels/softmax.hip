#include <hipasm/kernels/softmax.hpp>

#include "softmax_bench_configs.hpp"

HIPASM_SOFTMAX_KERNEL(softmax_bf16_4096, bench_cfg::sm_bf16_4096)
HIPASM_SOFTMAX_KERNEL(softmax_bf16_8192, bench_cfg::sm_bf16_8192)
HIPASM_SOFTMAX_KERNEL(softmax_f32_32000, bench_cfg::sm_f32_32000)
