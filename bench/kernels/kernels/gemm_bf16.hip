// bench_kernel_gemm_bf16's kernels: the library's GEMM, f32 out (as aiter's bf16gemm_fp32bf16
// kernels it is compared with): 256x256x64 with 8 waves and one LDS buffer for large shapes,
// 128x128x32 (4 waves, 2 LDS buffers, 2 tiles ahead) and 64x64x64 with split-K 1/2/4 for smaller
// ones (the bench's choice: see bench_gemm_bf16.cpp; GEMM_BENCH_KERNEL=name forces one), the
// 256x256x32 two-buffer variant for comparison, the odd-K variant, and the 128x256x64 tile (one
// LDS buffer, two tiles ahead) of launch_gemm_bf16_balanced's rows left.
#include <hipasm/kernels/gemm_bf16.hpp>

HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256x32, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 32, .wm = 2, .wn = 4}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_default, (hipasm::kernels::gemm_bf16_config{}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64_k2, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .split_k = 2}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_64x64_k4, (hipasm::kernels::gemm_bf16_config{.bm = 64, .bn = 64, .bk = 64, .split_k = 4}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_oddk, (hipasm::kernels::gemm_bf16_config{.odd_k = true, .ahead = 1}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_256nn, (hipasm::kernels::gemm_bf16_config{.bm = 256, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .ahead = 1, .lds_buffers = 1, .b_kn = true}))
HIPASM_GEMM_BF16_KERNEL(gemm_bf16_128x256, (hipasm::kernels::gemm_bf16_config{.bm = 128, .bn = 256, .bk = 64, .wm = 2, .wn = 4, .lds_buffers = 1}))
