#include <hipasm/kernels/mxfp4_quant.hpp>

#include "mxfp4_quant_bench_configs.hpp"

HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_4096, bench_cfg::mxfp4_4096)
HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_7168, bench_cfg::mxfp4_7168)
