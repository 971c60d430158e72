// bench_kernel_gemm_bf16's kernel: the library's GEMM in its default configuration, f32 out
// (as aiter's bf16gemm_fp32bf16 kernels it is compared with).
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(gemm_bf16_default, (hipasm::gemm_bf16_config{}))
