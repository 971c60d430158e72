// test_dynamic_quant's GEMMs: dynamic_quant's q and scales fed to gemm_quant's per-token and
// block128 kernels.
#include <hipasm/kernels/gemm_quant.hpp>

#include "dynamic_quant_configs.hpp"

HIPASM_GEMM_QUANT_KERNEL(dq_gemm_i8, cfg::dq_gemm_i8)
HIPASM_GEMM_QUANT_KERNEL(dq_gemm_fp8, cfg::dq_gemm_fp8)
HIPASM_GEMM_QUANT_KERNEL(dq_gemm_fp8_block, cfg::dq_gemm_fp8_block)
