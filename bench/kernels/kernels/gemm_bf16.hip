// bench_kernel_gemm_bf16's kernels: the library's GEMM, f32 out (as aiter's bf16gemm_fp32bf16
// kernels it is compared with): the default configuration (128x128x64, 2 stages) for shapes that
// fill the device, a 64x64 tile (3 stages) for those that don't; and alternatives the bench can
// run instead (GEMM_BENCH_KERNEL=name).
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(gemm_bf16_default, (hipasm::gemm_bf16_config{}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64, (hipasm::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .stages = 3}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_bk32s3, (hipasm::gemm_bf16_config{.bk = 32, .stages = 3}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_w8, (hipasm::gemm_bf16_config{.wm = 2, .wn = 4}))
