#include <hipasm/kernels/dynamic_quant.hpp>
#include <hipasm/kernels/rmsnorm.hpp>

#include "dynamic_quant_bench_configs.hpp"

HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_4096, bench_cfg::fp8_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_i8_4096, bench_cfg::i8_4096)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_8192, bench_cfg::fp8_8192)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_14336, bench_cfg::fp8_14336)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_i8_18944, bench_cfg::i8_18944)
HIPASM_RMSNORM_QUANT_KERNEL(rmsnorm_quant_fp8_4096, bench_cfg::rq_4096_res, hipasm::kernels::quant_type::fp8)
HIPASM_RMSNORM_QUANT_KERNEL(rmsnorm_quant_fp8_8192, bench_cfg::rq_8192_res, hipasm::kernels::quant_type::fp8)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_block128_7168, bench_cfg::fp8_block128_7168)
HIPASM_DYNAMIC_QUANT_KERNEL(quant_fp8_block128_18432, bench_cfg::fp8_block128_18432)
