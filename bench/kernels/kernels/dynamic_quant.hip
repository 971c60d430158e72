#include <hipasm/kernels/dynamic_quant.hpp>

#include "dynamic_quant_bench_configs.hpp"

HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_4096, bench_cfg::fp8_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_i8_4096, bench_cfg::i8_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_8192, bench_cfg::fp8_8192)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_14336, bench_cfg::fp8_14336)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_i8_18944, bench_cfg::i8_18944)
