#include <hipasm/kernels/rotary.hpp>

#include "rotary_bench_configs.hpp"

HIPASM_ROTARY_KERNEL(rope_llama8b, bench_cfg::rope_llama8b)
HIPASM_ROTARY_KERNEL(rope_llama70b, bench_cfg::rope_llama70b)
HIPASM_ROTARY_KERNEL(rope_gptj6b, bench_cfg::rope_gptj6b)
