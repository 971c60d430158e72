// bench_kernel_gemm_fp4's kernels (gfx950): the MXFP4 GEMM in the configurations of
// gemm_fp4_bench_configs.hpp, and the flow's quantization of A (bf16 -> MXFP4) for the
// challenge's K.
#include <hipasm/kernels/gemm_fp4.hpp>
#include <hipasm/kernels/mxfp4_quant.hpp>

#include "gemm_fp4_bench_configs.hpp"

HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64, f4_bench::f4_32x64)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x32_k4, f4_bench::f4_32x32_k4)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_64x128, f4_bench::f4_64x128)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_bs, f4_bench::f4_32x64_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x128_bs, f4_bench::f4_32x128_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x256_bs, f4_bench::f4_32x256_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x128_bs_k2, f4_bench::f4_32x128_bs_k2)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_bs_k4, f4_bench::f4_32x64_bs_k4)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_64x128_bs, f4_bench::f4_64x128_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_128x128_bs, f4_bench::f4_128x128_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_al_bs, f4_bench::f4_32x64_al_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x128_al_bs, f4_bench::f4_32x128_al_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_al_bs_k4, f4_bench::f4_32x64_al_bs_k4)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_64x128_al_bs, f4_bench::f4_64x128_al_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_128x128_al_bs, f4_bench::f4_128x128_al_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_al_nw, f4_bench::f4_32x64_al_nw)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x128_al_nw, f4_bench::f4_32x128_al_nw)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_32x64_al_nw_k4, f4_bench::f4_32x64_al_nw_k4)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_64x128_w4_al_bs, f4_bench::f4_64x128_w4_al_bs)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_256x256_ab, f4_bench::f4_256x256_ab)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_128x128_ab, f4_bench::f4_128x128_ab)
HIPASM_GEMM_FP4_KERNEL(gemm_fp4_256x256_ab_p, f4_bench::f4_256x256_ab_p)
HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_512, f4_bench::q512)
HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_1536, f4_bench::q1536)
HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_2048, f4_bench::q2048)
HIPASM_MXFP4_QUANT_KERNEL(quant_mxfp4_7168, f4_bench::q7168)
