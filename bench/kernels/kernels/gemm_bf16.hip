// bench_kernel_gemm_bf16's kernels (configurations: gemm_bf16_bench_configs.hpp): the library's
// GEMM, f32 out: 256x256x64 for large shapes (gemm_bf16_bench::big: 8 waves on gfx942, 4 on
// gfx950; the other built too), 128x128x32 and 64x64x64 with split-K 1/2/4/8 for smaller ones
// (the bench's choice: see bench_gemm_bf16.cpp; GEMM_BENCH_KERNEL=name forces one), the
// 256x256x32 two-buffer variant and the K x N B variant for comparison, the odd-K variant, and
// the 128x256x64 tile of launch_gemm_bf16_balanced's rows left; on gfx950 the 32x64 tiles of
// M <= 32 (bf16 out).
#include "gemm_bf16_bench_configs.hpp"

HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256w8, (gemm_bf16_bench::big8))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256w4, (gemm_bf16_bench::big4))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256x32, (gemm_bf16_bench::big_k32))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_default, (gemm_bf16_bench::mid))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64, (gemm_bf16_bench::small))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64_k2, (gemm_bf16_bench::small_k2))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64_k4, (gemm_bf16_bench::small_k4))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64_k8, (gemm_bf16_bench::small_k8))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_oddk, (gemm_bf16_bench::odd))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256nn, (gemm_bf16_bench::big_nn))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_128x256, (gemm_bf16_bench::rest))
#if defined(__gfx950__)
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_32x64_k2, (gemm_bf16_bench::skinny_k2))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_32x64_k3, (gemm_bf16_bench::skinny_k3))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_32x64_k4, (gemm_bf16_bench::skinny_k4))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_32x64_k6, (gemm_bf16_bench::skinny_k6))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_32x64_k8, (gemm_bf16_bench::skinny_k8))
#endif
