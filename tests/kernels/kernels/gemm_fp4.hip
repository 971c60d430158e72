// HIPASM_KERNARG_PRELOAD (the arguments from the preloaded SGPRs, as in the benchmarks)
// test_gemm_fp4.cpp's kernels (gfx950): the MXFP4 GEMM in the configurations the tests run
// (gemm_fp4_configs.hpp: the same configurations on the host), and the quantization of the
// end-to-end test.
#include <hipasm/kernels/gemm_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include "gemm_fp4_configs.hpp"

HIPASM_GEMM_FP4_KERNEL(f4_32x64, fp4_configs::f4_32x64)
HIPASM_GEMM_FP4_KERNEL(f4_64x128, fp4_configs::f4_64x128)
HIPASM_GEMM_FP4_KERNEL(f4_64x32_k3, fp4_configs::f4_64x32_k3)
HIPASM_GEMM_FP4_KERNEL(f4_32x128_bs, fp4_configs::f4_32x128_bs)
HIPASM_GEMM_FP4_KERNEL(f4_64x128_bs_k2, fp4_configs::f4_64x128_bs_k2)
HIPASM_GEMM_FP4_KERNEL(f4_64x128_al_k2, fp4_configs::f4_64x128_al_k2)
HIPASM_GEMM_FP4_KERNEL(f4_32x64_al_bs, fp4_configs::f4_32x64_al_bs)
HIPASM_GEMM_FP4_KERNEL(f4_32x64_al_nw, fp4_configs::f4_32x64_al_nw)
HIPASM_GEMM_FP4_KERNEL(f4_64x128_w4_al_bs, fp4_configs::f4_64x128_w4_al_bs)
HIPASM_GEMM_FP4_KERNEL(f4_128x128_ab, fp4_configs::f4_128x128_ab)
HIPASM_GEMM_FP4_KERNEL(f4_256x256_ab, fp4_configs::f4_256x256_ab)
HIPASM_GEMM_FP4_KERNEL(f4_128x128_ab_p, fp4_configs::f4_128x128_ab_p)
HIPASM_MXFP4_QUANT_KERNEL(quant_512, fp4_configs::quant_512)
